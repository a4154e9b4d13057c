//! The loop that ties input, session and search together: a reader thread turns bytes into
//! lines; this loop parses and dispatches them.

use crate::command::{MAX_LINE, parse};
use crate::output::Output;
use crate::session::{Flow, Session};
use std::io::{BufRead, BufReader, Read};
use std::sync::mpsc;

/// What the reader thread hands over.
enum Input {
    Line(String),
    /// A line that could not be taken as text; the reason.
    Bad(String),
    End,
}

/// Reads lines until end of input; a line of bytes that are not UTF-8, or one longer than we
/// accept, becomes [`Input::Bad`] and reading goes on.
fn read_lines(input: impl Read, tx: mpsc::Sender<Input>) {
    let mut reader = BufReader::new(input);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        // Read at most a bit more than the longest accepted line, then skip the rest of it.
        let mut limited = (&mut reader).take(MAX_LINE as u64 + 2);
        match limited.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(_) => break,
        }
        let complete = buf.last() == Some(&b'\n');
        if !complete && buf.len() > MAX_LINE {
            let mut skipped = buf.len();
            loop {
                let mut rest = Vec::new();
                match (&mut reader).take(1 << 20).read_until(b'\n', &mut rest) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => skipped += n,
                }
                if rest.last() == Some(&b'\n') {
                    break;
                }
            }
            if tx.send(Input::Bad(format!("line of {skipped} bytes is longer than {MAX_LINE}"))).is_err() {
                return;
            }
            continue;
        }
        let msg = match String::from_utf8(buf.clone()) {
            Ok(text) => Input::Line(text.trim_end_matches(['\n', '\r']).to_string()),
            Err(e) => {
                Input::Bad(format!("line is not UTF-8 (invalid byte at offset {})", e.utf8_error().valid_up_to()))
            }
        };
        if tx.send(msg).is_err() {
            return;
        }
    }
    let _ = tx.send(Input::End);
}

/// Runs a session over `input` until `quit` or end of input.
pub fn run(input: impl Read + Send + 'static, out: Output) {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("input".into())
        .spawn(move || read_lines(input, tx))
        .expect("spawn the input thread");
    let mut session = Session::new(out.clone());
    while let Ok(msg) = rx.recv() {
        let line = match msg {
            Input::Line(line) => line,
            Input::Bad(why) => {
                out.error(why);
                continue;
            }
            Input::End => break,
        };
        let cmd = match parse(&line) {
            Ok(cmd) => cmd,
            Err(e) => {
                out.error(e.to_string());
                // Every `go` gets its `bestmove`, even one we cannot read.
                if line.split_whitespace().next() == Some("go") {
                    session.stop_search();
                    out.line("bestmove (none)");
                }
                continue;
            }
        };
        if session.handle(cmd) == Flow::Quit {
            return;
        }
    }
    session.stop_search();
}
