//! `go`: what to search (after a roll, before it, or any move), the search on its own thread,
//! and, with `EngineRolls`, the engine's own dice between the pre-roll decision and the move.

use crate::command::{GoParams, RollSpec};
use crate::options::{ChancePruningOption, Options};
use crate::output::Output;
use crate::reply::{choice_text, info_lines, outcome_lines};
use alea_engine::rules::{OutcomeList, Roll, Rules, TurnList, Variant};
use alea_engine::search::{self, ChancePruning, Choice, Root, SearchOptions, SearchResult, Shared};
use alea_engine::timeman::{Limits, TimeBudget};
use alea_engine::{Color, Game, Move};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// The engine's own dice (`EngineRolls`), seeded by `Seed`.
pub type Dice = Arc<Mutex<StdRng>>;

pub fn new_dice(seed: u64) -> Dice {
    Arc::new(Mutex::new(StdRng::seed_from_u64(seed)))
}

/// What the root of a `go` is, decided (and checked) before the search starts.
pub enum GoPlan {
    /// Nothing to search: answer at once (`bestmove 0000`, `bestmove roll`).
    Immediate(String),
    /// Search these turns (after a roll, `roll any`, or `searchmoves`).
    Turns(Vec<Move>),
    /// Search before the roll; then answer `roll`, or roll ourselves.
    PreRoll,
}

/// Decides what a `go` searches, or why it cannot.
pub fn plan(game: &Game<Variant>, go: &GoParams, engine_rolls: bool) -> Result<GoPlan, String> {
    let rules = *game.rules();
    let pos = game.position();
    let mut turns = TurnList::new();
    match &go.roll {
        Some(RollSpec::Any) => rules.any_turns(pos, &mut turns),
        Some(RollSpec::Faces(faces)) => {
            let roll = Roll::new(faces).map_err(|e| e.to_string())?;
            rules.check_roll(&roll).map_err(|e| e.to_string())?;
            rules.allowed_turns(pos, &roll, &mut turns);
        }
        None if !go.searchmoves.is_empty() => rules.any_turns(pos, &mut turns),
        None => {
            let mut pre = TurnList::new();
            rules.pre_roll_turns(pos, &mut pre);
            let has_limits = go.depth.is_some()
                || go.nodes.is_some()
                || go.movetime.is_some()
                || go.wtime.is_some()
                || go.btime.is_some()
                || go.infinite;
            return Ok(if pre.is_empty() && !engine_rolls && !has_limits {
                GoPlan::Immediate("bestmove roll".into())
            } else {
                GoPlan::PreRoll
            });
        }
    }
    if !go.searchmoves.is_empty() {
        let mut chosen = Vec::new();
        for text in &go.searchmoves {
            match turns.iter().find(|&&t| rules.turn_to_uci(t) == *text || rules.parse_turn(pos, text) == Some(t)) {
                Some(&t) => chosen.push(t),
                None => return Err(format!("searchmoves: {text} is not allowed here")),
            }
        }
        return Ok(GoPlan::Turns(chosen));
    }
    if turns.as_slice() == [Move::NULL] {
        return Ok(GoPlan::Immediate("bestmove 0000".into()));
    }
    if turns.is_empty() {
        return Err("no move is allowed here".into());
    }
    Ok(GoPlan::Turns(turns.to_vec()))
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
    }
}

/// A running `go`.
pub struct SearchJob {
    pub shared: Arc<Shared>,
    handle: JoinHandle<()>,
}

impl SearchJob {
    pub fn stop(&self) {
        self.shared.request_stop();
    }

    pub fn is_finished(&self) -> bool {
        self.handle.is_finished()
    }

    pub fn join(self) {
        let _ = self.handle.join();
    }
}

/// Everything the search thread owns.
pub struct GoRequest {
    pub game: Game<Variant>,
    pub plan: GoPlan,
    pub limits: Limits,
    pub options: Options,
    pub shared: Arc<Shared>,
    pub dice: Dice,
    pub out: Output,
}

/// Starts the search of `request` on its own thread; it prints its `info` lines and exactly one
/// `bestmove`.
pub fn start(request: GoRequest) -> SearchJob {
    request.shared.stop.store(false, std::sync::atomic::Ordering::Relaxed);
    let shared = Arc::clone(&request.shared);
    let handle =
        std::thread::Builder::new().name("go".into()).spawn(move || run(request)).expect("spawn the search thread");
    SearchJob { shared, handle }
}

fn run(request: GoRequest) {
    let GoRequest { game, plan, limits, options, shared, dice, out } = request;
    let rules = *game.rules();
    let search = |root: Root<Move>, limits: Limits| -> SearchResult<Move> {
        let reporter = out.clone();
        let (multipv, wdl) = (options.multipv, options.show_wdl);
        let result = search::search_game(&game, root, limits, search_options(&options), &shared, &mut move |r| {
            reporter.lines(info_lines(&rules, r, multipv, wdl))
        });
        if result.mate.is_some() {
            out.lines(info_lines(&rules, &result, multipv, wdl));
        }
        result
    };
    match plan {
        GoPlan::Immediate(answer) => out.line(answer),
        GoPlan::Turns(turns) => {
            let result = search(Root::Turns(turns), limits);
            out.line(format!("bestmove {}", choice_text(&rules, result.best)));
        }
        GoPlan::PreRoll => {
            let engine_rolls = options.engine_rolls;
            let mut pre = TurnList::new();
            rules.pre_roll_turns(game.position(), &mut pre);
            let budget = TimeBudget::new(&limits);
            // Rolling ourselves leaves the move to choose after the roll: the decision before it
            // gets a third of the time.
            let decision_limits = if engine_rolls { share_of(&limits, &budget, 3) } else { limits.clone() };
            let decision = if pre.is_empty() && engine_rolls {
                Choice::Roll
            } else {
                let result = search(Root::PreRoll, decision_limits);
                out.lines(outcome_lines(&rules, &result));
                result.best
            };
            match decision {
                Choice::Turn(t) => out.line(format!("bestmove {}", rules.turn_to_uci(t))),
                Choice::Roll if !engine_rolls => out.line("bestmove roll"),
                Choice::Roll => {
                    let roll = roll_dice(&rules, &game, &dice);
                    out.line(format!("info string roll {roll}"));
                    let mut turns = TurnList::new();
                    rules.allowed_turns(game.position(), &roll, &mut turns);
                    if turns.as_slice() == [Move::NULL] {
                        out.line("bestmove 0000");
                        return;
                    }
                    let stopped = shared.stop.load(std::sync::atomic::Ordering::Relaxed);
                    let move_limits = if stopped {
                        // Stopped already: a one-turn look, so the answer comes at once.
                        shared.stop.store(false, std::sync::atomic::Ordering::Relaxed);
                        Limits { depth: Some(1), ..Default::default() }
                    } else {
                        remaining(&limits, &budget)
                    };
                    let result = search(Root::Turns(turns.to_vec()), move_limits);
                    out.line(format!("bestmove {}", choice_text(&rules, result.best)));
                }
            }
        }
    }
}

/// Limits for a part (1/`parts`) of this search's time; depth and node limits kept as they are.
fn share_of(limits: &Limits, budget: &TimeBudget, parts: u32) -> Limits {
    match budget.soft {
        Some(soft) => Limits {
            time: None,
            movetime: Some(((soft / parts).as_millis() as u64).max(1)),
            move_overhead: 0,
            ..limits.clone()
        },
        None => limits.clone(),
    }
}

/// Limits for what is left of this search's time.
fn remaining(limits: &Limits, budget: &TimeBudget) -> Limits {
    match budget.soft {
        Some(soft) => {
            let left = soft.saturating_sub(budget.elapsed()).max(Duration::from_millis(1));
            Limits { time: None, movetime: Some(left.as_millis() as u64), move_overhead: 0, ..limits.clone() }
        }
        None => limits.clone(),
    }
}

/// Rolls the variant's dice: an outcome drawn by weight (so BrainKing never rolls a face with no
/// move).
pub fn roll_dice(rules: &Variant, game: &Game<Variant>, dice: &Dice) -> Roll {
    let mut outcomes = OutcomeList::new();
    rules.outcomes(game.position(), &mut outcomes);
    let total: u32 = outcomes.iter().map(|o| o.weight).sum();
    let mut rng = dice.lock().unwrap_or_else(|e| e.into_inner());
    let mut pick = rng.random_range(0..total.max(1));
    for o in &outcomes {
        if pick < o.weight {
            return o.roll;
        }
        pick -= o.weight;
    }
    outcomes[0].roll
}
