//! Freedom's stand-off (source 000, section 5), searched. Two rooks attack each other on an open
//! file; each side takes the other's rook only on the faces that give it a rook move (or a knight
//! move, where a knight attacks the rook too); the other faces go to pawns or the king, which pass
//! time. Locked pawns send every face but the king's to the rook. Rolling first, White wins the
//! stand-off with probability P(W) = p_w / (p_w + (1 - p_w) p_b). The evaluation counts the rooks
//! alone, at a value whose equity is a sure result, so the search's value is P(W) - P(B) over the
//! games its horizon decides.

use alea_engine::board::square::Square;
use alea_engine::board::values::PieceValues;
use alea_engine::eval::StaticEval;
use alea_engine::rules::{ChessKind, ChessRules, Position, Roll, Rules, TurnList};
use alea_engine::search::equity::{EQUITY_MAX, Equity};
use alea_engine::search::timeman::Limits;
use alea_engine::search::{self, Root, SearchInput, SearchOptions, Shared};
use alea_engine::{Board, Game, Move};

/// Rooks only: a rook up is a result as sure as the equity map allows.
const ROOKS_ONLY: PieceValues = PieceValues([0, 0, 0, 5000, 0, 0]);

struct StandOff {
    fen: &'static str,
    /// Faces (of 6) on which White, then Black, can take the other's rook.
    white_faces: usize,
    black_faces: usize,
}

const STAND_OFFS: [StandOff; 8] = [
    // Pawns pass time for both: only the rook's face takes.
    StandOff { fen: "1k6/3p1p2/7r/1p6/pP6/P6R/3P1P2/1K6 w - - 0 1", white_faces: 1, black_faces: 1 },
    // A knight that also attacks the rook adds its face.
    StandOff { fen: "1k6/3p1p2/7r/1p3N2/pP6/P6R/3P1P2/1K6 w - - 0 1", white_faces: 2, black_faces: 1 },
    StandOff { fen: "1k6/3p1p2/7r/1p6/pP3n2/P6R/3P1P2/1K6 w - - 0 1", white_faces: 1, black_faces: 2 },
    // Locked pawns: every face but the king's goes to the rook.
    StandOff { fen: "1k6/3p1p2/3P1P1r/1p6/pP6/P6R/3P1P2/1K6 w - - 0 1", white_faces: 1, black_faces: 5 },
    StandOff { fen: "1k6/3p1p2/7r/1p6/pP6/P2p1p1R/3P1P2/1K6 w - - 0 1", white_faces: 5, black_faces: 1 },
    StandOff { fen: "1k6/3p1p2/3P1P1r/1p6/pP6/P2p1p1R/3P1P2/1K6 w - - 0 1", white_faces: 5, black_faces: 5 },
    StandOff { fen: "1k6/3p1p2/3P1P1r/1p3N2/pP6/P6R/3P1P2/1K6 w - - 0 1", white_faces: 2, black_faces: 5 },
    StandOff { fen: "1k6/3p1p2/7r/1p6/pP3n2/P2p1p1R/3P1P2/1K6 w - - 0 1", white_faces: 5, black_faces: 2 },
];

fn game(fen: &str) -> Game<ChessRules> {
    Game::new(ChessRules::new(ChessKind::Freedom, false), Position::new(Board::from_fen(fen).unwrap()))
}

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

/// White's value, `P(W) - P(B)`, of a stand-off cut after `rolls` rolls (White rolls first).
fn truncated(p_w: f64, p_b: f64, rolls: u32) -> f64 {
    let (mut value, mut going_on) = (0.0, 1.0);
    for k in 0..rolls {
        let (p, sign) = if k % 2 == 0 { (p_w, 1.0) } else { (p_b, -1.0) };
        value += sign * going_on * p;
        going_on *= 1.0 - p;
    }
    value
}

/// The stand-off's value for White, `P(W) - P(B)`, played to the end.
fn formula(p_w: f64, p_b: f64) -> f64 {
    let w = p_w / (p_w + (1.0 - p_w) * p_b);
    2.0 * w - 1.0
}

/// The search's value of the position for White, as `P(W) - P(B)`.
fn searched(game: &Game<ChessRules>, depth: u32, reductions: bool) -> (f64, u64) {
    let rules = *game.rules();
    let eval = StaticEval::material(ROOKS_ONLY);
    let equity = Equity::new(alea_engine::eval::params::EvalParams::from_values(ROOKS_ONLY).result_scale);
    let input = SearchInput {
        rules: &rules,
        eval: &eval,
        position: game.position(),
        root: Root::PreRoll,
        history: game.hashes(),
        limits: Limits { depth: Some(depth), ..Limits::default() },
        options: SearchOptions { reductions, chance_probcut: false, ..SearchOptions::default() },
    };
    let result = search::search(&input, &Shared::new(64), &mut |_| {});
    (f64::from(equity.of_reported(result.score)) / f64::from(EQUITY_MAX), result.nodes)
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

/// The README's table: each stand-off's P(W) by the formula and cut after the 10 rolls a depth-9
/// search sees, and the search's expected result for White (`(1 + value) / 2`) at depth 7 and 9,
/// plain and as the engine plays (reductions on).
/// `cargo test --release -p alea-engine --test engine standoff -- --ignored --nocapture`
#[test]
#[ignore]
fn stand_off_table() {
    println!("| p_w | p_b | formula P(W) | cut after 10 rolls | depth 7 | depth 9 | depth 9, as played |");
    println!("|---|---|---|---|---|---|---|");
    for s in &STAND_OFFS {
        let g = game(s.fen);
        let (p_w, p_b) = (s.white_faces as f64 / 6.0, s.black_faces as f64 / 6.0);
        let score = |v: f64| (1.0 + v) / 2.0;
        let (d7, _) = searched(&g, 7, false);
        let (d9, _) = searched(&g, 9, false);
        let (played, _) = searched(&g, 9, true);
        println!(
            "| {}/6 | {}/6 | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} |",
            s.white_faces,
            s.black_faces,
            score(formula(p_w, p_b)),
            score(truncated(p_w, p_b, 10)),
            score(d7),
            score(d9),
            score(played)
        );
    }
}
