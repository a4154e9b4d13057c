//! `alea serve` over HTTP: every endpoint, bad input of each kind (refused with a clear error and
//! changing nothing), the live event stream, and several games at once.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::time::Duration;

struct Server {
    child: Child,
    addr: String,
    /// The games directory, removed when the server's test ends.
    _games: Option<tempfile::TempDir>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start() -> Server {
    let games = tempfile::Builder::new().prefix("alea-web-games-").tempdir().unwrap();
    let mut server = start_in(games.path());
    server._games = Some(games);
    server
}

/// A server keeping its games in `games`.
fn start_in(games: &std::path::Path) -> Server {
    start_keeping(games, alea_web::KEEP_GAMES)
}

/// A server keeping its games in `games`, at most `keep` of them.
fn start_keeping(games: &std::path::Path, keep: usize) -> Server {
    let mut child = crate::common::alea()
        .args(["serve", "--port", "0", "--games", games.to_str().unwrap(), "--keep-games", &keep.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("alea serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr =
        line.trim().strip_prefix("listening on http://").expect("the address line").trim_end_matches('/').to_string();
    assert!(addr.starts_with("127.0.0.1:"), "loopback by default: {addr}");
    Server { child, addr, _games: None }
}

/// One HTTP/1.1 request; the status and the body.
fn request(addr: &str, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let body = body.unwrap_or("");
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        addr,
        body.len()
    )
    .unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, rest) = text.split_once("\r\n\r\n").expect("a response head");
    let status: u16 = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    let body =
        if head.to_ascii_lowercase().contains("transfer-encoding: chunked") { dechunk(rest) } else { rest.to_string() };
    (status, body)
}

fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&after[..n]);
        rest = &after[n + 2..];
    }
    out
}

fn json_of(addr: &str, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let text = body.map(|b| b.to_string());
    let (status, body) = request(addr, method, path, text.as_deref());
    (status, serde_json::from_str(&body).unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {body}")))
}

fn new_game(addr: &str, body: Value) -> Value {
    let (status, state) = json_of(addr, "POST", "/api/games", Some(body));
    assert_eq!(status, 201, "{state}");
    state
}

fn refused(addr: &str, method: &str, path: &str, body: Option<&str>, want: u16, words: &str) {
    let (status, text) = request(addr, method, path, body);
    assert_eq!(status, want, "{method} {path} {body:?}: {text}");
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("a JSON error: {text}"));
    let message = v["error"].as_str().unwrap_or_else(|| panic!("an error message: {text}"));
    assert!(message.contains(words), "{method} {path}: '{message}' should say '{words}'");
}

#[test]
fn the_page_and_its_files_are_served() {
    let server = start();
    let (status, page) = request(&server.addr, "GET", "/", None);
    assert_eq!(status, 200);
    assert!(page.contains("<title>Alea"));
    assert!(page.contains("/assets/app.js") && page.contains("piece-n"), "pieces and script are built in");
    for (file, words) in [("app.js", "EventSource"), ("style.css", "#board")] {
        let (status, body) = request(&server.addr, "GET", &format!("/assets/{file}"), None);
        assert_eq!(status, 200, "{file}");
        assert!(body.contains(words), "{file}");
    }
    assert!(!page.contains("http://") && !page.contains("https://"), "the page fetches nothing from the internet");
    refused(&server.addr, "GET", "/assets/nothing.js", None, 404, "no such file");
    refused(&server.addr, "GET", "/nowhere", None, 404, "no such page");
}

/// The page's variant menu is the engine's list, served: every variant, the default first, each a
/// game the server makes.
#[test]
fn the_variants_are_served_for_the_menu() {
    use alea_engine::services::registry::Variant;
    let server = start();
    let (status, listed) = json_of(&server.addr, "GET", "/api/variants", None);
    assert_eq!(status, 200);
    let names: Vec<&str> = listed.as_array().unwrap().iter().map(|v| v["name"].as_str().unwrap()).collect();
    assert_eq!(names, Variant::ALL.map(Variant::name));
    for v in listed.as_array().unwrap() {
        assert!(!v["title"].as_str().unwrap().is_empty() && !v["summary"].as_str().unwrap().is_empty(), "{v}");
    }
    let (_, page) = request(&server.addr, "GET", "/", None);
    assert!(!page.contains("<option value=\"grand\""), "the menu is not written in the page");
    let state = new_game(&server.addr, json!({"variant": names[names.len() - 1], "movetime": 50}));
    assert_eq!(state["variant"], names[names.len() - 1]);
}

#[test]
fn a_game_through_every_endpoint() {
    let server = start();
    let state = new_game(&server.addr, json!({"variant": "freedom", "color": "white", "movetime": 100}));
    let id = state["id"].as_str().unwrap().to_string();
    assert_eq!(state["phase"], "before_roll");
    assert_eq!(state["human"], "white");
    let (status, shown) = json_of(&server.addr, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(status, 200);
    assert_eq!(shown["fen"], state["fen"]);

    // Advice before the roll: the six faces of the die, their chances, and rolling's value.
    let (status, advice) =
        json_of(&server.addr, "POST", &format!("/api/games/{id}/advice"), Some(json!({"movetime": 100})));
    assert_eq!(status, 200, "{advice}");
    assert_eq!(advice["outcomes"].as_array().unwrap().len(), 6);
    assert!(advice["expected"].is_i64());
    assert_eq!(advice["wdl"].as_array().unwrap().len(), 3);

    let (status, rolled) = json_of(&server.addr, "POST", &format!("/api/games/{id}/roll"), None);
    assert_eq!(status, 200);
    assert_eq!(rolled["phase"], "after_roll");
    let allowed: Vec<String> =
        rolled["allowed"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
    assert!(!allowed.is_empty());
    // Advice after the roll: every allowed move ranked.
    let (_, ranked) = json_of(&server.addr, "POST", &format!("/api/games/{id}/advice"), Some(json!({"movetime": 100})));
    assert_eq!(ranked["choices"].as_array().unwrap().len(), allowed.len());

    let (status, moved) =
        json_of(&server.addr, "POST", &format!("/api/games/{id}/move"), Some(json!({"move": allowed[0]})));
    assert_eq!(status, 200, "{moved}");
    assert_eq!(moved["moves"].as_array().unwrap().len(), 1);
    assert_eq!(moved["engine_to_move"], true);
    let (status, answered) = json_of(&server.addr, "POST", &format!("/api/games/{id}/engine"), None);
    assert_eq!(status, 200, "{answered}");
    assert_eq!(answered["moves"].as_array().unwrap().len(), 2);
    assert_eq!(answered["moves"][1]["by"], "engine");
    assert!(answered["last_engine"]["move"].is_string());

    let (status, pgn) = request(&server.addr, "GET", &format!("/api/games/{id}/pgn"), None);
    assert_eq!(status, 200);
    assert!(pgn.contains("[Variant \"freedom\"]") && pgn.contains("[%roll "), "{pgn}");
    // The PGN reads back into a game at the same position.
    let (status, imported) = json_of(&server.addr, "POST", "/api/games/import", Some(json!({"pgn": pgn})));
    assert_eq!(status, 201, "{imported}");
    assert_eq!(imported["fen"], answered["fen"]);
    assert_ne!(imported["id"], answered["id"]);

    let (status, analysis) =
        json_of(&server.addr, "POST", &format!("/api/games/{id}/analysis"), Some(json!({"depth": 1})));
    assert_eq!(status, 200, "{analysis}");
    assert_eq!(analysis["turns"].as_array().unwrap().len(), 2);
    assert!(analysis["turns"][0]["luck"].is_i64() && analysis["turns"][0]["loss"].is_i64());

    // Undo takes back our move and the engine's answer; the same dice come again.
    let (status, undone) = json_of(&server.addr, "POST", &format!("/api/games/{id}/undo"), None);
    assert_eq!(status, 200);
    assert_eq!(undone["moves"].as_array().unwrap().len(), 0);
    let (_, again) = json_of(&server.addr, "POST", &format!("/api/games/{id}/roll"), None);
    assert_eq!(again["roll"], rolled["roll"]);
}

#[test]
fn the_engine_moves_first_for_a_black_player_and_streams_its_search() {
    let server = start();
    let state = new_game(&server.addr, json!({"variant": "classic", "color": "black", "movetime": 300}));
    let id = state["id"].as_str().unwrap().to_string();
    assert_eq!(state["engine_to_move"], true);
    assert_eq!(state["dice"], 2);
    // Listen to the events, then let the engine play.
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(stream, "GET /api/games/{id}/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n").unwrap();
    let mut reader = BufReader::new(stream);
    let mut head = String::new();
    reader.read_line(&mut head).unwrap();
    assert!(head.contains("200"), "{head}");
    std::thread::sleep(Duration::from_millis(100));
    let (status, answered) = json_of(&server.addr, "POST", &format!("/api/games/{id}/engine"), None);
    assert_eq!(status, 200, "{answered}");
    assert_eq!(answered["moves"][0]["by"], "engine");
    assert_eq!(answered["moves"][0]["roll"].as_array().unwrap().len(), 2);
    // The engine's turn searched only if its roll allowed more than one move; advice before our
    // roll always searches. Either streams its iterations.
    let (status, _) = json_of(&server.addr, "POST", &format!("/api/games/{id}/advice"), Some(json!({"movetime": 100})));
    assert_eq!(status, 200);
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let mut line = String::new();
    let mut found = None;
    while found.is_none() && std::time::Instant::now() < deadline {
        line.clear();
        if reader.read_line(&mut line).unwrap() == 0 {
            break;
        }
        if let Some(data) = line.trim().strip_prefix("data:") {
            found = Some(serde_json::from_str::<Value>(data.trim()).unwrap());
        }
    }
    let info = found.expect("a search event");
    assert!(info["kind"] == "engine" || info["kind"] == "advice", "{info}");
    assert!(info["depth"].as_u64().unwrap() >= 1);
    // A whole-game analysis announces each turn it has judged, in order, up to the last.
    let (status, _) = json_of(&server.addr, "POST", &format!("/api/games/{id}/analysis"), Some(json!({"depth": 1})));
    assert_eq!(status, 200);
    let mut judged = Vec::new();
    while judged.last() != Some(&1) && std::time::Instant::now() < deadline {
        line.clear();
        if reader.read_line(&mut line).unwrap() == 0 {
            break;
        }
        if let Some(data) = line.trim().strip_prefix("data:") {
            let info = serde_json::from_str::<Value>(data.trim()).unwrap();
            if info["kind"] == "analysis" {
                assert_eq!(info["turns"], 1, "{info}");
                judged.push(info["judged"].as_u64().unwrap());
            }
        }
    }
    assert_eq!(judged, vec![1]);
}

#[test]
fn bad_requests_are_refused_clearly_and_change_nothing() {
    let server = start();
    refused(&server.addr, "POST", "/api/games", Some(r#"{"variant": "atomic"}"#), 400, "unknown variant");
    refused(&server.addr, "POST", "/api/games", Some("{not json"), 400, "not JSON");
    refused(&server.addr, "POST", "/api/games", Some("[1, 2]"), 400, "JSON object");
    refused(&server.addr, "POST", "/api/games", Some(r#"{"color": "green"}"#), 400, "color");
    refused(&server.addr, "POST", "/api/games", Some(r#"{"variant": 3}"#), 400, "variant is text");
    refused(&server.addr, "POST", "/api/games", Some(r#"{"color": true}"#), 400, "color is text");
    refused(&server.addr, "POST", "/api/games", Some(r#"{"movetime": 0}"#), 400, "movetime");
    refused(&server.addr, "POST", "/api/games", Some(r#"{"chess960": "yes"}"#), 400, "chess960");
    refused(&server.addr, "GET", "/api/games/doesnotexist", None, 404, "no game");
    refused(&server.addr, "POST", "/api/games/doesnotexist/roll", None, 404, "no game");
    refused(&server.addr, "POST", "/api/games/import", Some(r#"{"pgn": "1. e4 e5 2. Qh5 {[%roll 9]} *"}"#), 400, "PGN");
    refused(&server.addr, "POST", "/api/games/import", Some(r#"{"text": "x"}"#), 400, "pgn");

    let state = new_game(&server.addr, json!({"variant": "freedom", "movetime": 100}));
    let id = state["id"].as_str().unwrap().to_string();
    let path = |end: &str| format!("/api/games/{id}/{end}");
    // Before the roll: no Freedom move at the start, so a move is refused until the dice are rolled.
    refused(&server.addr, "POST", &path("move"), Some(r#"{"move": "e2e4"}"#), 400, "roll the dice first");
    refused(&server.addr, "POST", &path("engine"), None, 409, "your turn");
    refused(&server.addr, "POST", &path("undo"), None, 409, "nothing of yours");
    let (_, rolled) = json_of(&server.addr, "POST", &path("roll"), None);
    refused(&server.addr, "POST", &path("roll"), None, 409, "already rolled");
    refused(&server.addr, "POST", &path("move"), Some(r#"{"move": "e2e5"}"#), 400, "illegal move e2e5");
    refused(&server.addr, "POST", &path("move"), Some(r#"{"move": "hello"}"#), 400, "not a move");
    refused(&server.addr, "POST", &path("move"), Some(r#"{"mv": "e2e4"}"#), 400, "give the move");
    for garbage in ["aé2e4", "é", "e2é4", "e7e8x", "", "0000", "e1e1"] {
        let (status, _) = request(&server.addr, "POST", &path("move"), Some(&json!({ "move": garbage }).to_string()));
        assert_eq!(status, 400, "{garbage:?}");
    }
    let allowed: Vec<&str> = rolled["allowed"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    let not_allowed = ["g1f3", "b1c3", "e2e4", "d2d4"].into_iter().find(|m| !allowed.contains(m)).unwrap();
    refused(
        &server.addr,
        "POST",
        &path("move"),
        Some(&json!({"move": not_allowed}).to_string()),
        400,
        "does not allow",
    );
    refused(&server.addr, "POST", &path("advice"), Some(r#"{"movetime": -5}"#), 400, "movetime");
    refused(&server.addr, "POST", &path("advice"), Some(r#"{"depth": 9}"#), 400, "depth");
    refused(&server.addr, "POST", &path("analysis"), Some(r#"{"depth": 9}"#), 400, "depth");
    let huge = format!(r#"{{"move": "{}"}}"#, "x".repeat(2 << 20));
    let (status, _) = request(&server.addr, "POST", &path("move"), Some(&huge));
    assert_eq!(status, 413);
    // Nothing of that changed the game.
    let (_, now) = json_of(&server.addr, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(now["fen"], rolled["fen"]);
    assert_eq!(now["roll"], rolled["roll"]);
    assert_eq!(now["moves"].as_array().unwrap().len(), 0);

    // Once we have moved it is the engine's turn: our moves, rolls and take-backs wait for it.
    let (status, moved) = json_of(&server.addr, "POST", &path("move"), Some(json!({"move": allowed[0]})));
    assert_eq!(status, 200, "{moved}");
    refused(&server.addr, "POST", &path("move"), Some(r#"{"move": "e7e5"}"#), 409, "engine's turn");
    refused(&server.addr, "POST", &path("roll"), None, 409, "engine's turn");
    let (_, still) = json_of(&server.addr, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(still["moves"].as_array().unwrap().len(), 1);
    // While the engine thinks, the game cannot be changed.
    let slow = new_game(&server.addr, json!({"variant": "freedom", "color": "black", "movetime": 1500}));
    let slow_id = slow["id"].as_str().unwrap().to_string();
    let thinking = {
        let addr = server.addr.clone();
        let slow_id = slow_id.clone();
        std::thread::spawn(move || request(&addr, "POST", &format!("/api/games/{slow_id}/engine"), None))
    };
    // Wait until the game says the engine is thinking (not a fixed sleep: a loaded machine may
    // take longer to start the search).
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while json_of(&server.addr, "GET", &format!("/api/games/{slow_id}"), None).1["busy"] != true {
        assert!(std::time::Instant::now() < deadline, "the engine never started thinking");
        std::thread::sleep(Duration::from_millis(10));
    }
    refused(&server.addr, "POST", &format!("/api/games/{slow_id}/engine"), None, 409, "already thinking");
    refused(&server.addr, "POST", &format!("/api/games/{slow_id}/roll"), None, 409, "thinking");
    // Other games are not held up meanwhile.
    let (status, _) = json_of(&server.addr, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(status, 200);
    let (status, _) = thinking.join().unwrap();
    assert_eq!(status, 200);
}

#[test]
fn several_games_at_once() {
    let server = start();
    let addr = server.addr.clone();
    let games: Vec<_> = ["freedom", "classic", "brainking", "freedom", "classic", "brainking"]
        .into_iter()
        .enumerate()
        .map(|(i, variant)| {
            let addr = addr.clone();
            std::thread::spawn(move || {
                let state = new_game(&addr, json!({"variant": variant, "movetime": 50, "chess960": i % 2 == 1}));
                let id = state["id"].as_str().unwrap().to_string();
                for turn in 0..3 {
                    let (_, rolled) = json_of(&addr, "POST", &format!("/api/games/{id}/roll"), None);
                    if rolled["phase"] == "over" {
                        break;
                    }
                    let first = rolled["allowed"][0].as_str().unwrap().to_string();
                    let (status, moved) =
                        json_of(&addr, "POST", &format!("/api/games/{id}/move"), Some(json!({"move": first})));
                    assert_eq!(status, 200, "{moved}");
                    if moved["phase"] == "over" {
                        break;
                    }
                    let (status, answered) = json_of(&addr, "POST", &format!("/api/games/{id}/engine"), None);
                    assert_eq!(status, 200, "{answered}");
                    assert_eq!(answered["moves"].as_array().unwrap().len(), 2 * (turn + 1), "{answered}");
                    assert_eq!(answered["variant"], variant);
                    if answered["phase"] == "over" {
                        break;
                    }
                }
                id
            })
        })
        .collect();
    let mut ids: Vec<String> = games.into_iter().map(|g| g.join().unwrap()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 6, "every game has its own id");
}

#[test]
fn dicechess3_turns_are_made_one_micro_move_at_a_time() {
    let server = start();
    let addr = &server.addr;
    // Bad starts: four dice, a die letter of the wrong side's case, Chess960.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    for (fen, words) in [(format!("{start} PNBR")), (format!("{start} pn"))].iter().zip(["dice", "case"]) {
        let body = json!({"variant": "dicechess3", "fen": fen}).to_string();
        refused(addr, "POST", "/api/games", Some(&body), 400, words);
    }
    refused(addr, "POST", "/api/games", Some(r#"{"variant": "dicechess3", "chess960": true}"#), 400, "standard start");
    // A micro-move that breaks the maximum rule: the king stepping in front of the pawn leaves
    // the pawn die unused, when the other order uses both.
    let blocked = new_game(addr, json!({"variant": "dicechess3", "fen": "4k3/8/8/8/3K4/8/3P4/8 w - - 0 1 PK"}));
    let blocked_id = blocked["id"].as_str().unwrap();
    let body = json!({"move": "d4d3"}).to_string();
    refused(addr, "POST", &format!("/api/games/{blocked_id}/move"), Some(&body), 400, "maximum rule");
    let (_, unchanged) = json_of(addr, "GET", &format!("/api/games/{blocked_id}"), None);
    assert_eq!(unchanged["fen"], blocked["fen"]);

    // A turn in progress from the FEN box: White has a pawn and a knight die left.
    let state = new_game(addr, json!({"variant": "dicechess3", "fen": format!("{start} PN"), "movetime": 50}));
    let id = state["id"].as_str().unwrap().to_string();
    let path = |end: &str| format!("/api/games/{id}/{end}");
    assert_eq!(state["phase"], "after_roll");
    assert_eq!(state["micro"], true);
    assert_eq!(state["dice"], 3);
    assert_eq!(state["dice_left"], json!([1, 2]));
    let first: Vec<&str> = state["allowed"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert!(first.contains(&"e2e4") && first.contains(&"g1f3") && !first.contains(&"f1c4"), "{first:?}");
    let (status, stepped) = json_of(addr, "POST", &path("move"), Some(json!({"move": "e2e4"})));
    assert_eq!(status, 200, "{stepped}");
    assert_eq!(stepped["partial"], json!(["e2e4"]));
    assert_eq!(stepped["partial_san"], json!(["e4"]));
    assert_eq!(stepped["dice_left"], json!([2]));
    assert_eq!(stepped["moves"].as_array().unwrap().len(), 0, "the turn is not over");
    // The pawn die is used: a second pawn move is refused and changes nothing.
    refused(addr, "POST", &path("move"), Some(r#"{"move": "d2d4"}"#), 400, "not allowed now");
    let (_, same) = json_of(addr, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(same["fen"], stepped["fen"]);
    // Undo takes back the micro-move, the dice stay.
    let (_, undone) = json_of(addr, "POST", &path("undo"), None);
    assert_eq!(undone["partial"], json!([]));
    assert_eq!(undone["dice_left"], json!([1, 2]));
    assert_eq!(undone["fen"], state["fen"]);
    // The whole rest of the turn at once is accepted too.
    let (status, done) = json_of(addr, "POST", &path("move"), Some(json!({"move": "e2e4,g1f3"})));
    assert_eq!(status, 200, "{done}");
    assert_eq!(done["moves"][0]["uci"], "e2e4,g1f3");
    assert_eq!(done["moves"][0]["san"], "e4,Nf3");
    assert_eq!(done["engine_to_move"], true);
    let (status, answered) = json_of(addr, "POST", &path("engine"), None);
    assert_eq!(status, 200, "{answered}");
    assert_eq!(answered["moves"][1]["by"], "engine");
    assert_eq!(answered["last_engine"]["roll"].as_array().unwrap().len(), 3);

    // Our own roll: three dice, then micro-moves until the turn ends.
    // At a fixed depth (not a time, which a loaded machine may spend before the first
    // iteration ends).
    let (_, advice) = json_of(addr, "POST", &path("advice"), Some(json!({"depth": 1})));
    assert_eq!(advice["outcomes"].as_array().unwrap().len(), 56, "{advice}");
    assert_eq!(advice["depth"], 1, "{advice}");
    // A depth no search reaches in its time is asked for: the answer comes at the cap, from the
    // deepest iteration finished.
    let (status, deep) = json_of(addr, "POST", &path("advice"), Some(json!({"depth": 6})));
    assert_eq!(status, 200, "{deep}");
    let reached = deep["depth"].as_u64().unwrap();
    assert!((1..6).contains(&reached), "{deep}");
    let (status, mut now) = json_of(addr, "POST", &path("roll"), None);
    assert_eq!(status, 200, "{now}");
    let mut steps = 0;
    while now["phase"] == "after_roll" && now["turn"] == "white" {
        let left = now["dice_left"].as_array().unwrap().len();
        assert_eq!(left + steps, 3, "{now}");
        let micro = now["allowed"][0].as_str().unwrap().to_string();
        let (status, next) = json_of(addr, "POST", &path("move"), Some(json!({"move": micro})));
        assert_eq!(status, 200, "{next}");
        now = next;
        steps += 1;
    }
    let ours = &now["moves"][2];
    assert_eq!(ours["roll"].as_array().unwrap().len(), 3, "{now}");
    let (status, pgn) = request(addr, "GET", &path("pgn"), None);
    assert_eq!(status, 200);
    assert!(pgn.contains("[Variant \"dicechess3\"]") && pgn.contains("[FEN "), "{pgn}");
    let (status, imported) = json_of(addr, "POST", "/api/games/import", Some(json!({"pgn": pgn})));
    assert_eq!(status, 201, "{imported}");
    assert_eq!(imported["fen"], now["fen"]);
    let (status, analysis) = json_of(addr, "POST", &path("analysis"), Some(json!({"depth": 1})));
    assert_eq!(status, 200, "{analysis}");
    assert_eq!(analysis["turns"].as_array().unwrap().len(), 3);
    assert!(analysis["turns"][1]["luck"].is_i64(), "{analysis}");
    assert!(analysis["turns"][0]["luck"].is_null(), "the turn set up in progress was not rolled here");
}

#[test]
fn a_burmese_turn_stops_when_the_player_says_so() {
    let server = start();
    let addr = &server.addr;
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let state = new_game(addr, json!({"variant": "burmese", "fen": format!("{start} PNB"), "movetime": 50}));
    let id = state["id"].as_str().unwrap().to_string();
    let path = |end: &str| format!("/api/games/{id}/{end}");
    // The first micro-move is compulsory: no stop offered yet, and `0000` is refused.
    let first: Vec<&str> = state["allowed"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert!(first.contains(&"e2e4") && !first.contains(&"0000"), "{first:?}");
    refused(addr, "POST", &path("move"), Some(r#"{"move": "0000"}"#), 400, "not allowed now");
    let (status, stepped) = json_of(addr, "POST", &path("move"), Some(json!({"move": "e2e4"})));
    assert_eq!(status, 200, "{stepped}");
    assert!(stepped["allowed"].as_array().unwrap().contains(&json!("0000")), "{stepped}");
    // Stop there: the knight and bishop dice go unused and the turn is the one micro-move.
    let (status, done) = json_of(addr, "POST", &path("move"), Some(json!({"move": "0000"})));
    assert_eq!(status, 200, "{done}");
    assert_eq!(done["moves"][0]["uci"], "e2e4");
    assert_eq!(done["turn"], "black");
    assert_eq!(done["engine_to_move"], true);
}

#[test]
fn a_gollon_count_die_counts_down_its_micro_moves() {
    let server = start();
    let addr = &server.addr;
    // A rolled game: one die, whose meaning is a number of micro-moves by any pieces.
    let state = new_game(addr, json!({"variant": "gollon", "color": "white", "movetime": 50}));
    let id = state["id"].as_str().unwrap().to_string();
    let (status, rolled) = json_of(addr, "POST", &format!("/api/games/{id}/roll"), None);
    assert_eq!(status, 200, "{rolled}");
    let face = rolled["roll"][0].as_u64().expect("one die");
    assert!((1..=4).contains(&face), "{rolled}");
    let want =
        if face == 1 { "1 micro-move by any piece".to_string() } else { format!("{face} micro-moves by any pieces") };
    assert_eq!(rolled["roll_meaning"], want, "{rolled}");
    // A turn set up in progress with three micro-moves left: the count goes down with each.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let state = new_game(addr, json!({"variant": "gollon", "fen": format!("{start} AAA"), "movetime": 50}));
    let id = state["id"].as_str().unwrap().to_string();
    assert_eq!(state["dice_left"], json!([3]), "{state}");
    assert_eq!(state["dice_left_meaning"], "3 micro-moves by any pieces");
    let (status, stepped) = json_of(addr, "POST", &format!("/api/games/{id}/move"), Some(json!({"move": "e2e4"})));
    assert_eq!(status, 200, "{stepped}");
    assert_eq!(stepped["dice_left"], json!([2]), "{stepped}");
    // The pawn may move again: the count is not of a piece type.
    assert!(stepped["allowed"].as_array().unwrap().contains(&json!("e4e5")), "{stepped}");
    refused(addr, "POST", &format!("/api/games/{id}/move"), Some(r#"{"move": "e2e4"}"#), 400, "");
}

#[test]
fn a_vegas_player_in_check_does_not_roll() {
    let server = start();
    let addr = &server.addr;
    let fen = "rnbqkbnr/ppp2ppp/8/1B1pp3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3";
    let state = new_game(addr, json!({"variant": "vegas", "fen": fen, "color": "black", "movetime": 50}));
    let id = state["id"].as_str().unwrap().to_string();
    assert_eq!(state["may_roll"], false, "{state}");
    assert_eq!(state["pre_roll"], json!(["b8c6", "b8d7", "c7c6", "c8d7", "d8d7", "e8e7"]), "{state}");
    refused(addr, "POST", &format!("/api/games/{id}/roll"), None, 409, "no roll this turn");
    let (status, moved) = json_of(addr, "POST", &format!("/api/games/{id}/move"), Some(json!({"move": "c7c6"})));
    assert_eq!(status, 200, "{moved}");
    assert_eq!(moved["moves"][0]["uci"], "c7c6");
    // White gave check with its last move: it does not roll either (the engine's turn).
    let (status, answered) = json_of(addr, "POST", &format!("/api/games/{id}/engine"), None);
    assert_eq!(status, 200, "{answered}");
    assert_eq!(answered["last_engine"]["roll"], Value::Null, "{answered}");
    assert_eq!(answered["may_roll"], true, "{answered}");
}

#[test]
fn a_die_chess_roll_turns_the_die_on_the_board_before_the_move() {
    let server = start();
    let addr = &server.addr;
    // A pawn rolled looks like the start; games until another face comes up.
    let mut other_face = false;
    for _ in 0..50 {
        let state = new_game(addr, json!({"variant": "diechess", "color": "white", "movetime": 50}));
        let id = state["id"].as_str().unwrap().to_string();
        assert_eq!(state["fen"], "7p/8/8/8/8/8/8/P7 w - - 0 1 22", "{state}");
        let (status, rolled) = json_of(addr, "POST", &format!("/api/games/{id}/roll"), None);
        assert_eq!(status, 200, "{rolled}");
        let face = rolled["roll"][0].as_u64().expect("one die") as usize;
        // The die on a1 shows the face rolled, with its moves in hand; White still to move.
        let (letter, in_hand) = (["P", "N", "B", "R", "Q", "K"][face - 1], if face <= 3 { 2 } else { 1 });
        assert_eq!(rolled["fen"], format!("7p/8/8/8/8/8/8/{letter}7 w - - 0 1 {in_hand}2"), "{rolled}");
        assert_eq!(rolled["phase"], "after_roll", "{rolled}");
        if face != 1 {
            other_face = true;
            break;
        }
    }
    assert!(other_face, "fifty rolls of a pawn");
}

#[test]
fn a_ten_by_ten_game_is_played_with_its_own_squares() {
    let server = start();
    let addr = &server.addr;
    let start_fen = "rnbqkkkbnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBQKKKBNR w - - 0 1";
    let state = new_game(addr, json!({"variant": "brainking10", "color": "white", "movetime": 50}));
    let id = state["id"].as_str().unwrap().to_string();
    assert_eq!(state["fen"], start_fen, "{state}");
    // The start rolls a pawn or a knight: moves between squares of the 10x10 board.
    let (status, rolled) = json_of(addr, "POST", &format!("/api/games/{id}/roll"), None);
    assert_eq!(status, 200, "{rolled}");
    let allowed: Vec<String> =
        rolled["allowed"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
    assert!(!allowed.is_empty() && allowed.iter().all(|m| m.len() == 4), "{allowed:?}");
    // A move between two squares of this board that no piece can make, a square off it, and a
    // 10x10 FEN's square names: refused with the reason, nothing changed.
    refused(addr, "POST", &format!("/api/games/{id}/move"), Some(r#"{"move": "a10a9"}"#), 400, "no piece of yours");
    refused(addr, "POST", &format!("/api/games/{id}/move"), Some(r#"{"move": "k2k3"}"#), 400, "not a move");
    let (_, same) = json_of(addr, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(same["fen"], start_fen);
    let (status, moved) = json_of(addr, "POST", &format!("/api/games/{id}/move"), Some(json!({"move": allowed[0]})));
    assert_eq!(status, 200, "{moved}");
    assert_eq!(moved["moves"][0]["uci"], allowed[0].as_str());
    // An 8x8 FEN for this variant is refused at the start.
    let fen8 = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";
    let body = json!({"variant": "brainking10", "fen": fen8}).to_string();
    refused(addr, "POST", "/api/games", Some(&body), 400, "10 ranks");
}

#[test]
fn a_grand_game_is_made_micro_move_by_micro_move_on_twelve_by_twelve() {
    let server = start();
    let addr = &server.addr;
    // White: king a1, knight f1, pawn e2; a turn in progress with a pawn and a knight die left.
    let fen = "k11/12/12/12/12/12/12/12/12/12/4P7/K4N6 w - - 0 1 PN";
    let state = new_game(addr, json!({"variant": "grand", "fen": fen, "movetime": 50}));
    let id = state["id"].as_str().unwrap().to_string();
    let path = |end: &str| format!("/api/games/{id}/{end}");
    assert_eq!((state["micro"].clone(), state["dice"].clone()), (json!(true), json!(4)), "{state}");
    assert_eq!(state["dice_left"], json!([1, 2]));
    let first: Vec<&str> = state["allowed"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert!(first.contains(&"e2e3") && first.contains(&"f1g3") && !first.contains(&"e2e4"), "{first:?}");
    // The knight first: the pawn die stays compulsory, so the turn goes on.
    let (status, stepped) = json_of(addr, "POST", &path("move"), Some(json!({"move": "f1g3"})));
    assert_eq!(status, 200, "{stepped}");
    assert_eq!(stepped["dice_left"], json!([1]));
    // No double step; a square off the board.
    refused(addr, "POST", &path("move"), Some(r#"{"move": "e2e4"}"#), 400, "illegal move");
    refused(addr, "POST", &path("move"), Some(r#"{"move": "e2e13"}"#), 400, "is not a move");
    let (status, done) = json_of(addr, "POST", &path("move"), Some(json!({"move": "e2e3"})));
    assert_eq!(status, 200, "{done}");
    assert_eq!(done["moves"][0]["uci"], "f1g3,e2e3");
    // The engine answers with Black's four dice.
    let (status, answered) = json_of(addr, "POST", &path("engine"), None);
    assert_eq!(status, 200, "{answered}");
    assert_eq!(answered["last_engine"]["roll"].as_array().unwrap().len(), 4, "{answered}");
    // A FEN of the wrong size, and five dice, are refused at the start.
    for (bad, words) in [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "12"),
        ("k11/12/12/12/12/12/12/12/12/12/4P7/K4N6 w - - 0 1 PNBRQ", "at most 4"),
    ] {
        let body = json!({"variant": "grand", "fen": bad}).to_string();
        refused(addr, "POST", "/api/games", Some(&body), 400, words);
    }
}

/// A game with the person's own dice: every roll is entered, the engine's too; a roll the variant
/// does not take is refused and changes nothing; the engine asked to play before its dice are
/// entered is told to wait for them; a game whose dice are rolled here refuses entered ones.
#[test]
fn own_dice_games_take_every_roll_from_the_person() {
    let server = start();
    let addr = &server.addr;
    let rolled_here = new_game(addr, json!({"variant": "dicechess3", "movetime": 50}));
    assert_eq!(rolled_here["own_dice"], false);
    let here_id = rolled_here["id"].as_str().unwrap();
    refused(addr, "POST", &format!("/api/games/{here_id}/roll"), Some(r#"{"faces": "1 4 6"}"#), 400, "own dice");
    refused(addr, "POST", "/api/games", Some(r#"{"variant": "dicechess3", "own_dice": "yes"}"#), 400, "own_dice");
    // BrainKing's dice never show a face on which nothing can move: a king at the start.
    let brainking = new_game(addr, json!({"variant": "brainking", "own_dice": true}));
    let brainking_id = brainking["id"].as_str().unwrap();
    refused(addr, "POST", &format!("/api/games/{brainking_id}/roll"), Some(r#"{"faces": [6]}"#), 400, "never rolls 6");

    let state = new_game(addr, json!({"variant": "dicechess3", "movetime": 50, "own_dice": true}));
    let id = state["id"].as_str().unwrap().to_string();
    let path = |end: &str| format!("/api/games/{id}/{end}");
    assert_eq!((&state["own_dice"], &state["engine_awaits_dice"]), (&json!(true), &json!(false)));
    for (body, words) in [
        (None, "enter the dice"),
        (Some(r#"{"faces": [1, 4]}"#), "rolls 3 dice"),
        (Some(r#"{"faces": [12, 4, 6]}"#), "faces"),
        (Some(r#"{"faces": "1 4 9"}"#), "not 1 to 6"),
        (Some(r#"{"faces": true}"#), "faces"),
    ] {
        refused(addr, "POST", &path("roll"), body, 400, words);
    }
    let (_, unchanged) = json_of(addr, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(unchanged["phase"], "before_roll");
    let (status, mut now) = json_of(addr, "POST", &path("roll"), Some(json!({"faces": "1 4 6"})));
    assert_eq!(status, 200, "{now}");
    assert_eq!(now["roll"], json!([1, 4, 6]));
    while now["turn"] == "white" {
        let micro = now["allowed"][0].as_str().unwrap().to_string();
        let (status, next) = json_of(addr, "POST", &path("move"), Some(json!({"move": micro})));
        assert_eq!(status, 200, "{next}");
        now = next;
    }
    // The engine rolls by the person's hand: it waits for its dice.
    assert_eq!((&now["engine_to_move"], &now["engine_awaits_dice"]), (&json!(true), &json!(true)), "{now}");
    refused(addr, "POST", &path("engine"), None, 409, "enter its dice");
    let (status, entered) = json_of(addr, "POST", &path("roll"), Some(json!({"faces": [2, 5, 2]})));
    assert_eq!(status, 200, "{entered}");
    assert_eq!((&entered["roll"], &entered["engine_awaits_dice"]), (&json!([2, 2, 5]), &json!(false)));
    refused(addr, "POST", &path("roll"), Some(r#"{"faces": [1, 1, 1]}"#), 409, "entered already");
    let (status, answered) = json_of(addr, "POST", &path("engine"), None);
    assert_eq!(status, 200, "{answered}");
    assert_eq!(answered["last_engine"]["roll"], json!([2, 2, 5]), "{answered}");
    assert_eq!(answered["moves"][1]["roll"], json!([2, 2, 5]));
    assert_eq!(answered["turn"], "white");
    let (_, pgn) = request(addr, "GET", &path("pgn"), None);
    assert!(pgn.contains("[%roll 1,4,6]") && pgn.contains("[%roll 2,2,5]"), "{pgn}");
    // Undo takes back both turns; the person's roll is entered again.
    let (_, undone) = json_of(addr, "POST", &path("undo"), None);
    assert_eq!((&undone["moves"], &undone["phase"]), (&json!([]), &json!("before_roll")));
}

/// With own dice in Freedom the engine decides before its roll: here its only moves without
/// rolling are queen checks that lose the queen, so it rolls, and waits for the dice entered.
#[test]
fn with_own_dice_the_engine_decides_before_its_dice_are_entered() {
    let server = start();
    let addr = &server.addr;
    let fen = "7k/6pp/8/4q3/8/8/PP2R2P/K7 w - - 0 1";
    let state = new_game(addr, json!({"variant": "freedom", "fen": fen, "movetime": 200, "own_dice": true}));
    let id = state["id"].as_str().unwrap().to_string();
    let path = |end: &str| format!("/api/games/{id}/{end}");
    let (status, rolled) = json_of(addr, "POST", &path("roll"), Some(json!({"faces": [1]})));
    assert_eq!(status, 200, "{rolled}");
    let (status, moved) = json_of(addr, "POST", &path("move"), Some(json!({"move": "h2h3"})));
    assert_eq!(status, 200, "{moved}");
    // Freedom offers it two checks, so it is asked to decide first, not for its dice.
    assert_eq!(moved["engine_awaits_dice"], false, "{moved}");
    refused(addr, "POST", &path("roll"), Some(r#"{"faces": [5]}"#), 409, "decides first");
    let (status, decided) = json_of(addr, "POST", &path("engine"), None);
    assert_eq!(status, 200, "{decided}");
    assert_eq!(decided["engine_awaits_dice"], true, "it rolls rather than lose its queen: {decided}");
    assert_eq!(decided["moves"].as_array().unwrap().len(), 1, "nothing played yet");
    let (status, entered) = json_of(addr, "POST", &path("roll"), Some(json!({"faces": [5]})));
    assert_eq!(status, 200, "{entered}");
    let (status, answered) = json_of(addr, "POST", &path("engine"), None);
    assert_eq!(status, 200, "{answered}");
    assert_eq!(answered["moves"][1]["roll"], json!([5]), "{answered}");
    assert_eq!(answered["moves"][1]["uci"].as_str().unwrap()[..2], *"e5", "a queen move: {answered}");
    assert_eq!(answered["turn"], "white");
}

/// Every game is kept in the games directory as it changes: a server started again on it takes
/// each game up where it stood (a turn of micro-moves in progress, the dice entered for Alea), and
/// play goes on; a damaged file is refused with the reason, a name that is no game's is not
/// looked for.
#[test]
fn games_outlive_the_server() {
    let dir = tempfile::Builder::new().prefix("alea-web-games-").tempdir().unwrap();
    let (micro_id, micro_state, own_id, own_state) = {
        let server = start_in(dir.path());
        let addr = &server.addr;
        // A dicechess3 turn in progress: rolled, one micro-move made.
        let state = new_game(addr, json!({"variant": "dicechess3", "movetime": 50}));
        let micro_id = state["id"].as_str().unwrap().to_string();
        let (_, rolled) = json_of(addr, "POST", &format!("/api/games/{micro_id}/roll"), None);
        let mut now = rolled;
        if now["phase"] == "after_roll" {
            let first = now["allowed"][0].as_str().unwrap().to_string();
            let (status, stepped) =
                json_of(addr, "POST", &format!("/api/games/{micro_id}/move"), Some(json!({"move": first})));
            assert_eq!(status, 200, "{stepped}");
            now = stepped;
        }
        // Own dice, Alea's entered and not yet played on.
        let own = new_game(addr, json!({"variant": "dicechess3", "movetime": 50, "own_dice": true, "color": "black"}));
        let own_id = own["id"].as_str().unwrap().to_string();
        let (status, entered) =
            json_of(addr, "POST", &format!("/api/games/{own_id}/roll"), Some(json!({"faces": "2 4 6"})));
        assert_eq!(status, 200, "{entered}");
        (micro_id, now, own_id, entered)
        // The server is killed here.
    };
    let server = start_in(dir.path());
    let addr = &server.addr;
    for (id, before) in [(&micro_id, &micro_state), (&own_id, &own_state)] {
        let (status, after) = json_of(addr, "GET", &format!("/api/games/{id}"), None);
        assert_eq!(status, 200, "{after}");
        for key in [
            "fen",
            "moves",
            "roll",
            "dice_left",
            "partial",
            "allowed",
            "human",
            "own_dice",
            "engine_awaits_dice",
            "phase",
        ] {
            assert_eq!(after[key], before[key], "{key} of {id}");
        }
    }
    // Play goes on: Alea plays on the dice entered before the restart.
    let (status, answered) = json_of(addr, "POST", &format!("/api/games/{own_id}/engine"), None);
    assert_eq!(status, 200, "{answered}");
    assert_eq!(answered["moves"][0]["roll"], json!([2, 4, 6]));
    let (_, again) = json_of(addr, "GET", &format!("/api/games/{own_id}"), None);
    assert_eq!(again["moves"], answered["moves"]);

    std::fs::write(dir.path().join("0123456789abcdef.json"), "{\"version\": 1, \"pgn\": 7}").unwrap();
    refused(addr, "GET", "/api/games/0123456789abcdef", None, 500, "pgn is not text");
    std::fs::write(dir.path().join("notagame.json"), "{}").unwrap();
    refused(addr, "GET", "/api/games/notagame", None, 404, "no game");
    refused(addr, "GET", "/api/games/..%2F..%2Fetc%2Fpasswd", None, 404, "no game");
}

/// A games directory that cannot be made stops the server at the start, with the reason.
#[test]
fn a_games_directory_that_cannot_be_written_is_refused() {
    let file = tempfile::NamedTempFile::new().unwrap();
    let under_a_file = file.path().join("games");
    let out = crate::common::alea()
        .args(["serve", "--port", "0", "--games", under_a_file.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot make the games directory"), "{stderr}");
    assert!(out.stdout.is_empty(), "nothing listened");
}

/// A game at a lower `Skill Level`: the level is kept with the game (and in its file), the engine
/// plays its turns; a level that is no level is refused.
#[test]
fn a_game_at_a_lower_skill_level() {
    let server = start();
    let addr = &server.addr;
    refused(addr, "POST", "/api/games", Some(r#"{"skill": 21}"#), 400, "skill is the engine's level");
    refused(addr, "POST", "/api/games", Some(r#"{"skill": "strong"}"#), 400, "skill is the engine's level");
    let state = new_game(addr, json!({"variant": "classic", "color": "black", "movetime": 50, "skill": 3}));
    assert_eq!(state["skill"], 3);
    let id = state["id"].as_str().unwrap();
    let (status, answered) = json_of(addr, "POST", &format!("/api/games/{id}/engine"), None);
    assert_eq!(status, 200, "{answered}");
    assert_eq!(answered["moves"].as_array().unwrap().len(), 1);
    // One turn deep at level 3 (a roll that allows nothing at the start passes unsearched).
    let depth = if answered["last_engine"]["move"] == "0000" { 0 } else { 1 };
    assert_eq!(answered["last_engine"]["depth"], depth, "{answered}");
    assert_eq!(answered["skill"], 3);
}

#[test]
fn a_rollout_plays_the_decision_on_show_out_and_refuses_what_it_cannot() {
    let server = start();
    let addr = &server.addr;
    // A BrainKing rook facing the enemy king, the rook's face entered: taking the king wins.
    let state =
        new_game(addr, json!({"variant": "brainking", "fen": "4k3/8/8/8/8/8/4R3/K7 w - - 0 1", "own_dice": true}));
    let id = state["id"].as_str().unwrap().to_string();
    let path = |end: &str| format!("/api/games/{id}/{end}");
    let (status, _) = json_of(addr, "POST", &path("roll"), Some(json!({"faces": [4]})));
    assert_eq!(status, 200);
    let (status, rolled) = json_of(addr, "POST", &path("rollout"), Some(json!({"games": 20, "choices": 2})));
    assert_eq!(status, 200, "{rolled}");
    assert_eq!(rolled["side"], "white");
    assert_eq!(rolled["asked"], 20);
    assert_eq!(rolled["luck_adjusted"], true);
    // Twenty games of a rook and king against a king fit in the five seconds by far.
    let games = rolled["games"].as_u64().unwrap();
    assert_eq!(games, 20);
    let choices = rolled["choices"].as_array().unwrap();
    assert_eq!(choices.len(), 2);
    assert_eq!((&choices[0]["move"], &choices[0]["san"]), (&json!("e2e8"), &json!("Rxe8")));
    assert_eq!(choices[0]["result"], 1.0);
    assert_eq!(choices[0]["wins"].as_u64(), Some(games));
    assert!(choices[1]["loss"].as_f64().unwrap() > 0.0);
    // The same decision, the same dice: the same games.
    let (_, again) = json_of(addr, "POST", &path("rollout"), Some(json!({"games": 20, "choices": 2})));
    assert_eq!(again["choices"], rolled["choices"]);
    for (body, words) in [
        (r#"{"games": 0}"#, "games is a whole number from 1 to 2000"),
        (r#"{"choices": 9}"#, "choices is a whole number from 1 to 5"),
        (r#"{"depth": "deep"}"#, "depth"),
        (r#"{"seconds": 60}"#, "seconds"),
    ] {
        refused(addr, "POST", &path("rollout"), Some(body), 400, words);
    }
    // Nothing changed: the roll still waits for White's move.
    let (_, after) = json_of(addr, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(after["roll"], json!([4]));
    let (status, _) = json_of(addr, "POST", &path("move"), Some(json!({"move": "e2e8"})));
    assert_eq!(status, 200);
    refused(addr, "POST", &path("rollout"), None, 409, "over");
}

/// The games directory is bounded: past `--keep-games`, each new game deletes the oldest idle
/// game not yet begun; a game played (a roll, a move) and a finished one stay, and so does the
/// game just made. 5,000 games asked for in a few seconds no longer leave 5,000 files.
#[test]
fn stored_games_are_bounded_and_played_or_finished_ones_kept() {
    let games = tempfile::Builder::new().prefix("alea-web-games-").tempdir().unwrap();
    let server = start_keeping(games.path(), 5);
    let files = || {
        let mut ids: Vec<String> = std::fs::read_dir(games.path())
            .unwrap()
            .filter_map(|e| e.unwrap().file_name().to_string_lossy().strip_suffix(".json").map(str::to_string))
            .collect();
        ids.sort();
        ids
    };
    let make =
        || new_game(&server.addr, json!({"variant": "freedom", "movetime": 100}))["id"].as_str().unwrap().to_string();
    // The oldest game is played: rolled and moved.
    let played = make();
    let (_, rolled) = json_of(&server.addr, "POST", &format!("/api/games/{played}/roll"), None);
    let first = rolled["allowed"][0].as_str().unwrap().to_string();
    let (status, _) = json_of(&server.addr, "POST", &format!("/api/games/{played}/move"), Some(json!({"move": first})));
    assert_eq!(status, 200);
    // The next is finished: a game that ended (a king taken is no Freedom end; a mate is).
    let pgn = "[Variant \"freedom\"]\n[Result \"1-0\"]\n\n1. e4 {[%roll 1]} e5 {[%roll 1]} 2. Bc4 {[%roll 3]} Nc6 {[%roll 2]} \
               3. Qh5 {[%roll 5]} Nf6 {[%roll 2]} 4. Qxf7# {[%freedom check]} 1-0\n";
    let (status, finished) = json_of(&server.addr, "POST", "/api/games/import", Some(json!({"pgn": pgn})));
    assert_eq!(status, 201, "{finished}");
    assert_eq!(finished["phase"], "over", "{finished}");
    let finished = finished["id"].as_str().unwrap().to_string();
    let mut empty = Vec::new();
    for _ in 0..10 {
        empty.push(make());
        assert!(files().len() <= 5, "{:?}", files());
    }
    let kept = files();
    assert_eq!(kept.len(), 5, "{kept:?}");
    assert!(kept.contains(&played) && kept.contains(&finished), "the played and the finished game stay: {kept:?}");
    for id in &empty[7..] {
        assert!(kept.contains(id), "the newest empty games stay: {kept:?}");
    }
    // A deleted game is gone from memory too: asking for it is a 404, not a stale game.
    let (status, _) = request(&server.addr, "GET", &format!("/api/games/{}", empty[0]), None);
    assert_eq!(status, 404);
    let (status, _) = request(&server.addr, "GET", &format!("/api/games/{played}"), None);
    assert_eq!(status, 200);
}
