//! The luck of a roll, as backgammon programs measure it (GNU Backgammon's "luck" and its
//! variance reduction): before the roll, every outcome is valued for the player about to roll,
//! and the roll's luck is what its outcome is worth, as an expected result, less the outcomes'
//! mean. Its mean over the dice is exactly zero whatever the valuation's errors, so a game's
//! result less its luck keeps the result's expectation while much of what the dice did leaves it:
//! rollouts and matches measure the same thing from fewer games.

use crate::rules::dice::Roll;
use crate::search::timeman::Limits;
use crate::search::{SearchOptions, Shared};
use crate::services::error::Error;
use crate::services::handle::{GameHandle, SearchReport, SearchRoot};

/// The nodes a search for [`LuckTable::searched`] may take: a few milliseconds. Where a roll has
/// so many outcomes that it does not finish (`grand`'s 126, each a whole turn), the roll's luck
/// is not read.
pub const SEARCH_NODES: u64 = 200_000;

/// One outcome of a roll, as the luck reads it.
#[derive(Clone, Debug)]
struct OutcomeWorth {
    /// As the rules list it (the form the rolls are drawn in: sorted where the dice are alike,
    /// in order where they are not).
    roll: Roll,
    probability: f64,
    /// What the outcome is worth to the mover, an expected result.
    worth: f64,
    /// The best turn after it, where a search valued it.
    best: Option<String>,
}

/// Every outcome of a roll with what it is worth to the mover (an expected result) and, from a
/// search before the roll, the best turn after it: a roll's luck is its outcome's worth less
/// the outcomes' mean, which is zero over the dice.
#[derive(Clone, Debug)]
pub struct LuckTable {
    outcomes: Vec<OutcomeWorth>,
    /// The outcomes' mean worth.
    mean: f64,
}

impl LuckTable {
    /// The table of a search before the roll, if it lists every outcome.
    pub fn of(search: &SearchReport) -> Option<LuckTable> {
        let outcomes = search
            .outcomes
            .iter()
            .map(|o| OutcomeWorth {
                roll: o.roll,
                probability: o.probability,
                worth: o.value.unwrap_or_else(|| {
                    let (w, d, _) = search.wdl_of(o.score);
                    (f64::from(w) + f64::from(d) / 2.0) / 1000.0
                }),
                best: Some(o.best.clone()),
            })
            .collect();
        LuckTable::with_mean(outcomes)
    }

    /// The table of [`GameHandle::outcome_worths`] (no turns), if it lists every outcome.
    pub fn of_worths(worths: &[(Roll, f64, f64)]) -> Option<LuckTable> {
        let outcomes = worths
            .iter()
            .map(|(roll, p, worth)| OutcomeWorth { roll: *roll, probability: *p, worth: *worth, best: None })
            .collect();
        LuckTable::with_mean(outcomes)
    }

    fn with_mean(outcomes: Vec<OutcomeWorth>) -> Option<LuckTable> {
        let total: f64 = outcomes.iter().map(|o| o.probability).sum();
        if outcomes.is_empty() || (total - 1.0).abs() > 1e-9 {
            return None;
        }
        let mean = outcomes.iter().map(|o| o.probability * o.worth).sum::<f64>() / total;
        Some(LuckTable { outcomes, mean })
    }

    fn row(&self, roll: &Roll) -> Result<&OutcomeWorth, Error> {
        self.outcomes
            .iter()
            .find(|o| o.roll == *roll)
            .ok_or_else(|| Error::NotHere(format!("the roll {roll} is not among the outcomes")))
    }

    /// The luck of `roll` for the mover, as an expected result.
    pub fn luck(&self, roll: &Roll) -> Result<f64, Error> {
        Ok(self.row(roll)?.worth - self.mean)
    }

    /// The best turn after `roll` (as the search after it would answer it), where a search
    /// made the table.
    pub fn best(&self, roll: &Roll) -> Result<Option<&str>, Error> {
        Ok(self.row(roll)?.best.as_deref())
    }

    /// The mean luck over the outcomes, by their probabilities: zero but for rounding.
    pub fn mean_luck(&self) -> f64 {
        self.outcomes.iter().map(|o| o.probability * (o.worth - self.mean)).sum()
    }
}

impl LuckTable {
    /// Every outcome valued by a search one turn deep before the roll in `position` (at most
    /// [`SEARCH_NODES`], on `shared`'s table): `None` where the search does not value them all
    /// (stopped, or a decision the table's search does not list), or the game is over.
    pub fn searched(position: &GameHandle, shared: &Shared) -> Option<LuckTable> {
        if position.end().is_some() || position.dice_left().is_some() {
            return None;
        }
        let limits = Limits { depth: Some(1), nodes: Some(SEARCH_NODES), ..Limits::default() };
        let before =
            position.search(&SearchRoot::Decision, limits, SearchOptions::default(), shared, &mut |_| {}).ok()?;
        (before.depth >= 1).then(|| LuckTable::of(&before)).flatten()
    }
}
