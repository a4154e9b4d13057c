//! `burmese` through the protocol: any die may go unused, so a turn may be shorter than its dice
//! (a player stops after any micro-move, `0000` in a turn in progress), and there is no castling.

use crate::common;
use common::{Engine, after_refusal, errors, fen_of, listed};

fn burmese() -> Engine {
    let mut engine = Engine::start();
    assert!(engine.ask("setoption name UCI_Variant value burmese").is_empty());
    engine
}

#[test]
fn turns_may_stop_before_the_dice_do() {
    let mut e = burmese();
    assert!(e.ask("uci").iter().any(|l| l.contains("var burmese")));
    e.ask("position startpos");
    // Pawn, knight, bishop: a turn is one, two or three micro-moves; the bishops are shut in.
    let turns = listed(&e.ask("legalmoves roll 1 2 3"));
    for t in ["e2e4", "e2e4,g1f3", "g1f3,e2e4", "e2e4,f1c4", "e2e4,f1c4,g1f3", "g1f3,e2e4,f1c4"] {
        assert!(turns.contains(&t.to_string()), "{t} missing");
    }
    assert!(!turns.contains(&"0000".to_string()), "a turn that can move may not pass");
    assert_eq!(e.ask("legalmoves count roll 1 2 3"), [format!("legalmoves count {}", turns.len())]);
    // The first micro-moves: the pawns' and the knights', no stop before the first.
    let first = listed(&e.ask("legalmoves roll 1 2 3 first"));
    assert_eq!(first.len(), 20);
    assert!(!first.contains(&"0000".to_string()));
    // A turn of one micro-move is a whole turn.
    assert!(e.ask("position startpos moves e2e4").is_empty());
    assert_eq!(fen_of(&mut e), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    // In a turn in progress, stopping (`0000`) is one of the completions.
    let dfen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 NB";
    assert!(e.ask(&format!("position fen {dfen}")).is_empty());
    assert_eq!(listed(&e.ask("legalmoves")), ["0000", "b1a3", "b1c3", "g1f3", "g1h3"]);
    let reply = e.go("go depth 1");
    let best = reply.last().unwrap().strip_prefix("bestmove ").unwrap().to_string();
    assert!(["0000", "b1a3", "b1c3", "g1f3", "g1h3"].contains(&best.as_str()), "{best}");
    e.quit();
}

#[test]
fn the_engine_answers_a_roll_and_refuses_castling() {
    let mut e = burmese();
    e.ask("position startpos moves e2e4 d7d5,c8g4");
    let reply = e.go("go depth 1 roll 1 3 5");
    let best = reply.last().unwrap().strip_prefix("bestmove ").unwrap().to_string();
    assert!(listed(&e.ask("legalmoves roll 1 3 5")).contains(&best), "{best}");
    // No castling in burmese, even with a rook's and a king's die: refused.
    let open = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert!(e.ask(&format!("position fen {open}")).is_empty());
    assert!(!listed(&e.ask("legalmoves roll 4 6 6")).iter().any(|t| t.starts_with("e1g1") || t.starts_with("e1c1")));
    let before = fen_of(&mut e);
    let refused = e.ask(&format!("position fen {open} moves e1g1"));
    assert_eq!(errors(&refused), 1);
    assert!(refused[0].contains("burmese has no castling"), "{refused:?}");
    after_refusal(&mut e, "position ... moves e1g1", &format!("position fen {open}"), &before);
    e.quit();
}
