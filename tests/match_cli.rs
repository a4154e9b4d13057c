//! `alea match` through the binary, where a chess-tool user meets its edges: results with no
//! spread and no games say what can be said, and an SPRT decides when one side wins every pair.

use std::process::Command;

fn alea_match(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_alea")).arg("match").args(args).output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).to_string())
}

const ALEA_AND_RANDOM: [&str; 4] = ["--engine", "builtin=alea depth=1", "--engine", "builtin=random"];

#[test]
fn every_game_won_gives_a_bound_and_no_games_no_estimate() {
    // Seed 1: Alea wins all eight games against random.
    let (ok, out) = alea_match(&[&ALEA_AND_RANDOM[..], &["--pairs", "4", "--seed", "1"]].concat());
    assert!(ok);
    assert!(out.contains("games 8 (+8 =0 -0)"), "{out}");
    assert!(out.contains("Elo > +93 (every game won; no upper bound)"), "{out}");
    assert!(!out.contains("+2400"), "{out}");
    let (ok, out) = alea_match(&[&ALEA_AND_RANDOM[..], &["--pairs", "4", "--seed", "1", "--json"]].concat());
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert!(v["elo"].is_null() && v["elo_high"].is_null() && v["elo_low"].as_f64().unwrap() > 90.0, "{v}");
    let (ok, out) = alea_match(&[&ALEA_AND_RANDOM[..], &["--pairs", "0"]].concat());
    assert!(ok);
    assert!(out.contains("Elo: no games") && !out.contains("-0.0"), "{out}");
}

#[test]
fn an_sprt_decides_when_one_side_wins_every_pair() {
    let sprt = ["--pairs", "60", "--seed", "1", "--sprt", "elo0=0", "elo1=200", "alpha=0.05", "beta=0.05"];
    let (ok, out) = alea_match(&[&ALEA_AND_RANDOM[..], &sprt].concat());
    assert!(ok);
    assert!(out.contains("H1 accepted"), "{out}");
    // It stopped early, well before the 60 pairs.
    let games: u64 = out.split("games ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(games < 60, "{out}");
}
