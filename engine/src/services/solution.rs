//! Solved games as `alea solve`, `--solution` and the protocol's table option see them, whatever
//! the game: a registry row names its game's [`Solver`] (solving it, reading its table, making
//! the engine play from it), and a [`Table`] answers what `alea solve` reports — the start's
//! value and first decision, games of the table against itself, positions it finds close, and
//! the loss of a search of a given depth against it.

use crate::eval::data::DataError;
use crate::eval::{Evaluated, Evaluator};
use crate::rules::one_turn::OneTurnRules;
use crate::rules::solvable::Solvable;
use crate::search::solve::{self, Decision, Solution};
use std::fmt;

pub use crate::search::solve::{SearchLoss, SelfPlay};

/// One solved game's table.
pub trait Table: Send {
    /// Sweeps the solve made, and the largest change of its last one.
    fn sweeps(&self) -> u32;
    fn last_change(&self) -> f64;
    /// States that could occur (the table's entries that mean something).
    fn possible_states(&self) -> usize;
    /// The start's first decision (`roll`, or the turn as the protocol writes it) and its value
    /// for White (a win counted 1, a draw 1/2).
    fn start(&self) -> (String, f64);
    /// The table as the engine reads it back ([`Solver::read_from`]).
    fn write_to(&self, out: &mut Vec<u8>) -> std::io::Result<()>;
    /// `games` games of the table against itself from the start, the dice from `seed`.
    fn self_play(&self, games: u32, seed: u64) -> SelfPlay;
    /// `count` positions (FENs) the table does not value at a draw, drawn from `seed`.
    fn undecided(&self, count: usize, seed: u64) -> Vec<String>;
    /// What the search `depth` turns deep gives up against the table at those positions.
    fn search_loss(&self, count: usize, seed: u64, depth: u32) -> SearchLoss;
    /// Makes this the table the engine plays its game from.
    fn install(self: Box<Self>);
}

/// A game solved exactly, as its registry row names it.
pub trait Solver: Send + Sync {
    /// Solves the game until a sweep changes no value by more than `tolerance`, on `threads`
    /// threads, telling `progress` each sweep's number and largest change.
    fn solve(&self, tolerance: f64, threads: usize, progress: &mut dyn FnMut(u32, f64)) -> Box<dyn Table>;
    /// Do these bytes begin as this game's table does?
    fn claims(&self, bytes: &[u8]) -> bool;
    /// Reads a table [`Table::write_to`] wrote, refusing a damaged, truncated or foreign one.
    fn read_from(&self, bytes: &[u8]) -> Result<Box<dyn Table>, DataError>;
    /// Makes ready the table the engine plays from (read from the cache, or solved there), now
    /// rather than at the first search.
    fn prepare(&self);
}

/// The solver of a game its rules number ([`Solvable`]).
pub struct Exact<G>(pub G);

/// A solved game that is also played and searched (its text, and its positions' evaluation for
/// the search measured against the table).
pub trait Played:
    Solvable<Position: Evaluated<Eval: Evaluator<Self>> + fmt::Debug + Send + Sync, Turn: Send + Sync> + OneTurnRules
{
}

impl<G> Played for G where
    G: Solvable<Position: Evaluated<Eval: Evaluator<G>> + fmt::Debug + Send + Sync, Turn: Send + Sync> + OneTurnRules
{
}

impl<G> fmt::Debug for Exact<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Exact")
    }
}

impl<G: Played> Table for Solution<G> {
    fn sweeps(&self) -> u32 {
        self.sweeps
    }

    fn last_change(&self) -> f64 {
        self.last_change
    }

    fn possible_states(&self) -> usize {
        Solution::possible_states(self)
    }

    fn start(&self) -> (String, f64) {
        let start = self.rules().start_position();
        let (decision, value) = self.best_decision(&start);
        let first = match decision {
            Decision::Roll => "roll".to_string(),
            Decision::Turn(turn) => self.rules().turn_to_uci(turn),
        };
        (first, value)
    }

    fn write_to(&self, out: &mut Vec<u8>) -> std::io::Result<()> {
        Solution::write_to(self, out)
    }

    fn self_play(&self, games: u32, seed: u64) -> SelfPlay {
        solve::self_play(self, &self.rules().start_position(), games, seed)
    }

    fn undecided(&self, count: usize, seed: u64) -> Vec<String> {
        solve::undecided_positions(self, count, seed).iter().map(|p| self.rules().fen(p)).collect()
    }

    fn search_loss(&self, count: usize, seed: u64, depth: u32) -> SearchLoss {
        solve::search_loss(self, &solve::undecided_positions(self, count, seed), depth)
    }

    fn install(self: Box<Self>) {
        solve::install_table(*self);
    }
}

impl<G: Played> Solver for Exact<G> {
    fn solve(&self, tolerance: f64, threads: usize, progress: &mut dyn FnMut(u32, f64)) -> Box<dyn Table> {
        Box::new(Solution::solve(self.0.clone(), tolerance, threads, progress))
    }

    fn claims(&self, bytes: &[u8]) -> bool {
        Solution::<G>::claims(bytes)
    }

    fn read_from(&self, bytes: &[u8]) -> Result<Box<dyn Table>, DataError> {
        Ok(Box::new(Solution::read_from(self.0.clone(), bytes)?))
    }

    fn prepare(&self) {
        solve::shared_table(&self.0);
    }
}
