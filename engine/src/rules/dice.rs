//! Dice: a roll (the faces shown, sorted), the outcomes of a roll with their probabilities.

use arrayvec::ArrayVec;
use std::fmt;

/// Most dice any variant rolls at once (Grand Dice Chess rolls four).
pub const MAX_DICE: usize = 4;

/// Most distinct outcomes of one roll (four dice: 126 multisets).
pub const MAX_OUTCOMES: usize = 128;

/// The faces shown by one roll, sorted ascending where the dice are alike (`3 5` and `5 3` are
/// one outcome), in the dice's order where they are not ([`Roll::ordered`]).
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
    /// A turn in progress has the dice `left` to use, and those are the dice it takes.
    NotLeft { left: Roll, given: Roll },
    /// A roll the variant never rolls where the game stands (BrainKing throws again a face on
    /// which nothing can move).
    NeverHere(Roll),
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
            RollError::NotLeft { left, given } => {
                write!(f, "the turn in progress has the dice {left} left, not {given}")
            }
            RollError::NeverHere(roll) => {
                write!(f, "this variant never rolls {roll} here: it throws again a face on which nothing can move")
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

    /// A roll of unlike dice (Vegas's A and B), whose faces keep their dice's order: `5 1` (a king
    /// and a pawn) is not `1 5` (a pawn and a queen).
    pub fn ordered(faces: &[u8]) -> Result<Roll, RollError> {
        let sorted = Roll::new(faces)?;
        let mut kept = [0; MAX_DICE];
        kept[..faces.len()].copy_from_slice(faces);
        Ok(Roll { faces: kept, len: sorted.len })
    }

    /// One die showing `face` (1..=6).
    pub fn single(face: u8) -> Roll {
        Roll::new(&[face]).expect("a face from 1 to 6")
    }

    /// Parses faces written as separate words (`3 5`) or run together (`35`), in the order
    /// written (the variant's rules sort them where its dice are alike: `GameHandle::check_roll`).
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
        Roll::ordered(&faces)
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

/// The outcome that `pick` (below the sum of the outcomes' weights) falls on, each outcome taking
/// as many numbers as its weight: how every roll is drawn (the engine's own dice, paired dice, a
/// person's game). `None` when there are no outcomes.
pub fn pick_by_weight(outcomes: &[Outcome], pick: u64) -> Option<Roll> {
    let mut pick = pick;
    for o in outcomes {
        if pick < u64::from(o.weight) {
            return Some(o.roll);
        }
        pick -= u64::from(o.weight);
    }
    outcomes.last().map(|o| o.roll)
}

/// The piece types a roll of piece dice shows, in words ("pawn, knight, king").
pub fn piece_names(roll: &Roll) -> String {
    let names: Vec<&str> = roll.faces().iter().map(|&f| crate::board::piece::Role::of_face(f).name()).collect();
    names.join(", ")
}

/// One fair die: six outcomes of 1/6.
pub fn one_die() -> OutcomeList {
    fair_dice(1)
}

/// Two fair dice as 21 multisets: doubles 1/36, the others 2/36.
pub fn two_dice() -> OutcomeList {
    fair_dice(2)
}

/// `n` fair dice (1 to [`MAX_DICE`]) as multisets of faces, ascending: each multiset weighs its
/// number of orderings out of `6^n` (three dice: 56 outcomes, `1 1 1` 1/216, `1 2 3` 6/216).
pub fn fair_dice(n: usize) -> OutcomeList {
    dice_outcomes(n).clone()
}

/// The outcomes of `n` fair dice as [`fair_dice`] gives them, made once per number of dice and
/// lent, not copied: a search asks at every chance node.
pub fn dice_outcomes(n: usize) -> &'static OutcomeList {
    assert!((1..=MAX_DICE).contains(&n), "1 to {MAX_DICE} dice");
    static LISTS: [std::sync::OnceLock<OutcomeList>; MAX_DICE] = [const { std::sync::OnceLock::new() }; MAX_DICE];
    LISTS[n - 1].get_or_init(|| enumerate_dice(n))
}

fn enumerate_dice(n: usize) -> OutcomeList {
    let total = 6u32.pow(n as u32);
    let factorial = |k: u32| (1..=k).product::<u32>();
    let mut out = OutcomeList::new();
    let mut faces = [1u8; MAX_DICE];
    loop {
        let roll = Roll::new(&faces[..n]).expect("faces 1..6");
        let mut counts = [0u32; 7];
        for &f in roll.faces() {
            counts[f as usize] += 1;
        }
        let weight = factorial(n as u32) / counts.iter().map(|&c| factorial(c)).product::<u32>();
        out.push(Outcome { roll, probability: f64::from(weight) / f64::from(total), weight });
        // The next non-decreasing sequence of faces.
        let Some(i) = (0..n).rev().find(|&i| faces[i] < 6) else {
            return out;
        };
        faces[i] += 1;
        for j in i + 1..n {
            faces[j] = faces[i];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fair_dice_count_multisets_and_weigh_orderings() {
        for (n, count) in [(1, 6), (2, 21), (3, 56), (4, 126)] {
            let outcomes = fair_dice(n);
            assert_eq!(outcomes.len(), count);
            assert_eq!(outcomes.iter().map(|o| o.weight).sum::<u32>(), 6u32.pow(n as u32));
            assert!((outcomes.iter().map(|o| o.probability).sum::<f64>() - 1.0).abs() < 1e-12);
        }
        let three = fair_dice(3);
        let weight = |faces: &[u8]| three.iter().find(|o| o.roll.faces() == faces).unwrap().weight;
        assert_eq!((weight(&[1, 1, 1]), weight(&[1, 1, 4]), weight(&[1, 4, 6])), (1, 3, 6));
        assert_eq!(two_dice().iter().map(|o| o.weight).collect::<Vec<_>>()[..3], [1, 2, 2]);
    }
}
