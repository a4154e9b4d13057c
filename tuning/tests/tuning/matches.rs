//! Matches: Alea beats random; the two games of a pair share their dice; engines that crash, hang
//! or play an illegal move lose and the match goes on; a resumed match loses and replays nothing.

use alea_engine::rules::ChessKind;
use alea_tuning::match_runner::{MatchConfig, Openings, run_match};
use alea_tuning::players::{AleaPlayer, EngineProcess, MoveLimit, Player, PreRoll, Proto, RandomPlayer};
use alea_tuning::referee::play_game;

fn config(kind: ChessKind, pairs: u64) -> MatchConfig {
    MatchConfig {
        variant: kind.name().parse().unwrap(),
        chess960: false,
        pairs,
        seed: 17,
        max_plies: 600,
        openings: Openings::StartPos,
        pgn: None,
        sprt: None,
        tc: None,
        shard: alea_tuning::shard::Shard::WHOLE,
        players: "test players".into(),
    }
}

#[test]
fn alea_at_depth_2_beats_random_in_95_of_100_games_in_each_variant() {
    for kind in [ChessKind::Freedom, ChessKind::Classic, ChessKind::BrainKing] {
        let alea = || Box::new(AleaPlayer::new(MoveLimit::Depth(2))) as Box<dyn Player + Send>;
        let random = || Box::new(RandomPlayer { state: 3 }) as Box<dyn Player + Send>;
        let report = run_match(&alea, &random, &config(kind, 50), 2, &mut |_| {}).unwrap();
        assert_eq!(report.games(), 100);
        assert!(report.wins >= 95, "{}: {}", kind.name(), report.summary());
    }
}

#[test]
fn the_games_of_a_pair_share_their_dice() {
    let (mut a, mut b) = (RandomPlayer { state: 1 }, RandomPlayer { state: 2 });
    let first =
        play_game(&mut a, &mut b, alea_engine::services::registry::Variant::Classic, false, None, 5, 3, 80, None, None);
    let second =
        play_game(&mut b, &mut a, alea_engine::services::registry::Variant::Classic, false, None, 5, 3, 80, None, None);
    let plies = first.record.turns.len().min(second.record.turns.len());
    assert!(plies > 20);
    let mut same = 0;
    for k in 0..plies {
        if let (Some(x), Some(y)) = (first.record.turns[k].roll, second.record.turns[k].roll) {
            assert_eq!(x, y, "ply {k}");
            same += 1;
        }
    }
    assert!(same > 20);
    // Another pair rolls differently.
    let other =
        play_game(&mut a, &mut b, alea_engine::services::registry::Variant::Classic, false, None, 5, 4, 80, None, None);
    let differ = (0..plies.min(other.record.turns.len()))
        .filter(|&k| other.record.turns[k].roll != first.record.turns[k].roll)
        .count();
    assert!(differ > 5);
}

fn fake_engine(dir: &std::path::Path, name: &str, go_answer: &str) -> EngineProcess {
    let script = dir.join(format!("{name}.sh"));
    std::fs::write(
        &script,
        format!(
            "#!/bin/bash\nwhile read line; do\n  case \"$line\" in\n    uci) echo uciok;;\n    isready) echo readyok;;\n    go*) {go_answer};;\n    quit) exit 0;;\n  esac\ndone\n"
        ),
    )
    .unwrap();
    let mut engine = EngineProcess::new(name.into(), "bash".into(), Proto::Alea, MoveLimit::Movetime(20), Vec::new());
    engine.args = vec![script.to_str().unwrap().to_string()];
    engine
}

#[test]
fn engines_that_crash_hang_or_cheat_lose_and_the_match_goes_on() {
    let scratch = tempfile::Builder::new().prefix("alea-fakes-").tempdir().unwrap();
    let dir = scratch.path();
    for (name, answer) in [("crasher", "exit 1"), ("hanger", "sleep 600"), ("cheater", "echo bestmove a1a8")] {
        let fake = || Box::new(fake_engine(dir, name, answer)) as Box<dyn Player + Send>;
        let random = || Box::new(RandomPlayer { state: 9 }) as Box<dyn Player + Send>;
        let report = run_match(&random, &fake, &config(ChessKind::Freedom, 2), 2, &mut |_| {}).unwrap();
        assert_eq!(report.games(), 4, "{name}");
        assert_eq!(report.wins, 4, "{name}: {}", report.summary());
        assert_eq!(report.failures.len(), 4, "{name}: {:?}", report.failures);
    }
}

#[test]
fn a_resumed_match_loses_and_replays_nothing() {
    let scratch = tempfile::Builder::new().prefix("alea-resume-").tempdir().unwrap();
    let dir = scratch.path();
    let pgn = dir.join("match.pgn");
    let _ = std::fs::remove_file(&pgn);
    let mut cfg = config(ChessKind::Freedom, 2);
    cfg.pgn = Some(pgn.clone());
    let a = || Box::new(AleaPlayer::new(MoveLimit::Depth(1))) as Box<dyn Player + Send>;
    let b = || Box::new(RandomPlayer { state: 4 }) as Box<dyn Player + Send>;
    let first = run_match(&a, &b, &cfg, 1, &mut |_| {}).unwrap();
    // A kill in the middle of writing a game leaves a piece of one: it is cut from the file and
    // the game played again.
    let mut text = std::fs::read_to_string(&pgn).unwrap();
    text.push_str("[Event \"alea match\"]\n[Round \"3.1\"]\n\n1. e4 {[%roll");
    std::fs::write(&pgn, &text).unwrap();
    cfg.pairs = 4;
    let resumed = run_match(&a, &b, &cfg, 2, &mut |_| {}).unwrap();
    assert_eq!(resumed.games(), 8);
    assert!(resumed.wins >= first.wins);
    // Every round once in the file, whole.
    let text = std::fs::read_to_string(&pgn).unwrap();
    for round in ["1.1", "1.2", "2.1", "2.2", "3.1", "3.2", "4.1", "4.2"] {
        assert_eq!(text.matches(&format!("[Round \"{round}\"]")).count(), 1, "round {round}");
    }
    let file = alea_tuning::match_file::read_match_file(&text).unwrap();
    assert_eq!((file.games.len(), file.cut_off), (8, None));
    // The file's games were played with other dice than a resume with another seed would use.
    let refused = run_match(&a, &b, &MatchConfig { seed: 18, ..cfg.clone() }, 1, &mut |_| {}).unwrap_err();
    assert!(refused.contains("other settings") && refused.contains("seed=17"), "{refused}");
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), text, "a refused resume changes nothing");
    // The same seed and settings give the same games, however many threads play them.
    let again = run_match(&a, &b, &MatchConfig { pgn: None, ..cfg.clone() }, 3, &mut |_| {}).unwrap();
    assert_eq!(again.penta, resumed.penta);
}

#[test]
fn plain_uci_engines_get_their_limit_before_searchmoves() {
    // A UCI engine reads every word after `searchmoves` as a move; this one answers with the last
    // word of its go line, which must therefore be an allowed move.
    let scratch = tempfile::Builder::new().prefix("alea-uci-").tempdir().unwrap();
    let dir = scratch.path();
    let script = dir.join("last-word.sh");
    std::fs::write(
        &script,
        "#!/bin/bash\nwhile read -a w; do\n  case \"${w[0]}\" in\n    uci) echo uciok;;\n    isready) echo readyok;;\n    go) echo \"bestmove ${w[-1]}\";;\n    quit) exit 0;;\n  esac\ndone\n",
    )
    .unwrap();
    let engine = || {
        let mut e = EngineProcess::new(
            "last-word".into(),
            "bash".into(),
            Proto::Uci(PreRoll::AlwaysRoll),
            MoveLimit::Movetime(20),
            Vec::new(),
        );
        e.args = vec![script.to_str().unwrap().to_string()];
        Box::new(e) as Box<dyn Player + Send>
    };
    let random = || Box::new(RandomPlayer { state: 5 }) as Box<dyn Player + Send>;
    let report = run_match(&random, &engine, &config(ChessKind::Freedom, 1), 1, &mut |_| {}).unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failures);
}

#[test]
fn clocks_are_kept_and_a_slow_engine_loses_on_time() {
    use alea_tuning::referee::TimeControl;
    // Alea keeps to a one-second clock.
    let alea = || Box::new(AleaPlayer::new(MoveLimit::Depth(1))) as Box<dyn Player + Send>;
    let random = || Box::new(RandomPlayer { state: 8 }) as Box<dyn Player + Send>;
    let mut cfg = config(ChessKind::Freedom, 1);
    cfg.tc = Some(TimeControl { base: 1000, increment: 20 });
    let report = run_match(&alea, &random, &cfg, 1, &mut |_| {}).unwrap();
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    assert_eq!(report.wins, 2);
    // An engine that takes half a second a move on a 0.3 s clock loses on time.
    let scratch = tempfile::Builder::new().prefix("alea-slow-").tempdir().unwrap();
    let dir = scratch.path();
    let script = dir.join("slow.sh");
    std::fs::write(
        &script,
        "#!/bin/bash\nwhile read -a w; do\n  case \"${w[0]}\" in\n    uci) echo uciok;;\n    isready) echo readyok;;\n    go) sleep 0.5; echo \"bestmove ${w[-1]}\";;\n    quit) exit 0;;\n  esac\ndone\n",
    )
    .unwrap();
    let slow = || {
        let mut e = EngineProcess::new(
            "slow".into(),
            "bash".into(),
            Proto::Uci(PreRoll::AlwaysRoll),
            MoveLimit::Movetime(20),
            Vec::new(),
        );
        e.args = vec![script.to_str().unwrap().to_string()];
        Box::new(e) as Box<dyn Player + Send>
    };
    cfg.tc = Some(TimeControl { base: 300, increment: 0 });
    let report = run_match(&random, &slow, &cfg, 1, &mut |_| {}).unwrap();
    assert_eq!(report.wins, 2, "{}", report.summary());
    assert!(report.failures.iter().all(|f| f.contains("lost on time")), "{:?}", report.failures);
}

/// dicechess3 through the same runner: whole turns from the game handle, the paired dice of three
/// faces, the baselines. Alea at depth 1 beats random, and so does expectimax2.
#[test]
fn dicechess3_matches_against_random() {
    use alea_tuning::players::{BaselinePlayer, MoveLimit};
    let dicechess3 = MatchConfig {
        variant: alea_engine::services::registry::Variant::DiceChess3,
        max_plies: 400,
        ..config(ChessKind::Freedom, 5)
    };
    let alea = || Box::new(AleaPlayer::new(MoveLimit::Depth(1))) as Box<dyn Player + Send>;
    let random = || Box::new(RandomPlayer { state: 3 }) as Box<dyn Player + Send>;
    let report = run_match(&alea, &random, &dicechess3, 2, &mut |_| {}).unwrap();
    assert_eq!(report.games(), 10);
    assert!(report.wins >= 9, "{}", report.summary());
    assert!(report.failures.is_empty(), "{:?}", report.failures);
    let baseline = || {
        Box::new(BaselinePlayer::new(alea_engine::services::search::Baseline::Expectimax2, MoveLimit::Depth(1)))
            as Box<dyn Player + Send>
    };
    let report = run_match(&baseline, &random, &MatchConfig { pairs: 2, ..dicechess3 }, 2, &mut |_| {}).unwrap();
    assert!(report.wins >= 3, "{}", report.summary());
    assert!(report.failures.is_empty(), "{:?}", report.failures);
}

/// A plain UCI engine with `PreRoll::OwnBest` (Freedom-aware) searches the position with no
/// restriction before the roll and plays its best move without rolling when Freedom allows it,
/// and rolls when it does not; with `PreRoll::AlwaysRoll` it rolls without being asked.
#[test]
fn a_freedom_aware_uci_engine_plays_its_best_move_when_freedom_allows_it() {
    use alea_engine::services::handle::GameHandle;
    let scratch = tempfile::Builder::new().prefix("alea-preroll-").tempdir().unwrap();
    let dir = scratch.path();
    let engine = |best: &str, pre_roll: PreRoll| {
        let script = dir.join(format!("best-{best}.sh"));
        let log = dir.join(format!("best-{best}-{pre_roll:?}.log"));
        let _ = std::fs::remove_file(&log);
        std::fs::write(
            &script,
            format!(
                "#!/bin/bash\nwhile read -a w; do\n  echo \"${{w[*]}}\" >> \"$1\"\n  case \"${{w[0]}}\" in\n    uci) echo uciok;;\n    isready) echo readyok;;\n    go) echo bestmove {best};;\n    quit) exit 0;;\n  esac\ndone\n"
            ),
        )
        .unwrap();
        let mut e =
            EngineProcess::new(best.into(), "bash".into(), Proto::Uci(pre_roll), MoveLimit::Movetime(20), Vec::new());
        e.args = vec![script.to_str().unwrap().to_string(), log.to_str().unwrap().to_string()];
        (e, log)
    };
    // White took on d5: Black may recapture without rolling.
    let mut game = GameHandle::of(alea_engine::services::registry::Variant::Freedom, false).unwrap();
    for turn in ["e2e4", "d7d5", "e4d5"] {
        game.play(turn).unwrap();
    }
    let freedom = game.pre_roll_turns();
    assert!(freedom.contains(&"d8d5".to_string()), "{freedom:?}");
    for (best, pre_roll, expected) in [
        ("d8d5", PreRoll::OwnBest, Some("d8d5".to_string())),
        ("g8f6", PreRoll::OwnBest, None),
        ("d8d5", PreRoll::AlwaysRoll, None),
    ] {
        let (mut e, log) = engine(best, pre_roll);
        e.new_game(&game).unwrap();
        assert_eq!(e.before_roll(&game, &freedom).unwrap(), expected, "{best} {pre_roll:?}");
        drop(e);
        let sent = std::fs::read_to_string(&log).unwrap();
        let searches: Vec<&str> = sent.lines().filter(|l| l.starts_with("go")).collect();
        match pre_roll {
            // One unrestricted search: no searchmoves.
            PreRoll::OwnBest => assert_eq!(searches, ["go movetime 20"], "{sent}"),
            PreRoll::AlwaysRoll => assert!(searches.is_empty(), "{sent}"),
        }
    }
}
