//! `alea bot`: the endpoint the dicechess.com bot platform POSTs our turns to (docs/bot.md).

use alea_engine::services::registry::Variant;
use alea_web::bot::{BotConfig, dry_run, run};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The environment variable holding the bot's secret (never an argument: arguments are seen by
/// every user of the machine).
pub const SECRET_VARIABLE: &str = "DICECHESS_WEBHOOK_SECRET";

#[derive(clap::Args)]
pub struct BotArgs {
    /// Address and port to listen on: plain HTTP, for a reverse proxy in front of it to serve
    /// HTTPS (docs/bot.md). The secret comes from DICECHESS_WEBHOOK_SECRET.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// Read one delivery's JSON from FILE, print the answer's JSON and exit (no signature, no
    /// secret needed); its log line goes to stderr.
    #[arg(long, value_name = "FILE", conflicts_with = "handshake_only")]
    dry_run: Option<PathBuf>,
    /// Start without a secret, to register the endpoint: only the verification handshake is
    /// answered (the platform shows the secret once it has succeeded); every turn gets 401.
    #[arg(long)]
    handshake_only: bool,
    /// Rule set of the deliveries (the platform plays dicechess.com's).
    #[arg(long, default_value_t = Variant::DICECHESS_COM, help = crate::variant_help())]
    variant: Variant,
    /// Searches at once (each on one thread); further turns wait within their clocks
    /// [default: the machine's cores].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..1025))]
    searches: Option<u64>,
    /// Each game's transposition table, in MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..65537))]
    hash: u64,
    /// Milliseconds kept off every clock for the network both ways and the proxy.
    #[arg(long, default_value_t = 750)]
    margin_ms: u64,
    /// The longest one turn's search runs, whatever the clock: keep it under the request timeout
    /// of whatever is in front of the bot.
    #[arg(long, default_value_t = 30_000, value_parser = clap::value_parser!(u64).range(1..))]
    max_turn_ms: u64,
    /// Games whose tables are kept at once; the longest idle is dropped first.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..100_001))]
    max_games: u64,
    /// A game's table is dropped after this many minutes without a delivery.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    idle_minutes: u64,
    /// The largest delivery read, in KiB; a larger one is refused with 413.
    #[arg(long, default_value_t = 4096, value_parser = clap::value_parser!(u64).range(1..1_048_577))]
    max_body_kib: u64,
}

fn refuse(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("alea bot: {message}");
    ExitCode::from(2)
}

pub fn run_bot(args: BotArgs) -> ExitCode {
    let secret = std::env::var(SECRET_VARIABLE).ok().filter(|s| !s.trim().is_empty());
    let mut config = BotConfig::new(args.variant, None);
    if let Some(n) = args.searches {
        config.searches = n as usize;
    }
    config.hash_mib = args.hash as usize;
    config.margin_ms = args.margin_ms;
    config.max_turn_ms = args.max_turn_ms;
    config.max_games = args.max_games as usize;
    config.idle = Duration::from_secs(args.idle_minutes * 60);
    config.max_body = args.max_body_kib as usize * 1024;
    if let Some(path) = &args.dry_run {
        let body = match std::fs::read_to_string(path) {
            Ok(body) => body,
            Err(e) => return refuse(format!("--dry-run {}: {e}", path.display())),
        };
        return match dry_run(&config, &body) {
            Ok((answer, line)) => {
                println!("{answer}");
                eprintln!("{line}");
                ExitCode::SUCCESS
            }
            Err(e) => refuse(format!("--dry-run {}: {e}", path.display())),
        };
    }
    match (secret, args.handshake_only) {
        (Some(secret), false) => config.secret = Some(secret.trim().as_bytes().to_vec()),
        (_, true) => {}
        (None, false) => {
            // A setting the bot cannot run with is told first (`run` checks it otherwise).
            if let Err(e) = config.check() {
                return refuse(e);
            }
            return refuse(format!(
                "{SECRET_VARIABLE} is not set: the bot checks every delivery with the secret the platform \
                 gave when the endpoint was registered (to register, start it with --handshake-only)"
            ));
        }
    }
    let result = run(config, args.listen, |bound| {
        use std::io::Write;
        println!("listening on http://{bound}/");
        let _ = std::io::stdout().flush();
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => refuse(e),
    }
}
