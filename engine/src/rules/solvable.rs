//! Games small enough to solve exactly. Such a game numbers every turn's start as its mover
//! sees it (so that one number serves both colours) and tells, for each number, what the mover
//! may do: choices that win at once or hand the other player a numbered state, and rolls whose
//! equally likely results each allow their own choices. The solver in the search layer
//! ([`crate::search::solve`]) needs nothing else of the game to value every state, and the
//! rules' own lists of turns ([`super::Rules`]) to play from those values.

use crate::board::piece::Color;

/// What a choice leads to, for the player making it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum After {
    /// The game is won at once.
    Won,
    /// The other player's turn begins in the state of this number.
    Next(usize),
}

/// Told a state's options one at a time ([`Solvable::options`]): the solver keeps the best.
pub trait Options {
    /// A choice, and what it leads to.
    fn choose(&mut self, after: After);

    /// A roll of `results` equally likely results: `each` tells the choices the result of
    /// each number (`0..results`) allows.
    fn roll(&mut self, results: usize, each: impl FnMut(&mut Self, usize))
    where
        Self: Sized;
}

/// A game whose states can be numbered and solved: its turns alternate between the players, and
/// a game that does not end is a draw.
pub trait Solvable: super::Rules + Clone + std::fmt::Debug + Send + Sync + 'static {
    /// The states' numbers run below this (some may be impossible: [`Solvable::is_possible`]).
    const STATES: usize;

    /// The solution's version, in the name of the file it is kept in: raised whenever the
    /// rules or the solver change its values, so that a table an older build kept is not read.
    const SOLUTION_VERSION: u32;

    /// The first bytes of the solution's file: which game's solution it is.
    const SOLUTION_MAGIC: [u8; 8];

    /// Could the state of this number occur?
    fn is_possible(&self, index: usize) -> bool;

    /// The number of a position's state, seen by its side to move (the position not over).
    fn state_index(&self, pos: &Self::Position) -> usize;

    /// A position of the state of this number with `mover` to move, at the game's start (no
    /// turns played yet).
    fn position_of(&self, index: usize, mover: Color) -> Self::Position;

    /// A position drawn at random at the game's start (no turns played), with `next(n)` a
    /// random number below `n`; `None` when the draw makes no position (the caller draws again).
    /// By default a state number and a side to move.
    fn random_position(&self, next: &mut dyn FnMut(u64) -> u64) -> Option<Self::Position> {
        let index = next(Self::STATES as u64) as usize;
        let mover = if next(2) == 0 { Color::White } else { Color::Black };
        self.is_possible(index).then(|| self.position_of(index, mover))
    }

    /// The mover's options at the state of this number, told to `out`.
    fn options(&self, index: usize, out: &mut impl Options);

    /// The turns before the roll in the order in which, all else equal, the first is chosen
    /// (rolling comes before all of them). The rules' own order unless the game prefers another.
    fn preferred_pre_roll(&self, pos: &Self::Position) -> Vec<Self::Turn> {
        let mut out = super::TurnList::new();
        self.pre_roll_turns(pos, &mut out);
        out.to_vec()
    }
}
