//! Squares of the 8x8 board, numbered a1 = 0 .. h8 = 63 (little-endian rank-file),
//! the numbering shakmaty and Polyglot use.

use std::fmt;

/// A square of the 8x8 board.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

impl Square {
    pub const A1: Square = Square(0);
    pub const C1: Square = Square(2);
    pub const D1: Square = Square(3);
    pub const E1: Square = Square(4);
    pub const F1: Square = Square(5);
    pub const G1: Square = Square(6);
    pub const H1: Square = Square(7);
    pub const A8: Square = Square(56);
    pub const E8: Square = Square(60);
    pub const H8: Square = Square(63);

    /// The square with this index; `index` must be below 64.
    #[inline]
    pub const fn new(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index & 63)
    }

    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Square {
        Square::new(rank * 8 + file)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0 (a) to 7 (h).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Rank 0 (first) to 7 (eighth).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The square `delta` steps along the index (8 = one rank up); the caller keeps it on the board.
    #[inline]
    pub const fn offset(self, delta: i8) -> Square {
        Square::new((self.0 as i8 + delta) as u8)
    }

    /// Parses `e4`-style names.
    pub fn parse(text: &str) -> Option<Square> {
        match text.as_bytes() {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(Square::from_coords(f - b'a', r - b'1')),
            _ => None,
        }
    }

    #[inline]
    pub(crate) fn to_shakmaty(self) -> shakmaty::Square {
        shakmaty::Square::new(u32::from(self.0))
    }

    #[inline]
    pub(crate) fn from_shakmaty(sq: shakmaty::Square) -> Square {
        Square(u32::from(sq) as u8)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, (b'1' + self.rank()) as char)
    }
}
