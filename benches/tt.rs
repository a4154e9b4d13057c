//! The search's lockless table against a DashMap-based one with the same probe/store contract,
//! at 1 and 2 threads: a mix like the search's (three probes a store) over random keys in a
//! table of 16 MiB.

use alea_engine::search::tt::{NO_TURN, TranspositionTable};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use dashmap::DashMap;
use std::hint::black_box;

const OPS: u64 = 200_000;

/// A table keyed by the full hash in a concurrent map, bounded like ours by dropping entries
/// when full (what an engine would have to do with a map).
struct DashTable {
    map: DashMap<u64, (i32, i32, i32, u16)>,
    capacity: usize,
}

impl DashTable {
    fn new(mib: usize) -> DashTable {
        let capacity = mib * 1024 * 1024 / 32;
        DashTable { map: DashMap::with_capacity(capacity), capacity }
    }

    fn probe(&self, key: u64) -> Option<(i32, i32, i32, u16)> {
        self.map.get(&key).map(|e| *e)
    }

    fn store(&self, key: u64, depth: i32, lower: i32, upper: i32, best: u16) {
        if self.map.len() >= self.capacity && !self.map.contains_key(&key) {
            return;
        }
        self.map
            .entry(key)
            .and_modify(|e| {
                if depth >= e.0 {
                    *e = (depth, lower, upper, best);
                }
            })
            .or_insert((depth, lower, upper, best));
    }
}

fn keys(seed: u64) -> impl Iterator<Item = u64> {
    let mut x = seed;
    std::iter::repeat_with(move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    })
}

fn work_ours(tt: &TranspositionTable, seed: u64) {
    for (i, key) in keys(seed).take(OPS as usize).enumerate() {
        // Keys repeat: a quarter of the probes look up a recent key.
        let k = if i % 4 == 0 { key } else { key & !0xff };
        if i % 4 == 3 {
            tt.store(k, (i % 8) as i32, -10, 10, NO_TURN);
        } else {
            black_box(tt.probe(k));
        }
    }
}

fn work_dash(tt: &DashTable, seed: u64) {
    for (i, key) in keys(seed).take(OPS as usize).enumerate() {
        let k = if i % 4 == 0 { key } else { key & !0xff };
        if i % 4 == 3 {
            tt.store(k, (i % 8) as i32, -10, 10, NO_TURN);
        } else {
            black_box(tt.probe(k));
        }
    }
}

fn tables(c: &mut Criterion) {
    let mut group = c.benchmark_group("tt");
    group.sample_size(20);
    let ours = &TranspositionTable::new(16);
    let dash = &DashTable::new(16);
    for threads in [1u64, 2] {
        group.throughput(Throughput::Elements(OPS * threads));
        group.bench_with_input(BenchmarkId::new("lockless", threads), &threads, |b, &t| {
            b.iter(|| std::thread::scope(|s| (0..t).for_each(|i| drop(s.spawn(move || work_ours(ours, 0x9e37 + i))))))
        });
        group.bench_with_input(BenchmarkId::new("dashmap", threads), &threads, |b, &t| {
            b.iter(|| std::thread::scope(|s| (0..t).for_each(|i| drop(s.spawn(move || work_dash(dash, 0x9e37 + i))))))
        });
    }
    group.finish();
}

criterion_group!(benches, tables);
criterion_main!(benches);
