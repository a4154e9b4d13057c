//! Perft against the published tables (chessprogramming wiki), Chess960 start positions, and
//! shakmaty's own generator on positions from random games.

use alea_engine::board::movegen::legal_moves;
use alea_engine::board::perft::perft;
use alea_engine::{Board, Move};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};

/// The six standard positions and their node counts by depth (1, 2, ...).
const STANDARD: [(&str, &[u64]); 6] = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &[20, 400, 8_902, 197_281, 4_865_609, 119_060_324]),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        &[48, 2_039, 97_862, 4_085_603, 193_690_690],
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", &[14, 191, 2_812, 43_238, 674_624, 11_030_083, 178_633_661]),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        &[6, 264, 9_467, 422_333, 15_833_292, 706_045_033],
    ),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", &[44, 1_486, 62_379, 2_103_487, 89_941_194]),
    (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        &[46, 2_079, 89_890, 3_894_594, 164_075_551],
    ),
];

/// Chess960 positions with published counts (chessprogramming wiki, "Chess960 Perft Results").
const CHESS960: [(&str, &[u64]); 3] = [
    (
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        &[21, 528, 12_189, 326_672, 8_146_062, 227_689_589],
    ),
    (
        "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
        &[21, 807, 18_002, 667_366, 16_253_601, 590_751_109],
    ),
    (
        "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
        &[20, 479, 10_471, 273_318, 6_417_013, 177_654_692],
    ),
];

fn check(fen: &str, counts: &[u64], max_nodes: u64) {
    let board = Board::from_fen(fen).unwrap();
    for (i, &expected) in counts.iter().enumerate() {
        if expected > max_nodes {
            break;
        }
        assert_eq!(perft(&board, i as u32 + 1), expected, "perft {} of {fen}", i + 1);
    }
}

#[test]
fn start_position_hash_is_polyglots() {
    assert_eq!(Board::startpos().hash(), 0x463b_9618_1691_fc9c);
    assert_eq!(Board::startpos().hash(), Board::startpos().hash_from_scratch());
}

#[test]
fn start_position_to_depth_5() {
    assert_eq!(perft(&Board::startpos(), 5), 4_865_609);
}

#[test]
fn six_standard_positions_up_to_20_million_nodes() {
    for (fen, counts) in STANDARD {
        check(fen, counts, 20_000_000);
    }
}

/// Full depth of every table entry: `cargo test --release -- --ignored perft_full`.
#[test]
#[ignore]
fn perft_full_depth_six_positions_and_chess960() {
    for (fen, counts) in STANDARD.iter().chain(CHESS960.iter()) {
        check(fen, counts, u64::MAX);
    }
}

#[test]
fn chess960_published_positions() {
    for (fen, counts) in CHESS960 {
        check(fen, counts, 20_000_000);
    }
}

fn shakmaty_position(fen: &str) -> Chess {
    let setup: shakmaty::fen::Fen = fen.parse().unwrap();
    setup.into_position(CastlingMode::Chess960).unwrap()
}

fn our_uci(moves: &[Move]) -> Vec<String> {
    let mut v: Vec<String> = moves.iter().map(|m| m.to_uci(true).to_string()).collect();
    v.sort();
    v
}

fn their_uci(pos: &Chess) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().iter().map(|m| m.to_uci(CastlingMode::Chess960).to_string()).collect();
    v.sort();
    v
}

/// Every Chess960 start position's perft 3 equals shakmaty's; a sample also at depth 4.
#[test]
fn chess960_start_positions_match_shakmaty() {
    for n in 0..960u16 {
        let board = Board::chess960(n);
        let theirs = shakmaty_position(&board.fen());
        let depth = if n % 40 == 0 { 4 } else { 3 };
        assert_eq!(perft(&board, depth), shakmaty::perft(&theirs, depth), "Chess960 #{n} {}", board.fen());
    }
    assert_eq!(Board::chess960(518).fen(), Board::startpos().fen());
    assert_eq!(Board::chess960(0).fen(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
}

/// Random games from the start and from Chess960 starts: at every position the legal moves,
/// and the Polyglot hash agree with shakmaty, and perft 2 or 3 agrees at 240 of them.
#[test]
fn random_games_match_shakmaty() {
    let mut rng = StdRng::seed_from_u64(0xa1ea);
    let mut perft_checked = 0;
    for game in 0..240 {
        let mut board = if game % 2 == 0 { Board::startpos() } else { Board::chess960(rng.random_range(0..960)) };
        let plies = rng.random_range(4..120);
        for _ in 0..plies {
            let theirs = shakmaty_position(&board.fen());
            let ours = legal_moves(&board);
            assert_eq!(our_uci(&ours), their_uci(&theirs), "moves of {}", board.fen());
            let their_hash: shakmaty::zobrist::Zobrist64 = theirs.zobrist_hash(EnPassantMode::PseudoLegal);
            assert_eq!(board.hash(), their_hash.0, "hash of {}", board.fen());
            assert_eq!(board.hash(), board.hash_from_scratch());
            if ours.is_empty() {
                break;
            }
            board.play(ours[rng.random_range(0..ours.len())]);
        }
        let theirs = shakmaty_position(&board.fen());
        let depth = if game % 4 == 0 { 3 } else { 2 };
        assert_eq!(perft(&board, depth), shakmaty::perft(&theirs, depth), "perft {depth} of {}", board.fen());
        perft_checked += 1;
    }
    assert!(perft_checked >= 200);
}

#[test]
fn fen_round_trips_and_refuses_nonsense() {
    for (fen, _) in STANDARD.iter().chain(CHESS960.iter()) {
        let board = Board::from_fen(fen).unwrap();
        let again = Board::from_fen(&board.fen()).unwrap();
        assert_eq!(board, again);
    }
    // X-FEN letters for outermost rooks (Shredder's HFhf in, KQkq out), file letters for inner ones.
    let inner = Board::from_fen("rk1r4/8/8/8/8/8/8/RK1R3R w DAd - 0 1").unwrap();
    assert_eq!(inner.fen(), "rk1r4/8/8/8/8/8/8/RK1R3R w DQk - 0 1");
    let b = Board::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9").unwrap();
    assert_eq!(b.fen(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
    for bad in [
        "",
        "not a fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1",
        "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
    ] {
        assert!(Board::from_fen(bad).is_err(), "accepted {bad:?}");
    }
}

#[test]
fn side_not_to_move_in_check_and_missing_kings_are_boards_too() {
    // After a passed turn in classic: Black to move while White's king is attacked.
    let b = Board::from_fen("4k3/8/8/8/8/8/4r3/4K3 b - - 0 1").unwrap();
    assert!(!b.in_check());
    assert!(b.checkers_of(alea_engine::Color::White).any());
    // After a king capture in brainking.
    let b = Board::from_fen("8/8/8/8/8/8/4r3/8 w - - 0 1").unwrap();
    assert!(legal_moves(&b).is_empty());
}

/// Our SAN equals shakmaty's for every legal move along random games (standard and Chess960).
#[test]
fn san_matches_shakmaty_on_random_games() {
    let mut rng = StdRng::seed_from_u64(0x5a4);
    let mut checked = 0;
    for game in 0..60 {
        let mut board = if game % 2 == 0 { Board::startpos() } else { Board::chess960(rng.random_range(0..960)) };
        for _ in 0..rng.random_range(10..120) {
            let theirs = shakmaty_position(&board.fen());
            let ours = legal_moves(&board);
            for &m in &ours {
                let uci: shakmaty::uci::UciMove = m.to_uci(true).to_string().parse().unwrap();
                let their_move = uci.to_move(&theirs).unwrap();
                let want = shakmaty::san::SanPlus::from_move(theirs.clone(), their_move).to_string();
                assert_eq!(alea_engine::board::san::to_san(&board, m, &ours), want, "{}", board.fen());
                assert_eq!(alea_engine::board::san::from_san(&board, &want, &ours), Some(m));
                checked += 1;
            }
            if ours.is_empty() {
                break;
            }
            board.play(ours[rng.random_range(0..ours.len())]);
        }
    }
    assert!(checked > 10_000);
}

/// A position and its mirror (colours swapped, ranks flipped) have the same perft, hash rules
/// and material balance from the side to move.
#[test]
fn mirrored_positions_agree() {
    use alea_engine::eval::{Evaluator, StaticEval};
    use alea_engine::rules::{ChessKind, ChessRules, Position, Rules};
    let rules = ChessRules::new(ChessKind::Classic, false);
    let eval = StaticEval::material(rules.piece_values());
    for (fen, _) in STANDARD.iter().skip(1) {
        let board = Board::from_fen(fen).unwrap();
        let mirror = board.mirrored();
        assert_eq!(perft(&board, 3), perft(&mirror, 3), "{fen}");
        assert_eq!(mirror.mirrored(), board);
        assert_eq!(mirror.hash(), mirror.hash_from_scratch());
        let (a, b) = (Position::new(board), Position::new(mirror));
        assert_eq!(eval.evaluate(&rules, &a), eval.evaluate(&rules, &b));
    }
}
