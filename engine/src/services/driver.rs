//! The turn driver: the one way a player's turn is played by the engine, for every front end
//! and every variant. It thinks before the roll (the pre-roll options against rolling), rolls
//! when the engine rolls its own dice, and thinks again after the roll, splitting one time
//! budget between the two searches; what happens is told through [`TurnEvent`]s.

use crate::rules::dice::Roll;
use crate::search::skill::Skill;
use crate::search::timeman::{Limits, TimeBudget};
use crate::search::{Choice, SearchOptions, Shared};
use crate::services::error::Error;
use crate::services::handle::{GameHandle, RollSpec, SearchReport, SearchRoot};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// What the engine is asked to do on its turn.
#[derive(Clone, Debug)]
pub struct TurnRequest {
    /// Where the turn stands: before the roll (or in a turn in progress), after a given roll, or
    /// among given turns only.
    pub root: SearchRoot,
    /// Roll the dice ourselves when rolling is chosen, and play the turn.
    pub engine_rolls: bool,
    /// Before the roll with nothing to weigh, search anyway (for the outcome table) rather than
    /// answer `roll` at once.
    pub search_forced_roll: bool,
    pub limits: Limits,
    pub options: SearchOptions,
    /// Below full strength ([`crate::search::skill`]): the depth capped and each choice drawn among the
    /// best few.
    pub skill: Option<Skill>,
}

/// What the driver tells while it works.
#[derive(Debug)]
pub enum TurnEvent<'a> {
    /// A search iteration completed.
    Iteration(&'a SearchReport),
    /// A search ended with this result.
    Searched(&'a SearchReport),
    /// The search before the roll ended: its outcome table.
    Outcomes(&'a SearchReport),
    /// The engine rolled its dice.
    Rolled(Roll),
}

/// Where the driver's events go.
type Events<'e> = dyn FnMut(TurnEvent<'_>) + Send + 'e;

/// One search of the turn: its root and limits, the events it tells.
type SearchFn<'s> = dyn FnMut(&SearchRoot, Limits, &mut Events<'_>) -> Result<SearchReport, Error> + 's;

/// What the engine plays: a turn (UCI text, `0000` for a pass), or `roll` (roll, then ask again).
pub type TurnAnswer = String;

/// Plays the engine's turn in `handle`'s position. `pick(total)` gives a number below `total`
/// for the engine's roll. Refuses (with the reason) a roll or turns the position does not allow.
pub fn play_turn(
    handle: &GameHandle,
    request: TurnRequest,
    shared: &Shared,
    pick: &mut dyn FnMut(u32) -> u32,
    events: &mut (dyn FnMut(TurnEvent<'_>) + Send),
) -> Result<TurnAnswer, Error> {
    let TurnRequest { root, engine_rolls, search_forced_roll, limits, mut options, skill } = request;
    let mut limits = over_game_turns(handle, limits);
    if let Some(skill) = skill {
        limits = skill.limits(&limits);
        options.multipv = options.multipv.max(skill.candidates());
    }
    let mut search = |root: &SearchRoot, limits: Limits, events: &mut Events<'_>| {
        let mut result =
            handle.search(root, limits, options.clone(), shared, &mut |r| events(TurnEvent::Iteration(r)))?;
        if let Some(skill) = skill {
            // The decision before the roll and the move after it draw apart.
            let salt = u64::from(matches!(root, SearchRoot::Rolled(_)));
            result.best = skill.choose(&result, salt);
        }
        events(TurnEvent::Searched(&result));
        Ok::<_, Error>(result)
    };
    match root {
        SearchRoot::Rolled(spec) => {
            let limits = turn_part_limits(handle, false, &limits);
            after_roll(handle, &spec, limits, &mut search, events)
        }
        SearchRoot::Only { roll, turns } => {
            if turns.is_empty() {
                return Err(Error::Setting("no move is allowed here".into()));
            }
            Ok(choice_text(search(&SearchRoot::Only { roll, turns }, limits, events)?.best))
        }
        SearchRoot::Decision => {
            if handle.dice_left().is_some() {
                // A turn in progress: its dice are known, only the rest of the turn is to choose.
                return Ok(choice_text(search(&SearchRoot::Decision, limits, events)?.best));
            }
            let forced_roll = handle.pre_roll_turns().is_empty();
            if forced_roll && !engine_rolls && !search_forced_roll {
                return Ok("roll".into());
            }
            let budget = TimeBudget::new(&limits);
            // Rolling ourselves leaves the move to choose after the roll: the decision before it
            // gets a third of the time.
            let decision_limits =
                if engine_rolls { share_of(&limits, &budget, 3) } else { part_limits(!forced_roll, true, &limits) };
            let decision = if forced_roll && engine_rolls {
                Choice::Roll
            } else {
                let result = search(&SearchRoot::Decision, decision_limits, events)?;
                events(TurnEvent::Outcomes(&result));
                result.best
            };
            match decision {
                Choice::Turn(t) => Ok(t),
                Choice::Roll if !engine_rolls => Ok("roll".into()),
                Choice::Roll => {
                    let roll = handle
                        .roll_for(pick(handle.total_weight()))
                        .ok_or(Error::NoAnswer("nothing to roll".into()))?;
                    events(TurnEvent::Rolled(roll));
                    let move_limits = if shared.stop.load(Ordering::Relaxed) {
                        // Stopped already: a one-turn look, so the answer comes at once.
                        shared.stop.store(false, Ordering::Relaxed);
                        Limits { depth: Some(1), ..Default::default() }
                    } else {
                        remaining(&limits, &budget)
                    };
                    let answer =
                        after_roll(handle, &RollSpec::Faces(roll.faces().to_vec()), move_limits, &mut search, events)?;
                    // Our own roll is part of the turn where the game records it with the move.
                    Ok(handle.turn_with_roll(&answer, &roll))
                }
            }
        }
    }
}

/// The turn after a roll: a pass at once when it allows nothing, else the search's choice.
fn after_roll(
    handle: &GameHandle,
    spec: &RollSpec,
    limits: Limits,
    search: &mut SearchFn<'_>,
    events: &mut Events<'_>,
) -> Result<TurnAnswer, Error> {
    if let RollSpec::Faces(_) = spec
        && handle.first_moves(spec)? == ["0000"]
    {
        return Ok("0000".into());
    }
    Ok(choice_text(search(&SearchRoot::Rolled(spec.clone()), limits, events)?.best))
}

fn choice_text(choice: Choice<String>) -> String {
    match choice {
        Choice::Turn(t) => t,
        Choice::Roll => "roll".into(),
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

/// The limits of one of a turn's searches when the GUI rolls: it gives its clock to each search
/// (the decision before the roll, then, in the next `go`, the move after it, with the clock as
/// it then stands), so where the position has options before the roll the decision sees a third
/// of the clock and of the increment and the move after the roll two thirds: each plans that
/// part of a turn's share, and the two together one turn's, not two. A turn with nothing to
/// decide before the roll keeps the whole; so do limits without a clock.
pub fn turn_part_limits(handle: &GameHandle, before_roll: bool, limits: &Limits) -> Limits {
    let two_searches = handle.dice_left().is_none() && !handle.pre_roll_turns().is_empty();
    part_limits(two_searches, before_roll, limits)
}

/// [`turn_part_limits`] where it is known whether the turn has two searches.
fn part_limits(two_searches: bool, before_roll: bool, limits: &Limits) -> Limits {
    let (num, den) = match (two_searches, before_roll) {
        (false, _) => return limits.clone(),
        (true, true) => (1, 3),
        (true, false) => (2, 3),
    };
    match limits.time {
        Some(time) => Limits {
            time: Some((time / den).saturating_mul(num)),
            increment: (limits.increment / den).saturating_mul(num),
            ..limits.clone()
        },
        None => limits.clone(),
    }
}

/// The limits with the clock shared over the turns the variant's games have left
/// ([`GameHandle::clock_turns`]), or over the GUI's `movestogo` where that is sooner; as they
/// are for a variant without its own estimate.
pub fn over_game_turns(handle: &GameHandle, limits: Limits) -> Limits {
    match handle.clock_turns() {
        Some(turns) => {
            let turns = u64::from(turns);
            Limits { movestogo: Some(limits.movestogo.map_or(turns, |gui| gui.min(turns))), ..limits }
        }
        None => limits,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::services::registry::Variant;

    /// A variant whose games end early shares the clock over its own estimate of the turns
    /// left (dicechess3: 8), or the GUI's `movestogo` where sooner; Freedom keeps the chess plan.
    #[test]
    fn a_clock_is_shared_over_the_variants_turns_left() {
        let clock = Limits { time: Some(80_000), ..Default::default() };
        let dicechess3 = GameHandle::of(Variant::DiceChess3, false).expect("dicechess3");
        let planned = over_game_turns(&dicechess3, clock.clone());
        assert_eq!(planned.movestogo, Some(8));
        assert_eq!(TimeBudget::new(&planned).soft, Some(Duration::from_millis(10_000)));
        let sooner = Limits { movestogo: Some(4), ..clock.clone() };
        assert_eq!(over_game_turns(&dicechess3, sooner).movestogo, Some(4));
        let later = Limits { movestogo: Some(30), ..clock.clone() };
        assert_eq!(over_game_turns(&dicechess3, later).movestogo, Some(8));
        let freedom = GameHandle::of(Variant::Freedom, false).expect("freedom");
        assert_eq!(over_game_turns(&freedom, clock.clone()), clock);
        assert_eq!(TimeBudget::new(&clock).soft, Some(Duration::from_millis(2_000)));
    }

    /// Where Freedom has moves before the roll, its two searches share one turn's clock: a third
    /// for the decision, two thirds for the move; classic (nothing before the roll) and fixed
    /// move times keep the whole.
    #[test]
    fn a_turn_of_two_searches_shares_one_turns_time() {
        let clock = Limits { time: Some(60_000), increment: 600, ..Default::default() };
        let budget = |l: &Limits| TimeBudget::new(l);
        // After 1.e4 d5 White may take on d5 without rolling: two searches this turn.
        let freedom = GameHandle::setup(Variant::Freedom, false, None, None, &["e2e4".into(), "d7d5".into()]).unwrap();
        assert!(!freedom.pre_roll_turns().is_empty());
        let whole = budget(&clock);
        let before = turn_part_limits(&freedom, true, &clock);
        assert_eq!((before.time, before.increment), (Some(20_000), 200));
        let after = turn_part_limits(&freedom, false, &clock);
        assert_eq!((after.time, after.increment), (Some(40_000), 400));
        let (soft, parts) = (whole.soft.unwrap(), budget(&before).soft.unwrap() + budget(&after).soft.unwrap());
        assert!(parts <= soft && parts * 100 >= soft * 99, "{parts:?} against one turn's {soft:?}");
        // Even at their hard limits the two leave the clock well alive.
        let hard = budget(&before).hard.unwrap() + budget(&after).hard.unwrap();
        assert!(hard <= Duration::from_millis(60_000) * 2 / 3, "{hard:?}");
        let classic = GameHandle::setup(Variant::Classic, false, None, None, &[]).unwrap();
        assert!(classic.pre_roll_turns().is_empty());
        assert_eq!(turn_part_limits(&classic, false, &clock), clock);
        let fixed = Limits { movetime: Some(100), ..Default::default() };
        assert_eq!(turn_part_limits(&freedom, true, &fixed), fixed);
    }
}
