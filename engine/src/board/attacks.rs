//! Attack sets of each piece, read from shakmaty's precomputed tables (magic bitboards);
//! this module only converts between its types and ours.

use crate::board::bitboard::Bitboard;
use crate::board::piece::{Color, Role};
use crate::board::square::Square;
use shakmaty::attacks as sm;

#[inline]
fn to_sm(bb: Bitboard) -> shakmaty::Bitboard {
    shakmaty::Bitboard(bb.0)
}

#[inline]
fn from_sm(bb: shakmaty::Bitboard) -> Bitboard {
    Bitboard(bb.0)
}

#[inline]
fn sm_color(color: Color) -> shakmaty::Color {
    match color {
        Color::White => shakmaty::Color::White,
        Color::Black => shakmaty::Color::Black,
    }
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    from_sm(sm::pawn_attacks(sm_color(color), sq.to_shakmaty()))
}

#[inline]
pub fn knight(sq: Square) -> Bitboard {
    from_sm(sm::knight_attacks(sq.to_shakmaty()))
}

#[inline]
pub fn king(sq: Square) -> Bitboard {
    from_sm(sm::king_attacks(sq.to_shakmaty()))
}

#[inline]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    from_sm(sm::bishop_attacks(sq.to_shakmaty(), to_sm(occupied)))
}

#[inline]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    from_sm(sm::rook_attacks(sq.to_shakmaty(), to_sm(occupied)))
}

#[inline]
pub fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    bishop(sq, occupied) | rook(sq, occupied)
}

/// Squares a non-pawn piece of `role` on `sq` attacks.
#[inline]
pub fn piece(role: Role, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Knight => knight(sq),
        Role::Bishop => bishop(sq, occupied),
        Role::Rook => rook(sq, occupied),
        Role::Queen => queen(sq, occupied),
        Role::King => king(sq),
        Role::Pawn => unreachable!("pawn attacks depend on colour"),
    }
}

/// Squares strictly between `a` and `b` on a shared line (empty if none).
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    from_sm(sm::between(a.to_shakmaty(), b.to_shakmaty()))
}

/// The whole line through `a` and `b`, edge to edge (empty if they share none).
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    from_sm(sm::ray(a.to_shakmaty(), b.to_shakmaty()))
}
