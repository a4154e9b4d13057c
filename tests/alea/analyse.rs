//! `alea analyse` through the binary: the engine's own moves lose nothing at the same depth; the
//! annotated PGN reads back; bad records are refused.

use alea_engine::search::timeman::Limits;
use alea_engine::search::{Choice, SearchOptions, Shared};
use alea_engine::services::handle::{GameHandle, RollSpec, SearchRoot};
use alea_engine::services::pgn::{GameRecord, RecordedTurn};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// A game the engine plays against itself at `depth` (fresh table, one thread), with seeded dice.
fn engine_game(variant: &str, depth: u32, plies: usize) -> GameRecord {
    let mut game = GameHandle::of(variant.parse().unwrap(), false).unwrap();
    let mut record = GameRecord::new(variant.parse().unwrap(), false, None);
    let mut rng = StdRng::seed_from_u64(99);
    let limits = Limits { depth: Some(depth), ..Default::default() };
    let options = SearchOptions { threads: 1, ..SearchOptions::default() };
    let search = |game: &GameHandle, root: SearchRoot| {
        game.search(&root, limits.clone(), options.clone(), &Shared::new(16), &mut |_| {}).unwrap()
    };
    for _ in 0..plies {
        if game.end().is_some() {
            break;
        }
        let (turn, roll) = match search(&game, SearchRoot::Decision).best {
            Choice::Turn(t) => (t, None),
            Choice::Roll => {
                let roll = game.roll_for(rng.random_range(0..game.total_weight())).unwrap();
                let Choice::Turn(t) = search(&game, SearchRoot::Rolled(RollSpec::Faces(roll.faces().to_vec()))).best
                else {
                    unreachable!()
                };
                (t, Some(roll))
            }
        };
        game.play_checked(&turn, roll.as_ref()).unwrap();
        record.turns.push(RecordedTurn { turn, roll, comment: None });
    }
    record
}

fn analyse(args: &[&str]) -> (bool, String, String) {
    let out = crate::common::alea().arg("analyse").args(args).output().unwrap();
    (out.status.success(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn the_engines_own_moves_lose_nothing_at_the_same_depth() {
    let scratch = tempfile::Builder::new().prefix("alea-analyse-").tempdir().unwrap();
    let dir = scratch.path();
    for (variant, depth) in [("freedom", "2"), ("classic", "2"), ("dicechess3", "1")] {
        let record = engine_game(variant, depth.parse().unwrap(), 16);
        let path = dir.join(format!("{variant}.pgn"));
        let out = dir.join(format!("{variant}-annotated.pgn"));
        std::fs::write(&path, record.to_pgn()).unwrap();
        let (ok, stdout, stderr) = analyse(&[path.to_str().unwrap(), "--depth", depth, "--out", out.to_str().unwrap()]);
        assert!(ok, "{stderr}");
        assert_eq!(stdout.matches(" moves, average loss 0.0,").count(), 2, "{variant}: {stdout}");
        // Judged one move at a time or three at once, the same rows in the same order.
        for threads in ["1", "3"] {
            let (ok, alone, stderr) = analyse(&[path.to_str().unwrap(), "--depth", depth, "--threads", threads]);
            assert!(ok, "{stderr}");
            assert_eq!(alone, stdout, "{variant}, --threads {threads}");
        }
        let (ok, _, stderr) = analyse(&[path.to_str().unwrap(), "--threads", "0"]);
        assert!(!ok && stderr.contains("--threads takes 1 to 256"), "{stderr}");
        // The annotated game reads back with the same moves, each with its note.
        let annotated = GameRecord::from_pgn(&std::fs::read_to_string(&out).unwrap()).unwrap();
        assert_eq!(
            annotated.turns.iter().map(|t| &t.turn).collect::<Vec<_>>(),
            record.turns.iter().map(|t| &t.turn).collect::<Vec<_>>()
        );
        assert!(annotated.turns.iter().all(|t| t.comment.as_deref().is_some_and(|c| c.starts_with("best "))));
    }
}

#[test]
fn a_mistake_has_a_loss_and_rolls_have_luck() {
    let scratch = tempfile::Builder::new().prefix("alea-analyse-m-").tempdir().unwrap();
    let dir = scratch.path();
    let path = dir.join("m.pgn");
    // 2...Qd8?? leaves the queen's recapture of d5 undone, a pawn down for nothing.
    std::fs::write(
        &path,
        "[Variant \"freedom\"]\n\n1. e4 {[%roll 1]} d5 {[%roll 1]} 2. exd5 {[%roll 1]} Nf6 {[%roll 2]} *\n",
    )
    .unwrap();
    // Three turns deep: at two, Freedom's network still rates rolling above the recapture.
    let (ok, stdout, _) = analyse(&[path.to_str().unwrap(), "--depth", "3"]);
    assert!(ok);
    assert!(stdout.contains("black: 2 moves"), "{stdout}");
    assert!(stdout.contains("total luck"));
    // Black rolled where Qxd5 was offered without rolling: the decision is shown and judged.
    assert!(stdout.contains("rolling lost ") && stdout.contains("Qxd5 without rolling was better"), "{stdout}");
    assert!(stdout.contains("rolled 1 time(s) where a move without rolling was offered: 1 wrong"), "{stdout}");
    // The summary names the recapture as what was best (after the roll's own best, if another).
    let summary = stdout.lines().find(|l| l.contains("move 2...: Nf6 (2) lost")).expect("Black's worst turn");
    assert!(summary.contains("Qxd5 without rolling"), "{stdout}");
}

#[test]
fn bad_records_are_refused() {
    let scratch = tempfile::Builder::new().prefix("alea-analyse-b-").tempdir().unwrap();
    let dir = scratch.path();
    let bad = dir.join("bad.pgn");
    std::fs::write(&bad, "[Variant \"freedom\"]\n\n1. e4 {[%roll 1]} e5 *\n").unwrap();
    let (ok, stdout, stderr) = analyse(&[bad.to_str().unwrap(), "--depth", "1"]);
    assert!(!ok && stdout.is_empty());
    assert!(stderr.contains("ply 2 (e5): no [%roll]"), "{stderr}");
    let (ok, _, stderr) = analyse(&[dir.join("missing.pgn").to_str().unwrap()]);
    assert!(!ok && stderr.contains("cannot read"), "{stderr}");
}

/// The multi-game PGN `alea match` writes: every game analysed with its own summary and one over
/// all (by player, whatever colour), or one game with `--game N`; an N past the end is refused.
#[test]
fn every_game_of_a_match_file() {
    let scratch = tempfile::Builder::new().prefix("alea-analyse-many-").tempdir().unwrap();
    let dir = scratch.path();
    let pgn = dir.join("match.pgn");
    let _ = std::fs::remove_file(&pgn);
    let out = crate::common::alea()
        .args(["match", "--engine", "builtin=alea depth=1", "--engine", "builtin=random", "--pairs", "1"])
        .args(["--max-plies", "12", "--pgn", pgn.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let path = pgn.to_str().unwrap();
    let annotated = dir.join("annotated.pgn");
    let (ok, stdout, stderr) = analyse(&[path, "--depth", "1", "--out", annotated.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("Game 1: alea vs random") && stdout.contains("Game 2: random vs alea"), "{stdout}");
    assert!(
        stdout.contains("All 2 games:") && stdout.contains("\nalea: ") && stdout.contains("\nrandom: "),
        "{stdout}"
    );
    let back = std::fs::read_to_string(&annotated).unwrap();
    assert_eq!(GameRecord::all_from_pgn(&back).unwrap().len(), 2);
    let (ok, stdout, _) = analyse(&[path, "--depth", "1", "--game", "2"]);
    assert!(ok && stdout.contains("Game 2: random vs alea") && !stdout.contains("Game 1"), "{stdout}");
    let (ok, _, stderr) = analyse(&[path, "--game", "3"]);
    assert!(!ok && stderr.contains("--game 3: the file has 2 game(s)"), "{stderr}");
}
