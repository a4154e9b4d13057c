//! `alea bot` against a referee written for these tests, which plays the bot platform's part:
//! it keeps the game with our own rules, rolls the dice, and delivers each of the bot's turns as
//! the platform does (a signed POST with the DFEN, the clocks and the tree of legal turns),
//! charging the bot's clock with the time each answer took. The other side is a built-in player.

use alea_engine::Color;
use alea_engine::services::handle::{GameHandle, RollSpec};
use alea_engine::services::registry::Variant;
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

const SECRET: &str = "referee-secret-0123456789abcdef";

struct Bot {
    child: Child,
    addr: String,
    /// Its log, a line a delivery.
    log: Arc<Mutex<Vec<String>>>,
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Bot {
    fn log(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }

    /// The log once it has `lines` lines (each delivery's line is written as it is answered,
    /// so it may come a moment after the answer), or as it is after five seconds.
    fn log_of(&self, lines: usize) -> Vec<String> {
        let since = Instant::now();
        while self.log.lock().unwrap().len() < lines && since.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(10));
        }
        self.log()
    }
}

/// `alea bot` on a free port with the referee's secret and `args`.
fn start(args: &[&str]) -> Bot {
    start_with(args, Some(SECRET))
}

fn start_with(args: &[&str], secret: Option<&str>) -> Bot {
    let mut command = crate::common::alea();
    command.args(["bot", "--listen", "127.0.0.1:0"]).args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    command.env_remove("DICECHESS_WEBHOOK_SECRET");
    if let Some(secret) = secret {
        command.env("DICECHESS_WEBHOOK_SECRET", secret);
    }
    let mut child = command.spawn().expect("alea bot starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.trim().strip_prefix("listening on http://").expect("the address line").trim_end_matches('/');
    let log = Arc::new(Mutex::new(Vec::new()));
    let (stderr, kept) = (child.stderr.take().unwrap(), log.clone());
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            kept.lock().unwrap().push(line);
        }
    });
    Bot { child, addr: addr.to_string(), log }
}

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs()
}

fn sign(secret: &str, timestamp: &str, body: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(format!("{timestamp}.{body}").as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// One POST with these extra headers; the status and the body.
fn post(addr: &str, body: &str, headers: &[(&str, String)]) -> (u16, String) {
    send(addr, "POST", body, headers)
}

/// One request; the status and the body.
fn send(addr: &str, method: &str, body: &str, headers: &[(&str, String)]) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let extra: String = headers.iter().map(|(k, v)| format!("{k}: {v}\r\n")).collect();
    write!(
        stream,
        "{method} /dicechess HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, rest) = text.split_once("\r\n\r\n").expect("a response head");
    let status: u16 = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, rest.to_string())
}

/// A POST signed as the platform signs, at `timestamp`.
fn post_signed_at(addr: &str, body: &str, timestamp: u64) -> (u16, String) {
    let ts = timestamp.to_string();
    let signature = sign(SECRET, &ts, body);
    post(addr, body, &[("X-DiceChess-Timestamp", ts), ("X-DiceChess-Signature", signature)])
}

fn post_signed(addr: &str, body: &str) -> (u16, String) {
    post_signed_at(addr, body, now())
}

/// The tree of micro-moves of these turns (micro-moves joined by commas).
fn tree_of(turns: &[String]) -> Value {
    let mut root = json!({});
    for turn in turns {
        let mut node = &mut root;
        for micro in turn.split(',') {
            node = node.as_object_mut().unwrap().entry(micro.to_string()).or_insert(json!({}));
        }
    }
    root
}

/// The platform's delivery of the side to move's turn after `roll`, with clocks and the tree.
fn delivery(game_id: &str, game: &GameHandle, roll: &alea_engine::Roll, clocks: [u64; 2], control: Value) -> String {
    let seat = if game.side_to_move() == Color::White { "White" } else { "Black" };
    let mut rolled = game.clone();
    rolled.start_turn(roll).unwrap();
    let turns = game.allowed_turns(&RollSpec::Faces(roll.faces().to_vec())).unwrap();
    json!({
        "type": "yourTurn",
        "gameId": game_id,
        "seat": seat,
        "state": {
            "version": 7,
            "dfen": rolled.fen(),
            "activeSeat": seat,
            "dicePending": true,
            "clocks": {"white": clocks[0], "black": clocks[1]},
            "timeControl": control,
            "legalMoves": tree_of(&turns),
        }
    })
    .to_string()
}

/// How a refereed game went.
#[derive(Debug)]
struct Refereed {
    bot_turns: usize,
    /// The bot's clock at the end, in milliseconds.
    bot_clock: i64,
    ended: bool,
}

/// A dicechess.com game between the bot (seated `bot_seat`, `clock_ms` on a Fischer clock with
/// no increment) and the greedy player, dice from `seed`.
fn referee(addr: &str, game_id: &str, bot_seat: Color, clock_ms: u64, seed: u64) -> Refereed {
    let mut game = GameHandle::of(Variant::DICECHESS_COM, false).unwrap();
    let mut state = seed;
    let mut bot_clock = clock_ms as i64;
    let other_clock = clock_ms;
    let mut bot_turns = 0;
    let control = json!({"Fischer": {"initialSeconds": clock_ms / 1000, "incrementSeconds": 0}});
    for _ply in 0..400 {
        if game.end().is_some() {
            return Refereed { bot_turns, bot_clock, ended: true };
        }
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let roll = game.roll_for((state >> 33) as u32).unwrap();
        let spec = RollSpec::Faces(roll.faces().to_vec());
        let turns: Vec<String> = game.allowed_turns(&spec).unwrap().into_iter().filter(|t| t != "0000").collect();
        if turns.is_empty() {
            // A forced pass: the platform plays it and delivers nothing.
            game.play_checked("0000", Some(&roll)).unwrap();
            continue;
        }
        let turn = if game.side_to_move() == bot_seat {
            let clocks = if bot_seat == Color::White {
                [bot_clock as u64, other_clock]
            } else {
                [other_clock, bot_clock as u64]
            };
            let body = delivery(game_id, &game, &roll, clocks, control.clone());
            let asked = Instant::now();
            let (status, answer) = post_signed(addr, &body);
            bot_clock -= asked.elapsed().as_millis() as i64;
            assert_eq!(status, 200, "{answer}");
            assert!(bot_clock > 0, "{game_id}: the bot lost on time at turn {bot_turns}");
            bot_turns += 1;
            let moves: Vec<String> = serde_json::from_str::<Value>(&answer).unwrap()["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .map(|m| m.as_str().unwrap().to_string())
                .collect();
            let turn = moves.join(",");
            assert!(turns.contains(&turn), "{game_id}: {turn} is not a legal turn of the tree");
            turn
        } else {
            game.greedy_turn(&spec).unwrap().0
        };
        game.play_checked(&turn, Some(&roll)).unwrap();
    }
    Refereed { bot_turns, bot_clock, ended: game.end().is_some() }
}

/// A whole game on a three-second clock: every answer a legal turn of the tree, in time, each
/// delivery one log line with the game, the seat, the time used, the depth and the answer.
#[test]
fn a_full_game_through_the_endpoint_on_a_three_second_clock() {
    let bot = start(&["--margin-ms", "300"]);
    // These dice tend to make a long game (11 to 20 turns of the bot's seen, its clock run down
    // towards the margin); its length depends on how far each timed search got, so it is not
    // asserted beyond a few turns.
    let game = referee(&bot.addr, "game-a", Color::Black, 3000, 8);
    assert!(game.ended && game.bot_turns >= 3 && game.bot_clock > 0, "{game:?}");
    let lines: Vec<String> = bot.log_of(game.bot_turns).into_iter().filter(|l| l.starts_with("game game-a ")).collect();
    assert_eq!(lines.len(), game.bot_turns, "{lines:#?}");
    for (k, line) in lines.iter().enumerate() {
        assert!(line.starts_with(&format!("game game-a turn {} seat black clock ", k + 1)), "{line}");
        assert!(line.contains(" used ") && line.contains(" depth ") && line.contains(" answer "), "{line}");
    }
    // The engine searched (a depth) while it had time.
    assert!(lines.iter().any(|l| !l.contains(" depth - ")), "{lines:#?}");
}

/// Two games at once with one search at a time: each turn waits for the other's within its
/// own clock, and neither game is lost on time.
#[test]
fn two_games_at_once_share_one_search_within_their_clocks() {
    let bot = Arc::new(start(&["--margin-ms", "300", "--searches", "1"]));
    let players: Vec<_> = [("game-w", Color::White, 21), ("game-b", Color::Black, 22)]
        .into_iter()
        .map(|(id, seat, seed)| {
            let addr = bot.addr.clone();
            std::thread::spawn(move || referee(&addr, id, seat, 4000, seed))
        })
        .collect();
    for player in players {
        let game = player.join().expect("the game is played");
        assert!(game.ended && game.bot_clock > 0, "{game:?}");
    }
    let log = bot.log_of(1);
    for id in ["game-w", "game-b"] {
        assert!(log.iter().any(|l| l.starts_with(&format!("game {id} turn 1 "))), "{log:#?}");
    }
}

fn start_delivery() -> String {
    let game = GameHandle::of(Variant::DICECHESS_COM, false).unwrap();
    let roll = game.roll_for(7).unwrap();
    delivery(
        "game-r",
        &game,
        &roll,
        [60_000, 60_000],
        json!({"Fischer": {"initialSeconds": 60, "incrementSeconds": 1}}),
    )
}

/// Every refusal: no or a wrong signature (whatever the body), an old or a future timestamp
/// (401), a body over the limit (413), a signed body that is not JSON, an unknown type or a bad
/// position (400) — each with a message and a log line, and none of them starts a game.
#[test]
fn every_refusal_says_why_and_changes_nothing() {
    let bot = start(&["--max-body-kib", "64", "--max-turn-ms", "200"]);
    let body = start_delivery();
    let ts = now().to_string();
    let good = sign(SECRET, &ts, &body);
    let wrong = sign("other", &ts, &body);
    let cases: Vec<(u16, (u16, String), &str)> = vec![
        (401, post(&bot.addr, &body, &[]), "no X-DiceChess-Timestamp"),
        (401, post(&bot.addr, "{\"type\": \"yourTurn\",", &[]), "no X-DiceChess-Timestamp"),
        (
            401,
            post(&bot.addr, &body, &[("X-DiceChess-Timestamp", ts.clone()), ("X-DiceChess-Signature", wrong)]),
            "does not match",
        ),
        (
            401,
            post(
                &bot.addr,
                &body.replace("game-r", "game-s"),
                &[("X-DiceChess-Timestamp", ts.clone()), ("X-DiceChess-Signature", good)],
            ),
            "does not match",
        ),
        (401, post_signed_at(&bot.addr, &body, now() - 301), "more than 300 s"),
        (401, post_signed_at(&bot.addr, &body, now() + 400), "more than 300 s"),
        (400, post_signed(&bot.addr, "{\"type\": \"yourTurn\","), "not JSON"),
        (400, post_signed(&bot.addr, "{\"type\": \"gameOver\"}"), "unknown delivery type"),
        (400, post_signed(&bot.addr, &body.replace("\"dfen\":\"", "\"dfen\":\"9")), "state.dfen refused"),
    ];
    for (status, (got, answer), says) in &cases {
        assert_eq!(got, status, "{answer}");
        let message = serde_json::from_str::<Value>(answer).unwrap()["error"].as_str().unwrap().to_string();
        assert!(message.contains(says), "{message}");
    }
    let huge = format!("{{\"type\": \"yourTurn\", \"pad\": \"{}\"}}", "x".repeat(100 * 1024));
    let (status, answer) = post_signed(&bot.addr, &huge);
    assert_eq!(status, 413);
    assert!(answer.contains("over the limit"), "{answer}");
    let (status, answer) = send(&bot.addr, "PUT", &body, &[]);
    assert_eq!(status, 405);
    assert!(answer.contains("PUT is not a delivery"), "{answer}");
    assert_eq!(send(&bot.addr, "GET", "", &[]).0, 200);
    // None of them started the game: its first turn is still turn 1.
    let (status, answer) = post_signed(&bot.addr, &body);
    assert_eq!(status, 200, "{answer}");
    let log = bot.log_of(12);
    assert_eq!(log.iter().filter(|l| l.starts_with("refused 401: ")).count(), 6, "{log:#?}");
    assert_eq!(log.iter().filter(|l| l.starts_with("refused 400: ")).count(), 3, "{log:#?}");
    assert_eq!(log.iter().filter(|l| l.starts_with("refused 413: ")).count(), 1, "{log:#?}");
    assert_eq!(log.iter().filter(|l| l.starts_with("refused 405: ")).count(), 1, "{log:#?}");
    assert!(log.iter().any(|l| l.starts_with("game game-r turn 1 seat white ")), "{log:#?}");
    assert!(!log.iter().any(|l| l.starts_with("game game-s")), "{log:#?}");
}

/// The registration handshake: the nonce echoed, signed or not (the platform shows the secret
/// only after it); a bot started without a secret answers nothing else, and will not start
/// unless told it is only registering.
#[test]
fn the_handshake_is_answered_and_a_bot_without_a_secret_plays_nothing() {
    let handshake = r#"{"type":"verification","nonce":"n-4f2a"}"#;
    let bot = start(&[]);
    for (status, answer) in [post(&bot.addr, handshake, &[]), post_signed(&bot.addr, handshake)] {
        assert_eq!((status, serde_json::from_str::<Value>(&answer).unwrap()), (200, json!({"nonce": "n-4f2a"})));
    }
    let out = crate::common::alea().args(["bot"]).env_remove("DICECHESS_WEBHOOK_SECRET").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("DICECHESS_WEBHOOK_SECRET is not set"));
    // A variant of one move a turn has no tree of micro-moves to answer from.
    let out = crate::common::alea().args(["bot", "--variant", &Variant::DEFAULT.to_string()]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("several micro-moves a turn"));
    let registering = start_with(&["--handshake-only"], None);
    assert_eq!(post(&registering.addr, handshake, &[]).0, 200);
    let (status, answer) = post_signed(&registering.addr, &start_delivery());
    assert_eq!(status, 401);
    assert!(answer.contains("only the registration handshake"), "{answer}");
}

/// Where the platform's tree and our generator disagree, the answer is still one of the tree's
/// turns, and the log says what differs; with no tree, our generator decides.
#[test]
fn the_answer_keeps_to_the_platforms_tree() {
    let bot = start(&["--max-turn-ms", "300"]);
    let game = GameHandle::of(Variant::DICECHESS_COM, false).unwrap();
    let roll = game.roll_for(3).unwrap();
    let turns = game.allowed_turns(&RollSpec::Faces(roll.faces().to_vec())).unwrap();
    let mut body: Value = serde_json::from_str(&start_delivery()).unwrap();
    body["gameId"] = json!("game-t");
    let mut rolled = game.clone();
    rolled.start_turn(&roll).unwrap();
    body["state"]["dfen"] = json!(rolled.fen());
    let listed = [turns[0].clone(), turns[turns.len() - 1].clone()];
    body["state"]["legalMoves"] = tree_of(&listed);
    let (status, answer) = post_signed(&bot.addr, &body.to_string());
    assert_eq!(status, 200, "{answer}");
    let moves: Vec<String> = serde_json::from_str::<Value>(&answer).unwrap()["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert!(listed.contains(&moves.join(",")), "{moves:?}");
    body["gameId"] = json!("game-n");
    body["state"]["legalMoves"] = Value::Null;
    let (status, answer) = post_signed(&bot.addr, &body.to_string());
    assert_eq!(status, 200, "{answer}");
    let answered: Value = serde_json::from_str(&answer).unwrap();
    let played: Vec<&str> = answered["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert!(turns.contains(&played.join(",")), "{answer}");
    // A delivery with no legal turn (the platform passes for us and should not ask): no move.
    body["gameId"] = json!("game-p");
    body["state"]["legalMoves"] = json!({});
    let (status, answer) = post_signed(&bot.addr, &body.to_string());
    assert_eq!((status, serde_json::from_str::<Value>(&answer).unwrap()), (200, json!({"moves": []})));
    let log = bot.log_of(3);
    assert!(
        log.iter().any(|l| l.starts_with("game game-p ") && l.contains("answer pass (no legal turn: a pass)")),
        "{log:#?}"
    );
    let line = log.iter().find(|l| l.starts_with("game game-t ")).expect("a log line");
    assert!(line.contains(&format!("the platform lists 2 turns and we find {}", turns.len())), "{line}");
    assert!(line.contains("only ours:"), "{line}");
}

/// `--dry-run FILE`: one delivery answered without a server or a secret.
#[test]
fn a_dry_run_answers_one_delivery_from_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("turn.json");
    std::fs::write(&file, start_delivery()).unwrap();
    let out = crate::common::alea()
        .args(["bot", "--dry-run", file.to_str().unwrap(), "--max-turn-ms", "200"])
        .env_remove("DICECHESS_WEBHOOK_SECRET")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    let game = GameHandle::of(Variant::DICECHESS_COM, false).unwrap();
    let roll = game.roll_for(7).unwrap();
    let turns = game.allowed_turns(&RollSpec::Faces(roll.faces().to_vec())).unwrap();
    let moves: Vec<&str> = answer["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert!(turns.contains(&moves.join(",")), "{answer}");
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("game game-r turn 1 seat white clock 60000ms used "));
    std::fs::write(&file, "{\"type\": \"yourTurn\"}").unwrap();
    let out = crate::common::alea().args(["bot", "--dry-run", file.to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no gameId"));
}
