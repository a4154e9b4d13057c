//! Lines of the extended UCI protocol (docs/protocol.md) parsed into typed commands. Parsing
//! knows the grammar only; whether a FEN, a move or a roll fits the game is the session's job.

use std::fmt;

pub use alea_engine::services::handle::RollSpec;

/// What `legalmoves` asks for.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct LegalMovesQuery {
    /// The roll (none: the moves playable without rolling, or a turn in progress's dice left).
    pub roll: Option<RollSpec>,
    /// Only the first micro-moves of the allowed turns (`first`).
    pub first: bool,
    /// Only how many turns (`count`).
    pub count: bool,
}

/// Limits and inputs of a `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub roll: Option<RollSpec>,
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
    /// Restricts the root to these moves (UCI text), as plain UCI does.
    pub searchmoves: Vec<String>,
    /// `go perft N`: count move paths instead of searching.
    pub perft: Option<u32>,
}

/// Where `position` starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartSpec {
    StartPos,
    Fen(String),
}

/// One protocol command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    UciNewGame,
    Position {
        start: StartSpec,
        recapture: Option<String>,
        moves: Vec<String>,
    },
    Go(GoParams),
    Stop,
    PonderHit,
    Quit,
    LegalMoves(LegalMovesQuery),
    Display,
    Bench,
    /// `help`: the commands in a few lines, as Stockfish answers it.
    Help,
}

/// Why a line was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn err<T>(text: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError(text.into()))
}

/// Keywords that end a list of roll faces or search moves inside `go`.
const GO_KEYWORDS: [&str; 14] = [
    "roll",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
    "mate",
];

/// Longest line we look at; longer ones are refused whole (a GUI never sends one).
pub const MAX_LINE: usize = 64 * 1024;

/// Parses one line (the engine loop passes over blank ones before: they are no command).
pub fn parse(line: &str) -> Result<Command, ParseError> {
    if line.len() > MAX_LINE {
        return err(format!("line of {} bytes is longer than {MAX_LINE}", line.len()));
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, rest)) = words.split_first() else {
        return err("empty line");
    };
    let no_args = |cmd: Command| {
        if rest.is_empty() { Ok(cmd) } else { err(format!("'{head}' takes no arguments")) }
    };
    match head {
        "uci" => no_args(Command::Uci),
        "isready" => no_args(Command::IsReady),
        "ucinewgame" => no_args(Command::UciNewGame),
        "stop" => no_args(Command::Stop),
        "ponderhit" => no_args(Command::PonderHit),
        "quit" => no_args(Command::Quit),
        "d" => no_args(Command::Display),
        "bench" => no_args(Command::Bench),
        "help" => no_args(Command::Help),
        "debug" => match rest {
            ["on"] => Ok(Command::Debug(true)),
            ["off"] => Ok(Command::Debug(false)),
            _ => err("debug takes 'on' or 'off'"),
        },
        "setoption" => parse_setoption(rest),
        "position" => parse_position(rest),
        "go" => parse_go(rest).map(Command::Go),
        "legalmoves" => parse_legalmoves(rest).map(Command::LegalMoves),
        _ => err(format!("unknown command '{}'", truncate(head))),
    }
}

/// Shortens what we echo back, so a megabyte of garbage is not repeated.
pub fn truncate(text: &str) -> String {
    const MAX: usize = 40;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        format!("{}...", text.chars().take(MAX).collect::<String>())
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, ParseError> {
    let ["name", tail @ ..] = rest else {
        return err("setoption needs 'name <option> [value <v>]'");
    };
    let value_at = tail.iter().position(|&w| w == "value");
    let (name_words, value) = match value_at {
        Some(i) => (&tail[..i], Some(tail[i + 1..].join(" "))),
        None => (tail, None),
    };
    if name_words.is_empty() {
        return err("setoption has no option name");
    }
    Ok(Command::SetOption { name: name_words.join(" "), value })
}

fn parse_position(rest: &[&str]) -> Result<Command, ParseError> {
    let (start, mut rest) = match rest {
        ["startpos", tail @ ..] => (StartSpec::StartPos, tail),
        ["fen", tail @ ..] => {
            let end = tail.iter().position(|&w| w == "moves" || w == "recapture").unwrap_or(tail.len());
            if end == 0 {
                return err("position fen needs a FEN");
            }
            (StartSpec::Fen(tail[..end].join(" ")), &tail[end..])
        }
        _ => return err("position needs 'startpos' or 'fen <FEN>'"),
    };
    let mut recapture = None;
    if let ["recapture", tail @ ..] = rest {
        let Some((&sq, tail)) = tail.split_first() else {
            return err("recapture needs a square");
        };
        recapture = Some(sq.to_string());
        rest = tail;
    }
    let moves = match rest {
        [] => Vec::new(),
        ["moves", moves @ ..] => moves.iter().map(|m| m.to_string()).collect(),
        [other, ..] => return err(format!("unexpected '{}' in position", truncate(other))),
    };
    Ok(Command::Position { start, recapture, moves })
}

/// `legalmoves [count] [roll <faces>] [first]`.
fn parse_legalmoves(words: &[&str]) -> Result<LegalMovesQuery, ParseError> {
    let usage = "legalmoves takes [count] [roll <faces>] [first]";
    let mut query = LegalMovesQuery::default();
    let mut words = words;
    if let ["count", tail @ ..] = words {
        query.count = true;
        words = tail;
    }
    if let [head @ .., "first"] = words {
        query.first = true;
        words = head;
    }
    match words {
        [] => {}
        ["roll", faces @ ..] => query.roll = Some(parse_roll(faces)?),
        _ => return err(usage),
    }
    if query.count && query.first {
        return err("legalmoves: count and first do not go together");
    }
    Ok(query)
}

/// Die faces as words (`2 5`) or joined by commas (`2,5`, as `alea advise --roll` takes them), or
/// `any`.
fn parse_roll(words: &[&str]) -> Result<RollSpec, ParseError> {
    match words {
        [] => err("roll needs die faces (1 to 6) or 'any'"),
        ["any"] => Ok(RollSpec::Any),
        faces => faces
            .iter()
            .flat_map(|w| w.split(','))
            .map(|w| match w.parse::<u8>() {
                Ok(f @ 1..=6) => Ok(f),
                _ => err(format!("die face '{}' is not 1 to 6", truncate(w))),
            })
            .collect::<Result<Vec<u8>, _>>()
            .map(RollSpec::Faces),
    }
}

/// A count after `key` (`depth`, `movetime`, `nodes`, ...): a whole number from 0 to `max`, or
/// an error that says which of those it is not.
fn parse_count(key: &str, value: Option<&&str>, max: u64) -> Result<u64, ParseError> {
    let Some(v) = value else { return err(format!("{key} needs a number")) };
    let digits = v.strip_prefix('-').unwrap_or(v);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return err(format!("{key} needs a number, not '{}'", truncate(v)));
    }
    if v.starts_with('-') && digits.bytes().any(|b| b != b'0') {
        return err(format!("{key} cannot be negative, not '{}'", truncate(v)));
    }
    match digits.parse::<u64>() {
        Ok(n) if n <= max => Ok(n),
        _ => err(format!("{key} {} is too large: at most {max}", truncate(v))),
    }
}

/// A clock (`wtime`, `btime`, `winc`, `binc`) in milliseconds: some GUIs send a negative one
/// after a flag fall, read as zero, as engines do.
fn parse_clock(key: &str, value: Option<&&str>) -> Result<u64, ParseError> {
    match value.filter(|v| v.starts_with('-')) {
        Some(v) if v.len() > 1 && v[1..].bytes().all(|b| b.is_ascii_digit()) => Ok(0),
        _ => parse_count(key, value, u64::MAX),
    }
}

fn parse_go(words: &[&str]) -> Result<GoParams, ParseError> {
    let mut go = GoParams::default();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        i += 1;
        // Words up to the next keyword.
        let until_keyword = |from: usize| {
            let end = words[from..].iter().position(|w| GO_KEYWORDS.contains(w)).map_or(words.len(), |p| from + p);
            (&words[from..end], end)
        };
        match key {
            "roll" => {
                let (faces, end) = until_keyword(i);
                go.roll = Some(parse_roll(faces)?);
                i = end;
            }
            "searchmoves" => {
                let (moves, end) = until_keyword(i);
                go.searchmoves = moves.iter().map(|m| m.to_string()).collect();
                i = end;
            }
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "wtime" | "btime" | "winc" | "binc" => {
                let value = parse_clock(key, words.get(i))?;
                i += 1;
                match key {
                    "wtime" => go.wtime = Some(value),
                    "btime" => go.btime = Some(value),
                    "winc" => go.winc = Some(value),
                    _ => go.binc = Some(value),
                }
            }
            "movestogo" | "nodes" | "movetime" => {
                let value = parse_count(key, words.get(i), u64::MAX)?;
                i += 1;
                match key {
                    "movestogo" => go.movestogo = Some(value),
                    "nodes" => go.nodes = Some(value),
                    _ => go.movetime = Some(value),
                }
            }
            "mate" => {
                // A mate in n moves: searched 2n turns deep.
                let moves = parse_count(key, words.get(i), u64::from(u32::MAX / 2))?;
                i += 1;
                go.depth = Some((moves * 2) as u32);
            }
            "depth" => {
                // Deeper than the search goes (it stops at 127 turns) is allowed, as GUIs ask it.
                go.depth = Some(parse_count(key, words.get(i), u64::from(u32::MAX))? as u32);
                i += 1;
            }
            "perft" => {
                go.perft = Some(parse_count(key, words.get(i), u64::from(u32::MAX))? as u32);
                i += 1;
            }
            other => return err(format!("unknown go parameter '{}'", truncate(other))),
        }
    }
    Ok(go)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A count that is too large, negative or no number says which; a negative clock is zero.
    #[test]
    fn go_numbers_say_what_is_wrong_with_them() {
        let error = |line: &str| parse(line).unwrap_err().to_string();
        assert_eq!(error("go depth 99999999999"), "depth 99999999999 is too large: at most 4294967295");
        assert_eq!(error("go depth -1"), "depth cannot be negative, not '-1'");
        assert_eq!(error("go movetime -5"), "movetime cannot be negative, not '-5'");
        assert_eq!(error("go nodes -5"), "nodes cannot be negative, not '-5'");
        assert_eq!(error("go depth x"), "depth needs a number, not 'x'");
        assert_eq!(error("go depth"), "depth needs a number");
        assert_eq!(
            error("go nodes 99999999999999999999999"),
            "nodes 99999999999999999999999 is too large: at most 18446744073709551615"
        );
        let Command::Go(go) = parse("go wtime -100 btime 5000 winc -1 binc 0").unwrap() else { panic!("a go") };
        assert_eq!((go.wtime, go.btime, go.winc, go.binc), (Some(0), Some(5000), Some(0), Some(0)));
        let Command::Go(go) = parse("go mate 3 depth 4294967295").unwrap() else { panic!("a go") };
        assert_eq!(go.depth, Some(u32::MAX));
        assert!(parse("go depth -0").is_ok());
    }

    #[test]
    fn parses_the_dice_words() {
        assert_eq!(
            parse("go roll 3 5 depth 4").unwrap(),
            Command::Go(GoParams { roll: Some(RollSpec::Faces(vec![3, 5])), depth: Some(4), ..Default::default() })
        );
        assert_eq!(
            parse("go roll any movetime 100").unwrap(),
            Command::Go(GoParams { roll: Some(RollSpec::Any), movetime: Some(100), ..Default::default() })
        );
        assert_eq!(
            parse("go roll 2,5 depth 3").unwrap(),
            Command::Go(GoParams { roll: Some(RollSpec::Faces(vec![2, 5])), depth: Some(3), ..Default::default() })
        );
        assert_eq!(parse("go roll 1,4 6").unwrap(), parse("go roll 1 4 6").unwrap());
        assert_eq!(parse("legalmoves roll 1,4,6 first").unwrap(), parse("legalmoves roll 1 4 6 first").unwrap());
        assert_eq!(
            parse("legalmoves roll 6").unwrap(),
            Command::LegalMoves(LegalMovesQuery { roll: Some(RollSpec::Faces(vec![6])), ..Default::default() })
        );
        assert_eq!(
            parse("legalmoves roll 1 4 6 first").unwrap(),
            Command::LegalMoves(LegalMovesQuery {
                roll: Some(RollSpec::Faces(vec![1, 4, 6])),
                first: true,
                count: false
            })
        );
        assert_eq!(
            parse("legalmoves count roll 1 1 1").unwrap(),
            Command::LegalMoves(LegalMovesQuery {
                roll: Some(RollSpec::Faces(vec![1, 1, 1])),
                first: false,
                count: true
            })
        );
        assert_eq!(
            parse("position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1 recapture e4 moves a1a2 0000").unwrap(),
            Command::Position {
                start: StartSpec::Fen("8/8/8/8/8/8/8/K1k5 w - - 0 1".into()),
                recapture: Some("e4".into()),
                moves: vec!["a1a2".into(), "0000".into()],
            }
        );
        assert_eq!(
            parse("setoption name Move Overhead value 30").unwrap(),
            Command::SetOption { name: "Move Overhead".into(), value: Some("30".into()) }
        );
    }

    #[test]
    fn refuses_bad_lines() {
        for bad in [
            "",
            "   ",
            "go roll 7",
            "go roll",
            "go roll 2,,5",
            "go roll 2,7",
            "go roll ,",
            "go depth x",
            "go wibble",
            "position",
            "position fen",
            "position startpos moves",
            "position startpos e2e4",
            "setoption",
            "setoption name",
            "uci now",
            "debug maybe",
            "legalmoves e2e4",
            "legalmoves roll 1 2 3 last",
            "legalmoves count roll 1 2 3 first",
            "hello",
        ] {
            if bad == "position startpos moves" {
                assert!(parse(bad).is_ok(), "an empty move list is fine");
                continue;
            }
            assert!(parse(bad).is_err(), "accepted {bad:?}");
        }
        assert!(parse(&"x".repeat(MAX_LINE + 1)).is_err());
    }
}
