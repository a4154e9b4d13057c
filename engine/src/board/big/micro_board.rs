//! The big board as the board of a variant of several micro-moves a turn (`grand`): what the
//! maximum rule, the turn's bookkeeping and the search ask of it ([`MicroBoard`]). The big board
//! has no castling and, for these variants, no double step, so no en-passant targets.

use super::board::{BigBoard, square_key};
use super::movegen::BigMove;
use super::square::{BigSquare, CELLS};
use crate::board::micro_board::{MAX_MICRO_MOVES, MicroBoard, MicroMove};
use crate::board::piece::{Color, Piece, Role};
use crate::board::values::PieceValues;
use arrayvec::ArrayVec;
use std::sync::atomic::AtomicBool;

impl MicroMove for BigMove {
    const NULL: BigMove = BigMove::NULL;

    fn uci(self, _chess960: bool) -> String {
        self.to_string()
    }

    #[inline]
    fn promotion_role(self) -> Option<Role> {
        self.promotion
    }

    #[inline]
    fn is_castle(self) -> bool {
        false
    }

    #[inline]
    fn squares(self) -> (usize, usize) {
        (self.from.index(), self.to.index())
    }
}

impl MicroBoard for BigBoard {
    type Move = BigMove;
    type Square = BigSquare;
    type Targets = ();
    type Moves = ArrayVec<BigMove, MAX_MICRO_MOVES>;
    const SQUARES: usize = CELLS;

    #[inline]
    fn turn(&self) -> Color {
        BigBoard::turn(self)
    }

    #[inline]
    fn hash(&self) -> u64 {
        BigBoard::hash(self)
    }

    #[inline]
    fn halfmove_clock(&self) -> u32 {
        BigBoard::halfmove_clock(self)
    }

    fn fullmove_number(&self) -> u32 {
        BigBoard::fullmove_number(self)
    }

    fn fen(&self) -> String {
        BigBoard::fen(self)
    }

    fn size(&self) -> (u8, u8) {
        let spec = self.spec();
        (spec.files, spec.ranks)
    }

    fn piece_at_coords(&self, file: u8, rank: u8) -> Option<Piece> {
        self.piece_at(BigSquare::new(file, rank))
    }

    #[inline]
    fn has_king(&self, color: Color) -> bool {
        self.kings(color) > 0
    }

    #[inline]
    fn piece_count(&self, color: Color, role: Role) -> i32 {
        i32::from(self.count(color, role))
    }

    #[inline]
    fn takes_last_king(&self, m: BigMove) -> bool {
        m != BigMove::NULL
            && self.captured(m).is_some_and(|p| p.role == Role::King)
            && self.kings(!BigBoard::turn(self)) == 1
    }

    #[inline]
    fn mover_role(&self, m: BigMove) -> Option<Role> {
        self.piece_at(m.from).map(|p| p.role)
    }

    #[inline]
    fn captured_role(&self, m: BigMove) -> Option<Role> {
        self.captured(m).map(|p| p.role)
    }

    #[inline]
    fn play_micro(&mut self, m: BigMove) -> (Role, bool) {
        BigBoard::play_micro(self, m)
    }

    #[inline]
    fn finish_turn(&mut self, irreversible: bool) {
        BigBoard::finish_turn(self, irreversible);
    }

    #[inline]
    fn landing(m: BigMove, _rook: bool) -> BigSquare {
        m.to
    }

    fn piece_on(&self, sq: BigSquare) -> Option<Piece> {
        self.piece_at(sq)
    }

    #[inline]
    fn mover_key(sq: BigSquare) -> u64 {
        square_key(sq)
    }

    #[inline]
    fn targets_key((): (), _new: bool) -> u64 {
        0
    }

    #[inline]
    fn with_double_step((): (), _m: BigMove) {}

    #[inline]
    fn live_targets(&self, (): (), _us: Color) {}

    #[inline]
    fn targets_empty((): ()) -> bool {
        true
    }

    fn find_move(&self, moves: &[BigMove], text: &str) -> Option<BigMove> {
        moves.iter().copied().find(|m| m.to_string() == text)
    }

    fn san(&self, m: BigMove, candidates: &[BigMove]) -> String {
        super::san::to_san(self, m, candidates)
    }

    fn parse_san(&self, text: &str, candidates: &[BigMove]) -> Option<BigMove> {
        super::san::from_san(self, text, candidates)
    }

    /// Every pseudo-legal move, dice ignored, as the big board's perft counts them.
    fn perft_divide(&self, depth: u32, stop: &AtomicBool, counted: &mut dyn FnMut(&str, u64)) -> bool {
        super::perft::divide_until(self, depth, stop, |m, n| counted(&m.to_string(), n))
    }

    fn target_names((): ()) -> Vec<String> {
        Vec::new()
    }

    /// One recapture counted: the victim where its square is not defended, else the victim
    /// less the attacker (an even trade is 0, as a full exchange would find it).
    fn exchange(&self, m: BigMove, values: &PieceValues) -> i32 {
        let (Some(attacker), Some(victim)) = (self.piece_at(m.from), self.captured(m)) else { return 0 };
        let (gain, risk) = (values.of(victim.role), values.of(attacker.role));
        if self.attacked_by(m.to, !BigBoard::turn(self)) { gain - risk } else { gain }
    }

    /// The landing square is looked at with the mover still on its origin: only a slider
    /// behind the mover, along its own line, is missed.
    #[inline]
    fn quiet_threats(&self, m: BigMove) -> (bool, bool) {
        let them = !BigBoard::turn(self);
        (self.attacked_by(m.from, them), self.attacked_by(m.to, them))
    }

    /// No king danger is weighed on the big board (its evaluation has none).
    fn king_attackers(&self, _us: Color) -> u8 {
        0
    }

    fn two_step_king_captures(&self, _us: Color) -> ArrayVec<(usize, usize), 16> {
        ArrayVec::new()
    }
}
