//! Alea's tools around the engine: matches between players with paired dice and their
//! statistics (SPRT); self-play data, the fit of the evaluation to it, and the report on both.
//! Uses the engine crate (whose `pgn` and `pairing` hold the game records and the paired dice);
//! the engine never uses this one.

pub mod datafile;
pub mod datagen;
pub mod fit;
pub mod match_compare;
pub mod match_file;
pub mod match_runner;
pub mod nnue_train;
pub mod players;
pub mod referee;
pub mod report;
pub mod reported_scores;
pub mod search_note;
pub mod shard;
pub mod sprt;
