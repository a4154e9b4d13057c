//! `alea solve <variant>`: a variant small enough to number its states solved exactly by value
//! iteration, the table written for the engine to play from.

use alea_engine::services::registry::Variant;
use alea_engine::services::solution::{Solver, Table};
use std::process::ExitCode;
use std::time::Instant;

#[derive(clap::Args)]
pub struct SolveArgs {
    /// The variant to solve: one small enough to number its states (any other is refused with
    /// the list of those that are).
    game: Variant,
    /// Write the table here (the engine's `DieChessTable` option reads it).
    #[arg(long)]
    out: Option<std::path::PathBuf>,
    /// Stop when a sweep changes no value by more than this.
    #[arg(long, default_value_t = 1e-12)]
    tolerance: f64,
    /// Threads sharing each sweep.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Read the table from this file instead of solving.
    #[arg(long)]
    table: Option<std::path::PathBuf>,
    /// Measure the search at these depths against the exact values (comma-separated).
    #[arg(long, value_delimiter = ',')]
    search_depths: Vec<u32>,
    /// Positions the measurement searches (random ones the table does not value at a draw).
    #[arg(long, default_value_t = 40)]
    positions: usize,
    /// Plot the measurement as SVG here.
    #[arg(long)]
    plot: Option<std::path::PathBuf>,
    /// Write the measurement's positions (`--positions` of them, not drawn) here as FENs, one a
    /// line: openings for `alea match --variant diechess --openings`, where the table has
    /// something to win (from the start either player can hold the draw by passing).
    #[arg(long)]
    openings_out: Option<std::path::PathBuf>,
    /// Play this many games of the table against itself from the start and report the results
    /// and how often the players rolled.
    #[arg(long, default_value_t = 0)]
    self_play: u32,
    /// Seed of the self-play games' dice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The seed of the positions the measurement searches and `--openings-out` writes.
const POSITIONS_SEED: u64 = 0x9e37_79b9_7f4a_7c15;

pub fn run(args: SolveArgs) -> ExitCode {
    let Some(solver) = args.game.row().solution else {
        let solvable: Vec<&str> =
            Variant::ALL.iter().filter(|v| v.row().solution.is_some()).map(|v| v.name()).collect();
        eprintln!("alea solve: only {} is small enough to solve, not {}", solvable.join(", "), args.game);
        return ExitCode::from(2);
    };
    let tolerance_ok = args.tolerance > 0.0 && args.tolerance < 0.5;
    if !tolerance_ok || !(1..=64).contains(&args.threads) {
        eprintln!("alea solve: --tolerance must be between 0 and 0.5 and --threads from 1 to 64");
        return ExitCode::from(2);
    }
    if args.search_depths.iter().any(|&d| d == 0 || d > 6) || args.positions == 0 {
        eprintln!("alea solve: --search-depths are 1 to 6, and --positions at least 1");
        return ExitCode::from(2);
    }
    let started = Instant::now();
    let table = match &args.table {
        Some(path) => match alea_engine::services::registry::read_solution(path) {
            Ok(table) => table,
            Err(e) => {
                eprintln!("alea solve: --table {e}");
                return ExitCode::from(2);
            }
        },
        None => solve(solver, &args),
    };
    let elapsed = started.elapsed();
    let (first, value) = table.start();
    let how = match &args.table {
        Some(path) => format!("read from {}", path.display()),
        None => format!("{:.1} s", elapsed.as_secs_f64()),
    };
    println!(
        "solved in {} sweeps, {how} (largest change of the last {:.1e}); {} states",
        table.sweeps(),
        table.last_change(),
        table.possible_states()
    );
    println!("start: White scores {value:.12} (win + draw/2); first decision {first}");
    if let Some(path) = args.out {
        let mut bytes = Vec::new();
        if let Err(e) = table.write_to(&mut bytes) {
            eprintln!("alea solve: {e}");
            return ExitCode::FAILURE;
        }
        // Written beside the file and renamed, so a cut-off write leaves no half table.
        let part = path.with_extension("part");
        if let Err(e) = std::fs::write(&part, &bytes).and_then(|()| std::fs::rename(&part, &path)) {
            eprintln!("alea solve: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        println!(
            "wrote {} ({} bytes, {:.1} bits a state)",
            path.display(),
            bytes.len(),
            bytes.len() as f64 * 8.0 / table.possible_states() as f64
        );
    }
    if args.self_play > 0 {
        let games = table.self_play(args.self_play, args.seed);
        println!(
            "self-play, {} games (seed {}): White won {}, Black won {}, drawn {}; {:.1} turns a game, {:.2} of them rolls",
            games.games,
            args.seed,
            games.white_wins,
            games.black_wins,
            games.draws,
            games.turns as f64 / f64::from(games.games),
            games.rolls as f64 / f64::from(games.games),
        );
    }
    let positions = table.undecided(args.positions, POSITIONS_SEED);
    if let Some(path) = &args.openings_out {
        let text: String = positions.iter().map(|fen| format!("{fen}\n")).collect();
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("alea solve: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        println!("wrote {} positions to {}", positions.len(), path.display());
    }
    if !args.search_depths.is_empty() {
        println!("the search against the exact values, {} positions not drawn:", positions.len());
        println!("| depth | mean loss before the roll | after a roll |");
        println!("|---|---|---|");
        let mut losses = Vec::new();
        for &depth in &args.search_depths {
            let loss = table.search_loss(args.positions, POSITIONS_SEED, depth);
            println!("| {} | {:.4} | {:.4} |", loss.depth, loss.before_roll, loss.after_roll);
            losses.push(loss);
        }
        if let Some(path) = &args.plot
            && let Err(e) = alea_tuning::report::search_loss_plot(args.game.row().title, &losses, path)
        {
            eprintln!("alea solve: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

/// Solves the game with a progress bar in digits of precision (the largest change of a sweep
/// shrinks geometrically).
fn solve(solver: &dyn Solver, args: &SolveArgs) -> Box<dyn Table> {
    let digits = (-args.tolerance.log10()).ceil().max(1.0) as u64;
    let progress =
        crate::progress::Progress::new(digits, "digits", 1, "{elapsed_precise} [{bar:40}] {pos}/{len} digits {msg}");
    let table = solver.solve(args.tolerance, args.threads, &mut |sweep, change| {
        let done = if change > 0.0 { (-change.log10()).floor().clamp(0.0, digits as f64) as u64 } else { digits };
        progress.update(done, &format!("sweep {sweep}, largest change {change:.1e}"));
    });
    progress.finish();
    table
}
