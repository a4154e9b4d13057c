//! `alea match`: two players, pairs of games with shared dice, the running score, PGN as it goes.

use alea_engine::services::handle::GameHandle;
use alea_engine::services::registry::Variant;
use alea_engine::services::search::NamedEval;
use alea_engine::services::search::{Baseline, PEER_CANDIDATES};
use alea_tuning::match_compare::{RunSide, compare_runs};
use alea_tuning::match_file::{merge_match_files, read_match_file};
use alea_tuning::match_runner::{MatchConfig, MatchReport, Openings, Sprt, SprtDecision, read_openings, run_match};
use alea_tuning::players::{
    AleaPlayer, BaselinePlayer, EngineProcess, GreedyPlayer, MoveLimit, Player, PreRoll, Proto, RandomPlayer,
};
use alea_tuning::shard::Shard;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct MatchArgs {
    /// `merge` or `compare`: subcommands on matches' files, which play no game.
    #[command(subcommand)]
    files_only: Option<MatchCmd>,
    /// A player, twice: `builtin=alea|random|greedy|expectimax2|peer|aggressive`, or `cmd=PATH [name=N] [proto=alea|uci]
    /// [pre-roll=best|roll] [option.NAME=VALUE ...]`; `depth=D`, `nodes=N` or `movetime=MS` for its
    /// own limit; for builtin=alea, `eval=FILE` (parameters as `alea tune fit` writes them, or a
    /// network as `alea tune nnue` writes it; `eval=tables`: the variant's tables without the
    /// network it has adopted), `skill=L` (`Skill Level` 0 to 20) and `name=N`; for builtin=peer, `candidates=N` (its turns expanded, 24 by default). A plain UCI engine knows no dice: with `pre-roll=best` (the default, Freedom-aware)
    /// it plays its own best move without rolling whenever the rules allow that move, with
    /// `pre-roll=roll` it always rolls. Words of one player are joined with spaces: --engine
    /// "cmd=/usr/games/stockfish proto=uci".
    #[arg(long, num_args = 1, required = true)]
    engine: Vec<String>,
    #[arg(long, default_value_t = Variant::DEFAULT, help = crate::variant_help())]
    variant: Variant,
    /// Random Chess960 starts (one per pair).
    #[arg(long)]
    chess960: bool,
    /// Openings: a file of FENs or EPD lines, one per pair in turn.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Print the final summary as JSON.
    #[arg(long)]
    json: bool,
    /// Pairs played at once (each thread has its own engines).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Pairs of games (each opening played with both colours).
    #[arg(long, default_value_t = 50)]
    pairs: u64,
    /// Seed of the dice and of random Chess960 starts: the same seed plays the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A game still on after this many plies is a draw.
    #[arg(long, default_value_t = 600)]
    max_plies: usize,
    /// Default limit of every player: turns deep.
    #[arg(long)]
    depth: Option<u32>,
    /// Default limit: nodes a move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Default limit: milliseconds a move.
    #[arg(long)]
    movetime: Option<u64>,
    /// Clocks for both players, `SECONDS+INCREMENT` (as `10+0.1`); replaces the per-move limits.
    #[arg(long)]
    tc: Option<String>,
    /// The games, appended as each ends (and read back with --resume).
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Continue the match in --pgn: finished games are kept, not replayed.
    #[arg(long)]
    resume: bool,
    /// Stop at an SPRT bound: `elo0=0 elo1=10 alpha=0.05 beta=0.05`, and `luck=1` to decide on
    /// the pairs' scores less the luck of their rolls (fewer pairs for the same errors).
    #[arg(long, num_args = 1..)]
    sprt: Vec<String>,
    /// Play only shard I of N (from 0): the pairs whose number is I modulo N, each with the
    /// dice it has in the whole match. `alea match merge` joins the shards' PGN files.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Split into N shards, this one's index from JOB_COMPLETION_INDEX (Kubernetes Indexed Jobs)
    /// or SLURM_ARRAY_TASK_ID (Slurm job arrays).
    #[arg(long, value_name = "N")]
    shards: Option<u64>,
    #[command(flatten)]
    solution: crate::SolutionArg,
}

#[derive(clap::Subcommand)]
enum MatchCmd {
    /// One summary (Elo, LOS, SPRT) from the PGN files of a match's shards, as one machine playing
    /// the whole match would give it. Files of other settings, cut-off and damaged files are refused
    /// (exit code 2; for a cut-off one, after the summary of the whole games).
    Merge {
        /// The shards' PGN files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print the summary as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Two runs of a match on the same dice (the same variant, `--seed`, `--max-plies` and
    /// starts; players and limits may differ), compared game by game over the pairs both
    /// finished: the first player's Elo in each, its score a game in A minus that in B with a 95 %
    /// interval over the pairs, the games that ended alike, its mean depth and time a move.
    /// A game cut off at a file's end is left out.
    Compare {
        /// Run A's PGN file.
        a: PathBuf,
        /// Run B's PGN file.
        b: PathBuf,
        /// List the games whose result changed.
        #[arg(long)]
        list: bool,
        /// Print the comparison as JSON.
        #[arg(long)]
        json: bool,
    },
}

impl MatchArgs {
    /// `merge` and `compare` read files and play no engine.
    pub fn only_reads_files(&self) -> bool {
        self.files_only.is_some()
    }
}

/// Can the referee read the luck of `variant`'s rolls (at its start)?
fn luck_readable(variant: Variant, chess960: bool) -> bool {
    alea_engine::services::handle::GameHandle::of(variant, chess960).is_ok_and(|game| {
        alea_engine::services::luck::LuckTable::searched(&game, &alea_engine::services::search::Shared::new(1))
            .is_some()
    })
}

fn refuse(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("alea match: {message}");
    ExitCode::from(2)
}

fn player(spec: &str, default: &MoveLimit, index: usize) -> Result<Box<dyn Player + Send>, String> {
    let mut limit = default.clone();
    let mut builtin = None;
    let mut cmd = None;
    let mut name = None;
    let mut proto = Proto::Alea;
    let mut pre_roll = None;
    let mut options = Vec::new();
    let mut eval = None;
    let mut net = None;
    let mut use_net = true;
    let mut exact_solution = true;
    let mut skill_level = alea_engine::services::search::FULL_SKILL;
    let mut candidates = None;
    for word in spec.split_whitespace() {
        let (key, value) = word.split_once('=').ok_or_else(|| format!("'{word}' in --engine is not key=value"))?;
        let number = |v: &str| v.parse::<u64>().map_err(|_| format!("{key} takes a number, not '{v}'"));
        match key {
            "builtin" => builtin = Some(value.to_string()),
            "cmd" => cmd = Some(value.to_string()),
            "name" => name = Some(value.to_string()),
            "proto" => {
                proto = match value {
                    "alea" => Proto::Alea,
                    "uci" => Proto::Uci(PreRoll::OwnBest),
                    _ => return Err(format!("proto takes alea or uci, not '{value}'")),
                }
            }
            "pre-roll" => {
                pre_roll = Some(match value {
                    "best" => PreRoll::OwnBest,
                    "roll" => PreRoll::AlwaysRoll,
                    _ => return Err(format!("pre-roll takes best or roll, not '{value}'")),
                })
            }
            "depth" => limit = MoveLimit::Depth(number(value)? as u32),
            "nodes" => limit = MoveLimit::Nodes(number(value)?),
            "movetime" => limit = MoveLimit::Movetime(number(value)?),
            "eval" => match NamedEval::read(value).map_err(|e| format!("eval={e}"))? {
                NamedEval::Tables(params) => eval = Some(std::sync::Arc::new(*params)),
                NamedEval::Network(network) => net = Some(std::sync::Arc::new(*network)),
                NamedEval::OwnTables => use_net = false,
            },
            "skill" => {
                skill_level = number(value)
                    .ok()
                    .filter(|l| *l <= u64::from(alea_engine::services::search::FULL_SKILL))
                    .ok_or_else(|| format!("skill takes a level from 0 to 20, not '{value}'"))?
                    as u8
            }
            "candidates" => {
                candidates = Some(
                    number(value)
                        .ok()
                        .filter(|&n| n >= 1)
                        .ok_or_else(|| format!("candidates takes a number of turns from 1 up, not '{value}'"))?
                        as usize,
                )
            }
            "solution" => {
                exact_solution = match value {
                    "on" => true,
                    "off" => false,
                    _ => return Err(format!("solution takes on or off, not '{value}'")),
                }
            }
            k if k.starts_with("option.") => options.push((k["option.".len()..].to_string(), value.to_string())),
            _ => return Err(format!("unknown key '{key}' in --engine")),
        }
    }
    match (pre_roll, proto) {
        (Some(p), Proto::Uci(_)) => proto = Proto::Uci(p),
        (Some(_), Proto::Alea) => return Err("pre-roll=... is for plain UCI engines (proto=uci)".into()),
        (None, _) => {}
    }
    if candidates.is_some() && builtin.as_deref() != Some("peer") {
        return Err("candidates=... is for builtin=peer".into());
    }
    match (builtin.as_deref(), cmd) {
        (Some("alea"), None) => {
            let mut alea = AleaPlayer::with_eval(limit, eval);
            alea.net = net;
            alea.use_net = use_net;
            alea.exact_solution = exact_solution;
            alea.skill_level = skill_level;
            if let Some(name) = name {
                alea.name = name;
            }
            Ok(Box::new(alea))
        }
        (Some("random"), None) => Ok(Box::new(RandomPlayer { state: 0x5eed + index as u64 })),
        (Some("greedy"), None) => Ok(Box::new(GreedyPlayer)),
        (Some("expectimax2"), None) => Ok(Box::new(BaselinePlayer::new(Baseline::Expectimax2, limit))),
        (Some("peer"), None) => Ok(Box::new(BaselinePlayer::new(
            Baseline::Peer { candidates: candidates.unwrap_or(PEER_CANDIDATES) },
            limit,
        ))),
        (Some("aggressive"), None) => Ok(Box::new(BaselinePlayer::new(Baseline::Aggressive, limit))),
        (Some(other), None) => {
            Err(format!("unknown builtin '{other}' (alea, random, greedy, expectimax2, peer, aggressive)"))
        }
        (None, Some(cmd)) => {
            let name = name.unwrap_or_else(|| cmd.rsplit('/').next().unwrap_or(&cmd).to_string());
            Ok(Box::new(EngineProcess::new(name, cmd, proto, limit, options)))
        }
        _ => Err("an --engine needs builtin=... or cmd=...".into()),
    }
}

pub fn run(args: MatchArgs) -> ExitCode {
    match args.files_only {
        Some(MatchCmd::Merge { files, json }) => return merge(&files, json),
        Some(MatchCmd::Compare { a, b, list, json }) => return compare(&a, &b, list, json),
        None => {}
    }
    if args.engine.len() != 2 {
        return refuse("give exactly two --engine");
    }
    if let Err(e) = args.solution.install() {
        return refuse(e);
    }
    // The variant and its start, checked once: every game of the match is set up alike.
    let (variant, several_moves) = match GameHandle::of(args.variant, args.chess960) {
        Ok(game) => (game.variant().name(), game.several_moves_a_turn()),
        Err(e) => return refuse(e),
    };
    let baselines = ["builtin=expectimax2", "builtin=peer", "builtin=aggressive"];
    if let Some(b) = baselines.iter().find(|b| args.engine.iter().any(|e| e.split_whitespace().any(|w| w == **b)))
        && !several_moves
    {
        return refuse(format!("{b} plays the variants of several moves a turn, not {variant}"));
    }
    let limit = match (args.depth, args.nodes, args.movetime) {
        (Some(d), None, None) => MoveLimit::Depth(d),
        (None, Some(n), None) => MoveLimit::Nodes(n),
        (None, None, Some(ms)) => MoveLimit::Movetime(ms),
        (None, None, None) => MoveLimit::Depth(2),
        _ => return refuse("give at most one of --depth, --nodes, --movetime"),
    };
    // Each spec is checked once here, and each engine started and greeted once, as cutechess
    // does: one that cannot play stops the match before its first game. Every thread then makes
    // its own players from the specs.
    let start = GameHandle::of(args.variant, args.chess960).expect("checked above");
    let mut names = Vec::new();
    for (i, spec) in args.engine.iter().enumerate() {
        match player(spec, &limit, i) {
            Ok(mut p) => {
                if let Err(e) = p.check_ready(&start) {
                    return refuse(format!("engine {} ({spec}): {e}", i + 1));
                }
                names.push(p.name());
            }
            Err(e) => return refuse(e),
        }
    }
    if !(1..=64).contains(&args.concurrency) {
        return refuse("--concurrency takes 1 to 64");
    }
    let sprt = if args.sprt.is_empty() {
        None
    } else {
        match Sprt::parse(&args.sprt.join(" ")) {
            // Pairs whose luck is not read do not count for it: a variant whose rolls' luck the
            // referee cannot read (too many outcomes to value) would never decide.
            Ok(s) if s.luck && !luck_readable(args.variant, args.chess960) => {
                return refuse(format!("--sprt luck=1: the luck of a {variant} roll is not read (too many outcomes)"));
            }
            Ok(s) => Some(s),
            Err(e) => return refuse(e),
        }
    };
    let shard = match Shard::from_args(args.shard.as_deref(), args.shards) {
        Ok(shard) => shard,
        Err(e) => return refuse(e),
    };
    if let Some(path) = &args.pgn
        && path.exists()
        && !args.resume
    {
        return refuse(format!("{} exists: add --resume to continue that match, or name another file", path.display()));
    }
    let tc = match args.tc.as_deref().map(parse_tc) {
        None => None,
        Some(Ok(tc)) => Some(tc),
        Some(Err(e)) => return refuse(e),
    };
    let openings = match &args.openings {
        Some(path) => match std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|t| read_openings(&t, args.variant, args.chess960))
        {
            Ok(boards) => Openings::Fens(boards),
            Err(e) => return refuse(format!("--openings {}: {e}", path.display())),
        },
        None if args.chess960 => Openings::Chess960,
        None => Openings::StartPos,
    };
    let config = MatchConfig {
        variant: args.variant,
        chess960: args.chess960,
        pairs: args.pairs,
        seed: args.seed,
        max_plies: args.max_plies,
        openings,
        pgn: args.pgn.clone(),
        sprt,
        tc,
        shard,
        players: format!("{:?} vs {:?}, limit {}", args.engine[0], args.engine[1], limit.text()),
    };
    let names = (names[0].clone(), names[1].clone());
    let share = shard.items(args.pairs).count() as u64;
    if shard.is_whole() {
        eprintln!("{} vs {}, {variant}, {} pairs, seed {}", names.0, names.1, args.pairs, args.seed);
    } else {
        eprintln!(
            "{} vs {}, {variant}, shard {shard}: {share} of {} pairs, seed {}",
            names.0, names.1, args.pairs, args.seed
        );
    }
    let (spec_a, spec_b) = (args.engine[0].clone(), args.engine[1].clone());
    let make_a = || player(&spec_a, &limit, 0).expect("checked above");
    let make_b = || player(&spec_b, &limit, 1).expect("checked above");
    let progress =
        crate::progress::Progress::new(share, "pairs", 1, "{bar:30} {pos}/{len} pairs {elapsed_precise} {msg}");
    let result = run_match(&make_a, &make_b, &config, args.concurrency, &mut |r| {
        progress.update(r.penta.pairs(), &r.summary());
    });
    progress.finish();
    match result {
        Ok(report) => {
            print_report(&names, variant, &report, config.sprt, args.json);
            ExitCode::SUCCESS
        }
        Err(e) => refuse(e),
    }
}

/// The final summary, as text or as one line of JSON.
fn print_report(names: &(String, String), variant: &str, report: &MatchReport, sprt: Option<Sprt>, json: bool) {
    if json {
        let (lo, elo, hi) = report.penta.elo_bounds();
        let summary = serde_json::json!({
            "first": names.0, "second": names.1, "variant": variant,
            "games": report.games(), "wins": report.wins, "draws": report.draws, "losses": report.losses,
            "pentanomial": report.penta.0, "elo": elo, "elo_low": lo, "elo_high": hi,
            "los": report.penta.los(), "pair_variance_ratio": report.penta.pairing_ratio(),
            "luck_adjusted": (report.luck.pairs() > 0).then(|| {
                let (lo, elo, hi) = report.luck.elo();
                serde_json::json!({"pairs": report.luck.pairs(), "elo": elo, "elo_low": lo, "elo_high": hi,
                                   "variance_ratio": report.luck.variance_ratio()})
            }),
            "sprt": sprt.map(|s| serde_json::json!({
                "elo0": s.elo0, "elo1": s.elo1, "llr": s.llr(report), "luck": s.luck,
                "decision": report.sprt.map(|d| if d.h1 { "H1" } else { "H0" }),
                "decided_at_pair": report.sprt.map(|d| d.pairs),
            })),
            "failures": report.failures,
        });
        println!("{summary}");
        return;
    }
    println!("{} vs {}: {}", names.0, names.1, report.summary());
    if let Some(ratio) = report.penta.pairing_ratio() {
        println!("pair score variance {:.2} of what independent games would give", ratio);
    }
    if report.luck.pairs() > 0 {
        let ratio = report.luck.variance_ratio().map_or(String::new(), |r| {
            format!(
                " (pair score variance {r:.2} of the plain scores': the same interval from {:.0} % of the games)",
                r * 100.0
            )
        });
        println!("luck taken out, {} pairs: {}{ratio}", report.luck.pairs(), report.luck.elo_text());
    }
    if let Some(s) = sprt {
        let verdict = match report.sprt {
            Some(d) if d.h1 => "H1 accepted",
            Some(_) => "H0 accepted",
            None => "no decision",
        };
        let llr = s.llr(report);
        match report.sprt {
            // Pairs in flight when it stopped finish after the decision and move the ratio.
            Some(SprtDecision { pairs, llr: at, .. }) if pairs != report.penta.pairs() => println!(
                "SPRT [{}, {}]: LLR {at:.2} at pair {pairs}, {verdict} (LLR {llr:.2} over all {} pairs)",
                s.elo0,
                s.elo1,
                report.penta.pairs()
            ),
            _ => println!("SPRT [{}, {}]: LLR {llr:.2}, {verdict}", s.elo0, s.elo1),
        }
    }
    for f in &report.failures {
        println!("failure: {f}");
    }
}

/// A match's PGN file as text, or why it cannot be read.
fn read_text(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    String::from_utf8(bytes).map_err(|_| format!("{}: not a PGN file of alea match (not text)", path.display()))
}

/// `alea match merge`: the shards' files read, checked and summed.
fn merge(files: &[PathBuf], json: bool) -> ExitCode {
    let mut texts = Vec::new();
    for path in files {
        match read_text(path) {
            Ok(text) => texts.push((path.display().to_string(), text)),
            Err(e) => return refuse(e),
        }
    }
    let merged = match merge_match_files(&texts) {
        Ok(merged) => merged,
        Err(e) => return refuse(e),
    };
    eprintln!(
        "{} files, {} games ({} complete pairs){}",
        files.len(),
        merged.report.games(),
        merged.report.penta.pairs(),
        if merged.duplicates > 0 {
            format!(", {} games found twice and counted once", merged.duplicates)
        } else {
            String::new()
        }
    );
    print_report(&merged.players, &merged.variant, &merged.report, merged.sprt, json);
    if merged.cut_off.is_empty() {
        return ExitCode::SUCCESS;
    }
    for c in &merged.cut_off {
        eprintln!("alea match merge: {c}");
    }
    refuse(format!(
        "{} file(s) end in a game cut off mid-write: the summary counts only the whole games; finish those shards \
         with --resume and merge again",
        merged.cut_off.len()
    ))
}

/// `alea match compare`: two runs on the same dice, game by game.
fn compare(a: &Path, b: &Path, list: bool, json: bool) -> ExitCode {
    let mut files = Vec::new();
    for path in [a, b] {
        let file = match read_text(path).and_then(|text| read_match_file(&text)) {
            Ok(file) => file,
            Err(e) => return refuse(format!("{}: {e}", path.display())),
        };
        if let Some(c) = &file.cut_off {
            eprintln!("alea match compare: {}: {c}; left out", path.display());
        }
        files.push(file);
    }
    let c = match compare_runs(&files[0], &files[1]) {
        Ok(c) => c,
        Err(e) => return refuse(e),
    };
    let games = 2 * c.pairs;
    if json {
        let side = |s: &RunSide, path: &Path| {
            let (lo, elo, hi) = s.report.penta.elo_bounds();
            serde_json::json!({
                "file": path.display().to_string(), "player": s.player, "opponent": s.opponent,
                "wins": s.report.wins, "draws": s.report.draws, "losses": s.report.losses,
                "elo": elo, "elo_low": lo, "elo_high": hi,
                "mean_depth": s.mean_depth, "mean_seconds": s.mean_seconds,
                "luck_adjusted": s.luck().map(|luck| {
                    let (lo, elo, hi) = luck.elo();
                    serde_json::json!({"elo": elo, "elo_low": lo, "elo_high": hi})
                }),
            })
        };
        let summary = serde_json::json!({
            "pairs": c.pairs, "a": side(&c.a, a), "b": side(&c.b, b),
            "difference": c.difference, "margin": c.margin,
            "luck_adjusted": c.luck_adjusted.map(|(d, m)| serde_json::json!({"difference": d, "margin": m})),
            "same_result": c.same_result, "same_moves": c.same_moves,
            "changed": c.changed.iter().map(|g| serde_json::json!({
                "round": g.round, "points_a": g.points.0, "points_b": g.points.1,
                "turns_a": g.turns.0, "turns_b": g.turns.1,
            })).collect::<Vec<_>>(),
        });
        println!("{summary}");
        return ExitCode::SUCCESS;
    }
    println!("{} pairs both runs finished ({games} games), the first player's side of each:", c.pairs);
    for (label, side, path) in [("A", &c.a, a), ("B", &c.b, b)] {
        let luck = side.luck().map_or(String::new(), |luck| format!("; luck taken out, {}", luck.elo_text()));
        println!(
            "{label} {}: {} vs {}: {}{}{luck}",
            path.display(),
            side.player,
            side.opponent,
            side.report.summary(),
            run_habits(side)
        );
    }
    println!(
        "A - B: {:+.3} ± {:.3} points a game (95 %, over the pairs){}",
        c.difference,
        c.margin,
        unmeasured(c.difference, c.margin)
    );
    if let Some((difference, margin)) = c.luck_adjusted {
        println!(
            "A - B, luck taken out: {difference:+.3} ± {margin:.3} points a game{}",
            unmeasured(difference, margin)
        );
    }
    println!(
        "ended alike: {} of {games} games ({:.0} %), {} of them played turn for turn alike",
        c.same_result,
        c.same_result as f64 * 100.0 / games as f64,
        c.same_moves
    );
    if list {
        let result = |points: f64| match points {
            1.0 => "won",
            0.0 => "lost",
            _ => "drawn",
        };
        for g in &c.changed {
            println!(
                "{}: A {} in {} turns, B {} in {} turns",
                g.round,
                result(g.points.0),
                g.turns.0,
                result(g.points.1),
                g.turns.1
            );
        }
    }
    ExitCode::SUCCESS
}

/// What a difference within its interval's margin says.
fn unmeasured(difference: f64, margin: f64) -> &'static str {
    if difference.abs() > margin { "" } else { ", no difference measured" }
}

/// `; 4.49 deep, 0.112 s a move`: the first player's mean depth (in its own unit) and time, where
/// its moves' notes give them.
fn run_habits(side: &RunSide) -> String {
    let depth = side.mean_depth.map(|d| format!("{d:.2} deep"));
    let time = side.mean_seconds.map(|t| format!("{t:.3} s a move"));
    match (depth, time) {
        (Some(d), Some(t)) => format!("; {d}, {t}"),
        (Some(d), None) => format!("; {d}"),
        _ => String::new(),
    }
}

/// `10+0.1` (seconds and increment) as milliseconds.
fn parse_tc(text: &str) -> Result<alea_tuning::referee::TimeControl, String> {
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let seconds = |v: &str| v.trim().parse::<f64>().ok().filter(|s| s.is_finite() && *s >= 0.0 && *s <= 86_400.0);
    match (seconds(base), seconds(inc)) {
        (Some(b), Some(i)) if b > 0.0 => Ok(alea_tuning::referee::TimeControl {
            base: (b * 1000.0).round() as u64,
            increment: (i * 1000.0).round() as u64,
        }),
        _ => Err(format!("--tc takes SECONDS+INCREMENT such as 10+0.1, not '{text}'")),
    }
}
