//! Pseudo-legal moves on a big board: every move the pieces can make, kings left or put en prise
//! included (both big variants capture kings; neither has check, nor castling). Sliders step
//! along their rays until a piece or the border stops them; the two-square border catches every
//! knight's jump from the edge.

use super::board::{BigBoard, Cell};
use super::square::{BigSquare, STRIDE};
use crate::board::micro_board::MoveBuffer;
use crate::board::piece::{Color, Role};
use std::fmt;

const N: i16 = STRIDE as i16;
const KNIGHT: [i16; 8] = [2 * N + 1, 2 * N - 1, N + 2, N - 2, -N + 2, -N - 2, -2 * N + 1, -2 * N - 1];
const KING: [i16; 8] = [N - 1, N, N + 1, -1, 1, -N - 1, -N, -N + 1];
const BISHOP: [i16; 4] = [N - 1, N + 1, -N - 1, -N + 1];
const ROOK: [i16; 4] = [N, -N, 1, -1];
/// The same steps seen from Black's side (ranks turned over), so that each colour meets its
/// moves in the same order, forward ones first: a search keeps the first of equal moves, and the
/// colours must be treated alike.
const KNIGHT_BLACK: [i16; 8] = [-2 * N + 1, -2 * N - 1, -N + 2, -N - 2, N + 2, N - 2, 2 * N + 1, 2 * N - 1];
const KING_BLACK: [i16; 8] = [-N - 1, -N, -N + 1, -1, 1, N - 1, N, N + 1];
const BISHOP_BLACK: [i16; 4] = [-N - 1, -N + 1, N - 1, N + 1];
const ROOK_BLACK: [i16; 4] = [-N, N, 1, -1];
/// The knight's, the king's, the bishop's and the rook's steps, from one side.
type Tables = (&'static [i16], &'static [i16], &'static [i16], &'static [i16]);
/// What a pawn may become on the last rank.
pub const PROMOTIONS: [Role; 4] = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];

/// A move on a big board, in UCI's long algebraic form (`a10a9`, `b11b12q`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct BigMove {
    pub from: BigSquare,
    pub to: BigSquare,
    pub promotion: Option<Role>,
}

impl fmt::Display for BigMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == BigMove::NULL {
            return f.write_str("0000");
        }
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(role) = self.promotion {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}

impl BigMove {
    /// A passed turn (`0000`): both squares on the border, where no move starts.
    pub const NULL: BigMove = BigMove { from: BigSquare::from_index(0), to: BigSquare::from_index(0), promotion: None };

    /// The move `text` names on `board`, if it is one of the pseudo-legal moves there.
    pub fn parse(board: &BigBoard, text: &str) -> Option<BigMove> {
        let mut moves = BigMoveList::new();
        board.moves(&mut moves);
        moves.into_iter().find(|m| m.to_string() == text)
    }
}

/// A list of moves (a 12x12 middlegame with four queens can exceed two hundred).
pub type BigMoveList = Vec<BigMove>;

impl BigBoard {
    /// Every pseudo-legal move of the side to move, appended to `out` (nothing once a side has
    /// lost its last king).
    pub fn moves(&self, out: &mut BigMoveList) {
        self.role_moves(0x3f, out);
    }

    /// The pseudo-legal moves of the side to move's pieces of the roles in `roles` (a bit per
    /// role index), appended to `out` in [`BigBoard::moves`]'s order (nothing once a side has
    /// lost its last king).
    pub fn role_moves(&self, roles: u8, out: &mut impl MoveBuffer<BigMove>) {
        let us = self.turn();
        if self.kings(Color::White) == 0 || self.kings(Color::Black) == 0 {
            return;
        }
        // From the mover's own back rank forward, so equal moves come in the same order for
        // both colours (a search keeps the first of equals).
        let spec = self.spec();
        let tables: Tables = match us {
            Color::White => (&KNIGHT, &KING, &BISHOP, &ROOK),
            Color::Black => (&KNIGHT_BLACK, &KING_BLACK, &BISHOP_BLACK, &ROOK_BLACK),
        };
        for i in 0..spec.ranks {
            let rank = if us == Color::White { i } else { spec.ranks - 1 - i };
            // Our pieces on this rank, file by file (bit = padded column).
            let mut row = self.row_of(us, rank);
            while row != 0 {
                let column = row.trailing_zeros() as u8;
                row &= row - 1;
                let from = BigSquare::new(column - 2, rank);
                let Some(piece) = self.piece_at(from) else { unreachable!("a kept piece is on its square") };
                if roles & (1 << piece.role.index()) != 0 {
                    self.piece_moves(from, piece.role, tables, out);
                }
            }
        }
    }

    /// The moves of the piece of `role` on `from`, with the mover's side's step tables.
    #[inline]
    fn piece_moves(&self, from: BigSquare, role: Role, tables: Tables, out: &mut impl MoveBuffer<BigMove>) {
        let (knight, king, bishop, rook) = tables;
        match role {
            Role::Pawn => self.pawn_moves(from, out),
            Role::Knight => self.steps(from, knight, out),
            Role::Bishop => self.slides(from, bishop, out),
            Role::Rook => self.slides(from, rook, out),
            Role::Queen => {
                self.slides(from, bishop, out);
                self.slides(from, rook, out);
            }
            Role::King => self.steps(from, king, out),
        }
    }

    /// Calls `f` with the side to move's moves ([`BigBoard::moves`]) in a buffer kept per thread,
    /// so the search's nodes allocate nothing (a nested call gets a buffer of its own).
    pub fn with_moves<T>(&self, f: impl FnOnce(&[BigMove]) -> T) -> T {
        thread_local! {
            static BUFFER: std::cell::RefCell<BigMoveList> = std::cell::RefCell::new(BigMoveList::with_capacity(256));
        }
        BUFFER.with(|cell| match cell.try_borrow_mut() {
            Ok(mut moves) => {
                moves.clear();
                self.moves(&mut moves);
                f(&moves)
            }
            Err(_) => {
                let mut moves = BigMoveList::new();
                self.moves(&mut moves);
                f(&moves)
            }
        })
    }

    /// Does a piece of `by` attack `sq` (pawns diagonally forward, the others as they move)?
    pub fn attacked_by(&self, sq: BigSquare, by: Color) -> bool {
        let is = |index: i16, roles: &[Role]| match self.cell(index as usize) {
            Cell::Piece(p) => p.color == by && roles.contains(&p.role),
            _ => false,
        };
        let at = sq.index() as i16;
        let behind = if by == Color::White { -N } else { N };
        if [behind - 1, behind + 1].iter().any(|&d| is(at + d, &[Role::Pawn])) {
            return true;
        }
        if KNIGHT.iter().any(|&d| is(at + d, &[Role::Knight])) || KING.iter().any(|&d| is(at + d, &[Role::King])) {
            return true;
        }
        let ray_hits = |rays: &[i16], roles: &[Role]| {
            rays.iter().any(|&d| {
                let mut i = at + d;
                while self.cell(i as usize) == Cell::Empty {
                    i += d;
                }
                is(i, roles)
            })
        };
        ray_hits(&BISHOP, &[Role::Bishop, Role::Queen]) || ray_hits(&ROOK, &[Role::Rook, Role::Queen])
    }

    /// Can a piece of the side to move land on `index`: empty, or an enemy piece?
    #[inline]
    fn open_to_us(&self, index: usize) -> Option<bool> {
        match self.cell(index) {
            Cell::Off => None,
            Cell::Empty => Some(false),
            Cell::Piece(p) => (p.color != self.turn()).then_some(true),
        }
    }

    fn steps(&self, from: BigSquare, offsets: &[i16], out: &mut impl MoveBuffer<BigMove>) {
        for &d in offsets {
            let to = (from.index() as i16 + d) as usize;
            if self.open_to_us(to).is_some() {
                out.push(BigMove { from, to: BigSquare::from_index(to as u8), promotion: None });
            }
        }
    }

    fn slides(&self, from: BigSquare, rays: &[i16], out: &mut impl MoveBuffer<BigMove>) {
        for &d in rays {
            let mut to = from.index() as i16 + d;
            while let Some(capture) = self.open_to_us(to as usize) {
                out.push(BigMove { from, to: BigSquare::from_index(to as u8), promotion: None });
                if capture {
                    break;
                }
                to += d;
            }
        }
    }

    fn pawn_moves<O: MoveBuffer<BigMove>>(&self, from: BigSquare, out: &mut O) {
        let spec = self.spec();
        let (forward, start_rank, last_rank) = match self.turn() {
            Color::White => (N, 1, spec.ranks - 1),
            Color::Black => (-N, spec.ranks - 2, 0),
        };
        let push = |to: usize, out: &mut O| {
            let to = BigSquare::from_index(to as u8);
            if to.rank() == last_rank {
                for role in PROMOTIONS {
                    out.push(BigMove { from, to, promotion: Some(role) });
                }
            } else {
                out.push(BigMove { from, to, promotion: None });
            }
        };
        let one = (from.index() as i16 + forward) as usize;
        if self.cell(one) == Cell::Empty {
            push(one, out);
            let two = (one as i16 + forward) as usize;
            if spec.double_step && from.rank() == start_rank && self.cell(two) == Cell::Empty {
                push(two, out);
            }
        }
        for side in [-1, 1] {
            let to = (from.index() as i16 + forward + side) as usize;
            let en_passant = self.ep_square().is_some_and(|ep| ep.index() == to);
            if self.open_to_us(to) == Some(true) || en_passant {
                push(to, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::big::board::BigSpec;

    fn moves_of(fen: &str, spec: BigSpec) -> Vec<String> {
        let board = BigBoard::from_fen(fen, spec).unwrap();
        let mut out = BigMoveList::new();
        board.moves(&mut out);
        let mut names: Vec<String> = out.iter().map(|m| m.to_string()).collect();
        names.sort();
        names
    }

    #[test]
    fn pieces_move_as_in_chess_on_the_bigger_board() {
        // A knight in the corner of 12x12, a rook along the tenth rank, a king beside its own.
        let fen = "11k/12/10r1/12/12/12/12/12/12/12/1K10/N1K9 w - - 0 1";
        let moves = moves_of(fen, crate::rules::grand::SPEC);
        for m in ["a1b3", "a1c2", "b2a2", "b2a3", "c1d2", "c1d1", "b2b1"] {
            assert!(moves.contains(&m.to_string()), "{m} in {moves:?}");
        }
        assert_eq!(moves.len(), 2 + 6 + 4, "{moves:?}");
        let black = moves_of(&fen.replace(" w ", " b "), crate::rules::grand::SPEC);
        assert!(black.contains(&"k10a10".to_string()) && black.contains(&"k10l10".to_string()), "{black:?}");
        assert!(black.contains(&"k10k1".to_string()) && black.contains(&"k10k12".to_string()), "{black:?}");
        // The rook's 22 squares and the king's three.
        assert_eq!(black.len(), 10 + 1 + 9 + 2 + 3, "{black:?}");
        // Promotion on rank 10 of 10x10, to four pieces, capturing included.
        let promoting = moves_of("1r8/P9/10/10/10/10/10/10/k9/K9 w - - 0 1", crate::rules::brainking10::SPEC);
        for m in ["a9a10n", "a9a10b", "a9a10r", "a9a10q", "a9b10q"] {
            assert!(promoting.contains(&m.to_string()), "{m} in {promoting:?}");
        }
    }

    #[test]
    fn attacks_are_seen_from_every_kind_of_piece() {
        let board =
            BigBoard::from_fen("k9/10/10/3p6/10/10/10/1N8/10/K5R3 w - - 0 1", crate::rules::brainking10::SPEC).unwrap();
        let sq = |s: &str| BigSquare::parse(s, 10, 10).unwrap();
        // The knight on b3, the rook on g1 (rank and file), the king on a1, the pawn on d7.
        for (target, by, expected) in [
            ("c5", Color::White, true),
            ("d4", Color::White, true),
            ("g10", Color::White, true),
            ("a2", Color::White, true),
            ("c6", Color::Black, true),
            ("e6", Color::Black, true),
            ("d6", Color::Black, false),
            ("h2", Color::White, false),
            ("b9", Color::Black, true),
        ] {
            assert_eq!(board.attacked_by(sq(target), by), expected, "{target} by {by:?}");
        }
    }

    #[test]
    fn pawns_double_step_only_where_the_variant_allows() {
        let ten = moves_of("k9/10/10/10/10/10/10/10/P9/K9 w - - 0 1", crate::rules::brainking10::SPEC);
        assert_eq!(ten, ["a1b1", "a1b2", "a2a3", "a2a4"]);
        let twelve = moves_of("k11/12/12/12/12/12/12/12/12/12/P11/K11 w - - 0 1", crate::rules::grand::SPEC);
        assert_eq!(twelve, ["a1b1", "a1b2", "a2a3"]);
    }
}
