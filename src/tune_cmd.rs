//! `alea tune`: self-play data, the fit of the evaluation to it, and the report on both.

use alea_engine::eval::NamedEval;
use alea_engine::eval::params::EvalParams;
use alea_engine::services::handle::GameHandle;
use alea_engine::services::registry::{UnknownVariant, Variant};
use alea_tuning::datagen::{DatagenConfig, merge_data, read_data, run_datagen};
use alea_tuning::fit::{FitConfig, fit, fit_terms, term_samples};
use alea_tuning::players::MoveLimit;
use alea_tuning::report::{ReportInput, write_report};
use alea_tuning::shard::Shard;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Subcommand)]
pub enum TuneCmd {
    /// Self-play games written as quiet positions with the game's result; resumable.
    Datagen(DatagenArgs),
    /// Texel fit of the evaluation's parameters to a data file's results.
    Fit(FitArgs),
    /// Per-variant statistics of self-play data and fitted values, as Markdown and SVG plots.
    Report(ReportArgs),
    /// One data file from the files of a run's shards: every game once, in order. Files of other
    /// settings are refused; a file cut off mid-game gives exit code 2 after the merge of the
    /// whole games is written.
    Merge(MergeArgs),
    /// Trains a learned evaluation (NNUE) on data files: the search's scores blended with the
    /// games' results, a validation split of whole games, Adam over threads; writes the network,
    /// its loss per epoch (CSV) and a plot (SVG).
    Nnue(NnueArgs),
    /// Fits a network's result scale (how its scores turn into expected results, which the
    /// search's equity and the win/draw/loss reports use) to games' results: those of data files'
    /// positions, or those of a player's reported scores in match games; writes the network with
    /// it. (`alea tune nnue` gives a new network the adopted one's.)
    Scale(ScaleArgs),
}

#[derive(clap::Args)]
pub struct ScaleArgs {
    /// Data files from `alea tune datagen` (all of the network's variant): fits the scale to the
    /// static scores of their positions (the variant's tables plus the network).
    #[arg(long, num_args = 1.., required_unless_present = "pgn", conflicts_with = "pgn")]
    data: Vec<PathBuf>,
    /// A file of `alea match` games instead: fits the scale to the scores PLAYER's searches
    /// reported for its moves, at the speed those games were played.
    #[arg(long, requires = "player")]
    pgn: Option<PathBuf>,
    /// The player of --pgn, as the games' White and Black tags name it.
    #[arg(long, requires = "pgn")]
    player: Option<String>,
    /// The network (`.nnue`).
    #[arg(long)]
    net: PathBuf,
    /// The network file to write, with the fitted scale (may be NET itself).
    #[arg(long)]
    out: PathBuf,
}

#[derive(clap::Args)]
pub struct NnueArgs {
    /// Data files from `alea tune datagen` (all of one variant).
    #[arg(long, num_args = 1.., required = true)]
    data: Vec<PathBuf>,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 30)]
    epochs: usize,
    /// Positions a step.
    #[arg(long, default_value_t = 16_384)]
    batch: usize,
    /// Adam's step at the start (it falls to a tenth by the end).
    #[arg(long, default_value_t = 0.001)]
    learning_rate: f32,
    /// Decoupled weight decay (AdamW), pulling the network toward zero (the tables alone).
    #[arg(long, default_value_t = 0.0)]
    weight_decay: f32,
    /// The search score's weight in the target, the game's result taking the rest.
    #[arg(long, default_value_t = 0.75)]
    lambda: f32,
    /// One game in this many is held out for validation.
    #[arg(long, default_value_t = 20)]
    validation: u64,
    /// Training threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Seed of the starting weights and of the order of the positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Dice-aware inputs besides the pieces: for each side and piece type, whether its pieces
    /// have at least 1, 2, 4 and 8 moves.
    #[arg(long)]
    mobility: bool,
    /// Start from this network (as `alea tune nnue` wrote it, for the same variant) instead of
    /// random weights: it learns from the new data what it did not from its own. With
    /// --mobility a network without dice-aware inputs gains them, starting at zero.
    #[arg(long)]
    start_from: Option<PathBuf>,
    /// The network file to write (`EvalFile` loads it); OUT.csv and OUT.svg get the losses.
    #[arg(long)]
    out: PathBuf,
}

#[derive(clap::Args)]
pub struct MergeArgs {
    /// The shards' data files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The merged file (must not exist).
    #[arg(long)]
    out: PathBuf,
}

#[derive(clap::Args)]
pub struct DatagenArgs {
    #[arg(long, default_value_t = Variant::DEFAULT, help = crate::variant_help())]
    variant: Variant,
    /// Chess960 starts (each game the next of the 960).
    #[arg(long)]
    chess960: bool,
    /// Games to play (game i always gets the same dice).
    #[arg(long)]
    games: u64,
    /// Turns deep each move (the default: 2).
    #[arg(long)]
    depth: Option<u32>,
    /// Nodes a move instead of a depth.
    #[arg(long)]
    nodes: Option<u64>,
    /// A cheaper limit, of the same kind (turns deep with --depth, nodes with --nodes), for the
    /// moves of positions the data does not keep (not quiet with the roll): they only carry the
    /// game on, so the run makes more kept positions an hour.
    #[arg(long)]
    unkept: Option<u64>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Seed of the dice and of the random opening plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Opening plies played at random, to spread the games out.
    #[arg(long, default_value_t = 8)]
    random_plies: usize,
    /// A game still on after this many plies is a draw.
    #[arg(long, default_value_t = 600)]
    max_plies: usize,
    /// Players' evaluation: a file of tables or a network, or `tables` for the variant's tables
    /// without the network it has adopted (default: the engine's evaluation).
    #[arg(long)]
    eval: Option<String>,
    /// The data file, written game by game (see --resume).
    #[arg(long)]
    out: PathBuf,
    /// Continue an existing file made with the same settings.
    #[arg(long)]
    resume: bool,
    /// Play only shard I of N (from 0): the games whose number is I modulo N, each as it is in
    /// the whole run. `alea tune merge` joins the shards' files.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Split into N shards, this one's index from JOB_COMPLETION_INDEX (Kubernetes Indexed Jobs)
    /// or SLURM_ARRAY_TASK_ID (Slurm job arrays).
    #[arg(long, value_name = "N")]
    shards: Option<u64>,
}

#[derive(clap::Args)]
pub struct FitArgs {
    /// Data files from `alea tune datagen` (all of one variant).
    #[arg(long, num_args = 1.., required = true)]
    data: Vec<PathBuf>,
    /// The variant whose starting values the fit begins from (default: the data's).
    #[arg(long)]
    variant: Option<String>,
    /// Fit only the material values (the square tables stay flat).
    #[arg(long)]
    material_only: bool,
    /// Passes over the data.
    #[arg(long, default_value_t = 400)]
    epochs: usize,
    /// Where to write the fitted parameters (the engine's `EvalFile` form).
    #[arg(long)]
    out: PathBuf,
    /// Where to write the convergence (CSV: epoch, loss); default: OUT with `.csv` added.
    #[arg(long)]
    log: Option<PathBuf>,
}

#[derive(clap::Args)]
pub struct ReportArgs {
    /// `VARIANT=DATA[,DATA...][:FITTED]`, once per variant: data files and, optionally, the fitted
    /// parameters (their convergence log is read from FITTED.csv when it exists).
    #[arg(long = "input", num_args = 1.., required = true)]
    inputs: Vec<String>,
    /// Folder for report.md and the SVG plots.
    #[arg(long)]
    out: PathBuf,
}

fn refuse(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("alea tune: {message}");
    ExitCode::from(2)
}

/// The variant by name (a game of it at its start), with Chess960 starts if asked.
fn parse_variant(name: &str, chess960: bool) -> Result<GameHandle, String> {
    let variant: Variant = name.parse().map_err(|e: UnknownVariant| e.to_string())?;
    let game = GameHandle::of(variant, chess960).map_err(|e| e.to_string())?;
    if game.is_solved() {
        return Err(format!(
            "{} is solved exactly (alea solve {}): there is no evaluation to tune",
            game.variant().name(),
            game.variant().name()
        ));
    }
    Ok(game)
}

pub fn run(cmd: TuneCmd) -> ExitCode {
    let result = match cmd {
        TuneCmd::Datagen(args) => datagen(args),
        TuneCmd::Fit(args) => run_fit(args),
        TuneCmd::Report(args) => report(args),
        TuneCmd::Merge(args) => merge(args),
        TuneCmd::Nnue(args) => nnue(args),
        TuneCmd::Scale(args) => scale(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => refuse(e),
    }
}

fn datagen(args: DatagenArgs) -> Result<(), String> {
    let variant = parse_variant(args.variant.name(), args.chess960)?;
    let limit = match (args.depth, args.nodes) {
        (Some(_), Some(_)) => return Err("give --depth or --nodes, not both".into()),
        (_, Some(n)) if n > 0 => MoveLimit::Nodes(n),
        (Some(d), None) if d > 0 => MoveLimit::Depth(d),
        (None, None) => MoveLimit::Depth(2),
        _ => return Err("--depth and --nodes must be at least 1".into()),
    };
    if args.games == 0 || args.concurrency == 0 {
        return Err("--games and --concurrency must be at least 1".into());
    }
    let unkept_limit = match (args.unkept, &limit) {
        (None, _) => None,
        (Some(0), _) => return Err("--unkept must be at least 1".into()),
        (Some(d), MoveLimit::Depth(full)) if d < u64::from(*full) => Some(MoveLimit::Depth(d as u32)),
        (Some(n), MoveLimit::Nodes(full)) if n < *full => Some(MoveLimit::Nodes(n)),
        (Some(_), _) => return Err("--unkept must be below the main limit (--depth or --nodes)".into()),
    };
    let (mut eval, mut net, mut use_net) = (None, None, true);
    match args.eval.as_deref().map(NamedEval::read).transpose().map_err(|e| format!("--eval {e}"))? {
        Some(NamedEval::Tables(params)) => {
            variant.eval_fits(&params).map_err(|e| format!("--eval does not fit: {e}"))?;
            eval = Some(Arc::new(*params));
        }
        Some(NamedEval::Network(network)) if network.variant == variant.variant().name() => {
            net = Some(Arc::new(*network))
        }
        Some(NamedEval::Network(network)) => {
            return Err(format!("--eval: the network is for {}, not {}", network.variant, variant.variant().name()));
        }
        Some(NamedEval::OwnTables) => use_net = false,
        None => {}
    }
    let config = DatagenConfig {
        variant: variant.variant(),
        chess960: args.chess960,
        games: args.games,
        limit,
        unkept_limit,
        seed: args.seed,
        random_plies: args.random_plies,
        max_plies: args.max_plies,
        eval,
        net,
        use_net,
        shard: Shard::from_args(args.shard.as_deref(), args.shards)?,
    };
    // A line every hundredth of the run when standard error is not a terminal.
    let share = config.shard.items(args.games).count() as u64;
    let progress = crate::progress::Progress::new(
        share,
        "games",
        share / 100,
        "{bar:30} {pos}/{len} games {elapsed_precise} eta {eta}",
    );
    let played = run_datagen(&config, &args.out, args.resume, args.concurrency, &|done, _| progress.update(done, ""))?;
    progress.finish();
    let data = read_data(&args.out)?;
    eprintln!(
        "{played} games played now; {} games and {} quiet positions in {}",
        data.games.len(),
        data.samples.len(),
        args.out.display()
    );
    Ok(())
}

fn merge(args: MergeArgs) -> Result<(), String> {
    if args.out.exists() {
        return Err(format!("{} exists: name a new file for the merge", args.out.display()));
    }
    let mut texts = Vec::new();
    for path in &args.files {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        texts.push((path.display().to_string(), bytes));
    }
    let merged = merge_data(&texts)?;
    // Written whole under another name first: a kill leaves no half file under the real one.
    let partial = args.out.with_extension("partial");
    std::fs::write(&partial, &merged.bytes)
        .and_then(|()| std::fs::rename(&partial, &args.out))
        .map_err(|e| format!("{}: {e}", args.out.display()))?;
    eprintln!(
        "{} games and {} positions from {} files into {}{}",
        merged.games,
        merged.positions,
        args.files.len(),
        args.out.display(),
        if merged.duplicates > 0 {
            format!(" ({} games found twice, kept once)", merged.duplicates)
        } else {
            String::new()
        }
    );
    if merged.cut_off.is_empty() {
        return Ok(());
    }
    for c in &merged.cut_off {
        eprintln!("alea tune merge: {c}");
    }
    Err(format!(
        "{} file(s) end in a game cut off mid-write: the merge holds only the whole games; finish those shards with \
         --resume and merge again",
        merged.cut_off.len()
    ))
}

fn nnue(args: NnueArgs) -> Result<(), String> {
    if args.epochs == 0
        || args.batch == 0
        || !(0.0..=1.0).contains(&args.lambda)
        || args.learning_rate <= 0.0
        || args.weight_decay.is_nan()
        || args.weight_decay < 0.0
    {
        return Err(
            "--epochs and --batch must be at least 1, --lambda in 0..1, --learning-rate above 0, --weight-decay at least 0"
                .into(),
        );
    }
    let (game, sets) = network_data(&args.data)?;
    let start = match &args.start_from {
        Some(path) => {
            let net = alea_engine::eval::nnue::Network::read(path).map_err(|e| e.to_string())?;
            if net.variant != game.variant().name() {
                return Err(format!(
                    "{}: a network for {}, the data is {}'s",
                    path.display(),
                    net.variant,
                    game.variant().name()
                ));
            }
            if net.mobility_weights.is_some() && !args.mobility {
                return Err(format!("{}: the network has dice-aware inputs: add --mobility", path.display()));
            }
            Some(net)
        }
        None => None,
    };
    let started = start.is_some();
    // The scale of the network it starts from, which was fitted to that network's games.
    let start_scale = start.as_ref().and_then(|net| net.result_scale);
    let config = alea_tuning::nnue_train::TrainConfig {
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: args.learning_rate,
        weight_decay: args.weight_decay,
        lambda: args.lambda,
        result_scale: game.default_eval().result_scale as f32,
        validation: args.validation,
        threads: args.threads.max(1),
        seed: args.seed,
        mobility: args.mobility,
        start,
    };
    // Each position with its game, so that validation holds out whole games (game i of every
    // file has index i: the file's number is mixed in).
    let samples: Vec<(u64, &alea_tuning::datagen::Sample)> = sets
        .iter()
        .enumerate()
        .flat_map(|(f, data)| {
            data.samples.iter().map(move |s| (s.game.wrapping_mul(1_000_003).wrapping_add(f as u64), s))
        })
        .collect();
    if samples.is_empty() {
        return Err("no positions in the data".into());
    }
    // The network adds to the variant's built-in tables: their loss on the held-out positions is
    // where it starts (epoch 0) and what it must improve on.
    let tables = game.default_eval();
    let tables_score = |s: &alea_tuning::datagen::Sample| tables_score(&tables, s);
    let prepared = alea_tuning::nnue_train::prepare(&samples, &config, &tables_score);
    eprintln!(
        "{} positions for training, {} held out (one game in {}); {} epochs, K {:.4}",
        prepared.train_len(),
        prepared.valid_len(),
        args.validation,
        args.epochs,
        config.result_scale
    );
    let progress = crate::progress::Progress::new(
        args.epochs as u64,
        "epochs",
        1,
        "{bar:30} epoch {pos}/{len} {elapsed_precise} eta {eta} {msg}",
    );
    let trained =
        alea_tuning::nnue_train::train(&prepared, game.variant().name(), &config, &mut |epoch, train, valid| {
            progress.update(epoch as u64, &format!("loss {train:.6}, validation {valid:.6}"))
        });
    progress.finish();
    let mut net = trained.net;
    // The scale of the network it starts from, else of the one it would replace: networks
    // trained alike score alike, and the scale is fitted to games (`alea tune scale`), which a
    // new network has not played yet.
    let (inherited, whose) = match start_scale {
        Some(k) => (Some(k), "the starting network's"),
        None => (game.variant().network().and_then(|adopted| adopted.result_scale), "the adopted network's"),
    };
    net.result_scale = inherited;
    std::fs::write(&args.out, net.to_bytes()).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let mut csv = String::from("epoch,train,validation\n");
    for (epoch, (t, v)) in trained.history.iter().enumerate() {
        csv.push_str(&format!("{epoch},{t:.8},{v:.8}\n"));
    }
    let csv_path = PathBuf::from(format!("{}.csv", args.out.display()));
    std::fs::write(&csv_path, csv).map_err(|e| format!("{}: {e}", csv_path.display()))?;
    let svg = PathBuf::from(format!("{}.svg", args.out.display()));
    alea_tuning::nnue_train::loss_plot(&trained.history, &format!("{}: loss per epoch", game.variant().name()), &svg)?;
    let (first, last) = (trained.history[0], trained.history[trained.history.len() - 1]);
    println!("loss {:.6} -> {:.6}, validation {:.6} -> {:.6}", first.0, last.0, first.1, last.1);
    let best = trained.history[trained.best_epoch];
    let epoch_zero = if started { "the network it started from" } else { "the tables alone" };
    println!("kept epoch {} (validation {:.6}; epoch 0 is {epoch_zero})", trained.best_epoch, best.1);
    let quantised = alea_tuning::nnue_train::validation_loss_of(&samples, &config, &|s| {
        tables_score(s) + net.evaluate_board(s.board().expect("an 8x8 board"))
    });
    println!("validation loss of the network in the engine's integers: {quantised:.6}");
    // Epoch 0 is the tables alone (the output weights start at zero), or the starting network.
    println!(
        "{} on the same held-out positions: {:.6}",
        if started { "the starting network" } else { "the built-in tables" },
        first.1
    );
    match inherited {
        Some(k) => println!("result scale K {k:.4}, {whose} (alea tune scale refits it)"),
        None => println!("no result scale: the tables' K {:.4} (alea tune scale fits one)", tables.result_scale),
    }
    eprintln!("wrote {}, {} and {}", args.out.display(), csv_path.display(), svg.display());
    Ok(())
}

/// Data files for a network: all of one 8x8 variant (the network adds to its tables).
fn network_data(paths: &[PathBuf]) -> Result<(GameHandle, Vec<alea_tuning::datagen::DataSet>), String> {
    let mut sets = Vec::new();
    let mut name: Option<String> = None;
    for path in paths {
        let data = read_data(path)?;
        let variant = data.variant().map(str::to_string);
        let Some(variant) = variant else { return Err(format!("{}: the header names no variant", path.display())) };
        if name.as_ref().is_some_and(|n| *n != variant) {
            return Err("the data files are of different variants".into());
        }
        name = Some(variant);
        sets.push(data);
    }
    let name = name.ok_or("no data files")?;
    let game = parse_variant(name.trim_end_matches("960"), name.ends_with("960"))?;
    // A network adds to the 8x8 tables and reads 8x8 boards.
    game.uses_tables().map_err(|e| e.to_string())?;
    for (data, path) in sets.iter().zip(paths) {
        data.boards().map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok((game, sets))
}

/// The tables' score of a sample (on an 8x8 board) for White, with the terms the search adds to
/// the tables' sums outside the network (Freedom's free checks): the base a network refines.
fn tables_white(tables: &EvalParams, s: &alea_tuning::datagen::Sample) -> i32 {
    let board = s.board().expect("an 8x8 board");
    tables.white_score(board) + alea_engine::eval::free_checks::white_term(board, tables.free_checks)
}

/// The same for the sample's side to move.
fn tables_score(tables: &EvalParams, s: &alea_tuning::datagen::Sample) -> i32 {
    let white = tables_white(tables, s);
    if s.board().expect("an 8x8 board").turn() == alea_engine::Color::White { white } else { -white }
}

/// Each data position's static score for White under `net` (the variant's tables plus the
/// network), with White's result.
fn static_scores(
    game: &GameHandle,
    sets: &[alea_tuning::datagen::DataSet],
    net: &alea_engine::eval::nnue::Network,
) -> Vec<(f64, f64)> {
    let tables = game.default_eval();
    let white = alea_engine::Color::White;
    sets.iter()
        .flat_map(|data| &data.samples)
        .map(|s| {
            let board = s.board().expect("an 8x8 board");
            let learned = net.evaluate_board(board);
            let score = tables_white(&tables, s) + if board.turn() == white { learned } else { -learned };
            (f64::from(score), s.white_score)
        })
        .collect()
}

fn scale(args: ScaleArgs) -> Result<(), String> {
    let mut net = alea_engine::eval::nnue::Network::read(&args.net).map_err(|e| e.to_string())?;
    let same_variant = |game: &GameHandle| {
        if net.variant == game.variant().name() {
            Ok(())
        } else {
            Err(format!("the network is for {}, the games of {}", net.variant, game.variant().name()))
        }
    };
    let (game, scored, source) = match (&args.pgn, &args.player) {
        (Some(pgn), Some(player)) => {
            let text = std::fs::read_to_string(pgn).map_err(|e| format!("{}: {e}", pgn.display()))?;
            let file =
                alea_tuning::match_file::read_match_file(&text).map_err(|e| format!("{}: {e}", pgn.display()))?;
            let variant = file.games.first().map(|g| g.record.variant).ok_or("no finished game in the file")?;
            let game = parse_variant(variant.name(), false)?;
            same_variant(&game)?;
            let scored = alea_tuning::reported_scores::reported_scores(&file, player)?;
            let source = format!("{} scores {player} reported", scored.len());
            (game, scored, source)
        }
        _ => {
            let (game, sets) = network_data(&args.data)?;
            same_variant(&game)?;
            let scored = static_scores(&game, &sets, &net);
            let source = format!("{} positions", scored.len());
            (game, scored, source)
        }
    };
    if scored.is_empty() {
        return Err(format!("nothing to fit: no centipawn scores with results ({source})"));
    }
    let k = alea_tuning::fit::fit_result_scale(&scored);
    let before = net.result_scale;
    net.result_scale = Some(k);
    std::fs::write(&args.out, net.to_bytes()).map_err(|e| format!("{}: {e}", args.out.display()))?;
    println!(
        "result scale K {k:.4} fitted on {source} ({}; the tables' own: {:.4}); wrote {}",
        before.map_or("the network had none".to_string(), |b| format!("the network had {b:.4}")),
        game.default_eval().result_scale,
        args.out.display()
    );
    Ok(())
}

fn run_fit(args: FitArgs) -> Result<(), String> {
    let mut samples = Vec::new();
    let mut header_variant: Option<String> = None;
    for path in &args.data {
        let data = read_data(path)?;
        let variant = data.variant().map(|v| v.trim_end_matches("960").to_string());
        if header_variant.is_some() && variant != header_variant {
            return Err("the data files are of different variants".into());
        }
        header_variant = variant;
        samples.extend(data.samples);
    }
    let name = match (&args.variant, &header_variant) {
        (Some(v), _) => v.clone(),
        (None, Some(v)) => v.clone(),
        (None, None) => return Err("the data's header names no variant: give --variant".into()),
    };
    let variant = parse_variant(&name, false)?;
    if samples.is_empty() {
        return Err("no positions in the data".into());
    }
    let start = variant.starting_eval();
    let config = FitConfig { epochs: args.epochs, material_only: args.material_only, ..FitConfig::default() };
    eprintln!("{} positions; fitting from the {} starting values", samples.len(), variant.variant().name());
    let mut on_epoch = |epoch, loss| {
        if epoch % 50 == 0 {
            eprintln!("epoch {epoch:>5}  loss {loss:.6}");
        }
    };
    // The 8x8 variants fit their tables; the big boards their own few weights, read from the
    // terms their game computes for each position.
    let tables = variant.uses_tables().is_ok();
    let fitted = if tables {
        alea_tuning::datafile::boards_of(&samples)?;
        fit(&samples, &start, &config, &mut on_epoch)
    } else {
        fit_terms(&term_samples(variant.variant(), &samples)?, &start, &config, &mut on_epoch)
    };
    if tables {
        println!("scale K = {:.4} (fitted to the starting values first)", fitted.k);
    } else {
        println!("scale K = {:.4} (fitted to the starting values, then scaled with the weights)", fitted.k);
    }
    println!("loss {:.6} -> {:.6}", fitted.start_loss, fitted.loss);
    if !tables {
        println!(
            "pawn step {} -> {}, centre {} -> {}",
            start.pawn_step, fitted.params.pawn_step, start.centre, fitted.params.centre
        );
    }
    println!("{:<6} {:>9} {:>9} {:>9}", "piece", "start", "fit mg", "fit eg");
    for (i, role) in alea_engine::Role::ALL.into_iter().enumerate() {
        println!(
            "{:<6} {:>9} {:>9} {:>9}",
            role.char().to_ascii_uppercase(),
            start.material[0][i],
            fitted.params.material[0][i],
            fitted.params.material[1][i]
        );
    }
    let mut text = fitted.params.to_text();
    text.insert_str(
        0,
        &format!(
            "# fitted by alea tune fit: variant {}, {} positions, K {:.4}, loss {:.6} (start {:.6})\n",
            variant.variant().name(),
            samples.len(),
            fitted.k,
            fitted.loss,
            fitted.start_loss
        ),
    );
    std::fs::write(&args.out, text).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let log = args.log.unwrap_or_else(|| PathBuf::from(format!("{}.csv", args.out.display())));
    let mut csv = String::from("epoch,loss\n");
    for (epoch, loss) in fitted.history.iter().enumerate() {
        csv.push_str(&format!("{epoch},{loss:.8}\n"));
    }
    std::fs::write(&log, csv).map_err(|e| format!("{}: {e}", log.display()))?;
    eprintln!("wrote {} and {}", args.out.display(), log.display());
    Ok(())
}

fn report(args: ReportArgs) -> Result<(), String> {
    let mut inputs = Vec::new();
    for spec in &args.inputs {
        let (variant, rest) = spec.split_once('=').ok_or_else(|| format!("'{spec}' is not VARIANT=DATA[:FITTED]"))?;
        let game = parse_variant(variant, false)?;
        let (data_list, fitted) = match rest.rsplit_once(':') {
            Some((d, f)) => (d, Some(PathBuf::from(f))),
            None => (rest, None),
        };
        let mut games = Vec::new();
        let mut samples = 0;
        let mut phases = [[0u64; 25]; 6];
        for path in data_list.split(',') {
            let data = read_data(&PathBuf::from(path))?;
            samples += data.samples.len();
            for (all, these) in phases.iter_mut().zip(ReportInput::count_phases(&data.samples)) {
                for (a, t) in all.iter_mut().zip(these) {
                    *a += t;
                }
            }
            games.extend(data.games);
        }
        let params = fitted.as_deref().map(EvalParams::read).transpose().map_err(|e| e.to_string())?;
        let history = match &fitted {
            Some(f) => {
                let log = PathBuf::from(format!("{}.csv", f.display()));
                std::fs::read_to_string(&log)
                    .ok()
                    .map(|text| text.lines().skip(1).filter_map(|l| l.split(',').nth(1)?.parse::<f64>().ok()).collect())
                    .unwrap_or_default()
            }
            None => Vec::new(),
        };
        inputs.push(ReportInput {
            variant: game.variant().name().to_string(),
            start: game.starting_eval(),
            games,
            samples,
            fitted: params,
            history,
            phases,
        });
    }
    std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let markdown = write_report(&inputs, &args.out)?;
    print!("{markdown}");
    eprintln!("wrote {}", args.out.join("report.md").display());
    Ok(())
}
