//! Turns of several micro-moves (`dicechess3`; the later `burmese`, `gollon`, `grand` share it):
//! the dice left in a turn ([`DicePool`]), the position during a turn ([`MicroPosition`]), a
//! whole turn ([`MicroTurn`]) and the maximum rule ([`allowed_steps`]).
//!
//! A turn is a state machine: at its start the dice are to be rolled; after the roll the same
//! player makes micro-moves, each spending dice, until the rules end the turn; then the other
//! player's turn starts. Each variant says which micro-moves its dice allow ([`MicroRules`]);
//! the maximum rule is computed here, GNU Backgammon's way: depth first over the dice, with the
//! answers of positions already seen (the dice order transposes) kept in a [`PlanCache`].

use crate::board::Board;
use crate::board::chessmove::Move;
use crate::board::micro_board::{MAX_MICRO_MOVES, MicroBoard, MicroMove, MoveBuffer};
use crate::board::piece::{Color, Role};
use crate::board::zobrist;
use crate::rules::GameError;
use crate::rules::dice::{MAX_DICE, Roll};
use arrayvec::ArrayVec;
use std::fmt;

/// What one die lets move: pieces of one type (a face of the piece dice), or any piece (a move
/// of Gollon's count die).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Die {
    Piece(Role),
    Any,
}

/// The dice still to use in a turn: how many show each piece type, and how many let any piece
/// move.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct DicePool {
    /// Per piece type (by role index), then at [`ANY`] the dice for any piece; the last byte
    /// stays 0, so that the eight read as one word count and compare at once.
    counts: [u8; 8],
    /// The turn's micro-moves are all made by one piece (gollon2): after the first, the dice
    /// left move the piece that made it ([`MicroPosition::mover`]).
    one_piece: bool,
}

/// Where [`DicePool`] counts the dice that any piece may use.
const ANY: usize = 6;

impl DicePool {
    pub const EMPTY: DicePool = DicePool { counts: [0; 8], one_piece: false };
    /// One die of each face: every micro-move the pieces could make.
    pub const ONE_EACH: DicePool = DicePool { counts: [1, 1, 1, 1, 1, 1, 0, 0], one_piece: false };

    /// A die of `role`'s type, then `more` micro-moves of the piece it moved (gollon2).
    pub fn one_piece(role: Role, more: u8) -> DicePool {
        let mut pool = DicePool::EMPTY;
        pool.counts[role.index()] = 1;
        pool.counts[ANY] = more;
        pool.one_piece = true;
        pool
    }

    /// Are the turn's micro-moves all one piece's?
    #[inline]
    pub fn is_one_piece(&self) -> bool {
        self.one_piece
    }

    /// Marks the pool as one piece's (a DFEN of gollon2 read back).
    pub fn of_one_piece(mut self) -> DicePool {
        self.one_piece = true;
        self
    }

    /// The dice of a roll of piece dice (each face the type it moves).
    pub fn from_roll(roll: &Roll) -> DicePool {
        let mut pool = DicePool::EMPTY;
        for &face in roll.faces() {
            pool.counts[usize::from(face) - 1] += 1;
        }
        pool
    }

    /// `n` dice that any piece may use.
    pub fn any_piece(n: u8) -> DicePool {
        let mut pool = DicePool::EMPTY;
        pool.counts[ANY] = n;
        pool
    }

    #[inline]
    pub fn len(&self) -> usize {
        // The bytes' sum, gathered in the top byte (no count exceeds 4, so none carries).
        (u64::from_le_bytes(self.counts).wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        u64::from_le_bytes(self.counts) == 0
    }

    /// The piece type a die of which is left (the first such), if any.
    pub fn piece_die(&self) -> Option<Role> {
        Role::ALL.into_iter().find(|r| self.counts[r.index()] > 0)
    }

    /// The dice showing `role`'s type.
    #[inline]
    pub fn count(&self, role: Role) -> u8 {
        self.counts[role.index()]
    }

    /// The dice any piece may use.
    #[inline]
    pub fn any(&self) -> u8 {
        self.counts[ANY]
    }

    /// Is there a die that `role`'s pieces may use (one of its type, or one for any piece)?
    #[inline]
    pub fn has(&self, role: Role) -> bool {
        self.counts[role.index()] | self.counts[ANY] != 0
    }

    /// Spends one die (which the pool holds).
    #[inline]
    pub fn spend(&mut self, die: Die) {
        match die {
            Die::Piece(role) => {
                debug_assert!(self.counts[role.index()] > 0, "no {role:?} die left");
                self.counts[role.index()] -= 1;
            }
            Die::Any => {
                debug_assert!(self.counts[ANY] > 0, "no die for any piece left");
                self.counts[ANY] -= 1;
            }
        }
    }

    /// The roles with a die left, each once (all of them while a die for any piece is left).
    pub fn roles(&self) -> impl Iterator<Item = Role> + '_ {
        Role::ALL.into_iter().filter(|&r| self.has(r))
    }

    /// Can two different dice of the pool move an `a` and then a `b` (role indices)?
    #[inline]
    pub fn covers_two(&self, a: usize, b: usize) -> bool {
        let (ca, cb, any) = (self.counts[a], self.counts[b], self.counts[ANY]);
        if a == b { ca + any >= 2 } else { ca + any >= 1 && cb + any >= 1 && ca + cb + any >= 2 }
    }

    /// Piece dice as the roll of their faces (`None` when none are left, or for dice that any
    /// piece may use: their rules say which roll they stand for).
    pub fn roll(&self) -> Option<Roll> {
        if self.counts[ANY] > 0 {
            return None;
        }
        let faces: ArrayVec<u8, MAX_DICE> =
            Role::ALL.into_iter().flat_map(|r| std::iter::repeat_n(r.face(), usize::from(self.count(r)))).collect();
        Roll::new(&faces).ok()
    }

    /// The pool's part of a position's hash.
    #[inline]
    pub fn key(&self) -> u64 {
        let mut key = zobrist::DICE_LEFT_ANY[usize::from(self.counts[ANY]).min(4)];
        for (r, &c) in self.counts[..6].iter().enumerate() {
            key ^= zobrist::DICE_LEFT[r][usize::from(c).min(4)];
        }
        key
    }

    /// The DFEN letters, in the order P N B R Q K, then `A` for each die any piece may use:
    /// upper case for White, lower for Black.
    pub fn letters(&self, color: Color) -> String {
        Role::ALL
            .into_iter()
            .flat_map(|r| std::iter::repeat_n(r.char(), usize::from(self.count(r))))
            .chain(std::iter::repeat_n('a', usize::from(self.counts[ANY])))
            .map(|c| if color == Color::White { c.to_ascii_uppercase() } else { c })
            .collect()
    }

    /// Reads DFEN die letters for `color` (its case), at most `max` of them, each one of
    /// `letters` (upper case: `PNBRQK` for piece dice, `A` for a micro-move by any piece).
    pub fn parse_letters(text: &str, color: Color, max: usize, letters: &str) -> Result<DicePool, GameError> {
        let mut pool = DicePool::EMPTY;
        for c in text.chars() {
            let lower = c.to_ascii_lowercase();
            let role = Role::from_char(lower);
            if !letters.contains(c.to_ascii_uppercase()) {
                let names: Vec<String> = letters.chars().map(String::from).collect();
                return Err(GameError::Position(format!("{c:?} is not a die letter here ({})", names.join(" "))));
            }
            let upper = c.is_ascii_uppercase();
            if upper != (color == Color::White) {
                let case = if color == Color::White { "upper" } else { "lower" };
                return Err(GameError::Position(format!(
                    "die letter {c:?} has the wrong case: {} is to move, so its dice are {case} case",
                    color.name()
                )));
            }
            match role {
                Some(role) if lower != 'a' => pool.counts[role.index()] += 1,
                _ => pool.counts[ANY] += 1,
            }
        }
        if pool.len() > max {
            return Err(GameError::Position(format!(
                "{} dice given ({text}), but a turn has at most {max}",
                pool.len()
            )));
        }
        Ok(pool)
    }
}

/// A position of a variant with several moves a turn: the board (its side to move is the player
/// whose turn it is) and the turn's state.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MicroPosition<B: MicroBoard = Board> {
    pub board: B,
    /// Squares the side to move may take en passant on during this turn (the opponent's double
    /// steps of its last turn).
    pub ep_targets: B::Targets,
    /// The targets of this turn's double steps so far (the opponent's, next turn).
    pub new_targets: B::Targets,
    /// Dice still to use; empty at the start of a turn, before the roll.
    pub dice: DicePool,
    /// The turn so far is shorter than the maximum rule asks, which allows it only as the start
    /// of a king capture: the rest must take the king.
    pub must_take_king: bool,
    /// The turn so far captured or moved a pawn (the halfmove clock restarts at its end).
    pub irreversible: bool,
    /// Where the turn's piece stands, once it has moved, when one piece makes all of a turn's
    /// micro-moves (gollon2).
    pub mover: Option<B::Square>,
}

impl<B: MicroBoard> MicroPosition<B> {
    /// The start of a turn on `board`, with these en-passant targets.
    pub fn new(board: B, ep_targets: B::Targets) -> MicroPosition<B> {
        MicroPosition {
            board,
            ep_targets,
            new_targets: B::Targets::default(),
            dice: DicePool::EMPTY,
            must_take_king: false,
            irreversible: false,
            mover: None,
        }
    }

    /// Is a turn in progress (dice rolled and left)?
    #[inline]
    pub fn in_turn(&self) -> bool {
        !self.dice.is_empty()
    }

    /// The side whose turn it is.
    #[inline]
    pub fn turn(&self) -> Color {
        self.board.turn()
    }

    /// The key of everything that decides what may follow, for repetitions and the table.
    #[inline]
    pub fn hash(&self) -> u64 {
        let mut h = self.plan_key();
        if self.must_take_king {
            h ^= zobrist::MUST_TAKE_KING;
        }
        h
    }

    /// The key without the must-take-king flag: what the dice can do from here does not depend
    /// on it ([`PlanCache`]).
    #[inline]
    fn plan_key(&self) -> u64 {
        let mut h = self.board.hash() ^ B::targets_key(self.ep_targets, false) ^ B::targets_key(self.new_targets, true);
        if self.in_turn() {
            h ^= zobrist::IN_TURN ^ self.dice.key();
        }
        if let Some(sq) = self.mover {
            h ^= B::mover_key(sq);
        }
        h
    }

    /// The position with these dice to use (after the roll: [`MicroRules::rolled`]).
    pub fn with_dice(&self, dice: DicePool) -> MicroPosition<B> {
        let mut next = self.clone();
        next.dice = dice;
        next
    }

    /// Does `m` take the enemy's last king (and so win)?
    #[inline]
    pub fn takes_king(&self, m: B::Move) -> bool {
        self.board.takes_last_king(m)
    }

    /// The position after the micro-move `m`, the turn not yet ended; `spent` are the dice it uses.
    pub fn after_micro(&self, m: B::Move, spent: &[Die]) -> MicroPosition<B> {
        let mut next = self.clone();
        for &die in spent {
            next.dice.spend(die);
        }
        let (role, irreversible) = next.board.play_micro(m);
        next.irreversible |= irreversible;
        if next.dice.one_piece && !next.dice.is_empty() {
            // The piece that moved makes the rest: castling moves the king, or the rook when a
            // rook's die was spent.
            next.mover = Some(B::landing(m, spent.contains(&Die::Piece(Role::Rook))));
        }
        if role == Role::Pawn {
            next.new_targets = B::with_double_step(next.new_targets, m);
        }
        next
    }

    /// The next player's turn start: clocks, side to move, and this turn's double steps whose
    /// pawns still stand where they arrived become the opponent's targets.
    pub fn finish_turn(&self) -> MicroPosition<B> {
        let live = self.board.live_targets(self.new_targets, self.turn());
        let mut board = self.board.clone();
        board.finish_turn(self.irreversible);
        MicroPosition::new(board, live)
    }
}

impl MicroPosition<Board> {
    /// The en-passant captures the side to move has now: onto a target whose double-stepped pawn
    /// still stands where it arrived, the target square empty.
    pub fn en_passant_captures(&self, out: &mut crate::board::movegen::MoveList) {
        let us = self.turn();
        let board = &self.board;
        for target in self.ep_targets {
            let arrival = crate::board::micro_board::pawn_arrival(target, !us);
            if board.pieces(!us, Role::Pawn).contains(arrival) && !board.occupied().contains(target) {
                for from in crate::board::attacks::pawn(!us, target) & board.pieces(us, Role::Pawn) {
                    out.push(Move::en_passant(from, target));
                }
            }
        }
    }
}

/// A whole turn: its micro-moves in the order played (none: a passed turn, `0000`).
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct MicroTurn<M: MicroMove = Move> {
    moves: [M; MAX_DICE],
    len: u8,
}

impl<M: MicroMove> Default for MicroTurn<M> {
    fn default() -> MicroTurn<M> {
        MicroTurn::PASS
    }
}

impl<M: MicroMove> MicroTurn<M> {
    /// A passed turn.
    pub const PASS: MicroTurn<M> = MicroTurn { moves: [M::NULL; MAX_DICE], len: 0 };

    /// A turn of these micro-moves (at most [`MAX_DICE`]).
    pub fn new(moves: &[M]) -> MicroTurn<M> {
        let mut turn = MicroTurn::PASS;
        for &m in moves {
            turn.push(m);
        }
        turn
    }

    pub fn push(&mut self, m: M) {
        self.moves[usize::from(self.len)] = m;
        self.len += 1;
    }

    pub fn moves(&self) -> &[M] {
        &self.moves[..usize::from(self.len)]
    }

    pub fn is_pass(&self) -> bool {
        self.len == 0
    }

    /// The protocol's form: micro-moves joined by commas, `0000` for a pass.
    pub fn to_uci(&self, chess960: bool) -> String {
        if self.is_pass() {
            return "0000".to_string();
        }
        self.moves().iter().map(|m| m.uci(chess960)).collect::<Vec<_>>().join(",")
    }
}

impl<M: MicroMove> fmt::Debug for MicroTurn<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_uci(false))
    }
}

/// What a variant of several moves a turn decides: which micro-moves the dice left allow, and
/// which dice each one spends. The maximum rule and the turn's bookkeeping are common.
pub trait MicroRules {
    /// The board the variant is played on.
    type Board: MicroBoard;
    /// The variant's name as `UCI_Variant` spells it.
    fn name(&self) -> &'static str;

    /// The start position.
    fn startpos(&self) -> MicroPosition<Self::Board>;

    /// The piece values the evaluation starts from (and the material the baselines count).
    fn piece_values(&self) -> crate::board::values::PieceValues;

    /// Reads a DFEN ([`crate::rules::dfen`]).
    fn parse_dfen(&self, text: &str) -> Result<MicroPosition<Self::Board>, GameError>;

    /// The position as DFEN.
    fn dfen(&self, pos: &MicroPosition<Self::Board>) -> String;

    /// How many dice a roll has.
    fn dice(&self) -> usize;

    /// The dice a roll gives the turn to use. By default each face moves its piece type.
    fn pool(&self, roll: &Roll) -> DicePool {
        DicePool::from_roll(roll)
    }

    /// The roll that stands for the dice left in a turn in progress (what `go roll` names and a
    /// page draws); by default their faces.
    fn roll_left(&self, pos: &MicroPosition<Self::Board>) -> Option<Roll> {
        pos.dice.roll()
    }

    /// The roll of these faces (a face per die; in the dice's order where they are unlike).
    fn roll_of(&self, faces: &[u8]) -> Result<Roll, crate::rules::RollError> {
        Roll::new(faces)
    }

    /// The most dice a turn can have to use (a DFEN's dice field holds no more).
    fn pool_size(&self) -> usize {
        self.dice()
    }

    /// One piece makes all of a turn's micro-moves (gollon2): a DFEN's dice field then names
    /// that piece's square once it has moved (`AA@f3`).
    fn one_piece_turns(&self) -> bool {
        false
    }

    /// The letters a DFEN's dice field may hold: piece dice `PNBRQK` by default; `A` is a
    /// micro-move by any piece (or, in gollon2, by the turn's piece).
    fn dice_letters(&self) -> &'static str {
        "PNBRQK"
    }

    /// What a roll lets the player do, in words ("pawn, knight, king"; "4 micro-moves by any
    /// pieces"): the faces of piece dice by default.
    fn roll_meaning(&self, roll: &Roll) -> String {
        crate::rules::dice::piece_names(roll)
    }

    /// The position after `roll` at the start of a turn.
    fn rolled(&self, pos: &MicroPosition<Self::Board>, roll: &Roll) -> MicroPosition<Self::Board> {
        pos.with_dice(self.pool(roll))
    }

    /// The outcomes of the roll at the start of a turn; none once the game is over.
    fn outcomes(&self, pos: &MicroPosition<Self::Board>) -> crate::rules::dice::OutcomeList;

    /// The end judged from the position alone (a captured king, the turn clock); repetitions
    /// need the game's history.
    fn end(&self, pos: &MicroPosition<Self::Board>) -> Option<crate::rules::GameEnd>;

    /// Appends every micro-move the dice left allow now, before the maximum rule.
    fn micro_moves(&self, pos: &MicroPosition<Self::Board>, out: &mut <Self::Board as MicroBoard>::Moves);

    /// Would [`MicroRules::micro_moves`] list anything at `pos`? The maximum rule asks it of
    /// every last die, so a rule set may answer without listing (stopping at a first move).
    fn has_micro_move(&self, pos: &MicroPosition<Self::Board>) -> bool {
        let mut moves = <Self::Board as MicroBoard>::Moves::default();
        self.micro_moves(pos, &mut moves);
        !moves.is_empty()
    }

    /// Will the dice left after `m` (which spends `spent`) surely move something, as
    /// [`MicroRules::has_micro_move`] would answer after it? Answered without making `m` where a
    /// rule set can; `false` (the default) leaves the question to that.
    fn surely_moves_after(
        &self,
        _pos: &MicroPosition<Self::Board>,
        _m: <Self::Board as MicroBoard>::Move,
        _spent: &[Die],
    ) -> bool {
        false
    }

    /// Will the two dice left after `m` (which spends `spent`) surely both move, one after the
    /// other, as [`most_dice`] would find after it? As [`MicroRules::surely_moves_after`], for a
    /// turn's first die of three: `false` (the default) leaves the question to listing.
    fn surely_moves_twice_after(
        &self,
        _pos: &MicroPosition<Self::Board>,
        _m: <Self::Board as MicroBoard>::Move,
        _spent: &[Die],
    ) -> bool {
        false
    }

    /// The dice `m` spends (dicechess3's castling: a rook's and a king's).
    fn spent(&self, pos: &MicroPosition<Self::Board>, m: <Self::Board as MicroBoard>::Move) -> ArrayVec<Die, 2>;

    /// Any die may be left unused (burmese): every micro-move a die left allows is allowed, and
    /// once the turn has made one the player may stop ([`Step::STOP`]). Without it the maximum
    /// rule holds (dicechess3).
    fn dice_optional(&self) -> bool {
        false
    }

    /// With [`MicroRules::dice_optional`]: may the player stop at `pos`, the dice left unused,
    /// where `moves` are the micro-moves those dice allow? By default once the turn has made a
    /// micro-move (burmese: a turn is at least one where one exists).
    fn may_stop(&self, pos: &MicroPosition<Self::Board>, _moves: &[MoveOf<Self>]) -> bool {
        pos.dice.len() < self.dice()
    }

    /// Appends the micro-moves the dice left allow that capture or promote (what the search's
    /// horizon weighs): those of [`MicroRules::micro_moves`], without the rest.
    fn micro_captures(&self, pos: &MicroPosition<Self::Board>, out: &mut <Self::Board as MicroBoard>::Moves) {
        let mut all = <Self::Board as MicroBoard>::Moves::default();
        self.micro_moves(pos, &mut all);
        let board = &pos.board;
        for &m in all.iter() {
            if !m.is_castle() && (board.captured_role(m).is_some() || m.promotion_role().is_some()) {
                out.push(m);
            }
        }
    }
}

/// One allowed micro-move and what follows it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Step<M: MicroMove = Move> {
    pub mv: M,
    /// The turn ends with it (the dice are used up as far as the rule asks, or the king falls).
    pub ends_turn: bool,
    /// The turn goes on only as a king capture.
    pub must_take_king: bool,
}

impl<M: MicroMove> Step<M> {
    /// Stop: the turn ends here, its dice left unused (where [`MicroRules::dice_optional`]).
    pub const STOP: Step<M> = Step { mv: M::NULL, ends_turn: true, must_take_king: false };

    #[inline]
    pub fn is_stop(&self) -> bool {
        self.mv.is_null()
    }
}

/// The allowed micro-moves of one point of a turn, on the stack.
pub type StepList<M = Move> = ArrayVec<Step<M>, MAX_MICRO_MOVES>;

/// Answers of the maximum rule for positions already seen: how many dice can still be used, and
/// whether a king capture can still be reached. Direct-mapped, keyed by the position with its dice.
pub struct PlanCache {
    entries: Vec<(u64, u8)>,
}

const BEST_KNOWN: u8 = 0x08;
const KING_KNOWN: u8 = 0x10;
const KING_YES: u8 = 0x20;

impl PlanCache {
    /// A cache of `2^bits` entries.
    pub fn new(bits: u32) -> PlanCache {
        PlanCache { entries: vec![(0, 0); 1 << bits] }
    }

    #[inline]
    fn slot(&mut self, key: u64) -> &mut (u64, u8) {
        let mask = self.entries.len() - 1;
        let slot = &mut self.entries[key as usize & mask];
        if slot.0 != key {
            *slot = (key, 0);
        }
        slot
    }
}

impl Default for PlanCache {
    fn default() -> PlanCache {
        PlanCache::new(14)
    }
}

/// The position, micro-move, turn, step and lists of a rule set's board.
pub type PositionOf<R> = MicroPosition<<R as MicroRules>::Board>;
pub type MoveOf<R> = <<R as MicroRules>::Board as MicroBoard>::Move;
pub type TurnOf<R> = MicroTurn<MoveOf<R>>;
pub type StepOf<R> = Step<MoveOf<R>>;
pub type StepsOf<R> = StepList<MoveOf<R>>;
pub type MovesOf<R> = <<R as MicroRules>::Board as MicroBoard>::Moves;

/// The position after the allowed step `step` from `pos`: within the turn, or the next turn's
/// start (the game may then be over, by a king capture).
pub fn after_step<R: MicroRules>(rules: &R, pos: &PositionOf<R>, step: StepOf<R>) -> PositionOf<R> {
    if step.is_stop() {
        return pos.finish_turn();
    }
    let mut next = pos.after_micro(step.mv, &rules.spent(pos, step.mv));
    if step.ends_turn {
        next.finish_turn()
    } else {
        next.must_take_king = step.must_take_king;
        next
    }
}

/// The most dice any sequence of micro-moves can use from `pos` (a king capture ends a sequence).
pub fn most_dice<R: MicroRules>(rules: &R, pos: &PositionOf<R>, cache: &mut PlanCache) -> usize {
    let left = pos.dice.len();
    if left == 0 {
        return 0;
    }
    if left == 1 {
        // One die: it is used if it moves anything (cheaper than a look in the cache).
        return usize::from(rules.has_micro_move(pos));
    }
    let key = pos.plan_key();
    if let Some(most) = known_most_dice(cache, key) {
        return most;
    }
    let mut moves = MovesOf::<R>::default();
    rules.micro_moves(pos, &mut moves);
    most_dice_of(rules, pos, key, &moves, cache)
}

/// Will every die left after `m` (which spends `spent`) surely be used, as the rule set can tell
/// without making `m` (one or two dice left; `false` where it cannot tell)?
fn dice_left_surely_move<R: MicroRules>(rules: &R, pos: &PositionOf<R>, m: MoveOf<R>, spent: &[Die]) -> bool {
    match pos.dice.len() - spent.len() {
        1 => rules.surely_moves_after(pos, m, spent),
        2 => rules.surely_moves_twice_after(pos, m, spent),
        _ => false,
    }
}

/// [`most_dice`] of the position of plan key `key`, if `cache` knows it.
fn known_most_dice(cache: &mut PlanCache, key: u64) -> Option<usize> {
    let known = cache.slot(key).1;
    (known & BEST_KNOWN != 0).then_some(usize::from(known & 0x7))
}

/// [`most_dice`] of `pos` (two dice left or more, its plan key `key`, not known to `cache`)
/// from its micro-moves `moves`, already listed.
fn most_dice_of<R: MicroRules>(
    rules: &R,
    pos: &PositionOf<R>,
    key: u64,
    moves: &MovesOf<R>,
    cache: &mut PlanCache,
) -> usize {
    let left = pos.dice.len();
    let mut best = 0;
    for &m in moves.iter() {
        let spent = rules.spent(pos, m);
        let used = if pos.takes_king(m) {
            spent.len()
        } else if dice_left_surely_move(rules, pos, m, &spent) {
            left
        } else {
            spent.len() + most_dice(rules, &pos.after_micro(m, &spent), cache)
        };
        best = best.max(used);
        if best == left {
            break;
        }
    }
    let slot = cache.slot(key);
    slot.1 |= BEST_KNOWN | best as u8;
    best
}

/// Can some sequence of micro-moves from `pos` take the enemy king?
pub fn can_take_king<R: MicroRules>(rules: &R, pos: &PositionOf<R>, cache: &mut PlanCache) -> bool {
    if pos.dice.is_empty() || !pos.board.has_king(!pos.turn()) {
        return false;
    }
    let key = pos.plan_key();
    let known = cache.slot(key).1;
    if known & KING_KNOWN != 0 {
        return known & KING_YES != 0;
    }
    let mut moves = MovesOf::<R>::default();
    rules.micro_moves(pos, &mut moves);
    let mut yes = moves.iter().any(|&m| pos.takes_king(m));
    if !yes && pos.dice.len() > 1 {
        yes = moves.iter().any(|&m| can_take_king(rules, &pos.after_micro(m, &rules.spent(pos, m)), cache));
    }
    let slot = cache.slot(key);
    slot.1 |= KING_KNOWN | if yes { KING_YES } else { 0 };
    yes
}

/// The micro-moves the rules allow at `pos` (a turn in progress) under the maximum rule: a turn
/// must use as many dice as any sequence can, except that a sequence taking the king is always
/// allowed. Empty when the turn is over (or, at its start, passed).
pub fn allowed_steps<R: MicroRules, const N: usize>(
    rules: &R,
    pos: &PositionOf<R>,
    cache: &mut PlanCache,
    out: &mut ArrayVec<StepOf<R>, N>,
) {
    out.clear();
    if pos.dice.is_empty() || !pos.board.has_king(!pos.turn()) {
        return;
    }
    let mut moves = MovesOf::<R>::default();
    rules.micro_moves(pos, &mut moves);
    let left = pos.dice.len();
    if rules.dice_optional() {
        // No maximum rule: whatever a die allows, and stopping once a micro-move is made.
        for &m in moves.iter() {
            let ends_turn = pos.takes_king(m) || rules.spent(pos, m).len() == left;
            out.push(Step { mv: m, ends_turn, must_take_king: false });
        }
        if rules.may_stop(pos, &moves) {
            out.push(Step::STOP);
        }
        return;
    }
    if left == 1 {
        // The last die: whatever it moves ends the turn, and the maximum rule asks for just
        // that (unless the turn may only go on to the king).
        for &m in moves.iter() {
            if !pos.must_take_king || pos.takes_king(m) {
                out.push(Step { mv: m, ends_turn: true, must_take_king: false });
            }
        }
        return;
    }
    // As `most_dice(rules, pos, cache)`, from the moves listed above.
    let most = if pos.must_take_king {
        0
    } else {
        let key = pos.plan_key();
        known_most_dice(cache, key).unwrap_or_else(|| most_dice_of(rules, pos, key, &moves, cache))
    };
    for &m in moves.iter() {
        if pos.takes_king(m) {
            out.push(Step { mv: m, ends_turn: true, must_take_king: false });
            continue;
        }
        let spent = rules.spent(pos, m);
        if spent.len() == left {
            // It uses every die left: nothing follows.
            if !pos.must_take_king && spent.len() == most {
                out.push(Step { mv: m, ends_turn: true, must_take_king: false });
            }
            continue;
        }
        if !pos.must_take_king && dice_left_surely_move(rules, pos, m, &spent) {
            // The dice left all move something after it: the turn goes on, all dice used.
            debug_assert_eq!(most, left);
            out.push(Step { mv: m, ends_turn: false, must_take_king: false });
            continue;
        }
        let next = pos.after_micro(m, &spent);
        let rest = most_dice(rules, &next, cache);
        if !pos.must_take_king && spent.len() + rest == most {
            out.push(Step { mv: m, ends_turn: rest == 0, must_take_king: false });
        } else if rest > 0 && can_take_king(rules, &next, cache) {
            out.push(Step { mv: m, ends_turn: false, must_take_king: true });
        }
    }
}

/// Calls `visit` with every whole turn allowed from `pos` (a turn in progress: its remaining
/// micro-moves) and the position it ends in, in generation order; a position whose roll allows
/// nothing gives the pass.
pub fn for_each_turn<R: MicroRules>(
    rules: &R,
    pos: &PositionOf<R>,
    cache: &mut PlanCache,
    visit: &mut dyn FnMut(&TurnOf<R>, &PositionOf<R>),
) {
    fn walk<R: MicroRules>(
        rules: &R,
        pos: &PositionOf<R>,
        cache: &mut PlanCache,
        so_far: &TurnOf<R>,
        visit: &mut dyn FnMut(&TurnOf<R>, &PositionOf<R>),
    ) {
        let mut steps = StepsOf::<R>::new();
        allowed_steps(rules, pos, cache, &mut steps);
        for &step in steps.iter() {
            let mut turn = *so_far;
            if !step.is_stop() {
                turn.push(step.mv);
            }
            let next = after_step(rules, pos, step);
            if step.ends_turn {
                visit(&turn, &next);
            } else {
                walk(rules, &next, cache, &turn, visit);
            }
        }
    }
    let mut steps = StepsOf::<R>::new();
    allowed_steps(rules, pos, cache, &mut steps);
    if steps.is_empty() {
        visit(&TurnOf::<R>::PASS, &pos.finish_turn());
        return;
    }
    walk(rules, pos, cache, &TurnOf::<R>::PASS, visit);
}

/// Plays the micro-moves of `turn` from `pos` (a turn in progress), checking each against the
/// maximum rule; returns the next turn's start, or which micro-move was refused and why.
pub fn play_turn<R: MicroRules>(
    rules: &R,
    pos: &PositionOf<R>,
    turn: &[MoveOf<R>],
    cache: &mut PlanCache,
) -> Result<PositionOf<R>, TurnError> {
    let mut pos = pos.clone();
    let mut steps = StepsOf::<R>::new();
    allowed_steps(rules, &pos, cache, &mut steps);
    if turn.is_empty() {
        // Passed: where nothing is allowed, or the dice may all be declined.
        let declined = steps.is_empty() || steps.iter().any(StepOf::<R>::is_stop);
        return if declined { Ok(pos.finish_turn()) } else { Err(TurnError::PassNotAllowed) };
    }
    for (i, &m) in turn.iter().enumerate() {
        if !pos.in_turn() || steps.is_empty() {
            return Err(TurnError::TooLong { index: i });
        }
        let Some(&step) = steps.iter().find(|s| s.mv == m) else {
            return Err(TurnError::NotAllowed { index: i });
        };
        pos = after_step(rules, &pos, step);
        if step.ends_turn {
            return if i + 1 == turn.len() { Ok(pos) } else { Err(TurnError::TooLong { index: i + 1 }) };
        }
        allowed_steps(rules, &pos, cache, &mut steps);
    }
    // Ended short of the dice: allowed where the player may stop there.
    if steps.iter().any(StepOf::<R>::is_stop) {
        return Ok(pos.finish_turn());
    }
    Err(TurnError::Unfinished)
}

/// Reads a turn written as the protocol writes it (micro-moves joined by commas, `0000` for a
/// pass) from `pos`, micro-move by micro-move on the board as it changes; whether the dice allow
/// it is [`play_turn`]'s question.
pub fn parse_turn<R: MicroRules>(rules: &R, pos: &PositionOf<R>, text: &str) -> Result<Vec<MoveOf<R>>, GameError> {
    if text == "0000" {
        return Ok(Vec::new());
    }
    let mut scratch = pos.clone();
    let mut moves = Vec::new();
    for part in text.split(',') {
        if moves.len() == MAX_DICE {
            return Err(GameError::Turn(format!("{text:?} has more micro-moves than a turn can")));
        }
        // Every micro-move the pieces could make, whatever the dice.
        scratch.dice = DicePool::ONE_EACH;
        let mut all = MovesOf::<R>::default();
        rules.micro_moves(&scratch, &mut all);
        let Some(m) = scratch.board.find_move(&all, part) else {
            // Say so when it is chess's castling that the rules leave out (burmese).
            if scratch.board.names_castling(part) {
                return Err(GameError::Turn(format!("{part:?} castles, and {} has no castling", rules.name())));
            }
            return Err(GameError::Turn(format!("{part:?} is not a move of the position ({})", scratch.board.fen())));
        };
        scratch = scratch.after_micro(m, &[]);
        moves.push(m);
    }
    Ok(moves)
}

/// Why a turn of micro-moves was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnError {
    /// The roll allows micro-moves, so the turn may not be passed.
    PassNotAllowed,
    /// Micro-move `index` (from 0) is not allowed there (no die for it, or it breaks the
    /// maximum rule).
    NotAllowed { index: usize },
    /// The turn had ended before micro-move `index`.
    TooLong { index: usize },
    /// The dice allow (and the maximum rule asks for) more micro-moves.
    Unfinished,
}

/// The allowed steps of `pos` in the order of their UCI text, so that walking them in order
/// visits whole turns in the order of their text (a pass counting as the empty turn).
pub(crate) fn sorted_steps<R: MicroRules>(rules: &R, pos: &PositionOf<R>, cache: &mut PlanCache) -> StepsOf<R> {
    let mut steps = StepsOf::<R>::new();
    allowed_steps(rules, pos, cache, &mut steps);
    steps.sort_by_cached_key(|s| if s.is_stop() { String::new() } else { s.mv.uci(false) });
    steps
}

/// How many whole turns are allowed from `pos` (a turn in progress; a roll that allows nothing
/// counts its pass), each position of the turn counted once in `memo` (the orders of a turn's
/// micro-moves transpose), so that millions of turns are counted without listing them.
pub fn count_turns<R: MicroRules>(
    rules: &R,
    pos: &PositionOf<R>,
    cache: &mut PlanCache,
    memo: &mut std::collections::HashMap<u64, u64>,
) -> u64 {
    // Only at a turn's start can no step be allowed: the pass, one turn.
    count_from(rules, pos, cache, memo).max(1)
}

fn count_from<R: MicroRules>(
    rules: &R,
    pos: &PositionOf<R>,
    cache: &mut PlanCache,
    memo: &mut std::collections::HashMap<u64, u64>,
) -> u64 {
    if let Some(&n) = memo.get(&pos.hash()) {
        return n;
    }
    let mut steps = StepsOf::<R>::new();
    allowed_steps(rules, pos, cache, &mut steps);
    let mut n = 0;
    for &step in steps.iter() {
        n += if step.ends_turn { 1 } else { count_from(rules, &after_step(rules, pos, step), cache, memo) };
    }
    memo.insert(pos.hash(), n);
    n
}

/// The `k`-th (from 0) whole turn allowed from `pos` in the order of the turns' text, found
/// with [`count_turns`]'s counts; `None` when there are not that many.
pub fn nth_turn<R: MicroRules>(rules: &R, pos: &PositionOf<R>, k: u64, cache: &mut PlanCache) -> Option<TurnOf<R>> {
    let mut memo = std::collections::HashMap::new();
    if sorted_steps(rules, pos, cache).is_empty() {
        return (k == 0).then_some(TurnOf::<R>::PASS);
    }
    let (mut pos, mut k, mut turn) = (pos.clone(), k, TurnOf::<R>::PASS);
    'walk: loop {
        for step in sorted_steps(rules, &pos, cache) {
            let next = after_step(rules, &pos, step);
            let n = if step.ends_turn { 1 } else { count_from(rules, &next, cache, &mut memo) };
            if k >= n {
                k -= n;
                continue;
            }
            if !step.is_stop() {
                turn.push(step.mv);
            }
            if step.ends_turn {
                return Some(turn);
            }
            pos = next;
            continue 'walk;
        }
        return None;
    }
}
