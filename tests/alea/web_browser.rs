//! The page in a real browser: headless Chromium driven by playwright-core (tests/browser/e2e.mjs)
//! plays a freedom game by clicks and by keyboard, has an illegal move refused, downloads the PGN,
//! and saves screenshots (desktop and a 375 px phone) to target/browser-screenshots.
//!
//! Needs Debian's chromium and `npm ci` in tests/browser, so it is not in the default run:
//! `cargo test --release --test alea web_browser -- --ignored` (.ci/run installs both and runs it).

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

#[test]
#[ignore = "needs chromium and tests/browser/node_modules; run by .ci/run"]
fn the_page_plays_in_headless_chromium() {
    let root = env!("CARGO_MANIFEST_DIR");
    let browser_dir = format!("{root}/tests/browser");
    assert!(
        std::path::Path::new(&format!("{browser_dir}/node_modules/playwright-core")).exists(),
        "run `npm ci` in tests/browser first"
    );
    let games = tempfile::Builder::new().prefix("alea-web-games-").tempdir().unwrap();
    let mut server = crate::common::alea()
        .args(["serve", "--port", "0", "--games", games.path().to_str().unwrap()])
        .stdout(Stdio::piped())
        .spawn()
        .expect("alea serve starts");
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.trim().strip_prefix("listening on ").expect("the address line").to_string();
    let shots = format!("{root}/target/browser-screenshots");
    let status = Command::new("node").arg(format!("{browser_dir}/e2e.mjs")).arg(&url).arg(&shots).status();
    let _ = server.kill();
    let _ = server.wait();
    let status = status.expect("node runs");
    assert!(status.success(), "the browser test failed; screenshots in {shots}");
    for shot in ["desktop.png", "phone.png", "phone-keyboard.png"] {
        assert!(std::path::Path::new(&format!("{shots}/{shot}")).exists(), "{shot}");
    }
}
