//! The `alea` binary: the protocol on stdin/stdout by default, and subcommands for people and
//! tools. Each subcommand is a few lines calling the library crates.

mod advise;
mod analyse;
mod bot_cmd;
mod match_cmd;
mod play;
mod progress;
mod rollout_table;
mod selfplay_cmd;
mod solve_cmd;
mod tune_cmd;
mod variants_cmd;

use alea_engine::services::registry::Variant;
use clap::{Parser, Subcommand};
use std::process::ExitCode;
use std::time::Instant;

/// The version and the git commit the binary is built from (`alea --version`).
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("ALEA_COMMIT"), ")");

#[derive(Parser)]
#[command(
    name = "alea",
    version = VERSION,
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
        /// The variant whose board and moves are counted (chess moves for the 8x8 ones; the
        /// pseudo-legal moves of king capture on the big boards).
        #[arg(long, default_value_t = Variant::DEFAULT)]
        variant: Variant,
    },
    /// The engine's advice on a position: with a roll, every allowed move ranked with its score and
    /// its cost; before the roll, what each outcome brings and whether to play a move unrolled.
    Advise(advise::AdviseArgs),
    /// A game with its rolls (PGN), move by move: the best move for each roll, the loss of the move
    /// played, the luck of the roll; a summary per player; an annotated PGN with --out.
    Analyse(analyse::AnalyseArgs),
    /// Play the engine at the terminal: the dice rolled for you (or typed, with --own-dice), the allowed moves listed.
    Play(play::PlayArgs),
    /// Engine against engine: pairs of games with the same dice, Elo, SPRT, PGN as it goes.
    Match(match_cmd::MatchArgs),
    /// A web page to play and analyse against Alea, at http://HOST:PORT/ (loopback by default).
    Serve {
        /// Address to listen on; 0.0.0.0 opens the page to the network.
        #[arg(long, default_value = "127.0.0.1")]
        host: std::net::IpAddr,
        /// Port (0: any free one; the address is printed).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Where each game is kept (a file a game, written after every change), so a server
        /// started again takes the games up where they stood.
        #[arg(long, default_value = "alea-web-games")]
        games: std::path::PathBuf,
        /// Games kept in that folder before the oldest idle ones go (never a finished game, nor
        /// one played in the last week).
        #[arg(long, default_value_t = alea_web::KEEP_GAMES as u64, value_parser = clap::value_parser!(u64).range(1..))]
        keep_games: u64,
    },
    /// Play on the dicechess.com bot platform: the endpoint it POSTs our turns to (docs/bot.md).
    Bot(bot_cmd::BotArgs),
    /// A variant small enough to number its states, solved exactly: every state's value, the
    /// table written for the engine.
    Solve(solve_cmd::SolveArgs),
    /// Seeded games of the engine against itself: White's, Black's and the draws' shares with
    /// their intervals, the games' length, and the turns a roll allows.
    Selfplay(selfplay_cmd::SelfPlayArgs),
    /// Self-play data, the evaluation fitted to it, and a report on both.
    #[command(subcommand)]
    Tune(tune_cmd::TuneCmd),
    /// The variants, one line each (name, board, dice, rules in a phrase); `--markdown` for the docs' table.
    Variants(variants_cmd::VariantsArgs),
    /// A shell's completions for `alea`, to source or install (bash, zsh, fish, elvish, powershell).
    Completions { shell: clap_complete::Shell },
    /// The manual page (roff) on standard output: `alea man > alea.1; man ./alea.1`.
    Man,
    /// Searches a fixed suite of positions to a fixed depth; the last line is
    /// `<N> nodes <M> nps` (OpenBench's form), and N is the same on every machine.
    Bench {
        #[arg(help = bench_depth_help())]
        depth: Option<u32>,
        #[arg(long, value_delimiter = ',', help = bench_variant_help())]
        variant: Vec<Variant>,
        /// Chance-node pruning: none, star1 or star2.
        #[arg(long, default_value = "star2")]
        pruning: String,
        /// Search threads (the node count is the same on every run only with one).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// The evaluation: a network (`alea tune nnue`) or tables (`alea tune fit`) file, or
        /// `tables` for the variants' own tables without the networks they have adopted (by
        /// default each variant's own evaluation).
        #[arg(long, alias = "net")]
        eval: Option<String>,
        /// Search without ChanceProbCut (the forward pruning at rolls), so that Star1 and
        /// Star2 alone are measured against plain expectimax.
        #[arg(long)]
        no_probcut: bool,
    },
}

/// The exact table a solved variant is played from (`--solution`, as the protocol's
/// `DieChessTable`): for the commands that play or judge games.
#[derive(clap::Args)]
pub struct SolutionArg {
    /// Play a solved variant from this exact table (`alea solve <variant> --out FILE` writes one)
    /// instead of the one kept in the cache directory (solved there the first time it is needed).
    #[arg(long = "solution", value_name = "FILE")]
    table: Option<std::path::PathBuf>,
}

impl SolutionArg {
    /// Makes the file's table the one played from, or says why it cannot be (nothing changed).
    pub fn install(&self) -> Result<(), String> {
        if let Some(path) = &self.table {
            let table = alea_engine::services::registry::read_solution(path).map_err(|e| format!("--solution {e}"))?;
            table.install();
        }
        Ok(())
    }
}

/// Output piped into a program that stops reading early (`alea perft 6 | head`) ends the command
/// quietly, as it ends `cat` or `grep`: Rust ignores SIGPIPE, so each print after the reader left
/// would fail, and `println!` panics. Only for commands that write to their own output and files:
/// a match writes to its engines' pipes, the page to its sockets and the protocol to its GUI,
/// and each of those handles a closed one itself.
fn end_quietly_when_the_reader_leaves() {
    #[cfg(unix)]
    // SAFETY: sets the signal's disposition back to the system's default, before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let plays_through_pipes = match &cli.command {
        None | Some(Cmd::Serve { .. } | Cmd::Bot(_)) => true,
        Some(Cmd::Match(args)) => !args.only_reads_files(),
        Some(_) => false,
    };
    if !plays_through_pipes {
        end_quietly_when_the_reader_leaves();
    }
    match cli.command {
        None => {
            // A person at a terminal is told what this is, as Stockfish does; a GUI on a pipe
            // gets nothing it did not ask for.
            use std::io::IsTerminal;
            if std::io::stdout().is_terminal() {
                println!(
                    "Alea {} by the Alea developers: UCI for dice chess ('help' lists the commands)",
                    env!("CARGO_PKG_VERSION")
                );
            }
            alea_protocol::run(std::io::stdin(), alea_protocol::Output::new(std::io::stdout()));
            ExitCode::SUCCESS
        }
        Some(Cmd::Perft { depth, fen, chess960, variant }) => perft(depth, fen.as_deref(), chess960, variant),
        Some(Cmd::Bench { depth, variant, pruning, threads, eval, no_probcut }) => {
            bench(depth, &variant, &pruning, threads, eval, !no_probcut)
        }
        Some(Cmd::Advise(args)) => advise::run(args),
        Some(Cmd::Analyse(args)) => analyse::run(args),
        Some(Cmd::Play(args)) => play::run(args),
        Some(Cmd::Match(args)) => match_cmd::run(args),
        Some(Cmd::Tune(cmd)) => tune_cmd::run(cmd),
        Some(Cmd::Solve(args)) => solve_cmd::run(args),
        Some(Cmd::Selfplay(args)) => selfplay_cmd::run(args),
        Some(Cmd::Serve { host, port, games, keep_games }) => {
            serve(std::net::SocketAddr::new(host, port), games, keep_games as usize)
        }
        Some(Cmd::Bot(args)) => bot_cmd::run_bot(args),
        Some(Cmd::Variants(args)) => variants_cmd::run(args),
        Some(Cmd::Completions { shell }) => {
            clap_complete::generate(
                shell,
                &mut <Cli as clap::CommandFactory>::command(),
                "alea",
                &mut std::io::stdout(),
            );
            ExitCode::SUCCESS
        }
        Some(Cmd::Man) => man(),
    }
}

/// The manual page: the command and, after it, a section per subcommand.
fn man() -> ExitCode {
    let command = <Cli as clap::CommandFactory>::command();
    let mut out = Vec::new();
    let rendered = clap_mangen::Man::new(command.clone()).render(&mut out).and_then(|()| {
        for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
            let mut heading = clap_mangen::roff::Roff::new();
            heading.control("SH", [format!("ALEA {}", sub.get_name().to_uppercase()).as_str()]);
            heading.text([clap_mangen::roff::roman(sub.get_about().map(|a| a.to_string()).unwrap_or_default())]);
            heading.to_writer(&mut out)?;
            clap_mangen::Man::new(sub.clone()).render_options_section(&mut out)?;
        }
        Ok(())
    });
    match rendered.and_then(|()| std::io::Write::write_all(&mut std::io::stdout(), &out)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("alea man: {e}");
            ExitCode::FAILURE
        }
    }
}

fn serve(addr: std::net::SocketAddr, games: std::path::PathBuf, keep: usize) -> ExitCode {
    let result = alea_web::serve(addr, games, keep, |bound| {
        use std::io::Write;
        println!("listening on http://{bound}/");
        let _ = std::io::stdout().flush();
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("alea serve: {e}");
            ExitCode::FAILURE
        }
    }
}

fn bench(
    depth: Option<u32>,
    variants: &[Variant],
    pruning: &str,
    threads: usize,
    eval: Option<String>,
    chance_probcut: bool,
) -> ExitCode {
    use alea_engine::services::search::{ChancePruning, SearchOptions};
    let chance_pruning = match pruning {
        "none" => ChancePruning::None,
        "star1" => ChancePruning::Star1,
        "star2" => ChancePruning::Star2,
        other => {
            eprintln!("alea bench: --pruning takes none, star1 or star2, not '{other}'");
            return ExitCode::from(2);
        }
    };
    let suites = match alea_engine::services::bench::suites(variants) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("alea bench: --variant: {e}");
            return ExitCode::from(2);
        }
    };
    if depth == Some(0) || !(1..=64).contains(&threads) {
        eprintln!("alea bench: depth must be at least 1 and threads from 1 to 64");
        return ExitCode::from(2);
    }
    let mut options = SearchOptions { chance_pruning, threads, chance_probcut, ..SearchOptions::default() };
    match eval.as_deref().map(alea_engine::services::search::NamedEval::read).transpose() {
        Ok(None) => {}
        Ok(Some(alea_engine::services::search::NamedEval::Tables(params))) => {
            options.eval = Some(std::sync::Arc::new(*params))
        }
        Ok(Some(alea_engine::services::search::NamedEval::Network(net))) => {
            options.net = Some(std::sync::Arc::new(*net))
        }
        Ok(Some(alea_engine::services::search::NamedEval::OwnTables)) => options.use_net = false,
        Err(e) => {
            eprintln!("alea bench: --eval {e}");
            return ExitCode::from(2);
        }
    }
    let report = |line: &alea_engine::services::bench::BenchLine| {
        eprintln!(
            "{:<45} {:>10} nodes {:>8.3} s  best {} score {}",
            line.name,
            line.nodes,
            line.elapsed.as_secs_f64(),
            line.best,
            line.score
        );
    };
    let (nodes, elapsed) = match alea_engine::services::bench::run(&suites, depth, &options, report) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("alea bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    eprintln!("total time {:.3} s", elapsed.as_secs_f64());
    println!("{nodes} nodes {nps} nps");
    ExitCode::SUCCESS
}

fn perft(depth: u32, fen: Option<&str>, chess960: bool, variant: Variant) -> ExitCode {
    // The variant's moves, dice ignored (Freedom's are chess legality).
    let game = match alea_engine::services::handle::GameHandle::setup(variant, chess960, fen, None, &[]) {
        Ok(game) => game,
        Err(e) => {
            eprintln!("alea perft: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let mut total = 0u64;
    let never = std::sync::atomic::AtomicBool::new(false);
    if let Err(e) = game.perft(depth, &never, |m, n| {
        println!("{m}: {n}");
        total += n;
    }) {
        eprintln!("alea perft: {e}");
        return ExitCode::from(2);
    }
    let secs = start.elapsed().as_secs_f64();
    println!();
    println!("Nodes searched: {total}");
    println!();
    eprintln!("{total} nodes in {secs:.3} s, {:.0} nodes/s", total as f64 / secs.max(1e-9));
    ExitCode::SUCCESS
}

/// `--variant`'s help: the variants from the registry, each with its phrase in `--help`.
fn variant_help() -> String {
    format!("Rule set: {}", Variant::names())
}

/// `bench --variant`'s help, from the registry: the variants with a suite.
fn bench_depth_help() -> String {
    let depths: Vec<String> = Variant::ALL
        .iter()
        .filter(|v| !v.row().bench.cases.is_empty())
        .map(|v| format!("{} {}", v.name(), v.row().bench.depth))
        .collect();
    format!(
        "Turns deep (a turn is a roll and its moves) for every suite; by default each variant's own: {}",
        depths.join(", ")
    )
}

fn bench_variant_help() -> String {
    let benched: Vec<&str> =
        Variant::ALL.iter().filter(|v| !v.row().bench.cases.is_empty()).map(|v| v.name()).collect();
    format!(
        "The variants whose suites are searched, comma-separated (every variant's by default): {}",
        benched.join(", ")
    )
}
