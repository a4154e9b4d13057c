//! Turns of several micro-moves (dicechess3): listing the first micro-moves a three-dice roll
//! allows under the maximum rule (what the search and a GUI ask at each decision), from a
//! cache that has seen nothing (the cost of a position met for the first time) and from one
//! that has (the search's usual case); and the search's leaf value, which weighs all 56 outcomes.

use alea_engine::board::values::PieceValues;
use alea_engine::eval::StaticEval;
use alea_engine::rules::micro::{MicroRules, PlanCache, StepList, allowed_steps};
use alea_engine::rules::{DiceChess3, Roll};
use alea_engine::search::equity::Equity;
use alea_engine::search::micro::{HorizonDice, horizon_value};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

const POSITIONS: [(&str, &str, [u8; 3]); 3] = [
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", [1, 2, 3]),
    ("queen's gambit", "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 8", [2, 4, 5]),
    ("giuoco piano", "r2q1rk1/ppp2ppp/2npbn2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 8", [1, 3, 5]),
];

fn first_micro_moves(c: &mut Criterion) {
    let mut group = c.benchmark_group("first micro-moves, maximum rule");
    for (name, dfen, faces) in POSITIONS {
        let pos = DiceChess3.rolled(&DiceChess3.parse_dfen(dfen).unwrap(), &Roll::new(&faces).unwrap());
        let mut steps = StepList::new();
        group.bench_function(format!("{name} {faces:?}, new cache"), |b| {
            b.iter(|| {
                let mut cache = PlanCache::new(10);
                allowed_steps(&DiceChess3, black_box(&pos), &mut cache, &mut steps);
                steps.len()
            })
        });
        let mut cache = PlanCache::default();
        group.bench_function(format!("{name} {faces:?}, warm cache"), |b| {
            b.iter(|| {
                allowed_steps(&DiceChess3, black_box(&pos), &mut cache, &mut steps);
                steps.len()
            })
        });
    }
    group.finish();
}

fn horizon(c: &mut Criterion) {
    let eval = StaticEval::material(PieceValues([100, 300, 300, 500, 900, 0]));
    let equity = Equity::new(eval.params.result_scale);
    let mut group = c.benchmark_group("horizon, 56 outcomes");
    for (name, dfen, _) in POSITIONS {
        let pos = DiceChess3.parse_dfen(dfen).unwrap();
        let dice = HorizonDice::new(&DiceChess3, &DiceChess3.outcomes(&pos));
        group
            .bench_function(name, |b| b.iter(|| horizon_value(&DiceChess3, &eval, &equity, black_box(&pos), 0, &dice)));
    }
    group.finish();
}

criterion_group!(benches, first_micro_moves, horizon);
criterion_main!(benches);
