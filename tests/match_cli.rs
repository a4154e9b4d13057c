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

/// An engine that cannot start, or ends before the handshake, stops the match before its first
/// game with the reason and exit code 2, as cutechess does (it used to play the match as crashes).
#[test]
fn an_engine_that_cannot_play_stops_the_match() {
    for (engine, words) in
        [("cmd=/nonexistent/engine", "cannot be started"), ("cmd=/bin/true", "ended before answering 'uci'")]
    {
        let out = Command::new(env!("CARGO_BIN_EXE_alea"))
            .args(["match", "--engine", engine, "--engine", "builtin=random", "--pairs", "2"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{engine}: {stderr}");
        assert!(stderr.contains("engine 1") && stderr.contains(words), "{engine}: {stderr}");
        assert!(!String::from_utf8_lossy(&out.stdout).contains("games "), "no game was played");
    }
    // An evaluation file that does not fit the board: the 8x8 tables on 12x12, and the reverse.
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/engine/data/");
    for (variant, file) in [("grand", "freedom.eval"), ("freedom", "grand.eval")] {
        let out = Command::new(env!("CARGO_BIN_EXE_alea"))
            .args(["match", "--variant", variant, "--engine", &format!("builtin=alea eval={data}{file}")])
            .args(["--engine", "builtin=random", "--pairs", "2"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{variant}: {stderr}");
        assert!(stderr.contains("engine 1") && stderr.contains("does not fit"), "{variant}: {stderr}");
    }
}

/// With standard error not a terminal (CI, `nohup`, `| tee`), a line per finished pair with the
/// running score, as cutechess-cli prints one per game, instead of nothing until the end.
#[test]
fn progress_lines_when_stderr_is_not_a_terminal() {
    let out = Command::new(env!("CARGO_BIN_EXE_alea"))
        .arg("match")
        .args(ALEA_AND_RANDOM)
        .args(["--pairs", "3", "--seed", "1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with("pairs ")).collect();
    assert_eq!(lines.len(), 3, "{stderr}");
    for (i, line) in lines.iter().enumerate() {
        let games = 2 * (i + 1);
        assert!(line.starts_with(&format!("pairs {}/3 done, games {games} (+{games} =0 -0)", i + 1)), "{line}");
    }
}

/// The games are dated (PGN's `Date` tag), not `????.??.??`.
#[test]
fn match_games_are_dated() {
    let scratch = tempfile::Builder::new().prefix("alea-match-date-").tempdir().unwrap();
    let dir = scratch.path();
    let pgn = dir.join("dated.pgn");
    let _ = std::fs::remove_file(&pgn);
    let (ok, _) = alea_match(&[&ALEA_AND_RANDOM[..], &["--pairs", "1", "--pgn", pgn.to_str().unwrap()]].concat());
    assert!(ok);
    let text = std::fs::read_to_string(&pgn).unwrap();
    let dates: Vec<&str> = text.lines().filter(|l| l.starts_with("[Date ")).collect();
    assert_eq!(dates.len(), 2, "{text}");
    for d in dates {
        let value = d.trim_start_matches("[Date \"").trim_end_matches("\"]");
        let parts: Vec<&str> = value.split('.').collect();
        assert!(parts.len() == 3 && parts.iter().all(|p| p.chars().all(|c| c.is_ascii_digit())), "{d}");
        assert!(value.as_bytes()[0] == b'2', "{d}");
    }
}

/// Every option says what it is, and the time options their defaults.
#[test]
fn help_texts_describe_every_option() {
    let help = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_alea")).args(args).arg("--help").output().unwrap();
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let described = |text: &str, option: &str| {
        text.lines().any(|l| {
            let l = l.trim_start();
            // The option, its value's name, then words other than the default.
            let words = l.split(" [default").next().unwrap_or("").split_whitespace().count();
            l.starts_with(&format!("--{option} ")) && words > 2
        })
    };
    let text = help(&["match"]);
    for option in ["variant", "seed", "pairs", "engine"] {
        assert!(described(&text, option), "match --{option}: {text}");
    }
    let text = help(&["tune", "datagen"]);
    for option in ["variant", "games", "seed", "out"] {
        assert!(described(&text, option), "tune datagen --{option}: {text}");
    }
    assert!(help(&["advise"]).contains("[default: 1, unless --depth is given]"));
    assert!(help(&["analyse"]).contains("[default: 0.5, unless"));
}
