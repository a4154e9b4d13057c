//! PGN with rolls: a dice game as standard PGN, each move followed by its roll as a command comment
//! (`{[%roll 3]}`, `{[%roll 2,5]}`), a move played without rolling marked `{[%freedom recapture]}`
//! (or `check`, `defend`), a passed turn written `--` with its roll. In variants of several moves
//! a turn, a movetext entry is a whole turn, its micro-moves in SAN joined by commas
//! (`e4,Qh5 {[%roll 1,4,5]}`). The variant is the `Variant` tag (`freedom`, `classic`,
//! `brainking`, `dicechess3`, with `960` appended for a Chess960 start, which also gets `SetUp`
//! and `FEN`). Turns are kept as UCI text and replayed through the game handle; reading checks
//! every turn against the rules and its roll.

use crate::rules::{GameError, Roll};
use crate::services::handle::{GameHandle, RollSpec};
use crate::services::registry::Variant;

/// One turn of a recorded game.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedTurn {
    /// The turn in UCI (micro-moves joined by commas where the variant has several; `0000`).
    pub turn: String,
    /// The dice rolled before it; `None` for a move played without rolling (Freedom).
    pub roll: Option<Roll>,
    /// Free text after the roll in the move's comment (annotations).
    pub comment: Option<String>,
}

/// A game: its variant, start, turns with rolls, tags and result.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub variant: Variant,
    pub chess960: bool,
    /// The start as FEN (DFEN where the variant has it); `None` for the standard start.
    pub start: Option<String>,
    pub turns: Vec<RecordedTurn>,
    /// Tags other than Variant, SetUp, FEN and Result, in order.
    pub tags: Vec<(String, String)>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

/// Today's date (UTC) as PGN writes dates, `2026.11.23`: for the `Date` tag of a game played now.
pub fn today() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    pgn_date(secs / 86_400)
}

/// The date `days` after 1970-01-01, as `YYYY.MM.DD` (the civil calendar from a day count, after
/// Howard Hinnant's algorithm).
fn pgn_date(days: u64) -> String {
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The comment command that marks a turn played without rolling (`[%freedom check]`: why it
/// needed no roll, `any` where any move could be played).
const NO_ROLL: &str = crate::services::registry::NO_ROLL_WORD;

/// The results a game may have, in its Result tag and at the end of its movetext.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Why a PGN was refused: the message names the move where it went wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PgnError(pub String);

impl GameRecord {
    pub fn new(variant: Variant, chess960: bool, start: Option<String>) -> GameRecord {
        GameRecord { variant, chess960, start, turns: Vec::new(), tags: Vec::new(), result: "*".into() }
    }

    /// The game at its start.
    pub fn start_game(&self) -> Result<GameHandle, GameError> {
        GameHandle::setup(self.variant, self.chess960, self.start.as_deref(), None, &[])
    }

    /// The game replayed (the turns were checked when they were recorded or read).
    pub fn game(&self) -> GameHandle {
        let mut game = self.start_game().expect("a recorded start");
        for t in &self.turns {
            game.play_checked(&t.turn, t.roll.as_ref()).expect("a recorded turn");
        }
        game
    }

    /// The index of `side`'s last turn, if it has played one.
    pub fn last_turn_of(&self, side: crate::board::piece::Color) -> Option<usize> {
        let mut game = self.start_game().ok()?;
        let mut last = None;
        for (i, t) in self.turns.iter().enumerate() {
            if game.side_to_move() == side {
                last = Some(i);
            }
            game.play_checked(&t.turn, t.roll.as_ref()).ok()?;
        }
        last
    }

    /// Takes back `side`'s last turn and every turn after it (a person's take-back: their turn
    /// and the engine's reply), the result back to `*`. The turns taken back, in SAN each in its
    /// own position; `None` where `side` has played no turn, and nothing changes.
    pub fn take_back(&mut self, side: crate::board::piece::Color) -> Option<Vec<String>> {
        let last = self.last_turn_of(side)?;
        let mut replay = self.start_game().ok()?;
        let mut taken = Vec::new();
        for (i, t) in self.turns.iter().enumerate() {
            if i >= last {
                taken.push(replay.san(&t.turn));
            }
            replay.play_checked(&t.turn, t.roll.as_ref()).ok()?;
        }
        self.turns.truncate(last);
        self.result = "*".into();
        Some(taken)
    }

    /// The value of tag `name` (other than the ones the record keeps apart: Variant, SetUp, FEN,
    /// Result).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    fn variant_tag(&self) -> String {
        format!("{}{}", self.variant, if self.chess960 { "960" } else { "" })
    }

    /// The record as PGN text.
    pub fn to_pgn(&self) -> String {
        let mut out = String::new();
        let mut tags: Vec<(String, String)> = Vec::new();
        for name in ["Event", "Site", "Date", "Round", "White", "Black"] {
            let default = if name == "Date" { "????.??.??" } else { "?" };
            tags.push((name.into(), self.tag(name).unwrap_or(default).to_string()));
        }
        tags.push(("Result".into(), self.result.clone()));
        tags.push(("Variant".into(), self.variant_tag()));
        let mut game = self.start_game().expect("a recorded start");
        if self.chess960 || self.start.is_some() {
            tags.push(("SetUp".into(), "1".into()));
            tags.push(("FEN".into(), game.fen()));
        }
        for (n, v) in &self.tags {
            if !tags.iter().any(|(m, _)| m == n) {
                tags.push((n.clone(), v.clone()));
            }
        }
        for (n, v) in tags {
            out.push_str(&format!("[{n} \"{}\"]\n", v.replace('\\', "\\\\").replace('"', "\\\"")));
        }
        out.push('\n');
        let mut words: Vec<String> = Vec::new();
        for (i, t) in self.turns.iter().enumerate() {
            let white = game.side_to_move() == crate::Color::White;
            if white {
                words.push(format!("{}.", game.fullmove_number()));
            } else if i == 0 {
                words.push(format!("{}...", game.fullmove_number()));
            }
            words.push(game.san(&t.turn));
            // The rest of a turn set up in progress (a DFEN with dice) shows the dice it had.
            let command = match t.roll.or_else(|| game.dice_left()) {
                Some(r) => {
                    let faces: Vec<String> = r.faces().iter().map(|f| f.to_string()).collect();
                    format!("[%roll {}]", faces.join(","))
                }
                None => {
                    let kinds = game.pre_roll_kinds(&t.turn);
                    format!("[%{NO_ROLL} {}]", if kinds.is_empty() { "any".into() } else { kinds.join(",") })
                }
            };
            match &t.comment {
                Some(c) => words.push(format!("{{{command} {}}}", c.replace('}', ")"))),
                None => words.push(format!("{{{command}}}")),
            }
            game.play_checked(&t.turn, t.roll.as_ref()).expect("a recorded turn");
        }
        words.push(self.result.clone());
        // Lines of at most 80 characters.
        let mut line = String::new();
        for w in words {
            if !line.is_empty() && line.len() + 1 + w.len() > 80 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&w);
        }
        out.push_str(&line);
        out.push('\n');
        out
    }

    /// Reads every game of a PGN file (as `alea match` writes them, one after another), each
    /// checked as [`GameRecord::from_pgn`] checks one; the error names the game.
    pub fn all_from_pgn(text: &str) -> Result<Vec<GameRecord>, PgnError> {
        let mut games = Vec::new();
        let mut current = String::new();
        let mut seen_moves = false;
        for line in text.lines() {
            let trimmed = line.trim();
            // A tag after movetext starts the next game.
            if trimmed.starts_with('[') && seen_moves {
                games.push(std::mem::take(&mut current));
                seen_moves = false;
            }
            if !trimmed.is_empty() && !trimmed.starts_with('[') {
                seen_moves = true;
            }
            current.push_str(line);
            current.push('\n');
        }
        if !current.trim().is_empty() {
            games.push(current);
        }
        if games.is_empty() {
            return Err(PgnError("no game in the text".into()));
        }
        games
            .iter()
            .enumerate()
            .map(|(i, g)| GameRecord::from_pgn(g).map_err(|e| PgnError(format!("game {}: {e}", i + 1))))
            .collect()
    }

    /// Reads one game from PGN text, checking every turn against its roll.
    pub fn from_pgn(text: &str) -> Result<GameRecord, PgnError> {
        let (tags, movetext) = split_tags(text)?;
        let tag = |name: &str| tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str());
        let variant_name = tag("Variant").map_or_else(|| Variant::DEFAULT.name().to_string(), str::to_ascii_lowercase);
        let (variant, chess960) = match variant_name.parse::<Variant>() {
            Ok(variant) => (Ok(variant), false),
            Err(unknown) => match variant_name.strip_suffix("960") {
                Some(base) => (base.trim_end_matches([' ', '-']).parse::<Variant>(), true),
                None => (Err(unknown), false),
            },
        };
        let variant = variant.map_err(|_| PgnError(format!("unknown variant '{variant_name}' in the Variant tag")))?;
        let mut record = GameRecord::new(variant, chess960, tag("FEN").map(str::to_string));
        let mut game = record.start_game().map_err(|e| PgnError(format!("FEN tag: {e}")))?;
        if record.start.is_some()
            && !chess960
            && game.fen() == GameHandle::of(variant, false).map_err(|e| PgnError(e.to_string()))?.fen()
        {
            record.start = None;
        }
        record.result = tag("Result").unwrap_or("*").to_string();
        if !RESULTS.contains(&record.result.as_str()) {
            return Err(PgnError(format!(
                "the Result tag '{}' is none of {}",
                record.result.chars().take(40).collect::<String>(),
                RESULTS.join(", ")
            )));
        }
        record.tags = tags
            .iter()
            .filter(|(n, _)| !["Variant", "SetUp", "FEN", "Result"].iter().any(|t| t.eq_ignore_ascii_case(n)))
            .cloned()
            .collect();

        for (ply, (san, comments)) in movetext_moves(&movetext)?.into_iter().enumerate() {
            let at = format!("ply {} ({san})", ply + 1);
            if let Some(end) = game.end() {
                return Err(PgnError(format!("{at}: the game had already ended ({end})")));
            }
            let mut roll = None;
            let mut unrolled = false;
            let mut rest = Vec::new();
            for c in &comments {
                let (commands, text) = parse_commands(c);
                for (name, value) in commands {
                    match name.as_str() {
                        "roll" => {
                            let faces: Vec<&str> = value.split([',', ' ']).filter(|f| !f.is_empty()).collect();
                            let r = Roll::parse(&faces)
                                .map_err(GameError::from)
                                .and_then(|r| game.check_roll(r.faces()))
                                .map_err(|e| PgnError(format!("{at}: [%roll {value}]: {e}")))?;
                            roll = Some(r);
                        }
                        NO_ROLL => unrolled = true,
                        _ => {}
                    }
                }
                if !text.is_empty() {
                    rest.push(text);
                }
            }
            // A turn set up in progress has its dice in the position, not in the record.
            let in_turn = game.dice_left();
            if roll.or(in_turn).is_none() && !unrolled {
                return Err(PgnError(format!("{at}: no [%roll] and no [%{NO_ROLL}] comment")));
            }
            let turn =
                game.parse_san(&san).ok_or_else(|| PgnError(format!("{at}: not a move here ({})", game.fen())))?;
            // Several micro-moves a turn are checked against the roll without listing every turn
            // it allows (four dice allow hundreds of thousands).
            let allowed = match roll.or(in_turn) {
                Some(r) if game.several_moves_a_turn() => game.allows(&turn, &r),
                Some(r) => {
                    // A turn may be written as the answer to its roll or whole, the roll joined
                    // to it (Die Chess: `a1g7` or `roll5,a1g7`, the roll turning the die).
                    let whole = game.turn_with_roll(&turn, &r);
                    game.allowed_turns(&RollSpec::Faces(r.faces().to_vec()))
                        .map_err(|e| PgnError(format!("{at}: {e}")))?
                        .iter()
                        .any(|t| game.turn_with_roll(t, &r) == whole)
                }
                None => game.pre_roll_turns().contains(&turn),
            };
            if !allowed {
                let why = match roll.or(in_turn) {
                    Some(r) => format!("the roll {r} does not allow it"),
                    None => "it may not be played without rolling here".into(),
                };
                return Err(PgnError(format!("{at}: {why} ({})", game.fen())));
            }
            game.play_checked(&turn, roll.filter(|_| in_turn.is_none()).as_ref())
                .map_err(|e| PgnError(format!("{at}: {e}")))?;
            record.turns.push(RecordedTurn {
                turn,
                roll: roll.filter(|_| in_turn.is_none()),
                comment: if rest.is_empty() { None } else { Some(rest.join(" ")) },
            });
        }
        Ok(record)
    }
}

/// The tag pairs and the movetext of one game.
fn split_tags(text: &str) -> Result<(Vec<(String, String)>, String), PgnError> {
    let mut tags = Vec::new();
    let mut movetext = String::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(inner) = line.strip_prefix('[').filter(|_| movetext.trim().is_empty()) {
            let inner = inner
                .strip_suffix(']')
                .ok_or_else(|| PgnError(format!("line {}: a tag without its closing ']'", n + 1)))?;
            let (name, value) = inner
                .split_once(' ')
                .ok_or_else(|| PgnError(format!("line {}: a tag needs a name and a quoted value", n + 1)))?;
            let value = value.trim();
            let value = value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .ok_or_else(|| PgnError(format!("line {}: the tag value is not quoted", n + 1)))?;
            tags.push((name.to_string(), unescape(value)));
        } else {
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    Ok((tags, movetext))
}

/// A tag value as written between its quotes: `\"` is a quote, `\\` a backslash.
fn unescape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        match (c, chars.clone().next()) {
            ('\\', Some(next @ ('"' | '\\'))) => {
                out.push(next);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

/// The movetext's moves with the comments that follow each; variations and NAGs are skipped.
fn movetext_moves(text: &str) -> Result<Vec<(String, Vec<String>)>, PgnError> {
    let mut moves: Vec<(String, Vec<String>)> = Vec::new();
    let mut chars = text.chars().peekable();
    let mut depth = 0;
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                let mut comment = String::new();
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some(ch) => comment.push(ch),
                        None => return Err(PgnError("a comment without its closing '}'".into())),
                    }
                }
                if depth == 0
                    && let Some(last) = moves.last_mut()
                {
                    last.1.push(comment);
                }
            }
            ';' => {
                for ch in chars.by_ref() {
                    if ch == '\n' {
                        break;
                    }
                }
            }
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return Err(PgnError("a ')' without its '('".into()));
                }
            }
            c if c.is_whitespace() => {}
            _ => {
                let mut word = String::from(c);
                while let Some(&ch) = chars.peek() {
                    if ch.is_whitespace() || "{}();".contains(ch) {
                        break;
                    }
                    word.push(ch);
                    chars.next();
                }
                if depth > 0 || word.starts_with('$') || RESULTS.contains(&word.as_str()) {
                    continue;
                }
                // Move numbers, possibly glued to the move (`1.e4`); `0000` is UCI's pass, not one.
                let san = if word == "0000" {
                    "--"
                } else {
                    word.trim_start_matches(|ch: char| ch.is_ascii_digit()).trim_start_matches('.')
                };
                if !san.is_empty() {
                    moves.push((san.to_string(), Vec::new()));
                }
            }
        }
    }
    if depth != 0 {
        return Err(PgnError("a '(' without its ')'".into()));
    }
    Ok(moves)
}

/// The `[%roll]` and `[%freedom]` commands of a comment (name and value), and the rest of its
/// text, other commands (`[%eval]`, `[%clk]`) kept in it where they stood.
fn parse_commands(comment: &str) -> (Vec<(String, String)>, String) {
    let mut commands = Vec::new();
    let mut rest = String::new();
    let mut s = comment;
    while let Some(start) = s.find("[%") {
        // An unclosed `[%` is text, kept once with all that follows it.
        let Some(end) = s[start..].find(']') else { break };
        let body = &s[start + 2..start + end];
        let (name, value) = body.split_once(' ').unwrap_or((body, ""));
        if ["roll", NO_ROLL].contains(&name.trim()) {
            rest.push_str(&s[..start]);
            rest.push(' ');
            commands.push((name.trim().to_string(), value.trim().to_string()));
        } else {
            rest.push_str(&s[..start + end + 1]);
        }
        s = &s[start + end + 1..];
    }
    rest.push_str(s);
    (commands, rest.split_whitespace().collect::<Vec<_>>().join(" "))
}

#[cfg(test)]
mod tests {
    use super::{GameRecord, RecordedTurn};
    use crate::board::piece::Color;
    use crate::rules::Roll;
    use crate::services::registry::Variant;

    /// A take-back takes the side's last turn and the replies after it, says which in SAN, and
    /// leaves a side that has played nothing, and the record, as they were.
    #[test]
    fn a_take_back_takes_the_side_s_last_turn_and_what_followed() {
        let mut record = GameRecord::new(Variant::Freedom, false, None);
        for (turn, face) in [("e2e4", 1), ("e7e5", 1), ("g1f3", 2), ("b8c6", 2)] {
            let roll = Some(Roll::new(&[face]).unwrap());
            record.turns.push(RecordedTurn { turn: turn.into(), roll, comment: None });
        }
        record.result = "1/2-1/2".into();
        assert_eq!(record.last_turn_of(Color::White), Some(2));
        assert_eq!(record.take_back(Color::White), Some(vec!["Nf3".to_string(), "Nc6".to_string()]));
        assert_eq!((record.turns.len(), record.result.as_str()), (2, "*"));
        assert_eq!(record.take_back(Color::Black), Some(vec!["e5".to_string()]));
        assert_eq!(record.take_back(Color::Black), None);
        assert_eq!(record.turns.len(), 1);
    }

    #[test]
    fn commands_other_than_the_dice_and_unclosed_ones_stay_in_the_text() {
        let (commands, text) = super::parse_commands("[%roll 5,1] note {[%roll 5,4");
        assert_eq!(commands, [("roll".to_string(), "5,1".to_string())]);
        assert_eq!(text, "note {[%roll 5,4");
        let (commands, text) = super::parse_commands("[%clk 0:01:00][%roll 1]+0.3/4 [%eval 0.3]");
        assert_eq!(commands, [("roll".to_string(), "1".to_string())]);
        assert_eq!(text, "[%clk 0:01:00] +0.3/4 [%eval 0.3]");
    }

    #[test]
    fn tag_values_unescape_quotes_and_backslashes() {
        assert_eq!(super::unescape(r#"a \"b\" c\\"#), r#"a "b" c\"#);
        assert_eq!(super::unescape(r"a\b\"), r"a\b\");
    }

    #[test]
    fn a_result_tag_must_be_a_result() {
        let pgn = "[Result \"1-0)\"]\n[Variant \"freedom\"]\n\n1-0\n";
        assert!(super::GameRecord::from_pgn(pgn).unwrap_err().0.contains("Result tag"));
        assert!(super::GameRecord::from_pgn(&pgn.replace("1-0)", "1-0")).is_ok());
    }

    #[test]
    fn dates_in_pgn_form() {
        assert_eq!(super::pgn_date(0), "1970.01.01");
        assert_eq!(super::pgn_date(59), "1970.03.01");
        assert_eq!(super::pgn_date(11_016), "2000.02.29");
        assert_eq!(super::pgn_date(20_415), "2025.11.23");
        assert_eq!(super::today().len(), 10);
    }
}
