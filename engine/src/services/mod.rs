//! The services layer: what front ends use, built on the rules, the evaluation and the search.
//! The game handle ([`handle::GameHandle`]) speaks any variant as text; the turn driver plays an
//! engine's turn; analysis, luck, rollouts, the bench
//! suites and PGN are each one service over it.

pub mod advice;
pub mod analysis;
pub mod bench;
pub mod driver;
pub mod error;
pub mod game;
pub mod handle;
pub mod luck;
pub mod micro_game;
pub mod one_turn;
pub mod pgn;
pub mod registry;
pub mod rollout;
pub mod search;
pub mod selfplay;
pub mod solution;
