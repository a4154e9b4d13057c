//! The 8x8 position: piece bitboards (no mailbox: a smaller board copies faster, and copy-make
//! copies one per move), side to move, castling rights (as rook
//! squares, so Chess960 needs no special case), en passant, clocks, and an incremental
//! Polyglot hash. Copy-make: [`Board::play`] changes the board in place; callers copy first.
//!
//! Legality is not this module's business: it plays any move it is given (movegen and the
//! rules decide), so positions with a king in check on the side not to move, or with no king
//! at all, are ordinary here.

use crate::board::attacks;
use crate::board::bitboard::Bitboard;
use crate::board::chessmove::{Move, MoveKind};
use crate::board::piece::{Color, Piece, Role};
use crate::board::square::Square;
use crate::board::zobrist;

/// Which way a castling goes: towards the h-file (king side) or the a-file (queen side).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum CastlingSide {
    King = 0,
    Queen = 1,
}

impl CastlingSide {
    pub const ALL: [CastlingSide; 2] = [CastlingSide::King, CastlingSide::Queen];
}

/// A position on the 8x8 board.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Board {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
    turn: Color,
    /// The rook each side may still castle with, `[color][side]`.
    castling: [[Option<Square>; 2]; 2],
    /// En-passant target square, kept only when a pawn of the side to move stands beside the
    /// pawn that double-stepped (as Polyglot hashes it and as FEN writers usually print it).
    ep: Option<Square>,
    halfmove_clock: u32,
    fullmove_number: u32,
    hash: u64,
}

impl Board {
    /// An empty board, White to move, no rights.
    pub fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            turn: Color::White,
            castling: [[None; 2]; 2],
            ep: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            hash: zobrist::WHITE_TO_MOVE,
        }
    }

    /// The standard start position.
    pub fn startpos() -> Board {
        Board::chess960(518)
    }

    /// Chess960 start position number `n` (Scharnagl's numbering, 0..960; 518 is standard chess).
    pub fn chess960(n: u16) -> Board {
        assert!(n < 960, "Chess960 positions are numbered 0..960");
        let mut back: [Option<Role>; 8] = [None; 8];
        let mut n = n as usize;
        back[2 * (n % 4) + 1] = Some(Role::Bishop);
        n /= 4;
        back[2 * (n % 4)] = Some(Role::Bishop);
        n /= 4;
        let place_nth_free = |back: &mut [Option<Role>; 8], k: usize, role: Role| {
            let file = (0..8).filter(|&f| back[f].is_none()).nth(k).expect("a free file");
            back[file] = Some(role);
        };
        place_nth_free(&mut back, n % 6, Role::Queen);
        n /= 6;
        const KNIGHTS: [(usize, usize); 10] =
            [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];
        let (k1, k2) = KNIGHTS[n];
        // Place the second knight first so the first one's index still counts the same free files.
        place_nth_free(&mut back, k2, Role::Knight);
        place_nth_free(&mut back, k1, Role::Knight);
        for role in [Role::Rook, Role::King, Role::Rook] {
            place_nth_free(&mut back, 0, role);
        }
        let mut board = Board::empty();
        for (file, role) in back.iter().enumerate() {
            let role = role.expect("every file filled");
            for color in Color::ALL {
                board.put(Square::from_coords(file as u8, color.back_rank()), Piece { color, role });
                let pawn_rank = if color == Color::White { 1 } else { 6 };
                board.put(Square::from_coords(file as u8, pawn_rank), Piece { color, role: Role::Pawn });
            }
        }
        for color in Color::ALL {
            let rooks = board.pieces(color, Role::Rook) & Bitboard::rank(color.back_rank());
            board.set_castling_rook(color, CastlingSide::King, rooks.last());
            board.set_castling_rook(color, CastlingSide::Queen, rooks.first());
        }
        board
    }

    // ----- reading the board -----

    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep
    }

    /// The rook `color` may castle with on `side`, if the right remains.
    #[inline]
    pub fn castling_rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        self.castling[color.index()][side as usize]
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role.index()]
    }

    /// Has a piece of the side to move's `role` a move (pseudo-legal, castling and en passant
    /// aside) once the plain move `m` of that side is made, for sure? Answered without making
    /// `m`, on a board where its destination is taken and its origin still held (fewer moves
    /// than after `m`, never more), so `false` may still mean it has one.
    pub fn role_surely_moves_after(&self, m: Move, role: Role) -> bool {
        let (occupied, own, enemy) = self.read_after(m);
        let pieces = self.pieces(self.turn, role) & !Bitboard::from_square(m.from());
        pieces.into_iter().any(|p| self.surely_reaches(role, p, occupied, own, enemy).any())
    }

    /// Can a piece of the side to move's `first` role and then another of its `second` role
    /// each make a move (pseudo-legal; castling, en passant and double steps aside) once the
    /// plain move `m` is made, for sure, the first not taking the enemy king (which would end
    /// the turn)? Answered without making `m`, as [`Board::role_surely_moves_after`] does: on a
    /// board where `m`'s destination is taken and its origin still held, and then the first
    /// piece's destination taken and its origin still held, so `false` may still mean they can.
    pub fn roles_surely_move_twice_after(&self, m: Move, first: Role, second: Role) -> bool {
        let us = self.turn;
        let (occupied, own, enemy) = self.read_after(m);
        let moved = Bitboard::from_square(m.from());
        for x in self.pieces(us, first) & !moved {
            let targets = self.surely_reaches(first, x, occupied, own, enemy) & !self.pieces(!us, Role::King);
            let Some(s) = targets.first() else { continue };
            let s = Bitboard::from_square(s);
            let others = self.pieces(us, second) & !moved & !Bitboard::from_square(x);
            if others.into_iter().any(|y| self.surely_reaches(second, y, occupied | s, own | s, enemy & !s).any()) {
                return true;
            }
        }
        false
    }

    /// The board the two reads above take for "after the plain move `m`": the occupied squares,
    /// the mover's and the enemy's, with `m`'s destination the mover's and its origin still held.
    #[inline]
    fn read_after(&self, m: Move) -> (Bitboard, Bitboard, Bitboard) {
        debug_assert!(!m.is_castle() && !m.is_en_passant(), "a plain move");
        let to = Bitboard::from_square(m.to());
        (self.occupied() | to, self.by_color(self.turn) | to, self.by_color(!self.turn) & !to)
    }

    /// The squares a `role` of the side to move on `from` moves to given these occupancies:
    /// single pawn steps and pawn captures onto `enemy`, other pieces onto squares not `own`.
    #[inline]
    fn surely_reaches(&self, role: Role, from: Square, occupied: Bitboard, own: Bitboard, enemy: Bitboard) -> Bitboard {
        if role == Role::Pawn {
            let us = self.turn;
            (Bitboard::from_square(from).shift_rank(us == Color::White) & !occupied) | (attacks::pawn(us, from) & enemy)
        } else {
            attacks::piece(role, from, occupied) & !own
        }
    }

    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            return None;
        }
        Role::ALL.into_iter().find(|r| self.by_role[r.index()].contains(sq))
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let role = self.role_at(sq)?;
        let color = if self.by_color[0].contains(sq) { Color::White } else { Color::Black };
        Some(Piece { color, role })
    }

    /// The king of `color`, if it has exactly one (variants with king capture can leave none).
    #[inline]
    pub fn king(&self, color: Color) -> Option<Square> {
        let kings = self.pieces(color, Role::King);
        if kings.more_than_one() { None } else { kings.first() }
    }

    /// Pieces of `by` attacking `sq`, given the occupancy `occupied`.
    #[inline]
    pub fn attackers(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        let theirs = self.by_color(by);
        let rooks = self.by_role(Role::Rook) | self.by_role(Role::Queen);
        let bishops = self.by_role(Role::Bishop) | self.by_role(Role::Queen);
        theirs
            & ((attacks::rook(sq, occupied) & rooks)
                | (attacks::bishop(sq, occupied) & bishops)
                | (attacks::knight(sq) & self.by_role(Role::Knight))
                | (attacks::king(sq) & self.by_role(Role::King))
                | (attacks::pawn(!by, sq) & self.by_role(Role::Pawn)))
    }

    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.attackers(sq, by, self.occupied()).any()
    }

    /// Pieces giving check to the king of `color` (empty when it has no single king).
    #[inline]
    pub fn checkers_of(&self, color: Color) -> Bitboard {
        match self.king(color) {
            Some(k) => self.attackers(k, !color, self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// Is the side to move in check?
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers_of(self.turn).any()
    }

    /// Does `m` capture something (en passant included; castling never does)?
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        m.is_en_passant() || (!m.is_castle() && !m.is_null() && self.occupied().contains(m.to()))
    }

    /// The square of the piece `m` captures, if any (differs from `to` for en passant).
    #[inline]
    pub fn captured_square(&self, m: Move) -> Option<Square> {
        if m.is_en_passant() {
            Some(Square::from_coords(m.to().file(), m.from().rank()))
        } else if self.is_capture(m) {
            Some(m.to())
        } else {
            None
        }
    }

    // ----- changing the board -----

    /// Puts a piece on an empty square (for setting up positions).
    pub fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(!self.occupied().contains(sq));
        self.toggle(sq, piece);
    }

    #[inline]
    fn toggle(&mut self, sq: Square, piece: Piece) {
        let bb = Bitboard::from_square(sq);
        self.by_role[piece.role.index()] ^= bb;
        self.by_color[piece.color.index()] ^= bb;
        self.hash ^= zobrist::PIECE[piece.color.index()][piece.role.index()][sq.index()];
    }

    #[inline]
    fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.toggle(sq, piece);
        Some(piece)
    }

    /// Sets or clears a castling right (keeping the hash current).
    pub fn set_castling_rook(&mut self, color: Color, side: CastlingSide, rook: Option<Square>) {
        let slot = &mut self.castling[color.index()][side as usize];
        if slot.is_some() != rook.is_some() {
            self.hash ^= zobrist::CASTLING[color.index()][side as usize];
        }
        *slot = rook;
    }

    pub(crate) fn set_turn(&mut self, color: Color) {
        if self.turn != color {
            self.turn = color;
            self.hash ^= zobrist::WHITE_TO_MOVE;
        }
    }

    pub(crate) fn set_clocks(&mut self, halfmove_clock: u32, fullmove_number: u32) {
        self.halfmove_clock = halfmove_clock;
        self.fullmove_number = fullmove_number.max(1);
    }

    /// Sets the en-passant square if a pawn of the side to move could take on it; returns
    /// whether it was kept.
    pub(crate) fn set_ep_if_capturable(&mut self, target: Square) -> bool {
        let capturers = attacks::pawn(!self.turn, target) & self.pieces(self.turn, Role::Pawn);
        if capturers.any() {
            self.ep = Some(target);
            self.hash ^= zobrist::EN_PASSANT[target.file() as usize];
            true
        } else {
            false
        }
    }

    #[inline]
    fn clear_ep(&mut self) {
        if let Some(ep) = self.ep.take() {
            self.hash ^= zobrist::EN_PASSANT[ep.file() as usize];
        }
    }

    #[inline]
    fn end_turn(&mut self) {
        if self.turn == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.turn = !self.turn;
        self.hash ^= zobrist::WHITE_TO_MOVE;
    }

    /// Drops the castling rights that a move from or to `sq` ends.
    #[inline]
    fn touch_castling(&mut self, sq: Square) {
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if self.castling[color.index()][side as usize] == Some(sq) {
                    self.set_castling_rook(color, side, None);
                }
            }
        }
    }

    /// Plays `m` (or a pass, [`Move::NULL`]) without checking it: the caller guarantees the
    /// move is one the rules allow here.
    pub fn play(&mut self, m: Move) {
        self.clear_ep();
        self.halfmove_clock = self.halfmove_clock.saturating_add(1);
        if m.is_null() {
            self.end_turn();
            return;
        }
        let (moved, irreversible) = self.move_pieces(m);
        if irreversible {
            self.halfmove_clock = 0;
        }
        self.end_turn();
        if moved == Role::Pawn && m.from().rank().abs_diff(m.to().rank()) == 2 {
            self.set_ep_if_capturable(Square::from_coords(m.from().file(), (m.from().rank() + m.to().rank()) / 2));
        }
    }

    /// Moves the pieces of `m` (not a pass) and updates the castling rights, leaving the side to
    /// move, the clocks and the en-passant square alone. Returns the moving piece's role and
    /// whether the move was a capture or a pawn move (which resets the fifty-move count).
    #[inline]
    fn move_pieces(&mut self, m: Move) -> (Role, bool) {
        let us = self.turn;
        let from = m.from();
        let to = m.to();
        let moved = self.remove(from).expect("a piece on the move's origin");
        match m.kind() {
            MoveKind::Castle => {
                let rook = self.remove(to).expect("the castling rook");
                self.put(m.castle_king_target(), moved);
                self.put(m.castle_rook_target(), rook);
                for side in CastlingSide::ALL {
                    self.set_castling_rook(us, side, None);
                }
                (Role::King, false)
            }
            MoveKind::EnPassant => {
                self.remove(Square::from_coords(to.file(), from.rank()));
                self.put(to, moved);
                (Role::Pawn, true)
            }
            MoveKind::Normal | MoveKind::Promotion(_) => {
                let captured = self.remove(to).is_some();
                if captured {
                    self.touch_castling(to);
                }
                let role = m.promotion_role().unwrap_or(moved.role);
                self.put(to, Piece { color: us, role });
                if moved.role == Role::King {
                    for side in CastlingSide::ALL {
                        self.set_castling_rook(us, side, None);
                    }
                } else if moved.role != Role::Pawn {
                    self.touch_castling(from);
                }
                (moved.role, captured || moved.role == Role::Pawn)
            }
        }
    }

    /// Plays one micro-move of a turn of several (variants with several moves a turn): the
    /// pieces move, the same side stays to move, and the clocks wait for
    /// [`Board::finish_turn`]. En passant is the rules' business there (their targets outlive
    /// one move), so the board keeps none. Returns the moving piece's role and whether the
    /// micro-move captured or moved a pawn.
    pub fn play_micro(&mut self, m: Move) -> (Role, bool) {
        self.clear_ep();
        self.move_pieces(m)
    }

    /// Ends a turn of micro-moves: the halfmove clock counts turns (reset by a turn with a
    /// capture or a pawn move), and the other side is to move.
    pub fn finish_turn(&mut self, irreversible: bool) {
        self.clear_ep();
        self.halfmove_clock = if irreversible { 0 } else { self.halfmove_clock.saturating_add(1) };
        self.end_turn();
    }

    /// The hash computed from scratch (to check the incremental one).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for sq in self.occupied() {
            let p = self.piece_at(sq).expect("occupied");
            h ^= zobrist::PIECE[p.color.index()][p.role.index()][sq.index()];
        }
        if self.turn == Color::White {
            h ^= zobrist::WHITE_TO_MOVE;
        }
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if self.castling_rook(color, side).is_some() {
                    h ^= zobrist::CASTLING[color.index()][side as usize];
                }
            }
        }
        if let Some(ep) = self.ep {
            h ^= zobrist::EN_PASSANT[ep.file() as usize];
        }
        h
    }

    /// Material of one side: how many pieces of each role.
    pub fn count(&self, color: Color, role: Role) -> u32 {
        self.pieces(color, role).count()
    }

    /// True when neither side can ever mate (standard chess definition): kings alone, a single
    /// minor piece, or only bishops all on squares of one colour.
    pub fn insufficient_material(&self) -> bool {
        let heavy = self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen);
        if heavy.any() {
            return false;
        }
        let knights = self.by_role(Role::Knight);
        let bishops = self.by_role(Role::Bishop);
        let minors = (knights | bishops).count();
        if minors <= 1 {
            return true;
        }
        if knights.any() {
            return false;
        }
        const DARK: u64 = 0xaa55_aa55_aa55_aa55;
        bishops.0 & DARK == 0 || bishops.0 & !DARK == 0
    }

    /// The mirrored position (colours swapped, ranks flipped), for symmetry tests.
    pub fn mirrored(&self) -> Board {
        let mut b = Board::empty();
        for sq in self.occupied() {
            let p = self.piece_at(sq).expect("occupied");
            b.put(Square::from_coords(sq.file(), 7 - sq.rank()), Piece { color: !p.color, role: p.role });
        }
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                let rook = self.castling_rook(color, side).map(|s| Square::from_coords(s.file(), 7 - s.rank()));
                b.set_castling_rook(!color, side, rook);
            }
        }
        b.set_turn(!self.turn);
        if let Some(ep) = self.ep {
            b.set_ep_if_capturable(Square::from_coords(ep.file(), 7 - ep.rank()));
        }
        b.set_clocks(self.halfmove_clock, self.fullmove_number);
        b
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::startpos()
    }
}
