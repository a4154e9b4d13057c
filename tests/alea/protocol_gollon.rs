//! `gollon` through the protocol: one count die (1, 2, 3, or 4 micro-moves for a 4, 5 or 6) by
//! any pieces, the maximum rule; a turn in progress writes its micro-moves left as `A`s.

use crate::common;
use common::{Engine, after_refusal, errors, fen_of, listed};

fn gollon() -> Engine {
    let mut engine = Engine::start();
    assert!(engine.ask("setoption name UCI_Variant value gollon").is_empty());
    engine
}

#[test]
fn the_count_die_gives_micro_moves_by_any_pieces() {
    let mut e = gollon();
    assert!(e.ask("uci").iter().any(|l| l.contains("var gollon")));
    e.ask("position startpos");
    // A 1: one micro-move of any piece, the twenty moves of chess's start.
    assert_eq!(listed(&e.ask("legalmoves roll 1")).len(), 20);
    // A 2: two micro-moves (the same piece may move twice), all of them used.
    let two = listed(&e.ask("legalmoves roll 2"));
    for t in ["e2e4,e4e5", "g1f3,f3e5", "e2e4,d1h5", "b1c3,c3b1"] {
        assert!(two.contains(&t.to_string()), "{t} missing");
    }
    assert!(two.iter().all(|t| t.split(',').count() == 2), "every turn uses both micro-moves");
    assert_eq!(e.ask("legalmoves count roll 2"), [format!("legalmoves count {}", two.len())]);
    // A 4, a 5 and a 6 all give four micro-moves; their turns are counted, not listed.
    let four = e.ask("legalmoves count roll 4");
    assert_eq!(four, e.ask("legalmoves count roll 6"));
    let n: u64 = four[0].strip_prefix("legalmoves count ").unwrap().parse().unwrap();
    assert!(n > 100_000, "{n}");
    assert_eq!(listed(&e.ask("legalmoves roll 5 first")).len(), 20);
    // Four micro-moves take the king from the start: c3, Qb3, Qxf7, Qxe8 (a win ends the turn).
    let reply = e.go("go depth 1 roll 6");
    let best = reply.last().unwrap().strip_prefix("bestmove ").unwrap().to_string();
    assert!(best.ends_with("e8"), "{best}");
    // Before the roll: the four counts' outcomes, 1/6, 1/6, 1/6 and 1/2.
    let lines = e.go("go depth 1");
    let rolls: Vec<&String> = lines.iter().filter(|l| l.starts_with("info roll")).collect();
    assert_eq!(rolls.len(), 4, "{lines:?}");
    e.quit();
}

#[test]
fn a_turn_in_progress_counts_down_and_refuses_more() {
    let mut e = gollon();
    // Two micro-moves left for White (`AA`).
    let dfen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 AA";
    assert!(e.ask(&format!("position fen {dfen}")).is_empty());
    assert_eq!(fen_of(&mut e), dfen);
    assert!(e.ask("d").iter().any(|l| l == "Turn in progress, dice left: 2"), "{:?}", e.ask("d"));
    // Its completions are two micro-moves; one of them is not a whole turn.
    assert!(listed(&e.ask("legalmoves")).iter().all(|t| t.split(',').count() == 2));
    assert_eq!(errors(&e.ask(&format!("position fen {dfen} moves e2e4"))), 1);
    assert!(e.ask(&format!("position fen {dfen} moves e2e4,d2d4")).is_empty());
    assert_eq!(fen_of(&mut e), "rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq d3e3 0 1");
    // A turn longer than its count: one clear error, and no position until one is set again.
    e.ask("position startpos");
    let before = fen_of(&mut e);
    let reply = e.ask("position startpos moves e2e4,e4e5,d2d4,d4d5,g1f3");
    assert_eq!(errors(&reply), 1, "{reply:?}");
    after_refusal(&mut e, "position startpos moves e2e4,...", "position startpos", &before);
    // Piece letters are not Gollon's dice; five micro-moves are more than a turn has.
    for bad in ["PN", "AAAAA", "aa"] {
        let reply = e.ask(&format!("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 {bad}"));
        assert_eq!(errors(&reply), 1, "{bad}: {reply:?}");
        after_refusal(&mut e, &format!("position fen ... {bad}"), "position startpos", &before);
    }
    e.quit();
}
