//! `alea play`: a person plays the engine at the terminal. The dice are rolled and shown, the moves
//! they allow listed; moves are typed in SAN or UCI; Freedom is offered when it exists; passes are
//! announced; `hint` shows the engine's advice. With `--own-dice` the person enters every roll,
//! the engine's too, and the engine decides before its roll as it does when a GUI rolls. The game
//! is saved as PGN with rolls at the end, on end of input and on Ctrl-C.

use crate::advise::{game_diagram, score_text};
use alea_engine::Color;
use alea_engine::Roll;
use alea_engine::services::driver::{TurnEvent, TurnRequest, play_turn};
use alea_engine::services::handle::{GameHandle, RollSpec, SearchRoot};
use alea_engine::services::pgn::{GameRecord, RecordedTurn};
use alea_engine::services::registry::Variant;
use alea_engine::services::search::Limits;
use alea_engine::services::search::Skill;
use alea_engine::services::search::{Choice, SearchOptions, Shared};
use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

#[derive(clap::Args)]
pub struct PlayArgs {
    #[arg(long, default_value_t = Variant::DEFAULT, help = crate::variant_help())]
    variant: Variant,
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
    /// The engine's strength, 0 to 20 (UCI's Skill Level): below 20 it searches less deep and
    /// draws its move among the best few, weaker ones the more often the lower the level.
    #[arg(long, default_value_t = alea_engine::services::search::FULL_SKILL, value_parser = clap::value_parser!(u8).range(0..=20))]
    skill: u8,
    /// You enter every roll, yours and the engine's: dice thrown at the table, or a game
    /// followed from elsewhere.
    #[arg(long, conflicts_with = "seed")]
    own_dice: bool,
    /// Where the game is saved.
    #[arg(long, default_value = "alea-game.pgn")]
    pgn: PathBuf,
    #[command(flatten)]
    solution: crate::SolutionArg,
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

fn face_names(game: &GameHandle, roll: &Roll) -> String {
    format!("{roll} ({})", game.roll_meaning(roll))
}

/// The turn (or micro-move) `text` names among `allowed` (SAN or UCI), in UCI, or why not.
fn read_turn(game: &GameHandle, text: &str, allowed: &[String], roll: Option<&Roll>) -> Result<String, String> {
    let named = game.canonical(text).or_else(|| game.parse_san(text));
    match named {
        Some(turn) if allowed.contains(&turn) => Ok(turn),
        Some(_) => {
            let movers = role_names(&movers(game, allowed, roll), true);
            Err(if movers.is_empty() {
                format!("{text} is a legal move, but not one you may play now")
            } else {
                format!("{text} is a legal move, but not one you may play now: only {movers} may move")
            })
        }
        None => Err(format!("{text} is not a move here")),
    }
}

/// The kinds of piece that `turns` move (their first micro-move's piece) after `roll`, in the
/// order of roles.
fn movers(game: &GameHandle, turns: &[String], roll: Option<&Roll>) -> Vec<alea_engine::Role> {
    let mut roles: Vec<alea_engine::Role> = turns.iter().filter_map(|t| game.moving_role(t, roll)).collect();
    roles.sort_by_key(|r| r.index());
    roles.dedup();
    roles
}

/// Roles in words: `pawn`, `knight or bishop`, `pawn, knight or rook`; `plural` for the kinds
/// of piece (`pawns`, `knights or bishops`).
fn role_names(roles: &[alea_engine::Role], plural: bool) -> String {
    let names: Vec<String> = roles
        .iter()
        .map(|&r| match (plural, r) {
            (false, r) => r.name().to_string(),
            (true, alea_engine::Role::King) => "the king".to_string(),
            (true, r) => format!("{}s", r.name()),
        })
        .collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// Why a roll allows other pieces than its faces name (Freedom gives an unusable roll to the
/// lowest piece that can move): said when none of the rolled pieces can move.
fn fallback_note(game: &GameHandle, roll: &Roll, allowed: &[String]) -> Option<String> {
    let rolled: Vec<alea_engine::Role> = roll.faces().iter().map(|&f| alea_engine::Role::of_face(f)).collect();
    let moving = movers(game, allowed, Some(roll));
    (!moving.is_empty() && !moving.iter().any(|r| rolled.contains(r))).then(|| {
        let to = role_names(&moving, true).replace(" or ", " and ");
        format!(
            "No {} can move: the roll falls to {}{to}.",
            role_names(&rolled, false),
            if to == "the king" { "" } else { "the " }
        )
    })
}

/// Lists turns (or micro-moves) in SAN for the prompt.
fn names(game: &GameHandle, turns: &[String]) -> String {
    turns.iter().map(|t| game.san(t)).collect::<Vec<_>>().join(" ")
}

/// What a person may type, for the variant of `game`.
fn commands_help(game: &GameHandle, own_dice: bool) -> String {
    let mut text = String::from(
        "Type a move in SAN or UCI (e4 or e2e4), 'hint' for the engine's advice, 'undo' to take back your\n\
         last turn and Alea's answer, 'quit' to stop.",
    );
    if own_dice {
        text.push_str(&format!("\nYou enter every roll, yours and Alea's, as its faces ({}).", example_faces(game)));
    }
    if game.several_moves_a_turn() {
        text.push_str(
            "\nA turn is a micro-move for each die you can use: type them one at a time (or joined by commas);\n\
             'undo' takes back the micro-moves of the turn so far (with none made, your last turn).",
        );
    }
    text
}

/// The engine's advice on the decision open, printed (`hint` at a prompt).
type Hint<'a> = dyn Fn(&GameHandle, SearchRoot) + 'a;

/// What a question of the game came to: its answer, a take-back asked for (`undo` where nothing
/// of the turn is made), or the end.
enum Reply<T> {
    Got(T),
    TakeBack,
    Stop,
}

/// What a prompt got: a line, or the end of input / `quit`.
enum Answer {
    Line(String),
    Stop,
}

pub fn run(args: PlayArgs) -> ExitCode {
    if let Err(e) = args.solution.install() {
        eprintln!("alea play: {e}");
        return ExitCode::from(2);
    }
    let mut game = match GameHandle::of(args.variant, false) {
        Ok(game) => game,
        Err(e) => {
            eprintln!("alea play: {e}");
            return ExitCode::from(2);
        }
    };
    let Some(human) = Color::from_name(&args.color) else {
        eprintln!("alea play: --color takes white or black, not '{}'", args.color);
        return ExitCode::from(2);
    };
    if !(args.time > 0.0 && args.time <= 3600.0) || args.depth == Some(0) {
        eprintln!("alea play: --time takes seconds above 0 and --depth a whole number above 0");
        return ExitCode::from(2);
    }
    let record = Arc::new(Mutex::new(GameRecord::new(game.variant(), false, None)));
    {
        let mut r = record.lock().expect("record");
        let (white, black) = if human == Color::White { ("You", "Alea") } else { ("Alea", "You") };
        r.tags.push(("Event".into(), "alea play".into()));
        r.tags.push(("Date".into(), alea_engine::services::pgn::today()));
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
    // The dice of ply k come from the seed and k, so a take-back meets the same roll again.
    let seed = args.seed.unwrap_or_else(rand::random);
    let draw = |ply: usize, total: u32| {
        alea_engine::services::search::seeded_draw(seed, 0, ply as u64, u64::from(total)) as u32
    };
    let limits = match args.depth {
        Some(d) => Limits { depth: Some(d), ..Default::default() },
        None => Limits { movetime: Some((args.time * 1000.0) as u64), ..Default::default() },
    };
    let shared = Shared::new(64);
    let hint = |game: &GameHandle, root: SearchRoot| match game.search(
        &root,
        limits.clone(),
        SearchOptions::default(),
        &shared,
        &mut |_| {},
    ) {
        Ok(r) => {
            let best = match r.best {
                Choice::Turn(t) if root == SearchRoot::Decision && game.dice_left().is_none() => {
                    format!("play {} without rolling", game.san(&t))
                }
                Choice::Turn(t) => game.san(&t),
                Choice::Roll => "roll".into(),
            };
            println!("Hint: {best} (expected {}).", score_text(r.score));
        }
        Err(e) => println!("No hint: {e}."),
    };
    let commands = commands_help(&game, args.own_dice);
    let mut lines = std::io::stdin().lock().lines();
    // `help` is answered here, at every prompt, so no prompt of the game has to know it.
    let mut ask = |prompt: &str| -> Answer {
        loop {
            println!("{prompt}");
            match lines.next().and_then(|l| l.ok()).map(|l| l.trim().to_string()) {
                Some(line) if line == "help" || line == "?" => println!("{commands}"),
                Some(line) if line != "quit" => return Answer::Line(line),
                _ => return Answer::Stop,
            }
        }
    };
    println!("You play {} in {}. Type 'help' for the commands.", human.name(), game.variant().name());
    println!("{commands}");
    'game: loop {
        println!("\n{}", game_diagram(&game));
        if let Some(end) = game.end() {
            println!("Game over: {end}.");
            record.lock().expect("record").result = end.result.to_string();
            break;
        }
        let played: (String, Option<Roll>);
        let ply = record.lock().expect("record").turns.len();
        let may_take_back = record.lock().expect("record").last_turn_of(human).is_some();
        if game.side_to_move() == human {
            let pre = game.pre_roll_turns();
            let mut unrolled = None;
            if !pre.is_empty() {
                let may_roll = game.may_roll();
                loop {
                    let prompt = if may_roll {
                        format!("Without rolling: play {}, or type 'roll'.", names(&game, &pre))
                    } else {
                        format!("No roll this turn: play {}.", names(&game, &pre))
                    };
                    let Answer::Line(input) = ask(&prompt) else { return finish(&record, &args.pgn) };
                    match input.as_str() {
                        "roll" if !may_roll => println!("No roll this turn (in check, or after giving check)."),
                        "roll" => break,
                        "hint" => hint(&game, SearchRoot::Decision),
                        "undo" if may_take_back => {
                            take_back(&record, &mut game, human);
                            continue 'game;
                        }
                        "undo" => println!("{NOTHING_TO_TAKE_BACK}"),
                        text => match read_turn(&game, text, &pre, None) {
                            Ok(t) => {
                                unrolled = Some(t);
                                break;
                            }
                            Err(why) => println!("{why}."),
                        },
                    }
                }
            }
            if let Some(t) = unrolled {
                played = (t, None);
            } else {
                let roll = if args.own_dice {
                    match ask_roll(&game, "Your roll", may_take_back, &mut ask, Some(&hint)) {
                        Reply::Got(roll) => roll,
                        Reply::TakeBack => {
                            take_back(&record, &mut game, human);
                            continue 'game;
                        }
                        Reply::Stop => return finish(&record, &args.pgn),
                    }
                } else {
                    game.roll_for(draw(ply, game.total_weight())).expect("a game not over rolls")
                };
                println!("You rolled {}.", face_names(&game, &roll));
                let turn = if game.several_moves_a_turn() {
                    match micro_turn(&mut game, &roll, may_take_back, &mut ask, &hint) {
                        Reply::Got(turn) => turn,
                        Reply::TakeBack => {
                            take_back(&record, &mut game, human);
                            continue 'game;
                        }
                        Reply::Stop => return finish(&record, &args.pgn),
                    }
                } else {
                    let spec = RollSpec::Faces(roll.faces().to_vec());
                    let allowed = game.allowed_turns(&spec).expect("a checked roll");
                    if allowed == ["0000"] {
                        println!("No move is allowed: your turn is passed.");
                        "0000".to_string()
                    } else {
                        if let Some(note) = fallback_note(&game, &roll, &allowed) {
                            println!("{note}");
                        }
                        loop {
                            let Answer::Line(input) = ask(&format!("Your move ({}):", names(&game, &allowed))) else {
                                return finish(&record, &args.pgn);
                            };
                            match input.as_str() {
                                "" => {}
                                "hint" => hint(&game, SearchRoot::Rolled(spec.clone())),
                                "undo" if may_take_back => {
                                    take_back(&record, &mut game, human);
                                    continue 'game;
                                }
                                "undo" => println!("{NOTHING_TO_TAKE_BACK}"),
                                text => match read_turn(&game, text, &allowed, Some(&roll)) {
                                    Ok(t) => break t,
                                    Err(why) => println!("{why}."),
                                },
                            }
                        }
                    }
                };
                played = (turn, Some(roll));
            }
        } else {
            let request = |root: SearchRoot| TurnRequest {
                root,
                // With the person's dice the engine answers `roll` where it would roll.
                engine_rolls: !args.own_dice,
                search_forced_roll: false,
                limits: limits.clone(),
                options: SearchOptions::default(),
                skill: Skill::new(
                    args.skill,
                    alea_engine::services::search::seeded_draw(seed, 1, ply as u64, u64::MAX),
                ),
            };
            let mut rolled = None;
            let mut pick = |total: u32| draw(ply, total);
            let mut turn = match play_turn(&game, request(SearchRoot::Decision), &shared, &mut pick, &mut |event| {
                if let TurnEvent::Rolled(r) = event {
                    rolled = Some(r);
                }
            }) {
                Ok(turn) => turn,
                Err(e) => {
                    eprintln!("alea play: the engine could not play: {e}");
                    return finish(&record, &args.pgn);
                }
            };
            if args.own_dice && turn == "roll" {
                let roll = match ask_roll(&game, "Alea's roll", may_take_back, &mut ask, None) {
                    Reply::Got(roll) => roll,
                    // A mistyped roll of the person's last turn, say.
                    Reply::TakeBack => {
                        take_back(&record, &mut game, human);
                        continue 'game;
                    }
                    Reply::Stop => return finish(&record, &args.pgn),
                };
                let root = SearchRoot::Rolled(RollSpec::Faces(roll.faces().to_vec()));
                turn = match play_turn(&game, request(root), &shared, &mut pick, &mut |_| {}) {
                    Ok(answer) => game.turn_with_roll(&answer, &roll),
                    Err(e) => {
                        eprintln!("alea play: the engine could not play: {e}");
                        return finish(&record, &args.pgn);
                    }
                };
                rolled = Some(roll);
            }
            match rolled {
                None => println!("Alea plays {} without rolling.", game.san(&turn)),
                Some(r) if turn == "0000" => {
                    println!("Alea rolled {}: no move is allowed, its turn is passed.", face_names(&game, &r))
                }
                Some(r) => println!("Alea rolled {} and plays {}.", face_names(&game, &r), game.san(&turn)),
            }
            played = (turn, rolled);
        }
        let (turn, roll) = played;
        if game.turns().len() == record.lock().expect("record").turns.len() {
            // A whole turn to play; a turn made micro-move by micro-move is in the game already.
            game.play_checked(&turn, roll.as_ref()).expect("a turn from the lists");
        }
        record.lock().expect("record").turns.push(RecordedTurn { turn, roll, comment: None });
    }
    finish(&record, &args.pgn)
}

/// A roll the person enters (`who` asks for it: theirs or the engine's), asked again until the
/// variant takes it; `hint` is answered where given, and `undo` asks for a take-back where
/// `may_take_back`.
fn ask_roll(
    game: &GameHandle,
    who: &str,
    may_take_back: bool,
    ask: &mut dyn FnMut(&str) -> Answer,
    hint: Option<&Hint<'_>>,
) -> Reply<Roll> {
    let prompt = format!("{who} (the faces, as {}):", example_faces(game));
    loop {
        let Answer::Line(input) = ask(&prompt) else { return Reply::Stop };
        match (input.as_str(), hint) {
            ("", _) => {}
            ("hint", Some(hint)) => hint(game, SearchRoot::Decision),
            ("undo", _) if may_take_back => return Reply::TakeBack,
            ("undo", _) => println!("{NOTHING_TO_TAKE_BACK}"),
            (text, _) => match game.entered_roll(text) {
                Ok(roll) => return Reply::Got(roll),
                Err(why) => println!("{why}."),
            },
        }
    }
}

/// The answer to `undo` where the person has not played yet.
const NOTHING_TO_TAKE_BACK: &str = "Nothing to take back: no turn of yours is played yet.";

/// Takes back the person's last turn and the engine's after it (the dice of those plies come
/// again: a take-back undoes a mistake, not a roll), and says which.
fn take_back(record: &Mutex<GameRecord>, game: &mut GameHandle, human: Color) {
    let mut record = record.lock().expect("record");
    let Some(taken) = record.take_back(human) else { return };
    *game = record.game();
    println!("Took back {}.", taken.join(" "));
}

/// Faces written as the variant rolls them (`3`, `2 5`, `1 4 6`, `1 2 4 6`).
fn example_faces(game: &GameHandle) -> &'static str {
    ["3", "2 5", "1 4 6", "1 2 4 6"][game.dice().clamp(1, 4) - 1]
}

/// The person makes a turn of several micro-moves, one at a time (or several joined by commas),
/// each among the allowed next micro-moves. `undo` takes back the micro-moves made so far, or
/// where none is made asks for a take-back of the last turn (where `may_take_back`).
fn micro_turn(
    game: &mut GameHandle,
    roll: &Roll,
    may_take_back: bool,
    ask: &mut dyn FnMut(&str) -> Answer,
    hint: &Hint<'_>,
) -> Reply<String> {
    let played = |game: &GameHandle| Reply::Got(game.turns().last().cloned().expect("a turn played"));
    if game.start_turn(roll).expect("a roll of the variant") {
        println!("No move is allowed: your turn is passed.");
        return played(game);
    }
    // The micro-moves made so far, in SAN (each written in the position it was played in), and
    // the turn's start with its dice, to which `undo` goes back.
    let mut so_far: Vec<String> = Vec::new();
    let start = game.clone();
    loop {
        let left = game.dice_left().expect("a turn in progress");
        let allowed = game.first_moves(&RollSpec::Faces(left.faces().to_vec())).expect("the dice left");
        let prompt = if so_far.is_empty() {
            format!("Your micro-move, dice {} ({}):", face_names(game, &left), names(game, &allowed))
        } else {
            format!(
                "Your next micro-move after {}, dice left {} ({}):",
                so_far.join(","),
                face_names(game, &left),
                names(game, &allowed)
            )
        };
        let Answer::Line(input) = ask(&prompt) else { return Reply::Stop };
        if input.is_empty() {
            continue;
        }
        if input == "hint" {
            hint(game, SearchRoot::Decision);
            continue;
        }
        if input == "undo" {
            if so_far.is_empty() && may_take_back {
                return Reply::TakeBack;
            } else if so_far.is_empty() {
                println!("{NOTHING_TO_TAKE_BACK}");
            } else {
                println!("Took back {}: the turn starts again.", so_far.join(","));
                *game = start.clone();
                so_far.clear();
            }
            continue;
        }
        // Micro-moves joined by commas are played in order, on a copy: all or none.
        let mut next = game.clone();
        let mut sans = Vec::new();
        let mut outcome = Ok(false);
        for part in input.split(',').map(str::trim) {
            outcome = match outcome {
                Ok(false) => {
                    let left = next.dice_left().map(|d| d.faces().to_vec()).unwrap_or_default();
                    let allowed = next.first_moves(&RollSpec::Faces(left)).unwrap_or_default();
                    read_turn(&next, part, &allowed, None).and_then(|m| {
                        sans.push(next.san(&m));
                        next.play_step(&m).map_err(|e| e.to_string())
                    })
                }
                Ok(true) => Err(format!("the turn is over before {part}")),
                Err(e) => Err(e),
            };
        }
        match outcome {
            Ok(ended) => {
                *game = next;
                so_far.extend(sans);
                if ended {
                    return played(game);
                }
            }
            Err(why) => println!("{why}."),
        }
    }
}
fn finish(record: &Arc<Mutex<GameRecord>>, path: &PathBuf) -> ExitCode {
    save(&record.lock().unwrap_or_else(|e| e.into_inner()), path);
    ExitCode::SUCCESS
}
