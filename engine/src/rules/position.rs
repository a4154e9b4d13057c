//! A position as the dice rules see it: the board plus the state a variant adds to chess.

use crate::board::Board;
use crate::board::square::Square;
use crate::board::zobrist;

/// The board and the rule state of the dice variants. Two positions are the same for
/// repetition when their [`Position::hash`]es are, so every field that changes what may be
/// played is in the hash.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Position {
    pub board: Board,
    /// Freedom: the square of the piece that captured on the last move (recapture Freedom).
    pub recapture: Option<Square>,
    /// Classic: the player who just moved passed while in check, so their king may be taken.
    pub passed_in_check: bool,
    /// Vegas: each side's (by colour index) last move gave check, so it does not roll on its
    /// next turn.
    pub gave_check: [bool; 2],
}

impl Position {
    /// A position with no rule state.
    pub fn new(board: Board) -> Position {
        Position { board, recapture: None, passed_in_check: false, gave_check: [false; 2] }
    }

    /// The board's Polyglot hash with the rule state mixed in (equal to Polyglot's when there
    /// is none).
    #[inline]
    pub fn hash(&self) -> u64 {
        let mut h = self.board.hash();
        if let Some(sq) = self.recapture {
            h ^= zobrist::RECAPTURE[sq.index()];
        }
        if self.passed_in_check {
            h ^= zobrist::PASSED_IN_CHECK;
        }
        for (side, &gave) in self.gave_check.iter().enumerate() {
            if gave {
                h ^= zobrist::GAVE_CHECK[side];
            }
        }
        h
    }
}
