//! What a turn of micro-moves ([`super::micro`]) and its search need from the board it is played
//! on: the 8x8 bitboard [`Board`] for `dicechess3`, `burmese` and the Gollons, the big board for
//! `grand`. The maximum rule, the turn's bookkeeping and the search are written once against
//! [`MicroBoard`]; each board answers in its own representation, so the 8x8 one keeps its speed.

use crate::board::Board;
use crate::board::bitboard::Bitboard;
use crate::board::chessmove::Move;
use crate::board::movegen::{MAX_MOVES, MoveList};
use crate::board::piece::{Color, Piece, Role};
use crate::board::square::Square;
use crate::board::values::PieceValues;
use crate::board::zobrist;
use arrayvec::ArrayVec;
use std::fmt::Debug;
use std::hash::Hash;

/// A list that move generation appends to, on the stack.
pub trait MoveBuffer<T>: Default + std::ops::Deref<Target = [T]> {
    fn push(&mut self, item: T);
    fn clear(&mut self);
}

impl<T> MoveBuffer<T> for Vec<T> {
    #[inline]
    fn push(&mut self, item: T) {
        Vec::push(self, item);
    }
    #[inline]
    fn clear(&mut self) {
        Vec::clear(self);
    }
}

impl<T, const N: usize> MoveBuffer<T> for ArrayVec<T, N> {
    #[inline]
    fn push(&mut self, item: T) {
        ArrayVec::push(self, item);
    }
    #[inline]
    fn clear(&mut self) {
        ArrayVec::clear(self);
    }
}

/// A micro-move of some board.
pub trait MicroMove: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    /// No move: a passed turn, or stopping with dice left.
    const NULL: Self;

    #[inline]
    fn is_null(self) -> bool {
        self == Self::NULL
    }

    /// The protocol's text (`e2e4`, `a10a9`; Chess960 castling as king takes rook).
    fn uci(self, chess960: bool) -> String;

    fn promotion_role(self) -> Option<Role>;

    /// Castling (a king and a rook in one micro-move): never a capture.
    fn is_castle(self) -> bool;

    /// Origin and destination as indices below [`MicroBoard::SQUARES`] (the search's history).
    fn squares(self) -> (usize, usize);
}

/// The board of a variant of several moves a turn, as the turn's rules and its search use it.
pub trait MicroBoard: Clone + Eq + Debug + Send + Sync + 'static {
    type Move: MicroMove;
    type Square: Copy + Eq + Debug + Send + Sync + std::fmt::Display + 'static;
    /// The en-passant targets of a turn (a set of squares; nothing on boards without double
    /// steps).
    type Targets: Copy + Eq + Debug + Default + Send + Sync + 'static;
    /// What one generation of micro-moves is appended to.
    type Moves: MoveBuffer<Self::Move>;
    /// How many square indices [`MicroMove::squares`] may give.
    const SQUARES: usize;

    fn turn(&self) -> Color;
    /// The key of the pieces and the side to move.
    fn hash(&self) -> u64;
    /// Turns since the last capture or pawn move.
    fn halfmove_clock(&self) -> u32;
    fn fullmove_number(&self) -> u32;
    /// The FEN of the board (placement, side, castling, `-`, the clocks).
    fn fen(&self) -> String;
    /// Files and ranks.
    fn size(&self) -> (u8, u8);
    /// The piece on the square of these coordinates (from 0), if any.
    fn piece_at_coords(&self, file: u8, rank: u8) -> Option<Piece>;

    /// Has `color` a king left?
    fn has_king(&self, color: Color) -> bool;
    /// How many pieces of `color` and `role` stand on the board.
    fn piece_count(&self, color: Color, role: Role) -> i32;
    /// Does `m` (of the side to move) take the enemy's last king?
    fn takes_last_king(&self, m: Self::Move) -> bool;
    /// The type of the piece that makes `m`.
    fn mover_role(&self, m: Self::Move) -> Option<Role>;
    /// The type of the piece `m` takes, if any (castling takes nothing).
    fn captured_role(&self, m: Self::Move) -> Option<Role>;

    /// Plays a micro-move (the side to move stays): the moving piece's type, and whether it
    /// captured or moved a pawn.
    fn play_micro(&mut self, m: Self::Move) -> (Role, bool);
    /// Ends a turn of micro-moves: the halfmove clock counts turns, the other side moves.
    fn finish_turn(&mut self, irreversible: bool);
    /// Where the piece that made `m` stands after it (castling: the rook when `rook` is true).
    fn landing(m: Self::Move, rook: bool) -> Self::Square;
    /// The piece on `sq`, if any.
    fn piece_on(&self, sq: Self::Square) -> Option<Piece>;
    /// The key of the square of the piece that makes a turn's micro-moves (gollon2).
    fn mover_key(sq: Self::Square) -> u64;

    /// The key of a turn's en-passant targets (`new`: those made this turn).
    fn targets_key(targets: Self::Targets, new: bool) -> u64;
    /// `targets` with the square a pawn's double step `m` passed over.
    fn with_double_step(targets: Self::Targets, m: Self::Move) -> Self::Targets;
    /// The targets made this turn by `us` whose pawns still stand where they arrived.
    fn live_targets(&self, targets: Self::Targets, us: Color) -> Self::Targets;
    fn targets_empty(targets: Self::Targets) -> bool;

    /// The move of `moves` that `text` names.
    fn find_move(&self, moves: &[Self::Move], text: &str) -> Option<Self::Move>;
    /// `m` in SAN without check marks (there is no check), told apart from `candidates`.
    fn san(&self, m: Self::Move, candidates: &[Self::Move]) -> String;
    /// The move of `candidates` that the SAN `text` names.
    fn parse_san(&self, text: &str, candidates: &[Self::Move]) -> Option<Self::Move>;
    /// `go perft`: each root move's count of move paths `depth` deep (dice ignored), handed to
    /// `counted` as it is finished; false when `stop` ended the count early.
    fn perft_divide(
        &self,
        depth: u32,
        stop: &std::sync::atomic::AtomicBool,
        counted: &mut dyn FnMut(&str, u64),
    ) -> bool;
    /// The 8x8 chess board, where this is one (the tables' fits read it).
    fn chess_board(&self) -> Option<&Board> {
        None
    }
    /// The squares of a set of en-passant targets, by name.
    fn target_names(targets: Self::Targets) -> Vec<String>;
    /// Does `text` name a castling of chess here (for a variant that has none to say so)?
    fn names_castling(&self, _text: &str) -> bool {
        false
    }

    /// The static exchange of the capture `m`: what the mover gains, the recaptures counted
    /// (the search's horizon counts a capture only when it does not lose material).
    fn exchange(&self, m: Self::Move, values: &PieceValues) -> i32;
    /// Whether the enemy attacks the square the quiet micro-move `m` leaves, and the one it
    /// lands on (with `m`'s origin emptied): a piece escaping, or walking into, an attack
    /// (the search tries and keeps such micro-moves first).
    fn quiet_threats(&self, m: Self::Move) -> (bool, bool);
    /// The types of `!us`'s pieces that attack `us`'s king now (bit per role index).
    fn king_attackers(&self, us: Color) -> u8;
    /// The dice (role indices, first micro-move's first) with which `us` takes the enemy king in
    /// two micro-moves.
    fn two_step_king_captures(&self, us: Color) -> ArrayVec<(usize, usize), 16>;
}

impl MicroMove for Move {
    const NULL: Move = Move::NULL;

    #[inline]
    fn uci(self, chess960: bool) -> String {
        self.to_uci(chess960).to_string()
    }

    #[inline]
    fn promotion_role(self) -> Option<Role> {
        Move::promotion_role(self)
    }

    #[inline]
    fn is_castle(self) -> bool {
        Move::is_castle(self)
    }

    #[inline]
    fn squares(self) -> (usize, usize) {
        (self.from().index(), self.to().index())
    }
}

impl MicroBoard for Board {
    type Move = Move;
    type Square = Square;
    type Targets = Bitboard;
    type Moves = MoveList;
    const SQUARES: usize = 64;

    #[inline]
    fn turn(&self) -> Color {
        Board::turn(self)
    }

    #[inline]
    fn hash(&self) -> u64 {
        Board::hash(self)
    }

    #[inline]
    fn halfmove_clock(&self) -> u32 {
        Board::halfmove_clock(self)
    }

    fn fullmove_number(&self) -> u32 {
        Board::fullmove_number(self)
    }

    fn fen(&self) -> String {
        Board::fen(self)
    }

    fn size(&self) -> (u8, u8) {
        (8, 8)
    }

    fn piece_at_coords(&self, file: u8, rank: u8) -> Option<Piece> {
        self.piece_at(Square::from_coords(file, rank))
    }

    #[inline]
    fn has_king(&self, color: Color) -> bool {
        self.pieces(color, Role::King).any()
    }

    #[inline]
    fn piece_count(&self, color: Color, role: Role) -> i32 {
        self.pieces(color, role).count() as i32
    }

    #[inline]
    fn takes_last_king(&self, m: Move) -> bool {
        !m.is_null() && !m.is_castle() && self.pieces(!self.turn(), Role::King).contains(m.to())
    }

    #[inline]
    fn mover_role(&self, m: Move) -> Option<Role> {
        self.role_at(m.from())
    }

    #[inline]
    fn captured_role(&self, m: Move) -> Option<Role> {
        self.captured_square(m).and_then(|sq| self.role_at(sq))
    }

    #[inline]
    fn play_micro(&mut self, m: Move) -> (Role, bool) {
        Board::play_micro(self, m)
    }

    #[inline]
    fn finish_turn(&mut self, irreversible: bool) {
        Board::finish_turn(self, irreversible);
    }

    #[inline]
    fn landing(m: Move, rook: bool) -> Square {
        if !m.is_castle() {
            m.to()
        } else if rook {
            m.castle_rook_target()
        } else {
            m.castle_king_target()
        }
    }

    fn piece_on(&self, sq: Square) -> Option<Piece> {
        self.piece_at(sq)
    }

    #[inline]
    fn mover_key(sq: Square) -> u64 {
        zobrist::MOVER[sq.index()]
    }

    #[inline]
    fn targets_key(targets: Bitboard, new: bool) -> u64 {
        let mut h = 0;
        for sq in targets {
            let key = zobrist::EP_TARGET[sq.index()];
            h ^= if new { key.rotate_left(32) } else { key };
        }
        h
    }

    #[inline]
    fn with_double_step(targets: Bitboard, m: Move) -> Bitboard {
        if m.from().rank().abs_diff(m.to().rank()) != 2 {
            return targets;
        }
        targets | Bitboard::from_square(Square::from_coords(m.from().file(), (m.from().rank() + m.to().rank()) / 2))
    }

    #[inline]
    fn live_targets(&self, targets: Bitboard, us: Color) -> Bitboard {
        targets
            .into_iter()
            .filter(|&t| self.pieces(us, Role::Pawn).contains(pawn_arrival(t, us)))
            .fold(Bitboard::EMPTY, |bb, t| bb | Bitboard::from_square(t))
    }

    #[inline]
    fn targets_empty(targets: Bitboard) -> bool {
        targets.is_empty()
    }

    fn find_move(&self, moves: &[Move], text: &str) -> Option<Move> {
        crate::board::movegen::find_uci(self, moves, text)
    }

    fn san(&self, m: Move, candidates: &[Move]) -> String {
        crate::board::san::san_body(self, m, candidates)
    }

    fn parse_san(&self, text: &str, candidates: &[Move]) -> Option<Move> {
        crate::board::san::from_san(self, text, candidates)
    }

    /// Chess's legal moves, as Stockfish's `go perft` counts them.
    fn perft_divide(
        &self,
        depth: u32,
        stop: &std::sync::atomic::AtomicBool,
        counted: &mut dyn FnMut(&str, u64),
    ) -> bool {
        crate::board::perft::perft_divide_until(self, depth, stop, |m, n| counted(&m.to_uci(false).to_string(), n))
    }

    fn chess_board(&self) -> Option<&Board> {
        Some(self)
    }

    fn target_names(targets: Bitboard) -> Vec<String> {
        targets.into_iter().map(|sq| sq.to_string()).collect()
    }

    fn names_castling(&self, text: &str) -> bool {
        let mut castles = MoveList::new();
        crate::board::movegen::Generator::new(self, crate::board::movegen::Legality::PseudoLegal).castles(&mut castles);
        crate::board::movegen::find_uci(self, &castles, text).is_some()
    }

    #[inline]
    fn exchange(&self, m: Move, values: &PieceValues) -> i32 {
        crate::board::see::see(self, m, values)
    }

    #[inline]
    fn quiet_threats(&self, m: Move) -> (bool, bool) {
        if m.is_castle() {
            return (false, false);
        }
        let them = !self.turn();
        let from = m.from();
        let occupied = self.occupied() ^ crate::Bitboard::from_square(from);
        (self.is_attacked(from, them), self.attackers(m.to(), them, occupied).any())
    }

    fn king_attackers(&self, us: Color) -> u8 {
        let Some(king) = self.king(us) else { return 0 };
        let mut roles = 0u8;
        for sq in self.attackers(king, !us, self.occupied()) {
            roles |= 1 << self.role_at(sq).expect("an attacker").index();
        }
        roles
    }

    fn two_step_king_captures(&self, us: Color) -> ArrayVec<(usize, usize), 16> {
        two_step_king_captures(self, us)
    }
}

/// Where a pawn of `color` that double-stepped past `target` arrived.
#[inline]
pub fn pawn_arrival(target: Square, color: Color) -> Square {
    target.offset(if color == Color::White { 8 } else { -8 })
}

/// Dice that take the enemy king in two micro-moves on the 8x8 board (role indices, the die of
/// the first move first): a piece steps to a square from which it attacks the king and takes it
/// (two dice of its kind), or one of our pieces alone between our slider and the king steps off
/// the line and the slider takes it. A function of the position, found from attack sets without
/// playing.
fn two_step_king_captures(board: &Board, us: Color) -> ArrayVec<(usize, usize), 16> {
    use crate::board::attacks;
    let mut found: ArrayVec<(usize, usize), 16> = ArrayVec::new();
    let mut add = |a: Role, b: Role| {
        let pair = (a.index(), b.index());
        if !found.contains(&pair) && !found.is_full() {
            found.push(pair);
        }
    };
    let Some(king) = board.king(!us) else { return found };
    let occupied = board.occupied();
    let ours = board.by_color(us);
    let forward = |sq: Square| sq.offset(if us == Color::White { 8 } else { -8 });
    let pawn_moves = |from: Square| {
        let ahead = forward(from);
        let push = if occupied.contains(ahead) { Bitboard::EMPTY } else { Bitboard::from_square(ahead) };
        push | (attacks::pawn(us, from) & board.by_color(!us))
    };
    for role in Role::ALL {
        for from in board.pieces(us, role) {
            // A pawn on the last rank has promoted: no pawn stands there.
            if role == Role::Pawn && !(1..=6).contains(&from.rank()) {
                continue;
            }
            let without = occupied ^ Bitboard::from_square(from);
            // Where it can go, and where it would attack the king from.
            let (reach, attack_from) = if role == Role::Pawn {
                (pawn_moves(from), attacks::pawn(!us, king))
            } else {
                (attacks::piece(role, from, occupied) & !ours, attacks::piece(role, king, without))
            };
            if (reach & attack_from & !Bitboard::from_square(king)).any() {
                add(role, role);
            }
        }
    }
    // Discovered: our slider behind exactly one piece of ours on a line to the king.
    for slider in [Role::Bishop, Role::Rook, Role::Queen] {
        for from in board.pieces(us, slider) {
            let blockers = attacks::between(from, king) & occupied;
            if blockers.count() != 1 || (blockers & ours).is_empty() {
                continue;
            }
            if !attacks::piece(slider, from, occupied ^ blockers).contains(king) {
                continue;
            }
            let blocker = blockers.first().expect("one blocker");
            let role = board.role_at(blocker).expect("a blocker");
            let moves =
                if role == Role::Pawn { pawn_moves(blocker) } else { attacks::piece(role, blocker, occupied) & !ours };
            if (moves & !attacks::line(from, king)).any() {
                add(role, slider);
            }
        }
    }
    found
}

/// The most micro-moves one generation may list, on any board.
pub const MAX_MICRO_MOVES: usize = MAX_MOVES;
