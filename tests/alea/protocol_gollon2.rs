//! `gollon2` through the protocol: a roll is the piece die's face, then the count die's; one
//! piece makes the turn's micro-moves, and a DFEN names it once it has moved (`AA@f3`).

use crate::common;
use common::{Engine, after_refusal, errors, fen_of, listed};

#[test]
fn one_piece_of_the_rolled_type_moves_the_count() {
    let mut e = Engine::start();
    assert!(e.ask("setoption name UCI_Variant value gollon2").is_empty());
    assert!(e.ask("uci").iter().any(|l| l.contains("var gollon2")));
    e.ask("position startpos");
    // A knight and a count of 2: one knight, twice; a rook and any count: no rook can move.
    let knight = listed(&e.ask("legalmoves roll 2 2"));
    assert!(knight.contains(&"g1f3,f3e5".into()) && !knight.contains(&"b1a3,g1f3".into()), "{knight:?}");
    assert_eq!(listed(&e.ask("legalmoves roll 4 6")), ["0000"]);
    // The dice's order is read as given: a 2 then a 1 is one knight move, a 1 then a 2 two pawn moves.
    assert_eq!(listed(&e.ask("legalmoves roll 2 1")), ["b1a3", "b1c3", "g1f3", "g1h3"]);
    assert!(listed(&e.ask("legalmoves roll 1 2")).contains(&"e2e4,e4e5".into()));
    // Four knight moves reach the king from the start.
    let best = e.go("go depth 1 roll 2 5").last().unwrap().strip_prefix("bestmove ").unwrap().to_string();
    assert!(best.ends_with("e8") && best.split(',').count() == 4, "{best}");
    // A turn of two pieces: one error, and no position until one is set again.
    let before = fen_of(&mut e);
    assert_eq!(errors(&e.ask("position startpos moves b1a3,g1f3")), 1);
    after_refusal(&mut e, "position startpos moves b1a3,g1f3", "position startpos", &before);
    // A turn in progress: the knight on f3 has one more micro-move.
    let dfen = "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1 A@f3";
    assert!(e.ask(&format!("position fen {dfen}")).is_empty());
    assert_eq!(fen_of(&mut e), dfen);
    assert!(listed(&e.ask("legalmoves")).iter().all(|t| t.starts_with("f3")));
    e.quit();
}
