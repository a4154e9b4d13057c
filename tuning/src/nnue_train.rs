//! Training the learned evaluation ([`alea_engine::eval::nnue`]) on self-play data, on the CPU: the
//! network in floating point, mini-batches split over threads, Adam, a validation split of whole
//! games, and the trained weights quantised to the engine's integers at the end.
//!
//! The target of a position blends the search's score and the game's result (both for the side
//! to move): `lambda * expected(score) + (1 - lambda) * result`, where `expected` is the engine's
//! own map from centipawns to an expected result (the variant's result scale K). The network
//! learns what the evaluation tables miss: the prediction is `expected(tables' score + network's
//! score)`, and the loss the mean squared difference. Its output weights start at zero, so an
//! untrained network is the tables exactly, and little data can only refine them.

use crate::datagen::Sample;
use alea_engine::Color;
use alea_engine::eval::nnue::{HIDDEN, INPUTS, MOBILITY_INPUTS, Network, QA, QB, SCALE, feature, mobility};

/// The rows of the float network's first layer: the pieces' inputs, then the dice-aware ones
/// (trained only when asked for, left out of the engine's network otherwise).
const ROWS: usize = INPUTS + MOBILITY_INPUTS;

/// How to train.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub epochs: usize,
    pub batch: usize,
    pub learning_rate: f32,
    /// Decoupled weight decay (AdamW): each step takes this share of the step size off every
    /// weight (not the biases), pulling the network toward zero output, the tables alone.
    pub weight_decay: f32,
    /// The weight of the search's score in the target (the rest: the game's result).
    pub lambda: f32,
    /// The variant's result scale K: expected result `1 / (1 + 10^(-K * cp / 400))`.
    pub result_scale: f32,
    /// Every `validation`-th game (by its index) is held out, never trained on.
    pub validation: u64,
    pub threads: usize,
    pub seed: u64,
    /// The dice-aware inputs ([`alea_engine::eval::nnue::mobility`]) besides the pieces.
    pub mobility: bool,
    /// A network to start from instead of random weights (of the same variant, on the same
    /// tables): more data for a network that has learned from earlier data. Dice-aware inputs
    /// it lacks start at zero, so that it starts as it plays.
    pub start: Option<Network>,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            epochs: 30,
            batch: 16_384,
            learning_rate: 0.001,
            weight_decay: 0.0,
            lambda: 0.75,
            result_scale: 0.695,
            validation: 20,
            threads: 2,
            seed: 1,
            mobility: false,
            start: None,
        }
    }
}

/// A position as the trainer reads it: its pieces' inputs from White's view (Black's view is
/// derived), the side to move, the tables' score for it, the target.
#[derive(Clone, Debug)]
struct Record {
    features: std::ops::Range<usize>,
    black_to_move: bool,
    /// The evaluation tables' score for the side to move, in centipawns.
    base: f32,
    target: f32,
}

/// The positions of a data set, split into training and validation.
pub struct Prepared {
    features: Vec<u16>,
    train: Vec<Record>,
    valid: Vec<Record>,
}

impl Prepared {
    pub fn train_len(&self) -> usize {
        self.train.len()
    }
    pub fn valid_len(&self) -> usize {
        self.valid.len()
    }
}

fn expected(k: f32, cp: f32) -> f32 {
    1.0 / (1.0 + 10f32.powf(-k * cp / 400.0))
}

/// `samples` with the index of the game each came from, as training records; `tables` scores a
/// position for its side to move (the evaluation the network adds to). The network reads 8x8
/// boards: samples of a big board are not records.
pub fn prepare(samples: &[(u64, &Sample)], config: &TrainConfig, tables: &dyn Fn(&Sample) -> i32) -> Prepared {
    let mut out = Prepared { features: Vec::new(), train: Vec::new(), valid: Vec::new() };
    for (game, s) in samples {
        let Some(board) = s.board() else { continue };
        let first = out.features.len();
        for color in Color::ALL {
            for role in alea_engine::Role::ALL {
                for sq in board.pieces(color, role) {
                    out.features.push(feature(Color::White, color, role, sq.index()) as u16);
                }
            }
        }
        if config.mobility {
            let mut bits = mobility(board);
            while bits != 0 {
                out.features.push((INPUTS + bits.trailing_zeros() as usize) as u16);
                bits &= bits - 1;
            }
        }
        let black = board.turn() == Color::Black;
        let result = if black { 1.0 - s.white_score as f32 } else { s.white_score as f32 };
        let target = match s.score {
            Some(cp) => config.lambda * expected(config.result_scale, f32::from(cp)) + (1.0 - config.lambda) * result,
            None => result,
        };
        let record =
            Record { features: first..out.features.len(), black_to_move: black, base: tables(s) as f32, target };
        if config.validation > 0 && game % config.validation == 0 {
            out.valid.push(record);
        } else {
            // The dice know no files and the data keeps no castling rights: the position seen in
            // a mirror (a-file for h-file) is worth the same, a second training position for free
            // (with the same moves: the dice-aware inputs stay).
            let mirrored: Vec<u16> = out.features[record.features.clone()]
                .iter()
                .map(|&f| if usize::from(f) < INPUTS { f ^ 7 } else { f })
                .collect();
            let start = out.features.len();
            out.features.extend(mirrored);
            let mirror = Record { features: start..out.features.len(), ..record.clone() };
            out.train.push(record);
            out.train.push(mirror);
        }
    }
    out
}

/// The loss another evaluation (`score`: centipawns for the side to move) has on the validation
/// positions of `samples`, with the same targets: the baseline a network must beat.
pub fn validation_loss_of(samples: &[(u64, &Sample)], config: &TrainConfig, score: &dyn Fn(&Sample) -> i32) -> f64 {
    let held_out: Vec<&(u64, &Sample)> =
        samples.iter().filter(|(game, _)| config.validation > 0 && game % config.validation == 0).collect();
    let prepared = prepare(&held_out.iter().map(|&&(g, s)| (g, s)).collect::<Vec<_>>(), config, &|_| 0);
    let total: f64 = held_out
        .iter()
        .zip(&prepared.valid)
        .map(|((_, s), r)| f64::from((expected(config.result_scale, score(s) as f32) - r.target).powi(2)))
        .sum();
    total / held_out.len().max(1) as f64
}

/// White's-view input `f` seen from Black: own and enemy swapped, the square mirrored (a
/// dice-aware input: own and enemy swapped, as [`alea_engine::eval::nnue::mobility_in`]).
#[inline]
fn black_view(f: usize) -> usize {
    if f >= INPUTS {
        return INPUTS + (f - INPUTS + MOBILITY_INPUTS / 2) % MOBILITY_INPUTS;
    }
    ((f / 384) ^ 1) * 384 + (f % 384) / 64 * 64 + ((f % 64) ^ 56)
}

/// The network in floating point: a hidden weight of 1.0 is `QA` in the engine's integers.
#[derive(Clone)]
pub struct FloatNet {
    w1: Vec<f32>, // [ROWS][HIDDEN]
    b1: Vec<f32>, // [HIDDEN]
    w2: Vec<f32>, // [2][HIDDEN]: the mover's, the other side's
    b2: f32,
}

impl FloatNet {
    fn new(seed: u64) -> FloatNet {
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut uniform = |scale: f32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            ((state >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale
        };
        // The dice-aware rows drawn last, so that a network without them starts as before.
        let mut w1: Vec<f32> = (0..INPUTS * HIDDEN).map(|_| uniform(0.1)).collect();
        let b1 = (0..HIDDEN).map(|_| 0.1 + uniform(0.05)).collect();
        w1.extend((0..MOBILITY_INPUTS * HIDDEN).map(|_| uniform(0.1)));
        FloatNet { w1, b1, w2: vec![0.0; 2 * HIDDEN], b2: 0.0 }
    }

    /// The engine's integer network in floating point (the inverse of [`FloatNet::quantise`]);
    /// dice-aware rows it lacks are zero.
    fn from_network(net: &Network) -> FloatNet {
        let mut float = FloatNet::zeros();
        for (f, row) in net.rows().enumerate() {
            for (i, &w) in row.iter().enumerate() {
                float.w1[f * HIDDEN + i] = f32::from(w) / QA as f32;
            }
        }
        for (b, &q) in float.b1.iter_mut().zip(&net.feature_bias) {
            *b = f32::from(q) / QA as f32;
        }
        for (slot, row) in net.output_weights.iter().enumerate() {
            for (i, &w) in row.iter().enumerate() {
                float.w2[slot * HIDDEN + i] = f32::from(w) / QB as f32;
            }
        }
        float.b2 = net.output_bias as f32 / (QA * QB) as f32;
        float
    }

    fn zeros() -> FloatNet {
        FloatNet { w1: vec![0.0; ROWS * HIDDEN], b1: vec![0.0; HIDDEN], w2: vec![0.0; 2 * HIDDEN], b2: 0.0 }
    }

    /// The hidden sums of both views (White's, Black's) of a record.
    fn hidden(&self, features: &[u16]) -> [[f32; HIDDEN]; 2] {
        let mut h = [[0f32; HIDDEN]; 2];
        h[0].copy_from_slice(&self.b1);
        h[1].copy_from_slice(&self.b1);
        for &f in features {
            let f = usize::from(f);
            for (view, idx) in [(0, f), (1, black_view(f))] {
                let row = &self.w1[idx * HIDDEN..(idx + 1) * HIDDEN];
                for (s, w) in h[view].iter_mut().zip(row) {
                    *s += w;
                }
            }
        }
        h
    }

    /// The score in the network's units (a centipawn is `1 / SCALE`), and the hidden sums.
    fn forward(&self, features: &[u16], black: bool) -> (f32, [[f32; HIDDEN]; 2]) {
        let h = self.hidden(features);
        let (us, them) = if black { (&h[1], &h[0]) } else { (&h[0], &h[1]) };
        let mut out = self.b2;
        for i in 0..HIDDEN {
            out += us[i].clamp(0.0, 1.0) * self.w2[i] + them[i].clamp(0.0, 1.0) * self.w2[HIDDEN + i];
        }
        (out, h)
    }

    /// Adds the loss gradient of one record to `grad`; returns its loss.
    fn backward(&self, r: &Record, features: &[u16], k: f32, grad: &mut FloatNet) -> f32 {
        let (black, target) = (r.black_to_move, r.target);
        let (out, h) = self.forward(features, black);
        let p = expected(k, r.base + out * SCALE as f32);
        let err = p - target;
        // d loss / d out, through the logistic map.
        let g = 2.0 * err * p * (1.0 - p) * std::f32::consts::LN_10 * k / 400.0 * SCALE as f32;
        grad.b2 += g;
        let views = if black { [1usize, 0] } else { [0, 1] };
        let mut dh = [[0f32; HIDDEN]; 2];
        for (slot, &view) in views.iter().enumerate() {
            for i in 0..HIDDEN {
                let a = h[view][i];
                let w = self.w2[slot * HIDDEN + i];
                grad.w2[slot * HIDDEN + i] += g * a.clamp(0.0, 1.0);
                if a > 0.0 && a < 1.0 {
                    dh[view][i] = g * w;
                }
            }
        }
        for ((b, white), black) in grad.b1.iter_mut().zip(&dh[0]).zip(&dh[1]) {
            *b += white + black;
        }
        for &f in features {
            let f = usize::from(f);
            for (view, idx) in [(0, f), (1, black_view(f))] {
                let row = &mut grad.w1[idx * HIDDEN..(idx + 1) * HIDDEN];
                for (gw, d) in row.iter_mut().zip(&dh[view]) {
                    *gw += d;
                }
            }
        }
        err * err
    }

    fn add(&mut self, other: &FloatNet) {
        for (a, b) in self.w1.iter_mut().zip(&other.w1) {
            *a += b;
        }
        for (a, b) in self.b1.iter_mut().zip(&other.b1) {
            *a += b;
        }
        for (a, b) in self.w2.iter_mut().zip(&other.w2) {
            *a += b;
        }
        self.b2 += other.b2;
    }

    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.w1.iter_mut().chain(self.b1.iter_mut()).chain(self.w2.iter_mut()).chain(std::iter::once(&mut self.b2))
    }

    /// For each of [`FloatNet::params_mut`] in turn: a weight (decayed), or a bias (not).
    fn is_weight() -> impl Iterator<Item = bool> {
        let run = |n, weight| std::iter::repeat_n(weight, n);
        run(ROWS * HIDDEN, true).chain(run(HIDDEN, false)).chain(run(2 * HIDDEN, true)).chain(run(1, false))
    }

    /// The engine's integer network: hidden weights times `QA`, output weights times `QB`, the
    /// output bias times `QA * QB` (the sums the engine clips at `QA` stand for 1.0); the
    /// dice-aware inputs' rows if `mobility`.
    pub fn quantise(&self, variant: &str, mobility: bool) -> Network {
        let mut net = Network::zeros_with(variant, mobility);
        let q = |v: f32, scale: i32| (v * scale as f32).round().clamp(-32767.0, 32767.0) as i16;
        for (f, row) in net.rows_mut().enumerate() {
            for (i, w) in row.iter_mut().enumerate() {
                *w = q(self.w1[f * HIDDEN + i], QA);
            }
        }
        for (i, b) in net.feature_bias.iter_mut().enumerate() {
            *b = q(self.b1[i], QA);
        }
        for (slot, row) in net.output_weights.iter_mut().enumerate() {
            for (i, w) in row.iter_mut().enumerate() {
                *w = q(self.w2[slot * HIDDEN + i], QB);
            }
        }
        net.output_bias = (self.b2 * (QA * QB) as f32).round() as i32;
        net
    }
}

/// What a training run found.
pub struct Trained {
    /// The network of the epoch with the lowest validation loss (the last, without validation).
    pub net: Network,
    /// Per epoch: (training loss, validation loss); the first entry is before any training.
    pub history: Vec<(f64, f64)>,
    pub best_epoch: usize,
}

fn mean_loss(net: &FloatNet, prepared: &Prepared, records: &[Record], k: f32, threads: usize) -> f64 {
    if records.is_empty() {
        return 0.0;
    }
    let chunk = records.len().div_ceil(threads.max(1));
    let total: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = records
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|r| {
                            let (out, _) = net.forward(&prepared.features[r.features.clone()], r.black_to_move);
                            f64::from((expected(k, r.base + out * SCALE as f32) - r.target).powi(2))
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a loss thread")).sum()
    });
    total / records.len() as f64
}

/// Trains a network for `variant` on `prepared`, keeping the epoch that predicts the held-out
/// games best; `on_epoch(epoch, train loss, validation loss)` follows the progress,
/// the training loss of an epoch is the mean over its steps (of each position as it was met).
pub fn train(
    prepared: &Prepared,
    variant: &str,
    config: &TrainConfig,
    on_epoch: &mut dyn FnMut(usize, f64, f64),
) -> Trained {
    let k = config.result_scale;
    let threads = config.threads.max(1);
    let mut net = config.start.as_ref().map_or_else(|| FloatNet::new(config.seed), FloatNet::from_network);
    let (mut m, mut v) = (FloatNet::zeros(), FloatNet::zeros());
    let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let decay = config.weight_decay;
    let mut step = 0i32;
    let mut order: Vec<usize> = (0..prepared.train.len()).collect();
    let mut state = config.seed | 1;
    let mut history = vec![(
        mean_loss(&net, prepared, &prepared.train, k, threads),
        mean_loss(&net, prepared, &prepared.valid, k, threads),
    )];
    on_epoch(0, history[0].0, history[0].1);
    let mut best = (0, history[0].1, net.clone());
    for epoch in 1..=config.epochs {
        // A new order each epoch (Fisher-Yates with xorshift).
        for i in (1..order.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            order.swap(i, (state % (i as u64 + 1)) as usize);
        }
        // The learning rate falls to a tenth over the run.
        let lr = config.learning_rate * (0.1f32).powf((epoch - 1) as f32 / config.epochs.max(2) as f32);
        let mut train_loss = 0.0;
        for batch in order.chunks(config.batch.max(1)) {
            let chunk = batch.len().div_ceil(threads);
            let mut grads: Vec<(FloatNet, f64)> = std::thread::scope(|scope| {
                let net = &net;
                let handles: Vec<_> = batch
                    .chunks(chunk)
                    .map(|part| {
                        scope.spawn(move || {
                            let mut grad = FloatNet::zeros();
                            let mut loss = 0.0;
                            for &i in part {
                                let r = &prepared.train[i];
                                loss +=
                                    f64::from(net.backward(r, &prepared.features[r.features.clone()], k, &mut grad));
                            }
                            (grad, loss)
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().expect("a training thread")).collect()
            });
            let (mut grad, loss) = grads.pop().expect("a batch has positions");
            train_loss += loss;
            for (g, loss) in &grads {
                grad.add(g);
                train_loss += loss;
            }
            let scale = 1.0 / batch.len() as f32;
            step += 1;
            let (c1, c2) = (1.0 - beta1.powi(step), 1.0 - beta2.powi(step));
            let params = net.params_mut().zip(grad.params_mut()).zip(m.params_mut()).zip(v.params_mut());
            for ((((p, g), m), v), weight) in params.zip(FloatNet::is_weight()) {
                let g = *g * scale;
                *m = beta1 * *m + (1.0 - beta1) * g;
                *v = beta2 * *v + (1.0 - beta2) * g * g;
                let decay = if weight { decay * *p } else { 0.0 };
                *p -= lr * ((*m / c1) / ((*v / c2).sqrt() + eps) + decay);
            }
        }
        let losses =
            (train_loss / prepared.train.len().max(1) as f64, mean_loss(&net, prepared, &prepared.valid, k, threads));
        history.push(losses);
        on_epoch(epoch, losses.0, losses.1);
        if prepared.valid.is_empty() || losses.1 < best.1 {
            best = (epoch, losses.1, net.clone());
        }
    }
    // The epoch that predicted the held-out games best (epoch 0: the tables alone, or the
    // network it started from).
    Trained { net: best.2.quantise(variant, config.mobility), history, best_epoch: best.0 }
}

/// The training and validation loss per epoch as an SVG plot.
pub fn loss_plot(history: &[(f64, f64)], title: &str, path: &std::path::Path) -> Result<(), String> {
    use plotters::prelude::*;
    let err = |e: &dyn std::fmt::Display| format!("plot: {e}");
    let hi = history.iter().flat_map(|&(a, b)| [a, b]).fold(0.0f64, f64::max) * 1.05;
    let lo = history.iter().flat_map(|&(a, b)| [a, b]).fold(f64::MAX, f64::min) * 0.95;
    let root = SVGBackend::new(path, (900, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(32)
        .y_label_area_size(64)
        .build_cartesian_2d(0f64..(history.len().max(2) - 1) as f64, lo..hi.max(lo + 1e-9))
        .map_err(|e| err(&e))?;
    chart.configure_mesh().x_desc("epoch").y_desc("mean squared error").draw().map_err(|e| err(&e))?;
    for (n, (label, colour)) in [("training", BLUE), ("validation (held-out games)", RED)].into_iter().enumerate() {
        let points = history.iter().enumerate().map(|(e, l)| (e as f64, if n == 0 { l.0 } else { l.1 }));
        chart
            .draw_series(LineSeries::new(points, colour))
            .map_err(|e| err(&e))?
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw().map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datafile::SamplePosition;
    use alea_engine::Board;

    #[test]
    fn black_view_matches_the_engine_s_inputs() {
        for (color, role, sq) in
            [(Color::White, alea_engine::Role::Knight, 1), (Color::Black, alea_engine::Role::Queen, 59)]
        {
            let white = feature(Color::White, color, role, sq);
            assert_eq!(black_view(white), feature(Color::Black, color, role, sq));
        }
        // The dice-aware inputs: each bit lands where the engine's view of it is.
        for bit in 0..MOBILITY_INPUTS {
            let black = alea_engine::eval::nnue::mobility_in(Color::Black, 1 << bit).trailing_zeros() as usize;
            assert_eq!(black_view(INPUTS + bit), INPUTS + black, "bit {bit}");
        }
    }

    #[test]
    fn the_float_network_and_its_quantised_form_agree() {
        for mobility in [false, true] {
            float_and_quantised_agree(mobility);
        }
    }

    fn float_and_quantised_agree(mobility: bool) {
        // Weights on the integers' grid, so that quantising loses nothing and the two
        // arithmetics must agree (to the engine's rounding down of centipawns).
        let mut net = FloatNet::new(3);
        net.w2.iter_mut().enumerate().for_each(|(i, w)| *w = (i % 11) as f32 * 0.02 - 0.1);
        let snap = |v: &mut f32, scale: i32| *v = (*v * scale as f32).round() / scale as f32;
        net.w1.iter_mut().chain(net.b1.iter_mut()).for_each(|w| snap(w, QA));
        net.w2.iter_mut().for_each(|w| {
            *w *= 10.0;
            snap(w, QB)
        });
        let board = Board::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4").unwrap();
        let position = SamplePosition::Board(board.clone());
        let s = Sample { position, white_score: 1.0, score: None, ply: 0, game: 0 };
        let prepared = prepare(&[(1, &s)], &TrainConfig { mobility, ..TrainConfig::default() }, &|_| 0);
        let q = net.quantise("freedom", mobility);
        assert_eq!(q.mobility_weights.is_some(), mobility);
        // The position, and its mirror image (the trainer's second copy of it).
        let mirrored = Board::from_fen("r1bkqb1r/ppp1pppp/2n2n2/3p4/3P1B2/2N5/PPP1PPPP/R2KQBNR b - - 4 4").unwrap();
        for (r, board) in prepared.train.iter().zip([&board, &mirrored]) {
            let (out, _) = net.forward(&prepared.features[r.features.clone()], r.black_to_move);
            let cp = q.evaluate_board(board);
            let float = f64::from(out) * f64::from(SCALE);
            assert!((f64::from(cp) - float).abs() < 1.01, "{cp} against {float}");
        }
        assert_eq!(prepared.train.len(), 2);
    }

    /// A network read back into floating point quantises to itself, so a run that starts from it
    /// starts where it plays; without dice-aware inputs it gains them at zero, which changes no
    /// score.
    #[test]
    fn a_network_to_start_from_quantises_to_itself() {
        let mut net = FloatNet::new(7);
        net.w2.iter_mut().enumerate().for_each(|(i, w)| *w = (i % 13) as f32 * 0.03 - 0.2);
        net.b2 = 0.37;
        for mobility in [false, true] {
            let q = net.quantise("freedom", mobility);
            assert_eq!(FloatNet::from_network(&q).quantise("freedom", mobility), q);
        }
        let plain = net.quantise("freedom", false);
        let gained = FloatNet::from_network(&plain).quantise("freedom", true);
        assert!(gained.mobility_weights.as_ref().is_some_and(|rows| rows.iter().flatten().all(|&w| w == 0)));
        let board = Board::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4").unwrap();
        assert_eq!(gained.evaluate_board(&board), plain.evaluate_board(&board));
        assert_ne!(plain.evaluate_board(&board), 0, "a position the network scores");
    }

    /// Weight decay pulls the weights toward zero (the tables alone) and leaves the biases be:
    /// the same data, seed and steps with and without it.
    #[test]
    fn weight_decay_shrinks_the_weights_toward_the_tables() {
        let fens = [
            "4k3/8/8/3q4/8/8/3PPP2/4K3 w - - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4",
            "8/5k2/8/8/3R4/8/5K2/8 w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        ];
        let samples: Vec<Sample> = fens
            .iter()
            .enumerate()
            .map(|(i, fen)| Sample {
                position: SamplePosition::Board(Board::from_fen(fen).unwrap()),
                white_score: if i % 2 == 0 { 1.0 } else { 0.0 },
                score: Some(if i % 2 == 0 { 300 } else { -300 }),
                ply: 0,
                game: i as u64,
            })
            .collect();
        let indexed: Vec<(u64, &Sample)> = samples.iter().map(|s| (s.game + 1, s)).collect();
        let trained = |weight_decay: f32| {
            let config = TrainConfig { epochs: 20, batch: 2, validation: 0, weight_decay, ..TrainConfig::default() };
            let prepared = prepare(&indexed, &config, &|_| 0);
            train(&prepared, "freedom", &config, &mut |_, _, _| {}).net
        };
        let (free, decayed) = (trained(0.0), trained(100.0));
        let squares = |rows: &mut dyn Iterator<Item = &i16>| rows.map(|&w| i64::from(w) * i64::from(w)).sum::<i64>();
        let norm = |n: &Network| {
            (squares(&mut n.feature_weights.iter().flatten()), squares(&mut n.output_weights.iter().flatten()))
        };
        let ((w1_free, w2_free), (w1_decayed, w2_decayed)) = (norm(&free), norm(&decayed));
        assert!(w1_decayed < w1_free / 2, "hidden weights {w1_decayed} against {w1_free}");
        assert!(w2_decayed < w2_free, "output weights {w2_decayed} against {w2_free}");
        assert!(w2_decayed > 0, "the network still learns");
        // The biases start alike and are not decayed: they move by their gradients alone.
        let bias_sum = |n: &Network| n.feature_bias.iter().map(|&b| i64::from(b)).sum::<i64>();
        assert!(bias_sum(&decayed) > bias_sum(&free) / 2, "{} against {}", bias_sum(&decayed), bias_sum(&free));
    }

    #[test]
    fn the_gradient_is_the_slope_of_the_loss() {
        let board = Board::from_fen("4k3/8/8/3q4/8/8/3PPP2/4K3 w - - 0 1").unwrap();
        let s = Sample { position: SamplePosition::Board(board), white_score: 0.0, score: Some(-250), ply: 0, game: 0 };
        let config = TrainConfig::default();
        // The tables say -180 for White here; the network learns the rest.
        let prepared = prepare(&[(1, &s)], &config, &|_| -180);
        let r = prepared.train[0].clone();
        let feats = &prepared.features[r.features.clone()];
        let mut net = FloatNet::new(5);
        net.w2.iter_mut().enumerate().for_each(|(i, w)| *w = (i % 7) as f32 * 0.05 - 0.15);
        let mut grad = FloatNet::zeros();
        net.backward(&r, feats, config.result_scale, &mut grad);
        let loss = |n: &FloatNet| {
            let (out, _) = n.forward(feats, r.black_to_move);
            (expected(config.result_scale, r.base + out * SCALE as f32) - r.target).powi(2)
        };
        // An output weight, a hidden bias and an input weight of a piece on the board.
        let f = usize::from(feats[0]);
        for (name, index) in [("w2", 7usize), ("b1", 3), ("w1", f * HIDDEN + 5)] {
            let mut plus = net.clone();
            let mut minus = net.clone();
            let h = 1e-3;
            let (p, m, g) = match name {
                "w2" => (&mut plus.w2[index], &mut minus.w2[index], grad.w2[index]),
                "b1" => (&mut plus.b1[index], &mut minus.b1[index], grad.b1[index]),
                _ => (&mut plus.w1[index], &mut minus.w1[index], grad.w1[index]),
            };
            *p += h;
            *m -= h;
            let numeric = (loss(&plus) - loss(&minus)) / (2.0 * h);
            assert!((numeric - g).abs() < 1e-3 + 0.05 * g.abs(), "{name}: {numeric} against {g}");
        }
    }
}
