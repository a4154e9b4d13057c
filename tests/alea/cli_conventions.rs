//! What a command-line tool is expected to have: `--version` with the commit, shell completions,
//! a manual page, and the variant list the docs carry.

use crate::common::alea;

fn stdout_of(args: &[&str]) -> String {
    let out = alea().args(args).output().unwrap();
    assert!(out.status.success(), "alea {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_version_names_the_commit() {
    let version = stdout_of(&["--version"]);
    let commit = version.trim().strip_prefix(concat!("alea ", env!("CARGO_PKG_VERSION"), " (commit ")).unwrap();
    let hash = commit.strip_suffix(')').unwrap();
    assert!(hash == "unknown" || (hash.len() >= 7 && hash.chars().all(|c| c.is_ascii_hexdigit())), "{version}");
}

#[test]
fn completions_know_the_subcommands_and_refuse_an_unknown_shell() {
    for shell in ["bash", "zsh", "fish"] {
        let script = stdout_of(&["completions", shell]);
        for sub in ["advise", "match", "serve", "variants"] {
            assert!(script.contains(sub), "{shell} completions lack {sub}");
        }
    }
    let out = alea().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_manual_page_is_roff_with_each_subcommands_options() {
    let page = stdout_of(&["man"]);
    assert!(page.contains(".TH alea 1"), "{}", &page[..200.min(page.len())]);
    for section in ["ALEA ADVISE", "ALEA MATCH", "ALEA SERVE"] {
        assert!(page.contains(&format!(".SH \"{section}\"")) || page.contains(&format!(".SH {section}")), "{section}");
    }
    assert!(page.contains("\\-\\-variant"), "the options are there");
}

/// The variant list of README.md and docs/variants.md is the registry's, as `alea variants
/// --markdown` prints it: a variant added or renamed without the docs fails here.
#[test]
fn the_docs_list_the_registrys_variants() {
    let table = stdout_of(&["variants", "--markdown"]);
    assert_eq!(table.lines().count(), 2 + alea_engine::services::registry::Variant::ALL.len());
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for doc in ["README.md", "docs/variants.md"] {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        assert!(text.contains(&table), "{doc} does not carry `alea variants --markdown`'s table:\n{table}");
    }
    let lines = stdout_of(&["variants"]);
    assert_eq!(lines.lines().count(), alea_engine::services::registry::Variant::ALL.len());
    assert!(lines.lines().next().unwrap().starts_with("freedom ") && lines.contains("(default)"), "{lines}");
}
