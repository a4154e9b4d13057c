//! Paired dice: the roll at ply `k` of pair `p` is a function of (seed, pair, ply) alone, so both
//! games of a pair (colours swapped) see the same dice, and a rerun with the same seed sees the
//! same games. A counter-based stream (SplitMix64 of the three) needs no state to resume.

use crate::rules::{Outcome, Roll};

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A number in `0..n` for (seed, pair, ply), the same every time.
pub fn draw(seed: u64, pair: u64, ply: u64, n: u64) -> u64 {
    let x = mix(seed ^ mix(pair ^ mix(ply.wrapping_add(0x5eed))));
    // Multiply-shift: unbiased enough for n up to thousands.
    ((u128::from(x) * u128::from(n.max(1))) >> 64) as u64
}

/// The roll at (seed, pair, ply) among `outcomes`, drawn by weight.
pub fn roll(seed: u64, pair: u64, ply: u64, outcomes: &[Outcome]) -> Roll {
    let total: u64 = outcomes.iter().map(|o| u64::from(o.weight)).sum();
    crate::rules::dice::pick_by_weight(outcomes, draw(seed, pair, ply, total)).expect("a game not over has outcomes")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::{one_die, two_dice};

    #[test]
    fn same_inputs_same_roll_and_fair_enough() {
        let dice = one_die();
        assert_eq!(roll(1, 2, 3, &dice), roll(1, 2, 3, &dice));
        let mut counts = [0u32; 7];
        for ply in 0..60_000 {
            counts[roll(9, 0, ply, &dice).faces()[0] as usize] += 1;
        }
        for &c in &counts[1..] {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
        // Two dice: doubles about 1/6 of the time.
        let doubles = (0..36_000).filter(|&p| roll(4, 1, p, &two_dice()).is_doubles()).count();
        assert!((5_400..6_600).contains(&doubles), "{doubles}");
    }
}
