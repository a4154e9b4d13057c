//! Alea's engine, in layers, each using only those below it (docs/architecture.md):
//!
//! - [`board`]: the 8x8 and big boards, move generation, FEN, SAN, hashing, perft;
//! - [`rules`]: each variant's dice, turns and end, and the game as states;
//! - [`eval`]: piece values, fitted tables, networks, the variants' evaluation terms;
//! - [`search`]: expectiminimax with Star1/Star2, the transposition table, time, the Die Chess
//!   solver;
//! - [`services`]: the game handle, the turn driver, analysis, luck, rollouts, bench, PGN.
//!
//! Nothing here reads or writes a text protocol: that is the front ends' work.

pub mod board;
pub mod eval;
pub mod rules;
pub mod search;
pub mod services;

pub use board::bitboard::Bitboard;
pub use board::chessmove::{Move, MoveKind};
pub use board::fen::FenError;
pub use board::movegen::{Legality, MoveList};
pub use board::piece::{Color, Piece, Role, RoleSet};
pub use board::square::Square;
pub use board::{Board, CastlingSide};
pub use rules::game::Game;
pub use rules::{ChessKind, ChessRules, GameEnd, GameError, GameResult, Position, Roll, Rules};

#[cfg(test)]
mod layers;
