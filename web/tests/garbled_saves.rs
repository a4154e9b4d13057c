//! Damaged game files of the web page's store: games of every variant (a roll on the table, a
//! turn in progress, a finished game), saved, then damaged (characters dropped, doubled or
//! replaced, fields removed or given other values). Reading one must never panic; a game that
//! is read must show itself (the page's state), save itself again, and read back the same.

use alea_engine::services::handle::{GameHandle, RollSpec};
use alea_engine::services::pgn::{GameRecord, RecordedTurn};
use alea_engine::services::registry::Variant;
use alea_web::webgame::WebGame;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// A saved game of `variant` after some random turns, perhaps with the dice rolled for the next.
fn saved_game(variant: &str, rng: &mut StdRng) -> String {
    let mut game = GameHandle::of(variant.parse().unwrap(), false).expect("a variant");
    let mut record = GameRecord::new(variant.parse().unwrap(), false, None);
    for _ in 0..rng.random_range(0..30) {
        if game.end().is_some() {
            break;
        }
        let free = game.pre_roll_turns();
        let (turn, roll) = if !game.may_roll() {
            (free[rng.random_range(0..free.len())].clone(), None)
        } else {
            let roll = game.roll_for(rng.random_range(0..game.total_weight())).expect("a roll");
            let spec = RollSpec::Faces(roll.faces().to_vec());
            let k = rng.random_range(0..game.count_turns(&spec).expect("its own roll"));
            (game.nth_turn(&spec, k).expect("its own roll").expect("a turn"), Some(roll))
        };
        game.play_checked(&turn, roll.as_ref()).expect("an allowed turn");
        record.turns.push(RecordedTurn { turn, roll, comment: None });
    }
    if let Some(end) = game.end() {
        record.result = end.result.to_string();
    }
    let mut web = WebGame::from_record(record, rng.random_range(0..1000), 50, rng.random_range(0..2) == 0);
    if game.end().is_none() && game.may_roll() && rng.random_range(0..2) == 0 {
        let _ = web.roll_dice(None);
        // Some of a turn of several micro-moves made.
        let faces: Option<Vec<u8>> = serde_json::from_value(web.saved()["roll"].clone()).unwrap_or(None);
        if game.several_moves_a_turn()
            && let Some(faces) = faces
        {
            let first = game.first_moves(&RollSpec::Faces(faces)).unwrap_or_default();
            if !first.is_empty() && rng.random_range(0..2) == 0 {
                let _ = web.human_move(&first[rng.random_range(0..first.len())]);
            }
        }
    }
    web.saved().to_string()
}

/// Values a field may be given instead of its own.
fn odd_value(rng: &mut StdRng) -> Value {
    match rng.random_range(0..12) {
        0 => Value::Null,
        1 => json!(-1),
        2 => json!(u64::MAX),
        3 => json!(1.5),
        4 => json!("white"),
        5 => json!("e2e4"),
        6 => json!([7]),
        7 => json!([0, 0, 0]),
        8 => json!([1, 2, 3, 4, 5, 6, 1]),
        9 => json!(["e2e4", "e2e4"]),
        10 => json!(true),
        _ => json!({}),
    }
}

fn damage(text: &str, rng: &mut StdRng) -> String {
    if rng.random_range(0..2) == 0 {
        let mut v: Value = serde_json::from_str(text).expect("a saved game is JSON");
        let fields = [
            "version",
            "pgn",
            "human",
            "seed",
            "movetime",
            "own_dice",
            "engine_chose_roll",
            "skill",
            "roll",
            "partial",
        ];
        let name = fields[rng.random_range(0..fields.len())];
        let object = v.as_object_mut().expect("an object");
        if rng.random_range(0..3) == 0 {
            object.remove(name);
        } else {
            object.insert(name.into(), odd_value(rng));
        }
        return v.to_string();
    }
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..rng.random_range(1..=3) {
        if chars.is_empty() {
            break;
        }
        let i = rng.random_range(0..chars.len());
        let len = rng.random_range(1..=6).min(chars.len() - i);
        match rng.random_range(0..4) {
            0 => {
                chars.drain(i..i + len);
            }
            1 => {
                let copy: Vec<char> = chars[i..i + len].to_vec();
                chars.splice(i..i, copy);
            }
            2 => chars.truncate(i),
            _ => {
                const SOME: &str = "0123456789abcdefgh,[]{}\":\\ntruefalse";
                chars[i] = SOME.chars().nth(rng.random_range(0..SOME.chars().count())).unwrap();
            }
        }
    }
    chars.into_iter().collect()
}

#[test]
fn damaged_saves_are_refused_or_read_whole_never_a_panic() {
    let seed = std::env::var("ALEA_GARBLED_SEED").ok().and_then(|r| r.parse().ok()).unwrap_or(20261129);
    let mut rng = StdRng::seed_from_u64(seed);
    let rounds: usize = std::env::var("ALEA_GARBLED_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(10);
    let (mut read, mut refused) = (0, 0);
    for round in 0..rounds {
        for variant in Variant::ALL.map(Variant::name) {
            let saved = saved_game(variant, &mut rng);
            let again = WebGame::from_saved(&saved).expect("an undamaged game reads back");
            assert_eq!(again.saved().to_string(), saved, "{variant}: saved, read and saved again");
            for _ in 0..20 {
                let damaged = damage(&saved, &mut rng);
                let outcome = catch_unwind(AssertUnwindSafe(|| match WebGame::from_saved(&damaged) {
                    Ok(web) => {
                        web.state("x");
                        let text = web.saved().to_string();
                        let back = WebGame::from_saved(&text).expect("a game read saves and reads again");
                        assert_eq!(back.saved().to_string(), text);
                        true
                    }
                    Err(e) => {
                        assert!(!e.is_empty());
                        false
                    }
                }));
                match outcome {
                    Ok(true) => read += 1,
                    Ok(false) => refused += 1,
                    Err(_) => panic!("round {round}, {variant}: a panic reading\n{damaged}"),
                }
            }
        }
    }
    assert!(read > 0 && refused > 0, "{read} read, {refused} refused");
}

/// What a person may type or click, right or wrong.
fn page_action(web: &WebGame, rng: &mut StdRng) -> String {
    let state = web.state("x");
    let allowed: Vec<String> = state["allowed"]
        .as_array()
        .map(|a| a.iter().filter_map(|m| m.as_str().map(str::to_string)).collect())
        .unwrap_or_default();
    let junk = ["", "0000", "pass", "e2e4", "e2e4,", ",", "a1a1", "z9z9", "e7e8q", "roll", "1,2,3", "é"];
    match rng.random_range(0..10) {
        0..=3 if !allowed.is_empty() => format!("move {}", allowed[rng.random_range(0..allowed.len())]),
        4 => format!("move {}", junk[rng.random_range(0..junk.len())]),
        5 => "roll".into(),
        6 => format!(
            "roll {}",
            ["1", "1 2", "1,2,3", "6 6 6 6", "7", "0", "x", "12", "123", ""][rng.random_range(0..10)]
        ),
        7 => "engine".into(),
        8 => "undo".into(),
        _ => "advice".into(),
    }
}

#[test]
fn random_clicks_and_typing_on_the_page_never_panic() {
    let seed = std::env::var("ALEA_GARBLED_SEED").ok().and_then(|r| r.parse().ok()).unwrap_or(20261129);
    let mut rng = StdRng::seed_from_u64(seed);
    let rounds: usize = std::env::var("ALEA_GARBLED_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(2);
    let shared = alea_engine::search::Shared::new(1);
    for round in 0..rounds {
        for variant in Variant::ALL.map(Variant::name) {
            let own_dice = rng.random_range(0..2) == 0;
            let human = if rng.random_range(0..2) == 0 { alea_engine::Color::White } else { alea_engine::Color::Black };
            let mut web = WebGame::new(variant, false, None, human, rng.random_range(0..1000), 5, own_dice).unwrap();
            for step in 0..40 {
                let action = page_action(&web, &mut rng);
                let before = web.clone();
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    let mut changed = web.clone();
                    let result = match action.split_once(' ').unwrap_or((action.as_str(), "")) {
                        ("move", text) => changed.human_move(text).map(|_| ()),
                        ("roll", "") => changed.roll_dice(None),
                        ("roll", faces) => changed.roll_dice(Some(faces)),
                        ("engine", _) => changed.engine_turn(&shared, &mut |_| {}),
                        ("undo", _) => changed.undo(),
                        _ => changed
                            .advice(
                                alea_engine::search::timeman::Limits { movetime: Some(20), ..Default::default() },
                                &shared,
                                &mut |_| {},
                            )
                            .map(|_| ()),
                    };
                    (result.is_ok(), changed)
                }));
                match outcome {
                    Ok((true, changed)) => web = changed,
                    Ok((false, _)) => assert_eq!(web.saved(), before.saved()),
                    Err(_) => {
                        panic!("round {round}, {variant}, step {step}: a panic at '{action}' in\n{}", before.saved())
                    }
                }
                // The page shows it, saves it and reads it back the same.
                web.state("x");
                let saved = web.saved().to_string();
                let back = WebGame::from_saved(&saved)
                    .unwrap_or_else(|e| panic!("{variant}, step {step}, after '{action}': {e}\n{saved}"));
                assert_eq!(back.saved().to_string(), saved);
            }
        }
    }
}
