//! Decision nodes: the turn node before the roll (Freedom moves against rolling; negamax with
//! alpha-beta) and the decision after an outcome (the best allowed turn).

use super::{ChildBounds, FULL_DEPTH_QUIETS, INF, MAX_PLY, REDUCTION_DEPTH, WIN, Worker, end_score, table_and_groups};
use crate::eval::Evaluator;
use crate::rules::{Rules, TurnList, TurnTable};
use crate::tt::NO_TURN;
use crate::zobrist::NODE_KIND;
use arrayvec::ArrayVec;

/// Node kinds, mixed into the position's hash for the table: the turn before the roll, the
/// chance node, and the decision after outcome `i` (`DECISION_KIND + i`).
pub(crate) const TURN_KIND: usize = 0;
pub(crate) const CHANCE_KIND: usize = 1;
const DECISION_KIND: usize = 2;

#[inline]
fn decision_key(hash: u64, outcome: usize) -> u64 {
    let slots = NODE_KIND.len() - DECISION_KIND;
    hash ^ NODE_KIND[DECISION_KIND + outcome % slots].rotate_left((outcome / slots) as u32)
}

impl<R: Rules, E: Evaluator<R>> Worker<'_, R, E> {
    /// The value of `pos` for the side to move, before the roll, `depth` turns deep.
    pub(crate) fn turn_node(&mut self, pos: &R::Position, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        if !self.visit(ply) {
            return 0;
        }
        let hash = self.rules.hash(pos);
        if ply > 0 && self.is_threefold(hash, self.rules.reversible_plies(pos)) {
            return 0;
        }
        if let Some(end) = self.rules.end(pos) {
            return end_score(self.rules, pos, end, ply);
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        self.path.push(hash);
        let value = self.turn_node_inner(pos, hash, depth, alpha, beta, ply);
        self.path.pop();
        value
    }

    fn turn_node_inner(&mut self, pos: &R::Position, hash: u64, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        let mut table = TurnTable::new();
        let mut groups = super::chance::Groups::new();
        table_and_groups(self.rules, pos, &mut table, &mut groups);
        let mut children: ArrayVec<ChildBounds, { crate::movegen::MAX_MOVES }> =
            table.turns.iter().map(|_| ChildBounds::UNKNOWN).collect();
        self.mark_reductions(pos, &table, &groups, &mut children, depth);
        let mut pre = TurnList::new();
        self.rules.pre_roll_from_table(pos, &table, &mut pre);
        if pre.is_empty() {
            return self.chance_node(pos, hash, &table, &groups, &mut children, depth, alpha, beta, ply);
        }

        // Options: the Freedom moves (index i) and rolling (index pre.len()).
        let key = hash ^ NODE_KIND[TURN_KIND];
        let mut tt_best = NO_TURN;
        if let Some(hit) = self.tt_probe(key) {
            if let Some(v) = hit.cutoff(depth, alpha, beta) {
                return v;
            }
            tt_best = hit.best;
        }
        let roll = pre.len();
        let mut order: ArrayVec<(usize, i32), { crate::movegen::MAX_MOVES }> = ArrayVec::new();
        for (i, &t) in pre.iter().enumerate() {
            let score = self.ordering.score::<R, E>(self.eval, pos, t, usize::from(tt_best) == i, ply);
            order.push((i, score));
        }
        // Rolling goes after the TT move and the captures, before the quiet Freedom moves; a
        // player who may not roll (Vegas, in check or after giving check) has the turns alone.
        if !table.outcomes.is_empty() {
            let roll_score = if usize::from(tt_best) == roll { i32::MAX } else { 1 << 23 };
            order.push((roll, roll_score));
        }
        order.sort_by_key(|&(_, s)| std::cmp::Reverse(s));

        let mut best = -INF;
        let mut best_index = NO_TURN;
        for &(i, _) in &order {
            let a = alpha.max(best);
            let v = if i == roll {
                self.chance_node(pos, hash, &table, &groups, &mut children, depth, a, beta, ply)
            } else {
                let turn = pre[i];
                let slot = table.turns.iter().position(|&t| t == turn);
                if let Some(k) = slot
                    && let Some(v) = known_value(&children[k], a, beta, best)
                {
                    v
                } else {
                    let child = self.rules.play(pos, turn);
                    let v = -self.turn_node(&child, self.child_depth(&child, depth, false, ply), -beta, -a, ply + 1);
                    if let Some(k) = slot
                        && !self.aborted
                    {
                        children[k].learn(v, a, beta);
                    }
                    v
                }
            };
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_index = i as u16;
            }
            if best >= beta {
                break;
            }
        }
        self.tt_store(key, depth, best, alpha, beta, best_index);
        best
    }

    /// The best turn the outcome `outcome` allows (its group's column of the table). With
    /// `probe_only`, only the first turn in order is searched: its value bounds the node's from
    /// below (Star2's probe).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn decision_node(
        &mut self,
        pos: &R::Position,
        hash: u64,
        table: &TurnTable<R::Turn>,
        children: &mut [ChildBounds],
        outcome: usize,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        probe_only: bool,
    ) -> i32 {
        if !self.visit(ply) {
            return 0;
        }
        let key = decision_key(hash, outcome);
        let mut tt_best = NO_TURN;
        if let Some(hit) = self.tt_probe(key) {
            // A stored bound answers a probe's question (is the node >= beta?) as well as a search.
            if let Some(v) = hit.cutoff(depth, alpha, beta) {
                return v;
            }
            tt_best = hit.best;
        }
        let mut order: ArrayVec<(usize, i32), { crate::movegen::MAX_MOVES }> = ArrayVec::new();
        for (k, &mask) in table.masks.iter().enumerate() {
            if mask >> outcome & 1 == 1 {
                // A turn another outcome has already shown to be good goes first, by its bound:
                // a probe then often succeeds without a search.
                let score = if children[k].lower > -WIN {
                    i32::MAX - WIN + children[k].lower
                } else {
                    self.ordering.score::<R, E>(self.eval, pos, table.turns[k], usize::from(tt_best) == k, ply)
                };
                order.push((k, score));
            }
        }
        order.sort_by_key(|&(_, s)| std::cmp::Reverse(s));

        let mut best = -INF;
        let mut best_index = NO_TURN;
        for &(k, _) in &order {
            let a = alpha.max(best);
            let v = match known_value(&children[k], a, beta, best) {
                Some(v) => v,
                None => {
                    let child = self.rules.play(pos, table.turns[k]);
                    let child_depth = self.child_depth(&child, depth, children[k].reduced, ply);
                    let v = -self.turn_node(&child, child_depth, -beta, -a, ply + 1);
                    if self.aborted {
                        return 0;
                    }
                    children[k].learn(v, a, beta);
                    v
                }
            };
            if v > best {
                best = v;
                best_index = k as u16;
            }
            if best >= beta {
                if self.eval.tactical(pos, table.turns[k]).is_none() {
                    self.ordering.reward::<R, E>(self.eval, pos, table.turns[k], ply, depth);
                }
                break;
            }
            if probe_only {
                break;
            }
        }
        if !probe_only {
            self.tt_store(key, depth, best, alpha, beta, best_index);
        }
        best
    }

    /// How deep a child of a node `depth` turns deep and `ply` turns from the root is searched:
    /// a turn less, and a turn less again for a late quiet turn, except that a turn giving check
    /// loses no depth. The answers to check need no dice (nor, in Freedom, do the checks), so a
    /// line of checks is plain chess: narrow, cheap, and often decisive. Extensions stop at twice
    /// the iteration's depth in turns from the root. A property of the child and the ply alone,
    /// so every outcome allowing a turn searches its child alike.
    #[inline]
    pub(crate) fn child_depth(&self, child: &R::Position, depth: i32, reduced: bool, ply: usize) -> i32 {
        let check = self.rules.in_check(child);
        let extension = i32::from(check && (ply as i32) < 2 * self.root_depth);
        depth - 1 - i32::from(reduced && !check) + extension
    }

    /// Marks the late quiet turns of a node `depth` turns deep ([`late_quiet_turns`]), which
    /// its decisions search a turn less deep unless they give check. Not in check, not when
    /// proving a mate (every turn counts there).
    pub(crate) fn mark_reductions(
        &self,
        pos: &R::Position,
        table: &TurnTable<R::Turn>,
        groups: &[super::OutcomeGroup],
        children: &mut [ChildBounds],
        depth: i32,
    ) {
        if depth < REDUCTION_DEPTH || !self.options.reductions || self.adversarial || self.rules.in_check(pos) {
            return;
        }
        for (child, late) in children.iter_mut().zip(late_quiet_turns(self.eval, pos, table, groups)) {
            child.reduced = late;
        }
    }

    /// The best turn of outcome `outcome` from the children's bounds, after an exact search of its
    /// decision node: the first turn whose child is known to equal `value`.
    pub(crate) fn best_of_outcome(
        &self,
        table: &TurnTable<R::Turn>,
        children: &[ChildBounds],
        outcome: usize,
        value: i32,
    ) -> Option<R::Turn> {
        table
            .turns
            .iter()
            .zip(&table.masks)
            .zip(children)
            .find(|&((_, &m), c)| m >> outcome & 1 == 1 && c.lower == value && c.upper == value)
            .map(|((&t, _), _)| t)
    }
}

/// Late move reductions that depend neither on the window nor on what the search has seen: a
/// quiet turn is late when, for every outcome allowing it, `FULL_DEPTH_QUIETS` quiet turns of
/// that outcome come before it by the evaluation's static key ([`Evaluator::quiet_gain`]; ties
/// in table order). Being a property of the position and the turn alone, the reduced tree is one
/// tree whatever the chance pruning, the window or the order of search, so the pruning stays
/// exact on it; and a turn's depth is the same for every outcome that shares its child.
pub(crate) fn late_quiet_turns<R: Rules, E: Evaluator<R>>(
    eval: &E,
    pos: &R::Position,
    table: &TurnTable<R::Turn>,
    groups: &[super::OutcomeGroup],
) -> ArrayVec<bool, { crate::movegen::MAX_MOVES }> {
    let mut late: ArrayVec<bool, { crate::movegen::MAX_MOVES }> = table.turns.iter().map(|_| false).collect();
    let mut quiet: ArrayVec<(usize, i32), { crate::movegen::MAX_MOVES }> = ArrayVec::new();
    for (k, &t) in table.turns.iter().enumerate() {
        if eval.tactical(pos, t).is_none() {
            quiet.push((k, eval.quiet_gain(pos, t)));
            late[k] = true;
        }
    }
    quiet.sort_by_key(|&(k, g)| (std::cmp::Reverse(g), k));
    for g in groups {
        let outcome = g.representative;
        for &(k, _) in quiet.iter().filter(|&&(k, _)| table.masks[k] >> outcome & 1 == 1).take(FULL_DEPTH_QUIETS) {
            late[k] = false;
        }
    }
    late
}

/// A child's value from what is already known, where that is enough for a window `(alpha,
/// beta)` and the best so far: `None` means search it.
#[inline]
pub(crate) fn known_value(bounds: &ChildBounds, alpha: i32, beta: i32, best: i32) -> Option<i32> {
    if bounds.lower == bounds.upper {
        return Some(bounds.lower);
    }
    if bounds.upper <= best || bounds.upper <= alpha {
        // It cannot raise the best: report its bound, which stays under the window.
        return Some(bounds.upper);
    }
    if bounds.lower >= beta {
        return Some(bounds.lower);
    }
    if bounds.lower >= WIN {
        return Some(WIN);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::StaticEval;
    use crate::rules::{Position, Variant, VariantKind};

    /// Captures are never late; each outcome keeps its best quiet turns by the static key; and
    /// the rest are late.
    #[test]
    fn late_quiet_turns_keep_captures_and_each_outcomes_best() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 8",
        ];
        for kind in [VariantKind::Freedom, VariantKind::Classic, VariantKind::BrainKing] {
            let rules = Variant::new(kind, false);
            let eval = StaticEval::default_for(kind);
            for fen in fens {
                let pos = Position::new(crate::Board::from_fen(fen).unwrap());
                let mut table = TurnTable::new();
                let mut groups = crate::search::Groups::new();
                table_and_groups(&rules, &pos, &mut table, &mut groups);
                let late = late_quiet_turns::<Variant, _>(&eval, &pos, &table, &groups);
                let mut any_late = false;
                for (k, &t) in table.turns.iter().enumerate() {
                    let quiet = Evaluator::<Variant>::tactical(&eval, &pos, t).is_none();
                    assert!(quiet || !late[k], "{kind:?}: capture {t:?} marked late");
                    any_late |= late[k];
                }
                assert!(any_late, "{kind:?} {fen}: nothing late");
                for g in &groups {
                    let o = g.representative;
                    let mut quiet: Vec<(i32, usize)> = (0..table.turns.len())
                        .filter(|&k| table.masks[k] >> o & 1 == 1)
                        .filter(|&k| Evaluator::<Variant>::tactical(&eval, &pos, table.turns[k]).is_none())
                        .map(|k| (Evaluator::<Variant>::quiet_gain(&eval, &pos, table.turns[k]), k))
                        .collect();
                    quiet.sort_by_key(|&(gain, k)| (std::cmp::Reverse(gain), k));
                    for (i, &(_, k)) in quiet.iter().enumerate() {
                        if i < FULL_DEPTH_QUIETS {
                            assert!(!late[k], "{kind:?}: outcome {o}'s quiet turn {i} is late");
                        }
                    }
                }
            }
        }
    }
}
