//! `alea serve`: a web page to play and analyse dice chess against Alea. One binary serves the
//! page (its HTML, CSS, JavaScript and pieces are built in) and a JSON API over the engine crate;
//! the engine's live search output reaches the page as server-sent events.

mod assets;
pub mod bot;
mod routes;
mod store;
pub mod webgame;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

/// Searches run at once across all games.
const MAX_SEARCHES: usize = 4;

pub use store::KEEP_GAMES;

/// Serves until the process ends, keeping each game in `games_dir` (made if missing), at most
/// `keep` of them before the oldest idle unfinished ones go. `on_listening` gets the bound
/// address (the port may have been 0: any free one).
pub fn serve(
    addr: SocketAddr,
    games_dir: PathBuf,
    keep: usize,
    on_listening: impl FnOnce(SocketAddr),
) -> Result<(), String> {
    let store = store::Store::open(games_dir, keep)?;
    serve_on(addr, on_listening, || {
        let app = Arc::new(routes::App { store, searches: tokio::sync::Semaphore::new(MAX_SEARCHES) });
        routes::router(app)
    })
}

/// Serves the router `make` builds (inside the server's runtime, so it may start tasks) on
/// `addr` until the process ends; `on_listening` gets the bound address first.
fn serve_on(
    addr: SocketAddr,
    on_listening: impl FnOnce(SocketAddr),
    make: impl FnOnce() -> axum::Router,
) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    runtime.block_on(async move {
        let listener =
            tokio::net::TcpListener::bind(addr).await.map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let bound = listener.local_addr().map_err(|e| e.to_string())?;
        on_listening(bound);
        axum::serve(listener, make()).await.map_err(|e| format!("server stopped: {e}"))
    })
}
