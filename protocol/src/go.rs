//! `go`: what to search (after a roll, before it, or among given moves), run on its own thread
//! through the engine's turn driver, which also rolls the engine's own dice with `EngineRolls`.

use crate::command::GoParams;
use crate::options::{ChancePruningOption, Options};
use crate::output::Output;
use crate::reply::{info_lines, outcome_lines};
use alea_engine::Color;
use alea_engine::services::driver::{TurnEvent, TurnRequest, play_turn};
use alea_engine::services::handle::{GameHandle, SearchRoot};
use alea_engine::services::search::Limits;
use alea_engine::services::search::Skill;
use alea_engine::services::search::{ChancePruning, SearchOptions, Shared};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// The engine's own dice (`EngineRolls`), seeded by `Seed`.
pub type Dice = Arc<Mutex<StdRng>>;

pub fn new_dice(seed: u64) -> Dice {
    Arc::new(Mutex::new(StdRng::seed_from_u64(seed)))
}

/// Decides where a `go` starts, or why it cannot: the roll is checked and `searchmoves` must be
/// allowed by it (or by any roll).
pub fn root(game: &GameHandle, go: &GoParams) -> Result<SearchRoot, String> {
    if go.searchmoves.is_empty() {
        return Ok(match &go.roll {
            Some(spec) => {
                game.check_roll_spec(spec).map_err(|e| e.to_string())?;
                SearchRoot::Rolled(spec.clone())
            }
            None => SearchRoot::Decision,
        });
    }
    game.check_only(go.roll.as_ref(), &go.searchmoves).map_err(|e| format!("searchmoves: {e}"))?;
    Ok(SearchRoot::Only { roll: go.roll.clone(), turns: go.searchmoves.clone() })
}

/// Does the `go` set a limit (so a search before a forced roll is wanted for its table)?
fn has_limits(go: &GoParams) -> bool {
    go.depth.is_some()
        || go.nodes.is_some()
        || go.movetime.is_some()
        || go.wtime.is_some()
        || go.btime.is_some()
        || go.infinite
}

/// The limits a `go` sets, for the side to move.
pub fn limits(go: &GoParams, turn: Color, options: &Options) -> Limits {
    let (time, increment) = match turn {
        Color::White => (go.wtime, go.winc),
        Color::Black => (go.btime, go.binc),
    };
    let any = time.is_some() || go.movetime.is_some() || go.depth.is_some() || go.nodes.is_some();
    Limits {
        time,
        increment: increment.unwrap_or(0),
        movestogo: go.movestogo,
        movetime: go.movetime,
        depth: go.depth,
        nodes: go.nodes,
        // `go` with no limit at all searches until `stop`, as in UCI.
        infinite: go.infinite || go.ponder || !any,
        move_overhead: options.move_overhead_ms,
    }
}

fn search_options(options: &Options) -> SearchOptions {
    SearchOptions {
        chance_pruning: match options.chance_pruning {
            ChancePruningOption::None => ChancePruning::None,
            ChancePruningOption::Star1 => ChancePruning::Star1,
            ChancePruningOption::Star2 => ChancePruning::Star2,
        },
        use_tt: true,
        threads: options.threads,
        multipv: options.multipv,
        eval: options.eval.clone(),
        net: options.net.clone(),
        use_net: options.use_net,
        exact_solution: options.die_chess_solution,
        chance_probcut: options.chance_probcut,
        ..SearchOptions::default()
    }
}

/// A running `go`.
pub struct SearchJob {
    pub shared: Arc<Shared>,
    handle: JoinHandle<()>,
    /// Set just before the final answer is written: a command read after the GUI saw
    /// `bestmove` finds the search over, though its thread may still be ending.
    answered: Arc<AtomicBool>,
    /// A `go perft` count rather than a search.
    count: bool,
}

impl SearchJob {
    pub fn stop(&self) {
        self.shared.request_stop();
    }

    /// Is this a `go perft` count (finite work that `quit` lets finish)?
    pub fn counts(&self) -> bool {
        self.count
    }

    pub fn is_finished(&self) -> bool {
        self.answered.load(Ordering::Acquire) || self.handle.is_finished()
    }

    /// Runs `work` on a thread named `name`; `work` sets the flag it is given just before it
    /// writes its final answer.
    fn spawn(
        name: &str,
        shared: &Arc<Shared>,
        count: bool,
        work: impl FnOnce(&AtomicBool) + Send + 'static,
    ) -> SearchJob {
        shared.stop.store(false, Ordering::Relaxed);
        let answered = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&answered);
        let handle =
            std::thread::Builder::new().name(name.into()).spawn(move || work(&flag)).expect("spawn a search thread");
        SearchJob { shared: Arc::clone(shared), handle, answered, count }
    }

    pub fn join(self) {
        let _ = self.handle.join();
    }
}

/// Everything the search thread owns.
pub struct GoRequest {
    pub game: GameHandle,
    pub root: SearchRoot,
    pub params: GoParams,
    pub options: Options,
    pub shared: Arc<Shared>,
    pub dice: Dice,
    pub out: Output,
}

/// Starts the search of `request` on its own thread; it prints its `info` lines and exactly one
/// `bestmove`.
pub fn start(request: GoRequest) -> SearchJob {
    let shared = Arc::clone(&request.shared);
    SearchJob::spawn("go", &shared, false, move |answered| run(request, answered))
}

fn run(request: GoRequest, answered: &AtomicBool) {
    let GoRequest { game, root, params, options, shared, dice, out } = request;
    let turn = TurnRequest {
        root,
        engine_rolls: options.engine_rolls,
        search_forced_roll: has_limits(&params),
        limits: limits(&params, game.side_to_move(), &options),
        options: search_options(&options),
        // Its draws come from the dice's stream (only below full strength, so a full-strength
        // session rolls as it always has), so a seeded session plays the same games.
        skill: if options.skill_level < alea_engine::services::search::FULL_SKILL {
            Skill::new(options.skill_level, dice.lock().unwrap_or_else(|e| e.into_inner()).random())
        } else {
            None
        },
    };
    let (multipv, wdl) = (options.multipv, options.show_wdl);
    let mut pick = |total: u32| dice.lock().unwrap_or_else(|e| e.into_inner()).random_range(0..total.max(1));
    let reporter = out.clone();
    let mut events = move |event: TurnEvent<'_>| match event {
        TurnEvent::Iteration(r) => reporter.lines(info_lines(r, multipv, wdl)),
        // A proven mate is found after the last iteration's report: say it.
        TurnEvent::Searched(r) if r.mate.is_some() => reporter.lines(info_lines(r, multipv, wdl)),
        // A solved variant's answer: its exact value beside the centipawns.
        TurnEvent::Searched(r) => {
            if let Some(v) = r.value {
                reporter.line(format!("info string exact value {v:.12}"));
            }
        }
        TurnEvent::Outcomes(r) => reporter.lines(outcome_lines(r)),
        TurnEvent::Rolled(roll) => reporter.line(format!("info string roll {roll}")),
    };
    let result = play_turn(&game, turn, &shared, &mut pick, &mut events);
    answered.store(true, Ordering::Release);
    match result {
        Ok(answer) => out.line(format!("bestmove {answer}")),
        Err(e) => {
            out.error(e);
            out.line("bestmove (none)");
        }
    }
}

/// Starts `go perft` on its own thread, so `isready` is answered and `stop` ends it: each root
/// move's count as it is finished, then the total (or how far it got).
pub fn start_perft(game: GameHandle, depth: u32, shared: Arc<Shared>, out: Output) -> SearchJob {
    let job_shared = Arc::clone(&shared);
    SearchJob::spawn("perft", &job_shared, true, move |answered| {
        let (mut total, mut moves) = (0u64, 0usize);
        let finished = game.perft(depth, &shared.stop, |m, n| {
            out.line(format!("{m}: {n}"));
            total += n;
            moves += 1;
        });
        answered.store(true, Ordering::Release);
        match finished {
            Ok(true) => out.lines([String::new(), format!("Nodes searched: {total}"), String::new()]),
            Ok(false) => {
                out.line(format!("info string perft stopped: {total} paths counted under the first {moves} root moves"))
            }
            Err(e) => out.error(e),
        }
    })
}
