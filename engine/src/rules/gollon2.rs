//! `gollon2`: Gollon's two dice of contrasting colours (source 001, docs/variants.md). A piece
//! die (1 pawn ... 6 king) and a count die (1, 2 or 3, and 4 for a 4, 5 or 6): one piece of the
//! rolled type makes that many micro-moves in succession, the same piece each time, as many as it
//! can (the maximum rule); a promoted pawn goes on as its new piece. No piece of the type can move:
//! the turn passes. Castling is a king move (and a rook move), attacks ignored. Otherwise as
//! `dicechess3`: no check, the king captured to win, several en-passant targets. A roll is the
//! piece die's face, then the count die's (`go roll 2 5`: a knight, four micro-moves); a DFEN's
//! dice field holds the piece die and an `A` per micro-move after it (`NAAA`), then, once the
//! piece has moved, its square (`AA@f3`).

use crate::board::chessmove::Move;
use crate::board::movegen::{Generator, Legality, MoveList};
use crate::board::piece::Role;
use crate::board::values::PieceValues;
use crate::rules::GameEnd;
use crate::rules::dice::{Outcome, OutcomeList, Roll, RollError};
use crate::rules::micro::{DicePool, Die, MicroPosition, MicroRules};
use crate::rules::micro_chess_common;
use crate::rules::piece_dice;
use arrayvec::ArrayVec;

/// Gollon's piece die and count die.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Gollon2;

/// The most micro-moves a turn has (a count of 4, 5 or 6).
const MOST_MOVES: u8 = 4;

impl MicroRules for Gollon2 {
    micro_chess_common!();

    fn name(&self) -> &'static str {
        "gollon2"
    }

    /// The rules give no values: chess's 1/3/3/5/9, as for dicechess3.
    fn piece_values(&self) -> PieceValues {
        piece_dice::CHESS_VALUES
    }

    /// The piece die and the count die.
    fn dice(&self) -> usize {
        2
    }

    /// The piece die's face first, then the count die's: their order is kept.
    fn roll_of(&self, faces: &[u8]) -> Result<Roll, RollError> {
        Roll::ordered(faces)
    }

    /// A die of the piece type, then the count's other micro-moves for the piece it moved.
    fn pool(&self, roll: &Roll) -> DicePool {
        let [piece, count] = [roll.faces()[0], roll.faces()[1]];
        DicePool::one_piece(Role::of_face(piece), count.min(MOST_MOVES) - 1)
    }

    /// Before the first micro-move the roll itself; after it the piece's type and the count left.
    fn roll_left(&self, pos: &MicroPosition) -> Option<Roll> {
        if !pos.in_turn() {
            return None;
        }
        let (role, count) = match pos.mover {
            Some(sq) => (pos.board.role_at(sq)?, pos.dice.any()),
            None => (pos.dice.piece_die()?, pos.dice.any() + 1),
        };
        Roll::ordered(&[role.face(), count]).ok()
    }

    fn roll_meaning(&self, roll: &Roll) -> String {
        let [piece, count] = [roll.faces()[0], roll.faces()[1]];
        let n = count.min(MOST_MOVES);
        let role = Role::of_face(piece).name();
        if n == 1 { format!("one {role}, one micro-move") } else { format!("one {role}, {n} micro-moves") }
    }

    fn pool_size(&self) -> usize {
        usize::from(MOST_MOVES)
    }

    fn dice_letters(&self) -> &'static str {
        "PNBRQKA"
    }

    fn one_piece_turns(&self) -> bool {
        true
    }

    /// Each piece type with each count, 1/36 each, a count of 4 three times as likely (4-6);
    /// none once the game is over.
    fn outcomes(&self, pos: &MicroPosition) -> OutcomeList {
        if self.end(pos).is_some() {
            return OutcomeList::new();
        }
        let mut out = OutcomeList::new();
        for piece in 1..=6 {
            for count in 1..=MOST_MOVES {
                let weight = if count == MOST_MOVES { 3 } else { 1 };
                let roll = Roll::ordered(&[piece, count]).expect("faces");
                out.push(Outcome { roll, probability: f64::from(weight) / 36.0, weight });
            }
        }
        out
    }

    /// As in dicechess3: a captured king, or a hundred turns without a capture or a pawn move.
    fn end(&self, pos: &MicroPosition) -> Option<GameEnd> {
        piece_dice::king_taken_or_fifty_turns(pos)
    }

    /// The first micro-move: a piece of the die's type (castling with a king's or a rook's die);
    /// after it, that piece's moves alone. Without the one-piece rule (the horizon's every-die
    /// pool) every die's type moves, as in dicechess3.
    fn micro_moves(&self, pos: &MicroPosition, out: &mut MoveList) {
        let generator = Generator::new(&pos.board, Legality::PseudoLegal);
        if !pos.dice.is_one_piece() {
            crate::rules::piece_dice::die_moves(pos, out);
            if pos.dice.has(Role::King) || pos.dice.has(Role::Rook) {
                generator.castles(out);
            }
            return;
        }
        let (role, from) = match pos.mover {
            Some(sq) => match pos.board.role_at(sq) {
                Some(role) => (role, Some(sq)),
                None => return,
            },
            None => match pos.dice.piece_die() {
                Some(role) => (role, None),
                None => return,
            },
        };
        let first = out.len();
        generator.role_moves(role, out);
        if role == Role::Pawn {
            pos.en_passant_captures(out);
        }
        if from.is_none() && matches!(role, Role::King | Role::Rook) {
            generator.castles(out);
        }
        if let Some(sq) = from {
            let mut kept = first;
            for i in first..out.len() {
                if out[i].from() == sq {
                    out[kept] = out[i];
                    kept += 1;
                }
            }
            out.truncate(kept);
        }
    }

    /// The piece die for the first micro-move, a micro-move of the count after it.
    fn spent(&self, pos: &MicroPosition, m: Move) -> ArrayVec<Die, 2> {
        let mut dice = ArrayVec::new();
        if pos.mover.is_some() && pos.dice.any() > 0 {
            dice.push(Die::Any);
        } else if m.is_castle() {
            // Castling is a king's move and a rook's: the die rolled pays for it.
            dice.push(Die::Piece(if pos.dice.count(Role::King) > 0 { Role::King } else { Role::Rook }));
        } else {
            dice.push(Die::Piece(pos.board.role_at(m.from()).expect("a piece on the move's origin")));
        }
        dice
    }
}
