//! `alea selfplay` through the binary: the summary, games written as they end, a run resumed
//! without playing its games again, and refused input.

use crate::common::alea;

fn selfplay(args: &[&str]) -> (bool, String, String) {
    let out = alea().arg("selfplay").args(args).output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn games_are_written_as_they_end_and_a_run_is_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.txt");
    let path = file.to_str().unwrap();
    let settings = ["--variant", "gollon2", "--random-plies", "2", "--max-plies", "40", "--threads", "2"];
    let (ok, stdout, stderr) = selfplay(&[&settings[..], &["--games", "3", "--out", path]].concat());
    assert!(ok, "{stderr}");
    assert!(stdout.contains("gollon2 self-play, 3 games") && stdout.contains("White wins"), "{stdout}");
    let first = std::fs::read_to_string(&file).unwrap();
    assert_eq!(first.lines().count(), 4, "{first}");
    // Two more: the three kept, not played again; the same games as one run of five.
    let (ok, stdout, stderr) = selfplay(&[&settings[..], &["--games", "5", "--out", path]].concat());
    assert!(ok && stderr.contains("3 games of 5 already in the file; 2 to play"), "{stderr}");
    assert!(stdout.contains("5 games"), "{stdout}");
    let whole = dir.path().join("whole.txt");
    assert!(selfplay(&[&settings[..], &["--games", "5", "--out", whole.to_str().unwrap()]].concat()).0);
    let sorted = |text: String| {
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        lines.sort();
        lines
    };
    assert_eq!(sorted(std::fs::read_to_string(&file).unwrap()), sorted(std::fs::read_to_string(&whole).unwrap()));
    // A line cut off mid-write is played again; a damaged line elsewhere is refused.
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, &text[..text.len() - 5]).unwrap();
    let (ok, _, stderr) = selfplay(&[&settings[..], &["--games", "5", "--out", path]].concat());
    assert!(ok && stderr.contains("4 games of 5 already"), "{stderr}");
    std::fs::write(&file, text.replacen(" plies ", " plys ", 1)).unwrap();
    let (ok, _, stderr) = selfplay(&[&settings[..], &["--games", "5", "--out", path]].concat());
    assert!(!ok && stderr.contains("line 2"), "{stderr}");
    // Games of other settings are not mixed in.
    std::fs::write(&file, &text).unwrap();
    let (ok, _, stderr) = selfplay(&["--variant", "gollon", "--games", "5", "--out", path]);
    assert!(!ok && stderr.contains("other settings"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text, "a refused run changes nothing");
}

#[test]
fn bad_settings_are_refused() {
    for args in [&["--games", "0"][..], &["--threads", "0"], &["--depth", "0"], &["--variant", "chess"]] {
        let (ok, stdout, stderr) = selfplay(args);
        assert!(!ok && stdout.is_empty() && !stderr.is_empty(), "{args:?}");
    }
}
