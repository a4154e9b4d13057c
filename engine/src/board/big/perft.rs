//! Perft on a big board: the number of move sequences of a given length, every move pseudo-legal
//! and the dice ignored (what the move generator alone is checked by). A position where a side has
//! lost its last king ends the sequence.

use super::board::BigBoard;
use super::movegen::{BigMove, BigMoveList};
use std::sync::atomic::{AtomicBool, Ordering};

/// Leaves `depth` plies below `board`.
pub fn perft(board: &BigBoard, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = BigMoveList::new();
    board.moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|&m| perft(&board.play(m), depth - 1)).sum()
}

/// `go perft`: each root move's count handed to `counted` as it is finished; false when `stop`
/// was raised before the last (the count stops between root moves).
pub fn divide_until(board: &BigBoard, depth: u32, stop: &AtomicBool, mut counted: impl FnMut(BigMove, u64)) -> bool {
    let mut moves = BigMoveList::new();
    board.moves(&mut moves);
    for m in moves {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        counted(m, perft(&board.play(m), depth.saturating_sub(1)));
    }
    true
}
