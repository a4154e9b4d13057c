//! `expectimax2`: the baseline our strength in the multi-move variants is measured against, as
//! the best public dicechess engine is documented to play. After the roll it scores every allowed
//! turn by material, keeps the 8 best, and for each of them takes the expectation over the
//! opponent's outcomes of the opponent's best reply turn by material; the turn with the best
//! expectation is played. No deeper search, no table, no positional terms.

use crate::board::micro_board::{MicroBoard, MicroMove};
use crate::board::piece::{Color, Role};
use crate::board::values::PieceValues;
use crate::rules::micro::{MicroPosition, MicroRules, PlanCache, PositionOf, TurnOf, after_step, for_each_turn};
use std::collections::HashMap;

/// Root turns expanded to the opponent's replies.
pub const ROOT_CANDIDATES: usize = 8;

/// Material values of the baseline (the rules documents' 1/3/3/5/9).
const VALUES: PieceValues = PieceValues([100, 300, 300, 500, 900, 0]);

/// A captured king: more than any material.
pub const KING_TAKEN: i32 = 100_000;

/// Material for `color`, or the king-capture score when a king is gone.
fn material<B: MicroBoard>(pos: &MicroPosition<B>, color: Color) -> i32 {
    let board = &pos.board;
    if !board.has_king(!color) {
        return KING_TAKEN;
    }
    if !board.has_king(color) {
        return -KING_TAKEN;
    }
    Role::ALL.into_iter().map(|r| VALUES.of(r) * (board.piece_count(color, r) - board.piece_count(!color, r))).sum()
}

/// Every allowed turn from `pos` (a turn in progress) with the position it ends in.
fn turns<R: MicroRules>(rules: &R, pos: &PositionOf<R>, cache: &mut PlanCache) -> Vec<(TurnOf<R>, PositionOf<R>)> {
    let mut out = Vec::new();
    for_each_turn(rules, pos, cache, &mut |turn, end| out.push((*turn, end.clone())));
    out
}

/// The baseline's turn from `pos` (after the roll: a turn in progress) and its expected material
/// score for the mover in centipawns. Ties go to the turn found first in the rules' order.
pub fn expectimax2<R: MicroRules>(rules: &R, pos: &PositionOf<R>) -> (TurnOf<R>, i32) {
    let us = pos.turn();
    let mut cache = PlanCache::default();
    let mut ours = turns(rules, pos, &mut cache);
    // The 8 best by material after the turn (a stable sort keeps the rules' order among equals).
    ours.sort_by_key(|(_, end)| std::cmp::Reverse(material(end, us)));
    ours.truncate(ROOT_CANDIDATES);
    let mut best: Option<(TurnOf<R>, i32)> = None;
    for (turn, end) in &ours {
        let value = if rules.end(end).is_some() {
            material(end, us)
        } else {
            let outcomes = rules.outcomes(end);
            let total: i64 = outcomes.iter().map(|o| i64::from(o.weight)).sum();
            let sum: i64 = outcomes
                .iter()
                .map(|o| {
                    let replies = turns(rules, &rules.rolled(end, &o.roll), &mut cache);
                    let worst = replies.iter().map(|(_, after)| material(after, us)).min().expect("a reply or a pass");
                    i64::from(o.weight) * i64::from(worst)
                })
                .sum();
            sum.div_euclid(total.max(1)) as i32
        };
        if best.is_none_or(|(_, v)| value > v) {
            best = Some((*turn, value));
        }
    }
    best.expect("a turn or a pass")
}

/// The `greedy` baseline's turn from `pos` (a turn in progress): the one that wins the most
/// material at once by `values` (a king taken counts [`KING_TAKEN`]), the first in the order of
/// the turns' text among equals; and its gain. Searched over the turn's positions, each once, so
/// that a roll of millions of turns costs thousands of positions.
pub fn greedy<R: MicroRules>(rules: &R, pos: &PositionOf<R>, values: &PieceValues) -> (TurnOf<R>, i32) {
    fn best<R: MicroRules>(
        rules: &R,
        pos: &PositionOf<R>,
        values: &PieceValues,
        cache: &mut PlanCache,
        memo: &mut HashMap<u64, (i32, TurnOf<R>)>,
    ) -> (i32, TurnOf<R>) {
        if let Some(&known) = memo.get(&pos.hash()) {
            return known;
        }
        let steps = crate::rules::micro::sorted_steps(rules, pos, cache);
        let mut found: Option<(i32, TurnOf<R>)> = None;
        for step in steps {
            let (mut gain, mut rest) = (0, TurnOf::<R>::PASS);
            if !step.is_stop() {
                gain = micro_gain(pos, step.mv, values);
                if !step.ends_turn {
                    (gain, rest) = {
                        let (g, r) = best(rules, &after_step(rules, pos, step), values, cache, memo);
                        (gain + g, r)
                    };
                }
            }
            if found.is_none_or(|(g, _)| gain > g) {
                let mut turn = TurnOf::<R>::PASS;
                if !step.is_stop() {
                    turn.push(step.mv);
                }
                for &m in rest.moves() {
                    turn.push(m);
                }
                found = Some((gain, turn));
            }
        }
        let known = found.unwrap_or((0, TurnOf::<R>::PASS));
        memo.insert(pos.hash(), known);
        known
    }
    let (gain, turn) = best(rules, pos, values, &mut PlanCache::default(), &mut HashMap::new());
    (turn, gain)
}

/// What one micro-move wins at once: its victim (a king [`KING_TAKEN`]) and its promotion.
pub fn micro_gain<B: MicroBoard>(pos: &MicroPosition<B>, m: B::Move, values: &PieceValues) -> i32 {
    let board = &pos.board;
    let promotion = m.promotion_role().map_or(0, |r| values.of(r) - values.of(Role::Pawn));
    match board.captured_role(m) {
        Some(Role::King) => KING_TAKEN + promotion,
        Some(r) => values.of(r) + promotion,
        None => promotion,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{DiceChess3, Roll};

    fn rolled(dfen: &str, faces: &[u8]) -> MicroPosition {
        DiceChess3.rolled(&DiceChess3.parse_dfen(dfen).unwrap(), &Roll::new(faces).unwrap())
    }

    #[test]
    fn takes_the_king_when_it_can() {
        let (turn, score) = expectimax2(&DiceChess3, &rolled("4k3/8/8/8/8/8/8/K3R3 w - - 0 1", &[1, 4, 6]));
        assert_eq!(turn.to_uci(false), "e1e8");
        assert_eq!(score, KING_TAKEN);
    }

    #[test]
    fn takes_a_free_queen_and_weighs_the_replies() {
        // One rook die: the rook takes the undefended queen (the king is out of its reach), and
        // Black's replies cannot win material back.
        let pos = rolled("k7/pp6/8/3q4/8/8/8/3RK3 w - - 0 1", &[4, 2, 2]);
        let (turn, score) = expectimax2(&DiceChess3, &pos);
        assert_eq!(turn.to_uci(false), "d1d5");
        assert_eq!(score, 500 - 200);
        let mut allowed = Vec::new();
        for_each_turn(&DiceChess3, &pos, &mut PlanCache::default(), &mut |t, _| allowed.push(*t));
        assert!(allowed.contains(&turn));
    }

    #[test]
    fn leaves_a_defended_pawn_when_the_recapture_is_likely() {
        // Qxd5 wins a pawn, but c6xd5 follows whenever Black rolls a pawn (91 of 216): an
        // expected 100 - 91 * 900 / 216 < 0, so a quiet queen move is better.
        let pos = rolled("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", &[5, 2, 2]);
        let (turn, score) = expectimax2(&DiceChess3, &pos);
        assert_ne!(turn.to_uci(false), "d1d5");
        assert!(score > 100 - 91 * 900 / 216, "{score}");
    }

    #[test]
    fn a_roll_that_allows_nothing_passes() {
        let (turn, _) =
            expectimax2(&DiceChess3, &rolled("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &[4, 4, 6]));
        assert!(turn.is_pass());
    }
}
