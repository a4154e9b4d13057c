//! A game in progress: the position, the turns that led to it, and the history of positions
//! that threefold repetition needs.

use crate::rules::{EndReason, GameEnd, GameResult, Rules};
use std::fmt;

/// Why a turn was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The text names no turn the rules could allow here, whatever the dice.
    IllegalTurn { turn: String, ply: usize, fen: String },
    /// The game is over; nothing more may be played.
    GameOver { turn: String, ply: usize, end: GameEnd },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::IllegalTurn { turn, ply, fen } => {
                write!(f, "illegal move {turn} at ply {} (no roll allows it in {fen})", ply + 1)
            }
            GameError::GameOver { turn, ply, end } => {
                write!(f, "move {turn} at ply {} comes after the game ended ({end})", ply + 1)
            }
        }
    }
}

impl std::error::Error for GameError {}

/// A game under some rules.
#[derive(Clone, Debug)]
pub struct Game<R: Rules> {
    rules: R,
    start: R::Position,
    position: R::Position,
    turns: Vec<R::Turn>,
    /// Hash of every position reached, the start included.
    hashes: Vec<u64>,
}

impl<R: Rules> Game<R>
where
    R::Position: fmt::Debug,
{
    pub fn new(rules: R, start: R::Position) -> Game<R> {
        let hash = rules.hash(&start);
        Game { rules, position: start.clone(), start, turns: Vec::new(), hashes: vec![hash] }
    }

    pub fn rules(&self) -> &R {
        &self.rules
    }

    pub fn position(&self) -> &R::Position {
        &self.position
    }

    pub fn start(&self) -> &R::Position {
        &self.start
    }

    pub fn turns(&self) -> &[R::Turn] {
        &self.turns
    }

    /// Hashes of the positions reached so far, oldest first (for a search's repetition checks).
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// Plays a turn the caller took from the rules' lists (no check).
    pub fn play(&mut self, turn: R::Turn) {
        self.position = self.rules.play(&self.position, turn);
        self.turns.push(turn);
        self.hashes.push(self.rules.hash(&self.position));
    }

    /// Plays a turn written in UCI after checking that some roll (or Freedom) allows it.
    pub fn play_uci(&mut self, text: &str, describe: impl Fn(&R::Position) -> String) -> Result<R::Turn, GameError> {
        let ply = self.turns.len();
        if let Some(end) = self.end() {
            return Err(GameError::GameOver { turn: text.to_string(), ply, end });
        }
        match self.rules.parse_turn(&self.position, text) {
            Some(turn) if self.rules.is_possible_turn(&self.position, turn) => {
                self.play(turn);
                Ok(turn)
            }
            _ => Err(GameError::IllegalTurn { turn: text.to_string(), ply, fen: describe(&self.position) }),
        }
    }

    /// How many times the current position has stood on the board, this time included.
    pub fn repetitions(&self) -> usize {
        let current = *self.hashes.last().expect("the start is always there");
        let window = self.rules.reversible_plies(&self.position) as usize;
        self.hashes.iter().rev().take(window + 1).filter(|&&h| h == current).count()
    }

    /// The end of the game, if it is over: by the rules, or by threefold repetition.
    pub fn end(&self) -> Option<GameEnd> {
        self.rules.end(&self.position).or_else(|| {
            (self.repetitions() >= 3)
                .then_some(GameEnd { result: GameResult::Draw, reason: EndReason::ThreefoldRepetition })
        })
    }
}
