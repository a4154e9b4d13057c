//! The exact solution of Die Chess ([`crate::rules::diechess`]): the value of every state for
//! the side to move (the probability of winning, a draw counted half), by value iteration.
//!
//! A state is a turn's start seen by the mover: its die and the other die, both on the board as
//! the mover sees it (Black's turns are turned 180 degrees, which maps h8 to a1 and makes its
//! pawn step up), so one table serves both colours. The value obeys, at every state,
//!
//! `V(s) = max(pass, each move, roll)`, with `pass = 1 - V(next)`, a move `1 - V(next)` or `1` when
//! it takes a king, and `roll = mean over the six faces of max(not moving, each move)`.
//!
//! Iterating that map from `V = 1/2` gives after `k` sweeps the exact value with `k` turns left
//! before the draw ([`crate::rules::diechess::TURN_LIMIT`]); the values stop changing long before
//! 200 (see [`DieTable`]).

use crate::board::piece::{Color, Role};
use crate::board::square::Square;
use crate::eval::data::DataError;
pub use crate::rules::diechess::DiePosition;
use crate::rules::diechess::{
    DIE_STATES, Die, DieEnd, DieTurn, STATES, die_code, moves_after_roll, state_index, turned,
};

/// Could a state with these codes occur (two squares, in hand within what the faces allow)?
fn is_possible(mover: usize, other: usize) -> bool {
    let ok = |code: usize| code % 3 <= usize::from(moves_after_roll(Role::ALL[(code / 3) % 6]));
    mover / 18 != other / 18 && ok(mover) && ok(other)
}

/// The index after the mover's turn: the other player moves next, seeing both dice turned.
#[inline]
fn next_index(mover: (usize, usize, usize), other: (usize, usize, usize)) -> usize {
    die_code(turned(other.0), other.1, other.2) * DIE_STATES + die_code(turned(mover.0), mover.1, mover.2)
}

/// The best value among the mover's moves from `sq` with face `face` and `in_hand` moves, the
/// other die `other` (`None` when no move); `v` is the table after the turn.
#[inline]
fn best_move(v: &[f64], sq: usize, face: usize, in_hand: usize, other: (usize, usize, usize)) -> Option<f64> {
    if in_hand == 0 {
        return None;
    }
    let role = Role::ALL[face];
    let from = Square::new(sq as u8);
    let enemy = Square::new(other.0 as u8);
    let targets = crate::rules::diechess::targets(Color::White, role, from, enemy);
    let mut best: Option<f64> = None;
    let left = in_hand - 1;
    for to in targets {
        let t = to.index();
        let value = if t == other.0 {
            if other.1 == Role::King.index() {
                return Some(1.0);
            }
            // The captured die goes home as a pawn: h8 as the mover sees it, f8 when the capturer
            // stands there.
            let home = if t == 63 { 61 } else { 63 };
            let other_after = (home, Role::Pawn.index(), 2);
            promotions_or_not(v, role, t, left, other_after)
        } else {
            promotions_or_not(v, role, t, left, other)
        };
        best = Some(best.map_or(value, |b: f64| b.max(value)));
    }
    best
}

/// The value of the mover's die arriving on `t`: a pawn reaching the last rank takes the best
/// of the five faces it may become.
#[inline]
fn promotions_or_not(v: &[f64], role: Role, t: usize, left: usize, other: (usize, usize, usize)) -> f64 {
    if role == Role::Pawn && t >= 56 {
        [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King]
            .into_iter()
            .map(|r| 1.0 - v[next_index((t, r.index(), left), other)])
            .fold(0.0, f64::max)
    } else {
        1.0 - v[next_index((t, role.index(), left), other)]
    }
}

/// The value of rolling: the mean over the faces of the better of not moving and the best move.
#[inline]
fn roll_value(v: &[f64], sq: usize, other: (usize, usize, usize)) -> f64 {
    let mut sum = 0.0;
    for role in Role::ALL {
        let hand = usize::from(moves_after_roll(role));
        let stay = 1.0 - v[next_index((sq, role.index(), hand), other)];
        let best = best_move(v, sq, role.index(), hand, other).map_or(stay, |m| m.max(stay));
        sum += best;
    }
    sum / 6.0
}

/// One state's value from the table `v` of the turn after.
#[inline]
fn backup(v: &[f64], mover: usize, other: usize) -> f64 {
    let m = (mover / 18, (mover / 3) % 6, mover % 3);
    let o = (other / 18, (other / 3) % 6, other % 3);
    let pass = 1.0 - v[next_index(m, o)];
    let moved = best_move(v, m.0, m.1, m.2, o).unwrap_or(0.0);
    pass.max(moved).max(roll_value(v, m.0, o))
}

/// One sweep: `out` gets the values one turn further from the draw than `v`'s, over `threads`
/// threads. Returns the largest change.
fn sweep(v: &[f64], out: &mut [f64], threads: usize) -> f64 {
    let rows_per_chunk = DIE_STATES.div_ceil(threads.max(1));
    std::thread::scope(|scope| {
        let handles: Vec<_> = out
            .chunks_mut(rows_per_chunk * DIE_STATES)
            .enumerate()
            .map(|(c, chunk)| {
                scope.spawn(move || {
                    let mut change = 0.0f64;
                    for (i, slot) in chunk.iter_mut().enumerate() {
                        let index = c * rows_per_chunk * DIE_STATES + i;
                        let (mover, other) = (index / DIE_STATES, index % DIE_STATES);
                        if !is_possible(mover, other) {
                            continue;
                        }
                        let value = backup(v, mover, other);
                        change = change.max((value - v[index]).abs());
                        *slot = value;
                    }
                    change
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a sweep thread")).fold(0.0, f64::max)
    })
}

/// The values of Die Chess for the side to move at every state, without the turn limit.
///
/// Value iteration from 1/2 gives after `k` sweeps the values with `k` turns left before the
/// draw; the solve runs until a sweep changes no value by more than its tolerance (about 30
/// sweeps for 1e-12), so these are the values of every state with that many turns or more left,
/// and of the game without a limit. [`DieTable::turn_value`] counts a turn that reaches the limit
/// as the draw it is.
#[derive(Clone, Debug, PartialEq)]
pub struct DieTable {
    /// By [`state_index`]; impossible states hold 1/2.
    values: Vec<f64>,
    /// Sweeps the solve made, and the largest change of its last one.
    pub sweeps: u32,
    pub last_change: f64,
}

/// A decision before the roll: a turn without rolling (the pass or a move), or the roll.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum DieDecision {
    Turn(DieTurn),
    Roll,
}

/// Options whose values differ by no more than this are equally good: the table is exact to
/// its tolerance, not beyond.
pub const TIE: f64 = 1e-12;

/// The file's first bytes.
const MAGIC: &[u8; 8] = b"ALEADIE1";

impl DieTable {
    /// Solves the game: value iteration from 1/2 (a draw) until a sweep changes no value by more
    /// than `tolerance`, on `threads` threads, telling `progress` each sweep's number and largest
    /// change.
    pub fn solve(tolerance: f64, threads: usize, progress: &mut dyn FnMut(u32, f64)) -> DieTable {
        let mut v = vec![0.5f64; STATES];
        let mut next = vec![0.5f64; STATES];
        let mut sweeps = 0u32;
        loop {
            let change = sweep(&v, &mut next, threads);
            std::mem::swap(&mut v, &mut next);
            sweeps += 1;
            progress(sweeps, change);
            if change <= tolerance {
                return DieTable { values: v, sweeps, last_change: change };
            }
        }
    }

    /// The values with `turns_left` turns before the draw: that many sweeps from 1/2.
    pub fn with_turns_left(turns_left: u32, threads: usize) -> DieTable {
        let mut v = vec![0.5f64; STATES];
        let mut next = vec![0.5f64; STATES];
        let mut last_change = 0.0;
        for _ in 0..turns_left {
            last_change = sweep(&v, &mut next, threads);
            std::mem::swap(&mut v, &mut next);
        }
        DieTable { values: v, sweeps: turns_left, last_change }
    }

    /// The value of `pos` (not over) for its side to move.
    pub fn value(&self, pos: &DiePosition) -> f64 {
        self.values[state_index(pos)]
    }

    /// The value of a turn for the player making it: 1 for taking the king, 1/2 for reaching the
    /// turn limit, else one less the opponent's value.
    pub fn turn_value(&self, pos: &DiePosition, turn: DieTurn) -> f64 {
        let next = pos.play(turn);
        match next.end() {
            Some(DieEnd::KingCaptured(_)) => 1.0,
            Some(DieEnd::TurnLimit) => 0.5,
            None => 1.0 - self.value(&next),
        }
    }

    /// The best turn after rolling `face`, and its value. Among equals, the one leaving a fallible
    /// opponent the most chances ([`DieTable::chances_after`]); then the first in the rules'
    /// order (not moving, then the moves).
    pub fn best_after_roll(&self, pos: &DiePosition, face: Role) -> (DieTurn, f64) {
        let (turn, value, _) = self.best_turn(pos, pos.turns_after_roll(face));
        (turn, value)
    }

    /// The value of rolling: the mean over the six faces of the best turn after each.
    pub fn roll_value(&self, pos: &DiePosition) -> f64 {
        Role::ALL.into_iter().map(|face| self.best_of_face(pos, face)).sum::<f64>() / 6.0
    }

    /// The best value after rolling `face` (no tie-break needed for the value).
    fn best_of_face(&self, pos: &DiePosition, face: Role) -> f64 {
        pos.turns_after_roll(face).into_iter().map(|t| self.turn_value(pos, t)).fold(f64::NEG_INFINITY, f64::max)
    }

    /// The best decision before the roll and its value. Among equals, the one leaving a fallible
    /// opponent the most chances ([`DieTable::chances_after`]; rolling counts its faces' best
    /// turns); equal again, rolling, then the moves, then the pass.
    pub fn best_decision(&self, pos: &DiePosition) -> (DieDecision, f64) {
        let (roll, roll_chances) = self.roll_with_chances(pos);
        let mut turns = pos.pre_roll_turns();
        turns.rotate_left(1);
        let (turn, value, chances) = self.best_turn(pos, turns);
        if rank(roll, roll_chances) >= rank(value, chances) {
            (DieDecision::Roll, roll)
        } else {
            (DieDecision::Turn(turn), value)
        }
    }

    /// What an opponent who chose at random among its options (each turn before the roll, and
    /// rolling then any turn the face allows) would give away on average in the state after
    /// `turn`, measured by the table. A perfect opponent gives nothing away, so this changes no
    /// value: it only breaks ties, towards the choice that leaves a fallible player the most
    /// ways to go wrong. (Drawn positions are most of the game, and a draw by perfect play is
    /// still a win against a player who errs.)
    pub fn chances_after(&self, pos: &DiePosition, turn: DieTurn) -> f64 {
        let next = pos.play(turn);
        if next.end().is_some() {
            return 0.0;
        }
        let mean = |values: &mut dyn Iterator<Item = f64>| {
            let (sum, n) = values.fold((0.0, 0u32), |(s, n), v| (s + v, n + 1));
            sum / f64::from(n)
        };
        let after_roll = Role::ALL
            .into_iter()
            .map(|face| mean(&mut next.turns_after_roll(face).into_iter().map(|t| self.turn_value(&next, t))))
            .sum::<f64>()
            / 6.0;
        let turns = next.pre_roll_turns();
        let random = mean(&mut turns.iter().map(|&t| self.turn_value(&next, t)).chain(std::iter::once(after_roll)));
        self.value(&next) - random
    }

    /// The best of `turns` from `pos`: its value and the chances it leaves (the first of equals).
    fn best_turn(&self, pos: &DiePosition, turns: Vec<DieTurn>) -> (DieTurn, f64, f64) {
        let valued: Vec<(DieTurn, f64)> = turns.into_iter().map(|t| (t, self.turn_value(pos, t))).collect();
        let best = valued.iter().map(|v| grid(v.1)).max().expect("a turn is always possible");
        // Chances are asked only of the turns of the best value (usually few).
        let mut chosen: Option<(DieTurn, f64, f64)> = None;
        for &(t, v) in valued.iter().filter(|v| grid(v.1) == best) {
            let chances = self.chances_after(pos, t);
            if chosen.is_none_or(|(_, value, c)| rank(v, chances) > rank(value, c)) {
                chosen = Some((t, v, chances));
            }
        }
        chosen.expect("a turn is always possible (the pass, or not moving after a roll)")
    }

    /// Rolling's value and the chances its faces' best turns leave, on average.
    fn roll_with_chances(&self, pos: &DiePosition) -> (f64, f64) {
        let (value, chances) = Role::ALL.into_iter().fold((0.0, 0.0), |(v, c), face| {
            let (_, value, chances) = self.best_turn(pos, pos.turns_after_roll(face));
            (v + value, c + chances)
        });
        (value / 6.0, chances / 6.0)
    }

    /// The largest amount by which a state's value differs from the best of its options valued
    /// by the table (the Bellman equations' residual), over every possible state.
    pub fn bellman_residual(&self, threads: usize) -> f64 {
        let mut out = vec![0.5f64; STATES];
        let change = sweep(&self.values, &mut out, threads);
        drop(out);
        change
    }

    /// Writes the table: the distinct values once, then for each possible state (in index order)
    /// the number of its value among them, in 16 bits; an FNV-1a checksum closes the file.
    pub fn write_to(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        let mut distinct: Vec<u64> = self.possible_values().map(f64::to_bits).collect();
        distinct.sort_unstable();
        distinct.dedup();
        if distinct.len() > usize::from(u16::MAX) + 1 {
            return Err(std::io::Error::other(format!("{} distinct values do not fit 16 bits", distinct.len())));
        }
        let mut bytes = MAGIC.to_vec();
        bytes.extend(self.sweeps.to_le_bytes());
        bytes.extend(self.last_change.to_le_bytes());
        bytes.extend((distinct.len() as u32).to_le_bytes());
        for &bits in &distinct {
            bytes.extend(bits.to_le_bytes());
        }
        for value in self.possible_values() {
            let k = distinct.binary_search(&value.to_bits()).expect("a value of the list");
            bytes.extend((k as u16).to_le_bytes());
        }
        bytes.extend(crate::board::checksum::fnv1a(&bytes).to_le_bytes());
        out.write_all(&bytes)
    }

    /// Reads a table [`DieTable::write_to`] wrote, refusing a damaged, truncated or foreign file.
    pub fn read_from(bytes: &[u8]) -> Result<DieTable, DataError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(DataError::Damaged("not a Die Chess table (no ALEADIE1 header)".into()));
        }
        if bytes.len() < MAGIC.len() + 20 + 4 {
            return Err(DataError::Damaged("the Die Chess table is truncated".into()));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 4);
        if crate::board::checksum::fnv1a(body).to_le_bytes() != sum {
            return Err(DataError::Damaged("the Die Chess table is damaged or truncated (checksum mismatch)".into()));
        }
        let mut at = MAGIC.len();
        let mut take = |n: usize| {
            let part =
                body.get(at..at + n).ok_or_else(|| DataError::Damaged("the Die Chess table is truncated".into()));
            at += n;
            part
        };
        let sweeps = u32::from_le_bytes(take(4)?.try_into().expect("4 bytes"));
        let last_change = f64::from_le_bytes(take(8)?.try_into().expect("8 bytes"));
        let count = u32::from_le_bytes(take(4)?.try_into().expect("4 bytes")) as usize;
        if count == 0 || count > usize::from(u16::MAX) + 1 {
            return Err(DataError::Damaged(format!("the Die Chess table lists {count} values")));
        }
        let distinct: Vec<f64> =
            take(count * 8)?.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes"))).collect();
        if distinct.iter().any(|v| !(0.0..=1.0).contains(v)) {
            return Err(DataError::Damaged("the Die Chess table holds a value outside 0..1".into()));
        }
        let indices = take(POSSIBLE * 2)?;
        if at != body.len() {
            return Err(DataError::Damaged("the Die Chess table has bytes after its values".into()));
        }
        let mut values = vec![0.5f64; STATES];
        let mut slots = indices.chunks_exact(2).map(|c| usize::from(u16::from_le_bytes([c[0], c[1]])));
        for (i, slot) in values.iter_mut().enumerate() {
            if is_possible(i / DIE_STATES, i % DIE_STATES) {
                let k = slots.next().expect("one index per possible state");
                *slot = *distinct
                    .get(k)
                    .ok_or_else(|| DataError::Damaged(format!("the Die Chess table names value {k} of {count}")))?;
            }
        }
        Ok(DieTable { values, sweeps, last_change })
    }

    /// Reads the table in the file at `path`.
    pub fn read(path: &std::path::Path) -> Result<DieTable, DataError> {
        let bytes = std::fs::read(path).map_err(|e| DataError::io(path, &e))?;
        DieTable::read_from(&bytes).map_err(|e| e.in_file(path))
    }

    fn possible_values(&self) -> impl Iterator<Item = f64> + '_ {
        (0..STATES).filter(|&i| is_possible(i / DIE_STATES, i % DIE_STATES)).map(|i| self.values[i])
    }
}

/// Where the table is asked: before the roll (its options against rolling), after a roll of
/// this face, or among these pre-roll turns only (`go searchmoves`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DieRoot {
    Decision,
    Rolled(Role),
    Only(Vec<DieTurn>),
}

impl DieTable {
    /// The engine's answer from the table, as a search reports one: every choice with its exact
    /// value, before the roll each face's best turn, the value as centipawns of the evaluation's
    /// scale (`scale`), a sure win or loss as a mate in one.
    pub fn answer(&self, pos: &DiePosition, root: &DieRoot, scale: f64) -> crate::search::SearchResult<DieTurn> {
        use crate::search::{Choice, OutcomeAdvice, ScoredChoice};
        let started = std::time::Instant::now();
        let centipawns = |v: f64| value_to_centipawns(v, scale);
        // Before the roll: each face's best turn, once; rolling is worth their mean.
        let faces: Vec<(Role, DieTurn, f64, f64)> = if *root == DieRoot::Decision {
            Role::ALL
                .into_iter()
                .map(|face| {
                    let (turn, value, chances) = self.best_turn(pos, pos.turns_after_roll(face));
                    (face, turn, value, chances)
                })
                .collect()
        } else {
            Vec::new()
        };
        let roll = (!faces.is_empty()).then(|| faces.iter().map(|f| f.2).sum::<f64>() / 6.0);
        let turn_option = |t: DieTurn| (Choice::Turn(t), self.turn_value(pos, t), self.chances_after(pos, t));
        let mut options: Vec<(Choice<DieTurn>, f64, f64)> = match root {
            DieRoot::Decision => {
                let mut turns: Vec<_> = pos.pre_roll_turns().into_iter().map(turn_option).collect();
                turns.rotate_left(1);
                let chances = faces.iter().map(|f| f.3).sum::<f64>() / 6.0;
                turns.insert(0, (Choice::Roll, roll.expect("faces before the roll"), chances));
                turns
            }
            DieRoot::Rolled(face) => pos.turns_after_roll(*face).into_iter().map(turn_option).collect(),
            DieRoot::Only(turns) => turns.iter().map(|&t| turn_option(t)).collect(),
        };
        // Best first; among equals, the most chances for a fallible opponent; equal again, the
        // order above (rolling, the moves, then passing).
        options.sort_by_key(|&(_, value, chances)| std::cmp::Reverse(rank(value, chances)));
        let (best, value, _) = options.first().copied().expect("a turn is always possible");
        let outcomes = faces
            .iter()
            .map(|&(face, turn, v, _)| OutcomeAdvice {
                roll: crate::rules::Roll::single(face.face()),
                probability: 1.0 / 6.0,
                best: turn,
                score: centipawns(v),
                value: Some(v),
                estimated: false,
            })
            .collect();
        let mate = if value >= 1.0 {
            Some(1)
        } else if value <= 0.0 {
            Some(-1)
        } else {
            None
        };
        crate::search::SearchResult {
            pv: match best {
                Choice::Turn(t) => vec![t],
                Choice::Roll => Vec::new(),
            },
            best,
            score: centipawns(value),
            depth: 1,
            seldepth: 1,
            nodes: options.len() as u64,
            elapsed: started.elapsed(),
            roll_score: roll.map(centipawns),
            choices: options
                .iter()
                .map(|&(choice, v, _)| ScoredChoice { choice, score: centipawns(v), exact: true, value: Some(v) })
                .collect(),
            outcomes,
            mate,
            hashfull: 0,
            result_scale: scale,
            value: Some(value),
        }
    }
}

/// The centipawns whose expected result on the evaluation's logistic is `value` (a win counted
/// 1, a draw 1/2), within the scores a search reports.
pub fn value_to_centipawns(value: f64, scale: f64) -> i32 {
    let p = value.clamp(1e-9, 1.0 - 1e-9);
    let cp = 400.0 / scale * (p / (1.0 - p)).log10();
    if value >= 1.0 {
        crate::search::WIN - 1
    } else if value <= 0.0 {
        -(crate::search::WIN - 1)
    } else {
        (cp.round() as i32).clamp(-crate::eval::EVAL_MAX, crate::eval::EVAL_MAX)
    }
}

/// A number on a grid of [`TIE`]: values closer than that are equal, and the order is total.
fn grid(x: f64) -> i64 {
    (x / TIE).round() as i64
}

/// How a choice ranks: by its exact value, then by the chances it leaves a fallible opponent
/// ([`DieTable::chances_after`]). Every choice the table makes compares these keys.
fn rank(value: f64, chances: f64) -> (i64, i64) {
    (grid(value), grid(chances))
}

/// A small seeded generator (xorshift64): reproducible samples without a dependency.
fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed | 1;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// Games of the table against itself ([`self_play`]).
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct SelfPlay {
    pub games: u32,
    pub white_wins: u32,
    pub black_wins: u32,
    pub draws: u32,
    /// Turns that rolled, and all turns, over the games.
    pub rolls: u64,
    pub turns: u64,
}

/// `games` games from `start`, every turn the table's choice (its tie-break included), the dice
/// from `seed`: how perfect players play the game, and how often they roll.
pub fn self_play(table: &DieTable, start: &DiePosition, games: u32, seed: u64) -> SelfPlay {
    let mut next = xorshift(seed);
    let mut face = move || Role::ALL[(next() % 6) as usize];
    let mut out = SelfPlay { games, ..SelfPlay::default() };
    for _ in 0..games {
        let mut pos = *start;
        let end = loop {
            if let Some(end) = pos.end() {
                break end;
            }
            let turn = match table.best_decision(&pos).0 {
                DieDecision::Roll => {
                    out.rolls += 1;
                    table.best_after_roll(&pos, face()).0
                }
                DieDecision::Turn(turn) => turn,
            };
            pos = pos.play(turn);
            out.turns += 1;
        };
        match end {
            DieEnd::KingCaptured(Color::White) => out.black_wins += 1,
            DieEnd::KingCaptured(Color::Black) => out.white_wins += 1,
            DieEnd::TurnLimit => out.draws += 1,
        }
    }
    out
}

/// What the search gives up, measured by the table: the mean exact value its choice loses
/// against the best, before the roll and after a roll (of a knight and of a king).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SearchLoss {
    pub depth: u32,
    pub before_roll: f64,
    pub after_roll: f64,
}

/// Positions the table does not value at a draw: random placements, faces, moves in hand and
/// side to move, from `seed`.
pub fn undecided_positions(table: &DieTable, count: usize, seed: u64) -> Vec<DiePosition> {
    let mut random = xorshift(seed);
    let mut next = move |n: u64| random() % n;
    let mut found = Vec::new();
    while found.len() < count {
        let mut die = || {
            let square = Square::new(next(64) as u8);
            let face = Role::ALL[next(6) as usize];
            let in_hand = next(u64::from(moves_after_roll(face)) + 1) as u8;
            Die { square, face, in_hand }
        };
        let (white, black) = (die(), die());
        if white.square == black.square {
            continue;
        }
        let turn = if next(2) == 0 { Color::White } else { Color::Black };
        let pos = DiePosition { dice: [white, black], turn, turns_played: 0, king_taken: None, fullmove: 1 };
        if (table.value(&pos) - 0.5).abs() > 1e-6 {
            found.push(pos);
        }
    }
    found
}

/// The generic search on Die Chess (its small evaluation, `depth` turns, one thread) at each
/// of `positions`, judged by `table`.
pub fn search_loss(table: &DieTable, positions: &[DiePosition], depth: u32) -> SearchLoss {
    use crate::eval::die::DieEval;
    use crate::rules::diechess::DieChess;
    use crate::search::{Choice, Root, SearchInput, SearchOptions, Shared};
    let search = |pos: &DiePosition, root: Root<DieTurn>| {
        let input = SearchInput {
            rules: &DieChess,
            eval: &DieEval,
            position: pos,
            root,
            history: &[],
            limits: crate::search::timeman::Limits { depth: Some(depth), ..Default::default() },
            options: SearchOptions { threads: 1, ..SearchOptions::default() },
        };
        crate::search::search(&input, &Shared::new(16), &mut |_| {}).best
    };
    let (mut before, mut after, mut rolls) = (0.0, 0.0, 0u32);
    for pos in positions {
        let chosen = match search(pos, Root::PreRoll) {
            Choice::Roll => table.roll_value(pos),
            Choice::Turn(turn) => table.turn_value(pos, turn),
        };
        before += table.value(pos) - chosen;
        for face in [Role::Knight, Role::King] {
            let turns = pos.turns_after_roll(face);
            if let Choice::Turn(turn) = search(pos, Root::Turns(turns)) {
                after += table.best_after_roll(pos, face).1 - table.turn_value(pos, turn);
                rolls += 1;
            }
        }
    }
    SearchLoss {
        depth,
        before_roll: before / positions.len().max(1) as f64,
        after_roll: after / f64::from(rolls.max(1)),
    }
}

/// Die Chess played from its exact solution (the table in use, [`shared_table`]), or searched
/// with its own score ([`crate::eval::die::DieEval`]) where `options` turn the solution off:
/// the way the variant registry has it searched.
pub fn search_solved(
    game: &crate::rules::game::Game<crate::rules::diechess::DieChess>,
    root: crate::search::Root<DieTurn>,
    limits: crate::search::timeman::Limits,
    options: crate::search::SearchOptions,
    shared: &crate::search::Shared,
    report: &mut (dyn FnMut(&crate::search::SearchResult<DieTurn>) + Send),
) -> crate::search::SearchResult<DieTurn> {
    if !options.exact_solution {
        return crate::search::search_evaluated(game, root, limits, options, shared, report);
    }
    let root = match root {
        crate::search::Root::PreRoll => DieRoot::Decision,
        crate::search::Root::Turns(turns) => DieRoot::Only(turns),
    };
    let result = shared_table().answer(game.position(), &root, crate::eval::params::DEFAULT_RESULT_SCALE);
    // A sure win is told once the search is over, as a proven mate is.
    if result.mate.is_none() {
        report(&result);
    }
    result
}

/// The table the engine plays Die Chess from: one per process, installed from a file
/// ([`install_table`], the protocol's `DieChessTable`, `--solution`) or, the first time
/// it is needed, read from the user's cache (solved and kept there if missing:
/// [`crate::search::solve_cache`]).
static TABLE: std::sync::RwLock<Option<std::sync::Arc<DieTable>>> = std::sync::RwLock::new(None);

/// The table in use, reading or solving it first if none is (see [`TABLE`]).
pub fn shared_table() -> std::sync::Arc<DieTable> {
    if let Some(table) = TABLE.read().unwrap_or_else(|e| e.into_inner()).as_ref() {
        return table.clone();
    }
    let mut slot = TABLE.write().unwrap_or_else(|e| e.into_inner());
    slot.get_or_insert_with(|| std::sync::Arc::new(crate::search::solve_cache::table())).clone()
}

/// The table in use, if one is solved or installed yet (nothing is solved here).
pub fn table_in_use() -> Option<std::sync::Arc<DieTable>> {
    TABLE.read().unwrap_or_else(|e| e.into_inner()).clone()
}

/// Makes `table` the one the engine plays from.
pub fn install_table(table: DieTable) {
    *TABLE.write().unwrap_or_else(|e| e.into_inner()) = Some(std::sync::Arc::new(table));
}

/// Possible states: 64 x 63 placements, each die 6 faces with 0..=2 (pawn, knight, bishop) or
/// 0..=1 (rook, queen, king) in hand: 15 die states a square.
pub const POSSIBLE: usize = 64 * 63 * 15 * 15;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Choice;
    use std::sync::OnceLock;

    /// The solution, solved once for all the tests of a build (each test its own process under
    /// nextest) and kept as the engine keeps it, beside the test binary.
    fn solved() -> &'static DieTable {
        static TABLE: OnceLock<DieTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            let exe = std::env::current_exe().unwrap();
            let built = exe.metadata().and_then(|m| m.modified()).unwrap();
            let stamp = built.duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
            let dir = exe.parent().unwrap().join(format!("alea-solve-tests-{stamp}"));
            crate::search::solve_cache::load_or_solve_in(&dir, &mut |_, _| {}).unwrap().0
        })
    }

    fn pos(fen: &str) -> DiePosition {
        DiePosition::from_fen(fen).unwrap()
    }

    /// A position of the given state index, `turns_played` turns into the game.
    fn position_of(index: usize, turns_played: u32) -> DiePosition {
        let die = |code: usize, turn: bool| Die {
            square: Square::new(if turn { turned(code / 18) } else { code / 18 } as u8),
            face: Role::ALL[(code / 3) % 6],
            in_hand: (code % 3) as u8,
        };
        // Seen by White: the codes are the squares as they stand.
        let (mover, other) = (index / DIE_STATES, index % DIE_STATES);
        DiePosition {
            dice: [die(mover, false), die(other, false)],
            turn: Color::White,
            turns_played,
            king_taken: None,
            fullmove: 1,
        }
    }

    /// Possible states spread over the table (every `step`-th).
    fn sample(step: usize) -> impl Iterator<Item = usize> {
        (0..STATES).step_by(step).filter(|&i| is_possible(i / DIE_STATES, i % DIE_STATES))
    }

    #[test]
    fn state_codes_turn_the_board_for_black() {
        let start = DiePosition::start();
        let black = start.play(DieTurn::PASS);
        // Each sees its own die on a1 and the other's on h8.
        assert_eq!(state_index(&start), state_index(&black));
        let p = position_of(state_index(&start), 0);
        assert_eq!(p, start);
        assert_eq!((0..STATES).filter(|&i| is_possible(i / DIE_STATES, i % DIE_STATES)).count(), POSSIBLE);
    }

    #[test]
    fn the_values_satisfy_the_bellman_equations_everywhere() {
        let table = solved();
        // Read back from its file, as the engine loads it.
        let mut bytes = Vec::new();
        table.write_to(&mut bytes).unwrap();
        let read = DieTable::read_from(&bytes).unwrap();
        assert_eq!(&read, table);
        assert!(read.bellman_residual(2) <= 1e-12, "residual {}", read.bellman_residual(2));
        // And through the rules' own lists of turns (not the solver's move generation), on a
        // spread of states: each value is the best of passing, moving and rolling.
        for index in sample(97) {
            let p = position_of(index, 0);
            let (_, best) = read.best_decision(&p);
            assert!((best - read.value(&p)).abs() <= 1e-12, "{}: {best} against {}", p.fen(), read.value(&p));
        }
    }

    #[test]
    fn ties_go_to_the_choice_leaving_a_fallible_opponent_most_chances() {
        let table = solved();
        let mut tied_states = 0;
        for index in sample(997) {
            let p = position_of(index, 0);
            let (decision, value) = table.best_decision(&p);
            // The engine's answer and the decision agree, at the state's exact value.
            let answer = table.answer(&p, &DieRoot::Decision, 1.0);
            let chosen = match decision {
                DieDecision::Roll => Choice::Roll,
                DieDecision::Turn(t) => Choice::Turn(t),
            };
            assert_eq!(answer.best, chosen, "{}", p.fen());
            assert!((value - table.value(&p)).abs() <= TIE);
            // No turn of equal value leaves more chances than the one chosen.
            let DieDecision::Turn(turn) = decision else { continue };
            let chances = table.chances_after(&p, turn);
            let tied: Vec<DieTurn> =
                p.pre_roll_turns().into_iter().filter(|&t| (table.turn_value(&p, t) - value).abs() <= TIE).collect();
            tied_states += usize::from(tied.len() > 1);
            for t in tied {
                assert!(table.chances_after(&p, t) <= chances + TIE, "{}: {t} over {turn}", p.fen());
            }
            // Chances are what a random opponent gives away: never negative.
            assert!(chances >= -TIE, "{}: {chances}", p.fen());
        }
        assert!(tied_states > 50, "only {tied_states} states with ties");
    }

    #[test]
    fn perfect_self_play_draws_from_the_start_and_takes_a_king_in_reach() {
        let table = solved();
        let start = self_play(table, &DiePosition::start(), 3, 1);
        assert_eq!((start.draws, start.white_wins, start.black_wins), (3, 0, 0));
        assert_eq!(start.turns, 3 * u64::from(crate::rules::diechess::TURN_LIMIT));
        // Black's queen with a move in hand takes White's king die at once, every game.
        let won = self_play(table, &pos("8/8/8/8/8/8/1q6/K7 b - - 20 11 11"), 4, 1);
        assert_eq!((won.black_wins, won.turns, won.rolls), (4, 4, 0));
    }

    #[test]
    fn a_brute_force_search_to_the_end_agrees_near_the_turn_limit() {
        // Every turn to the end of the game, by the rules alone.
        fn to_the_end(p: &DiePosition) -> f64 {
            let value_of = |t: DieTurn| {
                let next = p.play(t);
                match next.end() {
                    Some(DieEnd::KingCaptured(_)) => 1.0,
                    Some(DieEnd::TurnLimit) => 0.5,
                    None => 1.0 - to_the_end(&next),
                }
            };
            let pre = p.pre_roll_turns().into_iter().map(value_of).fold(0.0, f64::max);
            let roll = Role::ALL
                .into_iter()
                .map(|face| p.turns_after_roll(face).into_iter().map(value_of).fold(0.0, f64::max))
                .sum::<f64>()
                / 6.0;
            pre.max(roll)
        }
        for turns_left in 1..=2u32 {
            let table = DieTable::with_turns_left(turns_left, 2);
            let mut decided = 0;
            for index in sample(if turns_left == 1 { 331 } else { 2003 }) {
                let p = position_of(index, 200 - turns_left);
                let exact = to_the_end(&p);
                assert!((exact - table.value(&p)).abs() < 1e-15, "{}: {exact} against {}", p.fen(), table.value(&p));
                decided += usize::from(exact != 0.5);
            }
            assert!(decided > 10, "{turns_left} turns left: only {decided} states not drawn");
        }
    }

    #[test]
    fn the_start_is_a_draw_and_a_king_in_reach_falls() {
        let table = solved();
        assert!((table.value(&DiePosition::start()) - 0.5).abs() <= 1e-12);
        // Black's queen, one move in hand, attacks White's king die: Black wins at once.
        let p = pos("8/8/8/8/8/8/1q6/K7 b - - 20 11 11");
        assert_eq!(table.value(&p), 1.0);
        assert_eq!(table.best_decision(&p).0, DieDecision::Turn(p.parse_turn("b2a1").unwrap()));
        // With no move in hand Black rolls: the pawn (stepping down diagonally), bishop, queen
        // and king faces take a1 from b2; the knight and the rook do not.
        let p = pos("8/8/8/8/8/8/1q6/K7 b - - 20 11 10");
        assert_eq!(table.best_decision(&p).0, DieDecision::Roll);
        assert!(table.value(&p) > 4.0 / 6.0 - 1e-12, "{}", table.value(&p));
        // At the turn limit's edge a turn that does not take the king draws.
        let last = pos("8/8/8/8/8/8/8/K6q b - - 199 100 10");
        assert_eq!(table.turn_value(&last, DieTurn::PASS), 0.5);
    }

    #[test]
    fn a_damaged_table_is_refused() {
        let table = DieTable::with_turns_left(1, 2);
        let mut bytes = Vec::new();
        table.write_to(&mut bytes).unwrap();
        assert_eq!(DieTable::read_from(&bytes).unwrap(), table);
        let mut flipped = bytes.clone();
        flipped[100] ^= 1;
        assert!(DieTable::read_from(&flipped).unwrap_err().to_string().contains("checksum"));
        assert!(DieTable::read_from(&bytes[..bytes.len() / 2]).unwrap_err().to_string().contains("checksum"));
        assert!(DieTable::read_from(b"ALEANNUE....").unwrap_err().to_string().contains("not a Die Chess table"));
    }

    /// Tables kept in users' caches are named by [`SOLUTION_VERSION`]: a change of the rules or
    /// the solver that changes the solution must raise it, or old tables would still be read.
    #[test]
    fn the_kept_solution_s_version_names_these_values() {
        let mut bytes = Vec::new();
        solved().write_to(&mut bytes).unwrap();
        let checksum = u32::from_le_bytes(bytes[bytes.len() - 4..].try_into().unwrap());
        assert_eq!(
            (crate::search::solve_cache::SOLUTION_VERSION, checksum),
            (1, 0xc816_bb70),
            "the solution changed: raise solve_cache::SOLUTION_VERSION and write the new checksum here"
        );
    }
}
