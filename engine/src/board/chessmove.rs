//! A move in 16 bits, and its UCI text.
//!
//! Castling is stored as king-takes-rook (to = the rook's square) whatever the notation, so that
//! Chess960 and standard castling are one case; [`Move::to_uci`] writes `e1g1` or `e1h1` as asked.

use crate::board::piece::Role;
use crate::board::square::Square;
use std::fmt;

/// What kind of move, beyond its squares.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum MoveKind {
    Normal,
    Castle,
    EnPassant,
    Promotion(Role),
}

/// A move: from (6 bits), to (6 bits), kind (4 bits). The all-zero value is the pass (`0000`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

const KIND_NORMAL: u16 = 0;
const KIND_CASTLE: u16 = 1;
const KIND_EN_PASSANT: u16 = 2;
// 4 + role index for Knight (1) .. Queen (4): 5..=8
const KIND_PROMOTION_BASE: u16 = 4;

impl Move {
    /// A passed turn.
    pub const NULL: Move = Move(0);

    #[inline]
    const fn pack(from: Square, to: Square, kind: u16) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | kind << 12)
    }

    #[inline]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move::pack(from, to, KIND_NORMAL)
    }

    /// A castling move, given as the king's square and the castling rook's square.
    #[inline]
    pub const fn castle(king: Square, rook: Square) -> Move {
        Move::pack(king, rook, KIND_CASTLE)
    }

    #[inline]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move::pack(from, to, KIND_EN_PASSANT)
    }

    #[inline]
    pub const fn promotion(from: Square, to: Square, role: Role) -> Move {
        Move::pack(from, to, KIND_PROMOTION_BASE + role as u16)
    }

    #[inline]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }

    /// The destination; for castling, the rook's square.
    #[inline]
    pub const fn to(self) -> Square {
        Square::new((self.0 >> 6 & 63) as u8)
    }

    #[inline]
    pub fn kind(self) -> MoveKind {
        match self.0 >> 12 {
            KIND_NORMAL => MoveKind::Normal,
            KIND_CASTLE => MoveKind::Castle,
            KIND_EN_PASSANT => MoveKind::EnPassant,
            k => MoveKind::Promotion(Role::ALL[(k - KIND_PROMOTION_BASE) as usize]),
        }
    }

    #[inline]
    pub const fn is_castle(self) -> bool {
        self.0 >> 12 == KIND_CASTLE
    }

    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.0 >> 12 == KIND_EN_PASSANT
    }

    /// The promotion role, if the move promotes.
    #[inline]
    pub fn promotion_role(self) -> Option<Role> {
        match self.kind() {
            MoveKind::Promotion(role) => Some(role),
            _ => None,
        }
    }

    /// The raw 16 bits (for tables that store moves).
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The king's destination of a castling move.
    #[inline]
    pub fn castle_king_target(self) -> Square {
        let rank = self.from().rank();
        if self.to().file() > self.from().file() { Square::from_coords(6, rank) } else { Square::from_coords(2, rank) }
    }

    /// The castling rook's destination.
    #[inline]
    pub fn castle_rook_target(self) -> Square {
        let rank = self.from().rank();
        if self.to().file() > self.from().file() { Square::from_coords(5, rank) } else { Square::from_coords(3, rank) }
    }

    /// UCI text: castling as king-to-target (`e1g1`) or, with `chess960`, king-takes-rook (`e1h1`).
    pub fn to_uci(self, chess960: bool) -> UciMove {
        UciMove { mv: self, chess960 }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_uci(true))?;
        if self.is_castle() {
            write!(f, "(castle)")?;
        }
        Ok(())
    }
}

/// A move with the notation it is to be written in.
#[derive(Copy, Clone)]
pub struct UciMove {
    mv: Move,
    chess960: bool,
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.mv;
        if m.is_null() {
            return f.write_str("0000");
        }
        let to = if m.is_castle() && !self.chess960 { m.castle_king_target() } else { m.to() };
        write!(f, "{}{}", m.from(), to)?;
        if let Some(role) = m.promotion_role() {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}
