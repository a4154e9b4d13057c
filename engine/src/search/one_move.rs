//! The one-move variants (one roll, one move a turn: [`Rules`]) on the tree of the game as
//! states ([`super::tree`]): the dice-aware quiescence search as the horizon, killers and
//! history for the order, late quiet turns a turn less deep, and checks searched without
//! losing depth. The turn's table (every turn each outcome allows) is made once per turn by
//! [`OneMoveStates`], and the turn's decisions share their children through it.

use super::tree::{LateChoices, OrderKeys, Tree, TreeHooks};
use super::{Choice, FULL_DEPTH_QUIETS, HorizonWorker, REDUCTION_DEPTH, SearchInput, Shared};
use crate::eval::Evaluator;
use crate::rules::states::{ChoiceList, GameStates, NO_SLOT, OneMoveStates, OneMoveTurn, SlotList, TurnState};
use crate::rules::{Rules, TurnTable};
use crate::search::timeman::TimeBudget;
use arrayvec::ArrayVec;

/// The ordering key of rolling: after the table's best and the captures, before quiet turns.
const ROLL_ORDER: i32 = 1 << 23;

/// What the tree asks of a one-move variant.
pub(crate) struct OneMoveHooks<'a, R: Rules, E> {
    /// The horizon's search, its killers and history, and its equity.
    worker: HorizonWorker<'a, R, E>,
    /// Per ply, per turn of that turn's table: is it late?
    late: Vec<ArrayVec<bool, { crate::board::movegen::MAX_MOVES }>>,
    /// The depth of the iteration under way (it bounds the check extension).
    pub(crate) root_depth: i32,
}

impl<'a, R: Rules, E: Evaluator<R>> TreeHooks<OneMoveStates<'a, R>> for OneMoveHooks<'a, R, E> {
    type Frontier = ();

    /// Late quiet turns ([`late_quiet_turns`]), marked once for every decision of the turn; none
    /// in check, nor when proving a mate.
    fn begin_turn(
        &mut self,
        _: &OneMoveStates<'a, R>,
        state: &TurnState<R::Position>,
        turn: &OneMoveTurn<R::Turn>,
        depth: i32,
        ply: usize,
    ) {
        let w = &self.worker;
        while self.late.len() <= ply {
            self.late.push(ArrayVec::new());
        }
        let late = &mut self.late[ply];
        late.clear();
        let pos = state.position();
        if depth < REDUCTION_DEPTH || !w.options.reductions || w.adversarial || w.rules.in_check(pos) {
            late.extend(turn.table.turns.iter().map(|_| false));
        } else {
            late.extend(late_quiet_turns(w.eval, pos, &turn.table, &turn.groups));
        }
    }

    fn horizon(
        &mut self,
        _: &OneMoveStates<'a, R>,
        state: &TurnState<R::Position>,
        _: u64,
        alpha: i32,
        beta: i32,
        ply: usize,
        _: Option<i32>,
    ) -> i32 {
        self.worker.qsearch(state.position(), alpha, beta, ply, 0)
    }

    fn order(
        &self,
        _: &OneMoveStates<'a, R>,
        state: &TurnState<R::Position>,
        choices: &ChoiceList<Choice<R::Turn>>,
        tt_best: u16,
        ply: usize,
        out: &mut OrderKeys,
    ) {
        let w = &self.worker;
        let pos = state.position();
        out.clear();
        for (k, &c) in choices.iter().enumerate() {
            let best = usize::from(tt_best) == k;
            out.push(match c {
                Choice::Turn(t) => w.ordering.score::<R, E>(w.eval, pos, t, best, ply),
                Choice::Roll if best => i32::MAX,
                Choice::Roll => ROLL_ORDER,
            });
        }
    }

    fn late(
        &self,
        _: &OneMoveStates<'a, R>,
        _: &TurnState<R::Position>,
        choices: &ChoiceList<Choice<R::Turn>>,
        slots: &SlotList,
        _: i32,
        ply: usize,
        out: &mut LateChoices,
    ) {
        out.clear();
        out.extend(
            (0..choices.len()).map(|k| slots.get(k).is_some_and(|&s| s != NO_SLOT && self.late[ply][usize::from(s)])),
        );
    }

    /// A turn giving check loses no depth, late or not: the answers to check need no dice (nor,
    /// in Freedom, do the checks), so a line of checks is plain chess, narrow and often
    /// decisive. Extensions stop at twice the iteration's depth in turns from the root.
    fn extension(&self, _: &OneMoveStates<'a, R>, next: &TurnState<R::Position>, late: bool, ply: usize) -> i32 {
        let check = self.worker.rules.in_check(next.position());
        i32::from(check && late) + i32::from(check && (ply as i32) < 2 * self.root_depth)
    }

    fn flush_nodes(&mut self) {
        self.worker.visits.flush();
    }

    fn ends_turn(&self, choice: Choice<R::Turn>) -> bool {
        matches!(choice, Choice::Turn(_))
    }

    /// Killers and history learn from quiet turns that refute a rolled decision.
    #[allow(clippy::too_many_arguments)]
    fn reward(
        &mut self,
        _: &OneMoveStates<'a, R>,
        state: &TurnState<R::Position>,
        choice: Choice<R::Turn>,
        depth: i32,
        _: i32,
        ply: usize,
        _: bool,
    ) {
        let w = &mut self.worker;
        if let (TurnState::Rolled(pos, _), Choice::Turn(t)) = (state, choice)
            && w.eval.tactical(pos, t).is_none()
        {
            w.ordering.reward::<R, E>(w.eval, pos, t, ply, depth);
        }
    }
}

/// The search of a one-move variant: the tree and its hooks.
pub(crate) type OneMoveTree<'a, R, E> = Tree<'a, OneMoveStates<'a, R>, OneMoveHooks<'a, R, E>>;

impl<R: Rules, E: Evaluator<R>> OneMoveHooks<'_, R, E> {
    /// How static scores become the equities the search averages.
    pub(crate) fn equity(&self) -> super::equity::Equity {
        self.worker.equity.clone()
    }
}

impl<R: Rules, E: Evaluator<R>> OneMoveTree<'_, R, E> {
    /// The deepest ply reached, the horizon's included.
    pub(crate) fn seldepth(&self) -> usize {
        self.visits.seldepth.max(self.hooks.worker.visits.seldepth)
    }

    /// Dice as an adversary: a roll is worth its worst outcome, in the tree and at its horizon,
    /// without the table (its values are not the expected ones) or reductions.
    pub(crate) fn set_adversarial(&mut self) {
        self.adversarial = true;
        self.hooks.worker.adversarial = true;
    }
}

/// The tree of a one-move variant for `input`.
pub(crate) fn one_move_tree<'a, R: Rules, E: Evaluator<R>>(
    input: &'a SearchInput<'_, R, E>,
    shared: &'a Shared,
    budget: TimeBudget,
) -> OneMoveTree<'a, R, E> {
    let hooks = OneMoveHooks { worker: HorizonWorker::new(input, shared, budget), late: Vec::new(), root_depth: 0 };
    let game = OneMoveStates { rules: input.rules };
    // The turn starts before the root's and the root's own, which a line may come back to.
    let mut path = Vec::with_capacity(input.history.len() + super::MAX_PLY + 8);
    path.extend_from_slice(input.history);
    let root = game.key(&TurnState::BeforeRoll(input.position.clone()));
    if path.last() != Some(&root) {
        path.push(root);
    }
    Tree::new(game, hooks, shared, &input.options, budget, input.limits.nodes, path)
}

/// Late move reductions that depend neither on the window nor on what the search has seen: a
/// quiet turn is late when, for every outcome allowing it, `FULL_DEPTH_QUIETS` quiet turns of
/// that outcome come before it by the evaluation's static key ([`Evaluator::quiet_gain`]; ties
/// in table order). Being a property of the position and the turn alone, the reduced tree is one
/// tree whatever the chance pruning, the window or the order of search, so the pruning stays
/// exact on it; and a turn's depth is the same for every outcome that shares its child.
pub(crate) fn late_quiet_turns<R: Rules, E: Evaluator<R>>(
    eval: &E,
    pos: &R::Position,
    table: &TurnTable<R::Turn>,
    groups: &[super::OutcomeGroup],
) -> ArrayVec<bool, { crate::board::movegen::MAX_MOVES }> {
    let mut late: ArrayVec<bool, { crate::board::movegen::MAX_MOVES }> = ArrayVec::new();
    late.extend(table.turns.iter().map(|_| false));
    let mut quiet: ArrayVec<(usize, i32), { crate::board::movegen::MAX_MOVES }> = ArrayVec::new();
    for (k, &t) in table.turns.iter().enumerate() {
        if eval.tactical(pos, t).is_none() {
            quiet.push((k, eval.quiet_gain(pos, t)));
            late[k] = true;
        }
    }
    quiet.sort_by_key(|&(k, g)| (std::cmp::Reverse(g), k));
    for g in groups {
        let outcome = g.representative;
        for &(k, _) in quiet.iter().filter(|&&(k, _)| table.masks[k] >> outcome & 1 == 1).take(FULL_DEPTH_QUIETS) {
            late[k] = false;
        }
    }
    late
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::StaticEval;
    use crate::rules::{ChessKind, ChessRules, Position};
    use crate::search::table_and_groups;

    /// Captures are never late; each outcome keeps its best quiet turns by the static key; and
    /// the rest are late.
    #[test]
    fn late_quiet_turns_keep_captures_and_each_outcomes_best() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 8",
        ];
        for kind in [ChessKind::Freedom, ChessKind::Classic, ChessKind::BrainKing] {
            let rules = ChessRules::new(kind, false);
            let eval = StaticEval::new(crate::services::registry::Variant::of_kind(kind).default_eval());
            for fen in fens {
                let pos = Position::new(crate::Board::from_fen(fen).unwrap());
                let mut table = TurnTable::new();
                let mut groups = crate::search::Groups::new();
                table_and_groups(&rules, &pos, &mut table, &mut groups);
                let late = late_quiet_turns::<ChessRules, _>(&eval, &pos, &table, &groups);
                let mut any_late = false;
                for (k, &t) in table.turns.iter().enumerate() {
                    let quiet = Evaluator::<ChessRules>::tactical(&eval, &pos, t).is_none();
                    assert!(quiet || !late[k], "{kind:?}: capture {t:?} marked late");
                    any_late |= late[k];
                }
                assert!(any_late, "{kind:?} {fen}: nothing late");
                for g in &groups {
                    let o = g.representative;
                    let mut quiet: Vec<(i32, usize)> = (0..table.turns.len())
                        .filter(|&k| table.masks[k] >> o & 1 == 1)
                        .filter(|&k| Evaluator::<ChessRules>::tactical(&eval, &pos, table.turns[k]).is_none())
                        .map(|k| (Evaluator::<ChessRules>::quiet_gain(&eval, &pos, table.turns[k]), k))
                        .collect();
                    quiet.sort_by_key(|&(gain, k)| (std::cmp::Reverse(gain), k));
                    for (i, &(_, k)) in quiet.iter().enumerate() {
                        if i < FULL_DEPTH_QUIETS {
                            assert!(!late[k], "{kind:?}: outcome {o}'s quiet turn {i} is late");
                        }
                    }
                }
            }
        }
    }
}
