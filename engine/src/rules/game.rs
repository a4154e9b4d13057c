//! A game in progress: the position, the turns that led to it, and the history of positions
//! that threefold repetition needs.

use crate::board::micro_board::MicroBoard;
use crate::rules::dice::Roll;
use crate::rules::micro::{
    MicroRules, MoveOf, PlanCache, PositionOf, StepsOf, TurnError, TurnOf, after_step, allowed_steps, parse_turn,
    play_turn,
};
use crate::rules::{EndReason, GameEnd, GameError, GameResult, Rules};
use std::fmt;

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
            return Err(GameError::AfterEnd { turn: text.to_string(), ply, end });
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

/// A game of a variant of several moves a turn: the position (at a turn's start, or in a turn
/// set up from a DFEN), the turns played, and the hashes of the turn starts for repetitions.
#[derive(Clone, Debug)]
pub struct MicroGame<R: MicroRules> {
    rules: R,
    start: PositionOf<R>,
    position: PositionOf<R>,
    turns: Vec<TurnOf<R>>,
    /// Hash of every turn start reached, the start included when it is one.
    hashes: Vec<u64>,
    /// The micro-moves played so far of a turn made one at a time ([`MicroGame::play_step`]).
    partial: TurnOf<R>,
}

impl<R: MicroRules + Clone> MicroGame<R> {
    pub fn new(rules: R, start: PositionOf<R>) -> MicroGame<R> {
        let hashes = if start.in_turn() { Vec::new() } else { vec![start.hash()] };
        MicroGame { rules, position: start.clone(), start, turns: Vec::new(), hashes, partial: TurnOf::<R>::PASS }
    }

    /// The micro-moves played so far of the turn in progress.
    pub fn partial_turn(&self) -> &TurnOf<R> {
        &self.partial
    }

    /// Rolls `roll` for a turn made one micro-move at a time: the position becomes the turn in
    /// progress. A roll that allows nothing passes the turn at once (`true` is returned then).
    pub fn start_turn(&mut self, roll: &Roll) -> Result<bool, GameError> {
        if let Some(end) = self.end() {
            return Err(GameError::NotNow(format!("the game is over ({end})")));
        }
        if self.position.in_turn() {
            return Err(GameError::NotNow("a turn is in progress: play its micro-moves".into()));
        }
        let rolled = self.rules.rolled(&self.position, roll);
        let mut steps = StepsOf::<R>::new();
        allowed_steps(&self.rules, &rolled, &mut PlanCache::new(12), &mut steps);
        if steps.is_empty() {
            self.finish(rolled.finish_turn(), TurnOf::<R>::PASS);
            return Ok(true);
        }
        self.position = rolled;
        Ok(false)
    }

    /// Plays one micro-move (UCI) of the turn in progress, if the maximum rule allows it there;
    /// the turn is recorded when it ends (`true` is returned then).
    pub fn play_step(&mut self, text: &str) -> Result<bool, GameError> {
        if !self.position.in_turn() {
            return Err(GameError::NotNow("no turn is in progress: roll first".into()));
        }
        let mut steps = StepsOf::<R>::new();
        allowed_steps(&self.rules, &self.position, &mut PlanCache::new(12), &mut steps);
        let moves: Vec<MoveOf<R>> = steps.iter().map(|s| s.mv).collect();
        // `0000` in a turn in progress stops it, where the dice may be left unused.
        let stop = steps.iter().find(|s| s.is_stop() && text == "0000").copied();
        let step = stop
            .or_else(|| {
                self.position.board.find_move(&moves, text).and_then(|m| steps.iter().find(|s| s.mv == m).copied())
            })
            .ok_or_else(|| {
                GameError::Turn(format!(
                    "{text} is not allowed now (no die left for it, or it breaks the maximum rule)"
                ))
            })?;
        let next = after_step(&self.rules, &self.position, step);
        let mut partial = self.partial;
        if !step.is_stop() {
            partial.push(step.mv);
        }
        if step.ends_turn {
            self.finish(next, partial);
            Ok(true)
        } else {
            self.position = next;
            self.partial = partial;
            Ok(false)
        }
    }

    /// Records a finished turn that led to `next` (a turn's start).
    fn finish(&mut self, next: PositionOf<R>, turn: TurnOf<R>) {
        self.position = next;
        self.turns.push(turn);
        self.hashes.push(self.position.hash());
        self.partial = TurnOf::<R>::PASS;
    }

    pub fn rules(&self) -> &R {
        &self.rules
    }

    pub fn position(&self) -> &PositionOf<R> {
        &self.position
    }

    pub fn start(&self) -> &PositionOf<R> {
        &self.start
    }

    pub fn turns(&self) -> &[TurnOf<R>] {
        &self.turns
    }

    /// Hashes of the turn starts so far, oldest first.
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    /// Plays a turn written as the protocol writes it (`e2e4,g1f3`, `0000`). In a turn in
    /// progress its dice are known; at a turn's start some roll must allow it (the roll need
    /// not be known: a record of turns without rolls is checked this way), or exactly `roll`.
    pub fn play_text(&mut self, text: &str, roll: Option<&Roll>) -> Result<TurnOf<R>, GameError> {
        if let Some(end) = self.end() {
            return Err(GameError::NotNow(format!("{text} comes after the game ended ({end})")));
        }
        if !self.partial.is_pass() {
            return Err(GameError::NotNow(
                "a turn is in progress micro-move by micro-move: play its micro-moves".into(),
            ));
        }
        let moves = parse_turn(&self.rules, &self.position, text)?;
        let mut cache = PlanCache::new(12);
        let next = if self.position.in_turn() {
            if roll.is_some() {
                return Err(GameError::NotNow("the turn in progress has its dice already".into()));
            }
            play_turn(&self.rules, &self.position, &moves, &mut cache).map_err(|e| describe(text, e))?
        } else if let Some(roll) = roll {
            play_turn(&self.rules, &self.rules.rolled(&self.position, roll), &moves, &mut cache)
                .map_err(|e| describe(text, e))?
        } else {
            let outcomes = self.rules.outcomes(&self.position);
            outcomes
                .iter()
                .find_map(|o| {
                    play_turn(&self.rules, &self.rules.rolled(&self.position, &o.roll), &moves, &mut cache).ok()
                })
                .ok_or_else(|| GameError::Turn(format!("no roll allows the turn {text}")))?
        };
        let turn = TurnOf::<R>::new(&moves);
        self.finish(next, turn);
        Ok(turn)
    }

    /// How many times the current turn start has been reached, this time included.
    pub fn repetitions(&self) -> usize {
        if self.position.in_turn() {
            return 1;
        }
        let current = self.position.hash();
        let window = self.position.board.halfmove_clock() as usize;
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

/// A refused turn in words.
pub(crate) fn describe(text: &str, e: TurnError) -> GameError {
    let part = |i: usize| text.split(',').nth(i).unwrap_or(text).to_string();
    GameError::Turn(match e {
        TurnError::PassNotAllowed => format!("{text}: the dice allow micro-moves, so the turn may not be passed"),
        TurnError::NotAllowed { index } => format!(
            "{text}: micro-move {} is not allowed there (no die left for it, or it breaks the maximum rule)",
            part(index)
        ),
        TurnError::TooLong { index } => format!("{text}: the turn is over before {}", part(index)),
        TurnError::Unfinished => {
            format!("{text}: the turn is not finished (the maximum rule asks for more micro-moves)")
        }
    })
}
