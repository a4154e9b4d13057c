//! Freedom's king safety: every check is a free move there (no roll needed), so the squares from
//! which the enemy can check a king, and that the king's side does not guard, are threats the
//! dice do not slow down.

use crate::board::Board;
use crate::board::attacks;
use crate::board::bitboard::Bitboard;
use crate::board::piece::{Color, Role};

/// The squares from which `by` can check the other side's king in one move and which no piece
/// of the king's side attacks (pawn checks aside).
#[inline]
pub fn safe_check_squares(board: &Board, by: Color) -> Bitboard {
    let Some(king) = board.king(!by) else { return Bitboard::EMPTY };
    let occupied = board.occupied();
    let free = !board.by_color(by).0;
    let knight_targets = attacks::knight(king).0 & free;
    let diagonal = attacks::bishop(king, occupied).0 & free;
    let straight = attacks::rook(king, occupied).0 & free;
    // Each piece checks from the squares it reaches on the king's lines of its own kind; a
    // queen along either kind of line after either kind of step.
    let mut reach = 0u64;
    for (role, lines) in [
        (Role::Knight, knight_targets),
        (Role::Bishop, diagonal),
        (Role::Rook, straight),
        (Role::Queen, diagonal | straight),
    ] {
        let mut pieces = board.pieces(by, role);
        while let Some(sq) = pieces.first() {
            pieces.0 &= pieces.0 - 1;
            reach |= attacks::piece(role, sq, occupied).0 & lines;
        }
    }
    let mut safe = 0u64;
    let mut squares = Bitboard(reach);
    while let Some(sq) = squares.first() {
        squares.0 &= squares.0 - 1;
        if board.attackers(sq, !by, occupied).is_empty() {
            safe |= 1 << sq.index();
        }
    }
    Bitboard(safe)
}

/// The term for White: `weight` centipawns per safe checking square White has against Black's
/// king, less Black's against White's, each side's count capped.
#[inline]
pub fn white_term(board: &Board, weight: i32) -> i32 {
    if weight == 0 {
        return 0;
    }
    let count = |by: Color| (safe_check_squares(board, by).count() as i32).min(6);
    weight * (count(Color::White) - count(Color::Black))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::legal_moves;
    use rand::{RngExt, SeedableRng};

    fn squares(board: &Board, by: Color) -> Vec<String> {
        let mut bb = safe_check_squares(board, by);
        let mut out = Vec::new();
        while let Some(sq) = bb.first() {
            bb.0 &= bb.0 - 1;
            out.push(sq.to_string());
        }
        out.sort();
        out
    }

    /// A knight reaching c7 and f6 (the g7 pawn guards f6), a rook reaching a8 and e1 (both
    /// open to e8, neither beside the king); Black's pawn and king check nothing.
    #[test]
    fn hand_checked_squares() {
        let board = Board::from_fen("4k3/6p1/8/3N4/8/8/8/R6K w - - 0 1").unwrap();
        assert_eq!(squares(&board, Color::White), ["a8", "c7", "e1"]);
        assert!(squares(&board, Color::Black).is_empty());
        assert_eq!(white_term(&board, 10), 30);
        assert_eq!(white_term(&board, 0), 0);
        // d8 checks from beside the king, which guards it; e1 checks down the open file.
        let board = Board::from_fen("4k3/8/8/8/8/8/8/3R3K w - - 0 1").unwrap();
        assert_eq!(squares(&board, Color::White), ["e1"]);
    }

    /// Along random games, the squares are those a knight, bishop, rook or queen of the side to
    /// move can step to (its own pieces' squares excluded) and check from, in the position as
    /// it stands guarded by no enemy piece: worked out move by move from the attack tables.
    #[test]
    fn the_squares_are_the_unguarded_checks_of_single_moves() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let mut found = 0;
        for fen in
            [crate::services::bench::KIWIPETE, "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3"]
        {
            for _ in 0..30 {
                let mut board = Board::from_fen(fen).unwrap();
                for _ in 0..80 {
                    let by = board.turn();
                    let king = board.king(!by).unwrap();
                    let occupied = board.occupied();
                    let mut expected = 0u64;
                    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
                        let mut pieces = board.pieces(by, role);
                        while let Some(from) = pieces.first() {
                            pieces.0 &= pieces.0 - 1;
                            let mut targets = Bitboard(attacks::piece(role, from, occupied).0 & !board.by_color(by).0);
                            while let Some(to) = targets.first() {
                                targets.0 &= targets.0 - 1;
                                let after = Bitboard((occupied.0 & !(1 << from.index())) | 1 << to.index());
                                if attacks::piece(role, to, after).contains(king) && !board.is_attacked(to, !by) {
                                    expected |= 1 << to.index();
                                }
                            }
                        }
                    }
                    assert_eq!(safe_check_squares(&board, by).0, expected, "in {}", board.fen());
                    found += expected.count_ones();
                    let all = legal_moves(&board);
                    if all.is_empty() {
                        break;
                    }
                    board.play(all[rng.random_range(0..all.len())]);
                }
            }
        }
        assert!(found > 500, "{found} squares compared");
    }
}
