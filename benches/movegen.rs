//! Our perft against shakmaty's on the same positions, in one run. Both make every leaf
//! (shakmaty's own `perft` counts the last ply without playing it, so it is not used here).

use alea_engine::Board;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use shakmaty::{CastlingMode, Chess, Position};
use std::hint::black_box;

const POSITIONS: [(&str, &str, u32); 4] = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4),
    ("promotions", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3),
];

fn shakmaty_perft(pos: &Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    for m in pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        nodes += if depth == 1 { 1 } else { shakmaty_perft(&child, depth - 1) };
    }
    nodes
}

fn perft_vs_shakmaty(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(20);
    for (name, fen, depth) in POSITIONS {
        let ours = Board::from_fen(fen).unwrap();
        let setup: shakmaty::fen::Fen = fen.parse().unwrap();
        let theirs: Chess = setup.into_position(CastlingMode::Standard).unwrap();
        assert_eq!(alea_engine::board::perft::perft(&ours, depth), shakmaty_perft(&theirs, depth));
        group.bench_with_input(BenchmarkId::new("alea", name), &depth, |b, &d| {
            b.iter(|| alea_engine::board::perft::perft(black_box(&ours), d))
        });
        group.bench_with_input(BenchmarkId::new("shakmaty", name), &depth, |b, &d| {
            b.iter(|| shakmaty_perft(black_box(&theirs), d))
        });
    }
    group.finish();
}

criterion_group!(benches, perft_vs_shakmaty);
criterion_main!(benches);
