//! The generic search on `brainking10`, the first variant on the big board: chance pruning exact
//! (Star1 and Star2 give plain expectimax's value to the last unit), the last king taken when the
//! dice allow it, and a search from the start.

use alea_engine::board::big::{BigBoard, BigMove};
use alea_engine::eval::big::BigEval;
use alea_engine::rules::{BrainKing10, Roll, Rules, TurnList};
use alea_engine::search::timeman::Limits;
use alea_engine::search::{self, ChancePruning, Choice, Root, SearchInput, SearchOptions, SearchResult, Shared};

fn run(board: &BigBoard, root: Root<BigMove>, depth: u32, options: SearchOptions) -> SearchResult<BigMove> {
    let rules = BrainKing10;
    let eval = BigEval::from_params(&alea_engine::services::registry::Variant::BrainKing10.default_eval());
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
    SearchOptions { chance_pruning: pruning, use_tt: false, chance_probcut: false, ..SearchOptions::default() }
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
    let board =
        BigBoard::from_fen("4k5/10/10/10/10/10/10/10/P9/K1K1R5 w - - 0 1", alea_engine::rules::brainking10::SPEC)
            .unwrap();
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

/// A position and its mirror image (ranks turned over, colours swapped, the other side to move)
/// have the same value for the side to move: nothing in the rules, the evaluation or the search
/// favours a colour.
#[test]
fn the_search_favours_neither_colour() {
    fn mirror(b: &BigBoard) -> BigBoard {
        let fen = b.fen();
        let f: Vec<&str> = fen.split(' ').collect();
        let swap = |c: char| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() };
        let rows: Vec<String> = f[0].split('/').rev().map(|r| r.chars().map(swap).collect()).collect();
        let side = if f[1] == "w" { "b" } else { "w" };
        BigBoard::from_fen(
            &format!("{} {side} - - {} {}", rows.join("/"), f[4], f[5]),
            alea_engine::rules::brainking10::SPEC,
        )
        .unwrap()
    }
    let options = SearchOptions { use_tt: false, ..SearchOptions::default() };
    let positions: Vec<BigBoard> = random_positions(16, 40).into_iter().filter(|b| b.ep_square().is_none()).collect();
    assert!(positions.len() >= 10);
    for b in &positions {
        let m = mirror(b);
        for depth in 1..=2 {
            let (x, y) =
                (run(b, Root::PreRoll, depth, options.clone()), run(&m, Root::PreRoll, depth, options.clone()));
            assert_eq!(x.score, y.score, "{} against {} at depth {depth}", b.fen(), m.fen());
        }
    }
}
