//! The games being played, by id. Each game has its own lock and a flag while the engine works
//! on it, so many tabs play at once and no request waits on another game's search. Each game is
//! also kept in a file of the games directory, written after every change, so a server started
//! again (or a game dropped from memory) takes it up where it stood: memory is a cache of the
//! directory. The directory is bounded: past [`Store::keep`] files, creating a game deletes the
//! oldest idle games not yet finished (see [`Store::prune`]); a finished game and one played in
//! the last week are never deleted.

use crate::webgame::WebGame;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::sync::broadcast;

/// Games kept in memory at once; past it the least recently used idle game is dropped from memory
/// (its file stays, and a request for it loads it again).
pub const MAX_GAMES: usize = 512;

/// Games kept in the directory by default before the oldest idle unfinished ones go.
pub const KEEP_GAMES: usize = 1000;

/// A game changed within this long is recently played, and never deleted.
const RECENTLY_PLAYED: std::time::Duration = std::time::Duration::from_secs(7 * 24 * 3600);

pub struct Entry {
    pub game: Mutex<WebGame>,
    /// Set while a search runs on this game's behalf (the engine's turn, advice, analysis).
    pub busy: AtomicBool,
    /// The live search output, as JSON text, for the page's event stream.
    pub events: broadcast::Sender<String>,
    touched: Mutex<Instant>,
}

impl Entry {
    /// Marks the game busy; false if it already was.
    pub fn try_start(&self) -> bool {
        self.busy.compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire).is_ok()
    }

    pub fn finish(&self) {
        self.busy.store(false, Ordering::Release);
    }
}

/// Clears the busy flag when a search's task ends, however it ends.
pub struct BusyGuard(pub Arc<Entry>);

impl Drop for BusyGuard {
    fn drop(&mut self) {
        self.0.finish();
    }
}

pub struct Store {
    games: Mutex<HashMap<String, Arc<Entry>>>,
    /// Where each game is kept, as `<id>.json`.
    dir: PathBuf,
    /// How many game files the directory keeps before the oldest idle ones go.
    keep: usize,
}

/// Is `id` one this server gives (16 hex digits)? Only such names are looked for on disk.
fn is_game_id(id: &str) -> bool {
    id.len() == 16 && id.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

impl Store {
    /// A store keeping its games in `dir`, made if missing, at most `keep` game files before the
    /// oldest idle ones go; an error if the directory cannot be written.
    pub fn open(dir: PathBuf, keep: usize) -> Result<Store, String> {
        std::fs::create_dir_all(&dir).map_err(|e| format!("cannot make the games directory {}: {e}", dir.display()))?;
        let probe = dir.join(".write-test");
        std::fs::write(&probe, b"")
            .map_err(|e| format!("cannot write in the games directory {}: {e}", dir.display()))?;
        let _ = std::fs::remove_file(probe);
        Ok(Store { games: Mutex::new(HashMap::new()), dir, keep: keep.max(1) })
    }

    /// Keeps a new game, in memory and on disk, and makes room in the directory for it.
    pub fn insert(&self, id: String, game: WebGame) -> Arc<Entry> {
        let entry = self.cache(id.clone(), game);
        self.save(&id, &entry);
        self.prune(&id);
        entry
    }

    /// While the directory holds more than `keep` games, deletes the oldest idle one that may
    /// go: not `new` (the game just made), not finished, not played in the last week, and not
    /// busy with a search. Where none may go, the directory stays over its bound.
    fn prune(&self, new: &str) {
        let Ok(listing) = std::fs::read_dir(&self.dir) else { return };
        let mut files: Vec<(std::time::SystemTime, String)> = listing
            .filter_map(Result::ok)
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().to_string();
                let id = name.strip_suffix(".json").filter(|id| is_game_id(id))?.to_string();
                Some((e.metadata().ok()?.modified().ok()?, id))
            })
            .collect();
        if files.len() <= self.keep {
            return;
        }
        files.sort();
        let mut over = files.len() - self.keep;
        let now = std::time::SystemTime::now();
        for (changed, id) in files {
            if over == 0 {
                break;
            }
            if id == new || !self.may_go(&id, now.duration_since(changed).unwrap_or_default()) {
                continue;
            }
            let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
            if games.get(&id).is_some_and(|e| e.busy.load(Ordering::Acquire)) {
                continue;
            }
            if std::fs::remove_file(self.dir.join(format!("{id}.json"))).is_ok() {
                games.remove(&id);
                over -= 1;
            }
        }
    }

    /// May the kept game `id`, unchanged for `idle`, be deleted? Not when it is finished, nor
    /// when it was played (a move made, a roll or a micro-move) within [`RECENTLY_PLAYED`]; a
    /// file that does not read as a game is left for a person to look at.
    fn may_go(&self, id: &str, idle: std::time::Duration) -> bool {
        let Ok(text) = std::fs::read_to_string(self.dir.join(format!("{id}.json"))) else { return false };
        let Ok(saved) = serde_json::from_str::<serde_json::Value>(&text) else { return false };
        let Some(pgn) = saved["pgn"].as_str() else { return false };
        let finished = !pgn.contains("[Result \"*\"]");
        let movetext = pgn.lines().filter(|l| !l.starts_with('[')).collect::<String>();
        let played = movetext.trim() != "*"
            || !saved["roll"].is_null()
            || saved["partial"].as_array().is_some_and(|p| !p.is_empty());
        !finished && (!played || idle > RECENTLY_PLAYED)
    }

    /// Writes the game to its file whole or not at all (beside it, then renamed over it). A
    /// failure is reported on standard error; the game plays on in memory.
    pub fn save(&self, id: &str, entry: &Entry) {
        // Held to the rename: two requests saving one game must not write its file at once.
        let game = entry.game.lock().unwrap_or_else(|e| e.into_inner());
        let text = game.saved().to_string();
        let path = self.dir.join(format!("{id}.json"));
        let partial = self.dir.join(format!("{id}.json.partial"));
        if let Err(e) = std::fs::write(&partial, text).and_then(|()| std::fs::rename(&partial, &path)) {
            eprintln!("alea serve: cannot save game {id} to {}: {e}", path.display());
        }
    }

    /// Keeps `game` in memory under `id`, or gives the entry already there (a game loaded from
    /// its file by two requests at once is kept once).
    fn cache(&self, id: String, game: WebGame) -> Arc<Entry> {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(entry) = games.get(&id) {
            return entry.clone();
        }
        let (events, _) = broadcast::channel(256);
        let entry = Arc::new(Entry {
            game: Mutex::new(game),
            busy: AtomicBool::new(false),
            events,
            touched: Mutex::new(Instant::now()),
        });
        if games.len() >= MAX_GAMES {
            let oldest = games
                .iter()
                .filter(|(_, e)| !e.busy.load(Ordering::Acquire))
                .min_by_key(|(_, e)| *e.touched.lock().unwrap_or_else(|p| p.into_inner()))
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                games.remove(&k);
            }
        }
        games.insert(id, entry.clone());
        entry
    }

    /// The game `id`: from memory, else from its file; `Err` where the file cannot be read as a
    /// game.
    pub fn get(&self, id: &str) -> Result<Option<Arc<Entry>>, String> {
        {
            let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(entry) = games.get(id).cloned() {
                *entry.touched.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
                return Ok(Some(entry));
            }
        }
        if !is_game_id(id) {
            return Ok(None);
        }
        let path = self.dir.join(format!("{id}.json"));
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let game = WebGame::from_saved(&text).map_err(|e| format!("{} is not a game: {e}", path.display()))?;
        Ok(Some(self.cache(id.to_string(), game)))
    }
}
