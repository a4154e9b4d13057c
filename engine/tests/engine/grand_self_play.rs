//! Grand Dice Chess played by the engine against itself through the game handle, as every front
//! end plays it: the README's White/Black/draw shares (the source's author reports Black winning
//! 51 % of 100+ tournament games), game length and the branching (allowed turns a roll).
//!
//! `DEPTH=1 cargo test --release -p alea-engine --test engine grand_self_play -- --ignored --nocapture`:
//! `GAMES` games (2,000 unless given) numbered from `FIRST` (0), each seeded by its number, so runs
//! in parts add up to one; a turn searched `DEPTH` turns deep, or `NODES` nodes (5,000) without
//! it; two threads. The allowed turns are counted at the random turns and every fiftieth roll.

use alea_engine::rules::GameResult;
use alea_engine::search::timeman::Limits;
use alea_engine::search::{Choice, SearchOptions, Shared};
use alea_engine::services::handle::{GameHandle, RollSpec, SearchRoot};

/// Random turns at the start of each game, so that seeded games differ.
const RANDOM_PLIES: usize = 8;
/// A game still on after this many turns is a draw (as `alea match`'s default).
const MAX_PLIES: usize = 600;

/// A small seeded generator (xorshift), one per game.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) % n.max(1)
    }
}

/// What one game came to.
struct Played {
    result: Option<GameResult>,
    plies: usize,
    rolls: u64,
    turns_allowed: u64,
}

fn play(game_number: u64, limits: &Limits, shared: &Shared) -> Played {
    let mut dice = Dice(0x9e37_79b9_7f4a_7c15 ^ (game_number + 1).wrapping_mul(0x2545_f491_4f6c_dd1d));
    let mut game = GameHandle::new("grand", false).expect("grand");
    let (mut plies, mut rolls, mut turns_allowed) = (0, 0, 0);
    let result = loop {
        if let Some(end) = game.end() {
            break match end.result {
                GameResult::Draw => None,
                won => Some(won),
            };
        }
        if plies >= MAX_PLIES {
            break None;
        }
        let roll = game.roll_for(dice.below(u64::from(game.total_weight())) as u32).expect("a roll");
        let spec = RollSpec::Faces(roll.faces().to_vec());
        let counted = plies < RANDOM_PLIES || plies % 50 == 0;
        let allowed = if counted { game.count_turns(&spec).expect("a count") } else { 0 };
        if counted {
            rolls += 1;
            turns_allowed += allowed;
        }
        let turn = if plies < RANDOM_PLIES {
            game.nth_turn(&spec, dice.below(allowed)).expect("a turn").unwrap_or_else(|| "0000".into())
        } else {
            let report = game
                .search(&SearchRoot::Rolled(spec), limits.clone(), SearchOptions::default(), shared, &mut |_| {})
                .expect("a search");
            match report.best {
                Choice::Turn(t) => t,
                Choice::Roll => unreachable!("a rolled root answers a turn"),
            }
        };
        game.play_checked(&turn, Some(&roll)).unwrap_or_else(|e| panic!("game {game_number}: {turn}: {e}"));
        plies += 1;
    };
    Played { result, plies, rolls, turns_allowed }
}

/// A share with its 95 % interval (normal approximation), in percent.
fn share(count: usize, games: usize) -> String {
    let p = count as f64 / games as f64;
    let half = 1.96 * (p * (1.0 - p) / games as f64).sqrt();
    format!("{:.2} % [{:.2}, {:.2}]", 100.0 * p, 100.0 * (p - half), 100.0 * (p + half))
}

#[test]
#[ignore = "40 minutes on two cores at depth 1: DEPTH=1 cargo test --release -p alea-engine --test engine grand_self_play -- --ignored --nocapture"]
fn self_play_shares_and_branching() {
    let games: u64 = std::env::var("GAMES").map_or(2000, |g| g.parse().expect("GAMES"));
    let first: u64 = std::env::var("FIRST").map_or(0, |g| g.parse().expect("FIRST"));
    let limits = match std::env::var("DEPTH") {
        Ok(d) => Limits { depth: Some(d.parse().expect("DEPTH")), ..Limits::default() },
        Err(_) => Limits {
            nodes: Some(std::env::var("NODES").map_or(5000, |n| n.parse().expect("NODES"))),
            ..Limits::default()
        },
    };
    let threads = 2;
    let done = std::sync::atomic::AtomicU64::new(0);
    let results: Vec<Played> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let (done, limits) = (&done, &limits);
                scope.spawn(move || {
                    let shared = Shared::new(16);
                    let mut mine = Vec::new();
                    for n in (first + t..first + games).step_by(threads as usize) {
                        let played = play(n, limits, &shared);
                        let finished = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                        eprintln!(
                            "game {n}: {} in {} turns ({finished}/{games})",
                            match played.result {
                                Some(GameResult::Win(c)) => format!("{c:?} wins"),
                                _ => "drawn".into(),
                            },
                            played.plies
                        );
                        mine.push(played);
                    }
                    mine
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("a worker")).collect()
    });
    let n = results.len();
    let white = results
        .iter()
        .filter(|p| matches!(p.result, Some(GameResult::Win(c)) if c == alea_engine::Color::White))
        .count();
    let black = results
        .iter()
        .filter(|p| matches!(p.result, Some(GameResult::Win(c)) if c == alea_engine::Color::Black))
        .count();
    let plies: usize = results.iter().map(|p| p.plies).sum();
    let rolls: u64 = results.iter().map(|p| p.rolls).sum();
    let allowed: u64 = results.iter().map(|p| p.turns_allowed).sum();
    println!(
        "grand self-play, {n} games, {limits:?}: White {}, Black {}, drawn {}; {:.0} turns a game; {:.0} allowed turns a roll; Black's share of the decided games {:.2} %",
        share(white, n),
        share(black, n),
        share(n - white - black, n),
        plies as f64 / n as f64,
        allowed as f64 / rolls.max(1) as f64,
        100.0 * black as f64 / (white + black).max(1) as f64
    );
    assert_eq!(n as u64, games);
}
