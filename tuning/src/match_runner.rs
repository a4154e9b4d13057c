//! A match: pairs of games from the same opening with colours swapped and the same dice, each game
//! appended to the PGN file as soon as it ends, resumable from that file, scored by pairs.

use crate::players::Player;
use crate::referee::play_game;
use crate::sprt::{Pentanomial, sprt_bounds};
use alea_engine::handle::GameHandle;
use alea_engine::pgn::GameRecord;
use alea_engine::{Color, GameResult};
use std::io::Write;
use std::path::PathBuf;

/// Where the games start.
#[derive(Clone, Debug)]
pub enum Openings {
    StartPos,
    /// A Chess960 start per pair, drawn from the seed.
    Chess960,
    /// Positions in turn, one per pair (FEN, or DFEN where the variant has it).
    Fens(Vec<String>),
}

/// An SPRT to stop at.
#[derive(Copy, Clone, Debug)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The `UCI_Variant` name.
    pub variant: String,
    pub chess960: bool,
    pub pairs: u64,
    pub seed: u64,
    pub max_plies: usize,
    pub openings: Openings,
    pub pgn: Option<PathBuf>,
    pub sprt: Option<Sprt>,
    /// Clocks for both players (replacing their per-move limits).
    pub tc: Option<crate::referee::TimeControl>,
}

/// The state of a match: the first player's results.
#[derive(Clone, Debug, Default)]
pub struct MatchReport {
    pub penta: Pentanomial,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Games that ended by a player's failure, with the reason.
    pub failures: Vec<String>,
    /// `Some(true)`: H1 accepted; `Some(false)`: H0 accepted.
    pub sprt: Option<bool>,
}

impl MatchReport {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    fn count(&mut self, points: f64) {
        if points == 1.0 {
            self.wins += 1;
        } else if points == 0.5 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }

    /// One line: score, Elo with its interval, LOS, draw ratio.
    pub fn summary(&self) -> String {
        format!(
            "games {} (+{} ={} -{}), pairs {}, {}, LOS {:.1}%, draws {:.1}%",
            self.games(),
            self.wins,
            self.draws,
            self.losses,
            self.penta.pairs(),
            self.penta.elo_text(),
            self.penta.los() * 100.0,
            self.draws as f64 * 100.0 / self.games().max(1) as f64
        )
    }
}

/// Opening positions of `variant` from a file of FENs or EPD lines (the first four fields are the
/// position; blank lines and `#` comments skipped), each as the game writes it. Every line must be
/// a position the variant can start from; the first bad one is named.
pub fn read_openings(text: &str, variant: &str, chess960: bool) -> Result<Vec<String>, String> {
    let mut boards = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        // EPD has four position fields then operations; a FEN may add the two clocks.
        let fen = if fields.len() >= 6 && fields[4].parse::<u32>().is_ok() && fields[5].parse::<u32>().is_ok() {
            fields[..6].join(" ")
        } else {
            fields[..fields.len().min(4)].join(" ")
        };
        let game =
            GameHandle::setup(variant, chess960, Some(&fen), None, &[]).map_err(|e| format!("line {}: {e}", n + 1))?;
        boards.push(game.fen());
    }
    if boards.is_empty() {
        return Err("no positions in the openings file".into());
    }
    Ok(boards)
}

fn points_for(result: GameResult, color: Color) -> f64 {
    match result {
        GameResult::Win(c) if c == color => 1.0,
        GameResult::Win(_) => 0.0,
        GameResult::Draw => 0.5,
    }
}

/// The start of a pair's games as a FEN (`None`: the standard start).
fn opening(config: &MatchConfig, pair: u64) -> Option<String> {
    match &config.openings {
        Openings::StartPos => None,
        Openings::Chess960 => {
            Some(GameHandle::chess960_start(alea_engine::pairing::draw(config.seed, pair, u64::MAX, 960)))
        }
        Openings::Fens(list) => Some(list[(pair as usize) % list.len()].clone()),
    }
}

/// Games already in the PGN file: (pair, game of the pair 1 or 2, points of the first player).
fn finished_games(path: &PathBuf) -> Result<Vec<(u64, u8, f64)>, String> {
    let Ok(text) = std::fs::read_to_string(path) else { return Ok(Vec::new()) };
    let mut done = Vec::new();
    for chunk in text.split("\n[Event ").filter(|c| !c.trim().is_empty()) {
        let chunk = if chunk.starts_with("[Event ") { chunk.to_string() } else { format!("[Event {chunk}") };
        // A game cut off by a kill is simply played again.
        let Ok(record) = GameRecord::from_pgn(&chunk) else { continue };
        let tag = |n: &str| record.tags.iter().find(|(t, _)| t == n).map(|(_, v)| v.clone());
        let Some(round) = tag("Round") else { continue };
        let Some((pair, game)) = round.split_once('.') else { continue };
        let (Ok(pair), Ok(game)) = (pair.parse::<u64>(), game.parse::<u8>()) else { continue };
        if record.result == "*" {
            continue;
        }
        let first_is_white = game == 1;
        let points = match record.result.as_str() {
            "1-0" => {
                if first_is_white {
                    1.0
                } else {
                    0.0
                }
            }
            "0-1" => {
                if first_is_white {
                    0.0
                } else {
                    1.0
                }
            }
            _ => 0.5,
        };
        done.push((pair - 1, game, points));
    }
    Ok(done)
}

/// Makes a player: each thread of a match gets its own pair of players.
pub type PlayerFactory<'a> = dyn Fn() -> Box<dyn Player + Send> + Sync + 'a;

/// What the threads of a match share.
struct Shared<'a> {
    report: MatchReport,
    file: Option<std::fs::File>,
    progress: &'a mut (dyn FnMut(&MatchReport) + Send),
    error: Option<String>,
}

/// Runs (or resumes) a match of the `first` player against the `second`, `concurrency` pairs at
/// a time; `progress` is called after each pair.
pub fn run_match(
    first: &PlayerFactory,
    second: &PlayerFactory,
    config: &MatchConfig,
    concurrency: usize,
    progress: &mut (dyn FnMut(&MatchReport) + Send),
) -> Result<MatchReport, String> {
    let done = match &config.pgn {
        Some(path) => finished_games(path)?,
        None => Vec::new(),
    };
    let file = match &config.pgn {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot open {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let shared = std::sync::Mutex::new(Shared { report: MatchReport::default(), file, progress, error: None });
    let next_pair = std::sync::atomic::AtomicU64::new(0);
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..concurrency.max(1) {
            scope.spawn(|| {
                let (mut a, mut b) = (first(), second());
                loop {
                    let pair = next_pair.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if pair >= config.pairs || stop.load(std::sync::atomic::Ordering::Relaxed) {
                        return;
                    }
                    if !play_pair(a.as_mut(), b.as_mut(), config, pair, &done, &shared, &stop) {
                        stop.store(true, std::sync::atomic::Ordering::Relaxed);
                        return;
                    }
                }
            });
        }
    });
    let shared = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    match shared.error {
        Some(e) => Err(e),
        None => Ok(shared.report),
    }
}

/// Plays (or takes from the file) both games of one pair; false if the match must stop (an
/// SPRT bound, or the PGN cannot be written).
fn play_pair(
    first: &mut dyn Player,
    second: &mut dyn Player,
    config: &MatchConfig,
    pair: u64,
    done: &[(u64, u8, f64)],
    shared: &std::sync::Mutex<Shared>,
    stop: &std::sync::atomic::AtomicBool,
) -> bool {
    let start = opening(config, pair);
    let mut pair_points = 0.0;
    for game_of_pair in [1u8, 2] {
        if let Some(&(_, _, points)) = done.iter().find(|&&(p, g, _)| p == pair && g == game_of_pair) {
            pair_points += points;
            shared.lock().unwrap_or_else(|e| e.into_inner()).report.count(points);
            continue;
        }
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return false;
        }
        let (white, black): (&mut dyn Player, &mut dyn Player) =
            if game_of_pair == 1 { (&mut *first, &mut *second) } else { (&mut *second, &mut *first) };
        let mut refereed = play_game(
            white,
            black,
            &config.variant,
            config.chess960,
            start.as_deref(),
            config.seed,
            pair,
            config.max_plies,
            config.tc,
        );
        let first_color = if game_of_pair == 1 { Color::White } else { Color::Black };
        let points = points_for(refereed.result, first_color);
        refereed.record.tags.insert(0, ("Event".into(), "alea match".into()));
        refereed.record.tags.insert(1, ("Date".into(), alea_engine::pgn::today()));
        refereed.record.tags.push(("Round".into(), format!("{}.{game_of_pair}", pair + 1)));
        refereed.record.tags.push(("Seed".into(), config.seed.to_string()));
        let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
        if refereed.failed {
            s.report.failures.push(format!("pair {} game {game_of_pair}: {}", pair + 1, refereed.reason));
        }
        if let Some(f) = s.file.as_mut() {
            // Written and flushed at once: a kill loses at most the games being played.
            let written = f
                .write_all(refereed.record.to_pgn().as_bytes())
                .and_then(|()| f.write_all(b"\n"))
                .and_then(|()| f.flush());
            if let Err(e) = written {
                s.error = Some(format!("cannot write the PGN: {e}"));
                return false;
            }
        }
        s.report.count(points);
        pair_points += points;
    }
    let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
    s.report.penta.add(pair_points);
    if let Some(sprt) = config.sprt {
        let llr = s.report.penta.llr(sprt.elo0, sprt.elo1);
        let (lower, upper) = sprt_bounds(sprt.alpha, sprt.beta);
        if llr >= upper {
            s.report.sprt = Some(true);
        } else if llr <= lower {
            s.report.sprt = Some(false);
        }
    }
    let report = s.report.clone();
    (s.progress)(&report);
    s.report.sprt.is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_from_fen_and_epd_lines() {
        let text = "# comment\n\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\
                    rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - id \"open\";\n";
        let boards = read_openings(text, "freedom", false).unwrap();
        assert_eq!(boards.len(), 2);
        assert_eq!(boards[1], "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1");
        assert!(read_openings("", "freedom", false).is_err());
        assert!(read_openings("8/8 w\n", "freedom", false).unwrap_err().starts_with("line 1:"));
        // Each line is checked against the variant: no kings is BrainKing's business only.
        let kingless = "8/8/8/8/8/8/PPPPPPPP/RNBQ1BNR w - - 0 1\n";
        assert!(read_openings(kingless, "freedom", false).unwrap_err().starts_with("line 1:"));
        // dicechess3 keeps its DFEN (en-passant targets of the last turn's double steps).
        let dfen =
            read_openings("rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq d3e3 0 1\n", "dicechess3", false);
        assert_eq!(dfen.unwrap(), ["rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq d3e3 0 1"]);
    }
}
