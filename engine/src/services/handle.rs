//! The game as front ends see it: a variant chosen by name, positions and turns as text, rolls,
//! the lists of what a roll allows, and the search. The protocol (and, in turn, every other
//! front end) speaks to this handle alone; which board, which move type and which search serve
//! a variant is decided here, once.

use crate::Board;
use crate::board::piece::Color;
use crate::eval::params::EvalParams;
use crate::rules::GameEnd;
use crate::rules::dice::{OutcomeList, Roll};
use crate::search::timeman::Limits;
use crate::search::{SearchOptions, SearchResult, Shared};
use crate::services::micro_game::MicroTurnGame;
use crate::services::one_turn::{OneTurnGame, OneTurnRoot};
use crate::services::registry::{UnknownVariant, Variant};

/// The dice of a `go roll` or `legalmoves roll`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RollSpec {
    /// The faces shown (each 1..=6), in any order.
    Faces(Vec<u8>),
    /// `any`: every legal move is allowed (unconditional Freedom, a GUI's free move).
    Any,
}

/// What a search's root is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchRoot {
    /// Before the roll (the pre-roll options against rolling), or the rest of a turn in progress.
    Decision,
    /// After this roll.
    Rolled(RollSpec),
    /// Only these turns (UCI text), as `go searchmoves` asks: after `roll` where the variant has
    /// several moves a turn (one-move variants need none: their turns are the same whatever the
    /// roll that allows them), or in a turn in progress.
    Only { roll: Option<RollSpec>, turns: Vec<String> },
}

/// A search's findings with turns written as text.
pub type SearchReport = SearchResult<String>;

/// A board as a front end draws it: what stands where, and the names of the lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// The ranks from the top down: each its name and, file by file, the piece standing there
    /// as FEN writes it (upper case for White), or `None`.
    pub ranks: Vec<(String, Vec<Option<char>>)>,
    /// The files' names, left to right.
    pub files: Vec<String>,
}

/// A game of any variant.
#[derive(Clone, Debug)]
pub struct GameHandle {
    variant: Variant,
    played: Played,
}

#[derive(Clone, Debug)]
pub(crate) enum Played {
    /// The variants of one move a turn, whatever their board.
    OneTurn(Box<dyn OneTurnGame>),
    /// Several micro-moves a turn, whatever their board.
    Micro(Box<dyn MicroTurnGame>),
}

impl Played {
    /// The rules' piece values.
    pub(crate) fn piece_values(&self) -> crate::board::values::PieceValues {
        match self {
            Played::OneTurn(g) => g.piece_values(),
            Played::Micro(g) => g.piece_values(),
        }
    }
}

impl GameHandle {
    /// A new game from the start position.
    pub fn new(variant: &str, chess960: bool) -> Result<GameHandle, String> {
        GameHandle::setup(variant, chess960, None, None, &[])
    }

    /// A game of the variant named `variant` (any case) from `fen` (the start position when
    /// `None`; a DFEN where the variant has one), with Freedom's recapture square if given, after
    /// `turns`. Nothing is kept of a refused setup.
    pub fn setup(
        variant: &str,
        chess960: bool,
        fen: Option<&str>,
        recapture: Option<&str>,
        turns: &[String],
    ) -> Result<GameHandle, String> {
        let variant: Variant = variant.parse().map_err(|e: UnknownVariant| e.to_string())?;
        GameHandle::setup_of(variant, chess960, fen, recapture, turns)
    }

    /// A new game of `variant` from its start position.
    pub fn of(variant: Variant, chess960: bool) -> Result<GameHandle, String> {
        GameHandle::setup_of(variant, chess960, None, None, &[])
    }

    /// [`GameHandle::setup`] for a variant already read.
    pub fn setup_of(
        variant: Variant,
        chess960: bool,
        fen: Option<&str>,
        recapture: Option<&str>,
        turns: &[String],
    ) -> Result<GameHandle, String> {
        let mut handle = GameHandle { variant, played: variant.set_up(chess960, fen, recapture)? };
        for (i, turn) in turns.iter().enumerate() {
            handle.play(turn).map_err(|e| format!("turn {} refused: {e}", i + 1))?;
        }
        Ok(handle)
    }

    /// The variant played.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The positions `alea bench` searches for this variant, and how deep.
    pub fn bench_suite(&self) -> crate::services::bench::BenchSuite {
        self.variant.row().bench
    }

    /// The side to move's turns to the game's end that a clock is shared over
    /// ([`crate::services::registry::Row::clock_turns`]).
    pub fn clock_turns(&self) -> Option<u32> {
        self.variant.row().clock_turns
    }

    pub fn chess960(&self) -> bool {
        match &self.played {
            Played::OneTurn(g) => g.chess960(),
            Played::Micro(_) => false,
        }
    }

    /// Is the variant solved exactly, so played from its solution rather than an evaluation
    /// (Die Chess)?
    pub fn is_solved(&self) -> bool {
        self.variant.row().solved
    }

    /// Does now the work the first search would otherwise begin with and could not stop (Die
    /// Chess from its solution: solving the game, some seconds, once a process), so that a
    /// front end can wait for it where waiting is expected (the protocol's `isready`).
    pub fn prepare(&self, exact_solution: bool) {
        if self.is_solved() && exact_solution {
            crate::search::solve::shared_table();
        }
    }

    /// Can the piece-square tables ([`EvalParams`]) evaluate this variant, so that `tune` fits
    /// them and `EvalFile` loads them? If not, why (the big boards have their own evaluation).
    pub fn uses_tables(&self) -> Result<(), String> {
        let why = match &self.played {
            Played::OneTurn(g) => g.uses_tables(),
            Played::Micro(g) => g.uses_tables(),
        };
        why.map_err(|why| format!("{} is {why}", self.variant))
    }

    /// Does a turn have several micro-moves here (so thousands of turns a roll)?
    pub fn several_moves_a_turn(&self) -> bool {
        matches!(self.played, Played::Micro(_))
    }

    /// How many dice a roll has.
    pub fn dice(&self) -> usize {
        match &self.played {
            Played::OneTurn(g) => g.dice(),
            Played::Micro(g) => g.dice(),
        }
    }

    /// What `roll` lets the player do, in words, by the variant's dice: "pawn, knight, king";
    /// Gollon's "4 micro-moves by any pieces".
    pub fn roll_meaning(&self, roll: &Roll) -> String {
        match &self.played {
            Played::OneTurn(g) => g.roll_meaning(roll),
            Played::Micro(g) => g.roll_meaning(roll),
        }
    }

    /// The dice still to use in a turn in progress (a DFEN with dice), if there is one.
    pub fn dice_left(&self) -> Option<Roll> {
        match &self.played {
            Played::OneTurn(_) => None,
            Played::Micro(g) => g.roll_left(),
        }
    }

    /// Plays a turn written in UCI (several micro-moves joined by commas where the variant has
    /// them; `0000` for a pass) after checking that some roll (or Freedom) allows it.
    pub fn play(&mut self, turn: &str) -> Result<(), String> {
        match &mut self.played {
            Played::OneTurn(g) => g.play(turn),
            Played::Micro(g) => g.play(turn, None),
        }
    }

    /// Rolls for a turn made one micro-move at a time (as a person makes it at a board), in the
    /// variants of several moves a turn: the position becomes the turn in progress, whose
    /// micro-moves [`GameHandle::first_moves`] lists. `true` when the roll allows nothing and the
    /// turn passed at once.
    pub fn start_turn(&mut self, roll: &Roll) -> Result<bool, String> {
        match &mut self.played {
            Played::OneTurn(g) => Err(format!("{} plays one move a turn: play the turn whole", g.name())),
            Played::Micro(g) => g.start_turn(roll),
        }
    }

    /// Plays one micro-move (UCI) of the turn in progress; `true` when it ended the turn.
    pub fn play_step(&mut self, micro: &str) -> Result<bool, String> {
        match &mut self.played {
            Played::OneTurn(g) => Err(format!("{} plays one move a turn: play the turn whole", g.name())),
            Played::Micro(g) => g.play_step(micro),
        }
    }

    /// The micro-moves played so far of a turn made one at a time (`0000` when none).
    pub fn partial_turn(&self) -> String {
        match &self.played {
            Played::OneTurn(_) => "0000".into(),
            Played::Micro(g) => g.partial_turn(),
        }
    }

    /// Plays a turn after a known roll (`None`: without rolling) that the caller has checked
    /// against the lists ([`GameHandle::allowed_turns`], [`GameHandle::pre_roll_turns`]): a
    /// referee's way, which need not find a roll that allows it.
    pub fn play_checked(&mut self, turn: &str, roll: Option<&Roll>) -> Result<(), String> {
        match &mut self.played {
            // The game records the whole turn (Die Chess's answer after a roll is the move
            // alone; the roll joins it).
            Played::OneTurn(g) => match roll {
                Some(roll) => {
                    let whole = g.turn_of_answer(roll, turn)?;
                    g.play(&whole)
                }
                None => g.play(turn),
            },
            Played::Micro(g) => g.play(turn, roll),
        }
    }

    /// The turn as `position ... moves` writes it, of the answer `answer` after `roll`: the
    /// answer itself, but in Die Chess, whose roll changes the die, the roll joined to it
    /// (`roll2,a1b3`; `roll2` for not moving).
    pub fn turn_with_roll(&self, answer: &str, roll: &Roll) -> String {
        match &self.played {
            Played::OneTurn(g) => g.turn_of_answer(roll, answer).unwrap_or_else(|_| answer.to_string()),
            Played::Micro(_) => answer.to_string(),
        }
    }

    /// The turn `text` names here in the variant's own UCI spelling (castling either way,
    /// `e1g1` or `e1h1`), whatever the dice; `None` if it names none.
    pub fn canonical(&self, text: &str) -> Option<String> {
        match &self.played {
            Played::OneTurn(g) => g.canonical(text),
            Played::Micro(g) => g.canonical(text),
        }
    }

    /// Is the side to move in check (variants with check)?
    pub fn in_check(&self) -> bool {
        match &self.played {
            Played::OneTurn(g) => g.in_check(),
            Played::Micro(_) => false,
        }
    }

    /// The start position's FEN (DFEN where the variant has it).
    pub fn start_fen(&self) -> String {
        match &self.played {
            Played::OneTurn(g) => g.start_fen(),
            Played::Micro(g) => g.start_fen(),
        }
    }

    /// The material a turn wins at once, in centipawns by the documents' values (a king taken
    /// counts 100,000): what the `greedy` baseline plays for.
    pub fn material_gain(&self, turn: &str) -> i32 {
        match &self.played {
            Played::OneTurn(g) => g.material_gain(turn),
            Played::Micro(g) => g.material_gain(turn),
        }
    }

    /// The end of the game, if it is over.
    pub fn end(&self) -> Option<GameEnd> {
        match &self.played {
            Played::OneTurn(g) => g.end(),
            Played::Micro(g) => g.end(),
        }
    }

    /// The position as FEN (DFEN in the variants that have it).
    pub fn fen(&self) -> String {
        match &self.played {
            Played::OneTurn(g) => g.fen(),
            Played::Micro(g) => g.fen(),
        }
    }

    /// The position as FEN as it stands after `roll`, before the move: a roll changes no board
    /// but Die Chess's, where it turns the die to the face rolled (a board drawn between the roll
    /// and the move shows this).
    pub fn fen_after_roll(&self, roll: &Roll) -> String {
        match &self.played {
            Played::OneTurn(g) => g.fen_after_roll(roll),
            Played::Micro(_) => self.fen(),
        }
    }

    /// The board as front ends draw it, whatever its size.
    pub fn diagram(&self) -> Diagram {
        let (files, ranks) = self.size();
        let ranks = (0..ranks)
            .rev()
            .map(|rank| {
                let pieces = (0..files).map(|file| self.piece_at(file, rank).map(|p| p.char())).collect();
                ((rank + 1).to_string(), pieces)
            })
            .collect();
        Diagram { ranks, files: (0..files).map(|f| char::from(b'a' + f).to_string()).collect() }
    }

    /// The board's files and ranks (8 and 8 but on the big boards).
    pub fn size(&self) -> (u8, u8) {
        match &self.played {
            Played::OneTurn(g) => g.size(),
            Played::Micro(g) => g.size(),
        }
    }

    /// The board alone as chess FEN writes it (no dice left or en-passant targets of a turn of
    /// micro-moves): the position as the evaluation sees it, for fitting data.
    pub fn board_fen(&self) -> String {
        match self.chess_board() {
            Some(board) => board.fen(),
            None => self.fen(),
        }
    }

    /// The kind of piece a turn moves (its first micro-move's), after `roll` where there was one:
    /// the piece on its origin square, but in Die Chess the face the roll shows.
    pub fn moving_role(&self, turn: &str, roll: Option<&Roll>) -> Option<crate::Role> {
        match &self.played {
            Played::OneTurn(g) => g.moving_role(turn, roll),
            Played::Micro(g) => g.moving_role(turn),
        }
    }

    /// The piece on the square named `square` (`e4`, `j10`), if any.
    pub fn piece_on(&self, square: &str) -> Option<crate::Piece> {
        let (file, rank) = self.square_coords(square)?;
        self.piece_at(file, rank)
    }

    /// The file and rank (from 0) of the square named `name` on this board.
    pub fn square_coords(&self, name: &str) -> Option<(u8, u8)> {
        let (files, ranks) = self.size();
        let mut chars = name.chars();
        let file = chars.next().filter(char::is_ascii_lowercase).map(|c| c as u8 - b'a')?;
        let digits = chars.as_str();
        if digits.starts_with('0') || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let rank = digits.parse::<u8>().ok()?.checked_sub(1)?;
        (file < files && rank < ranks).then_some((file, rank))
    }

    fn piece_at(&self, file: u8, rank: u8) -> Option<crate::Piece> {
        match &self.played {
            Played::OneTurn(g) => g.piece_at(file, rank),
            Played::Micro(g) => g.piece_at(file, rank),
        }
    }

    /// The FEN of Chess960 start number `index` (0 to 959; larger numbers wrap), in the
    /// standard numbering.
    pub fn chess960_start(index: u64) -> String {
        Board::chess960((index % 960) as u16).fen()
    }

    /// The 8x8 chess board, in the variants that have one (Die Chess holds two dice instead,
    /// the big boards are no chess board).
    pub(crate) fn chess_board(&self) -> Option<&Board> {
        match &self.played {
            Played::OneTurn(g) => g.chess_board(),
            Played::Micro(g) => g.chess_board(),
        }
    }

    /// The side to move (whose turn it is).
    pub fn side_to_move(&self) -> Color {
        match &self.played {
            Played::OneTurn(g) => g.side_to_move(),
            Played::Micro(g) => g.side_to_move(),
        }
    }

    /// The move number (FEN's sixth field).
    pub fn fullmove_number(&self) -> u32 {
        match &self.played {
            Played::OneTurn(g) => g.fullmove(),
            Played::Micro(g) => g.fullmove(),
        }
    }

    /// The position's key (repetitions, `d`).
    pub fn key(&self) -> u64 {
        match &self.played {
            Played::OneTurn(g) => g.key(),
            Played::Micro(g) => g.key(),
        }
    }

    /// The turns played so far, as text.
    pub fn turns(&self) -> Vec<String> {
        match &self.played {
            Played::OneTurn(g) => g.turns(),
            Played::Micro(g) => g.turns(),
        }
    }

    /// Checks a roll against the variant: as many faces as it rolls, or in a turn in progress
    /// exactly the dice left.
    pub fn check_roll(&self, faces: &[u8]) -> Result<Roll, String> {
        match &self.played {
            Played::OneTurn(g) => g.roll_of(faces),
            Played::Micro(g) => g.check_roll(faces),
        }
    }

    /// A roll as a person or a program types it: faces as words, run together or joined by
    /// commas (`1 4 6`, `146`, `1,4,6`), checked as [`GameHandle::check_roll`] checks them.
    pub fn roll_from_text(&self, text: &str) -> Result<Roll, String> {
        self.check_roll(typed_roll(text)?.faces())
    }

    /// The roll to come as a person enters it (dice thrown at a table), read as
    /// [`GameHandle::roll_from_text`] reads it, and refused where the variant never rolls it here
    /// (BrainKing throws again a face on which nothing can move) or rolls nothing now.
    pub fn entered_roll(&self, text: &str) -> Result<Roll, String> {
        let typed = typed_roll(text)?;
        if self.dice_left().is_none() && typed.dice() != self.dice() {
            // Said plainly: a person typing a throw has no turn in progress to give fewer for.
            let wrong = crate::rules::dice::RollError::WrongCount { expected: self.dice(), got: typed.dice() };
            return Err(format!("{}: {wrong}", self.variant()));
        }
        let roll = self.check_roll(typed.faces())?;
        let outcomes = self.outcomes();
        if outcomes.is_empty() {
            return Err("no roll now: the game is over, a turn is in progress, or this turn has no roll".into());
        }
        if !outcomes.iter().any(|o| o.roll == roll && o.weight > 0) {
            return Err(format!(
                "{} never rolls {roll} here: it throws again a face on which nothing can move",
                self.variant()
            ));
        }
        Ok(roll)
    }

    /// The turns playable without rolling (Freedom moves), sorted; empty when there are none.
    pub fn pre_roll_turns(&self) -> Vec<String> {
        if self.end().is_some() {
            return Vec::new();
        }
        match &self.played {
            Played::OneTurn(g) => g.pre_roll_turns(),
            Played::Micro(_) => Vec::new(),
        }
    }

    /// Every whole turn the roll allows, sorted (`0000` alone when it allows nothing). In a
    /// turn in progress, `None` stands for the dice left.
    pub fn allowed_turns(&self, roll: &RollSpec) -> Result<Vec<String>, String> {
        if let Some(end) = self.end() {
            return Err(format!("the game is over ({end}); no roll can be played"));
        }
        match &self.played {
            // After a roll, what the player answers (in Die Chess the move alone, or `0000`).
            Played::OneTurn(g) => match roll {
                RollSpec::Any => {
                    g.free_turns()?;
                    Ok(g.allowed_turns(None))
                }
                RollSpec::Faces(faces) => Ok(g.allowed_turns(Some(&self.check_roll(faces)?))),
            },
            Played::Micro(g) => Ok(sorted_texts(g.allowed_turns(&self.rolled_micro(g.as_ref(), roll)?))),
        }
    }

    /// Is `roll` one that [`GameHandle::allowed_turns`] takes here? The same check and error,
    /// without listing the turns (four dice allow hundreds of thousands).
    pub fn check_roll_spec(&self, roll: &RollSpec) -> Result<(), String> {
        if let Some(end) = self.end() {
            return Err(format!("the game is over ({end}); no roll can be played"));
        }
        match (&self.played, roll) {
            (Played::OneTurn(g), RollSpec::Any) => g.free_turns(),
            (Played::OneTurn(_), RollSpec::Faces(faces)) => self.check_roll(faces).map(|_| ()),
            (Played::Micro(g), _) => self.rolled_micro(g.as_ref(), roll).map(|_| ()),
        }
    }

    /// Are `turns` allowed after `roll` ([`SearchRoot::Only`]'s check, `go searchmoves`')? With
    /// several moves a turn each is checked on its own against the roll, or a turn in
    /// progress's dice (four dice allow hundreds of thousands of turns); a one-move variant
    /// lists what the roll allows, or any roll without one.
    pub fn check_only(&self, roll: Option<&RollSpec>, turns: &[String]) -> Result<(), String> {
        if turns.is_empty() {
            return Err("no turn named".into());
        }
        let refused = match &self.played {
            Played::Micro(g) => {
                let dice = match (roll, self.dice_left()) {
                    (Some(spec), _) => self.rolled_micro(g.as_ref(), spec)?,
                    (None, Some(left)) => left,
                    (None, None) => return Err("the turns of several micro-moves need the roll".into()),
                };
                turns.iter().find(|t| !self.allows(t, &dice))
            }
            Played::OneTurn(_) => {
                let allowed = self.allowed_turns(roll.unwrap_or(&RollSpec::Any))?;
                turns.iter().find(|t| !allowed.contains(t))
            }
        };
        match refused {
            Some(t) => Err(format!("{t} is not allowed here")),
            None => Ok(()),
        }
    }

    /// How many whole turns the roll allows (for lists too long to print).
    pub fn count_turns(&self, roll: &RollSpec) -> Result<u64, String> {
        match &self.played {
            Played::OneTurn(_) => Ok(self.allowed_turns(roll)?.len() as u64),
            Played::Micro(g) => {
                if let Some(end) = self.end() {
                    return Err(format!("the game is over ({end}); no roll can be played"));
                }
                Ok(g.count_turns(&self.rolled_micro(g.as_ref(), roll)?))
            }
        }
    }

    /// The `k`-th (from 0) of the turns the roll allows in [`GameHandle::allowed_turns`]'s
    /// order, without listing them (a Gollon roll allows millions); `None` past the last.
    pub fn nth_turn(&self, roll: &RollSpec, k: u64) -> Result<Option<String>, String> {
        match &self.played {
            Played::OneTurn(_) => Ok(self.allowed_turns(roll)?.into_iter().nth(k as usize)),
            Played::Micro(g) => {
                if let Some(end) = self.end() {
                    return Err(format!("the game is over ({end}); no roll can be played"));
                }
                Ok(g.nth_turn(&self.rolled_micro(g.as_ref(), roll)?, k))
            }
        }
    }

    /// Does `roll` allow `turn`, written as the game writes it ([`GameHandle::canonical`])? The
    /// referee's check, which needs no list of every turn.
    pub fn allows(&self, turn: &str, roll: &Roll) -> bool {
        if self.canonical(turn).as_deref() != Some(turn) {
            return false;
        }
        match &self.played {
            Played::OneTurn(_) => {
                self.allowed_turns(&RollSpec::Faces(roll.faces().to_vec())).is_ok_and(|l| l.iter().any(|t| t == turn))
            }
            Played::Micro(g) => self
                .rolled_micro(g.as_ref(), &RollSpec::Faces(roll.faces().to_vec()))
                .is_ok_and(|roll| g.allows(turn, &roll)),
        }
    }

    /// The `greedy` baseline's turn after `roll`: the allowed turn that wins the most material at
    /// once ([`GameHandle::material_gain`]), the first in [`GameHandle::allowed_turns`]'s order
    /// among equals; and that gain.
    pub fn greedy_turn(&self, roll: &RollSpec) -> Result<(String, i32), String> {
        match &self.played {
            Played::OneTurn(_) => {
                let allowed = self.allowed_turns(roll)?;
                let best = allowed.iter().map(|t| self.material_gain(t)).max().unwrap_or(0);
                let turn = allowed.into_iter().find(|t| self.material_gain(t) == best).unwrap_or_else(|| "0000".into());
                Ok((turn, best))
            }
            Played::Micro(g) => {
                if let Some(end) = self.end() {
                    return Err(format!("the game is over ({end}); no roll can be played"));
                }
                Ok(g.greedy_turn(&self.rolled_micro(g.as_ref(), roll)?))
            }
        }
    }

    /// The first micro-moves of the turns the roll allows, sorted (what a GUI offers while the
    /// player makes a turn one micro-move at a time); one-move variants list their moves.
    pub fn first_moves(&self, roll: &RollSpec) -> Result<Vec<String>, String> {
        match &self.played {
            Played::OneTurn(_) => self.allowed_turns(roll),
            Played::Micro(g) => {
                if let Some(end) = self.end() {
                    return Err(format!("the game is over ({end}); no roll can be played"));
                }
                let first = sorted_texts(g.first_moves(&self.rolled_micro(g.as_ref(), roll)?));
                Ok(if first.is_empty() { vec!["0000".into()] } else { first })
            }
        }
    }

    /// The roll a micro-move game is asked about, checked (in a turn in progress, its dice).
    fn rolled_micro(&self, g: &dyn MicroTurnGame, roll: &RollSpec) -> Result<Roll, String> {
        match roll {
            RollSpec::Any => Err(format!("{} has no free turn: give the dice", g.name())),
            RollSpec::Faces(faces) => g.check_roll(faces),
        }
    }

    /// May the side to move roll now? Not once the game is over or in a turn in progress, nor
    /// where the rules forbid it (Vegas: in check, or after giving check): the turn is then one
    /// of [`GameHandle::pre_roll_turns`].
    pub fn may_roll(&self) -> bool {
        !self.outcomes().is_empty()
    }

    /// The outcomes of the roll to come (none once the game is over or in a turn in progress).
    pub fn outcomes(&self) -> OutcomeList {
        if self.end().is_some() {
            return OutcomeList::new();
        }
        match &self.played {
            Played::OneTurn(g) => g.outcomes(),
            Played::Micro(g) => g.outcomes(),
        }
    }

    /// A roll drawn by the outcomes' weights from `pick`, a number below their total weight
    /// (the one way a roll is chosen: BrainKing never rolls a face with no move, three dice
    /// weigh each multiset by its orderings).
    pub fn roll_for(&self, pick: u32) -> Option<Roll> {
        let outcomes = self.outcomes();
        let total: u32 = outcomes.iter().map(|o| o.weight).sum();
        crate::rules::dice::pick_by_weight(&outcomes, u64::from(pick % total.max(1)))
    }

    /// Before the roll, each outcome with its probability and a quick reading of its worth to
    /// the mover, an expected result: the search's horizon (the captures the dice allow, a king
    /// taken a win), in the variants whose horizon reads a roll's outcomes apart (several moves a
    /// turn, by dice that name the roles); empty elsewhere, in a turn in progress and in a
    /// finished game.
    pub fn outcome_worths(&self) -> Vec<(Roll, f64, f64)> {
        match &self.played {
            Played::OneTurn(_) => Vec::new(),
            Played::Micro(g) => g.outcome_worths(&self.variant.with_defaults(SearchOptions::default())),
        }
    }

    /// The sum of the outcomes' weights (what [`GameHandle::roll_for`] draws below).
    pub fn total_weight(&self) -> u32 {
        self.outcomes().iter().map(|o| o.weight).sum()
    }

    /// `d`'s lines about the rules' state: recapture square, passes in check, dice left.
    pub fn state_lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        match &self.played {
            Played::OneTurn(g) => lines.extend(g.state_lines()),
            Played::Micro(g) => lines.extend(g.state_lines()),
        }
        lines
    }

    /// Stockfish's `go perft`: each root move's count of legal chess move paths (dice ignored),
    /// handed to `counted` as it is finished; false when `stop` ended the count early.
    pub fn perft(
        &self,
        depth: u32,
        stop: &std::sync::atomic::AtomicBool,
        mut counted: impl FnMut(&str, u64),
    ) -> Result<bool, String> {
        if depth == 0 {
            return Err("perft depth must be at least 1".into());
        }
        match &self.played {
            Played::OneTurn(g) => g.perft(depth, stop, &mut counted),
            Played::Micro(g) => Ok(g.perft(depth, stop, &mut counted)),
        }
    }

    /// Searches the position. `eval` replaces the variant's evaluation where it fits
    /// ([`GameHandle::eval_fits`]; else the variant's own plays); `report` sees each completed
    /// iteration.
    pub fn search(
        &self,
        root: &SearchRoot,
        limits: Limits,
        mut options: SearchOptions,
        shared: &Shared,
        report: &mut (dyn FnMut(&SearchReport) + Send),
    ) -> Result<SearchReport, String> {
        if let Some(end) = self.end() {
            return Err(format!("the game is over ({end})"));
        }
        if options.eval.as_deref().is_some_and(|params| self.eval_fits(params).is_err()) {
            options.eval = None;
        }
        let options = self.variant.with_defaults(options);
        match &self.played {
            Played::OneTurn(g) => {
                let roll = match root {
                    SearchRoot::Rolled(RollSpec::Faces(faces)) => Some(self.check_roll(faces)?),
                    _ => None,
                };
                let root = match (root, &roll) {
                    (SearchRoot::Decision, _) => OneTurnRoot::Decision,
                    (SearchRoot::Rolled(_), Some(roll)) => OneTurnRoot::Rolled(roll),
                    (SearchRoot::Rolled(_), None) => OneTurnRoot::Free,
                    (SearchRoot::Only { turns, .. }, _) => OneTurnRoot::Only(turns),
                };
                g.search(root, limits, options, shared, report)
            }
            Played::Micro(g) => {
                let (roll, only) = match root {
                    SearchRoot::Decision => (None, None),
                    SearchRoot::Rolled(spec) => (Some(self.rolled_micro(g.as_ref(), spec)?), None),
                    SearchRoot::Only { roll: None, turns } => (None, Some(turns.as_slice())),
                    SearchRoot::Only { roll: Some(spec), turns } => {
                        (Some(self.rolled_micro(g.as_ref(), spec)?), Some(turns.as_slice()))
                    }
                };
                g.search(roll.as_ref(), only, limits, options, shared, report)
            }
        }
    }

    /// The turn the `expectimax2` baseline plays after `roll` ([`crate::search::baseline`]), in
    /// the variants of several moves a turn.
    pub fn baseline_turn(&self, roll: &RollSpec) -> Result<String, String> {
        if let Some(end) = self.end() {
            return Err(format!("the game is over ({end})"));
        }
        match &self.played {
            Played::OneTurn(g) => {
                Err(format!("expectimax2 plays the variants of several moves a turn, not {}", g.name()))
            }
            Played::Micro(g) => Ok(g.baseline_turn(&self.rolled_micro(g.as_ref(), roll)?)),
        }
    }

    /// A turn of this position in SAN for people (`Nf3`, `exd5,Qxd5`; `--` for a pass): chess
    /// SAN with check marks where the variant has check, plain where it has none. A text that is
    /// no turn here comes back as it is.
    pub fn san(&self, turn: &str) -> String {
        match &self.played {
            Played::OneTurn(g) => g.san(turn),
            Played::Micro(g) => g.san(turn),
        }
    }

    /// The turn a SAN text names here (`exd5`; `e4,Qh5,Nc3` for several micro-moves; `--` for a
    /// pass), in UCI, or `None`. Whether a roll allows it is another question.
    pub fn parse_san(&self, text: &str) -> Option<String> {
        if text == "--" {
            return Some("0000".into());
        }
        match &self.played {
            Played::OneTurn(g) => g.parse_san(text),
            Played::Micro(g) => g.parse_san(text),
        }
    }

    /// Why a pre-roll turn may be played without rolling (Freedom: `recapture`, `check`,
    /// `defend`); empty for other turns and variants.
    pub fn pre_roll_kinds(&self, turn: &str) -> Vec<&'static str> {
        match &self.played {
            Played::OneTurn(g) => g.pre_roll_kinds(turn),
            Played::Micro(_) => Vec::new(),
        }
    }

    /// The evaluation a fit starts from: the documents' piece values, flat square tables (on
    /// the big boards, with their own terms' starting weights).
    pub fn starting_eval(&self) -> EvalParams {
        self.variant.starting_eval()
    }

    /// Can this variant play with `params`? The 8x8 tables do not fit a big board, and the big
    /// boards' own terms (`pawn-step`, `centre`) mean nothing where the tables hold them.
    pub fn eval_fits(&self, params: &EvalParams) -> Result<(), String> {
        match self.uses_tables() {
            Ok(()) if params.pawn_step != 0 || params.centre != 0 => Err(format!(
                "pawn-step and centre are the big boards' terms; {} is evaluated by its square tables",
                self.variant()
            )),
            Err(why) if !params.flat_tables() => Err(why),
            _ => Ok(()),
        }
    }

    /// The terms the variant's evaluation sums where it is not the 8x8 tables (the big boards:
    /// [`crate::eval::big::BigEval::terms`]), White's minus Black's, in the position now.
    pub fn eval_terms(&self) -> Option<Vec<i32>> {
        match &self.played {
            Played::OneTurn(g) => g.eval_terms(),
            Played::Micro(g) => g.eval_terms(),
        }
    }

    /// The evaluation the engine plays with unless told otherwise.
    pub fn default_eval(&self) -> EvalParams {
        self.variant.default_eval()
    }

    /// Dice a turn in progress has left, as DFEN letters (for display).
    pub fn dice_letters(&self) -> Option<String> {
        match &self.played {
            Played::Micro(g) => g.dice_letters(),
            Played::OneTurn(_) => None,
        }
    }
}

fn sorted_texts(texts: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut v: Vec<String> = texts.into_iter().collect();
    v.sort();
    v.dedup();
    v
}

/// Faces as typed (`1 4 6`, `146`, `1,4,6`), not yet checked against a variant.
fn typed_roll(text: &str) -> Result<Roll, String> {
    let words: Vec<&str> = text.split([',', ' ']).filter(|w| !w.is_empty()).collect();
    Roll::parse(&words).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every roll a variant can throw from its start is taken as typed (faces as words, the
    /// variant's own order kept), and in BrainKing a face on which nothing can move is refused,
    /// as its dice never show one; a roll in a turn in progress is refused.
    #[test]
    fn an_entered_roll_is_one_the_variant_can_throw() {
        for variant in Variant::ALL.map(Variant::name) {
            let game = GameHandle::new(variant, false).unwrap();
            let outcomes = game.outcomes();
            assert!(!outcomes.is_empty(), "{variant}");
            for o in outcomes.iter().filter(|o| o.weight > 0) {
                let text = o.roll.faces().iter().map(u8::to_string).collect::<Vec<_>>().join(" ");
                assert_eq!(game.entered_roll(&text), Ok(o.roll), "{variant} {text}");
            }
        }
        let brainking = GameHandle::new("brainking", false).unwrap();
        let refused = brainking.entered_roll("6").unwrap_err();
        assert!(refused.contains("never rolls 6 here"), "{refused}");
        assert_eq!(
            brainking.entered_roll("1 2").unwrap_err(),
            "brainking: this variant rolls 1 die, but 2 faces were given"
        );
        let dicechess3 = GameHandle::new("dicechess3", false).unwrap();
        assert_eq!(
            dicechess3.entered_roll("1,4").unwrap_err(),
            "dicechess3: this variant rolls 3 dice, but 2 faces were given"
        );
        let mut dicechess3 = dicechess3;
        dicechess3.start_turn(&Roll::new(&[1, 1, 2]).unwrap()).unwrap();
        assert!(dicechess3.entered_roll("1 1 2").unwrap_err().contains("no roll now"));
    }

    #[test]
    fn the_ten_by_ten_board_speaks_through_the_same_handle() {
        assert!(GameHandle::new("brainking10", true).is_err(), "no Chess960 on 10x10");
        assert!(GameHandle::setup("brainking10", false, None, Some("e4"), &[]).unwrap_err().contains("freedom"));
        let game = GameHandle::setup("brainking10", false, None, None, &["e2e4".into(), "e9e7".into()]).unwrap();
        assert_eq!((game.size(), game.dice(), game.side_to_move()), ((10, 10), 1, Color::White));
        assert_eq!(game.square_coords("j10"), Some((9, 9)));
        for off in ["k1", "a11", "a0", "a01", "e", "10"] {
            assert_eq!(game.square_coords(off), None, "{off}");
        }
        let diagram = game.diagram();
        assert_eq!((diagram.ranks.len(), diagram.files.len(), diagram.ranks[0].0.as_str()), (10, 10, "10"));
        assert_eq!(diagram.ranks[0].1[4], Some('k'));
        assert_eq!(game.piece_on("e7").map(|p| p.char()), Some('p'));
        // Three kings a side: a king's move names its origin, SAN reads back.
        let kings =
            GameHandle::setup("brainking10", false, Some("k9/10/10/10/10/10/10/10/10/K1K6r w - - 0 1"), None, &[])
                .unwrap();
        assert_eq!(kings.san("a1b1"), "Kab1");
        assert_eq!(kings.parse_san("Kab1").as_deref(), Some("a1b1"));
        assert_eq!(kings.san("0000"), "--");
        // A king taken is worth more than any material; the moving piece is the rook.
        let capture =
            GameHandle::setup("brainking10", false, Some("k9/10/10/10/10/10/10/10/10/K1K4r2 b - - 0 1"), None, &[])
                .unwrap();
        assert_eq!(capture.material_gain("h1c1"), crate::services::one_turn::KING_GAIN);
        assert_eq!(capture.moving_role("h1c1", None), Some(crate::Role::Rook));
        assert!(game.uses_tables().is_err(), "the 8x8 tables do not evaluate 10x10");
        // Thirty queens spread out have 471 moves, more than a turn list holds: refused (it
        // crashed the engine before), not played.
        let queens = "1QQQ4Qk/Q4QQ2Q/Q6Q1Q/Q8Q/Q3Q5/Q8Q/Q8Q/Q8Q/1Q7Q/K1QQQQQQQ1 w - - 0 1";
        let refused = GameHandle::setup("brainking10", false, Some(queens), None, &[]).unwrap_err();
        assert!(refused.contains("at most"), "{refused}");
        assert!(GameHandle::new("freedom", false).unwrap().uses_tables().is_ok());
    }

    /// A table kept from search to search (the protocol's, `alea play`'s, a self-play loop's)
    /// searches in full every time: a search's own end does not read as a stop at the next one
    /// (it did: every search after the first stopped at once, on its first turn), while a stop
    /// asked from outside stays visible to the caller afterwards.
    #[test]
    fn a_reused_table_searches_in_full_and_a_stop_asked_stays_asked() {
        use crate::search::{SearchOptions, Shared};
        let limits = Limits { depth: Some(2), ..Limits::default() };
        for (variant, faces) in [("brainking10", vec![2]), ("dicechess3", vec![1, 4, 6]), ("freedom", vec![2])] {
            let game = GameHandle::new(variant, false).unwrap();
            let shared = Shared::new(1);
            let root = SearchRoot::Rolled(RollSpec::Faces(faces));
            let search = |shared: &Shared| {
                game.search(
                    &root,
                    limits.clone(),
                    SearchOptions { use_tt: false, ..SearchOptions::default() },
                    shared,
                    &mut |_| {},
                )
                .unwrap()
            };
            let first = search(&shared);
            let again = search(&shared);
            assert_eq!((first.depth, again.depth), (2, 2), "{variant}");
            assert_eq!((first.nodes, first.best), (again.nodes, again.best), "{variant}");
            assert!(!shared.stop.load(std::sync::atomic::Ordering::Relaxed), "{variant}");
            shared.request_stop();
            let stopped = search(&shared);
            assert!(stopped.nodes < first.nodes, "{variant}");
            assert!(shared.stop.load(std::sync::atomic::Ordering::Relaxed), "{variant}: the caller sees its stop");
        }
    }

    #[test]
    fn the_big_boards_evaluate_their_own_terms_and_refuse_tables() {
        let freedom = GameHandle::new("freedom", false).unwrap();
        let freedom_tables = freedom.default_eval();
        assert_eq!(freedom.eval_terms(), None, "the tables are read from the board");
        assert!(freedom.eval_fits(&freedom_tables).is_ok());
        for name in ["grand", "brainking10"] {
            let big = GameHandle::new(name, false).unwrap();
            let start = big.starting_eval();
            assert!(start.pawn_step > 0 && start.flat_tables(), "{name}");
            assert!(big.eval_fits(&start).is_ok() && big.eval_fits(&big.default_eval()).is_ok(), "{name}");
            assert!(big.eval_fits(&freedom_tables).unwrap_err().contains("8x8"), "{name}");
            assert!(freedom.eval_fits(&start).unwrap_err().contains("pawn-step"), "{name}");
            // The start is level: every term cancels.
            assert_eq!(big.eval_terms(), Some(vec![0; 8]), "{name}");
        }
        // Black without its a7 pawn (4 steps from its second rank) and its a11 knight (one
        // step from the edge rank).
        let grand = GameHandle::setup(
            "grand",
            false,
            Some("r2rq2qr2r/1nbb1kk1bbnn/nnbb1kk1bbnn/r2rq2qr2r/pppppppppppp/1ppppppppppp/PPPPPPPPPPPP/PPPPPPPPPPPP/R2RQ2QR2R/NNBB1KK1BBNN/NNBB1KK1BBNN/R2RQ2QR2R w - - 0 1"),
            None,
            &[],
        )
        .unwrap();
        assert_eq!(grand.eval_terms(), Some(vec![1, 1, 0, 0, 0, 0, 4, 1]));
    }

    #[test]
    fn setups_are_checked_whole() {
        assert!(GameHandle::new("dicechess3", true).is_err(), "no Chess960 in dicechess3");
        assert!(GameHandle::setup("dicechess3", false, None, Some("e4"), &[]).is_err());
        assert!(GameHandle::new("chess", false).unwrap_err().contains("dicechess3"), "the names are listed");
        // A refused turn refuses the whole setup and names the turn.
        let e = GameHandle::setup("dicechess3", false, None, None, &["e2e4,d1h5".into(), "a7a5".into()]).unwrap_err();
        assert!(e.contains("turn 2"), "{e}");
        let e = GameHandle::setup("freedom", false, None, None, &["e2e4,e7e5".into()]).unwrap_err();
        assert!(e.contains("one a turn"), "{e}");
        for name in Variant::ALL.map(Variant::name) {
            let game = GameHandle::new(name, false).unwrap();
            assert_eq!(game.variant().name(), name);
            assert!(game.end().is_none());
        }
    }

    #[test]
    fn rolls_are_checked_against_the_variant_and_the_turn_in_progress() {
        let game = GameHandle::new("dicechess3", false).unwrap();
        assert!(game.check_roll(&[1, 4, 6]).is_ok());
        assert!(game.check_roll(&[1, 4]).unwrap_err().contains("rolls 3 dice"));
        let in_turn = GameHandle::setup(
            "dicechess3",
            false,
            Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PN"),
            None,
            &[],
        )
        .unwrap();
        assert_eq!(in_turn.dice_left(), Some(Roll::new(&[1, 2]).unwrap()));
        assert!(in_turn.check_roll(&[2, 1]).is_ok());
        assert!(in_turn.check_roll(&[1, 2, 3]).unwrap_err().contains("dice 1 2 left"));
        assert!(in_turn.outcomes().is_empty(), "nothing to roll in a turn in progress");
        let freedom = GameHandle::new("freedom", false).unwrap();
        assert!(freedom.check_roll(&[2, 5]).is_err());
    }

    #[test]
    fn rolls_are_drawn_by_weight() {
        for name in Variant::ALL.map(Variant::name) {
            let game = GameHandle::new(name, false).unwrap();
            let outcomes = game.outcomes();
            let total = game.total_weight();
            // Each outcome is drawn by exactly as many numbers as it weighs.
            let mut drawn = vec![0u32; outcomes.len()];
            for pick in 0..total {
                let roll = game.roll_for(pick).unwrap();
                drawn[outcomes.iter().position(|o| o.roll == roll).unwrap()] += 1;
            }
            assert_eq!(drawn, outcomes.iter().map(|o| o.weight).collect::<Vec<_>>(), "{name}");
        }
    }

    #[test]
    fn turns_in_san_and_freedom_labels() {
        let game = GameHandle::setup("freedom", false, None, None, &["e2e4".into(), "d7d5".into()]).unwrap();
        assert_eq!(game.san("e4d5"), "exd5");
        assert_eq!(game.pre_roll_kinds("e4d5"), Vec::<&str>::new());
        let game =
            GameHandle::setup("freedom", false, None, None, &["e2e4".into(), "d7d5".into(), "e4d5".into()]).unwrap();
        assert_eq!(game.pre_roll_kinds("d8d5"), ["recapture"]);
        let game = GameHandle::new("dicechess3", false).unwrap();
        assert_eq!(game.san("e2e4,d1h5,b1c3"), "e4,Qh5,Nc3");
        assert_eq!(game.san("0000"), "--");
        // No check marks where there is no check.
        let game = GameHandle::setup("dicechess3", false, Some("4k3/8/8/8/8/8/8/K3R3 w - - 0 1"), None, &[]).unwrap();
        assert_eq!(game.san("e1e7"), "Re7");
        assert_eq!(game.san("e1e8"), "Rxe8");
    }

    #[test]
    fn a_turn_made_one_micro_move_at_a_time() {
        let mut game = GameHandle::new("dicechess3", false).unwrap();
        let roll = Roll::new(&[1, 4, 5]).unwrap();
        let first = game.first_moves(&RollSpec::Faces(vec![1, 4, 5])).unwrap();
        assert!(!game.start_turn(&roll).unwrap());
        let left = RollSpec::Faces(game.dice_left().unwrap().faces().to_vec());
        assert_eq!(game.first_moves(&left).unwrap(), first);
        assert!(!game.play_step("e2e4").unwrap());
        assert_eq!(game.partial_turn(), "e2e4");
        assert_eq!(game.dice_left(), Some(Roll::new(&[4, 5]).unwrap()));
        // No pawn die is left: refused, nothing changed.
        let before = game.fen();
        assert!(game.play_step("a2a3").is_err());
        assert_eq!(game.fen(), before);
        assert!(game.play("d1h5").is_err(), "a whole turn while one is made step by step");
        assert!(game.play_step("d1h5").unwrap(), "the rooks are shut in: two dice are the most");
        assert_eq!(game.turns(), ["e2e4,d1h5"]);
        assert_eq!(game.side_to_move(), Color::Black);
        assert_eq!(game.partial_turn(), "0000");
        // A roll that allows nothing passes at once: Black's bishops are shut in.
        assert!(game.start_turn(&Roll::new(&[3, 3, 3]).unwrap()).unwrap());
        assert_eq!(game.turns(), ["e2e4,d1h5", "0000"]);
        assert_eq!(game.side_to_move(), Color::White);
        assert!(GameHandle::new("freedom", false).unwrap().start_turn(&Roll::new(&[1]).unwrap()).is_err());
    }

    #[test]
    fn the_baseline_plays_allowed_turns() {
        let game = GameHandle::new("dicechess3", false).unwrap();
        let roll = RollSpec::Faces(vec![1, 2, 3]);
        let turn = game.baseline_turn(&roll).unwrap();
        assert!(game.allowed_turns(&roll).unwrap().contains(&turn), "{turn}");
        assert!(GameHandle::new("freedom", false).unwrap().baseline_turn(&RollSpec::Faces(vec![1])).is_err());
    }
}
