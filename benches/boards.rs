//! The big board beside the 8x8 one: the same search of BrainKing's rules from the start, before
//! the roll, on the 10x10 mailbox board (`brainking10`) and on the 8x8 bitboards (`brainking`).
//! Each group's throughput is its search's node count, so criterion prints nodes a second, and
//! the two groups, measured in one run, give the ratio (the README quotes it).

use alea_engine::board::big::BigBoard;
use alea_engine::eval::StaticEval;
use alea_engine::eval::big::BigEval;
use alea_engine::rules::{BrainKing10, ChessKind, ChessRules, Position, Rules};
use alea_engine::search::timeman::Limits;
use alea_engine::search::{self, Root, SearchInput, SearchOptions, Shared};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// Turns deep: long enough for the search's mix of nodes, short enough for criterion's samples.
const DEPTH: u32 = 5;

fn search_nodes<R, E>(rules: &R, eval: &E, position: &R::Position) -> u64
where
    R: Rules + Sync,
    R::Position: Send + Sync,
    R::Turn: Send + Sync,
    E: alea_engine::eval::Evaluator<R>,
{
    let input = SearchInput {
        rules,
        eval,
        position,
        root: Root::PreRoll,
        history: &[],
        limits: Limits { depth: Some(DEPTH), ..Limits::default() },
        options: SearchOptions::default(),
    };
    search::search(&input, &Shared::new(8), &mut |_| {}).nodes
}

fn big_beside_small(c: &mut Criterion) {
    let big_rules = BrainKing10;
    let big_eval = BigEval::from_params(&alea_engine::services::registry::Variant::BrainKing10.default_eval());
    let big: BigBoard = BrainKing10.start();
    let small_rules = ChessRules::new(ChessKind::BrainKing, false);
    let small_eval =
        StaticEval::new(alea_engine::services::registry::Variant::of_kind(ChessKind::BrainKing).default_eval());
    let small = Position::new(alea_engine::Board::startpos());

    let mut group = c.benchmark_group(format!("brainking start, before the roll, depth {DEPTH}"));
    group.sample_size(10);
    group.throughput(Throughput::Elements(search_nodes(&big_rules, &big_eval, &big)));
    group.bench_function("10x10 board (brainking10)", |b| b.iter(|| search_nodes(&big_rules, &big_eval, &big)));
    group.throughput(Throughput::Elements(search_nodes(&small_rules, &small_eval, &small)));
    group.bench_function("8x8 board (brainking)", |b| b.iter(|| search_nodes(&small_rules, &small_eval, &small)));
    group.finish();
}

criterion_group!(benches, big_beside_small);
criterion_main!(benches);
