//! The `alea` binary: the protocol on stdin/stdout by default, and subcommands for people and
//! tools. Each subcommand is a few lines calling the library crates.

use alea_engine::Board;
use alea_engine::perft::perft_divide;
use clap::{Parser, Subcommand};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "alea",
    version,
    about = "A dice-chess engine. With no subcommand, speaks UCI extended for dice on stdin/stdout."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Counts legal move paths (dice ignored), as Stockfish's `go perft` prints them.
    Perft {
        /// Plies to count.
        depth: u32,
        /// Start from this FEN instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Write castling king-takes-rook (Chess960 notation).
        #[arg(long)]
        chess960: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => {
            alea_protocol::run(std::io::stdin(), alea_protocol::Output::new(std::io::stdout()));
            ExitCode::SUCCESS
        }
        Some(Cmd::Perft { depth, fen, chess960 }) => perft(depth, fen.as_deref(), chess960),
    }
}

fn perft(depth: u32, fen: Option<&str>, chess960: bool) -> ExitCode {
    let board = match fen.map(Board::from_fen).unwrap_or_else(|| Ok(Board::startpos())) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("alea perft: {e}");
            return ExitCode::from(2);
        }
    };
    if depth == 0 {
        eprintln!("alea perft: depth must be at least 1");
        return ExitCode::from(2);
    }
    let start = Instant::now();
    let divided = perft_divide(&board, depth);
    let total: u64 = divided.iter().map(|&(_, n)| n).sum();
    for (m, n) in divided {
        println!("{}: {n}", m.to_uci(chess960));
    }
    let secs = start.elapsed().as_secs_f64();
    println!();
    println!("Nodes searched: {total}");
    println!();
    eprintln!("{total} nodes in {secs:.3} s, {:.0} nodes/s", total as f64 / secs.max(1e-9));
    ExitCode::SUCCESS
}
