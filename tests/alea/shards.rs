//! A match and a data run split into shards, run by GNU parallel as an executor runs them, and
//! merged: the same games and the same summary as one run on one machine. Merging refuses what is
//! not one match (other settings, a damaged or foreign file) and reports what a kill cut off.

use std::path::Path;
use std::process::{Command, Output};

const ALEA: &str = env!("CARGO_BIN_EXE_alea");
const PLAYERS: [&str; 4] = ["--engine", "builtin=alea depth=1", "--engine", "builtin=greedy"];

fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new().prefix(&format!("alea-shards-{name}-")).tempdir().unwrap()
}

fn alea(args: &[&str]) -> Output {
    Command::new(ALEA).args(args).output().unwrap()
}

fn text(out: &Output) -> (String, String) {
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// `alea ARGS` once per shard 0..4 under GNU parallel, `{}` in ARGS standing for the shard.
fn under_parallel(args: &[String]) {
    let out = Command::new("parallel")
        .args(["--will-cite", "--halt", "now,fail=1", "-q", ALEA])
        .args(args)
        .args([":::", "0", "1", "2", "3"])
        .output()
        .expect("GNU parallel (Debian's `parallel`; .ci/run installs it)");
    assert!(out.status.success(), "{:?}", text(&out));
}

/// A match file's games as text, each without its Date (two runs may straddle midnight), sorted.
/// A match file's games, sorted, each without its Date tag and the seconds each move took (the
/// words of its text, a time `0.051s}` read as `}`): what a run with the same seed repeats.
fn games_of(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let untimed = |w: &str| match w.strip_suffix("s}") {
        Some(t) if t.parse::<f64>().is_ok() => "}".to_string(),
        _ => w.to_string(),
    };
    let mut games: Vec<String> = text
        .split("[Event ")
        .filter(|g| !g.trim().is_empty())
        .map(|g| {
            let kept: Vec<&str> = g.lines().filter(|l| !l.starts_with("[Date ")).collect();
            kept.join(" ").split_whitespace().map(untimed).collect::<Vec<_>>().join(" ")
        })
        .collect();
    games.sort();
    games
}

fn rounds_of(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut rounds: Vec<String> =
        text.lines().filter_map(|l| l.strip_prefix("[Round \"")?.strip_suffix("\"]")).map(String::from).collect();
    rounds.sort();
    rounds
}

fn shard_files(dir: &Path, prefix: &str) -> Vec<String> {
    (0..4).map(|i| dir.join(format!("{prefix}{i}.pgn")).display().to_string()).collect()
}

#[test]
fn four_shards_of_a_match_merge_into_the_unsharded_match() {
    let scratch = scratch("match");
    let dir = scratch.path();
    let settings = ["--pairs", "6", "--seed", "5", "--max-plies", "200", "--sprt", "elo0=0", "elo1=10"];
    let full = dir.join("full.pgn");
    let full_name = full.display().to_string();
    let whole =
        alea(&[&["match"][..], &PLAYERS, &settings, &["--concurrency", "2", "--json", "--pgn", &full_name]].concat());
    assert!(whole.status.success(), "{:?}", text(&whole));
    let expected: serde_json::Value = serde_json::from_str(text(&whole).0.lines().last().unwrap()).unwrap();
    assert_eq!(expected["games"], 12);

    let mut args: Vec<String> = ["match"].iter().chain(&PLAYERS).chain(&settings).map(|s| s.to_string()).collect();
    args.extend(["--shard".into(), "{}/4".into(), "--pgn".into(), dir.join("s{}.pgn").display().to_string()]);
    under_parallel(&args);
    let shards = shard_files(dir, "s");
    let merged =
        alea(&[&["match", "merge", "--json"][..], &shards.iter().map(String::as_str).collect::<Vec<_>>()].concat());
    let (stdout, stderr) = text(&merged);
    assert!(merged.status.success(), "{stderr}");
    let summary: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(summary, expected, "merged summary against the unsharded one");
    let mut sharded: Vec<String> = (0..4).flat_map(|i| games_of(&dir.join(format!("s{i}.pgn")))).collect();
    sharded.sort();
    assert_eq!(sharded, games_of(&full), "the shards play the games of the whole match, dice and all");
    // Each shard played its own pairs: shard 1 of 4 has pairs 2 and 6.
    assert_eq!(rounds_of(&dir.join("s1.pgn")), ["2.1", "2.2", "6.1", "6.2"]);

    // The text summary says the same; a shard given twice counts its games once.
    let twice: Vec<&str> =
        ["match", "merge"].into_iter().chain(shards.iter().map(String::as_str)).chain([shards[0].as_str()]).collect();
    let (stdout, stderr) = text(&alea(&twice));
    assert!(
        stdout.contains(&format!("games 12 (+{} ={} -{})", expected["wins"], expected["draws"], expected["losses"])),
        "{stdout}"
    );
    assert!(stdout.contains("SPRT [0, 10]: LLR"), "{stdout}");
    assert!(stderr.contains("found twice and counted once"), "{stderr}");
}

#[test]
fn merging_refuses_what_is_not_one_match_and_reports_a_cut_off_game() {
    let scratch = scratch("refuse");
    let dir = scratch.path();
    let settings = ["--pairs", "4", "--max-plies", "120"];
    let play = |shard: &str, seed: &str, file: &str| {
        let pgn = dir.join(file).display().to_string();
        let args: Vec<&str> =
            [&["match"][..], &PLAYERS, &settings, &["--seed", seed, "--shard", shard, "--pgn", &pgn]].concat();
        assert!(alea(&args).status.success());
        pgn
    };
    let a = play("0/2", "1", "a.pgn");
    let b = play("1/2", "1", "b.pgn");
    let other = play("1/2", "2", "other.pgn");
    let refused = |files: &[&str], words: &[&str]| {
        let out = alea(&[&["match", "merge"][..], files].concat());
        let (_, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        for w in words {
            assert!(stderr.contains(w), "{w}: {stderr}");
        }
        text(&out).0
    };
    refused(&[&a, &other], &["not of one match", "seed=1", "seed=2"]);
    let foreign = dir.join("notes.txt");
    std::fs::write(&foreign, "these are not games\n").unwrap();
    refused(&[&a, foreign.to_str().unwrap()], &["notes.txt", "not a PGN file"]);
    refused(&[&a, dir.join("missing.pgn").to_str().unwrap()], &["cannot read"]);

    // A kill mid-write: the whole games are summed and shown, the loss named, the exit code 2.
    let whole = std::fs::read_to_string(&b).unwrap();
    let cut = dir.join("cut.pgn");
    std::fs::write(&cut, &whole[..whole.len() - 30]).unwrap();
    let stdout = refused(&[&a, cut.to_str().unwrap()], &["cut.pgn", "game 4.2 is cut off", "--resume"]);
    assert!(stdout.contains("games 7 "), "{stdout}");

    // That shard resumed completes its own share only, and the merge then passes.
    let resume: Vec<&str> = [
        &["match"][..],
        &PLAYERS,
        &settings,
        &["--seed", "1", "--shard", "1/2", "--resume", "--pgn", cut.to_str().unwrap()],
    ]
    .concat();
    assert!(alea(&resume).status.success());
    assert_eq!(rounds_of(&cut), ["2.1", "2.2", "4.1", "4.2"]);
    assert_eq!(games_of(&cut), games_of(Path::new(&b)), "the same games as the shard's first run");
    assert!(alea(&["match", "merge", &a, cut.to_str().unwrap()]).status.success());
}

#[test]
fn the_shard_index_comes_from_the_executor() {
    let scratch = scratch("env");
    let dir = scratch.path();
    for (var, value, rounds) in [
        ("JOB_COMPLETION_INDEX", "2", &["3.1", "3.2"][..]),
        ("SLURM_ARRAY_TASK_ID", "0", &["1.1", "1.2", "4.1", "4.2"]),
    ] {
        let pgn = dir.join(format!("{var}.pgn"));
        let out = Command::new(ALEA)
            .args(["match"])
            .args(PLAYERS)
            .args(["--pairs", "4", "--max-plies", "60", "--shards", "3", "--pgn", pgn.to_str().unwrap()])
            .env_remove("JOB_COMPLETION_INDEX")
            .env_remove("SLURM_ARRAY_TASK_ID")
            .env_remove("SLURM_ARRAY_TASK_MIN")
            .env(var, value)
            .output()
            .unwrap();
        assert!(out.status.success(), "{:?}", text(&out));
        assert_eq!(rounds_of(&pgn), rounds, "{var}={value}");
    }
    // No index from anywhere, or one out of range: refused before any game.
    let out = Command::new(ALEA)
        .args(["match"])
        .args(PLAYERS)
        .args(["--shards", "3"])
        .env_remove("JOB_COMPLETION_INDEX")
        .env_remove("SLURM_ARRAY_TASK_ID")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("JOB_COMPLETION_INDEX"), "{:?}", text(&out));
    let out = Command::new(ALEA).args(["match"]).args(PLAYERS).args(["--shard", "3/3"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// A match's PGN file (for the data merge to refuse).
fn b_pgn(dir: &Path) -> String {
    let pgn = dir.join("b.pgn");
    let args: Vec<&str> =
        [&["match"][..], &PLAYERS, &["--pairs", "1", "--max-plies", "40", "--pgn", pgn.to_str().unwrap()]].concat();
    assert!(alea(&args).status.success());
    pgn.display().to_string()
}

/// A data file's header and its games (summary and positions), in the order of the games.
fn data_lines(path: &Path) -> (String, Vec<String>) {
    let bytes = std::fs::read(path).unwrap();
    let found = alea_tuning::datafile::layout(&bytes).unwrap();
    let mut games: Vec<String> = found
        .games
        .iter()
        .map(|(_, range)| {
            let mut one = alea_tuning::datafile::encode_header(&found.header);
            one.extend(&bytes[range.clone()]);
            let (data, _) = alea_tuning::datafile::decode(&one).unwrap();
            format!("{:?}", (&data.games, data.samples.iter().map(|s| (s.fen(), s.score)).collect::<Vec<_>>()))
        })
        .collect();
    games.sort();
    (found.header, games)
}

#[test]
fn four_shards_of_a_data_run_merge_into_the_unsharded_run() {
    let scratch = scratch("data");
    let dir = scratch.path();
    let settings = ["--games", "8", "--depth", "1", "--seed", "2", "--random-plies", "4", "--max-plies", "120"];
    let full = dir.join("full.data");
    let out =
        alea(&[&["tune", "datagen"][..], &settings, &["--concurrency", "2", "--out", full.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{:?}", text(&out));
    let mut args: Vec<String> = ["tune", "datagen"].iter().chain(&settings).map(|s| s.to_string()).collect();
    args.extend(["--shard".into(), "{}/4".into(), "--out".into(), dir.join("d{}.data").display().to_string()]);
    under_parallel(&args);
    let shards: Vec<String> = (0..4).map(|i| dir.join(format!("d{i}.data")).display().to_string()).collect();
    assert!(data_lines(Path::new(&shards[3])).0.ends_with(" shard=3/4"));
    let merged = dir.join("merged.data");
    let mut merge: Vec<&str> = vec!["tune", "merge", "--out", merged.to_str().unwrap()];
    merge.extend(shards.iter().map(String::as_str));
    let out = alea(&merge);
    assert!(out.status.success(), "{:?}", text(&out));
    let (header, lines) = data_lines(&merged);
    assert_eq!((header, lines), data_lines(&full), "the same header, positions and games");
    assert!(text(&out).1.contains("8 games"), "{:?}", text(&out));
    // A shard's file given twice: its games kept once.
    let again = dir.join("again.data");
    let mut twice: Vec<&str> = vec!["tune", "merge", "--out", again.to_str().unwrap(), &shards[2]];
    twice.extend(shards.iter().map(String::as_str));
    let out = alea(&twice);
    assert!(out.status.success() && text(&out).1.contains("found twice"), "{:?}", text(&out));
    assert_eq!(data_lines(&again), data_lines(&full));

    // Refused: an existing output, files of another run. A cut-off shard: merged, reported, exit 2.
    let out = alea(&merge);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("exists"));
    let other = dir.join("other.data");
    let out = alea(
        &[
            &[
                "tune",
                "datagen",
                "--games",
                "2",
                "--depth",
                "1",
                "--seed",
                "3",
                "--random-plies",
                "4",
                "--max-plies",
                "120",
                "--shard",
                "0/4",
                "--out",
            ][..],
            &[other.to_str().unwrap()],
        ]
        .concat(),
    );
    assert!(out.status.success());
    let out =
        alea(&["tune", "merge", "--out", dir.join("m2.data").to_str().unwrap(), &shards[0], other.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("not of one run") && !dir.join("m2.data").exists(), "{:?}", text(&out));
    let whole = std::fs::read(&shards[1]).unwrap();
    let cut = dir.join("cut.data");
    std::fs::write(&cut, &whole[..whole.len() - 20]).unwrap();
    let m3 = dir.join("m3.data");
    let out = alea(&["tune", "merge", "--out", m3.to_str().unwrap(), &shards[0], cut.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("cut.data: a game cut off"), "{:?}", text(&out));
    assert_eq!(data_lines(&m3).1.len(), 3, "games 0 and 4, and 1 of shard 1's 1 and 5");
    let out = alea(&["tune", "merge", "--out", dir.join("m4.data").to_str().unwrap(), &b_pgn(dir)]);
    assert_eq!(out.status.code(), Some(2), "a match's PGN is no data file");
    assert!(text(&out).1.contains("not an alea datagen file"), "{:?}", text(&out));
}

/// The cluster examples of docs/cluster, checked as far as one machine allows: the Slurm script
/// run as one task of its array, the GNU parallel script run with this machine as its only host,
/// and the Kubernetes manifests validated against the Kubernetes schema (kubernetes-validate from
/// PyPI; .ci/run installs it).
#[test]
fn the_cluster_examples_run_here() {
    let scratch = scratch("cluster");
    let dir = scratch.path();
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/cluster");
    let small = [
        ("ALEA", ALEA),
        ("NEW", "builtin=alea depth=1"),
        ("BASE", "builtin=greedy"),
        ("PAIRS", "4"),
        ("SHARDS", "2"),
        ("MOVETIME", "10"),
    ];
    let slurm = Command::new("bash")
        .arg(docs.join("sprt-array.slurm"))
        .envs(small)
        .env("RESULTS", dir.join("slurm"))
        .env("SLURM_ARRAY_TASK_ID", "1")
        .env("SLURM_CPUS_PER_TASK", "1")
        .env_remove("JOB_COMPLETION_INDEX")
        .env_remove("SLURM_ARRAY_TASK_MIN")
        .output()
        .unwrap();
    assert!(slurm.status.success(), "{:?}", text(&slurm));
    assert_eq!(rounds_of(&dir.join("slurm/shard-1.pgn")), ["2.1", "2.2", "4.1", "4.2"]);

    let hosts = dir.join("hosts.txt");
    std::fs::write(&hosts, ":\n").unwrap();
    let ssh = Command::new("bash")
        .arg(docs.join("parallel-ssh.sh"))
        .arg(&hosts)
        .envs(small)
        .env("RESULTS", dir.join("ssh"))
        .output()
        .unwrap();
    let (stdout, stderr) = text(&ssh);
    assert!(ssh.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("alea vs greedy: games 8"), "{stdout}");
    assert!(stdout.contains("SPRT [0, 5]: LLR"), "{stdout}");

    let manifests = [docs.join("sprt-job.yaml"), docs.join("sprt-merge-job.yaml")];
    let validate = Command::new("python3")
        .args(["-m", "kubernetes_validate", "--strict"])
        .args(&manifests)
        .output()
        .expect("kubernetes-validate (pip install kubernetes-validate; .ci/run installs it)");
    assert!(validate.status.success(), "{:?}", text(&validate));
}
