//! The engine's output: whole lines, flushed at once, from any thread.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// A shared line writer. Clones write to the same stream; each line is written and flushed
/// under one lock, so lines from the search thread and the session never interleave.
#[derive(Clone)]
pub struct Output {
    inner: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    pub fn new(writer: impl Write + Send + 'static) -> Output {
        Output { inner: Arc::new(Mutex::new(Box::new(writer))) }
    }

    /// Writes one line. A closed output (the GUI went away) is ignored: the input side will
    /// see end of file and end the process.
    pub fn line(&self, text: impl AsRef<str>) {
        let mut w = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(w, "{}", text.as_ref());
        let _ = w.flush();
    }

    /// Writes several lines under one lock.
    pub fn lines<S: AsRef<str>>(&self, texts: impl IntoIterator<Item = S>) {
        let mut w = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        for t in texts {
            let _ = writeln!(w, "{}", t.as_ref());
        }
        let _ = w.flush();
    }

    /// `info string error: ...`, the answer to every bad input.
    pub fn error(&self, what: impl std::fmt::Display) {
        self.line(format!("info string error: {what}"));
    }
}
