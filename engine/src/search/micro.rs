//! The search for variants of several moves a turn ([`MicroRules`]: `dicechess3`, ...), as
//! Arimaa's bot_Sharp searches its four steps: a turn is a sequence of decisions of one side,
//! the score keeps its sign within the turn, depth counts whole turns, and the table's key holds
//! the dice left (so the orders of a turn's micro-moves transpose).
//!
//! The states: the start of a turn is a chance node over the roll's outcomes (Star1/Star2, the
//! same arithmetic as the one-move search, [`super::chance`]); each outcome leads to a decision
//! node of the mover with those dice, one micro-move at a time under the maximum rule; the
//! turn's end is the opponent's chance node. The horizon weighs, outcome by outcome, the best
//! line of captures the dice allow against standing pat.
//!
//! Values are equities ([`Equity`]: linear in the expected result, so the mean over a roll's
//! outcomes is what the roll is worth); results report them as centipawns again.

use super::equity::Equity;
use super::stack::run_search;
use super::tree::{
    ChoiceOrder, FrontierBound, LateChoices, OrderKeys, Tree, TreeHooks, choice_depth, end_value, ordered,
};
use super::{Choice, INF, MAX_PLY, OutcomeAdvice, ScoredChoice, SearchOptions, SearchResult, Shared, WIN, floor_div};
use crate::board::micro_board::{MicroBoard, MicroMove};
use crate::board::piece::{Color, Role};
use crate::eval::{EVAL_MAX, MicroEval, StaticEval};
use crate::rules::dice::OutcomeList;
use crate::rules::micro::{
    DicePool, MicroPosition, MicroRules, MovesOf, PlanCache, PositionOf, StepOf, StepsOf, TurnOf, after_step,
    allowed_steps,
};
use crate::rules::states::{ChoiceList, GameStates, MicroStates, SlotList};
use crate::search::timeman::{IterationTimes, Limits, TimeBudget};
use crate::search::tt::NO_TURN;
use arrayvec::ArrayVec;
use std::sync::atomic::{AtomicU64, Ordering};

/// The most whole turns a root after the roll lists and searches one by one (each scored, so
/// that `MultiPV` and a stopped search have them ranked). Beyond it (Gollon's and Grand Dice
/// Chess's rolls allow hundreds of thousands) the root is searched micro-move by micro-move,
/// where the table joins the orders of a turn's micro-moves.
const ROOT_TURNS_LISTED: u64 = 20_000;

/// Micro-moves of each decision searched to full depth beside the winning captures, promotions
/// and king captures ([`late_quiet_steps`]).
const FULL_DEPTH_QUIET_STEPS: usize = 3;
/// Turns of this many micro-moves or more are pruned before the horizon: there a turn is the
/// fourth power of a decision's branching (Grand Dice Chess's four dice allow 1.6 million turns
/// from the start), and two turns deep cannot be reached in seconds without it; in shorter turns
/// the pruning measured no gain (`dicechess3`, 100 ms a turn: -31 Elo [-60, -3] over 400 games).
const PRUNED_TURN_LENGTH: usize = 4;

/// Everything one search of a variant of several moves a turn needs.
pub struct MicroInput<'a, R: MicroRules, E = StaticEval> {
    pub rules: &'a R,
    pub eval: &'a E,
    /// The start of a turn (the roll to come: the root is the chance node) or a turn in
    /// progress (the root is the mover's decision).
    pub position: &'a PositionOf<R>,
    /// Hashes of the game's earlier turn starts, oldest first (for repetitions).
    pub history: &'a [u64],
    pub limits: Limits,
    pub options: SearchOptions,
    /// Only these whole turns at a turn in progress (`go searchmoves`; the analysis of a turn
    /// played), each checked against the dice by the caller; `None`: every allowed turn.
    pub only: Option<&'a [TurnOf<R>]>,
}

/// Searches `input`'s root by iterative deepening, calling `report` after each completed
/// iteration. At a turn's start the result has every outcome's best turn and value (the advice
/// table) and chooses [`Choice::Roll`]; in a turn it chooses the rest of the turn.
pub fn search_micro<R: MicroRules + Sync, E: MicroEval<R::Board>>(
    input: &MicroInput<'_, R, E>,
    shared: &Shared,
    report: &mut (dyn FnMut(&SearchResult<TurnOf<R>>) + Send),
) -> SearchResult<TurnOf<R>> {
    shared.start_search();
    if input.options.use_tt {
        shared.tt.new_search();
    }
    let budget = TimeBudget::new(&input.limits);
    // After the roll, helper threads search the same root turns from other places in the list
    // and leave what they find in the shared table, under the main thread's bound.
    let helpers = if input.position.in_turn() { input.options.threads.max(1) - 1 } else { 0 };
    let root_alpha = AtomicU64::new(NO_ROOT_ALPHA);
    let root_alpha = &root_alpha;
    let mut result = run_search(
        helpers,
        |id| {
            let mut worker = MicroWorker::new(input, shared, budget);
            worker.root = RootShare { alpha: Some(root_alpha), start: (id, helpers + 1) };
            worker.iterate(input, &mut |_| {});
        },
        || {
            let mut worker = MicroWorker::new(input, shared, budget);
            worker.root = RootShare { alpha: Some(root_alpha), start: (0, helpers + 1) };
            let result = worker.iterate(input, report);
            shared.end_search();
            result
        },
    );
    result.nodes = shared.nodes();
    result.elapsed = budget.elapsed();
    result
}

/// The horizon's table key: the position's, marked apart from the decision and chance keys.
#[inline]
fn horizon_key(hash: u64) -> u64 {
    hash ^ crate::board::zobrist::NODE_KIND[0].rotate_left(29)
}

/// One search thread: the tree over the variant's states, and the root's whole turns.
pub(crate) struct MicroWorker<'a, R: MicroRules, E> {
    rules: &'a R,
    eval: &'a E,
    shared: &'a Shared,
    options: &'a SearchOptions,
    pub(crate) tree: Tree<'a, MicroStates<'a, R>, MicroHooks<'a, R, E>>,
    /// The root's own answers of the maximum rule (its turns are listed apart from the tree).
    cache: PlanCache,
    /// The roll's outcomes (the same at every turn start).
    outcomes: OutcomeList,
    total_weight: u32,
    /// Static scores as the equities the search averages.
    equity: Equity,
    /// The root's whole turns when the root is a turn in progress (filled by the first iteration).
    root_turns: Vec<RootTurn<R>>,
    root: RootShare<'a>,
    /// Does the root's roll allow more turns than [`ROOT_TURNS_LISTED`] (once counted)?
    many_root_turns: Option<bool>,
    /// Before the roll, the outcomes the first iteration finished (in equities), for the answer
    /// of a search stopped before that iteration ended.
    first_outcomes: Vec<OutcomeAdvice<TurnOf<R>>>,
}

/// What the tree asks of a variant of several micro-moves a turn: the horizon of captures the
/// dice allow, the order of a decision's micro-moves, and which are late.
pub(crate) struct MicroHooks<'a, R: MicroRules, E> {
    rules: &'a R,
    eval: &'a E,
    /// Where the horizon's values are kept (the search's table, when it has one).
    table: Option<&'a crate::search::tt::TranspositionTable>,
    reductions: bool,
    horizon_dice: HorizonDice,
    equity: Equity,
    /// Beta cutoffs of quiet micro-moves, by colour, origin and destination
    /// ([`MicroHooks::history_slot`]): quiet moves that refuted other lines are tried first
    /// elsewhere too.
    quiet_history: Vec<u32>,
    /// Do the rolls give [`PRUNED_TURN_LENGTH`] dice or more (late micro-moves pruned in the
    /// turn before the horizon)?
    long_turns: bool,
}

impl<'a, R: MicroRules, E: MicroEval<R::Board>> MicroWorker<'a, R, E> {
    pub(crate) fn new(
        input: &'a MicroInput<'_, R, E>,
        shared: &'a Shared,
        budget: TimeBudget,
    ) -> MicroWorker<'a, R, E> {
        let mut path = input.history.to_vec();
        if !input.position.in_turn() && path.last() != Some(&input.position.hash()) {
            path.push(input.position.hash());
        }
        // The roll's outcomes are the same at every turn start of these variants: the start's.
        let outcomes = input.rules.outcomes(&input.rules.startpos());
        let long_turns = outcomes.iter().any(|o| input.rules.pool(&o.roll).len() >= PRUNED_TURN_LENGTH);
        let equity = Equity::new(input.eval.result_scale());
        let hooks = MicroHooks {
            rules: input.rules,
            eval: input.eval,
            table: input.options.use_tt.then_some(&shared.tt),
            reductions: input.options.reductions,
            horizon_dice: HorizonDice::new(input.rules, &outcomes),
            equity: equity.clone(),
            quiet_history: vec![0; 2 * R::Board::SQUARES * R::Board::SQUARES],
            long_turns,
        };
        let game = MicroStates::new(input.rules);
        MicroWorker {
            rules: input.rules,
            eval: input.eval,
            shared,
            options: &input.options,
            tree: Tree::new(game, hooks, shared, &input.options, budget, input.limits.nodes, path),
            cache: PlanCache::default(),
            total_weight: outcomes.iter().map(|o| o.weight).sum(),
            outcomes,
            equity,
            root_turns: Vec::new(),
            root: RootShare { alpha: None, start: (0, 1) },
            many_root_turns: None,
            first_outcomes: Vec::new(),
        }
    }

    /// Iterative deepening at the root.
    fn iterate(
        &mut self,
        input: &MicroInput<'_, R, E>,
        report: &mut (dyn FnMut(&SearchResult<TurnOf<R>>) + Send),
    ) -> SearchResult<TurnOf<R>> {
        let max_depth = input.limits.depth.unwrap_or(MAX_PLY as u32 / 2).clamp(1, MAX_PLY as u32 - 1) as i32;
        let mut last: Option<SearchResult<TurnOf<R>>> = None;
        // An iteration that keeps its finished turns when stopped is worth starting whenever
        // time is left (the soft limit's, once an answer is in hand); otherwise none starts after
        // half the budget.
        let keeps_partial = input.position.in_turn() && self.options.multipv <= 1;
        let mut times = IterationTimes::default();
        for depth in 1..=max_depth {
            let Some(result) = self.search_root(input, depth) else {
                // A helper answers nothing but goes on deeper until the main thread stops.
                if self.root.start.0 > 0 && !self.tree.aborted {
                    continue;
                }
                break;
            };
            let next = times.ended_at(self.tree.visits.budget.elapsed());
            report(&result);
            last = Some(result);
            let may_start = if keeps_partial {
                // An answer in hand: the rest of the time is spent up to the move's share only.
                self.tree.visits.budget.stop_at_soft();
                !self.tree.visits.budget.out_of_time()
            } else {
                self.tree.visits.budget.may_start_iteration(next)
            };
            if !may_start || self.shared.halted() {
                break;
            }
        }
        self.tree.flush_nodes();
        last.unwrap_or_else(|| self.fallback(input))
    }

    /// One iteration at the root; `None` if stopped before its end.
    fn search_root(&mut self, input: &MicroInput<'_, R, E>, depth: i32) -> Option<SearchResult<TurnOf<R>>> {
        let pos = input.position;
        let mut outcomes = Vec::new();
        let mut choices = Vec::new();
        let multipv = self.options.multipv.max(1);
        let (best, score, roll_score) = if pos.in_turn() && input.only.is_none() && self.too_many_to_list(pos) {
            // Micro-move by micro-move, the table joining the orders of a turn's micro-moves:
            // the best turn alone (`MultiPV` too: hundreds of thousands of turns are not ranked
            // one by one). Stopped midway, the best of the turns finished (the last
            // iteration's first, by the table's move) still counts.
            let (score, turn) = self.root_decision(pos, depth, -INF, INF)?;
            choices = vec![ScoredChoice { choice: Choice::Turn(turn), score, exact: true, value: None }];
            (Choice::Turn(turn), score, None)
        } else if pos.in_turn() {
            // With one choice to score, a stopped iteration's finished turns still count.
            choices = self.ranked_turns(pos, input.only, depth, multipv, multipv == 1)?;
            let first = choices.first().expect("a turn in progress has a turn");
            (first.choice, first.score, None)
        } else {
            // Every outcome searched exactly: the advice table and the expected value of the roll.
            let mut sum = 0i64;
            if depth == 1 {
                self.first_outcomes.clear();
            }
            for o in self.outcomes.clone() {
                let (score, turn) = self.root_decision(&self.rules.rolled(pos, &o.roll), depth, -INF, INF)?;
                if self.tree.aborted {
                    return None;
                }
                sum += i64::from(o.weight) * i64::from(score);
                let advice = OutcomeAdvice {
                    roll: o.roll,
                    probability: o.probability,
                    best: turn,
                    score,
                    value: None,
                    estimated: false,
                };
                if depth == 1 {
                    self.first_outcomes.push(advice);
                }
                outcomes.push(advice);
            }
            let expected = floor_div(sum, i64::from(self.total_weight)) as i32;
            (Choice::Roll, expected, Some(expected))
        };
        self.tree.flush_nodes();
        let pv = match best {
            Choice::Turn(t) => vec![t],
            Choice::Roll => Vec::new(),
        };
        let result = SearchResult {
            best,
            score,
            depth: depth as u32,
            seldepth: self.tree.visits.seldepth as u32,
            nodes: self.shared.nodes(),
            elapsed: self.tree.visits.budget.elapsed(),
            pv,
            choices: if choices.is_empty() {
                vec![ScoredChoice { choice: best, score, exact: true, value: None }]
            } else {
                choices
            },
            outcomes,
            roll_score,
            mate: None,
            hashfull: if self.options.use_tt { self.shared.tt.hashfull() } else { 0 },
            result_scale: self.equity.scale(),
            value: None,
        };
        Some(result.in_centipawns(&self.equity))
    }

    /// Does the roll at the root allow more whole turns than are worth listing one by one
    /// ([`ROOT_TURNS_LISTED`])? Counted once, with each position of the turn counted once.
    fn too_many_to_list(&mut self, pos: &PositionOf<R>) -> bool {
        if self.root_turns.is_empty() && self.many_root_turns.is_none() {
            let mut memo = std::collections::HashMap::new();
            let n = crate::rules::micro::count_turns(self.rules, pos, &mut self.cache, &mut memo);
            self.many_root_turns = Some(n > ROOT_TURNS_LISTED);
        }
        self.many_root_turns.unwrap_or(false)
    }

    /// Every allowed whole turn from `pos` (a turn in progress), best first, the `multipv` best
    /// with exact scores and the rest with upper bounds. Turns that end in the same position are
    /// one turn (the shortest stands for them, the first in the rules' order among those). The
    /// turns are searched best first by the last iteration's scores (by the static score of where
    /// they end, at first), so a search stopped midway has looked at the likeliest ones: with
    /// `partial`, it then answers the turns it finished (the first of them the last iteration's
    /// choice), else `None`.
    fn ranked_turns(
        &mut self,
        pos: &PositionOf<R>,
        only: Option<&[TurnOf<R>]>,
        depth: i32,
        multipv: usize,
        partial: bool,
    ) -> Option<Vec<ScoredChoice<TurnOf<R>>>> {
        if self.root_turns.is_empty() {
            let mut turns: Vec<RootTurn<R>> = Vec::new();
            match only {
                // The turns asked for, as they are written (two that end alike both stay).
                Some(only) => {
                    for turn in only {
                        if let Ok(end) = crate::rules::micro::play_turn(self.rules, pos, turn.moves(), &mut self.cache)
                        {
                            turns.push(RootTurn { turn: *turn, end, score: 0 });
                        }
                    }
                }
                // One turn per end position: the shortest (a king taken at once rather than
                // after a detour), the first in the rules' order among those.
                None => {
                    let mut seen = std::collections::HashMap::new();
                    crate::rules::micro::for_each_turn(self.rules, pos, &mut self.cache, &mut |turn, end| match seen
                        .entry(end.hash())
                    {
                        std::collections::hash_map::Entry::Vacant(slot) => {
                            slot.insert(turns.len());
                            turns.push(RootTurn { turn: *turn, end: end.clone(), score: 0 });
                        }
                        std::collections::hash_map::Entry::Occupied(slot) => {
                            let kept = &mut turns[*slot.get()];
                            if turn.moves().len() < kept.turn.moves().len() {
                                kept.turn = *turn;
                            }
                        }
                    });
                }
            }
            // Turns that win at once first (the shortest first among equals), then by the
            // static score of where they end.
            for t in &mut turns {
                t.score = match self.rules.end(&t.end) {
                    Some(end) => -end_value(end, t.end.turn(), 1),
                    None => -evaluate(self.eval, &t.end),
                };
            }
            turns.sort_by_key(|t| (std::cmp::Reverse(t.score), t.turn.moves().len()));
            self.root_turns = turns;
        }
        let mut turns = std::mem::take(&mut self.root_turns);
        // The multipv best exact scores so far, best first: the lowest bounds what still needs
        // an exact score.
        let mut top: Vec<i32> = Vec::with_capacity(multipv + 1);
        let mut scored: Vec<ScoredChoice<TurnOf<R>>> = Vec::with_capacity(turns.len());
        let mut finished = 0;
        let (id, threads) = self.root.start;
        let helper = id > 0;
        let n = turns.len();
        for i in 0..n {
            let t = &mut turns[(i + id * n / threads) % n];
            let mut alpha = if top.len() >= multipv { top[multipv - 1] } else { -INF };
            if helper
                && multipv == 1
                && let Some(shared) = self.root.alpha
            {
                // The main thread's bound at this depth: what it will ask of these turns.
                let packed = shared.load(Ordering::Relaxed);
                if packed != NO_ROOT_ALPHA && (packed >> 32) as u32 as i32 == depth {
                    alpha = alpha.max(packed as u32 as i32);
                }
            }
            let v = -self.tree.turn_start(&t.end, depth - 1, -INF, -alpha, 1, None);
            if self.tree.aborted {
                break;
            }
            let exact = v > alpha;
            if exact {
                let at = top.partition_point(|&x| x >= v);
                top.insert(at, v);
                top.truncate(multipv);
                if !helper
                    && top.len() >= multipv
                    && let Some(shared) = self.root.alpha
                {
                    shared.store(pack_root_alpha(depth, top[multipv - 1]), Ordering::Relaxed);
                }
            }
            t.score = v;
            scored.push(ScoredChoice { choice: Choice::Turn(t.turn), score: v, exact, value: None });
            finished += 1;
        }
        if helper {
            // A helper's work is in the table; it orders its own list for its next iteration.
            if finished == n {
                turns.sort_by_key(|t| (std::cmp::Reverse(t.score), t.turn.moves().len()));
            }
            self.root_turns = turns;
            return None;
        }
        if finished < turns.len() {
            // Stopped: the unfinished keep their old places after the finished ones.
            turns[..finished].sort_by_key(|t| std::cmp::Reverse(t.score));
            self.root_turns = turns;
            return (partial && finished > 0).then(|| rank(scored, multipv));
        }
        turns.sort_by_key(|t| (std::cmp::Reverse(t.score), t.turn.moves().len()));
        self.root_turns = turns;
        Some(rank(scored, multipv))
    }

    /// The mover's best rest of the turn from `pos` (dice left) and its value: the decision
    /// node, with the best micro-moves kept. Values above `alpha` are exact when `beta` is `INF`.
    /// Stopped midway, it answers the best of the turns it finished (a lower bound of the
    /// node's value, so a parent may still prefer it), or `None` if it finished none. Its best
    /// micro-move goes to the table, so the next iteration follows this one's choice first.
    fn root_decision(&mut self, pos: &PositionOf<R>, depth: i32, alpha: i32, beta: i32) -> Option<(i32, TurnOf<R>)> {
        self.tree.begin_turn(pos, depth, 0);
        // Where the dice allow nothing, the one choice is to pass (the turn ends).
        let mut steps = ChoiceList::new();
        self.tree.game.choices(pos, &mut steps);
        let key = pos.hash();
        let tt_best = self.tree.tt_probe(key).map_or(NO_TURN, |hit| hit.best);
        let mut keys = OrderKeys::new();
        self.tree.hooks.order(&self.tree.game, pos, &steps, tt_best, 0, &mut keys);
        let mut order = ChoiceOrder::new();
        ordered(&keys, &mut order);
        let mut best = -INF;
        let mut best_index = NO_TURN;
        let mut best_turn = TurnOf::<R>::PASS;
        let mut late = LateChoices::new();
        self.tree.hooks.late(&self.tree.game, pos, &steps, &SlotList::new(), depth, 0, &mut late);
        for &k in &order {
            let step = steps[usize::from(k)];
            let a = alpha.max(best);
            let child = after_step(self.rules, pos, step);
            // None is late one turn deep here: the root's turn is not pruned.
            let d = choice_depth(depth, late[usize::from(k)]).unwrap_or(depth);
            let v = if step.ends_turn {
                -self.tree.turn_start(&child, d - 1, -beta, -a, 1, None)
            } else {
                self.tree.within_turn(&child, d, a, beta, 0, false)
            };
            if self.tree.aborted {
                return (best > -INF).then_some((best, best_turn));
            }
            if v > best {
                best = v;
                best_index = k;
                best_turn = if step.is_stop() { TurnOf::<R>::PASS } else { TurnOf::<R>::new(&[step.mv]) };
                if !step.ends_turn {
                    for &m in self.rest_of_turn(&child, depth).moves() {
                        best_turn.push(m);
                    }
                }
            }
            if best >= beta {
                break;
            }
        }
        self.tree.tt_store(key, depth, best, alpha, beta, best_index);
        Some((best, best_turn))
    }

    /// The best rest of the turn from `pos` (a turn in progress just searched `depth` turns
    /// deep): the table's best micro-move at each point, or where the table no longer holds one,
    /// a search of the rest.
    fn rest_of_turn(&mut self, pos: &PositionOf<R>, depth: i32) -> TurnOf<R> {
        let (mut turn, unknown) = self.follow(pos, |worker, at, steps| {
            worker.tree.tt_probe(at.hash()).map(|hit| usize::from(hit.best)).filter(|&i| i < steps.len())
        });
        if let Some(at) = unknown
            && let Some((_, rest)) = self.root_decision(&at, depth, -INF, INF)
        {
            for &m in rest.moves() {
                turn.push(m);
            }
        }
        turn
    }

    /// The turn from `pos` (a turn in progress) made by taking at each point the allowed step
    /// `pick` names (by its index), until the turn ends; and where `pick` named none, that
    /// point of the turn.
    fn follow(
        &mut self,
        pos: &PositionOf<R>,
        mut pick: impl FnMut(&Self, &PositionOf<R>, &StepsOf<R>) -> Option<usize>,
    ) -> (TurnOf<R>, Option<PositionOf<R>>) {
        let mut turn = TurnOf::<R>::PASS;
        let mut at = pos.clone();
        let mut steps = StepsOf::<R>::new();
        loop {
            allowed_steps(self.rules, &at, &mut self.cache, &mut steps);
            if steps.is_empty() {
                return (turn, None);
            }
            let Some(index) = pick(self, &at, &steps) else { return (turn, Some(at)) };
            let step = steps[index];
            if step.is_stop() {
                return (turn, None);
            }
            turn.push(step.mv);
            if step.ends_turn {
                return (turn, None);
            }
            at = after_step(self.rules, &at, step);
        }
    }

    /// A result when stopped before the first iteration ended: the first allowed turn, unsearched.
    fn fallback(&mut self, input: &MicroInput<'_, R, E>) -> SearchResult<TurnOf<R>> {
        let pos = input.position;
        let best = if let Some(&first) = input.only.and_then(|only| only.first()) {
            Choice::Turn(first)
        } else if pos.in_turn() {
            let (turn, _) = self.follow(pos, |_, _, _| Some(0));
            Choice::Turn(turn)
        } else {
            return self.partial_outcome_table(pos);
        };
        SearchResult::unsearched(best, self.shared.nodes(), self.tree.visits.budget.elapsed(), self.equity.scale())
    }

    /// Before the roll, stopped before the first iteration ended (four dice's turns take long):
    /// the outcomes that iteration finished, searched, and the rest read by the horizon alone and
    /// marked estimated, their turn only some allowed one; the roll's expected score from both.
    /// Never an empty table under a confident answer.
    fn partial_outcome_table(&mut self, pos: &PositionOf<R>) -> SearchResult<TurnOf<R>> {
        let estimates = horizon_outcome_values(
            self.rules,
            self.eval,
            &self.equity,
            pos,
            &HorizonDice::new(self.rules, &self.outcomes),
        );
        let mut sum = 0i64;
        let mut outcomes = Vec::with_capacity(self.outcomes.len());
        for (o, estimate) in self.outcomes.clone().iter().zip(estimates) {
            let advice = match self.first_outcomes.iter().find(|f| f.roll == o.roll) {
                Some(searched) => *searched,
                None => {
                    let rolled = self.rules.rolled(pos, &o.roll);
                    let (turn, _) = self.follow(&rolled, |_, _, _| Some(0));
                    OutcomeAdvice {
                        roll: o.roll,
                        probability: o.probability,
                        best: turn,
                        score: estimate,
                        value: None,
                        estimated: true,
                    }
                }
            };
            sum += i64::from(o.weight) * i64::from(advice.score);
            outcomes.push(advice);
        }
        let expected = floor_div(sum, i64::from(self.total_weight.max(1))) as i32;
        let mut result = SearchResult::unsearched(
            Choice::Roll,
            self.shared.nodes(),
            self.tree.visits.budget.elapsed(),
            self.equity.scale(),
        );
        result.choices[0].score = expected;
        (result.score, result.roll_score, result.outcomes) = (expected, Some(expected), outcomes);
        result.in_centipawns(&self.equity)
    }
}

impl<R: MicroRules, E: MicroEval<R::Board>> MicroHooks<'_, R, E> {
    /// Where the history of `color`'s micro-move `m` is kept.
    #[inline]
    fn history_slot(color: Color, m: crate::rules::micro::MoveOf<R>) -> usize {
        let (from, to) = m.squares();
        (color.index() * R::Board::SQUARES + from) * R::Board::SQUARES + to
    }
}

impl<'a, R: MicroRules, E: MicroEval<R::Board>> TreeHooks<MicroStates<'a, R>> for MicroHooks<'a, R, E> {
    /// The sums of the mover's static score (none with a network, whose part does not follow
    /// from them), and whether a bound holds.
    type Frontier = (Option<E::Parts>, bool);

    /// [`horizon_value`]: each outcome's best capture against standing pat, kept in the table
    /// (the same leaf is reached by many outcomes and orders). Its value is never below standing
    /// pat, so standing pat at or above `beta` settles it (a lower bound, as a fail-high wants).
    fn horizon(
        &mut self,
        _: &MicroStates<'a, R>,
        pos: &PositionOf<R>,
        key: u64,
        _: i32,
        beta: i32,
        ply: usize,
        known: Option<i32>,
    ) -> i32 {
        debug_assert!(known.is_none_or(|s| s == standing(self.eval, pos, &self.horizon_dice)));
        let stand = known.unwrap_or_else(|| standing(self.eval, pos, &self.horizon_dice));
        let stand_equity = self.equity.of(stand);
        if stand_equity >= beta {
            return stand_equity;
        }
        let key = horizon_key(key);
        if let Some(hit) = self.table.and_then(|t| t.probe(key))
            && let Some(v) = hit.cutoff(0, -INF, INF)
        {
            return v;
        }
        let value = horizon_value_from(self.rules, self.eval, &self.equity, pos, ply, &self.horizon_dice, stand);
        if let Some(t) = self.table {
            t.store_result(key, 0, value, -INF, INF, NO_TURN);
        }
        value
    }

    /// The table's best, king captures, captures by most valuable victim and least valuable
    /// attacker, promotions, stopping, then quiet micro-moves by their history.
    fn order(
        &self,
        _: &MicroStates<'a, R>,
        pos: &PositionOf<R>,
        steps: &ChoiceList<StepOf<R>>,
        tt_best: u16,
        _: usize,
        out: &mut OrderKeys,
    ) {
        let board = &pos.board;
        out.clear();
        for (k, step) in steps.iter().enumerate() {
            let m = step.mv;
            let key = if k == usize::from(tt_best) {
                i32::MAX
            } else if m.is_null() {
                // Stopping, dice left: after the captures, before the quiet micro-moves.
                0
            } else if pos.takes_king(m) {
                i32::MAX - 1
            } else if let Some(victim) = board.captured_role(m) {
                let victim = victim.index() as i32 + 1;
                let attacker = board.mover_role(m).map_or(0, |r| r.index() as i32);
                1000 + 10 * victim - attacker
            } else if m.promotion_role() == Some(Role::Queen) {
                900
            } else {
                // Quiet: by how often the move refuted other lines (below every capture).
                let h = self.quiet_history[Self::history_slot(pos.turn(), m)];
                -1_000_000 + h.min(999_999) as i32
            };
            out.push(key);
        }
    }

    /// [`late_quiet_steps`], searched a turn less deep from two turns deep on, and one turn
    /// deep, in long turns ([`PRUNED_TURN_LENGTH`]) after the root's own, not searched at all.
    /// The root's turn is searched in full to the horizon, so that no combination of its
    /// micro-moves is missed (Gollon's four micro-moves take a king from the start); in turns of
    /// three dice or fewer it is not reduced either, as the root's whole turns after the roll
    /// are not ([`MicroWorker::ranked_turns`]), so that each outcome's value before the roll is
    /// the value the search finds after that roll. (Reduced there, a late micro-move's
    /// shallower value, the opponent's reply unseen, was often an outcome's best, and the table
    /// before the roll two turns deep read about one turn deep.) Long turns' root stays reduced:
    /// without that, grand's turn two deep does not end in minutes.
    fn late(
        &self,
        _: &MicroStates<'a, R>,
        pos: &PositionOf<R>,
        steps: &ChoiceList<StepOf<R>>,
        _: &SlotList,
        depth: i32,
        ply: usize,
        out: &mut LateChoices,
    ) {
        out.clear();
        // Whole: the root's turn (in long turns one turn deep only), and three dice one turn deep.
        let root_whole = ply == 0 && (depth == 1 || !self.long_turns);
        if !self.reductions || depth < 1 || root_whole || (depth == 1 && !self.long_turns) {
            out.extend(steps.iter().map(|_| false));
        } else {
            late_quiet_steps(self.eval, pos, steps, out);
        }
    }

    #[inline]
    fn ends_turn(&self, step: StepOf<R>) -> bool {
        step.ends_turn
    }

    /// The sums of the mover's static score; `None` where the horizon's standing is not the
    /// plain score (king danger). A bound holds only where a draw by repetition or the
    /// hundred-turn rule (worth 0) could not beat `alpha`; elsewhere the sums still give the
    /// standing of the turn starts below, but a network's would cost an evaluation of each.
    fn frontier(&self, _: &MicroStates<'a, R>, pos: &PositionOf<R>, alpha: i32) -> Option<(Option<E::Parts>, bool)> {
        if self.eval.king_danger() != 0 {
            return None;
        }
        let holds = pos.board.halfmove_clock() < 90 && alpha >= 0;
        if self.eval.learned() {
            return holds.then_some((None, true));
        }
        self.eval.parts(&pos.board).map(|parts| (Some(parts), holds))
    }

    /// The horizon is never below standing pat for the side it is for, so the mover gets at
    /// most the equity of its static score after the step, which `base` (the sums before it)
    /// and the step's changes give exactly. Where that cannot raise alpha, the horizon would
    /// have returned it at once (its standing reaches beta); where it can, the horizon below
    /// stands on it instead of scoring the position again. A network's part does not follow
    /// from the sums: with one, the position after the step is scored (still without the
    /// horizon's captures, the bulk of a child's cost; without the bound, a depth-1 search of
    /// the bench visits three times the nodes).
    #[inline]
    fn frontier_bound(
        &self,
        _: &MicroStates<'a, R>,
        pos: &PositionOf<R>,
        step: StepOf<R>,
        (base, holds): (Option<E::Parts>, bool),
    ) -> Option<FrontierBound> {
        if pos.takes_king(step.mv) {
            return None;
        }
        let mover = match base {
            None => -evaluate(self.eval, &after_step(self.rules, pos, step)),
            Some(base) => {
                // Stopping leaves the board as it is: its score is the sums' own.
                let white = if step.is_stop() {
                    self.eval.white_of(base)
                } else {
                    self.eval.white_after(&pos.board, base, step.mv)?
                }
                .clamp(-EVAL_MAX, EVAL_MAX);
                if pos.turn() == Color::White { white } else { -white }
            }
        };
        #[cfg(debug_assertions)]
        {
            let child = after_step(self.rules, pos, step);
            let after = standing(self.eval, &child, &self.horizon_dice);
            debug_assert_eq!(after, -mover, "frontier bound of {:?} is not the score after it", step.mv);
        }
        Some(FrontierBound { bound: holds.then(|| self.equity.of(mover)), standing: -mover })
    }

    /// A quiet micro-move's history grows by the square of the depth it refuted at.
    #[allow(clippy::too_many_arguments)]
    fn reward(
        &mut self,
        _: &MicroStates<'a, R>,
        pos: &PositionOf<R>,
        step: StepOf<R>,
        _: i32,
        depth: i32,
        _: usize,
        probe: bool,
    ) {
        let m = step.mv;
        if !probe && !m.is_null() && pos.board.captured_role(m).is_none() {
            let slot = &mut self.quiet_history[Self::history_slot(pos.turn(), m)];
            *slot = slot.saturating_add((depth * depth) as u32);
        }
    }
}

/// Root choices best first: the `multipv` best exact scores, then the rest (bounds, and exact
/// scores below them, which count as bounds here) by score.
fn rank<T>(mut scored: Vec<ScoredChoice<T>>, multipv: usize) -> Vec<ScoredChoice<T>> {
    scored.sort_by_key(|c| (std::cmp::Reverse(c.exact), std::cmp::Reverse(c.score)));
    for c in scored.iter_mut().skip(multipv) {
        c.exact = false;
    }
    let n = scored.len();
    scored[multipv.min(n)..].sort_by_key(|c| std::cmp::Reverse(c.score));
    scored
}

/// What the threads of one search share at the root: the main thread's bound for the turns
/// still to search (its depth and alpha, packed), and where in the root's list this thread starts
/// (thread `id` of `n` starts `id / n` of the way in).
#[derive(Clone, Copy)]
struct RootShare<'a> {
    alpha: Option<&'a AtomicU64>,
    start: (usize, usize),
}

/// No bound published yet.
const NO_ROOT_ALPHA: u64 = u64::MAX;

fn pack_root_alpha(depth: i32, alpha: i32) -> u64 {
    (u64::from(depth as u32) << 32) | u64::from(alpha as u32)
}

/// A whole turn at the root: where it ends, and its score in the last iteration.
struct RootTurn<R: MicroRules> {
    turn: TurnOf<R>,
    end: PositionOf<R>,
    score: i32,
}

/// Late micro-moves: the steps of a decision that neither win material by static exchange,
/// promote nor take a king, after the first [`FULL_DEPTH_QUIET_STEPS`] of them by a static key
/// (ties in the rules' order): a quiet micro-move's gain plus the safety it brings the moving
/// piece, an even trade a little above a quiet move of no gain, a losing capture its loss.
/// Stopping counts as quiet. Like the one-move search's late turns, a property of the position
/// and its dice alone: whatever the window, the chance pruning or the order of search, a decision
/// has one reduced tree, so the pruning stays exact on it and the table's entries agree.
pub(crate) fn late_quiet_steps<B: MicroBoard, E: MicroEval<B>>(
    eval: &E,
    pos: &MicroPosition<B>,
    steps: &[crate::rules::micro::Step<B::Move>],
    late: &mut LateChoices,
) {
    let board = &pos.board;
    let parts = eval.parts(board);
    let sign = if pos.turn() == Color::White { 1 } else { -1 };
    let values = eval.piece_values();
    late.clear();
    let mut quiet: ArrayVec<(i32, usize), { crate::board::movegen::MAX_MOVES + 1 }> = ArrayVec::new();
    for (k, step) in steps.iter().enumerate() {
        let m = step.mv;
        let victim = if m.is_null() { None } else { board.captured_role(m) };
        let exchange = victim.map(|_| board.exchange(m, values));
        let tactical =
            !m.is_null() && (exchange.is_some_and(|e| e > 0) || m.promotion_role().is_some() || pos.takes_king(m));
        late.push(!tactical);
        if !tactical {
            let key = if m.is_null() {
                0
            } else if let (Some(victim), Some(exchange)) = (victim, exchange) {
                // An even trade before a quiet micro-move of no gain; a losing capture by its loss.
                if exchange == 0 { values.of(victim) / 8 } else { exchange }
            } else {
                // By the linear part alone: a network's view is the search's to find.
                let gain = parts
                    .and_then(|p| eval.white_after(board, p, m).map(|after| sign * (after - eval.white_of(p))))
                    .unwrap_or(0);
                // Safety: a piece leaving an attacked square gains its value, one entering loses it.
                let (was, will_be) = board.quiet_threats(m);
                // A king in danger goes first: kings are taken in these variants.
                let value = match board.mover_role(m) {
                    Some(Role::King) => values.of(Role::King).max(2 * values.of(Role::Queen)),
                    Some(r) => values.of(r),
                    None => 0,
                };
                gain + value * (i32::from(was) - i32::from(will_be))
            };
            quiet.push((-key, k));
        }
    }
    if quiet.len() > FULL_DEPTH_QUIET_STEPS {
        quiet.select_nth_unstable(FULL_DEPTH_QUIET_STEPS - 1);
    }
    for &(_, k) in quiet.iter().take(FULL_DEPTH_QUIET_STEPS) {
        late[k] = false;
    }
}

/// The static score of `pos` for its side to move.
#[inline]
pub fn evaluate<B: MicroBoard, E: MicroEval<B>>(eval: &E, pos: &MicroPosition<B>) -> i32 {
    let white = eval.white_score(&pos.board).clamp(-EVAL_MAX, EVAL_MAX);
    if pos.turn() == Color::White { white } else { -white }
}

/// The roll's outcomes as the horizon reads them: the dice each outcome gives (and the roles
/// they let move), and for every set of roles the weight of the outcomes whose dice all fall in
/// it. Built once per search (the roll is the same at every turn start).
#[derive(Clone, Debug)]
pub struct HorizonDice {
    /// Per outcome: roles some die lets move (bit per role index), the dice, the weight.
    outcomes: Vec<(u8, DicePool, u32)>,
    /// `within[set]`: the weight of the outcomes all of whose dice move roles in `set` only.
    within: [u32; 64],
    total: u32,
}

impl HorizonDice {
    /// From the rules' outcomes at a turn's start, each read as the dice it gives.
    pub fn new<R: MicroRules>(rules: &R, outcomes: &[crate::rules::dice::Outcome]) -> HorizonDice {
        let mut within = [0u32; 64];
        let mut list = Vec::with_capacity(outcomes.len());
        for o in outcomes {
            let pool = rules.pool(&o.roll);
            let once = pool.roles().fold(0u8, |bits, r| bits | 1 << r.index());
            list.push((once, pool, o.weight));
            for (set, w) in within.iter_mut().enumerate() {
                if usize::from(once) & !set == 0 {
                    *w += o.weight;
                }
            }
        }
        HorizonDice { outcomes: list, within, total: outcomes.iter().map(|o| o.weight).sum() }
    }

    /// Do the outcomes let different roles move (not Gollon's counts, which each let any piece
    /// move, and so look all alike to the horizon)?
    pub fn tell_roles_apart(&self) -> bool {
        self.outcomes.windows(2).any(|w| w[0].0 != w[1].0)
    }
}

/// The search's leaf value at a turn's start (not a finished game), `ply` turns from the root:
/// for each outcome of the roll, the better of standing pat and the best capture (or queen
/// promotion) its dice allow, weighted by the outcome's probability; an outcome whose dice can
/// take the king at once wins. A capture counts its victim when it does not lose material by
/// static exchange (the opponent's recapture needs the right die too). One move generation
/// answers every outcome, and the value is a function of the position alone, so a plain
/// expectiminimax can use the same leaves. `dice` is [`HorizonDice`] of the rules' outcomes; the
/// value is an equity (`equity` of each outcome's score, averaged).
pub fn horizon_value<R: MicroRules, E: MicroEval<R::Board>>(
    rules: &R,
    eval: &E,
    equity: &Equity,
    pos: &PositionOf<R>,
    ply: usize,
    dice: &HorizonDice,
) -> i32 {
    horizon_value_from(rules, eval, equity, pos, ply, dice, standing(eval, pos, dice))
}

/// What the side to move's captures can reach this turn, die role by die role: the horizon's
/// reading of a position.
struct CaptureReach {
    /// By the moving piece's role: the best gain of one capture (or queen promotion) that does
    /// not lose material by static exchange.
    gain: [i32; 6],
    /// Roles (a bit each) whose piece takes the king at once.
    takes_king: u8,
    /// Pairs of roles that take the king in two micro-moves.
    two_step: arrayvec::ArrayVec<(usize, usize), 16>,
}

impl CaptureReach {
    fn of<R: MicroRules, E: MicroEval<R::Board>>(rules: &R, eval: &E, pos: &PositionOf<R>) -> CaptureReach {
        let mut every_die = pos.clone();
        every_die.dice = DicePool::ONE_EACH;
        let mut moves = MovesOf::<R>::default();
        rules.micro_captures(&every_die, &mut moves);
        let mut gain = [0i32; 6];
        let mut takes_king = 0u8;
        let values = eval.piece_values();
        for &m in moves.iter() {
            if m.is_castle() {
                continue;
            }
            let role = pos.board.mover_role(m).expect("a piece on the move's origin");
            if pos.takes_king(m) {
                takes_king |= 1 << role.index();
                continue;
            }
            let promotion = m.promotion_role().map_or(0, |r| values.of(r) - values.of(Role::Pawn));
            let victim = pos.board.captured_role(m).map_or(0, |r| values.of(r));
            let g = victim + promotion;
            if g > gain[role.index()] && (victim == 0 || pos.board.exchange(m, values) >= 0) {
                gain[role.index()] = g;
            }
        }
        CaptureReach { gain, takes_king, two_step: pos.board.two_step_king_captures(pos.turn()) }
    }

    fn is_empty(&self) -> bool {
        self.gain == [0; 6] && self.takes_king == 0 && self.two_step.is_empty()
    }

    /// What each die's role brings: `win`, or standing pat plus its best gain, as an equity.
    fn role_values(&self, equity: &Equity, stand: i32, win: i32) -> [i32; 6] {
        std::array::from_fn(|r| if self.takes_king & (1 << r) != 0 { win } else { equity.of(stand + self.gain[r]) })
    }

    /// One outcome's value: `win` where its dice take the king, else its best die's value.
    fn outcome_value(&self, (once, pool): (u8, &DicePool), value: &[i32; 6], stand_equity: i32, win: i32) -> i32 {
        if takes_king_with(once, pool, self.takes_king, &self.two_step) {
            win
        } else {
            (0..6).filter(|r| once & (1 << r) != 0).map(|r| value[r]).max().unwrap_or(stand_equity)
        }
    }
}

/// [`horizon_value`] with `pos`'s [`standing`] known.
fn horizon_value_from<R: MicroRules, E: MicroEval<R::Board>>(
    rules: &R,
    eval: &E,
    equity: &Equity,
    pos: &PositionOf<R>,
    ply: usize,
    dice: &HorizonDice,
    stand: i32,
) -> i32 {
    let reach = CaptureReach::of(rules, eval, pos);
    if reach.is_empty() {
        return equity.of(stand);
    }
    let win = WIN - ply as i32 - 1;
    let value = reach.role_values(equity, stand, win);
    let stand_equity = equity.of(stand);
    let sum: i64 = if reach.two_step.is_empty() {
        // An outcome is worth its best die: with the roles in order of value, the weight of the
        // outcomes whose best die is the k-th is that of those within the first k less those
        // within the first k - 1.
        let mut order = [0usize, 1, 2, 3, 4, 5];
        order.sort_unstable_by_key(|&r| value[r]);
        let (mut set, mut below, mut sum) = (0usize, 0u32, 0i64);
        for r in order {
            set |= 1 << r;
            let within = dice.within[set];
            sum += i64::from(within - below) * i64::from(value[r]);
            below = within;
        }
        sum
    } else {
        dice.outcomes
            .iter()
            .map(|(once, pool, weight)| {
                i64::from(*weight) * i64::from(reach.outcome_value((*once, pool), &value, stand_equity, win))
            })
            .sum()
    };
    floor_div(sum, i64::from(dice.total.max(1))) as i32
}

/// The horizon's value of each outcome of the roll at a turn's start (not a finished game), in
/// the order of `dice`'s outcomes (the rules'), as equities for the side to move: what
/// [`horizon_value`] averages. A quick reading of what each roll would bring.
pub fn horizon_outcome_values<R: MicroRules, E: MicroEval<R::Board>>(
    rules: &R,
    eval: &E,
    equity: &Equity,
    pos: &PositionOf<R>,
    dice: &HorizonDice,
) -> Vec<i32> {
    let stand = standing(eval, pos, dice);
    let reach = CaptureReach::of(rules, eval, pos);
    let win = WIN - 1;
    let value = reach.role_values(equity, stand, win);
    let stand_equity = equity.of(stand);
    dice.outcomes.iter().map(|(once, pool, _)| reach.outcome_value((*once, pool), &value, stand_equity, win)).collect()
}

/// Can these dice (`once`: the roles they let move) take the king, when the roles in `direct`
/// take it at once and each pair of `two_step` in two micro-moves (two different dice)?
#[inline]
fn takes_king_with(once: u8, pool: &DicePool, direct: u8, two_step: &[(usize, usize)]) -> bool {
    once & direct != 0 || two_step.iter().any(|&(a, b)| pool.covers_two(a, b))
}

/// The side to move's standing at a turn's start: its static score less the danger to its own
/// king (what it must see to with this turn's dice, [`EvalParams::king_danger`]); the horizon is
/// never below it.
///
/// [`EvalParams::king_danger`]: crate::eval::params::EvalParams::king_danger
#[inline]
pub fn standing<B: MicroBoard, E: MicroEval<B>>(eval: &E, pos: &MicroPosition<B>, dice: &HorizonDice) -> i32 {
    let stand = evaluate(eval, pos);
    let weight = eval.king_danger();
    if weight == 0 {
        return stand;
    }
    let board = &pos.board;
    let us = pos.turn();
    if !board.has_king(us) {
        return stand;
    }
    let direct = board.king_attackers(us);
    let two_step = board.two_step_king_captures(!us);
    if direct == 0 && two_step.is_empty() {
        return stand;
    }
    let threatened: u32 = dice
        .outcomes
        .iter()
        .filter(|(once, pool, _)| takes_king_with(*once, pool, direct, &two_step))
        .map(|&(_, _, w)| w)
        .sum();
    stand - (i64::from(weight) * i64::from(threatened) / i64::from(dice.total.max(1))) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::values::PieceValues;
    use crate::eval::StaticEval;
    use crate::rules::DiceChess3;
    use crate::rules::micro::{MicroRules, PlanCache};

    /// A rook attacked by a knight, a bishop that can take an undefended pawn, and pawn moves:
    /// the capture is never late, and of the rest the three rook moves to squares the knight
    /// does not attack come first (its escape is worth a rook); the rest are late.
    #[test]
    fn late_steps_keep_winning_captures_and_escapes() {
        let pos = DiceChess3.parse_dfen("4k3/8/8/8/8/3p4/PPn3PP/R4B1K w - - 0 1 PRB").expect("a DFEN");
        let eval = StaticEval::material(PieceValues([100, 300, 300, 500, 900, 0]));
        let mut steps = StepsOf::<DiceChess3>::new();
        allowed_steps(&DiceChess3, &pos, &mut PlanCache::default(), &mut steps);
        let mut late = LateChoices::new();
        late_quiet_steps(&eval, &pos, &steps, &mut late);
        let mut kept: Vec<String> =
            steps.iter().zip(&late).filter(|(_, l)| !**l).map(|(s, _)| s.mv.to_uci(false).to_string()).collect();
        kept.sort();
        assert_eq!(kept, ["a1b1", "a1c1", "a1d1", "f1d3"]);
        assert!(steps.len() > 10, "{} steps", steps.len());
    }
}
