//! Which two 8x8 positions are one reversible move apart, read from their hashes alone.
//!
//! A move of a piece other than a pawn, or a passed turn, changes a position's hash by a key
//! that only such a move gives: the piece's keys on its two squares and the side to move (or
//! the side to move alone). The search asks it at a turn's start to see a repetition one turn
//! ahead, before it trusts the transposition table there (graph-history interaction, see
//! `search::tree`), as Stockfish's cuckoo tables let it see an upcoming repetition. The move
//! is not verified (a piece may stand in the way): a false "yes" only costs a table cutoff.

use crate::board::attacks;
use crate::board::bitboard::Bitboard;
use crate::board::piece::{Color, Role};
use crate::board::square::Square;
use crate::board::zobrist;
use std::sync::OnceLock;

/// Slots of the open-addressed table: 3,669 keys (the 3,668 pairs of squares a piece of either
/// side can move between on an empty board, and the pass) fill it less than a quarter.
const SLOTS: usize = 1 << 14;

/// The hash changes of every reversible move, each at the slot its low bits name or the next
/// free one (no key is zero).
fn move_keys() -> &'static [u64; SLOTS] {
    static KEYS: OnceLock<Box<[u64; SLOTS]>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut table = Box::new([0u64; SLOTS]);
        let mut insert = |key: u64| {
            let mut i = key as usize & (SLOTS - 1);
            while table[i] != 0 && table[i] != key {
                i = (i + 1) & (SLOTS - 1);
            }
            table[i] = key;
        };
        insert(zobrist::WHITE_TO_MOVE);
        for color in Color::ALL {
            for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
                let keys = &zobrist::PIECE[color.index()][role.index()];
                for from in 0..64u8 {
                    for to in attacks::piece(role, Square::new(from), Bitboard::EMPTY) {
                        insert(keys[usize::from(from)] ^ keys[to.index()] ^ zobrist::WHITE_TO_MOVE);
                    }
                }
            }
        }
        table
    })
}

/// Could one move of a piece (not a pawn), or a pass, lead from the position hashed `a` to the
/// one hashed `b` (or back)? Both hashes as [`crate::rules::Position::hash`] gives them: rule
/// state that differs (castling rights, a recapture square) makes the answer no.
pub fn one_move_apart(a: u64, b: u64) -> bool {
    let change = a ^ b;
    if change == 0 {
        return false;
    }
    let table = move_keys();
    let mut i = change as usize & (SLOTS - 1);
    loop {
        match table[i] {
            0 => return false,
            key if key == change => return true,
            _ => i = (i + 1) & (SLOTS - 1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::{Legality, MoveList, generate};

    #[test]
    fn the_table_holds_each_piece_move_once() {
        let filled = move_keys().iter().filter(|&&k| k != 0).count();
        assert_eq!(filled, 2 * (336 + 560 + 896 + 1456 + 420) / 2 + 1);
    }

    /// Two boards, the side to move aside, differ by one piece (not a pawn) on another square:
    /// the answer worked out square by square.
    fn relocated(a: &crate::Board, b: &crate::Board) -> bool {
        let differ: Vec<Square> = (0..64u8).map(Square::new).filter(|&sq| a.piece_at(sq) != b.piece_at(sq)).collect();
        let moved = |from: Square, to: Square| {
            a.piece_at(from).is_some_and(|p| p.role != Role::Pawn)
                && a.piece_at(to).is_none()
                && b.piece_at(from).is_none()
                && b.piece_at(to) == a.piece_at(from)
        };
        a.turn() != b.turn() && differ.len() == 2 && (moved(differ[0], differ[1]) || moved(differ[1], differ[0]))
    }

    /// Every quiet move of a piece in a middlegame is found one move apart, and pawn moves,
    /// captures and the positions three moves on are found so exactly when one piece stands
    /// elsewhere.
    #[test]
    fn moves_of_a_position_are_one_move_apart_and_others_are_not() {
        let board = crate::Board::from_fen("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w - - 4 5")
            .expect("a legal FEN");
        let mut moves = MoveList::new();
        generate(&board, crate::RoleSet::ALL, Legality::Legal, &mut moves);
        let (mut near, mut far, mut relocations) = (0, 0, 0);
        for &m in moves.iter() {
            let mut after = board.clone();
            after.play(m);
            let quiet_piece_move = board.role_at(m.from()) != Some(Role::Pawn) && board.captured_square(m).is_none();
            if quiet_piece_move {
                assert!(one_move_apart(board.hash(), after.hash()), "{m:?}");
                assert!(one_move_apart(after.hash(), board.hash()), "{m:?}");
                near += 1;
            } else if board.role_at(m.from()) == Some(Role::Pawn) || board.captured_square(m).is_some() {
                assert!(!one_move_apart(board.hash(), after.hash()), "{m:?}");
                far += 1;
            }
            let mut replies = MoveList::new();
            generate(&after, crate::RoleSet::ALL, Legality::Legal, &mut replies);
            for &r in replies.iter() {
                let mut two = after.clone();
                two.play(r);
                let mut thirds = MoveList::new();
                generate(&two, crate::RoleSet::ALL, Legality::Legal, &mut thirds);
                for &t in thirds.iter() {
                    let mut three = two.clone();
                    three.play(t);
                    let apart = one_move_apart(board.hash(), three.hash());
                    assert_eq!(apart, relocated(&board, &three), "{m:?} {r:?} {t:?}");
                    relocations += usize::from(apart);
                }
            }
        }
        assert!(near > 10 && far > 5 && relocations > 10, "{near} {far} {relocations}");
    }
}
