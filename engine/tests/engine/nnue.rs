//! The learned evaluation's inference: sums updated move by move equal sums computed from
//! scratch after every move of 1,000 random games (captures, castling, en passant, promotions),
//! with and without the dice-aware inputs, and so do the scores of the thread's cache;
//! the file round-trips and its defects are refused.

use alea_engine::board::movegen::{Legality, MoveList, generate, generate_promotions};
use alea_engine::eval::nnue::{HIDDEN, Network, mobility, mobility_in};
use alea_engine::{Board, RoleSet};

fn scrambled() -> Network {
    scrambled_from(Network::zeros("freedom"))
}

/// The same with the dice-aware inputs, their rows scrambled too.
fn scrambled_with_mobility() -> Network {
    scrambled_from(Network::zeros_with("dicechess3", true))
}

fn scrambled_from(mut net: Network) -> Network {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |range: i16| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % (2 * range as u64 + 1)) as i16 - range
    };
    for row in net.rows_mut() {
        row.iter_mut().for_each(|w| *w = next(30));
    }
    net.feature_bias.iter_mut().for_each(|w| *w = next(50));
    for row in &mut net.output_weights {
        row.iter_mut().for_each(|w| *w = next(64));
    }
    net
}

#[test]
fn incremental_sums_equal_sums_from_scratch_through_1000_random_games() {
    incremental_sums_equal_sums_from_scratch(&scrambled());
}

#[test]
fn with_the_dice_aware_inputs_too() {
    incremental_sums_equal_sums_from_scratch(&scrambled_with_mobility());
}

fn incremental_sums_equal_sums_from_scratch(net: &Network) {
    let mut state = 7u64;
    let (mut moves_played, mut kinds) = (0u64, [0u32; 4]);
    for game in 0..1000 {
        let mut board = if game % 2 == 0 { Board::startpos() } else { Board::chess960((game * 7 % 960) as u16) };
        let mut acc = net.refresh(&board);
        for _ in 0..200 {
            let mut list = MoveList::new();
            generate(&board, RoleSet::ALL, Legality::Legal, &mut list);
            generate_promotions(&board, None, Legality::Legal, &mut list);
            if list.is_empty() {
                break;
            }
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let m = list[(state >> 33) as usize % list.len()];
            kinds[0] += u32::from(board.is_capture(m));
            kinds[1] += u32::from(m.is_castle());
            kinds[2] += u32::from(m.promotion_role().is_some());
            kinds[3] += u32::from(board.is_capture(m) && board.piece_at(m.to()).is_none());
            let mut child = board.clone();
            child.play(m);
            acc = net.update(&acc, &board, &child);
            assert_eq!(acc, net.refresh(&child), "game {game} after {m:?}");
            // The thread's cache, updated in place from the last position it evaluated.
            assert_eq!(net.evaluate_incremental(&child), net.evaluate(&acc, child.turn()), "game {game} after {m:?}");
            board = child;
            moves_played += 1;
        }
    }
    assert!(moves_played > 50_000, "{moves_played}");
    // Each kind of move that changes pieces unusually was met many times.
    assert!(kinds.iter().all(|&k| k >= 10), "captures, castles, promotions, en passant: {kinds:?}");
    assert_eq!(net.refresh(&Board::startpos()).sums[0].len(), HIDDEN);
}

#[test]
fn the_cached_evaluation_equals_the_evaluation_from_scratch() {
    // Positions far apart and near one another, through two networks in turn on one thread.
    let (a, b) = (scrambled(), Network::zeros("freedom"));
    let mut b = b;
    b.output_bias = 5 * 255 * 64;
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "8/8/3k4/8/8/4K3/8/7q w - - 0 60",
        "r1bqk2r/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R1BQK2R w KQkq - 2 8",
    ];
    for round in 0..3 {
        for fen in fens {
            let board = Board::from_fen(fen).unwrap();
            assert_eq!(a.evaluate_incremental(&board), a.evaluate_board(&board), "{fen} round {round}");
            assert_eq!(b.evaluate_incremental(&board), 2000, "{fen}: bias 5 x QA x QB is 5 x SCALE");
            let copy = a.clone();
            assert_eq!(copy.evaluate_incremental(&board), a.evaluate_board(&board));
        }
    }
}

#[test]
fn a_mirrored_position_scores_alike_for_its_mover() {
    let board = Board::from_fen("r1bqk2r/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R1BQK2R w KQkq - 2 8").unwrap();
    for net in [scrambled(), scrambled_with_mobility()] {
        assert_eq!(net.evaluate_board(&board), net.evaluate_board(&board.mirrored()));
        assert_ne!(net.evaluate_board(&board), 0);
    }
}

/// The dice-aware inputs count each side's moves by piece type: from the start, eight pawn
/// moves and four knight moves a side, nothing else; and a position with colours swapped has
/// the same inputs with own and enemy swapped.
#[test]
fn the_dice_aware_inputs_count_moves_by_piece_type() {
    let side = |color: usize, role: usize, steps: usize| ((1u64 << steps) - 1) << (color * 24 + role * 4);
    let start = side(0, 0, 4) | side(0, 1, 3) | side(1, 0, 4) | side(1, 1, 3);
    assert_eq!(mobility(&Board::startpos()), start);
    // White: pawns with 3 moves (a3, axb3, d3), a rook with 2 (b1, c1), a king with 4; Black: a
    // pawn with a capture only (its step blocked by its own bishop), a bishop with 8 (axa1
    // among them), a king with 3.
    let board = Board::from_fen("7k/8/8/8/8/1p6/Pb1P4/R2K4 w - - 0 1").unwrap();
    let bits = mobility(&board);
    let expected = side(0, 0, 2) | side(0, 3, 2) | side(0, 5, 3) | side(1, 0, 1) | side(1, 2, 4) | side(1, 5, 2);
    assert_eq!(bits, expected, "{bits:#x} against {expected:#x}");
    for fen in
        ["r1bqk2r/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R1BQK2R w KQkq - 2 8", "7k/8/8/8/8/1p6/Pb1P4/R2K4 w - - 0 1"]
    {
        let board = Board::from_fen(fen).unwrap();
        assert_eq!(mobility(&board.mirrored()), mobility_in(alea_engine::Color::Black, mobility(&board)), "{fen}");
    }
}

#[test]
fn the_file_round_trips_and_defects_are_refused() {
    let with_mobility = scrambled_with_mobility();
    let bytes = with_mobility.to_bytes();
    assert_eq!(Network::from_bytes(&bytes).unwrap(), with_mobility);
    assert_ne!(Network::from_bytes(&bytes).unwrap(), scrambled(), "the dice-aware rows are part of the network");
    let board = Board::from_fen("r1bqk2r/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R1BQK2R w KQkq - 2 8").unwrap();
    assert_eq!(Network::from_bytes(&bytes).unwrap().evaluate_board(&board), with_mobility.evaluate_board(&board));
    // An input flag this engine does not know (the byte after the hidden count) is refused.
    let mut flagged = bytes[..bytes.len() - 4].to_vec();
    let flags_at = 8 + 4 + 1 + "dicechess3".len() + 2;
    flagged[flags_at] = 3;
    flagged.extend(alea_engine::board::checksum::fnv1a(&flagged).to_le_bytes());
    assert!(Network::from_bytes(&flagged).unwrap_err().to_string().contains("flagged"));
    let net = scrambled();
    let bytes = net.to_bytes();
    assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
    assert!(Network::from_bytes(&bytes[..bytes.len() - 10]).unwrap_err().to_string().contains("cut off"));
    let mut flipped = bytes.clone();
    flipped[5000] ^= 4;
    assert!(Network::from_bytes(&flipped).unwrap_err().to_string().contains("checksum"));
    assert!(Network::from_bytes(b"hello world").unwrap_err().to_string().contains("not an Alea network"));
    assert!(Network::from_bytes(b"").is_err());
    let mut version = bytes.clone();
    version[8] = 9;
    assert!(Network::from_bytes(&version).unwrap_err().to_string().contains("version 9"));
}

/// A network's result scale is written and read back, a file of the first version (which has
/// none) still reads, a scale beyond 10 is refused, and the evaluation reads scores by the
/// network's scale where it has one, else by the tables'.
#[test]
fn the_result_scale_round_trips_and_the_evaluation_uses_it() {
    use alea_engine::board::checksum::fnv1a;
    use alea_engine::eval::StaticEval;
    use alea_engine::rules::ChessKind;
    let mut net = scrambled();
    net.result_scale = Some(0.3709);
    let bytes = net.to_bytes();
    assert_eq!(Network::from_bytes(&bytes).unwrap().result_scale, Some(0.3709));
    assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
    // The first version: no inputs' flags (the byte after the hidden count), no scale field
    // (the four bytes before the checksum), version 1.
    let flags_at = 8 + 4 + 1 + "freedom".len() + 2;
    let mut first = bytes[..flags_at].to_vec();
    first.extend(&bytes[flags_at + 1..bytes.len() - 8]);
    first[8..12].copy_from_slice(&1u32.to_le_bytes());
    first.extend(fnv1a(&first).to_le_bytes());
    let old = Network::from_bytes(&first).unwrap();
    assert_eq!(old.result_scale, None);
    assert_eq!(old.feature_weights, net.feature_weights);
    assert_eq!(old.output_bias, net.output_bias);
    // A scale of 11 (110,000 ten-thousandths) is refused.
    let mut wild = bytes[..bytes.len() - 8].to_vec();
    wild.extend(110_000u32.to_le_bytes());
    wild.extend(fnv1a(&wild).to_le_bytes());
    assert!(Network::from_bytes(&wild).unwrap_err().to_string().contains("result scale"));

    let tables = alea_engine::services::registry::Variant::of_kind(ChessKind::Freedom).default_eval();
    let eval = StaticEval::new(tables.clone());
    assert_eq!(eval.result_scale(), tables.result_scale);
    assert_eq!(eval.clone().with_net(Some(std::sync::Arc::new(old))).result_scale(), tables.result_scale);
    assert_eq!(eval.with_net(Some(std::sync::Arc::new(net))).result_scale(), 0.3709);
}

/// What a user names as the evaluation: a network file, a file of tables, `tables` (the
/// variant's own tables without its network), and a clear error for anything else.
#[test]
fn a_named_evaluation_is_a_network_tables_or_the_own_tables() {
    use alea_engine::eval::NamedEval;
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let net = data.join("freedom.nnue");
    assert!(matches!(NamedEval::read(net.to_str().unwrap()), Ok(NamedEval::Network(n)) if n.variant == "freedom"));
    let tables = data.join("freedom.eval");
    assert!(matches!(NamedEval::read(tables.to_str().unwrap()), Ok(NamedEval::Tables(_))));
    for word in ["tables", "Tables"] {
        assert!(matches!(NamedEval::read(word), Ok(NamedEval::OwnTables)));
    }
    let missing = data.join("no-such.nnue");
    let err = NamedEval::read(missing.to_str().unwrap()).unwrap_err();
    assert!(err.to_string().contains("no-such.nnue"), "{err}");
}
