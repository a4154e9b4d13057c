//! `alea solve diechess`: Die Chess solved exactly by value iteration, the table written for the
//! engine to play from.

use alea_engine::rules::diechess::DiePosition;
use alea_engine::solve::{DieDecision, DieTable, POSSIBLE};
use std::process::ExitCode;
use std::time::Instant;

#[derive(clap::Args)]
pub struct SolveArgs {
    /// The game to solve: diechess (the only one small enough).
    game: String,
    /// Write the table here (the engine's `DieChessTable` option reads it).
    #[arg(long)]
    out: Option<std::path::PathBuf>,
    /// Stop when a sweep changes no value by more than this.
    #[arg(long, default_value_t = 1e-12)]
    tolerance: f64,
    /// Threads sharing each sweep.
    #[arg(long, default_value_t = 2)]
    threads: usize,
}

pub fn run(args: SolveArgs) -> ExitCode {
    if args.game != "diechess" {
        eprintln!("alea solve: only diechess is small enough to solve, not '{}'", args.game);
        return ExitCode::from(2);
    }
    let tolerance_ok = args.tolerance > 0.0 && args.tolerance < 0.5;
    if !tolerance_ok || !(1..=64).contains(&args.threads) {
        eprintln!("alea solve: --tolerance must be between 0 and 0.5 and --threads from 1 to 64");
        return ExitCode::from(2);
    }
    // Progress in digits of precision: the largest change of a sweep shrinks geometrically.
    let digits = (-args.tolerance.log10()).ceil().max(1.0) as u64;
    let progress =
        crate::progress::Progress::new(digits, "digits", 1, "{elapsed_precise} [{bar:40}] {pos}/{len} digits {msg}");
    let started = Instant::now();
    let table = DieTable::solve(args.tolerance, args.threads, &mut |sweep, change| {
        let done = if change > 0.0 { (-change.log10()).floor().clamp(0.0, digits as f64) as u64 } else { digits };
        progress.update(done, &format!("sweep {sweep}, largest change {change:.1e}"));
    });
    progress.finish();
    let elapsed = started.elapsed();
    let start = DiePosition::start();
    let (decision, value) = table.best_decision(&start);
    let first = match decision {
        DieDecision::Roll => "roll".to_string(),
        DieDecision::Turn(t) => t.to_string(),
    };
    println!(
        "solved in {} sweeps, {:.1} s (largest change of the last {:.1e}); {POSSIBLE} states",
        table.sweeps,
        elapsed.as_secs_f64(),
        table.last_change
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
            bytes.len() as f64 * 8.0 / POSSIBLE as f64
        );
    }
    ExitCode::SUCCESS
}
