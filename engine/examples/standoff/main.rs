//! Freedom's stand-off, tabled: each position's chance that White wins by the closed form, cut
//! after the 10 rolls a search 9 turns deep sees, and the search's expected result for White
//! (`(1 + value) / 2`) at depth 7 and 9, plain and as the engine plays (reductions on). The
//! positions and the closed form are those the tests check (`engine/tests/engine/standoff.rs`);
//! docs/journal/ keeps a run's table.
//!
//! `cargo run --release -p alea-engine --example standoff` (about a minute on two cores)

mod positions;

use positions::{STAND_OFFS, formula, game, searched, truncated};

fn main() {
    println!("| p_w | p_b | formula P(W) | cut after 10 rolls | depth 7 | depth 9 | depth 9, as played |");
    println!("|---|---|---|---|---|---|---|");
    for s in &STAND_OFFS {
        let g = game(s.fen);
        let (p_w, p_b) = (s.white_faces as f64 / 6.0, s.black_faces as f64 / 6.0);
        let score = |v: f64| (1.0 + v) / 2.0;
        let (d7, _) = searched(&g, 7, false);
        let (d9, _) = searched(&g, 9, false);
        let (played, _) = searched(&g, 9, true);
        println!(
            "| {}/6 | {}/6 | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} |",
            s.white_faces,
            s.black_faces,
            score(formula(p_w, p_b)),
            score(truncated(p_w, p_b, 10)),
            score(d7),
            score(d9),
            score(played)
        );
    }
}
