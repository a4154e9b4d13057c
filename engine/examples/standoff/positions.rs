//! Freedom's stand-off (source 000, section 5): the positions, the closed form of their odds and
//! the search's value of them, shared by the stand-off's tests (`engine/tests/engine/standoff.rs`)
//! and this example's table.

use alea_engine::board::values::PieceValues;
use alea_engine::eval::StaticEval;
use alea_engine::rules::{ChessKind, ChessRules, Position};
use alea_engine::search::equity::{EQUITY_MAX, Equity};
use alea_engine::search::timeman::Limits;
use alea_engine::search::{self, Root, SearchInput, SearchOptions, Shared};
use alea_engine::{Board, Game};

/// Rooks only: a rook up is a result as sure as the equity map allows.
pub const ROOKS_ONLY: PieceValues = PieceValues([0, 0, 0, 5000, 0, 0]);

pub struct StandOff {
    pub fen: &'static str,
    /// Faces (of 6) on which White, then Black, can take the other's rook.
    pub white_faces: usize,
    pub black_faces: usize,
}

pub const STAND_OFFS: [StandOff; 8] = [
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

pub fn game(fen: &str) -> Game<ChessRules> {
    Game::new(ChessRules::new(ChessKind::Freedom, false), Position::new(Board::from_fen(fen).unwrap()))
}

/// White's value, `P(W) - P(B)`, of a stand-off cut after `rolls` rolls (White rolls first).
pub fn truncated(p_w: f64, p_b: f64, rolls: u32) -> f64 {
    let (mut value, mut going_on) = (0.0, 1.0);
    for k in 0..rolls {
        let (p, sign) = if k % 2 == 0 { (p_w, 1.0) } else { (p_b, -1.0) };
        value += sign * going_on * p;
        going_on *= 1.0 - p;
    }
    value
}

/// The stand-off's value for White, `P(W) - P(B)`, played to the end.
pub fn formula(p_w: f64, p_b: f64) -> f64 {
    let w = p_w / (p_w + (1.0 - p_w) * p_b);
    2.0 * w - 1.0
}

/// The search's value of the position for White, as `P(W) - P(B)`.
pub fn searched(game: &Game<ChessRules>, depth: u32, reductions: bool) -> (f64, u64) {
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
