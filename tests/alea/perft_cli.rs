//! `alea perft` and the protocol's `go perft`, run through the built binary.

use std::io::Write;
use std::process::{Command, Stdio};

fn alea() -> Command {
    crate::common::alea()
}

#[test]
fn perft_subcommand_prints_like_stockfish() {
    let out = alea().args(["perft", "3"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 20 + 3, "20 root moves, a blank, the total, a blank");
    assert!(lines.contains(&"e2e4: 600"));
    assert_eq!(lines[21], "Nodes searched: 8902");
}

#[test]
fn perft_subcommand_with_fen_and_chess960_notation() {
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let out = alea().args(["perft", "2", "--chess960", "--fen", fen]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Nodes searched: 528"), "{text}");
    // Castling is written king-takes-rook.
    let out = alea().args(["perft", "1", "--chess960", "--fen", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]).output().unwrap();
    assert!(String::from_utf8(out.stdout).unwrap().contains("e1h1: 1"));
    let out = alea().args(["perft", "1", "--fen", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]).output().unwrap();
    assert!(String::from_utf8(out.stdout).unwrap().contains("e1g1: 1"));
}

#[test]
fn perft_subcommand_refuses_a_bad_fen() {
    let out = alea().args(["perft", "2", "--fen", "rnbqkbnr/pppppppp/8/8 w"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8(out.stderr).unwrap().contains("invalid FEN"));
    assert!(out.stdout.is_empty());
}

#[test]
fn protocol_go_perft() {
    let mut child = alea().stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"position startpos moves e2e4\ngo perft 2\nsetoption name UCI_Chess960 value true\nposition fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1\ngo perft 1\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Nodes searched: 600\n"), "{text}");
    assert!(text.contains("e1h1: 1\n"));
    assert!(text.contains("Nodes searched: 15\n"));
}

/// A script piped in gets every count: `quit` and the end of input let a running `go perft`
/// finish (`stop` is what ends one early).
#[test]
fn a_piped_perft_finishes_before_the_end_of_input() {
    for script in [&b"go perft 4\n"[..], b"go perft 4\nquit\n"] {
        let mut child = alea().stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
        child.stdin.take().unwrap().write_all(script).unwrap();
        let text = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
        assert!(text.contains("Nodes searched: 197281\n"), "{text}");
    }
}

/// Piped into a reader that stops early (`alea perft 6 | head -1`), the count ends quietly as
/// other command-line tools do: killed by SIGPIPE, not a panic with a backtrace.
#[cfg(unix)]
#[test]
fn a_reader_that_stops_early_ends_the_count_quietly() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::ExitStatusExt;
    let mut child = alea().args(["perft", "6"]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert!(first.ends_with(": 4463267\n"), "{first}");
    // The reader is gone: the next lines have nowhere to go.
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.signal(), Some(libc::SIGPIPE), "{:?}: {stderr}", out.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
}
