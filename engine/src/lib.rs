//! Alea's engine: the 8x8 board and its move generator, the dice rules of each variant, and
//! (built on them) evaluation and search. Nothing here reads or writes text protocols.

pub mod analysis;
pub mod attacks;
pub mod bench;
pub mod big;
pub mod bitboard;
pub mod board;
pub mod checksum;
pub mod chessmove;
pub mod cycles;
pub mod fen;
pub mod free_checks;
pub mod movegen;
pub mod nnue;
pub mod perft;
pub mod piece;
pub mod square;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::{Board, CastlingSide};
pub use chessmove::{Move, MoveKind};
pub use fen::FenError;
pub use movegen::{Legality, MoveList};
pub use piece::{Color, Piece, Role, RoleSet};
pub use square::Square;
pub mod driver;
pub mod game;
pub mod handle;
pub mod lone_king;
pub mod luck;
pub mod micro_game;
pub mod one_turn;
pub mod pairing;
pub mod pgn;
pub mod rollout;
pub mod rules;

pub use game::{Game, GameError};
pub use rules::{GameEnd, GameResult, Position, Roll, Rules, Variant, VariantKind};
pub mod eval;
pub mod params;
pub mod san;
pub mod search;
pub mod see;
pub mod skill;
pub mod solve;
pub mod states;
pub mod timeman;
pub mod tt;
pub mod values;
