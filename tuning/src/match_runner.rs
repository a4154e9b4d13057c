//! A match: pairs of games from the same opening with colours swapped and the same dice, each game
//! appended to the PGN file as soon as it ends, resumable from that file, scored by pairs.

use crate::match_file::{FinishedGame, read_match_file};
use crate::players::Player;
use crate::referee::play_game;
use crate::shard::Shard;
use crate::sprt::{LuckAdjusted, Pentanomial, sprt_bounds};
use alea_engine::services::handle::GameHandle;
use alea_engine::services::registry::Variant;
use alea_engine::services::search::spawn_deep;
use std::io::Write;
use std::path::PathBuf;

/// The table of the referee's searches for the luck of a game's rolls (a few thousand nodes
/// each).
const LUCK_TABLE_MIB: usize = 1;

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
    /// Decide on the pairs' scores less their luck (`luck=1`): the same hypotheses, tested on
    /// the narrower scores, so fewer pairs decide.
    pub luck: bool,
}

#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The `UCI_Variant` name.
    pub variant: Variant,
    pub chess960: bool,
    pub pairs: u64,
    pub seed: u64,
    pub max_plies: usize,
    pub openings: Openings,
    pub pgn: Option<PathBuf>,
    pub sprt: Option<Sprt>,
    /// Clocks for both players (replacing their per-move limits).
    pub tc: Option<crate::referee::TimeControl>,
    /// The pairs this run plays: its shard of `pairs`.
    pub shard: Shard,
    /// What else decides the games: the players as given and their default limit.
    pub players: String,
}

impl MatchConfig {
    /// Everything that decides the games but the number of pairs, as each game's `Settings` tag
    /// writes it: a resumed match and the shards of a merge must agree on it. (The number of
    /// pairs may differ: a match can be extended, and pair `k` is the same game in any length.)
    pub fn settings(&self) -> String {
        let openings = match &self.openings {
            Openings::StartPos => "start".to_string(),
            Openings::Chess960 => "chess960".to_string(),
            Openings::Fens(list) => {
                // FNV-1a of the positions: files of the same positions agree, whatever their name.
                let hash = list
                    .iter()
                    .flat_map(|f| f.bytes().chain([b'\n']))
                    .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3));
                format!("{}-positions-{hash:016x}", list.len())
            }
        };
        let tc = self.tc.map_or("none".to_string(), |t| format!("{}+{}ms", t.base, t.increment));
        format!(
            "variant={}{} seed={} max-plies={} openings={openings} tc={tc} sprt={} players={}",
            self.variant,
            if self.chess960 { "960" } else { "" },
            self.seed,
            self.max_plies,
            self.sprt.map_or("none".to_string(), |s| s.text()),
            self.players
        )
    }
}

impl Sprt {
    /// As `--sprt` takes it, the words joined by commas.
    pub fn text(&self) -> String {
        let luck = if self.luck { ",luck=1" } else { "" };
        format!("elo0={},elo1={},alpha={},beta={}{luck}", self.elo0, self.elo1, self.alpha, self.beta)
    }

    /// The words of [`Sprt::text`] (or of `--sprt`, comma- or space-separated); unnamed ones
    /// keep the defaults `elo0=0 elo1=10 alpha=0.05 beta=0.05`.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut s = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05, luck: false };
        for word in text.split([',', ' ']).filter(|w| !w.is_empty()) {
            let (k, v) = word.split_once('=').ok_or_else(|| format!("--sprt '{word}' is not key=value"))?;
            let v = v.parse::<f64>().map_err(|_| format!("--sprt {k} takes a number"))?;
            match k {
                "elo0" => s.elo0 = v,
                "elo1" => s.elo1 = v,
                "alpha" => s.alpha = v,
                "beta" => s.beta = v,
                "luck" if v == 0.0 || v == 1.0 => s.luck = v == 1.0,
                "luck" => return Err("--sprt luck takes 0 or 1".into()),
                _ => return Err(format!("--sprt has no '{k}'")),
            }
        }
        Ok(s)
    }

    /// The log-likelihood ratio of the report's pairs: their plain scores, or with `luck` their
    /// scores less their luck.
    pub fn llr(&self, report: &MatchReport) -> f64 {
        if self.luck { report.luck.llr(self.elo0, self.elo1) } else { report.penta.llr(self.elo0, self.elo1) }
    }

    /// Where the log-likelihood ratio says to stop: `Some(true)` H1, `Some(false)` H0.
    pub fn decision(&self, report: &MatchReport) -> Option<bool> {
        let llr = self.llr(report);
        let (lower, upper) = sprt_bounds(self.alpha, self.beta);
        if llr >= upper {
            Some(true)
        } else if llr <= lower {
            Some(false)
        } else {
            None
        }
    }
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
    /// The SPRT's decision, once it has taken one.
    pub sprt: Option<SprtDecision>,
    /// The pairs whose every roll's luck the referee read, scored less it.
    pub luck: LuckAdjusted,
}

/// An SPRT's decision and where it was taken: pairs that finish after it (a concurrent match's
/// games in flight) move the ratio but not the decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtDecision {
    /// H1 accepted (else H0).
    pub h1: bool,
    /// The pairs counted when the ratio crossed a bound.
    pub pairs: u64,
    /// The log-likelihood ratio then.
    pub llr: f64,
}

impl MatchReport {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Adds a finished game (not its pair: see [`MatchReport::from_games`]).
    fn count_game(&mut self, game: &FinishedGame) {
        if let Some(reason) = &game.failure {
            self.failures.push(format!("pair {} game {}: {reason}", game.pair + 1, game.game_of_pair));
        }
        let points = game.points;
        if points == 1.0 {
            self.wins += 1;
        } else if points == 0.5 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }

    /// The report of finished games in any order (as a merge of shards reads them): each game
    /// counted, each pair whose two games are there scored, the SPRT decided at the first pair,
    /// in the pairs' order, where its ratio crossed a bound ([`MatchReport::add_pair`]).
    pub fn from_games(games: &[FinishedGame], sprt: Option<Sprt>) -> MatchReport {
        let mut sorted: Vec<&FinishedGame> = games.iter().collect();
        sorted.sort_by_key(|g| (g.pair, g.game_of_pair));
        let mut report = MatchReport::default();
        for (i, game) in sorted.iter().enumerate() {
            report.count_game(game);
            if game.game_of_pair == 2 && i > 0 && sorted[i - 1].pair == game.pair {
                let adjusted = sorted[i - 1].adjusted_points().zip(game.adjusted_points()).map(|(a, b)| a + b);
                report.add_pair(sorted[i - 1].points + game.points, adjusted, sprt);
            }
        }
        report
    }

    /// Adds a pair's points and asks the SPRT, which stops at the first crossing of a bound: pairs
    /// that finish after it (a concurrent match's games in flight when it stopped) are counted
    /// but do not take the decision back.
    fn add_pair(&mut self, points: f64, adjusted: Option<f64>, sprt: Option<Sprt>) {
        self.penta.add(points);
        if let Some(adjusted) = adjusted {
            self.luck.add(points, adjusted);
        }
        if self.sprt.is_none()
            && let Some(s) = sprt
        {
            self.sprt = s.decision(self).map(|h1| SprtDecision { h1, pairs: self.penta.pairs(), llr: s.llr(self) });
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
pub fn read_openings(text: &str, variant: Variant, chess960: bool) -> Result<Vec<String>, String> {
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

/// The start of a pair's games as a FEN (`None`: the standard start).
fn opening(config: &MatchConfig, pair: u64) -> Option<String> {
    match &config.openings {
        Openings::StartPos => None,
        Openings::Chess960 => Some(GameHandle::chess960_start(alea_engine::services::search::seeded_draw(
            config.seed,
            pair,
            u64::MAX,
            960,
        ))),
        Openings::Fens(list) => Some(list[(pair as usize) % list.len()].clone()),
    }
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
/// a time; `progress` is called after each pair. A shard plays only its pairs and does not stop at
/// an SPRT bound (the merge of all shards decides).
pub fn run_match(
    first: &PlayerFactory,
    second: &PlayerFactory,
    config: &MatchConfig,
    concurrency: usize,
    progress: &mut (dyn FnMut(&MatchReport) + Send),
) -> Result<MatchReport, String> {
    let (done, file) = match &config.pgn {
        Some(path) => {
            let (done, file) = open_for_resume(path, &config.settings())?;
            (done, Some(file))
        }
        None => (Vec::new(), None),
    };
    let shared = std::sync::Mutex::new(Shared { report: MatchReport::default(), file, progress, error: None });
    let pairs: Vec<u64> = config.shard.items(config.pairs).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        for worker in 0..concurrency.max(1) {
            // On a search's deep stack: each of the engine's searches runs on this thread rather
            // than making one, and its stack, every decision.
            let worker = spawn_deep(scope, format!("match-{worker}"), || {
                let (mut a, mut b) = (first(), second());
                loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if k >= pairs.len() || stop.load(std::sync::atomic::Ordering::Relaxed) {
                        return;
                    }
                    if !play_pair(a.as_mut(), b.as_mut(), config, pairs[k], &done, &shared, &stop) {
                        stop.store(true, std::sync::atomic::Ordering::Relaxed);
                        return;
                    }
                }
            });
            if let Err(e) = worker {
                shared
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .error
                    .get_or_insert(format!("cannot start a thread: {e}"));
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        }
    });
    let shared = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    match shared.error {
        Some(e) => Err(e),
        None => Ok(shared.report),
    }
}

/// The games already in the match file, and the file open for appending after them: a game cut
/// off by a kill is cut from the file (and played again), games of other settings are refused.
fn open_for_resume(path: &std::path::Path, settings: &str) -> Result<(Vec<FinishedGame>, std::fs::File), String> {
    let shown = path.display();
    let text = match std::fs::read(path) {
        Ok(bytes) => {
            String::from_utf8(bytes).map_err(|_| format!("{shown}: not a PGN file of alea match (not text)"))?
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("cannot read {shown}: {e}")),
    };
    let existing = read_match_file(&text).map_err(|e| format!("{shown}: {e}"))?;
    if !existing.games.is_empty() && existing.settings != settings {
        return Err(format!(
            "{shown} was played with other settings:\n  file: {}\n  now:  {settings}",
            existing.settings
        ));
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open {shown}: {e}"))?;
    if existing.complete_len < text.len() {
        // Appending after half a game would glue the next game to it.
        file.set_len(existing.complete_len as u64).map_err(|e| format!("cannot cut {shown}: {e}"))?;
    }
    Ok((existing.games, file))
}

/// Plays (or takes from the file) both games of one pair; false if the match must stop (an
/// SPRT bound, or the PGN cannot be written).
fn play_pair(
    first: &mut dyn Player,
    second: &mut dyn Player,
    config: &MatchConfig,
    pair: u64,
    done: &[FinishedGame],
    shared: &std::sync::Mutex<Shared>,
    stop: &std::sync::atomic::AtomicBool,
) -> bool {
    let start = opening(config, pair);
    let settings = config.settings();
    let mut pair_points = 0.0;
    let mut pair_adjusted = Some(0.0);
    for game_of_pair in [1u8, 2] {
        if let Some(game) = done.iter().find(|g| g.pair == pair && g.game_of_pair == game_of_pair) {
            pair_points += game.points;
            pair_adjusted = pair_adjusted.zip(game.adjusted_points()).map(|(a, b)| a + b);
            let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
            s.report.count_game(game);
            continue;
        }
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return false;
        }
        let (white, black): (&mut dyn Player, &mut dyn Player) =
            if game_of_pair == 1 { (&mut *first, &mut *second) } else { (&mut *second, &mut *first) };
        // The referee's own searches, for the luck of the rolls.
        let luck_table = alea_engine::services::search::Shared::new(LUCK_TABLE_MIB);
        let mut refereed = play_game(
            white,
            black,
            config.variant,
            config.chess960,
            start.as_deref(),
            config.seed,
            pair,
            config.max_plies,
            config.tc,
            Some(&luck_table),
        );
        let points = crate::match_file::points(&refereed.record.result, game_of_pair);
        let tags = &mut refereed.record.tags;
        tags.insert(0, ("Event".into(), "alea match".into()));
        tags.insert(1, ("Date".into(), alea_engine::services::pgn::today()));
        tags.push(("Round".into(), format!("{}.{game_of_pair}", pair + 1)));
        tags.push(("Seed".into(), config.seed.to_string()));
        tags.push(("Settings".into(), settings.clone()));
        if refereed.failed {
            tags.push(("Failure".into(), refereed.reason.clone()));
        }
        let game = FinishedGame {
            pair,
            game_of_pair,
            points,
            failure: refereed.failed.then(|| refereed.reason.clone()),
            settings: settings.clone(),
            record: refereed.record,
        };
        let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(f) = s.file.as_mut() {
            // Written and flushed at once: a kill loses at most the games being played.
            let written =
                f.write_all(game.record.to_pgn().as_bytes()).and_then(|()| f.write_all(b"\n")).and_then(|()| f.flush());
            if let Err(e) = written {
                s.error = Some(format!("cannot write the PGN: {e}"));
                return false;
            }
        }
        s.report.count_game(&game);
        pair_points += points;
        pair_adjusted = pair_adjusted.zip(game.adjusted_points()).map(|(a, b)| a + b);
    }
    let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
    let sprt = config.sprt.filter(|_| config.shard.is_whole());
    s.report.add_pair(pair_points, pair_adjusted, sprt);
    let report = s.report.clone();
    (s.progress)(&report);
    s.report.sprt.is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A match of two workers stopped by one of them at the crossing; the other's pair, in
    /// flight then, finished after it and took the ratio back under the bound. The decision
    /// stands (it once printed "no decision" over such a match's 328 pairs).
    #[test]
    fn the_sprt_keeps_its_decision_when_later_pairs_move_the_ratio() {
        let sprt = Some(Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05, luck: false });
        let (_, upper) = sprt_bounds(0.05, 0.05);
        let mut report = MatchReport::default();
        // Pairs won and drawn in turn lift the ratio until it crosses.
        let mut k = 0u64;
        while report.sprt.is_none() {
            report.add_pair(if k.is_multiple_of(2) { 2.0 } else { 1.0 }, None, sprt);
            k += 1;
            assert!(k < 10_000, "never crossed");
        }
        let decision = report.sprt.unwrap();
        assert!(decision.h1);
        assert_eq!(decision.pairs, k);
        assert!(decision.llr >= upper, "{}", decision.llr);
        report.add_pair(0.0, None, sprt);
        assert!(report.penta.llr(0.0, 10.0) < upper, "the late pair lowers the ratio");
        assert_eq!(report.sprt, Some(decision));
        // Without an SPRT nothing is decided.
        let mut plain = MatchReport::default();
        plain.add_pair(2.0, None, None);
        assert_eq!(plain.sprt, None);
    }

    #[test]
    fn openings_from_fen_and_epd_lines() {
        let text = "# comment\n\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\
                    rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - id \"open\";\n";
        let boards = read_openings(text, Variant::Freedom, false).unwrap();
        assert_eq!(boards.len(), 2);
        assert_eq!(boards[1], "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1");
        assert!(read_openings("", Variant::Freedom, false).is_err());
        assert!(read_openings("8/8 w\n", Variant::Freedom, false).unwrap_err().starts_with("line 1:"));
        // Each line is checked against the variant: no kings is BrainKing's business only.
        let kingless = "8/8/8/8/8/8/PPPPPPPP/RNBQ1BNR w - - 0 1\n";
        assert!(read_openings(kingless, Variant::Freedom, false).unwrap_err().starts_with("line 1:"));
        // dicechess3 keeps its DFEN (en-passant targets of the last turn's double steps).
        let dfen = read_openings(
            "rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq d3e3 0 1\n",
            Variant::DiceChess3,
            false,
        );
        assert_eq!(dfen.unwrap(), ["rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq d3e3 0 1"]);
    }
}
