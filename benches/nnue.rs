//! The learned evaluation's cost per position as the search meets positions: every child of a
//! middlegame evaluated in turn (siblings a few pieces apart, each updated from the last), and
//! one position from scratch for comparison.

use alea_engine::Board;
use alea_engine::RoleSet;
use alea_engine::board::movegen::{Legality, MoveList, generate};
use alea_engine::services::registry::Variant;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

const MIDDLEGAMES: [&str; 3] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 8",
    "r2q1rk1/ppp2ppp/2npbn2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 8",
];

fn children() -> Vec<Board> {
    let mut boards = Vec::new();
    for fen in MIDDLEGAMES {
        let board = Board::from_fen(fen).unwrap();
        let mut list = MoveList::new();
        generate(&board, RoleSet::ALL, Legality::Legal, &mut list);
        for &m in list.iter() {
            let mut child = board.clone();
            child.play(m);
            boards.push(child);
        }
    }
    boards
}

fn network(c: &mut Criterion) {
    let net = Variant::Freedom.network().expect("freedom has a network");
    let boards = children();
    let mut group = c.benchmark_group("network");
    group.bench_function(format!("{} children in turn, incremental", boards.len()), |b| {
        b.iter(|| boards.iter().map(|board| net.evaluate_incremental(black_box(board))).sum::<i32>())
    });
    group.bench_function(format!("{} children, from scratch", boards.len()), |b| {
        b.iter(|| boards.iter().map(|board| net.evaluate_board(black_box(board))).sum::<i32>())
    });
    group.finish();
}

criterion_group!(benches, network);
criterion_main!(benches);
