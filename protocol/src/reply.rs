//! The text of the search's replies: `info` lines, the advice table, `bestmove`.

use alea_engine::services::handle::SearchReport;
use alea_engine::services::search::Choice;

/// `score cp X` or `score mate N`.
pub fn score_text(result: &SearchReport, score: i32) -> String {
    match result.mate {
        Some(n) if score == result.score => format!("score mate {n}"),
        _ => format!("score cp {score}"),
    }
}

/// The `info` lines of one iteration (one per MultiPV line).
pub fn info_lines(result: &SearchReport, multipv: usize, show_wdl: bool) -> Vec<String> {
    let time = result.elapsed.as_millis();
    let exact: Vec<_> = result.choices.iter().filter(|c| c.exact).take(multipv.max(1)).collect();
    let mut lines = Vec::new();
    for (i, choice) in exact.iter().enumerate() {
        let mut line = format!("info depth {} seldepth {}", result.depth, result.seldepth.max(result.depth));
        if multipv > 1 {
            line.push_str(&format!(" multipv {}", i + 1));
        }
        line.push_str(&format!(" {}", score_text(result, choice.score)));
        if show_wdl {
            let (w, d, l) = result.wdl();
            line.push_str(&format!(" wdl {w} {d} {l}"));
        }
        line.push_str(&format!(
            " nodes {} nps {} hashfull {} time {time}",
            result.nodes,
            result.nps(),
            result.hashfull
        ));
        let pv: Vec<String> = if i == 0 {
            result.pv.clone()
        } else {
            match &choice.choice {
                Choice::Turn(t) => vec![t.clone()],
                Choice::Roll => Vec::new(),
            }
        };
        if !pv.is_empty() {
            line.push_str(&format!(" pv {}", pv.join(" ")));
        }
        lines.push(line);
    }
    lines
}

/// The advice table of a search before the roll: one line per outcome, then the expected score.
pub fn outcome_lines(result: &SearchReport) -> Vec<String> {
    let mut lines: Vec<String> = result
        .outcomes
        .iter()
        .map(|o| format!("info roll {} prob {:.4} score cp {} pv {}", o.roll, o.probability, o.score, o.best))
        .collect();
    if let Some(expected) = result.roll_score {
        lines.push(format!("info string expected score cp {expected}"));
    }
    let estimated = result.outcomes.iter().filter(|o| o.estimated).count();
    if estimated > 0 {
        lines.push(format!(
            "info string the search did not finish one turn: {} of {} outcomes searched, the other {estimated} \
             estimated by the horizon alone (their pv only some allowed turn); give more time",
            result.outcomes.len() - estimated,
            result.outcomes.len()
        ));
    }
    lines
}
