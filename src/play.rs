//! `alea play`: a person plays the engine at the terminal. The dice are rolled and shown, the moves
//! they allow listed; moves are typed in SAN or UCI; Freedom is offered when it exists; passes are
//! announced; `hint` shows the engine's advice. The game is saved as PGN with rolls at the end, on
//! end of input and on Ctrl-C.

use crate::advise::{diagram, san, score_text};
use alea_engine::pgn::{GameRecord, RecordedTurn};
use alea_engine::rules::dice::pick_by_weight;
use alea_engine::rules::{OutcomeList, Position, Roll, Rules, TurnList, Variant, VariantKind};
use alea_engine::san::from_san;
use alea_engine::search::{Choice, Root, SearchOptions, Shared, search_game};
use alea_engine::timeman::Limits;
use alea_engine::{Board, Color, Game, Move};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

#[derive(clap::Args)]
pub struct PlayArgs {
    /// Rule set: freedom, classic or brainking.
    #[arg(long, default_value = "freedom")]
    variant: String,
    /// Your colour.
    #[arg(long, default_value = "white")]
    color: String,
    /// Seconds the engine thinks a move.
    #[arg(long, default_value_t = 1.0, conflicts_with = "depth")]
    time: f64,
    /// Turns the engine searches a move, instead of a time.
    #[arg(long)]
    depth: Option<u32>,
    /// Seed of the dice (random if not given).
    #[arg(long)]
    seed: Option<u64>,
    /// Where the game is saved.
    #[arg(long, default_value = "alea-game.pgn")]
    pgn: PathBuf,
}

/// Saves the game whole or not at all: written beside the file, then renamed over it, so a save cut
/// off by the process ending leaves the last complete one.
fn save(record: &GameRecord, path: &PathBuf) {
    let mut partial = path.clone().into_os_string();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    match std::fs::write(&partial, record.to_pgn()).and_then(|()| std::fs::rename(&partial, path)) {
        Ok(()) => println!("Game saved to {}.", path.display()),
        Err(e) => eprintln!("alea play: cannot save the game to {}: {e}", path.display()),
    }
}

fn face_names(roll: &Roll) -> String {
    let names: Vec<&str> =
        roll.faces().iter().map(|&f| ["pawn", "knight", "bishop", "rook", "queen", "king"][f as usize - 1]).collect();
    format!("{roll} ({})", names.join(", "))
}

/// The turn `text` names among `allowed` (SAN or UCI), or why not.
fn read_turn(game: &Game<Variant>, text: &str, allowed: &[Move]) -> Result<Move, String> {
    let rules = game.rules();
    let pos = game.position();
    if let Some(t) = allowed.iter().find(|&&t| rules.turn_to_uci(t) == text) {
        return Ok(*t);
    }
    if let Some(t) = from_san(&pos.board, text, allowed) {
        return Ok(t);
    }
    // Say why: not a move at all, or not one this roll allows.
    let mut any = TurnList::new();
    rules.any_turns(pos, &mut any);
    let known = rules.parse_turn(pos, text).is_some() || from_san(&pos.board, text, &any).is_some();
    Err(if known {
        format!("{text} is a legal move, but not one you may play now")
    } else {
        format!("{text} is not a move here")
    })
}

pub fn run(args: PlayArgs) -> ExitCode {
    let kind = match VariantKind::for_tool(&args.variant) {
        Ok(kind) => kind,
        Err(e) => {
            eprintln!("alea play: {e}");
            return ExitCode::from(2);
        }
    };
    let human = match args.color.as_str() {
        "white" => Color::White,
        "black" => Color::Black,
        other => {
            eprintln!("alea play: --color takes white or black, not '{other}'");
            return ExitCode::from(2);
        }
    };
    if !(args.time > 0.0 && args.time <= 3600.0) || args.depth == Some(0) {
        eprintln!("alea play: --time takes seconds above 0 and --depth a whole number above 0");
        return ExitCode::from(2);
    }
    let rules = Variant::new(kind, false);
    let mut game = Game::new(rules, Position::new(Board::startpos()));
    let record = Arc::new(Mutex::new(GameRecord::new(rules.name(), false, None)));
    {
        let mut r = record.lock().expect("record");
        let (white, black) = if human == Color::White { ("You", "Alea") } else { ("Alea", "You") };
        r.tags.push(("Event".into(), "alea play".into()));
        r.tags.push(("White".into(), white.into()));
        r.tags.push(("Black".into(), black.into()));
    }
    {
        let record = Arc::clone(&record);
        let path = args.pgn.clone();
        let _ = ctrlc::set_handler(move || {
            println!();
            // The lock is held until the process ends, so a save the main thread starts (its read
            // interrupted by the same signal) cannot be cut off halfway by this exit.
            let guard = record.lock().unwrap_or_else(|e| e.into_inner());
            save(&guard, &path);
            std::process::exit(130);
        });
    }
    let mut dice = StdRng::seed_from_u64(args.seed.unwrap_or_else(rand::random));
    let limits = match args.depth {
        Some(d) => Limits { depth: Some(d), ..Default::default() },
        None => Limits { movetime: Some((args.time * 1000.0) as u64), ..Default::default() },
    };
    let think = |game: &Game<Variant>, root: Root<Move>| {
        search_game(game, root, limits.clone(), SearchOptions::default(), &Shared::new(64), &mut |_| {})
    };
    let roll_dice = |game: &Game<Variant>, dice: &mut StdRng| {
        let mut outcomes = OutcomeList::new();
        rules.outcomes(game.position(), &mut outcomes);
        let total: u32 = outcomes.iter().map(|o| o.weight).sum();
        pick_by_weight(&outcomes, u64::from(dice.random_range(0..total))).expect("a game not over has outcomes")
    };
    let mut lines = std::io::stdin().lock().lines();
    let mut ask = |prompt: &str| -> Option<String> {
        println!("{prompt}");
        lines.next().and_then(|l| l.ok()).map(|l| l.trim().to_string())
    };
    println!(
        "You play {} in {}. Type a move in SAN or UCI, 'hint' for advice, 'quit' to stop.",
        human.name(),
        rules.name()
    );
    loop {
        println!("\n{}", diagram(&game));
        if let Some(end) = game.end() {
            println!("Game over: {end}.");
            record.lock().expect("record").result = end.result.to_string();
            break;
        }
        let pos = game.position().clone();
        let mut played: Option<(Move, Option<Roll>)> = None;
        if pos.board.turn() == human {
            let mut pre = TurnList::new();
            rules.pre_roll_turns(&pos, &mut pre);
            if !pre.is_empty() {
                let names: Vec<String> = pre.iter().map(|&t| san(&game, t)).collect();
                loop {
                    let Some(input) =
                        ask(&format!("Freedom: play {} without rolling, or type 'roll'.", names.join(" ")))
                    else {
                        return finish(&record, &args.pgn);
                    };
                    match input.as_str() {
                        "roll" => break,
                        "quit" => return finish(&record, &args.pgn),
                        "hint" => {
                            let r = think(&game, Root::PreRoll);
                            let best = match r.best {
                                Choice::Turn(t) => format!("play {} without rolling", san(&game, t)),
                                Choice::Roll => "roll".into(),
                            };
                            println!("Hint: {best} (expected {}).", score_text(r.score));
                        }
                        text => match read_turn(&game, text, &pre) {
                            Ok(t) => {
                                played = Some((t, None));
                                break;
                            }
                            Err(why) => println!("{why}."),
                        },
                    }
                }
            }
            if played.is_none() {
                let r = roll_dice(&game, &mut dice);
                let roll = Some(r);
                let mut allowed = TurnList::new();
                rules.allowed_turns(&pos, &r, &mut allowed);
                println!("You rolled {}.", face_names(&r));
                if allowed.as_slice() == [Move::NULL] {
                    println!("No move is allowed: your turn is passed.");
                    played = Some((Move::NULL, roll));
                } else {
                    let names: Vec<String> = allowed.iter().map(|&t| san(&game, t)).collect();
                    loop {
                        let Some(input) = ask(&format!("Your move ({}):", names.join(" "))) else {
                            return finish(&record, &args.pgn);
                        };
                        match input.as_str() {
                            "quit" => return finish(&record, &args.pgn),
                            "hint" => {
                                let h = think(&game, Root::Turns(allowed.to_vec()));
                                if let Choice::Turn(t) = h.best {
                                    println!("Hint: {} (expected {}).", san(&game, t), score_text(h.score));
                                }
                            }
                            text => match read_turn(&game, text, &allowed) {
                                Ok(t) => {
                                    played = Some((t, roll));
                                    break;
                                }
                                Err(why) => println!("{why}."),
                            },
                        }
                    }
                }
            }
        } else {
            let decision = think(&game, Root::PreRoll);
            match decision.best {
                Choice::Turn(t) => {
                    println!("Alea plays {} without rolling.", san(&game, t));
                    played = Some((t, None));
                }
                Choice::Roll => {
                    let r = roll_dice(&game, &mut dice);
                    let mut allowed = TurnList::new();
                    rules.allowed_turns(&pos, &r, &mut allowed);
                    let t = if allowed.as_slice() == [Move::NULL] {
                        Move::NULL
                    } else {
                        match think(&game, Root::Turns(allowed.to_vec())).best {
                            Choice::Turn(t) => t,
                            Choice::Roll => allowed[0],
                        }
                    };
                    if t.is_null() {
                        println!("Alea rolled {}: no move is allowed, its turn is passed.", face_names(&r));
                    } else {
                        println!("Alea rolled {} and plays {}.", face_names(&r), san(&game, t));
                    }
                    played = Some((t, Some(r)));
                }
            }
        }
        let (turn, roll) = played.expect("a turn was chosen");
        game.play(turn);
        record.lock().expect("record").turns.push(RecordedTurn { turn: rules.turn_to_uci(turn), roll, comment: None });
    }
    finish(&record, &args.pgn)
}

fn finish(record: &Arc<Mutex<GameRecord>>, path: &PathBuf) -> ExitCode {
    save(&record.lock().unwrap_or_else(|e| e.into_inner()), path);
    ExitCode::SUCCESS
}
