//! Texel's method: fit the evaluation's parameters so that a logistic curve of the score predicts
//! the games' results. The scale K of the curve is fitted first, to the starting parameters; then
//! the parameters by gradient descent (Adam) on the mean squared error: material first, then
//! material and square tables together. The big boards' few weights ([`fit_terms`]) the same way.

use crate::datagen::Sample;
use alea_engine::Role;
use alea_engine::eval::big::{BIG_TERMS, BigEval};
use alea_engine::eval::params::{EvalParams, PARAM_COUNT, PHASE_MAX, features};
use alea_engine::services::handle::GameHandle;
use alea_engine::services::registry::Variant;

/// How to fit.
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// Passes over the data (full-batch steps), a quarter of them material only.
    pub epochs: usize,
    /// Leave the square tables flat.
    pub material_only: bool,
    /// Adam's step, in centipawns (the tables' fit; the big boards' takes damped Newton steps).
    pub learning_rate: f64,
    /// Weight of a square table entry's squared size in the loss, per position: keeps rarely seen
    /// squares near zero.
    pub table_penalty: f64,
}

impl Default for FitConfig {
    fn default() -> FitConfig {
        FitConfig { epochs: 400, material_only: false, learning_rate: 1.0, table_penalty: 1e-8 }
    }
}

/// What the fit found.
#[derive(Clone, Debug)]
pub struct Fitted {
    pub params: EvalParams,
    pub k: f64,
    pub start_loss: f64,
    pub loss: f64,
    /// The loss after each epoch (the first entry: before any).
    pub history: Vec<f64>,
}

/// A sample in the form the score is linear over: per piece, its parameters' indices (middlegame
/// material, middlegame square, endgame material, endgame square) and its sign.
struct Compact {
    phase: f64,
    result: f64,
    pieces: std::ops::Range<usize>,
}

struct Prepared {
    samples: Vec<Compact>,
    /// Per piece: [mg material, mg square, eg material, eg square] indices and the sign.
    pieces: Vec<([u16; 4], f64)>,
}

fn prepare(samples: &[Sample]) -> Prepared {
    let mut out = Prepared { samples: Vec::with_capacity(samples.len()), pieces: Vec::new() };
    let mut feats = Vec::new();
    for s in samples {
        let Some(board) = s.board() else { continue };
        let phase = features(board, &mut feats);
        let first = out.pieces.len();
        for f in &feats {
            let r = f.role.index();
            let h = usize::from(f.half);
            let idx = [
                EvalParams::index(0, r, 0),
                EvalParams::index(0, r, 1 + h),
                EvalParams::index(1, r, 0),
                EvalParams::index(1, r, 1 + h),
            ]
            .map(|i| i as u16);
            out.pieces.push((idx, if f.white { 1.0 } else { -1.0 }));
        }
        out.samples.push(Compact {
            phase: f64::from(phase) / f64::from(PHASE_MAX),
            result: s.white_score,
            pieces: first..out.pieces.len(),
        });
    }
    out
}

const LN10_OVER_400: f64 = std::f64::consts::LN_10 / 400.0;

fn sigmoid(k: f64, score: f64) -> f64 {
    1.0 / (1.0 + (-k * score * LN10_OVER_400).exp())
}

impl Prepared {
    fn score(&self, s: &Compact, p: &[f64]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for (idx, sign) in &self.pieces[s.pieces.clone()] {
            mg += sign * (p[usize::from(idx[0])] + p[usize::from(idx[1])]);
            eg += sign * (p[usize::from(idx[2])] + p[usize::from(idx[3])]);
        }
        mg * s.phase + eg * (1.0 - s.phase)
    }

    fn loss(&self, k: f64, p: &[f64]) -> f64 {
        let total: f64 = self.samples.iter().map(|s| (s.result - sigmoid(k, self.score(s, p))).powi(2)).sum();
        total / self.samples.len() as f64
    }

    /// The loss and its gradient over the parameters.
    fn gradient(&self, k: f64, p: &[f64], grad: &mut [f64]) -> f64 {
        grad.iter_mut().for_each(|g| *g = 0.0);
        let mut total = 0.0;
        for s in &self.samples {
            let prob = sigmoid(k, self.score(s, p));
            let err = s.result - prob;
            total += err * err;
            // d(err²)/d(score) = -2 err σ' with σ' = K ln10/400 σ(1-σ).
            let d = -2.0 * err * prob * (1.0 - prob) * k * LN10_OVER_400;
            let (dmg, deg) = (d * s.phase, d * (1.0 - s.phase));
            for (idx, sign) in &self.pieces[s.pieces.clone()] {
                grad[usize::from(idx[0])] += sign * dmg;
                grad[usize::from(idx[1])] += sign * dmg;
                grad[usize::from(idx[2])] += sign * deg;
                grad[usize::from(idx[3])] += sign * deg;
            }
        }
        let n = self.samples.len() as f64;
        grad.iter_mut().for_each(|g| *g /= n);
        total / n
    }

    /// How often each parameter is touched (for centring the square tables on what is seen).
    fn counts(&self) -> Vec<f64> {
        let mut c = vec![0.0; PARAM_COUNT];
        for (idx, _) in &self.pieces {
            for &i in idx {
                c[usize::from(i)] += 1.0;
            }
        }
        c
    }
}

fn is_material(i: usize) -> bool {
    i.is_multiple_of(1 + alea_engine::eval::params::HALF_SQUARES)
}

/// The K that best fits the results to `params`.
fn fit_k(data: &Prepared, params: &[f64]) -> f64 {
    best_k(|k| data.loss(k, params))
}

/// The result scale K that best fits games' results to scores: `scored` holds each position's
/// score for White (centipawns) and White's result (1, ½, 0); the loss is the fit's own (the mean
/// squared error of the logistic). For an evaluation whose scores are not the tables' alone (a
/// network adds to them), so that the search's equity reads its scores as the games bear out.
/// Rounded to the ten-thousandths the files hold.
pub fn fit_result_scale(scored: &[(f64, f64)]) -> f64 {
    rounded_scale(best_k(|k| scored.iter().map(|&(score, result)| (result - sigmoid(k, score)).powi(2)).sum::<f64>()))
}

/// A result scale as the files hold it: to the ten-thousandth.
fn rounded_scale(k: f64) -> f64 {
    (k * 1e4).round() / 1e4
}

/// The K of least `loss`: golden-section search over log K in 0.001..10 (results that hardly
/// depend on the score give a small K).
fn best_k(loss: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.001f64.ln(), 10f64.ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if loss(a.exp()) < loss(b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// Fits parameters to `samples` from `start`; `on_epoch(epoch, loss)` follows the progress.
pub fn fit(samples: &[Sample], start: &EvalParams, config: &FitConfig, on_epoch: &mut dyn FnMut(usize, f64)) -> Fitted {
    let data = prepare(samples);
    let mut p = start.to_vec();
    let k = fit_k(&data, &p);
    let start_loss = data.loss(k, &p);
    let mut history = vec![start_loss];
    let (mut m, mut v) = (vec![0.0; PARAM_COUNT], vec![0.0; PARAM_COUNT]);
    let mut grad = vec![0.0; PARAM_COUNT];
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-12);
    let material_epochs = if config.material_only { config.epochs } else { config.epochs / 4 };
    // The king's material never changes the score (one each while the game is on): keep it.
    let king = |i: usize| (0..2).any(|stage| i == EvalParams::index(stage, Role::King.index(), 0));
    for epoch in 0..config.epochs {
        data.gradient(k, &p, &mut grad);
        let tables = epoch >= material_epochs;
        for i in 0..PARAM_COUNT {
            if king(i) || (!is_material(i) && !tables) {
                continue;
            }
            let g = if is_material(i) { grad[i] } else { grad[i] + 2.0 * config.table_penalty * p[i] };
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let t = (epoch + 1) as i32;
            let m_hat = m[i] / (1.0 - beta1.powi(t));
            let v_hat = v[i] / (1.0 - beta2.powi(t));
            p[i] -= config.learning_rate * m_hat / (v_hat.sqrt() + eps);
            // A piece is worth something: material stays within what the engine's tables take.
            p[i] = if is_material(i) { p[i].clamp(0.0, 10_000.0) } else { p[i].clamp(-10_000.0, 10_000.0) };
        }
        let loss = data.loss(k, &p);
        history.push(loss);
        on_epoch(epoch + 1, loss);
    }
    centre_tables(&data, &mut p);
    let mut params = EvalParams::from_vec(&p);
    params.result_scale = rounded_scale(k);
    // What the fit does not touch is kept.
    params.king_danger = start.king_danger;
    params.free_checks = start.free_checks;
    let loss = data.loss(k, &params.to_vec());
    Fitted { params, k, start_loss, loss, history }
}

/// Moves each square table's mean (weighted by how often its squares occur) into the material
/// value: the score is unchanged, and the material values read as what a piece is worth on an
/// average square.
fn centre_tables(data: &Prepared, p: &mut [f64]) {
    let counts = data.counts();
    for stage in 0..2 {
        for role in 0..6 {
            let squares = (1..=alea_engine::eval::params::HALF_SQUARES).map(|s| EvalParams::index(stage, role, s));
            let seen: f64 = squares.clone().map(|i| counts[i]).sum();
            if seen == 0.0 || role == Role::King.index() {
                continue;
            }
            let mean = squares.clone().map(|i| counts[i] * p[i]).sum::<f64>() / seen;
            // Never below zero: what stays in the table keeps the score the same.
            let material = EvalParams::index(stage, role, 0);
            let shift = mean.max(-p[material]);
            for i in squares {
                p[i] -= shift;
            }
            p[material] += shift;
        }
    }
}

/// A big board's sample as the fit reads it: the terms its evaluation sums
/// ([`alea_engine::eval::big::BigEval::terms`], White's minus Black's) and the game's result for White.
#[derive(Clone, Debug, PartialEq)]
pub struct TermSample {
    pub terms: [i32; BIG_TERMS],
    pub result: f64,
}

/// A big board's samples as the terms its evaluation sums, each position set up afresh in a
/// game of `variant` (a position the variant refuses is named).
pub fn term_samples(variant: Variant, samples: &[Sample]) -> Result<Vec<TermSample>, String> {
    samples
        .iter()
        .enumerate()
        .map(|(n, s)| {
            let game = GameHandle::setup(variant, false, Some(&s.fen()), None, &[])
                .map_err(|e| format!("position {}: {e}", n + 1))?;
            let terms = game.eval_terms().and_then(|t| <[i32; BIG_TERMS]>::try_from(t).ok());
            let terms = terms.ok_or_else(|| format!("{variant} is evaluated by its square tables, not by terms"))?;
            Ok(TermSample { terms, result: s.white_score })
        })
        .collect()
}

/// The score of `terms` under `weights`, for White.
fn term_score(terms: &[i32; BIG_TERMS], weights: &[f64]) -> f64 {
    terms.iter().zip(weights).map(|(&t, w)| f64::from(t) * w).sum()
}

fn term_loss(samples: &[TermSample], k: f64, weights: &[f64]) -> f64 {
    let total: f64 = samples.iter().map(|s| (s.result - sigmoid(k, term_score(&s.terms, weights))).powi(2)).sum();
    total / samples.len() as f64
}

/// Fits a big board's weights (piece values, pawn step, centre; with `material_only`, the
/// values alone) to `samples` from `start`: K first, to the starting weights, as [`fit`] does,
/// then the weights on the same mean squared error by Levenberg-Marquardt (eight weights: each
/// epoch solves their 8x8 system, which converges in tens of epochs where gradient steps of a
/// centipawn take thousands), each kept within what the evaluation file takes (0 to 10000
/// centipawns for a piece, 0 to 1000 for a step), and scaled at the end so that their scores
/// spread over the data as the starting weights' do. Both stages' material get the fitted values
/// (a big board has no phases).
pub fn fit_terms(
    samples: &[TermSample],
    start: &EvalParams,
    config: &FitConfig,
    on_epoch: &mut dyn FnMut(usize, f64),
) -> Fitted {
    let starting: Vec<f64> = BigEval::from_params(start).weights().iter().map(|&v| f64::from(v)).collect();
    let mut w = starting.clone();
    let k = best_k(|k| term_loss(samples, k, &w));
    let start_loss = term_loss(samples, k, &w);
    let mut history = vec![start_loss];
    let most = |i: usize| if i < 6 { 10_000.0 } else { 1_000.0 };
    // Material only: the pawn step and centre weights stay as they start.
    let free = if config.material_only { 6 } else { BIG_TERMS };
    let mut damping = 1e-3;
    let mut loss = start_loss;
    for epoch in 0..config.epochs {
        // The gradient of the mean loss and its Gauss-Newton curvature.
        let mut grad = [0.0; BIG_TERMS];
        let mut curve = [[0.0; BIG_TERMS]; BIG_TERMS];
        for s in samples {
            let prob = sigmoid(k, term_score(&s.terms, &w));
            let slope = prob * (1.0 - prob) * k * LN10_OVER_400;
            for i in 0..free {
                let ti = f64::from(s.terms[i]);
                grad[i] += -2.0 * (s.result - prob) * slope * ti;
                for (c, &tj) in curve[i].iter_mut().zip(&s.terms).take(free) {
                    *c += 2.0 * slope * slope * ti * f64::from(tj);
                }
            }
        }
        let n = samples.len() as f64;
        // Damped steps until one lowers the loss (the bounds may cut a step short).
        for _ in 0..20 {
            let mut system = [[0.0; BIG_TERMS + 1]; BIG_TERMS];
            for i in 0..BIG_TERMS {
                for j in 0..BIG_TERMS {
                    system[i][j] = if i < free && j < free { curve[i][j] / n } else { 0.0 };
                }
                system[i][i] += if i < free { damping * (curve[i][i] / n) + 1e-12 } else { 1.0 };
                system[i][BIG_TERMS] = if i < free { -grad[i] / n } else { 0.0 };
            }
            let step = solve(system);
            let tried: Vec<f64> = (0..BIG_TERMS).map(|i| (w[i] + step[i]).clamp(0.0, most(i))).collect();
            let tried_loss = term_loss(samples, k, &tried);
            if tried_loss < loss {
                (w, loss) = (tried, tried_loss);
                damping = (damping / 3.0).max(1e-9);
                break;
            }
            damping = (damping * 10.0).min(1e12);
        }
        history.push(loss);
        on_epoch(epoch + 1, loss);
    }
    // Only K times the weights is fixed by the data, and the search clamps scores at
    // `EVAL_MAX` and counts a win above any of them: the weights are scaled so that their
    // scores spread over the data as the starting weights' do, K by the inverse (the same
    // predictions).
    let spread = |w: &[f64]| samples.iter().map(|s| term_score(&s.terms, w).abs()).sum::<f64>();
    // (With material only, the steps' fixed weights keep the scale.)
    let scale = if spread(&w) > 0.0 && !config.material_only { spread(&starting) / spread(&w) } else { 1.0 };
    let k = k / scale;
    let rounded: Vec<i32> = (0..BIG_TERMS).map(|i| (w[i] * scale).clamp(0.0, most(i)).round() as i32).collect();
    let mut params =
        EvalParams::from_values(alea_engine::board::values::PieceValues(rounded[..6].try_into().expect("six values")));
    (params.pawn_step, params.centre) = (rounded[6], rounded[7]);
    params.result_scale = rounded_scale(k);
    let loss = term_loss(samples, k, &BigEval::from_params(&params).weights().map(f64::from));
    Fitted { params, k, start_loss, loss, history }
}

/// The solution of a linear system given as its augmented matrix (Gaussian elimination with
/// partial pivoting; a singular direction gets no step).
fn solve(mut m: [[f64; BIG_TERMS + 1]; BIG_TERMS]) -> [f64; BIG_TERMS] {
    for col in 0..BIG_TERMS {
        let pivot = (col..BIG_TERMS).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs())).expect("rows");
        m.swap(col, pivot);
        if m[col][col].abs() < 1e-300 {
            continue;
        }
        let pivot_row = m[col];
        for row in m.iter_mut().skip(col + 1) {
            let f = row[col] / pivot_row[col];
            for (cell, &p) in row.iter_mut().zip(&pivot_row).skip(col) {
                *cell -= f * p;
            }
        }
    }
    let mut x = [0.0; BIG_TERMS];
    for row in (0..BIG_TERMS).rev() {
        if m[row][row].abs() < 1e-300 {
            continue;
        }
        let rest: f64 = (row + 1..BIG_TERMS).map(|c| m[row][c] * x[c]).sum();
        x[row] = (m[row][BIG_TERMS] - rest) / m[row][row];
    }
    x
}
