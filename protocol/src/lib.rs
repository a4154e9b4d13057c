//! Alea's text protocol: UCI extended for dice (docs/protocol.md). Input is read on its own
//! thread so that `isready` and `stop` are answered while a search runs on another.

pub mod command;
pub mod engine_loop;
pub mod go;
pub mod options;
pub mod output;
pub mod reply;
pub mod session;

pub use engine_loop::run;
pub use output::Output;
