//! Examples that cannot rot: every `alea` command in a fenced code block of README.md and of the
//! guides in docs/, and every Python block (python-chess driving `alea`), is run here against the
//! built binary, the commands of a block in order in a
//! scratch folder of their own (so a block may make the files its later commands read). The
//! journal (docs/journal/) is the record of what was run with the builds of its day, and is not
//! run.
//!
//! Counts that would make a run long (games, pairs, epochs, a rollout's games, the solver's
//! precision) are cut to a few, so the whole check takes seconds. Where a block shows a command
//! with its output (`$ alea ...` and the lines after it), a command run as shown (nothing cut)
//! must print each shown line in order; a line holding `...` stands for lines left out.

use crate::common::cache_home;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One command of a block, where it is written, and the output it is shown with.
struct Example {
    at: String,
    command: String,
    shown: Vec<String>,
}

/// The documents whose examples are run: the README and each guide in docs/.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut docs = vec![root.join("README.md")];
    let mut guides: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    guides.sort();
    docs.extend(guides);
    docs
}

/// The command a line holds (`alea ...`, `$ alea ...`, `cargo run --release -- ...`), as `alea ...`.
fn command_of(line: &str) -> Option<String> {
    let line = line.trim_start().trim_start_matches("$ ");
    if let Some(rest) = line.strip_prefix("cargo run --release -- ") {
        return Some(format!("alea {rest}"));
    }
    line.starts_with("alea ").then(|| line.to_string())
}

/// The shell text without a trailing comment (` # ...` outside quotes).
fn without_comment(text: &str) -> &str {
    let mut quote = None;
    for (i, c) in text.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '#') if text[..i].ends_with(' ') => return text[..i].trim_end(),
            _ => {}
        }
    }
    text.trim_end()
}

/// Each fenced block's examples, in order.
fn blocks(path: &Path, root: &Path) -> Vec<Vec<Example>> {
    let text = std::fs::read_to_string(path).unwrap();
    let name = path.strip_prefix(root).unwrap().display().to_string();
    let mut found = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((_, line)) = lines.next() {
        if !line.starts_with("```") {
            continue;
        }
        let mut block: Vec<Example> = Vec::new();
        let mut shows = false;
        while let Some((n, line)) = lines.next() {
            if line.starts_with("```") {
                break;
            }
            match command_of(line) {
                Some(mut command) => {
                    shows |= line.trim_start().starts_with("$ ");
                    // A command continued over lines with `\`.
                    while command.ends_with('\\') {
                        command.pop();
                        let (_, next) = lines.next().expect("a continued line");
                        command.push_str(next.trim_start());
                    }
                    block.push(Example {
                        at: format!("{name}:{}", n + 1),
                        command: without_comment(&command).to_string(),
                        shown: Vec::new(),
                    });
                }
                None if line.trim_start().starts_with("$ ") => {}
                None => {
                    if let Some(last) = block.last_mut()
                        && !line.contains("...")
                        && !line.trim().is_empty()
                    {
                        last.shown.push(line.to_string());
                    }
                }
            }
        }
        // Only a `$ alea` block shows output; a block of commands alone shows none.
        if !shows {
            block.iter_mut().for_each(|e| e.shown.clear());
        }
        if !block.is_empty() {
            found.push(block);
        }
    }
    found
}

/// The command with its long counts cut to a few; and whether anything was cut.
fn cut(command: &str) -> (String, bool) {
    const FEW: [(&str, u64); 7] = [
        ("--games", 4),
        ("--pairs", 1),
        ("--epochs", 2),
        ("--rollout", 8),
        ("--self-play", 10),
        ("--positions", 3),
        ("--concurrency", 1),
    ];
    let mut words: Vec<String> = command.split(' ').map(str::to_string).collect();
    let mut changed = false;
    for i in 0..words.len().saturating_sub(1) {
        if let Some(&(_, few)) = FEW.iter().find(|(flag, _)| *flag == words[i])
            && let Ok(n) = words[i + 1].parse::<u64>()
            && n > few
        {
            words[i + 1] = few.to_string();
            changed = true;
        }
    }
    let mut text = words.join(" ");
    if text.starts_with("alea solve ") && !text.contains("--tolerance") && !text.contains("--table") {
        text.push_str(" --tolerance 0.001");
        changed = true;
    }
    (text, changed)
}

/// Files a block reads that no command of the docs makes: a match's shards.
fn prepare(dir: &Path, command: &str, alea: &Path) {
    if command.contains("results/shard-*.pgn") {
        std::fs::create_dir_all(dir.join("results")).unwrap();
        for shard in 0..2 {
            let out = Command::new(alea)
                .current_dir(dir)
                .env("XDG_CACHE_HOME", cache_home())
                .args(["match", "--engine", "builtin=greedy", "--engine", "builtin=random", "--pairs", "4"])
                .args(["--shard", &format!("{shard}/2"), "--pgn", &format!("results/shard-{shard}.pgn")])
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        }
    }
}

#[test]
fn every_alea_command_in_the_readme_and_the_guides_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let alea = PathBuf::from(env!("CARGO_BIN_EXE_alea"));
    let path = format!("{}:{}", alea.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    let mut ran = 0;
    for doc in documents(root) {
        for block in blocks(&doc, root) {
            let dir = tempfile::tempdir().unwrap();
            for example in block {
                let (command, changed) = cut(&example.command);
                prepare(dir.path(), &command, &alea);
                let out = Command::new("sh")
                    .args(["-c", &command])
                    .current_dir(dir.path())
                    .env("PATH", &path)
                    .env("XDG_CACHE_HOME", cache_home())
                    .output()
                    .unwrap();
                let stdout = String::from_utf8_lossy(&out.stdout);
                let stderr = String::from_utf8_lossy(&out.stderr);
                assert!(out.status.success(), "{}: `{command}` failed:\n{stderr}", example.at);
                if !changed {
                    let mut printed = stdout.lines();
                    for shown in &example.shown {
                        assert!(
                            printed.any(|l| l.trim_end() == shown.trim_end()),
                            "{}: `{command}` does not print, in order, the shown line\n{shown}\nIt printed:\n{stdout}",
                            example.at
                        );
                    }
                }
                ran += 1;
            }
        }
    }
    assert!(ran >= 10, "only {ran} examples found: the extraction is broken");
}

/// The Python blocks of the README and the guides: python-chess playing `alea` from the PATH.
#[test]
fn every_python_example_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let alea = PathBuf::from(env!("CARGO_BIN_EXE_alea"));
    let path = format!("{}:{}", alea.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    let mut ran = 0;
    for doc in documents(root) {
        let text = std::fs::read_to_string(&doc).unwrap();
        for (i, part) in text.split("```python\n").enumerate().skip(1) {
            let code = part.split("```").next().unwrap();
            let out = Command::new("python3")
                .args(["-c", code])
                .env("PATH", &path)
                .env("XDG_CACHE_HOME", cache_home())
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{} (Python block {i}) failed:\n{}",
                doc.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            ran += 1;
        }
    }
    assert!(ran >= 2, "the README and docs/protocol.md each show one");
}

#[test]
fn the_extraction_reads_continued_lines_comments_and_shown_output() {
    let dir = tempfile::tempdir().unwrap();
    let doc = dir.path().join("x.md");
    std::fs::write(
        &doc,
        "```text\n$ alea perft 2 \\\n  --variant classic   # two plies\n...\nNodes searched: 400\n```\n\
         ```sh\ncargo run --release -- bench --variant 'freedom'\n```\n",
    )
    .unwrap();
    let found = blocks(&doc, dir.path());
    assert_eq!(found.len(), 2);
    assert_eq!(found[0][0].command, "alea perft 2 --variant classic");
    assert_eq!(found[0][0].shown, ["Nodes searched: 400"]);
    assert_eq!(found[0][0].at, "x.md:2");
    assert_eq!(found[1][0].command, "alea bench --variant 'freedom'");
    assert_eq!(cut("alea match --pairs 100 --games 3"), ("alea match --pairs 1 --games 3".to_string(), true));
    assert_eq!(cut("alea advise --depth 3"), ("alea advise --depth 3".to_string(), false));
}
