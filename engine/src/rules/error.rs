//! Why a game refused what it was asked: one error for everything the game interface is asked,
//! by kind, so that each front end answers a kind its own way (the web API: 409 for what is
//! refused only now, 400 for the rest; the protocol: `info string error: ...`; the CLI: exit
//! status 2) and says the message as it is.

use crate::board::fen::FenError;
use crate::rules::GameEnd;
use crate::rules::dice::RollError;

/// Why a position, a roll or a turn was refused. Nothing was changed by the refusal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// A FEN that does not parse, or describes no position of its board.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// A position's text the variant cannot play from: a DFEN or Die Chess FEN that does not
    /// parse, two kings where the variant wants one, a side in check out of turn.
    #[error("{0}")]
    Position(String),
    /// A roll of faces the variant does not roll.
    #[error(transparent)]
    Roll(#[from] RollError),
    /// A turn's text that names no turn of the position, or one the dice or the rules do not
    /// allow there.
    #[error("{0}")]
    Turn(String),
    /// A turn of a game being replayed that no roll could allow where it stands.
    #[error("illegal move {turn} at ply {} (no roll allows it in {fen})", ply + 1)]
    IllegalTurn { turn: String, ply: usize, fen: String },
    /// A turn of a game being replayed that comes after the game's end.
    #[error("move {turn} at ply {} comes after the game ended ({end})", ply + 1)]
    AfterEnd { turn: String, ply: usize, end: GameEnd },
    /// Refused now, by the game's state: it is over, a turn is in progress (or none is), the
    /// dice are given already.
    #[error("{0}")]
    NotNow(String),
    /// Something the variant does not have: micro-moves in a variant of one move a turn, free
    /// turns in one that always rolls, the 8x8 tables on another board.
    #[error("{0}")]
    NotInVariant(String),
    /// A number asked for outside what it may be (a perft depth of 0).
    #[error("{0}")]
    OutOfRange(String),
}

impl GameError {
    /// Is this a refusal of the game's state now, which the same request may pass later (the
    /// web API's 409), rather than of the request itself?
    pub fn is_not_now(&self) -> bool {
        matches!(self, GameError::NotNow(_) | GameError::AfterEnd { .. })
    }
}
