//! Two runs of a match on the same dice, compared game by game (`alea match compare`).
//!
//! A match's seed deals pair `k` the same dice and start in any run, so two runs that differ in a
//! player (a new build, a network, a time) can be compared game by game: the difference of the
//! first player's points in each pair has far less variance than two independent runs' Elo, as
//! the dice that decide many games cancel out. Pairs are the unit of the interval (a pair's two
//! games share their dice and are not independent). Where both runs read the luck of every roll
//! (`WhiteLuck`), the difference is taken again with each game's points less its luck: once the
//! runs' games part ways the same dice fall on other positions, and the luck reading takes out
//! what they then did.

use crate::match_file::{FinishedGame, MatchFile};
use crate::match_runner::MatchReport;
use crate::search_note::SearchNote;
use crate::sprt::LuckAdjusted;
use std::collections::HashMap;

/// What the first player did in one run, over the pairs both runs finished.
#[derive(Clone, Debug)]
pub struct RunSide {
    /// The first player's name (the first `--engine`).
    pub player: String,
    /// Its opponent's name.
    pub opponent: String,
    /// The common pairs' games as this run played them.
    pub report: MatchReport,
    /// The first player's mean depth over its moves that carry a search note (its own unit:
    /// Alea's turns, a chess engine's plies); `None` if none carries one.
    pub mean_depth: Option<f64>,
    /// The first player's mean seconds a move, over the moves whose note gives the time.
    pub mean_seconds: Option<f64>,
}

impl RunSide {
    /// The run's pair scores less their luck, where the referee read it in every pair.
    pub fn luck(&self) -> Option<&LuckAdjusted> {
        (self.report.luck.pairs() == self.report.penta.pairs()).then_some(&self.report.luck)
    }
}

/// A game whose result differs between the runs.
#[derive(Clone, Debug, PartialEq)]
pub struct ChangedGame {
    /// `PAIR.GAME` as the files' `Round` tags write it.
    pub round: String,
    /// The first player's points in each run.
    pub points: (f64, f64),
    /// The game's turns in each run.
    pub turns: (usize, usize),
}

/// Two runs compared over the pairs both finished.
#[derive(Clone, Debug)]
pub struct Comparison {
    pub a: RunSide,
    pub b: RunSide,
    /// Pairs whose two games both runs finished.
    pub pairs: u64,
    /// The first player's points a game in run A minus those in run B, averaged, and the half
    /// width of its 95 % interval (from the pairs' differences).
    pub difference: f64,
    pub margin: f64,
    /// The same difference of points less their luck, and its margin, where every game of the
    /// common pairs carries its luck in both runs.
    pub luck_adjusted: Option<(f64, f64)>,
    /// Games with the same result in both runs, and of those, games played turn for turn alike.
    pub same_result: u64,
    pub same_moves: u64,
    /// The games whose result changed, in the order of their pairs.
    pub changed: Vec<ChangedGame>,
}

/// The words of a `Settings` tag that deal the games: variant, seed, length limit and starts.
/// Two runs agreeing on them played each pair with the same dice from the same position.
fn dealing(settings: &str) -> Vec<&str> {
    settings
        .split_whitespace()
        .filter(|w| ["variant=", "seed=", "max-plies=", "openings="].iter().any(|k| w.starts_with(k)))
        .collect()
}

/// The pairs a file finished, both games each: pair number to (game 1, game 2).
fn whole_pairs(file: &MatchFile) -> HashMap<u64, [&FinishedGame; 2]> {
    let mut halves: HashMap<u64, [Option<&FinishedGame>; 2]> = HashMap::new();
    for g in &file.games {
        halves.entry(g.pair).or_default()[usize::from(g.game_of_pair - 1)] = Some(g);
    }
    halves.into_iter().filter_map(|(pair, [one, two])| Some((pair, [one?, two?]))).collect()
}

/// The first player's notes in a game: its turns alternate with its opponent's from the start's
/// side to move, and it has White in the pair's first game.
fn first_player_notes(game: &FinishedGame) -> impl Iterator<Item = (SearchNote, Option<f64>)> + '_ {
    let black_starts = game.record.start.as_deref().is_some_and(|fen| fen.split_whitespace().nth(1) == Some("b"));
    let first_is_white = game.game_of_pair == 1;
    let offset = usize::from(black_starts == first_is_white);
    game.record.turns.iter().skip(offset).step_by(2).filter_map(|t| SearchNote::read(t.comment.as_deref()?))
}

/// The same turns after the same rolls, from first to last.
fn played_alike(a: &FinishedGame, b: &FinishedGame) -> bool {
    let (ta, tb) = (&a.record.turns, &b.record.turns);
    ta.len() == tb.len() && ta.iter().zip(tb).all(|(x, y)| x.turn == y.turn && x.roll == y.roll)
}

fn run_side(file: &MatchFile, games: &[FinishedGame]) -> RunSide {
    let (player, opponent) = file.players().unwrap_or_default();
    let (mut depths, mut seconds) = (Vec::new(), Vec::new());
    for g in games {
        for (note, time) in first_player_notes(g) {
            depths.push(f64::from(note.depth));
            seconds.extend(time);
        }
    }
    let mean = |v: &[f64]| (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64);
    RunSide {
        player,
        opponent,
        report: MatchReport::from_games(games, None),
        mean_depth: mean(&depths),
        mean_seconds: mean(&seconds),
    }
}

/// Compares two runs (`a`, `b`: the files as read). Refused: runs dealt differently (another
/// variant, seed, length limit or starts) and runs without a pair both finished.
pub fn compare_runs(a: &MatchFile, b: &MatchFile) -> Result<Comparison, String> {
    if a.games.is_empty() || b.games.is_empty() {
        return Err(format!("run {} holds no finished game", if a.games.is_empty() { "A" } else { "B" }));
    }
    let (deal_a, deal_b) = (dealing(&a.settings), dealing(&b.settings));
    if deal_a != deal_b {
        return Err(format!(
            "the runs were not dealt the same dice and starts:\n  A: {}\n  B: {}",
            deal_a.join(" "),
            deal_b.join(" ")
        ));
    }
    let (pairs_a, pairs_b) = (whole_pairs(a), whole_pairs(b));
    let mut common: Vec<u64> = pairs_a.keys().filter(|p| pairs_b.contains_key(p)).copied().collect();
    common.sort_unstable();
    if common.is_empty() {
        return Err("the runs have no pair that both finished".into());
    }
    let (mut games_a, mut games_b) = (Vec::new(), Vec::new());
    let mut differences = Vec::with_capacity(common.len());
    let mut adjusted_differences = Some(Vec::with_capacity(common.len()));
    let (mut same_result, mut same_moves) = (0, 0);
    let mut changed = Vec::new();
    for pair in &common {
        let (pa, pb) = (pairs_a[pair], pairs_b[pair]);
        let mut difference = 0.0;
        for (ga, gb) in pa.into_iter().zip(pb) {
            difference += ga.points - gb.points;
            if ga.points == gb.points {
                same_result += 1;
                same_moves += u64::from(played_alike(ga, gb));
            } else {
                changed.push(ChangedGame {
                    round: format!("{}.{}", pair + 1, ga.game_of_pair),
                    points: (ga.points, gb.points),
                    turns: (ga.record.turns.len(), gb.record.turns.len()),
                });
            }
            games_a.push(ga.clone());
            games_b.push(gb.clone());
        }
        // A pair's difference, a game's share of it.
        differences.push(difference / 2.0);
        let adjusted = |games: [&FinishedGame; 2]| games.iter().map(|g| g.adjusted_points()).sum::<Option<f64>>();
        adjusted_differences = adjusted_differences.zip(adjusted(pa).zip(adjusted(pb))).map(|(mut v, (a, b))| {
            v.push((a - b) / 2.0);
            v
        });
    }
    let (difference, margin) = mean_and_margin(&differences);
    Ok(Comparison {
        a: run_side(a, &games_a),
        b: run_side(b, &games_b),
        pairs: common.len() as u64,
        difference,
        margin,
        luck_adjusted: adjusted_differences.map(|d| mean_and_margin(&d)),
        same_result,
        same_moves,
        changed,
    })
}

/// The mean of the pairs' differences and the half width of its 95 % interval.
fn mean_and_margin(differences: &[f64]) -> (f64, f64) {
    let n = differences.len() as f64;
    let mean = differences.iter().sum::<f64>() / n;
    let variance = if n > 1.0 { differences.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0) } else { 0.0 };
    (mean, 1.96 * (variance / n).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::match_file::read_match_file;

    /// A game of a match file: the first player `first` (White in game 1), two turns with notes.
    fn game(round: &str, result: &str, seed: u64, first: &str, moves: &str) -> String {
        let (white, black) = if round.ends_with(".1") { (first, "sf") } else { ("sf", first) };
        format!(
            "[Event \"alea match\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\
             [Result \"{result}\"]\n[Variant \"freedom\"]\n\
             [Settings \"variant=freedom seed={seed} max-plies=600 openings=start tc=none sprt=none players=x\"]\n\n\
             {moves} {result}\n\n"
        )
    }

    fn file(games: &[(&str, &str)], seed: u64, first: &str, moves: &str) -> MatchFile {
        let text: String = games.iter().map(|(round, result)| game(round, result, seed, first, moves)).collect();
        read_match_file(&text).unwrap()
    }

    const A_MOVES: &str = "1. e4 {[%roll 1] +0.20/5 0.100s} e5 {[%roll 1] +0.10/12 0.100s}";
    const B_MOVES: &str = "1. d4 {[%roll 1] +0.30/3 0.300s} d5 {[%roll 1] +0.00/14 0.100s}";

    #[test]
    fn pairs_both_runs_finished_are_compared_game_by_game() {
        // Pair 1: A wins both, B wins one. Pair 2: both runs draw twice. Pair 3 only in A.
        let a = file(
            &[("1.1", "1-0"), ("1.2", "0-1"), ("2.1", "1/2-1/2"), ("2.2", "1/2-1/2"), ("3.1", "1-0")],
            7,
            "new",
            A_MOVES,
        );
        let b = file(&[("1.1", "1-0"), ("1.2", "1-0"), ("2.1", "1/2-1/2"), ("2.2", "1/2-1/2")], 7, "old", B_MOVES);
        let c = compare_runs(&a, &b).unwrap();
        assert_eq!(c.pairs, 2);
        assert_eq!((c.a.report.games(), c.b.report.games()), (4, 4));
        // Pair differences a game: (2 - 1) / 2 and 0.
        assert!((c.difference - 0.25).abs() < 1e-12);
        assert!((c.margin - 1.96 * (0.125f64 / 2.0).sqrt()).abs() < 1e-12);
        assert_eq!((c.same_result, c.same_moves), (3, 0));
        assert_eq!(c.changed, vec![ChangedGame { round: "1.2".into(), points: (1.0, 0.0), turns: (2, 2) }]);
        // The first player's own moves: White's in game 1, Black's in game 2.
        assert_eq!((c.a.player.as_str(), c.b.player.as_str()), ("new", "old"));
        assert_eq!(c.a.mean_depth, Some((5.0 + 12.0) / 2.0));
        assert_eq!(c.b.mean_depth, Some((3.0 + 14.0) / 2.0));
        assert!((c.b.mean_seconds.unwrap() - 0.2).abs() < 1e-12);
        // The same moves and rolls in both: counted as played alike (pair 3 is not whole).
        let same = compare_runs(&a, &a).unwrap();
        assert_eq!((same.pairs, same.difference, same.same_result, same.same_moves), (2, 0.0, 4, 4));
    }

    /// `games` as (round, result, White's luck or none) in a run of seed 7.
    fn lucky_file(games: &[(&str, &str, Option<&str>)]) -> MatchFile {
        let text: String = games
            .iter()
            .map(|(round, result, luck)| {
                let tag = luck.map_or(String::new(), |l| format!("[WhiteLuck \"{l}\"]\n"));
                game(round, result, 7, "alea", A_MOVES).replacen("[Variant", &format!("{tag}[Variant"), 1)
            })
            .collect();
        read_match_file(&text).unwrap()
    }

    #[test]
    fn points_less_their_luck_are_compared_where_both_runs_read_it() {
        // The first player's luck is White's in game 1 and minus White's in game 2.
        let a = lucky_file(&[
            ("1.1", "1-0", Some("+0.25")),
            ("1.2", "0-1", Some("-0.5")),
            ("2.1", "0-1", Some("-0.125")),
            ("2.2", "1/2-1/2", Some("+0")),
        ]);
        let b = lucky_file(&[
            ("1.1", "0-1", Some("-0.25")),
            ("1.2", "1-0", Some("+0.5")),
            ("2.1", "0-1", Some("+0")),
            ("2.2", "1-0", Some("+0.25")),
        ]);
        let c = compare_runs(&a, &b).unwrap();
        // Plain, pair by pair: (2 - 0) / 2 = 1 and (0.5 - 0) / 2 = 0.25.
        assert!((c.difference - 0.625).abs() < 1e-12);
        // Less their luck: A's pairs 0.75 + 0.5 and 0.125 + 0.5 against B's 0.25 + 0.5 and
        // 0 + 0.25, differences (1.25 - 0.75) / 2 = 0.25 and (0.625 - 0.25) / 2 = 0.1875.
        let (difference, margin) = c.luck_adjusted.expect("every game carries its luck");
        assert!((difference - 0.21875).abs() < 1e-12);
        let expected_margin = 1.96 * ((2.0 * 0.03125f64.powi(2)) / 2.0_f64).sqrt();
        assert!((margin - expected_margin).abs() < 1e-12, "{margin} against {expected_margin}");
        // One game of the common pairs without its luck: no adjusted difference.
        let unread = lucky_file(&[
            ("1.1", "0-1", Some("-0.25")),
            ("1.2", "1-0", Some("+0.5")),
            ("2.1", "0-1", None),
            ("2.2", "1-0", Some("+0.25")),
        ]);
        assert_eq!(compare_runs(&a, &unread).unwrap().luck_adjusted, None);
        // A pair only one run finished does not count, read or not.
        let mut longer = a.clone();
        longer.games.extend(lucky_file(&[("3.1", "1-0", None)]).games);
        assert!(compare_runs(&longer, &b).unwrap().luck_adjusted.is_some());
    }

    #[test]
    fn runs_of_other_dice_or_without_common_pairs_are_refused() {
        let a = file(&[("1.1", "1-0"), ("1.2", "0-1")], 7, "new", A_MOVES);
        let other_seed = file(&[("1.1", "1-0"), ("1.2", "0-1")], 8, "new", A_MOVES);
        assert!(compare_runs(&a, &other_seed).unwrap_err().to_string().contains("not dealt the same dice"));
        let half = file(&[("1.1", "1-0"), ("2.2", "0-1")], 7, "new", A_MOVES);
        assert!(compare_runs(&a, &half).unwrap_err().to_string().contains("no pair that both finished"));
        assert!(
            compare_runs(&a, &MatchFile::default()).unwrap_err().to_string().contains("run B holds no finished game")
        );
    }
}
