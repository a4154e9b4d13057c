//! The `alea` binary's tests, in one test binary (one link instead of one a file): the
//! subcommands, the protocol as a GUI drives it, the web server, python-chess as a client, and
//! (ignored: `cargo test --test alea web_browser -- --ignored`) the page in headless Chromium.

mod advise;
mod analyse;
mod bench_cli;
mod bot;
mod cli_conventions;
mod common;
mod doc_examples;
mod match_cli;
mod perft_cli;
mod play;
mod protocol;
mod protocol_brainking10;
mod protocol_burmese;
mod protocol_dicechess3;
mod protocol_diechess;
mod protocol_every_variant;
mod protocol_gollon;
mod protocol_gollon2;
mod protocol_grand;
mod protocol_vegas;
mod python_client;
mod selfplay_cli;
mod shards;
mod solve_cli;
mod tune_cli;
mod web_browser;
mod web_http;
