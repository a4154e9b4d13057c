//! `alea analyse`: a game with its rolls, move by move. For a move after a roll: the best move for
//! that roll, what the move played lost against it, and the luck of the roll (the best move's value
//! for this roll minus the expected value of rolling). For a move played without rolling: what it
//! lost against the best choice before the roll. Then a summary per player, and an annotated PGN.

use crate::advise::score_text;
use alea_engine::Color;
use alea_engine::services::analysis;
use alea_engine::services::handle::GameHandle;
use alea_engine::services::pgn::GameRecord;
use alea_engine::services::search::Choice;
use alea_engine::services::search::Limits;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct AnalyseArgs {
    /// The game: PGN with rolls (as `alea` writes it).
    pgn: std::path::PathBuf,
    /// Seconds for each search (two a move: before and after the roll) [default: 0.5, unless
    /// --depth is given].
    #[arg(long, conflicts_with = "depth", allow_negative_numbers = true)]
    time: Option<f64>,
    /// Turns deep for each search, instead of a time.
    #[arg(long)]
    depth: Option<u32>,
    /// Only game N of the file (from 1); every game by default.
    #[arg(long)]
    game: Option<usize>,
    /// Write the game(s) annotated with each move's loss and luck to this file.
    #[arg(long)]
    out: Option<std::path::PathBuf>,
    /// Moves judged at once, each on one thread (with --depth the results are the same on any
    /// number) [default: the processor's cores].
    #[arg(long)]
    threads: Option<usize>,
    #[command(flatten)]
    solution: crate::SolutionArg,
}

/// What one move was worth.
struct MoveReport {
    ply: usize,
    side: Color,
    played: String,
    roll: Option<String>,
    best: String,
    best_score: i32,
    loss: i32,
    /// `None` for a move played without rolling.
    luck: Option<i32>,
    /// Where moves without rolling were offered and the player rolled: that choice judged.
    roll_decision: Option<DecisionReport>,
}

/// The choice to roll where moves without rolling were offered.
struct DecisionReport {
    /// The judgement in words.
    words: String,
    /// What rolling lost (part of the turn's loss).
    loss: i32,
    /// The move without rolling that was better, if one was.
    better: Option<String>,
}

fn refuse(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("alea analyse: {message}");
    ExitCode::from(2)
}

pub fn run(args: AnalyseArgs) -> ExitCode {
    if let Err(e) = args.solution.install() {
        return refuse(e);
    }
    let text = match std::fs::read_to_string(&args.pgn) {
        Ok(t) => t,
        Err(e) => return refuse(format!("cannot read {}: {e}", args.pgn.display())),
    };
    let mut records = match GameRecord::all_from_pgn(&text) {
        Ok(r) => r,
        Err(e) => return refuse(format!("{}: {e}", args.pgn.display())),
    };
    if args.time.is_some_and(|t| !(t > 0.0 && t <= 3600.0)) || args.depth == Some(0) {
        return refuse("--time takes seconds above 0 (at most an hour) and --depth a whole number above 0");
    }
    let chosen: Vec<usize> = match args.game {
        Some(n) if (1..=records.len()).contains(&n) => vec![n - 1],
        Some(n) => return refuse(format!("--game {n}: the file has {} game(s)", records.len())),
        None => (0..records.len()).collect(),
    };
    let limits = match (args.depth, args.time) {
        (Some(d), _) => Limits { depth: Some(d), ..Default::default() },
        (None, t) => Limits { movetime: Some((t.unwrap_or(0.5) * 1000.0) as u64), ..Default::default() },
    };
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if !(1..=256).contains(&threads) {
        return refuse("--threads takes 1 to 256");
    }
    let several = chosen.len() > 1;
    // Over all games, by player (their names from the tags; colours change from game to game).
    let mut by_player: Vec<(String, Vec<MoveReport>)> = Vec::new();
    for &i in &chosen {
        let record = &mut records[i];
        let name = |side: &str| record.tag(side).unwrap_or("?").to_string();
        let (white, black) = (name("White"), name("Black"));
        if several || args.game.is_some() {
            println!("Game {}: {white} vs {black}, {} ({})", i + 1, record.variant, record.result);
        }
        let reports = match analyse_game(record, &limits, threads) {
            Ok(r) => r,
            Err(e) => return refuse(format!("{}: game {}: {e}", args.pgn.display(), i + 1)),
        };
        print!("{}", summary(&reports));
        for r in reports {
            let player = if r.side == Color::White { white.clone() } else { black.clone() };
            match by_player.iter_mut().find(|(p, _)| *p == player) {
                Some((_, list)) => list.push(r),
                None => by_player.push((player, vec![r])),
            }
        }
        if several {
            println!();
        }
    }
    if several {
        println!("All {} games:", chosen.len());
        for (player, reports) in &by_player {
            let loss: i64 = reports.iter().map(|r| i64::from(r.loss)).sum();
            let luck: i64 = reports.iter().filter_map(|r| r.luck).map(i64::from).sum();
            println!(
                "{player}: {} moves, average loss {:.1}, total luck {luck:+}",
                reports.len(),
                loss as f64 / reports.len().max(1) as f64
            );
        }
    }
    if let Some(path) = &args.out {
        let text: Vec<String> = chosen.iter().map(|&i| records[i].to_pgn()).collect();
        if let Err(e) = std::fs::write(path, text.join("\n")) {
            return refuse(format!("cannot write {}: {e}", path.display()));
        }
    }
    ExitCode::SUCCESS
}

/// Judges every turn of one game, printing a row for each, and notes each turn's judgement in
/// the record (for `--out`). The turns are judged `threads` at a time (each search on one
/// thread with a table of its own, so the order changes no result) and printed in order.
fn analyse_game(record: &mut GameRecord, limits: &Limits, threads: usize) -> Result<Vec<MoveReport>, String> {
    println!(
        "move played  roll   best turn and its score for the side to move; loss of the turn played; luck of the roll\n     (and, where a move without rolling was offered, whether rolling was right)"
    );
    // The columns, set before the rows are printed as the turns are judged: as wide as the
    // longest turn played (a best turn of several micro-moves may be longer: room for one of
    // five characters a die) and the longest roll.
    let (mut turn_width, mut roll_width) = (7, 6);
    let positions = analysis::positions(record).map_err(|e| e.to_string())?;
    for (game, turn) in positions.iter().zip(&record.turns) {
        turn_width = turn_width.max(game.san(&turn.turn).chars().count());
        roll_width = roll_width.max(turn.roll.map_or(0, |r| r.to_string().len()));
    }
    if let Some(game) = positions.first().filter(|g| g.several_moves_a_turn()) {
        turn_width = turn_width.max(5 * game.dice() - 1);
    }
    let mut reports = Vec::with_capacity(record.turns.len());
    analysis::analyse_game(record, limits, threads, &mut |game, judged| {
        let report = move_report(game, judged);
        print_row(&report, turn_width, roll_width);
        reports.push(report);
    })
    .map_err(|e| e.to_string())?;
    for (t, r) in record.turns.iter_mut().zip(&reports) {
        let mut note = format!("best {} {}", r.best, score_text(r.best_score));
        if r.loss > 0 {
            note.push_str(&format!(", loss {}", r.loss));
        }
        if let Some(l) = r.luck {
            note.push_str(&format!(", luck {l:+}"));
        }
        if let Some(d) = &r.roll_decision {
            note.push_str(&format!("; {}", d.words));
        }
        t.comment = Some(note);
    }
    record.tags.push(("Annotator".into(), format!("Alea {}", env!("CARGO_PKG_VERSION"))));
    Ok(reports)
}

fn print_row(report: &MoveReport, turn_width: usize, roll_width: usize) {
    println!(
        "{:>3}. {:<turn_width$} {:<roll_width$} best {:<turn_width$} {:>6}  loss {:>5}  luck {}",
        report.ply / 2 + 1,
        report.played,
        report.roll.clone().unwrap_or_else(|| "free".into()),
        report.best,
        score_text(report.best_score),
        report.loss,
        report.luck.map_or("-".into(), |l| format!("{l:+}"))
    );
    if let Some(d) = &report.roll_decision {
        println!("     {}", d.words);
    }
}

/// A turn's judgement in the words and SAN of the table.
fn move_report(game: &GameHandle, a: &analysis::TurnAnalysis) -> MoveReport {
    MoveReport {
        ply: a.ply,
        side: a.side,
        played: game.san(&a.played),
        roll: a.roll.map(|r| r.to_string()),
        best: match &a.best {
            Choice::Turn(t) => game.san(t),
            Choice::Roll => "roll".into(),
        },
        best_score: a.best_score,
        loss: a.loss,
        luck: a.luck,
        roll_decision: a.roll_decision.as_ref().map(|d| {
            let offered: Vec<String> = d.offered.iter().map(|m| game.san(m)).collect();
            let better = match &d.best {
                Choice::Turn(t) => Some(game.san(t)),
                Choice::Roll => None,
            };
            let words = match &better {
                None => format!(
                    "rolling was right: {} {} without rolling, rolling {}",
                    offered.join(", "),
                    if offered.len() == 1 { "was offered" } else { "were offered" },
                    score_text(d.roll_score)
                ),
                Some(m) => format!(
                    "rolling lost {}: {m} without rolling was better ({} against rolling's {})",
                    d.loss,
                    score_text(d.best_score),
                    score_text(d.roll_score)
                ),
            };
            DecisionReport { words, loss: d.loss, better }
        }),
    }
}

fn summary(reports: &[MoveReport]) -> String {
    let mut out = String::new();
    for side in [Color::White, Color::Black] {
        let mine: Vec<&MoveReport> = reports.iter().filter(|r| r.side == side).collect();
        if mine.is_empty() {
            continue;
        }
        let total_loss: i64 = mine.iter().map(|r| i64::from(r.loss)).sum();
        let luck: i64 = mine.iter().filter_map(|r| r.luck).map(i64::from).sum();
        out.push_str(&format!(
            "{}: {} moves, average loss {:.1}, total luck {luck:+}\n",
            side.name(),
            mine.len(),
            total_loss as f64 / mine.len() as f64
        ));
        let decisions: Vec<i32> = mine.iter().filter_map(|r| r.roll_decision.as_ref().map(|d| d.loss)).collect();
        if !decisions.is_empty() {
            out.push_str(&format!(
                "  rolled {} time(s) where a move without rolling was offered: {} wrong, {} lost\n",
                decisions.len(),
                decisions.iter().filter(|&&l| l > 0).count(),
                decisions.iter().map(|&l| i64::from(l)).sum::<i64>()
            ));
        }
        let mut worst: Vec<&&MoveReport> = mine.iter().filter(|r| r.loss > 0).collect();
        worst.sort_by_key(|r| std::cmp::Reverse(r.loss));
        for r in worst.iter().take(3) {
            // What was better: the turn for this roll, the move without rolling, or both.
            let best = match r.roll_decision.as_ref().filter(|d| d.loss > 0).and_then(|d| d.better.as_ref()) {
                Some(free) if r.best == r.played => format!("{free} without rolling"),
                Some(free) => format!("{} after this roll, and {free} without rolling", r.best),
                None => r.best.clone(),
            };
            out.push_str(&format!(
                "  move {}{}: {} ({}) lost {}; best was {best}\n",
                r.ply / 2 + 1,
                if r.side == Color::White { "." } else { "..." },
                r.played,
                r.roll.clone().unwrap_or_else(|| "free".into()),
                r.loss,
            ));
        }
    }
    out
}
