//! The deep stack a search runs on. Every node keeps its move lists on the stack (about 30 KiB a
//! turn; 128 turns and the horizon fit with room to spare), so a search runs on a thread of its
//! own with a 64 MiB stack. A caller that searches many times over (a rollout's thousands of
//! short searches) may instead run its own work on such a thread: a search started there with
//! no helper threads runs on it, rather than making a thread, and its stack, each time.

use std::cell::Cell;
use std::thread::{Builder, Scope, ScopedJoinHandle};

const STACK_BYTES: usize = 64 << 20;

thread_local! {
    static DEEP: Cell<bool> = const { Cell::new(false) };
}

/// Spawns a scoped thread with a search's deep stack; searches started on it run on it.
pub fn spawn_deep<'scope, T: Send + 'scope>(
    scope: &'scope Scope<'scope, '_>,
    name: String,
    f: impl FnOnce() -> T + Send + 'scope,
) -> std::io::Result<ScopedJoinHandle<'scope, T>> {
    Builder::new().name(name).stack_size(STACK_BYTES).spawn_scoped(scope, move || {
        DEEP.set(true);
        f()
    })
}

/// Is this thread one [`spawn_deep`] made?
fn on_deep_stack() -> bool {
    DEEP.get()
}

/// Runs a search: `main`, whose answer is the search's, beside `helpers` threads each running
/// `helper(i)` (`i` from 1), all on deep stacks. With no helper, on a thread that has a deep
/// stack already, `main` runs right here. A helper the system will not give is simply not there:
/// fewer threads, the same result.
pub(crate) fn run_search<T: Send>(helpers: usize, helper: impl Fn(usize) + Sync, main: impl FnOnce() -> T + Send) -> T {
    if helpers == 0 && on_deep_stack() {
        return main();
    }
    std::thread::scope(|scope| {
        let helper = &helper;
        let spawned: Vec<_> =
            (1..=helpers).filter_map(|i| spawn_deep(scope, format!("search-{i}"), move || helper(i)).ok()).collect();
        let result = spawn_deep(scope, "search-main".into(), main)
            .expect("spawn the main search thread")
            .join()
            .expect("the main search thread");
        for h in spawned {
            let _ = h.join();
        }
        result
    })
}
