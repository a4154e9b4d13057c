//! `bench`: fixed search suites whose node count identifies the engine's behaviour (the same on
//! every run and machine: one thread, a fresh table per position, a fixed depth) and whose speed
//! is measured in OpenBench's form, `<N> nodes <M> nps`. Each variant's registry row brings its
//! suite ([`crate::services::registry::Row::bench`]), searched here through the game handle, so a
//! new variant is benched without a word here.

use crate::board::Board;
use crate::search::timeman::Limits;
use crate::search::{Choice, SearchOptions, Shared};
use crate::services::error::Error;
use crate::services::handle::{GameHandle, RollSpec, SearchRoot};
use crate::services::registry::Variant;
use std::time::{Duration, Instant};

/// One position of a variant's suite.
#[derive(Copy, Clone, Debug)]
pub struct BenchCase {
    pub name: &'static str,
    /// FEN or DFEN; empty for the variant's start, `chess960 N` for Chess960 start number N.
    pub start: &'static str,
    /// Turns played from the start before the search (UCI).
    pub turns: &'static [&'static str],
    /// Faces rolled, or empty for a search before the roll.
    pub roll: &'static [u8],
}

/// A variant's suite and the depth it is searched to unless told otherwise.
#[derive(Copy, Clone, Debug)]
pub struct BenchSuite {
    pub depth: u32,
    pub cases: &'static [BenchCase],
}

/// A position of a suite, searched after `roll` (or before the roll when it is empty).
pub const fn case(name: &'static str, start: &'static str, roll: &'static [u8]) -> BenchCase {
    BenchCase { name, start, turns: &[], roll }
}

/// Middlegames and the start, shared by the suites.
pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
pub const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
pub const QGD: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 8";
pub const GIUOCO: &str = "r2q1rk1/ppp2ppp/2npbn2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 8";

/// What one position of a suite took.
pub struct BenchLine {
    pub name: &'static str,
    pub nodes: u64,
    pub elapsed: Duration,
    pub best: String,
    pub score: i32,
}

impl BenchCase {
    /// The game this case sets up under `variant`'s rules.
    pub fn game(&self, variant: Variant) -> Result<GameHandle, Error> {
        let turns: Vec<String> = self.turns.iter().map(|t| t.to_string()).collect();
        let (fen, chess960) = match self.start.strip_prefix("chess960 ") {
            Some(n) => {
                let n = n.parse().map_err(|_| Error::Setting(format!("'{n}' is no Chess960 number")).at(self.name))?;
                (Some(Board::chess960(n).fen()), true)
            }
            None if self.start.is_empty() => (None, false),
            None => (Some(self.start.to_string()), false),
        };
        GameHandle::setup(variant, chess960, fen.as_deref(), None, &turns).map_err(|e| Error::from(e).at(self.name))
    }

    pub fn root(&self) -> SearchRoot {
        if self.roll.is_empty() {
            SearchRoot::Decision
        } else {
            SearchRoot::Rolled(RollSpec::Faces(self.roll.to_vec()))
        }
    }
}

/// The suites of `variants` (every variant's with one when empty); naming a variant that has
/// none is refused.
pub fn suites(variants: &[Variant]) -> Result<Vec<(Variant, BenchSuite)>, Error> {
    let chosen = if variants.is_empty() { &Variant::ALL[..] } else { variants };
    let mut found = Vec::new();
    for &variant in chosen {
        let suite = variant.row().bench;
        // Die Chess is played from its exact solution: there is no search to time.
        if suite.cases.is_empty() {
            if !variants.is_empty() {
                return Err(Error::NotHere(format!(
                    "{variant} has no bench suite: it is played from its exact solution"
                )));
            }
            continue;
        }
        found.push((variant, suite));
    }
    Ok(found)
}

/// Searches each suite of `suites` to `depth` (each suite's own when `None`) with `options`, a
/// fresh 16 MiB table a position (the node count is fixed only with one thread), calling `line`
/// after each; returns the total nodes and time.
pub fn run(
    suites: &[(Variant, BenchSuite)],
    depth: Option<u32>,
    options: &SearchOptions,
    mut line: impl FnMut(&BenchLine),
) -> Result<(u64, Duration), Error> {
    let mut nodes = 0;
    let mut elapsed = Duration::ZERO;
    for (variant, suite) in suites {
        for case in suite.cases {
            let game = case.game(*variant)?;
            let limits = Limits { depth: Some(depth.unwrap_or(suite.depth)), ..Default::default() };
            let shared = Shared::new(16);
            let start = Instant::now();
            let result = game
                .search(&case.root(), limits, options.clone(), &shared, &mut |_| {})
                .map_err(|e| Error::from(e).at(case.name))?;
            let took = start.elapsed();
            nodes += result.nodes;
            elapsed += took;
            let best = match result.best {
                Choice::Turn(t) => t,
                Choice::Roll => "roll".to_string(),
            };
            line(&BenchLine { name: case.name, nodes: result.nodes, elapsed: took, best, score: result.score });
        }
    }
    Ok((nodes, elapsed))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every variant's suite sets up, and each of its rolls is one the position allows.
    #[test]
    fn every_suite_sets_up() {
        for (variant, suite) in suites(&[]).unwrap() {
            assert!(!suite.cases.is_empty() && suite.depth >= 1, "{variant}");
            for case in suite.cases {
                let game = case.game(variant).unwrap();
                if let SearchRoot::Rolled(spec) = case.root() {
                    assert!(!game.allowed_turns(&spec).unwrap().is_empty(), "{}", case.name);
                }
            }
        }
        assert!(suites(&[Variant::DieChess]).unwrap_err().to_string().contains("exact solution"));
        assert_eq!(suites(&[]).unwrap().len(), Variant::ALL.len() - 1, "every variant but diechess");
    }
}
