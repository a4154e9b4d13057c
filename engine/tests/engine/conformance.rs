//! The rules against every case of the shared conformance files (tests/data/conformance), made
//! by an independent implementation of the rules (docs/variants.md).

use alea_engine::rules::{ChessKind, ChessRules, OutcomeList, Position, Roll, Rules, TurnList, TurnTable};
use alea_engine::{Board, Move};
use serde_json::Value;

fn data_path(name: &str) -> String {
    format!("{}/../tests/data/conformance/{name}.jsonl", env!("CARGO_MANIFEST_DIR"))
}

fn sorted_uci(rules: &ChessRules, turns: &TurnList<Move>) -> Vec<String> {
    let mut v: Vec<String> = turns.iter().map(|&t| rules.turn_to_uci(t)).collect();
    v.sort();
    v
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().expect("a list").iter().map(|s| s.as_str().expect("a string").to_string()).collect()
}

/// The rules' one-generation turn table against asking outcome by outcome, and its set keys
/// grouping the outcomes exactly as comparing their columns does.
fn check_turn_table(
    rules: &ChessRules,
    pos: &Position,
    table: &TurnTable<Move>,
    outcomes: &OutcomeList,
    problems: &mut Vec<String>,
) {
    let mut by_keys = alea_engine::search::Groups::new();
    alea_engine::search::group_outcomes(table, &mut by_keys);
    let mut unkeyed = table.clone();
    unkeyed.set_keys.clear();
    let mut by_columns = alea_engine::search::Groups::new();
    alea_engine::search::group_outcomes(&unkeyed, &mut by_columns);
    if by_keys != by_columns {
        problems.push(format!("groups by key {by_keys:?} != by column {by_columns:?}"));
    }
    for (i, o) in outcomes.iter().enumerate() {
        let mut list = TurnList::new();
        rules.allowed_turns(pos, &o.roll, &mut list);
        let from_table: TurnList<Move> = table.allowed_by(i).collect();
        if sorted_uci(rules, &from_table) != sorted_uci(rules, &list) {
            problems.push(format!("turn table for roll {} differs", o.roll));
        }
    }
}

/// The horizon's table (the mover not in check): for every outcome the same captures and
/// promotions as the rules allow it, and outcomes with equal set keys allowing the same ones.
fn check_tactical_table(rules: &ChessRules, pos: &Position, outcomes: &OutcomeList, problems: &mut Vec<String>) {
    let mut table = TurnTable::new();
    rules.tactical_table(pos, &mut table);
    if table.outcomes != *outcomes {
        problems.push(format!("tactical table outcomes {:?} != {outcomes:?}", table.outcomes));
        return;
    }
    let tactical = |turns: &mut dyn Iterator<Item = Move>| {
        let list: TurnList<Move> = turns.filter(|&m| pos.board.is_capture(m) || m.promotion_role().is_some()).collect();
        sorted_uci(rules, &list)
    };
    let mut sets = Vec::new();
    for (i, o) in outcomes.iter().enumerate() {
        let mut list = TurnList::new();
        rules.allowed_turns(pos, &o.roll, &mut list);
        let want = tactical(&mut list.iter().copied());
        let got = tactical(&mut table.allowed_by(i));
        if got != want {
            problems.push(format!("tactical table for roll {}: {got:?} != {want:?}", o.roll));
        }
        sets.push(want);
    }
    if table.set_keys.len() == outcomes.len() {
        for i in 0..sets.len() {
            for j in 0..i {
                if table.set_keys[i] == table.set_keys[j] && sets[i] != sets[j] {
                    problems
                        .push(format!("tactical table keys join rolls {} and {}", outcomes[j].roll, outcomes[i].roll));
                }
            }
        }
    }
}

/// Runs every case of one file; returns how many were checked.
fn check_file(file: &str, kind: ChessKind) -> usize {
    let text = std::fs::read_to_string(data_path(file)).expect("conformance data copied into tests/data");
    let mut failures = Vec::new();
    let mut count = 0;
    for (line_no, line) in text.lines().enumerate() {
        let case: Value = serde_json::from_str(line).expect("valid JSON");
        count += 1;
        let chess960 = case["chess960"].as_bool().unwrap();
        let rules = ChessRules::new(kind, chess960);
        let start = Board::from_fen(case["start"].as_str().unwrap()).expect("start FEN");
        // The generator's random games run on past draws by repetition (the rules end a game
        // there), so each move is checked for legality, not for the game still being on.
        let mut pos = Position::new(start);
        for mv in strings(&case["moves"]) {
            match rules.parse_turn(&pos, &mv) {
                Some(turn) if rules.is_possible_turn(&pos, turn) => pos = rules.play(&pos, turn),
                _ => failures.push(format!("{file}:{}: {mv} refused in {}", line_no + 1, pos.board.fen())),
            }
        }
        let mut problems = Vec::new();
        let want_fen = case["fen"].as_str().unwrap();
        if pos.board.fen() != want_fen {
            problems.push(format!("fen {} != {want_fen}", pos.board.fen()));
        }
        if let Some(expected) = case.get("freedom") {
            let mut list = TurnList::new();
            rules.pre_roll_turns(&pos, &mut list);
            let got = sorted_uci(&rules, &list);
            if got != strings(expected) {
                problems.push(format!("freedom {got:?} != {expected}"));
            }
            let recapture = pos.recapture.map(|s| s.to_string());
            if recapture.as_deref() != case["recapture"].as_str() {
                problems.push(format!("recapture {recapture:?} != {}", case["recapture"]));
            }
            if pos.board.in_check() != case["in_check"].as_bool().unwrap() {
                problems.push("in_check differs".into());
            }
        }
        if let Some(capturable) = case.get("king_capturable")
            && pos.passed_in_check != capturable.as_bool().unwrap()
        {
            problems.push(format!("king_capturable {} != {capturable}", pos.passed_in_check));
        }
        for (key, expected) in case["rolls"].as_object().unwrap() {
            let roll = Roll::parse(&[key]).expect("a roll key");
            let mut list = TurnList::new();
            rules.allowed_turns(&pos, &roll, &mut list);
            let got = sorted_uci(&rules, &list);
            if got != strings(expected) {
                problems.push(format!("roll {key}: {got:?} != {expected}"));
            }
        }
        // The one-generation turn table says the same as asking outcome by outcome.
        if rules.end(&pos).is_none() {
            let mut table = TurnTable::new();
            rules.turn_table(&pos, &mut table);
            let mut outcomes = OutcomeList::new();
            rules.outcomes(&pos, &mut outcomes);
            let mut from_table = TurnList::new();
            rules.pre_roll_from_table(&pos, &table, &mut from_table);
            let mut direct = TurnList::new();
            rules.pre_roll_turns(&pos, &mut direct);
            if sorted_uci(&rules, &from_table) != sorted_uci(&rules, &direct) {
                problems.push("pre-roll turns from the table differ".into());
            }
            if table.outcomes != outcomes {
                problems.push(format!("turn table outcomes {:?} != {outcomes:?}", table.outcomes));
            }
            check_turn_table(&rules, &pos, &table, &outcomes, &mut problems);
            if !pos.board.in_check() {
                check_tactical_table(&rules, &pos, &outcomes, &mut problems);
            }
        }
        if !problems.is_empty() {
            failures.push(format!("{file}:{} ({}): {}", line_no + 1, pos.board.fen(), problems.join("; ")));
        }
    }
    assert!(failures.is_empty(), "{} of {count} cases differ:\n{}", failures.len(), failures.join("\n"));
    count
}

#[test]
fn freedom_agrees_with_every_case() {
    assert!(check_file("freedom", ChessKind::Freedom) >= 500);
}

#[test]
fn freedom960_agrees_with_every_case() {
    assert!(check_file("freedom960", ChessKind::Freedom) >= 450);
}

#[test]
fn classic_agrees_with_every_case() {
    assert!(check_file("classic", ChessKind::Classic) >= 600);
}

#[test]
fn brainking_agrees_with_every_case() {
    assert!(check_file("brainking", ChessKind::BrainKing) >= 300);
}

/// Vegas (gzipped, several dice fields): the position after each recorded game, whether the side
/// to move gave check, is in check and rolls, and for sampled rolls (die A's face, then die B's;
/// `-` where it does not roll) the sorted allowed moves and first moves.
#[test]
fn vegas_agrees_with_every_case() {
    use std::io::Read;
    let path = format!("{}/../tests/data/conformance/vegas.jsonl.gz", env!("CARGO_MANIFEST_DIR"));
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).expect("conformance data copied into tests/data"))
        .read_to_string(&mut text)
        .expect("gzip");
    let rules = ChessRules::new(ChessKind::Vegas, false);
    let (mut failures, mut cases, mut rolls) = (Vec::new(), 0, 0);
    for (line_no, line) in text.lines().enumerate() {
        let case: Value = serde_json::from_str(line).expect("valid JSON");
        cases += 1;
        let at = format!("vegas.jsonl:{}", line_no + 1);
        let mut pos = Position::new(Board::from_fen(case["start"].as_str().unwrap()).expect("start FEN"));
        for mv in strings(&case["turns"]) {
            match rules.parse_turn(&pos, &mv) {
                Some(turn) if rules.is_possible_turn(&pos, turn) => pos = rules.play(&pos, turn),
                _ => failures.push(format!("{at}: {mv} refused in {}", pos.board.fen())),
            }
        }
        let mut problems = Vec::new();
        if pos.board.fen() != case["fen"].as_str().unwrap() {
            problems.push(format!("fen {} != {}", pos.board.fen(), case["fen"]));
        }
        let gave = pos.gave_check[pos.board.turn().index()];
        if gave != case["gave_check"].as_bool().unwrap() || pos.board.in_check() != case["in_check"].as_bool().unwrap()
        {
            problems.push(format!("gave check {gave}, in check {}", pos.board.in_check()));
        }
        let mut outcomes = OutcomeList::new();
        rules.outcomes(&pos, &mut outcomes);
        if outcomes.is_empty() == case["no_roll"].is_null() {
            problems.push(format!("{} outcomes, no_roll {}", outcomes.len(), case["no_roll"]));
        }
        for (key, expected) in case["rolls"].as_object().unwrap() {
            rolls += 1;
            let mut list = TurnList::new();
            if key == "-" {
                rules.pre_roll_turns(&pos, &mut list);
            } else {
                let faces: Vec<u8> = key.bytes().map(|b| b - b'0').collect();
                rules.allowed_turns(&pos, &rules.roll_of(&faces).expect("a roll key"), &mut list);
            }
            // The file lists the pass after the sorted moves.
            let got = sorted_uci(&rules, &list);
            let mut want = strings(expected);
            want.sort();
            if got != want {
                problems.push(format!("roll {key}: {got:?} != {expected}"));
            }
            if got.len() as u64 != case["counts"][key].as_u64().unwrap() {
                problems.push(format!("roll {key}: count {} != {}", got.len(), case["counts"][key]));
            }
        }
        // The one-generation turn table says the same as asking outcome by outcome.
        if !outcomes.is_empty() {
            let mut table = TurnTable::new();
            rules.turn_table(&pos, &mut table);
            check_turn_table(&rules, &pos, &table, &outcomes, &mut problems);
            if !pos.board.in_check() {
                check_tactical_table(&rules, &pos, &outcomes, &mut problems);
            }
        }
        if !problems.is_empty() {
            failures.push(format!("{at} ({}): {}", pos.board.fen(), problems.join("; ")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} cases differ:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
    assert!(cases >= 500 && rolls > 2000, "{cases} cases, {rolls} rolls");
}
