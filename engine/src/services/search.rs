//! The search as front ends set it and read it, in one place: the limits and options a search is
//! given (skill included, and the evaluation it plays with: tables or a network read from a file), the transposition table and stop flag a game's searches share, what a
//! search chooses, and the defaults a protocol's options name. Front ends take these from here,
//! never from the search layer, so that the search's insides may change without them.

pub use crate::eval::NamedEval;
pub use crate::eval::nnue::Network;
pub use crate::eval::params::EvalParams;
pub use crate::search::baseline::{Baseline, PEER_CANDIDATES};
pub use crate::search::skill::{FULL as FULL_SKILL, Skill};
pub use crate::search::stack::spawn_deep;
pub use crate::search::timeman::{DEFAULT_MOVE_OVERHEAD_MS, Limits};
pub use crate::search::tt::{DEFAULT_MIB as DEFAULT_HASH_MIB, TableTooLarge};
pub use crate::search::{ChancePruning, Choice, MATE_ZONE, SearchOptions, Shared};

/// Dice drawn from a seed, alike for both games of a pair and for every run with the seed
/// (matches, rollouts and the page draw theirs so): a number below `n` (`seeded_draw`), a roll
/// among a position's outcomes by their weights (`seeded_roll`), for (seed, pair, ply).
pub use crate::rules::pairing::{draw as seeded_draw, roll as seeded_roll};
