//! Perft: counting legal move paths, the standard check of a move generator. Dice are ignored:
//! these are chess's legal moves, so the numbers compare with published tables.

use crate::board::Board;
use crate::board::chessmove::Move;
use crate::board::movegen::{Legality, MoveList, generate};
use crate::board::piece::RoleSet;
use std::sync::atomic::{AtomicBool, Ordering};

/// Each legal move with the position after it, in generation order.
#[inline]
fn children(board: &Board) -> impl Iterator<Item = (Move, Board)> + '_ {
    let mut list = MoveList::new();
    generate(board, RoleSet::ALL, Legality::Legal, &mut list);
    list.into_iter().map(move |m| {
        let mut child = board.clone();
        child.play(m);
        (m, child)
    })
}

/// Leaves of the legal move tree `depth` plies deep; every leaf is made (no bulk counting), so
/// it measures make-move as well as generation.
pub fn perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    // The hot loop written out: through `children` it measured up to 4 % slower (noisy runs).
    let mut list = MoveList::new();
    generate(board, RoleSet::ALL, Legality::Legal, &mut list);
    let mut nodes = 0;
    for &m in &list {
        let mut child = board.clone();
        child.play(m);
        nodes += if depth == 1 { 1 } else { perft(&child, depth - 1) };
    }
    nodes
}

/// Perft split by root move, in generation order (what `go perft` prints).
pub fn perft_divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    children(board).map(|(m, child)| (m, if depth <= 1 { 1 } else { perft(&child, depth - 1) })).collect()
}

/// [`perft_divide`] that hands over each root move's count as it is finished and gives up as soon
/// as `stop` is set (`go perft` runs beside the command loop, and `stop` must end it). Returns
/// whether every root move was counted.
pub fn perft_divide_until(board: &Board, depth: u32, stop: &AtomicBool, mut counted: impl FnMut(Move, u64)) -> bool {
    for (m, child) in children(board) {
        match perft_until(&child, depth.saturating_sub(1), stop) {
            Some(n) => counted(m, n),
            None => return false,
        }
    }
    true
}

/// Below this depth a subtree is counted in one go: small enough to end within milliseconds.
const UNSTOPPABLE_DEPTH: u32 = 3;

fn perft_until(board: &Board, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth <= UNSTOPPABLE_DEPTH {
        return Some(perft(board, depth));
    }
    children(board).map(|(_, child)| perft_until(&child, depth - 1, stop)).sum()
}
