//! The HTTP API the page uses. Requests and answers are JSON; a refused request gets a status
//! (400 bad input, 404 unknown game, 409 not now) and `{"error": "..."}`, and changes nothing.

use crate::assets;
use crate::store::{BusyGuard, Entry, Store};
use crate::webgame::{MAX_MOVETIME, Refusal, WebGame};
use alea_engine::Color;
use alea_engine::services::handle::SearchReport;
use alea_engine::services::pgn::GameRecord;
use alea_engine::services::registry::Variant;
use alea_engine::services::rollout::RolloutSettings;
use alea_engine::services::search::Limits;
use alea_engine::services::search::Shared;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use std::any::Any;
use std::sync::Arc;
use tokio::sync::Semaphore;
use tower_http::catch_panic::CatchPanicLayer;

pub struct App {
    pub store: Store,
    /// Searches at once across all games (each is one thread).
    pub searches: Semaphore,
}

pub type AppState = Arc<App>;

/// Threads a rollout plays its games on (it holds one of the searches' places).
const ROLLOUT_THREADS: usize = 2;

/// Turns a whole-game analysis judges at once, each on a thread (it holds one place too).
const ANALYSIS_THREADS: usize = 2;

/// The longest a search for advice or analysis runs (milliseconds), at any depth asked: a depth
/// of three turns takes minutes in a middlegame of several moves a turn, and holds one of the
/// server's few search places meanwhile.
const ADVICE_CAP_MS: u64 = 5_000;

/// A refused request.
pub struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, [(header::CACHE_CONTROL, "no-store")], axum::Json(json!({ "error": self.1 }))).into_response()
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        match r {
            Refusal::Bad(m) => ApiError(StatusCode::BAD_REQUEST, m),
            Refusal::Conflict(m) => ApiError(StatusCode::CONFLICT, m),
        }
    }
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, message.into())
}

type ApiResult = Result<Response, ApiError>;

pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(|| async { assets::serve("index.html") }))
        .route("/assets/{name}", get(|Path(name): Path<String>| async move { assets::serve(&name) }))
        .route("/api/variants", get(variants))
        .route("/api/games", post(create))
        .route("/api/games/import", post(import))
        .route("/api/games/{id}", get(show))
        .route("/api/games/{id}/roll", post(roll))
        .route("/api/games/{id}/move", post(play_move))
        .route("/api/games/{id}/engine", post(engine))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/pgn", get(pgn))
        .route("/api/games/{id}/advice", post(advice))
        .route("/api/games/{id}/analysis", post(analysis))
        .route("/api/games/{id}/rollout", post(rollout))
        .route("/api/games/{id}/events", get(events))
        .fallback(|| async { ApiError(StatusCode::NOT_FOUND, "no such page or endpoint".into()) })
        .layer(axum::extract::DefaultBodyLimit::max(1 << 20))
        .layer(answer_panics())
        .with_state(state)
}

/// A bug met in one request answers that request with a 500 and leaves the server serving the
/// other games, rather than ending it (the panic's message still goes to the server's log).
fn answer_panics() -> CatchPanicLayer<fn(Box<dyn Any + Send>) -> Response> {
    CatchPanicLayer::custom(|_panic| {
        ApiError(StatusCode::INTERNAL_SERVER_ERROR, "the server met a bug answering this request".into())
            .into_response()
    })
}

/// The request body as a JSON object (an empty body is an empty object).
fn body_json(body: &Bytes) -> Result<Value, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    let value: Value = serde_json::from_slice(body).map_err(|e| bad(format!("the body is not JSON: {e}")))?;
    if !value.is_object() {
        return Err(bad("the body must be a JSON object"));
    }
    Ok(value)
}

fn new_id() -> String {
    use rand::RngExt;
    let mut rng = rand::rng();
    (0..16).map(|_| char::from_digit(rng.random_range(0..16u32), 16).expect("a hex digit")).collect()
}

fn new_seed() -> u64 {
    use rand::RngExt;
    rand::rng().random_range(0..u64::MAX)
}

fn movetime_of(body: &Value, default: u64) -> Result<u64, ApiError> {
    match body.get("movetime") {
        None | Some(Value::Null) => Ok(default),
        Some(v) => v
            .as_u64()
            .filter(|ms| (1..=MAX_MOVETIME).contains(ms))
            .ok_or_else(|| bad(format!("movetime is milliseconds from 1 to {MAX_MOVETIME}"))),
    }
}

/// A text field of a request, `default` where it is absent or null; any other kind of value is
/// refused (a number given for a variant must not start a game of the default one).
fn text_field<'a>(body: &'a Value, name: &str, default: &'a str) -> Result<&'a str, ApiError> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::String(text)) => Ok(text),
        Some(_) => Err(bad(format!("{name} is text, as \"{default}\""))),
    }
}

/// Whether the person enters every roll (`own_dice`, false where absent).
fn own_dice_of(body: &Value) -> Result<bool, ApiError> {
    match body.get("own_dice") {
        None | Some(Value::Null) => Ok(false),
        Some(v) => v.as_bool().ok_or_else(|| bad("own_dice is true or false")),
    }
}

/// The engine's `Skill Level` a game is created with (`skill`, 0 to 20; full strength where absent).
fn skill_of(body: &Value) -> Result<u8, ApiError> {
    let full = alea_engine::services::search::FULL_SKILL;
    match body.get("skill") {
        None | Some(Value::Null) => Ok(full),
        Some(v) => v
            .as_u64()
            .filter(|l| *l <= u64::from(full))
            .map(|l| l as u8)
            .ok_or_else(|| bad(format!("skill is the engine's level, 0 to {full}"))),
    }
}

/// The dice a request enters (`faces`, as "1 4 6" or [1, 4, 6]), if any.
fn faces_of(body: &Value) -> Result<Option<String>, ApiError> {
    let wrong = || bad("faces are the dice's faces, as \"1 4 6\" or [1, 4, 6]");
    match body.get("faces") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(truncate(text))),
        Some(Value::Array(faces)) => {
            // Each a face of its own: [12] is not the faces 1 and 2.
            let face = |f: &Value| f.as_u64().filter(|f| (1..=6).contains(f)).map(|f| f.to_string());
            let faces: Option<Vec<String>> = faces.iter().map(face).collect();
            faces.map(|f| Some(f.join(" "))).ok_or_else(wrong)
        }
        Some(_) => Err(wrong()),
    }
}

fn entry(app: &App, id: &str) -> Result<Arc<Entry>, ApiError> {
    match app.store.get(id) {
        Ok(Some(entry)) => Ok(entry),
        Ok(None) => Err(ApiError(StatusCode::NOT_FOUND, format!("no game '{}'", truncate(id)))),
        Err(e) => Err(ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("the saved game cannot be read: {e}"))),
    }
}

fn truncate(text: &str) -> String {
    text.chars().take(40).collect()
}

fn state_of(entry: &Entry, id: &str) -> Response {
    let game = entry.game.lock().unwrap_or_else(|e| e.into_inner());
    let mut state = game.state(id);
    state["busy"] = json!(entry.busy.load(std::sync::atomic::Ordering::Acquire));
    axum::Json(state).into_response()
}

async fn create(State(app): State<AppState>, body: Bytes) -> ApiResult {
    let body = body_json(&body)?;
    let variant = text_field(&body, "variant", alea_engine::services::registry::Variant::DEFAULT.name())?;
    let chess960 = match body.get("chess960") {
        None | Some(Value::Null) => false,
        Some(v) => v.as_bool().ok_or_else(|| bad("chess960 is true or false"))?,
    };
    let fen = match body.get("fen") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if s.trim().is_empty() => None,
        Some(Value::String(s)) => Some(s.trim().to_string()),
        Some(_) => return Err(bad("fen is the start position as text")),
    };
    let human = match text_field(&body, "color", "white")? {
        "random" => {
            if new_seed().is_multiple_of(2) {
                Color::White
            } else {
                Color::Black
            }
        }
        other => Color::from_name(other)
            .ok_or_else(|| bad(format!("color is white, black or random, not '{}'", truncate(other))))?,
    };
    let movetime = movetime_of(&body, 1000)?;
    let own_dice = own_dice_of(&body)?;
    let skill = skill_of(&body)?;
    let id = new_id();
    let mut game = WebGame::new(&truncate(variant), chess960, fen.as_deref(), human, new_seed(), movetime, own_dice)?;
    game.skill = skill;
    let entry = app.store.insert(id.clone(), game);
    Ok((StatusCode::CREATED, state_of(&entry, &id)).into_response())
}

async fn import(State(app): State<AppState>, body: Bytes) -> ApiResult {
    let body = body_json(&body)?;
    let text = body.get("pgn").and_then(Value::as_str).ok_or_else(|| bad("give the game as {\"pgn\": \"...\"}"))?;
    let record = GameRecord::from_pgn(text).map_err(|e| bad(format!("the PGN was refused: {e}")))?;
    let movetime = movetime_of(&body, 1000)?;
    let own_dice = own_dice_of(&body)?;
    let mut game = WebGame::from_record(record, new_seed(), movetime, own_dice);
    game.skill = skill_of(&body)?;
    let id = new_id();
    let entry = app.store.insert(id.clone(), game);
    Ok((StatusCode::CREATED, state_of(&entry, &id)).into_response())
}

async fn show(State(app): State<AppState>, Path(id): Path<String>) -> ApiResult {
    Ok(state_of(&*entry(&app, &id)?, &id))
}

/// Runs a change to a game that is not searching. The change is made on a copy, kept only when
/// it succeeds: a refusal, or a bug met halfway, leaves the game as it was.
fn change(entry: &Entry, f: impl FnOnce(&mut WebGame) -> Result<(), Refusal>) -> Result<(), ApiError> {
    // Checked under the lock: a search marks the game busy before it takes its snapshot.
    let mut game = entry.game.lock().unwrap_or_else(|e| e.into_inner());
    if entry.busy.load(std::sync::atomic::Ordering::Acquire) {
        return Err(ApiError(StatusCode::CONFLICT, "the engine is thinking: wait for its answer".into()));
    }
    let mut changed = game.clone();
    f(&mut changed)?;
    *game = changed;
    Ok(())
}

async fn roll(State(app): State<AppState>, Path(id): Path<String>, body: Bytes) -> ApiResult {
    let entry = entry(&app, &id)?;
    let faces = faces_of(&body_json(&body)?)?;
    change(&entry, |g| g.roll_dice(faces.as_deref()))?;
    app.store.save(&id, &entry);
    Ok(state_of(&entry, &id))
}

async fn play_move(State(app): State<AppState>, Path(id): Path<String>, body: Bytes) -> ApiResult {
    let entry = entry(&app, &id)?;
    let body = body_json(&body)?;
    let text = body.get("move").and_then(Value::as_str).ok_or_else(|| bad("give the move as {\"move\": \"e2e4\"}"))?;
    change(&entry, |g| g.human_move(text))?;
    app.store.save(&id, &entry);
    Ok(state_of(&entry, &id))
}

async fn undo(State(app): State<AppState>, Path(id): Path<String>) -> ApiResult {
    let entry = entry(&app, &id)?;
    change(&entry, WebGame::undo)?;
    app.store.save(&id, &entry);
    Ok(state_of(&entry, &id))
}

/// The variants a new game may be of, the default first, as the page's menu lists them.
async fn variants() -> Response {
    let rows: Vec<Value> = Variant::ALL
        .iter()
        .map(|v| {
            let row = v.row();
            json!({ "name": row.name, "title": row.title, "summary": row.summary, "chess960": row.chess960 })
        })
        .collect();
    axum::Json(Value::Array(rows)).into_response()
}

async fn pgn(State(app): State<AppState>, Path(id): Path<String>) -> ApiResult {
    let entry = entry(&app, &id)?;
    let text = entry.game.lock().unwrap_or_else(|e| e.into_inner()).record.to_pgn();
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-chess-pgn; charset=utf-8".to_string()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"alea-{id}.pgn\"")),
        ],
        text,
    )
        .into_response())
}

/// Streams a search's iterations to the game's event stream.
fn reporter(entry: &Arc<Entry>, kind: &'static str) -> impl FnMut(&SearchReport) + Send + use<> {
    let events = entry.events.clone();
    move |r: &SearchReport| {
        let line = json!({"kind": kind, "depth": r.depth, "score": r.score, "nodes": r.nodes, "nps": r.nps(),
                          "time": r.elapsed.as_millis() as u64});
        let _ = events.send(line.to_string());
    }
}

/// Runs a search for `entry` off the async threads, one game at a time and at most
/// `app.searches` at once; `f` gets a snapshot of the game and returns the result.
/// With `exclusive` (the engine's own turn) the game is marked busy meanwhile and changes to it
/// are refused; advice and analysis read a snapshot and leave the game free.
async fn search_job<T: Send + 'static>(
    app: &AppState,
    entry: &Arc<Entry>,
    exclusive: bool,
    f: impl FnOnce(WebGame, &Shared) -> T + Send + 'static,
) -> Result<T, ApiError> {
    let guard = if exclusive {
        if !entry.try_start() {
            return Err(ApiError(StatusCode::CONFLICT, "the engine is already thinking about this game".into()));
        }
        Some(BusyGuard(entry.clone()))
    } else {
        None
    };
    let _permit =
        app.searches.acquire().await.map_err(|_| ApiError(StatusCode::SERVICE_UNAVAILABLE, "shutting down".into()))?;
    let snapshot = entry.game.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let out = tokio::task::spawn_blocking(move || {
        let shared = Shared::new(alea_engine::services::search::DEFAULT_HASH_MIB);
        let out = f(snapshot, &shared);
        drop(guard);
        out
    })
    .await
    .map_err(|_| ApiError(StatusCode::INTERNAL_SERVER_ERROR, "the search failed".into()))?;
    Ok(out)
}

async fn engine(State(app): State<AppState>, Path(id): Path<String>) -> ApiResult {
    let entry = entry(&app, &id)?;
    let mut report = reporter(&entry, "engine");
    let target = entry.clone();
    let result = search_job(&app, &entry, true, move |mut game, shared| {
        // Played on the snapshot, then stored while the game is still marked busy, so no other
        // change can slip in between.
        let played = game.engine_turn(shared, &mut report);
        if played.is_ok() {
            *target.game.lock().unwrap_or_else(|e| e.into_inner()) = game;
        }
        played
    })
    .await?;
    result?;
    app.store.save(&id, &entry);
    Ok(state_of(&entry, &id))
}

async fn advice(State(app): State<AppState>, Path(id): Path<String>, body: Bytes) -> ApiResult {
    let entry = entry(&app, &id)?;
    let body = body_json(&body)?;
    // A fixed depth (turns, 1 to 6) where one is asked for, else a time (milliseconds).
    let limits = match body.get("depth") {
        None | Some(Value::Null) => {
            Limits { movetime: Some(movetime_of(&body, 500)?.min(ADVICE_CAP_MS)), ..Limits::default() }
        }
        Some(v) => {
            let depth = v.as_u64().filter(|d| (1..=6).contains(d)).ok_or_else(|| bad("depth is 1 to 6"))?;
            Limits { depth: Some(depth as u32), movetime: Some(ADVICE_CAP_MS), ..Limits::default() }
        }
    };
    let mut report = reporter(&entry, "advice");
    let value = search_job(&app, &entry, false, move |game, shared| game.advice(limits, shared, &mut report)).await??;
    Ok(axum::Json(value).into_response())
}

/// A whole number field of a request within `range`, `default` where it is absent or null.
fn number_in(body: &Value, name: &str, range: std::ops::RangeInclusive<u64>, default: u64) -> Result<u64, ApiError> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(default),
        Some(v) => v
            .as_u64()
            .filter(|n| range.contains(n))
            .ok_or_else(|| bad(format!("{name} is a whole number from {} to {}", range.start(), range.end()))),
    }
}

/// The decision on show played out (`games` a choice, up to 2,000; the search's best `choices`,
/// up to 5; players `depth` turns deep, 1 or 2; at most `seconds`, 1 to 10): the same dice for
/// the same decision of the same game.
async fn rollout(State(app): State<AppState>, Path(id): Path<String>, body: Bytes) -> ApiResult {
    let entry = entry(&app, &id)?;
    let body = body_json(&body)?;
    let games = number_in(&body, "games", 1..=2_000, 300)? as u32;
    let choices = number_in(&body, "choices", 1..=5, 3)? as usize;
    let depth = number_in(&body, "depth", 1..=2, 1)? as u32;
    let seconds = number_in(&body, "seconds", 1..=10, 5)?;
    let value = search_job(&app, &entry, false, move |game, shared| {
        let settings = RolloutSettings {
            games,
            depth,
            turns: None,
            seed: alea_engine::services::search::seeded_draw(game.seed, 2, game.record.turns.len() as u64, u64::MAX),
            threads: ROLLOUT_THREADS,
            time: Some(std::time::Duration::from_secs(seconds)),
            luck_adjusted: true,
        };
        game.rollout(choices, settings, shared)
    })
    .await??;
    Ok(axum::Json(value).into_response())
}

async fn analysis(State(app): State<AppState>, Path(id): Path<String>, body: Bytes) -> ApiResult {
    let entry = entry(&app, &id)?;
    let body = body_json(&body)?;
    let depth = match body.get("depth") {
        None | Some(Value::Null) => 2,
        Some(v) => v.as_u64().filter(|d| (1..=3).contains(d)).ok_or_else(|| bad("depth is 1, 2 or 3"))? as u32,
    };
    // Each turn judged is announced on the game's event stream, so the page can show how far along
    // the analysis is (a long game at depth 2 takes a while).
    let events = entry.events.clone();
    let value = search_job(&app, &entry, false, move |game, _| {
        let limits = Limits { depth: Some(depth), movetime: Some(ADVICE_CAP_MS), ..Limits::default() };
        game.analysis(&limits, ANALYSIS_THREADS, &mut |judged, of| {
            let _ = events.send(json!({"kind": "analysis", "judged": judged, "turns": of}).to_string());
        })
    })
    .await??;
    Ok(axum::Json(value).into_response())
}

async fn events(State(app): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let entry = entry(&app, &id)?;
    let receiver = entry.events.subscribe();
    let stream = futures_util::stream::unfold(receiver, |mut rx| async move {
        loop {
            match rx.recv().await {
                Ok(line) => return Some((Ok::<Event, std::convert::Infallible>(Event::default().data(line)), rx)),
                // A slow reader skips what it missed.
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
            }
        }
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt;

    #[test]
    fn a_change_refused_or_failing_halfway_leaves_the_game_as_it_was() {
        let dir = std::env::temp_dir().join(format!("alea-web-change-{}", std::process::id()));
        let store = Store::open(dir.clone(), crate::store::KEEP_GAMES).unwrap();
        let game = WebGame::new("freedom", false, None, Color::White, 7, 100, false).unwrap();
        let entry = store.insert("00000000000000aa".into(), game);
        let before = entry.game.lock().unwrap().saved();

        let refused = change(&entry, |g| {
            g.roll_dice(None)?;
            Err(Refusal::Bad("refused after the roll".into()))
        });
        assert!(refused.is_err());
        assert_eq!(entry.game.lock().unwrap().saved(), before);

        let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            change(&entry, |g| {
                g.roll_dice(None)?;
                panic!("a bug met halfway, on purpose")
            })
        }));
        assert!(failed.is_err());
        let game = entry.game.lock().unwrap_or_else(|e| e.into_inner());
        assert_eq!(game.saved(), before);
        drop(game);

        // The same change, done: the roll is kept.
        assert!(change(&entry, |g| g.roll_dice(None)).is_ok());
        assert_ne!(entry.game.lock().unwrap_or_else(|e| e.into_inner()).saved(), before);
        std::fs::remove_dir_all(dir).unwrap();
    }

    async fn bug() -> &'static str {
        panic!("a bug met on purpose by the test")
    }

    #[tokio::test]
    async fn a_request_that_panics_is_answered_500_and_the_next_one_is_served() {
        let app: Router =
            Router::new().route("/bug", get(bug)).route("/fine", get(|| async { "fine" })).layer(answer_panics());
        let answer = app.clone().oneshot(Request::get("/bug").body(Body::empty()).unwrap()).await.unwrap();
        assert_eq!(answer.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let body = axum::body::to_bytes(answer.into_body(), 1 << 16).await.unwrap();
        let value: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(value["error"], "the server met a bug answering this request");
        let answer = app.oneshot(Request::get("/fine").body(Body::empty()).unwrap()).await.unwrap();
        assert_eq!(answer.status(), StatusCode::OK);
    }
}
