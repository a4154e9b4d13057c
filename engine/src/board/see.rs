//! Static exchange evaluation: what a capture wins once both sides have recaptured on its
//! square with their least valuable pieces, as long as that pays. The horizon search follows only
//! captures that do not lose material this way.

use crate::board::Board;
use crate::board::chessmove::Move;
use crate::board::piece::{Color, Role};
use crate::board::values::PieceValues;

/// Material `m` wins for the mover after the exchange on its destination (centipawns).
pub fn see(board: &Board, m: Move, values: &PieceValues) -> i32 {
    if m.is_null() || m.is_castle() {
        return 0;
    }
    let to = m.to();
    let from = m.from();
    let Some(mover) = board.role_at(from) else { return 0 };
    let mut occupied = board.occupied() ^ crate::board::bitboard::Bitboard::from_square(from);
    let mut gain = [0i32; 32];
    gain[0] = match board.captured_square(m) {
        Some(sq) => {
            occupied ^= crate::board::bitboard::Bitboard::from_square(sq);
            occupied |= crate::board::bitboard::Bitboard::from_square(to);
            board.role_at(sq).map_or(0, |r| values.of(r))
        }
        None => 0,
    };
    let mut on_square = mover;
    if let Some(promoted) = m.promotion_role() {
        gain[0] += values.of(promoted) - values.of(Role::Pawn);
        on_square = promoted;
    }
    let mut side: Color = !board.turn();
    let mut depth = 0;
    loop {
        let attackers = board.attackers(to, side, occupied) & occupied;
        let Some((sq, role)) =
            Role::ALL.into_iter().find_map(|r| (attackers & board.by_role(r)).first().map(|s| (s, r)))
        else {
            break;
        };
        depth += 1;
        if depth >= gain.len() {
            break;
        }
        gain[depth] = values.of(on_square) - gain[depth - 1];
        if (-gain[depth - 1]).max(gain[depth]) < 0 {
            break;
        }
        occupied ^= crate::board::bitboard::Bitboard::from_square(sq);
        on_square = role;
        side = !side;
    }
    while depth > 0 {
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
        depth -= 1;
    }
    gain[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::{find_uci, legal_moves};

    fn see_of(fen: &str, uci: &str) -> i32 {
        let board = Board::from_fen(fen).unwrap();
        let m = find_uci(&board, &legal_moves(&board), uci).unwrap();
        see(&board, m, &PieceValues([100, 300, 300, 500, 900, 2000]))
    }

    #[test]
    fn exchanges() {
        // A free pawn.
        assert_eq!(see_of("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), 100);
        // Rook takes a pawn defended by a pawn: loses the exchange.
        assert_eq!(see_of("4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), 100 - 500);
        // Pawn takes a knight defended by a pawn: wins a knight for a pawn.
        assert_eq!(see_of("4k3/8/4p3/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 300 - 100);
        // X-ray: doubled rooks win a defended pawn twice over.
        assert_eq!(see_of("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), 100);
    }
}
