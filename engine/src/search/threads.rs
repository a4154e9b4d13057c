//! The root and iterative deepening, run by several threads over the shared table (Lazy SMP:
//! helpers search the same root, at staggered depths, and fill the table for the main thread).

use super::one_move::{OneMoveTree, one_move_tree};
use super::stack::run_search;
use super::{
    ChildBounds, Choice, INF, MATE_ZONE, MAX_PLY, OutcomeAdvice, Root, ScoredChoice, SearchInput, SearchResult, Shared,
    WIN,
};
use crate::eval::Evaluator;
use crate::rules::states::{ChoiceList, GameStates, SlotList, StateKind, TurnState};
use crate::rules::{Rules, TurnList, TurnTable};
use crate::search::timeman::{IterationTimes, TimeBudget};

/// Nodes the proof of a certain win may take.
const MATE_PROOF_NODES: u64 = 2_000_000;

/// One iteration's findings at the root.
struct Iteration<T> {
    choices: Vec<ScoredChoice<T>>,
    outcomes: Vec<OutcomeAdvice<T>>,
    roll_score: Option<i32>,
}

/// Searches the root of `input`, calling `report` after each completed iteration of the main
/// thread, and returns the final result. `shared.request_stop()` ends it early.
pub fn search<R, E>(
    input: &SearchInput<'_, R, E>,
    shared: &Shared,
    report: &mut (dyn FnMut(&SearchResult<R::Turn>) + Send),
) -> SearchResult<R::Turn>
where
    R: Rules + Sync,
    R::Position: Send + Sync,
    R::Turn: Send + Sync,
    E: Evaluator<R>,
{
    shared.start_search();
    if input.options.use_tt {
        shared.tt.new_search();
    }
    let budget = TimeBudget::new(&input.limits);
    let threads = input.options.threads.max(1);
    let mut result = run_search(
        threads - 1,
        |i| {
            let mut tree = one_move_tree(input, shared, budget);
            tree.iterate(input, i, &mut |_| {});
        },
        || {
            let mut tree = one_move_tree(input, shared, budget);
            let result = tree.iterate(input, 0, report);
            shared.end_search();
            result
        },
    );
    result.nodes = shared.nodes();
    result.elapsed = budget.elapsed();
    result
}

/// Is the win (or loss) certain whatever the dice? Searched again, on the calling search thread,
/// with the dice as an adversary, within the search's own deadline; returns the mate distance in
/// our moves, or `None` if not proven within that and a node budget.
fn prove_mate<R: Rules, E: Evaluator<R>>(input: &SearchInput<'_, R, E>, depth: u32, budget: TimeBudget) -> Option<i32> {
    let shared = Shared::new(1);
    let mut tree = one_move_tree(input, &shared, budget);
    tree.set_adversarial();
    tree.visits.node_limit = Some(MATE_PROOF_NODES);
    let it = tree.search_root(input, depth as i32, None, false)?;
    let score = it.choices.first()?.score;
    let plies = WIN - score.abs();
    if score >= MATE_ZONE {
        Some((plies + 1) / 2)
    } else if score <= -MATE_ZONE {
        Some(-(plies / 2).max(1))
    } else {
        None
    }
}

impl<'a, R: Rules, E: Evaluator<R>> OneMoveTree<'a, R, E> {
    /// Iterative deepening; helpers (`thread > 0`) start one turn deeper on odd threads.
    fn iterate(
        &mut self,
        input: &SearchInput<'_, R, E>,
        thread: usize,
        report: &mut (dyn FnMut(&SearchResult<R::Turn>) + Send),
    ) -> SearchResult<R::Turn> {
        let is_main = thread == 0;
        let max_depth = input.limits.depth.unwrap_or(MAX_PLY as u32 / 2).clamp(1, MAX_PLY as u32 - 1) as i32;
        let first = if thread % 2 == 1 { 2.min(max_depth) } else { 1 };
        let mut last: Option<SearchResult<R::Turn>> = None;
        let single_choice = match &input.root {
            Root::Turns(t) => t.len() == 1,
            Root::PreRoll => false,
        };
        let timed = input.limits.time.is_some() || input.limits.movetime.is_some();
        // The main thread's iteration keeps its finished choices when stopped (the first of them
        // the last iteration's best, searched again first), so under a fixed time a move one is
        // worth starting whenever time is left. Under a clock none starts after half the move's
        // share, as time saved there serves later moves; with MultiPV the ranking needs whole
        // iterations, and none is kept unfinished.
        let keeps_partial = is_main && input.options.multipv <= 1;
        let mut times = IterationTimes::default();
        for depth in first..=max_depth {
            let previous = last.as_ref().map(|r| r.choices.clone());
            let Some(it) = self.search_root(input, depth, previous.as_deref(), keeps_partial && last.is_some()) else {
                break;
            };
            let next = times.ended_at(self.visits.budget.elapsed());
            let best = it.choices[0];
            let pv = match best.choice {
                Choice::Turn(t) => {
                    let mut line = vec![t];
                    line.extend(self.pv_from(&input.rules.play(input.position, t), 16));
                    line
                }
                Choice::Roll => Vec::new(),
            };
            self.flush_nodes();
            // A win or loss in reach: prove it whatever the dice, and stop deepening once proven
            // (no deeper search finds a shorter forced mate).
            let mate = if is_main && best.score.abs() >= MATE_ZONE && !self.visits.budget.out_of_time() {
                prove_mate(input, depth as u32, self.visits.budget)
            } else {
                None
            };
            // A stopped iteration that had not finished rolling keeps the last outcome table.
            let (outcomes, roll_score) = match &last {
                Some(l) if it.roll_score.is_none() && l.roll_score.is_some() => (l.outcomes.clone(), l.roll_score),
                _ => (it.outcomes, it.roll_score),
            };
            let result = SearchResult {
                best: best.choice,
                score: best.score,
                depth: depth as u32,
                seldepth: self.seldepth() as u32,
                nodes: self.shared().nodes(),
                elapsed: self.visits.budget.elapsed(),
                pv,
                choices: it.choices,
                outcomes,
                roll_score,
                mate,
                hashfull: if input.options.use_tt { self.shared().tt.hashfull() } else { 0 },
                result_scale: input.eval.result_scale(),
                value: None,
            }
            .in_centipawns(&self.hooks.equity());
            if is_main {
                report(&result);
            }
            last = Some(result);
            if mate.is_some() {
                break;
            }
            if is_main {
                let may_start = if keeps_partial && self.visits.budget.is_fixed() {
                    !self.visits.budget.out_of_time()
                } else {
                    self.visits.budget.may_start_iteration(next)
                };
                if !may_start || (single_choice && timed) {
                    break;
                }
            }
            if self.shared().halted() {
                break;
            }
        }
        self.flush_nodes();
        // Stopped before the first iteration ended: the first choice in order, unsearched.
        last.unwrap_or_else(|| self.fallback(input))
    }

    fn fallback(&self, input: &SearchInput<'_, R, E>) -> SearchResult<R::Turn> {
        let best = match &input.root {
            Root::Turns(t) => Choice::Turn(t[0]),
            Root::PreRoll => {
                // Rolling, unless the player may not roll (Vegas in check): then its first turn.
                let mut outcomes = crate::rules::OutcomeList::new();
                input.rules.outcomes(input.position, &mut outcomes);
                let mut pre = TurnList::new();
                input.rules.pre_roll_turns(input.position, &mut pre);
                match pre.first() {
                    Some(&t) if outcomes.is_empty() => Choice::Turn(t),
                    _ => Choice::Roll,
                }
            }
        };
        SearchResult::unsearched(best, self.shared().nodes(), self.visits.budget.elapsed(), input.eval.result_scale())
    }

    /// The line from `pos` as far as it goes without a roll, read from the table: the best
    /// choice its pre-roll decisions stored, while that is a turn.
    fn pv_from(&self, pos: &R::Position, max_len: usize) -> Vec<R::Turn> {
        let mut line = Vec::new();
        let mut state = TurnState::BeforeRoll(pos.clone());
        let mut seen = Vec::new();
        let mut turn = crate::rules::states::OneMoveTurn::default();
        let (mut choices, mut slots) = (ChoiceList::new(), SlotList::new());
        while line.len() < max_len && self.options().use_tt {
            let key = self.game.key(&state);
            if seen.contains(&key) || self.game.end(&state).is_some() {
                break;
            }
            seen.push(key);
            self.game.begin_turn(&state, &mut turn);
            if self.game.kind_in(&state, &turn) != StateKind::Decision {
                break;
            }
            // The same list, in the same order, as the decision stored an index into.
            self.game.choices_in(&state, &turn, &mut choices, &mut slots);
            let Some(hit) = self.shared().tt.probe(key) else { break };
            match choices.get(usize::from(hit.best)) {
                Some(&Choice::Turn(t)) => {
                    line.push(t);
                    state = self.game.after_choice(&state, Choice::Turn(t));
                }
                _ => break,
            }
        }
        line
    }

    /// One iteration at the root; `None` if stopped before it ended.
    fn search_root(
        &mut self,
        input: &SearchInput<'_, R, E>,
        depth: i32,
        previous: Option<&[ScoredChoice<R::Turn>]>,
        keep_partial: bool,
    ) -> Option<Iteration<R::Turn>> {
        let pos = input.position;
        self.hooks.root_depth = depth;
        let multipv = input.options.multipv.max(1);
        // Choices in the previous iteration's order, new ones after.
        let mut order: Vec<Choice<R::Turn>> =
            previous.map(|p| p.iter().map(|c| c.choice).collect()).unwrap_or_default();
        let mut all: Vec<Choice<R::Turn>> = match &input.root {
            Root::Turns(turns) => turns.iter().map(|&t| Choice::Turn(t)).collect(),
            Root::PreRoll => {
                let mut pre = TurnList::new();
                input.rules.pre_roll_turns(pos, &mut pre);
                let mut outcomes = crate::rules::OutcomeList::new();
                input.rules.outcomes(pos, &mut outcomes);
                let roll = (!outcomes.is_empty()).then_some(Choice::Roll);
                roll.into_iter().chain(pre.iter().map(|&t| Choice::Turn(t))).collect()
            }
        };
        order.retain(|c| all.contains(c));
        all.retain(|c| !order.contains(c));
        order.extend(all);

        // The root's turn: its table, and the children its choices and outcomes share.
        let start = TurnState::BeforeRoll(pos.clone());
        self.begin_turn(&start, depth, 0);
        // Where every turn a roll could allow is free already (Freedom in check), rolling is
        // worth at most the best free turn: it goes last, so that a tie goes to the free turn
        // and the engine does not roll for nothing.
        if self.frame(0).0.roll_dominated()
            && let Some(k) = order.iter().position(|c| *c == Choice::Roll)
        {
            let roll = order.remove(k);
            order.push(roll);
        }
        let mut scored: Vec<ScoredChoice<R::Turn>> = Vec::with_capacity(order.len());
        let mut outcomes = Vec::new();
        let mut roll_score = None;
        for choice in order {
            // With MultiPV, the first `multipv` choices get exact scores.
            let mut exact_scores: Vec<i32> = scored.iter().filter(|c| c.exact).map(|c| c.score).collect();
            exact_scores.sort_unstable_by(|a, b| b.cmp(a));
            let alpha = if exact_scores.len() >= multipv { exact_scores[multipv - 1] } else { -INF };
            let (score, exact) = match choice {
                Choice::Turn(t) => {
                    let v = self.choice_value(&start, choice, depth, false, alpha, INF, 0, false, None);
                    if self.aborted {
                        break;
                    }
                    let (turn, _) = self.frame(0);
                    if let Some(k) = turn.table.turns.iter().position(|&x| x == t) {
                        self.learn(0, k, v, alpha, INF);
                    }
                    (v, v > alpha)
                }
                Choice::Roll => {
                    // Every group exactly, for the table of outcomes.
                    let (turn, _) = self.frame(0);
                    let groups = turn.groups.clone();
                    let rolls: Vec<_> = groups.iter().map(|g| turn.table.outcomes[g.representative].roll).collect();
                    let mut values = Vec::with_capacity(groups.len());
                    self.outcome_table = true;
                    for roll in &rolls {
                        let rolled = TurnState::Rolled(pos.clone(), *roll);
                        let v = self.within_turn(&rolled, depth, -INF, INF, 0, false);
                        if self.aborted {
                            break;
                        }
                        values.push(v);
                    }
                    self.outcome_table = false;
                    if self.aborted {
                        break;
                    }
                    let value = if self.adversarial {
                        values.iter().copied().min().unwrap_or(0)
                    } else {
                        let total: i64 = groups.iter().map(|g| i64::from(g.weight)).sum();
                        let sum: i64 =
                            groups.iter().zip(&values).map(|(g, &v)| i64::from(g.weight) * i64::from(v)).sum();
                        super::floor_div(sum, total.max(1)) as i32
                    };
                    let (turn, children) = self.frame(0);
                    for (i, o) in turn.table.outcomes.iter().enumerate() {
                        let Some(g) = groups.iter().position(|g| g.members >> i & 1 == 1) else { continue };
                        if let Some(best) = best_of_outcome(&turn.table, children, groups[g].representative, values[g])
                        {
                            outcomes.push(OutcomeAdvice {
                                roll: o.roll,
                                probability: o.probability,
                                best,
                                score: values[g],
                                value: None,
                                estimated: false,
                            });
                        }
                    }
                    roll_score = Some(value);
                    (value, true)
                }
            };
            scored.push(ScoredChoice { choice, score, exact, value: None });
        }
        // Stopped: the choices finished count when told to keep them (the first is then the last
        // iteration's best, searched with a whole window).
        if self.aborted && (!keep_partial || scored.is_empty()) {
            return None;
        }
        // Exact scores first, by score; bounds after (each is below the best).
        scored.sort_by_key(|c| (std::cmp::Reverse(c.exact as u8), std::cmp::Reverse(c.score)));
        if scored.is_empty() {
            return None;
        }
        Some(Iteration { choices: scored, outcomes, roll_score })
    }
}

/// The best turn of outcome `outcome` from the children's bounds, after an exact search of its
/// decision: the first turn it allows whose child is known to equal `value`.
fn best_of_outcome<T: Copy>(table: &TurnTable<T>, children: &[ChildBounds], outcome: usize, value: i32) -> Option<T> {
    table
        .turns
        .iter()
        .zip(&table.masks)
        .zip(children)
        .find(|&((_, &m), c)| m >> outcome & 1 == 1 && c.lower == value && c.upper == value)
        .map(|((&t, _), _)| t)
}

// `WIN` bounds every score, so the widest child window (-INF, INF) never cuts.
const _: () = assert!(INF > WIN);
