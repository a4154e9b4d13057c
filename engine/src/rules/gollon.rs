//! `gollon`: Gollon's count die (source 001, docs/variants.md). One die gives the number of
//! micro-moves, 1, 2 or 3, and 4 for a 4, 5 or 6, made by any pieces (the same one may move
//! again); as many as possible must be made (the maximum rule). Otherwise as `dicechess3`: no
//! check, the king captured to win, castling one micro-move (attacks ignored), several
//! en-passant targets, DFEN (a turn in progress writes its micro-moves left as `A`s: `AAA`).

use crate::board::chessmove::Move;
use crate::board::movegen::{Generator, Legality, MoveList};
use crate::board::piece::Role;
use crate::board::values::PieceValues;
use crate::rules::GameEnd;
use crate::rules::dice::{Outcome, OutcomeList, Roll};
use crate::rules::micro::{DicePool, Die, MicroPosition, MicroRules};
use crate::rules::micro_chess_common;
use crate::rules::piece_dice;
use arrayvec::ArrayVec;

/// Gollon's count die.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Gollon;

/// The most micro-moves a turn has (a 4, 5 or 6).
pub const MOST_MOVES: u8 = 4;

impl MicroRules for Gollon {
    micro_chess_common!();

    fn name(&self) -> &'static str {
        "gollon"
    }

    /// The rules give no values: chess's 1/3/3/5/9, as for dicechess3.
    fn piece_values(&self) -> PieceValues {
        piece_dice::CHESS_VALUES
    }

    /// One count die.
    fn dice(&self) -> usize {
        1
    }

    /// The face's number of micro-moves, by any pieces.
    fn pool(&self, roll: &Roll) -> DicePool {
        DicePool::any_piece(roll.faces()[0].min(MOST_MOVES))
    }

    /// The micro-moves left, as the face that gives that many.
    fn roll_left(&self, pos: &MicroPosition) -> Option<Roll> {
        let left = pos.dice.any();
        (left > 0).then(|| Roll::new(&[left]).expect("1 to 4 is a face"))
    }

    fn roll_meaning(&self, roll: &Roll) -> String {
        match self.pool(roll).any() {
            1 => "1 micro-move by any piece".into(),
            n => format!("{n} micro-moves by any pieces"),
        }
    }

    fn pool_size(&self) -> usize {
        usize::from(MOST_MOVES)
    }

    fn dice_letters(&self) -> &'static str {
        "A"
    }

    /// 1, 2 and 3 micro-moves with 1/6 each, 4 with 1/2 (the faces 4, 5 and 6 as one outcome);
    /// none once the game is over.
    fn outcomes(&self, pos: &MicroPosition) -> OutcomeList {
        if self.end(pos).is_some() {
            return OutcomeList::new();
        }
        (1..=MOST_MOVES)
            .map(|n| {
                let weight = if n == MOST_MOVES { 3 } else { 1 };
                let roll = Roll::new(&[n]).expect("a face");
                Outcome { roll, probability: f64::from(weight) / 6.0, weight }
            })
            .collect()
    }

    /// As in dicechess3: a captured king, or a hundred turns without a capture or a pawn move.
    fn end(&self, pos: &MicroPosition) -> Option<GameEnd> {
        piece_dice::king_taken_or_fifty_turns(pos)
    }

    /// Every piece's moves and en passant, and castling (a king's move), while a micro-move is
    /// left.
    fn micro_moves(&self, pos: &MicroPosition, out: &mut MoveList) {
        piece_dice::die_moves(pos, out);
        if pos.dice.has(Role::King) {
            Generator::new(&pos.board, Legality::PseudoLegal).castles(out);
        }
    }

    fn has_micro_move(&self, pos: &MicroPosition) -> bool {
        piece_dice::die_can_move(pos) || {
            let mut castles = MoveList::new();
            if pos.dice.has(Role::King) {
                Generator::new(&pos.board, Legality::PseudoLegal).castles(&mut castles);
            }
            !castles.is_empty()
        }
    }

    fn surely_moves_after(&self, pos: &MicroPosition, m: Move, spent: &[Die]) -> bool {
        piece_dice::die_surely_moves_after(pos, m, spent)
    }

    fn surely_moves_twice_after(&self, pos: &MicroPosition, m: Move, spent: &[Die]) -> bool {
        piece_dice::dice_surely_move_twice_after(pos, m, spent)
    }

    fn micro_captures(&self, pos: &MicroPosition, out: &mut MoveList) {
        piece_dice::die_captures(pos, out);
    }

    /// One micro-move of the count (castling too).
    fn spent(&self, pos: &MicroPosition, m: Move) -> ArrayVec<Die, 2> {
        let mut dice = ArrayVec::new();
        if pos.dice.any() > 0 {
            dice.push(Die::Any);
        } else {
            // Dice of piece types (the horizon's every-die pool): the mover's, the king's for castling.
            let role = if m.is_castle() { Role::King } else { pos.board.role_at(m.from()).expect("a piece") };
            dice.push(Die::Piece(role));
        }
        dice
    }
}
