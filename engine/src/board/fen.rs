//! FEN in and out. shakmaty parses the text (X-FEN and Shredder castling included); the checks
//! are ours, because dice variants need positions plain chess forbids (the side not to move in
//! check after a passed turn). Output is X-FEN: `KQkq` for the outermost rooks, file letters
//! otherwise, which is Shredder-FEN's form for inner rooks in Chess960.

use crate::board::bitboard::Bitboard;
use crate::board::piece::{Color, Piece, Role};
use crate::board::square::Square;
use crate::board::{Board, CastlingSide};
use std::fmt::{self, Write};

/// Why a FEN was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The text does not parse as FEN.
    Syntax(String),
    TooManyKings(Color),
    TooManyPieces(Color),
    PawnOnBackRank(Square),
    /// A castling right with no king on its back rank or no rook where the right says.
    BadCastling(Color),
    /// An en-passant square with no pawn that could just have double-stepped past it.
    BadEnPassant(Square),
    /// A position a big board cannot hold (kings beyond its number, a pawn on a first or last
    /// rank, an en-passant target no pawn just passed), in words.
    Impossible(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Syntax(why) => write!(f, "invalid FEN: {why}"),
            FenError::TooManyKings(c) => {
                write!(f, "invalid FEN: {} has more than one king", c.name())
            }
            FenError::TooManyPieces(c) => {
                write!(f, "invalid FEN: {} has more than 16 pieces or more than 8 pawns", c.name())
            }
            FenError::PawnOnBackRank(sq) => write!(f, "invalid FEN: pawn on back rank at {sq}"),
            FenError::BadCastling(c) => {
                write!(f, "invalid FEN: castling rights of {} do not match its king and rooks", c.name())
            }
            FenError::BadEnPassant(sq) => {
                write!(f, "invalid FEN: en-passant square {sq} is impossible")
            }
            FenError::Impossible(why) => write!(f, "invalid FEN: {why}"),
        }
    }
}

impl std::error::Error for FenError {}

fn convert_color(c: shakmaty::Color) -> Color {
    match c {
        shakmaty::Color::White => Color::White,
        shakmaty::Color::Black => Color::Black,
    }
}

fn convert_role(r: shakmaty::Role) -> Role {
    match r {
        shakmaty::Role::Pawn => Role::Pawn,
        shakmaty::Role::Knight => Role::Knight,
        shakmaty::Role::Bishop => Role::Bishop,
        shakmaty::Role::Rook => Role::Rook,
        shakmaty::Role::Queen => Role::Queen,
        shakmaty::Role::King => Role::King,
    }
}

impl Board {
    /// Reads a FEN (X-FEN or Shredder-FEN castling; the clocks may be left out).
    pub fn from_fen(text: &str) -> Result<Board, FenError> {
        let fen = shakmaty::fen::Fen::from_ascii(text.trim().as_bytes())
            .map_err(|e| FenError::Syntax(format!("{e} in {:?}", text.trim())))?;
        let setup = fen.as_setup();
        if setup.remaining_checks.is_some() || setup.pockets.is_some() || setup.promoted.any() {
            return Err(FenError::Syntax("fields of other chess variants are not supported".into()));
        }
        let mut board = Board::empty();
        for (sq, piece) in setup.board.clone() {
            board.put(
                Square::from_shakmaty(sq),
                Piece { color: convert_color(piece.color), role: convert_role(piece.role) },
            );
        }
        for color in Color::ALL {
            if board.pieces(color, Role::King).more_than_one() {
                return Err(FenError::TooManyKings(color));
            }
            if board.by_color(color).count() > 16 || board.pieces(color, Role::Pawn).count() > 8 {
                return Err(FenError::TooManyPieces(color));
            }
        }
        let back_ranks = Bitboard::rank(0) | Bitboard::rank(7);
        if let Some(sq) = (board.by_role(Role::Pawn) & back_ranks).first() {
            return Err(FenError::PawnOnBackRank(sq));
        }
        board.set_turn(convert_color(setup.turn));
        let rights = Bitboard(setup.castling_rights.0);
        for color in Color::ALL {
            let mine = rights & Bitboard::rank(color.back_rank());
            if mine.is_empty() {
                continue;
            }
            let king =
                board.king(color).filter(|k| k.rank() == color.back_rank()).ok_or(FenError::BadCastling(color))?;
            for rook in mine {
                let is_our_rook = board.piece_at(rook) == Some(Piece { color, role: Role::Rook });
                let side = if rook.file() > king.file() { CastlingSide::King } else { CastlingSide::Queen };
                if !is_our_rook || rook == king || board.castling_rook(color, side).is_some() {
                    return Err(FenError::BadCastling(color));
                }
                board.set_castling_rook(color, side, Some(rook));
            }
        }
        if let Some(ep) = setup.ep_square {
            let ep = Square::from_shakmaty(ep);
            let us = board.turn();
            let (ep_rank, pawn_rank, origin_rank) = if us == Color::White { (5, 4, 6) } else { (2, 3, 1) };
            let pawn = Square::from_coords(ep.file(), pawn_rank);
            let origin = Square::from_coords(ep.file(), origin_rank);
            let ok = ep.rank() == ep_rank
                && board.piece_at(pawn) == Some(Piece { color: !us, role: Role::Pawn })
                && board.piece_at(ep).is_none()
                && board.piece_at(origin).is_none();
            if !ok {
                return Err(FenError::BadEnPassant(ep));
            }
            // A square no pawn can take on carries no right: dropped, as Polyglot and FEN writers do.
            board.set_ep_if_capturable(ep);
        }
        board.set_clocks(setup.halfmoves, u32::from(setup.fullmoves));
        Ok(board)
    }

    /// The position as X-FEN.
    pub fn fen(&self) -> String {
        let mut out = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_at(Square::from_coords(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            write!(out, "{empty}").unwrap();
                            empty = 0;
                        }
                        out.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(out, "{empty}").unwrap();
            }
            if rank > 0 {
                out.push('/');
            }
        }
        write!(out, " {} ", self.turn().fen_char()).unwrap();
        let len_before = out.len();
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                let Some(rook) = self.castling_rook(color, side) else {
                    continue;
                };
                let rooks = self.pieces(color, Role::Rook) & Bitboard::rank(color.back_rank());
                let outermost = match side {
                    CastlingSide::King => rooks.last(),
                    CastlingSide::Queen => rooks.first(),
                };
                let letter = if outermost == Some(rook) {
                    if side == CastlingSide::King { 'k' } else { 'q' }
                } else {
                    (b'a' + rook.file()) as char
                };
                out.push(if color == Color::White { letter.to_ascii_uppercase() } else { letter });
            }
        }
        if out.len() == len_before {
            out.push('-');
        }
        match self.ep_square() {
            Some(ep) => write!(out, " {ep}").unwrap(),
            None => out.push_str(" -"),
        }
        write!(out, " {} {}", self.halfmove_clock(), self.fullmove_number()).unwrap();
        out
    }
}
