//! The won endgame against a lone king: what the evaluation adds so that the search drives the
//! king to the edge and brings its own king near, as a mate needs.
//!
//! A mate with a rook or a queen lies beyond any search's horizon while the lone king is in the
//! middle, and the material and square tables, learned from whole games, score the shuffling
//! moves alike: Alea, a rook up, drew by the fifty-move rule against Stockfish. The term gives
//! the search a slope toward the mate (the "mop-up" of chess engines), and only where one side
//! has nothing but its king and the other can mate: a queen, a rook, or two minor pieces one of
//! them a bishop.

use crate::board::Board;
use crate::board::attacks;
use crate::board::bitboard::Bitboard;
use crate::board::piece::{Color, Role};
use crate::board::square::Square;

/// Centipawns for each step of the lone king toward the edge (0 in the centre, 3 on the edge).
const TO_EDGE: i32 = 40;
/// Centipawns for each step toward a corner (the rank's and file's distances to the nearest
/// corner, summed), which the mates with minor pieces need.
const TO_CORNER: i32 = 8;
/// Centipawns for each step the stronger king comes nearer (Chebyshev distance 7 to 1).
const KINGS_NEAR: i32 = 12;
/// Centipawns for each square fewer in the lone king's box: the squares it could walk to,
/// one step at a time, without crossing one the stronger side attacks or stands on. Under dice
/// the stronger king moves on one roll in six, so the pieces' box is most of the technique.
const BOX: i32 = 4;

/// The term for White, in centipawns: positive when Black has a lone king and White can mate,
/// negative in the reverse case, else 0.
#[inline]
pub fn white_bonus(board: &Board) -> i32 {
    for strong in [Color::White, Color::Black] {
        let weak = !strong;
        if board.by_color(weak).more_than_one() || !can_mate(board, strong) {
            continue;
        }
        let (Some(lone), Some(own)) = (board.king(weak), board.king(strong)) else { continue };
        let bonus = TO_EDGE * edge_distance(lone)
            + TO_CORNER * (6 - corner_distance(lone))
            + KINGS_NEAR * (7 - chebyshev(lone, own))
            + BOX * (64 - box_area(board, strong, lone) as i32);
        return if strong == Color::White { bonus } else { -bonus };
    }
    0
}

/// A queen, a rook, or two minor pieces one of them a bishop.
fn can_mate(board: &Board, side: Color) -> bool {
    let has = |role| board.pieces(side, role).any();
    let minors = board.pieces(side, Role::Bishop).count() + board.pieces(side, Role::Knight).count();
    has(Role::Queen) || has(Role::Rook) || (has(Role::Bishop) && minors >= 2)
}

/// The squares the lone king on `lone` reaches step by step through squares the `strong` side
/// neither attacks (seen through the lone king, as it stands in the line it would step along)
/// nor stands on; its own square included.
fn box_area(board: &Board, strong: Color, lone: Square) -> u32 {
    let occupied = board.occupied() ^ Bitboard::from_square(lone);
    let mut attacked = 0u64;
    for sq in board.by_color(strong) {
        attacked |= match board.role_at(sq) {
            Some(Role::Pawn) => attacks::pawn(strong, sq).0,
            Some(role) => attacks::piece(role, sq, occupied).0,
            None => 0,
        };
    }
    let open = !(attacked | board.by_color(strong).0);
    let mut region = Bitboard::from_square(lone).0;
    loop {
        let next = (king_step(region) & open) | region;
        if next == region {
            return region.count_ones();
        }
        region = next;
    }
}

/// The squares a king step from any square of `squares` reaches, and those squares.
fn king_step(squares: u64) -> u64 {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    let row = squares | ((squares << 1) & NOT_A) | ((squares >> 1) & NOT_H);
    row | (row << 8) | (row >> 8)
}

/// 0 in the four centre squares, 3 on the edge.
fn edge_distance(sq: Square) -> i32 {
    let from_centre = |x: u8| if x < 4 { 3 - i32::from(x) } else { i32::from(x) - 4 };
    from_centre(sq.file()).max(from_centre(sq.rank()))
}

/// Steps of file and rank to the nearest corner, summed: 0 in a corner, 6 in the centre.
fn corner_distance(sq: Square) -> i32 {
    let to_side = |x: u8| i32::from(x.min(7 - x));
    to_side(sq.file()) + to_side(sq.rank())
}

fn chebyshev(a: Square, b: Square) -> i32 {
    let d = |x: u8, y: u8| (i32::from(x) - i32::from(y)).abs();
    d(a.file(), b.file()).max(d(a.rank(), b.rank()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bonus(fen: &str) -> i32 {
        white_bonus(&Board::from_fen(fen).expect("a legal FEN"))
    }

    #[test]
    fn it_pulls_the_lone_king_to_the_edge_and_the_kings_together() {
        let centre = bonus("8/8/8/3k4/8/8/8/R3K3 w - - 0 1");
        let edge = bonus("3k4/8/8/8/8/8/8/R3K3 w - - 0 1");
        let corner = bonus("k7/8/8/8/8/8/8/R3K3 w - - 0 1");
        assert!(0 < centre && centre < edge && edge < corner, "{centre} {edge} {corner}");
        let near = bonus("3k4/8/3K4/8/8/8/8/R7 w - - 0 1");
        assert!(near > edge, "{near} {edge}");
        // Colours reversed, the sign is.
        assert_eq!(bonus("r3k3/8/8/8/8/8/8/3K4 w - - 0 1"), -bonus("3k4/8/8/8/8/8/8/R3K3 w - - 0 1"));
    }

    #[test]
    fn the_box_is_what_the_pieces_leave_the_lone_king() {
        let board = |fen: &str| Board::from_fen(fen).expect("a legal FEN");
        let e1 = Square::parse("e1").unwrap();
        // A rook on the third rank keeps the king on e1 to the first two ranks (but a1 and a2,
        // which the rook covers too); on the second, to the first (but a1); a knight and a king
        // take from a king in the open only the squares they stand on or cover (seven).
        assert_eq!(box_area(&board("8/8/8/8/7K/R7/8/4k3 w - - 0 1"), Color::White, e1), 14);
        assert_eq!(box_area(&board("8/8/8/8/7K/8/R7/4k3 w - - 0 1"), Color::White, e1), 7);
        assert_eq!(
            box_area(&board("8/8/8/3k4/8/8/8/1N2K3 w - - 0 1"), Color::White, Square::parse("d5").unwrap()),
            64 - 2 - 7
        );
        assert!(bonus("8/8/8/8/7K/8/R7/4k3 w - - 0 1") > bonus("8/8/8/8/7K/R7/8/4k3 w - - 0 1"));
    }

    #[test]
    fn only_a_lone_king_against_mating_material() {
        // A pawn beside the king, a knight alone, two knights, a bishop alone: nothing.
        for fen in [
            "3k4/3p4/8/8/8/8/8/R3K3 w - - 0 1",
            "3k4/8/8/8/8/8/8/1N2K3 w - - 0 1",
            "3k4/8/8/8/8/8/8/1N2KN2 w - - 0 1",
            "3k4/8/8/8/8/8/8/2B1K3 w - - 0 1",
            "3k4/8/8/8/8/8/3P4/4K3 w - - 0 1",
        ] {
            assert_eq!(bonus(fen), 0, "{fen}");
        }
        // Bishop and knight, two bishops, a queen: the term.
        for fen in
            ["3k4/8/8/8/8/8/8/1NB1K3 w - - 0 1", "3k4/8/8/8/8/8/8/2B1KB2 w - - 0 1", "3k4/8/8/8/8/8/8/3QK3 w - - 0 1"]
        {
            assert!(bonus(fen) > 0, "{fen}");
        }
    }
}
