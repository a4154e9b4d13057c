//! What a player's search said of the move it chose, as a match's record keeps it beside the
//! move: the score for the side that moved and the depth, in the form cutechess-cli writes
//! (`{+0.35/12 0.105s}`), so that a game can be read back for where an engine's view changed.

/// A score for the side that moved.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NoteScore {
    /// Centipawns.
    Cp(i32),
    /// A mate in this many moves (negative: being mated).
    Mate(i32),
}

/// The last search a player ran for its move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchNote {
    pub score: NoteScore,
    /// As the engine counts it (Alea: turns; a chess engine: plies).
    pub depth: u32,
}

impl SearchNote {
    /// `+0.35/12`, `-1.20/4`, `+M3/9`, `-M2/5`: pawns, or a mate in moves, for the side that
    /// moved, then the depth.
    pub fn text(&self) -> String {
        let score = match self.score {
            NoteScore::Cp(cp) => format!("{}{}.{:02}", if cp < 0 { "-" } else { "+" }, cp.abs() / 100, cp.abs() % 100),
            NoteScore::Mate(n) => format!("{}M{}", if n < 0 { "-" } else { "+" }, n.abs()),
        };
        format!("{score}/{}", self.depth)
    }

    /// The note as a match's record writes it beside a move: the score and depth, then the
    /// move's time (`+0.35/12 0.105s`).
    pub fn comment(&self, seconds: f64) -> String {
        format!("{} {seconds:.3}s", self.text())
    }

    /// A move's comment read back ([`SearchNote::comment`]): the note and, where written, the
    /// seconds the move took; `None` for a comment that holds no note.
    pub fn read(comment: &str) -> Option<(SearchNote, Option<f64>)> {
        let mut words = comment.split_whitespace();
        let (score, depth) = words.next()?.split_once('/')?;
        let depth = depth.parse().ok()?;
        let (sign, magnitude) = match score.split_at_checked(1)? {
            ("+", m) => (1, m),
            ("-", m) => (-1, m),
            _ => return None,
        };
        let score = match magnitude.strip_prefix('M') {
            Some(moves) => NoteScore::Mate(sign * moves.parse::<i32>().ok()?),
            None => {
                let (pawns, hundredths) = magnitude.split_once('.')?;
                if hundredths.len() != 2 {
                    return None;
                }
                NoteScore::Cp(sign * (pawns.parse::<i32>().ok()? * 100 + hundredths.parse::<i32>().ok()?))
            }
        };
        let seconds = words.next().and_then(|w| w.strip_suffix('s')?.parse::<f64>().ok()).filter(|s| s.is_finite());
        Some((SearchNote { score, depth }, seconds))
    }

    /// The score and depth of a UCI `info` line (`info depth 12 ... score cp 35 ...`, or `score
    /// mate -3`); `None` for a line without both, such as `info string` or `info currmove`.
    pub fn from_info(line: &str) -> Option<SearchNote> {
        let mut words = line.split_whitespace();
        if words.next() != Some("info") {
            return None;
        }
        let (mut depth, mut score) = (None, None);
        while let Some(word) = words.next() {
            match word {
                "string" => return None,
                "depth" => depth = words.next().and_then(|d| d.parse().ok()),
                "score" => {
                    score = match (words.next(), words.next().and_then(|v| v.parse().ok())) {
                        (Some("cp"), Some(v)) => Some(NoteScore::Cp(v)),
                        (Some("mate"), Some(v)) => Some(NoteScore::Mate(v)),
                        _ => None,
                    }
                }
                _ => {}
            }
        }
        Some(SearchNote { score: score?, depth: depth? })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_as_cutechess_writes_it() {
        let note = |score, depth| SearchNote { score, depth }.text();
        assert_eq!(note(NoteScore::Cp(35), 12), "+0.35/12");
        assert_eq!(note(NoteScore::Cp(-120), 4), "-1.20/4");
        assert_eq!(note(NoteScore::Cp(-5), 3), "-0.05/3");
        assert_eq!(note(NoteScore::Cp(0), 1), "+0.00/1");
        assert_eq!(note(NoteScore::Mate(3), 9), "+M3/9");
        assert_eq!(note(NoteScore::Mate(-2), 5), "-M2/5");
    }

    #[test]
    fn a_comment_reads_back_as_written() {
        for (score, depth) in
            [(NoteScore::Cp(35), 12), (NoteScore::Cp(-5), 3), (NoteScore::Mate(-2), 5), (NoteScore::Cp(0), 1)]
        {
            let note = SearchNote { score, depth };
            assert_eq!(SearchNote::read(&note.comment(0.105)), Some((note, Some(0.105))));
            assert_eq!(SearchNote::read(&note.text()), Some((note, None)));
        }
        for bad in ["", "[%roll 1]", "0.35/12", "+0.3/12", "+x.35/12", "+0.35", "+M/4", "+0.35/d"] {
            assert_eq!(SearchNote::read(bad), None, "{bad}");
        }
    }

    #[test]
    fn read_from_uci_info_lines() {
        let read = SearchNote::from_info;
        assert_eq!(
            read("info depth 12 seldepth 18 multipv 1 score cp -35 nodes 9000 nps 1 time 5 pv e2e4"),
            Some(SearchNote { score: NoteScore::Cp(-35), depth: 12 })
        );
        assert_eq!(
            read("info depth 9 score mate 3 lowerbound pv d1h5"),
            Some(SearchNote { score: NoteScore::Mate(3), depth: 9 })
        );
        for other in [
            "info string expected score cp 20",
            "info depth 4 currmove e2e4 currmovenumber 1",
            "info roll 3 prob 0.1667 score cp -716 pv e2e1",
            "bestmove e2e4",
            "info depth x score cp 3",
        ] {
            assert_eq!(read(other), None, "{other}");
        }
    }
}
