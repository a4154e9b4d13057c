//! What a variant of one move a turn is beyond its [`Rules`]: its positions as FEN, its
//! squares, SAN, what a turn does to material, how a roll and an answer read. The game handle's
//! one-move arm ([`crate::services::one_turn`]) turns this into text once for every such variant.

use crate::board::piece::{Piece, Role};
use crate::rules::dice::Roll;
use crate::rules::{GameError, Rules};
use std::fmt;
use std::sync::atomic::AtomicBool;

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
    fn parse_fen(&self, text: &str) -> Result<Self::Position, GameError>;

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
    ) -> Result<bool, GameError>;

    /// Does this game start from a Chess960 position (castling written king-takes-rook)?
    fn chess960(&self) -> bool {
        false
    }

    /// Sets Freedom's recapture square; other variants have none.
    fn set_recapture(&self, _pos: &mut Self::Position, _square: &str) -> Result<(), GameError> {
        Err(GameError::Position("this variant has no recapture square".into()))
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

    /// Why `text` is no turn the position allows, where the rules can say more than "illegal"
    /// (Die Chess: the face, or the move the die cannot make); `None` by default.
    fn why_not(&self, _pos: &Self::Position, _text: &str) -> Option<GameError> {
        None
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
    fn turn_of_answer(&self, _roll: &Roll, answer: &str) -> Result<String, GameError> {
        Ok(answer.to_string())
    }

    /// The position as `roll` leaves it before the move: a roll changes no board by default
    /// (Die Chess's die turns to the face rolled).
    fn after_roll(&self, pos: &Self::Position, _roll: &Roll) -> Self::Position {
        pos.clone()
    }

    /// May a turn be chosen among every move, whatever the dice (`go roll any`, a GUI's free
    /// move)? If not, why.
    fn free_turns(&self) -> Result<(), GameError> {
        Ok(())
    }
}
