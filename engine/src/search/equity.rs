//! Equity: what a chance node averages. The mean of the outcomes' values is the expected value
//! only where the values are linear in the game's result, and centipawns are not: the fitted
//! logistic (`1 / (1 + 10^(-K * score / 400))`, the evaluation's result scale) saturates, while a
//! win is worth [`WIN`]. Averaged raw, a 10 % chance of taking the king (400) outweighs a sure
//! bishop (300), though the bishop adds 10 % to the expected result at dicechess3's K = 0.23 and
//! the king's chance 5 %. GNU Backgammon averages equity for the same reason.
//!
//! Equity here is `WIN * (2p - 1)` for the expected result `p` of a static score: a win is
//! [`WIN`], a draw 0, a loss `-WIN`, so the search's wins, draws and windows keep their meaning,
//! and a static score never reaches the zone of proven wins. Reports turn equities back into
//! centipawns ([`Equity::to_score`]), so front ends see the same kind of number as before.

use super::{MATE_ZONE, MAX_PLY, WIN};
use std::sync::{Arc, Mutex};

/// Static scores beyond this are read as this (no evaluation reaches it).
const SCORE_LIMIT: i32 = 8000;
/// The largest equity of a static score: under the proven wins ([`MATE_ZONE`]).
pub const EQUITY_MAX: i32 = WIN - MAX_PLY as i32 - 2;

/// The map from static scores (centipawns, for the side to move) to equities and back, for one
/// result scale. A lookup table: the horizon converts a score at every leaf. Cloning shares it.
#[derive(Clone, Debug)]
pub struct Equity {
    scale: f64,
    /// `table[s]` is the equity of the score `s` for `0 <= s <= SCORE_LIMIT`; negative scores
    /// mirror it, so the equity of `-s` is exactly minus that of `s` (the search negates values
    /// between the two sides).
    table: Arc<[i32]>,
}

impl Equity {
    /// The map for result scale `scale` (the fitted K; positive). The last map built is kept and
    /// shared: every search thread wants one, and building it costs some 150 µs.
    pub fn new(scale: f64) -> Equity {
        assert!(scale > 0.0 && scale.is_finite(), "a result scale must be positive, not {scale}");
        static LAST: Mutex<Option<Equity>> = Mutex::new(None);
        let mut last = LAST.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(known) = last.as_ref().filter(|e| e.scale.to_bits() == scale.to_bits()) {
            return known.clone();
        }
        let built = Equity::build(scale);
        *last = Some(built.clone());
        built
    }

    fn build(scale: f64) -> Equity {
        let table = (0..=SCORE_LIMIT)
            .map(|s| {
                let p = expected_result(scale, f64::from(s));
                ((f64::from(WIN) * (2.0 * p - 1.0)).round() as i32).min(EQUITY_MAX)
            })
            .collect();
        Equity { scale, table }
    }

    /// The result scale the map was built for.
    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// The equity of a static score for the same side. Non-decreasing, and odd: `-s` gives minus
    /// the equity of `s`.
    #[inline]
    pub fn of(&self, score: i32) -> i32 {
        let e = self.table[score.unsigned_abs().min(SCORE_LIMIT as u32) as usize];
        if score < 0 { -e } else { e }
    }

    /// The equity of a score as results report it ([`Equity::to_score`]'s inverse, to rounding):
    /// proven wins and losses stay as they are, other scores are static-score equivalents.
    pub fn of_reported(&self, score: i32) -> i32 {
        if score.abs() >= MATE_ZONE { score } else { self.of(score) }
    }

    /// The expected result (a win 1, a draw 1/2) an equity stands for.
    pub fn expected_result_of(&self, equity: i32) -> f64 {
        ((1.0 + f64::from(equity.clamp(-WIN, WIN)) / f64::from(WIN)) / 2.0).clamp(0.0, 1.0)
    }

    /// The static score whose equity is `equity`: what a searched value is worth in centipawns.
    /// Proven wins and losses ([`MATE_ZONE`] and beyond) stay as they are.
    pub fn to_score(&self, equity: i32) -> i32 {
        if equity.abs() >= MATE_ZONE {
            return equity;
        }
        let p = (1.0 + f64::from(equity) / f64::from(WIN)) / 2.0;
        let score = 400.0 / self.scale * (p / (1.0 - p)).log10();
        (score.round() as i32).clamp(-SCORE_LIMIT, SCORE_LIMIT)
    }
}

/// The expected result of a static score: the evaluation's logistic.
fn expected_result(scale: f64, score: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-scale * score / 400.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// dicechess3's fitted scale.
    const K: f64 = 0.2299;

    #[test]
    fn a_draw_is_zero_and_the_map_is_odd_and_rising() {
        let equity = Equity::new(K);
        assert_eq!(equity.of(0), 0);
        let mut last = equity.of(-SCORE_LIMIT - 100);
        for s in -SCORE_LIMIT..=SCORE_LIMIT {
            assert_eq!(equity.of(-s), -equity.of(s), "score {s}");
            assert!(equity.of(s) >= last, "score {s}");
            last = equity.of(s);
        }
        assert!(equity.of(SCORE_LIMIT) <= EQUITY_MAX && EQUITY_MAX < MATE_ZONE);
    }

    /// By hand: K = 0.2299 gives a rook (500) an expected result of 1 / (1 + 10^-0.287375),
    /// 0.659643, so 4000 * (2 * 0.659643 - 1) = 1277.1.
    #[test]
    fn values_by_hand() {
        let equity = Equity::new(K);
        assert_eq!(equity.of(500), 1277);
        assert_eq!(equity.of(-500), -1277);
        // Near 0 a centipawn is worth WIN * K * ln 10 / 800 = 2.65 equity.
        assert_eq!(equity.of(100), 264);
    }

    /// A 10 % chance of winning at once against a sure bishop: averaged as centipawns the
    /// gamble is better (400 against 300), as equity the bishop (400 against 784).
    #[test]
    fn a_king_chance_weighs_what_it_is_worth() {
        let equity = Equity::new(K);
        let gamble = (WIN + 9 * equity.of(0)) / 10;
        assert_eq!(gamble, 400);
        assert_eq!(equity.of(300), 784);
    }

    #[test]
    fn scores_come_back_from_their_equity() {
        for scale in [K, 0.695, 0.0436] {
            let equity = Equity::new(scale);
            let mut capped = 0;
            for s in (-3000..=3000).step_by(7) {
                if equity.of(s).abs() == EQUITY_MAX {
                    // Saturated: every score beyond stands for the same expected result.
                    capped += 1;
                    continue;
                }
                let back = equity.to_score(equity.of(s));
                // One equity unit spans more centipawns where the logistic flattens.
                let unit = equity.to_score(equity.of(s) + 1) - equity.to_score(equity.of(s));
                assert!((back - s).abs() <= unit.abs() + 1, "scale {scale}: {s} came back as {back}");
            }
            // Only the steep default scale saturates within the evaluation's range (past about
            // 1026 centipawns, an expected 98.4 %).
            assert_eq!(capped > 0, scale == 0.695, "scale {scale}");
            assert_eq!(equity.to_score(WIN - 3), WIN - 3);
            assert_eq!(equity.of_reported(WIN - 3), WIN - 3);
            assert_eq!(equity.of_reported(-(WIN - 3)), -(WIN - 3));
            assert_eq!(equity.of_reported(100), equity.of(100));
            assert_eq!(equity.to_score(-(WIN - 3)), -(WIN - 3));
            assert_eq!(equity.to_score(0), 0);
        }
    }
}
