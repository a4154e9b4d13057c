//! The position on a board up to 12x12: pieces in a padded mailbox, the side to move, the
//! en-passant target, the clocks, a Zobrist key kept up to date, and each side's kings counted
//! (a side with none left has lost). FEN in and out, with two-digit counts of empty squares.

use super::movegen::BigMove;
use super::square::{BigSquare, CELLS, MAX_SIDE, STRIDE};
use crate::board::fen::FenError;
use crate::board::piece::{Color, Piece, Role};
use std::sync::OnceLock;

/// What a variant's board is: its size, the kings each side starts with (more in a FEN is an
/// error), and whether pawns may step two squares from their first rank.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct BigSpec {
    pub files: u8,
    pub ranks: u8,
    pub kings: u8,
    pub double_step: bool,
}

/// A cell of the padded array: off the board, empty, or a piece.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Cell {
    Off,
    Empty,
    Piece(Piece),
}

/// A position on a big board.
#[derive(Clone, Debug)]
pub struct BigBoard {
    spec: BigSpec,
    cells: [Cell; CELLS],
    turn: Color,
    /// The square a pawn's double step passed over, for one ply.
    ep: Option<BigSquare>,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
    /// Per colour and padded row (a cell's index / 16), a bit per padded column where a piece of
    /// that colour stands: the move generator visits these cells only.
    rows: [[u16; STRIDE as usize]; 2],
    /// Per colour and role, the pieces on the board (the evaluation's material, kept as it goes).
    counts: [[u8; 6]; 2],
    /// Per colour, the ranks its pawns have advanced from their own second rank, summed.
    pawn_steps: [u16; 2],
    /// Each colour's knights, bishops and queens: their closeness to the centre, summed.
    centrality: [u16; 2],
}

impl PartialEq for BigBoard {
    fn eq(&self, other: &BigBoard) -> bool {
        self.spec == other.spec
            && self.cells == other.cells
            && self.turn == other.turn
            && self.ep == other.ep
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
    }
}

impl Eq for BigBoard {}

/// Zobrist keys: a piece on a padded cell, Black to move, an en-passant file.
struct Keys {
    pieces: [[u64; CELLS]; 12],
    black: u64,
    ep_file: [u64; MAX_SIDE as usize],
}

fn keys() -> &'static Keys {
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        // SplitMix64 from a fixed seed: the same keys in every run.
        let mut state = 0x5eed_b16b_0a2d_u64;
        let mut next = move || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut pieces = [[0; CELLS]; 12];
        for table in &mut pieces {
            for key in table.iter_mut() {
                *key = next();
            }
        }
        let black = next();
        let mut ep_file = [0; MAX_SIDE as usize];
        for key in &mut ep_file {
            *key = next();
        }
        Keys { pieces, black, ep_file }
    })
}

fn piece_key(piece: Piece, sq: BigSquare) -> u64 {
    keys().pieces[piece.color.index() * 6 + piece.role.index()][sq.index()]
}

/// A key for a square alone (the square of a turn's moving piece), apart from the pieces' keys.
pub(crate) fn square_key(sq: BigSquare) -> u64 {
    keys().pieces[0][sq.index()].rotate_left(23) ^ keys().black
}

impl BigBoard {
    /// The position `fen` describes on a board of `spec`, or why it is not one: placement, side
    /// to move, castling (`-`: no big variant castles), en-passant target, clocks.
    pub fn from_fen(fen: &str, spec: BigSpec) -> Result<BigBoard, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() != 6 {
            return Err(FenError::Syntax(format!("a FEN has 6 fields, not {}: '{fen}'", fields.len())));
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != usize::from(spec.ranks) {
            return Err(FenError::Syntax(format!(
                "its placement '{}' has {} ranks: this board has {} ranks",
                fields[0],
                rows.len(),
                spec.ranks
            )));
        }
        let mut board = BigBoard {
            spec,
            cells: [Cell::Off; CELLS],
            turn: Color::White,
            ep: None,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            rows: [[0; STRIDE as usize]; 2],
            counts: [[0; 6]; 2],
            pawn_steps: [0; 2],
            centrality: [0; 2],
        };
        for (i, row) in rows.iter().enumerate() {
            let rank = spec.ranks - 1 - i as u8;
            let mut file: u32 = 0;
            let mut chars = row.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    let mut count = d;
                    if let Some(e) = chars.peek().and_then(|c| c.to_digit(10)) {
                        chars.next();
                        count = count * 10 + e;
                    }
                    if count == 0 {
                        return Err(FenError::Syntax(format!("rank {}: an empty count of 0", rank + 1)));
                    }
                    for _ in 0..count {
                        if file < u32::from(spec.files) {
                            board.cells[BigSquare::new(file as u8, rank).index()] = Cell::Empty;
                        }
                        file += 1;
                    }
                } else {
                    let piece = Piece::from_char(c)
                        .ok_or_else(|| FenError::Syntax(format!("rank {}: '{c}' is not a piece", rank + 1)))?;
                    if file < u32::from(spec.files) {
                        board.put(BigSquare::new(file as u8, rank), piece);
                    }
                    file += 1;
                }
            }
            if file != u32::from(spec.files) {
                return Err(FenError::Syntax(format!("rank {} has {file} squares, not {}", rank + 1, spec.files)));
            }
        }
        board.turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::Syntax(format!("the side to move is w or b, not '{other}'"))),
        };
        if board.turn == Color::Black {
            board.hash ^= keys().black;
        }
        if fields[2] != "-" {
            return Err(FenError::Syntax(format!(
                "no castling on this board: the castling field is '-', not '{}'",
                fields[2]
            )));
        }
        if fields[3] != "-" {
            let sq = BigSquare::parse(fields[3], spec.files, spec.ranks)
                .ok_or_else(|| FenError::Syntax(format!("'{}' is not a square of this board", fields[3])))?;
            board.set_ep(Some(sq));
        }
        board.halfmove = fields[4]
            .parse()
            .map_err(|_| FenError::Syntax(format!("the halfmove clock '{}' is not a number", fields[4])))?;
        board.fullmove = fields[5]
            .parse()
            .map_err(|_| FenError::Syntax(format!("the move number '{}' is not a number", fields[5])))?;
        if board.fullmove == 0 {
            return Err(FenError::Syntax("the move number starts at 1".into()));
        }
        board.validate()?;
        Ok(board)
    }

    /// Kings within the variant's number, at least one a side, no pawn on a first or last rank,
    /// an en-passant target behind a pawn that just double-stepped.
    fn validate(&self) -> Result<(), FenError> {
        for color in Color::ALL {
            let kings = self.kings(color);
            if kings == 0 || kings > self.spec.kings {
                return Err(FenError::Impossible(format!(
                    "{} has {kings} kings; this board has 1 to {} a side",
                    color.name(),
                    self.spec.kings
                )));
            }
        }
        for sq in self.squares() {
            if let Some(p) = self.piece_at(sq)
                && p.role == Role::Pawn
                && (sq.rank() == 0 || sq.rank() == self.spec.ranks - 1)
            {
                return Err(FenError::Impossible(format!("a pawn on {sq}, a first or last rank")));
            }
        }
        if let Some(ep) = self.ep {
            let mover = !self.turn;
            let (behind, from_rank) = match mover {
                Color::White => (1, 1),
                Color::Black => (-1, self.spec.ranks - 2),
            };
            let pawn_rank = ep.rank() as i32 + behind;
            let ok = self.spec.double_step
                && ep.rank() as i32 - behind == i32::from(from_rank)
                && (0..i32::from(self.spec.ranks)).contains(&pawn_rank)
                && self.piece_at(BigSquare::new(ep.file(), pawn_rank as u8))
                    == Some(Piece { color: mover, role: Role::Pawn })
                && self.piece_at(ep).is_none();
            if !ok {
                return Err(FenError::Impossible(format!(
                    "{ep} is not the square a pawn has just double-stepped over"
                )));
            }
        }
        Ok(())
    }

    /// The position as FEN, empty squares counted in one number (`10`, `12`).
    pub fn fen(&self) -> String {
        let mut out = String::new();
        for rank in (0..self.spec.ranks).rev() {
            let mut empty = 0;
            for file in 0..self.spec.files {
                match self.piece_at(BigSquare::new(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            out += &empty.to_string();
                            empty = 0;
                        }
                        out.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out += &empty.to_string();
            }
            if rank > 0 {
                out.push('/');
            }
        }
        let ep = self.ep.map_or("-".to_string(), |sq| sq.to_string());
        format!("{out} {} - {ep} {} {}", self.turn.fen_char(), self.halfmove, self.fullmove)
    }

    pub fn spec(&self) -> BigSpec {
        self.spec
    }

    pub fn turn(&self) -> Color {
        self.turn
    }

    pub fn ep_square(&self) -> Option<BigSquare> {
        self.ep
    }

    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The Zobrist key of the position (pieces, side to move, en-passant file).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The kings `color` has left.
    pub fn kings(&self, color: Color) -> u8 {
        self.count(color, Role::King)
    }

    #[inline]
    pub fn cell(&self, index: usize) -> Cell {
        self.cells[index]
    }

    #[inline]
    pub fn piece_at(&self, sq: BigSquare) -> Option<Piece> {
        match self.cells[sq.index()] {
            Cell::Piece(p) => Some(p),
            _ => None,
        }
    }

    /// Every square of the playing area, rank by rank from a1.
    pub fn squares(&self) -> impl Iterator<Item = BigSquare> + use<> {
        let spec = self.spec;
        (0..spec.ranks).flat_map(move |rank| (0..spec.files).map(move |file| BigSquare::new(file, rank)))
    }

    /// The padded columns (bit per column) of `color`'s pieces on the padded row of `rank`.
    #[inline]
    pub fn row_of(&self, color: Color, rank: u8) -> u16 {
        self.rows[color.index()][usize::from(rank) + 2]
    }

    /// How many pieces of `color` and `role` stand on the board.
    #[inline]
    pub fn count(&self, color: Color, role: Role) -> u8 {
        self.counts[color.index()][role.index()]
    }

    /// The ranks `color`'s pawns have advanced from its second rank, summed.
    #[inline]
    pub fn pawn_steps(&self, color: Color) -> u16 {
        self.pawn_steps[color.index()]
    }

    /// How far a pawn of `color` on `sq` has come from its second rank (pawns never stand on
    /// a first or last rank).
    pub(crate) fn steps_of(&self, color: Color, sq: BigSquare) -> u16 {
        u16::from(match color {
            Color::White => sq.rank().saturating_sub(1),
            Color::Black => (self.spec.ranks - 2).saturating_sub(sq.rank()),
        })
    }

    /// The closeness to the centre of `color`'s knights, bishops and queens, summed
    /// ([`BigBoard::centrality_of`]).
    #[inline]
    pub fn centrality(&self, color: Color) -> u16 {
        self.centrality[color.index()]
    }

    /// How close `sq` is to the centre, for a piece of `role` (knights, bishops and queens;
    /// 0 for the others): the steps from the nearest edge file plus those from the nearest edge
    /// rank (0 in a corner, 10 in the centre of 12x12).
    #[inline]
    pub fn centrality_of(&self, role: Role, sq: BigSquare) -> u16 {
        if !matches!(role, Role::Knight | Role::Bishop | Role::Queen) {
            return 0;
        }
        let (f, r) = (sq.file(), sq.rank());
        u16::from(f.min(self.spec.files - 1 - f) + r.min(self.spec.ranks - 1 - r))
    }

    /// Records `piece` arriving on (`+1`) or leaving (`-1`) `sq` in the kept sets and counts.
    fn account(&mut self, sq: BigSquare, piece: Piece, arrives: bool) {
        let (c, index) = (piece.color.index(), sq.index());
        self.rows[c][index / usize::from(STRIDE)] ^= 1 << (index % usize::from(STRIDE));
        self.hash ^= piece_key(piece, sq);
        let count = &mut self.counts[c][piece.role.index()];
        *count = if arrives { *count + 1 } else { *count - 1 };
        if piece.role == Role::Pawn {
            let steps = self.steps_of(piece.color, sq);
            let kept = &mut self.pawn_steps[c];
            *kept = if arrives { *kept + steps } else { *kept - steps };
        }
        let centre = self.centrality_of(piece.role, sq);
        let kept = &mut self.centrality[c];
        *kept = if arrives { *kept + centre } else { *kept - centre };
    }

    fn put(&mut self, sq: BigSquare, piece: Piece) {
        self.cells[sq.index()] = Cell::Piece(piece);
        self.account(sq, piece, true);
    }

    fn take(&mut self, sq: BigSquare) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.cells[sq.index()] = Cell::Empty;
        self.account(sq, piece, false);
        Some(piece)
    }

    fn set_ep(&mut self, ep: Option<BigSquare>) {
        if let Some(old) = self.ep {
            self.hash ^= keys().ep_file[usize::from(old.file())];
        }
        if let Some(new) = ep {
            self.hash ^= keys().ep_file[usize::from(new.file())];
        }
        self.ep = ep;
    }

    /// The piece `m` captures, if any (on the target square, or the pawn taken en passant).
    pub fn captured(&self, m: BigMove) -> Option<Piece> {
        self.piece_at(m.to).or_else(|| self.en_passant_victim(m).and_then(|sq| self.piece_at(sq)))
    }

    /// Where the pawn taken by `m` en passant stands, if `m` is such a capture.
    fn en_passant_victim(&self, m: BigMove) -> Option<BigSquare> {
        let mover = self.piece_at(m.from)?;
        (mover.role == Role::Pawn && Some(m.to) == self.ep && m.from.file() != m.to.file())
            .then(|| BigSquare::new(m.to.file(), m.from.rank()))
    }

    /// The position after `m`, a move of the side to move (pseudo-legal: kings may be left or put
    /// en prise, and taking one removes it).
    pub fn play(&self, m: BigMove) -> BigBoard {
        let mut next = self.clone();
        let mover = next.take(m.from).expect("a move starts on a piece");
        let victim = self.en_passant_victim(m);
        let captured = match victim {
            Some(sq) => next.take(sq),
            None => next.take(m.to),
        };
        let placed = match m.promotion {
            Some(role) => Piece { color: mover.color, role },
            None => mover,
        };
        next.put(m.to, placed);
        let double = mover.role == Role::Pawn && m.from.rank().abs_diff(m.to.rank()) == 2;
        next.set_ep(double.then(|| BigSquare::new(m.from.file(), (m.from.rank() + m.to.rank()) / 2)));
        next.halfmove = if mover.role == Role::Pawn || captured.is_some() { 0 } else { self.halfmove + 1 };
        if self.turn == Color::Black {
            next.fullmove += 1;
        }
        next.turn = !self.turn;
        next.hash ^= keys().black;
        next
    }

    /// Plays `m` as one micro-move of a turn (the side to move stays, and no en-passant target
    /// is set: the big board's micro-move variant has no double step): the moving piece's type,
    /// and whether it captured or moved a pawn.
    pub fn play_micro(&mut self, m: BigMove) -> (Role, bool) {
        let mover = self.take(m.from).expect("a micro-move starts on a piece");
        let captured = self.take(m.to);
        self.put(m.to, Piece { color: mover.color, role: m.promotion.unwrap_or(mover.role) });
        self.set_ep(None);
        (mover.role, mover.role == Role::Pawn || captured.is_some())
    }

    /// Ends a turn of micro-moves: the halfmove clock counts turns (reset by a turn with a
    /// capture or a pawn move), and the other side is to move.
    pub fn finish_turn(&mut self, irreversible: bool) {
        self.set_ep(None);
        self.halfmove = if irreversible { 0 } else { self.halfmove + 1 };
        if self.turn == Color::Black {
            self.fullmove += 1;
        }
        self.turn = !self.turn;
        self.hash ^= keys().black;
    }

    /// The position after a passed turn: the other side to move, no en-passant target.
    pub fn pass(&self) -> BigBoard {
        let mut next = self.clone();
        next.set_ep(None);
        next.halfmove += 1;
        if self.turn == Color::Black {
            next.fullmove += 1;
        }
        next.turn = !self.turn;
        next.hash ^= keys().black;
        next
    }

    /// Do the sets and counts kept as pieces come and go (rows, material, pawn steps, centrality) equal
    /// those of the cells counted afresh? (Tests ask it after every move of random games.)
    pub fn kept_counts_are_exact(&self) -> bool {
        let mut fresh = BigBoard {
            rows: [[0; STRIDE as usize]; 2],
            counts: [[0; 6]; 2],
            pawn_steps: [0; 2],
            centrality: [0; 2],
            ..self.clone()
        };
        for sq in self.squares() {
            if let Some(p) = self.piece_at(sq) {
                fresh.account(sq, p, true);
            }
        }
        (fresh.rows, fresh.counts, fresh.pawn_steps, fresh.centrality)
            == (self.rows, self.counts, self.pawn_steps, self.centrality)
    }

    /// The hash computed from scratch (tests compare it with the one kept up to date).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.turn == Color::Black { keys().black } else { 0 };
        for sq in self.squares() {
            if let Some(p) = self.piece_at(sq) {
                h ^= piece_key(p, sq);
            }
        }
        if let Some(ep) = self.ep {
            h ^= keys().ep_file[usize::from(ep.file())];
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GRAND: &str = "r2rq2qr2r/nnbb1kk1bbnn/nnbb1kk1bbnn/r2rq2qr2r/pppppppppppp/pppppppppppp/PPPPPPPPPPPP/PPPPPPPPPPPP/R2RQ2QR2R/NNBB1KK1BBNN/NNBB1KK1BBNN/R2RQ2QR2R w - - 0 1";
    const BRAINKING10: &str = "rnbqkkkbnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBQKKKBNR w - - 0 1";

    #[test]
    fn the_start_positions_read_and_write_back() {
        for (fen, spec) in [(GRAND, crate::rules::grand::SPEC), (BRAINKING10, crate::rules::brainking10::SPEC)] {
            let board = BigBoard::from_fen(fen, spec).unwrap();
            assert_eq!(board.fen(), fen);
            assert_eq!(board.kings(Color::White), spec.kings);
            assert_eq!(board.kings(Color::Black), spec.kings);
            assert_eq!(board.hash(), board.hash_from_scratch());
        }
        let b = BigBoard::from_fen(BRAINKING10, crate::rules::brainking10::SPEC).unwrap();
        assert_eq!(b.piece_at(BigSquare::new(9, 9)), Some(Piece { color: Color::Black, role: Role::Rook }));
        assert_eq!(b.piece_at(BigSquare::new(5, 0)), Some(Piece { color: Color::White, role: Role::King }));
    }

    #[test]
    fn bad_fens_are_refused_with_a_reason() {
        let refused = |fen: &str, spec: BigSpec, words: &str| {
            let e = BigBoard::from_fen(fen, spec).expect_err(fen);
            assert!(e.to_string().contains(words), "{fen}: {e}");
        };
        // A 12x12 FEN for a 10x10 board, and the reverse.
        refused(GRAND, crate::rules::brainking10::SPEC, "10 ranks");
        refused(BRAINKING10, crate::rules::grand::SPEC, "12 ranks");
        // A rank of 13 squares on 12x12, of 11 on 10x10.
        refused(&GRAND.replacen("r2rq2qr2r", "r2rq2qr3r", 1), crate::rules::grand::SPEC, "13 squares");
        refused(
            &BRAINKING10.replace("/10/10/10/10/10/10/", "/10/11/10/10/10/10/"),
            crate::rules::brainking10::SPEC,
            "11 squares",
        );
        // A fifth king, a fourth on 10x10, and none.
        refused(&GRAND.replacen("nnbb1kk1bbnn", "nnbbkkk1bbnn", 1), crate::rules::grand::SPEC, "5 kings");
        refused(&BRAINKING10.replace("RNBQKKKBNR", "RNKQKKKBNR"), crate::rules::brainking10::SPEC, "4 kings");
        refused(&BRAINKING10.replace("rnbqkkkbnr", "rnbqqqqbnr"), crate::rules::brainking10::SPEC, "0 kings");
        refused(&BRAINKING10.replace(" - - ", " KQ - "), crate::rules::brainking10::SPEC, "castling");
        refused(&BRAINKING10.replace("RNBQKKKBNR", "RNBQKKKBNP"), crate::rules::brainking10::SPEC, "pawn on j1");
        refused(&BRAINKING10.replace(" w - - ", " w - e9 "), crate::rules::brainking10::SPEC, "double-stepped");
        refused(&BRAINKING10.replace("pppppppppp/10", "pppppppppx/10"), crate::rules::brainking10::SPEC, "'x'");
        refused(&BRAINKING10.replace("/10/10/10/10/10/10/", "/10/10/10/10/10/"), crate::rules::brainking10::SPEC, "9");
        refused(&BRAINKING10.replace(" 0 1", " 0 0"), crate::rules::brainking10::SPEC, "starts at 1");
        refused("10/10 w - - 0 1", crate::rules::brainking10::SPEC, "ranks");
    }

    #[test]
    fn moves_keep_the_key_and_the_kings_counted() {
        let b = BigBoard::from_fen("k9/10/10/10/10/10/1p8/10/P9/K1K7 w - - 0 1", crate::rules::brainking10::SPEC);
        let b = b.unwrap();
        // a2a4 double-steps over a3; b4 takes en passant; the en-passant file is in the key.
        let m = |from: &str, to: &str, promotion: Option<Role>| BigMove {
            from: BigSquare::parse(from, 10, 10).unwrap(),
            to: BigSquare::parse(to, 10, 10).unwrap(),
            promotion,
        };
        let after = b.play(m("a2", "a4", None));
        assert_eq!(after.ep_square(), BigSquare::parse("a3", 10, 10));
        assert_eq!(after.hash(), after.hash_from_scratch());
        let taken = after.play(m("b4", "a3", None));
        assert_eq!(taken.fen(), "k9/10/10/10/10/10/10/p9/10/K1K7 w - - 0 2");
        assert_eq!(taken.hash(), taken.hash_from_scratch());
        // Taking a king counts it off.
        let b =
            BigBoard::from_fen("k9/10/10/10/10/10/10/10/1r8/K1K7 b - - 0 1", crate::rules::brainking10::SPEC).unwrap();
        let after = b.play(m("b2", "a1", None));
        assert_eq!((after.kings(Color::White), after.halfmove_clock()), (1, 0));
        assert_eq!(after.hash(), after.hash_from_scratch());
    }
}
