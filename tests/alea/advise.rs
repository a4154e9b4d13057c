//! `alea advise` through the binary: rankings, the table of outcomes, the Freedom decision, JSON,
//! and refused input.

fn advise(args: &[&str]) -> (bool, String, String) {
    let out = crate::common::alea().arg("advise").args(args).output().unwrap();
    (out.status.success(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn advise_json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.push("--json");
    let (ok, stdout, stderr) = advise(&all);
    assert!(ok, "{stderr}");
    serde_json::from_str(&stdout).expect("advise --json prints JSON")
}

#[test]
fn with_a_roll_every_allowed_move_is_ranked() {
    let v = advise_json(&["--fen", "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", "--roll", "4", "--depth", "3"]);
    let choices = v["choices"].as_array().unwrap();
    // Every rook move, best first: the free queen.
    assert_eq!(choices.len(), 7);
    assert_eq!(v["best"], "d1d5");
    assert_eq!(choices[0]["san"], "Rxd5");
    assert_eq!(choices[0]["loss"], 0);
    let scores: Vec<i64> = choices.iter().map(|c| c["score"].as_i64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    for c in choices {
        assert!(c["exact"].as_bool().unwrap());
        assert_eq!(c["loss"].as_i64().unwrap(), scores[0] - c["score"].as_i64().unwrap());
        let wdl: i64 = c["wdl"].as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).sum();
        assert_eq!(wdl, 1000);
    }
}

#[test]
fn before_the_roll_the_outcome_table_and_the_freedom_decision() {
    let v = advise_json(&["--moves", "e2e4", "d7d5", "e4d5", "--depth", "3"]);
    let outcomes = v["outcomes"].as_array().unwrap();
    assert_eq!(outcomes.len(), 6);
    let total: f64 = outcomes.iter().map(|o| o["probability"].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-9);
    let expected: f64 =
        outcomes.iter().map(|o| o["probability"].as_f64().unwrap() * o["score"].as_f64().unwrap()).sum();
    assert!((expected - v["expected"].as_f64().unwrap()).abs() <= 1.0);
    // The recapture without rolling beats rolling.
    assert_eq!(v["best"], "d8d5");
    let options = v["choices"].as_array().unwrap();
    let roll = options.iter().find(|c| c["move"] == "roll").unwrap();
    let recapture = options.iter().find(|c| c["move"] == "d8d5").unwrap();
    assert!(recapture["score"].as_i64() > roll["score"].as_i64());
    assert_eq!(recapture["pre_roll"], serde_json::json!(["recapture"]));
    // Two dice: 21 outcomes.
    let v = advise_json(&["--variant", "classic", "--depth", "2"]);
    assert_eq!(v["outcomes"].as_array().unwrap().len(), 21);
    assert_eq!(v["best"], "roll");
}

#[test]
fn text_shows_a_board_and_the_verdict() {
    let (ok, out, _) = advise(&["--moves", "e2e4", "--roll", "1", "--depth", "2"]);
    assert!(ok);
    assert!(out.contains(" 8  ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜"), "{out}");
    assert!(out.contains("    a b c d e f g h"));
    assert!(out.contains("last move e2e4"));
    assert!(out.contains("roll 1 (pawn)"));
    assert!(out.contains("\nbest: play "));
}

#[test]
fn a_certain_mate_is_called_a_win() {
    let v = advise_json(&["--fen", "6k1/5ppp/8/8/8/8/5PPP/1Q4K1 w - - 0 30", "--depth", "2"]);
    assert_eq!(v["best"], "b1b8");
    assert_eq!(v["mate"], 1);
}

#[test]
fn bad_input_is_refused_with_a_reason() {
    for (args, reason) in [
        (vec!["--roll", "7"], "not 1 to 6"),
        (vec!["--roll", "2,5"], "rolls 1 die"),
        (vec!["--variant", "checkers"], "unknown variant"),
        (vec!["--fen", "rnbqkbnr/8 w - - 0 1"], "invalid FEN"),
        (vec!["--moves", "e2e5"], "illegal move e2e5"),
        (vec!["--depth", "0"], "--depth"),
        (vec!["--multipv", "0"], "--multipv"),
        // Die Chess names the fault: the move the die cannot make, or the face.
        (vec!["--variant", "diechess", "--moves", "roll2,a1h8"], "a die showing a knight on a1 cannot make that move"),
        (vec!["--variant", "diechess", "--moves", "roll7"], "the face rolled must be 1 to 6"),
        (vec!["--time", "-1"], "--time"),
    ] {
        let (ok, stdout, stderr) = advise(&args);
        assert!(!ok, "{args:?} accepted");
        assert!(stderr.contains(reason), "{args:?}: {stderr}");
        assert!(stdout.is_empty());
    }
}

/// dicechess3 through the same command: the best turns of a roll ranked (whole turns, SAN
/// micro-moves joined by commas), the 56-outcome table before the roll, a turn in progress from a
/// DFEN, and the maximum rule's refusals.
#[test]
fn dicechess3_turns_the_outcome_table_and_a_turn_in_progress() {
    // A rook on the king's file: a 4 takes the king, so every turn of 1 4 6 that does wins.
    let v = advise_json(&[
        "--variant",
        "dicechess3",
        "--fen",
        "4k3/8/8/8/8/8/8/K3R3 w - - 0 1",
        "--roll",
        "1,4,6",
        "--depth",
        "1",
    ]);
    assert_eq!(v["best"], "e1e8");
    assert_eq!(v["choices"][0]["san"], "Rxe8");
    assert!(v["choices"][0]["score"].as_i64().unwrap() > 3900);
    let v = advise_json(&["--variant", "dicechess3", "--fen", "4k3/8/8/8/8/8/8/K3R3 w - - 0 1", "--depth", "1"]);
    assert_eq!(v["best"], "roll");
    let outcomes = v["outcomes"].as_array().unwrap();
    assert_eq!(outcomes.len(), 56);
    let winning: f64 = outcomes
        .iter()
        .filter(|o| o["score"].as_i64().unwrap() > 3900)
        .map(|o| o["probability"].as_f64().unwrap())
        .sum();
    assert!((winning - 91.0 / 216.0).abs() < 1e-9, "{winning}");
    // Ten turns ranked by default, in order.
    let v = advise_json(&["--variant", "dicechess3", "--roll", "1,2,3", "--depth", "1"]);
    let choices = v["choices"].as_array().unwrap();
    assert_eq!(choices.iter().filter(|c| c["exact"].as_bool().unwrap()).count(), 10);
    assert!(choices[0]["move"].as_str().unwrap().contains(','), "{}", choices[0]["move"]);
    // A turn in progress: the DFEN's dice are used.
    let v = advise_json(&[
        "--variant",
        "dicechess3",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PN",
        "--depth",
        "1",
    ]);
    assert_eq!(v["best"].as_str().unwrap().split(',').count(), 2);
    let (ok, _, _) = advise(&["--variant", "dicechess3", "--roll", "1,2", "--depth", "1"]);
    assert!(!ok, "two faces at a turn's start are refused");
    let (ok, _, stderr) = advise(&["--variant", "dicechess3", "--moves", "a2a4", "--depth", "1"]);
    assert!(!ok && stderr.contains("a2a4"), "{stderr}");
}

#[test]
fn die_chess_advice_gives_the_exact_values() {
    // The engine reads Die Chess's table from its cache (solving it there first if no test of
    // this build has) and its advice from it.
    let v = advise_json(&["--variant", "diechess"]);
    // The pass and a1a2 are worth 0.5; the tie goes to the pass (more chances for a fallible
    // opponent), and a1a2 is listed at the same value.
    assert_eq!(v["best"], "0000");
    let a1a2 = v["choices"].as_array().unwrap().iter().find(|c| c["move"] == "a1a2").unwrap().clone();
    assert!((a1a2["value"].as_f64().unwrap() - 0.5).abs() < 1e-12, "{a1a2}");
    assert!((v["value"].as_f64().unwrap() - 0.5).abs() < 1e-12, "{v}");
    let roll = v["choices"].as_array().unwrap().iter().find(|c| c["move"] == "roll").unwrap().clone();
    assert!((roll["value"].as_f64().unwrap() - 0.498_402_235_12).abs() < 1e-9, "{roll}");
    let king_face = &v["outcomes"].as_array().unwrap()[5];
    assert_eq!(king_face["best"], "a1b1");
    assert!((king_face["value"].as_f64().unwrap() - 0.490_413_410_72).abs() < 1e-9, "{king_face}");
    // The text names what needs no roll in Die Chess's own way: no Freedom, no empty reasons.
    let (ok, text, _) = advise(&["--variant", "diechess"]);
    assert!(ok && text.contains("without rolling:") && !text.contains("()") && !text.contains("Freedom"), "{text}");
    // The table was kept in the cache directory, and a table of one's own is read instead; one
    // that cannot be read is refused before any advice.
    let kept = crate::common::cache_home()
        .join("alea")
        .join(alea_engine::search::solve_cache::file_name(&alea_engine::rules::diechess::DieChess));
    assert!(kept.exists(), "{}", kept.display());
    let own = advise_json(&["--variant", "diechess", "--solution", kept.to_str().unwrap()]);
    assert_eq!(own["best"], "0000");
    let (ok, stdout, stderr) = advise(&["--variant", "diechess", "--solution", "/nonexistent/diechess.table"]);
    assert!(!ok && stdout.is_empty() && stderr.contains("--solution /nonexistent/diechess.table"), "{stderr}");
}

/// The text tables keep their columns whatever a move's length: whole turns of three micro-moves
/// (and the outcome table's turns) are wider than a chess move, and the score column ends at
/// one place in every row.
#[test]
fn tables_keep_their_columns_for_whole_turns() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    for roll in [&["--roll", "1,2,5"][..], &[][..]] {
        let mut args = vec!["--variant", "dicechess3", "--fen", fen, "--depth", "1"];
        args.extend_from_slice(roll);
        let (ok, stdout, stderr) = advise(&args);
        assert!(ok, "{stderr}");
        let header = stdout.lines().find(|l| l.contains("#  move") || l.contains("roll  ")).expect("a table");
        let rows: Vec<&str> = stdout
            .lines()
            .skip_while(|l| *l != header)
            .skip(1)
            .take_while(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
            .collect();
        assert!(rows.iter().filter(|r| r.contains(',')).count() >= 5, "whole turns in the table: {stdout}");
        // Where each row's score ends: the last cell before the outcome table's end, the third
        // of a ranked turn's row.
        let score_end = |row: &str| {
            let cells: Vec<&str> = row.split_whitespace().collect();
            let cell = if roll.is_empty() { cells.last() } else { cells.get(2) }.unwrap();
            row[..row.rfind(cell).unwrap() + cell.len()].chars().count()
        };
        let ends: Vec<usize> = rows.iter().map(|r| score_end(r)).collect();
        assert!(ends.iter().all(|e| *e == ends[0]), "{header}\n{}", rows.join("\n"));
    }
}

#[test]
fn a_rollout_plays_the_best_choices_out_and_ranks_them_by_their_games() {
    // A BrainKing rook facing the enemy king, a rook rolled: taking the king wins every game.
    let position = ["--variant", "brainking", "--fen", "4k3/8/8/8/8/8/4R3/K7 w - - 0 1", "--roll", "4", "--depth", "1"];
    let mut args = position.to_vec();
    args.extend(["--rollout", "30", "--rollout-choices", "3", "--seed", "9", "--threads", "2"]);
    let v = advise_json(&args);
    let rollout = &v["rollout"];
    assert_eq!(rollout["games"], 30);
    assert_eq!(rollout["seed"], 9);
    let choices = rollout["choices"].as_array().unwrap();
    assert_eq!(choices.len(), 3);
    assert_eq!(choices[0]["move"], "e2e8");
    assert_eq!(choices[0]["search_rank"], 1);
    assert_eq!(choices[0]["result"], 1.0);
    assert_eq!(choices[0]["wins"], 30);
    assert_eq!(choices[0]["loss"], 0.0);
    for c in &choices[1..] {
        assert!(c["result"].as_f64().unwrap() < 1.0);
        let loss = c["loss"].as_f64().unwrap();
        assert!((loss - (1.0 - c["result"].as_f64().unwrap())).abs() < 1e-9);
        let games: u64 = ["wins", "draws", "losses", "cut"].iter().map(|k| c[k].as_u64().unwrap()).sum();
        assert_eq!(games, 30);
    }
    // The same seed, the same games, on one thread or two.
    let mut again = position.to_vec();
    again.extend(["--rollout", "30", "--rollout-choices", "3", "--seed", "9", "--threads", "1"]);
    assert_eq!(advise_json(&again)["rollout"]["choices"], rollout["choices"]);
    // The luck of the rolls is taken out unless asked not to: then each result is the games'
    // own, in halves of a game.
    assert_eq!(rollout["luck_adjusted"], true);
    let mut raw = position.to_vec();
    raw.extend(["--rollout", "30", "--rollout-choices", "3", "--seed", "9", "--rollout-raw"]);
    let raw = advise_json(&raw);
    assert_eq!(raw["rollout"]["luck_adjusted"], false);
    for c in raw["rollout"]["choices"].as_array().unwrap() {
        let halves = c["result"].as_f64().unwrap() * 60.0;
        assert!((halves - halves.round()).abs() < 1e-9, "{c}");
    }

    // As text: the search's table, then the rollout's.
    let mut text = position.to_vec();
    text.extend(["--rollout", "10", "--rollout-choices", "2", "--rollout-turns", "4"]);
    let (ok, stdout, stderr) = advise(&text);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("rollout: 10 games a choice, both players 1 turn deep, 4 turns, then valued by a search"));
    assert!(stdout.contains("best by rollout: Rxe8 (e2e8)"), "{stdout}");
}

#[test]
fn a_rollout_that_cannot_be_played_is_refused() {
    let refused = |args: &[&str], why: &str| {
        let (ok, stdout, stderr) = advise(args);
        assert!(!ok, "{stdout}");
        assert!(stdout.is_empty(), "{stdout}");
        assert!(stderr.contains(why), "{stderr}");
    };
    refused(&["--rollout", "0", "--depth", "1"], "--rollout takes 1 to 1,000,000 games");
    refused(&["--rollout", "5", "--rollout-depth", "0", "--depth", "1"], "--rollout-depth 1 to 20");
    refused(&["--rollout-depth", "2", "--depth", "1"], "--rollout");
    refused(&["--variant", "diechess", "--rollout", "5", "--depth", "1"], "solved exactly");
}

#[test]
fn searchmoves_ranks_only_the_turns_named() {
    // A free queen, and two rook moves that leave it: only the two named are ranked.
    let fen = ["--fen", "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", "--roll", "4", "--depth", "3"];
    let whole = advise_json(&fen);
    let only = advise_json(&[&fen[..], &["--searchmoves", "d1a1", "d1d4"]].concat());
    let named: Vec<&str> = only["choices"].as_array().unwrap().iter().map(|c| c["move"].as_str().unwrap()).collect();
    assert_eq!(named.len(), 2, "{only}");
    assert!(named.contains(&"d1a1") && named.contains(&"d1d4"), "{named:?}");
    // Each scored as the whole ranking scores it.
    for c in only["choices"].as_array().unwrap() {
        let same = whole["choices"].as_array().unwrap().iter().find(|w| w["move"] == c["move"]).unwrap();
        assert_eq!(c["score"], same["score"], "{}", c["move"]);
    }
    // dicechess3: whole turns of the roll; one the dice do not allow, or none without a roll, refused.
    let three = ["--variant", "dicechess3", "--roll", "1,4,5", "--depth", "1"];
    let v = advise_json(&[&three[..], &["--searchmoves", "e2e4,d1h5", "h2h4,h1h3"]].concat());
    assert_eq!(v["choices"].as_array().unwrap().len(), 2, "{v}");
    let (ok, _, stderr) = advise(&[&three[..], &["--searchmoves", "e2e4"]].concat());
    assert!(!ok && stderr.contains("--searchmoves: e2e4 is not allowed here"), "{stderr}");
    let (ok, _, stderr) = advise(&["--variant", "dicechess3", "--searchmoves", "e2e4,d1h5"]);
    assert!(!ok && stderr.contains("--searchmoves needs --roll"), "{stderr}");
}
