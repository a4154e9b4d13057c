//! Boards larger than 8x8 (up to 12x12), for `brainking10` (10x10) and `grand` (12x12). A 64-bit
//! set cannot hold them, so this board is a mailbox: a 16x16 array with a border two squares wide
//! around the playing area, where a knight's jump or a slider's step off the board lands on a
//! border cell (the 0x88 idea, widened). Both variants capture kings instead of checking them, so
//! the move generator is pseudo-legal; several kings a side are allowed. The fast 8x8 board
//! ([`crate::board`]) is untouched.

pub mod board;
pub mod micro_board;
pub mod movegen;
pub mod perft;
pub mod san;
pub mod square;

pub use board::{BigBoard, BigSpec};
pub use movegen::{BigMove, BigMoveList};
pub use square::BigSquare;
