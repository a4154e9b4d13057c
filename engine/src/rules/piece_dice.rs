//! The micro-moves that dice naming pieces allow on the 8x8 board (a micro-move per die, the
//! die's face the moving piece's type, en passant a pawn's): what the variants of several
//! micro-moves a turn on the 8x8 board share, and what the search asks of them ahead of a
//! micro-move (will the dice left surely move something?).

use crate::board::chessmove::Move;
use crate::board::movegen::{Generator, Legality, MoveList};
use crate::board::piece::{Color, Role, RoleSet};
use crate::board::values::PieceValues;
use crate::rules::micro::{DicePool, Die, MicroPosition};
use crate::rules::{EndReason, GameEnd, GameResult};

/// The piece values of these variants, whose rules give none: chess's 1/3/3/5/9.
pub const CHESS_VALUES: PieceValues = PieceValues([100, 300, 300, 500, 900, 0]);

/// The end of a game of these variants: a captured king, or a hundred turns without a capture or
/// a pawn move, judged at a turn's start.
pub(crate) fn king_taken_or_fifty_turns(pos: &MicroPosition) -> Option<GameEnd> {
    if let Some(loser) = Color::ALL.into_iter().find(|&c| pos.board.pieces(c, Role::King).is_empty()) {
        return Some(GameEnd { result: GameResult::Win(!loser), reason: EndReason::KingCapture });
    }
    if !pos.in_turn() && pos.board.halfmove_clock() >= 100 {
        return Some(GameEnd { result: GameResult::Draw, reason: EndReason::FiftyMoveRule });
    }
    None
}

/// Appends the captures of the dice's piece types (en passant with a pawn's die).
pub(crate) fn die_captures(pos: &MicroPosition, out: &mut MoveList) {
    let roles = pos.dice.roles().fold(RoleSet::EMPTY, RoleSet::with);
    Generator::new(&pos.board, Legality::PseudoLegal).captures(roles, out);
    if pos.dice.has(Role::Pawn) {
        pos.en_passant_captures(out);
    }
}

/// Appends each die's piece type's moves and en passant (castling apart): a micro-move per die.
pub(crate) fn die_moves(pos: &MicroPosition, out: &mut MoveList) {
    let generator = Generator::new(&pos.board, Legality::PseudoLegal);
    for role in pos.dice.roles() {
        generator.role_moves(role, out);
    }
    if pos.dice.has(Role::Pawn) {
        pos.en_passant_captures(out);
    }
}

/// Would [`die_moves`] list anything? Stops at the first move it finds.
pub(crate) fn die_can_move(pos: &MicroPosition) -> bool {
    let generator = Generator::new(&pos.board, Legality::PseudoLegal);
    if pos.dice.roles().any(|role| generator.role_can_move(role)) {
        return true;
    }
    pos.dice.has(Role::Pawn) && {
        let mut ep = MoveList::new();
        pos.en_passant_captures(&mut ep);
        !ep.is_empty()
    }
}

/// The dice left after the micro-move `m` (spending `spent`) where the board can tell what they
/// will surely move without making `m`: `None` for castling and en passant (which takes a pawn
/// off a square the board still holds).
fn dice_after_plain(pos: &MicroPosition, m: Move, spent: &[Die]) -> Option<DicePool> {
    if m.is_castle() || m.is_en_passant() {
        return None;
    }
    let mut left = pos.dice;
    for &die in spent {
        left.spend(die);
    }
    Some(left)
}

/// Will the dice left after the micro-move `m` (spending `spent`) surely move something (die
/// moves only: castling and en passant are left to [`die_can_move`] after it)?
pub(crate) fn die_surely_moves_after(pos: &MicroPosition, m: Move, spent: &[Die]) -> bool {
    dice_after_plain(pos, m, spent)
        .is_some_and(|left| left.roles().any(|role| pos.board.role_surely_moves_after(m, role)))
}

/// Will the two dice left after the micro-move `m` (spending `spent`) surely both move, one
/// piece after another (die moves only, as in [`die_surely_moves_after`])?
pub(crate) fn dice_surely_move_twice_after(pos: &MicroPosition, m: Move, spent: &[Die]) -> bool {
    let Some(left) = dice_after_plain(pos, m, spent) else { return false };
    debug_assert_eq!(left.len(), 2);
    let twice = |first, second| pos.board.roles_surely_move_twice_after(m, first, second);
    if left.any() == 0 {
        // Two dice of piece types: either may go first.
        let mut roles = left.roles();
        let first = roles.next().expect("two dice left");
        return match roles.next() {
            Some(second) => twice(first, second) || twice(second, first),
            None => twice(first, first),
        };
    }
    left.roles()
        .any(|first| left.roles().any(|second| left.covers_two(first.index(), second.index()) && twice(first, second)))
}
