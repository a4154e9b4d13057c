//! `alea advise`: the engine's advice on a position, for people (a board and tables) and for
//! programs (`--json`). With a roll, every allowed move ranked with its expected score and its cost
//! against the best; before the roll, what each outcome would bring and whether to play a move
//! without rolling instead (where the rules allow one).

use crate::rollout_table::{self, RolloutAsk};
use alea_engine::services::advice::{Advice, AdvisedOutcome, AdvisedRoll};
use alea_engine::services::handle::{GameHandle, RollSpec, SearchRoot};
use alea_engine::services::registry::Variant;
use alea_engine::services::rollout::RolloutSettings;
use alea_engine::services::search::Limits;
use alea_engine::services::search::{self, SearchOptions, Shared};
use serde_json::json;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct AdviseArgs {
    #[arg(long, default_value_t = Variant::DEFAULT, help = crate::variant_help())]
    variant: Variant,
    /// Chess960 castling and notation.
    #[arg(long)]
    chess960: bool,
    /// Start from this FEN (a DFEN where a turn is several micro-moves: its dice field makes a
    /// turn in progress) instead of the start position.
    #[arg(long)]
    fen: Option<String>,
    /// Turns played from the start, in UCI (`0000` for a pass; micro-moves joined by commas where
    /// a turn has several).
    #[arg(long, num_args = 1..)]
    moves: Vec<String>,
    /// The roll: faces such as `4`, `2,5` or `1,4,6`, or `any`. Without it, the advice before the
    /// roll.
    #[arg(long)]
    roll: Option<String>,
    /// Seconds to think [default: 1, unless --depth is given].
    #[arg(long, conflicts_with = "depth", allow_negative_numbers = true)]
    time: Option<f64>,
    /// Turns deep to search, instead of a time.
    #[arg(long)]
    depth: Option<u32>,
    /// How many moves to score exactly (all of them by default; the best ten where a turn is
    /// several micro-moves).
    #[arg(long)]
    multipv: Option<usize>,
    /// Score only these turns the roll allows, as `go searchmoves` (your own turn against your
    /// other ideas; whole turns where a turn is several micro-moves, `e2e4,d1h5`); needs --roll,
    /// or a turn in progress.
    #[arg(long, num_args = 1.., value_name = "TURNS")]
    searchmoves: Vec<String>,
    /// Print JSON instead of the board and tables.
    #[arg(long)]
    json: bool,
    /// After the search, play the game out this many times from each of its best choices (a
    /// rollout, as backgammon programs check a position): the engine on both sides, the same dice
    /// for every choice, the mean result with its 95 % interval.
    #[arg(long, value_name = "GAMES")]
    rollout: Option<u32>,
    /// How many of the search's best choices the rollout plays out.
    #[arg(long, default_value_t = 5, requires = "rollout", value_name = "N")]
    rollout_choices: usize,
    /// Turns each player of the rollout searches.
    #[arg(long, default_value_t = 1, requires = "rollout", value_name = "TURNS")]
    rollout_depth: u32,
    /// Cut each rollout game after this many turns and value it by a search, instead of playing
    /// it to its end.
    #[arg(long, requires = "rollout", value_name = "TURNS")]
    rollout_turns: Option<u32>,
    /// Stop the rollout after this many seconds, with the games every choice has finished.
    #[arg(long, requires = "rollout", value_name = "SECONDS")]
    rollout_time: Option<f64>,
    /// Count each rollout game's result as it ended, without taking the luck of its rolls out
    /// (by default it is, as GNU Backgammon reduces a rollout's variance: the same precision
    /// from several times fewer games).
    #[arg(long, requires = "rollout")]
    rollout_raw: bool,
    /// The rollout's dice: the same seed, the same games.
    #[arg(long, default_value_t = 1, requires = "rollout")]
    seed: u64,
    /// Threads playing the rollout's games [default: the machine's cores].
    #[arg(long, requires = "rollout", value_name = "N")]
    threads: Option<usize>,
    #[command(flatten)]
    solution: crate::SolutionArg,
}

/// A refused argument: the message names it.
fn refuse(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("alea advise: {message}");
    ExitCode::from(2)
}

pub fn run(args: AdviseArgs) -> ExitCode {
    if let Err(e) = args.solution.install() {
        return refuse(e);
    }
    let game = match GameHandle::setup(args.variant, args.chess960, args.fen.as_deref(), None, &args.moves) {
        Ok(g) => g,
        Err(e) => return refuse(e),
    };
    let roll = match args.roll.as_deref() {
        None => None,
        Some("any") => Some(RollSpec::Any),
        Some(text) => match game.roll_from_text(text) {
            Ok(r) => Some(RollSpec::Faces(r.faces().to_vec())),
            Err(e) => return refuse(format!("--roll {text}: {e}")),
        },
    };
    if args.multipv == Some(0) {
        return refuse("--multipv takes how many moves to score exactly: 1 or more");
    }
    if args.time.is_some_and(|t| !(t > 0.0 && t <= 86_400.0)) || args.depth == Some(0) {
        return refuse("--time takes seconds above 0 (at most a day) and --depth a whole number above 0");
    }
    let rollout = match rollout_ask(&args, &game) {
        Ok(ask) => ask,
        Err(e) => return refuse(e),
    };
    if let Some(end) = game.end() {
        if args.json {
            println!("{}", json!({ "fen": game.fen(), "result": end.to_string() }));
        } else {
            println!("{}", game_diagram(&game));
            println!("The game is over: {end}.");
        }
        return ExitCode::SUCCESS;
    }
    // A turn in progress (a DFEN with dice) is advised with its own dice.
    let roll = roll.or_else(|| game.dice_left().map(|r| RollSpec::Faces(r.faces().to_vec())));
    let (root, choices) = match &roll {
        Some(_) if !args.searchmoves.is_empty() => match game.check_only(roll.as_ref(), &args.searchmoves) {
            Ok(()) => {
                (SearchRoot::Only { roll: roll.clone(), turns: args.searchmoves.clone() }, args.searchmoves.len())
            }
            Err(e) => return refuse(format!("--searchmoves: {e}")),
        },
        None if !args.searchmoves.is_empty() => {
            return refuse("--searchmoves needs --roll (the turns the roll allows)");
        }
        None => (SearchRoot::Decision, game.pre_roll_turns().len() + 1),
        Some(spec) => match game.count_turns(spec) {
            Ok(n) => (SearchRoot::Rolled(spec.clone()), n as usize),
            Err(e) => return refuse(e),
        },
    };
    // Several micro-moves a turn make thousands of turns: the best ten unless asked.
    let default_multipv = if game.several_moves_a_turn() { choices.min(10) } else { choices };
    let limits = match (args.depth, args.time) {
        (Some(d), _) => Limits { depth: Some(d), ..Default::default() },
        (None, t) => Limits { movetime: Some((t.unwrap_or(1.0) * 1000.0) as u64), ..Default::default() },
    };
    let options = SearchOptions { multipv: args.multipv.unwrap_or(default_multipv).max(1), ..SearchOptions::default() };
    let result = match game.search(&root, limits, options, &Shared::new(64), &mut |_| {}) {
        Ok(r) => r,
        Err(e) => return refuse(e),
    };
    let advice = Advice::of(&game, roll.as_ref(), &result);
    if !args.json {
        print!("{}", to_text(&game, &advice));
    }
    let rolled = match rollout.map(|ask| rollout_table::run(&game, &root, &result, &ask)).transpose() {
        Ok(rolled) => rolled,
        Err(e) => return refuse(format!("--rollout: {e}")),
    };
    if args.json {
        let mut value = serde_json::to_value(&advice).expect("advice serialises");
        if let Some(rolled) = &rolled {
            value["rollout"] = rolled.to_json(&game);
        }
        println!("{value}");
    } else if let Some(rolled) = &rolled {
        print!("{}", rolled.to_text(&game));
    }
    ExitCode::SUCCESS
}

/// The rollout the arguments ask for, checked.
fn rollout_ask(args: &AdviseArgs, game: &GameHandle) -> Result<Option<RolloutAsk>, String> {
    let Some(games) = args.rollout else { return Ok(None) };
    if game.is_solved() {
        return Err(format!("--rollout: {} is solved exactly, its values need no rollout", game.variant().name()));
    }
    if !(1..=1_000_000).contains(&games) {
        return Err("--rollout takes 1 to 1,000,000 games a choice".into());
    }
    if args.rollout_choices == 0 || args.rollout_depth == 0 || !(1..=20).contains(&args.rollout_depth) {
        return Err("--rollout-choices takes a whole number above 0, --rollout-depth 1 to 20 turns".into());
    }
    if args.rollout_time.is_some_and(|t| !(t > 0.0 && t <= 86_400.0)) {
        return Err("--rollout-time takes seconds above 0 (at most a day)".into());
    }
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if !(1..=256).contains(&threads) {
        return Err("--threads takes 1 to 256".into());
    }
    Ok(Some(RolloutAsk {
        settings: RolloutSettings {
            games,
            depth: args.rollout_depth,
            turns: args.rollout_turns,
            seed: args.seed,
            threads,
            time: args.rollout_time.map(std::time::Duration::from_secs_f64),
            luck_adjusted: !args.rollout_raw,
        },
        choices: args.rollout_choices,
    }))
}

pub(crate) fn score_text(score: i32) -> String {
    if score >= search::MATE_ZONE {
        "win".into()
    } else if score <= -search::MATE_ZONE {
        "loss".into()
    } else {
        format!("{score:+}")
    }
}

/// The position as a board of Unicode pieces, White at the bottom, with the last turn.
pub(crate) fn game_diagram(game: &GameHandle) -> String {
    let glyph = |piece: Option<char>| match piece {
        None => '·',
        Some(c) => {
            let i = "pnbrqk".find(c.to_ascii_lowercase()).expect("a piece letter");
            let glyphs = if c.is_ascii_uppercase() {
                ['♙', '♘', '♗', '♖', '♕', '♔']
            } else {
                ['♟', '♞', '♝', '♜', '♛', '♚']
            };
            glyphs[i]
        }
    };
    let diagram = game.diagram();
    let width = diagram.ranks.iter().map(|(name, _)| name.len()).max().unwrap_or(1);
    let mut out = String::new();
    for (name, pieces) in &diagram.ranks {
        out.push_str(&format!(" {name:>width$} "));
        for &piece in pieces {
            out.push(' ');
            out.push(glyph(piece));
        }
        out.push('\n');
    }
    out.push_str(&format!("{:width$}   {}\n", "", diagram.files.join(" ")));
    let variant = game.variant().name();
    let chess960 = if game.chess960() { " (Chess960)" } else { "" };
    out.push_str(&format!("{variant}{chess960}, {} to move", game.side_to_move().name()));
    if let Some(last) = game.turns().last() {
        out.push_str(&format!(", last move {last}"));
    }
    out.push('\n');
    out
}

fn roll_text(advice: &Advice) -> String {
    match &advice.roll {
        AdvisedRoll::Before => "before the roll".into(),
        AdvisedRoll::Any => "any move".into(),
        AdvisedRoll::Faces(faces) => {
            let text: Vec<String> = faces.iter().map(u8::to_string).collect();
            format!("roll {} ({})", text.join(" "), advice.roll_meaning.as_deref().unwrap_or(""))
        }
    }
}

/// The advice as text: the board, then the choices ranked after a roll (or the outcomes of
/// the roll and the moves without rolling before it), then the verdict.
fn to_text(game: &GameHandle, advice: &Advice) -> String {
    let mut out = game_diagram(game);
    out.push_str(&format!(
        "{}, depth {}, {} nodes; scores in centipawns for {}\n\n",
        roll_text(advice),
        advice.depth,
        advice.nodes,
        advice.side
    ));
    let turns = || advice.choices.iter().filter(|c| c.uci != "roll");
    // The move column as wide as its longest entry (a whole turn of three micro-moves is wider
    // than a chess move).
    let width = |sans: &mut dyn Iterator<Item = &String>| sans.map(|s| s.chars().count()).max().unwrap_or(0).max(8);
    match &advice.roll {
        // A solved variant: each turn's exact expected result (a win 1, a draw 1/2).
        AdvisedRoll::Any | AdvisedRoll::Faces(_) if advice.value.is_some() => {
            let mw = width(&mut turns().map(|c| &c.san));
            out.push_str(&format!("   #  {:<mw$}     exact value       loss\n", "move"));
            let best = advice.value.unwrap_or(0.5);
            for (i, c) in advice.choices.iter().enumerate().filter(|(_, c)| c.uci != "roll") {
                let v = c.value.unwrap_or(0.5);
                out.push_str(&format!("{:>4}  {:<mw$} {:>14.12} {:>10.8}\n", i + 1, c.san, v, best - v));
            }
        }
        AdvisedRoll::Any | AdvisedRoll::Faces(_) => {
            // Thousands of turns (several micro-moves a turn): the exact ones, then a summary.
            let shown = if game.several_moves_a_turn() {
                advice.choices.iter().filter(|c| c.exact).count()
            } else {
                advice.choices.len()
            };
            let mw = width(&mut turns().take(shown).map(|c| &c.san));
            out.push_str(&format!("   #  {:<mw$}  score cp lost   win  draw  loss\n", "move"));
            for (i, c) in advice.choices.iter().enumerate().take(shown).filter(|(_, c)| c.uci != "roll") {
                let [w, d, l] = c.wdl;
                let bound = if c.exact { " " } else { "≤" };
                out.push_str(&format!(
                    "{:>4}  {:<mw$} {}{:>6} {:>7}  {:>3}%  {:>3}%  {:>3}%\n",
                    i + 1,
                    c.san,
                    bound,
                    score_text(c.score),
                    if c.exact { c.loss.to_string() } else { format!("≥{}", c.loss) },
                    w / 10,
                    d / 10,
                    l / 10
                ));
            }
            if let Some(next) = advice.choices.get(shown) {
                out.push_str(&format!(
                    "        ({} more turns, each at most {})\n",
                    advice.choices.len() - shown,
                    score_text(next.score)
                ));
            }
        }
        AdvisedRoll::Before => {
            let mw = width(&mut advice.outcomes.iter().map(|o| &o.san));
            let faces = |o: &AdvisedOutcome| o.roll.iter().map(u8::to_string).collect::<Vec<_>>().join(" ");
            let rw = advice.outcomes.iter().map(|o| faces(o).len()).max().unwrap_or(0).max(5);
            out.push_str(&format!("  {:<rw$}  prob   {:<mw$}  score\n", "roll", "best"));
            for o in &advice.outcomes {
                let note = match (o.value, o.estimated) {
                    (Some(v), _) => format!("  exact value {v:.12}"),
                    (None, true) => "  (estimated)".into(),
                    (None, false) => String::new(),
                };
                out.push_str(&format!(
                    "  {:<rw$} {:>5.1}%  {:<mw$} {:>6}{note}\n",
                    faces(o),
                    o.probability * 100.0,
                    if o.estimated { "-" } else { o.san.as_str() },
                    score_text(o.score),
                ));
            }
            let estimated = advice.outcomes.iter().filter(|o| o.estimated).count();
            if estimated > 0 {
                out.push_str(&format!(
                    "  The search did not finish one turn in the time given: {} of {} outcomes searched, the \
                     other {estimated} estimated by the horizon alone (captures the dice allow). Give more \
                     --time (or --depth 1) for every outcome searched.\n",
                    advice.outcomes.len() - estimated,
                    advice.outcomes.len()
                ));
            }
            if let Some(e) = advice.expected {
                let exact = advice.choices.iter().find(|c| c.uci == "roll").and_then(|c| c.value);
                let exact = exact.map_or(String::new(), |v| format!(" (exact value {v:.12})"));
                out.push_str(&format!("  expected score of rolling: {}{exact}\n", score_text(e)));
            }
            let mw = width(&mut turns().map(|c| &c.san));
            if turns().next().is_some() {
                // A move with a reason to need no roll (a recapture, a check) says it.
                out.push_str("\n  without rolling:\n");
                for c in turns() {
                    let exact = c.value.map_or(String::new(), |v| format!("  exact value {v:.12}"));
                    let why =
                        if c.pre_roll.is_empty() { String::new() } else { format!("  ({})", c.pre_roll.join(", ")) };
                    out.push_str(&format!(
                        "    {:<mw$} {}{:>6}{why}{exact}\n",
                        c.san,
                        if c.exact { " " } else { "≤" },
                        score_text(c.score),
                    ));
                }
            }
        }
    }
    let verdict = match advice.best.as_str() {
        "roll" => "roll".to_string(),
        _ if advice.before_roll => format!("play {} without rolling", advice.best_san),
        _ => format!("play {}", advice.best_san),
    };
    let score = match advice.mate {
        Some(n) if n > 0 => format!("a certain win in {n}"),
        Some(n) => format!("a certain loss in {}", -n),
        None => format!("expected score {}", score_text(advice.score)),
    };
    let score = match advice.value {
        Some(v) => format!("{score}, exact value {v:.12}"),
        None => score,
    };
    out.push_str(&format!("\nbest: {verdict} ({score}; uci {})\n", advice.best));
    out
}
