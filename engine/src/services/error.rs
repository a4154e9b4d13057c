//! Why a service refused or could not finish: the game's refusals ([`GameError`]) and what the
//! services add (a variant name not known, a search that ended without an answer, a setting out
//! of range, the machine refusing a thread), with the place in a record or a list where it went
//! wrong. A front end answers by kind: [`Error::is_not_now`] is the web API's 409.

use crate::rules::GameError;
use crate::services::pgn::PgnError;
use crate::services::registry::UnknownVariant;

/// The error of a service.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The game refused a position, a roll or a turn.
    #[error(transparent)]
    Game(#[from] GameError),
    /// A variant's name that names none.
    #[error(transparent)]
    Variant(#[from] UnknownVariant),
    /// A game record that does not read.
    #[error(transparent)]
    Pgn(#[from] PgnError),
    /// A line of a file of results that does not read.
    #[error("{0}")]
    Record(String),
    /// A search that ended without the answer asked of it (stopped before it valued a choice).
    #[error("{0}")]
    NoAnswer(String),
    /// Something this variant or position has no use for: a rollout of a game solved exactly, a
    /// bench of a variant that is not searched.
    #[error("{0}")]
    NotHere(String),
    /// A setting outside its range (no game to play, no turn to search).
    #[error("{0}")]
    Setting(String),
    /// The machine refused: a thread not started, a file not written.
    #[error("{0}")]
    System(String),
    /// Where in a record or a list the error `source` happened (`turn 12`, `game 3`).
    #[error("{at}: {source}")]
    At { at: String, source: Box<Error> },
}

impl Error {
    /// The error `self`, said to have happened at `at`.
    pub fn at(self, at: impl Into<String>) -> Error {
        Error::At { at: at.into(), source: Box::new(self) }
    }

    /// Is this a refusal of the game's state now, which the same request may pass later?
    pub fn is_not_now(&self) -> bool {
        match self {
            Error::Game(e) => e.is_not_now(),
            Error::At { source, .. } => source.is_not_now(),
            _ => false,
        }
    }
}
