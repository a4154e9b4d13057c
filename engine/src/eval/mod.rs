//! Static evaluation. The search is generic over an [`Evaluator`], so a variant on another board
//! brings its own; [`StaticEval`] serves the 8x8 variants.

pub mod aggressive;
pub mod big;
pub mod data;
pub mod die;
pub mod free_checks;
pub mod lone_king;
pub mod nnue;
pub mod params;

use crate::board::chessmove::Move;
use crate::board::piece::{Color, Role};
use crate::board::values::PieceValues;
use crate::eval::params::EvalParams;
use crate::rules::{Position, Rules};

/// Largest static score, in centipawns. Wins sit above it (see `search::WIN`), so a bounded
/// evaluation keeps the chance-pruning bounds tight and wins distinct from big advantages.
pub const EVAL_MAX: i32 = 3000;

/// What the search needs to know about positions beyond the rules.
pub trait Evaluator<R: Rules>: Send + Sync {
    /// The position's static score for the side to move, within `±EVAL_MAX`.
    fn evaluate(&self, rules: &R, pos: &R::Position) -> i32;

    /// For a capture or promotion: an ordering key (most valuable victim, least valuable
    /// attacker first). `None` for a quiet turn.
    fn tactical(&self, pos: &R::Position, turn: R::Turn) -> Option<i32>;

    /// Is this capture or promotion worth following at the horizon (a promotion, or a capture
    /// that wins material once the exchange on its square is played out)? Depending on the
    /// position alone, this keeps the horizon's tree the same whatever the search window.
    fn worth_at_horizon(&self, pos: &R::Position, turn: R::Turn) -> bool;

    /// A slot in 0..4096 for history and killer tables (piece destination and origin).
    fn history_slot(&self, pos: &R::Position, turn: R::Turn) -> usize;

    /// How scores turn into expected results: `1 / (1 + 10^(-scale * score / 400))`.
    fn result_scale(&self) -> f64 {
        crate::eval::params::DEFAULT_RESULT_SCALE
    }

    /// How much a quiet turn improves the mover's placement by the evaluation's own measure:
    /// a key for choosing, from the position alone, which quiet turns the search may look at
    /// less deeply. Higher is better; `0` for all turns is allowed.
    fn quiet_gain(&self, _pos: &R::Position, _turn: R::Turn) -> i32 {
        0
    }

    /// True only if the side to move surely has no capture and no promotion, whatever the roll:
    /// the horizon then stands pat without generating a move. `false` is always safe.
    fn surely_quiet(&self, _pos: &R::Position) -> bool {
        false
    }
}

/// The evaluation a kind of position is scored with: each board brings its own (the 8x8 board
/// the tables and networks, the big boards [`big::BigEval`], Die Chess [`die::DieEval`]), so
/// that no rules name an evaluation and no variant needs one of its own here.
pub trait Evaluated {
    /// The evaluation the search scores these positions with.
    type Eval: Send + Sync;

    /// The evaluation of `params`, with the network `net` scoring beside it where the board
    /// takes one.
    fn evaluation(params: &EvalParams, net: Option<std::sync::Arc<nnue::Network>>) -> Self::Eval;

    /// Can the 8x8 piece-square tables of [`EvalParams`] evaluate these positions (so that
    /// `tune` fits them and `EvalFile` loads them)? If not, why (completing "... is ").
    fn uses_tables() -> Result<(), &'static str> {
        Ok(())
    }

    /// Where the evaluation is not the 8x8 tables: the terms its score is a linear sum of,
    /// White's minus Black's, for the fit ([`big::BigEval::terms`]); `None` for the tables, which
    /// the fit reads from the board itself.
    fn eval_terms(&self) -> Option<Vec<i32>> {
        None
    }
}

impl Evaluated for crate::board::Board {
    type Eval = StaticEval;

    fn evaluation(params: &EvalParams, net: Option<std::sync::Arc<nnue::Network>>) -> StaticEval {
        StaticEval::new(params.clone()).with_net(net)
    }
}

impl Evaluated for Position {
    type Eval = StaticEval;

    fn evaluation(params: &EvalParams, net: Option<std::sync::Arc<nnue::Network>>) -> StaticEval {
        StaticEval::new(params.clone()).with_net(net)
    }
}

/// What the search of turns of micro-moves ([`crate::search::micro`]) asks of an evaluation on
/// the board `B`.
pub trait MicroEval<B: crate::board::micro_board::MicroBoard>: Sync {
    /// The sums the score's linear part (material and squares) is made of, from which that
    /// part after one micro-move follows without playing it.
    type Parts: Copy;

    /// The static score for White (the search bounds it by [`EVAL_MAX`]): the linear part and,
    /// where a network is learned ([`MicroEval::learned`]), the network's score beside it.
    fn white_score(&self, board: &B) -> i32;
    /// The same evaluation with the network `net` scoring beside it. Networks read 8x8 boards;
    /// an evaluation of another board keeps its own score (no network is trained for one).
    fn with_network(self, net: Option<std::sync::Arc<crate::eval::nnue::Network>>) -> Self
    where
        Self: Sized;
    /// Does a network add to the linear part? Then the score after a micro-move does not follow
    /// from the sums, and no bound is taken from them.
    fn learned(&self) -> bool;
    /// The piece values the horizon counts captures and promotions by.
    fn piece_values(&self) -> &PieceValues;
    /// How scores turn into expected results ([`EvalParams::result_scale`]).
    fn result_scale(&self) -> f64;
    /// The weight of a king the next roll can take ([`EvalParams::king_danger`]; 0: none).
    fn king_danger(&self) -> i32;
    /// The sums of the linear part at `board`, where that part after a micro-move can follow
    /// from them ([`MicroEval::white_after`]); `None` where it cannot.
    fn parts(&self, board: &B) -> Option<Self::Parts>;
    /// The linear part's White score of the sums `parts`.
    fn white_of(&self, parts: Self::Parts) -> i32;
    /// The linear part's White score after the micro-move `m` from `board` whose sums are
    /// `parts`, or `None`.
    fn white_after(&self, board: &B, parts: Self::Parts, m: B::Move) -> Option<i32>;
}

impl MicroEval<crate::board::Board> for StaticEval {
    type Parts = ScoreParts;

    #[inline]
    fn white_score(&self, board: &crate::board::Board) -> i32 {
        let tables = StaticEval::white_score(self, board);
        match &self.net {
            // The network scores for the side to move (the mover all through its turn).
            Some(net) => {
                let learned = net.evaluate_incremental(board);
                tables + if board.turn() == Color::White { learned } else { -learned }
            }
            None => tables,
        }
    }

    fn with_network(self, net: Option<std::sync::Arc<crate::eval::nnue::Network>>) -> StaticEval {
        self.with_net(net)
    }

    #[inline]
    fn learned(&self) -> bool {
        self.net.is_some()
    }

    #[inline]
    fn piece_values(&self) -> &PieceValues {
        &self.values
    }

    fn result_scale(&self) -> f64 {
        StaticEval::result_scale(self)
    }

    #[inline]
    fn king_danger(&self) -> i32 {
        self.params.king_danger
    }

    #[inline]
    fn parts(&self, board: &crate::board::Board) -> Option<ScoreParts> {
        Some(self.score_parts(board))
    }

    #[inline]
    fn white_of(&self, parts: ScoreParts) -> i32 {
        parts.white_score()
    }

    #[inline]
    fn white_after(&self, board: &crate::board::Board, parts: ScoreParts, m: Move) -> Option<i32> {
        self.parts_after(board, parts, m).map(ScoreParts::white_score)
    }
}

/// An evaluation a user names (`EvalFile`, a match's `eval=`, `alea bench --eval`): a file of
/// tables (as `alea tune fit` writes them), a network (as `alea tune nnue` writes it), or
/// `tables`: the variant's own tables without the network it has adopted.
#[derive(Clone, Debug)]
pub enum NamedEval {
    Tables(Box<EvalParams>),
    Network(Box<crate::eval::nnue::Network>),
    OwnTables,
}

impl NamedEval {
    pub fn read(text: &str) -> Result<NamedEval, data::DataError> {
        if text.eq_ignore_ascii_case("tables") {
            return Ok(NamedEval::OwnTables);
        }
        let path = std::path::Path::new(text);
        if crate::eval::nnue::Network::is_network_file(path) {
            crate::eval::nnue::Network::read(path).map(|net| NamedEval::Network(Box::new(net)))
        } else {
            EvalParams::read(path).map(|params| NamedEval::Tables(Box::new(params)))
        }
    }
}

/// The 8x8 variants' evaluation: material and piece-square tables blended by the game phase
/// ([`EvalParams`]); captures are ordered and judged by the middlegame material.
#[derive(Clone, Debug)]
pub struct StaticEval {
    pub params: EvalParams,
    pub values: PieceValues,
    squares: Box<SquareScores>,
    /// A learned evaluation whose score adds to the tables' (trained on what they miss; the
    /// tables alone still order and judge captures and quiet moves).
    pub net: Option<std::sync::Arc<crate::eval::nnue::Network>>,
}

/// Each piece's material plus square value on each square, from White's side, for both stages:
/// `[color][role][square] = [mg, eg]`. The parameters unfolded once, so that the score of a
/// position is one lookup and two additions a piece (the same sums as
/// [`EvalParams::white_score`]).
type SquareScores = [[[[i32; 2]; 64]; 6]; 2];

fn square_scores(params: &EvalParams) -> Box<SquareScores> {
    let mut table = Box::new([[[[0; 2]; 64]; 6]; 2]);
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        for role in Role::ALL {
            let r = role.index();
            for i in 0..64u8 {
                let sq = crate::Square::new(i);
                let h = crate::eval::params::half_square(color, sq);
                for stage in 0..2 {
                    table[color.index()][r][sq.index()][stage] =
                        sign * (params.material[stage][r] + params.psqt[stage][r][h]);
                }
            }
        }
    }
    table
}

/// Each role's weight in the game phase ([`crate::eval::params::game_phase`]).
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// A board's score before the blend: White's middlegame and endgame sums and the phase count
/// (not yet capped), so that what a move changes can be added to them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ScoreParts {
    mg: i32,
    eg: i32,
    phase: i32,
}

impl ScoreParts {
    /// The score for White, as [`StaticEval::white_score`] gives it.
    #[inline]
    pub fn white_score(self) -> i32 {
        crate::eval::params::blend(self.mg, self.eg, self.phase.min(crate::eval::params::PHASE_MAX))
    }
}

impl StaticEval {
    pub fn new(params: EvalParams) -> StaticEval {
        let values = params.piece_values();
        let squares = square_scores(&params);
        StaticEval { params, values, squares, net: None }
    }

    /// The same with a learned evaluation scoring the positions.
    pub fn with_net(mut self, net: Option<std::sync::Arc<crate::eval::nnue::Network>>) -> StaticEval {
        self.net = net;
        self
    }

    /// The score for White, in centipawns, equal to [`EvalParams::white_score`].
    #[inline]
    pub fn white_score(&self, board: &crate::board::Board) -> i32 {
        self.score_parts(board).white_score()
    }

    /// The sums [`StaticEval::white_score`] blends, for adding a move's change to them.
    #[inline]
    pub fn score_parts(&self, board: &crate::board::Board) -> ScoreParts {
        let (mut mg, mut eg) = (0i32, 0i32);
        for color in Color::ALL {
            let by_role = &self.squares[color.index()];
            for role in Role::ALL {
                let table = &by_role[role.index()];
                let mut bb = board.pieces(color, role);
                while let Some(sq) = bb.first() {
                    bb.0 &= bb.0 - 1;
                    let [m, e] = table[sq.index()];
                    mg += m;
                    eg += e;
                }
            }
        }
        let phase = Role::ALL.into_iter().map(|r| PHASE_WEIGHT[r.index()] * board.by_role(r).count() as i32).sum();
        ScoreParts { mg, eg, phase }
    }

    /// The sums after the micro-move `m` (any but castling), from `parts`, the board's sums,
    /// without playing it: the mover leaves its square, arrives (promoted or not) on its
    /// target, and a captured piece leaves the board. `None` for castling.
    #[inline]
    pub fn parts_after(&self, board: &crate::board::Board, parts: ScoreParts, m: Move) -> Option<ScoreParts> {
        if m.is_castle() {
            return None;
        }
        let piece = board.piece_at(m.from())?;
        let ours = &self.squares[piece.color.index()];
        let placed = m.promotion_role().unwrap_or(piece.role);
        let (before, after) = (ours[piece.role.index()][m.from().index()], ours[placed.index()][m.to().index()]);
        let mut next = ScoreParts {
            mg: parts.mg - before[0] + after[0],
            eg: parts.eg - before[1] + after[1],
            phase: parts.phase - PHASE_WEIGHT[piece.role.index()] + PHASE_WEIGHT[placed.index()],
        };
        if let Some(sq) = board.captured_square(m) {
            let victim = board.piece_at(sq)?;
            let [mg, eg] = self.squares[victim.color.index()][victim.role.index()][sq.index()];
            next.mg -= mg;
            next.eg -= eg;
            next.phase -= PHASE_WEIGHT[victim.role.index()];
        }
        Some(next)
    }

    /// How its scores turn into expected results: the network's fitted scale where it has one
    /// (its scores add to the tables', so the pair has its own curve), else the tables'.
    pub fn result_scale(&self) -> f64 {
        self.net.as_ref().and_then(|net| net.result_scale).unwrap_or(self.params.result_scale)
    }

    /// Material alone, from a value table.
    pub fn material(values: PieceValues) -> StaticEval {
        StaticEval::new(EvalParams::from_values(values))
    }
}

impl<R: Rules<Position = Position, Turn = Move>> Evaluator<R> for StaticEval {
    fn evaluate(&self, _rules: &R, pos: &Position) -> i32 {
        let white = self.white_score(&pos.board)
            + crate::eval::lone_king::white_bonus(&pos.board)
            + crate::eval::free_checks::white_term(&pos.board, self.params.free_checks);
        let score = if pos.board.turn() == Color::White { white } else { -white };
        // The network learned what the tables miss: its score adds to theirs.
        let learned = self.net.as_ref().map_or(0, |net| net.evaluate_incremental(&pos.board));
        (score + learned).clamp(-EVAL_MAX, EVAL_MAX)
    }

    fn tactical(&self, pos: &Position, m: Move) -> Option<i32> {
        if m.is_null() {
            return None;
        }
        let board = &pos.board;
        let victim = board.captured_square(m).and_then(|sq| board.role_at(sq));
        let promotion = m.promotion_role();
        if victim.is_none() && promotion.is_none() {
            return None;
        }
        let attacker = board.role_at(m.from()).map_or(0, |r| self.values.of(r).min(1000));
        let gain = victim.map_or(0, |r| self.values.of(r))
            + promotion.map_or(0, |r| self.values.of(r) - self.values.of(Role::Pawn));
        Some(gain * 16 - attacker / 16)
    }

    fn worth_at_horizon(&self, pos: &Position, m: Move) -> bool {
        if m.promotion_role().is_some() {
            return true;
        }
        // An exchange wins at least the victim less the capturer: a cheaper capturer wins
        // without counting the exchange out.
        let board = &pos.board;
        let victim = board.captured_square(m).and_then(|sq| board.role_at(sq)).map_or(0, |r| self.values.of(r));
        let attacker = board.role_at(m.from()).map_or(0, |r| self.values.of(r));
        victim > attacker || crate::board::see::see(board, m, &self.values) > 0
    }

    fn history_slot(&self, _pos: &Position, m: Move) -> usize {
        usize::from(m.bits() & 0x0fff)
    }

    fn result_scale(&self) -> f64 {
        StaticEval::result_scale(self)
    }

    /// The moving piece's square value after the turn less before it, blended by the phase
    /// (castling: the king's move), plus the piece's value if it stands attacked.
    fn quiet_gain(&self, pos: &Position, m: Move) -> i32 {
        if m.is_null() {
            return 0;
        }
        let board = &pos.board;
        let Some(role) = board.role_at(m.from()) else { return 0 };
        let to = if m.is_castle() { m.castle_king_target() } else { m.to() };
        let table = &self.squares[board.turn().index()][role.index()];
        let (before, after) = (table[m.from().index()], table[to.index()]);
        let sign = if board.turn() == Color::White { 1 } else { -1 };
        let placement = sign
            * crate::eval::params::blend(
                after[0] - before[0],
                after[1] - before[1],
                crate::eval::params::game_phase(board),
            );
        // A piece that stands attacked goes first: moving it away may save it.
        let threatened = board.attackers(m.from(), !board.turn(), board.occupied()).any();
        placement + if threatened { self.values.of(role) } else { 0 }
    }

    /// No enemy piece attacked, no pawn about to promote, no en-passant square.
    fn surely_quiet(&self, pos: &Position) -> bool {
        let board = &pos.board;
        let us = board.turn();
        let seventh = crate::Bitboard::rank(if us == Color::White { 6 } else { 1 });
        if (board.pieces(us, Role::Pawn) & seventh).any() || board.ep_square().is_some() {
            return false;
        }
        let occupied = board.occupied();
        let mut theirs = board.by_color(!us);
        while let Some(sq) = theirs.first() {
            theirs.0 &= theirs.0 - 1;
            if board.attackers(sq, us, occupied).any() {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::rules::{ChessKind, ChessRules, Rules};

    /// A piece that stands attacked is worth moving first: its value is added to the placement.
    #[test]
    fn quiet_gain_puts_an_attacked_piece_first() {
        let rules = ChessRules::new(ChessKind::Freedom, false);
        let eval = StaticEval::new(crate::services::registry::Variant::Freedom.default_eval());
        // The knight on c3 is attacked by the pawn on b4; the one on g1 is not.
        let pos = crate::rules::Position::new(Board::from_fen("4k3/8/8/8/1p6/2N5/8/4K1N1 w - - 0 1").unwrap());
        let mut turns = crate::rules::TurnList::new();
        rules.any_turns(&pos, &mut turns);
        let gain = |uci: &str| {
            let m = turns.iter().copied().find(|m| m.to_uci(false).to_string() == uci).unwrap();
            Evaluator::<ChessRules>::quiet_gain(&eval, &pos, m)
        };
        let knight = eval.values.of(Role::Knight);
        assert!(gain("c3e4") > knight / 2, "escape {}", gain("c3e4"));
        assert!(gain("g1f3").abs() < knight / 2, "plain move {}", gain("g1f3"));
    }

    /// The unfolded tables give the parameters' own sums, on positions from every variant's
    /// tables (fitted and starting) along random games.
    #[test]
    fn square_scores_equal_the_parameters_sums() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for kind in [ChessKind::Freedom, ChessKind::Classic, ChessKind::BrainKing] {
            for params in [
                crate::services::registry::Variant::of_kind(kind).default_eval(),
                crate::services::registry::Variant::of_kind(kind).starting_eval(),
            ] {
                let eval = StaticEval::new(params.clone());
                let rules = ChessRules::new(kind, false);
                let mut pos = crate::rules::Position::new(Board::startpos());
                for _ in 0..200 {
                    assert_eq!(eval.white_score(&pos.board), params.white_score(&pos.board));
                    let mut turns = crate::rules::TurnList::new();
                    rules.any_turns(&pos, &mut turns);
                    if turns.is_empty() || rules.end(&pos).is_some() {
                        break;
                    }
                    pos = rules.play(&pos, turns[rng.random_range(0..turns.len())]);
                }
            }
        }
    }

    /// The sums after a move, added without playing it, give the score of the board after it,
    /// for every move but castling (captures, en passant and promotions included), along random
    /// games of pseudo-legal moves with the fitted dicechess3 tables and the starting ones.
    #[test]
    fn score_parts_after_a_move_equal_the_score_after_it() {
        use crate::board::movegen::{Legality, MoveList, generate};
        use crate::board::piece::RoleSet;
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let tables = [
            crate::services::registry::Variant::DiceChess3.default_eval(),
            crate::services::registry::Variant::Freedom.starting_eval(),
        ];
        let mut checked = 0;
        for params in tables {
            let eval = StaticEval::new(params);
            for fen in [crate::services::bench::KIWIPETE, "4k3/1P6/8/3pP3/8/8/6p1/4K2R w K d6 0 1"] {
                let mut board = Board::from_fen(fen).unwrap();
                for _ in 0..120 {
                    let parts = eval.score_parts(&board);
                    assert_eq!(parts.white_score(), eval.white_score(&board));
                    let mut moves = MoveList::new();
                    generate(&board, RoleSet::ALL, Legality::PseudoLegal, &mut moves);
                    moves.retain(|m| board.role_at(m.to()) != Some(crate::board::piece::Role::King));
                    if moves.is_empty() {
                        break;
                    }
                    for &m in &moves {
                        let mut after = board.clone();
                        after.play_micro(m);
                        match eval.parts_after(&board, parts, m) {
                            Some(next) => {
                                assert_eq!(next.white_score(), eval.white_score(&after), "{m:?} in {}", board.fen());
                                checked += 1;
                            }
                            None => assert!(m.is_castle(), "{m:?} has no sums"),
                        }
                    }
                    board.play_micro(moves[rng.random_range(0..moves.len())]);
                    board.finish_turn(false);
                }
            }
        }
        assert!(checked > 5000, "{checked} moves checked");
    }
}
