//! Grand Dice Chess (`grand`, docs/variants.md), clause by clause, through the game handle every
//! front end uses: four dice and their 126 outcomes; non-pawn dice optional and the turn `0000`
//! where it is allowed; a pawn die compulsory while a pawn micro-move exists at that moment;
//! single pawn steps, promotion and the new piece's move in the same turn; kings taken one by one
//! with the turn going on, the last one ending the game; DFEN in and out; bad input refused.

use alea_engine::rules::{EndReason, GameResult, Roll};
use alea_engine::services::handle::{GameHandle, RollSpec};

fn game(dfen: &str) -> GameHandle {
    GameHandle::setup(alea_engine::services::registry::Variant::Grand, false, Some(dfen), None, &[])
        .unwrap_or_else(|e| panic!("{dfen}: {e}"))
}

fn roll(faces: &[u8]) -> Roll {
    Roll::new(faces).unwrap()
}

fn allowed(game: &GameHandle, faces: &[u8]) -> Vec<String> {
    game.allowed_turns(&RollSpec::Faces(faces.to_vec())).unwrap()
}

/// White: king a1, knight f1, pawn e2; Black: king a12.
const PAWN_AND_KNIGHT: &str = "k11/12/12/12/12/12/12/12/12/12/4P7/K4N6 w - - 0 1";

#[test]
fn four_dice_and_their_126_outcomes() {
    let start = GameHandle::of(alea_engine::services::registry::Variant::Grand, false).unwrap();
    assert_eq!(start.dice(), 4);
    assert_eq!(start.size(), (12, 12));
    let outcomes = start.outcomes();
    assert_eq!(outcomes.len(), 126);
    assert_eq!(start.total_weight(), 1296);
    assert!(start.check_roll(&[1, 2, 3]).unwrap_err().to_string().contains("rolls 4 dice"));
    // Four pawn dice from the start (the source's "1-1-1-1 and winning the Queen"): one pawn
    // takes its way to the queen, and the last die must move a pawn too.
    let pawns = roll(&[1, 1, 1, 1]);
    assert!(start.allows("d6e7,e7d8,d8e9,a6b7", &pawns), "the queen on e9 taken");
    assert!(!start.allows("d6e7,e7d8,d8e9", &pawns), "a pawn die left while pawns can move");
    assert!(start.allows("e6f7,f7e8,e8d9,d9c10", &pawns), "four captures in a row");
    assert!(!start.allows("e6e7", &pawns), "pawns take diagonally only");
}

#[test]
fn non_pawn_dice_may_be_left_unused() {
    let g = game(PAWN_AND_KNIGHT);
    // Knight dice only: nothing need be moved, or the knight once, or more.
    let knights = roll(&[2, 2, 2, 2]);
    assert!(g.allows("0000", &knights));
    assert!(g.allows("f1g3", &knights));
    assert!(g.allows("f1g3,g3h5", &knights));
    assert!(allowed(&g, &[2, 2, 2, 2]).contains(&"0000".to_string()));
    // Dice no piece can use are no obstacle either.
    assert!(g.allows("0000", &roll(&[3, 4, 5, 5])));
}

#[test]
fn a_pawn_die_must_be_used_while_a_pawn_can_move() {
    let g = game(PAWN_AND_KNIGHT);
    let with_pawn = roll(&[1, 2, 3, 4]);
    assert!(!g.allows("0000", &with_pawn), "a pawn could move");
    assert!(!g.allows("f1g3", &with_pawn), "the pawn die unused while e2e3 exists");
    assert!(g.allows("e2e3", &with_pawn), "the knight's die may go unused");
    assert!(g.allows("e2e3,f1g3", &with_pawn));
    assert!(g.allows("f1g3,e2e3", &with_pawn), "dice in any order");
    // No double step.
    assert!(!g.allows("e2e4", &with_pawn));
    let mut played = g.clone();
    let before = played.fen();
    assert!(played.play_checked("f1g3", Some(&with_pawn)).is_err());
    assert_eq!(played.fen(), before, "a refused turn changes nothing");

    // A blocked pawn: the pawn die may go unused...
    let blocked = game("k11/12/12/12/12/12/12/12/12/4n7/4P7/K11 w - - 0 1");
    assert!(blocked.allows("0000", &roll(&[1, 6, 6, 6])));
    // ... until a micro-move frees it: the knight on e3 steps away, and then the pawn must go.
    let own = game("k11/12/12/12/12/12/12/12/12/4N7/4P7/K11 w - - 0 1");
    let freeing = roll(&[1, 2, 6, 6]);
    assert!(own.allows("0000", &freeing), "no pawn micro-move exists at the start");
    assert!(!own.allows("e3g4", &freeing), "after it, e2e3 exists and the pawn die is unused");
    assert!(own.allows("e3g4,e2e3", &freeing));
}

#[test]
fn a_promoted_pawn_moves_on_with_its_new_die() {
    let g = game("k11/4P7/12/12/12/12/12/12/12/12/12/K11 w - - 0 1");
    let dice = roll(&[1, 5, 6, 6]);
    for piece in ["n", "b", "r", "q"] {
        assert!(g.allows(&format!("e11e12{piece}"), &dice), "{piece}");
    }
    assert!(g.allows("e11e12q,e12e5", &dice), "the new queen uses the queen's die");
    assert!(!g.allows("e11e12r,e12e5", &dice), "no rook die for the new rook");
    assert!(!g.allows("e11e12k", &dice), "never a king");
}

#[test]
fn kings_fall_one_by_one_and_the_last_ends_the_game() {
    // Black's kings on a12 and c12, White's rook on a1 with rook dice.
    let g = game("k1k9/12/12/12/12/12/12/12/12/12/12/R10K w - - 0 1");
    let rooks = roll(&[4, 4, 2, 3]);
    assert!(g.allows("a1a12", &rooks), "one king taken, the turn may stop");
    assert!(g.allows("a1a12,a12c12", &rooks), "the turn goes on after a king that is not the last");
    let mut won = g.clone();
    won.play_checked("a1a12,a12c12", Some(&rooks)).unwrap();
    let end = won.end().expect("the last king is taken");
    assert_eq!(end.result, GameResult::Win(alea_engine::Color::White));
    assert_eq!(end.reason, EndReason::KingCapture);
    let mut one = g.clone();
    one.play_checked("a1a12", Some(&rooks)).unwrap();
    assert!(one.end().is_none(), "a king is left");
    assert_eq!(one.fen(), "R1k9/12/12/12/12/12/12/12/12/12/12/11K b - - 0 1");
}

#[test]
fn dfen_with_the_dice_of_a_turn_in_progress() {
    let mut g = game(PAWN_AND_KNIGHT);
    assert!(!g.start_turn(&roll(&[1, 2, 2, 6])).unwrap());
    g.play_step("e2e3").unwrap();
    assert_eq!(g.fen(), "k11/12/12/12/12/12/12/12/12/4P7/12/K4N6 w - - 0 1 NNK");
    let resumed = game(&g.fen());
    assert_eq!(resumed.fen(), g.fen());
    assert_eq!(resumed.dice_left(), Some(roll(&[2, 2, 6])));
    // The rest: stop, or move on.
    assert!(resumed.allows("0000", &roll(&[2, 2, 6])));
    assert!(resumed.allows("f1g3,a1b1", &roll(&[2, 2, 6])));
}

#[test]
fn bad_grand_input_is_refused_with_a_reason() {
    for (dfen, words) in [
        ("k11/12/12/12/12/12/12/12/12/12/12/K11 w - - 0 1 PNBRQ", "at most 4"),
        ("k11/12/12/12/12/12/12/12/12/12/12/K11 w - - 0 1 pn", "case"),
        ("k11/12/12/12/12/12/12/12/12/12/12/K11 w KQ - 0 1", "castling"),
        ("k11/12/12/12/12/12/12/12/12/12/12/K11 w - e3 0 1", "en passant"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "12"),
        ("k11/12/12/12/12/12/12/12/12/12/12/K12 w - - 0 1", "13"),
        ("kkkkk7/12/12/12/12/12/12/12/12/12/12/K11 w - - 0 1", "king"),
    ] {
        let e = GameHandle::setup(alea_engine::services::registry::Variant::Grand, false, Some(dfen), None, &[])
            .unwrap_err();
        assert!(e.to_string().to_lowercase().contains(words), "{dfen}: {e}");
    }
    let g = game(PAWN_AND_KNIGHT);
    assert!(GameHandle::of(alea_engine::services::registry::Variant::Grand, true).is_err(), "no Chess960");
    let mut in_turn = g.clone();
    in_turn.start_turn(&roll(&[1, 2, 2, 6])).unwrap();
    let before = in_turn.fen();
    assert!(in_turn.play_step("e2e4").is_err(), "no double step");
    assert!(in_turn.play_step("a1a2").is_ok(), "the king's die");
    assert!(in_turn.play_step("a2b2").is_err(), "the king's die is used");
    assert_ne!(in_turn.fen(), before);
}

#[test]
fn the_search_plays_allowed_turns_and_takes_the_last_king() {
    use alea_engine::search::timeman::Limits;
    use alea_engine::search::{SearchOptions, Shared};
    use alea_engine::services::handle::SearchRoot;
    let g = game("k11/12/12/12/12/12/12/12/12/12/12/R10K w - - 0 1");
    let shared = Shared::new(16);
    let rooks = RollSpec::Faces(vec![4, 2, 2, 3]);
    let found = g
        .search(
            &SearchRoot::Rolled(rooks.clone()),
            Limits { depth: Some(2), ..Default::default() },
            SearchOptions::default(),
            &shared,
            &mut |_| {},
        )
        .unwrap();
    let turn = match found.best {
        alea_engine::search::Choice::Turn(t) => t,
        other => panic!("{other:?}"),
    };
    assert_eq!(turn, "a1a12");
    // From the start, after a roll: a turn the roll allows.
    let start = GameHandle::of(alea_engine::services::registry::Variant::Grand, false).unwrap();
    let dice = RollSpec::Faces(vec![1, 2, 3, 5]);
    let found = start
        .search(
            &SearchRoot::Rolled(dice),
            Limits { depth: Some(1), ..Default::default() },
            SearchOptions::default(),
            &shared,
            &mut |_| {},
        )
        .unwrap();
    let alea_engine::search::Choice::Turn(turn) = found.best else { panic!("a turn") };
    assert!(start.allows(&turn, &roll(&[1, 2, 3, 5])), "{turn}");
}
