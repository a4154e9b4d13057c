//! `brainking10` through the protocol: the 10x10 board with three kings a side, squares up to
//! `j10`, FEN with two-digit runs, `d`, `go perft`, rolls of one die, and refusals that change
//! nothing.

use crate::common;
use common::{Engine, after_refusal, errors, fen_of, listed};

const START: &str = "rnbqkkkbnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBQKKKBNR w - - 0 1";

#[test]
fn the_ten_by_ten_board_is_played_through_the_protocol() {
    let mut e = Engine::start();
    assert!(e.ask("uci").iter().any(|l| l.contains("var brainking10")));
    assert!(e.ask("setoption name UCI_Variant value brainking10").is_empty());
    e.ask("position startpos");
    assert_eq!(fen_of(&mut e), START);
    // One die: a knight's face moves the knights, a rook's nothing at the start.
    assert_eq!(listed(&e.ask("legalmoves roll 2")), ["b1a3", "b1c3", "i1h3", "i1j3"]);
    assert_eq!(listed(&e.ask("legalmoves roll 4")), ["0000"]);
    // Moves on the tenth rank and FENs with two-digit runs, both ways.
    assert!(e.ask("position startpos moves e2e4 a9a7 e4e5 b10c8").is_empty());
    let fen = fen_of(&mut e);
    assert_eq!(fen, "r1bqkkkbnr/1ppppppppp/2n7/p9/10/4P5/10/10/PPPP1PPPPP/RNBQKKKBNR w - - 1 3");
    assert!(e.ask(&format!("position fen {fen}")).is_empty());
    assert_eq!(fen_of(&mut e), fen);
    // `d` draws ten ranks of ten files.
    let board = e.ask("d");
    assert!(board.iter().any(|l| l.trim_end().ends_with("| 10")), "{board:?}");
    assert!(board.iter().any(|l| l.trim() == "a   b   c   d   e   f   g   h   i   j"), "{board:?}");
    // go perft counts the big board's moves (24 then 576 from the start).
    e.ask("position startpos");
    e.send("go perft 2");
    let perft = e.until("Nodes searched", std::time::Duration::from_secs(30));
    assert!(perft.iter().any(|l| l == "Nodes searched: 576"), "{perft:?}");
    assert!(perft.iter().any(|l| l == "e2e4: 24"), "{perft:?}");
    e.send("isready");
    e.until("readyok", std::time::Duration::from_secs(30));
    // After a roll the answer is one of the moves the roll allows.
    let allowed = listed(&e.ask("legalmoves roll 1"));
    let best = e.go("go roll 1 depth 2").last().unwrap().strip_prefix("bestmove ").unwrap().to_string();
    assert!(allowed.contains(&best), "{best} not in {allowed:?}");
    e.quit();
}

#[test]
fn the_last_of_three_kings_decides_the_game() {
    let mut e = Engine::start();
    e.ask("setoption name UCI_Variant value brainking10");
    // Black's rook can take one of White's two kings on the rook's face: it does, and the game goes
    // on; with one king left, taking it ends the game.
    e.ask("position fen k9/10/10/10/10/10/10/10/10/K1K2r4 b - - 0 1");
    assert_eq!(e.go("go roll 4 depth 1").last().unwrap(), "bestmove f1c1");
    e.ask("position fen k9/10/10/10/10/10/10/10/10/K1K2r4 b - - 0 1 moves f1c1");
    assert!(!e.ask("d").iter().any(|l| l.starts_with("Result")));
    e.ask("position fen k9/10/10/10/10/10/10/10/10/K4r4 b - - 0 1 moves f1a1");
    let board = e.ask("d");
    assert!(board.iter().any(|l| l == "Result: 0-1 king capture"), "{board:?}");
    assert_eq!(e.go("go depth 1").last().unwrap(), "bestmove (none)");
    e.quit();
}

#[test]
fn bad_input_is_refused() {
    let mut e = Engine::start();
    e.ask("setoption name UCI_Variant value brainking10");
    e.ask("position startpos moves e2e4");
    let before = fen_of(&mut e);
    for bad in [
        // an 8x8 FEN, a 12x12 one, a rank of 13 squares, a fourth king
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "position fen rnbqkkkkbnrr/pppppppppppp/12/12/12/12/12/12/12/12/PPPPPPPPPPPP/RNBQKKKKBNRR w - - 0 1",
        "position fen rnbqkkkbnr/pppppppppp/13/10/10/10/10/10/PPPPPPPPPP/RNBQKKKBNR w - - 0 1",
        "position fen rnbqkkkknr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBQKKKBNR w - - 0 1",
        // a move no roll allows, a turn of several moves, a square off the board
        "position startpos moves e2e5",
        "position startpos moves e2e4,e9e7",
        "position startpos moves k2k4",
    ] {
        assert_eq!(errors(&e.ask(bad)), 1, "{bad}");
        after_refusal(&mut e, bad, "position startpos moves e2e4", &before);
    }
    assert_eq!(errors(&e.ask("go roll 7")), 1);
    assert_eq!(errors(&e.ask("go roll 1 2")), 1);
    assert_eq!(fen_of(&mut e), before);
    // And the reverse: a 10x10 FEN given to an 8x8 variant.
    e.ask("setoption name UCI_Variant value freedom");
    e.ask("position startpos");
    let lines = e.ask(&format!("position fen {START}"));
    assert!(lines.iter().any(|l| l.contains("has 10 ranks: this board has 8 ranks")), "{lines:?}");
    e.quit();
}

#[test]
fn its_own_weights_load_through_evalfile_and_the_8x8_tables_do_not() {
    let scratch = tempfile::Builder::new().prefix("alea-bk10-eval-").tempdir().unwrap();
    let dir = scratch.path();
    // The big board's form: piece values and pawn step, no tables; here a knight outweighs a rook.
    let knight = dir.join("knight.eval");
    std::fs::write(&knight, "material mg P 100 N 2000 B 300 R 500 Q 900 K 1000\nmaterial eg P 100 N 2000 B 300 R 500 Q 900 K 1000\npawn-step 4\n").unwrap();
    // 8x8 tables valuing the knight as much: they do not fit 10x10.
    let mut tables = String::from(
        "material mg P 100 N 2000 B 300 R 500 Q 900 K 0\nmaterial eg P 100 N 2000 B 300 R 500 Q 900 K 0\n",
    );
    for stage in ["mg", "eg"] {
        for role in "PNBRQK".chars() {
            tables.push_str(&format!("psqt {stage} {role}{}\n", " 1".repeat(32)));
        }
    }
    let eight = dir.join("tables.eval");
    std::fs::write(&eight, tables).unwrap();
    let mut e = Engine::start();
    e.ask("setoption name UCI_Variant value brainking10");
    // A rook's roll: the rook on a1 takes the rook on h1 or the knight on a6 (no king in reach of
    // either, so the values decide).
    let position = "position fen K8k/10/10/10/n9/10/10/10/10/R6r2 w - - 0 1";
    e.ask(position);
    assert_eq!(e.go("go roll 4 depth 2").last().unwrap(), "bestmove a1h1");
    assert_eq!(errors(&e.ask(&format!("setoption name EvalFile value {}", knight.display()))), 0);
    e.ask(position);
    assert_eq!(e.go("go roll 4 depth 2").last().unwrap(), "bestmove a1a6");
    let answer = e.ask(&format!("setoption name EvalFile value {}", eight.display()));
    assert!(answer.iter().any(|l| l.contains("not used") && l.contains("8x8")), "{answer:?}");
    e.ask(position);
    assert_eq!(e.go("go roll 4 depth 2").last().unwrap(), "bestmove a1h1", "the variant's own weights play");
    e.quit();
}
