//! `dicechess3` through the protocol (docs/protocol.md, "Several moves a turn"): comma-joined
//! turns, DFEN, `legalmoves roll … [first]` and `legalmoves count`, the 56-line outcome table, the
//! chance of taking the king this turn read from it, and bad input refused with nothing changed.

use crate::common;
use common::{Engine, after_refusal, errors, fen_of, listed};
use serde_json::Value;
use std::io::Read;

fn dicechess3() -> Engine {
    let mut engine = Engine::start();
    assert!(engine.ask("setoption name UCI_Variant value dicechess3").is_empty());
    engine
}

#[test]
fn whole_turns_first_micro_moves_and_counts() {
    let mut e = dicechess3();
    assert!(e.ask("uci").iter().any(|l| l.contains("var dicechess3")));
    assert!(e.ask("setoption name UCI_Variant value dicechess3").is_empty());
    e.ask("position startpos");
    let turns = listed(&e.ask("legalmoves roll 1 4 5"));
    assert_eq!(turns.len(), 23);
    assert!(turns.contains(&"e2e4,d1h5".to_string()) && turns.contains(&"h2h4,h1h3".to_string()));
    let first = listed(&e.ask("legalmoves roll 5 4 1 first"));
    assert_eq!(first, ["a2a3", "a2a4", "c2c3", "c2c4", "d2d3", "d2d4", "e2e3", "e2e4", "h2h3", "h2h4"]);
    assert_eq!(e.ask("legalmoves count roll 1 1 5"), ["legalmoves count 706"]);
    assert_eq!(e.ask("legalmoves roll 4 4 6"), ["legalmoves 0000"]);
    assert_eq!(e.ask("legalmoves roll 4 4 6 first"), ["legalmoves 0000"]);
    assert_eq!(e.ask("legalmoves"), ["freedom"]);
    // A turn played, written with commas; the DFEN says where it stands.
    assert!(e.ask("position startpos moves b1a3,a1b1").is_empty());
    assert_eq!(fen_of(&mut e), "rnbqkbnr/pppppppp/8/8/8/N7/PPPPPPPP/1RBQKBNR b Kkq - 1 1");
    e.quit();
}

#[test]
fn a_turn_in_progress_from_a_dfen() {
    let mut e = dicechess3();
    let dfen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PN";
    assert!(e.ask(&format!("position fen {dfen}")).is_empty());
    assert_eq!(fen_of(&mut e), dfen);
    assert!(e.ask("d").iter().any(|l| l == "Turn in progress, dice left: 1 2"));
    let completions = listed(&e.ask("legalmoves"));
    assert!(completions.contains(&"e2e4,g1f3".to_string()) && completions.contains(&"g1f3,e2e4".to_string()));
    assert_eq!(listed(&e.ask("legalmoves roll 1 2")), completions);
    let reply = e.go("go depth 1");
    let best = reply.last().unwrap().strip_prefix("bestmove ").unwrap().to_string();
    assert!(completions.contains(&best), "{best} is not a completion");
    // searchmoves in a turn in progress: its dice left, no roll to give.
    assert_eq!(e.go("go depth 1 searchmoves d2d4,b1c3").last().unwrap(), "bestmove d2d4,b1c3");
    // The dice are the turn's own: other faces are refused.
    assert_eq!(errors(&e.ask("legalmoves roll 1 4 6")), 1);
    let refused = e.go("go roll 3 depth 1");
    assert_eq!(errors(&refused), 1);
    assert_eq!(refused.last().unwrap(), "bestmove (none)");
    // Finishing the turn passes the move to Black.
    assert!(
        e.ask("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PN moves e2e4,g1f3").is_empty()
    );
    assert_eq!(fen_of(&mut e), "rnbqkbnr/pppppppp/8/8/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq e3 0 1");
    e.quit();
}

#[test]
fn go_after_a_roll_and_before_it() {
    let mut e = dicechess3();
    e.ask("position startpos");
    let allowed = listed(&e.ask("legalmoves roll 1 4 6"));
    let reply = e.go("go roll 1 4 6 depth 2");
    assert!(reply.iter().any(|l| l.starts_with("info depth 2 ")), "{reply:?}");
    let best = reply.last().unwrap().strip_prefix("bestmove ").unwrap().to_string();
    assert!(allowed.contains(&best), "{best}");
    assert_eq!(e.go("go roll 4 4 6 depth 2").last().unwrap(), "bestmove 0000");
    // searchmoves names whole turns the roll allows; a turn the maximum rule forbids, another
    // roll's, or any without the roll, is refused.
    let reply = e.go("go roll 1 4 5 depth 2 searchmoves h2h4,h1h3 e2e4,d1h5");
    assert!(["bestmove h2h4,h1h3", "bestmove e2e4,d1h5"].contains(&reply.last().unwrap().as_str()), "{reply:?}");
    for bad in [
        "go roll 1 4 5 depth 1 searchmoves e2e4",
        "go roll 1 4 5 depth 1 searchmoves g1f3,b1c3",
        "go depth 1 searchmoves e2e4,d1h5",
    ] {
        let reply = e.go(bad);
        assert_eq!(errors(&reply), 1, "{bad}: {reply:?}");
        assert_eq!(reply.last().unwrap(), "bestmove (none)");
    }
    // Before the roll: one line per outcome, faces ascending, then the expected score.
    let reply = e.go("go depth 1");
    let rolls: Vec<&String> = reply.iter().filter(|l| l.starts_with("info roll ")).collect();
    assert_eq!(rolls.len(), 56);
    assert!(rolls[0].starts_with("info roll 1 1 1 prob 0.0046 ") && rolls[55].starts_with("info roll 6 6 6 "));
    let total: f64 = rolls.iter().map(|l| l.split_whitespace().nth(6).unwrap().parse::<f64>().unwrap()).sum();
    assert!((total - 1.0).abs() < 0.01, "{total}");
    assert!(reply.iter().any(|l| l.starts_with("info string expected score cp ")));
    assert_eq!(reply.last().unwrap(), "bestmove roll");
    // With the engine's own dice it rolls three and plays a whole turn.
    e.ask("setoption name EngineRolls value true");
    let reply = e.go("go depth 1");
    let roll = reply.iter().find_map(|l| l.strip_prefix("info string roll ")).expect("the engine's roll").to_string();
    assert_eq!(roll.split_whitespace().count(), 3);
    let best = reply.last().unwrap().strip_prefix("bestmove ").unwrap();
    assert!(listed(&e.ask(&format!("legalmoves roll {roll}"))).contains(&best.to_string()));
    e.quit();
}

/// The chance that the side to move takes the king this turn, read from the outcome table: the
/// sum of the probabilities of the rolls whose value is a win.
fn king_capture_chance(e: &mut Engine, dfen: &str) -> f64 {
    e.ask(&format!("position fen {dfen}"));
    let reply = e.go("go depth 1");
    reply
        .iter()
        .filter(|l| l.starts_with("info roll "))
        .filter(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let score: i32 = words[words.iter().position(|&w| w == "cp").unwrap() + 1].parse().unwrap();
            score > 3900
        })
        .map(|l| l.split_whitespace().nth(6).unwrap().parse::<f64>().unwrap())
        .sum()
}

#[test]
fn the_chance_of_taking_the_king_this_turn() {
    let mut e = dicechess3();
    // A rook on the king's file: any roll with a 4. 1 - (5/6)^3 = 91/216.
    let p = king_capture_chance(&mut e, "4k3/8/8/8/8/8/8/K3R3 w - - 0 1");
    assert!((p - 91.0 / 216.0).abs() < 0.002, "{p}");
    // A knight a jump away: any roll with a 2, 91/216 too.
    let p = king_capture_chance(&mut e, "4k3/8/3N4/8/8/8/8/K7 w - - 0 1");
    assert!((p - 91.0 / 216.0).abs() < 0.002, "{p}");
    // The rook's file blocked by its own bishop. The king falls to a bishop's step aside and the
    // rook (a 3 and a 4: 134, 234, 344, 345, 346, weighing 27 of 216), to the bishop's two steps
    // e4-c6-e8 (two 3s: 133, 233, 333, 334, 335, 336, 16), or to the rook going round
    // (e1-b1-b8-e8 on 444, 1): 44 of 216.
    let p = king_capture_chance(&mut e, "4k3/8/8/8/4B3/8/8/K3R3 w - - 0 1");
    assert!((p - 44.0 / 216.0).abs() < 0.002, "{p}");
    // Nothing reaches the king: no roll wins.
    assert_eq!(king_capture_chance(&mut e, "4k3/8/8/8/8/8/8/K7 w - - 0 1"), 0.0);
    e.quit();
}

#[test]
fn bad_input_gets_one_error() {
    let mut e = dicechess3();
    e.ask("position startpos moves b1a3,a1b1");
    let before = fen_of(&mut e);
    for bad in [
        // Four dice.
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNBR",
        // A die letter of the wrong case.
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNb",
        // A turn breaking the maximum rule: a rook's die was usable after a2a4.
        "position startpos moves a2a4",
        // A micro-move with a die already used: the turn's only pawn die is spent.
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PN moves e2e4,d2d4",
        // More micro-moves than dice.
        "position startpos moves a2a3,a3a4,a4a5,a5a6",
        // An en-passant target with no pawn in front of it.
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 1",
        "legalmoves roll 1 2",
        "legalmoves roll 1 2 3 4",
        "legalmoves roll any",
        "legalmoves count roll 1 2 3 first",
    ] {
        let reply = e.ask(bad);
        assert_eq!(errors(&reply), 1, "{bad}: {reply:?}");
        assert_eq!(reply.len(), 1, "{bad}: {reply:?}");
        after_refusal(&mut e, bad, "position startpos moves b1a3,a1b1", &before);
    }
    let reply = e.go("go roll 1 2 depth 1");
    assert_eq!((errors(&reply), reply.last().unwrap().as_str()), (1, "bestmove (none)"));
    // Chess960 is not part of dicechess3: refused, and the variant stays.
    assert_eq!(errors(&e.ask("setoption name UCI_Chess960 value true")), 1);
    assert!(e.ask("d").iter().any(|l| l == "Variant: dicechess3"));
    e.quit();
}

/// Every shared conformance case through `position`, `d` and `legalmoves` (the library test
/// checks the turn lists' SHA-1 too).
#[test]
fn legalmoves_agrees_with_the_conformance_cases() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/conformance/dicechess3.jsonl.gz");
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap()).read_to_string(&mut text).unwrap();
    let mut e = dicechess3();
    let mut checked = 0;
    for line in text.lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        let turns: Vec<&str> = case["turns"].as_array().unwrap().iter().map(|t| t.as_str().unwrap()).collect();
        let mut command = format!("position fen {}", case["start"].as_str().unwrap());
        if !turns.is_empty() {
            command.push_str(&format!(" moves {}", turns.join(" ")));
        }
        let reply = e.ask(&command);
        if reply.len() == 1 && reply[0].contains("threefold repetition") {
            // The generator's random games run on past a threefold repetition, which ends the
            // game here (docs/variants.md): such a case cannot be set up by its turns.
            continue;
        }
        assert!(reply.is_empty(), "{command}: {reply:?}");
        assert_eq!(fen_of(&mut e), case["fen"].as_str().unwrap());
        for (key, count) in case["counts"].as_object().unwrap() {
            let faces: Vec<String> = key.chars().map(String::from).collect();
            let faces = faces.join(" ");
            assert_eq!(e.ask(&format!("legalmoves count roll {faces}")), [format!("legalmoves count {count}")]);
            let first: Vec<String> =
                case["first"][key].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
            assert_eq!(listed(&e.ask(&format!("legalmoves roll {faces} first"))), first, "{command} roll {key}");
            checked += 1;
        }
    }
    assert!(checked > 5000, "{checked}");
    e.quit();
}
