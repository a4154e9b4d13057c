//! A match's PGN file read back, for `--resume` and for `alea match merge`: the whole games it
//! holds, the settings they were played with, and where a game cut off by a kill begins.
//!
//! `alea match` writes each game whole and flushed, with its pair and game of the pair in `Round`
//! (`17.2`), the match's settings in `Settings` and, for a game lost by a player's failure rather
//! than by the rules, the reason in `Failure`. A game is whole when its movetext ends with its
//! result; only the last game of a file can be cut off.

use crate::match_runner::{MatchReport, Sprt};
use alea_engine::services::pgn::GameRecord;

/// A finished game of a match.
#[derive(Clone, Debug)]
pub struct FinishedGame {
    /// The pair, counted from 0.
    pub pair: u64,
    /// 1: the first player had White; 2: Black.
    pub game_of_pair: u8,
    /// The first player's points.
    pub points: f64,
    /// The reason, when a player's failure ended the game.
    pub failure: Option<String>,
    /// The match's settings (its `Settings` tag).
    pub settings: String,
    pub record: GameRecord,
}

impl FinishedGame {
    /// The first player's luck in this game, as an expected result, where the referee read the
    /// luck of every roll (its `WhiteLuck` tag).
    pub fn first_luck(&self) -> Option<f64> {
        let white: f64 = self.record.tag(crate::referee::WHITE_LUCK)?.parse().ok()?;
        white.is_finite().then_some(if self.game_of_pair == 1 { white } else { -white })
    }

    /// The first player's points less their luck.
    pub fn adjusted_points(&self) -> Option<f64> {
        Some(self.points - self.first_luck()?)
    }
}

/// What a match file holds.
#[derive(Clone, Debug, Default)]
pub struct MatchFile {
    /// The `Settings` tag every game carries (empty for a file with no game).
    pub settings: String,
    pub games: Vec<FinishedGame>,
    /// The byte length of the whole games: a resumed match cuts the file there.
    pub complete_len: usize,
    /// A last game cut off mid-write, described (its `Round` if it got that far).
    pub cut_off: Option<String>,
}

impl MatchFile {
    /// The first player's and the second player's names (from the first game).
    pub fn players(&self) -> Option<(String, String)> {
        let game = self.games.first()?;
        let tag = |n: &str| game.record.tag(n).unwrap_or_default().to_string();
        let (white, black) = (tag("White"), tag("Black"));
        Some(if game.game_of_pair == 1 { (white, black) } else { (black, white) })
    }
}

/// The first player's points in game `game_of_pair` (1: it had White) of a pair, from the PGN
/// result.
pub(crate) fn points(result: &str, game_of_pair: u8) -> f64 {
    let white = match result {
        "1-0" => 1.0,
        "0-1" => 0.0,
        _ => 0.5,
    };
    if game_of_pair == 1 { white } else { 1.0 - white }
}

/// One game's text as a finished game of a match, or why it is not one.
fn finished_game(text: &str) -> Result<FinishedGame, String> {
    let record = GameRecord::from_pgn(text).map_err(|e| e.to_string())?;
    // Two games glued together (a game written after half of one) read as one with odd tags.
    let mut names = std::collections::HashSet::new();
    if let Some((name, _)) = record
        .tags
        .iter()
        .find(|(n, _)| !names.insert(n.as_str()) || !n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
    {
        return Err(format!("its tag {name:?} is repeated or misspelt"));
    }
    let round = record.tag("Round").ok_or("no Round tag")?;
    let (pair, game_of_pair) = round
        .split_once('.')
        .and_then(|(p, g)| Some((p.parse::<u64>().ok()?, g.parse::<u8>().ok()?)))
        .filter(|&(p, g)| p >= 1 && (g == 1 || g == 2))
        .ok_or_else(|| format!("Round '{round}' is not PAIR.GAME"))?;
    if !["1-0", "0-1", "1/2-1/2"].contains(&record.result.as_str()) || !text.trim_end().ends_with(&record.result) {
        return Err(format!("game {round} has no result at its end"));
    }
    let settings = record
        .tag("Settings")
        .ok_or_else(|| format!("game {round} has no Settings tag (not written by this alea match)"))?
        .to_string();
    Ok(FinishedGame {
        pair: pair - 1,
        game_of_pair,
        points: points(&record.result, game_of_pair),
        failure: record.tag("Failure").map(str::to_string),
        settings,
        record,
    })
}

/// Reads a match file. A last game cut off mid-write is reported in `cut_off`, not an error; a
/// text that is not a match's PGN, a damaged game before the last, or games of two settings are.
pub fn read_match_file(text: &str) -> Result<MatchFile, String> {
    // Each game starts at a line `[Event ...`.
    let mut starts: Vec<usize> = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with("[Event ") {
            starts.push(offset);
        }
        offset += line.len();
    }
    let before = &text[..starts.first().copied().unwrap_or(text.len())];
    if !before.trim().is_empty() {
        let first = before.trim().lines().next().unwrap_or("");
        return Err(format!(
            "not a PGN file of alea match (it begins with {:?})",
            first.chars().take(40).collect::<String>()
        ));
    }
    let mut file = MatchFile::default();
    for (n, &start) in starts.iter().enumerate() {
        let end = starts.get(n + 1).copied().unwrap_or(text.len());
        let chunk = &text[start..end];
        match finished_game(chunk) {
            Ok(game) => {
                let settings = game.settings.clone();
                if file.games.is_empty() {
                    file.settings = settings;
                } else if settings != file.settings {
                    return Err(format!(
                        "its games were played with different settings:\n  {}\n  {}",
                        file.settings, settings
                    ));
                }
                file.games.push(game);
                file.complete_len = end;
            }
            Err(e) if n + 1 == starts.len() => {
                let round = chunk.lines().find_map(|l| l.strip_prefix("[Round \"")?.strip_suffix("\"]"));
                file.cut_off = Some(match round {
                    Some(r) => format!("game {r} is cut off ({e})"),
                    None => format!("its last game is cut off ({e})"),
                });
            }
            Err(e) => return Err(format!("game {} (byte {start}) is damaged: {e}", n + 1)),
        }
    }
    Ok(file)
}

/// Shard files of one match merged: the report one machine would have given.
#[derive(Clone, Debug)]
pub struct Merged {
    pub report: MatchReport,
    /// The first and the second player.
    pub players: (String, String),
    pub variant: String,
    pub settings: String,
    pub sprt: Option<Sprt>,
    /// Games found in more than one file (or twice in one), counted once.
    pub duplicates: u64,
    /// Games cut off mid-write, one line per file that has one.
    pub cut_off: Vec<String>,
}

/// Merges the files of a match's shards, given as (name, text): every whole game counted once,
/// the report computed as the unsharded match computes it. Refused: a file that is not a match's
/// PGN or has a damaged game, and files of different settings.
pub fn merge_match_files(files: &[(String, String)]) -> Result<Merged, String> {
    let mut games: Vec<FinishedGame> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut first: Option<(String, MatchFile)> = None;
    let mut duplicates = 0;
    let mut cut_off = Vec::new();
    for (name, text) in files {
        let file = read_match_file(text).map_err(|e| format!("{name}: {e}"))?;
        if let Some(c) = &file.cut_off {
            cut_off.push(format!("{name}: {c}"));
        }
        if file.games.is_empty() {
            continue;
        }
        if let Some((first_name, first_file)) = &first
            && first_file.settings != file.settings
        {
            return Err(format!(
                "{first_name} and {name} are not of one match (different settings):\n  {}\n  {}",
                first_file.settings, file.settings
            ));
        }
        for game in &file.games {
            if seen.insert((game.pair, game.game_of_pair)) {
                games.push(game.clone());
            } else {
                duplicates += 1;
            }
        }
        if first.is_none() {
            first = Some((name.clone(), file));
        }
    }
    let settings = first.as_ref().map(|(_, f)| f.settings.clone()).unwrap_or_default();
    let sprt = match settings.split_whitespace().find_map(|w| w.strip_prefix("sprt=")) {
        None | Some("none") => None,
        Some(text) => Some(Sprt::parse(text).map_err(|e| format!("the Settings tag's sprt: {e}"))?),
    };
    let players = first.as_ref().and_then(|(_, f)| f.players()).unwrap_or(("?".into(), "?".into()));
    let variant = games.first().map_or_else(String::new, |g| g.record.variant.to_string());
    Ok(Merged { report: MatchReport::from_games(&games, sprt), players, variant, settings, sprt, duplicates, cut_off })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(round: &str, result: &str, settings: &str) -> String {
        format!(
            "[Event \"alea match\"]\n[Round \"{round}\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"{result}\"]\n\
             [Variant \"freedom\"]\n[Settings \"{settings}\"]\n\n1. e4 {{[%roll 1]}} {result}\n\n"
        )
    }

    #[test]
    fn whole_games_are_read_and_a_cut_off_last_game_is_reported() {
        let text = format!("{}{}", game("1.1", "1-0", "s"), game("1.2", "1/2-1/2", "s"));
        let file = read_match_file(&text).unwrap();
        assert_eq!(file.games.len(), 2);
        assert_eq!((file.games[0].points, file.games[1].points), (1.0, 0.5));
        assert_eq!(file.players(), Some(("a".into(), "b".into())));
        assert_eq!((file.complete_len, file.cut_off.as_deref()), (text.len(), None));
        // Cut inside the second game's movetext: its Result tag is there, its end is not.
        let cut = &text[..text.len() - 12];
        let file = read_match_file(cut).unwrap();
        assert_eq!(file.games.len(), 1);
        assert_eq!(file.complete_len, game("1.1", "1-0", "s").len());
        assert!(file.cut_off.unwrap().contains("game 1.2 is cut off"));
        // A damaged game before the last, two settings, or no PGN at all: errors.
        let damaged = format!("{}\n{}", &game("1.1", "1-0", "s")[..60], game("1.2", "1-0", "s"));
        assert!(read_match_file(&damaged).unwrap_err().to_string().contains("damaged"));
        // Half a game with the next glued to it on the same line: one odd game, not two.
        let glued = format!("{}{}", &game("1.1", "1-0", "s")[..60], game("1.2", "1-0", "s"));
        assert!(read_match_file(&glued).unwrap().cut_off.unwrap().contains("repeated or misspelt"));
        let mixed = format!("{}{}", game("1.1", "1-0", "s"), game("1.2", "1-0", "t"));
        assert!(read_match_file(&mixed).unwrap_err().to_string().contains("different settings"));
        assert!(
            read_match_file("# alea datagen variant=freedom\n").unwrap_err().to_string().contains("not a PGN file")
        );
        assert_eq!(read_match_file("").unwrap().games.len(), 0);
    }
}
