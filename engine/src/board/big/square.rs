//! Squares of a board up to 12x12: files `a`-`l`, ranks `1`-`12`, as indices into the padded
//! 16x16 array of [`super::BigBoard`].

use std::fmt;

/// Files and ranks of the largest board.
pub const MAX_SIDE: u8 = 12;
/// Width of the padded array: the board plus a border two squares wide on each side.
pub const STRIDE: u8 = 16;
/// Cells in the padded array.
pub const CELLS: usize = STRIDE as usize * STRIDE as usize;

/// A square on the playing area (file and rank from 0), stored as its padded index.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct BigSquare(u8);

impl BigSquare {
    /// The square of `file` and `rank` (from 0; both under [`MAX_SIDE`]).
    #[inline]
    pub const fn new(file: u8, rank: u8) -> BigSquare {
        debug_assert!(file < MAX_SIDE && rank < MAX_SIDE);
        BigSquare((rank + 2) * STRIDE + file + 2)
    }

    /// The square at padded index `index`, which must be on a playing area of `MAX_SIDE`.
    #[inline]
    pub const fn from_index(index: u8) -> BigSquare {
        BigSquare(index)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % STRIDE - 2
    }

    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / STRIDE - 2
    }

    /// The square named `text` (`a1` .. `l12`) on a board of `files` x `ranks`, if it is one.
    pub fn parse(text: &str, files: u8, ranks: u8) -> Option<BigSquare> {
        let mut chars = text.chars();
        let file = chars.next()?;
        let digits = chars.as_str();
        if !file.is_ascii_lowercase() || digits.is_empty() || digits.len() > 2 || digits.starts_with('0') {
            return None;
        }
        let file = file as u8 - b'a';
        let rank: u8 = digits.parse().ok()?;
        (file < files && (1..=ranks).contains(&rank)).then(|| BigSquare::new(file, rank - 1))
    }
}

impl fmt::Display for BigSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_name_their_file_and_rank() {
        for file in 0..MAX_SIDE {
            for rank in 0..MAX_SIDE {
                let sq = BigSquare::new(file, rank);
                assert_eq!((sq.file(), sq.rank()), (file, rank));
                assert_eq!(BigSquare::parse(&sq.to_string(), 12, 12), Some(sq));
            }
        }
        assert_eq!(BigSquare::new(0, 9).to_string(), "a10");
        assert_eq!(BigSquare::parse("l12", 12, 12), Some(BigSquare::new(11, 11)));
        for bad in ["", "a", "a0", "a13", "m1", "k1", "a11", "a01", "A1", "a1x", "a100"] {
            assert_eq!(BigSquare::parse(bad, 10, 10), None, "{bad}");
        }
        assert!(BigSquare::parse("j10", 10, 10).is_some());
        assert!(BigSquare::parse("k10", 10, 10).is_none());
    }
}
