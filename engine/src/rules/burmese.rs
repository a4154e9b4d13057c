//! `burmese`: Burmese dice chess (source 001, docs/variants.md). As `dicechess3` (three dice, a
//! micro-move per die, no check, the king captured to win, several en-passant targets, DFEN),
//! except that any die may be left unused (a turn is at least one micro-move where one exists, and
//! the player may stop after any of them) and there is no castling.

use crate::board::chessmove::Move;
use crate::board::movegen::MoveList;
use crate::board::values::PieceValues;
use crate::rules::GameEnd;
use crate::rules::dice::{OutcomeList, fair_dice};
use crate::rules::micro::{Die, MicroPosition, MicroRules};
use crate::rules::micro_chess_common;
use crate::rules::piece_dice;
use arrayvec::ArrayVec;

/// Dice rolled at the start of a turn.
const DICE: usize = 3;

/// Burmese dice chess.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Burmese;

impl MicroRules for Burmese {
    micro_chess_common!();

    fn name(&self) -> &'static str {
        "burmese"
    }

    /// The rules give no values: chess's 1/3/3/5/9, as for dicechess3.
    fn piece_values(&self) -> PieceValues {
        piece_dice::CHESS_VALUES
    }

    fn dice(&self) -> usize {
        DICE
    }

    fn dice_optional(&self) -> bool {
        true
    }

    /// The 56 outcomes of three dice; none once the game is over.
    fn outcomes(&self, pos: &MicroPosition) -> OutcomeList {
        if self.end(pos).is_some() { OutcomeList::new() } else { fair_dice(DICE) }
    }

    /// As in dicechess3: a captured king, or a hundred turns without a capture or a pawn move.
    fn end(&self, pos: &MicroPosition) -> Option<GameEnd> {
        piece_dice::king_taken_or_fifty_turns(pos)
    }

    /// Each die's piece type's moves and en passant, without castling.
    fn micro_moves(&self, pos: &MicroPosition, out: &mut MoveList) {
        piece_dice::die_moves(pos, out);
    }

    fn micro_captures(&self, pos: &MicroPosition, out: &mut MoveList) {
        piece_dice::die_captures(pos, out);
    }

    fn spent(&self, pos: &MicroPosition, m: Move) -> ArrayVec<Die, 2> {
        let mut dice = ArrayVec::new();
        dice.push(Die::Piece(pos.board.role_at(m.from()).expect("a piece on the move's origin")));
        dice
    }
}
