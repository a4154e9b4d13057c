//! `gollon2` has no shared conformance file: a hand-checked case for every clause of its rule in
//! docs/variants.md (a piece die and a count die; one piece of the type moves that many times, the
//! same piece, as many as it can; a promoted pawn goes on as its new piece; no piece of the type
//! can move: a pass; castling a king move and a rook move, attacks ignored).

use alea_engine::rules::Gollon2;
use alea_engine::rules::micro::{
    MicroPosition, MicroRules, PlanCache, StepList, allowed_steps, for_each_turn, parse_turn, play_turn,
};

fn rolled(dfen: &str, faces: &[u8]) -> MicroPosition {
    let pos = Gollon2.parse_dfen(dfen).expect("a DFEN");
    Gollon2.rolled(&pos, &Gollon2.roll_of(faces).expect("a roll"))
}

fn turns(pos: &MicroPosition) -> Vec<String> {
    let mut out = Vec::new();
    for_each_turn(&Gollon2, pos, &mut PlanCache::default(), &mut |t, _| out.push(t.to_uci(false)));
    out.sort();
    out
}

/// Is `turn` a turn of the position (each micro-move one its pieces can make) that the roll allows?
fn allowed(pos: &MicroPosition, turn: &str) -> bool {
    parse_turn(&Gollon2, pos, turn)
        .is_ok_and(|moves| play_turn(&Gollon2, pos, &moves, &mut PlanCache::default()).is_ok())
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn the_count_die_gives_one_to_four_micro_moves() {
    // 4, 5 and 6 all give four; the piece die is read first.
    for count in [4, 5, 6] {
        assert_eq!(rolled(START, &[2, count]).dice, rolled(START, &[2, 4]).dice);
    }
    assert!(turns(&rolled(START, &[2, 5])).iter().all(|t| t.split(',').count() == 4 || t.ends_with("e8")));
    assert_eq!(turns(&rolled(START, &[2, 1])), ["b1a3", "b1c3", "g1f3", "g1h3"]);
    // 24 outcomes: six piece types by four counts, the count of 4 three times as likely.
    let outcomes = Gollon2.outcomes(&Gollon2.startpos());
    assert_eq!(outcomes.len(), 24);
    assert_eq!(outcomes.iter().map(|o| o.weight).sum::<u32>(), 36);
    // The order of the dice matters: a knight and a count of 3 is not a bishop and a count of 2.
    assert_ne!(rolled(START, &[2, 3]).dice, rolled(START, &[3, 2]).dice);
}

#[test]
fn one_piece_makes_every_micro_move() {
    let pos = rolled(START, &[2, 2]);
    assert!(allowed(&pos, "b1a3,a3b1"));
    assert!(allowed(&pos, "g1f3,f3e5"));
    // Two knights, one micro-move each: not one piece.
    assert!(!allowed(&pos, "b1a3,g1f3"));
    // Once the knight has moved, only it is offered.
    let mut steps = StepList::new();
    let after = pos.after_micro(
        parse_turn(&Gollon2, &pos, "b1c3").unwrap()[0],
        &Gollon2.spent(&pos, parse_turn(&Gollon2, &pos, "b1c3").unwrap()[0]),
    );
    allowed_steps(&Gollon2, &after, &mut PlanCache::default(), &mut steps);
    assert!(!steps.is_empty() && steps.iter().all(|s| s.mv.from().to_string() == "c3"));
    assert_eq!(Gollon2.dfen(&after), format!("{} A@c3", "rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/R1BQKBNR w KQkq - 0 1"));
}

#[test]
fn the_piece_makes_as_many_moves_as_it_can() {
    // Three pawn moves: the a-pawn can make them all (a3, a4, a5), so the h-pawn, blocked after
    // one step, may not be chosen.
    let blocked = "4k3/8/8/8/7n/8/P6P/4K3 w - - 0 1";
    let pos = rolled(blocked, &[1, 3]);
    assert!(allowed(&pos, "a2a3,a3a4,a4a5"));
    assert!(!allowed(&pos, "h2h3"));
    assert!(turns(&pos).iter().all(|t| t.starts_with("a2")));
    // With only the blocked pawn, its one step is the whole turn.
    let pos = rolled("4k3/8/8/8/7n/8/7P/4K3 w - - 0 1", &[1, 3]);
    assert_eq!(turns(&pos), ["h2h3"]);
}

#[test]
fn a_promoted_pawn_goes_on_as_its_new_piece() {
    let pos = rolled("4k3/6P1/8/8/8/8/8/4K3 w - - 0 1", &[1, 2]);
    // The queen made on g8 takes the king at once; a knight goes on as a knight.
    assert!(allowed(&pos, "g7g8q,g8e8"));
    assert!(allowed(&pos, "g7g8n,g8f6"));
    assert!(!allowed(&pos, "g7g8n,g8g7"));
}

#[test]
fn no_piece_of_the_type_can_move_and_the_turn_passes() {
    let pos = rolled(START, &[4, 3]);
    assert_eq!(turns(&pos), ["0000"]);
    assert!(allowed(&pos, "0000"));
    assert!(!allowed(&rolled(START, &[2, 3]), "0000"));
}

#[test]
fn castling_is_a_king_move_and_a_rook_move_and_ignores_attacks() {
    // Black's rook on f8 attacks f1, which the king crosses: castling stands.
    let open = "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1";
    for piece in [6, 4] {
        let pos = rolled(open, &[piece, 1]);
        assert!(allowed(&pos, "e1g1") && allowed(&pos, "e1c1"), "die {piece}");
    }
    // With two micro-moves the piece of the die goes on: the king from g1, the rook from f1.
    assert!(allowed(&rolled(open, &[6, 2]), "e1g1,g1h1"));
    assert!(!allowed(&rolled(open, &[6, 2]), "e1g1,f1f8"));
    assert!(allowed(&rolled(open, &[4, 2]), "e1g1,f1f8"));
    // Neither a knight's die nor a bishop's castles.
    assert!(!turns(&rolled("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1", &[2, 1])).contains(&"e1g1".to_string()));
}

#[test]
fn a_turn_in_progress_names_its_piece_in_the_dfen() {
    for dfen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 NAAA",
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1 AA@f3",
    ] {
        let pos = Gollon2.parse_dfen(dfen).expect(dfen);
        assert_eq!(Gollon2.dfen(&pos), dfen);
    }
    for bad in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 AA",
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1 NA@f3",
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1 AA@e4",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 NBA",
    ] {
        assert!(Gollon2.parse_dfen(bad).is_err(), "{bad}");
    }
    assert!(
        alea_engine::rules::DiceChess3
            .parse_dfen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 N@f3")
            .is_err()
    );
}
