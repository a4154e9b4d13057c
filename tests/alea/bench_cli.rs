//! `alea bench` through the binary: each variant's rules bring its suite, any variant name picks
//! suites, and the node count identifies the search (the same on every run and machine).

fn bench(args: &[&str]) -> (bool, String, String) {
    let out = crate::common::alea().arg("bench").args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

fn nodes(stdout: &str) -> u64 {
    let words: Vec<&str> = stdout.trim().split(' ').collect();
    assert_eq!((words.len(), words[1], words[3]), (4, "nodes", "nps"), "{stdout}");
    words[0].parse().unwrap()
}

#[test]
fn suites_by_variant_name_add_up_to_the_default() {
    let (ok, stdout, stderr) = bench(&["1", "--variant", "dicechess3"]);
    assert!(ok, "{stderr}");
    // 32,413 before the roots of the outcome table were searched through the table (the same
    // values and turns); 7,893 before the tables were fitted again on deeper games.
    assert_eq!(nodes(&stdout), 7904, "{stderr}");
    assert_eq!(stderr.lines().filter(|l| l.starts_with("dicechess3 ")).count(), 8, "{stderr}");
    // The default is every variant's suite at its own depth; picked one by one they add up.
    let (ok, all, _) = bench(&[]);
    assert!(ok);
    // Die Chess is played from its solution: no suite, and naming it says so.
    let (ok, _, err) = bench(&["--variant", "diechess"]);
    assert!(!ok && err.contains("exact solution"), "{err}");
    let parts: u64 = alea_engine::services::registry::Variant::ALL
        .iter()
        .filter(|v| !v.row().bench.cases.is_empty())
        .map(|v| {
            let v = v.name();
            let (ok, out, err) = bench(&["--variant", v]);
            assert!(ok, "{err}");
            nodes(&out)
        })
        .sum();
    assert_eq!(nodes(&all), parts);
    let (ok, stdout, stderr) = bench(&["--variant", "checkers"]);
    assert!(!ok && stdout.is_empty() && stderr.contains("unknown variant 'checkers'"), "{stderr}");
}
