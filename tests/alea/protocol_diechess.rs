//! `diechess` through the protocol: the decision before the roll (move, pass or roll), the move
//! after it, turns with their rolls in `position ... moves`, the exact table loaded with
//! `DieChessTable`, and bad input refused with nothing changed.

use crate::common;
use alea_engine::rules::diechess::DieChess;
use common::{Engine, after_refusal, errors, fen_of, listed};

/// The table the engines of these tests play from: kept in the tests' cache directory as the
/// engine keeps it, solved by the first test of a build that needs it while the others wait (the
/// engine's own way), so the engines below read it at once.
fn table_file() -> String {
    let dir = common::cache_home().join("alea");
    alea_engine::search::solve_cache::load_or_solve_in(&DieChess, &dir, &mut |_, _| {})
        .expect("the tests' cache directory");
    dir.join(alea_engine::search::solve_cache::file_name(&DieChess)).to_str().unwrap().to_string()
}

fn diechess() -> Engine {
    let table = table_file();
    let mut engine = Engine::start();
    assert!(engine.ask("setoption name UCI_Variant value diechess").is_empty());
    let reply = engine.ask(&format!("setoption name DieChessTable value {table}"));
    assert!(reply.is_empty(), "{reply:?}");
    engine
}

fn best(reply: &[String]) -> String {
    reply.last().unwrap().strip_prefix("bestmove ").expect("a bestmove").to_string()
}

/// Black's queen on b2 next to White's king die on a1.
const QUEEN_AT_THE_KING: &str = "8/8/8/8/8/8/1q6/K7 b - - 20 11 10";

#[test]
fn the_engine_decides_rolls_and_moves_from_the_solution() {
    let mut e = diechess();
    assert!(e.ask("uci").iter().any(|l| l.contains("var diechess") && l.contains("UCI_Variant")));
    assert!(e.ask("position startpos").is_empty());
    assert_eq!(fen_of(&mut e), "7p/8/8/8/8/8/8/P7 w - - 0 1 22");
    assert_eq!(e.ask("legalmoves"), ["freedom 0000 a1a2"]);
    assert_eq!(listed(&e.ask("legalmoves roll 2")), ["0000", "a1b3", "a1c2"]);
    // Before the roll: the six faces' table, then no roll (rolling risks the king face; the pass
    // and a1a2 are both worth 0.5, and the tie goes to the pass, which leaves a fallible
    // opponent more chances).
    let reply = e.go("go");
    assert_eq!(reply.iter().filter(|l| l.starts_with("info roll ")).count(), 6, "{reply:?}");
    assert!(reply.iter().any(|l| l.starts_with("info roll 6 prob 0.1667 score cp -")), "{reply:?}");
    assert_eq!(best(&reply), "0000");
    // After a roll: the move alone, and the exact value beside the centipawns.
    let reply = e.go("go roll 6");
    assert_eq!(best(&reply), "a1b1");
    assert!(reply.iter().any(|l| l.starts_with("info string exact value 0.4904")), "{reply:?}");
    // The queen takes the king at once; with nothing in hand Black rolls, and on a bishop takes.
    assert!(e.ask(&format!("position fen {}", QUEEN_AT_THE_KING.replace(" 10", " 11"))).is_empty());
    let reply = e.go("go");
    assert!(reply.iter().any(|l| l.contains("score mate 1")), "{reply:?}");
    assert_eq!(best(&reply), "b2a1");
    assert!(e.ask(&format!("position fen {QUEEN_AT_THE_KING}")).is_empty());
    assert_eq!(best(&e.go("go")), "roll");
    assert_eq!(best(&e.go("go roll 3")), "b2a1");
    assert_eq!(best(&e.go("go roll 2")), "0000");
    // The turn is written with its roll; the game is then over.
    assert!(e.ask(&format!("position fen {QUEEN_AT_THE_KING} moves roll3,b2a1")).is_empty());
    let reply = e.go("go");
    assert_eq!(reply, ["info string result 0-1 king capture", "bestmove (none)"]);
    let d = e.ask("d");
    assert!(d.iter().any(|l| l == "Turns played: 21 of 200"), "{d:?}");
    e.quit();
}

#[test]
fn with_engine_rolls_the_answer_carries_the_roll() {
    let mut e = diechess();
    assert!(e.ask("setoption name EngineRolls value true").is_empty());
    assert!(e.ask("setoption name Seed value 7").is_empty());
    assert!(e.ask(&format!("position fen {QUEEN_AT_THE_KING}")).is_empty());
    let reply = e.go("go");
    let rolled = reply.iter().find_map(|l| l.strip_prefix("info string roll ")).expect("the engine rolls").to_string();
    let turn = best(&reply);
    assert!(turn.starts_with(&format!("roll{rolled}")), "{turn} after {rolled}");
    // The GUI plays it back as it came.
    let reply = e.ask(&format!("position fen {QUEEN_AT_THE_KING} moves {turn}"));
    assert!(reply.is_empty(), "{reply:?}");
    e.quit();
}

#[test]
fn bad_input_is_refused() {
    let mut e = diechess();
    assert!(e.ask("position startpos moves a1a2").is_empty());
    let before = fen_of(&mut e);
    for bad in [
        "position fen 7p/8/8/8/8/8/8/PN6 w - - 0 1 22",
        "position fen 8/8/8/8/8/8/8/P7 w - - 0 1 22",
        "position fen 7p/8/8/8/8/8/8/P7 w - - 0 1 222",
        "position fen 7p/8/8/8/8/8/8/Q7 w - - 0 1 22",
        "position startpos moves a1a3",
        "position startpos moves roll2,a1a2",
        "position startpos moves roll7",
        "position startpos moves e2e4,e7e5",
        "go roll 7",
        "go roll 1 2",
        "go roll any",
        "legalmoves roll 1 2",
    ] {
        let reply = if bad.starts_with("go") { e.go(bad) } else { e.ask(bad) };
        assert_eq!(errors(&reply), 1, "{bad}: {reply:?}");
        after_refusal(&mut e, bad, "position startpos moves a1a2", &before);
    }
    // A damaged table is refused, and the one loaded stays.
    let damaged = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("protocol-diechess-damaged.table");
    let mut bytes = std::fs::read(table_file()).unwrap();
    bytes[200] ^= 0x40;
    std::fs::write(&damaged, &bytes).unwrap();
    let reply = e.ask(&format!("setoption name DieChessTable value {}", damaged.display()));
    assert!(errors(&reply) == 1 && reply[0].contains("checksum"), "{reply:?}");
    assert_eq!(best(&e.go("go roll 2")), "0000", "the loaded table still answers");
    let _ = std::fs::remove_file(damaged);
    e.quit();
}
