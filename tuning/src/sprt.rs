//! Match statistics from pairs of games (pentanomial): the score of each pair (0, ½, 1, 1½ or 2
//! points of 2) is one sample, which cancels much of the dice's luck. Elo with a 95 % interval,
//! the likelihood of superiority, and the SPRT log-likelihood ratio in the normal approximation
//! fishtest and fastchess use (generalised SPRT on the mean pair score).

/// How many pairs ended with 0, ½, 1, 1½ and 2 points for the first engine.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

/// The score expected at `elo` (logistic).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo of a score (logistic), clamped away from 0 and 1.
pub fn elo_of_score(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    // Adding zero turns an even score's -0 into 0.
    -400.0 * (1.0 / s - 1.0).log10() + 0.0
}

impl Pentanomial {
    /// Adds a pair scored `points` (0, 0.5, 1, 1.5 or 2) for the first engine.
    pub fn add(&mut self, points: f64) {
        let i = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[i] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Mean score per game (0..1) and the variance of the per-pair mean.
    pub fn mean_and_variance(&self) -> (f64, f64) {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return (0.5, 0.0);
        }
        let values = [0.0, 0.25, 0.5, 0.75, 1.0];
        let mean = self.0.iter().zip(values).map(|(&c, v)| c as f64 * v).sum::<f64>() / n;
        let var = self.0.iter().zip(values).map(|(&c, v)| c as f64 * (v - mean).powi(2)).sum::<f64>() / n;
        (mean, var)
    }

    /// Elo and its 95 % interval (lower, estimate, upper).
    pub fn elo(&self) -> (f64, f64, f64) {
        let (mean, var) = self.mean_and_variance();
        let n = self.pairs().max(1) as f64;
        let half = 1.959_964 * (var / n).sqrt();
        (elo_of_score(mean - half), elo_of_score(mean), elo_of_score(mean + half))
    }

    /// What can be said of the Elo: (lower bound, estimate, upper bound) at 95 %, each `None`
    /// where the results cannot say it. Every game won (or lost) gives only a bound, from the
    /// exact binomial tail (the chance of so many wins in a row at that score is 2.5 %); pairs
    /// that all scored alike give an estimate but no interval; no games, nothing.
    pub fn elo_bounds(&self) -> (Option<f64>, Option<f64>, Option<f64>) {
        let games = 2 * self.pairs();
        if games == 0 {
            return (None, None, None);
        }
        let (mean, var) = self.mean_and_variance();
        let bound = elo_of_score(0.025f64.powf(1.0 / games as f64));
        if mean >= 1.0 {
            (Some(bound), None, None)
        } else if mean <= 0.0 {
            (None, None, Some(-bound))
        } else if var == 0.0 {
            (None, Some(elo_of_score(mean)), None)
        } else {
            let (lo, elo, hi) = self.elo();
            (Some(lo), Some(elo), Some(hi))
        }
    }

    /// [`Pentanomial::elo_bounds`] in words: `Elo +35.2 [+10.1, +60.3]`, `Elo > +93 (every
    /// game won)`, `Elo +0.0 (no interval: every pair scored alike)`, `Elo: no games`.
    pub fn elo_text(&self) -> String {
        match self.elo_bounds() {
            (Some(lo), Some(elo), Some(hi)) => format!("Elo {elo:+.1} [{lo:+.1}, {hi:+.1}]"),
            // Too few games won in a row bound it only below zero: said so, not as a negative
            // bound for a match the first engine won outright.
            (Some(lo), None, None) if lo <= 0.0 => {
                format!("Elo: every game won, too few ({}) to put it above 0 at 95 %", 2 * self.pairs())
            }
            (None, None, Some(hi)) if hi >= 0.0 => {
                format!("Elo: every game lost, too few ({}) to put it below 0 at 95 %", 2 * self.pairs())
            }
            (Some(lo), None, None) => format!("Elo > {lo:+.0} (every game won; no upper bound)"),
            (None, None, Some(hi)) => format!("Elo < {hi:+.0} (every game lost; no lower bound)"),
            (None, Some(elo), None) => format!("Elo {elo:+.1} (no interval: every pair scored alike)"),
            _ => "Elo: no games".into(),
        }
    }

    /// Likelihood of superiority: the chance the first engine is the stronger.
    pub fn los(&self) -> f64 {
        let (mean, var) = self.mean_and_variance();
        let n = self.pairs() as f64;
        if var == 0.0 || n == 0.0 {
            return if mean > 0.5 {
                1.0
            } else if mean < 0.5 {
                0.0
            } else {
                0.5
            };
        }
        normal_cdf((mean - 0.5) / (var / n).sqrt())
    }

    /// The SPRT log-likelihood ratio of `elo1` against `elo0`. While a cell is empty, half a
    /// pair is added to each (a Jeffreys prior): results with no spread (every pair won) still
    /// move the ratio, without deciding after a pair or two.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let counts: [f64; 5] =
            if self.0.contains(&0) { self.0.map(|c| c as f64 + 0.5) } else { self.0.map(|c| c as f64) };
        let total: f64 = counts.iter().sum();
        let values = [0.0, 0.25, 0.5, 0.75, 1.0];
        let mean = counts.iter().zip(values).map(|(c, v)| c * v).sum::<f64>() / total;
        let var = counts.iter().zip(values).map(|(c, v)| c * (v - mean).powi(2)).sum::<f64>() / total;
        normal_llr(n, mean, var, elo0, elo1)
    }

    /// The variance of pair scores against what independent games of the same results would give
    /// (under 1: pairing cancelled some luck).
    pub fn pairing_ratio(&self) -> Option<f64> {
        let (mean, var) = self.mean_and_variance();
        // Independent games: each game's score variance is at most mean*(1-mean); a pair's mean
        // of two has half of it.
        let independent = mean * (1.0 - mean) / 2.0;
        (independent > 0.0).then(|| var / independent)
    }
}

/// Pairs scored less the luck of their rolls (the referee's reading, [`alea_engine::services::luck`]), beside
/// the same pairs' plain scores: the mean is the same in expectation, the spread narrower. The
/// sums are kept in millionths of a point (the `WhiteLuck` tags' precision), exactly, so that
/// pairs added in any order (a live match's, a merge's) give the same figures.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LuckAdjusted {
    pairs: u64,
    sum: i128,
    sum_sq: i128,
    plain_sum: i128,
    plain_sum_sq: i128,
}

/// Millionths of a point in a pair's points.
const UNITS: f64 = 1e6;

impl LuckAdjusted {
    /// Adds a pair: its points (0 to 2) and its points less the first player's luck.
    pub fn add(&mut self, points: f64, adjusted: f64) {
        let (a, p) = ((adjusted * UNITS).round() as i128, (points * UNITS).round() as i128);
        self.pairs += 1;
        self.sum += a;
        self.sum_sq += a * a;
        self.plain_sum += p;
        self.plain_sum_sq += p * p;
    }

    pub fn pairs(&self) -> u64 {
        self.pairs
    }

    /// The mean score a game and the variance of a pair's mean, from sums of pair points in
    /// millionths.
    fn mean_and_variance(n: u64, sum: i128, sum_sq: i128) -> (f64, f64) {
        let n = n.max(1) as f64;
        let per_game = 2.0 * UNITS;
        let mean = sum as f64 / n / per_game;
        (mean, (sum_sq as f64 / n / (per_game * per_game) - mean * mean).max(0.0))
    }

    /// Elo and its 95 % interval (lower, estimate, upper), from the adjusted pair scores; `None`
    /// where the score is past a whole win or loss (luck taken out of games all won can put a
    /// mean above 1), which no Elo expresses.
    pub fn elo(&self) -> (Option<f64>, Option<f64>, Option<f64>) {
        let (mean, var) = Self::mean_and_variance(self.pairs, self.sum, self.sum_sq);
        let half = 1.959_964 * (var / self.pairs.max(1) as f64).sqrt();
        let score = |s: f64| (s > 0.0 && s < 1.0).then(|| elo_of_score(s));
        (score(mean - half), score(mean), score(mean + half))
    }

    /// The adjusted pair scores' variance against the same pairs' plain scores' (under 1: luck
    /// taken out): the share of the games a plain count needs for the same interval.
    pub fn variance_ratio(&self) -> Option<f64> {
        let (_, adjusted) = Self::mean_and_variance(self.pairs, self.sum, self.sum_sq);
        let (_, plain) = Self::mean_and_variance(self.pairs, self.plain_sum, self.plain_sum_sq);
        (self.pairs >= 2 && plain > 0.0).then(|| adjusted / plain)
    }

    /// The SPRT log-likelihood ratio of `elo1` against `elo0` on the adjusted pair scores (the
    /// normal approximation the pentanomial's also uses).
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let (mean, var) = Self::mean_and_variance(self.pairs, self.sum, self.sum_sq);
        if self.pairs < 2 || var <= 0.0 {
            return 0.0;
        }
        normal_llr(self.pairs as f64, mean, var, elo0, elo1)
    }

    /// The Elo as the summary line writes it.
    pub fn elo_text(&self) -> String {
        let (mean, _) = Self::mean_and_variance(self.pairs, self.sum, self.sum_sq);
        let bound = |b: Option<f64>, none: &str| b.map_or(none.to_string(), |e| format!("{e:+.1}"));
        match self.elo() {
            (lo, Some(elo), hi) => {
                format!("Elo {elo:+.1} [{}, {}]", bound(lo, "no lower bound"), bound(hi, "no upper bound"))
            }
            _ if mean >= 1.0 => {
                "no Elo: with the luck taken out the games score more than a whole win (every game won, \
                 and by more than its rolls' luck)"
                    .into()
            }
            _ => "no Elo: with the luck taken out the games score less than a whole loss (every game lost, \
                  and by more than its rolls' luck)"
                .into(),
        }
    }
}

/// The SPRT log-likelihood ratio of `elo1` against `elo0` for `n` pairs of mean score `mean` (a
/// game) and variance `var` (a pair's mean): the normal approximation both counts use.
fn normal_llr(n: f64, mean: f64, var: f64, elo0: f64, elo1: f64) -> f64 {
    let (s0, s1) = (score_of_elo(elo0), score_of_elo(elo1));
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

/// The SPRT's decision bounds for error rates `alpha` and `beta`: (lower, upper).
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

fn normal_cdf(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// Error function (Abramowitz and Stegun 7.1.26, error under 1.5e-7).
fn erf(x: f64) -> f64 {
    let sign = x.signum();
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly =
        t * (0.254_829_592 + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_matches_hand_computation() {
        // 10 pairs: 1 at 0, 2 at 1/2, 3 at 1, 3 at 3/2, 1 at 2 points.
        let p = Pentanomial([1, 2, 3, 3, 1]);
        let (mean, var) = p.mean_and_variance();
        // mean = (0*1 + .25*2 + .5*3 + .75*3 + 1*1)/10 = 5.25/10
        assert!((mean - 0.525).abs() < 1e-12);
        // var = sum c*(v-.525)^2/10 = (.275625 + 2*.075625 + 3*.000625 + 3*.050625 + .225625)/10
        assert!((var - 0.080_625).abs() < 1e-9, "{var}");
        // Elo of 0.525: -400*log10(1/0.525 - 1) = 17.39
        assert!((p.elo().1 - 17.393).abs() < 0.01, "{:?}", p.elo());
        // LLR for elo0 0, elo1 10: s0 .5, s1 = 1/(1+10^-0.025) = .514387;
        // 10*(.014387)*(1.05-.5-.514387)/(2*.080625) = .031775
        assert!((p.llr(0.0, 10.0) - 0.031_775).abs() < 1e-4, "{}", p.llr(0.0, 10.0));
        // Bounds for alpha = beta = 0.05: ln(.05/.95) = -2.944, ln(.95/.05) = 2.944.
        let (a, b) = sprt_bounds(0.05, 0.05);
        assert!((a + 2.944_439).abs() < 1e-5 && (b - 2.944_439).abs() < 1e-5);
        // LOS of a mean of .525 with sd sqrt(.080625/10) = .089791: Phi(.27843) = .6097
        assert!((p.los() - 0.6097).abs() < 1e-3, "{}", p.los());
        assert!((score_of_elo(0.0) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn one_sided_and_empty_results_say_what_they_can() {
        // 60 pairs all won: the SPRT decides (it stayed at 0 before empty cells were regularised).
        let all = Pentanomial([0, 0, 0, 0, 60]);
        let (_, upper) = sprt_bounds(0.05, 0.05);
        assert!(all.llr(0.0, 10.0) > upper, "{}", all.llr(0.0, 10.0));
        assert!(Pentanomial([60, 0, 0, 0, 0]).llr(0.0, 10.0) < -upper);
        // A pair or two decide nothing, even all won.
        for pairs in 1..=3 {
            let llr = Pentanomial([0, 0, 0, 0, pairs]).llr(0.0, 200.0);
            assert!(llr > 0.0 && llr < upper, "{pairs}: {llr}");
        }
        // Every game won: a lower bound only. Eight games: 0.025^(1/8) = 0.6300, +92.9 Elo.
        let four = Pentanomial([0, 0, 0, 0, 4]);
        assert_eq!(four.elo_bounds().1, None);
        assert!((four.elo_bounds().0.unwrap() - 92.9).abs() < 0.1, "{:?}", four.elo_bounds());
        assert_eq!(four.elo_text(), "Elo > +93 (every game won; no upper bound)");
        // Two games won bound it only below zero (0.025^(1/2) = 0.158): no negative bound printed.
        assert_eq!(
            Pentanomial([0, 0, 0, 0, 1]).elo_text(),
            "Elo: every game won, too few (2) to put it above 0 at 95 %"
        );
        assert_eq!(
            Pentanomial([1, 0, 0, 0, 0]).elo_text(),
            "Elo: every game lost, too few (2) to put it below 0 at 95 %"
        );
        assert_eq!(Pentanomial([4, 0, 0, 0, 0]).elo_text(), "Elo < -93 (every game lost; no lower bound)");
        assert_eq!(Pentanomial::default().elo_text(), "Elo: no games");
        assert_eq!(Pentanomial([0, 0, 5, 0, 0]).elo_text(), "Elo +0.0 (no interval: every pair scored alike)");
        assert!(Pentanomial([1, 2, 3, 3, 1]).elo_text().starts_with("Elo +17.4 ["));
        assert!((elo_of_score(score_of_elo(123.0)) - 123.0).abs() < 1e-9);
    }
}

#[cfg(test)]
mod luck_tests {
    use super::*;

    #[test]
    fn luck_adjusted_pairs_by_hand() {
        let mut l = LuckAdjusted::default();
        assert_eq!(l.variance_ratio(), None);
        // Two pairs won and lost by luck alone: the plain scores spread, the adjusted do not.
        l.add(2.0, 1.0);
        l.add(0.0, 1.0);
        assert_eq!(l.pairs(), 2);
        assert_eq!(l.variance_ratio(), Some(0.0));
        let (lo, elo, hi) = l.elo();
        assert!([lo, elo, hi].iter().all(|e| e.unwrap().abs() < 1e-9), "{lo:?} {elo:?} {hi:?}");
        // Games all won with their luck taken out can score past a whole win: no Elo says that.
        let mut won = LuckAdjusted::default();
        won.add(2.0, 2.2);
        won.add(2.0, 2.1);
        assert_eq!(won.elo().1, None);
        assert!(won.elo_text().starts_with("no Elo") && !won.elo_text().contains("1.0"), "{}", won.elo_text());
        // Adjusted scores above a half: a positive Elo, and the ratio leans to H1.
        let mut m = LuckAdjusted::default();
        for (points, adjusted) in [(2.0, 1.3), (1.0, 1.1), (1.0, 1.2), (0.0, 1.0)] {
            m.add(points, adjusted);
        }
        let elo = m.elo().1.unwrap();
        assert!((elo - elo_of_score(1.15 / 2.0)).abs() < 1e-9, "{elo}");
        assert!(m.llr(0.0, 10.0) > 0.0 && m.variance_ratio().unwrap() < 1.0);
    }
}
