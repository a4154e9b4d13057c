//! What one player's reported scores foretold: each score its search gave for a move it played in
//! a match, with that game's result for it. The scale that fits the two (`alea tune scale --pgn`)
//! is how its scores turn into expected results at the speed the games were played, for its
//! win/draw/loss reports and its search's equity.

use crate::match_file::MatchFile;
use crate::search_note::{NoteScore, SearchNote};

/// `(score, result)` for every move `player` played with a centipawn note, the score in
/// centipawns for it and the result its points (1, ½, 0) in that game. Mate scores are left out
/// (they say nothing of the curve), and so are games a failure ended. An error if the player plays
/// in none of the file's games.
pub fn reported_scores(file: &MatchFile, player: &str) -> Result<Vec<(f64, f64)>, String> {
    let mut out = Vec::new();
    let mut games = 0;
    for game in &file.games {
        let record = &game.record;
        let colour_of = |tag| record.tag(tag) == Some(player);
        let (white, black) = (colour_of("White"), colour_of("Black"));
        if white == black || game.failure.is_some() {
            continue;
        }
        let points = match record.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            _ => continue,
        };
        games += 1;
        let result = if white { points } else { 1.0 - points };
        let black_starts = record.start.as_deref().is_some_and(|fen| fen.split_whitespace().nth(1) == Some("b"));
        // Turns alternate from the start's side to move.
        let first_own = usize::from(black_starts == white);
        for turn in record.turns.iter().skip(first_own).step_by(2) {
            if let Some((SearchNote { score: NoteScore::Cp(cp), .. }, _)) =
                turn.comment.as_deref().and_then(SearchNote::read)
            {
                out.push((f64::from(cp), result));
            }
        }
    }
    if games == 0 {
        return Err(format!(
            "no finished game of '{player}' in the file (its players are named by the White and Black tags)"
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::match_file::read_match_file;

    fn game(round: &str, white: &str, black: &str, result: &str, moves: &str) -> String {
        format!(
            "[Event \"alea match\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\
             [Variant \"freedom\"]\n[Seed \"1\"]\n[Settings \"variant=freedom seed=1\"]\n\n{moves} {result}\n\n"
        )
    }

    /// Each of the player's notes with its result, whichever colour it had; mates, the opponent's
    /// notes and unnoted moves are left out.
    #[test]
    fn the_player_s_centipawn_notes_with_its_results() {
        let text = game(
            "1.1",
            "a",
            "b",
            "1-0",
            "1. e4 {[%roll 1] +0.35/4 0.020s} e5 {[%roll 1] -0.10/9 0.020s} 2. Qh5 {[%roll 5] +M3/2 0.020s}",
        ) + &game(
            "1.2",
            "b",
            "a",
            "1-0",
            "1. d4 {[%roll 1] +0.50/9 0.020s} d5 {[%roll 1] -1.25/4 0.020s} 2. c4 {[%roll 1]} c6 {[%roll 1] -2.00/3 0.020s}",
        );
        let file = read_match_file(&text).expect("a match file");
        assert_eq!(file.games.len(), 2, "{file:?}");
        let scores = reported_scores(&file, "a").expect("a's games");
        assert_eq!(scores, [(35.0, 1.0), (-125.0, 0.0), (-200.0, 0.0)]);
        let scores = reported_scores(&file, "b").expect("b's games");
        assert_eq!(scores, [(-10.0, 0.0), (50.0, 1.0)]);
        assert!(reported_scores(&file, "c").unwrap_err().to_string().contains("no finished game of 'c'"));
    }
}
