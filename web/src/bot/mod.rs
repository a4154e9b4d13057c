//! `alea bot`: Alea as a bot of the dicechess.com bot platform, which POSTs each of our turns
//! to this endpoint and plays the turn the answer names (docs/bot.md). A front end like the
//! protocol and the page: it reads the platform's JSON, sets each turn up through the game
//! interface, and answers with the engine's turn, in time, from the platform's own list.
//!
//! Every delivery but the registration handshake must be signed with the bot's secret; a game's
//! transposition table is kept between its turns and dropped when the game goes quiet; searches
//! run a bounded number at once and the rest wait within their clocks.

pub mod delivery;
pub mod signature;
pub mod turn;

use alea_engine::services::registry::Variant;
use alea_engine::services::search::Shared;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use delivery::{Delivery, TurnDelivery};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use turn::{Decided, budget, decide, prepare};

/// How the bot runs.
#[derive(Debug, Clone)]
pub struct BotConfig {
    /// The bot's secret; `None` answers only the registration handshake.
    pub secret: Option<Vec<u8>>,
    pub variant: Variant,
    /// Searches at once; the others wait for one to end.
    pub searches: usize,
    /// Each game's transposition table, in MiB.
    pub hash_mib: usize,
    /// Kept off every clock for the network both ways.
    pub margin_ms: u64,
    /// The longest one turn's search runs, whatever the clock (the platform or a proxy in front
    /// may cut a request off sooner than the clock would).
    pub max_turn_ms: u64,
    /// Games whose tables are kept at most; the longest idle goes first.
    pub max_games: usize,
    /// A game's table is dropped after this long without a delivery.
    pub idle: Duration,
    /// The largest body read; a longer one is refused (413).
    pub max_body: usize,
}

impl BotConfig {
    /// The defaults for `variant`, with `secret`.
    pub fn new(variant: Variant, secret: Option<Vec<u8>>) -> BotConfig {
        BotConfig {
            secret,
            variant,
            searches: std::thread::available_parallelism().map_or(1, |n| n.get()),
            hash_mib: 16,
            margin_ms: 750,
            max_turn_ms: 30_000,
            max_games: 32,
            idle: Duration::from_secs(30 * 60),
            max_body: 4 << 20,
        }
    }

    /// Refuses a variant the platform's turns do not fit: its turns must be micro-moves of
    /// several dice, written as a tree of them, with the dice in the DFEN.
    pub fn check(&self) -> Result<(), String> {
        let game = alea_engine::services::handle::GameHandle::of(self.variant, false).map_err(|e| e.to_string())?;
        if !game.several_moves_a_turn() {
            return Err(format!("{}: the bot plays variants of several micro-moves a turn", self.variant));
        }
        if self.searches == 0 || self.max_games == 0 {
            return Err("--searches and --max-games take 1 or more".into());
        }
        Shared::try_new(self.hash_mib).map(drop).map_err(|e| format!("--hash {}: {e}", self.hash_mib))
    }
}

/// One game's table between its turns.
struct Slot {
    shared: Arc<Shared>,
    last: Instant,
    /// Our turns answered in this game since its table was made.
    turns: u32,
}

struct Bot {
    config: BotConfig,
    games: Mutex<HashMap<String, Slot>>,
    searches: Arc<tokio::sync::Semaphore>,
}

impl Bot {
    /// The game's table for this turn (a new one for a new game, or while an abandoned search
    /// still holds the old one), and the turn's number.
    fn table(&self, game_id: &str) -> (Arc<Shared>, u32) {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if !games.contains_key(game_id) && games.len() >= self.config.max_games {
            let oldest = games.iter().min_by_key(|(_, s)| s.last).map(|(id, _)| id.clone());
            if let Some(id) = oldest {
                games.remove(&id);
            }
        }
        let hash = self.config.hash_mib;
        let slot = games.entry(game_id.to_string()).or_insert_with(|| Slot {
            shared: Arc::new(Shared::new(hash)),
            last: Instant::now(),
            turns: 0,
        });
        if Arc::strong_count(&slot.shared) > 1 {
            slot.shared = Arc::new(Shared::new(hash));
        }
        slot.last = Instant::now();
        slot.turns += 1;
        (slot.shared.clone(), slot.turns)
    }

    /// Drops the tables of games idle too long.
    fn sweep(&self) {
        let idle = self.config.idle;
        self.games.lock().unwrap_or_else(|e| e.into_inner()).retain(|_, slot| slot.last.elapsed() < idle);
    }

    /// Decides a delivered turn within its clock.
    async fn play(self: &Arc<Self>, delivery: TurnDelivery, received: Instant) -> Result<(Decided, u32), String> {
        let variant = self.config.variant;
        let for_prepare = delivery.clone();
        let prepared = tokio::task::spawn_blocking(move || prepare(variant, &for_prepare))
            .await
            .map_err(|_| "the position could not be set up".to_string())??;
        let prepared = Arc::new(prepared);
        let (shared, number) = self.table(&delivery.game_id);
        let config = &self.config;
        let before = budget(&delivery, received.elapsed(), config.margin_ms, config.max_turn_ms);
        if prepared.root.is_none() || prepared.playable.len() <= 1 {
            // Nothing to search: no need to wait for a search's turn.
            return Ok((decide(&prepared, &before, &shared), number));
        }
        // Waiting for a search to end costs our clock: wait at most half of what is usable.
        let wait = Duration::from_millis(before.usable_ms / 2);
        let Ok(Ok(permit)) = tokio::time::timeout(wait, self.searches.clone().acquire_owned()).await else {
            let queued = format!("every search busy for {} ms: no search", wait.as_millis());
            return Ok((Decided::fallback(&prepared, queued), number));
        };
        let budget = budget(&delivery, received.elapsed(), config.margin_ms, config.max_turn_ms);
        let last_line = budget.watchdog + budget.grace + Duration::from_millis(50);
        let (task_prepared, task_budget) = (prepared.clone(), budget.clone());
        let mut task = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            decide(&task_prepared, &task_budget, &shared)
        });
        match tokio::time::timeout(last_line, &mut task).await {
            Ok(Ok(decided)) => Ok((decided, number)),
            Ok(Err(_)) => Ok((Decided::fallback(&prepared, "the search failed"), number)),
            Err(_) => Ok((Decided::fallback(&prepared, "the search overran its budget"), number)),
        }
    }

    /// Answers one delivery; the response and its log line.
    async fn answer(self: &Arc<Self>, headers: &HeaderMap, body: &[u8], received: Instant) -> (Response, String) {
        let refuse = |status: StatusCode, why: String| {
            let response = (status, axum::Json(json!({ "error": why }))).into_response();
            (response, format!("refused {}: {why}", status.as_u16()))
        };
        // The signature first: a caller without it learns nothing of how the body is read.
        let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let signed = match &self.config.secret {
            Some(secret) => {
                signature::check(secret, header("x-dicechess-timestamp"), header("x-dicechess-signature"), body, now)
                    .map_err(|e| e.to_string())
            }
            None => Err("no secret set (--handshake-only): only the registration handshake is answered".into()),
        };
        let value = serde_json::from_slice::<Value>(body);
        // The platform signs the handshake with a secret it discloses only once the handshake
        // has succeeded, so an unchecked one is answered too: echoing its nonce changes nothing.
        if let Some(Ok(Delivery::Verification { nonce })) =
            value.as_ref().ok().filter(|v| delivery::kind(v) == Ok("verification")).map(delivery::read)
        {
            let line = "verification: nonce echoed".to_string();
            return (axum::Json(json!({ "nonce": nonce })).into_response(), line);
        }
        if let Err(why) = signed {
            return refuse(StatusCode::UNAUTHORIZED, why);
        }
        let value = match value {
            Ok(v) => v,
            Err(e) => return refuse(StatusCode::BAD_REQUEST, format!("the body is not JSON: {e}")),
        };
        let delivery = match delivery::read(&value) {
            Ok(Delivery::Turn(turn)) => turn,
            Ok(Delivery::Verification { .. }) => unreachable!("a handshake is answered above"),
            Err(e) => return refuse(StatusCode::BAD_REQUEST, e),
        };
        let (game_id, seat, clock) = (delivery.game_id.clone(), delivery.seat, delivery.our_clock());
        match self.play(delivery, received).await {
            Ok((decided, number)) => {
                let line = log_line(&game_id, seat, clock, number, received.elapsed(), &decided);
                let moves = decided.moves();
                (axum::Json(json!({ "moves": moves })).into_response(), line)
            }
            Err(e) => refuse(StatusCode::BAD_REQUEST, format!("game {game_id}: {e}")),
        }
    }
}

/// A delivery's log line: the game, our seat and clock, the time the answer took, the search's
/// depth and the answer (or why no search decided it).
fn log_line(
    game_id: &str,
    seat: alea_engine::Color,
    clock: Option<u64>,
    number: u32,
    used: Duration,
    decided: &Decided,
) -> String {
    let clock = clock.map_or("none".to_string(), |ms| format!("{ms}ms"));
    let depth = decided.depth.map_or("-".to_string(), |d| d.to_string());
    let answer = decided.turn.as_deref().unwrap_or("pass");
    let mut line = format!(
        "game {game_id} turn {number} seat {} clock {clock} used {}ms depth {depth} answer {answer}",
        if seat == alea_engine::Color::White { "white" } else { "black" },
        used.as_millis()
    );
    if let Some(note) = &decided.note {
        line += &format!(" ({note})");
    }
    if let Some(differs) = &decided.disagreement {
        line += &format!(" (generators disagree: {differs})");
    }
    line
}

async fn deliver(State(bot): State<Arc<Bot>>, method: Method, headers: HeaderMap, body: Bytes) -> Response {
    let received = Instant::now();
    if method == Method::GET || method == Method::HEAD {
        return (StatusCode::OK, "alea bot: the dicechess.com bot platform POSTs its deliveries here\n")
            .into_response();
    }
    if method != Method::POST {
        let why = format!("{method} is not a delivery: the platform POSTs them");
        eprintln!("refused 405: {why}");
        return (StatusCode::METHOD_NOT_ALLOWED, axum::Json(json!({ "error": why }))).into_response();
    }
    let (response, line) = bot.answer(&headers, &body, received).await;
    eprintln!("{line}");
    response
}

/// A body over the limit is refused before it is read whole (413), with its own log line.
async fn too_large(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let response = next.run(request).await;
    if response.status() != StatusCode::PAYLOAD_TOO_LARGE {
        return response;
    }
    let why = "the body is over the limit (--max-body-kib)";
    eprintln!("refused 413: {why}");
    (StatusCode::PAYLOAD_TOO_LARGE, axum::Json(json!({ "error": why }))).into_response()
}

fn router(bot: Arc<Bot>, max_body: usize) -> Router {
    Router::new()
        .fallback(deliver)
        .with_state(bot)
        .layer(DefaultBodyLimit::max(max_body))
        .layer(axum::middleware::from_fn(too_large))
}

/// Serves the platform's deliveries on `addr` until the process ends. `on_listening` gets the
/// bound address (the port may have been 0).
pub fn run(config: BotConfig, addr: SocketAddr, on_listening: impl FnOnce(SocketAddr)) -> Result<(), String> {
    config.check()?;
    crate::serve_on(addr, on_listening, || {
        let max_body = config.max_body;
        let bot = Arc::new(Bot {
            searches: Arc::new(tokio::sync::Semaphore::new(config.searches)),
            config,
            games: Mutex::new(HashMap::new()),
        });
        let sweeper = bot.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_secs(30));
            loop {
                every.tick().await;
                sweeper.sweep();
            }
        });
        router(bot, max_body)
    })
}

/// Answers one delivery read from a file, as the endpoint would but unsigned: the answer's JSON
/// body and the delivery's log line.
pub fn dry_run(config: &BotConfig, body: &str) -> Result<(String, String), String> {
    config.check()?;
    let value: Value = serde_json::from_str(body).map_err(|e| format!("not JSON: {e}"))?;
    let received = Instant::now();
    match delivery::read(&value)? {
        Delivery::Verification { nonce } => {
            Ok((json!({ "nonce": nonce }).to_string(), "verification: nonce echoed".into()))
        }
        Delivery::Turn(turn) => {
            let prepared = prepare(config.variant, &turn)?;
            let budget = budget(&turn, received.elapsed(), config.margin_ms, config.max_turn_ms);
            let decided = decide(&prepared, &budget, &Shared::new(config.hash_mib));
            let line = log_line(&turn.game_id, turn.seat, turn.our_clock(), 1, received.elapsed(), &decided);
            Ok((json!({ "moves": decided.moves() }).to_string(), line))
        }
    }
}
