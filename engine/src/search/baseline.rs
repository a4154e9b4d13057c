//! The baselines our strength in the multi-move variants is measured against, as the best public
//! dicechess engine plays or is documented to play:
//!
//! - `expectimax2`, its first published design: after the roll it scores every allowed turn by
//!   material, keeps the 8 best, and for each of them takes the expectation over the opponent's
//!   outcomes of the opponent's best reply turn by material; the turn with the best expectation
//!   is played. No deeper search, no table, no positional terms.
//! - `peer`, its strongest bot today as its public code documents it: the same two turns, but its
//!   24 best turns ranked by its hand-written evaluation ([`crate::eval::aggressive`]) and the
//!   leaves scored by it, identical leaves once; a reply that takes its king is a loss. It stops
//!   between candidates when its time is up, playing the best it finished (the top-ranked turn
//!   if none).
//! - `aggressive`, that evaluation one turn deep: the turn whose position it scores best.
//! - `greedy`: the most material at once.

use crate::board::micro_board::{MicroBoard, MicroMove};
use crate::board::piece::{Color, Role};
use crate::board::values::PieceValues;
use crate::eval::aggressive;
use crate::rules::micro::{MicroPosition, MicroRules, PlanCache, PositionOf, TurnOf, after_step, for_each_turn};
use std::collections::HashMap;

/// Root turns expanded to the opponent's replies.
pub const ROOT_CANDIDATES: usize = 8;

/// Root turns the peer expands to the opponent's replies (its default today; 8 before).
pub const PEER_CANDIDATES: usize = 24;

/// Which baseline plays a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Baseline {
    Expectimax2,
    /// The peer's bot, expanding this many of its best-ranked turns.
    Peer {
        candidates: usize,
    },
    Aggressive,
}

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

/// The value of a turn that ended in `end`, two turns deep as the baselines see it: `score` of
/// `end` where the game is over there, else the expectation over the opponent's outcomes (each by
/// its weight, rounded down) of `score` after the opponent's worst reply for us.
fn two_turn_value<R: MicroRules>(
    rules: &R,
    end: &PositionOf<R>,
    cache: &mut PlanCache,
    score: &mut dyn FnMut(&PositionOf<R>) -> i32,
) -> i32 {
    if rules.end(end).is_some() {
        return score(end);
    }
    let outcomes = rules.outcomes(end);
    let total: i64 = outcomes.iter().map(|o| i64::from(o.weight)).sum();
    let mut sum = 0i64;
    for o in &outcomes {
        let mut worst = i32::MAX;
        for_each_turn(rules, &rules.rolled(end, &o.roll), cache, &mut |_, after| worst = worst.min(score(after)));
        assert!(worst < i32::MAX, "a reply or a pass");
        sum += i64::from(o.weight) * i64::from(worst);
    }
    sum.div_euclid(total.max(1)) as i32
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
        let value = two_turn_value(rules, end, &mut cache, &mut |p| material(p, us));
        if best.is_none_or(|(_, v)| value > v) {
            best = Some((*turn, value));
        }
    }
    best.expect("a turn or a pass")
}

/// The peer's score of a position for `us`: a captured king decides; else its evaluation on the
/// 8x8 board, and material on a board it has none for.
fn peer_leaf<B: MicroBoard>(pos: &MicroPosition<B>, us: Color) -> i32 {
    if !pos.board.has_king(!us) {
        return KING_TAKEN;
    }
    if !pos.board.has_king(us) {
        return -KING_TAKEN;
    }
    match pos.board.chess_board() {
        Some(board) => aggressive::evaluate(board, us),
        None => material(pos, us),
    }
}

/// A baseline's choice: the turn, its value for the mover, and how many of the candidates it
/// ranked were valued before it stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chosen<T> {
    pub turn: T,
    pub value: i32,
    pub finished: usize,
    pub candidates: usize,
}

/// The peer's turn from `pos` (after the roll: a turn in progress): every allowed turn ranked by
/// its evaluation after it, the best `candidates` valued in that order by the expectation over
/// the opponent's outcomes (each by its weight) of the opponent's best reply, scored by the same
/// evaluation (identical positions once). `stop` is asked before each candidate: once it says
/// so, the best candidate valued so far is played, or the top-ranked one if none was.
pub fn peer<R: MicroRules>(
    rules: &R,
    pos: &PositionOf<R>,
    candidates: usize,
    stop: &mut dyn FnMut() -> bool,
) -> Chosen<TurnOf<R>> {
    let us = pos.turn();
    let mut cache = PlanCache::default();
    let mut scored: HashMap<u64, i32> = HashMap::new();
    let mut leaf = |p: &PositionOf<R>| *scored.entry(p.hash()).or_insert_with(|| peer_leaf(p, us));
    let mut ours: Vec<(TurnOf<R>, PositionOf<R>, i32)> = turns(rules, pos, &mut cache)
        .into_iter()
        .map(|(t, end)| {
            let score = leaf(&end);
            (t, end, score)
        })
        .collect();
    // Best first; a stable sort keeps the rules' order among equals.
    ours.sort_by_key(|(_, _, score)| std::cmp::Reverse(*score));
    ours.truncate(candidates.max(1));
    let mut best: Option<(TurnOf<R>, i32)> = None;
    let mut finished = 0;
    for (turn, end, score) in &ours {
        if stop() {
            break;
        }
        let value = if rules.end(end).is_some() { *score } else { two_turn_value(rules, end, &mut cache, &mut leaf) };
        finished += 1;
        if best.is_none_or(|(_, v)| value > v) {
            best = Some((*turn, value));
        }
    }
    let (turn, value) = best.unwrap_or_else(|| (ours[0].0, ours[0].2));
    Chosen { turn, value, finished, candidates: ours.len() }
}

/// The `aggressive` baseline's turn from `pos` (a turn in progress): the allowed turn whose
/// position the peer's evaluation scores best, the first among equals; and that score.
pub fn aggressive_turn<R: MicroRules>(rules: &R, pos: &PositionOf<R>) -> (TurnOf<R>, i32) {
    let us = pos.turn();
    let mut best: Option<(TurnOf<R>, i32)> = None;
    for_each_turn(rules, pos, &mut PlanCache::default(), &mut |turn, end| {
        let score = peer_leaf(end, us);
        if best.is_none_or(|(_, s)| score > s) {
            best = Some((*turn, score));
        }
    });
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

    /// The peer's value of each of its candidates, recomputed here on its own: every reply of
    /// every one of the 56 outcomes scored by the evaluation, the worst kept, weighed.
    fn brute_force_value(pos: &MicroPosition, end: &MicroPosition) -> i32 {
        let us = pos.turn();
        if DiceChess3.end(end).is_some() {
            return peer_leaf(end, us);
        }
        let mut sum = 0i64;
        for o in &DiceChess3.outcomes(end) {
            let mut worst = i32::MAX;
            for_each_turn(&DiceChess3, &DiceChess3.rolled(end, &o.roll), &mut PlanCache::default(), &mut |_, after| {
                worst = worst.min(peer_leaf(after, us));
            });
            sum += i64::from(o.weight) * i64::from(worst);
        }
        sum.div_euclid(216) as i32 // rounded down, as the peer rounds
    }

    #[test]
    fn three_dice_have_56_outcomes_weighed_1_3_and_6_of_216() {
        let outcomes = DiceChess3.outcomes(&DiceChess3.startpos());
        assert_eq!(outcomes.len(), 56);
        assert_eq!(outcomes.iter().map(|o| o.weight).sum::<u32>(), 216);
        let count = |w| outcomes.iter().filter(|o| o.weight == w).count();
        assert_eq!((count(1), count(3), count(6)), (6, 30, 20));
    }

    #[test]
    fn the_peer_counts_a_reply_that_takes_its_king_as_a_loss() {
        // A lone white king, three king dice, a black rook on e5: a turn ending on the rook's
        // lines loses whenever Black rolls a rook (91 of 216).
        let pos = rolled("4k3/8/8/4r3/8/8/8/4K3 w - - 0 1", &[6, 6, 6]);
        let chosen = peer(&DiceChess3, &pos, PEER_CANDIDATES, &mut || false);
        let mut ends = Vec::new();
        for_each_turn(&DiceChess3, &pos, &mut PlanCache::default(), &mut |t, end| ends.push((*t, end.clone())));
        let (_, end) = ends.iter().find(|(t, _)| *t == chosen.turn).unwrap();
        let king = end.board.king(Color::White).unwrap();
        assert!(
            king.file() != 4 && king.rank() != 4,
            "the king stays off the rook's lines: {}",
            chosen.turn.to_uci(false)
        );
        assert_eq!(chosen.value, brute_force_value(&pos, end));
        // A turn that ends on the e-file is valued near the loss of 91 rolls in 216.
        let (_, on_file) = ends.iter().find(|(_, end)| end.board.king(Color::White).unwrap().file() == 4).unwrap();
        assert!(brute_force_value(&pos, on_file) < -KING_TAKEN * 91 / 216 + 2000);
    }

    #[test]
    fn the_peer_values_its_best_ranked_candidates_only_and_stops_between_them() {
        let pos = rolled("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3", &[1, 2, 3]);
        let us = pos.turn();
        let mut ranked = Vec::new();
        for_each_turn(&DiceChess3, &pos, &mut PlanCache::default(), &mut |t, end| {
            ranked.push((*t, end.clone(), peer_leaf(end, us)))
        });
        ranked.sort_by_key(|(_, _, score)| std::cmp::Reverse(*score));
        assert!(ranked.len() > PEER_CANDIDATES, "{} turns", ranked.len());
        // The cut: 24 candidates valued, the best of them by the brute force played.
        let chosen = peer(&DiceChess3, &pos, PEER_CANDIDATES, &mut || false);
        assert_eq!((chosen.finished, chosen.candidates), (PEER_CANDIDATES, PEER_CANDIDATES));
        let best = ranked[..PEER_CANDIDATES].iter().map(|(_, end, _)| brute_force_value(&pos, end)).max().unwrap();
        assert_eq!(chosen.value, best);
        assert!(ranked[..PEER_CANDIDATES].iter().any(|(t, _, _)| *t == chosen.turn));
        // One candidate: the top-ranked turn.
        assert_eq!(peer(&DiceChess3, &pos, 1, &mut || false).turn, ranked[0].0);
        // Out of time at once: the top-ranked turn, none valued.
        let stopped = peer(&DiceChess3, &pos, PEER_CANDIDATES, &mut || true);
        assert_eq!((stopped.turn, stopped.finished), (ranked[0].0, 0));
        // Out of time after three: the best of those three.
        let mut asked = 0;
        let three = peer(&DiceChess3, &pos, PEER_CANDIDATES, &mut || {
            asked += 1;
            asked > 3
        });
        assert_eq!(three.finished, 3);
        let best3 = ranked[..3].iter().map(|(_, end, _)| brute_force_value(&pos, end)).max().unwrap();
        assert_eq!(three.value, best3);
    }

    #[test]
    fn aggressive_plays_the_turn_its_evaluation_likes_best() {
        let pos = rolled("4k3/8/8/8/8/8/8/K3R3 w - - 0 1", &[1, 4, 6]);
        assert_eq!(aggressive_turn(&DiceChess3, &pos).1, KING_TAKEN);
    }
}
