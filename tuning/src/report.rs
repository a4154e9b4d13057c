//! `alea tune report`: what self-play says about each variant (who wins, how often draws, how
//! long games last, how Freedom is used) and what the fit says the pieces are worth, as Markdown
//! with SVG plots of the values and of the fit's convergence.

use crate::datagen::GameSummary;
use alea_engine::Role;
use alea_engine::eval::params::EvalParams;
use plotters::prelude::*;
use std::fmt::Write;
use std::path::Path;

/// One variant's data and fit.
pub struct ReportInput {
    /// The variant's name.
    pub variant: String,
    /// The values the fit started from (the documents').
    pub start: EvalParams,
    pub games: Vec<GameSummary>,
    /// Quiet positions in its data.
    pub samples: usize,
    pub fitted: Option<EvalParams>,
    /// The fit's loss per epoch (may be empty).
    pub history: Vec<f64>,
    /// How often a piece of each role stood in a quiet position of each phase (0..=24): what
    /// blends the middlegame and endgame values into one average value.
    pub phases: [[u64; 25]; 6],
}

impl ReportInput {
    /// Counts the pieces of each role by the phase of their position.
    pub fn count_phases(samples: &[crate::datagen::Sample]) -> [[u64; 25]; 6] {
        let mut phases = [[0u64; 25]; 6];
        for board in samples.iter().filter_map(|s| s.board()) {
            let phase = alea_engine::eval::params::game_phase(board) as usize;
            for role in Role::ALL {
                phases[role.index()][phase] += u64::from(board.by_role(role).count());
            }
        }
        phases
    }

    /// A role's value averaged over where it stood: middlegame and endgame values blended by the
    /// phase of each position it was in.
    pub fn average_value(&self, params: &EvalParams, role: Role) -> Option<f64> {
        let r = role.index();
        let n: u64 = self.phases[r].iter().sum();
        if n == 0 {
            return None;
        }
        let total: f64 = self.phases[r]
            .iter()
            .enumerate()
            .map(|(phase, &c)| {
                let p = phase as f64 / 24.0;
                c as f64 * (f64::from(params.material[0][r]) * p + f64::from(params.material[1][r]) * (1.0 - p))
            })
            .sum();
        Some(total / n as f64)
    }
}

/// A share with its 95 % Wilson interval, in percent.
pub fn wilson(hits: f64, n: f64) -> (f64, f64, f64) {
    if n == 0.0 {
        return (0.0, 0.0, 0.0);
    }
    let z = 1.959_964f64;
    let p = hits / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / denom;
    (100.0 * p, 100.0 * (centre - half).max(0.0), 100.0 * (centre + half).min(1.0))
}

fn share(hits: usize, n: usize) -> String {
    let (p, lo, hi) = wilson(hits as f64, n as f64);
    format!("{p:.2} % [{lo:.2}, {hi:.2}]")
}

/// Writes report.md and the plots into `dir`; returns the Markdown.
pub fn write_report(inputs: &[ReportInput], dir: &Path) -> Result<String, String> {
    let mut md = String::from("# Self-play report\n\n");
    md.push_str(
        "Shares with 95 % (Wilson) intervals. First-move advantage: White's score (wins + half the draws) \
         minus 50 %.\n\n",
    );
    md.push_str(
        "| variant | games | White wins | Black wins | draws | White's edge | plies per game | moves without rolling per game |\n",
    );
    md.push_str("|---|---:|---|---|---|---:|---:|---:|\n");
    for input in inputs {
        let n = input.games.len();
        let white = input.games.iter().filter(|g| g.white_score == 1.0).count();
        let black = input.games.iter().filter(|g| g.white_score == 0.0).count();
        let draws = n - white - black;
        let score: f64 = input.games.iter().map(|g| g.white_score).sum();
        let edge = if n > 0 { 100.0 * (score / n as f64 - 0.5) } else { 0.0 };
        let plies = input.games.iter().map(|g| f64::from(g.plies)).sum::<f64>() / n.max(1) as f64;
        let pre_roll =
            input.games.iter().map(|g| f64::from(g.pre_roll[0] + g.pre_roll[1])).sum::<f64>() / n.max(1) as f64;
        writeln!(
            md,
            "| {} | {n} | {} | {} | {} | {edge:+.2} % | {plies:.1} | {pre_roll:.2} |",
            input.variant,
            share(white, n),
            share(black, n),
            share(draws, n)
        )
        .unwrap();
    }
    for input in inputs {
        variant_section(&mut md, input, dir)?;
    }
    if inputs.iter().any(|i| i.fitted.is_some()) {
        values_plot(inputs, &dir.join("values.svg"))?;
        md.push_str("\n## Piece values\n\n![Fitted piece values against the starting ones](values.svg)\n");
    }
    if inputs.iter().any(|i| i.history.len() > 1) {
        convergence_plot(inputs, &dir.join("convergence.svg"))?;
        md.push_str("\n## Convergence of the fit\n\n![Loss per epoch](convergence.svg)\n");
    }
    std::fs::write(dir.join("report.md"), &md).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(md)
}

fn variant_section(md: &mut String, input: &ReportInput, _dir: &Path) -> Result<(), String> {
    let n = input.games.len();
    writeln!(md, "\n## {}\n", input.variant).unwrap();
    writeln!(md, "{n} games, {} quiet positions.\n", input.samples).unwrap();
    let mut reasons: Vec<(String, usize)> = Vec::new();
    for g in &input.games {
        match reasons.iter_mut().find(|(r, _)| *r == g.reason) {
            Some((_, c)) => *c += 1,
            None => reasons.push((g.reason.clone(), 1)),
        }
    }
    reasons.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    md.push_str("How games ended: ");
    let parts: Vec<String> =
        reasons.iter().map(|(r, c)| format!("{r} {:.1} %", 100.0 * *c as f64 / n.max(1) as f64)).collect();
    md.push_str(&parts.join(", "));
    md.push_str(".\n\n");
    let mut lengths: Vec<u32> = input.games.iter().map(|g| g.plies).collect();
    lengths.sort_unstable();
    if let (Some(first), Some(last)) = (lengths.first(), lengths.last()) {
        writeln!(md, "Game length: median {} plies, shortest {first}, longest {last}.\n", lengths[lengths.len() / 2])
            .unwrap();
    }
    let used: u32 = input.games.iter().map(|g| g.pre_roll[0] + g.pre_roll[1]).sum();
    if used > 0 {
        let kinds = input.games.iter().fold([0u32; 3], |mut acc, g| {
            for (a, k) in acc.iter_mut().zip(g.kinds) {
                *a += k;
            }
            acc
        });
        let white: u32 = input.games.iter().map(|g| g.pre_roll[0]).sum();
        writeln!(
            md,
            "Moves without rolling: {used} in all ({:.2} a game; White {white}, Black {}), of which (a move may be \
             several) recaptures {:.1} %, out of check {:.1} %, checks {:.1} %.\n",
            f64::from(used) / n.max(1) as f64,
            used - white,
            100.0 * f64::from(kinds[0]) / f64::from(used),
            100.0 * f64::from(kinds[1]) / f64::from(used),
            100.0 * f64::from(kinds[2]) / f64::from(used)
        )
        .unwrap();
    }
    if let Some(fitted) = &input.fitted {
        let start = &input.start;
        md.push_str(
            "| piece | starting (documents) | fitted, middlegame | fitted, endgame | fitted, average | average in pawns (start) |\n",
        );
        md.push_str("|---|---:|---:|---:|---:|---:|\n");
        let pawn = input.average_value(fitted, Role::Pawn).unwrap_or(100.0).max(1.0);
        for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            let r = role.index();
            let average = input.average_value(fitted, role);
            writeln!(
                md,
                "| {} | {} | {} | {} | {} | {} ({:.2}) |",
                role.char().to_ascii_uppercase(),
                start.material[0][r],
                fitted.material[0][r],
                fitted.material[1][r],
                average.map_or("-".into(), |a| format!("{a:.0}")),
                average.map_or("-".into(), |a| format!("{:.2}", a / pawn)),
                f64::from(start.material[0][r]) / f64::from(start.material[0][0])
            )
            .unwrap();
        }
        md.push_str(
            "\nThe average blends each piece's middlegame and endgame values by the phase of the quiet \
             positions it stood in. Values are on the fit's scale (its logistic scale K is fitted to the \
             starting values first), so compare them in pawns.\n",
        );
    }
    Ok(())
}

fn plot_error(e: impl std::fmt::Display) -> String {
    format!("plot: {e}")
}

/// Grouped bars per piece: the starting value and the fitted middlegame and endgame values of
/// each variant, in pawns of that table.
fn values_plot(inputs: &[ReportInput], path: &Path) -> Result<(), String> {
    let roles = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
    let mut series: Vec<(String, [f64; 4])> = Vec::new();
    for input in inputs {
        let Some(fitted) = &input.fitted else { continue };
        let start = &input.start;
        let in_pawns = |table: &[i32; 6]| roles.map(|r| f64::from(table[r.index()]) / f64::from(table[0].max(1)));
        let pawn = input.average_value(fitted, Role::Pawn).unwrap_or(100.0).max(1.0);
        let average = roles.map(|r| input.average_value(fitted, r).unwrap_or(0.0) / pawn);
        series.push((format!("{} start", input.variant), in_pawns(&start.material[0])));
        series.push((format!("{} fitted (average)", input.variant), average));
    }
    let top = series.iter().flat_map(|(_, v)| v.iter().copied()).fold(1.0f64, f64::max) * 1.15;
    let root = SVGBackend::new(path, (900, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(plot_error)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("Piece values in pawns: starting and fitted (phase-averaged)", ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(32)
        .y_label_area_size(44)
        .build_cartesian_2d(0f64..4f64, -0.08 * top..top)
        .map_err(plot_error)?;
    chart.configure_mesh().disable_x_mesh().x_labels(0).y_desc("pawns").draw().map_err(plot_error)?;
    // The pieces' names under their groups of bars.
    for (i, name) in ["knight", "bishop", "rook", "queen"].into_iter().enumerate() {
        chart
            .draw_series(std::iter::once(Text::new(
                name.to_string(),
                (i as f64 + 0.45, -0.02 * top),
                ("sans-serif", 15).into_font(),
            )))
            .map_err(plot_error)?;
    }
    let width = 0.8 / series.len().max(1) as f64;
    for (s, (label, values)) in series.iter().enumerate() {
        let colour = Palette99::pick(s).to_rgba();
        let bars = values.iter().enumerate().map(move |(i, &v)| {
            let x0 = i as f64 + 0.1 + s as f64 * width;
            Rectangle::new([(x0, 0.0), (x0 + width * 0.9, v)], colour.filled())
        });
        chart
            .draw_series(bars)
            .map_err(plot_error)?
            .label(label.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(plot_error)?;
    root.present().map_err(plot_error)
}

/// The loss per epoch of each variant's fit.
fn convergence_plot(inputs: &[ReportInput], path: &Path) -> Result<(), String> {
    let fits: Vec<&ReportInput> = inputs.iter().filter(|i| i.history.len() > 1).collect();
    // Each fit's loss as a share of where it started, so fits of different variants compare.
    let relative: Vec<Vec<f64>> =
        fits.iter().map(|i| i.history.iter().map(|l| 100.0 * l / i.history[0].max(1e-12)).collect()).collect();
    let epochs = relative.iter().map(Vec::len).max().unwrap_or(1) as f64;
    let lo = relative.iter().flatten().copied().fold(f64::MAX, f64::min);
    let pad = ((100.0 - lo) * 0.05).max(0.01);
    let root = SVGBackend::new(path, (900, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(plot_error)?;
    let mut chart = ChartBuilder::on(&root)
        .caption("Fit: mean squared error per epoch, % of the starting values' error", ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(32)
        .y_label_area_size(64)
        .build_cartesian_2d(0f64..epochs, (lo - pad)..(100.0 + pad))
        .map_err(plot_error)?;
    chart.configure_mesh().x_desc("epoch").y_desc("% of the starting error").draw().map_err(plot_error)?;
    for (s, (input, curve)) in fits.iter().zip(&relative).enumerate() {
        let colour = Palette99::pick(s).to_rgba();
        chart
            .draw_series(LineSeries::new(curve.iter().enumerate().map(|(e, &l)| (e as f64, l)), colour))
            .map_err(plot_error)?
            .label(input.variant.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw().map_err(plot_error)?;
    root.present().map_err(plot_error)
}

/// A solved game (`title`): what the search gives up against the exact values, by depth, as
/// an SVG plot.
pub fn search_loss_plot(
    title: &str,
    losses: &[alea_engine::services::solution::SearchLoss],
    path: &Path,
) -> Result<(), String> {
    let hi = losses.iter().flat_map(|l| [l.before_roll, l.after_roll]).fold(1e-6f64, f64::max) * 1.1;
    let (first, last) =
        (losses.iter().map(|l| l.depth).min().unwrap_or(1), losses.iter().map(|l| l.depth).max().unwrap_or(1));
    let root = SVGBackend::new(path, (900, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(plot_error)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(format!("{title}: exact value the search gives up, by depth"), ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(32)
        .y_label_area_size(64)
        .build_cartesian_2d(f64::from(first) - 0.2..f64::from(last) + 0.2, 0f64..hi)
        .map_err(plot_error)?;
    chart
        .configure_mesh()
        .x_desc("depth (turns)")
        .y_desc("mean loss (win + draw/2)")
        .x_labels((last - first + 1) as usize)
        .draw()
        .map_err(plot_error)?;
    for (n, (label, colour)) in [("before the roll", BLUE), ("after a roll", RED)].into_iter().enumerate() {
        let points: Vec<(f64, f64)> =
            losses.iter().map(|l| (f64::from(l.depth), if n == 0 { l.before_roll } else { l.after_roll })).collect();
        chart
            .draw_series(LineSeries::new(points.clone(), colour))
            .map_err(plot_error)?
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
        chart.draw_series(points.into_iter().map(|p| Circle::new(p, 4, colour.filled()))).map_err(plot_error)?;
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw().map_err(plot_error)?;
    root.present().map_err(plot_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_a_hand_computed_case() {
        // 52 of 100: p = 0.52, Wilson 95 % interval [0.4231, 0.6153].
        let (p, lo, hi) = wilson(52.0, 100.0);
        assert!((p - 52.0).abs() < 1e-9);
        assert!((lo - 42.31).abs() < 0.01, "{lo}");
        assert!((hi - 61.53).abs() < 0.01, "{hi}");
    }
}
