//! The engine's integration tests, in one test binary: move generation and perft against
//! shakmaty and published counts, the rules against the conformance files, the searches against
//! a plain expectiminimax, PGN, rollouts, networks. The slow ones are ignored, each with the
//! command that runs it (`cargo test --release -p alea-engine --test engine NAME -- --ignored`).

mod big_movegen;
mod brainking10_search;
mod conformance;
mod conformance_micro;
mod diechess_prepare;
mod diechess_search;
mod gollon2_rules;
mod grand_rules;
mod micro_search;
mod nnue;
mod one_move_exact;
mod perft;
mod pgn;
mod pgn_garbled;
mod reference;
mod rollout;
mod rules;
mod search;
mod standoff;
