//! `alea selfplay`: seeded games of the engine against itself in any variant, for the shares of
//! White, Black and draws with their 95 % intervals, the games' length and the branching
//! (`alea_engine::services::selfplay`). With `--out`, each game is written as it ends and a run
//! cut off is resumed: the games already in the file are not played again.

use alea_engine::services::registry::Variant;
use alea_engine::services::search::Limits;
use alea_engine::services::search::Shared;
use alea_engine::services::selfplay::{SelfPlaySettings, SelfPlaySummary, SelfPlayed, play_game};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;

#[derive(clap::Args)]
pub struct SelfPlayArgs {
    #[arg(long, default_value_t = Variant::DEFAULT, help = crate::variant_help())]
    variant: Variant,
    /// Games to play, numbered from --first (each seeded by its number: runs in parts add up).
    #[arg(long, default_value_t = 200)]
    games: u64,
    /// The first game's number.
    #[arg(long, default_value_t = 0)]
    first: u64,
    /// Turns each search looks ahead [default: 1, unless --nodes is given].
    #[arg(long, conflicts_with = "nodes")]
    depth: Option<u32>,
    /// Nodes each search looks at, instead of a depth.
    #[arg(long)]
    nodes: Option<u64>,
    /// Turns played at random at each game's start, so that seeded games differ.
    #[arg(long, default_value_t = 8)]
    random_plies: usize,
    /// A game still on after this many turns is a draw.
    #[arg(long, default_value_t = 600)]
    max_plies: usize,
    /// Count the turns a roll allows at every N-th turn (and the random ones).
    #[arg(long, default_value_t = 50)]
    count_every: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Write each game here as it ends; games already in the file are kept, not played again.
    #[arg(long)]
    out: Option<PathBuf>,
}

fn refuse(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("alea selfplay: {message}");
    ExitCode::from(2)
}

/// The games a file holds, checked against the run's settings; none for a file not there yet.
fn read_done(path: &Path, header: &str) -> Result<Vec<SelfPlayed>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let mut lines = text.lines();
    match lines.next() {
        None => return Ok(Vec::new()),
        Some(first) if first == header => {}
        Some(first) => {
            return Err(format!("{} holds games of other settings ({first}), not {header}", path.display()));
        }
    }
    let mut games = Vec::new();
    let last = text.lines().count();
    for (i, line) in lines.enumerate() {
        // A last line cut off mid-write is played again; anything else damaged is refused.
        match line.parse::<SelfPlayed>() {
            Ok(game) => games.push(game),
            Err(_) if i + 2 == last && !text.ends_with('\n') => break,
            Err(e) => return Err(format!("{} line {}: {e}", path.display(), i + 2)),
        }
    }
    Ok(games)
}

pub fn run(args: SelfPlayArgs) -> ExitCode {
    if args.games == 0 || !(1..=64).contains(&args.threads) || args.count_every == 0 || args.max_plies == 0 {
        return refuse("--games, --count-every and --max-plies take a number above 0, --threads 1 to 64");
    }
    if args.depth == Some(0) || args.nodes == Some(0) {
        return refuse("--depth and --nodes take a number above 0");
    }
    let limits = match (args.depth, args.nodes) {
        (_, Some(n)) => Limits { nodes: Some(n), ..Limits::default() },
        (d, None) => Limits { depth: Some(d.unwrap_or(1)), ..Limits::default() },
    };
    let settings = SelfPlaySettings {
        variant: args.variant,
        limits,
        random_plies: args.random_plies,
        max_plies: args.max_plies,
        count_every: args.count_every,
    };
    let header = settings.header();
    let done = match &args.out {
        Some(path) => match read_done(path, &header) {
            Ok(done) => done,
            Err(e) => return refuse(e),
        },
        None => Vec::new(),
    };
    let wanted = args.first..args.first + args.games;
    let mut results: Vec<SelfPlayed> = done.iter().filter(|g| wanted.contains(&g.number)).copied().collect();
    let todo: Vec<u64> = wanted.clone().filter(|n| !done.iter().any(|g| g.number == *n)).collect();
    if !results.is_empty() {
        eprintln!("{} games of {} already in the file; {} to play", results.len(), args.games, todo.len());
    }
    // The file rewritten whole with what it holds (a cut-off last line dropped), then appended to.
    let out = match &args.out {
        Some(path) => {
            let mut text = format!("{header}\n");
            for g in &done {
                text.push_str(&format!("{g}\n"));
            }
            match std::fs::write(path, text).and_then(|()| std::fs::OpenOptions::new().append(true).open(path)) {
                Ok(file) => Some(Mutex::new(file)),
                Err(e) => return refuse(format!("{}: {e}", path.display())),
            }
        }
        None => None,
    };
    let queue = Mutex::new(todo.into_iter());
    let played = Mutex::new(Vec::new());
    let failed = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            scope.spawn(|| {
                let mut shared = Shared::new(16);
                loop {
                    let Some(n) = queue.lock().expect("queue").next() else { break };
                    match play_game(&settings, n, &mut shared) {
                        Ok(game) => {
                            eprintln!("{game}");
                            if let Some(file) = &out {
                                let mut file = file.lock().expect("file");
                                if let Err(e) = writeln!(file, "{game}").and_then(|()| file.flush()) {
                                    *failed.lock().expect("failed") = Some(e.to_string());
                                    break;
                                }
                            }
                            played.lock().expect("played").push(game);
                        }
                        Err(e) => {
                            *failed.lock().expect("failed") = Some(e.to_string());
                            break;
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = failed.into_inner().expect("failed") {
        return refuse(e);
    }
    results.extend(played.into_inner().expect("played"));
    results.sort_by_key(|g| g.number);
    let s = SelfPlaySummary::of(&results);
    let share = |count: usize| {
        let (p, lo, hi) = s.share(count);
        format!("{p:.2} % [{lo:.2}, {hi:.2}]")
    };
    println!("{} self-play, {} games, {}", args.variant, s.games, header.trim_start_matches("# alea selfplay "));
    println!("White wins {}", share(s.white));
    println!("Black wins {}", share(s.black));
    println!("drawn      {}", share(s.draws));
    println!("{:.1} turns a game; {:.1} whole turns a roll allows", s.mean_plies, s.turns_a_roll);
    ExitCode::SUCCESS
}
