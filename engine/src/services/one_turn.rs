//! A game of one move a turn as the game handle speaks to it, whatever its board: the 8x8
//! variants and BrainKing on 10x10 alike. A variant of that shape adds what front ends need
//! beyond its [`Rules`] ([`OneTurnRules`]: its positions as FEN, its squares, SAN, how it is
//! searched), and [`OneTurnGame`] turns that into text once for all of them, so the handle has
//! one arm for every such variant.

use crate::board::piece::{Color, Piece, Role};
use crate::board::values::PieceValues;
use crate::eval::params::EvalParams;
use crate::rules::dice::{OutcomeList, Roll};
use crate::rules::game::Game;
use crate::rules::{GameEnd, Rules, TurnList};
use crate::search::timeman::Limits;
use crate::search::{Choice, OutcomeAdvice, Root, ScoredChoice, SearchOptions, SearchResult, Shared};
use std::fmt;
use std::sync::atomic::AtomicBool;

/// A king taken counts this much in [`OneTurnGame::material_gain`]: more than any material.
pub const KING_GAIN: i32 = 100_000;

/// What a turn does to material: the piece that moves, the one it takes, the one it makes.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnRoles {
    pub mover: Option<Role>,
    pub captured: Option<Role>,
    pub promotion: Option<Role>,
}

/// What a variant of one move a turn tells front ends beyond its rules.
pub trait OneTurnRules: Rules + Clone + fmt::Debug + Send + Sync + 'static
where
    Self::Position: fmt::Debug + Send + Sync,
    Self::Turn: Send + Sync,
{
    /// The start position.
    fn start_position(&self) -> Self::Position;

    /// A position from its FEN, or why it is none (rule checks come after, in
    /// [`Rules::validate`]).
    fn parse_fen(&self, text: &str) -> Result<Self::Position, String>;

    /// The position as FEN.
    fn fen(&self, pos: &Self::Position) -> String;

    /// Files and ranks of the board.
    fn size(&self) -> (u8, u8);

    /// The piece on the square of file and rank (from 0), if any.
    fn piece_at(&self, pos: &Self::Position, file: u8, rank: u8) -> Option<Piece>;

    /// FEN's move number.
    fn fullmove(&self, pos: &Self::Position) -> u32;

    /// The turn in SAN, among `candidates` (every turn the rules allow whatever the dice); not
    /// called for a pass.
    fn san(&self, pos: &Self::Position, turn: Self::Turn, candidates: &[Self::Turn]) -> String;

    /// The turn a SAN text names among `candidates`.
    fn parse_san(&self, pos: &Self::Position, text: &str, candidates: &[Self::Turn]) -> Option<Self::Turn>;

    /// The pieces a turn moves, takes and makes.
    fn turn_roles(&self, pos: &Self::Position, turn: Self::Turn) -> TurnRoles;

    /// `go perft`: each root move's count of move paths `depth` long (dice ignored), handed to
    /// `counted`; false when `stop` ended the count early. A variant without chess moves says so.
    fn perft_divide(
        &self,
        pos: &Self::Position,
        depth: u32,
        stop: &AtomicBool,
        counted: &mut dyn FnMut(&str, u64),
    ) -> Result<bool, String>;

    /// Searches the game's position with the variant's evaluation (or the one `options` names,
    /// where the variant can use it).
    fn search_game(
        game: &Game<Self>,
        root: Root<Self::Turn>,
        limits: Limits,
        options: SearchOptions,
        shared: &Shared,
        report: &mut (dyn FnMut(&SearchResult<Self::Turn>) + Send),
    ) -> SearchResult<Self::Turn>;

    /// Does this game start from a Chess960 position (castling written king-takes-rook)?
    fn chess960(&self) -> bool {
        false
    }

    /// Sets Freedom's recapture square; other variants have none.
    fn set_recapture(&self, _pos: &mut Self::Position, _square: &str) -> Result<(), String> {
        Err("a recapture square is only part of freedom".into())
    }

    /// `d`'s lines about the rules' state (checkers, recapture square); none by default.
    fn state_lines(&self, _pos: &Self::Position) -> Vec<String> {
        Vec::new()
    }

    /// Why a pre-roll turn may be played without rolling (Freedom's kinds); none by default.
    fn pre_roll_kinds(&self, _pos: &Self::Position, _turn: Self::Turn) -> Vec<&'static str> {
        Vec::new()
    }

    /// The 8x8 chess board, where the position is one (fitting data reads it).
    fn chess_board<'a>(&self, _pos: &'a Self::Position) -> Option<&'a crate::Board> {
        None
    }

    /// Can the piece-square tables of [`EvalParams`] evaluate this variant (so `tune` can fit
    /// them and `EvalFile` load them)? If not, why.
    fn uses_tables(&self) -> Result<(), String> {
        Ok(())
    }

    /// Where the evaluation is not the 8x8 tables: the terms its score is a linear sum of,
    /// White's minus Black's, for the fit ([`crate::eval::big::BigEval::terms`]); `None` for the tables,
    /// which the fit reads from the board itself.
    fn eval_terms(&self, _pos: &Self::Position) -> Option<Vec<i32>> {
        None
    }

    /// Is the variant solved exactly, so played from its solution (Die Chess)?
    fn solved(&self) -> bool {
        false
    }

    /// The turn a text names, whether or not the position allows it now (for writing it and
    /// weighing it; playing it checks it). By default [`Rules::parse_turn`].
    fn read_turn(&self, pos: &Self::Position, text: &str) -> Option<Self::Turn> {
        self.parse_turn(pos, text)
    }

    /// A turn after a roll as the player answers it, the roll being known: the whole turn by
    /// default (Die Chess: the move alone).
    fn answer(&self, turn: Self::Turn) -> String {
        self.turn_to_uci(turn)
    }

    /// The whole turn of the answer `answer` after `roll`: the answer itself by default (Die
    /// Chess joins the roll to it, `roll2,a1b3`).
    fn turn_of_answer(&self, _roll: &Roll, answer: &str) -> Result<String, String> {
        Ok(answer.to_string())
    }

    /// The position as `roll` leaves it before the move: a roll changes no board by default
    /// (Die Chess's die turns to the face rolled).
    fn after_roll(&self, pos: &Self::Position, _roll: &Roll) -> Self::Position {
        pos.clone()
    }

    /// May a turn be chosen among every move, whatever the dice (`go roll any`, a GUI's free
    /// move)? If not, why.
    fn free_turns(&self) -> Result<(), String> {
        Ok(())
    }
}

/// What a search of a one-move game starts from.
#[derive(Clone, Copy, Debug)]
pub enum OneTurnRoot<'a> {
    /// Before the roll.
    Decision,
    /// After this roll: every turn it allows.
    Rolled(&'a Roll),
    /// Every turn, whatever the dice (`go roll any`).
    Free,
    /// Only these turns (UCI text).
    Only(&'a [String]),
}

/// A game of one move a turn, with turns and positions as text: what the game handle asks.
pub trait OneTurnGame: fmt::Debug + Send + Sync {
    fn box_clone(&self) -> Box<dyn OneTurnGame>;
    fn name(&self) -> &'static str;
    fn chess960(&self) -> bool;
    fn dice(&self) -> usize;
    fn roll_meaning(&self, roll: &Roll) -> String;
    /// The roll of these faces, with its shape checked.
    fn roll_of(&self, faces: &[u8]) -> Result<Roll, String>;
    /// Plays a turn after checking that some roll (or Freedom) allows it.
    fn play(&mut self, turn: &str) -> Result<(), String>;
    /// The turn in the variant's own UCI spelling, if `text` names one.
    fn canonical(&self, text: &str) -> Option<String>;
    fn in_check(&self) -> bool;
    fn start_fen(&self) -> String;
    fn fen(&self) -> String;
    /// The material a turn wins at once by the documents' values (a king [`KING_GAIN`]).
    fn material_gain(&self, turn: &str) -> i32;
    /// The piece a turn moves (after `roll`, where the roll decides it).
    fn moving_role(&self, turn: &str, roll: Option<&Roll>) -> Option<Role>;
    fn end(&self) -> Option<GameEnd>;
    /// Files and ranks.
    fn size(&self) -> (u8, u8);
    fn piece_at(&self, file: u8, rank: u8) -> Option<Piece>;
    fn side_to_move(&self) -> Color;
    fn fullmove(&self) -> u32;
    fn key(&self) -> u64;
    fn turns(&self) -> Vec<String>;
    fn pre_roll_turns(&self) -> Vec<String>;
    /// The turns a roll allows (`None`: whatever the dice), sorted.
    fn allowed_turns(&self, roll: Option<&Roll>) -> Vec<String>;
    fn outcomes(&self) -> OutcomeList;
    fn state_lines(&self) -> Vec<String>;
    fn perft(&self, depth: u32, stop: &AtomicBool, counted: &mut dyn FnMut(&str, u64)) -> Result<bool, String>;
    /// Searches from `root`; turns after a roll come back as the player answers them.
    fn search(
        &self,
        root: OneTurnRoot<'_>,
        limits: Limits,
        options: SearchOptions,
        shared: &Shared,
        report: &mut (dyn FnMut(&SearchResult<String>) + Send),
    ) -> Result<SearchResult<String>, String>;
    fn san(&self, turn: &str) -> String;
    fn parse_san(&self, text: &str) -> Option<String>;
    fn pre_roll_kinds(&self, turn: &str) -> Vec<&'static str>;
    fn piece_values(&self) -> PieceValues;
    fn starting_eval(&self) -> EvalParams;
    fn default_eval(&self) -> EvalParams;
    fn uses_tables(&self) -> Result<(), String>;
    fn eval_terms(&self) -> Option<Vec<i32>>;
    fn chess_board(&self) -> Option<&crate::Board>;
    fn solved(&self) -> bool;
    /// The whole turn of an answer after `roll` ([`OneTurnRules::turn_of_answer`]).
    fn turn_of_answer(&self, roll: &Roll, answer: &str) -> Result<String, String>;
    /// The FEN as `roll` leaves the position before the move.
    fn fen_after_roll(&self, roll: &Roll) -> String;
    fn free_turns(&self) -> Result<(), String>;
}

impl<R: OneTurnRules> Game<R>
where
    R::Position: fmt::Debug + Send + Sync,
    R::Turn: Send + Sync,
{
    /// A game of `rules` from `fen` (the start when `None`), with Freedom's recapture square if
    /// given, its rule state filled in and checked.
    pub fn set_up(rules: R, fen: Option<&str>, recapture: Option<&str>) -> Result<Game<R>, String> {
        let mut pos = match fen {
            Some(text) => rules.parse_fen(text)?,
            None => rules.start_position(),
        };
        rules.implied_state(&mut pos);
        if let Some(square) = recapture {
            rules.set_recapture(&mut pos, square)?;
        }
        rules.validate(&pos).map_err(|e| format!("position refused: {e}"))?;
        Ok(Game::new(rules, pos))
    }

    fn parse(&self, text: &str) -> Result<R::Turn, String> {
        self.rules().parse_turn(self.position(), text).ok_or_else(|| format!("{text} is not a move here"))
    }

    fn candidates(&self) -> TurnList<R::Turn> {
        let mut list = TurnList::new();
        self.rules().any_turns(self.position(), &mut list);
        list
    }

    fn texts(&self, turns: &[R::Turn]) -> Vec<String> {
        let mut v: Vec<String> = turns.iter().map(|&t| self.rules().answer(t)).collect();
        v.sort();
        v.dedup();
        v
    }
}

impl<R: OneTurnRules> OneTurnGame for Game<R>
where
    R::Position: fmt::Debug + Send + Sync,
    R::Turn: Send + Sync,
{
    fn box_clone(&self) -> Box<dyn OneTurnGame> {
        Box::new(self.clone())
    }

    fn name(&self) -> &'static str {
        self.rules().name()
    }

    fn chess960(&self) -> bool {
        self.rules().chess960()
    }

    fn dice(&self) -> usize {
        self.rules().dice()
    }

    fn roll_meaning(&self, roll: &Roll) -> String {
        self.rules().roll_meaning(roll)
    }

    fn roll_of(&self, faces: &[u8]) -> Result<Roll, String> {
        self.rules().roll_of(faces).map_err(|e| e.to_string())
    }

    fn play(&mut self, turn: &str) -> Result<(), String> {
        // (Die Chess joins a roll to its move with a comma: `roll3,b2a1` is one turn.)
        if turn.contains(',') && self.rules().parse_turn(self.position(), turn).is_none() {
            return Err(format!("'{turn}' has several moves, but {} plays one a turn", self.rules().name()));
        }
        let rules = self.rules().clone();
        self.play_uci(turn, |p| rules.fen(p)).map(|_| ()).map_err(|e| e.to_string())
    }

    fn canonical(&self, text: &str) -> Option<String> {
        self.rules().read_turn(self.position(), text).map(|t| self.rules().turn_to_uci(t))
    }

    fn in_check(&self) -> bool {
        self.rules().in_check(self.position())
    }

    fn start_fen(&self) -> String {
        self.rules().fen(self.start())
    }

    fn fen(&self) -> String {
        self.rules().fen(self.position())
    }

    fn material_gain(&self, turn: &str) -> i32 {
        let Some(t) = self.rules().read_turn(self.position(), turn) else { return 0 };
        let roles = self.rules().turn_roles(self.position(), t);
        let values = self.rules().piece_values();
        let promotion = roles.promotion.map_or(0, |r| values.of(r) - values.of(Role::Pawn));
        match roles.captured {
            Some(Role::King) => KING_GAIN + promotion,
            Some(r) => values.of(r) + promotion,
            None => promotion,
        }
    }

    fn moving_role(&self, turn: &str, roll: Option<&Roll>) -> Option<Role> {
        let whole = match roll {
            Some(roll) => self.rules().turn_of_answer(roll, turn).ok()?,
            None => turn.to_string(),
        };
        let t = self.rules().read_turn(self.position(), &whole)?;
        self.rules().turn_roles(self.position(), t).mover
    }

    fn end(&self) -> Option<GameEnd> {
        Game::end(self)
    }

    fn size(&self) -> (u8, u8) {
        self.rules().size()
    }

    fn piece_at(&self, file: u8, rank: u8) -> Option<Piece> {
        self.rules().piece_at(self.position(), file, rank)
    }

    fn side_to_move(&self) -> Color {
        self.rules().turn(self.position())
    }

    fn fullmove(&self) -> u32 {
        self.rules().fullmove(self.position())
    }

    fn key(&self) -> u64 {
        self.rules().hash(self.position())
    }

    fn turns(&self) -> Vec<String> {
        self.turns().iter().map(|&t| self.rules().turn_to_uci(t)).collect()
    }

    fn pre_roll_turns(&self) -> Vec<String> {
        let mut list = TurnList::new();
        self.rules().pre_roll_turns(self.position(), &mut list);
        self.texts(&list)
    }

    fn allowed_turns(&self, roll: Option<&Roll>) -> Vec<String> {
        let mut list = TurnList::new();
        match roll {
            None => self.rules().any_turns(self.position(), &mut list),
            Some(roll) => self.rules().allowed_turns(self.position(), roll, &mut list),
        }
        self.texts(&list)
    }

    fn outcomes(&self) -> OutcomeList {
        let mut out = OutcomeList::new();
        self.rules().outcomes(self.position(), &mut out);
        out
    }

    fn state_lines(&self) -> Vec<String> {
        self.rules().state_lines(self.position())
    }

    fn perft(&self, depth: u32, stop: &AtomicBool, counted: &mut dyn FnMut(&str, u64)) -> Result<bool, String> {
        self.rules().perft_divide(self.position(), depth, stop, counted)
    }

    fn search(
        &self,
        root: OneTurnRoot<'_>,
        limits: Limits,
        options: SearchOptions,
        shared: &Shared,
        report: &mut (dyn FnMut(&SearchResult<String>) + Send),
    ) -> Result<SearchResult<String>, String> {
        let rules = self.rules().clone();
        let root = match root {
            OneTurnRoot::Decision => Root::PreRoll,
            OneTurnRoot::Rolled(_) | OneTurnRoot::Free => {
                let mut turns = TurnList::new();
                match root {
                    OneTurnRoot::Rolled(roll) => rules.allowed_turns(self.position(), roll, &mut turns),
                    _ => {
                        rules.free_turns()?;
                        rules.any_turns(self.position(), &mut turns);
                    }
                }
                // In the order of their text; a pass offered beside moves (Vegas's "any") goes
                // last: it wins no tie.
                let mut keyed: Vec<(bool, String, R::Turn)> =
                    turns.iter().map(|&t| (rules.answer(t) == "0000", rules.answer(t), t)).collect();
                keyed.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
                keyed.dedup_by(|a, b| a.1 == b.1);
                Root::Turns(keyed.into_iter().map(|(_, _, t)| t).collect())
            }
            OneTurnRoot::Only(texts) => Root::Turns(texts.iter().map(|t| self.parse(t)).collect::<Result<_, _>>()?),
        };
        let text = |r: &SearchResult<R::Turn>| map_result(r, |&t| rules.answer(t));
        let result = R::search_game(self, root, limits, options, shared, &mut |r| report(&text(r)));
        Ok(text(&result))
    }

    fn san(&self, turn: &str) -> String {
        let Some(t) = self.rules().read_turn(self.position(), turn) else { return turn.to_string() };
        if self.rules().turn_to_uci(t) == "0000" {
            return "--".into();
        }
        self.rules().san(self.position(), t, &self.candidates())
    }

    fn parse_san(&self, text: &str) -> Option<String> {
        let t = self.rules().parse_san(self.position(), text, &self.candidates())?;
        Some(self.rules().turn_to_uci(t))
    }

    fn pre_roll_kinds(&self, turn: &str) -> Vec<&'static str> {
        match self.parse(turn) {
            Ok(t) => self.rules().pre_roll_kinds(self.position(), t),
            Err(_) => Vec::new(),
        }
    }

    fn piece_values(&self) -> PieceValues {
        self.rules().piece_values()
    }

    fn starting_eval(&self) -> EvalParams {
        self.rules().starting_eval()
    }

    fn default_eval(&self) -> EvalParams {
        self.rules().default_eval()
    }

    fn uses_tables(&self) -> Result<(), String> {
        self.rules().uses_tables()
    }

    fn eval_terms(&self) -> Option<Vec<i32>> {
        self.rules().eval_terms(self.position())
    }

    fn chess_board(&self) -> Option<&crate::Board> {
        self.rules().chess_board(self.position())
    }

    fn solved(&self) -> bool {
        self.rules().solved()
    }

    fn turn_of_answer(&self, roll: &Roll, answer: &str) -> Result<String, String> {
        self.rules().turn_of_answer(roll, answer)
    }

    fn fen_after_roll(&self, roll: &Roll) -> String {
        self.rules().fen(&self.rules().after_roll(self.position(), roll))
    }

    fn free_turns(&self) -> Result<(), String> {
        self.rules().free_turns()
    }
}

impl Clone for Box<dyn OneTurnGame> {
    fn clone(&self) -> Self {
        self.box_clone()
    }
}

/// A search result with its turns written as text.
pub(crate) fn map_result<T>(r: &SearchResult<T>, text: impl Fn(&T) -> String) -> SearchResult<String> {
    let choice = |c: &Choice<T>| match c {
        Choice::Turn(t) => Choice::Turn(text(t)),
        Choice::Roll => Choice::Roll,
    };
    SearchResult {
        best: choice(&r.best),
        score: r.score,
        depth: r.depth,
        seldepth: r.seldepth,
        nodes: r.nodes,
        elapsed: r.elapsed,
        pv: r.pv.iter().map(&text).collect(),
        choices: r
            .choices
            .iter()
            .map(|c| ScoredChoice { choice: choice(&c.choice), score: c.score, exact: c.exact, value: c.value })
            .collect(),
        outcomes: r
            .outcomes
            .iter()
            .map(|o| OutcomeAdvice {
                roll: o.roll,
                probability: o.probability,
                best: text(&o.best),
                score: o.score,
                value: o.value,
            })
            .collect(),
        roll_score: r.roll_score,
        mate: r.mate,
        hashfull: r.hashfull,
        result_scale: r.result_scale,
        value: r.value,
    }
}
