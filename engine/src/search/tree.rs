//! The search's tree, written once against the game as states ([`GameStates`]): a turn's start
//! is where depth is counted, repetitions are looked for and the horizon stands; a chance state
//! is the weighted mean of its outcomes (Star1/Star2 over outcome groups, [`super::chance`]); a
//! decision is the best of its choices (alpha-beta, the table's best first). The score changes
//! sign only where a turn ends. What the tree does not know of a variant (its horizon, the order
//! and the reductions of a decision's choices) comes from [`TreeHooks`].

use super::chance::{Groups, OutcomeGroup, star1_mean, star2_probe, star2_probe_lines};
use super::{ChancePruning, INF, MAX_PLY, SearchOptions, Shared, WIN, floor_div};
use crate::piece::Color;
use crate::rules::dice::OutcomeList;
use crate::rules::{GameEnd, GameResult};
use crate::states::{ChoiceList, GameStates, StateKind};
use crate::timeman::TimeBudget;
use crate::tt::{NO_TURN, TtHit};
use crate::zobrist::NODE_KIND;
use arrayvec::ArrayVec;
use std::sync::atomic::Ordering;

/// Nodes between two looks at the clock.
const CLOCK_INTERVAL: u64 = 1024;

/// A decision's choices in the order to try them (indices into its [`ChoiceList`]).
pub(crate) type ChoiceOrder = ArrayVec<u16, { crate::movegen::MAX_MOVES + 1 }>;
/// Per choice of a decision: is it late (searched a turn less deep, or one turn deep not at all)?
pub(crate) type LateChoices = ArrayVec<bool, { crate::movegen::MAX_MOVES + 1 }>;

/// What the tree asks of a variant's evaluation and move ordering.
pub(crate) trait TreeHooks<G: GameStates> {
    /// What [`TreeHooks::frontier_bound`] needs of a decision, computed once per decision.
    type Frontier: Copy;

    /// The outcomes of the chance state `state` and their groups (outcomes searched as one,
    /// heaviest first): [`one_group_per_outcome`] where no two outcomes are known to be alike.
    fn roll(&self, game: &G, state: &G::State, outcomes: &mut OutcomeList, groups: &mut Groups);

    /// A lower bound of the horizon's value at `state` for its side that needs no search
    /// (standing pat): where it reaches beta, the horizon is not searched.
    fn stand(&self, game: &G, state: &G::State) -> i32;

    /// The horizon's value at the turn's start `state` (not a finished game), `ply` turns from
    /// the root: a function of the state and the ply alone, so the table keeps it.
    fn horizon(&self, game: &G, state: &G::State, ply: usize) -> i32;

    /// The order to try `choices` in, `tt_best` (an index, or [`NO_TURN`]) the table's best.
    fn order(&self, game: &G, state: &G::State, choices: &ChoiceList<G::Choice>, tt_best: u16, out: &mut ChoiceOrder);

    /// Which of `choices` are late at a decision `depth` turns deep, `ply` turns from the root.
    fn late(
        &self,
        game: &G,
        state: &G::State,
        choices: &ChoiceList<G::Choice>,
        depth: i32,
        ply: usize,
        out: &mut LateChoices,
    );

    /// Does `choice` end the turn (so that one turn deep its child is the horizon)?
    fn ends_turn(&self, choice: G::Choice) -> bool;

    /// What bounds a decision's turn-ending choices one turn deep without playing them, given
    /// the decision's `alpha`; `None` where no bound holds.
    fn frontier(&self, game: &G, state: &G::State, alpha: i32) -> Option<Self::Frontier>;

    /// An upper bound of `choice`'s value (it ends the turn at the horizon) for the decision's
    /// side, from the decision's `frontier`; `None` where it has none. A bound at or under alpha
    /// stands in for the choice: it must be what the horizon would answer at once (its standing
    /// reaching beta), so values and the table do not change.
    fn frontier_bound(&self, game: &G, state: &G::State, choice: G::Choice, frontier: Self::Frontier) -> Option<i32>;

    /// `choice` refuted the rest of a decision searched `depth` turns deep.
    fn reward(&mut self, game: &G, state: &G::State, choice: G::Choice, depth: i32);
}

/// Every outcome its own group, heaviest first.
pub(crate) fn one_group_per_outcome(outcomes: &OutcomeList, groups: &mut Groups) {
    groups.clear();
    groups.extend(outcomes.iter().enumerate().map(|(i, o)| OutcomeGroup {
        representative: i,
        members: 1 << i,
        weight: o.weight,
    }));
    groups.sort_by_key(|g| std::cmp::Reverse(g.weight));
}

/// The value of a finished game for `side`, `ply` turns from the root.
pub(crate) fn end_value(end: GameEnd, side: Color, ply: usize) -> i32 {
    match end.result {
        GameResult::Draw => 0,
        GameResult::Win(c) if c == side => WIN - ply as i32,
        GameResult::Win(_) => -(WIN - ply as i32),
    }
}

/// The horizon's table key: the turn start's, marked apart from the decision and chance keys.
#[inline]
fn horizon_key(key: u64) -> u64 {
    key ^ NODE_KIND[0].rotate_left(29)
}

/// The chance state's table key.
#[inline]
fn chance_key(key: u64) -> u64 {
    key ^ NODE_KIND[super::node::CHANCE_KIND]
}

/// How deep a choice of a decision `depth` turns deep is searched: a late one a turn less, and
/// one turn deep not at all.
#[inline]
pub(crate) fn choice_depth(depth: i32, late: bool) -> Option<i32> {
    match (late, depth) {
        (false, _) => Some(depth),
        (true, 1) => None,
        (true, _) => Some(depth - 1),
    }
}

/// One thread's search of a game's states.
pub(crate) struct Tree<'a, G: GameStates, H> {
    pub(crate) game: G,
    pub(crate) hooks: H,
    shared: &'a Shared,
    options: &'a SearchOptions,
    pub(crate) budget: TimeBudget,
    node_limit: Option<u64>,
    local_nodes: u64,
    pub(crate) seldepth: usize,
    /// Turn-start keys: the game's, then the search path's.
    pub(crate) path: Vec<u64>,
    pub(crate) aborted: bool,
}

impl<'a, G: GameStates, H: TreeHooks<G>> Tree<'a, G, H> {
    pub(crate) fn new(
        game: G,
        hooks: H,
        shared: &'a Shared,
        options: &'a SearchOptions,
        budget: TimeBudget,
        node_limit: Option<u64>,
        path: Vec<u64>,
    ) -> Tree<'a, G, H> {
        Tree { game, hooks, shared, options, budget, node_limit, local_nodes: 0, seldepth: 0, path, aborted: false }
    }

    /// Counts a node and, every so often, looks at the clock and the limits.
    #[inline]
    pub(crate) fn visit(&mut self, ply: usize) -> bool {
        self.local_nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.local_nodes >= CLOCK_INTERVAL {
            let total = self.shared.nodes.fetch_add(self.local_nodes, Ordering::Relaxed) + self.local_nodes;
            self.local_nodes = 0;
            if self.budget.out_of_time() || self.node_limit.is_some_and(|n| total >= n) {
                self.shared.end_search();
            }
        }
        if self.shared.halted() {
            self.aborted = true;
        }
        !self.aborted
    }

    pub(crate) fn flush_nodes(&mut self) {
        self.shared.nodes.fetch_add(self.local_nodes, Ordering::Relaxed);
        self.local_nodes = 0;
    }

    #[inline]
    pub(crate) fn tt_probe(&self, key: u64) -> Option<TtHit> {
        if self.options.use_tt { self.shared.tt.probe(key) } else { None }
    }

    #[inline]
    pub(crate) fn tt_store(&self, key: u64, depth: i32, value: i32, alpha: i32, beta: i32, best: u16) {
        if self.options.use_tt && !self.aborted {
            self.shared.tt.store_result(key, depth, value, alpha, beta, best);
        }
    }

    /// The value of a turn's start for its side, `depth` turns deep.
    pub(crate) fn turn_start(&mut self, state: &G::State, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        if !self.visit(ply) {
            return 0;
        }
        let key = self.game.key(state);
        if ply > 0 && is_threefold(&self.path, key, self.game.reversible_turns(state)) {
            return 0;
        }
        let kind = self.game.kind(state);
        if let StateKind::End(end) = kind {
            return end_value(end, self.game.side(state), ply);
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.horizon(state, key, beta, ply);
        }
        self.path.push(key);
        let value = match kind {
            StateKind::Chance => self.chance(state, key, depth, alpha, beta, ply),
            _ => self.decision(state, key, depth, alpha, beta, ply, false),
        };
        self.path.pop();
        value
    }

    /// The value of `state` within a turn (a decision or a roll), for its side.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn within_turn(
        &mut self,
        state: &G::State,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        probe: bool,
    ) -> i32 {
        let key = self.game.key(state);
        match self.game.kind(state) {
            StateKind::Decision => {
                if !self.visit(ply) {
                    return 0;
                }
                self.decision(state, key, depth, alpha, beta, ply, probe)
            }
            StateKind::Chance => self.chance(state, key, depth, alpha, beta, ply),
            StateKind::End(end) => end_value(end, self.game.side(state), ply),
        }
    }

    /// A roll: the weighted mean of its outcome groups' values.
    fn chance(&mut self, state: &G::State, key: u64, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        let key = chance_key(key);
        if let Some(v) = self.tt_probe(key).and_then(|hit| hit.cutoff(depth, alpha, beta)) {
            return v;
        }
        let mut outcomes = OutcomeList::new();
        let mut groups = Groups::new();
        self.hooks.roll(&self.game, state, &mut outcomes, &mut groups);
        let total: u32 = groups.iter().map(|g| g.weight).sum();
        let outcome_value = |w: &mut Self, g: usize, a: i32, b: i32, probe: bool| -> Option<i32> {
            let next = w.game.after_outcome(state, &outcomes[groups[g].representative].roll);
            let v = w.within_turn(&next, depth, a, b, ply, probe);
            (!w.aborted).then_some(v)
        };
        let mut lower_bounds: ArrayVec<i32, { crate::rules::MAX_OUTCOMES }> = groups.iter().map(|_| -WIN).collect();
        let value = match self.options.chance_pruning {
            ChancePruning::None => {
                let mut sum = 0i64;
                for g in 0..groups.len() {
                    let Some(v) = outcome_value(self, g, -INF, INF, false) else { return 0 };
                    sum += i64::from(groups[g].weight) * i64::from(v);
                }
                Some(floor_div(sum, i64::from(total)) as i32)
            }
            ChancePruning::Star1 => {
                star1_mean(&groups, &lower_bounds, total, alpha, beta, |g, a, b| outcome_value(self, g, a, b, false))
            }
            ChancePruning::Star2 => {
                // One turn deep, a probe is a line into the horizon: cheap and, with a full
                // window, exact, so every group gets a lower bound.
                let probed = if depth == 1 {
                    star2_probe_lines(&groups, &mut lower_bounds, total, beta, |g| {
                        outcome_value(self, g, -INF, INF, true)
                    })
                } else {
                    star2_probe(&groups, &mut lower_bounds, total, beta, |g, t| outcome_value(self, g, t - 1, t, true))
                };
                match probed {
                    Some(cut) => Some(cut),
                    None if self.aborted => None,
                    None => star1_mean(&groups, &lower_bounds, total, alpha, beta, |g, a, b| {
                        outcome_value(self, g, a, b, false)
                    }),
                }
            }
        };
        let Some(value) = value else { return 0 };
        self.tt_store(key, depth, value, alpha, beta, NO_TURN);
        value
    }

    /// A decision `depth` turns deep counting this turn (the node already counted). With
    /// `probe`, only the first choice in order is followed: a lower bound (Star2's probe).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn decision(
        &mut self,
        state: &G::State,
        key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        probe: bool,
    ) -> i32 {
        let mut tt_best = NO_TURN;
        if let Some(hit) = self.tt_probe(key) {
            // A stored bound answers a probe's question (is the node >= beta?) as well as a search.
            if let Some(v) = hit.cutoff(depth, alpha, beta) {
                return v;
            }
            tt_best = hit.best;
        }
        let mut choices = ChoiceList::new();
        self.game.choices(state, &mut choices);
        let mut order = ChoiceOrder::new();
        self.hooks.order(&self.game, state, &choices, tt_best, &mut order);
        let mut late = LateChoices::new();
        self.hooks.late(&self.game, state, &choices, depth, ply, &mut late);
        let mut best = -INF;
        let mut best_index = NO_TURN;
        // What bounds the turn-ending choices one turn deep, once one needs it.
        let mut frontier: Option<Option<H::Frontier>> = None;
        for &k in &order {
            let a = alpha.max(best);
            let choice = choices[usize::from(k)];
            let Some(d) = choice_depth(depth, late[usize::from(k)]) else { continue };
            if !probe && d <= 1 && self.hooks.ends_turn(choice) {
                let base = *frontier.get_or_insert_with(|| self.hooks.frontier(&self.game, state, a));
                if let Some(bound) = base.and_then(|f| self.hooks.frontier_bound(&self.game, state, choice, f))
                    && bound <= a
                {
                    // Cannot raise alpha: the bound stands in for the choice (fail-soft).
                    best = best.max(bound);
                    continue;
                }
            }
            let v = self.choice_value(state, choice, d, a, beta, ply, probe);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_index = k;
            }
            if best >= beta {
                if !probe {
                    self.hooks.reward(&self.game, state, choice, d);
                }
                break;
            }
            if probe {
                break;
            }
        }
        if !probe {
            self.tt_store(key, depth, best, alpha, beta, best_index);
        }
        best
    }

    /// The value for the deciding side of `choice` at `state`, `depth` turns deep counting this
    /// turn: where the turn ends, the opponent's turn a turn less deep, negated.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn choice_value(
        &mut self,
        state: &G::State,
        choice: G::Choice,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        probe: bool,
    ) -> i32 {
        let next = self.game.after_choice(state, choice);
        if self.game.starts_turn(&next) {
            -self.turn_start(&next, depth - 1, -beta, -alpha, ply + 1)
        } else {
            self.within_turn(&next, depth, alpha, beta, ply, probe)
        }
    }

    /// The horizon at a turn's start, kept in the table: the same leaf is reached by many
    /// outcomes and orders. Its value is never below standing pat, so standing pat at or above
    /// `beta` settles it (a lower bound, as a fail-high wants).
    fn horizon(&mut self, state: &G::State, key: u64, beta: i32, ply: usize) -> i32 {
        let stand = self.hooks.stand(&self.game, state);
        if stand >= beta {
            return stand;
        }
        let key = horizon_key(key);
        if let Some(hit) = self.tt_probe(key)
            && let Some(v) = hit.cutoff(0, -INF, INF)
        {
            return v;
        }
        let value = self.hooks.horizon(&self.game, state, ply);
        self.tt_store(key, 0, value, -INF, INF, NO_TURN);
        value
    }
}

/// Has `key` stood twice before among the last `reversible` turn starts of `path`?
fn is_threefold(path: &[u64], key: u64, reversible: u32) -> bool {
    path.iter().rev().take(reversible as usize).filter(|&&h| h == key).count() >= 2
}
