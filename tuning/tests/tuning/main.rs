//! The tuning crate's integration tests, in one test binary: matches and their files, data,
//! the fit and the trainer.

mod matches;
mod tuning;
