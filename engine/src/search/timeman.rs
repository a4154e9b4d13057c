//! Time management: how long a search may take, from the limits a `go` brings.

use std::time::{Duration, Instant};

/// The limits of one search, as `go` gives them (times in milliseconds).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Our clock and increment (the side to move's `wtime`/`winc` or `btime`/`binc`).
    pub time: Option<u64>,
    pub increment: u64,
    pub movestogo: Option<u64>,
    pub movetime: Option<u64>,
    /// Turns (a roll and a move) deep.
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub infinite: bool,
    /// Subtracted from every budget: what the GUI and the pipe take (UCI's Move Overhead).
    pub move_overhead: u64,
}

/// The Move Overhead a player keeps off its clock unless told otherwise (the protocol's option
/// default, and the match runner's built-in player's).
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;

/// The budget of one search.
#[derive(Copy, Clone, Debug)]
pub struct TimeBudget {
    pub start: Instant,
    /// Past this, no new iteration starts.
    pub soft: Option<Duration>,
    /// Past this, the search stops where it is.
    pub hard: Option<Duration>,
}

impl TimeBudget {
    /// The budget for these limits, started now.
    pub fn new(limits: &Limits) -> TimeBudget {
        TimeBudget::starting_at(limits, Instant::now())
    }

    pub fn starting_at(limits: &Limits, start: Instant) -> TimeBudget {
        let overhead = limits.move_overhead;
        if limits.infinite {
            return TimeBudget { start, soft: None, hard: None };
        }
        if let Some(movetime) = limits.movetime {
            let t = Duration::from_millis(movetime.saturating_sub(overhead).max(1));
            return TimeBudget { start, soft: Some(t), hard: Some(t) };
        }
        if let Some(time) = limits.time {
            // Dice games run long and the clock must last: plan for 40 more moves unless told.
            let moves_left = limits.movestogo.unwrap_or(40).clamp(1, 80);
            let usable = time.saturating_sub(overhead).max(1);
            // Saturating: a GUI may send any 64-bit number for a clock.
            let share = (usable / moves_left).saturating_add(limits.increment.saturating_mul(3) / 4);
            let hard = share.saturating_mul(3).min(usable.saturating_mul(2) / 3).max(1);
            let soft = share.min(hard).max(1);
            return TimeBudget {
                start,
                soft: Some(Duration::from_millis(soft)),
                hard: Some(Duration::from_millis(hard)),
            };
        }
        TimeBudget { start, soft: None, hard: None }
    }

    #[inline]
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Past the hard limit?
    #[inline]
    pub fn out_of_time(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// Should iterative deepening start another iteration, expected to take `next`? An
    /// iteration takes several times the last, so none starts after half the soft budget. Under
    /// a clock (a hard limit past the soft one) none starts that would end past the hard limit
    /// either: stopped there and thrown away, it would cost the clock up to three moves' share
    /// for nothing. Under a fixed time a move's time is not saved for another, so that one
    /// starts (its table entries serve the searches after it).
    pub fn may_start_iteration(&self, next: Duration) -> bool {
        let elapsed = self.start.elapsed();
        let Some(soft) = self.soft else { return true };
        elapsed < soft / 2 && self.hard.is_none_or(|hard| hard <= soft || elapsed + next <= hard)
    }

    /// A fixed time a move (the soft and the hard limit alike): what a move leaves unused is
    /// not saved for another.
    pub fn is_fixed(&self) -> bool {
        self.soft.is_some() && self.soft == self.hard
    }

    /// For a search that keeps what a stopped iteration finished: once it has an answer, it
    /// stops at the soft limit, not the hard one. The hard limit is there to finish an
    /// iteration whose result would otherwise be lost; with nothing to lose, searching on to it
    /// would spend up to three moves' share of the clock on every move.
    pub fn stop_at_soft(&mut self) {
        if let (Some(soft), Some(hard)) = (self.soft, self.hard) {
            self.hard = Some(soft.min(hard));
        }
    }
}

/// The times of iterative deepening's finished iterations, to foresee the next one's.
#[derive(Clone, Copy, Debug, Default)]
pub struct IterationTimes {
    last: Duration,
    ended: Duration,
}

impl IterationTimes {
    /// An iteration ended `elapsed` after the search began: the next one's expected time.
    pub fn ended_at(&mut self, elapsed: Duration) -> Duration {
        let before_last = std::mem::replace(&mut self.last, elapsed.saturating_sub(self.ended));
        self.ended = elapsed;
        next_iteration_time(before_last, self.last)
    }
}

/// The expected time of the next iteration of iterative deepening, from the times of the last
/// two: the last times its growth, which is held between 3 and 20 (a dice search's turn deeper
/// costs some ten times the last; the first iterations are too short to measure it).
pub fn next_iteration_time(before_last: Duration, last: Duration) -> Duration {
    const DEFAULT_GROWTH: f64 = 10.0;
    let growth = if before_last >= Duration::from_millis(2) {
        (last.as_secs_f64() / before_last.as_secs_f64()).clamp(3.0, 20.0)
    } else {
        DEFAULT_GROWTH
    };
    last.mul_f64(growth)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets() {
        let b = TimeBudget::new(&Limits { movetime: Some(1000), move_overhead: 10, ..Default::default() });
        assert_eq!(b.hard, Some(Duration::from_millis(990)));
        assert!(b.is_fixed());
        let b = TimeBudget::new(&Limits { time: Some(60_000), increment: 1000, ..Default::default() });
        assert_eq!(b.soft, Some(Duration::from_millis(60_000 / 40 + 750)));
        assert!(!b.is_fixed(), "a clock's share may be exceeded, and what is saved serves later moves");
        assert!(b.hard.unwrap() <= Duration::from_millis(40_000));
        // Clocks near the integer limits: the largest budgets, not wrapped-around tiny ones.
        for huge in [u64::MAX, i64::MAX as u64 + 12, u64::MAX / 3 + 1] {
            let b = TimeBudget::new(&Limits { time: Some(huge), increment: huge, ..Default::default() });
            assert!(b.hard.unwrap() >= Duration::from_secs(3600), "{huge}: {:?}", b.hard);
            assert!(b.soft.unwrap() <= b.hard.unwrap());
        }
        let b = TimeBudget::new(&Limits { time: Some(5), move_overhead: 10, ..Default::default() });
        assert_eq!(b.hard, Some(Duration::from_millis(1)));
        assert!(TimeBudget::new(&Limits { infinite: true, movetime: Some(5), ..Default::default() }).hard.is_none());
        assert!(TimeBudget::new(&Limits::default()).hard.is_none());
        assert!(!TimeBudget::new(&Limits::default()).is_fixed());
    }

    /// Under a clock an iteration starts only when expected to end before the hard limit; under
    /// a fixed time the half-budget rule alone decides.
    #[test]
    fn an_iteration_starts_only_if_it_may_end_in_time() {
        let ms = Duration::from_millis;
        let clock = Limits { time: Some(40_000), ..Default::default() }; // soft 1 s, hard 3 s
        let started = |limits: &Limits, ago: u64| TimeBudget::starting_at(limits, Instant::now() - ms(ago));
        let b = started(&clock, 400);
        assert_eq!((b.soft, b.hard), (Some(ms(1000)), Some(ms(3000))));
        assert!(b.may_start_iteration(ms(2000)));
        assert!(!b.may_start_iteration(ms(2700)));
        assert!(!started(&clock, 600).may_start_iteration(ms(10)), "past half the soft budget");
        let fixed = Limits { movetime: Some(1000), ..Default::default() };
        assert!(started(&fixed, 400).may_start_iteration(ms(5000)));
        assert!(!started(&fixed, 600).may_start_iteration(ms(10)));
        assert!(started(&Limits { infinite: true, ..Default::default() }, 600).may_start_iteration(ms(60_000)));
    }

    /// A search that has its answer stops at the soft limit under a clock; a fixed time (soft
    /// and hard the same) and no limit at all are unchanged.
    #[test]
    fn an_answered_search_stops_at_the_soft_limit() {
        let ms = Duration::from_millis;
        let clock = Limits { time: Some(40_000), ..Default::default() }; // soft 1 s, hard 3 s
        let mut b = TimeBudget::starting_at(&clock, Instant::now() - ms(1500));
        assert!(!b.out_of_time(), "between the soft and the hard limit");
        b.stop_at_soft();
        assert_eq!((b.soft, b.hard), (Some(ms(1000)), Some(ms(1000))));
        assert!(b.out_of_time());
        let mut fixed = TimeBudget::new(&Limits { movetime: Some(700), ..Default::default() });
        fixed.stop_at_soft();
        assert_eq!((fixed.soft, fixed.hard), (Some(ms(700)), Some(ms(700))));
        let mut none = TimeBudget::new(&Limits::default());
        none.stop_at_soft();
        assert_eq!((none.soft, none.hard), (None, None));
    }

    #[test]
    fn the_next_iteration_grows_as_the_last_did() {
        let ms = Duration::from_millis;
        assert_eq!(next_iteration_time(ms(100), ms(800)), ms(6400));
        assert_eq!(next_iteration_time(ms(100), ms(150)), ms(450), "at least three times");
        assert_eq!(next_iteration_time(ms(10), ms(1000)), ms(20_000), "at most twenty times");
        assert_eq!(next_iteration_time(ms(0), ms(1)), ms(10), "too short to measure: ten times");
    }
}
