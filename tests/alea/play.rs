//! `alea play` through the binary, answering its prompts as a person would.

use alea_engine::services::pgn::GameRecord;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// Starts `alea play` with `args`, its game saved to a file in a fresh directory named after
/// `tag`, which is removed when the returned handle drops.
fn start_play(tag: &str, args: &[&str]) -> (std::process::Child, std::path::PathBuf, tempfile::TempDir) {
    let dir = tempfile::Builder::new().prefix(&format!("alea-{tag}-")).tempdir().unwrap();
    let pgn = dir.path().join("game.pgn");
    let child = crate::common::alea()
        .arg("play")
        .args(args)
        .args(["--pgn", pgn.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    (child, pgn, dir)
}

/// Says `quit`, then reads what the program prints until it ends; it must end well.
fn quit(mut child: std::process::Child, mut stdin: std::process::ChildStdin, stdout: impl BufRead) -> String {
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    let mut rest = String::new();
    for line in stdout.lines() {
        rest.push_str(&line.unwrap());
        rest.push('\n');
    }
    assert!(child.wait().unwrap().success());
    rest
}

#[test]
fn a_person_plays_refused_input_is_explained_and_the_game_is_saved() {
    let (mut child, pgn, _dir) = start_play("play", &["--seed", "7", "--depth", "1"]);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut transcript = String::new();
    let mut moves_played = 0;
    let (mut helped, mut refused) = (false, false);
    while moves_played < 6 {
        let mut line = String::new();
        if stdout.read_line(&mut line).unwrap() == 0 {
            break;
        }
        transcript.push_str(&line);
        if let Some(list) = line.strip_prefix("Your move (").and_then(|l| l.trim_end().strip_suffix("):")) {
            if !helped {
                // The commands, and the same question again.
                writeln!(stdin, "help").unwrap();
                helped = true;
                continue;
            }
            if !refused {
                // Not a move at all: refused with the reason, and asked again.
                writeln!(stdin, "Zz9").unwrap();
                refused = true;
                continue;
            }
            writeln!(stdin, "{}", list.split(' ').next().unwrap()).unwrap();
            moves_played += 1;
        } else if line.starts_with("Without rolling: ") {
            writeln!(stdin, "roll").unwrap();
        }
    }
    let rest = quit(child, stdin, stdout);
    assert!(transcript.contains("You rolled "), "{transcript}");
    assert!(transcript.contains("Zz9 is not a move here."), "{transcript}");
    // Once at the start, once for `help`, which is not refused as a move.
    assert_eq!(transcript.matches("Type a move in SAN or UCI").count(), 2, "{transcript}");
    assert!(!transcript.contains("help is not a move"), "{transcript}");
    assert!(transcript.contains("Alea "), "{transcript}");
    assert!(rest.contains("Game saved to"), "{rest}");
    let record = GameRecord::from_pgn(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
    assert!(record.turns.len() >= 2 * moves_played - 1, "{} turns", record.turns.len());
    assert!(record.tags.iter().any(|(n, v)| n == "White" && v == "You"));
}

#[test]
fn ctrl_c_saves_the_game() {
    let (mut child, pgn, _dir) = start_play("play-int", &["--seed", "3", "--depth", "1", "--color", "black"]);
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    // Alea moves first as White; wait for our first prompt.
    let mut line = String::new();
    while !(line.starts_with("Your move (") || line.starts_with("Without rolling: ")) {
        line.clear();
        assert!(stdout.read_line(&mut line).unwrap() > 0, "no prompt");
    }
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    // Whether the handler or the interrupted read gets there first, the game is saved.
    child.wait().unwrap();
    let record = GameRecord::from_pgn(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
    assert_eq!(record.turns.len(), 1, "Alea's first move was saved");
}

/// An unknown variant is refused by name, with the names there are.
#[test]
fn unknown_variants_are_refused_with_the_names_there_are() {
    for args in [
        vec!["play", "--variant", "chess"],
        vec!["tune", "datagen", "--variant", "chess", "--games", "1", "--out", "/nonexistent/d.txt"],
    ] {
        let out = crate::common::alea().args(&args).stdin(Stdio::null()).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr.contains("unknown variant 'chess'") && stderr.contains("dicechess3"), "{stderr}");
    }
}

/// dicechess3 at the terminal: the turn is typed micro-move by micro-move among the listed ones;
/// a micro-move with its die used up is refused with the reason; `undo` goes back to the turn's
/// start; the game is saved with its rolls.
#[test]
fn a_person_plays_dicechess3_one_micro_move_at_a_time() {
    let (mut child, pgn, _dir) = start_play("play3", &["--variant", "dicechess3", "--seed", "5", "--depth", "1"]);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut transcript = String::new();
    let (mut steps, mut next_steps, mut tried_used, mut undone) = (0, 0, false, false);
    let mut last_micro = String::new();
    while steps < 8 {
        let mut line = String::new();
        if stdout.read_line(&mut line).unwrap() == 0 {
            break;
        }
        transcript.push_str(&line);
        let micro_prompt = line.starts_with("Your micro-move") || line.starts_with("Your next micro-move");
        if !micro_prompt {
            continue;
        }
        let list = line.trim_end().strip_suffix("):").and_then(|l| l.rsplit_once('(')).map(|(_, l)| l).unwrap();
        if line.starts_with("Your next") {
            next_steps += 1;
            if !tried_used {
                // The micro-move just played again: its die is used (or the piece has gone).
                writeln!(stdin, "{last_micro}").unwrap();
                tried_used = true;
                continue;
            }
            if !undone {
                // Back to the turn's start, its dice all left again.
                writeln!(stdin, "undo").unwrap();
                undone = true;
                continue;
            }
        }
        last_micro = list.split(' ').next().unwrap().to_string();
        writeln!(stdin, "{last_micro}").unwrap();
        steps += 1;
    }
    assert!(quit(child, stdin, stdout).contains("Game saved to"));
    assert!(next_steps > 0, "a turn had several micro-moves: {transcript}");
    assert!(transcript.contains("not one you may play now") || transcript.contains("not a move here"), "{transcript}");
    assert!(transcript.contains("Alea rolled "), "{transcript}");
    let after_undo = transcript.split("Took back ").nth(1).expect("the undo answered");
    assert!(after_undo.lines().nth(1).is_some_and(|l| l.starts_with("Your micro-move, dice")), "{transcript}");
    let record = GameRecord::from_pgn(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
    assert_eq!(record.variant.name(), "dicechess3");
    assert!(record.turns.len() >= 2, "{transcript}");
    assert!(record.turns.iter().all(|t| t.roll.is_some_and(|r| r.dice() == 3)));
    assert!(record.turns.iter().any(|t| t.turn.contains(',')), "{:?}", record.turns);
}

/// A roll that falls to other pieces is explained, and so is a legal move the roll does not allow.
#[test]
fn fallback_rolls_and_refused_moves_are_explained() {
    // Seed 3: the first roll is a queen, which cannot move at the start.
    let (mut child, _, _dir) = start_play("play-fallback", &["--seed", "3", "--depth", "1"]);
    let stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let text = quit(child, stdin, stdout);
    assert!(text.contains("You rolled 5 (queen).\nNo queen can move: the roll falls to the pawns."), "{text}");
    // Seed 11: a knight is rolled; a pawn move is legal chess but not allowed, and the reason says so.
    let (mut child, _, _dir) = start_play("play-refused", &["--seed", "11", "--depth", "1"]);
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "e4").unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let text = quit(child, stdin, stdout);
    assert!(text.contains("e4 is a legal move, but not one you may play now: only knights may move."), "{text}");
}

/// `--own-dice`: the person enters every roll, the engine's too (dice thrown at the table); a roll
/// the variant does not take is refused with the reason and asked for again; the engine's turn
/// is played on the dice entered, and the record keeps them. A seed makes no sense with them.
#[test]
fn with_own_dice_every_roll_is_entered() {
    let (mut child, pgn, _dir) = start_play("play-own", &["--variant", "dicechess3", "--own-dice", "--depth", "1"]);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut transcript = String::new();
    let (mut refused, mut engine_rolls) = (false, 0);
    while engine_rolls < 2 {
        let mut line = String::new();
        if stdout.read_line(&mut line).unwrap() == 0 {
            break;
        }
        transcript.push_str(&line);
        if line.starts_with("Your roll (the faces, as 1 4 6):") {
            if !refused {
                // Two dice where dicechess3 rolls three.
                writeln!(stdin, "2 5").unwrap();
                refused = true;
            } else {
                writeln!(stdin, "1,4,6").unwrap();
            }
        } else if line.starts_with("Alea's roll (the faces, as 1 4 6):") {
            writeln!(stdin, "{}", ["2 2 5", "136"][engine_rolls]).unwrap();
            engine_rolls += 1;
        } else if line.starts_with("Your micro-move") || line.starts_with("Your next micro-move") {
            let list = line.trim_end().strip_suffix("):").and_then(|l| l.rsplit_once('(')).map(|(_, l)| l).unwrap();
            writeln!(stdin, "{}", list.split(' ').next().unwrap()).unwrap();
        }
    }
    // The engine's second turn, played on the dice entered, before the next roll is asked for.
    let mut line = String::new();
    while !line.starts_with("Your roll") {
        line.clear();
        assert!(stdout.read_line(&mut line).unwrap() > 0, "{transcript}");
        transcript.push_str(&line);
    }
    assert!(quit(child, stdin, stdout).contains("Game saved to"));
    assert!(transcript.contains("this variant rolls 3 dice, but 2 faces were given"), "{transcript}");
    assert!(transcript.contains("You enter every roll, yours and Alea's"), "{transcript}");
    assert!(transcript.contains("Alea rolled 2 2 5 (knight, knight, queen)"), "{transcript}");
    let record = GameRecord::from_pgn(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
    let rolls: Vec<Vec<u8>> = record.turns.iter().map(|t| t.roll.unwrap().faces().to_vec()).collect();
    assert_eq!(rolls, [vec![1, 4, 6], vec![2, 2, 5], vec![1, 4, 6], vec![1, 3, 6]], "{transcript}");

    let out = crate::common::alea().args(["play", "--own-dice", "--seed", "3"]).stdin(Stdio::null()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--seed"));
}

/// `--skill` takes the engine's level, 0 to 20, and refuses another.
#[test]
fn a_skill_level_past_20_is_refused() {
    let out = crate::common::alea().args(["play", "--skill", "21"]).stdin(Stdio::null()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--skill"));
    let (mut child, pgn, _dir) = start_play("play-skill", &["--skill", "0", "--seed", "11", "--color", "black"]);
    let stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while !line.starts_with("Alea rolled") && !line.starts_with("Alea plays") {
        line.clear();
        assert!(stdout.read_line(&mut line).unwrap() > 0, "the engine played");
    }
    assert!(quit(child, stdin, stdout).contains("Game saved to"));
    let record = GameRecord::from_pgn(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
    assert_eq!(record.turns.len(), 1);
}

/// `undo` takes back the person's last turn and the engine's answer, and the same dice come again
/// (a take-back undoes a mistake, not a roll); before any turn of theirs there is nothing to take
/// back.
#[test]
fn undo_takes_back_a_turn_and_its_answer() {
    // Seed 11: a knight first.
    let (mut child, pgn, _dir) = start_play("play-undo", &["--seed", "11", "--depth", "1"]);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut transcript = String::new();
    let mut prompts = 0;
    while !transcript.contains("Took back ") {
        let mut line = String::new();
        assert!(stdout.read_line(&mut line).unwrap() > 0, "{transcript}");
        transcript.push_str(&line);
        if line.starts_with("Your move (") {
            prompts += 1;
            writeln!(stdin, "{}", ["undo", "Nc3", "undo"][prompts - 1]).unwrap();
        } else if line.starts_with("Without rolling: ") {
            writeln!(stdin, "undo").unwrap();
        }
    }
    // The next question is the first turn's again, with its knight.
    let mut line = String::new();
    while !line.starts_with("Your move (") {
        line.clear();
        assert!(stdout.read_line(&mut line).unwrap() > 0, "{transcript}");
        transcript.push_str(&line);
    }
    assert!(quit(child, stdin, stdout).contains("Game saved to"));
    assert!(transcript.contains("Nothing to take back: no turn of yours is played yet."), "{transcript}");
    let took_back = transcript.split("Took back ").nth(1).unwrap();
    assert!(took_back.starts_with("Nc3 "), "{transcript}");
    assert!(took_back.contains("You rolled 2 (knight)."), "the same roll again: {transcript}");
    let record = GameRecord::from_pgn(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
    assert!(record.turns.is_empty(), "{:?}", record.turns);
}
