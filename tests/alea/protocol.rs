//! The protocol of docs/protocol.md, through the built binary: a scripted exchange for each
//! command, the conformance cases through `legalmoves`, a fuzz test, and responsiveness.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common;
use common::{Engine, assert_no_position, errors, score_cp};

#[test]
fn uci_handshake_lists_every_option() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok", Duration::from_secs(5));
    assert!(lines[0].starts_with("id name Alea"));
    for option in [
        "option name Hash type spin",
        "option name Threads type spin",
        "option name MultiPV type spin",
        "option name Move Overhead type spin",
        "option name UCI_ShowWDL type check default false",
        "option name UCI_Variant type combo default freedom var freedom var classic var brainking",
        "option name UCI_Chess960 type check default false",
        "option name EngineRolls type check default false",
        "option name Seed type spin",
        "option name ChancePruning type combo default star2 var none var star1 var star2",
        "option name ChanceProbCut type check default true",
        "option name EvalFile type string default <empty>",
        "option name Skill Level type spin default 20 min 0 max 20",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(option)), "missing {option}: {lines:?}");
    }
    e.send("isready");
    assert_eq!(e.until("readyok", Duration::from_secs(5)), vec!["readyok".to_string()]);
    e.quit();
}

/// Star1 and Star2 are exact: with ChanceProbCut (the forward pruning at rolls) off they give
/// plain expectiminimax's value to the centipawn, which a GUI can check; with it on, a roll may
/// be cut on a shallower search's bound, and the value moves (here by 32).
#[test]
fn chance_pruning_is_exact_without_chance_probcut() {
    let mut e = Engine::start();
    assert!(e.ask("position fen 2N4b/1Q1kn2P/8/6nK/8/7P/8/8 b - - 1 64").is_empty());
    let score = |e: &mut Engine, pruning: &str, probcut: bool| {
        assert!(e.ask(&format!("setoption name ChancePruning value {pruning}")).is_empty());
        assert!(e.ask(&format!("setoption name ChanceProbCut value {probcut}")).is_empty());
        assert!(e.ask("setoption name Clear Hash").is_empty());
        let reply = e.go("go depth 4");
        reply.iter().rev().find(|l| l.starts_with("info depth 4 ")).and_then(|l| score_cp(l)).expect("a depth-4 score")
    };
    let plain = score(&mut e, "none", false);
    assert_eq!(score(&mut e, "star1", false), plain);
    assert_eq!(score(&mut e, "star2", false), plain);
    assert_ne!(score(&mut e, "star2", true), plain, "ProbCut cuts nothing here: choose another position");
    assert_eq!(errors(&e.ask("setoption name ChanceProbCut value maybe")), 1);
    e.quit();
}

#[test]
fn setoption_accepts_good_values_and_refuses_bad_ones() {
    let mut e = Engine::start();
    for good in [
        "setoption name Hash value 32",
        "setoption name Threads value 2",
        "setoption name MultiPV value 3",
        "setoption name Move Overhead value 20",
        "setoption name UCI_ShowWDL value true",
        "setoption name UCI_Variant value classic",
        "setoption name UCI_Chess960 value true",
        "setoption name EngineRolls value true",
        "setoption name Seed value 7",
        "setoption name Skill Level value 0",
        "setoption name ChancePruning value star1",
        "setoption name ChanceProbCut value false",
        "setoption name Clear Hash",
        "setoption name uci_variant value BrainKing",
    ] {
        assert_eq!(errors(&e.ask(good)), 0, "{good}");
    }
    for bad in [
        "setoption name Hash value 0",
        "setoption name Hash value lots",
        "setoption name Threads value 100000",
        "setoption name UCI_Variant value checkers",
        "setoption name UCI_Chess960 value maybe",
        "setoption name ChancePruning value star3",
        "setoption name NoSuchOption value 1",
        "setoption name Seed",
        "setoption name Skill Level value 21",
    ] {
        let replies = e.ask(bad);
        assert_eq!(errors(&replies), 1, "{bad}: {replies:?}");
    }
    // The refused variant left brainking in place.
    let d = e.ask("d");
    assert!(d.iter().any(|l| l.starts_with("Variant: brainking")), "{d:?}");
    e.quit();
}

#[test]
fn evalfile_loads_tables_and_refuses_bad_files() {
    let scratch = tempfile::Builder::new().prefix("alea-evalfile-").tempdir().unwrap();
    let dir = scratch.path();
    // Tables where a queen is worth nothing: offered a queen or a knight, the rook takes the knight.
    let mut params = alea_engine::services::registry::Variant::of_kind(alea_engine::ChessKind::Freedom).starting_eval();
    params.material = [[100, 200, 300, 400, 0, 0]; 2];
    let good = dir.join("no-queen.eval");
    std::fs::write(&good, params.to_text()).unwrap();
    let bad = dir.join("bad.eval");
    std::fs::write(&bad, "material mg P 100\n").unwrap();
    let mut e = Engine::start();
    e.ask("position fen 4k3/8/8/q7/8/8/4K3/R6n w - - 0 1");
    assert_eq!(e.go("go roll 4 depth 2").last().unwrap(), "bestmove a1a5");
    for refused in [
        format!("setoption name EvalFile value {}", bad.display()),
        "setoption name EvalFile value /no/such/file".into(),
    ] {
        assert_eq!(errors(&e.ask(&refused)), 1, "{refused}");
    }
    // A refused file changed nothing.
    assert_eq!(e.go("go roll 4 depth 2").last().unwrap(), "bestmove a1a5");
    assert_eq!(errors(&e.ask(&format!("setoption name EvalFile value {}", good.display()))), 0);
    assert_eq!(e.go("go roll 4 depth 2").last().unwrap(), "bestmove a1h1");
    // Back to the built-in tables.
    assert_eq!(errors(&e.ask("setoption name EvalFile value <empty>")), 0);
    assert_eq!(e.go("go roll 4 depth 2").last().unwrap(), "bestmove a1a5");

    // A network (`alea tune nnue`'s file, whose score adds to the tables') for which a knight is
    // worth 2000 more than the tables say: the rook takes the knight again. A truncated or
    // damaged one is refused and the network in use stays.
    let net = dir.join("knight.nnue");
    let bytes = material_net([0, 2000, 0, 0, 0]).to_bytes();
    std::fs::write(&net, &bytes).unwrap();
    assert_eq!(errors(&e.ask(&format!("setoption name EvalFile value {}", net.display()))), 0);
    assert_eq!(e.go("go roll 4 depth 2").last().unwrap(), "bestmove a1h1");
    let cut = dir.join("cut.nnue");
    std::fs::write(&cut, &bytes[..bytes.len() - 100]).unwrap();
    let mut damaged = bytes.clone();
    damaged[1000] ^= 1;
    let flipped = dir.join("damaged.nnue");
    std::fs::write(&flipped, &damaged).unwrap();
    // In another variant it is not used, and the engine says so.
    let answer = e.ask("setoption name UCI_Variant value classic");
    assert!(answer.iter().any(|l| l.contains("network is for freedom: classic plays with its tables")), "{answer:?}");
    assert!(e.ask("setoption name UCI_Variant value freedom").is_empty());
    e.ask("position fen 4k3/8/8/q7/8/8/4K3/R6n w - - 0 1");
    for (file, words) in [(&cut, "cut off"), (&flipped, "checksum")] {
        let answer = e.ask(&format!("setoption name EvalFile value {}", file.display()));
        assert_eq!(errors(&answer), 1, "{answer:?}");
        assert!(answer.iter().any(|l| l.contains(words)), "{answer:?}");
        assert_eq!(e.go("go roll 4 depth 2").last().unwrap(), "bestmove a1h1", "the network stays");
    }
    e.quit();
}

/// A network that counts material: one hidden sum per role and side, each piece adding 0.1
/// (in the mover's view: own pieces to sums 0..6, the enemy's to 6..12), weighed by `values`
/// (centipawns a piece, added to the tables' own values).
fn material_net(values: [i32; 5]) -> alea_engine::eval::nnue::Network {
    use alea_engine::eval::nnue::{Network, QA, QB, SCALE};
    let mut net = Network::zeros("freedom");
    let tenth = (QA as f32 * 0.1).round() as i16;
    for side in 0..2 {
        for (role, value) in values.iter().enumerate() {
            for sq in 0..64 {
                net.feature_weights[side * 384 + role * 64 + sq][side * 6 + role] = tenth;
            }
            // A piece adds `tenth` to its sum, worth `value` centipawns: tenth x w x SCALE / (QA x QB).
            let w = *value as f32 * (QA * QB) as f32 / (f32::from(tenth) * SCALE as f32);
            net.output_weights[0][side * 6 + role] = if side == 0 { w.round() as i16 } else { -w.round() as i16 };
        }
    }
    net
}

#[test]
fn positions_moves_passes_and_recapture() {
    let mut e = Engine::start();
    assert_eq!(e.ask("position startpos moves e2e4 d7d5 e4d5"), Vec::<String>::new());
    let d = e.ask("d");
    assert!(d.iter().any(|l| l == "Fen: rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2"), "{d:?}");
    assert!(d.iter().any(|l| l == "Recapture square: d5"));
    assert_eq!(e.ask("legalmoves"), vec!["freedom d8d5".to_string()]);
    // The same through a FEN and an explicit recapture square.
    e.ask("position fen rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2 recapture d5");
    assert_eq!(e.ask("legalmoves"), vec!["freedom d8d5".to_string()]);
    // Classic passes, and the king capture after a pass in check.
    e.ask("setoption name UCI_Variant value classic");
    e.ask("position fen rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2 moves 0000");
    assert_eq!(e.ask("legalmoves roll 5 1")[0].split(' ').filter(|m| *m == "h5e8").count(), 1);
    // A refused position leaves none (a GUI must not get a move for the one before), until the
    // next is set.
    let good = "position fen rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2 moves 0000";
    for bad in [
        "position startpos moves e2e5",
        "position startpos moves e2e4 e2e4",
        "position fen rnbqkbnr/pppppppp/8/8 w KQkq - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 recapture z9",
        "position startpos moves e2e4,e7e5",
        "position startpos moves a1a1",
    ] {
        let replies = e.ask(bad);
        assert_eq!(errors(&replies), 1, "{bad}: {replies:?}");
        assert_no_position(&mut e, bad);
        assert!(e.ask(good).is_empty());
        assert!(e.ask("d").iter().any(|l| l == "Fen: rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 2 3"));
    }
    // A position line that cannot be read is refused alike; ucinewgame sets the start.
    assert_eq!(errors(&e.ask("position sideways")), 1);
    assert_no_position(&mut e, "position sideways");
    assert!(e.ask("ucinewgame").is_empty());
    assert!(e.ask("d").iter().any(|l| l.starts_with("Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w")));
    e.quit();
}

/// A table kept from one search to the next (as behind a GUI, without `ucinewgame`) must not hide
/// a threefold repetition: from a game against `greedy` in which Alea, a queen and more up, gave
/// the same two Freedom checks until the third repetition. The last search's Nc5+ lets Black's
/// king return to b6 for the third time: neither the kept table nor a fresh one may play it, and
/// both must report a queen's lead, not the draw. (Which of the other choices, rolling or Rb5+,
/// lies within a few centipawns and depends on the network and on what the table kept; the
/// choice is not the point.)
#[test]
fn a_kept_table_does_not_walk_into_a_threefold_repetition() {
    let opening = "a2a4 a7a5 h2h4 b7b5 g1f3 b5a4 a1a4 b8a6 b1c3 c8b7 a4a5 d8b8 g2g3 a6b4 f3e5 b4c2 d1c2 \
                   e8d8 e5f7 d8c8 c2f5 b7h1 f5h3 g8f6 f7h8 c8b7 h3h1 c7c6 h8f7 d7d5 b2b4 b8g3 f2g3 c6c5 \
                   a5b5 b7a6 b5a5 a6b6 c3a4 b6b7 a4c5 b7b6";
    let checks = ["", " c5a4 b6b7", " c5a4 b6b7 a4c5 b7b6", " c5a4 b6b7 a4c5 b7b6 c5a4 b6b7"];
    let mut e = Engine::start();
    // The last search's choice and its score (of its last iteration).
    let search = |e: &mut Engine| {
        let lines = e.go("go depth 2");
        let score = lines
            .iter()
            .rev()
            .filter(|l| l.starts_with("info depth"))
            .find_map(|l| score_cp(l))
            .expect("a scored iteration");
        (lines.last().unwrap().clone(), score)
    };
    let mut last = (String::new(), 0);
    for moves in checks {
        e.ask(&format!("position startpos moves {opening}{moves}"));
        last = search(&mut e);
    }
    assert_ne!(last.0, "bestmove a4c5", "the kept table repeats");
    assert!(last.1 > 900, "the kept table reports {last:?}");
    e.ask("ucinewgame");
    e.ask(&format!("position startpos moves {opening}{}", checks[3]));
    let fresh = search(&mut e);
    assert_ne!(fresh.0, "bestmove a4c5", "a fresh table repeats");
    assert!(fresh.1 > 900, "a fresh table reports {fresh:?}");
    e.quit();
}

/// Nor a check whose answer stands on a position for the third time: from Alea's game against
/// Stockfish (100 ms a move) in which Alea, Black and a rook and two pieces up, gave rook checks
/// on h1 and h2 until White's king walked into the third repetition. The table kept from the
/// searches before held the value of the position after ...Rh1+ from when Ke2 was not yet a
/// third repetition, and that value was taken: only the turn starts the game had stood on were
/// kept from the table, not those one turn from a repetition.
#[test]
fn a_kept_table_does_not_check_into_a_threefold_repetition() {
    let opening = "g1f3 a7a5 b1c3 a8a6 f3e5 a6e6 d2d4 b8c6 c1f4 f7f6 e1d2 f6e5 d4e5 c6e5 d2e1 g7g5 e2e3 \
                   f8g7 g2g3 g7f6 f4e5 f6e5 e1d2 g5g4 a1b1 e8f8 h1g1 h7h5 d2c1 g8f6 f1c4 d7d5 e3e4 c7c6 \
                   d1d3 c8d7 c4b3 e5d6 e4d5 c6d5 d3d4 f6g8 f2f4 d6c5 c3b5 d8b6 c1d1 b6b5 d4d3 f8g7 g1e1 \
                   b5b4 c2c3 e6e1 d1e1 b4e4 d3e4 d5e4 f4f5 h8h6 a2a3 a5a4 b1d1 a4b3 e1f1 d7f5 a3a4 g7f7 \
                   h2h3 g8f6 d1d2 f6g8 h3g4 h5g4 a4a5 h6h1 f1e2";
    // Black's decisions as the game went (a king roll first), each searched with the table kept.
    let decisions = ["", " f7g6 a5a6", " f7g6 a5a6 h1h2 e2d1", " f7g6 a5a6 h1h2 e2d1 h2h1 d1e2"];
    let mut e = Engine::start();
    for (k, moves) in decisions.into_iter().enumerate() {
        e.ask(&format!("position startpos moves {opening}{moves}"));
        e.go("go nodes 20000");
        if k == 0 {
            e.go("go roll 6 nodes 20000");
        }
    }
    // After ...Rh2+ Kf1, the check Rh1+ lets Ke2 stand on the position a third time.
    e.ask(&format!("position startpos moves {opening}{} h1h2 e2f1", decisions[3]));
    assert_eq!(e.go("go nodes 20000").last().unwrap(), "bestmove roll", "the kept table checks into a draw");
    e.quit();
}

#[test]
fn go_with_a_roll_before_the_roll_and_any() {
    let mut e = Engine::start();
    e.ask("position startpos moves e2e4 d7d5 e4d5");
    // Before the roll: the Freedom recapture beats rolling, with the advice table first (three
    // turns deep: at two, Freedom's network still rates rolling above it).
    let lines = e.go("go depth 3");
    assert_eq!(lines.last().unwrap(), "bestmove d8d5");
    assert_eq!(lines.iter().filter(|l| l.starts_with("info roll ")).count(), 6);
    assert!(lines.iter().any(|l| l.starts_with("info string expected score cp ")));
    assert!(lines.iter().any(|l| l.starts_with("info depth 3 ") && l.contains(" score cp ") && l.contains(" pv d8d5")));
    // After a roll: a move of the rolled type.
    let lines = e.go("go roll 2 depth 2");
    let best = lines.last().unwrap();
    let knight_moves = ["b8a6", "b8c6", "b8d7", "g8f6", "g8h6"];
    assert!(knight_moves.iter().any(|m| *best == format!("bestmove {m}")), "{best}");
    // Any move: the recapture, or a knight move that wins the pawn back later (with the table
    // the depth-3 search left, Freedom's third network prefers Nd7: +42 against -7 at depth 3).
    let lines = e.go("go roll any depth 2");
    let best = lines.last().unwrap();
    assert!(["bestmove d8d5", "bestmove b8d7", "bestmove g8f6"].contains(&best.as_str()), "{best}");
    // Any move: the rook takes the free queen.
    e.ask("position fen 4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1");
    assert_eq!(e.go("go roll any depth 2").last().unwrap(), "bestmove d1d5");
    e.ask("position startpos moves e2e4 d7d5 e4d5");
    // A roll of the wrong shape, or out of range: an error and still one bestmove.
    for bad in ["go roll 2 3", "go roll 7", "go roll"] {
        let lines = e.go(bad);
        assert_eq!(errors(&lines), 1, "{bad}");
        assert_eq!(lines.last().unwrap(), "bestmove (none)");
    }
    // No choice before the roll: bestmove roll at once.
    e.ask("position startpos");
    assert_eq!(e.go("go"), vec!["bestmove roll".to_string()]);
    // Classic: a roll that allows nothing passes.
    e.ask("setoption name UCI_Variant value classic");
    e.ask("position startpos");
    assert_eq!(e.go("go roll 3 4 depth 2").last().unwrap(), "bestmove 0000");
    // Faces joined by commas, as `alea advise --roll 2,5` writes them, are the same roll.
    assert_eq!(e.go("go roll 3,4 depth 2").last().unwrap(), "bestmove 0000");
    let spaced = e.ask("legalmoves roll 2 5");
    assert_eq!(e.ask("legalmoves roll 2,5"), spaced);
    assert!(spaced[0].starts_with("legalmoves ") && spaced[0].contains("b1c3"), "{spaced:?}");
    let lines = e.go("go roll 2,7");
    assert_eq!(errors(&lines), 1);
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    e.quit();
}

#[test]
fn engine_rolls_its_own_dice_reproducibly() {
    let run = |seed: u64| {
        let mut e = Engine::start();
        e.ask("setoption name EngineRolls value true");
        e.ask(&format!("setoption name Seed value {seed}"));
        let mut rolls = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..6 {
            e.ask(&format!("position startpos moves {}", moves.join(" ")));
            let lines = e.go("go depth 1");
            let roll = lines.iter().find(|l| l.starts_with("info string roll ")).expect("a roll line").clone();
            rolls.push(roll);
            moves.push(lines.last().unwrap().strip_prefix("bestmove ").unwrap().to_string());
        }
        e.quit();
        (rolls, moves)
    };
    assert_eq!(run(11), run(11));
    assert_ne!(run(11).0, run(12).0);
}

/// `Skill Level` below 20 draws its move among the best few: from the start with a pawn rolled,
/// level 0 plays several different pawn moves over twenty seeds (each of them allowed, each seed's
/// the same when asked again), where full strength plays one.
#[test]
fn a_lower_skill_level_varies_its_moves() {
    let mut e = Engine::start();
    let moves_at = |e: &mut Engine, level: u8| -> Vec<String> {
        e.ask(&format!("setoption name Skill Level value {level}"));
        (1..=20)
            .map(|seed| {
                e.ask(&format!("setoption name Seed value {seed}"));
                e.ask("ucinewgame");
                e.ask("position startpos");
                e.go("go roll 1 depth 3").last().unwrap().strip_prefix("bestmove ").unwrap().to_string()
            })
            .collect()
    };
    let full = moves_at(&mut e, 20);
    assert!(full.iter().all(|m| *m == full[0]), "{full:?}");
    let weak = moves_at(&mut e, 0);
    let distinct: std::collections::BTreeSet<&String> = weak.iter().collect();
    assert!(distinct.len() >= 3, "{weak:?}");
    let allowed = e.ask("legalmoves roll 1");
    for m in &weak {
        assert!(allowed[0].split_whitespace().any(|a| a == m), "{m} not in {allowed:?}");
    }
    assert_eq!(moves_at(&mut e, 0), weak, "a seed's draws are the same again");
    e.quit();
}

#[test]
fn finished_games_answer_with_the_result() {
    let mut e = Engine::start();
    e.ask("position startpos moves f2f3 e7e5 g2g4 d8h4");
    let lines = e.go("go depth 2");
    assert_eq!(lines, vec!["info string result 0-1 checkmate".to_string(), "bestmove (none)".to_string()]);
    let lines = e.go("go roll 3 depth 2");
    assert_eq!(errors(&lines), 1);
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    assert!(e.ask("d").iter().any(|l| l == "Result: 0-1 checkmate"));
    assert_eq!(e.ask("legalmoves"), vec!["freedom".to_string()]);
    e.ask("setoption name UCI_Variant value brainking");
    e.ask("position fen 4k3/8/8/8/8/8/4r3/4K3 b - - 0 1 moves e2e1");
    assert_eq!(e.go("go").first().unwrap(), "info string result 0-1 king capture");
    e.quit();
}

#[test]
fn perft_bench_and_display() {
    let mut e = Engine::start();
    e.send("go perft 3");
    let lines = e.until("Nodes searched", Duration::from_secs(30));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 8902");
    e.send("bench");
    let lines = e.until("", Duration::from_secs(1)); // the first bench line
    assert!(lines[0].starts_with("info string bench") || lines[0].is_empty(), "{lines:?}");
    let mut last = String::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    while Instant::now() < deadline {
        let l = e.until("", Duration::from_secs(120)).pop().unwrap();
        if l.ends_with(" nps") {
            last = l;
            break;
        }
    }
    let words: Vec<&str> = last.split(' ').collect();
    assert_eq!(words.len(), 4, "{last}");
    assert_eq!(words[1], "nodes");
    assert!(words[0].parse::<u64>().unwrap() > 10_000);
    let d = e.ask("d");
    assert!(d.iter().any(|l| l.starts_with("Key: 463B96181691FC9C")), "{d:?}");
    assert!(d.iter().any(|l| l == "Side to move: white"));
    assert!(d.iter().any(|l| l == "Pre-roll options: none (must roll)"));
    e.quit();
}

/// `legalmoves` through the protocol agrees with every conformance case.
#[test]
fn legalmoves_agrees_with_every_conformance_case() {
    let mut e = Engine::start();
    let mut checked = 0;
    for (file, variant, chess960) in [
        ("freedom", "freedom", false),
        ("freedom960", "freedom", true),
        ("classic", "classic", false),
        ("brainking", "brainking", false),
    ] {
        e.ask(&format!("setoption name UCI_Variant value {variant}"));
        e.ask(&format!("setoption name UCI_Chess960 value {chess960}"));
        let text =
            std::fs::read_to_string(format!("{}/tests/data/conformance/{file}.jsonl", env!("CARGO_MANIFEST_DIR")))
                .unwrap();
        for line in text.lines() {
            let case: serde_json::Value = serde_json::from_str(line).unwrap();
            let moves: Vec<&str> = case["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
            // The generator's games run on past repetitions; set up the final FEN with the
            // rule state where that matters.
            let recapture = case.get("recapture").and_then(|r| r.as_str());
            let position = match (recapture, case.get("king_capturable").and_then(|k| k.as_bool())) {
                (_, Some(true)) => {
                    format!("position fen {} moves {}", case["start"].as_str().unwrap(), moves.join(" "))
                }
                (Some(sq), _) => format!("position fen {} recapture {sq}", case["fen"].as_str().unwrap()),
                _ => format!("position fen {}", case["fen"].as_str().unwrap()),
            };
            let replies = e.ask(&position);
            if errors(&replies) > 0 {
                // A game past a threefold repetition: the FEN alone is the same position.
                assert_eq!(errors(&e.ask(&format!("position fen {}", case["fen"].as_str().unwrap()))), 0);
            }
            if let Some(free) = case.get("freedom") {
                let want: Vec<&str> = free.as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
                let got = e.ask("legalmoves");
                assert_eq!(got[0], format!("freedom {}", want.join(" ")).trim_end(), "{file}: {line}");
            }
            for (roll, want) in case["rolls"].as_object().unwrap() {
                let want: Vec<&str> = want.as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
                let faces: Vec<String> = roll.chars().map(|c| c.to_string()).collect();
                let got = e.ask(&format!("legalmoves roll {}", faces.join(" ")));
                assert_eq!(got[0], format!("legalmoves {}", want.join(" ")), "{file} roll {roll}: {line}");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 1981);
    e.quit();
}

/// Random and mutated lines, seeded: the engine answers every isready and works afterwards.
#[test]
fn fuzz_20000_lines_never_break_the_engine() {
    let mut rng = StdRng::seed_from_u64(0xf022);
    let words = [
        "uci",
        "isready",
        "setoption",
        "name",
        "value",
        "Hash",
        "Threads",
        "MultiPV",
        "UCI_Variant",
        "freedom",
        "classic",
        "brainking",
        "dicechess3",
        "e2e4,d1h5",
        "a2a3,a1a2,e1d1",
        "PNB",
        "pnK",
        "first",
        "count",
        "g3h3",
        "UCI_Chess960",
        "true",
        "false",
        "EngineRolls",
        "Seed",
        "ChancePruning",
        "star1",
        "ucinewgame",
        "position",
        "startpos",
        "fen",
        "moves",
        "recapture",
        "go",
        "roll",
        "any",
        "depth",
        "nodes",
        "movetime",
        "wtime",
        "btime",
        "winc",
        "binc",
        "infinite",
        "stop",
        "ponderhit",
        "legalmoves",
        "d",
        "debug",
        "on",
        "off",
        "searchmoves",
        "e2e4",
        "e7e5",
        "0000",
        "g1f3",
        "e1g1",
        "a7a8q",
        "e4",
        "d5",
        "1",
        "2",
        "3",
        "6",
        "7",
        "0",
        "-5",
        "99999999999999999999",
        "9223372036854775807",
        "9223372036854775819",
        "18446744073709551615",
        "-9223372036854775808",
        "4294967296",
        "mate",
        "movestogo",
        "2,5",
        "1,4,6",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "w",
        "b",
        "KQkq",
        "-",
        "8/8/8/8/8/8/8/8",
        "4k3/8/8/8/8/8/4r3/4K3",
        "\u{fffd}",
        "é",
        "",
    ];
    let seeds = [
        "position startpos moves e2e4 e7e5",
        "go roll 1 depth 1",
        "go depth 1",
        "legalmoves roll 3",
        "setoption name UCI_Variant value classic",
        "position fen 4k3/8/8/8/8/8/4r3/4K3 b - - 0 1 moves e2e1",
        "go roll 2 5 nodes 100",
        "setoption name Hash value 8",
        "setoption name UCI_Variant value dicechess3",
        "position startpos moves e2e4,d1h5 d7d5,e8d7",
        "go roll 1 4 6 depth 1",
        "legalmoves roll 1 2 3 first",
        "legalmoves count roll 1 1 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PN moves e2e4,g1f3",
        "position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    ];
    let mut e = Engine::start();
    for i in 0..20_000 {
        let line: Vec<u8> = match rng.random_range(0..6) {
            // Words of the protocol in random order.
            0 | 1 => {
                let n = rng.random_range(0..8);
                let text: Vec<&str> = (0..n).map(|_| words[rng.random_range(0..words.len())]).collect();
                text.join(" ").into_bytes()
            }
            // A real command with a word changed, dropped or repeated.
            2 | 3 => {
                let mut text: Vec<&str> = seeds[rng.random_range(0..seeds.len())].split(' ').collect();
                let at = rng.random_range(0..text.len());
                match rng.random_range(0..3) {
                    0 => text[at] = words[rng.random_range(0..words.len())],
                    1 => {
                        text.remove(at);
                    }
                    _ => text.insert(at, text[at]),
                }
                text.join(" ").into_bytes()
            }
            // Bytes, valid UTF-8 or not.
            4 => (0..rng.random_range(0..40)).map(|_| rng.random_range(1..=255u8)).filter(|&b| b != b'\n').collect(),
            // Now and then a very long line.
            _ if i % 500 == 0 => vec![b'x'; 1 << 20],
            _ => b"position startpos moves e2e4 e7e5 g1f3".to_vec(),
        };
        // quit and bench are valid commands that end the process or take a second: not fuzz.
        let as_text = String::from_utf8_lossy(&line);
        if as_text.split_whitespace().next().is_some_and(|w| w == "quit" || w == "bench") {
            continue;
        }
        e.send_bytes(&line);
        e.send_bytes(b"\n");
        if i % 10 == 0 {
            e.send("isready");
            e.until("readyok", Duration::from_secs(30));
        }
    }
    // Drain what the last lines produced: stop joins any search, and the error for a command
    // named nowhere else fences off everything before it.
    e.send("stop");
    e.send("fence-after-fuzz");
    e.until("info string error: unknown command 'fence-after-fuzz'", Duration::from_secs(30));
    e.send("setoption name UCI_Variant value freedom");
    e.send("setoption name UCI_Chess960 value false");
    e.send("setoption name Hash value 16");
    e.ask("position startpos moves e2e4");
    let lines = e.go("go roll 1 depth 2");
    assert!(lines.last().unwrap().starts_with("bestmove "));
    assert_ne!(lines.last().unwrap(), "bestmove (none)", "{lines:?}");
    e.quit();
}

/// During `go infinite`, a search that never ends by itself, isready is answered and stop ends
/// the search with its bestmove: answers at all show the command loop does not wait for the
/// search (the waits are only guards against a hang; the README gives the measured times).
#[test]
fn isready_and_stop_during_an_infinite_search() {
    let mut e = Engine::start();
    e.ask("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    e.send("go infinite");
    e.until("info depth 2 ", Duration::from_secs(60));
    for _ in 0..20 {
        e.send("isready");
        assert_eq!(e.until("readyok", Duration::from_secs(10)).last().unwrap(), "readyok");
    }
    e.send("stop");
    let lines = e.until("bestmove", Duration::from_secs(10));
    assert!(lines.last().unwrap().starts_with("bestmove "));
    e.quit();
}

/// A `go` sent while a search runs waits for that search's `bestmove` (as in Stockfish): the
/// first search ends at its own depth and the second is searched in full after it.
#[test]
fn a_go_during_a_search_waits_for_it() {
    let mut e = Engine::start();
    e.ask("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    e.send("go roll 3 depth 4");
    e.send("go roll 4 depth 3");
    let first = e.until("bestmove", Duration::from_secs(60));
    assert!(first.iter().any(|l| l.starts_with("info depth 4 ")), "the first search was cut short: {first:?}");
    let second = e.until("bestmove", Duration::from_secs(60));
    assert!(second.iter().any(|l| l.starts_with("info depth 3 ")), "{second:?}");
    assert!(second.last().unwrap().starts_with("bestmove ") && second.last().unwrap() != "bestmove (none)");

    // A new position waits for the running search too (it used to cut it short), and `d` after
    // it keeps its place.
    e.send("go roll 3 depth 4");
    e.send("position startpos");
    e.send("d");
    let first = e.until("bestmove", Duration::from_secs(60));
    assert!(first.iter().any(|l| l.starts_with("info depth 4 ")), "cut short by position: {first:?}");
    let shown = e.until("Fen:", Duration::from_secs(10));
    assert_eq!(shown.last().unwrap(), "Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    e.ask("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");

    // Behind a search that never ends by itself: isready is answered at once, and one `stop`
    // ends the running search and then the waiting one, each with its own bestmove, in order.
    e.send("go infinite");
    e.send("go roll 2 depth 2");
    e.send("go roll 9");
    e.send("isready");
    assert_eq!(e.until("readyok", Duration::from_secs(5)).last().unwrap(), "readyok");
    e.send("stop");
    let first = e.until("bestmove", Duration::from_secs(10));
    assert!(first.last().unwrap().starts_with("bestmove "), "{first:?}");
    let second = e.until("bestmove", Duration::from_secs(10));
    assert!(second.last().unwrap().starts_with("bestmove "), "{second:?}");
    // The unreadable `go` kept its place: its error, then its `bestmove (none)`.
    let third = e.until("bestmove", Duration::from_secs(10));
    assert_eq!(errors(&third), 1, "{third:?}");
    assert_eq!(third.last().unwrap(), "bestmove (none)");
    assert_eq!(e.ask("legalmoves count roll 3"), vec!["legalmoves count 11".to_string()]);
    e.quit();
}

/// `go perft` runs beside the command loop: isready is answered and stop ends it.
#[test]
fn go_perft_answers_isready_and_stops() {
    let mut e = Engine::start();
    // Nine plies from the start are trillions of paths: an answer shows isready did not wait.
    e.send("go perft 9");
    e.send("isready");
    assert_eq!(e.until("readyok", Duration::from_secs(10)).last().unwrap(), "readyok");
    e.send("stop");
    let stopped = e.until("info string perft stopped", Duration::from_secs(10));
    assert!(!stopped.iter().any(|l| l.starts_with("Nodes searched")), "{stopped:?}");
    // Stopped, it counts again from the start.
    e.send("go perft 2");
    assert_eq!(e.until("Nodes searched", Duration::from_secs(10)).last().unwrap(), "Nodes searched: 400");
    e.quit();
}

#[test]
fn end_of_input_ends_the_engine() {
    let mut child = crate::common::alea().stdin(Stdio::piped()).stdout(Stdio::null()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(b"position startpos\ngo infinite\n").unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(start.elapsed() < Duration::from_secs(20), "still running after end of input");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The process stays within Hash + 32 MiB while it searches.
#[test]
fn memory_stays_within_hash_plus_32_mib() {
    let mut e = Engine::start();
    e.ask("setoption name Hash value 64");
    e.ask("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    e.send("go movetime 2000");
    let pid = e.child.id();
    let mut peak = 0u64;
    let start = Instant::now();
    while start.elapsed() < Duration::from_millis(1800) {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        if let Some(kb) = status.lines().find(|l| l.starts_with("VmRSS:")).and_then(|l| l.split_whitespace().nth(1)) {
            peak = peak.max(kb.parse().unwrap());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    e.until("bestmove", Duration::from_secs(10));
    assert!(peak > 0, "no VmRSS read");
    assert!(peak <= (64 + 32) * 1024, "resident {peak} KiB");
    e.quit();
}

#[test]
fn debug_ponderhit_newgame_empty_lines_multipv_and_wdl() {
    let mut e = Engine::start();
    assert_eq!(e.ask("debug on"), Vec::<String>::new());
    assert_eq!(e.ask("debug off"), Vec::<String>::new());
    assert_eq!(errors(&e.ask("debug sideways")), 1);
    // Nothing is searching: stop and ponderhit change nothing and say nothing.
    assert_eq!(e.ask("stop"), Vec::<String>::new());
    assert_eq!(e.ask("ponderhit"), Vec::<String>::new());
    // A blank line is no command: passed over without a word, as UCI engines do.
    e.ask("position startpos moves e2e4");
    assert_eq!(e.ask(""), Vec::<String>::new());
    assert_eq!(e.ask("   \t "), Vec::<String>::new());
    assert!(e.ask("d").iter().any(|l| l.starts_with("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b")));
    // ucinewgame goes back to the start.
    e.ask("ucinewgame");
    assert!(e.ask("d").iter().any(|l| l.starts_with("Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w")));
    // MultiPV 3 after a roll: three ranked lines at each depth; WDL on each.
    e.ask("setoption name MultiPV value 3");
    e.ask("setoption name UCI_ShowWDL value true");
    let lines = e.go("go roll 2 depth 2");
    let depth2: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth 2 ")).collect();
    assert_eq!(depth2.len(), 3, "{lines:?}");
    for (i, l) in depth2.iter().enumerate() {
        assert!(l.contains(&format!(" multipv {} ", i + 1)), "{l}");
        let wdl: Vec<u32> = l.split(" wdl ").nth(1).unwrap().split(' ').take(3).map(|w| w.parse().unwrap()).collect();
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{l}");
    }
    // Ranked best first.
    let scores: Vec<i32> = depth2.iter().map(|l| score_cp(l).expect("a score")).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    e.quit();
}

/// A new rule set starts from an empty table: what a search found under other dice rules says
/// nothing of the same board now (kiwipete searched under Freedom's rules first changed
/// BrainKing's depth-2 value from -113 to -10 when the table was kept).
#[test]
fn a_variant_change_clears_the_table() {
    let score_of = |lines: &[String]| -> String {
        let last = lines.iter().rev().find(|l| l.starts_with("info depth")).expect("an info line");
        last.split_whitespace().skip_while(|&w| w != "score").take(3).collect::<Vec<_>>().join(" ")
    };
    let position = "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let mut fresh = Engine::start();
    fresh.ask("setoption name UCI_Variant value brainking");
    fresh.ask(position);
    let expected = score_of(&fresh.go("go depth 2"));
    fresh.quit();
    let mut e = Engine::start();
    e.ask(position);
    e.go("go depth 3");
    e.ask("setoption name UCI_Variant value brainking");
    e.ask(position);
    assert_eq!(score_of(&e.go("go depth 2")), expected);
    e.quit();
}

/// Numbers near the integer limits in `go` are the longest limits, not wrapped-around short ones:
/// the search runs until `stop` (a test build would panic on an overflow).
#[test]
fn go_numbers_near_the_integer_limits_search_until_stopped() {
    let mut e = Engine::start();
    e.ask("position startpos moves e2e4 d7d5");
    for go in [
        "go roll 1 wtime 9223372036854775819 btime 9223372036854775819",
        "go roll 1 wtime 18446744073709551615 winc 18446744073709551615 btime 1 binc 1",
        "go roll 1 movetime 18446744073709551615",
        "go roll 1 mate 2147483647",
        "go roll 1 depth 4294967295",
        "go roll 1 nodes 18446744073709551615",
        "go roll 1 wtime 1000000 movestogo 18446744073709551615",
    ] {
        e.send(go);
        // Still searching after its first iterations: a wrapped-around budget would have ended it.
        e.until("info depth 2 ", Duration::from_secs(30));
        std::thread::sleep(Duration::from_millis(50));
        e.send("stop");
        let lines = e.until("bestmove", Duration::from_secs(30));
        assert_eq!(errors(&lines), 0, "{go}: {lines:?}");
        assert!(lines.last().unwrap().starts_with("bestmove ") && !lines.last().unwrap().contains("none"), "{go}");
    }
    // Past the largest: refused, saying the largest.
    let lines = e.go("go roll 1 mate 9223372036854775807");
    assert!(errors(&lines) == 1 && lines[0].contains("at most 2147483647"), "{lines:?}");
    // Move counters at their largest stay there (the fuzz found a wrap-around in a turn's end).
    for (variant, roll) in [("freedom", "6"), ("dicechess3", "6 6 6")] {
        e.ask(&format!("setoption name UCI_Variant value {variant}"));
        let lines = e.ask("position fen 4k3/8/8/8/8/8/8/4K2R b - - 0 4294967295 moves e8d8");
        assert_eq!(errors(&lines), 0, "{variant}: {lines:?}");
        let lines = e.go(&format!("go roll {roll} depth 2"));
        assert!(lines.last().unwrap().starts_with("bestmove ") && errors(&lines) == 0, "{variant}: {lines:?}");
    }
    e.quit();
}

/// `help` lists the commands (Stockfish answers it too); on a terminal, `alea` says what it is
/// before reading commands, and on a pipe nothing comes before what a GUI asks for.
#[test]
fn help_and_the_greeting_on_a_terminal() {
    let mut e = Engine::start();
    let lines = e.ask("help");
    assert_eq!(errors(&lines), 0, "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("legalmoves")) && lines.iter().any(|l| l.contains("go roll 2,5")));
    e.quit();
    // Through a pseudo-terminal (util-linux's `script`): the greeting line first.
    let bin = env!("CARGO_BIN_EXE_alea");
    let out = Command::new("script")
        .args(["-qec", bin, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().unwrap().write_all(b"quit\n")?;
            child.wait_with_output()
        })
        .expect("script runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Alea ") && text.contains("'help' lists the commands"), "{text}");
    // On a pipe: silence until asked.
    let out = Command::new(bin)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().unwrap().write_all(b"quit\n")?;
            child.wait_with_output()
        })
        .unwrap();
    assert!(out.stdout.is_empty(), "{:?}", String::from_utf8_lossy(&out.stdout));
}
