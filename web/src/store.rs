//! The games being played, by id. Each game has its own lock and a flag while the engine works
//! on it, so many tabs play at once and no request waits on another game's search.

use crate::webgame::WebGame;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::sync::broadcast;

/// Games kept at once; past it the least recently used idle game is dropped.
pub const MAX_GAMES: usize = 512;

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

#[derive(Default)]
pub struct Store {
    games: Mutex<HashMap<String, Arc<Entry>>>,
}

impl Store {
    pub fn insert(&self, id: String, game: WebGame) -> Arc<Entry> {
        let (events, _) = broadcast::channel(256);
        let entry = Arc::new(Entry {
            game: Mutex::new(game),
            busy: AtomicBool::new(false),
            events,
            touched: Mutex::new(Instant::now()),
        });
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
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

    pub fn get(&self, id: &str) -> Option<Arc<Entry>> {
        let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        let entry = games.get(id).cloned()?;
        *entry.touched.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        Some(entry)
    }
}
