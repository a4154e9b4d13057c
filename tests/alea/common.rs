//! The engine through its protocol, as a GUI drives it: shared by the protocol tests.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Where the engines these tests start keep what they cache (Die Chess's solution): one
/// directory for each build of the tests, so that the tests of a run share one solve and none
/// reads what an older build kept, and never the user's own cache.
pub fn cache_home() -> std::path::PathBuf {
    let built = std::env::current_exe()
        .and_then(|exe| exe.metadata())
        .and_then(|meta| meta.modified())
        .ok()
        .and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |since| since.as_secs());
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cache-{built}"))
}

/// The `alea` binary, with the tests' cache directory.
pub fn alea() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_alea"));
    command.env("XDG_CACHE_HOME", cache_home());
    command
}

/// The engine as a GUI sees it.
pub struct Engine {
    pub child: Child,
    pub stdin: ChildStdin,
    pub lines: Receiver<String>,
}

impl Engine {
    pub fn start() -> Engine {
        let mut child =
            alea().stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("start alea");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, lines }
    }

    pub fn send(&mut self, line: &str) {
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`.
    pub fn until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("no '{prefix}' within {timeout:?}; saw {seen:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("engine exited waiting for '{prefix}'; saw {seen:?}"),
            }
        }
    }

    /// Sends a line and returns the replies up to `readyok` (which is sent after it).
    pub fn ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.send("isready");
        let mut lines = self.until("readyok", Duration::from_secs(30));
        lines.pop();
        lines
    }

    pub fn go(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.until("bestmove", Duration::from_secs(60))
    }

    pub fn quit(mut self) {
        self.send("quit");
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(5) {
            if self.child.try_wait().unwrap().is_some() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        panic!("quit did not end the engine");
    }
}

pub fn errors(lines: &[String]) -> usize {
    lines.iter().filter(|l| l.starts_with("info string error: ")).count()
}

/// The centipawn score of an `info` line, if it has one.
pub fn score_cp(line: &str) -> Option<i32> {
    line.split(" score cp ").nth(1)?.split(' ').next()?.parse().ok()
}

/// The words after `legalmoves`.
pub fn listed(lines: &[String]) -> Vec<String> {
    assert_eq!(lines.len(), 1, "{lines:?}");
    lines[0].strip_prefix("legalmoves").expect("a legalmoves reply").split_whitespace().map(String::from).collect()
}

/// The position's FEN (DFEN in the variants of several moves a turn), as `d` prints it.
pub fn fen_of(engine: &mut Engine) -> String {
    let lines = engine.ask("d");
    lines.iter().find_map(|l| l.strip_prefix("Fen: ")).expect("d prints the FEN").to_string()
}

/// After a refused `position` the engine holds none (so that a GUI never gets an answer for the
/// position before): `d`, `legalmoves` and `go` say so, until a position is set again.
pub fn assert_no_position(e: &mut Engine, after: &str) {
    let no_position = "info string error: no position (the last position command was refused)";
    assert_eq!(e.ask("d"), [no_position], "{after}: d");
    assert_eq!(e.ask("legalmoves roll 1"), [no_position], "{after}: legalmoves");
    assert_eq!(e.go("go depth 1"), [no_position, "bestmove (none)"], "{after}: go");
}

/// After a bad line: where it was a `position`, the engine holds none until `setup` sets the
/// position again; either way the position is then `before`.
pub fn after_refusal(e: &mut Engine, bad: &str, setup: &str, before: &str) {
    if bad.starts_with("position") {
        assert_no_position(e, bad);
        assert!(e.ask(setup).is_empty(), "{setup}");
    }
    assert_eq!(fen_of(e), before, "{bad} changed the position");
}
