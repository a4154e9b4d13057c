//! The game solved exactly, as `alea solve` shows it: the solution's table (solved, read,
//! installed as the one the engine plays from), a decision read from it, and the measures of a
//! search against it (games played from the table, positions the table finds close, the loss of
//! a search of a given depth).

pub use crate::search::solve::{
    DieDecision as Decision, DiePosition as Position, DieTable as Table, POSSIBLE, SearchLoss, install_table,
    search_loss, self_play, undecided_positions,
};
