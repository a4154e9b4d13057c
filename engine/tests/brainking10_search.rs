//! The generic search on `brainking10`, the first variant on the big board: chance pruning exact
//! (Star1 and Star2 give plain expectimax's value to the last unit), the last king taken when the
//! dice allow it, and a search from the start.

use alea_engine::big::{BigBoard, BigEval, BigMove, BigSpec};
use alea_engine::rules::{BrainKing10, Roll, Rules, TurnList};
use alea_engine::search::{self, ChancePruning, Choice, Root, SearchInput, SearchOptions, SearchResult, Shared};
use alea_engine::timeman::Limits;

fn run(board: &BigBoard, root: Root<BigMove>, depth: u32, options: SearchOptions) -> SearchResult<BigMove> {
    let rules = BrainKing10;
    let eval = BigEval::new(rules.piece_values());
    let input = SearchInput {
        rules: &rules,
        eval: &eval,
        position: board,
        root,
        history: &[],
        limits: Limits { depth: Some(depth), ..Limits::default() },
        options,
    };
    search::search(&input, &Shared::new(8), &mut |_| {})
}

fn exact(pruning: ChancePruning) -> SearchOptions {
    SearchOptions { chance_pruning: pruning, use_tt: false, ..SearchOptions::default() }
}

/// Positions of seeded random games from the start.
fn random_positions(count: usize, plies: usize) -> Vec<BigBoard> {
    let rules = BrainKing10;
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut random = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut found = Vec::new();
    while found.len() < count {
        let mut board = rules.start();
        for _ in 0..plies {
            if rules.end(&board).is_some() {
                break;
            }
            let mut all = TurnList::new();
            rules.any_turns(&board, &mut all);
            board = rules.play(&board, all[random(all.len())]);
        }
        if rules.end(&board).is_none() {
            found.push(board);
        }
    }
    found
}

#[test]
fn star1_and_star2_equal_plain_expectimax() {
    for (i, board) in random_positions(12, 30).iter().enumerate() {
        for depth in 1..=2 {
            let plain = run(board, Root::PreRoll, depth, exact(ChancePruning::None));
            for pruning in [ChancePruning::Star1, ChancePruning::Star2] {
                let pruned = run(board, Root::PreRoll, depth, exact(pruning));
                assert_eq!(pruned.score, plain.score, "position {i} {} depth {depth} {pruning:?}", board.fen());
                assert!(pruned.nodes <= plain.nodes, "{pruning:?} searched more");
            }
        }
    }
}

#[test]
fn the_last_king_is_taken_when_the_die_allows() {
    // After a rook roll White's rook takes Black's only king: a win in one.
    let board = BigBoard::from_fen("4k5/10/10/10/10/10/10/10/P9/K1K1R5 w - - 0 1", BigSpec::BRAINKING10).unwrap();
    let mut turns = TurnList::new();
    BrainKing10.allowed_turns(&board, &Roll::new(&[4]).unwrap(), &mut turns);
    let result = run(&board, Root::Turns(turns.to_vec()), 2, SearchOptions::default());
    assert_eq!(result.best, Choice::Turn(BigMove::parse(&board, "e1e10").unwrap()));
    assert_eq!(result.mate, Some(1), "{result:?}");
}

#[test]
fn a_search_from_the_start_chooses_a_move_of_the_roll() {
    let board = BrainKing10.start();
    let mut turns = TurnList::new();
    BrainKing10.allowed_turns(&board, &Roll::new(&[1]).unwrap(), &mut turns);
    let result = run(&board, Root::Turns(turns.to_vec()), 3, SearchOptions::default());
    let Choice::Turn(m) = result.best else { panic!("a turn after the roll") };
    assert!(turns.contains(&m), "{m}");
    assert_eq!(result.depth, 3);
}
