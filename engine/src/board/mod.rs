//! The board layer: squares, pieces and moves; the 8x8 bitboard board and its move generator,
//! the big (10x10, 12x12) mailbox board and its own; what a board of micro-moves must answer
//! ([`micro_board::MicroBoard`]); FEN, SAN, hashing, perft and static exchange. It knows no dice,
//! no variant and no search: everything above is built on it.

pub mod attacks;
pub mod big;
pub mod bitboard;
pub mod checksum;
pub mod chessboard;
pub mod chessmove;
pub mod cycles;
pub mod fen;
pub mod micro_board;
pub mod movegen;
pub mod perft;
pub mod piece;
pub mod san;
pub mod see;
pub mod square;
pub mod values;
pub mod zobrist;

pub use chessboard::*;
