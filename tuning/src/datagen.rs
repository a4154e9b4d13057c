//! Self-play data for tuning: games refereed like a match's, with seeded dice, written as the
//! quiet positions they passed through and the result each game reached.
//!
//! The file is text, one game after another; each game's position lines come first and its
//! `game` line last, so a game is in the file only once its `game` line is:
//!
//! ```text
//! # alea datagen variant=freedom depth=2 seed=1 random-plies=8
//! rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1 | 1-0
//! ...
//! game 17 1-0 plies 87 white-freedom 3 black-freedom 1 recapture 2 defend 1 check 2 reason checkmate
//! ```
//!
//! A run killed at any moment is resumed from the file: the text after the last complete `game`
//! line is cut off, and only the games missing from the file are played (game `i` always gets the
//! same dice, so a resumed run ends with the file an uninterrupted one would have, up to order).

use crate::players::{AleaPlayer, MoveLimit, Player, RandomPlayer};
use crate::referee::play_game;
use crate::shard::Shard;
use alea_engine::handle::{GameHandle, RollSpec};
use alea_engine::params::EvalParams;
use alea_engine::rules::Roll;
use alea_engine::{Board, Color, GameResult};
use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// What to generate.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// The `UCI_Variant` name.
    pub variant: String,
    pub chess960: bool,
    pub games: u64,
    pub limit: MoveLimit,
    pub seed: u64,
    /// Opening plies played uniformly at random, so that games spread out.
    pub random_plies: usize,
    pub max_plies: usize,
    /// Evaluation for the players; `None` is the variant's default.
    pub eval: Option<Arc<EvalParams>>,
    /// The games this run plays: its shard of `games`.
    pub shard: Shard,
}

impl DatagenConfig {
    /// The file's first line: a resumed run must match it.
    /// A shard's file names its shard last (` shard=3/64`), which a merge takes off.
    pub fn header(&self) -> String {
        let shard = if self.shard.is_whole() { String::new() } else { format!(" shard={}", self.shard) };
        format!(
            "# alea datagen variant={} {} seed={} random-plies={} max-plies={}{shard}",
            self.variant_tag(),
            self.limit.text(),
            self.seed,
            self.random_plies,
            self.max_plies
        )
    }
}

impl DatagenConfig {
    /// The variant as the header names it: `960` appended for Chess960 starts.
    fn variant_tag(&self) -> String {
        format!("{}{}", self.variant, if self.chess960 { "960" } else { "" })
    }
}

/// One game's summary line, as read back.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSummary {
    pub index: u64,
    /// From White's side: 1, 0.5 or 0.
    pub white_score: f64,
    pub plies: u32,
    /// Freedom moves played (without rolling) by White and by Black.
    pub freedom: [u32; 2],
    /// Of those, how many met each condition (a move may meet several): recapture, defend, check.
    pub kinds: [u32; 3],
    pub reason: String,
}

/// A quiet position of a game with the game's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub board: Board,
    pub white_score: f64,
}

/// A data file read back: its header, samples and game summaries.
#[derive(Clone, Debug, Default)]
pub struct DataSet {
    pub header: String,
    pub samples: Vec<Sample>,
    pub games: Vec<GameSummary>,
}

fn result_text(white_score: f64) -> &'static str {
    if white_score == 1.0 {
        "1-0"
    } else if white_score == 0.0 {
        "0-1"
    } else {
        "1/2-1/2"
    }
}

fn parse_result(text: &str) -> Option<f64> {
    match text {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
}

/// Is the position before this turn quiet: not in check, and no turn the roll (or Freedom)
/// allows wins material at once (no capture, no promotion, in any of its micro-moves)?
fn is_quiet(game: &GameHandle, roll: Option<&Roll>) -> bool {
    let Some(roll) = roll else { return false };
    if game.in_check() {
        return false;
    }
    // The most any allowed turn wins (searched, not listed: a Gollon roll allows millions).
    let Ok((_, most)) = game.greedy_turn(&RollSpec::Faces(roll.faces().to_vec())) else { return false };
    most == 0 && game.pre_roll_turns().iter().all(|t| game.material_gain(t) == 0)
}

/// Plays game `index` and returns its lines (positions, then the `game` line).
pub fn generate_game(config: &DatagenConfig, index: u64) -> String {
    let mut players = [SelfPlayer::new(config, index), SelfPlayer::new(config, index)];
    let [white, black] = &mut players;
    // Chess960 rule sets start each game from one of the 960 positions in turn.
    let start_fen = config.chess960.then(|| alea_engine::handle::GameHandle::chess960_start(index));
    let played = play_game(
        white,
        black,
        &config.variant,
        config.chess960,
        start_fen.as_deref(),
        config.seed,
        index,
        config.max_plies,
        None,
    );
    let white_score = match played.result {
        GameResult::Win(Color::White) => 1.0,
        GameResult::Win(Color::Black) => 0.0,
        GameResult::Draw => 0.5,
    };
    let mut out = String::new();
    let mut game = played.record.start_game().expect("a refereed start");
    let mut freedom = [0u32; 2];
    let mut kinds = [0u32; 3];
    for (ply, turn) in played.record.turns.iter().enumerate() {
        if turn.roll.is_none() && turn.turn != "0000" {
            freedom[game.side_to_move().index()] += 1;
            let met = game.pre_roll_kinds(&turn.turn);
            for (slot, kind) in kinds.iter_mut().zip(["recapture", "defend", "check"]) {
                *slot += u32::from(met.contains(&kind));
            }
        }
        if ply >= config.random_plies && is_quiet(&game, turn.roll.as_ref()) {
            out.push_str(&format!("{} | {}\n", game.board_fen(), result_text(white_score)));
        }
        game.play_checked(&turn.turn, turn.roll.as_ref()).expect("a refereed turn");
    }
    out.push_str(&format!(
        "game {index} {} plies {} white-freedom {} black-freedom {} recapture {} defend {} check {} reason {}\n",
        result_text(white_score),
        played.record.turns.len(),
        freedom[0],
        freedom[1],
        kinds[0],
        kinds[1],
        kinds[2],
        played.reason
    ));
    out
}

/// Random for the opening plies, then Alea at the configured limit.
struct SelfPlayer {
    random: RandomPlayer,
    alea: AleaPlayer,
    random_plies: usize,
}

impl SelfPlayer {
    fn new(config: &DatagenConfig, index: u64) -> SelfPlayer {
        SelfPlayer {
            random: RandomPlayer { state: config.seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15) },
            alea: AleaPlayer::with_eval(config.limit.clone(), config.eval.clone()),
            random_plies: config.random_plies,
        }
    }
}

impl Player for SelfPlayer {
    fn name(&self) -> String {
        "alea".into()
    }
    fn new_game(&mut self, _game: &GameHandle) -> Result<(), crate::players::Failure> {
        Ok(())
    }
    fn before_roll(
        &mut self,
        game: &GameHandle,
        freedom: &[String],
    ) -> Result<Option<String>, crate::players::Failure> {
        if game.turns().len() < self.random_plies {
            self.random.before_roll(game, freedom)
        } else {
            self.alea.before_roll(game, freedom)
        }
    }
    fn after_roll(&mut self, game: &GameHandle, roll: &Roll) -> Result<String, crate::players::Failure> {
        if game.turns().len() < self.random_plies {
            self.random.after_roll(game, roll)
        } else {
            self.alea.after_roll(game, roll)
        }
    }
}

/// Reads a data file. Lines after the last `game` line (a game cut off mid-write) are left out;
/// `complete_len` is the byte length up to and including that line.
pub fn parse_data(text: &str) -> Result<(DataSet, usize), String> {
    let mut data = DataSet::default();
    let mut pending = Vec::new();
    let mut complete_len = 0;
    let mut offset = 0;
    for (n, raw) in text.split_inclusive('\n').enumerate() {
        offset += raw.len();
        if !raw.ends_with('\n') {
            break; // a line cut off mid-write
        }
        let line = raw.trim_end();
        let bad = |what: &str| format!("line {}: {what}: {line:?}", n + 1);
        if n == 0 {
            if !line.starts_with("# alea datagen ") {
                return Err(bad("not an alea datagen file (no header)"));
            }
            data.header = line.to_string();
            complete_len = offset;
        } else if let Some(rest) = line.strip_prefix("game ") {
            data.games.push(parse_summary(rest).ok_or_else(|| bad("unreadable game line"))?);
            data.samples.append(&mut pending);
            complete_len = offset;
        } else if !line.is_empty() {
            let (fen, result) = line.split_once(" | ").ok_or_else(|| bad("expected 'FEN | RESULT'"))?;
            let board = Board::from_fen(fen).map_err(|e| bad(&format!("bad FEN ({e})")))?;
            let white_score = parse_result(result.trim()).ok_or_else(|| bad("unknown result"))?;
            pending.push(Sample { board, white_score });
        }
    }
    Ok((data, complete_len))
}

fn parse_summary(rest: &str) -> Option<GameSummary> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let field = |name: &str| -> Option<u32> {
        let at = words.iter().position(|w| *w == name)?;
        words.get(at + 1)?.parse().ok()
    };
    let reason_at = words.iter().position(|w| *w == "reason")?;
    Some(GameSummary {
        index: words.first()?.parse().ok()?,
        white_score: parse_result(words.get(1)?)?,
        plies: field("plies")?,
        freedom: [field("white-freedom")?, field("black-freedom")?],
        kinds: [field("recapture")?, field("defend")?, field("check")?],
        reason: words[reason_at + 1..].join(" "),
    })
}

/// Reads and parses a whole data file.
pub fn read_data(path: &Path) -> Result<DataSet, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_data(&text).map(|(d, _)| d).map_err(|e| format!("{}: {e}", path.display()))
}

/// Generates `config.games` games into `path` with `concurrency` threads, appending each as it
/// ends. With `resume`, an existing file (same header) is continued: its complete games kept, a
/// cut-off tail removed. A shard plays only its games. `progress` gets (games in the file, games
/// wanted). Returns the number of games played by this call.
pub fn run_datagen(
    config: &DatagenConfig,
    path: &Path,
    resume: bool,
    concurrency: usize,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<u64, String> {
    let shown = path.display();
    let mut done = BTreeSet::new();
    let mut file = if resume && path.exists() {
        let mut file = OpenOptions::new().read(true).write(true).open(path).map_err(|e| format!("{shown}: {e}"))?;
        let mut text = String::new();
        file.read_to_string(&mut text).map_err(|e| format!("{shown}: {e}"))?;
        let (data, complete_len) = parse_data(&text).map_err(|e| format!("{shown}: {e}"))?;
        if data.header != config.header() {
            return Err(format!(
                "{shown} was made with other settings:\n  file: {}\n  now:  {}",
                data.header,
                config.header()
            ));
        }
        done.extend(data.games.iter().map(|g| g.index));
        file.set_len(complete_len as u64).map_err(|e| format!("{shown}: {e}"))?;
        file.seek(SeekFrom::End(0)).map_err(|e| format!("{shown}: {e}"))?;
        file
    } else {
        if path.exists() {
            return Err(format!("{shown} exists: pass --resume to continue it, or choose another file"));
        }
        let mut file = File::create(path).map_err(|e| format!("{shown}: {e}"))?;
        writeln!(file, "{}", config.header()).map_err(|e| format!("{shown}: {e}"))?;
        file
    };
    file.flush().map_err(|e| format!("{shown}: {e}"))?;
    let todo: Vec<u64> = config.shard.items(config.games).filter(|i| !done.contains(i)).collect();
    let wanted = config.shard.items(config.games).count() as u64;
    let in_file = AtomicUsize::new(done.len());
    progress(done.len() as u64, wanted);
    let next = AtomicUsize::new(0);
    let file = Mutex::new(file);
    let error = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..concurrency.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= todo.len() || error.lock().unwrap().is_some() {
                        return;
                    }
                    let lines = generate_game(config, todo[i]);
                    // One write per game: a kill leaves at most one partial game, which resume cuts.
                    let mut f = file.lock().unwrap();
                    if let Err(e) = f.write_all(lines.as_bytes()).and_then(|_| f.flush()) {
                        *error.lock().unwrap() = Some(format!("{shown}: {e}"));
                        return;
                    }
                    let n = in_file.fetch_add(1, Ordering::Relaxed) + 1;
                    drop(f);
                    progress(n as u64, wanted);
                }
            });
        }
    });
    if let Some(e) = error.into_inner().unwrap() {
        return Err(e);
    }
    Ok(todo.len() as u64)
}

/// Data files of one run's shards merged into one.
#[derive(Clone, Debug)]
pub struct MergedData {
    /// The merged file: the run's header (without a shard), then the games in order.
    pub text: String,
    pub games: usize,
    pub positions: usize,
    /// Games found in more than one file, kept once.
    pub duplicates: usize,
    /// Files that end in a game cut off mid-write, with what was lost.
    pub cut_off: Vec<String>,
}

/// Merges the data files of a run's shards, given as (name, text): each game's positions and its
/// `game` line kept once, in the order of the games. Refused: a file that is not a data file, and
/// files of different settings (their headers, shard aside, differ).
pub fn merge_data(files: &[(String, String)]) -> Result<MergedData, String> {
    let unsharded = |header: &str| match header.rsplit_once(" shard=") {
        Some((rest, shard)) if Shard::parse(shard).is_ok() => rest.to_string(),
        _ => header.to_string(),
    };
    let mut header: Option<(String, String)> = None;
    let mut games: std::collections::BTreeMap<u64, String> = std::collections::BTreeMap::new();
    let (mut duplicates, mut cut_off) = (0, Vec::new());
    for (name, text) in files {
        let (data, complete_len) = parse_data(text).map_err(|e| format!("{name}: {e}"))?;
        let this = unsharded(&data.header);
        match &header {
            None => header = Some((name.clone(), this)),
            Some((first, h)) if *h != this => {
                return Err(format!("{first} and {name} are not of one run (different settings):\n  {h}\n  {this}"));
            }
            Some(_) => {}
        }
        if !text[complete_len..].trim().is_empty() {
            let lines = text[complete_len..].lines().filter(|l| !l.trim().is_empty()).count();
            cut_off.push(format!("{name}: a game cut off mid-write ({lines} lines) left out"));
        }
        // A game is its position lines and, last, its `game` line.
        let mut block = String::new();
        for line in text[..complete_len].lines().skip(1).filter(|l| !l.trim().is_empty()) {
            block.push_str(line);
            block.push('\n');
            if let Some(rest) = line.strip_prefix("game ") {
                let index = parse_summary(rest).map(|g| g.index).expect("checked by parse_data");
                match games.entry(index) {
                    std::collections::btree_map::Entry::Occupied(_) => duplicates += 1,
                    std::collections::btree_map::Entry::Vacant(slot) => {
                        slot.insert(std::mem::take(&mut block));
                    }
                }
                block.clear();
            }
        }
    }
    let (_, header) = header.ok_or("no data files")?;
    let mut text = format!("{header}\n");
    for block in games.values() {
        text.push_str(block);
    }
    let positions = games.values().map(|b| b.lines().count() - 1).sum();
    Ok(MergedData { text, games: games.len(), positions, duplicates, cut_off })
}
