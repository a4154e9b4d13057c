//! Lines of the extended UCI protocol (shared/PROTOCOL.md) parsed into typed commands. Parsing
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

/// Parses one line. Blank lines are an error too: PROTOCOL.md wants every bad input answered.
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

fn parse_number<T: std::str::FromStr>(key: &str, value: Option<&&str>) -> Result<T, ParseError> {
    match value {
        Some(v) => v.parse().map_err(|_| ParseError(format!("{key} needs a number, not '{}'", truncate(v)))),
        None => err(format!("{key} needs a number")),
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
            "wtime" | "btime" | "winc" | "binc" | "movestogo" | "nodes" | "movetime" | "mate" => {
                // Clocks can be negative in some GUIs after a flag fall: read as zero.
                let raw = words.get(i);
                let value: u64 = match raw.and_then(|w| w.parse::<i64>().ok()) {
                    Some(v) => v.max(0) as u64,
                    None => parse_number(key, raw)?,
                };
                i += 1;
                match key {
                    "wtime" => go.wtime = Some(value),
                    "btime" => go.btime = Some(value),
                    "winc" => go.winc = Some(value),
                    "binc" => go.binc = Some(value),
                    "movestogo" => go.movestogo = Some(value),
                    "nodes" => go.nodes = Some(value),
                    "movetime" => go.movetime = Some(value),
                    _ => go.depth = Some(value.saturating_mul(2).min(u64::from(u32::MAX)) as u32),
                }
            }
            "depth" => {
                go.depth = Some(parse_number(key, words.get(i))?);
                i += 1;
            }
            "perft" => {
                go.perft = Some(parse_number(key, words.get(i))?);
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
