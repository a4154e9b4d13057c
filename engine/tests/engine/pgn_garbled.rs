//! Garbled PGN: records of random games of every variant (rolls, Freedom moves, comments), each
//! damaged a little (characters dropped, doubled, replaced, lines cut or repeated), as a file
//! edited by hand or cut short by a crash would be. Reading one must never panic; a record that
//! is accepted must replay (its turns are checked as they are read) and write itself out again
//! to the same game.

use alea_engine::services::handle::{GameHandle, RollSpec};
use alea_engine::services::pgn::{GameRecord, RecordedTurn};
use alea_engine::services::registry::Variant;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::panic::{AssertUnwindSafe, catch_unwind};

fn random_record(variant: &str, rng: &mut StdRng) -> GameRecord {
    let mut game = GameHandle::of(variant.parse().unwrap(), false).expect("a variant");
    let mut record = GameRecord::new(variant.parse().unwrap(), false, None);
    for _ in 0..rng.random_range(0..40) {
        if let Some(end) = game.end() {
            record.result = end.result.to_string();
            break;
        }
        let free = game.pre_roll_turns();
        let (turn, roll) = if !game.may_roll() || (!free.is_empty() && rng.random_range(0..3) == 0) {
            (free[rng.random_range(0..free.len())].clone(), None)
        } else {
            let roll = game.roll_for(rng.random_range(0..game.total_weight())).expect("a roll");
            // The k-th turn, not a list of all (four dice allow hundreds of thousands).
            let spec = RollSpec::Faces(roll.faces().to_vec());
            let k = rng.random_range(0..game.count_turns(&spec).expect("its own roll"));
            let answer = game.nth_turn(&spec, k).expect("its own roll").expect("a turn");
            // Written as the answer to the roll or whole (Die Chess: `a1g7`, `roll5,a1g7`).
            let turn = if rng.random_range(0..2) == 0 { game.turn_with_roll(&answer, &roll) } else { answer };
            (turn, Some(roll))
        };
        game.play_checked(&turn, roll.as_ref()).expect("an allowed turn");
        let comment = (rng.random_range(0..6) == 0).then(|| "a {note} [%eval 0.3] ; 1-0".to_string());
        record.turns.push(RecordedTurn { turn, roll, comment });
    }
    record.tags.push(("Event".into(), "garbled \"test\"".into()));
    record
}

const NOISE: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "\"",
    "(",
    ")",
    ";",
    "%",
    "[%roll ",
    "[%roll 7]",
    "[%roll 1,2,3,4]",
    "[%freedom]",
    "1.",
    "...",
    "\n",
    "\n\n",
    " ",
    "0-1",
    "1/2-1/2",
    "*",
    "O-O",
    "O-O-O",
    "Kxe8",
    "e8=Q",
    "roll2,a1",
    "0000",
    "--",
    "$1",
    "!?",
    "é",
    "♔",
    "\r",
    "\t",
    "[Variant \"dicechess3\"]",
    "[FEN \"8/8/8 w\"]",
    "[Variant \"",
    "99999999999",
];

fn garble(text: &str, rng: &mut StdRng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..rng.random_range(1..=4) {
        if chars.is_empty() {
            break;
        }
        let i = rng.random_range(0..chars.len());
        let len = rng.random_range(1..=8).min(chars.len() - i);
        match rng.random_range(0..6) {
            0 => {
                chars.drain(i..i + len);
            }
            1 => {
                let copy: Vec<char> = chars[i..i + len].to_vec();
                chars.splice(i..i, copy);
            }
            2 => {
                let noise = NOISE[rng.random_range(0..NOISE.len())];
                chars.splice(i..i, noise.chars());
            }
            3 => chars.truncate(i),
            4 => {
                // A whole line repeated elsewhere (a game pasted twice, a tag doubled).
                let line: String =
                    text.lines().nth(rng.random_range(0..text.lines().count().max(1))).unwrap_or("").into();
                chars.splice(i..i, format!("{line}\n").chars());
            }
            _ => {
                const SOME: &str = "0123456789abcdefghKQRBNPx+#=-,.{}[]% \n";
                let c = SOME.chars().nth(rng.random_range(0..SOME.chars().count())).unwrap();
                chars[i] = c;
            }
        }
    }
    chars.into_iter().collect()
}

#[test]
fn garbled_records_are_refused_or_read_whole_never_a_panic() {
    let seed = std::env::var("ALEA_GARBLED_SEED").ok().and_then(|r| r.parse().ok()).unwrap_or(20261129);
    let mut rng = StdRng::seed_from_u64(seed);
    let rounds: usize = std::env::var("ALEA_GARBLED_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(20);
    let (mut read, mut refused) = (0, 0);
    for round in 0..rounds {
        for variant in Variant::ALL.map(Variant::name) {
            let record = random_record(variant, &mut rng);
            let text = record.to_pgn();
            let whole = GameRecord::from_pgn(&text).unwrap_or_else(|e| panic!("{variant}: {e}\n{text}"));
            assert_eq!(whole.game().fen(), record.game().fen(), "{variant}: read back\n{text}");
            // Two games in one file, as `alea match` writes them.
            let text = if rng.random_range(0..3) == 0 { format!("{text}\n{text}") } else { text };
            for _ in 0..10 {
                let garbled = garble(&text, &mut rng);
                let outcome = catch_unwind(AssertUnwindSafe(|| match GameRecord::all_from_pgn(&garbled) {
                    Ok(records) => {
                        for r in &records {
                            let game = r.game();
                            let again = GameRecord::from_pgn(&r.to_pgn()).expect("a record written out reads back");
                            assert_eq!(again.game().fen(), game.fen());
                            assert_eq!(again.turns.len(), r.turns.len());
                            assert_eq!(again.to_pgn(), r.to_pgn(), "written, read and written again");
                        }
                        true
                    }
                    Err(e) => {
                        assert!(!e.0.is_empty());
                        false
                    }
                }));
                match outcome {
                    Ok(true) => read += 1,
                    Ok(false) => refused += 1,
                    Err(_) => panic!("round {round}, {variant}: a panic reading\n{garbled}"),
                }
            }
        }
    }
    // Both kinds occur, or the damage was too little or too much to test anything.
    assert!(read > 0 && refused > 0, "{read} read, {refused} refused");
}
