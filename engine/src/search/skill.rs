//! Playing below full strength (UCI's `Skill Level`, 0 to 20), for people who want a game they
//! can win. A level below 20 limits the search's depth and draws the choice among the best few by
//! how much each is expected to lose: a little noise at 19, often a clearly worse move at 0. The
//! engine still never plays what the rules forbid, and a choice that throws away a certain win is
//! all but never drawn. The draw is the caller's number, so a seeded game stays reproducible.

use crate::search::timeman::Limits;
use crate::search::{Choice, SearchResult};

/// Full strength: no limit, no noise.
pub const FULL: u8 = 20;

/// Root choices given exact scores so that the draw has some to choose from: the most any level
/// draws among ([`Skill::candidates`]).
pub const CANDIDATES: usize = 9;

/// A level below [`FULL`] and the random number its choices are drawn with.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Skill {
    level: u8,
    draw: u64,
}

impl Skill {
    /// The skill of `level` (clamped to 0..=20), or `None` at full strength.
    pub fn new(level: u8, draw: u64) -> Option<Skill> {
        (level < FULL).then_some(Skill { level, draw })
    }

    pub fn level(&self) -> u8 {
        self.level
    }

    /// The deepest search of the level, in turns: one at levels 0 to 4, two at 5 to 9, three at
    /// 10 to 14, four at 15 to 19 (and the caller's own limits where they are shallower).
    pub fn limits(&self, limits: &Limits) -> Limits {
        let cap = 1 + u32::from(self.level) / 5;
        Limits { depth: Some(limits.depth.map_or(cap, |d| d.min(cap))), ..limits.clone() }
    }

    /// How far, in centipawns, a choice's loss goes in cutting its odds by e: 500 at level 0
    /// (a rook left to be taken is played a third as often as the best move), 25 at level 19.
    fn temperature(&self) -> f64 {
        25.0 * f64::from(FULL - self.level)
    }

    /// How many of the best choices the draw is among: nine at level 0, four from level 19.
    pub fn candidates(&self) -> usize {
        (4 + usize::from(FULL - self.level) / 4).min(CANDIDATES)
    }

    /// The choice drawn among the exact-scored choices of `result` (the best of them first), each
    /// weighed by e^(−loss / temperature); `salt` tells apart the draws of one turn (the decision
    /// before the roll and the move after it). The search's own best where nothing else is exact.
    pub fn choose<T: Clone>(&self, result: &SearchResult<T>, salt: u64) -> Choice<T> {
        let exact: Vec<_> = result.choices.iter().filter(|c| c.exact).take(self.candidates()).collect();
        let Some(best) = exact.iter().map(|c| c.score).max() else { return result.best.clone() };
        let weights: Vec<f64> = exact.iter().map(|c| (-f64::from(best - c.score) / self.temperature()).exp()).collect();
        let total: f64 = weights.iter().sum();
        // A uniform number in [0, total) from the caller's draw.
        let unit = crate::rules::pairing::draw(self.draw, salt, 0, 1 << 32) as f64 / (1u64 << 32) as f64;
        let mut point = unit * total;
        for (c, w) in exact.iter().zip(&weights) {
            if point < *w {
                return c.choice.clone();
            }
            point -= w;
        }
        exact.last().map_or_else(|| result.best.clone(), |c| c.choice.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::ScoredChoice;

    fn result(scores: &[(i32, bool)]) -> SearchResult<u32> {
        let choices: Vec<ScoredChoice<u32>> = scores
            .iter()
            .enumerate()
            .map(|(i, &(score, exact))| ScoredChoice { choice: Choice::Turn(i as u32), score, exact, value: None })
            .collect();
        let mut r = SearchResult::unsearched(choices[0].choice, 0, std::time::Duration::ZERO, 1.0);
        r.score = choices[0].score;
        r.choices = choices;
        r
    }

    /// Draws over many numbers: each choice about as often as its weight says, and never a
    /// bound-only choice nor an exact one past the level's candidates (four at level 19).
    #[test]
    fn choices_are_drawn_by_their_loss() {
        // Best first, as a search gives them; the fifth only a bound, the sixth exact again.
        let r = result(&[(100, true), (80, true), (0, true), (-200, true), (500, false), (90, true)]);
        let loss = [0.0, 20.0, 100.0, 300.0, f64::INFINITY, 10.0];
        for level in [0u8, 10, 19] {
            let skill = Skill::new(level, 0).unwrap();
            let mut counts = [0usize; 6];
            for draw in 0..20_000u64 {
                let Choice::Turn(i) = Skill::new(level, draw).unwrap().choose(&r, 0) else { panic!("a turn") };
                counts[i as usize] += 1;
            }
            assert_eq!(counts[4], 0, "a bound is not a score to draw on");
            // The exact choices within the level's candidates, and their weights.
            let drawn: Vec<usize> = [0, 1, 2, 3, 5].into_iter().take(skill.candidates()).collect();
            let t = 25.0 * f64::from(FULL - level);
            let total: f64 = drawn.iter().map(|&i| (-loss[i] / t).exp()).sum();
            for i in 0..6 {
                let expected = if drawn.contains(&i) { 20_000.0 * (-loss[i] / t).exp() / total } else { 0.0 };
                let slack = 4.0 * expected.sqrt() + 5.0;
                assert!((counts[i] as f64 - expected).abs() < slack, "level {level}: {counts:?}, choice {i}");
            }
        }
        assert_eq!(Skill::new(19, 0).unwrap().candidates(), 4);
        assert_eq!(Skill::new(0, 0).unwrap().candidates(), CANDIDATES);
    }

    /// Depth is capped by the level and never deepened past the caller's own limit; full strength
    /// is no skill at all.
    #[test]
    fn levels_cap_the_depth() {
        assert_eq!(Skill::new(FULL, 1), None);
        let any = Limits { movetime: Some(100), ..Limits::default() };
        for (level, depth) in [(0, 1), (4, 1), (5, 2), (14, 3), (19, 4)] {
            let capped = Skill::new(level, 0).unwrap().limits(&any);
            assert_eq!((capped.depth, capped.movetime), (Some(depth), Some(100)), "level {level}");
        }
        let shallow = Limits { depth: Some(2), ..Limits::default() };
        assert_eq!(Skill::new(19, 0).unwrap().limits(&shallow).depth, Some(2));
    }
}
