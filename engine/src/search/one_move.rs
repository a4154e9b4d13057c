//! The one-move variants (one roll, one move a turn: [`Rules`]) on the tree of the game as
//! states ([`super::tree`]): the dice-aware quiescence search as the horizon, killers and
//! history for the order, late quiet turns a turn less deep, and checks searched without
//! losing depth. The turn's table (every turn each outcome allows) is made once per turn by
//! [`OneMoveStates`], and the turn's decisions share their children through it.

use super::node::late_quiet_turns;
use super::tree::{LateChoices, OrderKeys, Tree, TreeHooks};
use super::{Choice, REDUCTION_DEPTH, SearchInput, Shared, Worker};
use crate::eval::Evaluator;
use crate::rules::Rules;
use crate::states::{ChoiceList, GameStates, NO_SLOT, OneMoveStates, OneMoveTurn, SlotList, TurnState};
use crate::timeman::TimeBudget;
use arrayvec::ArrayVec;

/// The ordering key of rolling: after the table's best and the captures, before quiet turns.
const ROLL_ORDER: i32 = 1 << 23;

/// What the tree asks of a one-move variant.
pub(crate) struct OneMoveHooks<'a, R: Rules, E> {
    /// The horizon's search, its killers and history, and its equity.
    worker: Worker<'a, R, E>,
    /// Per ply, per turn of that turn's table: is it late?
    late: Vec<ArrayVec<bool, { crate::movegen::MAX_MOVES }>>,
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

/// The tree of a one-move variant for `input`.
pub(crate) fn one_move_tree<'a, R: Rules, E: Evaluator<R>>(
    input: &'a SearchInput<'_, R, E>,
    shared: &'a Shared,
    budget: TimeBudget,
) -> Tree<'a, OneMoveStates<'a, R>, OneMoveHooks<'a, R, E>> {
    let hooks = OneMoveHooks {
        worker: Worker::new(input, shared, budget, true),
        late: (0..=super::MAX_PLY).map(|_| ArrayVec::new()).collect(),
        root_depth: 0,
    };
    let game = OneMoveStates { rules: input.rules };
    Tree::new(game, hooks, shared, &input.options, budget, input.limits.nodes, input.history.to_vec())
}

/// The value (centipawns) of `state` for its side, searched on the tree by iterative deepening
/// to `input`'s depth with a full window: the one-move variants on the search of the game as
/// states, which the tests check against the plain expectiminimax and the one-move search.
pub fn tree_score<R: Rules, E: Evaluator<R>>(
    input: &SearchInput<'_, R, E>,
    state: &TurnState<R::Position>,
    shared: &Shared,
) -> i32 {
    shared.start_search();
    if input.options.use_tt {
        shared.tt.new_search();
    }
    let budget = TimeBudget::new(&input.limits);
    let mut tree = one_move_tree(input, shared, budget);
    let max_depth = input.limits.depth.unwrap_or(1).max(1) as i32;
    let mut value = 0;
    for depth in 1..=max_depth {
        tree.hooks.root_depth = depth;
        value = match state {
            TurnState::BeforeRoll(_) => tree.turn_start(state, depth, -super::INF, super::INF, 0),
            _ => {
                let start = TurnState::BeforeRoll(state.position().clone());
                tree.path.push(tree.game.key(&start));
                tree.begin_turn(state, depth, 0);
                let v = tree.within_turn(state, depth, -super::INF, super::INF, 0, false);
                tree.path.pop();
                v
            }
        };
    }
    tree.flush_nodes();
    tree.hooks.worker.flush_nodes();
    tree.hooks.worker.equity.to_score(value)
}
