//! One test per rule of docs/variants.md, on positions made for it, and the sample game of the
//! two-dice rules (source 001) replayed with its rolls.

use alea_engine::rules::{ChessKind, ChessRules, EndReason, GameResult, OutcomeList, Position, Roll, Rules, TurnList};
use alea_engine::{Board, Color, Game, Square};

fn variant(kind: ChessKind) -> ChessRules {
    ChessRules::new(kind, false)
}

fn pos(fen: &str) -> Position {
    Position::new(Board::from_fen(fen).expect("test FEN"))
}

fn sorted(rules: &ChessRules, list: &TurnList<alea_engine::Move>) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|&m| rules.turn_to_uci(m)).collect();
    v.sort();
    v
}

fn allowed(rules: &ChessRules, p: &Position, faces: &[u8]) -> Vec<String> {
    let mut list = TurnList::new();
    rules.allowed_turns(p, &Roll::new(faces).unwrap(), &mut list);
    sorted(rules, &list)
}

fn freedom(rules: &ChessRules, p: &Position) -> Vec<String> {
    let mut list = TurnList::new();
    rules.pre_roll_turns(p, &mut list);
    sorted(rules, &list)
}

/// Plays a sequence of UCI turns, each checked as possible.
fn play(rules: &ChessRules, mut p: Position, turns: &[&str]) -> Position {
    for t in turns {
        let turn = rules.parse_turn(&p, t).unwrap_or_else(|| panic!("{t} parses in {}", p.board.fen()));
        assert!(rules.is_possible_turn(&p, turn), "{t} possible in {}", p.board.fen());
        p = rules.play(&p, turn);
    }
    p
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

// ---------- common ----------

#[test]
fn faces_name_pawn_to_king_and_castling_is_a_king_and_a_rook_move() {
    let rules = variant(ChessKind::Freedom);
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for face in [4, 6] {
        let moves = allowed(&rules, &p, &[face]);
        assert!(moves.contains(&"e1g1".to_string()) && moves.contains(&"e1c1".to_string()), "face {face}: {moves:?}");
    }
    // With Chess960 notation the same castling is written king-takes-rook.
    let rules960 = ChessRules::new(ChessKind::Freedom, true);
    assert!(allowed(&rules960, &p, &[4]).contains(&"e1h1".to_string()));
}

#[test]
fn threefold_repetition_counts_rule_state_and_ends_the_game() {
    let rules = variant(ChessKind::Freedom);
    let mut game = Game::new(rules, pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"));
    for m in ["a1a2", "e8e7", "a2a1", "e7e8", "a1a2", "e8e7", "a2a1"] {
        game.play_uci(m, |p| p.board.fen()).unwrap();
        assert!(game.end().is_none());
    }
    game.play_uci("e7e8", |p| p.board.fen()).unwrap();
    let end = game.end().expect("third time");
    assert_eq!((end.result, end.reason), (GameResult::Draw, EndReason::ThreefoldRepetition));
    assert!(game.play_uci("a1a2", |p| p.board.fen()).is_err(), "nothing is played after the end");

    // The same board with a recapture right is a different position.
    let a = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    let mut b = a.clone();
    b.recapture = Some(Square::parse("a1").unwrap());
    assert_ne!(a.hash(), b.hash());
    assert_eq!(a.hash(), a.board.hash(), "no rule state: the Polyglot hash");
}

#[test]
fn fifty_move_rule_and_insufficient_material_draw() {
    for kind in [ChessKind::Freedom, ChessKind::Classic] {
        let rules = variant(kind);
        let end = rules.end(&pos("4k3/8/8/8/8/8/8/R3K3 w - - 100 80")).unwrap();
        assert_eq!(end.reason, EndReason::FiftyMoveRule);
        let end = rules.end(&pos("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1")).unwrap();
        assert_eq!(end.reason, EndReason::InsufficientMaterial);
        let end = rules.end(&pos("2b1k3/8/8/8/8/8/8/3BK3 w - - 0 1")).unwrap();
        assert_eq!(end.reason, EndReason::InsufficientMaterial, "bishops on one colour");
        assert!(rules.end(&pos("3bk3/8/8/8/8/8/8/3BK3 w - - 0 1")).is_none(), "bishops on both colours");
        assert!(rules.end(&pos("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1")).is_none());
    }
    // BrainKing has no check, so no insufficient material: a lone bishop can still take a king.
    let rules = variant(ChessKind::BrainKing);
    assert!(rules.end(&pos("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1")).is_none());
    assert_eq!(rules.end(&pos("4k3/8/8/8/8/8/8/2B1K3 w - - 100 90")).unwrap().reason, EndReason::FiftyMoveRule);
}

// ---------- freedom ----------

#[test]
fn freedom_reallocation_goes_down_the_order_pawn_to_king() {
    let rules = variant(ChessKind::Freedom);
    // Only the king can move: every face comes down to it.
    let p = pos("4k3/8/8/8/8/p7/P7/4K3 w - - 0 1");
    for face in 1..=6 {
        assert_eq!(allowed(&rules, &p, &[face]), strs(&["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]), "face {face}");
    }
    // A rook roll with no rook falls to the pawn first, ahead of the knight.
    let p = pos("4k3/8/8/8/8/8/P7/1N2K3 w - - 0 1");
    assert_eq!(allowed(&rules, &p, &[4]), strs(&["a2a3", "a2a4"]));
    // Blocked pawns: a queen roll with no queen falls to the knight.
    let p = pos("4k3/8/8/8/8/p7/P7/1N2K3 w - - 0 1");
    assert_eq!(allowed(&rules, &p, &[5]), strs(&["b1a3", "b1c3", "b1d2"]));
    // A rolled type that can move is never reallocated.
    assert_eq!(allowed(&rules, &p, &[2]), strs(&["b1a3", "b1c3", "b1d2"]));
    assert_eq!(allowed(&rules, &p, &[6]), strs(&["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]));
}

#[test]
fn freedom_recapture_after_en_passant_is_on_the_destination_square() {
    let rules = variant(ChessKind::Freedom);
    let p = play(&rules, pos("3qk3/2pp4/8/4P3/8/8/8/4K3 b - - 0 1"), &["d7d5", "e5d6"]);
    assert_eq!(p.recapture, Square::parse("d6"));
    let free = freedom(&rules, &p);
    assert!(free.contains(&"c7d6".to_string()) && free.contains(&"d8d6".to_string()), "{free:?}");
    if let ChessRules::Freedom(f) = rules {
        assert!(f.freedom_kinds(&p, rules.parse_turn(&p, "c7d6").unwrap()).recapture);
        assert!(!f.freedom_kinds(&p, rules.parse_turn(&p, "c7c6").unwrap()).any());
    }
    // The right lasts one turn.
    let p = play(&rules, p, &["e8f7", "e1e2"]);
    assert_eq!(p.recapture, None);
}

#[test]
fn freedom_recapture_after_capture_promotion() {
    let rules = variant(ChessKind::Freedom);
    let p = play(&rules, pos("r2qk3/1P6/8/8/8/8/8/4K3 w - - 0 1"), &["b7a8q"]);
    assert_eq!(p.recapture, Square::parse("a8"));
    assert!(freedom(&rules, &p).contains(&"d8a8".to_string()));
}

#[test]
fn freedom_give_check_by_discovered_check() {
    let rules = variant(ChessKind::Freedom);
    let p = pos("4k3/8/8/8/4B3/8/8/4R2K w - - 0 1");
    // Every bishop move uncovers the rook; no other move checks.
    let bishop = allowed(&rules, &p, &[3]);
    assert_eq!(freedom(&rules, &p), bishop);
    assert_eq!(bishop.len(), 12);
}

#[test]
fn freedom_give_check_by_castling() {
    let rules = variant(ChessKind::Freedom);
    let p = pos("5k2/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_eq!(freedom(&rules, &p), strs(&["e1g1", "h1f1", "h1h8"]));
}

#[test]
fn freedom_in_check_every_legal_move_is_free() {
    let rules = variant(ChessKind::Freedom);
    let p = pos("4k3/8/8/8/8/3n4/8/R3K3 w Q - 0 1");
    let mut all = TurnList::new();
    rules.any_turns(&p, &mut all);
    assert_eq!(freedom(&rules, &p), sorted(&rules, &all));
    assert!(!freedom(&rules, &p).contains(&"e1c1".to_string()), "no castling out of check");
}

#[test]
fn freedom_checkmate_and_stalemate_end_the_game() {
    let rules = variant(ChessKind::Freedom);
    let end = rules.end(&pos("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1")).unwrap();
    assert_eq!((end.result, end.reason), (GameResult::Win(Color::White), EndReason::Checkmate));
    let end = rules.end(&pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")).unwrap();
    assert_eq!((end.result, end.reason), (GameResult::Draw, EndReason::Stalemate));
    let mut outcomes = OutcomeList::new();
    rules.outcomes(&pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), &mut outcomes);
    assert!(outcomes.is_empty(), "no roll at a finished game");
}

// ---------- classic ----------

#[test]
fn classic_has_21_outcomes_summing_to_one() {
    let rules = variant(ChessKind::Classic);
    let mut outcomes = OutcomeList::new();
    rules.outcomes(&Position::new(Board::startpos()), &mut outcomes);
    assert_eq!(outcomes.len(), 21);
    assert!((outcomes.iter().map(|o| o.probability).sum::<f64>() - 1.0).abs() < 1e-12);
    let doubles = outcomes.iter().filter(|o| o.roll.is_doubles()).count();
    assert_eq!(doubles, 6);
}

#[test]
fn classic_doubles_allow_every_legal_move_and_castling_needs_4_6_or_doubles() {
    let rules = variant(ChessKind::Classic);
    let p = pos("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    let mut all = TurnList::new();
    rules.any_turns(&p, &mut all);
    for face in 1..=6 {
        assert_eq!(allowed(&rules, &p, &[face, face]), sorted(&rules, &all), "doubles {face}");
    }
    assert!(allowed(&rules, &p, &[1, 4]).contains(&"e1g1".to_string()));
    assert!(allowed(&rules, &p, &[2, 6]).contains(&"e1c1".to_string()));
    assert!(!allowed(&rules, &p, &[1, 2]).contains(&"e1g1".to_string()));
    // En passant needs a 1 (or doubles).
    let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    assert!(allowed(&rules, &p, &[1, 2]).contains(&"e5d6".to_string()));
    assert!(!allowed(&rules, &p, &[2, 6]).contains(&"e5d6".to_string()));
}

#[test]
fn classic_pass_in_check_then_king_capture() {
    let rules = variant(ChessKind::Classic);
    // Black is in check from the rook and can only answer with the king (a 6) or by doubles.
    let p = pos("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1");
    assert_eq!(allowed(&rules, &p, &[1, 2]), strs(&["0000"]));
    assert!(!allowed(&rules, &p, &[1, 6]).contains(&"0000".to_string()));
    let p = play(&rules, p, &["0000"]);
    assert!(p.passed_in_check && p.board.checkers_of(Color::Black).any());
    // A rook roll takes the king; a roll without the rook cannot.
    assert!(allowed(&rules, &p, &[4, 1]).contains(&"e1e8".to_string()));
    assert!(!allowed(&rules, &p, &[2, 3]).contains(&"e1e8".to_string()));
    assert!(allowed(&rules, &p, &[3, 3]).contains(&"e1e8".to_string()), "doubles");
    let after = play(&rules, p.clone(), &["e1e8"]);
    let end = rules.end(&after).unwrap();
    assert_eq!((end.result, end.reason), (GameResult::Win(Color::White), EndReason::KingCapture));
    // Not taking it: Black's turn again, still in check; the right to take passes with the turn.
    let p = play(&rules, p, &["g1g2"]);
    assert!(!p.passed_in_check && p.board.in_check());
}

#[test]
fn classic_checkmate_is_judged_before_the_roll() {
    let rules = variant(ChessKind::Classic);
    let end = rules.end(&pos("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1")).unwrap();
    assert_eq!(end.reason, EndReason::Checkmate);
    let mut outcomes = OutcomeList::new();
    rules.outcomes(&pos("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"), &mut outcomes);
    assert!(outcomes.is_empty());
}

/// The sample game of source 001, roll by roll, and every claim its text makes.
#[test]
fn classic_sample_game_replays_with_its_rolls() {
    let rules = variant(ChessKind::Classic);
    let mut p = Position::new(Board::startpos());
    let step = |p: &mut Position, faces: &[u8], turn: &str| {
        let moves = allowed(&rules, p, faces);
        assert!(moves.contains(&turn.to_string()), "{turn} on {faces:?}: {moves:?}");
        *p = play(&rules, p.clone(), &[turn]);
    };
    step(&mut p, &[3, 3], "e2e4"); // doubles: any move
    // 1...Nc6 on 2+3: no bishop move is possible.
    assert!(allowed(&rules, &p, &[2, 3]).iter().all(|m| m.starts_with("b8") || m.starts_with("g8")));
    step(&mut p, &[2, 3], "b8c6");
    step(&mut p, &[3, 4], "f1c4");
    // 2...Rb8 is the only move for a 4 and a 5.
    assert_eq!(allowed(&rules, &p, &[4, 5]), strs(&["a8b8"]));
    step(&mut p, &[4, 5], "a8b8");
    step(&mut p, &[3, 6], "c4f7");
    assert!(p.board.in_check());
    // 3...: Black must pass on 2+4; only a six or doubles would have allowed a move.
    let mut outcomes = OutcomeList::new();
    rules.outcomes(&p, &mut outcomes);
    for o in &outcomes {
        let passes = allowed(&rules, &p, o.roll.faces()) == strs(&["0000"]);
        let can_move = o.roll.faces().contains(&6) || o.roll.is_doubles();
        assert_eq!(passes, !can_move, "roll {}", o.roll);
    }
    step(&mut p, &[2, 4], "0000");
    // 4.: a 3 would have allowed Bxe8 taking the king; a 5 Qf3# or Qh5#.
    let with_three = allowed(&rules, &p, &[3, 1]);
    assert!(with_three.contains(&"f7e8".to_string()));
    assert_eq!(rules.end(&play(&rules, p.clone(), &["f7e8"])).unwrap().reason, EndReason::KingCapture);
    let with_five = allowed(&rules, &p, &[5, 1]);
    for mate in ["d1f3", "d1h5"] {
        assert!(with_five.contains(&mate.to_string()));
        assert_eq!(rules.end(&play(&rules, p.clone(), &[mate])).unwrap().reason, EndReason::Checkmate, "{mate}");
    }
    step(&mut p, &[2, 4], "g1h3");
    // 4...: 1+3 does not answer the check either.
    assert_eq!(allowed(&rules, &p, &[1, 3]), strs(&["0000"]));
    step(&mut p, &[1, 3], "0000");
    step(&mut p, &[2, 4], "h3g5");
    let end = rules.end(&p).expect("5.Ng5 is mate");
    assert_eq!((end.result, end.reason), (GameResult::Win(Color::White), EndReason::Checkmate));
}

// ---------- brainking ----------

#[test]
fn brainking_promotion_by_roll() {
    let rules = variant(ChessKind::BrainKing);
    let p = pos("k7/4P3/8/8/8/8/8/K7 w - - 0 1");
    assert_eq!(allowed(&rules, &p, &[1]), strs(&["e7e8b", "e7e8n", "e7e8q", "e7e8r"]));
    // A face is playable through the promotion alone: White has no bishop.
    assert_eq!(allowed(&rules, &p, &[3]), strs(&["e7e8b"]));
    assert_eq!(allowed(&rules, &p, &[5]), strs(&["e7e8q"]));
    // Never to a king, nothing on a 6 but king moves.
    assert_eq!(allowed(&rules, &p, &[6]), strs(&["a1a2", "a1b1", "a1b2"]));
}

#[test]
fn brainking_rolls_only_faces_with_a_move() {
    let rules = variant(ChessKind::BrainKing);
    // White has only a king and a blocked pawn: faces 2..5 have no move, 1 neither.
    let p = pos("k7/8/8/8/8/p7/P7/K7 w - - 0 1");
    let mut outcomes = OutcomeList::new();
    rules.outcomes(&p, &mut outcomes);
    let faces: Vec<u8> = outcomes.iter().map(|o| o.roll.faces()[0]).collect();
    assert_eq!(faces, vec![6]);
    assert_eq!(outcomes[0].probability, 1.0);
    assert_eq!(allowed(&rules, &p, &[2]), strs(&["0000"]), "a face never rolled answers a pass");
    // Two faces: half each.
    let p = pos("k7/8/8/8/8/8/P7/K7 w - - 0 1");
    outcomes.clear();
    rules.outcomes(&p, &mut outcomes);
    assert_eq!(outcomes.len(), 2);
    assert!(outcomes.iter().all(|o| o.probability == 0.5));
}

#[test]
fn brainking_has_no_check_and_capturing_the_king_wins() {
    let rules = variant(ChessKind::BrainKing);
    // The king may step into attack and castle through it.
    let p = pos("4k3/8/8/8/8/8/5r2/4K2R w K - 0 1");
    let king = allowed(&rules, &p, &[6]);
    assert!(king.contains(&"e1f1".to_string()) && king.contains(&"e1g1".to_string()), "{king:?}");
    // Black may take the king; that ends the game.
    let p = play(&rules, p, &["e1g1"]);
    let p = play(&rules, p, &["f2f1"]);
    assert!(rules.end(&p).is_none());
    let p = play(&rules, pos("4k3/8/8/8/8/8/5r2/4K3 b - - 0 1"), &["f2e2"]);
    let p = play(&rules, p, &["e1d1"]);
    let p = play(&rules, p, &["e2d2"]);
    let p = play(&rules, p, &["d1d2"]);
    let end = rules.end(&p);
    assert!(end.is_none(), "White took the rook, both kings stand");
    let p = play(&rules, pos("4k3/8/8/8/8/8/4r3/4K3 b - - 0 1"), &["e2e1"]);
    let end = rules.end(&p).unwrap();
    assert_eq!((end.result, end.reason), (GameResult::Win(Color::Black), EndReason::KingCapture));
    let mut outcomes = OutcomeList::new();
    rules.outcomes(&p, &mut outcomes);
    assert!(outcomes.is_empty());
}

#[test]
fn variants_refuse_positions_they_cannot_reach() {
    let freedom = variant(ChessKind::Freedom);
    let classic = variant(ChessKind::Classic);
    let brainking = variant(ChessKind::BrainKing);
    // The side not to move in check: only after a classic pass.
    let p = pos("4k3/8/8/8/8/8/4r3/4K3 b - - 0 1");
    assert!(freedom.validate(&p).is_err());
    assert!(classic.validate(&p).is_ok());
    assert!(brainking.validate(&p).is_ok());
    // No king: only BrainKing (after a capture).
    let p = pos("8/8/8/8/8/8/4r3/4K3 w - - 0 1");
    assert!(freedom.validate(&p).is_err() && classic.validate(&p).is_err());
    assert!(brainking.validate(&p).is_ok());
}
