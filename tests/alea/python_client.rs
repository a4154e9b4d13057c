//! python-chess, a real UCI client, plays 20 freedom games and 5 Chess960 ones against Alea with
//! EngineRolls on (tests/python/selfplay.py). Needs `pip install chess` (CI installs it).

use std::process::Command;

#[test]
fn python_chess_plays_complete_freedom_games() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/selfplay.py");
    let out = Command::new("python3")
        .args([script, env!("CARGO_BIN_EXE_alea"), "20", "5"])
        .output()
        .expect("python3 runs (install Python 3 and `pip install chess`)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "selfplay failed (is python-chess installed? `pip install chess`)\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("25 passed, 0 failed"), "{stdout}");
}
