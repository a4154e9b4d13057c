//! The layers' rule, checked on the source: a module of one layer names (through `crate::`
//! paths, the crate root's re-exports included) only its own layer and those below it
//! (docs/architecture.md). Comments and `#[cfg(test)]` modules are left out: a unit test may
//! build what it checks from anything.
//!
//! [`KNOWN_UPWARD`] lists the upward edges that are still to go, each as (file, layer named).
//! A new upward edge fails the check, and so does a listed one that is gone, so the list only
//! shrinks and always tells the truth.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, bottom up.
const LAYERS: [&str; 5] = ["board", "rules", "eval", "search", "services"];

/// Upward edges not yet removed: (file under `src/`, the higher layer it names). None are left;
/// the list stays so that a step of a later redesign that must go through an upward edge for a
/// while says so here, in one place.
const KNOWN_UPWARD: &[(&str, &str)] = &[];

fn layer_index(name: &str) -> Option<usize> {
    LAYERS.iter().position(|&l| l == name)
}

/// The source without comments (line, block and doc comments) and without the contents of its
/// string literals (raw strings too), which are not paths.
fn strip_comments(text: &str) -> String {
    strip(text, false)
}

/// The source without comments, its string literals kept (a variant's name may be in one).
fn strip_comments_only(text: &str) -> String {
    strip(text, true)
}

fn strip(text: &str, keep_strings: bool) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let ident = |k: usize| k > 0 && (bytes[k - 1].is_ascii_alphanumeric() || bytes[k - 1] == b'_');
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
        } else if c == b'r' && !ident(i) && matches!(bytes.get(i + 1), Some(b'"' | b'#')) {
            // A raw string: r"...", r#"..."#, closed by a quote and as many hashes.
            let hashes = bytes[i + 1..].iter().take_while(|&&b| b == b'#').count();
            let open = i + 1 + hashes;
            if bytes.get(open) != Some(&b'"') {
                out.push('r');
                i += 1;
                continue;
            }
            let close = format!("\"{}", "#".repeat(hashes));
            let end = text[open + 1..].find(&close).map_or(text.len(), |k| open + 1 + k + close.len());
            out.push_str(if keep_strings { &text[i..end] } else { "\"\"" });
            i = end;
        } else if c == b'"' {
            let start = i;
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(bytes.len());
            out.push_str(if keep_strings { &text[start..i] } else { "\"\"" });
        } else if c == b'\'' && bytes.get(i + 2) == Some(&b'\'') {
            // A character literal such as '"' (a lifetime has no closing quote two on).
            out.push_str("' '");
            i += 3;
        } else if c == b'\'' && bytes.get(i + 1) == Some(&b'\\') {
            // An escaped character literal: '\'', '\\', '\n', '\u{..}'.
            let end = text[i + 2..].find('\'').map_or(text.len(), |k| i + 2 + k + 1);
            let end = if bytes.get(i + 2) == Some(&b'\'') { i + 4 } else { end };
            out.push_str("' '");
            i = end;
        } else {
            out.push(c as char);
            i += 1;
        }
    }
    out
}

/// The source without its `#[cfg(test)]` items (a `mod tests { ... }` or a single item).
fn strip_tests(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        // The item ends at its first `;` before any `{`, or at the `}` closing its first `{`.
        let (semi, brace) = (after.find(';'), after.find('{'));
        let end = match (semi, brace) {
            (Some(s), Some(b)) if s < b => s + 1,
            (_, Some(b)) => {
                let mut depth = 0;
                let mut end = after.len();
                for (k, ch) in after[b..].char_indices() {
                    match ch {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = b + k + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            (Some(s), None) => s + 1,
            (None, None) => after.len(),
        };
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The names the crate root re-exports, each with the layer it comes from.
fn root_exports(lib: &str) -> BTreeMap<String, usize> {
    let mut map = BTreeMap::new();
    for line in lib.lines() {
        let Some(path) = line.trim().strip_prefix("pub use ").and_then(|p| p.strip_suffix(';')) else { continue };
        let layer = layer_index(path.split("::").next().unwrap_or("")).expect("a re-export from a layer");
        let names = match path.rfind("::{") {
            Some(k) => path[k + 3..].trim_end_matches('}').split(',').map(|n| n.trim().to_string()).collect(),
            None => vec![path.rsplit("::").next().unwrap_or("").to_string()],
        };
        for name in names.into_iter().filter(|n| !n.is_empty()) {
            map.insert(name, layer);
        }
    }
    map
}

/// Every layer a source names through `crate::`, with the path's first segment.
fn named_layers(code: &str, exports: &BTreeMap<String, usize>) -> BTreeSet<(usize, String)> {
    let mut found = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let segment: String =
            code[at + "crate::".len()..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        let layer = layer_index(&segment).or_else(|| exports.get(&segment).copied());
        match layer {
            Some(l) => {
                found.insert((l, segment));
            }
            None => panic!("crate::{segment} names no layer and no re-export of the crate root"),
        }
    }
    found
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every upward edge of the crate's non-test code: (file under `src/`, the higher layer named).
fn upward_edges() -> BTreeSet<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let exports = root_exports(&std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs"));
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut edges = BTreeSet::new();
    for file in files {
        let rel = file.strip_prefix(&src).expect("under src").to_string_lossy().replace('\\', "/");
        let Some(own) = layer_index(rel.split('/').next().unwrap_or("")) else {
            assert!(rel == "lib.rs" || rel == "layers.rs", "{rel} is in no layer: every module belongs to one");
            continue;
        };
        let code = strip_tests(&strip_comments(&std::fs::read_to_string(&file).expect("a source file")));
        for (layer, _) in named_layers(&code, &exports) {
            if layer > own {
                edges.insert((rel.clone(), LAYERS[layer].to_string()));
            }
        }
    }
    edges
}

#[test]
fn no_module_names_a_layer_above_its_own() {
    let found = upward_edges();
    let known: BTreeSet<(String, String)> = KNOWN_UPWARD.iter().map(|&(f, l)| (f.to_string(), l.to_string())).collect();
    let new: Vec<_> = found.difference(&known).collect();
    let gone: Vec<_> = known.difference(&found).collect();
    assert!(new.is_empty(), "upward edges (file, layer named) that break the layers: {new:?}");
    assert!(gone.is_empty(), "edges listed in KNOWN_UPWARD that are gone: take them off the list: {gone:?}");
}

#[test]
fn the_check_sees_an_upward_edge_and_ignores_comments_and_tests() {
    let exports = root_exports("pub use board::{Board, Move};\npub use rules::game::Game;\n");
    let code = "use crate::board::Board;\n// crate::services::x\n/// [`crate::search::WIN`]\n\
                fn f() -> crate::Game { let s = \"crate::eval\"; let r = r#\"crate::search\"#; let q = '\"'; }\n\
                #[cfg(test)]\nmod tests { use crate::services::bench; }\n";
    let layers: BTreeSet<usize> =
        named_layers(&strip_tests(&strip_comments(code)), &exports).into_iter().map(|(l, _)| l).collect();
    assert_eq!(layers, BTreeSet::from([0, 1]), "the board and the rules (crate::Game), nothing else");
}

/// The engine's own names a front end may use besides the services: the words of the game
/// interface, which the crate root re-exports.
const GAME_WORDS: [&str; 7] = ["Color", "Role", "Piece", "Roll", "GameError", "GameEnd", "GameResult"];

/// The engine's paths a front end's source names (`alea_engine::...`), each as its first segments
/// (`services::search`, `eval::nnue`, `Color`).
fn engine_paths(code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (at, _) in code.match_indices("alea_engine::") {
        if code[..at].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &code[at + "alea_engine::".len()..];
        let first: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if first == "services" {
            found.insert(first);
            continue;
        }
        if first.is_empty() {
            // `alea_engine::{Color, Roll}`: each name of the list.
            let list = rest.trim_start_matches('{');
            for name in list[..list.find('}').unwrap_or(list.len())].split(',') {
                found.insert(name.trim().to_string());
            }
            continue;
        }
        let second: String = rest[first.len()..]
            .trim_start_matches("::")
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        found.insert(if layer_index(&first).is_some() { format!("{first}::{second}") } else { first });
    }
    found
}

/// Front ends speak the services and the game's words: the protocol, the page and the binary
/// name no board, rules, evaluation or search module of the engine. Fitting and training
/// evaluations (`tuning`, `alea tune`) work on the evaluation's data and the boards it reads, so
/// they may also name `eval` and `board`, but no more of the search or the rules than the others.
#[test]
fn front_ends_use_only_the_services_and_the_games_words() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace");
    let mut refused = Vec::new();
    for dir in ["protocol/src", "web/src", "src", "tuning/src"] {
        let mut files = Vec::new();
        rust_files(&root.join(dir), &mut files);
        for file in files {
            let rel = file.strip_prefix(root).expect("in the workspace").to_string_lossy().replace('\\', "/");
            let trains = dir == "tuning/src" || rel == "src/tune_cmd.rs";
            let code = strip_tests(&strip_comments(&std::fs::read_to_string(&file).expect("a source file")));
            for path in engine_paths(&code) {
                let allowed = path == "services"
                    || GAME_WORDS.contains(&path.as_str())
                    || (trains
                        && (path.starts_with("eval::")
                            || path.starts_with("board::")
                            || path == "Board"
                            || path == "Square"));
                if !allowed {
                    refused.push(format!("{rel}: alea_engine::{path}"));
                }
            }
        }
    }
    assert!(refused.is_empty(), "front ends naming the engine's insides: {refused:#?}");
}

#[test]
fn the_front_end_check_reads_paths_lists_and_the_crate_root() {
    let code = "use alea_engine::services::handle::GameHandle;\nuse alea_engine::{Color, Roll};\n\
                fn f(x: alea_engine::search::Shared) -> alea_engine::Role {}\n";
    let found: Vec<String> = engine_paths(code).into_iter().collect();
    assert_eq!(found, ["Color", "Role", "Roll", "search::Shared", "services"]);
}

/// Does the code name this word as a whole word, in any case?
fn names_word(code: &str, word: &str) -> bool {
    let lower = code.to_ascii_lowercase();
    let is_ident = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    lower
        .match_indices(word)
        .any(|(at, _)| !is_ident(lower[..at].chars().next_back()) && !is_ident(lower[at + word.len()..].chars().next()))
}

/// A variant is its rules file, its evaluation data and one registry row: no non-test code
/// (comments aside, string literals included) of the engine, the front ends or the page names it
/// but its rules file, `rules/mod.rs` (which declares it) and the registry. Its evaluation data
/// is reached through the registry row (tables, network) or through the types its rules bring
/// (a die position's score, a solvable game's solution), never by name.
#[test]
fn a_variant_is_named_only_by_its_rules_file_and_its_registry_row() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace");
    let mut files = Vec::new();
    for dir in ["engine/src", "protocol/src", "web/src", "src", "tuning/src"] {
        rust_files(&root.join(dir), &mut files);
    }
    for page in ["app.js", "index.html"] {
        files.push(root.join("web/assets").join(page));
    }
    let sources: Vec<(String, String)> = files
        .iter()
        .map(|file| {
            let rel = file.strip_prefix(root).expect("in the workspace").to_string_lossy().replace('\\', "/");
            let text = std::fs::read_to_string(file).expect("a source file");
            (rel, strip_tests(&strip_comments_only(&text)))
        })
        .filter(|(rel, _)| rel != "engine/src/layers.rs")
        .collect();
    let mut refused = Vec::new();
    for variant in crate::services::registry::Variant::ALL {
        let name = variant.name();
        let own_rules = format!("engine/src/rules/{name}.rs");
        for (rel, code) in &sources {
            // Its rules file, the rules module that declares it, and its registry row: three
            // files, none of them the default's extra one.
            let allowed =
                *rel == own_rules || rel == "engine/src/rules/mod.rs" || rel == "engine/src/services/registry.rs";
            if !allowed && names_word(code, name) {
                refused.push(format!("{rel} names {name}"));
            }
        }
    }
    assert!(refused.is_empty(), "a variant's name outside its own files: {refused:#?}");
}

#[test]
fn the_name_check_finds_whole_words_in_strings_and_not_in_comments() {
    let code = strip_comments_only("let v = \"Gollon2\"; // gollon\nlet w = gollons;");
    assert!(names_word(&code, "gollon2") && !names_word(&code, "gollon"));
}
