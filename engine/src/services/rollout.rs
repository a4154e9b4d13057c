//! Rollouts: a choice valued by playing the game out from it many times, as backgammon programs
//! (GNU Backgammon) check what their search says. Each game is played by the engine on both
//! sides at a small depth, on dice drawn from a seed, to its end or, where asked, for a number of
//! turns and then valued by a search; the results are averaged. A search's value leans on its
//! evaluation at the horizon; a rollout's leans on that evaluation only where it is cut short,
//! and otherwise on nothing but the rules and the players' play.
//!
//! Every choice is played out on the same dice, game `i` of one choice rolling what game `i` of
//! another rolls at the same ply (as a match's pairs do): much of what decides a game is the dice,
//! and it cancels out of the difference between two choices, which is thus measured far more
//! tightly than either value alone.
//!
//! With [`RolloutSettings::luck_adjusted`], each game's result also has the luck of its rolls
//! taken out, as GNU Backgammon reduces a rollout's variance: before each roll every outcome is
//! valued for the player about to roll (`LuckReading` says how), and a roll's luck is what its
//! outcome is worth, as an expected result, less the outcomes' mean. Its mean over the dice is
//! exactly zero whatever the valuation's errors, so the adjusted results keep their expectation,
//! while much of what the dice did to one game is taken out of it.

use crate::rules::dice::Roll;
use crate::rules::pairing;
use crate::rules::{GameError, GameResult};
use crate::search::stack::spawn_deep;
use crate::search::timeman::Limits;
use crate::search::{Choice, SearchOptions, Shared};
use crate::services::driver::{TurnEvent, TurnRequest, play_turn};
use crate::services::error::Error;
use crate::services::handle::{GameHandle, RollSpec, SearchReport, SearchRoot};
use crate::services::luck::LuckTable;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How the games are played.
#[derive(Clone, Debug)]
pub struct RolloutSettings {
    /// Games played out from each choice.
    pub games: u32,
    /// Turns each player searches (a turn is a roll and its moves).
    pub depth: u32,
    /// Turns played before the game is cut short and valued by a search of `depth` turns;
    /// `None` plays every game to its end.
    pub turns: Option<u32>,
    /// The dice: game `i` of every choice rolls alike.
    pub seed: u64,
    pub threads: usize,
    /// Stop starting games after this long: every choice then has the games that all of them
    /// finished (at least one, else the rollout fails), fewer than `games`.
    pub time: Option<Duration>,
    /// Take each roll's luck out of the games' results (the module's head says how): the same
    /// precision from fewer games, at some cost a game.
    pub luck_adjusted: bool,
}

/// A game that has not ended after this many turns is valued where it stands (the rules end every
/// game long before: repetitions, the fifty moves, the variants' own limits).
const LONGEST_GAME: u32 = 2_000;

/// Each transposition table of the rollout's threads, cleared before every game so that a game's
/// play depends on its dice alone, whatever thread plays it.
const TABLE_MIB: usize = 1;

/// The games played out from one choice.
#[derive(Clone, Debug)]
pub struct ChoiceRollout {
    pub choice: Choice<String>,
    /// Game by game, the result for the side choosing (1 a win, 0.5 a draw, 0 a loss; a game cut
    /// short counts its searched expected result), less the luck of its rolls where the rollout
    /// takes it out.
    pub results: Vec<f64>,
    /// Game by game, the turns played after the choice.
    pub turns: Vec<u32>,
    /// Games that ended by the rules (the rest were cut short and valued).
    pub ended: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// A mean with the half-width of its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub mean: f64,
    pub ci95: f64,
}

impl Estimate {
    /// The mean of `values` and its 95 % interval's half-width (normal, from the sample's
    /// standard deviation; 0 for fewer than two values).
    pub fn of(values: impl Iterator<Item = f64> + Clone) -> Estimate {
        let n = values.clone().count();
        if n == 0 {
            return Estimate { mean: 0.0, ci95: 0.0 };
        }
        let mean = values.clone().sum::<f64>() / n as f64;
        if n < 2 {
            return Estimate { mean, ci95: 0.0 };
        }
        let variance = values.map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1) as f64;
        Estimate { mean, ci95: 1.96 * (variance / n as f64).sqrt() }
    }
}

impl ChoiceRollout {
    /// The expected result for the side choosing.
    pub fn result(&self) -> Estimate {
        Estimate::of(self.results.iter().copied())
    }

    /// What this choice gives up against `best`, game by game on the same dice.
    pub fn loss_against(&self, best: &ChoiceRollout) -> Estimate {
        Estimate::of(best.results.iter().zip(&self.results).map(|(b, c)| b - c))
    }

    pub fn mean_turns(&self) -> f64 {
        self.turns.iter().map(|&t| f64::from(t)).sum::<f64>() / self.turns.len().max(1) as f64
    }
}

/// The best `n` choices of a search to play out: those it scored exactly where it bounded the
/// rest (whole turns of several micro-moves), best first.
pub fn best_choices(search: &SearchReport, n: usize) -> Vec<Choice<String>> {
    let exact_only = search.choices.iter().any(|c| c.exact);
    search.choices.iter().filter(|c| c.exact || !exact_only).take(n).map(|c| c.choice.clone()).collect()
}

/// One line of a rollout's table: a choice's games summed up.
#[derive(Clone, Debug)]
pub struct RolloutRow {
    pub choice: Choice<String>,
    /// Its place in the order the choices were given (the search's), from 0.
    pub search_rank: usize,
    /// The expected result for the side choosing.
    pub result: Estimate,
    /// What it gives up against the rollout's best, game by game (0 for the best).
    pub loss: Estimate,
    pub games: usize,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Games cut short and valued by a search.
    pub cut: u32,
    pub mean_turns: f64,
}

/// The rollouts as a table, best first by mean result (equal ones in the order given).
pub fn rows(rollouts: &[ChoiceRollout]) -> Vec<RolloutRow> {
    let mut ranked: Vec<_> = rollouts.iter().enumerate().collect();
    ranked.sort_by(|a, b| b.1.result().mean.total_cmp(&a.1.result().mean).then(a.0.cmp(&b.0)));
    let Some(&(_, best)) = ranked.first() else { return Vec::new() };
    ranked
        .iter()
        .map(|&(search_rank, c)| RolloutRow {
            choice: c.choice.clone(),
            search_rank,
            result: c.result(),
            loss: c.loss_against(best),
            games: c.results.len(),
            wins: c.wins,
            draws: c.draws,
            losses: c.losses,
            cut: c.results.len() as u32 - c.ended,
            mean_turns: c.mean_turns(),
        })
        .collect()
}

/// One choice's line of a [`RolloutTable`].
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RolledChoice {
    /// The choice in UCI (or `roll`), and in SAN.
    #[serde(rename = "move")]
    pub uci: String,
    pub san: String,
    /// Its place in the search's order, from 1.
    pub search_rank: usize,
    /// The mean result for the side choosing (a win 1, a draw 1/2) and its 95 % half-interval.
    pub result: f64,
    pub ci95: f64,
    /// What it gives up against the rollout's best, game by game, and its 95 % half-interval.
    pub loss: f64,
    pub loss_ci95: f64,
    pub games: usize,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Games cut short and valued by a search.
    pub cut: u32,
    pub mean_turns: f64,
}

/// A rollout as every front end shows it: how it was played, and its choices best first.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RolloutTable {
    /// The side choosing: `white` or `black`.
    pub side: &'static str,
    /// Games played out from each choice (fewer than asked where the time ran out).
    pub games: usize,
    pub asked: u32,
    pub depth: u32,
    pub turns: Option<u32>,
    pub seed: u64,
    pub threads: usize,
    pub luck_adjusted: bool,
    pub choices: Vec<RolledChoice>,
}

impl RolloutTable {
    /// The table of `rollouts` played from `game` with `settings`.
    pub fn of(game: &GameHandle, rollouts: &[ChoiceRollout], settings: &RolloutSettings) -> RolloutTable {
        let choices = rows(rollouts)
            .into_iter()
            .map(|r| {
                let (uci, san) = match &r.choice {
                    Choice::Turn(t) => (t.clone(), game.san(t)),
                    Choice::Roll => ("roll".to_string(), "roll".to_string()),
                };
                RolledChoice {
                    uci,
                    san,
                    search_rank: r.search_rank + 1,
                    result: r.result.mean,
                    ci95: r.result.ci95,
                    loss: r.loss.mean,
                    loss_ci95: r.loss.ci95,
                    games: r.games,
                    wins: r.wins,
                    draws: r.draws,
                    losses: r.losses,
                    cut: r.cut,
                    mean_turns: r.mean_turns,
                }
            })
            .collect();
        RolloutTable {
            side: game.side_to_move().name(),
            games: rollouts.first().map_or(0, |c| c.results.len()),
            asked: settings.games,
            depth: settings.depth,
            turns: settings.turns,
            seed: settings.seed,
            threads: settings.threads,
            luck_adjusted: settings.luck_adjusted,
            choices,
        }
    }
}

/// Plays `settings.games` games out from each of `choices` at `root` of `handle`'s position
/// (before the roll: a pre-roll turn or [`Choice::Roll`]; after a roll: the turns it allows).
/// `progress(done, total)` is told after each game. Refuses a choice the position does not allow.
pub fn roll_out(
    handle: &GameHandle,
    root: &SearchRoot,
    choices: &[Choice<String>],
    settings: &RolloutSettings,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<ChoiceRollout>, Error> {
    if handle.end().is_some() {
        return Err(Error::Game(GameError::NotNow("the game is over".into())));
    }
    if handle.is_solved() {
        return Err(Error::NotHere(format!("{} is solved exactly: its values need no rollout", handle.variant())));
    }
    if settings.games == 0 || settings.depth == 0 {
        return Err(Error::Setting(
            "a rollout plays at least one game, each player searching at least one turn".into(),
        ));
    }
    if choices.is_empty() {
        return Ok(Vec::new());
    }
    // Each choice is checked once before the games: a refused one stops the rollout at once.
    for choice in choices {
        after_choice(handle, root, choice, settings.seed, 0)?;
    }
    let games = settings.games as usize;
    let total = games * choices.len();
    let deadline = settings.time.map(|t| Instant::now() + t);
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let outcomes: Mutex<Vec<Option<GameOutcome>>> = Mutex::new(vec![None; total]);
    let failure: Mutex<Option<Error>> = Mutex::new(None);
    let started = std::thread::scope(|scope| {
        let mut started = 0;
        for i in 0..settings.threads.max(1) {
            // On a search's deep stack, so each of the games' many searches runs on this thread.
            let worker = spawn_deep(scope, format!("rollout-{i}"), || {
                let mut shared = Shared::new(TABLE_MIB);
                // The luck's own searches keep to a table of their own, so that the players'
                // searches, and so their games, are those of a rollout without it.
                let mut luck_shared = Shared::new(TABLE_MIB);
                loop {
                    let job = next.fetch_add(1, Ordering::Relaxed);
                    let late = deadline.is_some_and(|d| Instant::now() >= d);
                    if job >= total || late || failure.lock().unwrap_or_else(|e| e.into_inner()).is_some() {
                        break;
                    }
                    // Game by game, every choice in turn: stopped by the time, all choices have
                    // nearly as many games.
                    let (game, choice) = (job / choices.len(), job % choices.len());
                    shared.tt.clear();
                    if settings.luck_adjusted {
                        luck_shared.tt.clear();
                    }
                    let tables = Tables { players: &shared, luck: &luck_shared };
                    match play_out(handle, root, &choices[choice], game as u64, settings, tables) {
                        Ok(outcome) => {
                            outcomes.lock().unwrap_or_else(|e| e.into_inner())[choice * games + game] = Some(outcome)
                        }
                        Err(e) => {
                            failure.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
                            break;
                        }
                    }
                    progress(finished.fetch_add(1, Ordering::Relaxed) + 1, total);
                }
            });
            // A worker the system will not give is simply not there: fewer threads, the same games.
            started += usize::from(worker.is_ok());
        }
        started
    });
    if started == 0 {
        return Err(Error::System("cannot start a thread to play the games".into()));
    }
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let outcomes = outcomes.into_inner().unwrap_or_else(|e| e.into_inner());
    // The games every choice finished (all of them unless the time ran out).
    let played = (0..games).find(|&g| (0..choices.len()).any(|c| outcomes[c * games + g].is_none())).unwrap_or(games);
    if played == 0 {
        return Err(Error::NoAnswer("no game finished in the time given".into()));
    }
    Ok(choices
        .iter()
        .zip(outcomes.chunks(games))
        .map(|(choice, games)| {
            let games: Vec<GameOutcome> =
                games[..played].iter().map(|g| g.expect("a game every choice finished")).collect();
            ChoiceRollout {
                choice: choice.clone(),
                results: games.iter().map(|g| g.result).collect(),
                turns: games.iter().map(|g| g.turns).collect(),
                ended: games.iter().filter(|g| g.ended).count() as u32,
                wins: games.iter().filter(|g| g.ended && g.raw == 1.0).count() as u32,
                draws: games.iter().filter(|g| g.ended && g.raw == 0.5).count() as u32,
                losses: games.iter().filter(|g| g.ended && g.raw == 0.0).count() as u32,
            }
        })
        .collect())
}

/// One game played out.
#[derive(Clone, Copy, Debug)]
struct GameOutcome {
    /// For the side choosing (less its luck where the rollout takes it out).
    result: f64,
    /// For the side choosing, as the game ended or was valued.
    raw: f64,
    turns: u32,
    /// By the rules, not cut short.
    ended: bool,
}

/// The position after `choice` at `root`. Where the choice is to roll, the position is as it
/// was, and game `game`'s roll for the chooser's turn comes with it: that turn is still to play.
fn after_choice(
    handle: &GameHandle,
    root: &SearchRoot,
    choice: &Choice<String>,
    seed: u64,
    game: u64,
) -> Result<(GameHandle, Option<crate::rules::dice::Roll>), Error> {
    let mut after = handle.clone();
    match (root, choice) {
        (SearchRoot::Decision, Choice::Roll) if handle.dice_left().is_none() => {
            let roll = handle
                .roll_for(pairing::draw(seed, game, 0, u64::from(handle.total_weight())) as u32)
                .ok_or(Error::NoAnswer("nothing to roll here".into()))?;
            return Ok((after, Some(roll)));
        }
        (SearchRoot::Decision, Choice::Turn(turn)) if handle.dice_left().is_none() => {
            if !handle.pre_roll_turns().contains(turn) {
                return Err(Error::Game(GameError::Turn(format!("{turn} is not allowed before the roll here"))));
            }
            after.play_checked(turn, None)?;
        }
        (SearchRoot::Decision, Choice::Turn(turn)) => {
            // A turn in progress: the rest of the turn, on the dice left.
            let dice = handle.dice_left().expect("a turn in progress");
            if !handle.allows(turn, &dice) {
                return Err(Error::Game(GameError::Turn(format!("{turn} is not allowed with the dice left"))));
            }
            after.play_checked(turn, Some(&dice))?;
        }
        (SearchRoot::Rolled(RollSpec::Faces(faces)), Choice::Turn(turn)) => {
            let roll = handle.check_roll(faces)?;
            if !handle.allows(turn, &roll) {
                return Err(Error::Game(GameError::Turn(format!("{turn} is not allowed by the roll"))));
            }
            after.play_checked(turn, Some(&roll))?;
        }
        (SearchRoot::Rolled(RollSpec::Any), Choice::Turn(turn)) => after.play(turn)?,
        (SearchRoot::Only { roll: Some(RollSpec::Faces(faces)), turns }, Choice::Turn(turn))
            if turns.contains(turn) =>
        {
            after.play_checked(turn, Some(&handle.check_roll(faces)?))?
        }
        (SearchRoot::Only { turns, .. }, Choice::Turn(turn)) if turns.contains(turn) => after.play(turn)?,
        _ => return Err(Error::Game(GameError::Turn("that choice is not one of this position's".into()))),
    }
    Ok((after, None))
}

/// The transposition tables of one game: the players', and that of the searches that read the
/// luck of the rolls where the players do not make them.
#[derive(Clone, Copy)]
struct Tables<'a> {
    players: &'a Shared,
    luck: &'a Shared,
}

/// Game `game` played out from `choice`: the result for the side choosing.
fn play_out(
    handle: &GameHandle,
    root: &SearchRoot,
    choice: &Choice<String>,
    game: u64,
    settings: &RolloutSettings,
    tables: Tables<'_>,
) -> Result<GameOutcome, Error> {
    let shared = tables.players;
    let chooser = handle.side_to_move();
    let (mut position, rolled) = after_choice(handle, root, choice, settings.seed, game)?;
    let limits = Limits { depth: Some(settings.depth), ..Limits::default() };
    let player = |root: SearchRoot| TurnRequest {
        root,
        engine_rolls: true,
        search_forced_roll: false,
        limits: limits.clone(),
        options: SearchOptions::default(),
        skill: None,
    };
    let rolled_turn = |position: &GameHandle, roll: &Roll| -> Result<String, Error> {
        let root = SearchRoot::Rolled(RollSpec::Faces(roll.faces().to_vec()));
        let answer = play_turn(position, player(root), shared, &mut |_| 0, &mut |_| {})?;
        Ok(position.turn_with_roll(&answer, roll))
    };
    // The luck of `roll` for the side to move in `position`, by `reading`, as the chooser's.
    let luck_of = |position: &GameHandle, reading: &LuckReading, roll: &Roll| -> Result<f64, Error> {
        let Some(table) = reading.table() else { return Ok(0.0) };
        let mover = table.luck(roll)?;
        Ok(if position.side_to_move() == chooser { mover } else { -mover })
    };
    // The luck the chooser has had so far, as an expected result.
    let mut luck = 0.0;
    // Ply 0 is the chooser's turn; a choice to roll has its dice from ply 0 and its move to play.
    if let Some(roll) = rolled {
        let reading = LuckReading::before_roll(&position, settings, tables)?;
        luck += luck_of(&position, &reading, &roll)?;
        let turn = match reading.searched_turn(&roll)? {
            Some(turn) => position.turn_with_roll(&turn, &roll),
            None => rolled_turn(&position, &roll)?,
        };
        position.play_checked(&turn, Some(&roll))?;
    }
    let mut ply = 1u64;
    let mut turns = 0u32;
    loop {
        if let Some(end) = position.end() {
            let result = match end.result {
                GameResult::Draw => 0.5,
                GameResult::Win(side) if side == chooser => 1.0,
                GameResult::Win(_) => 0.0,
            };
            return Ok(GameOutcome { result: result - luck, raw: result, turns, ended: true });
        }
        if settings.turns.is_some_and(|cut| turns >= cut) || turns >= LONGEST_GAME {
            let result = valued(&position, chooser, settings, shared)?;
            return Ok(GameOutcome { result: result - luck, raw: result, turns, ended: false });
        }
        let mut pick = |total: u32| pairing::draw(settings.seed, game, ply, u64::from(total)) as u32;
        let reading = LuckReading::before_roll(&position, settings, tables)?;
        match &reading {
            // One turn deep, the search that read the outcomes is the player's own: its choice
            // before the roll and its turn after each outcome.
            LuckReading::Searched(before, _) => match &before.best {
                Choice::Turn(turn) => position.play_checked(turn, None)?,
                Choice::Roll => {
                    let roll = position
                        .roll_for(pick(position.total_weight()))
                        .ok_or(Error::NoAnswer("nothing to roll".into()))?;
                    luck += luck_of(&position, &reading, &roll)?;
                    let turn = match reading.searched_turn(&roll)? {
                        Some(turn) => position.turn_with_roll(&turn, &roll),
                        None => rolled_turn(&position, &roll)?,
                    };
                    position.play_checked(&turn, Some(&roll))?;
                }
            },
            _ => {
                let mut rolled = None;
                let turn = play_turn(&position, player(SearchRoot::Decision), shared, &mut pick, &mut |event| {
                    if let TurnEvent::Rolled(roll) = event {
                        rolled = Some(roll);
                    }
                })?;
                if let Some(roll) = &rolled {
                    luck += luck_of(&position, &reading, roll)?;
                }
                position.play_checked(&turn, rolled.as_ref())?;
            }
        }
        ply += 1;
        turns += 1;
    }
}

/// Where a turn's luck is read from, chosen before the roll (so that the choice cannot lean on
/// the roll, and the luck's mean stays zero).
enum LuckReading {
    /// Not taken out.
    None,
    /// A table of the outcomes apart from the players' search (`None` where it does not list
    /// them all).
    Table(Option<LuckTable>),
    /// The players' own search before the roll (one turn deep), which also gives their turn
    /// after each outcome, and its table.
    Searched(SearchReport, Option<LuckTable>),
}

impl LuckReading {
    /// How the luck of the roll the side to move in `position` is about to make is read: not at
    /// all unless the rollout takes luck out. Players one turn deep read it from the variant's
    /// quick reading where it has one (a search before the roll costs them as much as many
    /// turns after it: dicechess3's 56 outcomes some 14 times one), else from their own search
    /// before the roll, which then also gives their turn. Deeper players read it from a search
    /// one turn deep before the roll on a table of its own ([`LuckTable::searched`]), which
    /// costs them little, and search their turn as without.
    fn before_roll(
        position: &GameHandle,
        settings: &RolloutSettings,
        tables: Tables<'_>,
    ) -> Result<LuckReading, Error> {
        if !settings.luck_adjusted || position.dice_left().is_some() || position.end().is_some() {
            return Ok(LuckReading::None);
        }
        if settings.depth > 1 {
            return Ok(LuckReading::Table(LuckTable::searched(position, tables.luck)));
        }
        let quick = position.outcome_worths();
        if !quick.is_empty() {
            return Ok(LuckReading::Table(LuckTable::of_worths(&quick)));
        }
        let limits = Limits { depth: Some(1), ..Limits::default() };
        let before =
            position.search(&SearchRoot::Decision, limits, SearchOptions::default(), tables.players, &mut |_| {})?;
        let table = LuckTable::of(&before);
        Ok(LuckReading::Searched(before, table))
    }

    fn table(&self) -> Option<&LuckTable> {
        match self {
            LuckReading::None => None,
            LuckReading::Table(table) | LuckReading::Searched(_, table) => table.as_ref(),
        }
    }

    /// The turn after `roll` where the reading is the players' own search.
    fn searched_turn(&self, roll: &Roll) -> Result<Option<String>, Error> {
        match self {
            LuckReading::Searched(_, Some(table)) => Ok(table.best(roll)?.map(str::to_string)),
            _ => Ok(None),
        }
    }
}

/// A game cut short, valued by a search where it stands: the expected result for `chooser`.
fn valued(
    position: &GameHandle,
    chooser: crate::Color,
    settings: &RolloutSettings,
    shared: &Shared,
) -> Result<f64, Error> {
    let limits = Limits { depth: Some(settings.depth), ..Limits::default() };
    let result = position.search(&SearchRoot::Decision, limits, SearchOptions::default(), shared, &mut |_| {})?;
    let (wins, draws, _) = result.wdl();
    let for_mover = (f64::from(wins) + f64::from(draws) / 2.0) / 1000.0;
    Ok(if position.side_to_move() == chooser { for_mover } else { 1.0 - for_mover })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_estimate_is_the_mean_and_the_normal_interval_of_its_values() {
        let e = Estimate::of([1.0, 0.0, 1.0, 0.0].into_iter());
        assert_eq!(e.mean, 0.5);
        // Sample standard deviation sqrt(1/3), over sqrt(4), times 1.96.
        assert!((e.ci95 - 1.96 * (1.0f64 / 3.0).sqrt() / 2.0).abs() < 1e-12);
        assert_eq!(Estimate::of([0.75].into_iter()), Estimate { mean: 0.75, ci95: 0.0 });
        assert_eq!(Estimate::of(std::iter::empty()).mean, 0.0);
    }
}
