//! Freedom's stand-off (source 000, section 5), searched. Two rooks attack each other on an open
//! file; each side takes the other's rook only on the faces that give it a rook move (or a knight
//! move, where a knight attacks the rook too); the other faces go to pawns or the king, which pass
//! time. Locked pawns send every face but the king's to the rook. Rolling first, White wins the
//! stand-off with probability P(W) = p_w / (p_w + (1 - p_w) p_b). The evaluation counts the rooks
//! alone, at a value whose equity is a sure result, so the search's value is P(W) - P(B) over the
//! games its horizon decides.

#[path = "../../examples/standoff/positions.rs"]
mod positions;

use alea_engine::Move;
use alea_engine::board::square::Square;
use alea_engine::rules::{ChessRules, Position, Roll, Rules, TurnList};
use positions::{STAND_OFFS, formula, game, searched, truncated};

/// The faces on which the side to move may take the rook on `target`; and a turn of a face that
/// cannot (to pass time with).
fn taking_faces(rules: &ChessRules, pos: &Position, target: Square) -> (usize, Option<Move>) {
    let mut pre = TurnList::new();
    rules.pre_roll_turns(pos, &mut pre);
    assert!(pre.is_empty(), "a stand-off has no Freedom move: {pre:?}");
    let mut faces = 0;
    let mut waiting = None;
    for face in 1..=6 {
        let mut turns = TurnList::new();
        rules.allowed_turns(pos, &Roll::new(&[face]).unwrap(), &mut turns);
        if turns.iter().any(|&m| m.to() == target && pos.board.is_capture(m)) {
            faces += 1;
        } else {
            waiting = waiting.or(turns.first().copied());
        }
    }
    (faces, waiting)
}

/// The side to move after `turn` has a move: winning the stand-off does not stalemate the loser.
fn loser_can_move(rules: &ChessRules, pos: &Position, turn: Move) {
    let after = rules.play(pos, turn);
    assert!(rules.end(&after).is_none(), "{} ends the game", turn.to_uci(false));
}

/// Each position's odds as designed, read from the rules: no Freedom move for either side, the
/// faces that take for each, and a game that goes on after either side wins the stand-off.
#[test]
fn stand_offs_have_their_designed_odds() {
    let (h6, h3) = (Square::parse("h6").unwrap(), Square::parse("h3").unwrap());
    for s in &STAND_OFFS {
        let g = game(s.fen);
        let rules = *g.rules();
        let (white, waiting) = taking_faces(&rules, g.position(), h6);
        assert_eq!(white, s.white_faces, "{}", s.fen);
        let after = rules.play(g.position(), waiting.expect("a face that waits"));
        let (black, _) = taking_faces(&rules, &after, h3);
        assert_eq!(black, s.black_faces, "{}", s.fen);
        let mut turns = TurnList::new();
        rules.allowed_turns(g.position(), &Roll::new(&[4]).unwrap(), &mut turns);
        loser_can_move(&rules, g.position(), *turns.iter().find(|m| m.to() == h6).unwrap());
        rules.allowed_turns(&after, &Roll::new(&[4]).unwrap(), &mut turns);
        loser_can_move(&rules, &after, *turns.iter().find(|m| m.to() == h3).unwrap());
    }
}

/// Without reductions a search d turns deep, whose horizon lets the side to move roll once more
/// for a capture, is the stand-off cut after d + 1 rolls: the closed form, to the equities'
/// rounding, through Star2, the table and Freedom's reallocation of faces.
#[test]
fn plain_search_is_the_stand_off_cut_at_its_horizon() {
    for s in &STAND_OFFS {
        let g = game(s.fen);
        let (p_w, p_b) = (s.white_faces as f64 / 6.0, s.black_faces as f64 / 6.0);
        for depth in 1..=4 {
            let (value, _) = searched(&g, depth, false);
            let expected = truncated(p_w, p_b, depth + 1);
            assert!((value - expected).abs() < 0.002, "{} depth {depth}: {value:.4}, not {expected:.4}", s.fen);
        }
    }
}

/// Where a roll decides the stand-off often (a side with five faces), seven turns leave little
/// undecided, and the search finds the source's formula.
#[test]
fn deep_search_finds_the_formula() {
    for s in STAND_OFFS.iter().filter(|s| s.white_faces == 5 || s.black_faces == 5) {
        let g = game(s.fen);
        let (p_w, p_b) = (s.white_faces as f64 / 6.0, s.black_faces as f64 / 6.0);
        let (value, _) = searched(&g, 7, false);
        let expected = formula(p_w, p_b);
        assert!((value - expected).abs() < 0.002, "{}: {value:.4}, not {expected:.4}", s.fen);
    }
}
