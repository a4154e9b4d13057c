//! `alea advise`: the engine's advice on a position, for people (a board and tables) and for
//! programs (`--json`). With a roll, every allowed move ranked with its expected score and its cost
//! against the best; before the roll, what each outcome would bring and whether to take a Freedom
//! move instead of rolling.

use alea_engine::rules::{Position, Roll, Rules, TurnList, Variant, VariantKind};
use alea_engine::search::{self, Choice, Root, SearchOptions, SearchResult, Shared};
use alea_engine::timeman::Limits;
use alea_engine::{Board, Color, Game, Move, Role, Square};
use serde_json::json;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct AdviseArgs {
    /// Rule set: freedom, classic or brainking.
    #[arg(long, default_value = "freedom")]
    variant: String,
    /// Chess960 castling and notation.
    #[arg(long)]
    chess960: bool,
    /// Start from this FEN instead of the start position.
    #[arg(long)]
    fen: Option<String>,
    /// Turns played from the start, in UCI (`0000` for a pass).
    #[arg(long, num_args = 1..)]
    moves: Vec<String>,
    /// The roll: faces such as `4` or `2,5`, or `any`. Without it, the advice before the roll.
    #[arg(long)]
    roll: Option<String>,
    /// Seconds to think.
    #[arg(long, conflicts_with = "depth", allow_negative_numbers = true)]
    time: Option<f64>,
    /// Turns deep to search, instead of a time.
    #[arg(long)]
    depth: Option<u32>,
    /// How many moves to score exactly (all of them by default).
    #[arg(long)]
    multipv: Option<usize>,
    /// Print JSON instead of the board and tables.
    #[arg(long)]
    json: bool,
}

/// A refused argument: the message names it.
fn refuse(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("alea advise: {message}");
    ExitCode::from(2)
}

pub fn run(args: AdviseArgs) -> ExitCode {
    let Some(kind) = VariantKind::from_name(&args.variant) else {
        return refuse(format!("unknown variant '{}' (freedom, classic or brainking)", args.variant));
    };
    let rules = Variant::new(kind, args.chess960);
    let board = match args.fen.as_deref().map(Board::from_fen).unwrap_or_else(|| Ok(Board::startpos())) {
        Ok(b) => b,
        Err(e) => return refuse(e),
    };
    let start = Position::new(board);
    if let Err(e) = rules.validate(&start) {
        return refuse(format!("position refused: {e}"));
    }
    let mut game = Game::new(rules, start);
    for m in &args.moves {
        if let Err(e) = game.play_uci(m, |p| p.board.fen()) {
            return refuse(e);
        }
    }
    let roll = match args.roll.as_deref() {
        None => None,
        Some("any") => Some(None),
        Some(text) => {
            let words: Vec<&str> = text.split([',', ' ']).filter(|w| !w.is_empty()).collect();
            match Roll::parse(&words).and_then(|r| rules.check_roll(&r).map(|()| r)) {
                Ok(r) => Some(Some(r)),
                Err(e) => return refuse(format!("--roll {text}: {e}")),
            }
        }
    };
    if args.time.is_some_and(|t| !(t > 0.0 && t <= 86_400.0)) || args.depth == Some(0) {
        return refuse("--time takes seconds above 0 (at most a day) and --depth a whole number above 0");
    }
    if let Some(end) = game.end() {
        if args.json {
            println!("{}", json!({ "fen": game.position().board.fen(), "result": end.to_string() }));
        } else {
            println!("{}", diagram(&game));
            println!("The game is over: {end}.");
        }
        return ExitCode::SUCCESS;
    }

    let pos = game.position();
    let root = match roll {
        None => Root::PreRoll,
        Some(r) => {
            let mut turns = TurnList::new();
            match r {
                None => rules.any_turns(pos, &mut turns),
                Some(r) => rules.allowed_turns(pos, &r, &mut turns),
            }
            Root::Turns(turns.to_vec())
        }
    };
    let choices = match &root {
        Root::Turns(t) => t.len(),
        Root::PreRoll => {
            let mut pre = TurnList::new();
            rules.pre_roll_turns(pos, &mut pre);
            pre.len() + 1
        }
    };
    let limits = match (args.depth, args.time) {
        (Some(d), _) => Limits { depth: Some(d), ..Default::default() },
        (None, t) => Limits { movetime: Some((t.unwrap_or(1.0) * 1000.0) as u64), ..Default::default() },
    };
    let options = SearchOptions { multipv: args.multipv.unwrap_or(choices).max(1), ..SearchOptions::default() };
    let result = search::search_game(&game, root, limits, options, &Shared::new(64), &mut |_| {});
    if args.json {
        println!("{}", to_json(&game, roll, &result));
    } else {
        print!("{}", to_text(&game, roll, &result));
    }
    ExitCode::SUCCESS
}

/// The move in SAN where shakmaty can read the position (not after a passed turn in check, nor
/// without a king), else in UCI.
pub(crate) fn san(game: &Game<Variant>, m: Move) -> String {
    let rules = game.rules();
    let uci = rules.turn_to_uci(m);
    if m.is_null() {
        return "--".into();
    }
    let mode = if rules.chess960() { shakmaty::CastlingMode::Chess960 } else { shakmaty::CastlingMode::Standard };
    let Ok(fen) = game.position().board.fen().parse::<shakmaty::fen::Fen>() else { return uci };
    let Ok(pos) = fen.into_position::<shakmaty::Chess>(mode) else { return uci };
    let Ok(uci_move) = uci.parse::<shakmaty::uci::UciMove>() else { return uci };
    match uci_move.to_move(&pos) {
        Ok(mv) => shakmaty::san::SanPlus::from_move(pos, mv).to_string(),
        Err(_) => uci,
    }
}

fn freedom_kinds(game: &Game<Variant>, m: Move) -> Vec<&'static str> {
    let Variant::Freedom(f) = game.rules() else { return Vec::new() };
    f.freedom_kinds(game.position(), m).names()
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

/// The position as a board of Unicode pieces, White at the bottom, with the last move.
pub(crate) fn diagram(game: &Game<Variant>) -> String {
    let board = &game.position().board;
    let glyph = |sq: Square| match board.piece_at(sq) {
        None => '·',
        Some(p) => {
            let white = ['♙', '♘', '♗', '♖', '♕', '♔'];
            let black = ['♟', '♞', '♝', '♜', '♛', '♚'];
            let i = Role::ALL.iter().position(|&r| r == p.role).expect("a role");
            if p.color == Color::White { white[i] } else { black[i] }
        }
    };
    let mut out = String::new();
    for rank in (0..8).rev() {
        out.push_str(&format!(" {} ", rank + 1));
        for file in 0..8 {
            out.push(' ');
            out.push(glyph(Square::from_coords(file, rank)));
        }
        out.push('\n');
    }
    out.push_str("    a b c d e f g h\n");
    let rules = game.rules();
    out.push_str(&format!(
        "{}{}, {} to move",
        rules.name(),
        if rules.chess960() { " (Chess960)" } else { "" },
        board.turn().name()
    ));
    if let Some(&last) = game.turns().last() {
        out.push_str(&format!(", last move {}", rules.turn_to_uci(last)));
    }
    out.push('\n');
    out
}

fn roll_text(roll: Option<Option<Roll>>) -> String {
    match roll {
        None => "before the roll".into(),
        Some(None) => "any move".into(),
        Some(Some(r)) => {
            let names: Vec<&str> = r
                .faces()
                .iter()
                .map(|&f| ["pawn", "knight", "bishop", "rook", "queen", "king"][f as usize - 1])
                .collect();
            format!("roll {} ({})", r, names.join(", "))
        }
    }
}

fn to_text(game: &Game<Variant>, roll: Option<Option<Roll>>, r: &SearchResult<Move>) -> String {
    let rules = game.rules();
    let mut out = diagram(game);
    out.push_str(&format!(
        "{}, depth {}, {} nodes; scores in centipawns for {}\n\n",
        roll_text(roll),
        r.depth,
        r.nodes,
        game.position().board.turn().name()
    ));
    let best_score = r.choices.first().map_or(0, |c| c.score);
    match roll {
        Some(_) => {
            out.push_str("   #  move      score    loss   win  draw  loss\n");
            for (i, c) in r.choices.iter().enumerate() {
                let Choice::Turn(t) = c.choice else { continue };
                let (w, d, l) = r.wdl_of(c.score);
                let bound = if c.exact { " " } else { "≤" };
                out.push_str(&format!(
                    "{:>4}  {:<8} {}{:>6} {:>7}  {:>3}%  {:>3}%  {:>3}%\n",
                    i + 1,
                    san(game, t),
                    bound,
                    score_text(c.score),
                    if c.exact { (best_score - c.score).to_string() } else { format!("≥{}", best_score - c.score) },
                    w / 10,
                    d / 10,
                    l / 10
                ));
            }
        }
        None => {
            out.push_str("  roll   prob   best      score\n");
            for o in &r.outcomes {
                out.push_str(&format!(
                    "  {:<5} {:>5.1}%  {:<8} {:>6}\n",
                    o.roll.to_string(),
                    o.probability * 100.0,
                    san(game, o.best),
                    score_text(o.score)
                ));
            }
            if let Some(e) = r.roll_score {
                out.push_str(&format!("  expected score of rolling: {}\n", score_text(e)));
            }
            let freedom: Vec<_> = r.choices.iter().filter(|c| matches!(c.choice, Choice::Turn(_))).collect();
            if !freedom.is_empty() {
                out.push_str("\n  before rolling (Freedom):\n");
                for c in freedom {
                    let Choice::Turn(t) = c.choice else { continue };
                    out.push_str(&format!(
                        "    {:<8} {}{:>6}  ({})\n",
                        san(game, t),
                        if c.exact { " " } else { "≤" },
                        score_text(c.score),
                        freedom_kinds(game, t).join(", ")
                    ));
                }
            }
        }
    }
    let verdict = match r.best {
        Choice::Roll => "roll".to_string(),
        Choice::Turn(t) if roll.is_none() => format!("play {} without rolling", san(game, t)),
        Choice::Turn(t) => format!("play {}", san(game, t)),
    };
    let score = match r.mate {
        Some(n) if n > 0 => format!("a certain win in {n}"),
        Some(n) => format!("a certain loss in {}", -n),
        None => format!("expected score {}", score_text(r.score)),
    };
    out.push_str(&format!("\nbest: {verdict} ({score}; uci {})\n", crate::choice_uci(rules, r.best)));
    out
}

fn to_json(game: &Game<Variant>, roll: Option<Option<Roll>>, r: &SearchResult<Move>) -> String {
    let rules = game.rules();
    let best_score = r.choices.first().map_or(0, |c| c.score);
    let choices: Vec<_> = r
        .choices
        .iter()
        .map(|c| {
            let (w, d, l) = r.wdl_of(c.score);
            let (uci, san_text, freedom) = match c.choice {
                Choice::Turn(t) => (rules.turn_to_uci(t), san(game, t), freedom_kinds(game, t)),
                Choice::Roll => ("roll".into(), "roll".into(), Vec::new()),
            };
            json!({
                "move": uci, "san": san_text, "score": c.score, "exact": c.exact,
                "loss": best_score - c.score, "wdl": [w, d, l], "freedom": freedom,
            })
        })
        .collect();
    let outcomes: Vec<_> = r
        .outcomes
        .iter()
        .map(|o| {
            json!({
                "roll": o.roll.faces(), "probability": o.probability,
                "best": rules.turn_to_uci(o.best), "san": san(game, o.best), "score": o.score,
            })
        })
        .collect();
    json!({
        "variant": rules.name(),
        "chess960": rules.chess960(),
        "fen": game.position().board.fen(),
        "side": game.position().board.turn().name(),
        "roll": match roll { None => serde_json::Value::Null, Some(None) => json!("any"), Some(Some(r)) => json!(r.faces()) },
        "depth": r.depth,
        "nodes": r.nodes,
        "best": crate::choice_uci(rules, r.best),
        "score": r.score,
        "mate": r.mate,
        "choices": choices,
        "outcomes": outcomes,
        "expected": r.roll_score,
    })
    .to_string()
}
