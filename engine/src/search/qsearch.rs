//! The horizon: a quiescence search that knows captures depend on the dice.
//!
//! At a leaf the side to move may still roll a capture, and the opponent's answer depends on the
//! opponent's roll. So the horizon is a small expectiminimax of its own: before the roll, the
//! Freedom captures (and, in check, every Freedom answer); then, for each group of outcomes, the
//! better of standing pat and the captures that group allows, weighted by the group's
//! probability. A piece attacked by a knight is lost only as often as the dice allow the knight.
//! Standing pat assumes a harmless quiet turn exists, so it is not allowed in check. Only
//! captures that do not lose material by static exchange are followed (Freedom's free
//! recaptures make the exchange real; elsewhere it is a cautious guess).

use super::{
    ChancePruning, ChildBounds, HorizonWorker, INF, MAX_PLY, QSEARCH_TURNS, Root, SearchInput, SearchOptions, Shared,
    WIN, end_score, known_value, table_and_groups,
};
use crate::eval::Evaluator;
use crate::rules::{Rules, TurnList, TurnTable};
use arrayvec::ArrayVec;

impl<R: Rules, E: Evaluator<R>> HorizonWorker<'_, R, E> {
    /// The horizon value of `pos` (not a finished game) for the side to move.
    pub(crate) fn qsearch(&mut self, pos: &R::Position, alpha: i32, beta: i32, ply: usize, turns: u32) -> i32 {
        if turns >= QSEARCH_TURNS || ply >= MAX_PLY {
            return self.equity.of(self.eval.evaluate(self.rules, pos));
        }
        // The table's entry loads while the position is evaluated: the probe below waited for
        // memory more than any other instruction of the search.
        let key = horizon_key(self.rules.hash(pos), turns);
        self.tt_prefetch(key);
        let stand = self.equity.of(self.eval.evaluate(self.rules, pos));
        let in_check = self.rules.in_check(pos);
        if !in_check && stand < beta {
            // A mate the dice cannot stop is the best there is: nothing else needs a look.
            if let Some(t) = self.rules.winning_free_turn(pos) {
                return self.qchild(pos, t, alpha, beta, ply, turns);
            }
        }
        if !in_check && (stand >= beta || self.eval.surely_quiet(pos)) {
            // With no capture to roll for, every outcome stands pat: the value is `stand`.
            return stand;
        }
        // The horizon's value depends on the position and the turns left alone, so the same
        // leaf reached by another path (another outcome's move, another order) is not searched
        // again.
        if let Some(v) = self.tt_probe(key).and_then(|hit| hit.cutoff(0, alpha, beta)) {
            return v;
        }
        let value = self.horizon_node(pos, stand, in_check, alpha, beta, ply, turns);
        self.tt_store(key, 0, value, alpha, beta, crate::search::tt::NO_TURN);
        value
    }

    /// The horizon below the stand-pat tests and the table: Freedom captures, then the roll.
    #[allow(clippy::too_many_arguments)]
    fn horizon_node(
        &mut self,
        pos: &R::Position,
        stand: i32,
        in_check: bool,
        alpha: i32,
        beta: i32,
        ply: usize,
        turns: u32,
    ) -> i32 {
        let mut table = TurnTable::new();
        let mut groups = crate::rules::states::Groups::new();
        if in_check {
            table_and_groups(self.rules, pos, &mut table, &mut groups);
        } else {
            // Standing pat stands for every quiet turn: only captures and promotions are listed.
            self.rules.tactical_table(pos, &mut table);
            crate::rules::states::group_outcomes(&table, &mut groups);
        }
        // Filled in place (not collected): a collected ArrayVec is copied whole, capacity and
        // all, which cost some 5 % of the search's time at the horizon.
        let mut children: ArrayVec<ChildBounds, { crate::board::movegen::MAX_MOVES }> = ArrayVec::new();
        children.extend(table.turns.iter().map(|_| ChildBounds::UNKNOWN));
        // The turns the horizon may look at, best first: captures and promotions, or every turn
        // in check. Whether a capture is worth following (by static exchange) is asked only of
        // those the search reaches, once each.
        let mut tactical: ArrayVec<(usize, i32), { crate::board::movegen::MAX_MOVES }> = ArrayVec::new();
        for (k, &t) in table.turns.iter().enumerate() {
            match self.eval.tactical(pos, t) {
                Some(s) => tactical.push((k, s)),
                None if in_check => tactical.push((k, i32::MIN)),
                None => {}
            }
        }
        tactical.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        let mut worth = Worth::new(in_check);

        let mut best = -INF;
        // Freedom captures (or answers to check) come first: they can only raise the value.
        let mut candidates: TurnList<R::Turn> = TurnList::new();
        candidates.extend(tactical.iter().map(|&(k, _)| table.turns[k]));
        let mut pre = TurnList::new();
        self.rules.pre_roll_among(pos, &table, &candidates, &mut pre);
        for &t in &pre {
            let slot = table.turns.iter().position(|&x| x == t);
            if !slot.is_none_or(|k| worth.follow(self.eval, pos, k, t)) {
                continue;
            }
            let a = alpha.max(best);
            let v = match slot.and_then(|k| known_value(&children[k], a, beta, best)) {
                Some(v) => v,
                None => {
                    let v = self.qchild(pos, t, a, beta, ply, turns);
                    if self.aborted {
                        return 0;
                    }
                    if let Some(k) = slot {
                        children[k].learn(v, a, beta);
                    }
                    v
                }
            };
            best = best.max(v);
            if best >= beta {
                return best;
            }
        }
        if table.outcomes.is_empty() {
            return if best > -INF { best } else { stand };
        }

        // The roll: each group is worth its best capture or standing pat.
        let floor = if in_check { -WIN } else { stand };
        let mut lower_bounds: ArrayVec<i32, { crate::rules::dice::MAX_OUTCOMES }> = ArrayVec::new();
        lower_bounds.extend(groups.iter().map(|_| floor));
        let total: u32 = groups.iter().map(|g| g.weight).sum();
        let (a, b) = match self.options.chance_pruning {
            super::ChancePruning::None => (-INF, INF),
            _ => (alpha.max(best), beta),
        };
        let chance = self.expected_value(&groups, &lower_bounds, total, a, b, |w, g, ga, gb| {
            let outcome = groups[g].representative;
            let mut group_best = if in_check { -INF } else { stand };
            for &(k, _) in tactical.iter().filter(|&&(k, _)| table.masks[k] >> outcome & 1 == 1) {
                if group_best >= gb {
                    break;
                }
                if !worth.follow(w.eval, pos, k, table.turns[k]) {
                    continue;
                }
                let ca = ga.max(group_best);
                let v = match known_value(&children[k], ca, gb, group_best) {
                    Some(v) => v,
                    None => {
                        let v = w.qchild(pos, table.turns[k], ca, gb, ply, turns);
                        if w.aborted {
                            return 0;
                        }
                        children[k].learn(v, ca, gb);
                        v
                    }
                };
                group_best = group_best.max(v);
            }
            // In check with nothing searched cannot happen: every group allows some turn.
            if group_best == -INF { -WIN } else { group_best }
        });
        if self.aborted {
            return 0;
        }
        best.max(chance)
    }

    /// The value of playing `turn` at the horizon, for the side that plays it.
    fn qchild(&mut self, pos: &R::Position, turn: R::Turn, alpha: i32, beta: i32, ply: usize, turns: u32) -> i32 {
        let child = self.rules.play(pos, turn);
        if !self.visit(ply + 1) {
            return 0;
        }
        if let Some(end) = self.rules.end(&child) {
            return -end_score(self.rules, &child, end, ply + 1);
        }
        -self.qsearch(&child, -beta, -alpha, ply + 1, turns + 1)
    }
}

/// The horizon alone, as the search scores its leaves, for a search written elsewhere (the
/// tests' plain expectiminimax) that must reach the same values with leaves of its own asking:
/// a full window, no table, plain expectimax at its rolls.
pub struct Horizon {
    shared: Shared,
    options: SearchOptions,
}

impl Horizon {
    pub fn new() -> Horizon {
        let options = SearchOptions { chance_pruning: ChancePruning::None, use_tt: false, ..Default::default() };
        Horizon { shared: Shared::new(1), options }
    }

    /// The horizon's value of `pos` (a game not over) for its side to move, `ply` turns from
    /// the root, as an equity ([`super::equity`]).
    pub fn value<R: Rules, E: Evaluator<R>>(&self, rules: &R, eval: &E, pos: &R::Position, ply: usize) -> i32 {
        let input = SearchInput {
            rules,
            eval,
            position: pos,
            root: Root::PreRoll,
            history: &[],
            limits: crate::search::timeman::Limits::default(),
            options: self.options.clone(),
        };
        let budget = crate::search::timeman::TimeBudget::new(&input.limits);
        HorizonWorker::new(&input, &self.shared, budget).qsearch(pos, -INF, INF, ply, 0)
    }
}

impl Default for Horizon {
    fn default() -> Horizon {
        Horizon::new()
    }
}

/// The table key of a horizon node with `turns` turns of captures behind it.
#[inline]
fn horizon_key(hash: u64, turns: u32) -> u64 {
    hash ^ crate::board::zobrist::NODE_KIND[0].rotate_left(17 + turns)
}

/// Which of a horizon node's captures are worth following, judged when first asked (the static
/// exchange is the horizon's dearest question, and a cut-off often comes before it is needed).
struct Worth {
    /// In check every answer is followed.
    all: bool,
    /// Per turn of the table: 0 not asked yet, 1 followed, 2 not.
    known: [u8; crate::board::movegen::MAX_MOVES],
}

impl Worth {
    fn new(all: bool) -> Worth {
        Worth { all, known: [0; crate::board::movegen::MAX_MOVES] }
    }

    #[inline]
    fn follow<R: Rules, E: Evaluator<R>>(&mut self, eval: &E, pos: &R::Position, k: usize, turn: R::Turn) -> bool {
        if self.all {
            return true;
        }
        if self.known[k] == 0 {
            self.known[k] = if eval.worth_at_horizon(pos, turn) { 1 } else { 2 };
        }
        self.known[k] == 1
    }
}
