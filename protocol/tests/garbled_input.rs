//! Garbled protocol lines, many of them: the lines a GUI or a person sends (positions reached in
//! random games of every variant, their turns, rolls, queries, searches and options), each
//! mutated a little (a word dropped, doubled, swapped, cut or replaced). Whatever a line holds,
//! the session must not panic (on its own thread or the search's), every `go` must end in one
//! `bestmove`, and a line answered with an error must leave the game and the options as they were.
//! And whole games of every variant, the engine against itself, driven as a GUI drives it.

use alea_engine::services::handle::{GameHandle, RollSpec};
use alea_engine::services::registry::Variant;
use alea_protocol::Output;
use alea_protocol::command::{Command, parse};
use alea_protocol::options::Options;
use alea_protocol::session::Session;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Panics on any thread since the test began (the search's thread ends silently otherwise).
static PANICS: AtomicUsize = AtomicUsize::new(0);

#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    fn take(&self) -> String {
        String::from_utf8(std::mem::take(&mut *self.0.lock().unwrap())).expect("the engine writes UTF-8")
    }
}

/// Words a mutation may put in: pieces of the grammar, squares, numbers at the edges, and junk.
const JUNK: &[&str] = &[
    "roll",
    "first",
    "count",
    "any",
    "moves",
    "fen",
    "startpos",
    "recapture",
    "depth",
    "nodes",
    "movetime",
    "infinite",
    "searchmoves",
    "perft",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "mate",
    "ponder",
    "name",
    "value",
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "9",
    "-1",
    "00",
    "+3",
    "99999999999999999999",
    "18446744073709551615",
    "4294967296",
    "1e3",
    "0.5",
    "e2e4",
    "e7e8q",
    "e7e8k",
    "a1a1",
    "0000",
    "roll3,b2a1",
    "e2e4,d2d4",
    ",",
    ",,",
    "e2e4,",
    ",e2e4",
    "z9",
    "a0",
    "k1",
    "l12",
    "j10",
    "PNB",
    "pnb",
    "PNBRQKX",
    "w",
    "b",
    "-",
    "KQkq",
    "AHah",
    "e3",
    "d6",
    "/",
    "8/8/8/8/8/8/8/8",
    "rnbqkbnr",
    "é",
    "♔",
    "\u{0}",
    "true",
    "false",
    "<empty>",
    "UCI_Variant",
    "UCI_Chess960",
    "Hash",
    "Threads",
    "Seed",
    "EvalFile",
    "Skill Level",
    "MultiPV",
    "UCI_ShowWDL",
    "DieChessTable",
    "freedom",
    "dicechess3",
    "grand",
    "diechess",
];

/// A few lines of `variant`'s games as a GUI would send them.
fn lines_for(variant: &str, rng: &mut StdRng) -> Vec<String> {
    let mut game = GameHandle::of(variant.parse().unwrap(), false).expect("a variant");
    let mut turns: Vec<String> = Vec::new();
    let mut fens = vec![game.fen()];
    let plies = rng.random_range(0..24);
    for _ in 0..plies {
        if game.end().is_some() {
            break;
        }
        if !game.may_roll() {
            // A turn without rolling (Freedom's stand-off, say).
            let free = game.pre_roll_turns();
            let turn = free[rng.random_range(0..free.len())].clone();
            game.play_checked(&turn, None).expect("a turn without rolling");
            turns.push(turn);
            fens.push(game.fen());
            continue;
        }
        let roll = game.roll_for(rng.random_range(0..game.total_weight())).expect("a game not over rolls");
        let allowed = game.allowed_turns(&RollSpec::Faces(roll.faces().to_vec())).expect("its own roll");
        let turn = allowed[rng.random_range(0..allowed.len())].clone();
        game.play_checked(&turn, Some(&roll)).expect("an allowed turn");
        turns.push(turn);
        fens.push(game.fen());
    }
    let faces = |rng: &mut StdRng| {
        let roll =
            GameHandle::of(variant.parse().unwrap(), false).unwrap().roll_for(rng.random_range(0..1000)).unwrap();
        roll.faces().iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
    };
    let cut = rng.random_range(0..=turns.len());
    let from = rng.random_range(0..fens.len());
    vec![
        format!("position startpos moves {}", turns[..cut].join(" ")),
        format!("position fen {} moves {}", fens[from], turns[from..].join(" ")),
        format!("position fen {}", fens[fens.len() - 1]),
        format!("legalmoves roll {}", faces(rng)),
        format!("legalmoves roll {} first", faces(rng)),
        format!("legalmoves count roll {}", faces(rng)),
        "legalmoves".into(),
        format!("go depth 1 roll {}", faces(rng)),
        format!("go nodes 300 roll {}", faces(rng)),
        format!("go depth 1 roll {} searchmoves {}", faces(rng), turns.last().map_or("e2e4", String::as_str)),
        "go depth 1".into(),
        "go perft 1".into(),
        format!("setoption name UCI_Variant value {variant}"),
        "setoption name UCI_Chess960 value true".into(),
        "setoption name MultiPV value 3".into(),
        "setoption name Seed value 5".into(),
        "d".into(),
        "ucinewgame".into(),
    ]
}

fn mutate(line: &str, rng: &mut StdRng) -> String {
    let mut words: Vec<String> = line.split(' ').map(String::from).collect();
    for _ in 0..rng.random_range(1..=3) {
        let i = rng.random_range(0..words.len());
        match rng.random_range(0..8) {
            0 if words.len() > 1 => {
                words.remove(i);
            }
            1 => {
                let w = words[i].clone();
                words.insert(i, w);
            }
            2 => {
                let j = rng.random_range(0..words.len());
                words.swap(i, j);
            }
            3 => words[i] = JUNK[rng.random_range(0..JUNK.len())].to_string(),
            4 => words.insert(i, JUNK[rng.random_range(0..JUNK.len())].to_string()),
            5 => {
                // A character of a word changed for another.
                let chars: Vec<char> = words[i].chars().collect();
                if !chars.is_empty() {
                    let k = rng.random_range(0..chars.len());
                    const SOME: &str = "0123456789abcdefghpqrkPNBRQK,/-é";
                    let new = SOME.chars().nth(rng.random_range(0..SOME.chars().count())).unwrap();
                    words[i] = chars.iter().enumerate().map(|(j, &c)| if j == k { new } else { c }).collect();
                }
            }
            6 => {
                // The line cut short.
                words.truncate(i.max(1));
            }
            _ if i + 1 < words.len() => {
                let next = words.remove(i + 1);
                words[i].push_str(&next);
            }
            _ => {}
        }
    }
    words.join(" ")
}

/// What a refused line must leave as it was.
fn snapshot(session: &Session) -> (String, Vec<String>, &'static str, Options) {
    let game = session.game();
    (game.fen(), game.turns(), game.variant().name(), session.options().clone())
}

/// Hands `line` to the session as the engine loop does and, where it starts a search, stops it
/// at once as a GUI's `stop` would and waits for its answer.
fn feed(session: &mut Session, out: &Output, line: &str) -> Option<Command> {
    match parse(line) {
        Ok(cmd) => {
            session.handle(cmd.clone());
            if session.searching() {
                session.stop_search();
            }
            while session.searching() {
                std::thread::sleep(Duration::from_millis(1));
            }
            Some(cmd)
        }
        Err(e) => {
            out.error(e.to_string());
            None
        }
    }
}

#[test]
fn garbled_lines_are_refused_whole_and_never_crash() {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        hook(info);
    }));
    let captured = Captured::default();
    let out = Output::new(captured.clone());
    let mut session = Session::new(out.clone());
    let seed = std::env::var("ALEA_GARBLED_SEED").ok().and_then(|r| r.parse().ok()).unwrap_or(20261129);
    let mut rng = StdRng::seed_from_u64(seed);
    let rounds: usize = std::env::var("ALEA_GARBLED_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(2);
    let mut fed = 0;
    for round in 0..rounds {
        for variant in Variant::ALL.map(Variant::name) {
            let set_variant = format!("setoption name UCI_Variant value {variant}");
            feed(&mut session, &out, &set_variant);
            let lines = lines_for(variant, &mut rng);
            for line in &lines {
                for _ in 0..4 {
                    // Half the time from a position the line's own game reached.
                    if rng.random_range(0..2) == 0 {
                        feed(&mut session, &out, &lines[rng.random_range(0..3)]);
                    }
                    captured.take();
                    let garbled = mutate(line, &mut rng);
                    let before = snapshot(&session);
                    let result = catch_unwind(AssertUnwindSafe(|| feed(&mut session, &out, &garbled)));
                    let reply = captured.take();
                    let context = format!("round {round}, {variant}, line {garbled:?}; reply {reply:?}");
                    assert_eq!(PANICS.load(Ordering::SeqCst), 0, "a panic: {context}");
                    let cmd = result.expect("no panic");
                    if reply.contains("info string error") {
                        assert_eq!(snapshot(&session), before, "an error changed the state: {context}");
                    }
                    if let Some(Command::Go(go)) = cmd
                        && go.perft.is_none()
                    {
                        assert_eq!(reply.matches("bestmove").count(), 1, "one bestmove a go: {context}");
                    }
                    fed += 1;
                    // Back to a sound state for the next line.
                    feed(&mut session, &out, &set_variant);
                    feed(&mut session, &out, "setoption name UCI_Chess960 value false");
                }
            }
        }
    }
    assert!(fed >= rounds * Variant::ALL.len() * 40);
}

/// The `bestmove` word and the engine's roll (`info string roll ...`) of a reply.
fn best_and_roll(reply: &str) -> (String, Option<String>) {
    let best = reply.lines().rev().find_map(|l| l.strip_prefix("bestmove ")).expect("a bestmove").to_string();
    let roll = reply.lines().find_map(|l| l.strip_prefix("info string roll ")).map(str::to_string);
    (best.split_whitespace().next().unwrap_or_default().to_string(), roll)
}

#[test]
fn the_engine_plays_whole_games_against_itself_as_a_gui_drives_it() {
    // Every variant, the engine rolling its own dice, each turn sent back as `position startpos
    // moves ...` as a GUI does: every answer is accepted, and the game reaches its end.
    let captured = Captured::default();
    let out = Output::new(captured.clone());
    let mut session = Session::new(out.clone());
    for variant in Variant::ALL.map(Variant::name) {
        feed(&mut session, &out, &format!("setoption name UCI_Variant value {variant}"));
        feed(&mut session, &out, "setoption name EngineRolls value true");
        feed(&mut session, &out, "setoption name Seed value 3");
        feed(&mut session, &out, "ucinewgame");
        let mut moves: Vec<String> = Vec::new();
        let mut ended = false;
        for ply in 0..1000 {
            let position = format!("position startpos moves {}", moves.join(" "));
            captured.take();
            feed(&mut session, &out, &position);
            let reply = captured.take();
            assert!(!reply.contains("error"), "{variant}, ply {ply}: {position} refused: {reply}");
            if session.game().end().is_some() {
                ended = true;
                break;
            }
            feed(&mut session, &out, "go depth 1");
            let reply = captured.take();
            let (best, roll) = best_and_roll(&reply);
            assert!(!reply.contains("error"), "{variant}, ply {ply}: {reply}");
            assert_ne!(best, "(none)", "{variant}, ply {ply}: {reply}");
            assert!(best != "roll" || roll.is_some(), "{variant}: the engine rolls its own dice: {reply}");
            moves.push(best);
        }
        assert!(ended, "{variant}: no end in 1,000 plies");
    }
}
