//! `alea match` through the binary, where a chess-tool user meets its edges: results with no
//! spread and no games say what can be said, and an SPRT decides when one side wins every pair.

fn alea_match(args: &[&str]) -> (bool, String) {
    let out = crate::common::alea().arg("match").args(args).output().unwrap();
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

/// `skill=L` plays Alea below full strength: at level 0 (one turn deep, choices drawn among the
/// best few) it still loses no game to `random`, reproducibly; a level past 20 is refused.
#[test]
fn a_skill_level_plays_weaker_and_is_checked() {
    let weak = ["--engine", "builtin=alea skill=0", "--engine", "builtin=random", "--pairs", "3", "--seed", "5"];
    let (ok, first) = alea_match(&weak);
    assert!(ok, "{first}");
    let wins: u64 = first.split("(+").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(wins >= 3 && first.contains(" -0)"), "{first}");
    assert_eq!(alea_match(&weak).1, first, "the same games again");
    let out = crate::common::alea()
        .args(["match", "--engine", "builtin=alea skill=21", "--engine", "builtin=random", "--pairs", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("skill takes a level from 0 to 20"));
}

/// An engine that cannot start, or ends before the handshake, stops the match before its first
/// game with the reason and exit code 2, as cutechess does (it used to play the match as crashes).
#[test]
fn an_engine_that_cannot_play_stops_the_match() {
    for (engine, words) in
        [("cmd=/nonexistent/engine", "cannot be started"), ("cmd=/bin/true", "ended before answering 'uci'")]
    {
        let out = crate::common::alea()
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
        let out = crate::common::alea()
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
    let out = crate::common::alea()
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

/// Each move of a searching player is noted as cutechess-cli notes it, with the score for the
/// side that moved, the depth and the seconds (`{[%roll 3] +0.35/2 0.004s}`), Alea's in this
/// process and an engine's process alike (read from its `info` lines); a player that does not
/// search notes nothing, and the record reads back with the notes as comments.
#[test]
fn match_moves_carry_the_search_score_depth_and_time() {
    let scratch = tempfile::Builder::new().prefix("alea-match-notes-").tempdir().unwrap();
    let alea = env!("CARGO_BIN_EXE_alea");
    let note_form = |c: &str| {
        let (score_depth, secs) = c.split_once(' ').expect("a score and a time");
        let (score, depth) = score_depth.split_once('/').expect("a score and a depth");
        let score_ok = score.starts_with(['+', '-'])
            && (score[1..].strip_prefix('M').is_some_and(|n| n.parse::<u32>().is_ok())
                || score[1..].split_once('.').is_some_and(|(p, c)| p.parse::<u32>().is_ok() && c.len() == 2));
        score_ok
            && depth.parse::<u32>().is_ok()
            && secs.strip_suffix('s').is_some_and(|t| t.split_once('.').is_some_and(|(_, f)| f.len() == 3))
    };
    for (variant, second, second_notes) in
        [("freedom", format!("cmd={alea} name=proc depth=1"), true), ("classic", "builtin=random".to_string(), false)]
    {
        let pgn = scratch.path().join(format!("{variant}.pgn"));
        let args = ["--engine", "builtin=alea depth=2", "--engine", &second, "--variant", variant, "--pairs", "1"];
        let (ok, out) = alea_match(&[&args[..], &["--max-plies", "24", "--pgn", pgn.to_str().unwrap()]].concat());
        assert!(ok, "{out}");
        let text = std::fs::read_to_string(&pgn).unwrap();
        for game in text.split("[Event ").filter(|g| !g.trim().is_empty()) {
            let record = alea_engine::services::pgn::GameRecord::from_pgn(&format!("[Event {game}")).unwrap();
            let alea_white = record.tag("White") == Some("alea");
            let (mut alea_notes, mut other_notes) = (0, 0);
            for (ply, turn) in record.turns.iter().enumerate() {
                let by_alea = (ply % 2 == 0) == alea_white;
                if let Some(c) = &turn.comment {
                    assert!(note_form(c), "{c:?} in {variant}");
                    if by_alea { alea_notes += 1 } else { other_notes += 1 }
                }
            }
            // A turn with one allowed move and no choice before the roll is played unsearched.
            assert!(alea_notes >= 8, "{alea_notes} of Alea's 12 moves noted in {variant}: {game}");
            assert_eq!(other_notes >= 8, second_notes, "{other_notes} of {second}'s 12 moves noted: {game}");
        }
    }
}

/// Two runs on the same dice compare game by game: a player against itself in two runs of one
/// seed plays the same games (a fixed depth decides alike), so nothing changed; a deeper player
/// in run A scores its own; runs of two seeds are refused and change nothing.
#[test]
fn match_compare_reads_two_runs_of_the_same_dice() {
    let scratch = tempfile::Builder::new().prefix("alea-match-compare-").tempdir().unwrap();
    let run = |name: &str, first: &str, seed: &str| {
        let pgn = scratch.path().join(name);
        let args =
            ["--engine", first, "--engine", "builtin=greedy", "--pairs", "3", "--seed", seed, "--max-plies", "40"];
        let (ok, out) = alea_match(&[&args[..], &["--pgn", pgn.to_str().unwrap()]].concat());
        assert!(ok, "{out}");
        pgn.to_str().unwrap().to_string()
    };
    let (one, again) = (run("one.pgn", "builtin=alea depth=1", "5"), run("again.pgn", "builtin=alea depth=1", "5"));
    let deeper = run("deeper.pgn", "builtin=alea depth=2 name=deep", "5");
    let other_seed = run("other.pgn", "builtin=alea depth=1", "6");
    let compare = |a: &str, b: &str, json: bool| {
        let mut args = vec!["compare", a, b];
        if json {
            args.push("--json");
        }
        let out = crate::common::alea().arg("match").args(&args).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (code, out, _) = compare(&one, &again, false);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.starts_with("3 pairs both runs finished (6 games)"), "{out}");
    assert!(out.contains("A - B: +0.000 ± 0.000 points a game") && out.contains("no difference measured"), "{out}");
    assert!(out.contains("ended alike: 6 of 6 games (100 %), 6 of them played turn for turn alike"), "{out}");
    assert!(out.contains("; 1.00 deep, "), "{out}");
    // The referee read every roll's luck (freedom): the same games, the same luck.
    assert!(out.contains("A - B, luck taken out: +0.000 ± 0.000 points a game, no difference measured"), "{out}");
    assert_eq!(out.matches("; luck taken out, Elo").count(), 2, "{out}");
    let (code, out, _) = compare(&deeper, &one, true);
    assert_eq!(code, Some(0), "{out}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (v["pairs"].as_u64(), v["a"]["player"].as_str(), v["b"]["player"].as_str()),
        (Some(3), Some("deep"), Some("alea"))
    );
    // Two turns deep where the search went on (a win in sight stops it sooner), one in B.
    let (depth_a, depth_b) = (v["a"]["mean_depth"].as_f64().unwrap(), v["b"]["mean_depth"].as_f64().unwrap());
    assert!(depth_a > 1.5 && depth_a <= 2.0 && depth_b == 1.0, "{v}");
    let adjusted = &v["luck_adjusted"];
    assert!(adjusted["difference"].is_f64() && adjusted["margin"].as_f64().unwrap() >= 0.0, "{v}");
    // Each run's own Elo less the luck (null where the adjusted score passes a whole win).
    assert!(v["a"]["luck_adjusted"].is_object() && v["b"]["luck_adjusted"].is_object(), "{v}");
    let changed = v["changed"].as_array().unwrap().len() as u64;
    assert_eq!(changed + v["same_result"].as_u64().unwrap(), 6, "{v}");
    let (code, out, err) = compare(&one, &other_seed, false);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.is_empty() && err.contains("not dealt the same dice") && err.contains("seed=6"), "{err}");
    let (code, _, err) = compare(&one, "no-such-file.pgn", false);
    assert_eq!(code, Some(2));
    assert!(err.contains("cannot read no-such-file.pgn"), "{err}");
}

/// Every option says what it is, and the time options their defaults.
#[test]
fn help_texts_describe_every_option() {
    let help = |args: &[&str]| {
        let out = crate::common::alea().args(args).arg("--help").output().unwrap();
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

/// The referee reads each roll's luck (the outcomes valued one turn deep before it) and writes
/// White's less Black's in the game's `WhiteLuck` tag; the report scores the pairs less it too,
/// and a resumed match reads it back from the file.
#[test]
fn the_luck_of_the_rolls_is_taken_out_of_a_second_score() {
    let scratch = tempfile::Builder::new().prefix("alea-match-luck-").tempdir().unwrap();
    let pgn = scratch.path().join("luck.pgn");
    let players = ["--engine", "builtin=alea depth=1", "--engine", "builtin=greedy", "--variant", "dicechess3"];
    let run = |pairs: &str, resume: bool| {
        let mut args = vec!["--pairs", pairs, "--seed", "3", "--pgn", pgn.to_str().unwrap(), "--json"];
        if resume {
            args.push("--resume");
        }
        let (ok, out) = alea_match(&[&players[..], &args].concat());
        assert!(ok, "{out}");
        serde_json::from_str::<serde_json::Value>(out.lines().last().unwrap()).unwrap()
    };
    let first = run("12", false);
    let text = std::fs::read_to_string(&pgn).unwrap();
    let lucks: Vec<f64> = text
        .lines()
        .filter_map(|l| l.strip_prefix("[WhiteLuck \"").and_then(|v| v.strip_suffix("\"]")))
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(lucks.len(), 24, "a luck for every game");
    assert!(lucks.iter().all(|l| l.abs() < 3.0) && lucks.iter().any(|&l| l != 0.0), "{lucks:?}");
    let luck = &first["luck_adjusted"];
    assert_eq!(luck["pairs"], 12, "{first}");
    assert!(luck["variance_ratio"].as_f64().unwrap() < 1.0, "{first}");
    let (lo, elo, hi) =
        (luck["elo_low"].as_f64().unwrap(), luck["elo"].as_f64().unwrap(), luck["elo_high"].as_f64().unwrap());
    assert!(lo < elo && elo < hi, "{first}");
    // Resumed to more pairs: the first twelve read from the file count alike.
    let more = run("14", true);
    assert_eq!(more["luck_adjusted"]["pairs"], 14, "{more}");
}

/// `--sprt ... luck=1` decides on the pairs' scores less their luck (so on fewer pairs where
/// the dice decide much), and is refused where the referee cannot read a roll's luck.
#[test]
fn an_sprt_on_the_scores_less_their_luck() {
    let players = ["--engine", "builtin=alea depth=1", "--engine", "builtin=greedy", "--variant", "dicechess3"];
    let sprt = ["--pairs", "200", "--seed", "3", "--sprt", "elo0=0", "elo1=150", "luck=1", "--json"];
    let (ok, out) = alea_match(&[&players[..], &sprt].concat());
    assert!(ok, "{out}");
    let v: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(v["sprt"]["luck"], true, "{v}");
    assert_eq!(v["sprt"]["decision"], "H1", "{v}");
    let decided = v["sprt"]["decided_at_pair"].as_u64().unwrap();
    assert!(decided < 200, "{v}");
    let (ok, out) = alea_match(&[
        "--engine",
        "builtin=alea",
        "--engine",
        "builtin=greedy",
        "--variant",
        "grand",
        "--sprt",
        "luck=1",
    ]);
    assert!(!ok && out.is_empty());
    let (ok, _) = alea_match(&[&players[..], &["--sprt", "luck=2"]].concat());
    assert!(!ok);
}

/// `candidates=N` widens or narrows the peer's second turn (it is then named for it), and is
/// refused for any other player.
#[test]
fn the_peers_candidates_are_set_and_checked() {
    let narrow = ["--variant", "dicechess3", "--engine", "builtin=peer candidates=2", "--engine", "builtin=greedy"];
    let (ok, out) = alea_match(&[&narrow[..], &["--pairs", "1", "--seed", "3"]].concat());
    assert!(ok && out.contains("peer-2"), "{out}");
    for (spec, says) in [
        ("builtin=alea candidates=8", "candidates=... is for builtin=peer"),
        ("builtin=peer candidates=0", "candidates takes a number of turns from 1 up, not '0'"),
    ] {
        let out = crate::common::alea()
            .args(["match", "--variant", "dicechess3", "--engine", spec, "--engine", "builtin=greedy", "--pairs", "1"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains(says), "{spec}");
    }
}
