//! `grand` through the protocol: the 12x12 board with four kings a side, four dice, turns of
//! micro-moves joined by commas, DFEN with the dice left, `go perft`, and refusals that change
//! nothing.

use crate::common;
use common::{Engine, after_refusal, errors, fen_of, listed};

const START: &str = "r2rq2qr2r/nnbb1kk1bbnn/nnbb1kk1bbnn/r2rq2qr2r/pppppppppppp/pppppppppppp/PPPPPPPPPPPP/PPPPPPPPPPPP/R2RQ2QR2R/NNBB1KK1BBNN/NNBB1KK1BBNN/R2RQ2QR2R w - - 0 1";

#[test]
fn grand_dice_chess_is_played_through_the_protocol() {
    let mut e = Engine::start();
    assert!(e.ask("uci").iter().any(|l| l.contains("var grand")));
    assert!(e.ask("setoption name UCI_Variant value grand").is_empty());
    e.ask("position startpos");
    assert_eq!(fen_of(&mut e), START);
    let board = e.ask("d");
    assert!(board.iter().any(|l| l.trim_end().ends_with("| 12")), "{board:?}");
    // Four dice from the start: 1.6 million whole turns for pawn, knight, bishop, queen.
    assert_eq!(e.ask("legalmoves count roll 1 2 3 5"), ["legalmoves count 1619574"]);
    let short = e.ask("legalmoves count roll 1 2 3");
    assert!(errors(&short) == 1 && short.iter().any(|l| l.contains("4 dice")), "{short:?}");
    // Two whole turns after a roll from the start (ours, then the 126 outcomes and replies;
    // late micro-moves reduced, and pruned in the turn before the horizon): a turn of four
    // micro-moves the rules accept.
    let searched = e.go("go depth 2 roll 1 2 3 5");
    assert!(searched.iter().any(|l| l.starts_with("info depth 2 ")), "{searched:?}");
    let best = searched.last().unwrap().strip_prefix("bestmove ").unwrap().to_string();
    assert_eq!(best.split(',').count(), 4, "{best}");
    assert!(e.ask(&format!("position startpos moves {best}")).is_empty(), "{best}");
    e.ask("position startpos");
    // go perft counts the big board's moves, the dice ignored.
    e.send("go perft 2");
    let perft = e.until("Nodes searched", std::time::Duration::from_secs(30));
    assert!(perft.iter().any(|l| l == "Nodes searched: 9606"), "{perft:?}");
    e.send("isready");
    e.until("readyok", std::time::Duration::from_secs(30));
    // A turn in progress from a DFEN: a pawn and a knight die left; the pawn must move.
    let dfen = "k11/12/12/12/12/12/12/12/12/12/4P7/K4N6 w - - 0 1 PN";
    assert!(e.ask(&format!("position fen {dfen}")).is_empty());
    assert_eq!(fen_of(&mut e), dfen);
    let turns = listed(&e.ask("legalmoves roll 1 2"));
    assert!(turns.contains(&"e2e3".to_string()) && !turns.contains(&"0000".to_string()), "{turns:?}");
    assert!(turns.contains(&"f1g3,e2e3".to_string()) && !turns.contains(&"f1g3".to_string()), "{turns:?}");
    let best = e.go("go depth 2").last().unwrap().strip_prefix("bestmove ").unwrap().to_string();
    assert!(turns.contains(&best), "{best} not in {turns:?}");
    // A turn leaving the pawn die unused, and a double step: refused.
    for bad in ["f1g3", "e2e4"] {
        assert_eq!(errors(&e.ask(&format!("position fen {dfen} moves {bad}"))), 1, "{bad}");
        after_refusal(&mut e, &format!("position ... moves {bad}"), &format!("position fen {dfen}"), dfen);
    }
    e.quit();
}
