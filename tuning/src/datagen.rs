//! Self-play data for tuning: games refereed like a match's, with seeded dice, written as the
//! quiet positions they passed through, each with the game's result and the score of the search
//! that the player to move ran there ([`crate::datafile`]: binary, a game whole or not at all).
//!
//! A run killed at any moment is resumed from the file: the bytes after the last whole game are
//! cut off, and only the games missing from the file are played (game `i` always gets the same
//! dice, so a resumed run ends with the file an uninterrupted one would have, up to order).

pub use crate::datafile::{DataSet, GameData, GameSummary, Sample, SamplePosition};
use crate::datafile::{decode, encode_game, encode_header, layout};
use crate::players::{AleaPlayer, MoveLimit, Player, RandomPlayer};
use crate::referee::play_game;
use crate::shard::Shard;
use alea_engine::Roll;
use alea_engine::eval::params::EvalParams;
use alea_engine::services::handle::{GameHandle, RollSpec};
use alea_engine::services::registry::{NO_ROLL_WORD, Variant};
use alea_engine::services::search::spawn_deep;
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
    pub variant: Variant,
    pub chess960: bool,
    pub games: u64,
    pub limit: MoveLimit,
    /// A cheaper limit for the searches of plies whose position the data does not keep (not
    /// quiet with the roll): they only carry the game on to the next kept position. `None`:
    /// every ply at `limit`.
    pub unkept_limit: Option<MoveLimit>,
    pub seed: u64,
    /// Opening plies played uniformly at random, so that games spread out.
    pub random_plies: usize,
    pub max_plies: usize,
    /// Evaluation for the players; `None` is the variant's default.
    pub eval: Option<Arc<EvalParams>>,
    /// A network scoring for the players beside the tables; `None` with `use_net`, the one the
    /// variant has adopted (if any); without `use_net`, none.
    pub net: Option<Arc<alea_engine::eval::nnue::Network>>,
    pub use_net: bool,
    /// The games this run plays: its shard of `games`.
    pub shard: Shard,
}

impl DatagenConfig {
    /// The file's first line: a resumed run must match it. It names the players' evaluation by
    /// a checksum of its text (` eval=1a2b3c4d`), and the network that scores beside it, if any,
    /// by a checksum of its bytes (` net=5e6f7a8b`), so that a binary whose default evaluation
    /// has changed since does not continue the run with other players. A shard's file names its
    /// shard last (` shard=3/64`), which a merge takes off.
    pub fn header(&self) -> String {
        // (A variant that does not exist plays no game: its header is never written.)
        let text = match &self.eval {
            Some(params) => params.to_text(),
            None => self.variant.default_eval().to_text(),
        };
        let mut eval = format!(" eval={:08x}", alea_engine::board::checksum::fnv1a(text.as_bytes()));
        if let Some(net) = self.playing_net() {
            eval += &format!(" net={:08x}", alea_engine::board::checksum::fnv1a(&net.to_bytes()));
        }
        self.header_with(&eval)
    }

    /// The network the players score with beside their tables, as the game handle picks it.
    fn playing_net(&self) -> Option<Arc<alea_engine::eval::nnue::Network>> {
        let options = alea_engine::services::search::SearchOptions {
            eval: self.eval.clone(),
            net: self.net.clone(),
            use_net: self.use_net,
            ..Default::default()
        };
        let variant = self.variant;
        variant.with_defaults(options).network_for(variant.name())
    }

    /// The header as runs wrote it before it named the evaluation: such a file is resumed as it
    /// is (what played it is not known).
    fn header_before_eval(&self) -> String {
        self.header_with("")
    }

    fn header_with(&self, eval: &str) -> String {
        let shard = if self.shard.is_whole() { String::new() } else { format!(" shard={}", self.shard) };
        // Named only where set, so that runs made before it resume.
        let unkept = self.unkept_limit.as_ref().map_or(String::new(), |l| format!(" unkept-{}", l.text()));
        format!(
            "alea datagen variant={} {}{unkept} seed={} random-plies={} max-plies={}{eval}{shard}",
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

/// Is the position before this turn quiet: not in check, and no turn the roll (or Freedom)
/// allows wins material at once (no capture, no promotion, in any of its micro-moves)?
fn is_quiet(game: &GameHandle, roll: Option<&Roll>) -> bool {
    let Some(roll) = roll else { return false };
    if !may_be_quiet(game) {
        return false;
    }
    // The most any allowed turn wins (searched, not listed: a Gollon roll allows millions).
    let Ok((_, most)) = game.greedy_turn(&RollSpec::Faces(roll.faces().to_vec())) else { return false };
    most == 0
}

/// What [`is_quiet`] asks of the position before the roll: not in check, and no turn without a
/// roll (Freedom's) wins material. Where this fails, no roll makes the position quiet.
fn may_be_quiet(game: &GameHandle) -> bool {
    !game.in_check() && game.pre_roll_turns().iter().all(|t| game.material_gain(t) == 0)
}

/// The two players' transposition tables, kept by a worker from one game to the next: cleared
/// at a game's start, a table plays as a new one, without a new one's cost (16 MiB of fresh pages
/// a player a game, a third of the time of a game searched one turn deep).
pub type Tables = [Option<alea_engine::services::search::Shared>; 2];

/// Plays game `index`: its quiet positions, each with the score its player's search gave it.
pub fn generate_game(config: &DatagenConfig, index: u64) -> GameData {
    generate_game_with(config, index, &mut [None, None])
}

/// [`generate_game`] with the players' tables taken from `tables` and given back there.
pub fn generate_game_with(config: &DatagenConfig, index: u64, tables: &mut Tables) -> GameData {
    let mut players = [SelfPlayer::new(config, index), SelfPlayer::new(config, index)];
    for (player, table) in players.iter_mut().zip(tables.iter_mut()) {
        player.alea.swap_table(table.take());
    }
    let [white, black] = &mut players;
    // Chess960 rule sets start each game from one of the 960 positions in turn.
    let start_fen = config.chess960.then(|| alea_engine::services::handle::GameHandle::chess960_start(index));
    let played = play_game(
        white,
        black,
        config.variant,
        config.chess960,
        start_fen.as_deref(),
        config.seed,
        index,
        config.max_plies,
        None,
        None,
    );
    let white_score = match played.result {
        GameResult::Win(Color::White) => 1.0,
        GameResult::Win(Color::Black) => 0.0,
        GameResult::Draw => 0.5,
    };
    for (player, table) in players.iter_mut().zip(tables.iter_mut()) {
        *table = player.alea.swap_table(None);
    }
    let scores: std::collections::HashMap<usize, i32> =
        players.iter().flat_map(|p| p.scores.iter().map(|(&ply, &s)| (ply, s))).collect();
    let mut positions = Vec::new();
    let mut game = played.record.start_game().expect("a refereed start");
    let mut pre_roll = [0u32; 2];
    let mut kinds = [0u32; 3];
    for (ply, turn) in played.record.turns.iter().enumerate() {
        if turn.roll.is_none() && turn.turn != "0000" {
            pre_roll[game.side_to_move().index()] += 1;
            let met = game.pre_roll_kinds(&turn.turn);
            for (slot, kind) in kinds.iter_mut().zip(["recapture", "defend", "check"]) {
                *slot += u32::from(met.contains(&kind));
            }
        }
        if ply >= config.random_plies && is_quiet(&game, turn.roll.as_ref()) {
            // What the evaluation reads: the 8x8 board, or a big board's FEN.
            let position = if game.uses_tables().is_ok() {
                SamplePosition::Board(Board::from_fen(&game.board_fen()).expect("a refereed position"))
            } else {
                SamplePosition::Fen(game.board_fen())
            };
            positions.push(Sample {
                position,
                white_score,
                score: scores.get(&ply).map(|&s| s.clamp(-32_000, 32_000) as i16),
                ply: ply.min(usize::from(u16::MAX)) as u16,
                game: index,
            });
        }
        game.play_checked(&turn.turn, turn.roll.as_ref()).expect("a refereed turn");
    }
    let summary = GameSummary {
        index,
        white_score,
        plies: played.record.turns.len() as u32,
        pre_roll,
        kinds,
        reason: played.reason,
    };
    GameData { summary, positions }
}

/// Random for the opening plies, then Alea at the configured limit.
struct SelfPlayer {
    random: RandomPlayer,
    alea: AleaPlayer,
    random_plies: usize,
    /// The limit of the plies not kept, and the full one to go back to.
    unkept_limit: Option<MoveLimit>,
    limit: MoveLimit,
    /// The score of the first search at each ply it played (before the roll if it searched then:
    /// the position's own value; else after it: one outcome's value, a fair sample of it).
    scores: std::collections::HashMap<usize, i32>,
}

impl SelfPlayer {
    fn new(config: &DatagenConfig, index: u64) -> SelfPlayer {
        SelfPlayer {
            random: RandomPlayer { state: config.seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15) },
            alea: {
                let mut alea = AleaPlayer::with_eval(config.limit.clone(), config.eval.clone());
                alea.net = config.net.clone();
                alea.use_net = config.use_net;
                alea
            },
            random_plies: config.random_plies,
            unkept_limit: config.unkept_limit.clone(),
            limit: config.limit.clone(),
            scores: std::collections::HashMap::new(),
        }
    }

    /// Alea's search for this ply, at the full limit where the position may be kept, else at the
    /// cheaper one (which only carries the game on); its score noted for the ply.
    fn search<T>(
        &mut self,
        game: &GameHandle,
        may_be_kept: impl FnOnce() -> bool,
        search: impl FnOnce(&mut AleaPlayer) -> T,
    ) -> T {
        let cheaper = self.unkept_limit.as_ref().filter(|_| !may_be_kept());
        self.alea.limit = cheaper.unwrap_or(&self.limit).clone();
        let answer = search(&mut self.alea);
        self.alea.limit = self.limit.clone();
        self.note_score(game.turns().len());
        answer
    }

    fn note_score(&mut self, ply: usize) {
        if let Some(score) = self.alea.last_score.take() {
            self.scores.entry(ply).or_insert(score);
        }
    }
}

impl Player for SelfPlayer {
    fn name(&self) -> String {
        "alea".into()
    }
    fn new_game(&mut self, game: &GameHandle) -> Result<(), crate::players::Failure> {
        self.alea.new_game(game)
    }
    fn before_roll(
        &mut self,
        game: &GameHandle,
        pre_roll: &[String],
    ) -> Result<Option<String>, crate::players::Failure> {
        if game.turns().len() < self.random_plies {
            self.random.before_roll(game, pre_roll)
        } else {
            // Before the roll it is known only where no roll makes the position quiet.
            self.search(game, || may_be_quiet(game), |alea| alea.before_roll(game, pre_roll))
        }
    }
    fn after_roll(&mut self, game: &GameHandle, roll: &Roll) -> Result<String, crate::players::Failure> {
        if game.turns().len() < self.random_plies {
            self.random.after_roll(game, roll)
        } else {
            // The data keeps this ply's position where it is quiet with this roll (as
            // `generate_game` decides).
            self.search(game, || is_quiet(game, Some(roll)), |alea| alea.after_roll(game, roll))
        }
    }
}

/// Reads a data file: the binary form `alea tune datagen` writes, or the older text form
/// (`FEN | RESULT` lines, each game closed by its `game` line; no scores), which fit and report
/// still read.
pub fn read_data(path: &Path) -> Result<DataSet, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let parsed = if bytes.starts_with(b"# alea datagen ") {
        String::from_utf8(bytes).map_err(|_| "not text".to_string()).and_then(|t| parse_text_data(&t))
    } else {
        decode(&bytes).map(|(d, _)| d)
    };
    parsed.map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads a data file of the older text form. Lines after the last `game` line (a game cut off
/// mid-write) are left out.
pub fn parse_text_data(text: &str) -> Result<DataSet, String> {
    let mut data = DataSet::default();
    let mut pending = Vec::new();
    for (n, raw) in text.split_inclusive('\n').enumerate() {
        if !raw.ends_with('\n') {
            break; // a line cut off mid-write
        }
        let line = raw.trim_end();
        let bad = |what: &str| format!("line {}: {what}: {line:?}", n + 1);
        if n == 0 {
            data.header = line.trim_start_matches("# ").to_string();
        } else if let Some(rest) = line.strip_prefix("game ") {
            let summary = parse_summary(rest).ok_or_else(|| bad("unreadable game line"))?;
            pending.iter_mut().for_each(|s: &mut Sample| s.game = summary.index);
            data.samples.append(&mut pending);
            data.games.push(summary);
        } else if !line.is_empty() {
            let (fen, result) = line.split_once(" | ").ok_or_else(|| bad("expected 'FEN | RESULT'"))?;
            let board = Board::from_fen(fen).map_err(|e| bad(&format!("bad FEN ({e})")))?;
            let white_score = parse_result(result.trim()).ok_or_else(|| bad("unknown result"))?;
            let position = SamplePosition::Board(board);
            pending.push(Sample { position, white_score, score: None, ply: 0, game: 0 });
        }
    }
    Ok(data)
}

fn parse_result(text: &str) -> Option<f64> {
    match text {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
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
        pre_roll: [field(&format!("white-{NO_ROLL_WORD}"))?, field(&format!("black-{NO_ROLL_WORD}"))?],
        kinds: [field("recapture")?, field("defend")?, field("check")?],
        reason: words[reason_at + 1..].join(" "),
    })
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
        hold(&file, &shown)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(|e| format!("{shown}: {e}"))?;
        let found = layout(&bytes).map_err(|e| format!("{shown}: {e}"))?;
        if found.header != config.header() && found.header != config.header_before_eval() {
            return Err(format!(
                "{shown} was made with other settings:\n  file: {}\n  now:  {}",
                found.header,
                config.header()
            ));
        }
        done.extend(found.games.iter().map(|(index, _)| *index));
        file.set_len(found.complete_len as u64).map_err(|e| format!("{shown}: {e}"))?;
        file.seek(SeekFrom::End(0)).map_err(|e| format!("{shown}: {e}"))?;
        file
    } else {
        if path.exists() {
            return Err(format!("{shown} exists: pass --resume to continue it, or choose another file"));
        }
        let mut file = File::create(path).map_err(|e| format!("{shown}: {e}"))?;
        hold(&file, &shown)?;
        file.write_all(&encode_header(&config.header())).map_err(|e| format!("{shown}: {e}"))?;
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
        for worker in 0..concurrency.max(1) {
            // On a search's deep stack: each of the players' searches runs on this thread rather
            // than making one, and its stack, every turn.
            spawn_deep(scope, format!("datagen-{worker}"), || {
                let mut tables: Tables = [None, None];
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= todo.len() || error.lock().unwrap().is_some() {
                        return;
                    }
                    let block = encode_game(&generate_game_with(config, todo[i], &mut tables));
                    // One write per game: a kill leaves at most one partial game, which resume cuts.
                    let mut f = file.lock().unwrap();
                    if let Err(e) = f.write_all(&block).and_then(|_| f.flush()) {
                        *error.lock().unwrap() = Some(format!("{shown}: {e}"));
                        return;
                    }
                    let n = in_file.fetch_add(1, Ordering::Relaxed) + 1;
                    drop(f);
                    progress(n as u64, wanted);
                }
            })
            .map_err(|e| format!("cannot start a thread: {e}"))?;
        }
        Ok::<(), String>(())
    })?;
    if let Some(e) = error.into_inner().unwrap() {
        return Err(e);
    }
    Ok(todo.len() as u64)
}

/// Takes the file for this run alone (an advisory lock, released when the file closes): a second
/// run resuming the same file would write its games over this one's, each from its own offset.
fn hold(file: &File, shown: &std::path::Display<'_>) -> Result<(), String> {
    file.try_lock().map_err(|e| match e {
        std::fs::TryLockError::WouldBlock => format!("{shown} is being written by another run; stop that one first"),
        std::fs::TryLockError::Error(e) => format!("{shown}: {e}"),
    })
}

/// Data files of one run's shards merged into one.
#[derive(Clone, Debug)]
pub struct MergedData {
    /// The merged file: the run's header (without a shard), then the games in order.
    pub bytes: Vec<u8>,
    pub games: usize,
    pub positions: usize,
    /// Games found in more than one file, kept once.
    pub duplicates: usize,
    /// Files that end in a game cut off mid-write, with what was lost.
    pub cut_off: Vec<String>,
}

/// Merges the data files of a run's shards, given as (name, bytes): each game kept once, in the
/// order of the games. Refused: a file that is not a data file or has a damaged game, and files
/// of different settings (their headers, shard aside, differ).
pub fn merge_data(files: &[(String, Vec<u8>)]) -> Result<MergedData, String> {
    let unsharded = |header: &str| match header.rsplit_once(" shard=") {
        Some((rest, shard)) if Shard::parse(shard).is_ok() => rest.to_string(),
        _ => header.to_string(),
    };
    let mut header: Option<(String, String)> = None;
    let mut games: std::collections::BTreeMap<u64, &[u8]> = std::collections::BTreeMap::new();
    let (mut duplicates, mut cut_off) = (0, Vec::new());
    for (name, bytes) in files {
        let found = layout(bytes).map_err(|e| format!("{name}: {e}"))?;
        let this = unsharded(&found.header);
        match &header {
            None => header = Some((name.clone(), this)),
            Some((first, h)) if *h != this => {
                return Err(format!("{first} and {name} are not of one run (different settings):\n  {h}\n  {this}"));
            }
            Some(_) => {}
        }
        if found.complete_len < bytes.len() {
            cut_off.push(format!(
                "{name}: a game cut off mid-write ({} bytes) left out",
                bytes.len() - found.complete_len
            ));
        }
        for (index, range) in found.games {
            match games.entry(index) {
                std::collections::btree_map::Entry::Occupied(_) => duplicates += 1,
                std::collections::btree_map::Entry::Vacant(slot) => {
                    slot.insert(&bytes[range]);
                }
            }
        }
    }
    let (_, header) = header.ok_or("no data files")?;
    let mut out = encode_header(&header);
    for block in games.values() {
        out.extend_from_slice(block);
    }
    let (data, _) = decode(&out)?;
    Ok(MergedData { games: data.games.len(), positions: data.samples.len(), bytes: out, duplicates, cut_off })
}
