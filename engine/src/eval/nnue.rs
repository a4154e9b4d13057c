//! A learned evaluation in the style of modern engines (NNUE): the board's pieces as sparse
//! inputs (a colour, a role and a square, seen from each side), one hidden layer whose sums are
//! kept in an [`Accumulator`] and updated by the few pieces a move changes, and an output for
//! the side to move. Integer arithmetic throughout, as the weights are quantised.
//!
//! The network: 768 inputs per side (own/enemy x 6 roles x 64 squares, Black's squares mirrored
//! so that each side sees itself moving up the board) -> `HIDDEN` sums per side, clipped to
//! `0..=QA` -> one output from both sides' clipped sums, the mover's first. The score is
//! `(output + bias) * SCALE / (QA * QB)` centipawns.
//!
//! Optionally, dice-aware inputs ([`mobility`]): for each side and piece type, whether its
//! pieces have at least 1, 2, 4 and 8 moves. Where a die names the piece type that moves, a
//! type with no move is a wasted die; these inputs depend on every piece, so their sums are
//! updated from the bits that changed rather than from the pieces that moved.
//!
//! The file (`.nnue`): `ALEANNUE`, version `u32`, the variant's name (`u8` length and bytes),
//! `HIDDEN` as `u16`, the inputs' flags (version 3: `u8`, 1 for the dice-aware inputs; older
//! versions have none), then little-endian `i16` feature weights (input-major; the dice-aware
//! inputs' rows after the pieces'), feature biases, output weights (the mover's `HIDDEN`, then
//! the other side's), the output bias as `i32`, the result scale (version 2 on: `u32`, K times
//! 10,000; 0 for none; version 1 files have no such field) and last the FNV-1a checksum (`u32`)
//! of everything before it.

use crate::board::Board;
use crate::board::checksum::fnv1a;
use crate::board::piece::{Color, Role};
use crate::eval::data::DataError;

/// Inputs per side: own or enemy, 6 roles, 64 squares.
pub const INPUTS: usize = 768;
/// Hidden sums per side.
pub const HIDDEN: usize = 128;
/// The clip of the hidden sums, and their scale: a weight of 1.0 is `QA`.
pub const QA: i32 = 255;
/// The output weights' scale.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output.
pub const SCALE: i32 = 400;

/// The dice-aware inputs per side, when a network has them: own or enemy, 6 roles, a step each
/// of [`MOBILITY_STEPS`].
pub const MOBILITY_INPUTS: usize = 48;
/// A role's moves reach at least each of these: an input each (a thermometer, so that the
/// network can weigh the first move, which decides whether its die is usable, apart). Powers
/// of two: [`mobility`] reads the steps reached off a count's bit length.
const MOBILITY_STEPS: [u32; 4] = [1, 2, 4, 8];
/// The flag of the dice-aware inputs in the file.
const FLAG_MOBILITY: u8 = 1;

const MAGIC: &[u8; 8] = b"ALEANNUE";
const VERSION: u32 = 3;
/// The oldest version read: the same file without the result scale.
const FIRST_VERSION: u32 = 1;
/// The first version with the inputs' flags.
const FLAGS_VERSION: u32 = 3;

thread_local! {
    /// The last position each thread evaluated: the network's id, the position's pieces and
    /// their sums, updated in place from one evaluation to the next.
    static LAST: std::cell::RefCell<Option<Cached>> = const { std::cell::RefCell::new(None) };
}

/// What a thread keeps of the last position it evaluated.
struct Cached {
    net: u64,
    inputs: Inputs,
    acc: Accumulator,
}

/// A board's pieces as the inputs see them: `[color][role]`.
type Pieces = [[u64; 6]; 2];

/// What a network reads of a board: its pieces, and its dice-aware inputs (White's view, 0 for
/// a network without them).
struct Inputs {
    pieces: Pieces,
    mobility: u64,
}

/// The dice-aware inputs of `board` from White's view, as bits: `color * 24 + role * 4 + step`
/// is set when `color`'s pieces of `role` have at least `MOBILITY_STEPS[step]` moves, counted
/// as each variant's pieces move with no check to mind: onto empty squares and enemy pieces,
/// pawns one step ahead or a capture (no double steps, castling or en passant).
#[inline(always)]
pub fn mobility(board: &Board) -> u64 {
    const NOT_A: u64 = !crate::board::bitboard::Bitboard::file(0).0;
    const NOT_H: u64 = !crate::board::bitboard::Bitboard::file(7).0;
    let occupied = board.occupied().0;
    let mut bits = 0u64;
    for color in Color::ALL {
        let own = board.by_color(color).0;
        let enemy = board.by_color(!color).0;
        let mut counts = [0u32; 6];
        // Pawns all at once: steps ahead, and captures toward each side (one move per pawn and
        // target, as the pieces' moves below are counted).
        let pawns = board.pieces(color, Role::Pawn).0;
        let (ahead, left, right) = if color == Color::White {
            (pawns << 8, (pawns & NOT_A) << 7, (pawns & NOT_H) << 9)
        } else {
            (pawns >> 8, (pawns & NOT_H) >> 7, (pawns & NOT_A) >> 9)
        };
        counts[Role::Pawn.index()] =
            (ahead & !occupied).count_ones() + (left & enemy).count_ones() + (right & enemy).count_ones();
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
            for sq in board.pieces(color, role) {
                counts[role.index()] +=
                    (crate::board::attacks::piece(role, sq, crate::board::bitboard::Bitboard(occupied)).0 & !own)
                        .count_ones();
            }
        }
        for (r, &count) in counts.iter().enumerate() {
            // The steps 1, 2, 4 and 8 a count reaches are its bit length, at most four.
            let steps = (u32::BITS - count.leading_zeros()).min(MOBILITY_STEPS.len() as u32);
            bits |= ((1u64 << steps) - 1) << (color.index() * 24 + r * 4);
        }
    }
    bits
}

/// The dice-aware inputs' bits in `view`'s perspective: for Black, own and enemy swapped.
#[inline(always)]
pub fn mobility_in(view: Color, white_bits: u64) -> u64 {
    if view == Color::White { white_bits } else { (white_bits >> 24) | ((white_bits & 0xff_ffff) << 24) }
}

fn pieces_of(board: &Board) -> Pieces {
    let mut pieces = [[0; 6]; 2];
    for color in Color::ALL {
        for role in Role::ALL {
            pieces[color.index()][role.index()] = board.pieces(color, role).0;
        }
    }
    pieces
}

/// Inputs changed between two evaluated positions, most: more and a refresh is as cheap. (A
/// search evaluates neighbours: a leaf, then its sibling or cousin, a few pieces apart.)
const MOST_CHANGES: usize = 16;

/// The inputs that differ between two positions, by view: `[view][k]`.
struct Changes {
    added: [[u16; MOST_CHANGES]; 2],
    removed: [[u16; MOST_CHANGES]; 2],
    n_added: usize,
    n_removed: usize,
}

/// The pieces that left a square and those that arrived on one between `before` and `after`,
/// whatever the moves (castling, en passant, promotion, several micro-moves); `None` if more
/// than [`MOST_CHANGES`] of either.
#[inline(always)]
fn changes(before: &Pieces, after: &Pieces) -> Option<Changes> {
    let mut out = Changes { added: [[0; MOST_CHANGES]; 2], removed: [[0; MOST_CHANGES]; 2], n_added: 0, n_removed: 0 };
    for color in Color::ALL {
        for role in Role::ALL {
            let (b, a) = (before[color.index()][role.index()], after[color.index()][role.index()]);
            if a == b {
                continue;
            }
            // Each view's first input of this color and role; a square adds its index (mirrored
            // in Black's view, where a8 is the first).
            let white = feature(Color::White, color, role, 0) as u16;
            let black = feature(Color::Black, color, role, 56) as u16;
            for (mut bits, list, n) in
                [(b & !a, &mut out.removed, &mut out.n_removed), (a & !b, &mut out.added, &mut out.n_added)]
            {
                while bits != 0 {
                    if *n == MOST_CHANGES {
                        return None;
                    }
                    let sq = bits.trailing_zeros() as u16;
                    list[0][*n] = white + sq;
                    list[1][*n] = black + (sq ^ 56);
                    *n += 1;
                    bits &= bits - 1;
                }
            }
        }
    }
    Some(out)
}

/// A quantised network. Its weights are not to be changed once it has evaluated a position
/// (each thread keeps the sums of its last position under the network's own id).
pub struct Network {
    /// The variant it was trained for.
    pub variant: String,
    /// `[input][hidden]`.
    pub feature_weights: Box<[[i16; HIDDEN]; INPUTS]>,
    /// The dice-aware inputs' rows (`[bit of mobility_in][hidden]`), if it has them.
    pub mobility_weights: Option<Box<[[i16; HIDDEN]; MOBILITY_INPUTS]>>,
    pub feature_bias: [i16; HIDDEN],
    /// `[mover's sums, other side's sums][hidden]`.
    pub output_weights: [[i16; HIDDEN]; 2],
    pub output_bias: i32,
    /// How its scores (the tables' plus its own) turn into expected results, fitted to games'
    /// results (`alea tune scale`; `alea tune nnue` passes on the adopted network's): the K of
    /// `1 / (1 + 10^(-K * cp / 400))` that the search's equity and the win/draw/loss reports use
    /// in place of the tables' own. `None`: the tables' K.
    pub result_scale: Option<f64>,
    /// This network's own number, for the threads' caches of sums (a copy gets a new one).
    id: u64,
}

/// The next network's number.
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

fn new_id() -> u64 {
    NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Equal weights, whatever their numbers.
impl PartialEq for Network {
    fn eq(&self, other: &Network) -> bool {
        self.variant == other.variant
            && self.feature_weights == other.feature_weights
            && self.mobility_weights == other.mobility_weights
            && self.feature_bias == other.feature_bias
            && self.output_weights == other.output_weights
            && self.output_bias == other.output_bias
            && self.result_scale == other.result_scale
    }
}

impl Eq for Network {}

impl Clone for Network {
    fn clone(&self) -> Network {
        Network {
            variant: self.variant.clone(),
            feature_weights: self.feature_weights.clone(),
            mobility_weights: self.mobility_weights.clone(),
            feature_bias: self.feature_bias,
            output_weights: self.output_weights,
            output_bias: self.output_bias,
            result_scale: self.result_scale,
            id: new_id(),
        }
    }
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let inputs = INPUTS + if self.mobility_weights.is_some() { MOBILITY_INPUTS } else { 0 };
        write!(f, "Network({}, {inputs}x{HIDDEN})", self.variant)
    }
}

/// The hidden sums of a position, from each side's view (`[Color::index()]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    pub sums: [[i16; HIDDEN]; 2],
}

/// The input a piece gives in `view`'s perspective.
#[inline]
pub fn feature(view: Color, color: Color, role: Role, square: usize) -> usize {
    let (side, sq) = if view == Color::White { (color.index(), square) } else { (color.index() ^ 1, square ^ 56) };
    side * 384 + role.index() * 64 + sq
}

impl Network {
    /// A network of zeros for `variant` (every position scores 0): the trainer's start.
    pub fn zeros(variant: &str) -> Network {
        Network {
            variant: variant.to_string(),
            feature_weights: vec![[0i16; HIDDEN]; INPUTS].into_boxed_slice().try_into().expect("INPUTS rows"),
            mobility_weights: None,
            feature_bias: [0; HIDDEN],
            output_weights: [[0; HIDDEN]; 2],
            output_bias: 0,
            result_scale: None,
            id: new_id(),
        }
    }

    /// A network of zeros, with the dice-aware inputs if `mobility`.
    pub fn zeros_with(variant: &str, mobility: bool) -> Network {
        let mut net = Network::zeros(variant);
        if mobility {
            net.mobility_weights = Some(Box::new([[0; HIDDEN]; MOBILITY_INPUTS]));
        }
        net
    }

    /// The first layer's rows in the file's order: the pieces' inputs, then the dice-aware ones.
    pub fn rows(&self) -> impl Iterator<Item = &[i16; HIDDEN]> {
        self.feature_weights.iter().chain(self.mobility_weights.iter().flat_map(|rows| rows.iter()))
    }

    /// [`Network::rows`], to set them.
    pub fn rows_mut(&mut self) -> impl Iterator<Item = &mut [i16; HIDDEN]> {
        self.feature_weights.iter_mut().chain(self.mobility_weights.iter_mut().flat_map(|rows| rows.iter_mut()))
    }

    /// What this network reads of `board` (the dice-aware inputs only if it has them).
    #[inline(always)]
    fn inputs_of(&self, board: &Board) -> Inputs {
        Inputs { pieces: pieces_of(board), mobility: if self.mobility_weights.is_some() { mobility(board) } else { 0 } }
    }

    /// The sums of `board` computed from its pieces.
    pub fn refresh(&self, board: &Board) -> Accumulator {
        self.refresh_from(&self.inputs_of(board))
    }

    /// The sums of a board's inputs computed from scratch.
    #[inline(always)]
    fn refresh_from(&self, inputs: &Inputs) -> Accumulator {
        let mut acc = Accumulator { sums: [self.feature_bias; 2] };
        for color in Color::ALL {
            for role in Role::ALL {
                for_each_bit(inputs.pieces[color.index()][role.index()], |sq| {
                    for view in Color::ALL {
                        add(&mut acc.sums[view.index()], &self.feature_weights[feature(view, color, role, sq)]);
                    }
                });
            }
        }
        if let Some(rows) = &self.mobility_weights {
            for view in Color::ALL {
                for_each_bit(mobility_in(view, inputs.mobility), |b| add(&mut acc.sums[view.index()], &rows[b]));
            }
        }
        acc
    }

    /// The sums of `child` from those of `parent`: the pieces that left a square and those that
    /// arrived on one, whatever the move (castling, en passant, promotion, several micro-moves).
    pub fn update(&self, parent_acc: &Accumulator, parent: &Board, child: &Board) -> Accumulator {
        let mut acc = parent_acc.clone();
        self.update_in_place(&mut acc, &self.inputs_of(parent), &self.inputs_of(child));
        acc
    }

    /// `acc`, the sums of the inputs `before`, made those of `after`: every changed input of a
    /// side's view applied in one pass over its sums (loaded once, stored once).
    #[inline(always)]
    fn update_in_place(&self, acc: &mut Accumulator, before: &Inputs, after: &Inputs) {
        let Some(changes) = changes(&before.pieces, &after.pieces) else {
            *acc = self.refresh_from(after);
            return;
        };
        for view in Color::ALL {
            let added = &changes.added[view.index()][..changes.n_added];
            let removed = &changes.removed[view.index()][..changes.n_removed];
            // The whole view's sums in registers (eight of AVX2's; half at a time measured
            // slower), every row applied, stored once.
            let mut sums = acc.sums[view.index()];
            for &input in added {
                add(&mut sums, &self.feature_weights[usize::from(input)]);
            }
            for &input in removed {
                sub(&mut sums, &self.feature_weights[usize::from(input)]);
            }
            if let Some(rows) = &self.mobility_weights {
                let (was, now) = (mobility_in(view, before.mobility), mobility_in(view, after.mobility));
                for_each_bit(now & !was, |b| add(&mut sums, &rows[b]));
                for_each_bit(was & !now, |b| sub(&mut sums, &rows[b]));
            }
            acc.sums[view.index()] = sums;
        }
    }

    /// The score for `mover`, in centipawns.
    #[inline(always)]
    pub fn evaluate(&self, acc: &Accumulator, mover: Color) -> i32 {
        let ours = dot_clipped(&acc.sums[mover.index()], &self.output_weights[0]);
        let theirs = dot_clipped(&acc.sums[(!mover).index()], &self.output_weights[1]);
        let output = i64::from(ours) + i64::from(theirs) + i64::from(self.output_bias);
        (output * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// The score of `board` for its side to move, from scratch.
    pub fn evaluate_board(&self, board: &Board) -> i32 {
        self.evaluate(&self.refresh(board), board.turn())
    }

    /// The score of `board` for its side to move, its sums updated from the last position this
    /// thread evaluated with this network: the search evaluates positions near one another (a
    /// leaf, then its sibling or cousin), so a few pieces differ where a refresh adds all of them.
    /// [`Network::update`] is exact from any position, so the result equals
    /// [`Network::evaluate_board`] whatever came before.
    pub fn evaluate_incremental(&self, board: &Board) -> i32 {
        LAST.with(|last| {
            let mut last = last.borrow_mut();
            match &mut *last {
                Some(cached) if cached.net == self.id => {
                    let (score, after) = self.advance(&mut cached.acc, &cached.inputs, board);
                    cached.inputs = after;
                    score
                }
                _ => {
                    let inputs = self.inputs_of(board);
                    let acc = self.refresh_from(&inputs);
                    let score = self.evaluate(&acc, board.turn());
                    *last = Some(Cached { net: self.id, inputs, acc });
                    score
                }
            }
        })
    }

    /// `acc`, the sums of the inputs `before`, made those of `board`; its score and inputs.
    #[inline]
    fn advance(&self, acc: &mut Accumulator, before: &Inputs, board: &Board) -> (i32, Inputs) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: this processor has AVX2 and POPCNT (checked just above).
            return unsafe { self.advance_avx2(acc, before, board) };
        }
        self.advance_here(acc, before, board)
    }

    /// [`Network::advance`] compiled for AVX2: the sums' additions and the output's products
    /// take 16 lanes at a time where baseline x86-64 takes 8, and the dice-aware inputs' move
    /// counts one instruction each (POPCNT) where baseline x86-64 takes a dozen.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt")]
    fn advance_avx2(&self, acc: &mut Accumulator, before: &Inputs, board: &Board) -> (i32, Inputs) {
        self.advance_here(acc, before, board)
    }

    /// The body of [`Network::advance`], inlined into each processor's version.
    #[inline(always)]
    fn advance_here(&self, acc: &mut Accumulator, before: &Inputs, board: &Board) -> (i32, Inputs) {
        let after = self.inputs_of(board);
        self.update_in_place(acc, before, &after);
        (self.evaluate(acc, board.turn()), after)
    }

    /// The network as its file holds it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend(VERSION.to_le_bytes());
        out.push(self.variant.len() as u8);
        out.extend(self.variant.as_bytes());
        out.extend((HIDDEN as u16).to_le_bytes());
        out.push(if self.mobility_weights.is_some() { FLAG_MOBILITY } else { 0 });
        for row in self.rows() {
            out.extend(row.iter().flat_map(|w| w.to_le_bytes()));
        }
        out.extend(self.feature_bias.iter().flat_map(|w| w.to_le_bytes()));
        for row in &self.output_weights {
            out.extend(row.iter().flat_map(|w| w.to_le_bytes()));
        }
        out.extend(self.output_bias.to_le_bytes());
        out.extend(scale_field(self.result_scale).to_le_bytes());
        out.extend(fnv1a(&out).to_le_bytes());
        out
    }

    /// A network from its file's bytes; every defect is refused with what it is.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, DataError> {
        let body_len = bytes.len().checked_sub(4).ok_or(DataError::Damaged("too short to be a network".into()))?;
        if !bytes.starts_with(MAGIC) {
            return Err(DataError::Damaged("not an Alea network (no ALEANNUE at its start)".into()));
        }
        let (body, checksum) = bytes.split_at(body_len);
        let mut at = MAGIC.len();
        let mut take = |n: usize| -> Result<&[u8], DataError> {
            let slice = body.get(at..at + n).ok_or(DataError::Damaged("the network is cut off".into()))?;
            at += n;
            Ok(slice)
        };
        let version = u32::from_le_bytes(take(4)?.try_into().expect("4"));
        if !(FIRST_VERSION..=VERSION).contains(&version) {
            return Err(DataError::Damaged(format!(
                "network format version {version}; this engine reads versions {FIRST_VERSION} to {VERSION}"
            )));
        }
        let name_len = usize::from(take(1)?[0]);
        let variant = String::from_utf8(take(name_len)?.to_vec())
            .map_err(|_| DataError::Damaged("a damaged variant name".into()))?;
        let hidden = usize::from(u16::from_le_bytes(take(2)?.try_into().expect("2")));
        if hidden != HIDDEN {
            return Err(DataError::Damaged(format!("a network of {hidden} hidden sums; this engine has {HIDDEN}")));
        }
        let flags = if version >= FLAGS_VERSION { take(1)?[0] } else { 0 };
        if flags & !FLAG_MOBILITY != 0 {
            return Err(DataError::Damaged(format!(
                "inputs flagged {flags:#04x}; this engine knows only {FLAG_MOBILITY:#04x} (dice-aware)"
            )));
        }
        let with_mobility = flags & FLAG_MOBILITY != 0;
        let rows = INPUTS + if with_mobility { MOBILITY_INPUTS } else { 0 };
        let weights_end = at + (rows * HIDDEN + HIDDEN + 2 * HIDDEN) * 2;
        let expected = weights_end + 4 + if version >= 2 { 4 } else { 0 };
        if body.len() != expected {
            return Err(DataError::Damaged(format!(
                "the network has {} bytes, {} expected (cut off or padded)",
                bytes.len(),
                expected + 4
            )));
        }
        if fnv1a(body).to_le_bytes() != checksum {
            return Err(DataError::Damaged("the network fails its checksum (damaged)".into()));
        }
        let mut words = body[at..weights_end].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut net = Network::zeros_with(&variant, with_mobility);
        for row in net.rows_mut() {
            row.iter_mut().for_each(|w| *w = words.next().expect("sized above"));
        }
        net.feature_bias.iter_mut().for_each(|w| *w = words.next().expect("sized above"));
        for row in &mut net.output_weights {
            row.iter_mut().for_each(|w| *w = words.next().expect("sized above"));
        }
        net.output_bias = i32::from_le_bytes(body[weights_end..weights_end + 4].try_into().expect("4"));
        if version >= 2 {
            let field = u32::from_le_bytes(body[weights_end + 4..weights_end + 8].try_into().expect("4"));
            net.result_scale = match field {
                0 => None,
                f if f <= MAX_SCALE_FIELD => Some(f64::from(f) / SCALE_FIELD_UNIT),
                f => {
                    return Err(DataError::Damaged(format!(
                        "a result scale of {}, beyond 10",
                        f64::from(f) / SCALE_FIELD_UNIT
                    )));
                }
            };
        }
        Ok(net)
    }

    /// Does the file begin as a network does (rather than as evaluation tables)?
    pub fn is_network_file(path: &std::path::Path) -> bool {
        use std::io::Read;
        let mut start = [0u8; 8];
        std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut start)).is_ok() && &start == MAGIC
    }

    /// A network from a file.
    pub fn read(path: &std::path::Path) -> Result<Network, DataError> {
        let bytes = std::fs::read(path).map_err(|e| DataError::io(path, &e))?;
        Network::from_bytes(&bytes).map_err(|e| e.in_file(path))
    }
}

/// The result scale's field: K in ten-thousandths (as the tables write it), 0 for none.
const SCALE_FIELD_UNIT: f64 = 10_000.0;
/// The largest K a file may hold (the tables' fit searches up to 10).
const MAX_SCALE_FIELD: u32 = 100_000;

fn scale_field(scale: Option<f64>) -> u32 {
    scale.map_or(0, |k| (k * SCALE_FIELD_UNIT).round().clamp(1.0, f64::from(MAX_SCALE_FIELD)) as u32)
}

/// `f` of each set bit's index, lowest first.
#[inline(always)]
fn for_each_bit(mut bits: u64, mut f: impl FnMut(usize)) {
    while bits != 0 {
        f(bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
}

#[inline(always)]
fn add(sums: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (s, w) in sums.iter_mut().zip(row) {
        *s = s.wrapping_add(*w);
    }
}

#[inline(always)]
fn sub(sums: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (s, w) in sums.iter_mut().zip(row) {
        *s = s.wrapping_sub(*w);
    }
}

/// The clipped sums dotted with the output weights (the compiler vectorises the i16 products
/// into i32 sums, 16 lanes at a time in the AVX2 copy).
#[inline(always)]
fn dot_clipped(sums: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    sums.iter().zip(weights).map(|(&s, &w)| i32::from(s.clamp(0, QA as i16)) * i32::from(w)).sum()
}
