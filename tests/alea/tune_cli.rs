//! `alea tune` through the binary: datagen killed with SIGKILL mid-run resumes without losing or
//! duplicating games; fit writes parameters the engine loads; report writes Markdown and plots;
//! bad input is refused.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn alea() -> Command {
    crate::common::alea()
}

fn temp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(&format!("alea-tune-{name}-")).tempdir().unwrap()
}

/// A one-pair match at depth 1 in `variant` of Alea with the evaluation `eval` (tables or a
/// network) against `random`: the engine plays with what `tune` wrote.
fn plays_with(eval: &std::path::Path, variant: &str) {
    let played = alea()
        .args(["match", "--engine"])
        .arg(format!("builtin=alea eval={}", eval.display()))
        .args(["--engine", "builtin=random", "--pairs", "1", "--depth", "1", "--variant", variant, "--json"])
        .output()
        .unwrap();
    assert!(played.status.success(), "{}", String::from_utf8_lossy(&played.stderr));
}

/// `alea tune nnue` on `data` for `epochs` (the plumbing; the library tests check the
/// gradient), written to `net`; its output, which must be a success.
fn train_network(data: &std::path::Path, net: &std::path::Path, epochs: &str, batch: &str) -> std::process::Output {
    let out = alea()
        .args(["tune", "nnue", "--epochs", epochs, "--batch", batch, "--validation", "5", "--data"])
        .arg(data)
        .arg("--out")
        .arg(net)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    out
}

/// The games whole in a data file (none while it has no header yet).
fn game_indices(path: &std::path::Path) -> Vec<u64> {
    let bytes = std::fs::read(path).unwrap_or_default();
    let Ok(found) = alea_tuning::datafile::layout(&bytes) else { return Vec::new() };
    let mut v: Vec<u64> = found.games.iter().map(|(index, _)| *index).collect();
    v.sort_unstable();
    v
}

#[test]
fn datagen_killed_mid_run_resumes_and_fit_and_report_use_its_data() {
    let scratch = temp_dir("kill");
    let dir = scratch.path();
    let data = dir.join("classic.data");
    let args = |resume: bool| {
        let mut a = vec![
            "tune",
            "datagen",
            "--variant",
            "classic",
            "--games",
            "40",
            "--depth",
            "1",
            "--random-plies",
            "4",
            "--max-plies",
            "200",
            "--out",
        ]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>();
        a.push(data.display().to_string());
        if resume {
            a.push("--resume".into());
        }
        a
    };
    let mut child = alea().args(args(false)).stderr(Stdio::null()).spawn().unwrap();
    let start = Instant::now();
    loop {
        if game_indices(&data).len() >= 5 {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "datagen made no games");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL: no chance to tidy up
    child.wait().unwrap();
    let before = game_indices(&data);
    assert!(before.len() < 40, "killed before the end ({} games)", before.len());
    // Without --resume the file is not touched.
    let refused = alea().args(args(false)).output().unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--resume"));
    let resumed = alea().args(args(true)).output().unwrap();
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    assert_eq!(game_indices(&data), (0..40).collect::<Vec<_>>(), "every game once");
    // Standard error is a pipe here: a line per finished game (40 is less than a hundred), the
    // first for the games kept from the killed run.
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    let progress: Vec<&str> = stderr.lines().filter(|l| l.starts_with("games ")).collect();
    assert_eq!(progress.first().unwrap().split(' ').nth(1), Some(format!("{}/40", before.len()).as_str()), "{stderr}");
    assert_eq!(progress.len(), 40 - before.len() + 1, "{stderr}");
    assert!(progress.last().unwrap().starts_with("games 40/40 done"), "{stderr}");
    for g in &before {
        assert!(game_indices(&data).contains(g));
    }

    // Fit the material to it (few epochs: this checks the plumbing, the library tests check the fit).
    let fitted = dir.join("classic.eval");
    let out =
        alea().args(["tune", "fit", "--epochs", "20", "--data"]).arg(&data).arg("--out").arg(&fitted).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("scale K") && table.contains("Q            900"), "{table}");
    let params = std::fs::read_to_string(&fitted).unwrap();
    assert!(params.contains("material mg P") && params.contains("psqt eg K"));
    assert!(std::fs::read_to_string(dir.join("classic.eval.csv")).unwrap().lines().count() == 22);
    plays_with(&fitted, "classic");

    // A network trained on it, its losses written, and the engine playing with it.
    let net = dir.join("classic.nnue");
    let out = train_network(&data, &net, "2", "256");
    assert!(String::from_utf8_lossy(&out.stdout).contains("validation"), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(alea_engine::eval::nnue::Network::read(&net).unwrap().variant == "classic");
    let csv = std::fs::read_to_string(dir.join("classic.nnue.csv")).unwrap();
    assert_eq!(csv.lines().count(), 4, "a header, the start, two epochs: {csv}");
    assert!(std::fs::read_to_string(dir.join("classic.nnue.svg")).unwrap().starts_with("<svg"));
    plays_with(&net, "classic");

    let report_dir = dir.join("report");
    let out = alea()
        .args(["tune", "report", "--out"])
        .arg(&report_dir)
        .arg("--input")
        .arg(format!("classic={}:{}", data.display(), fitted.display()))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let md = std::fs::read_to_string(report_dir.join("report.md")).unwrap();
    assert!(md.contains("| classic | 40 |"), "{md}");
    assert!(md.contains("fitted, middlegame") && md.contains("fitted, average"));
    for svg in ["values.svg", "convergence.svg"] {
        let text = std::fs::read_to_string(report_dir.join(svg)).unwrap();
        assert!(text.starts_with("<svg") && text.contains("<text"), "{svg}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// A variant of several moves a turn trains a network as one of one move does, and plays with
/// it; training goes on from that network (`--start-from`), and bad starts are refused.
#[test]
fn a_network_is_trained_for_dicechess3_and_plays_it() {
    let scratch = temp_dir("d3net");
    let dir = scratch.path();
    let data = dir.join("d3.data");
    let out = alea()
        .args(["tune", "datagen", "--variant", "dicechess3", "--games", "6", "--depth", "1", "--random-plies", "2"])
        .arg("--out")
        .arg(&data)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let net = dir.join("d3.nnue");
    train_network(&data, &net, "1", "64");
    assert_eq!(alea_engine::eval::nnue::Network::read(&net).unwrap().variant, "dicechess3");
    plays_with(&net, "dicechess3");

    // Training on from it, gaining the dice-aware inputs: epoch 0 is that network.
    let go_on = |start: &std::path::Path, mobility: bool, out: &std::path::Path| {
        let mut cmd = alea();
        cmd.args(["tune", "nnue", "--epochs", "1", "--batch", "64", "--validation", "5", "--data"]).arg(&data);
        cmd.arg("--start-from").arg(start).arg("--out").arg(out);
        if mobility {
            cmd.arg("--mobility");
        }
        cmd.output().unwrap()
    };
    // It starts from a network with a result scale fitted to its games, and keeps that scale.
    let scaled = dir.join("d3-scaled.nnue");
    let out = alea()
        .args(["tune", "scale", "--data"])
        .arg(&data)
        .arg("--net")
        .arg(&net)
        .arg("--out")
        .arg(&scaled)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let k = alea_engine::eval::nnue::Network::read(&scaled).unwrap().result_scale.expect("a fitted scale");
    let more = dir.join("d3-more.nnue");
    let out = go_on(&scaled, true, &more);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("epoch 0 is the network it started from"), "{stdout}");
    assert!(stdout.contains("the starting network on the same held-out positions"), "{stdout}");
    assert!(stdout.contains(&format!("result scale K {k:.4}, the starting network's")), "{stdout}");
    let trained_on = alea_engine::eval::nnue::Network::read(&more).unwrap();
    assert!(trained_on.mobility_weights.is_some() && trained_on.result_scale == Some(k));
    plays_with(&more, "dicechess3");
    // Refused, nothing written: dice-aware inputs the run would drop, and another variant's network.
    let refused = dir.join("refused.nnue");
    let out = go_on(&more, false, &refused);
    assert!(!out.status.success() && String::from_utf8_lossy(&out.stderr).contains("add --mobility"));
    let freedom = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("engine/data/freedom.nnue");
    let out = go_on(&freedom, false, &refused);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("a network for freedom, the data is dicechess3's"), "{stderr}");
    assert!(!refused.exists());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn tune_refuses_bad_input() {
    let scratch = temp_dir("bad");
    let dir = scratch.path();
    let corrupt = dir.join("corrupt.data");
    std::fs::write(&corrupt, "# alea datagen variant=freedom depth=1\nnot a fen | 1-0\n").unwrap();
    let out =
        alea().args(["tune", "fit", "--out"]).arg(dir.join("x.eval")).arg("--data").arg(&corrupt).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 2"));
    assert!(!dir.join("x.eval").exists(), "nothing written on error");
    // A big board's data is fitted by its own weights (a file EvalFile reads), and a network,
    // which reads 8x8 boards, is refused for it.
    let bk10 = dir.join("bk10.data");
    let out = alea()
        .args(["tune", "datagen", "--variant", "brainking10", "--games", "2", "--depth", "1", "--max-plies", "60"])
        .arg("--out")
        .arg(&bk10)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let weights = dir.join("bk10.eval");
    let out =
        alea().args(["tune", "fit", "--epochs", "5", "--out"]).arg(&weights).arg("--data").arg(&bk10).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("pawn step 4 ->"));
    let fitted = alea_engine::eval::params::EvalParams::read(&weights).unwrap();
    assert!(fitted.flat_tables() && fitted.material[0] == fitted.material[1]);
    let out =
        alea().args(["tune", "nnue", "--out"]).arg(dir.join("bk10.nnue")).arg("--data").arg(&bk10).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("8x8"), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!dir.join("bk10.nnue").exists());
    // A binary file with a damaged game before a whole one.
    let made = dir.join("made.data");
    let out = alea()
        .args(["tune", "datagen", "--games", "2", "--depth", "1", "--max-plies", "40", "--out"])
        .arg(&made)
        .output()
        .unwrap();
    assert!(out.status.success());
    let mut bytes = std::fs::read(&made).unwrap();
    let first = alea_tuning::datafile::layout(&bytes).unwrap().games[0].1.clone();
    bytes[first.start + 30] ^= 0x40;
    std::fs::write(&corrupt, &bytes).unwrap();
    let out =
        alea().args(["tune", "fit", "--out"]).arg(dir.join("x.eval")).arg("--data").arg(&corrupt).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("checksum"), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!dir.join("x.eval").exists(), "nothing written on error");
    let out = alea()
        .args(["tune", "datagen", "--variant", "chess", "--games", "1", "--out"])
        .arg(dir.join("d"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown variant"));
    let bad_eval = dir.join("bad.eval");
    std::fs::write(&bad_eval, "material mg P 1\n").unwrap();
    let out = alea()
        .args(["match", "--engine"])
        .arg(format!("builtin=alea eval={}", bad_eval.display()))
        .args(["--engine", "builtin=random", "--pairs", "1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    std::fs::remove_dir_all(dir).unwrap();
}

/// `alea tune scale` fits a network's result scale to a data file's positions or to a player's
/// reported scores in match games, writes the network with it (the engine plays with it), and
/// refuses what it cannot fit without writing anything.
#[test]
fn a_network_s_result_scale_is_fitted_to_data_or_to_match_games() {
    let scratch = temp_dir("scale");
    let dir = scratch.path();
    let net = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("engine/data/freedom.nnue");
    let data = dir.join("f.data");
    let out = alea()
        .args(["tune", "datagen", "--games", "4", "--depth", "1", "--max-plies", "80", "--out"])
        .arg(&data)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let scaled = dir.join("scaled.nnue");
    let out = alea()
        .args(["tune", "scale", "--data"])
        .arg(&data)
        .arg("--net")
        .arg(&net)
        .arg("--out")
        .arg(&scaled)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = String::from_utf8_lossy(&out.stdout);
    let k = alea_engine::eval::nnue::Network::read(&scaled).unwrap().result_scale.expect("a fitted scale");
    assert!(said.contains(&format!("result scale K {k:.4} fitted on")) && said.contains("positions"), "{said}");
    assert!(k > 0.0 && k <= 10.0, "{k}");
    plays_with(&scaled, "freedom");

    let games = dir.join("games.pgn");
    let out = alea()
        .args(["match", "--engine", "builtin=alea name=a", "--engine", "builtin=random name=r", "--pairs", "2"])
        .args(["--depth", "1", "--max-plies", "60", "--pgn"])
        .arg(&games)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let from_games = dir.join("from-games.nnue");
    let out = alea()
        .args(["tune", "scale", "--player", "a", "--pgn"])
        .arg(&games)
        .arg("--net")
        .arg(&net)
        .arg("--out")
        .arg(&from_games)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("scores a reported"));
    assert!(alea_engine::eval::nnue::Network::read(&from_games).unwrap().result_scale.is_some());

    // A player not in the games, a network of another variant, and --pgn without --player.
    let refused = dir.join("refused.nnue");
    let classic = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("engine/data/classic.nnue");
    for (args, net, says) in [
        (vec!["--player", "x", "--pgn", games.to_str().unwrap()], &net, "no finished game of 'x'"),
        (vec!["--player", "a", "--pgn", games.to_str().unwrap()], &classic, "the network is for classic"),
        (vec!["--data", data.to_str().unwrap()], &classic, "the network is for classic"),
        (vec!["--pgn", games.to_str().unwrap()], &net, "--player"),
    ] {
        let out = alea()
            .args(["tune", "scale"])
            .args(&args)
            .arg("--net")
            .arg(net)
            .arg("--out")
            .arg(&refused)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(says),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!refused.exists(), "{args:?}: nothing written");
    }
}
