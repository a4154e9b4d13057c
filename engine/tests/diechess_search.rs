//! The search on Die Chess, through the same generic search as the other one-move variants,
//! judged by the exact solution: the exact value its choices give up, depth by depth.

use alea_engine::piece::{Color, Role};
use alea_engine::rules::diechess::{Die, DieChess, DieEval, DiePosition, DieTurn};
use alea_engine::search::{self, Choice, Root, SearchInput, SearchOptions, Shared};
use alea_engine::solve::DieTable;
use alea_engine::timeman::Limits;
use alea_engine::{Rules, Square};
use std::sync::OnceLock;

fn table() -> &'static DieTable {
    static TABLE: OnceLock<DieTable> = OnceLock::new();
    TABLE.get_or_init(|| DieTable::solve(1e-12, 2, &mut |_, _| {}))
}

/// Positions the table does not value at a draw, from a seeded walk over placements.
fn undecided_positions(count: usize) -> Vec<DiePosition> {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut found = Vec::new();
    while found.len() < count {
        let face = |r: u64| Role::ALL[r as usize];
        let white = face(next(6));
        let black = face(next(6));
        let (ws, bs) = (Square::new(next(64) as u8), Square::new(next(64) as u8));
        if ws == bs {
            continue;
        }
        let hand =
            |role: Role, r: u64| (r % (u64::from(alea_engine::rules::diechess::moves_after_roll(role)) + 1)) as u8;
        let pos = DiePosition {
            dice: [
                Die { square: ws, face: white, in_hand: hand(white, next(3)) },
                Die { square: bs, face: black, in_hand: hand(black, next(3)) },
            ],
            turn: if next(2) == 0 { Color::White } else { Color::Black },
            turns_played: 0,
            king_taken: None,
            fullmove: 1,
        };
        if (table().value(&pos) - 0.5).abs() > 1e-6 {
            found.push(pos);
        }
    }
    found
}

fn search(pos: &DiePosition, root: Root<DieTurn>, depth: u32) -> Choice<DieTurn> {
    let input = SearchInput {
        rules: &DieChess,
        eval: &DieEval,
        position: pos,
        root,
        history: &[],
        limits: Limits { depth: Some(depth), ..Limits::default() },
        options: SearchOptions { threads: 1, ..SearchOptions::default() },
    };
    search::search(&input, &Shared::new(16), &mut |_| {}).best
}

/// The exact value a pre-roll choice gives up against the best.
fn loss_before_roll(pos: &DiePosition, choice: Choice<DieTurn>) -> f64 {
    let t = table();
    let chosen = match choice {
        Choice::Roll => t.roll_value(pos),
        Choice::Turn(turn) => t.turn_value(pos, turn),
    };
    t.value(pos) - chosen
}

#[test]
fn the_search_plays_die_chess_and_the_table_measures_it() {
    let positions = undecided_positions(40);
    let mut by_depth = Vec::new();
    for depth in 1..=3 {
        let (mut before, mut after, mut n_after) = (0.0, 0.0, 0);
        for pos in &positions {
            let choice = search(pos, Root::PreRoll, depth);
            let loss = loss_before_roll(pos, choice);
            assert!(loss > -1e-12, "{}: a choice better than the best ({loss})", pos.fen());
            before += loss;
            for face in [Role::Knight, Role::King] {
                let turns = pos.turns_after_roll(face);
                let Choice::Turn(turn) = search(pos, Root::Turns(turns.clone()), depth) else {
                    panic!("after a roll the search plays a turn")
                };
                assert!(turns.contains(&turn));
                let best = table().best_after_roll(pos, face).1;
                after += best - table().turn_value(pos, turn);
                n_after += 1;
            }
        }
        let mean = (before / positions.len() as f64, after / f64::from(n_after));
        eprintln!("depth {depth}: mean loss before the roll {:.4}, after it {:.4}", mean.0, mean.1);
        by_depth.push(mean);
    }
    // A king one move away is taken at every depth, before and after the roll.
    let p = DiePosition::from_fen("8/8/8/8/8/8/1q6/K7 b - - 20 11 11").unwrap();
    for depth in 1..=3 {
        assert_eq!(search(&p, Root::PreRoll, depth), Choice::Turn(p.parse_turn("b2a1").unwrap()));
    }
    let taken = p.play(p.parse_turn("b2a1").unwrap());
    assert_eq!(DieChess.end(&taken).map(|e| e.result), Some(alea_engine::GameResult::Win(Color::Black)));
    // Looking further never costs much: depth 3 gives up no more than depth 1 plus noise.
    assert!(by_depth[2].0 <= by_depth[0].0 + 0.01, "{by_depth:?}");
}
