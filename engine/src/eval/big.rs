//! The big boards' evaluation: material (the kings counted, as a king capture is a step towards
//! the win), pawns worth a little more as they near promotion, and where a variant asks for it,
//! development towards the centre. Linear in its eight weights ([`BigEval::terms`]), which
//! `alea tune fit` fits to self-play results as it fits the 8x8 tables, and read from the same
//! text form ([`EvalParams`]: material, `pawn-step`, `centre`).

use crate::board::big::board::BigBoard;
use crate::board::big::movegen::BigMove;
use crate::board::piece::{Color, Role};
use crate::board::values::PieceValues;
use crate::eval::Evaluator;
use crate::eval::params::EvalParams;
use crate::rules::Rules;

/// The weights [`BigEval::terms`] are multiplied by: six piece values, pawn step, centre.
pub const BIG_TERMS: usize = 8;

/// Material and pawn progress on a big board, and where a variant asks for it, the
/// development of its knights, bishops and queens towards the centre.
#[derive(Clone, Debug)]
pub struct BigEval {
    pub values: PieceValues,
    /// Centipawns a pawn gains for each rank it has advanced.
    pub pawn_step: i32,
    /// Centipawns per step of a knight, bishop or queen towards the centre
    /// ([`BigBoard::centrality_of`]); 0: none.
    pub centre: i32,
    /// How scores turn into expected results ([`EvalParams::result_scale`]), which the chance
    /// nodes average.
    pub result_scale: f64,
}

impl BigEval {
    /// The evaluation a parameter set describes: its middlegame material (a big board has no
    /// phases), `pawn-step` and `centre`; square tables, which do not fit, are not read.
    pub fn from_params(params: &EvalParams) -> BigEval {
        BigEval {
            values: params.piece_values(),
            pawn_step: params.pawn_step,
            centre: params.centre,
            result_scale: params.result_scale,
        }
    }

    /// What the score sums, White's minus Black's: the count of each kind of piece (pawn to
    /// king), pawn steps, and centrality; the score is their dot product with [`BigEval::weights`].
    pub fn terms(board: &BigBoard) -> [i32; BIG_TERMS] {
        let mut out = [0; BIG_TERMS];
        for role in Role::ALL {
            out[role.index()] = i32::from(board.count(Color::White, role)) - i32::from(board.count(Color::Black, role));
        }
        out[6] = i32::from(board.pawn_steps(Color::White)) - i32::from(board.pawn_steps(Color::Black));
        out[7] = i32::from(board.centrality(Color::White)) - i32::from(board.centrality(Color::Black));
        out
    }

    /// The weights of [`BigEval::terms`].
    pub fn weights(&self) -> [i32; BIG_TERMS] {
        let v = self.values.0;
        [v[0], v[1], v[2], v[3], v[4], v[5], self.pawn_step, self.centre]
    }

    /// White's score, from the counts the board keeps.
    pub fn white_score(&self, board: &BigBoard) -> i32 {
        let material =
            |c: Color| Role::ALL.iter().map(|&r| i32::from(board.count(c, r)) * self.values.of(r)).sum::<i32>();
        let progress =
            |c: Color| self.pawn_step * i32::from(board.pawn_steps(c)) + self.centre * i32::from(board.centrality(c));
        material(Color::White) + progress(Color::White) - material(Color::Black) - progress(Color::Black)
    }
}

impl crate::eval::Evaluated for BigBoard {
    type Eval = BigEval;

    /// No network is trained for a big board: `net` is not read.
    fn evaluation(params: &EvalParams, _net: Option<std::sync::Arc<crate::eval::nnue::Network>>) -> BigEval {
        BigEval::from_params(params)
    }

    fn uses_tables() -> Result<(), &'static str> {
        Err("evaluated on its own board (material, pawn progress and the pieces' centrality); the 8x8 \
             piece-square tables do not fit there")
    }

    fn eval_terms(&self) -> Option<Vec<i32>> {
        Some(BigEval::terms(self).to_vec())
    }
}

impl<R: Rules<Position = BigBoard, Turn = BigMove>> Evaluator<R> for BigEval {
    fn evaluate(&self, _rules: &R, board: &BigBoard) -> i32 {
        let white = self.white_score(board);
        if board.turn() == Color::White { white } else { -white }
    }

    fn result_scale(&self) -> f64 {
        self.result_scale
    }

    /// Most valuable victim first, then the least valuable attacker; a promotion by what it
    /// makes.
    fn tactical(&self, board: &BigBoard, m: BigMove) -> Option<i32> {
        if m == BigMove::NULL {
            return None;
        }
        let attacker = board.piece_at(m.from)?.role;
        let victim = board.captured(m).map(|p| self.values.of(p.role));
        let promotion = m.promotion.map(|r| self.values.of(r) - self.values.of(Role::Pawn));
        if victim.is_none() && promotion.is_none() {
            return None;
        }
        Some(16 * (victim.unwrap_or(0) + promotion.unwrap_or(0)) - attacker.index() as i32)
    }

    /// A promotion, or a capture that does not lose material at once: the victim is worth as
    /// much as the attacker, or the square is not defended.
    fn worth_at_horizon(&self, board: &BigBoard, m: BigMove) -> bool {
        if m.promotion.is_some() {
            return true;
        }
        let (Some(attacker), Some(victim)) = (board.piece_at(m.from), board.captured(m)) else { return false };
        self.values.of(victim.role) >= self.values.of(attacker.role) || !board.attacked_by(m.to, !board.turn())
    }

    /// Half the slots a colour, squares counted from the mover's own side, so a move and its
    /// mirror image share their history (the search then treats the colours alike).
    fn history_slot(&self, board: &BigBoard, m: BigMove) -> usize {
        let spec = board.spec();
        let own = |sq: crate::board::big::BigSquare| {
            let rank = if board.turn() == Color::White { sq.rank() } else { spec.ranks - 1 - sq.rank() };
            usize::from(rank) * usize::from(spec.files) + usize::from(sq.file())
        };
        board.turn().index() * 2048 + (own(m.from) * 144 + own(m.to)) % 2048
    }
}

/// The search of micro-move turns (`grand`) scores its leaves with the same material and pawn
/// progress, and bounds a last micro-move by the score after it without playing it; no king
/// danger.
impl crate::eval::MicroEval<BigBoard> for BigEval {
    /// The White score itself: a micro-move changes it by what it moves, takes and makes.
    type Parts = i32;

    #[inline]
    fn white_score(&self, board: &BigBoard) -> i32 {
        BigEval::white_score(self, board)
    }

    /// Networks read 8x8 boards: the big boards keep their weights.
    fn with_network(self, _net: Option<std::sync::Arc<crate::eval::nnue::Network>>) -> BigEval {
        self
    }

    fn learned(&self) -> bool {
        false
    }

    fn piece_values(&self) -> &PieceValues {
        &self.values
    }

    fn result_scale(&self) -> f64 {
        self.result_scale
    }

    fn king_danger(&self) -> i32 {
        0
    }

    #[inline]
    fn parts(&self, board: &BigBoard) -> Option<i32> {
        Some(BigEval::white_score(self, board))
    }

    #[inline]
    fn white_of(&self, white: i32) -> i32 {
        white
    }

    /// The score after `m` from the score before: the mover's pawn progress or centrality, its
    /// promotion, and the piece it takes (with that piece's progress or centrality).
    #[inline]
    fn white_after(&self, board: &BigBoard, white: i32, m: BigMove) -> Option<i32> {
        let mover = board.piece_at(m.from)?;
        let sign = |c: Color| if c == Color::White { 1 } else { -1 };
        let progress = |c: Color, sq: crate::board::big::BigSquare| self.pawn_step * i32::from(board.steps_of(c, sq));
        let centre =
            |role: Role, sq: crate::board::big::BigSquare| self.centre * i32::from(board.centrality_of(role, sq));
        let mut ours = -centre(mover.role, m.from);
        if mover.role == Role::Pawn {
            ours -= progress(mover.color, m.from);
            match m.promotion {
                Some(role) => ours += self.values.of(role) - self.values.of(Role::Pawn) + centre(role, m.to),
                None => ours += progress(mover.color, m.to),
            }
        } else {
            ours += centre(mover.role, m.to);
        }
        let mut theirs = 0;
        if let Some(victim) = board.captured(m) {
            theirs -= self.values.of(victim.role) + centre(victim.role, m.to);
            if victim.role == Role::Pawn {
                theirs -= progress(victim.color, m.to);
            }
        }
        Some(white + sign(mover.color) * ours - sign(mover.color) * theirs)
    }
}
