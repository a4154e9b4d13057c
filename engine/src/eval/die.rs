//! The static score of a die position (one die a side, a face and moves in hand), for searching
//! the game instead of playing its exact solution.

use crate::board::piece::{Color, Role};
use crate::eval::params::EvalParams;
use crate::rules::{DiePosition, DieTurn, Rules};

/// A static score for the search, in centipawns for the side to move: a die showing the king
/// is a target (the only way to lose), the more so within one move of the enemy die; moves in
/// hand are worth a little. Nothing here is exact: [`crate::search::solve`] is.
#[derive(Copy, Clone, Debug, Default)]
pub struct DieEval;

/// What showing the king costs, and what it costs more within the enemy's reach.
const KING_SHOWN: i32 = 150;
const KING_IN_REACH: i32 = 300;
const MOVE_IN_HAND: i32 = 10;

impl DieEval {
    fn side_score(pos: &DiePosition, us: Color) -> i32 {
        let die = pos.die(us);
        let mut score = MOVE_IN_HAND * i32::from(die.in_hand);
        if die.face == Role::King {
            score -= KING_SHOWN;
            // Some face of the enemy die could take it from where it stands.
            if pos.in_reach_of(!us) {
                score -= KING_IN_REACH;
            }
        }
        score
    }
}

impl<R: Rules<Position = DiePosition, Turn = DieTurn>> crate::eval::Evaluator<R> for DieEval {
    fn evaluate(&self, _rules: &R, pos: &DiePosition) -> i32 {
        DieEval::side_score(pos, pos.turn) - DieEval::side_score(pos, !pos.turn)
    }

    fn tactical(&self, pos: &DiePosition, turn: DieTurn) -> Option<i32> {
        let m = turn.mv?;
        let enemy = pos.die(!pos.turn);
        (m.to == enemy.square).then_some(if enemy.face == Role::King { 10_000 } else { 100 })
    }

    fn worth_at_horizon(&self, pos: &DiePosition, turn: DieTurn) -> bool {
        turn.mv.is_some_and(|m| m.to == pos.die(!pos.turn).square && pos.die(!pos.turn).face == Role::King)
    }

    fn history_slot(&self, _pos: &DiePosition, turn: DieTurn) -> usize {
        turn.mv.map_or(0, |m| m.from.index() * 64 + m.to.index())
    }
}

impl crate::eval::Evaluated for DiePosition {
    type Eval = DieEval;

    /// This score has no parameters to fit: `params` and `net` are not read.
    fn evaluation(_params: &EvalParams, _net: Option<std::sync::Arc<crate::eval::nnue::Network>>) -> DieEval {
        DieEval
    }

    fn uses_tables() -> Result<(), &'static str> {
        Err("played from its exact solution, or searched with a score of its own; no tables fit one die")
    }
}
