//! Piece values per variant, in centipawns: data the evaluation reads and the tuning work can
//! replace (`PieceValues::parse` reads the text `to_text` writes), not constants spread through
//! the code.

use crate::board::piece::Role;
use std::fmt::Write;

/// What each role is worth, indexed by [`Role::index`]. Kings count only where they can be
/// captured; there both sides have one until the game ends, so their value orders captures
/// rather than changing the balance.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct PieceValues(pub [i32; 6]);

impl PieceValues {
    #[inline]
    pub fn of(&self, role: Role) -> i32 {
        self.0[role.index()]
    }

    /// `P 100 N 200 B 300 R 400 Q 650 K 0`.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for role in Role::ALL {
            if !out.is_empty() {
                out.push(' ');
            }
            write!(out, "{} {}", role.char().to_ascii_uppercase(), self.of(role)).unwrap();
        }
        out
    }

    /// Reads the form [`PieceValues::to_text`] writes; every role once, values 0..=10000.
    pub fn parse(text: &str) -> Result<PieceValues, ValuesError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.len() != 12 {
            return Err(ValuesError(format!("piece values need six 'LETTER VALUE' pairs, got {:?}", text.trim())));
        }
        let mut values = [None; 6];
        for pair in words.chunks(2) {
            let role = pair[0]
                .chars()
                .next()
                .filter(|_| pair[0].len() == 1)
                .and_then(Role::from_char)
                .ok_or_else(|| ValuesError(format!("'{}' is not a piece letter", pair[0])))?;
            let value: i32 = pair[1]
                .parse()
                .ok()
                .filter(|v| (0..=10_000).contains(v))
                .ok_or_else(|| ValuesError(format!("'{}' is not a value from 0 to 10000", pair[1])))?;
            if values[role.index()].replace(value).is_some() {
                return Err(ValuesError(format!("{} is given twice", pair[0])));
            }
        }
        Ok(PieceValues(values.map(|v| v.expect("six distinct roles"))))
    }
}

/// Why a text of piece values was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ValuesError(pub String);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_bad_text_is_refused() {
        for v in [PieceValues([100, 200, 300, 400, 650, 0]), PieceValues([100, 300, 300, 500, 900, 2000])] {
            assert_eq!(PieceValues::parse(&v.to_text()).unwrap(), v);
        }
        assert_eq!(PieceValues([100, 200, 300, 400, 650, 0]).to_text(), "P 100 N 200 B 300 R 400 Q 650 K 0");
        for bad in [
            "",
            "P 100",
            "P 100 N 200 B 300 R 400 Q 650 Q 0",
            "P x N 200 B 300 R 400 Q 650 K 0",
            "Z 1 N 2 B 3 R 4 Q 5 K 6",
        ] {
            assert!(PieceValues::parse(bad).is_err(), "{bad}");
        }
    }
}
