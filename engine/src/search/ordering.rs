//! Move ordering: the transposition table's move first, then captures and promotions by most
//! valuable victim and least valuable attacker, then the killers of the ply, then history.

use crate::eval::Evaluator;
use crate::rules::Rules;
use crate::search::MAX_PLY;

const TT_MOVE: i32 = 1 << 30;
const TACTICAL: i32 = 1 << 24;
const KILLER: i32 = 1 << 22;
const HISTORY_MAX: i32 = 1 << 20;

/// What a search thread learns about good quiet turns as it goes.
pub struct OrderingTables<T> {
    killers: Vec<[Option<T>; 2]>,
    history: Vec<i32>,
}

impl<T: Copy + Eq> OrderingTables<T> {
    pub fn new() -> OrderingTables<T> {
        OrderingTables { killers: vec![[None; 2]; MAX_PLY + 1], history: vec![0; 4096] }
    }

    /// The ordering key of a turn: higher first.
    pub fn score<R: Rules<Turn = T>, E: Evaluator<R>>(
        &self,
        eval: &E,
        pos: &R::Position,
        turn: T,
        is_tt_move: bool,
        ply: usize,
    ) -> i32 {
        if is_tt_move {
            return TT_MOVE;
        }
        if let Some(t) = eval.tactical(pos, turn) {
            return TACTICAL + t;
        }
        let killers = &self.killers[ply.min(MAX_PLY)];
        if killers[0] == Some(turn) {
            return KILLER + 1;
        }
        if killers[1] == Some(turn) {
            return KILLER;
        }
        self.history[eval.history_slot(pos, turn)]
    }

    /// A quiet turn caused a cut-off at `ply` and `depth`.
    pub fn reward<R: Rules<Turn = T>, E: Evaluator<R>>(
        &mut self,
        eval: &E,
        pos: &R::Position,
        turn: T,
        ply: usize,
        depth: i32,
    ) {
        let killers = &mut self.killers[ply.min(MAX_PLY)];
        if killers[0] != Some(turn) {
            killers[1] = killers[0];
            killers[0] = Some(turn);
        }
        let slot = &mut self.history[eval.history_slot(pos, turn)];
        *slot = (*slot + depth * depth).min(HISTORY_MAX);
    }
}

impl<T: Copy + Eq> Default for OrderingTables<T> {
    fn default() -> Self {
        OrderingTables::new()
    }
}
