//! A search thread's count of nodes: added to the search's shared count every so often, when the
//! clock and the node limit are looked at too.

use super::Shared;
use crate::search::timeman::TimeBudget;
use std::sync::atomic::Ordering;

/// Nodes between two looks at the clock.
const CLOCK_INTERVAL: u64 = 1024;

pub(crate) struct Visits<'a> {
    shared: &'a Shared,
    pub(crate) budget: TimeBudget,
    pub(crate) node_limit: Option<u64>,
    /// Nodes counted here and not yet added to the shared count.
    local: u64,
    /// The deepest ply visited.
    pub(crate) seldepth: usize,
}

impl<'a> Visits<'a> {
    pub(crate) fn new(shared: &'a Shared, budget: TimeBudget, node_limit: Option<u64>) -> Visits<'a> {
        Visits { shared, budget, node_limit, local: 0, seldepth: 0 }
    }

    /// Counts a node `ply` turns from the root; `false` once the search is to stop (out of time,
    /// at the node limit, or stopped from outside).
    #[inline]
    pub(crate) fn visit(&mut self, ply: usize) -> bool {
        self.local += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.local >= CLOCK_INTERVAL {
            let total = self.shared.nodes.fetch_add(self.local, Ordering::Relaxed) + self.local;
            self.local = 0;
            if self.budget.out_of_time() || self.node_limit.is_some_and(|n| total >= n) {
                self.shared.end_search();
            }
        }
        !self.shared.halted()
    }

    /// Adds the nodes not yet counted to the shared count.
    pub(crate) fn flush(&mut self) {
        self.shared.nodes.fetch_add(self.local, Ordering::Relaxed);
        self.local = 0;
    }
}
