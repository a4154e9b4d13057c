//! Perft on a big board: the number of move sequences of a given length, every move pseudo-legal
//! and the dice ignored (what the move generator alone is checked by). A position where a side has
//! lost its last king ends the sequence.

use super::board::BigBoard;
use super::movegen::BigMoveList;

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
