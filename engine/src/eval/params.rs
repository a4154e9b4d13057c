//! The evaluation's parameters: material and piece-square tables, each for the middlegame and the
//! endgame, blended by the game phase. The score is linear in them, which is what lets the tuning
//! work fit them to game results (Texel's method). They are data: a text form the engine reads and
//! the tuner writes, one table set per variant. The big boards (10x10, 12x12) have no square
//! tables: they read the material values and two terms of their own, pawn progress and the
//! pieces' centrality ([`crate::eval::big::BigEval`]), from the same form.

use crate::board::Board;
use crate::board::piece::{Color, Role};
use crate::board::square::Square;
use crate::board::values::PieceValues;
use crate::eval::data::DataError;
use std::fmt::Write;

/// Squares of a piece-square table: files a-d (e-h mirror them), ranks 1-8 from the owner's side.
pub const HALF_SQUARES: usize = 32;
/// The phase of the full starting material; 0 is a bare endgame.
pub const PHASE_MAX: i32 = 24;
/// Parameters in one phase of one role: its material value, then its square table.
const PER_ROLE: usize = 1 + HALF_SQUARES;
/// Parameters in all.
pub const PARAM_COUNT: usize = 2 * 6 * PER_ROLE;
/// The result scale of tables that were not fitted: a logistic that reaches 73 % at a pawn.
pub const DEFAULT_RESULT_SCALE: f64 = 0.695;

/// Middlegame or endgame, the two ends the phase blends.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Stage {
    Middlegame = 0,
    Endgame = 1,
}

impl Stage {
    pub const ALL: [Stage; 2] = [Stage::Middlegame, Stage::Endgame];

    fn word(self) -> &'static str {
        match self {
            Stage::Middlegame => "mg",
            Stage::Endgame => "eg",
        }
    }
}

/// Material and piece-square values in centipawns, per stage and role.
#[derive(Clone, PartialEq, Debug)]
pub struct EvalParams {
    pub material: [[i32; 6]; 2],
    pub psqt: [[[i32; HALF_SQUARES]; 6]; 2],
    /// How scores predict results: the expected result is `1 / (1 + 10^(-scale * score / 400))`
    /// (the fit's K). Only win/draw/loss estimates use it; the search compares scores alone.
    pub result_scale: f64,
    /// In the variants of several moves a turn (king capture): centipawns charged to the side
    /// to move at a turn's start for an enemy that could surely take its king in one or two
    /// micro-moves were it to move now, scaled by the share of rolls that could. 0: not counted.
    pub king_danger: i32,
    /// Where every check is a free move (Freedom): centipawns per square from which a side can
    /// check the enemy king and that no enemy piece guards, capped at six a side
    /// ([`crate::eval::free_checks`]). 0: not counted.
    pub free_checks: i32,
    /// The big boards' terms, which their lack of square tables leaves to weights of their own
    /// (0 on the 8x8 boards, where the tables hold both): centipawns a pawn gains for each rank
    /// it has advanced, and a knight, bishop or queen for each step towards the centre.
    pub pawn_step: i32,
    pub centre: i32,
}

/// The table square of a piece of `color` on `sq`: seen from its own side, files folded.
#[inline]
pub fn half_square(color: Color, sq: Square) -> usize {
    let rank = if color == Color::White { sq.rank() } else { 7 - sq.rank() };
    let file = sq.file().min(7 - sq.file());
    usize::from(rank) * 4 + usize::from(file)
}

/// Minor pieces 1, rooks 2, queens 4, capped at [`PHASE_MAX`] (promotions can exceed it).
pub fn game_phase(board: &Board) -> i32 {
    let minors = board.by_role(Role::Knight).count() + board.by_role(Role::Bishop).count();
    let phase = minors + 2 * board.by_role(Role::Rook).count() + 4 * board.by_role(Role::Queen).count();
    (phase as i32).min(PHASE_MAX)
}

/// A middlegame and an endgame score blended by the phase (integer, rounded toward zero).
#[inline]
pub fn blend(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
}

/// One piece as the evaluation sees it: whose, what, where on its table.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct PieceFeature {
    pub white: bool,
    pub role: Role,
    pub half: u8,
}

/// The pieces of a position in the form the score is linear over; returns the phase.
pub fn features(board: &Board, out: &mut Vec<PieceFeature>) -> i32 {
    out.clear();
    for color in Color::ALL {
        for role in Role::ALL {
            let mut bb = board.pieces(color, role);
            while let Some(sq) = bb.first() {
                bb.0 &= bb.0 - 1;
                out.push(PieceFeature { white: color == Color::White, role, half: half_square(color, sq) as u8 });
            }
        }
    }
    game_phase(board)
}

impl EvalParams {
    /// Material from a value table (the same in both stages), flat square tables.
    pub fn from_values(values: PieceValues) -> EvalParams {
        EvalParams {
            material: [values.0, values.0],
            psqt: [[[0; HALF_SQUARES]; 6]; 2],
            result_scale: DEFAULT_RESULT_SCALE,
            king_danger: 0,
            free_checks: 0,
            pawn_step: 0,
            centre: 0,
        }
    }

    /// Are the square tables flat (all zero), as the big boards need them?
    pub fn flat_tables(&self) -> bool {
        self.psqt.iter().flatten().flatten().all(|&v| v == 0)
    }

    /// Middlegame material, the values that order captures and judge exchanges.
    pub fn piece_values(&self) -> PieceValues {
        PieceValues(self.material[Stage::Middlegame as usize])
    }

    /// Where parameter (stage, role, slot) sits in [`EvalParams::to_vec`]; slot 0 is the material
    /// value, 1 + a table square the square's value.
    #[inline]
    pub fn index(stage: usize, role: usize, slot: usize) -> usize {
        (stage * 6 + role) * PER_ROLE + slot
    }

    /// All parameters, flat, in [`EvalParams::index`] order.
    pub fn to_vec(&self) -> Vec<f64> {
        let mut v = vec![0.0; PARAM_COUNT];
        for stage in 0..2 {
            for role in 0..6 {
                v[Self::index(stage, role, 0)] = f64::from(self.material[stage][role]);
                for h in 0..HALF_SQUARES {
                    v[Self::index(stage, role, 1 + h)] = f64::from(self.psqt[stage][role][h]);
                }
            }
        }
        v
    }

    /// From the flat form, rounded to centipawns.
    pub fn from_vec(v: &[f64]) -> EvalParams {
        assert_eq!(v.len(), PARAM_COUNT);
        let mut p = EvalParams::from_values(PieceValues([0; 6]));
        for stage in 0..2 {
            for role in 0..6 {
                p.material[stage][role] = v[Self::index(stage, role, 0)].round() as i32;
                for h in 0..HALF_SQUARES {
                    p.psqt[stage][role][h] = v[Self::index(stage, role, 1 + h)].round() as i32;
                }
            }
        }
        p
    }

    /// The score for White, in centipawns: each stage's sum blended by the phase.
    pub fn white_score(&self, board: &Board) -> i32 {
        let mut stages = [0i32; 2];
        for color in Color::ALL {
            let sign = if color == Color::White { 1 } else { -1 };
            for role in Role::ALL {
                let r = role.index();
                let mut bb = board.pieces(color, role);
                while let Some(sq) = bb.first() {
                    bb.0 &= bb.0 - 1;
                    let h = half_square(color, sq);
                    stages[0] += sign * (self.material[0][r] + self.psqt[0][r][h]);
                    stages[1] += sign * (self.material[1][r] + self.psqt[1][r][h]);
                }
            }
        }
        let phase = game_phase(board);
        blend(stages[0], stages[1], phase)
    }

    /// The text form: a `material` line per stage and a `psqt` line per stage and role (32
    /// values: rank 1 files a-d, rank 2 files a-d, ... from the owner's side); flat tables are
    /// left out, and the big boards' `pawn-step` and `centre` written when not 0.
    pub fn to_text(&self) -> String {
        let flat = self.flat_tables();
        let mut out = String::from(if flat {
            "# Alea evaluation parameters, centipawns; flat square tables (none written).\n"
        } else {
            "# Alea evaluation parameters, centipawns. psqt: 32 squares per table, ranks 1-8 from the\n\
             # owner's side, files a-d in each (e-h mirror them); mg/eg blended by the game phase.\n"
        });
        writeln!(out, "result-scale {}", self.result_scale).unwrap();
        for (word, value) in [
            ("king-danger", self.king_danger),
            ("free-checks", self.free_checks),
            ("pawn-step", self.pawn_step),
            ("centre", self.centre),
        ] {
            if value != 0 {
                writeln!(out, "{word} {value}").unwrap();
            }
        }
        for stage in Stage::ALL {
            write!(out, "material {}", stage.word()).unwrap();
            for role in Role::ALL {
                write!(out, " {} {}", role.char().to_ascii_uppercase(), self.material[stage as usize][role.index()])
                    .unwrap();
            }
            out.push('\n');
        }
        for stage in Stage::ALL.into_iter().filter(|_| !flat) {
            for role in Role::ALL {
                write!(out, "psqt {} {}", stage.word(), role.char().to_ascii_uppercase()).unwrap();
                for v in self.psqt[stage as usize][role.index()] {
                    write!(out, " {v}").unwrap();
                }
                out.push('\n');
            }
        }
        out
    }

    /// Reads a file in [`EvalParams::to_text`]'s form; the error names the file.
    pub fn read(path: &std::path::Path) -> Result<EvalParams, DataError> {
        let text = std::fs::read_to_string(path).map_err(|e| DataError::io(path, &e))?;
        EvalParams::parse(&text).map_err(|e| e.in_file(path))
    }

    /// Reads [`EvalParams::to_text`]'s form: both material lines and all twelve tables or none
    /// (flat), each once, values within ±10000; `#` starts a comment. `result-scale`,
    /// `king-danger`, `free-checks`, `pawn-step` and `centre` are optional.
    pub fn parse(text: &str) -> Result<EvalParams, DataError> {
        let mut p = EvalParams::from_values(PieceValues([0; 6]));
        let mut seen_material = [false; 2];
        let mut seen_psqt = [[false; 6]; 2];
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let at = |why: String| DataError::Line { line: n + 1, why };
            let words: Vec<&str> = line.split_whitespace().collect();
            if words[0] == "result-scale" {
                p.result_scale = words
                    .get(1)
                    .and_then(|w| w.parse::<f64>().ok())
                    .filter(|k| k.is_finite() && *k > 0.0 && *k <= 100.0 && words.len() == 2)
                    .ok_or_else(|| at(format!("result-scale takes one number above 0, got {line:?}")))?;
                continue;
            }
            let whole = |most: i32| {
                words
                    .get(1)
                    .and_then(|w| w.parse::<i32>().ok())
                    .filter(|v| (0..=most).contains(v) && words.len() == 2)
                    .ok_or_else(|| at(format!("{} takes one whole number from 0 to {most}, got {line:?}", words[0])))
            };
            let optional = match words[0] {
                "king-danger" => Some((&mut p.king_danger, 10_000)),
                "free-checks" => Some((&mut p.free_checks, 1_000)),
                "pawn-step" => Some((&mut p.pawn_step, 1_000)),
                "centre" => Some((&mut p.centre, 1_000)),
                _ => None,
            };
            if let Some((slot, most)) = optional {
                *slot = whole(most)?;
                continue;
            }
            let stage = match words.get(1) {
                Some(&"mg") => 0,
                Some(&"eg") => 1,
                _ => return Err(at(format!("expected 'material mg|eg' or 'psqt mg|eg ROLE', got {line:?}"))),
            };
            match words[0] {
                "material" => {
                    let values = PieceValues::parse(&words[2..].join(" ")).map_err(|e| at(e.0))?;
                    if std::mem::replace(&mut seen_material[stage], true) {
                        return Err(at("material given twice".into()));
                    }
                    p.material[stage] = values.0;
                }
                "psqt" => {
                    let role = words
                        .get(2)
                        .filter(|w| w.len() == 1)
                        .and_then(|w| w.chars().next())
                        .and_then(Role::from_char)
                        .ok_or_else(|| at("psqt needs a piece letter".into()))?;
                    if words.len() != 3 + HALF_SQUARES {
                        return Err(at(format!("a table has {HALF_SQUARES} values, got {}", words.len() - 3)));
                    }
                    for (h, w) in words[3..].iter().enumerate() {
                        p.psqt[stage][role.index()][h] = w
                            .parse()
                            .ok()
                            .filter(|v: &i32| v.abs() <= 10_000)
                            .ok_or_else(|| at(format!("'{w}' is not a value within ±10000")))?;
                    }
                    if std::mem::replace(&mut seen_psqt[stage][role.index()], true) {
                        return Err(at("table given twice".into()));
                    }
                }
                other => return Err(at(format!("unknown line kind '{other}'"))),
            }
        }
        if seen_material != [true; 2] || (seen_psqt != [[true; 6]; 2] && seen_psqt != [[false; 6]; 2]) {
            return Err(DataError::Damaged(
                "incomplete: both material lines and all twelve psqt lines (or none) are needed".into(),
            ));
        }
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn text_with(p: &EvalParams, line: &str) -> String {
        p.to_text().replace(&format!("result-scale {}", p.result_scale), line)
    }

    #[test]
    fn text_round_trips_and_bad_text_is_refused() {
        let mut p = EvalParams::from_values(
            crate::rules::ChessRules::new(crate::rules::ChessKind::Classic, false).piece_values(),
        );
        p.psqt[1][3][17] = -42;
        p.material[1][0] = 130;
        p.result_scale = 0.2711;
        assert_eq!(EvalParams::parse(&p.to_text()).unwrap(), p);
        p.king_danger = 600;
        assert!(p.to_text().contains("king-danger 600\n"));
        assert_eq!(EvalParams::parse(&p.to_text()).unwrap(), p);
        for bad in ["king-danger -5", "king-danger 1.5", "king-danger 3 4", "king-danger 20000"] {
            assert!(EvalParams::parse(&p.to_text().replace("king-danger 600", bad)).is_err(), "{bad}");
        }
        p.king_danger = 0;
        p.free_checks = 30;
        assert!(p.to_text().contains("free-checks 30\n"));
        assert_eq!(EvalParams::parse(&p.to_text()).unwrap(), p);
        for bad in ["free-checks -1", "free-checks 2000", "free-checks x"] {
            assert!(EvalParams::parse(&p.to_text().replace("free-checks 30", bad)).is_err(), "{bad}");
        }
        p.free_checks = 0;
        assert_eq!(EvalParams::from_vec(&p.to_vec()).material, p.material);
        assert!(EvalParams::parse(&text_with(&p, "result-scale -1")).is_err());
        assert!(EvalParams::parse(&text_with(&p, "result-scale x")).is_err());
        let text = p.to_text();
        let without_last = text.lines().take(text.lines().count() - 1).collect::<Vec<_>>().join("\n");
        assert!(EvalParams::parse(&without_last).is_err());
        assert!(EvalParams::parse(&format!("{text}psqt eg K {}\n", "0 ".repeat(32))).is_err());
        assert!(EvalParams::parse(&text.replace("psqt mg N 0", "psqt mg N x")).is_err());
        assert!(EvalParams::parse("bogus").is_err());
        // The big boards' form: flat tables left out, their own two terms written.
        let mut big = EvalParams::from_values(PieceValues([100, 300, 300, 500, 900, 250]));
        (big.pawn_step, big.centre) = (4, 3);
        let text = big.to_text();
        assert!(!text.contains("psqt") && text.contains("pawn-step 4\ncentre 3\n"), "{text}");
        assert_eq!(EvalParams::parse(&text).unwrap(), big);
        for bad in ["pawn-step -1", "pawn-step 2000", "centre x", "centre 1 2"] {
            assert!(EvalParams::parse(&text.replace("centre 3", bad)).is_err(), "{bad}");
        }
        assert!(EvalParams::parse(&format!("{text}psqt eg K {}\n", "0 ".repeat(32))).is_err(), "one table of twelve");
    }

    #[test]
    fn score_is_symmetric_and_material_only_from_values() {
        let board = Board::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4").unwrap();
        let mut p = EvalParams::from_values(
            crate::rules::ChessRules::new(crate::rules::ChessKind::Freedom, false).piece_values(),
        );
        assert_eq!(p.white_score(&board), 0);
        p.psqt[0][1][half_square(Color::White, Square::parse("f3").unwrap())] = 30;
        p.psqt[1][1][half_square(Color::White, Square::parse("f3").unwrap())] = 10;
        // Files fold (c3 and f3 share a square): White has one knight there (f3), Black two (c6
        // and f6), and the position is a full middlegame (phase 24).
        assert_eq!(p.white_score(&board), -30);
        assert_eq!(p.white_score(&board.mirrored()), 30);
        let up = Board::from_fen("4k3/8/8/8/8/5N2/8/4K3 w - - 0 1").unwrap();
        // Phase 1 of 24: 30 * 1/24 + 10 * 23/24 plus the knight's 200.
        assert_eq!(p.white_score(&up), (230 + 210 * 23) / 24);
    }
}
