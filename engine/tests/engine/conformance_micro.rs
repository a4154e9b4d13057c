//! The variants of several moves a turn against the shared conformance files
//! (tests/data/conformance/*.jsonl.gz), made by an independent implementation of the rules (docs/variants.md):
//! the position after each recorded game, and for sampled rolls the number of allowed whole
//! turns, their SHA-1, the full list where stored, and the first micro-moves.

use alea_engine::Board;
use alea_engine::rules::dice::Roll;
use alea_engine::rules::micro::{
    MicroPosition, MicroRules, PlanCache, StepList, allowed_steps, count_turns, for_each_turn, parse_turn, play_turn,
};
use alea_engine::rules::{Burmese, DiceChess3, Gollon};
use serde_json::Value;
use std::collections::HashMap;
use std::io::Read;

fn read_cases(name: &str) -> Vec<Value> {
    let path = format!("{}/../tests/data/conformance/{name}.jsonl.gz", env!("CARGO_MANIFEST_DIR"));
    let file = std::fs::File::open(&path).expect("conformance data copied into tests/data");
    let mut text = String::new();
    flate2::read::GzDecoder::new(file).read_to_string(&mut text).expect("gzip");
    text.lines().map(|l| serde_json::from_str(l).expect("valid JSON")).collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().expect("a list").iter().map(|s| s.as_str().expect("a string").to_string()).collect()
}

/// Plays a recorded turn (no roll recorded): some roll of the variant must allow it.
fn replay<R: MicroRules<Board = Board>>(
    rules: &R,
    pos: &MicroPosition,
    text: &str,
    cache: &mut PlanCache,
) -> Result<MicroPosition, String> {
    let moves = parse_turn(rules, pos, text).map_err(|e| e.to_string())?;
    rules
        .outcomes(pos)
        .iter()
        .find_map(|o| play_turn(rules, &rules.rolled(pos, &o.roll), &moves, cache).ok())
        .ok_or_else(|| format!("no roll allows {text}"))
}

fn roll_of(key: &str) -> Roll {
    let faces: Vec<u8> = key.bytes().map(|b| b - b'0').collect();
    Roll::new(&faces).expect("a roll key")
}

#[test]
fn dicechess3_agrees_with_every_conformance_case() {
    agrees_with_every_conformance_case(&DiceChess3, 1000, 5000, u64::MAX);
}

#[test]
fn burmese_agrees_with_every_conformance_case() {
    agrees_with_every_conformance_case(&Burmese, 500, 2500, u64::MAX);
}

/// Gollon's four micro-moves by any pieces make up to 12.5 million turns a roll (951 million over
/// the file's 2,000 rolls): every count is checked (counted over positions, not turns), and the
/// turns themselves where there are up to 50,000 of them; `gollon_every_turn_of_every_roll` lists
/// them all.
#[test]
fn gollon_agrees_with_every_conformance_case() {
    agrees_with_every_conformance_case(&Gollon, 500, 1500, 50_000);
}

/// All of Gollon's turns, listed and hashed (about ten minutes in release):
/// `cargo test --release --test engine conformance_micro -- --ignored`.
#[test]
#[ignore]
fn gollon_every_turn_of_every_roll() {
    agrees_with_every_conformance_case(&Gollon, 500, 1500, u64::MAX);
}

/// Every case of the variant's file: at least `min_cases` of them and `min_rolls` sampled rolls;
/// the turns of a roll are listed and compared where there are at most `list_up_to`, else only
/// counted.
fn agrees_with_every_conformance_case<R: MicroRules<Board = Board>>(
    rules: &R,
    min_cases: usize,
    min_rolls: usize,
    list_up_to: u64,
) {
    let name = rules.name();
    let mut cache = PlanCache::default();
    let cases = read_cases(name);
    assert!(cases.len() >= min_cases, "{} cases", cases.len());
    let mut failures = Vec::new();
    let mut rolls_checked = 0;
    for (n, case) in cases.iter().enumerate() {
        let at = format!("{name}.jsonl:{}", n + 1);
        let mut pos = match rules.parse_dfen(case["start"].as_str().unwrap()) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{at}: start refused: {e}"));
                continue;
            }
        };
        let mut ok = true;
        for turn in strings(&case["turns"]) {
            match replay(rules, &pos, &turn, &mut cache) {
                Ok(next) => pos = next,
                Err(e) => {
                    failures.push(format!("{at}: turn {turn} refused in {}: {e}", rules.dfen(&pos)));
                    ok = false;
                    break;
                }
            }
        }
        if !ok {
            continue;
        }
        let want_fen = case["fen"].as_str().unwrap();
        if rules.dfen(&pos) != want_fen {
            failures.push(format!("{at}: fen {} != {want_fen}", rules.dfen(&pos)));
        }
        // The DFEN reads back as the same position.
        match rules.parse_dfen(want_fen) {
            Ok(back) if back == pos => {}
            Ok(back) => failures.push(format!("{at}: {want_fen} reads back as {}", rules.dfen(&back))),
            Err(e) => failures.push(format!("{at}: {want_fen} refused: {e}")),
        }
        for (key, count) in case["counts"].as_object().unwrap() {
            rolls_checked += 1;
            let rolled = rules.rolled(&pos, &roll_of(key));
            let expected = count.as_u64().unwrap();
            if expected > list_up_to {
                let counted = count_turns(rules, &rolled, &mut cache, &mut HashMap::new());
                if counted != expected {
                    failures.push(format!("{at} roll {key}: {counted} turns counted, expected {count}"));
                }
                check_first(rules, &rolled, &case["first"], key, &at, &mut cache, &mut failures);
                continue;
            }
            let mut turns = Vec::new();
            for_each_turn(rules, &rolled, &mut cache, &mut |t, _| turns.push(t.to_uci(false)));
            turns.sort();
            if turns.len() as u64 != count.as_u64().unwrap() {
                failures.push(format!("{at} roll {key}: {} turns, expected {count}", turns.len()));
                continue;
            }
            if let Some(list) = case["rolls"].get(key).filter(|v| !v.is_null())
                && strings(list) != turns
            {
                let want = strings(list);
                let missing: Vec<_> = want.iter().filter(|t| !turns.contains(t)).take(5).collect();
                let extra: Vec<_> = turns.iter().filter(|t| !want.contains(t)).take(5).collect();
                failures.push(format!("{at} roll {key}: missing {missing:?}, extra {extra:?}"));
            }
            if let Some(sha) = case["sha1"].get(key).and_then(Value::as_str) {
                let digest = sha1_smol::Sha1::from(turns.join("\n")).digest().to_string();
                if digest != sha {
                    failures.push(format!("{at} roll {key}: SHA-1 of the turns differs"));
                }
            }
            check_first(rules, &rolled, &case["first"], key, &at, &mut cache, &mut failures);
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures of {} cases:\n{}",
        failures.len(),
        cases.len(),
        failures[..failures.len().min(30)].join("\n")
    );
    assert!(rolls_checked > min_rolls, "{rolls_checked} rolls checked");
}

/// The first micro-moves of a roll's turns, where the case lists them.
fn check_first<R: MicroRules<Board = Board>>(
    rules: &R,
    rolled: &MicroPosition,
    firsts: &Value,
    key: &str,
    at: &str,
    cache: &mut PlanCache,
    failures: &mut Vec<String>,
) {
    let Some(first) = firsts.get(key) else { return };
    let mut steps = StepList::new();
    allowed_steps(rules, rolled, cache, &mut steps);
    let mut got: Vec<String> = steps.iter().map(|s| s.mv.to_uci(false).to_string()).collect();
    got.sort();
    got.dedup();
    if got.is_empty() {
        got.push("0000".into());
    }
    if got != strings(first) {
        failures.push(format!("{at} roll {key}: first {got:?} != {first}"));
    }
}
