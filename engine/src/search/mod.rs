//! Expectiminimax over the game as states ([`crate::rules::states`]): decisions, rolls and the end.
//! Values are equities for the side to move ([`equity`]: linear in the expected result, so a
//! chance node's mean is the roll's worth); results report them as centipawns.
//!
//! One tree (`tree`: turn starts, rolls with Star1/Star2 pruning by the arithmetic of `chance`,
//! decisions, the children a turn's decisions share) searches every variant; what it asks of a
//! family of variants is in `one_move` (one move a turn: the dice-aware horizon of `qsearch`,
//! killers and history of `ordering`, late quiet turns, the check extension) and `micro` (several
//! micro-moves a turn: the horizon of captures the dice allow, late micro-moves). The roots and
//! iterative deepening are in `threads` (one move a turn, Lazy SMP) and `micro`.

pub mod baseline;
pub mod chance;
pub mod equity;
pub mod micro;
mod one_move;
mod ordering;
mod qsearch;
pub mod skill;
pub mod solve;
pub mod solve_cache;
pub mod stack;
mod threads;
pub mod timeman;
mod tree;
pub mod tt;
mod visits;

pub(crate) use tree::{ChildBounds, known_value};

use crate::eval::Evaluator;
use crate::rules::{GameEnd, GameResult, Roll, Rules, TurnTable};
use crate::search::timeman::{Limits, TimeBudget};
use crate::search::tt::TranspositionTable;
use ordering::OrderingTables;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

pub use crate::rules::states::{Choice, Groups, OutcomeGroup, group_outcomes};
pub use micro::{MicroInput, search_micro};
pub use qsearch::Horizon;
pub use threads::search;

/// A win, scored from the winner's side; a win `p` turns from the root scores `WIN - p`.
pub const WIN: i32 = 4000;
/// Deepest path, in turns.
pub const MAX_PLY: usize = 128;
/// Scores beyond this are wins within the search horizon.
pub const MATE_ZONE: i32 = WIN - MAX_PLY as i32 - 1;
/// Outside every score: the widest window is `(-INF, INF)`.
pub(crate) const INF: i32 = WIN + 1;
/// How many turns of captures the horizon search follows.
const QSEARCH_TURNS: u32 = 2;
/// Decision nodes at least this many turns deep search late quiet turns a turn less deep.
const REDUCTION_DEPTH: i32 = 3;
/// Quiet turns of each outcome searched to full depth, by [`Evaluator::quiet_gain`].
const FULL_DEPTH_QUIETS: usize = 3;
/// Rolls at least this many turns deep may be cut by ChanceProbCut ([`SearchOptions::chance_probcut`]).
const PROBCUT_DEPTH: i32 = 2;
/// How many turns less deep ChanceProbCut searches a roll's outcomes.
const PROBCUT_REDUCTION: i32 = 1;

/// How chance nodes are pruned (the search's value is the same with each; only the work differs).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ChancePruning {
    /// Every outcome searched with a full window: plain expectimax.
    None,
    /// Ballard's Star1: windows for each outcome from the bounds of the ones searched so far.
    Star1,
    /// Star2: Star1 after a probing phase that finds lower bounds by searching one move of each
    /// outcome.
    Star2,
}

impl ChancePruning {
    pub fn name(self) -> &'static str {
        match self {
            ChancePruning::None => "none",
            ChancePruning::Star1 => "star1",
            ChancePruning::Star2 => "star2",
        }
    }
}

/// How to search.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    pub chance_pruning: ChancePruning,
    /// Off for tests that compare values to the last unit.
    pub use_tt: bool,
    pub threads: usize,
    /// How many root choices get exact scores.
    pub multipv: usize,
    /// Evaluation parameters ([`search_evaluated`]). `None`: the variant's own, which the game
    /// handle fills in from the variant registry (the search alone knows only the rules' piece
    /// values).
    pub eval: Option<std::sync::Arc<crate::eval::params::EvalParams>>,
    /// A learned evaluation ([`crate::eval::nnue`]) scoring beside the tables, in the 8x8 variant it
    /// was trained for.
    pub net: Option<std::sync::Arc<crate::eval::nnue::Network>>,
    /// Where neither `eval` nor `net` is given, the game handle adds the network the variant
    /// has adopted (from the variant registry) beside its tables; off, its tables alone.
    pub use_net: bool,
    /// Where a variant is solved (Die Chess), answer from the exact solution; off, search it.
    pub exact_solution: bool,
    /// Late quiet turns (and in the variants of several moves a turn, late micro-moves)
    /// searched a turn less deep; in turns of four micro-moves or more, late micro-moves of the
    /// turn before the horizon not searched. Off, every turn gets the full depth, so a search to
    /// depth d is the plain expectiminimax of d turns and the horizon (the stand-off tests
    /// compare it with closed forms, the micro-move tests with a plain search).
    pub reductions: bool,
    /// ChanceProbCut (Schadd, Winands and Uiterwijk 2009) where [`SearchOptions::probcut_margin`]
    /// gives a margin: a roll below the root whose outcomes, searched a turn less deep, put its
    /// mean further than the margin outside the window is cut with that bound. Its cuts depend
    /// on the window, so the tests that compare chance prunings turn it off.
    pub chance_probcut: bool,
    /// ChanceProbCut's margin in the variant searched (in equity); `None`, the default, searches
    /// every roll in full. The game handle sets the variant's own, from the variant registry.
    pub probcut_margin: Option<i32>,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            chance_pruning: ChancePruning::Star2,
            use_tt: true,
            threads: 1,
            multipv: 1,
            eval: None,
            net: None,
            use_net: true,
            exact_solution: true,
            reductions: true,
            chance_probcut: true,
            probcut_margin: None,
        }
    }
}

impl SearchOptions {
    /// The network that scores `variant`'s positions beside its tables: the one given, where it
    /// was trained for `variant` (a network of another variant's positions is not read).
    pub fn network_for(&self, variant: &str) -> Option<std::sync::Arc<crate::eval::nnue::Network>> {
        self.net.clone().filter(|net| net.variant == variant)
    }

    /// The evaluation's parameters: those given, else the piece values `values` alone.
    pub fn eval_or_values(&self, values: crate::board::values::PieceValues) -> crate::eval::params::EvalParams {
        self.eval.as_deref().cloned().unwrap_or_else(|| crate::eval::params::EvalParams::from_values(values))
    }
}

/// What the root is.
#[derive(Clone, Debug, PartialEq)]
pub enum Root<T> {
    /// Before the roll: Freedom moves (if any) against rolling.
    PreRoll,
    /// After the roll: these turns are allowed.
    Turns(Vec<T>),
}

/// A root choice and its score from the last completed iteration.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ScoredChoice<T> {
    pub choice: Choice<T>,
    pub score: i32,
    /// False when the score is only an upper bound (the choice was not better than the best).
    pub exact: bool,
    /// Where the variant is solved (Die Chess): the exact expected result, a win 1 and a draw 1/2.
    pub value: Option<f64>,
}

/// For a pre-roll root: what one outcome of the roll would bring.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct OutcomeAdvice<T> {
    pub roll: Roll,
    pub probability: f64,
    pub best: T,
    pub score: i32,
    /// Where the variant is solved: the exact expected result after that outcome.
    pub value: Option<f64>,
    /// Not searched: a search stopped before its first iteration ended gives the outcomes it
    /// had not reached the horizon's quick estimate, and `best` only some allowed turn.
    pub estimated: bool,
}

/// The state of the search after an iteration (for `info` lines) and at its end.
#[derive(Clone, Debug)]
pub struct SearchResult<T> {
    pub best: Choice<T>,
    pub score: i32,
    /// Turns deep, of the last completed iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The best line as far as it goes without a roll.
    pub pv: Vec<T>,
    /// Every root choice, best first.
    pub choices: Vec<ScoredChoice<T>>,
    /// Pre-roll root: each outcome's best turn and score.
    pub outcomes: Vec<OutcomeAdvice<T>>,
    /// Pre-roll root: the expected score of rolling.
    pub roll_score: Option<i32>,
    /// A win (positive) or loss (negative) in this many of our moves, whatever the dice.
    pub mate: Option<i32>,
    pub hashfull: u32,
    /// The evaluation's result scale ([`crate::eval::params::EvalParams::result_scale`]): how scores
    /// turn into win chances.
    pub result_scale: f64,
    /// Where the variant is solved (Die Chess): the position's exact expected result for the
    /// side to move, a win 1 and a draw 1/2; the scores are then this mapped to centipawns.
    pub value: Option<f64>,
}

impl<T: Clone> SearchResult<T> {
    /// The answer of a search stopped before its first iteration ended: `best` unsearched.
    pub fn unsearched(best: Choice<T>, nodes: u64, elapsed: Duration, result_scale: f64) -> SearchResult<T> {
        let pv = match &best {
            Choice::Turn(t) => vec![t.clone()],
            Choice::Roll => Vec::new(),
        };
        SearchResult {
            choices: vec![ScoredChoice { choice: best.clone(), score: 0, exact: false, value: None }],
            best,
            score: 0,
            depth: 0,
            seldepth: 0,
            nodes,
            elapsed,
            pv,
            outcomes: Vec::new(),
            roll_score: None,
            mate: None,
            hashfull: 0,
            result_scale,
            value: None,
        }
    }
}

impl<T> SearchResult<T> {
    pub fn nps(&self) -> u64 {
        let ms = self.elapsed.as_millis().max(1) as u64;
        self.nodes * 1000 / ms
    }

    /// Win/draw/loss per mille for the side to move ([`wdl`]), or certain where a mate is proven.
    pub fn wdl(&self) -> (u32, u32, u32) {
        match self.mate {
            Some(n) if n > 0 => (1000, 0, 0),
            Some(_) => (0, 0, 1000),
            None => wdl(self.score, self.result_scale),
        }
    }

    /// Win/draw/loss per mille of another score of this search (a root choice's, say).
    pub fn wdl_of(&self, score: i32) -> (u32, u32, u32) {
        wdl(score, self.result_scale)
    }
}

impl<T> SearchResult<T> {
    /// The result with the search's equities turned into the centipawns results report.
    pub(crate) fn in_centipawns(mut self, equity: &equity::Equity) -> SearchResult<T> {
        self.score = equity.to_score(self.score);
        self.roll_score = self.roll_score.map(|e| equity.to_score(e));
        for c in &mut self.choices {
            c.score = equity.to_score(c.score);
        }
        for o in &mut self.outcomes {
            o.score = equity.to_score(o.score);
        }
        self.result_scale = equity.scale();
        self
    }
}

/// Win/draw/loss per mille for an expected score: the expected result is the logistic
/// `1 / (1 + 10^(-scale * score / 400))` that the tuning fitted to self-play results (Texel's K),
/// of which a small share is kept for draws around balanced scores.
pub fn wdl(score: i32, scale: f64) -> (u32, u32, u32) {
    if score >= MATE_ZONE {
        return (1000, 0, 0);
    }
    if score <= -MATE_ZONE {
        return (0, 0, 1000);
    }
    let p = 1.0 / (1.0 + 10f64.powf(-scale * f64::from(score) / 400.0));
    let draw = 0.04 * (1.0 - (2.0 * p - 1.0).abs());
    let w = ((1.0 - draw) * p * 1000.0).round() as u32;
    let d = (draw * 1000.0).round() as u32;
    (w, d, 1000u32.saturating_sub(w + d))
}

/// What all threads of one search share, and what one search leaves to the next (the table).
pub struct Shared {
    pub tt: TranspositionTable,
    /// A stop asked from outside (`stop`): set only by the caller, cleared only by the caller
    /// (before its next search), so a caller can tell after a search whether it was stopped.
    pub stop: AtomicBool,
    /// The search's own end (its limit reached, or its main thread done), which tells the helper
    /// threads to finish; cleared when a search starts, so a reused `Shared` searches in full.
    done: AtomicBool,
    nodes: AtomicU64,
}

impl Shared {
    pub fn new(hash_mib: usize) -> Shared {
        Shared {
            tt: TranspositionTable::new(hash_mib),
            stop: AtomicBool::new(false),
            done: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
        }
    }

    /// As [`Shared::new`], or why the table cannot be had.
    pub fn try_new(hash_mib: usize) -> Result<Shared, tt::TableTooLarge> {
        Ok(Shared {
            tt: TranspositionTable::try_new(hash_mib)?,
            stop: AtomicBool::new(false),
            done: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
        })
    }

    /// Asks a running search to stop as soon as it can (`stop`).
    pub fn request_stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// A search starts: nothing counted, not yet over.
    pub(crate) fn start_search(&self) {
        self.nodes.store(0, Ordering::Relaxed);
        self.done.store(false, Ordering::Relaxed);
    }

    /// The search is over for every thread (its limit, or its main thread is done).
    pub(crate) fn end_search(&self) {
        self.done.store(true, Ordering::Relaxed);
    }

    /// Must the threads finish now: asked from outside, or the search is over?
    #[inline]
    pub(crate) fn halted(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.done.load(Ordering::Relaxed)
    }

    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
}

/// Everything one search needs to know.
pub struct SearchInput<'a, R: Rules, E> {
    pub rules: &'a R,
    pub eval: &'a E,
    pub position: &'a R::Position,
    pub root: Root<R::Turn>,
    /// Hashes of the game's earlier positions, oldest first (for repetitions).
    pub history: &'a [u64],
    pub limits: Limits,
    pub options: SearchOptions,
}

/// The score of a finished game at `ply` for the side to move there.
pub(crate) fn end_score<R: Rules>(rules: &R, pos: &R::Position, end: GameEnd, ply: usize) -> i32 {
    match end.result {
        GameResult::Draw => 0,
        GameResult::Win(c) if c == rules.turn(pos) => WIN - ply as i32,
        GameResult::Win(_) => -(WIN - ply as i32),
    }
}

/// Floor of `a / b` for `b > 0`.
#[inline]
pub(crate) fn floor_div(a: i64, b: i64) -> i64 {
    a.div_euclid(b)
}

/// Ceiling of `a / b` for `b > 0`.
#[inline]
pub(crate) fn ceil_div(a: i64, b: i64) -> i64 {
    -((-a).div_euclid(b))
}

/// The one-move horizon's search (`qsearch`): its own count of nodes and stop, the equity of its
/// static scores, and the killers and history the tree's one-move hooks order by.
pub(crate) struct HorizonWorker<'a, R: Rules, E> {
    pub rules: &'a R,
    pub eval: &'a E,
    pub shared: &'a Shared,
    pub options: &'a SearchOptions,
    pub visits: visits::Visits<'a>,
    pub ordering: OrderingTables<R::Turn>,
    /// Static scores as the equities the chance nodes average ([`equity`]).
    pub equity: equity::Equity,
    pub aborted: bool,
    /// Dice as an adversary (chance nodes take the worst outcome): proves wins whatever the dice.
    pub adversarial: bool,
}

impl<'a, R: Rules, E: Evaluator<R>> HorizonWorker<'a, R, E> {
    pub(crate) fn new(
        input: &'a SearchInput<'_, R, E>,
        shared: &'a Shared,
        budget: TimeBudget,
    ) -> HorizonWorker<'a, R, E> {
        HorizonWorker {
            rules: input.rules,
            eval: input.eval,
            shared,
            options: &input.options,
            visits: visits::Visits::new(shared, budget, input.limits.nodes),
            ordering: OrderingTables::new(),
            equity: equity::Equity::new(input.eval.result_scale()),
            aborted: false,
            adversarial: false,
        }
    }

    /// Counts a node; `false` once the search is to stop.
    #[inline]
    pub fn visit(&mut self, ply: usize) -> bool {
        if !self.visits.visit(ply) {
            self.aborted = true;
        }
        !self.aborted
    }

    #[inline]
    pub fn tt_probe(&self, key: u64) -> Option<crate::search::tt::TtHit> {
        if self.options.use_tt && !self.adversarial { self.shared.tt.probe(key) } else { None }
    }

    /// Starts loading `key`'s table entry ([`crate::search::tt::TranspositionTable::prefetch`]).
    #[inline]
    pub fn tt_prefetch(&self, key: u64) {
        if self.options.use_tt && !self.adversarial {
            self.shared.tt.prefetch(key);
        }
    }

    #[inline]
    pub fn tt_store(&self, key: u64, depth: i32, value: i32, alpha: i32, beta: i32, best: u16) {
        if !self.options.use_tt || self.adversarial || self.aborted {
            return;
        }
        self.shared.tt.store_result(key, depth, value, alpha, beta, best);
    }
}

/// Fills `table` for `pos` and `groups` with its outcomes' groups.
#[inline]
pub(crate) fn table_and_groups<R: Rules>(
    rules: &R,
    pos: &R::Position,
    table: &mut TurnTable<R::Turn>,
    groups: &mut Groups,
) {
    rules.turn_table(pos, table);
    group_outcomes(table, groups);
}

/// Searches the position of a game with the evaluation its positions bring
/// ([`crate::eval::Evaluated`]) of [`SearchOptions::eval`] and [`SearchOptions::net`], calling
/// `report` after each iteration. The game handle gives a variant's adopted evaluation in the
/// options; without one, the rules' piece values alone.
pub fn search_evaluated<R>(
    game: &crate::rules::game::Game<R>,
    root: Root<R::Turn>,
    limits: Limits,
    options: SearchOptions,
    shared: &Shared,
    report: &mut (dyn FnMut(&SearchResult<R::Turn>) + Send),
) -> SearchResult<R::Turn>
where
    R: Rules + Sync,
    R::Position: crate::eval::Evaluated + Send + Sync + std::fmt::Debug,
    <R::Position as crate::eval::Evaluated>::Eval: Evaluator<R>,
    R::Turn: Send + Sync,
{
    let rules = game.rules();
    let eval = <R::Position as crate::eval::Evaluated>::evaluation(
        &options.eval_or_values(rules.piece_values()),
        options.network_for(rules.name()),
    );
    search_with(game, &eval, root, limits, options, shared, report)
}

/// Searches the position of a game under any rules with the evaluation `eval`, its history
/// giving the repetitions.
pub fn search_with<R, E>(
    game: &crate::rules::game::Game<R>,
    eval: &E,
    root: Root<R::Turn>,
    limits: Limits,
    options: SearchOptions,
    shared: &Shared,
    report: &mut (dyn FnMut(&SearchResult<R::Turn>) + Send),
) -> SearchResult<R::Turn>
where
    R: Rules + Sync,
    R::Position: Send + Sync + std::fmt::Debug,
    R::Turn: Send + Sync,
    E: Evaluator<R>,
{
    let input = SearchInput {
        rules: game.rules(),
        eval,
        position: game.position(),
        root,
        history: game.hashes(),
        limits,
        options,
    };
    search(&input, shared, report)
}
