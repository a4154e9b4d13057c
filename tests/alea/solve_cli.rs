//! `alea solve` through the binary: Die Chess solved to a loose tolerance writes a table the
//! engine reads back; anything else is refused.

use std::process::Command;

fn alea() -> Command {
    crate::common::alea()
}

#[test]
fn solve_writes_a_table_the_engine_reads() {
    let scratch = tempfile::Builder::new().prefix("alea-solve-").tempdir().unwrap();
    let dir = scratch.path();
    let path = dir.join("diechess.table");
    let out =
        alea().args(["solve", "diechess", "--tolerance", "1e-3", "--out", path.to_str().unwrap()]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("start: White scores 0.5"), "{text}");
    assert!(text.contains("907200 states"), "{text}");
    let table = alea_engine::services::registry::read_solution(&path).unwrap();
    assert!(table.last_change() <= 1e-3);
    assert!(!dir.join("diechess.part").exists());
    // Read back, and the search measured against it at depth 1, with a plot.
    let plot = dir.join("loss.svg");
    let out = alea()
        .args(["solve", "diechess", "--table", path.to_str().unwrap(), "--search-depths", "1", "--positions", "3"])
        .args(["--plot", plot.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("read from") && text.contains("| 1 | "), "{text}");
    assert!(std::fs::read_to_string(&plot).unwrap().starts_with("<svg"));
}

#[test]
fn solve_refuses_other_games_and_bad_settings() {
    for args in [
        &["solve", "freedom"][..],
        &["solve", "chess"],
        &["solve", "diechess", "--tolerance", "0"],
        &["solve", "diechess", "--threads", "0"],
        &["solve", "diechess", "--search-depths", "0"],
        &["solve", "diechess", "--table", "/nonexistent/diechess.table"],
    ] {
        let out = alea().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}
