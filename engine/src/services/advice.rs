//! Advice on a decision, as one value every front end renders: the CLI's tables and `--json`,
//! the page's panel. Built once from a search's report and the game it searched, so the fields,
//! their names and their meaning are the same wherever advice is shown.

use crate::search::Choice;
use crate::services::handle::{GameHandle, RollSpec, SearchReport};
use serde::Serialize;

/// What was decided on: before the roll (Freedom moves against rolling), after a roll (or with
/// the dice a turn in progress has left), or among every move (`any`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum AdvisedRoll {
    /// Before the roll: written `null`.
    Before,
    /// Every move, whatever the dice: written `"any"`.
    #[serde(serialize_with = "any")]
    Any,
    /// These faces: written as their list.
    Faces(Vec<u8>),
}

fn any<S: serde::Serializer>(s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str("any")
}

impl AdvisedRoll {
    fn of(roll: Option<&RollSpec>) -> AdvisedRoll {
        match roll {
            None => AdvisedRoll::Before,
            Some(RollSpec::Any) => AdvisedRoll::Any,
            Some(RollSpec::Faces(faces)) => AdvisedRoll::Faces(faces.clone()),
        }
    }
}

/// One choice ranked: a turn (or `roll`), best first.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AdvisedChoice {
    /// The turn in UCI (micro-moves joined by commas), or `roll`.
    #[serde(rename = "move")]
    pub uci: String,
    /// The turn in SAN, or `roll`.
    pub san: String,
    /// Centipawns for the side to move.
    pub score: i32,
    /// Scored exactly; otherwise `score` is an upper bound (the choice was cut as worse).
    pub exact: bool,
    /// How much worse than the best choice.
    pub loss: i32,
    /// Win, draw and loss per mille.
    pub wdl: [u32; 3],
    /// Why the turn may be played without rolling (`recapture`, `check`, `defend`), where it may.
    pub pre_roll: Vec<&'static str>,
    /// Where the variant is solved: the exact expected result (a win 1, a draw 1/2).
    pub value: Option<f64>,
}

/// Before the roll: one outcome of the roll and its best turn.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AdvisedOutcome {
    pub roll: Vec<u8>,
    /// What the faces let move, in words.
    pub meaning: String,
    pub probability: f64,
    /// The best turn after it, in UCI, and in SAN.
    pub best: String,
    pub san: String,
    pub score: i32,
    pub value: Option<f64>,
    /// Not searched (the search stopped before its first iteration ended): the horizon's quick
    /// estimate, and `best` only some allowed turn.
    pub estimated: bool,
}

/// The engine's advice on a decision.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Advice {
    pub variant: &'static str,
    pub chess960: bool,
    pub fen: String,
    /// The side to move: `white` or `black`.
    pub side: &'static str,
    pub roll: AdvisedRoll,
    /// What the roll's faces let move, in words.
    pub roll_meaning: Option<String>,
    /// The decision is before the roll (the game's own, not a turn in progress).
    pub before_roll: bool,
    /// Turns deep of the last iteration the search finished (0: none finished).
    pub depth: u32,
    pub nodes: u64,
    /// The best choice in UCI (or `roll`), and in SAN.
    pub best: String,
    pub best_san: String,
    /// Centipawns for the side to move, and for White.
    pub score: i32,
    pub white_score: i32,
    /// A certain win (positive) or loss (negative) in this many of the mover's turns.
    pub mate: Option<i32>,
    pub wdl: [u32; 3],
    pub choices: Vec<AdvisedChoice>,
    /// Before the roll: every outcome.
    pub outcomes: Vec<AdvisedOutcome>,
    /// Before the roll: the expected score of rolling.
    pub expected: Option<i32>,
    /// Where the variant is solved: the position's exact expected result.
    pub value: Option<f64>,
}

impl Advice {
    /// The advice a search `report` of `game` gives, after `roll` (`None`: before it).
    pub fn of(game: &GameHandle, roll: Option<&RollSpec>, report: &SearchReport) -> Advice {
        let text = |choice: &Choice<String>| match choice {
            Choice::Turn(t) => (t.clone(), game.san(t)),
            Choice::Roll => ("roll".to_string(), "roll".to_string()),
        };
        let best_score = report.choices.first().map_or(report.score, |c| c.score);
        let choices = report
            .choices
            .iter()
            .map(|c| {
                let (uci, san) = text(&c.choice);
                let (w, d, l) = report.wdl_of(c.score);
                let pre_roll = match &c.choice {
                    Choice::Turn(t) => game.pre_roll_kinds(t),
                    Choice::Roll => Vec::new(),
                };
                AdvisedChoice {
                    uci,
                    san,
                    score: c.score,
                    exact: c.exact,
                    loss: best_score - c.score,
                    wdl: [w, d, l],
                    pre_roll,
                    value: c.value,
                }
            })
            .collect();
        let outcomes = report
            .outcomes
            .iter()
            .map(|o| AdvisedOutcome {
                roll: o.roll.faces().to_vec(),
                meaning: game.roll_meaning(&o.roll),
                probability: o.probability,
                best: o.best.clone(),
                san: game.san(&o.best),
                score: o.score,
                value: o.value,
                estimated: o.estimated,
            })
            .collect();
        let (best, best_san) = text(&report.best);
        let (w, d, l) = report.wdl();
        let side = game.side_to_move();
        Advice {
            variant: game.variant().name(),
            chess960: game.chess960(),
            fen: game.fen(),
            side: side.name(),
            roll: AdvisedRoll::of(roll),
            roll_meaning: match roll {
                Some(RollSpec::Faces(faces)) => game.check_roll(faces).ok().map(|r| game.roll_meaning(&r)),
                _ => None,
            },
            before_roll: roll.is_none() && game.dice_left().is_none(),
            depth: report.depth,
            nodes: report.nodes,
            best,
            best_san,
            score: report.score,
            white_score: if side == crate::board::piece::Color::White { report.score } else { -report.score },
            mate: report.mate,
            wdl: [w, d, l],
            choices,
            outcomes,
            expected: report.roll_score,
            value: report.value,
        }
    }
}
