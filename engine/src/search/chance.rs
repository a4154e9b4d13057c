//! The arithmetic of chance nodes (the tree's rolls, the one-move horizon's). Outcomes that
//! allow the same turns are one group (their weights added); the node's value is the weighted
//! mean of the groups' values, computed in integers so it is the same whatever order the groups
//! are searched in.
//!
//! Pruning (Ballard 1983; Hauk, Buro and Schaeffer 2006): with every value within
//! `[-WIN, WIN]`, the groups searched so far bound the mean, which gives each next group a
//! window; a group's result outside its window decides the node (Star1). Star2 first probes one
//! turn of each group: a turn's value is a lower bound on its group's, and enough lower bounds
//! cut the node off before any group is searched in full.

use super::{HorizonWorker, INF, WIN, ceil_div, floor_div};
use crate::eval::Evaluator;
use crate::rules::Rules;
use crate::rules::states::OutcomeGroup;

impl<R: Rules, E: Evaluator<R>> HorizonWorker<'_, R, E> {
    /// The weighted mean of the groups' values under Star1 windows; `value_of(worker, group,
    /// alpha, beta)` searches one group. Shared by the main search and the horizon.
    pub(crate) fn expected_value(
        &mut self,
        groups: &[OutcomeGroup],
        lower_bounds: &[i32],
        total: u32,
        alpha: i32,
        beta: i32,
        mut value_of: impl FnMut(&mut Self, usize, i32, i32) -> i32,
    ) -> i32 {
        star1_mean(groups, lower_bounds, total, alpha, beta, |g, a, b| {
            let v = value_of(self, g, a, b);
            (!self.aborted).then_some(v)
        })
        .unwrap_or(0)
    }
}

/// The weighted mean of the groups' values under Star1 windows (Ballard): with every value within
/// `[-WIN, WIN]`, the groups done and the bounds of the rest give each next group the window that
/// would decide the node. `value_of(group, alpha, beta)` searches one group; `None` (a stopped
/// search) stops the mean too. `lower_bounds` are known lower bounds of each group (`-WIN` where
/// nothing is known).
pub(crate) fn star1_mean(
    groups: &[OutcomeGroup],
    lower_bounds: &[i32],
    total: u32,
    alpha: i32,
    beta: i32,
    mut value_of: impl FnMut(usize, i32, i32) -> Option<i32>,
) -> Option<i32> {
    let total = i64::from(total);
    let upper = i64::from(WIN);
    // Sum of weight × value over the groups done; weights and lower bounds of the rest.
    let mut done = 0i64;
    let mut rest_lower: i64 = groups.iter().zip(lower_bounds).map(|(g, &lb)| i64::from(g.weight) * i64::from(lb)).sum();
    let mut rest_weight: i64 = total;
    let alpha_scaled = (i64::from(alpha) + 1) * total - 1;
    let beta_scaled = i64::from(beta) * total;
    for (g, group) in groups.iter().enumerate() {
        let w = i64::from(group.weight);
        rest_weight -= w;
        rest_lower -= w * i64::from(lower_bounds[g]);
        let rest_upper = rest_weight * upper;
        // The node fails high if this group reaches `child_beta`, low if it stays at or under
        // `child_alpha`.
        let child_beta = ceil_div(beta_scaled - done - rest_lower, w);
        let child_alpha = floor_div(alpha_scaled - done - rest_upper, w);
        if child_alpha >= upper {
            return Some(floor_div(done + w * upper + rest_upper, total) as i32);
        }
        if child_beta <= -upper {
            return Some(floor_div(done - w * upper + rest_lower, total) as i32);
        }
        let a = child_alpha.max(-i64::from(INF)) as i32;
        let b = child_beta.min(i64::from(INF)) as i32;
        let v = value_of(g, a, b)?;
        let v64 = i64::from(v);
        if v >= b && b < INF {
            return Some(floor_div(done + w * v64 + rest_lower, total) as i32);
        }
        if v <= a && a > -INF {
            return Some(floor_div(done + w * v64 + rest_upper, total) as i32);
        }
        done += w * v64;
    }
    Some(floor_div(done, total) as i32)
}

/// ChanceProbCut's test: `sum` is the weighted sum (the weights totalling `total`) of a roll's
/// outcome values from a shallower search. Where their mean plus `margin` stays at or under
/// `alpha`, or less `margin` reaches `beta`, the roll is taken to fail there, and that
/// bound is its value (fail-soft); `None` otherwise.
pub(crate) fn probcut_bound(sum: i64, total: u32, margin: i32, alpha: i32, beta: i32) -> Option<i32> {
    let total = i64::from(total);
    let margin = i64::from(margin) * total;
    let clamp = |scaled: i64| (floor_div(scaled, total) as i32).clamp(-WIN, WIN);
    if sum + margin <= i64::from(alpha) * total {
        Some(clamp(sum + margin))
    } else if sum - margin >= i64::from(beta) * total {
        Some(clamp(sum - margin))
    } else {
        None
    }
}

/// Star2's probing phase: one turn of each group searched with a null window at what the group
/// must reach for the node to fail high if the groups not yet probed reach `beta`
/// (`probe_of(group, t)` searches with the window `(t - 1, t)`; `None` is a stopped search).
/// Every probe that succeeds is a lower bound on its group (written to `lower_bounds`); if all
/// succeed the node fails high without a full search and the bound is returned. The first probe
/// that fails ends the phase: the bounds found so far tighten the Star1 windows.
pub(crate) fn star2_probe(
    groups: &[OutcomeGroup],
    lower_bounds: &mut [i32],
    total: u32,
    beta: i32,
    mut probe_of: impl FnMut(usize, i32) -> Option<i32>,
) -> Option<i32> {
    if beta >= WIN || beta <= -WIN {
        return None;
    }
    let beta64 = i64::from(beta);
    let total64 = i64::from(total);
    // Weighted lower bounds of the groups probed so far, and the weight of those left.
    let mut probed = 0i64;
    let mut rest_weight = total64;
    for (g, group) in groups.iter().enumerate() {
        let w = i64::from(group.weight);
        rest_weight -= w;
        let threshold = ceil_div(beta64 * total64 - probed - rest_weight * beta64, w);
        if threshold > i64::from(WIN) {
            return None;
        }
        let t = threshold.max(i64::from(-WIN) + 1) as i32;
        let v = probe_of(g, t)?;
        if v < t {
            return None;
        }
        lower_bounds[g] = v;
        probed += w * i64::from(v);
    }
    Some(floor_div(probed, total64) as i32)
}

/// Star2's probing phase where a probe is exact and cheap (one turn into the horizon): one turn
/// of every group, whose value (`probe_of(group)`, searched with a full window; `None` is a
/// stopped search) is a lower bound on its group's. Where the values are spread, a group under
/// [`star2_probe`]'s threshold is made up for by others above it: if the mean of the bounds
/// reaches `beta` the node fails high with it; else the bounds, all of them known, narrow every
/// Star1 window.
pub(crate) fn star2_probe_lines(
    groups: &[OutcomeGroup],
    lower_bounds: &mut [i32],
    total: u32,
    beta: i32,
    mut probe_of: impl FnMut(usize) -> Option<i32>,
) -> Option<i32> {
    if beta >= WIN {
        return None;
    }
    let mut probed = 0i64;
    for (g, group) in groups.iter().enumerate() {
        let v = probe_of(g)?;
        lower_bounds[g] = v;
        probed += i64::from(group.weight) * i64::from(v);
    }
    let total = i64::from(total);
    (probed >= i64::from(beta) * total).then(|| floor_div(probed, total) as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Groups of these weights, heaviest first as the search orders them.
    fn groups(weights: &[u32]) -> Vec<OutcomeGroup> {
        weights
            .iter()
            .enumerate()
            .map(|(i, &w)| OutcomeGroup { representative: i, members: 1 << i, weight: w })
            .collect()
    }

    /// A hand-made chance node whose children have fixed values: a child searched with a window
    /// answers fail-soft, as a search would (its exact value, which is within any bound it gives).
    fn mean_of(values: &[i32], weights: &[u32], alpha: i32, beta: i32) -> (i32, Vec<usize>) {
        let g = groups(weights);
        let total = weights.iter().sum();
        let lower = vec![-WIN; g.len()];
        let mut searched = Vec::new();
        let v = star1_mean(&g, &lower, total, alpha, beta, |i, _, _| {
            searched.push(i);
            Some(values[i])
        })
        .unwrap();
        (v, searched)
    }

    #[test]
    fn probcut_cuts_a_roll_only_beyond_the_margin_and_answers_the_bound_past_the_window() {
        // Groups of weights 4 and 2 at 100 and -20: the mean is 360 / 6 = 60.
        let (sum, total) = (4 * 100 + 2 * -20, 6);
        // Within the margin of the window on either side: searched.
        assert_eq!(probcut_bound(sum, total, 50, 10, 200), None);
        assert_eq!(probcut_bound(sum, total, 50, 0, 110), None);
        // The mean plus the margin at alpha or under: fails low with that bound.
        assert_eq!(probcut_bound(sum, total, 50, 110, 300), Some(110));
        assert_eq!(probcut_bound(sum, total, 50, 200, 300), Some(110));
        // The mean less the margin at beta or over: fails high with that bound.
        assert_eq!(probcut_bound(sum, total, 50, -100, 10), Some(10));
        assert_eq!(probcut_bound(sum, total, 50, -100, -5), Some(10));
        // A mean that is not whole (7 / 2 = 3.5) is compared whole: 13.5 is over 13, at 14 it
        // cuts, and the bound rounds down as a searched mean does.
        assert_eq!(probcut_bound(7, 2, 10, 13, 100), None);
        assert_eq!(probcut_bound(7, 2, 10, 14, 100), Some(13));
        // The bound stays a score: never past a proven win or loss.
        assert_eq!(probcut_bound(i64::from(WIN) * 6, 6, 50, -INF, WIN - 60), Some(WIN - 50));
        assert_eq!(probcut_bound(-i64::from(WIN) * 6, 6, 50, -WIN + 60, INF), Some(-WIN + 50));
    }

    #[test]
    fn star1_with_a_full_window_is_the_weighted_mean_rounded_down() {
        // (3·100 + 2·(-50) + 1·7) / 6 = 207 / 6 = 34.5 → 34; a negative mean rounds down too.
        assert_eq!(mean_of(&[100, -50, 7], &[3, 2, 1], -INF, INF), (34, vec![0, 1, 2]));
        assert_eq!(mean_of(&[-100, 50, -7], &[3, 2, 1], -INF, INF).0, -35);
        // Integer weights: the order of the groups does not change the mean.
        assert_eq!(mean_of(&[7, -50, 100], &[1, 2, 3], -INF, INF).0, 34);
    }

    #[test]
    fn star1_stops_once_the_node_is_decided() {
        // Two equal outcomes; the first at WIN already bounds the mean from below by
        // (WIN - WIN) / 2 = 0, so beta = 0 fails high without the second.
        let (v, searched) = mean_of(&[WIN, 123], &[1, 1], -10, 0);
        assert_eq!(searched, vec![0]);
        assert!(v >= 0, "{v}");
        // The first at -WIN bounds the mean from above by 0: alpha = 0 fails low alone.
        let (v, searched) = mean_of(&[-WIN, 123], &[1, 1], 0, 10);
        assert_eq!(searched, vec![0]);
        assert!(v <= 0, "{v}");
        // Inside the window every outcome is needed and the value is exact.
        assert_eq!(mean_of(&[10, 20], &[1, 1], 0, 30), (15, vec![0, 1]));
    }

    #[test]
    fn star1_windows_bound_the_true_mean() {
        // Whatever the window, a fail-high is at most the true mean's lower side and a fail-low
        // at least its upper side: the value is a correct bound.
        let values = [300, -200, 50, 0, -400, 120];
        let weights = [6, 6, 3, 3, 1, 1];
        let (exact, _) = mean_of(&values, &weights, -INF, INF);
        for alpha in (-500..=500).step_by(50) {
            for beta in (alpha + 1..=alpha + 300).step_by(60) {
                let (v, _) = mean_of(&values, &weights, alpha, beta);
                if v >= beta {
                    assert!(exact >= beta, "fail high {v} but exact {exact} in ({alpha}, {beta})");
                } else if v <= alpha {
                    assert!(exact <= alpha, "fail low {v} but exact {exact} in ({alpha}, {beta})");
                } else {
                    assert_eq!(v, exact, "inside ({alpha}, {beta})");
                }
            }
        }
    }

    #[test]
    fn star2_probes_cut_when_every_outcome_reaches_its_threshold() {
        let g = groups(&[1, 1]);
        // Probes find lower bounds 60 and 80: the mean is at least 70 >= beta = 50.
        let mut lower = vec![-WIN; 2];
        let mut thresholds = Vec::new();
        let v = star2_probe(&g, &mut lower, 2, 50, |i, t| {
            thresholds.push(t);
            Some([60, 80][i])
        });
        assert_eq!(v, Some(70));
        assert_eq!(lower, vec![60, 80]);
        // The first must reach 50 if the second reaches beta; after a 60 the second needs 40.
        assert_eq!(thresholds, vec![50, 40]);
        // A probe under its threshold ends the phase; the bounds found so far are kept.
        let mut lower = vec![-WIN; 2];
        let v = star2_probe(&g, &mut lower, 2, 50, |i, _| Some([60, 30][i]));
        assert_eq!(v, None);
        assert_eq!(lower, vec![60, -WIN]);
        // No probing at a window at the edge of the scores.
        assert_eq!(star2_probe(&g, &mut [-WIN; 2], 2, WIN, |_, _| Some(0)), None);
    }

    #[test]
    fn star2_probe_lines_cut_on_the_mean_of_every_bound() {
        let g = groups(&[2, 1, 1]);
        // The heaviest misses the threshold probes would set it (50), but the mean of all three
        // bounds, (2·30 + 100 + 70) / 4 = 57, still reaches beta = 50.
        let mut lower = vec![-WIN; 3];
        assert_eq!(star2_probe(&g, &mut lower.clone(), 4, 50, |i, _| Some([30, 100, 70][i])), None);
        assert_eq!(star2_probe_lines(&g, &mut lower, 4, 50, |i| Some([30, 100, 70][i])), Some(57));
        assert_eq!(lower, vec![30, 100, 70]);
        // Under beta: no cut, and every bound is kept for the Star1 windows.
        let mut lower = vec![-WIN; 3];
        assert_eq!(star2_probe_lines(&g, &mut lower, 4, 60, |i| Some([30, 100, 70][i])), None);
        assert_eq!(lower, vec![30, 100, 70]);
        // Those bounds make Star1 exact as before: the true values are at least the bounds.
        let values = [45, 100, 70];
        let v = star1_mean(&g, &lower, 4, -INF, 60, |i, _, _| Some(values[i])).unwrap();
        assert_eq!(v, 65);
        // A stopped search stops the probes.
        assert_eq!(star2_probe_lines(&g, &mut [-WIN; 3], 4, 50, |_| None), None);
    }
}
