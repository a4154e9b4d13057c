//! The one game interface: a game of any variant with positions, rolls and turns as text, as
//! every front end sees it through the game handle. Two implementations serve every variant:
//! [`crate::services::one_turn::OneTurn`] for the variants of one move a turn (whatever their
//! board) and [`crate::rules::game::MicroGame`] for those of several micro-moves a turn. Each
//! speaks its rules directly; the handle adds only what is the variant's (its registry row) and
//! dispatches to the game once, through this trait.

use crate::board::piece::{Color, Piece, Role};
use crate::board::values::PieceValues;
use crate::rules::dice::{OutcomeList, Roll};
use crate::rules::{GameEnd, GameError};
use crate::search::baseline::Baseline;
use crate::search::timeman::Limits;
use crate::search::{SearchOptions, Shared};
use crate::services::handle::{RollSpec, SearchReport, SearchRoot};
use std::fmt;
use std::sync::atomic::AtomicBool;

/// A game of any variant as text. Rolls given as [`RollSpec`] are checked here; in a turn in
/// progress they stand for its dice.
pub trait PlayedGame: fmt::Debug + Send + Sync {
    fn box_clone(&self) -> Box<dyn PlayedGame>;

    /// The rules' name for the variant.
    fn name(&self) -> &'static str;

    /// Does this game start from a Chess960 position (castling written king-takes-rook)?
    fn chess960(&self) -> bool {
        false
    }

    /// Does a turn have several micro-moves here (so thousands of turns a roll)?
    fn several_moves_a_turn(&self) -> bool;

    /// Can the 8x8 piece-square tables evaluate this game? If not, why (completing "... is ").
    fn uses_tables(&self) -> Result<(), &'static str>;

    /// How many dice a roll has.
    fn dice(&self) -> usize;

    /// What the faces of `roll` let move, in words.
    fn roll_meaning(&self, roll: &Roll) -> String;

    /// The dice a turn in progress has left (variants of several micro-moves a turn).
    fn dice_left(&self) -> Option<Roll> {
        None
    }

    /// Dice a turn in progress has left, as DFEN letters (for display).
    fn dice_letters(&self) -> Option<String> {
        None
    }

    /// Plays a whole turn (UCI, micro-moves joined by commas; `0000` a pass) after checking that
    /// some roll (or Freedom) allows it.
    fn play(&mut self, turn: &str) -> Result<(), GameError>;

    /// Plays a turn after a known roll (`None`: without rolling) that the caller has checked
    /// against the lists ([`PlayedGame::allowed_turns`], [`PlayedGame::pre_roll_turns`]): a
    /// referee's way, which need not find a roll that allows it.
    fn play_checked(&mut self, turn: &str, roll: Option<&Roll>) -> Result<(), GameError>;

    /// Rolls for a turn made one micro-move at a time; `true` when it passed at once.
    fn start_turn(&mut self, roll: &Roll) -> Result<bool, GameError>;

    /// One micro-move of the turn in progress; `true` when it ended the turn.
    fn play_step(&mut self, micro: &str) -> Result<bool, GameError>;

    /// The micro-moves of the turn in progress so far (`0000`: none).
    fn partial_turn(&self) -> String {
        "0000".into()
    }

    /// The turn as `position ... moves` writes it, of the answer `answer` after `roll`: the
    /// answer itself, but in Die Chess, whose roll changes the die, the roll joined to it
    /// (`roll2,a1b3`; `roll2` for not moving).
    fn turn_with_roll(&self, answer: &str, _roll: &Roll) -> String {
        answer.to_string()
    }

    /// The turn `text` names here in the variant's own UCI spelling (castling either way,
    /// `e1g1` or `e1h1`), whatever the dice; `None` if it names none.
    fn canonical(&self, text: &str) -> Option<String>;

    /// Is the side to move in check (variants with check)?
    fn in_check(&self) -> bool {
        false
    }

    /// The start position's FEN (DFEN where the variant has it).
    fn start_fen(&self) -> String;

    /// The position's FEN (DFEN where the variant has it).
    fn fen(&self) -> String;

    /// The FEN as `roll` leaves the position before the move (Die Chess turns its die).
    fn fen_after_roll(&self, _roll: &Roll) -> String {
        self.fen()
    }

    /// The material a turn wins at once by the documents' values (a king more than any).
    fn material_gain(&self, turn: &str) -> i32;

    /// The game's end, if it is over.
    fn end(&self) -> Option<GameEnd>;

    /// The board's files and ranks (8 and 8 but on the big boards).
    fn size(&self) -> (u8, u8);

    /// The kind of piece a turn moves (its first micro-move's), after `roll` where there was
    /// one: the piece on its origin square, but in Die Chess the face the roll shows.
    fn moving_role(&self, turn: &str, roll: Option<&Roll>) -> Option<Role>;

    /// The piece on the square of file and rank (from 0), if any.
    fn piece_at(&self, file: u8, rank: u8) -> Option<Piece>;

    /// The 8x8 chess board, in the variants that have one.
    fn chess_board(&self) -> Option<&crate::Board>;

    /// The side to move (whose turn it is).
    fn side_to_move(&self) -> Color;

    /// The move number (FEN's sixth field).
    fn fullmove_number(&self) -> u32;

    /// The position's key (repetitions, `d`).
    fn key(&self) -> u64;

    /// The turns played so far, as text.
    fn turns(&self) -> Vec<String>;

    /// Checks a roll against the variant: as many faces as it rolls, or in a turn in progress
    /// exactly the dice left.
    fn check_roll(&self, faces: &[u8]) -> Result<Roll, GameError>;

    /// The turns playable without rolling (Freedom moves), sorted; empty when there are none.
    fn pre_roll_turns(&self) -> Vec<String> {
        Vec::new()
    }

    /// Why a pre-roll turn may be played without rolling (Freedom: `recapture`, `check`,
    /// `defend`); empty for other turns and variants.
    fn pre_roll_kinds(&self, _turn: &str) -> Vec<&'static str> {
        Vec::new()
    }

    /// Every whole turn the roll allows, sorted (`0000` alone when it allows nothing).
    fn allowed_turns(&self, roll: &RollSpec) -> Result<Vec<String>, GameError>;

    /// Is `roll` one that [`PlayedGame::allowed_turns`] takes here? The same check and error,
    /// without listing the turns (four dice allow hundreds of thousands).
    fn check_roll_spec(&self, roll: &RollSpec) -> Result<(), GameError>;

    /// Are `turns` allowed after `roll` (`go searchmoves`' check)?
    fn check_only(&self, roll: Option<&RollSpec>, turns: &[String]) -> Result<(), GameError>;

    /// How many whole turns the roll allows (for lists too long to print).
    fn count_turns(&self, roll: &RollSpec) -> Result<u64, GameError>;

    /// The `k`-th (from 0) of the turns the roll allows in [`PlayedGame::allowed_turns`]'s
    /// order, without listing them; `None` past the last.
    fn nth_turn(&self, roll: &RollSpec, k: u64) -> Result<Option<String>, GameError>;

    /// Does `roll` allow `turn`, written as the game writes it ([`PlayedGame::canonical`])?
    fn allows(&self, turn: &str, roll: &Roll) -> bool;

    /// The `greedy` baseline's turn after `roll`: the allowed turn that wins the most material
    /// at once, the first among equals; and that gain.
    fn greedy_turn(&self, roll: &RollSpec) -> Result<(String, i32), GameError>;

    /// The first micro-moves of the turns the roll allows, sorted (what a GUI offers while the
    /// player makes a turn one micro-move at a time); one-move variants list their moves.
    fn first_moves(&self, roll: &RollSpec) -> Result<Vec<String>, GameError>;

    /// The turn a baseline plays after `roll`, in the variants of several moves a turn, with
    /// its time up at `deadline` where it keeps time (the peer stops between its candidates).
    fn baseline_turn(
        &self,
        roll: &RollSpec,
        baseline: Baseline,
        deadline: Option<std::time::Instant>,
    ) -> Result<String, GameError>;

    /// The outcomes of the roll to come (none once the game is over or in a turn in progress).
    fn outcomes(&self) -> OutcomeList;

    /// Before the roll, each outcome with its probability and a quick reading of its worth to
    /// the mover (see [`crate::services::handle::GameHandle::outcome_worths`]); empty where the
    /// horizon cannot read the outcomes apart.
    fn outcome_worths(&self, _options: &SearchOptions) -> Vec<(Roll, f64, f64)> {
        Vec::new()
    }

    /// `d`'s lines about the rules' state (recapture square, passes in check, dice left).
    fn state_lines(&self) -> Vec<String>;

    /// Stockfish's `go perft`: each root move's count of move paths (dice ignored), handed to
    /// `counted`; false when `stop` ended the count early.
    fn perft(&self, depth: u32, stop: &AtomicBool, counted: &mut dyn FnMut(&str, u64)) -> Result<bool, GameError>;

    /// Searches from `root` with `options` as given (the handle fills in the variant's own).
    fn search(
        &self,
        root: &SearchRoot,
        limits: Limits,
        options: SearchOptions,
        shared: &Shared,
        report: &mut (dyn FnMut(&SearchReport) + Send),
    ) -> Result<SearchReport, GameError>;

    /// A turn of this position in SAN for people; a text that is no turn here comes back as it is.
    fn san(&self, turn: &str) -> String;

    /// The turn a SAN text names here, in UCI, or `None`.
    fn parse_san(&self, text: &str) -> Option<String>;

    /// The rules' piece values.
    fn piece_values(&self) -> PieceValues;

    /// The terms the evaluation sums where it is not the 8x8 tables, in the position now.
    fn eval_terms(&self) -> Option<Vec<i32>>;
}

impl Clone for Box<dyn PlayedGame> {
    fn clone(&self) -> Box<dyn PlayedGame> {
        self.box_clone()
    }
}

/// The refusal of a question about the roll once the game is over.
pub(crate) fn over(end: Option<GameEnd>) -> Result<(), GameError> {
    match end {
        Some(end) => Err(GameError::NotNow(format!("the game is over ({end}); no roll can be played"))),
        None => Ok(()),
    }
}

/// Turns sorted and without repeats.
pub(crate) fn sorted_texts(mut texts: Vec<String>) -> Vec<String> {
    texts.sort();
    texts.dedup();
    texts
}
