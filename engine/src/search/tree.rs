//! The search's tree, written once against the game as states ([`GameStates`]): a turn's start
//! is where depth is counted, repetitions are looked for and the horizon stands; a chance state
//! is the weighted mean of its outcomes (Star1/Star2 over outcome groups, [`super::chance`]); a
//! decision is the best of its choices (alpha-beta, the table's best first). The score changes
//! sign only where a turn ends. What a turn's states share is made once where the turn starts
//! ([`GameStates::begin_turn`]), and the turn's decisions share what they learn of the children
//! they lead to (bounds, by the slots of [`GameStates::choices_in`]): a one-move turn's child is
//! allowed by many outcomes. What the tree does not know of a variant (its horizon, the order and
//! the reductions of a decision's choices) comes from [`TreeHooks`].

use super::chance::{probcut_bound, star1_mean, star2_probe, star2_probe_lines};
use super::visits::Visits;
use super::{ChancePruning, INF, MAX_PLY, PROBCUT_DEPTH, PROBCUT_REDUCTION, SearchOptions, Shared, WIN, floor_div};
use crate::board::piece::Color;
use crate::board::zobrist::NODE_KIND;
use crate::rules::dice::OutcomeList;
use crate::rules::states::Groups;
use crate::rules::states::{ChoiceList, GameStates, NO_SLOT, SlotList, StateKind};
use crate::rules::{GameEnd, GameResult};
use crate::search::timeman::TimeBudget;
use crate::search::tt::{NO_TURN, TtHit};
use arrayvec::ArrayVec;

/// Per choice of a decision, its ordering key.
pub(crate) type OrderKeys = ArrayVec<i32, { crate::board::movegen::MAX_MOVES + 1 }>;
/// A decision's choices in the order to try them (indices into its [`ChoiceList`]).
pub(crate) type ChoiceOrder = ArrayVec<u16, { crate::board::movegen::MAX_MOVES + 1 }>;

/// The order of `keys`' choices: highest key first, ties in the list's order.
pub(crate) fn ordered(keys: &OrderKeys, out: &mut ChoiceOrder) {
    // Each as one sort key: the distance below the highest key above, the index below.
    // (Read back by reference: moving a full-capacity list into an iterator copies all of it.)
    let mut packed: ArrayVec<u64, { crate::board::movegen::MAX_MOVES + 1 }> = ArrayVec::new();
    for (k, &key) in keys.iter().enumerate() {
        packed.push(((i64::from(i32::MAX) - i64::from(key)) as u64) << 16 | k as u64);
    }
    packed.sort_unstable();
    out.clear();
    for &x in &packed {
        out.push((x & 0xffff) as u16);
    }
}

/// What a decision tells of a turn-ending choice without playing it ([`TreeHooks::frontier_bound`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FrontierBound {
    /// An upper bound of the choice's value for the deciding side, where one holds. A bound at
    /// or under alpha stands in for the choice: it must be what the horizon would answer at
    /// once (its standing reaching beta), so values and the table do not change.
    pub bound: Option<i32>,
    /// The static score of the turn start the choice leads to, for its side: the horizon there
    /// stands on it without scoring the position again.
    pub standing: i32,
}

/// Per choice of a decision: is it late (searched a turn less deep, or one turn deep not at all)?
pub(crate) type LateChoices = ArrayVec<bool, { crate::board::movegen::MAX_MOVES + 1 }>;

/// What the tree asks of a variant's evaluation and move ordering.
pub(crate) trait TreeHooks<G: GameStates> {
    /// What [`TreeHooks::frontier_bound`] needs of a decision, computed once per decision.
    type Frontier: Copy;

    /// A turn starts at `state`, `depth` turns deep, `ply` turns from the root, its shared
    /// answers in `turn` (the hooks may prepare what all its decisions ask of them).
    fn begin_turn(&mut self, _game: &G, _state: &G::State, _turn: &G::Turn, _depth: i32, _ply: usize) {}

    /// The horizon's value at the turn's start `state` (not a finished game, its table key
    /// `key`) for its side, searched with the window `(alpha, beta)` (fail-soft), `ply` turns
    /// from the root. `standing`: its static score, where the decision before it had it from
    /// [`TreeHooks::frontier_bound`].
    #[allow(clippy::too_many_arguments)]
    fn horizon(
        &mut self,
        game: &G,
        state: &G::State,
        key: u64,
        alpha: i32,
        beta: i32,
        ply: usize,
        standing: Option<i32>,
    ) -> i32;

    /// An ordering key per choice (higher first; ties in the list's order), `tt_best` (an
    /// index, or [`NO_TURN`]) the table's best.
    #[allow(clippy::too_many_arguments)]
    fn order(
        &self,
        game: &G,
        state: &G::State,
        choices: &ChoiceList<G::Choice>,
        tt_best: u16,
        ply: usize,
        out: &mut OrderKeys,
    );

    /// Which of `choices` are late at a decision `depth` turns deep, `ply` turns from the root.
    #[allow(clippy::too_many_arguments)]
    fn late(
        &self,
        game: &G,
        state: &G::State,
        choices: &ChoiceList<G::Choice>,
        slots: &SlotList,
        depth: i32,
        ply: usize,
        out: &mut LateChoices,
    );

    /// Turns added to the depth of the turn starting at `next` (reached by a choice marked
    /// `late`, `ply` turns from the root): the one-move search's check extension.
    fn extension(&self, _game: &G, _next: &G::State, _late: bool, _ply: usize) -> i32 {
        0
    }

    /// Does `choice` end the turn (so that one turn deep its child is the horizon)?
    fn ends_turn(&self, choice: G::Choice) -> bool;

    /// What tells a decision's turn-ending choices' standing one turn deep without playing
    /// them, given the decision's `alpha` (and whether a bound holds there); `None` where it
    /// cannot be told.
    fn frontier(&self, _game: &G, _state: &G::State, _alpha: i32) -> Option<Self::Frontier> {
        None
    }

    /// What the decision's `frontier` tells of `choice` (it ends the turn at the horizon);
    /// `None` where it tells nothing.
    fn frontier_bound(
        &self,
        _game: &G,
        _state: &G::State,
        _choice: G::Choice,
        _frontier: Self::Frontier,
    ) -> Option<FrontierBound> {
        None
    }

    /// Adds the nodes the hooks counted themselves (a horizon search's) to the search's count.
    fn flush_nodes(&mut self) {}

    /// `choice` refuted the rest of a decision `depth` turns deep (searched `choice_depth`
    /// deep, `ply` turns from the root; `probe`: Star2's probe).
    #[allow(clippy::too_many_arguments)]
    fn reward(
        &mut self,
        game: &G,
        state: &G::State,
        choice: G::Choice,
        depth: i32,
        choice_depth: i32,
        ply: usize,
        probe: bool,
    );
}

/// The value of a finished game for `side`, `ply` turns from the root.
pub(crate) fn end_value(end: GameEnd, side: Color, ply: usize) -> i32 {
    match end.result {
        GameResult::Draw => 0,
        GameResult::Win(c) if c == side => WIN - ply as i32,
        GameResult::Win(_) => -(WIN - ply as i32),
    }
}

/// The chance state's table key.
#[inline]
fn chance_key(key: u64) -> u64 {
    key ^ NODE_KIND[1]
}

/// Known bounds on the value of one turn's child, shared by every outcome that allows the turn:
/// a child searched for one outcome is not searched again for another.
#[derive(Copy, Clone, Debug)]
pub(crate) struct ChildBounds {
    pub lower: i32,
    pub upper: i32,
}

impl ChildBounds {
    pub const UNKNOWN: ChildBounds = ChildBounds { lower: -WIN, upper: WIN };

    /// Records a result `v` of a search with window `(alpha, beta)`.
    pub fn learn(&mut self, v: i32, alpha: i32, beta: i32) {
        if v <= alpha {
            self.upper = self.upper.min(v);
        } else if v >= beta {
            self.lower = self.lower.max(v);
        } else {
            self.lower = v;
            self.upper = v;
        }
    }
}

/// A child's value from what is already known, where that is enough for a window `(alpha,
/// beta)` and the best so far: `None` means search it.
#[inline]
pub(crate) fn known_value(bounds: &ChildBounds, alpha: i32, beta: i32, best: i32) -> Option<i32> {
    if bounds.lower == bounds.upper {
        return Some(bounds.lower);
    }
    if bounds.upper <= best || bounds.upper <= alpha {
        // It cannot raise the best: report its bound, which stays under the window.
        return Some(bounds.upper);
    }
    if bounds.lower >= beta {
        return Some(bounds.lower);
    }
    if bounds.lower >= WIN {
        return Some(WIN);
    }
    None
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

/// What the tree keeps of one turn on its path: the game's shared answers, and what the
/// turn's decisions have learnt of the children they share.
struct Frame<T> {
    turn: T,
    children: Vec<ChildBounds>,
    /// The turn starts where the game has stood once already, or one turn from a third
    /// repetition: the table's values of its states were stored on other paths, where the
    /// repetition beneath them was not one, so they are not taken (graph-history interaction:
    /// a kept table let a winning side repeat three times).
    repeated: bool,
    /// `children` kept aside while ChanceProbCut searches the turn's roll less deep.
    saved_children: Vec<ChildBounds>,
}

/// One thread's search of a game's states.
pub(crate) struct Tree<'a, G: GameStates, H> {
    pub(crate) game: G,
    pub(crate) hooks: H,
    shared: &'a Shared,
    options: &'a SearchOptions,
    pub(crate) visits: Visits<'a>,
    /// Turn-start keys: the game's, then the search path's.
    pub(crate) path: Vec<u64>,
    /// Per ply, the turn under way there.
    frames: Vec<Frame<G::Turn>>,
    pub(crate) aborted: bool,
    /// Dice as an adversary (a roll is worth its worst outcome, no table): proves a win whatever
    /// the dice.
    pub(crate) adversarial: bool,
    /// Searching the root's outcomes for the outcome table: their decisions are searched even
    /// where the table holds their value, since the outcome table wants each one's best choice,
    /// which a stored value alone does not give.
    pub(crate) outcome_table: bool,
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
        // One frame to begin with (the root's); deeper ones are made as the search first goes there.
        let frames =
            vec![Frame { turn: G::Turn::default(), children: Vec::new(), repeated: false, saved_children: Vec::new() }];
        Tree {
            game,
            hooks,
            shared,
            options,
            visits: Visits::new(shared, budget, node_limit),
            path,
            frames,
            aborted: false,
            adversarial: false,
            outcome_table: false,
        }
    }

    pub(crate) fn shared(&self) -> &'a Shared {
        self.shared
    }

    pub(crate) fn options(&self) -> &'a SearchOptions {
        self.options
    }

    /// Records a search of the turn's shared child `slot`, `ply` turns from the root: `value`
    /// in the window `(alpha, beta)`.
    pub(crate) fn learn(&mut self, ply: usize, slot: usize, value: i32, alpha: i32, beta: i32) {
        self.frames[ply].children[slot].learn(value, alpha, beta);
    }

    /// The turn under way `ply` turns from the root: the game's shared answers, and what its
    /// decisions have learnt of the children they share.
    pub(crate) fn frame(&self, ply: usize) -> (&G::Turn, &[ChildBounds]) {
        let frame = &self.frames[ply];
        (&frame.turn, &frame.children)
    }

    /// Counts a node; `false` once the search is to stop.
    #[inline]
    pub(crate) fn visit(&mut self, ply: usize) -> bool {
        if !self.visits.visit(ply) {
            self.aborted = true;
        }
        !self.aborted
    }

    pub(crate) fn flush_nodes(&mut self) {
        self.visits.flush();
        self.hooks.flush_nodes();
    }

    #[inline]
    pub(crate) fn tt_probe(&self, key: u64) -> Option<TtHit> {
        if self.options.use_tt && !self.adversarial { self.shared.tt.probe(key) } else { None }
    }

    /// The value `hit` settles for a state of the turn at `ply`, unless that turn starts where
    /// the game has stood before ([`Frame::repeated`]).
    #[inline]
    fn tt_cutoff(&self, hit: &TtHit, depth: i32, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
        if self.frames[ply].repeated { None } else { hit.cutoff(depth, alpha, beta) }
    }

    #[inline]
    pub(crate) fn tt_store(&self, key: u64, depth: i32, value: i32, alpha: i32, beta: i32, best: u16) {
        if self.options.use_tt && !self.adversarial && !self.aborted {
            self.shared.tt.store_result(key, depth, value, alpha, beta, best);
        }
    }

    /// Makes the frame of the turn `state` is in, `ply` turns from the root, `depth` deep.
    pub(crate) fn begin_turn(&mut self, state: &G::State, depth: i32, ply: usize) {
        while self.frames.len() <= ply {
            self.frames.push(Frame {
                turn: G::Turn::default(),
                children: Vec::new(),
                repeated: false,
                saved_children: Vec::new(),
            });
        }
        let frame = &mut self.frames[ply];
        frame.repeated = false;
        self.game.begin_turn(state, &mut frame.turn);
        frame.children.clear();
        frame.children.resize(self.game.shared_children(&frame.turn), ChildBounds::UNKNOWN);
        self.hooks.begin_turn(&self.game, state, &frame.turn, depth, ply);
    }

    /// The value of a turn's start for its side, `depth` turns deep (`standing`: its static
    /// score, where the decision before it knew it).
    pub(crate) fn turn_start(
        &mut self,
        state: &G::State,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        standing: Option<i32>,
    ) -> i32 {
        if !self.visit(ply) {
            return 0;
        }
        let key = self.game.key(state);
        let reversible = self.game.reversible_turns(state);
        let seen = if ply > 0 { times_seen(&self.path, key, reversible) } else { 0 };
        if seen >= 2 {
            return 0;
        }
        if let Some(end) = self.game.end(state) {
            return end_value(end, self.game.side(state), ply);
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.horizon(state, key, alpha, beta, ply, standing);
        }
        let repeated = seen == 1 || (ply > 0 && self.draw_a_turn_away(key, reversible));
        // A value the table holds settles the turn before its table of moves is made (every
        // outcome's moves: the dearest part of a turn's start). The start is a decision, stored
        // under its own key, or a roll, under the roll's; only one of the two can be there, and
        // where starts are always rolls, only the roll's.
        if ply > 0 && !repeated {
            let keys: &[u64] = if self.game.starts_may_decide() { &[key, chance_key(key)] } else { &[chance_key(key)] };
            for &k in keys {
                if let Some(v) = self.tt_probe(k).and_then(|hit| hit.cutoff(depth, alpha, beta)) {
                    return v;
                }
            }
        }
        self.begin_turn(state, depth, ply);
        self.frames[ply].repeated = repeated;
        self.path.push(key);
        let kind = self.game.kind_in(state, &self.frames[ply].turn);
        debug_assert!(
            self.game.starts_may_decide() || !matches!(kind, StateKind::Decision),
            "a turn start decided in a game whose starts are always rolls"
        );
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
        match self.game.kind_in(state, &self.frames[ply].turn) {
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
        let mut outcomes = OutcomeList::new();
        let mut groups = Groups::new();
        self.game.outcomes_in(state, &self.frames[ply].turn, &mut outcomes, &mut groups);
        if groups.len() == 1 {
            // Every outcome allows the same: the roll is its decision.
            let next = self.game.after_outcome(state, &outcomes[groups[0].representative].roll);
            return self.within_turn(&next, depth, alpha, beta, ply, false);
        }
        let key = chance_key(key);
        if let Some(v) = self.tt_probe(key).and_then(|hit| self.tt_cutoff(&hit, depth, alpha, beta, ply)) {
            return v;
        }
        let total: u32 = groups.iter().map(|g| g.weight).sum();
        if let Some(v) = self.probcut(state, &outcomes, &groups, total, depth, alpha, beta, ply) {
            return if self.aborted { 0 } else { v };
        }
        let outcome_value = |w: &mut Self, g: usize, a: i32, b: i32, probe: bool| -> Option<i32> {
            let next = w.game.after_outcome(state, &outcomes[groups[g].representative].roll);
            let v = w.within_turn(&next, depth, a, b, ply, probe);
            (!w.aborted).then_some(v)
        };
        // Filled in place: a collected ArrayVec is copied whole, capacity and all.
        let mut lower_bounds: ArrayVec<i32, { crate::rules::MAX_OUTCOMES }> = ArrayVec::new();
        lower_bounds.extend(groups.iter().map(|_| -WIN));
        let value = match self.options.chance_pruning {
            _ if self.adversarial => {
                // The worst group for the side to move: a min node, with alpha-beta.
                let (mut worst, mut b) = (INF, beta);
                for g in 0..groups.len() {
                    let Some(v) = outcome_value(self, g, alpha, b, false) else { return 0 };
                    worst = worst.min(v);
                    b = b.min(worst);
                    if worst <= alpha {
                        break;
                    }
                }
                Some(worst)
            }
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

    /// ChanceProbCut at a roll below the root: its outcomes searched [`PROBCUT_REDUCTION`] turns
    /// less deep, with full windows (the table holds most of them from the last iteration),
    /// and the roll cut where their mean is further than the hooks' margin outside the window
    /// ([`probcut_bound`]). `Some` also where the search stopped.
    #[allow(clippy::too_many_arguments)]
    fn probcut(
        &mut self,
        state: &G::State,
        outcomes: &OutcomeList,
        groups: &Groups,
        total: u32,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        if !self.options.chance_probcut
            || self.adversarial
            || ply == 0
            || depth < PROBCUT_DEPTH
            || self.options.chance_pruning == ChancePruning::None
        {
            return None;
        }
        let margin = self.options.probcut_margin?;
        // The turn's decisions share what they learn of its children: bounds from searches a
        // turn less deep must not stand for the full depth's.
        let frame = &mut self.frames[ply];
        frame.saved_children.clone_from(&frame.children);
        let mut sum = 0i64;
        for group in groups {
            let next = self.game.after_outcome(state, &outcomes[group.representative].roll);
            let v = self.within_turn(&next, depth - PROBCUT_REDUCTION, -INF, INF, ply, false);
            if self.aborted {
                break;
            }
            sum += i64::from(group.weight) * i64::from(v);
        }
        let frame = &mut self.frames[ply];
        frame.children.clone_from(&frame.saved_children);
        if self.aborted {
            return Some(0);
        }
        probcut_bound(sum, total, margin, alpha, beta)
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
            if !(self.outcome_table && ply == 0)
                && let Some(v) = self.tt_cutoff(&hit, depth, alpha, beta, ply)
            {
                return v;
            }
            tt_best = hit.best;
        }
        let mut choices = ChoiceList::new();
        let mut slots = SlotList::new();
        self.game.choices_in(state, &self.frames[ply].turn, &mut choices, &mut slots);
        // Below the root, a roll that can only narrow the free choices is not searched (at the
        // root it is, for the outcome table a player is shown).
        if ply > 0 {
            self.game.drop_dominated_roll(state, &self.frames[ply].turn, &mut choices, &mut slots);
        }
        let mut keys = OrderKeys::new();
        self.hooks.order(&self.game, state, &choices, tt_best, ply, &mut keys);
        // A choice whose child another decision of the turn has shown to be good goes first,
        // by its bound: a probe then often succeeds without a search.
        for (key, &slot) in keys.iter_mut().zip(&slots) {
            if slot != NO_SLOT {
                let lower = self.frames[ply].children[usize::from(slot)].lower;
                if lower > -WIN {
                    *key = i32::MAX - WIN + lower;
                }
            }
        }
        let mut order = ChoiceOrder::new();
        ordered(&keys, &mut order);
        let mut late = LateChoices::new();
        self.hooks.late(&self.game, state, &choices, &slots, depth, ply, &mut late);
        let mut best = -INF;
        let mut best_index = NO_TURN;
        // What bounds the turn-ending choices one turn deep, once one needs it.
        let mut frontier: Option<Option<H::Frontier>> = None;
        for &k in &order {
            let a = alpha.max(best);
            let choice = choices[usize::from(k)];
            let is_late = late[usize::from(k)];
            let Some(d) = choice_depth(depth, is_late) else { continue };
            let slot = slots.get(usize::from(k)).copied().unwrap_or(NO_SLOT);
            let known = (slot != NO_SLOT)
                .then(|| known_value(&self.frames[ply].children[usize::from(slot)], a, beta, best))
                .flatten();
            let v = if let Some(v) = known {
                v
            } else {
                let mut standing = None;
                if !probe && d <= 1 && self.hooks.ends_turn(choice) {
                    let base = *frontier.get_or_insert_with(|| self.hooks.frontier(&self.game, state, a));
                    if let Some(told) = base.and_then(|f| self.hooks.frontier_bound(&self.game, state, choice, f)) {
                        if let Some(bound) = told.bound
                            && bound <= a
                        {
                            // Cannot raise alpha: the bound stands in for the choice (fail-soft).
                            best = best.max(bound);
                            continue;
                        }
                        standing = Some(told.standing);
                    }
                }
                let v = self.choice_value(state, choice, d, is_late, a, beta, ply, probe, standing);
                if self.aborted {
                    return 0;
                }
                if slot != NO_SLOT {
                    self.frames[ply].children[usize::from(slot)].learn(v, a, beta);
                }
                v
            };
            if v > best {
                best = v;
                best_index = k;
            }
            if best >= beta {
                self.hooks.reward(&self.game, state, choice, depth, d, ply, probe);
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
    /// turn (`late`: a choice searched a turn less deep): where the turn ends, the opponent's
    /// turn a turn less deep, negated. `standing`: the static score of the turn start it leads
    /// to, where the decision knows it ([`FrontierBound`]).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn choice_value(
        &mut self,
        state: &G::State,
        choice: G::Choice,
        depth: i32,
        late: bool,
        alpha: i32,
        beta: i32,
        ply: usize,
        probe: bool,
        standing: Option<i32>,
    ) -> i32 {
        let next = self.game.after_choice(state, choice);
        if self.game.starts_turn(&next) {
            let depth = depth - 1 + self.hooks.extension(&self.game, &next, late, ply);
            -self.turn_start(&next, depth, -beta, -alpha, ply + 1, standing)
        } else {
            self.within_turn(&next, depth, alpha, beta, ply, probe)
        }
    }

    /// The horizon at a turn's start: the hooks' (a search there sees the same stop).
    fn horizon(&mut self, state: &G::State, key: u64, alpha: i32, beta: i32, ply: usize, standing: Option<i32>) -> i32 {
        let v = self.hooks.horizon(&self.game, state, key, alpha, beta, ply, standing);
        if self.shared.halted() {
            self.aborted = true;
        }
        v
    }
}

impl<G: GameStates, H> Tree<'_, G, H> {
    /// Could one turn from the turn start keyed `key` reach a third repetition? Those turn starts
    /// are every second one back (the side to move alternates), among the last `reversible`.
    fn draw_a_turn_away(&self, key: u64, reversible: u32) -> bool {
        let window = &self.path[self.path.len().saturating_sub(reversible as usize)..];
        window.iter().rev().step_by(2).any(|&earlier| {
            self.game.one_turn_apart(key, earlier) && window.iter().filter(|&&h| h == earlier).count() >= 2
        })
    }
}

/// How often `key` has stood among the last `reversible` turn starts of `path` (twice: this is
/// the third time, a draw).
fn times_seen(path: &[u64], key: u64, reversible: u32) -> usize {
    path.iter().rev().take(reversible as usize).filter(|&&h| h == key).count()
}
