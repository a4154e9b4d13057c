//! The plain expectiminimax that every search is checked against, written once against the
//! game as states ([`GameStates`]): no windows, no bounds, no table, no reductions, every outcome
//! and every choice valued exactly. Its leaves are the search's own horizon (asked with a full
//! window), so the two must agree to the last unit; values are equities, averaged over each
//! roll's outcomes and rounded down as the searches round them. A state met again within one
//! turn (the same move allowed by another outcome, the same micro-moves in another order) has
//! the same subtree, so its value is taken from the first time: without that, two dice and
//! three turns are 300^3 lines.

use alea_engine::rules::OutcomeList;
use alea_engine::rules::states::{ChoiceList, GameStates, StateKind};
use alea_engine::rules::{GameEnd, GameResult, Roll};
use alea_engine::search::{MAX_PLY, WIN};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::collections::HashMap;

/// What a search does at its horizon and between turns, which the reference copies: the leaf
/// value of a turn's start, and whether a turn keeps the depth it was searched at.
pub trait Horizon<G: GameStates> {
    /// The value (an equity) of `state`, a turn's start not at the game's end, for its side,
    /// `ply` turns from the root.
    fn leaf(&self, state: &G::State, ply: usize) -> i32;

    /// Is the turn that ends at `state` (a turn's start), played `ply` turns from the root of an
    /// iteration `root_depth` turns deep, searched without losing depth (the one-move search's
    /// check extension)?
    fn extends(&self, _state: &G::State, _ply: usize, _root_depth: i32) -> bool {
        false
    }
}

/// The value of a finished game for `side`, `ply` turns from the root.
fn end_value(end: GameEnd, side: alea_engine::Color, ply: usize) -> i32 {
    match end.result {
        GameResult::Draw => 0,
        GameResult::Win(c) if c == side => WIN - ply as i32,
        GameResult::Win(_) => -(WIN - ply as i32),
    }
}

struct Plain<'a, G: GameStates, H> {
    game: &'a G,
    horizon: &'a H,
    root_depth: i32,
    /// Keys of the turn starts on the way here, the root's first.
    path: Vec<u64>,
    /// Per turn on the way here: the values of the states met in it (and of the turn starts
    /// they lead to), by key.
    seen: Vec<HashMap<u64, i32>>,
}

/// The expectiminimax value (an equity) of `root` for its side, `depth` turns deep.
pub fn expectiminimax<G: GameStates, H: Horizon<G>>(game: &G, horizon: &H, root: &G::State, depth: i32) -> i32 {
    let mut plain = Plain { game, horizon, root_depth: depth, path: Vec::new(), seen: vec![HashMap::new()] };
    plain.value(root, depth, 0)
}

impl<G: GameStates, H: Horizon<G>> Plain<'_, G, H> {
    fn value(&mut self, state: &G::State, depth: i32, ply: usize) -> i32 {
        if !self.game.starts_turn(state) {
            return self.inner(state, depth, ply);
        }
        let key = self.game.key(state);
        let reach = self.game.reversible_turns(state) as usize;
        if ply > 0 && self.path.iter().rev().take(reach).filter(|&&k| k == key).count() >= 2 {
            return 0;
        }
        if let StateKind::End(end) = self.game.kind(state) {
            return end_value(end, self.game.side(state), ply);
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.horizon.leaf(state, ply);
        }
        self.path.push(key);
        self.seen.push(HashMap::new());
        let v = self.inner(state, depth, ply);
        self.seen.pop();
        self.path.pop();
        v
    }

    fn inner(&mut self, state: &G::State, depth: i32, ply: usize) -> i32 {
        match self.game.kind(state) {
            StateKind::End(end) => end_value(end, self.game.side(state), ply),
            StateKind::Chance => {
                let mut outcomes = OutcomeList::new();
                self.game.outcomes(state, &mut outcomes);
                let total: i64 = outcomes.iter().map(|o| i64::from(o.weight)).sum();
                let mut sum = 0i64;
                for o in &outcomes {
                    let next = self.game.after_outcome(state, &o.roll);
                    sum += i64::from(o.weight) * i64::from(self.child(state, &next, depth, ply));
                }
                sum.div_euclid(total) as i32
            }
            StateKind::Decision => {
                let mut choices = ChoiceList::new();
                self.game.choices(state, &mut choices);
                assert!(!choices.is_empty(), "a decision without choices");
                choices
                    .into_iter()
                    .map(|c| {
                        let next = self.game.after_choice(state, c);
                        self.child(state, &next, depth, ply)
                    })
                    .max()
                    .expect("choices")
            }
        }
    }

    /// The value of `next`, reached from `state`, for `state`'s side.
    fn child(&mut self, state: &G::State, next: &G::State, depth: i32, ply: usize) -> i32 {
        let key = self.game.key(next);
        let known = self.seen.last().and_then(|seen| seen.get(&key).copied());
        let v = match known {
            Some(v) => v,
            None => {
                let v = if self.game.starts_turn(next) {
                    let kept = i32::from(self.horizon.extends(next, ply, self.root_depth));
                    self.value(next, depth - 1 + kept, ply + 1)
                } else {
                    self.value(next, depth, ply)
                };
                self.seen.last_mut().expect("a turn").insert(key, v);
                v
            }
        };
        if self.game.side(next) == self.game.side(state) { v } else { -v }
    }
}

/// States of seeded random games: from `start`, a number of turns in `turns` of random choices
/// and outcomes drawn by weight; each kept game gives its last turn's start and, rolled (where its
/// turn starts with the roll, or rolling is a choice), a decision after the roll. Finished games
/// are skipped.
#[allow(dead_code)] // Each test crate that includes this module uses what it needs.
pub fn random_states<G: GameStates>(
    game: &G,
    start: &G::State,
    seed: u64,
    count: usize,
    turns: std::ops::RangeInclusive<usize>,
) -> Vec<G::State> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut found = Vec::new();
    let mut choices = ChoiceList::new();
    let mut outcomes = OutcomeList::new();
    let mut tries = 0;
    while found.len() < count {
        tries += 1;
        assert!(tries < 100 * count + 100, "too few unfinished games");
        let mut state = start.clone();
        let turns = rng.random_range(turns.clone());
        let mut started = 0;
        while started < turns {
            match game.kind(&state) {
                StateKind::End(_) => break,
                StateKind::Chance => {
                    game.outcomes(&state, &mut outcomes);
                    state = game.after_outcome(&state, &pick(&outcomes, &mut rng));
                }
                StateKind::Decision => {
                    game.choices(&state, &mut choices);
                    state = game.after_choice(&state, choices[rng.random_range(0..choices.len())]);
                }
            }
            started += usize::from(game.starts_turn(&state));
        }
        if matches!(game.kind(&state), StateKind::End(_)) {
            continue;
        }
        if let Some(rolled) = rolled(game, &state, &mut rng) {
            found.push(rolled);
        }
        found.push(state);
    }
    found.truncate(count);
    found
}

/// The state after the roll that follows `state` (a turn's start), drawn by weight: through the
/// choice to roll where the turn starts with a decision; `None` where the player may not roll.
#[allow(dead_code)] // Each test crate that includes this module uses what it needs.
pub fn rolled<G: GameStates>(game: &G, state: &G::State, rng: &mut StdRng) -> Option<G::State> {
    let mut at = state.clone();
    if game.kind(&at) == StateKind::Decision {
        let mut choices = ChoiceList::new();
        game.choices(&at, &mut choices);
        let rolling = choices
            .iter()
            .map(|&c| game.after_choice(&at, c))
            .find(|s| !game.starts_turn(s) && game.kind(s) == StateKind::Chance)?;
        at = rolling;
    }
    let mut outcomes = OutcomeList::new();
    game.outcomes(&at, &mut outcomes);
    (!outcomes.is_empty()).then(|| game.after_outcome(&at, &pick(&outcomes, rng)))
}

fn pick(outcomes: &OutcomeList, rng: &mut StdRng) -> Roll {
    let total: u32 = outcomes.iter().map(|o| o.weight).sum();
    alea_engine::rules::dice::pick_by_weight(outcomes, u64::from(rng.random_range(0..total))).expect("a roll")
}
