//! The progress of a long command (a match, data generation) on standard error: a bar at a
//! terminal; elsewhere (CI, `nohup`, a pipe into `tee`) a line now and then with the running
//! figures, as cutechess-cli prints its score after each game, so a log shows how far it got.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Instant;

pub struct Progress {
    /// The bar at a terminal; `None` when lines are written instead.
    bar: Option<ProgressBar>,
    total: u64,
    /// What is counted ("pairs", "games").
    unit: &'static str,
    /// A line at least every this many finished units (and at the last).
    every: u64,
    /// The count last written as a line.
    written: Mutex<u64>,
    started: Instant,
}

impl Progress {
    /// `template` is the bar's (indicatif's template language), for a terminal.
    pub fn new(total: u64, unit: &'static str, every: u64, template: &str) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(total);
            bar.set_style(ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()));
            bar
        });
        Progress { bar, total, unit, every: every.max(1), written: Mutex::new(0), started: Instant::now() }
    }

    /// `done` units are finished; `figures` is the running result (a score), or empty.
    pub fn update(&self, done: u64, figures: &str) {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
            bar.set_message(figures.to_string());
            return;
        }
        let mut written = self.written.lock().unwrap_or_else(|e| e.into_inner());
        if done <= *written || (done < self.total && done < *written + self.every) {
            return;
        }
        *written = done;
        let elapsed = self.started.elapsed().as_secs();
        let time = format!("{}:{:02}:{:02}", elapsed / 3600, elapsed / 60 % 60, elapsed % 60);
        let separator = if figures.is_empty() { "" } else { ", " };
        eprintln!("{} {done}/{} done{separator}{figures} ({time})", self.unit, self.total);
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
