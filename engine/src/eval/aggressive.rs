//! The peer's hand-written evaluation (its "aggressive" bot), as its public code documents it,
//! for the 8x8 board: material (P 100, N and B 300, R 500, Q 900), and three terms that push the
//! attack on the enemy king: a pawn storm towards it, the closeness of the pieces to it, and the
//! attacks on the squares around it. The attacks' weight (25) is documented; the storm's and the
//! closeness's are not, and are ours (below). Each term is the side's own less the opponent's.
//! The peer plays no check: a king may be left attacked, and taking it wins.

use crate::board::Board;
use crate::board::attacks;
use crate::board::piece::{Color, Role};
use crate::board::square::Square;
use crate::board::values::PieceValues;

/// The peer's material.
pub const VALUES: PieceValues = PieceValues([100, 300, 300, 500, 900, 0]);

/// A square around (or of) the enemy king attacked by one of the side's pieces: the peer's
/// documented weight.
pub const KING_ZONE_ATTACK: i32 = 25;

/// A pawn on the enemy king's file or a file beside it, for each rank it has advanced (ours: the
/// peer's weight is not public; a pawn two ranks up is worth a fifth of a pawn more).
pub const STORM_PER_RANK: i32 = 10;

/// A knight, bishop, rook or queen, for each step it is closer to the enemy king than the
/// board's width allows (ours, as the storm's: seven steps away counts nothing, next to it 35).
pub const CLOSENESS_PER_STEP: i32 = 5;

/// Steps a king takes from `a` to `b`.
fn king_steps(a: Square, b: Square) -> i32 {
    i32::from(a.file().abs_diff(b.file()).max(a.rank().abs_diff(b.rank())))
}

/// The three attack terms and material for `side`, against the other side's king (none when it
/// has none: the game is then over).
fn side_score(board: &Board, side: Color) -> i32 {
    let material: i32 = Role::ALL.into_iter().map(|r| VALUES.of(r) * board.count(side, r) as i32).sum();
    let Some(king) = board.king(!side) else { return material };
    let occupied = board.occupied();
    let mut storm = 0;
    for pawn in board.pieces(side, Role::Pawn) {
        if pawn.file().abs_diff(king.file()) <= 1 {
            let advanced = if side == Color::White { pawn.rank() - 1 } else { 6 - pawn.rank() };
            storm += STORM_PER_RANK * i32::from(advanced);
        }
    }
    let mut closeness = 0;
    let zone = attacks::king(king) | crate::board::bitboard::Bitboard::from_square(king);
    let mut zone_attacks = 0;
    for role in Role::ALL {
        for sq in board.pieces(side, role) {
            if !matches!(role, Role::Pawn | Role::King) {
                closeness += CLOSENESS_PER_STEP * (7 - king_steps(sq, king));
            }
            let reach = if role == Role::Pawn { attacks::pawn(side, sq) } else { attacks::piece(role, sq, occupied) };
            zone_attacks += (reach & zone).count() as i32;
        }
    }
    material + storm + closeness + KING_ZONE_ATTACK * zone_attacks
}

/// The position's worth to `us`, in centipawns: its terms less the opponent's.
pub fn evaluate(board: &Board, us: Color) -> i32 {
    side_score(board, us) - side_score(board, !us)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_even_and_a_position_and_its_mirror_alike() {
        assert_eq!(evaluate(&Board::startpos(), Color::White), 0);
        let board = Board::from_fen("r3k2r/ppp2ppp/2n5/3qp3/3P4/2N2N2/PPP2PPP/R2QK2R w KQkq - 0 1").unwrap();
        assert_eq!(evaluate(&board, Color::White), evaluate(&board.mirrored(), Color::Black));
    }

    #[test]
    fn each_term_counts_as_documented() {
        // Lone kings on e1 and e8, and one white piece.
        let score = |fen: &str| evaluate(&Board::from_fen(fen).unwrap(), Color::White);
        // A pawn on f4 (two ranks up, beside the king's file): 100 + 2 x 10.
        assert_eq!(score("4k3/8/8/8/5P2/8/8/4K3 w - - 0 1"), 100 + 2 * STORM_PER_RANK);
        // A knight on d6, two king steps from e8 (five closer than seven), attacking e8 and f7
        // of the king's zone (d7, d8, e7, e8, f7, f8).
        assert_eq!(score("4k3/8/3N4/8/8/8/8/4K3 w - - 0 1"), 300 + 5 * CLOSENESS_PER_STEP + 2 * KING_ZONE_ATTACK);
        // Black's pieces count against White.
        assert_eq!(score("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1"), -score("4k3/3Q4/8/8/8/8/8/4K3 b - - 0 1"));
    }
}
