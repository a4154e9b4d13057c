//! PGN with rolls: export and import give back the same game in every variant; python-chess reads
//! a Freedom game as a legal chess game; bad records are refused with the move named.

use alea_engine::rules::{ChessKind, ChessRules, OutcomeList, Position, Rules, TurnList};
use alea_engine::services::pgn::{GameRecord, RecordedTurn};
use alea_engine::{Board, Game};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// A random game with real rolls (and, in freedom, a Freedom move now and then).
fn random_game(kind: ChessKind, chess960: bool, seed: u64) -> GameRecord {
    let mut rng = StdRng::seed_from_u64(seed);
    let rules = ChessRules::new(kind, chess960);
    let start = if chess960 { Board::chess960(rng.random_range(0..960)) } else { Board::startpos() };
    let mut record = GameRecord::new(rules.name().parse().unwrap(), chess960, chess960.then(|| start.fen()));
    let mut game = Game::new(rules, Position::new(start));
    for _ in 0..rng.random_range(20..160) {
        if let Some(end) = game.end() {
            record.result = end.result.to_string();
            break;
        }
        let pos = game.position().clone();
        let mut pre = TurnList::new();
        rules.pre_roll_turns(&pos, &mut pre);
        let (turn, roll) = if !pre.is_empty() && rng.random_range(0..2) == 0 {
            (pre[rng.random_range(0..pre.len())], None)
        } else {
            let mut outcomes = OutcomeList::new();
            rules.outcomes(&pos, &mut outcomes);
            let roll = outcomes[rng.random_range(0..outcomes.len())].roll;
            let mut allowed = TurnList::new();
            rules.allowed_turns(&pos, &roll, &mut allowed);
            (allowed[rng.random_range(0..allowed.len())], Some(roll))
        };
        game.play(turn);
        record.turns.push(RecordedTurn { turn: rules.turn_to_uci(turn), roll, comment: None });
    }
    record
}

#[test]
fn round_trip_in_every_variant() {
    let mut passes = 0;
    for (kind, chess960) in [
        (ChessKind::Freedom, false),
        (ChessKind::Freedom, true),
        (ChessKind::Classic, false),
        (ChessKind::Classic, true),
        (ChessKind::BrainKing, false),
    ] {
        for seed in 0..12 {
            let record = random_game(kind, chess960, seed);
            let text = record.to_pgn();
            let back = GameRecord::from_pgn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!((&back.variant, back.chess960), (&record.variant, record.chess960));
            assert_eq!(back.start, record.start);
            assert_eq!(back.result, record.result);
            assert_eq!(back.turns, record.turns, "{text}");
            assert_eq!(back.to_pgn(), text);
            passes += record.turns.iter().filter(|t| t.turn == "0000").count();
        }
    }
    assert!(passes > 0, "some classic or brainking game passed a turn");
}

#[test]
fn the_format_is_as_documented() {
    let mut record = GameRecord::new(alea_engine::services::registry::Variant::Freedom, false, None);
    for (uci, roll) in [("e2e4", Some(1)), ("d7d5", Some(4)), ("e4d5", Some(1)), ("d8d5", None)] {
        record.turns.push(RecordedTurn { turn: uci.into(), roll: roll.map(alea_engine::Roll::single), comment: None });
    }
    record.tags.push(("White".into(), "Alea".into()));
    let text = record.to_pgn();
    assert!(text.contains("[Variant \"freedom\"]"));
    assert!(text.contains("[White \"Alea\"]"));
    assert!(!text.contains("[FEN"));
    assert!(
        text.contains("1. e4 {[%roll 1]} d5 {[%roll 4]} 2. exd5 {[%roll 1]} Qxd5 {[%freedom recapture]}"),
        "{text}"
    );
    assert!(text.trim_end().ends_with('*'));
    // Chess960 and a pass.
    let record = random_game(ChessKind::Classic, true, 3);
    let text = record.to_pgn();
    assert!(text.contains("[Variant \"classic960\"]") && text.contains("[SetUp \"1\"]") && text.contains("[FEN "));
}

#[test]
fn python_chess_reads_a_freedom_game_as_legal_chess() {
    let record = random_game(ChessKind::Freedom, false, 7);
    let scratch = tempfile::Builder::new().prefix("alea-pgn-").tempdir().unwrap();
    let dir = scratch.path();
    let path = dir.join("game.pgn");
    std::fs::write(&path, record.to_pgn()).unwrap();
    let script = r#"
import sys, chess, chess.pgn, chess.variant
class FreedomBoard(chess.Board):
    uci_variant = "freedom"
    aliases = ["freedom"]
chess.variant.VARIANTS.append(FreedomBoard)
game = chess.pgn.read_game(open(sys.argv[1]))
assert not game.errors, game.errors
board = game.board()
n = 0
for move in game.mainline_moves():
    assert move in board.legal_moves, move
    board.push(move)
    n += 1
print(n)
"#;
    let out = std::process::Command::new("python3").args(["-c", script, path.to_str().unwrap()]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let moves: usize = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    assert_eq!(moves, record.turns.len());
}

#[test]
fn bad_records_are_refused_with_the_move_named() {
    let good = "[Variant \"freedom\"]\n\n1. e4 {[%roll 1]} d5 {[%roll 4]} 2. exd5 {[%roll 1]} *\n";
    assert!(GameRecord::from_pgn(good).is_ok());
    for (text, reason) in [
        ("[Variant \"freedom\"]\n\n1. e5 {[%roll 1]} *", "ply 1 (e5): not a move"),
        ("[Variant \"freedom\"]\n\n1. e4 d5 {[%roll 4]} *", "ply 1 (e4): no [%roll]"),
        ("[Variant \"freedom\"]\n\n1. e4 {[%roll 2]} *", "ply 1 (e4): the roll 2 does not allow it"),
        ("[Variant \"freedom\"]\n\n1. e4 {[%roll 7]} *", "ply 1 (e4): [%roll 7]"),
        ("[Variant \"freedom\"]\n\n1. e4 {[%freedom check]} *", "ply 1 (e4): it may not be played without rolling"),
        ("[Variant \"classic\"]\n\n1. e4 {[%roll 1]} *", "rolls 2 dice"),
        ("[Variant \"checkers\"]\n\n1. e4 {[%roll 1]} *", "unknown variant"),
        ("[Variant \"freedom\"]\n[FEN \"8/8 w - - 0 1\"]\n\n*", "FEN tag"),
        ("[Variant \"freedom\"]\n\n1. e4 {[%roll 1] *", "closing '}'"),
    ] {
        let err = GameRecord::from_pgn(text).expect_err(text);
        assert!(err.to_string().contains(reason), "{text}: {err}");
    }
}

/// dicechess3 games: a turn per movetext entry, its micro-moves in SAN joined by commas, three
/// faces in the roll; export and import give back the same game.
#[test]
fn round_trip_of_diechess_games() {
    use alea_engine::services::handle::{GameHandle, RollSpec};
    let mut rolled_without_moving = 0;
    for seed in 0..8u64 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut game = GameHandle::of(alea_engine::services::registry::Variant::DieChess, false).unwrap();
        let mut record = GameRecord::new(alea_engine::services::registry::Variant::DieChess, false, None);
        for _ in 0..rng.random_range(10..80) {
            if let Some(end) = game.end() {
                record.result = end.result.to_string();
                break;
            }
            // Before the roll: pass or move now and then; else roll and answer.
            let pre = game.pre_roll_turns();
            let (turn, roll) = if rng.random_range(0..3) == 0 {
                (pre[rng.random_range(0..pre.len())].clone(), None)
            } else {
                let roll = game.roll_for(rng.random_range(0..game.total_weight())).unwrap();
                let allowed = game.allowed_turns(&RollSpec::Faces(roll.faces().to_vec())).unwrap();
                (allowed[rng.random_range(0..allowed.len())].clone(), Some(roll))
            };
            rolled_without_moving += usize::from(roll.is_some() && turn == "0000");
            game.play_checked(&turn, roll.as_ref()).unwrap();
            record.turns.push(RecordedTurn { turn, roll, comment: None });
        }
        let text = record.to_pgn();
        let back = GameRecord::from_pgn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.turns, record.turns, "{text}");
        assert_eq!(back.to_pgn(), text);
        assert_eq!(back.game().fen(), game.fen(), "{text}");
    }
    assert!(rolled_without_moving > 0, "some turn rolled and did not move");
    // UCI's `0000` read as a pass (not a move number), its roll kept with it.
    let text = "[Variant \"diechess\"]\n\n1. a1a2 {[%freedom any]} 0000 {[%roll 3]} *\n";
    let record = GameRecord::from_pgn(text).unwrap();
    assert_eq!(record.turns[1].turn, "0000");
    assert_eq!(record.game().turns(), ["a1a2", "roll3"]);
}

#[test]
fn round_trip_of_dicechess3_games() {
    use alea_engine::services::handle::{GameHandle, RollSpec};
    for seed in 0..6u64 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut game = GameHandle::of(alea_engine::services::registry::Variant::DiceChess3, false).unwrap();
        let mut record = GameRecord::new(alea_engine::services::registry::Variant::DiceChess3, false, None);
        for _ in 0..rng.random_range(10..60) {
            if let Some(end) = game.end() {
                record.result = end.result.to_string();
                break;
            }
            let roll = game.roll_for(rng.random_range(0..game.total_weight())).unwrap();
            let allowed = game.allowed_turns(&RollSpec::Faces(roll.faces().to_vec())).unwrap();
            let turn = allowed[rng.random_range(0..allowed.len())].clone();
            game.play(&turn).unwrap();
            record.turns.push(RecordedTurn { turn, roll: Some(roll), comment: None });
        }
        let text = record.to_pgn();
        assert!(text.contains("[Variant \"dicechess3\"]"), "{text}");
        assert!(
            text.contains("[%roll ")
                && text.split("[%roll ").nth(1).unwrap().split(']').next().unwrap().split(',').count() == 3
        );
        let back = GameRecord::from_pgn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.turns, record.turns, "{text}");
        assert_eq!(back.to_pgn(), text);
    }
    // The first turn of a game, read by hand.
    let text = "[Variant \"dicechess3\"]\n\n1. e4,Qh5 {[%roll 1,5,4]} *\n";
    let record = GameRecord::from_pgn(text).unwrap();
    assert_eq!(record.turns[0].turn, "e2e4,d1h5");
    // A turn its roll does not allow (the maximum rule wants a third micro-move).
    let text = "[Variant \"dicechess3\"]\n\n1. e4,Qh5 {[%roll 1,5,6]} *\n";
    assert!(GameRecord::from_pgn(text).unwrap_err().to_string().contains("does not allow"));
}

#[test]
fn a_dicechess3_game_set_up_in_a_turn_in_progress() {
    // White has a pawn and a knight die left: the record keeps the start, its first turn shows
    // the dice it had and reads back with no roll of its own.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PN";
    let mut record = GameRecord::new(alea_engine::services::registry::Variant::DiceChess3, false, Some(start.into()));
    record.turns.push(RecordedTurn { turn: "e2e4,g1f3".into(), roll: None, comment: None });
    let text = record.to_pgn();
    assert!(text.contains("[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PN\"]"), "{text}");
    assert!(text.contains("1. e4,Nf3 {[%roll 1,2]}"), "{text}");
    let back = GameRecord::from_pgn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.turns, record.turns);
    // A turn its dice do not allow.
    let bad = text.replace("e4,Nf3", "e4,d4");
    assert!(GameRecord::from_pgn(&bad).is_err());
}
