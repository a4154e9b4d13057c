//! `vegas` through the protocol: two unlike dice (a roll is die A's face, then die B's), "any" on
//! die B's 6, and no roll in check or after giving check.

use crate::common;
use common::{Engine, errors, fen_of, listed};

fn vegas() -> Engine {
    let mut engine = Engine::start();
    assert!(engine.ask("setoption name UCI_Variant value vegas").is_empty());
    engine
}

fn best(reply: &[String]) -> String {
    reply.last().unwrap().strip_prefix("bestmove ").expect("a bestmove").to_string()
}

#[test]
fn the_dice_keep_their_order_and_any_allows_a_pass() {
    let mut e = vegas();
    assert!(e.ask("uci").iter().any(|l| l.contains("var vegas")));
    assert!(e.ask("position fen 4k3/8/8/8/8/8/3P4/3QK3 w - - 0 1").is_empty());
    // Die A's 5 is a king, die B's 5 a queen.
    let king_pawn = listed(&e.ask("legalmoves roll 5 1"));
    let pawn_queen = listed(&e.ask("legalmoves roll 1 5"));
    assert!(king_pawn.contains(&"e1f1".into()) && !king_pawn.contains(&"d1a4".into()), "{king_pawn:?}");
    assert!(pawn_queen.contains(&"d1a4".into()) && !pawn_queen.contains(&"e1f1".into()), "{pawn_queen:?}");
    // Die B's 6 allows any move, or a pass; the engine moves rather than pass when both tie.
    let any = listed(&e.ask("legalmoves roll 2 6"));
    assert!(any.contains(&"0000".into()) && any.contains(&"d1a4".into()) && any.contains(&"e1f1".into()));
    let moved = best(&e.go("go depth 1 roll 2 6"));
    assert!(any.contains(&moved), "{moved}");
    // A roll written wrongly: one die, a face 7, a word; each one error, nothing changed.
    let before = fen_of(&mut e);
    for bad in ["go depth 1 roll 6", "go depth 1 roll 2 7", "go depth 1 roll 2 any"] {
        let reply = e.ask(bad);
        assert_eq!(errors(&reply), 1, "{bad}: {reply:?}");
        assert_eq!(fen_of(&mut e), before);
    }
    e.quit();
}

#[test]
fn no_roll_in_check_nor_after_giving_check() {
    let mut e = vegas();
    // 3.Bb5+: Black is in check, so it does not roll; its answers are the legal moves, no pass.
    assert!(e.ask("position startpos moves e2e4 d7d5 f1b5").is_empty());
    let answers = ["b8c6", "b8d7", "c7c6", "c8d7", "d8d7"];
    assert_eq!(e.ask("legalmoves"), [format!("freedom {}", answers.join(" "))]);
    assert!(e.ask("d").iter().any(|l| l.starts_with("Pre-roll options: no roll")));
    let answer = best(&e.go("go depth 2"));
    assert!(answers.contains(&answer.as_str()), "{answer}");
    // After 3...c6 White, who gave check, does not roll: any legal move, or a pass.
    assert!(e.ask("position startpos moves e2e4 d7d5 f1b5 c7c6").is_empty());
    let free = e.ask("legalmoves");
    assert!(free[0].starts_with("freedom 0000 ") && free[0].contains(" b5a4"), "{free:?}");
    let played = best(&e.go("go depth 2"));
    assert_ne!(played, "roll");
    // A pass is a whole turn here; the next side rolls again.
    assert!(e.ask("position startpos moves e2e4 d7d5 f1b5 c7c6 0000").is_empty());
    assert!(e.ask("d").iter().any(|l| l == "Pre-roll options: none (must roll)"));
    e.quit();
}
