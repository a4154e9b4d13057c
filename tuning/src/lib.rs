//! Alea's tools around the engine: game records (PGN with rolls) now; self-play, matches, SPRT
//! and parameter tuning to come. Uses the engine crate; the engine never uses this one.

pub mod pgn;
