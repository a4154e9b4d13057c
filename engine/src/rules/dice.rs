//! Dice: a roll (the faces shown, sorted), the outcomes of a roll with their probabilities.

use arrayvec::ArrayVec;
use std::fmt;

/// Most dice any variant rolls at once (Grand Dice Chess rolls four).
pub const MAX_DICE: usize = 4;

/// Most distinct outcomes of one roll (four dice: 126 multisets).
pub const MAX_OUTCOMES: usize = 128;

/// The faces shown by one roll, sorted ascending (the order of dice does not matter in any
/// variant: `3 5` and `5 3` are one outcome).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Roll {
    faces: [u8; MAX_DICE],
    len: u8,
}

/// Why a roll was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RollError {
    /// A face outside 1..=6, or a word that is not a number.
    BadFace(String),
    /// No faces at all, or more than any variant rolls.
    BadLength(usize),
    /// The variant rolls `expected` dice.
    WrongCount { expected: usize, got: usize },
}

impl fmt::Display for RollError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RollError::BadFace(face) => write!(f, "die face {face:?} is not 1 to 6"),
            RollError::BadLength(n) => write!(f, "a roll has 1 to {MAX_DICE} dice, not {n}"),
            RollError::WrongCount { expected, got } => {
                let dice = if *expected == 1 { "die" } else { "dice" };
                let faces = if *got == 1 { "face was" } else { "faces were" };
                write!(f, "this variant rolls {expected} {dice}, but {got} {faces} given")
            }
        }
    }
}

impl std::error::Error for RollError {}

impl Roll {
    /// A roll of the given faces (each 1..=6), in any order.
    pub fn new(faces: &[u8]) -> Result<Roll, RollError> {
        if faces.is_empty() || faces.len() > MAX_DICE {
            return Err(RollError::BadLength(faces.len()));
        }
        if let Some(bad) = faces.iter().find(|f| !(1..=6).contains(*f)) {
            return Err(RollError::BadFace(bad.to_string()));
        }
        let mut sorted = [0; MAX_DICE];
        sorted[..faces.len()].copy_from_slice(faces);
        sorted[..faces.len()].sort_unstable();
        Ok(Roll { faces: sorted, len: faces.len() as u8 })
    }

    /// One die showing `face` (1..=6).
    pub fn single(face: u8) -> Roll {
        Roll::new(&[face]).expect("a face from 1 to 6")
    }

    /// Parses faces written as separate words (`3 5`) or run together (`35`).
    pub fn parse(words: &[&str]) -> Result<Roll, RollError> {
        let mut faces = Vec::new();
        for word in words {
            for c in word.chars() {
                match c.to_digit(10) {
                    Some(d @ 1..=6) => faces.push(d as u8),
                    _ => return Err(RollError::BadFace(word.to_string())),
                }
            }
        }
        Roll::new(&faces)
    }

    #[inline]
    pub fn faces(&self) -> &[u8] {
        &self.faces[..self.len as usize]
    }

    #[inline]
    pub fn dice(&self) -> usize {
        self.len as usize
    }

    /// Two or more dice all showing the same face.
    #[inline]
    pub fn is_doubles(&self) -> bool {
        self.len > 1 && self.faces().iter().all(|&f| f == self.faces[0])
    }
}

impl fmt::Display for Roll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, face) in self.faces().iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{face}")?;
        }
        Ok(())
    }
}

/// One outcome of a roll and its probability. The probability is also kept as an integer
/// weight (out of the sum of the list's weights) so that expected values can be computed
/// exactly, in any order.
#[derive(Copy, Clone, PartialEq, Debug)]
pub struct Outcome {
    pub roll: Roll,
    pub probability: f64,
    pub weight: u32,
}

/// The outcomes of one roll.
pub type OutcomeList = ArrayVec<Outcome, MAX_OUTCOMES>;

/// One fair die: six outcomes of 1/6.
pub fn one_die() -> OutcomeList {
    (1..=6).map(|f| Outcome { roll: Roll::single(f), probability: 1.0 / 6.0, weight: 1 }).collect()
}

/// Two fair dice as 21 multisets: doubles 1/36, the others 2/36.
pub fn two_dice() -> OutcomeList {
    let mut out = OutcomeList::new();
    for a in 1..=6u8 {
        for b in a..=6u8 {
            let weight = if a == b { 1 } else { 2 };
            let probability = f64::from(weight) / 36.0;
            out.push(Outcome { roll: Roll::new(&[a, b]).expect("faces 1..6"), probability, weight });
        }
    }
    out
}
