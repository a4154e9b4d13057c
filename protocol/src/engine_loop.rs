//! The loop that ties input, session and search together: a reader thread turns bytes into
//! lines; this loop parses and dispatches them.

use crate::command::{Command, MAX_LINE, parse};
use crate::output::Output;
use crate::session::{Flow, Session};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::sync::mpsc;
use std::time::Duration;

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

/// A command read while a search runs that must wait for it: a `go` (as in Stockfish, a second
/// `go` is searched after the running one has given its `bestmove`, not instead of it), any other
/// command that changes the state, and whatever follows a waiting command, so the order is kept.
enum Held {
    Command(Command),
    /// A `go` that could not be read: its error and its `bestmove (none)`, in turn.
    BadGo(String),
    /// A `position` that could not be read: its error, and no position from then on, in turn.
    BadPosition(String),
}

/// How often the loop looks whether the running search has ended while commands wait for it.
const HELD_POLL: Duration = Duration::from_millis(5);

/// `stop` (or `quit`, or the end of input) read while commands wait: every search waiting before
/// it is to end as soon as it has started, each with its `bestmove`, instead of holding the rest
/// up (a `go infinite` would wait for a `stop` already read). `quit` lets a `go perft` count finish.
fn stop_held_searches(held: &mut VecDeque<Held>, for_quit: bool) {
    let mut with_stops = VecDeque::with_capacity(held.len() * 2);
    while let Some(h) = held.pop_front() {
        let search = match &h {
            Held::Command(Command::Go(go)) => !(for_quit && go.perft.is_some()),
            _ => false,
        };
        with_stops.push_back(h);
        if search && !matches!(held.front(), Some(Held::Command(Command::Stop))) {
            with_stops.push_back(Held::Command(Command::Stop));
        }
    }
    *held = with_stops;
}

/// Does `cmd` change the session's state or start work (so it must wait for a running search)?
fn changes_state(cmd: &Command) -> bool {
    !matches!(
        cmd,
        Command::IsReady
            | Command::Stop
            | Command::PonderHit
            | Command::Quit
            | Command::Uci
            | Command::Debug(_)
            | Command::LegalMoves(_)
            | Command::Display
            | Command::Help
    )
}

/// Runs a session over `input` until `quit` or end of input.
pub fn run(input: impl Read + Send + 'static, out: Output) {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("input".into())
        .spawn(move || read_lines(input, tx))
        .expect("spawn the input thread");
    let mut session = Session::new(out.clone());
    let mut held: VecDeque<Held> = VecDeque::new();
    // End of input is a `quit` after everything read before it.
    let mut ended = false;
    loop {
        // A held `stop` or `quit` is for the work that waited before it: it acts as soon as it is
        // at the front; anything else waits for the running search's `bestmove`.
        while let Some(front) = held.front() {
            if session.searching() && !matches!(front, Held::Command(Command::Stop | Command::Quit)) {
                break;
            }
            let flow = match held.pop_front().expect("a held command") {
                Held::Command(cmd) => session.handle(cmd),
                Held::BadGo(why) => {
                    out.error(why);
                    out.line("bestmove (none)");
                    Flow::Continue
                }
                Held::BadPosition(why) => {
                    out.error(why);
                    session.position_refused();
                    Flow::Continue
                }
            };
            if flow == Flow::Quit {
                return;
            }
        }
        if ended {
            if held.is_empty() {
                session.handle(Command::Quit);
                return;
            }
            std::thread::sleep(HELD_POLL);
            continue;
        }
        let msg = if held.is_empty() {
            rx.recv().unwrap_or(Input::End)
        } else {
            match rx.recv_timeout(HELD_POLL) {
                Ok(msg) => msg,
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                Err(mpsc::RecvTimeoutError::Disconnected) => Input::End,
            }
        };
        let line = match msg {
            // A blank line is no command: UCI engines pass over it without a word.
            Input::Line(line) if line.trim().is_empty() => continue,
            Input::Line(line) => line,
            Input::Bad(why) => {
                out.error(why);
                continue;
            }
            Input::End => {
                ended = true;
                // Searches (not counts) end now, as `quit` ends them.
                if !held.is_empty() {
                    session.stop_search_for_quit();
                    stop_held_searches(&mut held, true);
                }
                continue;
            }
        };
        let is_go = line.split_whitespace().next() == Some("go");
        let is_position = line.split_whitespace().next() == Some("position");
        // As in Stockfish, only `stop`, `ponderhit` and `quit` act on a running search, and the
        // commands that only read are answered beside it; anything else (another `go`, a new
        // position, an option) waits for its `bestmove`, so a script of commands gives the same
        // answers however fast they come.
        let waits =
            !held.is_empty() || (session.searching() && (is_go || parse(&line).is_ok_and(|c| changes_state(&c))));
        let cmd = match parse(&line) {
            Ok(cmd) => cmd,
            Err(e) if is_go && waits => {
                held.push_back(Held::BadGo(e.to_string()));
                continue;
            }
            Err(e) if is_position && waits => {
                held.push_back(Held::BadPosition(e.to_string()));
                continue;
            }
            Err(e) => {
                out.error(e.to_string());
                // A position that cannot be read is refused like one that cannot be set up.
                if is_position {
                    session.position_refused();
                }
                // Every `go` gets its `bestmove`, even one we cannot read.
                if is_go {
                    out.line("bestmove (none)");
                }
                continue;
            }
        };
        if waits {
            match cmd {
                // Answered at once, as UCI asks even while the engine thinks.
                Command::IsReady => out.line("readyok"),
                // Ends the running search now, and the waiting one too once it has started.
                Command::Stop => {
                    session.stop_search();
                    stop_held_searches(&mut held, false);
                    held.push_back(Held::Command(cmd));
                }
                Command::Quit => {
                    session.stop_search_for_quit();
                    stop_held_searches(&mut held, true);
                    held.push_back(Held::Command(cmd));
                }
                cmd => held.push_back(Held::Command(cmd)),
            }
            continue;
        }
        if session.handle(cmd) == Flow::Quit {
            return;
        }
    }
}
