//! The exact solution of a game small enough to number all its states
//! ([`crate::rules::solvable`]): the value of every state for the side to move (the probability
//! of winning, a draw counted half), by value iteration.
//!
//! The value obeys, at every state, `V(s) = max over the mover's options`, where a choice that
//! wins is worth 1, a choice that hands the other player state `t` is worth `1 - V(t)`, and a
//! roll the mean over its results of the best choice each allows.
//!
//! Iterating that map from `V = 1/2` gives after `k` sweeps the exact value with `k` turns left
//! before a draw; the values stop changing long before a game's turn limit (see [`Solution`]).

use crate::board::piece::Color;
use crate::eval::data::DataError;
use crate::rules::solvable::{After, Options, Solvable};
use crate::rules::{GameResult, Outcome, OutcomeList, Roll, TurnList};
use std::any::Any;
use std::sync::{Arc, RwLock};

/// The best of a state's options, from the table `v` of the turn after.
struct Best<'a> {
    v: &'a [f64],
    best: f64,
}

impl Options for Best<'_> {
    #[inline]
    fn choose(&mut self, after: After) {
        let value = match after {
            After::Won => 1.0,
            After::Next(index) => 1.0 - self.v[index],
        };
        self.best = self.best.max(value);
    }

    #[inline]
    fn roll(&mut self, results: usize, mut each: impl FnMut(&mut Self, usize)) {
        let before = self.best;
        let mut sum = 0.0;
        for result in 0..results {
            self.best = f64::NEG_INFINITY;
            each(self, result);
            sum += self.best;
        }
        self.best = before.max(sum / results as f64);
    }
}

/// One sweep: `out` gets the values one turn further from the draw than `v`'s, over `threads`
/// threads. Returns the largest change.
fn sweep<G: Solvable>(rules: &G, v: &[f64], out: &mut [f64], threads: usize) -> f64 {
    let per_thread = G::STATES.div_ceil(threads.max(1));
    std::thread::scope(|scope| {
        let handles: Vec<_> = out
            .chunks_mut(per_thread)
            .enumerate()
            .map(|(c, chunk)| {
                scope.spawn(move || {
                    let mut change = 0.0f64;
                    for (i, slot) in chunk.iter_mut().enumerate() {
                        let index = c * per_thread + i;
                        if !rules.is_possible(index) {
                            continue;
                        }
                        let mut best = Best { v, best: f64::NEG_INFINITY };
                        rules.options(index, &mut best);
                        change = change.max((best.best - v[index]).abs());
                        *slot = best.best;
                    }
                    change
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a sweep thread")).fold(0.0, f64::max)
    })
}

/// The values of a game for the side to move at every state, without a turn limit.
///
/// Value iteration from 1/2 gives after `k` sweeps the values with `k` turns left before the
/// draw; the solve runs until a sweep changes no value by more than its tolerance (for Die
/// Chess about 30 sweeps for 1e-12), so these are the values of every state with that many turns
/// or more left, and of the game without a limit. [`Solution::turn_value`] counts a turn that
/// reaches the game's end, a turn limit's draw included, as the result it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution<G: Solvable> {
    rules: G,
    /// By [`Solvable::state_index`]; impossible states hold 1/2.
    values: Vec<f64>,
    /// Sweeps the solve made, and the largest change of its last one.
    pub sweeps: u32,
    pub last_change: f64,
}

/// A decision before the roll: a turn without rolling, or the roll.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Decision<T> {
    Turn(T),
    Roll,
}

/// Options whose values differ by no more than this are equally good: the table is exact to
/// its tolerance, not beyond.
pub const TIE: f64 = 1e-12;

/// The mean of values, each counted as often as its weight (a roll's results).
fn weighted_mean(items: impl Iterator<Item = (u32, f64)>) -> f64 {
    let (sum, total) = items.fold((0.0, 0u32), |(sum, total), (w, x)| (sum + f64::from(w) * x, total + w));
    sum / f64::from(total)
}

/// The turns after a roll, on the stack.
type Turns<G> = TurnList<<G as crate::rules::Rules>::Turn>;

impl<G: Solvable> Solution<G> {
    /// Solves the game: value iteration from 1/2 (a draw) until a sweep changes no value by more
    /// than `tolerance`, on `threads` threads, telling `progress` each sweep's number and largest
    /// change.
    pub fn solve(rules: G, tolerance: f64, threads: usize, progress: &mut dyn FnMut(u32, f64)) -> Solution<G> {
        let mut v = vec![0.5f64; G::STATES];
        let mut next = vec![0.5f64; G::STATES];
        let mut sweeps = 0u32;
        loop {
            let change = sweep(&rules, &v, &mut next, threads);
            std::mem::swap(&mut v, &mut next);
            sweeps += 1;
            progress(sweeps, change);
            if change <= tolerance {
                return Solution { rules, values: v, sweeps, last_change: change };
            }
        }
    }

    /// The values with `turns_left` turns before the draw: that many sweeps from 1/2.
    pub fn with_turns_left(rules: G, turns_left: u32, threads: usize) -> Solution<G> {
        let mut v = vec![0.5f64; G::STATES];
        let mut next = vec![0.5f64; G::STATES];
        let mut last_change = 0.0;
        for _ in 0..turns_left {
            last_change = sweep(&rules, &v, &mut next, threads);
            std::mem::swap(&mut v, &mut next);
        }
        Solution { rules, values: v, sweeps: turns_left, last_change }
    }

    /// The game solved.
    pub fn rules(&self) -> &G {
        &self.rules
    }

    /// How many states could occur (the table's entries that mean something).
    pub fn possible_states(&self) -> usize {
        (0..G::STATES).filter(|&i| self.rules.is_possible(i)).count()
    }

    /// The value of `pos` (not over) for its side to move.
    pub fn value(&self, pos: &G::Position) -> f64 {
        self.values[self.rules.state_index(pos)]
    }

    /// The value of a turn for the player making it: 1 for a win, 1/2 for a draw (a turn limit
    /// reached), else one less the opponent's value.
    pub fn turn_value(&self, pos: &G::Position, turn: G::Turn) -> f64 {
        let mover = self.rules.turn(pos);
        let next = self.rules.play(pos, turn);
        match self.rules.end(&next).map(|end| end.result) {
            Some(GameResult::Win(winner)) => f64::from(u8::from(winner == mover)),
            Some(GameResult::Draw) => 0.5,
            None => 1.0 - self.value(&next),
        }
    }

    /// The roll's results from `pos` (none once the game is over).
    fn outcomes(&self, pos: &G::Position) -> OutcomeList {
        let mut out = OutcomeList::new();
        self.rules.outcomes(pos, &mut out);
        out
    }

    /// The turns `roll` allows from `pos`.
    fn turns_after(&self, pos: &G::Position, roll: &Roll) -> Turns<G> {
        let mut out = TurnList::new();
        self.rules.allowed_turns(pos, roll, &mut out);
        out
    }

    /// The best turn after `roll`, and its value. Among equals, the one leaving a fallible
    /// opponent the most chances ([`Solution::chances_after`]); then the first in the rules'
    /// order.
    pub fn best_after_roll(&self, pos: &G::Position, roll: &Roll) -> (G::Turn, f64) {
        let (turn, value, _) = self.best_turn(pos, &self.turns_after(pos, roll));
        (turn, value)
    }

    /// The value of rolling: the mean over the roll's results of the best turn after each.
    pub fn roll_value(&self, pos: &G::Position) -> f64 {
        weighted_mean(self.outcomes(pos).iter().map(|o| {
            let turns = self.turns_after(pos, &o.roll);
            (o.weight, turns.iter().map(|&t| self.turn_value(pos, t)).fold(f64::NEG_INFINITY, f64::max))
        }))
    }

    /// The best decision before the roll and its value. Among equals, the one leaving a fallible
    /// opponent the most chances ([`Solution::chances_after`]; rolling counts its results' best
    /// turns); equal again, rolling, then the turns in the game's preferred order
    /// ([`Solvable::preferred_pre_roll`]).
    pub fn best_decision(&self, pos: &G::Position) -> (Decision<G::Turn>, f64) {
        let (roll, roll_chances) = self.roll_with_chances(pos);
        let (turn, value, chances) = self.best_turn(pos, &self.rules.preferred_pre_roll(pos));
        if rank(roll, roll_chances) >= rank(value, chances) {
            (Decision::Roll, roll)
        } else {
            (Decision::Turn(turn), value)
        }
    }

    /// What an opponent who chose at random among its options (each turn before the roll, and
    /// rolling then any turn the result allows) would give away on average in the state after
    /// `turn`, measured by the table. A perfect opponent gives nothing away, so this changes no
    /// value: it only breaks ties, towards the choice that leaves a fallible player the most
    /// ways to go wrong. (Drawn positions are most of a game, and a draw by perfect play is
    /// still a win against a player who errs.)
    pub fn chances_after(&self, pos: &G::Position, turn: G::Turn) -> f64 {
        let next = self.rules.play(pos, turn);
        if self.rules.end(&next).is_some() {
            return 0.0;
        }
        let mean = |values: &mut dyn Iterator<Item = f64>| {
            let (sum, n) = values.fold((0.0, 0u32), |(s, n), v| (s + v, n + 1));
            sum / f64::from(n)
        };
        let after_roll = weighted_mean(self.outcomes(&next).iter().map(|o| {
            (o.weight, mean(&mut self.turns_after(&next, &o.roll).iter().map(|&t| self.turn_value(&next, t))))
        }));
        let mut turns = TurnList::new();
        self.rules.pre_roll_turns(&next, &mut turns);
        let random = mean(&mut turns.iter().map(|&t| self.turn_value(&next, t)).chain(std::iter::once(after_roll)));
        self.value(&next) - random
    }

    /// The best of `turns` from `pos`: its value and the chances it leaves (the first of equals).
    fn best_turn(&self, pos: &G::Position, turns: &[G::Turn]) -> (G::Turn, f64, f64) {
        let valued: Vec<(G::Turn, f64)> = turns.iter().map(|&t| (t, self.turn_value(pos, t))).collect();
        let best = valued.iter().map(|v| grid(v.1)).max().expect("a turn is always possible");
        // Chances are asked only of the turns of the best value (usually few).
        let mut chosen: Option<(G::Turn, f64, f64)> = None;
        for &(t, v) in valued.iter().filter(|v| grid(v.1) == best) {
            let chances = self.chances_after(pos, t);
            if chosen.is_none_or(|(_, value, c)| rank(v, chances) > rank(value, c)) {
                chosen = Some((t, v, chances));
            }
        }
        chosen.expect("a turn is always possible (a solvable game always has a turn to make)")
    }

    /// Rolling's value and the chances its results' best turns leave, on average.
    fn roll_with_chances(&self, pos: &G::Position) -> (f64, f64) {
        let best: Vec<(u32, f64, f64)> = self
            .outcomes(pos)
            .iter()
            .map(|o| {
                let (_, value, chances) = self.best_turn(pos, &self.turns_after(pos, &o.roll));
                (o.weight, value, chances)
            })
            .collect();
        (weighted_mean(best.iter().map(|b| (b.0, b.1))), weighted_mean(best.iter().map(|b| (b.0, b.2))))
    }

    /// The largest amount by which a state's value differs from the best of its options valued
    /// by the table (the Bellman equations' residual), over every possible state.
    pub fn bellman_residual(&self, threads: usize) -> f64 {
        let mut out = vec![0.5f64; G::STATES];
        sweep(&self.rules, &self.values, &mut out, threads)
    }
}

impl<G: Solvable> Solution<G> {
    /// Writes the table: the game's magic bytes, the distinct values once, then for each possible
    /// state (in index order) the number of its value among them, in 16 bits; an FNV-1a checksum
    /// closes the file.
    pub fn write_to(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        let mut distinct: Vec<u64> = self.possible_values().map(f64::to_bits).collect();
        distinct.sort_unstable();
        distinct.dedup();
        if distinct.len() > usize::from(u16::MAX) + 1 {
            return Err(std::io::Error::other(format!("{} distinct values do not fit 16 bits", distinct.len())));
        }
        let mut bytes = G::SOLUTION_MAGIC.to_vec();
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

    /// Do these bytes begin as this game's solution does?
    pub fn claims(bytes: &[u8]) -> bool {
        bytes.starts_with(&G::SOLUTION_MAGIC)
    }

    /// Reads a table [`Solution::write_to`] wrote, refusing a damaged, truncated or foreign file.
    pub fn read_from(rules: G, bytes: &[u8]) -> Result<Solution<G>, DataError> {
        let name = rules.name();
        let damaged = |what: String| DataError::Damaged(format!("the {name} solution {what}"));
        let magic = &G::SOLUTION_MAGIC;
        if !Self::claims(bytes) {
            return Err(DataError::Damaged(format!(
                "not a {name} solution (no {} header)",
                String::from_utf8_lossy(magic)
            )));
        }
        if bytes.len() < magic.len() + 20 + 4 {
            return Err(damaged("is truncated".into()));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 4);
        if crate::board::checksum::fnv1a(body).to_le_bytes() != sum {
            return Err(damaged("is damaged or truncated (checksum mismatch)".into()));
        }
        let mut at = magic.len();
        let mut take = |n: usize| {
            let part = body.get(at..at + n).ok_or_else(|| damaged("is truncated".into()));
            at += n;
            part
        };
        let sweeps = u32::from_le_bytes(take(4)?.try_into().expect("4 bytes"));
        let last_change = f64::from_le_bytes(take(8)?.try_into().expect("8 bytes"));
        let count = u32::from_le_bytes(take(4)?.try_into().expect("4 bytes")) as usize;
        if count == 0 || count > usize::from(u16::MAX) + 1 {
            return Err(damaged(format!("lists {count} values")));
        }
        let distinct: Vec<f64> =
            take(count * 8)?.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes"))).collect();
        if distinct.iter().any(|v| !(0.0..=1.0).contains(v)) {
            return Err(damaged("holds a value outside 0..1".into()));
        }
        let possible = (0..G::STATES).filter(|&i| rules.is_possible(i)).count();
        let indices = take(possible * 2)?;
        if at != body.len() {
            return Err(damaged("has bytes after its values".into()));
        }
        let mut values = vec![0.5f64; G::STATES];
        let mut slots = indices.chunks_exact(2).map(|c| usize::from(u16::from_le_bytes([c[0], c[1]])));
        for (i, slot) in values.iter_mut().enumerate() {
            if rules.is_possible(i) {
                let k = slots.next().expect("one index per possible state");
                *slot = *distinct.get(k).ok_or_else(|| damaged(format!("names value {k} of {count}")))?;
            }
        }
        Ok(Solution { rules, values, sweeps, last_change })
    }

    /// Reads the table in the file at `path`.
    pub fn read(rules: G, path: &std::path::Path) -> Result<Solution<G>, DataError> {
        let bytes = std::fs::read(path).map_err(|e| DataError::io(path, &e))?;
        Solution::read_from(rules, &bytes).map_err(|e| e.in_file(path))
    }

    fn possible_values(&self) -> impl Iterator<Item = f64> + '_ {
        (0..G::STATES).filter(|&i| self.rules.is_possible(i)).map(|i| self.values[i])
    }
}

/// Where the table is asked: before the roll (its options against rolling), or among these
/// turns only (after a roll, or `go searchmoves`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ask<T> {
    Decision,
    Only(Vec<T>),
}

impl<G: Solvable> Solution<G> {
    /// The engine's answer from the table, as a search reports one: every choice with its exact
    /// value, before the roll each result's best turn, the value as centipawns of the
    /// evaluation's scale (`scale`), a sure win or loss as a mate in one.
    pub fn answer(&self, pos: &G::Position, ask: &Ask<G::Turn>, scale: f64) -> crate::search::SearchResult<G::Turn> {
        use crate::search::{Choice, OutcomeAdvice, ScoredChoice};
        let started = std::time::Instant::now();
        let centipawns = |v: f64| value_to_centipawns(v, scale);
        // Before the roll: each result's best turn, once; rolling is worth their mean.
        let outcomes = if *ask == Ask::Decision { self.outcomes(pos) } else { OutcomeList::new() };
        let results: Vec<(&Outcome, G::Turn, f64, f64)> = outcomes
            .iter()
            .map(|o| {
                let (turn, value, chances) = self.best_turn(pos, &self.turns_after(pos, &o.roll));
                (o, turn, value, chances)
            })
            .collect();
        let roll = (!results.is_empty()).then(|| weighted_mean(results.iter().map(|r| (r.0.weight, r.2))));
        let turn_option = |t: G::Turn| (Choice::Turn(t), self.turn_value(pos, t), self.chances_after(pos, t));
        let mut options: Vec<(Choice<G::Turn>, f64, f64)> = match ask {
            Ask::Decision => {
                let mut turns: Vec<_> = self.rules.preferred_pre_roll(pos).into_iter().map(turn_option).collect();
                let chances = weighted_mean(results.iter().map(|r| (r.0.weight, r.3)));
                turns.insert(0, (Choice::Roll, roll.expect("results before the roll"), chances));
                turns
            }
            Ask::Only(turns) => turns.iter().map(|&t| turn_option(t)).collect(),
        };
        // Best first; among equals, the most chances for a fallible opponent; equal again, the
        // order above (rolling, then the game's preferred order).
        options.sort_by_key(|&(_, value, chances)| std::cmp::Reverse(rank(value, chances)));
        let (best, value, _) = options.first().copied().expect("a turn is always possible");
        let outcome_advice = results
            .iter()
            .map(|&(o, turn, v, _)| OutcomeAdvice {
                roll: o.roll,
                probability: o.probability,
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
            outcomes: outcome_advice,
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
/// ([`Solution::chances_after`]). Every choice the table makes compares these keys.
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
pub fn self_play<G: Solvable>(table: &Solution<G>, start: &G::Position, games: u32, seed: u64) -> SelfPlay {
    let rules = table.rules();
    let mut next = xorshift(seed);
    let mut out = SelfPlay { games, ..SelfPlay::default() };
    for _ in 0..games {
        let mut pos = start.clone();
        let result = loop {
            if let Some(end) = rules.end(&pos) {
                break end.result;
            }
            let turn = match table.best_decision(&pos).0 {
                Decision::Roll => {
                    out.rolls += 1;
                    let outcomes = table.outcomes(&pos);
                    let total: u32 = outcomes.iter().map(|o| o.weight).sum();
                    let roll = crate::rules::dice::pick_by_weight(&outcomes, next() % u64::from(total))
                        .expect("a roll has results");
                    table.best_after_roll(&pos, &roll).0
                }
                Decision::Turn(turn) => turn,
            };
            pos = rules.play(&pos, turn);
            out.turns += 1;
        };
        match result {
            GameResult::Win(Color::White) => out.white_wins += 1,
            GameResult::Win(Color::Black) => out.black_wins += 1,
            GameResult::Draw => out.draws += 1,
        }
    }
    out
}

/// What the search gives up, measured by the table: the mean exact value its choice loses
/// against the best, before the roll and after a roll (over every result of the roll).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SearchLoss {
    pub depth: u32,
    pub before_roll: f64,
    pub after_roll: f64,
}

/// Positions the table does not value at a draw: drawn by the game
/// ([`Solvable::random_position`]) from `seed`.
pub fn undecided_positions<G: Solvable>(table: &Solution<G>, count: usize, seed: u64) -> Vec<G::Position> {
    let mut random = xorshift(seed);
    let mut next = move |n: u64| random() % n;
    let mut found = Vec::new();
    while found.len() < count {
        if let Some(pos) = table.rules.random_position(&mut next)
            && (table.value(&pos) - 0.5).abs() > 1e-6
        {
            found.push(pos);
        }
    }
    found
}

/// The generic search on the game (the evaluation its positions bring, `depth` turns, one
/// thread) at each of `positions`, judged by `table`.
pub fn search_loss<G>(table: &Solution<G>, positions: &[G::Position], depth: u32) -> SearchLoss
where
    G: Solvable,
    G::Position: crate::eval::Evaluated + Send + Sync + std::fmt::Debug,
    <G::Position as crate::eval::Evaluated>::Eval: crate::eval::Evaluator<G>,
    G::Turn: Send + Sync,
{
    use crate::eval::Evaluated;
    use crate::search::{Choice, Root, SearchInput, SearchOptions, Shared};
    let rules = table.rules();
    let params = crate::eval::params::EvalParams::from_values(rules.piece_values());
    let eval = G::Position::evaluation(&params, None);
    let search = |pos: &G::Position, root: Root<G::Turn>| {
        let input = SearchInput {
            rules,
            eval: &eval,
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
        for outcome in &table.outcomes(pos) {
            let turns = table.turns_after(pos, &outcome.roll).to_vec();
            if let Choice::Turn(turn) = search(pos, Root::Turns(turns)) {
                after += table.best_after_roll(pos, &outcome.roll).1 - table.turn_value(pos, turn);
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

/// A solved game played from its exact solution (the table in use, [`shared_table`]), or
/// searched with the evaluation its positions bring where `options` turn the solution off: the
/// way the variant registry has a solved game searched.
pub fn search_solved<G>(
    game: &crate::rules::game::Game<G>,
    root: crate::search::Root<G::Turn>,
    limits: crate::search::timeman::Limits,
    options: crate::search::SearchOptions,
    shared: &crate::search::Shared,
    report: &mut (dyn FnMut(&crate::search::SearchResult<G::Turn>) + Send),
) -> crate::search::SearchResult<G::Turn>
where
    G: Solvable,
    G::Position: crate::eval::Evaluated + Send + Sync + std::fmt::Debug,
    <G::Position as crate::eval::Evaluated>::Eval: crate::eval::Evaluator<G>,
    G::Turn: Send + Sync,
{
    if !options.exact_solution {
        return crate::search::search_evaluated(game, root, limits, options, shared, report);
    }
    let ask = match root {
        crate::search::Root::PreRoll => Ask::Decision,
        crate::search::Root::Turns(turns) => Ask::Only(turns),
    };
    let result = shared_table(game.rules()).answer(game.position(), &ask, crate::eval::params::DEFAULT_RESULT_SCALE);
    // A sure win is told once the search is over, as a proven mate is.
    if result.mate.is_none() {
        report(&result);
    }
    result
}

/// The tables the engine plays solved games from: one per game and process, installed from a
/// file ([`install_table`]: the protocol's `DieChessTable`, `--solution`) or, the first time
/// one is needed, read from the user's cache (solved and kept there if missing:
/// [`crate::search::solve_cache`]).
static TABLES: RwLock<Vec<Arc<dyn Any + Send + Sync>>> = RwLock::new(Vec::new());

/// The table of this game in the list, if any.
fn find<G: Solvable>(tables: &[Arc<dyn Any + Send + Sync>]) -> Option<Arc<Solution<G>>> {
    tables.iter().find_map(|t| t.clone().downcast::<Solution<G>>().ok())
}

/// The table in use for `rules`'s game, reading or solving it first if none is (see [`TABLES`]).
pub fn shared_table<G: Solvable>(rules: &G) -> Arc<Solution<G>> {
    if let Some(table) = find::<G>(&TABLES.read().unwrap_or_else(|e| e.into_inner())) {
        return table;
    }
    let mut tables = TABLES.write().unwrap_or_else(|e| e.into_inner());
    if let Some(table) = find::<G>(&tables) {
        return table;
    }
    let table = Arc::new(crate::search::solve_cache::table(rules.clone()));
    tables.push(table.clone());
    table
}

/// The table of game `G` in use, if one is solved or installed yet (nothing is solved here).
pub fn table_in_use<G: Solvable>() -> Option<Arc<Solution<G>>> {
    find::<G>(&TABLES.read().unwrap_or_else(|e| e.into_inner()))
}

/// Makes `table` the one the engine plays its game from.
pub fn install_table<G: Solvable>(table: Solution<G>) {
    let mut tables = TABLES.write().unwrap_or_else(|e| e.into_inner());
    tables.retain(|t| !t.is::<Solution<G>>());
    tables.push(Arc::new(table));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::piece::Role;
    use crate::rules::diechess::{DIE_STATES, DieChess, DieEnd, DiePosition, DieTurn, STATES, TURN_LIMIT, state_index};
    use crate::search::Choice;
    use std::sync::OnceLock;

    type DieTable = Solution<DieChess>;

    /// The solution, solved once for all the tests of a build (each test its own process under
    /// nextest) and kept as the engine keeps it, beside the test binary.
    fn solved() -> &'static DieTable {
        static TABLE: OnceLock<DieTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            let exe = std::env::current_exe().unwrap();
            let built = exe.metadata().and_then(|m| m.modified()).unwrap();
            let stamp = built.duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
            let dir = exe.parent().unwrap().join(format!("alea-solve-tests-{stamp}"));
            crate::search::solve_cache::load_or_solve_in(&DieChess, &dir, &mut |_, _| {}).unwrap().0
        })
    }

    fn pos(fen: &str) -> DiePosition {
        DiePosition::from_fen(fen).unwrap()
    }

    /// A position of the given state index, `turns_played` turns into the game.
    fn position_of(index: usize, turns_played: u32) -> DiePosition {
        DiePosition { turns_played, ..DieChess.position_of(index, Color::White) }
    }

    /// Possible states spread over the table (every `step`-th).
    fn sample(step: usize) -> impl Iterator<Item = usize> {
        (0..STATES).step_by(step).filter(|&i| DieChess.is_possible(i))
    }

    #[test]
    fn state_codes_turn_the_board_for_black() {
        let start = DiePosition::start();
        let black = start.play(DieTurn::PASS);
        // Each sees its own die on a1 and the other's on h8.
        assert_eq!(state_index(&start), state_index(&black));
        let p = position_of(state_index(&start), 0);
        assert_eq!(p, start);
        // Black to move in the same state: the board turned, the numbers the same.
        let turned = DieChess.position_of(state_index(&start), Color::Black);
        assert_eq!((turned.die(Color::Black).square.index(), turned.die(Color::White).square.index()), (63, 0));
        for index in sample(4099) {
            assert_eq!(state_index(&DieChess.position_of(index, Color::Black)), index);
        }
        // 64 x 63 placements, each die 6 faces with 0..=2 (pawn, knight, bishop) or 0..=1 (rook,
        // queen, king) in hand: 15 die states a square.
        assert_eq!(DieTable::with_turns_left(DieChess, 0, 1).possible_states(), 64 * 63 * 15 * 15);
        assert_eq!(STATES, DIE_STATES * DIE_STATES);
    }

    #[test]
    fn the_values_satisfy_the_bellman_equations_everywhere() {
        let table = solved();
        // Read back from its file, as the engine loads it.
        let mut bytes = Vec::new();
        table.write_to(&mut bytes).unwrap();
        let read = DieTable::read_from(DieChess, &bytes).unwrap();
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
            let answer = table.answer(&p, &Ask::Decision, 1.0);
            let chosen = match decision {
                Decision::Roll => Choice::Roll,
                Decision::Turn(t) => Choice::Turn(t),
            };
            assert_eq!(answer.best, chosen, "{}", p.fen());
            assert!((value - table.value(&p)).abs() <= TIE);
            // No turn of equal value leaves more chances than the one chosen.
            let Decision::Turn(turn) = decision else { continue };
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
        assert_eq!(start.turns, 3 * u64::from(TURN_LIMIT));
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
            let table = DieTable::with_turns_left(DieChess, turns_left, 2);
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
        assert_eq!(table.best_decision(&p).0, Decision::Turn(p.parse_turn("b2a1").unwrap()));
        // With no move in hand Black rolls: the pawn (stepping down diagonally), bishop, queen
        // and king faces take a1 from b2; the knight and the rook do not.
        let p = pos("8/8/8/8/8/8/1q6/K7 b - - 20 11 10");
        assert_eq!(table.best_decision(&p).0, Decision::Roll);
        assert!(table.value(&p) > 4.0 / 6.0 - 1e-12, "{}", table.value(&p));
        // At the turn limit's edge a turn that does not take the king draws.
        let last = pos("8/8/8/8/8/8/8/K6q b - - 199 100 10");
        assert_eq!(table.turn_value(&last, DieTurn::PASS), 0.5);
    }

    #[test]
    fn a_damaged_table_is_refused() {
        let table = DieTable::with_turns_left(DieChess, 1, 2);
        let mut bytes = Vec::new();
        table.write_to(&mut bytes).unwrap();
        assert_eq!(DieTable::read_from(DieChess, &bytes).unwrap(), table);
        let mut flipped = bytes.clone();
        flipped[100] ^= 1;
        assert!(DieTable::read_from(DieChess, &flipped).unwrap_err().to_string().contains("checksum"));
        assert!(DieTable::read_from(DieChess, &bytes[..bytes.len() / 2]).unwrap_err().to_string().contains("checksum"));
        assert!(
            DieTable::read_from(DieChess, b"ALEANNUE....").unwrap_err().to_string().contains("not a diechess solution")
        );
    }

    /// Tables kept in users' caches are named by [`Solvable::SOLUTION_VERSION`]: a change of the rules or
    /// the solver that changes the solution must raise it, or old tables would still be read.
    #[test]
    fn the_kept_solution_s_version_names_these_values() {
        let mut bytes = Vec::new();
        solved().write_to(&mut bytes).unwrap();
        let checksum = u32::from_le_bytes(bytes[bytes.len() - 4..].try_into().unwrap());
        assert_eq!(
            (DieChess::SOLUTION_VERSION, checksum),
            (1, 0xc816_bb70),
            "the solution changed: raise the game's SOLUTION_VERSION and write the new checksum here"
        );
    }
}
