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

/// Seeded self-play at depth 1 (`DEPTH`; the first 8 plies random, for variety; the rolls by
/// their weights) of `GAMES` games (2,000): the README's shares with 95 % intervals, and the
/// branching: allowed turns a roll.
/// `cargo test --release -p alea-engine --test engine brainking10_search::self_play -- --ignored --nocapture`
#[test]
#[ignore]
fn self_play_shares_and_branching() {
    use alea_engine::Game;
    use alea_engine::rules::{GameResult, OutcomeList};
    let games: usize = std::env::var("GAMES").map_or(2000, |g| g.parse().unwrap());
    let depth: u32 = std::env::var("DEPTH").map_or(1, |d| d.parse().unwrap());
    let rules = BrainKing10;
    let eval = BigEval::from_params(&alea_engine::services::registry::Variant::BrainKing10.default_eval());
    let shared = Shared::new(16);
    let mut state = 0x1234_5678_9abc_def1_u64;
    let mut random = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let (mut white, mut black, mut draws, mut plies, mut rolls, mut turns_allowed) = (0, 0, 0, 0usize, 0usize, 0usize);
    for _ in 0..games {
        let start = std::env::var("START").map_or_else(
            |_| rules.start(),
            |fen| BigBoard::from_fen(&fen, alea_engine::rules::brainking10::SPEC).unwrap(),
        );
        let mut game = Game::new(rules, start);
        let mut ply = 0;
        let end = loop {
            if let Some(end) = game.end() {
                break Some(end);
            }
            if ply >= 600 {
                break None;
            }
            let mut outcomes = OutcomeList::new();
            rules.outcomes(game.position(), &mut outcomes);
            let mut pick = random();
            let outcome = outcomes.iter().find(|o| {
                pick -= o.probability;
                pick < 0.0
            });
            let roll = outcome.unwrap_or(outcomes.last().unwrap()).roll;
            let mut turns = TurnList::new();
            rules.allowed_turns(game.position(), &roll, &mut turns);
            rolls += 1;
            turns_allowed += turns.len();
            let turn = if ply < 8 {
                turns[((random() * turns.len() as f64) as usize).min(turns.len() - 1)]
            } else {
                let input = SearchInput {
                    rules: &rules,
                    eval: &eval,
                    position: game.position(),
                    root: Root::Turns(turns.to_vec()),
                    history: game.hashes(),
                    limits: Limits { depth: Some(depth), ..Limits::default() },
                    options: SearchOptions::default(),
                };
                match search::search(&input, &shared, &mut |_| {}).best {
                    Choice::Turn(t) => t,
                    Choice::Roll => unreachable!("a rolled root"),
                }
            };
            game.play(turn);
            ply += 1;
        };
        plies += ply;
        match end.map(|e| e.result) {
            Some(GameResult::Win(alea_engine::Color::White)) => white += 1,
            Some(GameResult::Win(alea_engine::Color::Black)) => black += 1,
            _ => draws += 1,
        }
    }
    let share = |k: usize| {
        let p = k as f64 / games as f64;
        let half = 1.96 * (p * (1.0 - p) / games as f64).sqrt();
        format!("{:.2} % [{:.2}, {:.2}]", 100.0 * p, 100.0 * (p - half), 100.0 * (p + half))
    };
    println!(
        "{games} games at depth {depth}: White {}, Black {}, drawn {}; {:.1} plies a game; {:.1} allowed turns a roll",
        share(white),
        share(black),
        share(draws),
        plies as f64 / games as f64,
        turns_allowed as f64 / rolls as f64
    );
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
