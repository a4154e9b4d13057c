//! The search on Die Chess, through the same generic search as the other one-move variants,
//! judged by the exact solution: the exact value its choices give up, depth by depth.

use alea_engine::board::piece::Color;
use alea_engine::eval::die::DieEval;
use alea_engine::rules::diechess::{DieChess, DiePosition};
use alea_engine::search::solve::{Solution, search_loss, undecided_positions};
use alea_engine::search::timeman::Limits;
use alea_engine::search::{self, Choice, Root, SearchInput, SearchOptions, Shared};
use alea_engine::{GameResult, Rules};

#[test]
fn the_search_plays_die_chess_and_the_table_measures_it() {
    let table = Solution::solve(DieChess, 1e-12, 2, &mut |_, _| {});
    let positions = undecided_positions(&table, 40, 0x9e37_79b9_7f4a_7c15);
    let losses: Vec<_> = (1..=3).map(|depth| search_loss(&table, &positions, depth)).collect();
    for loss in &losses {
        eprintln!("{loss:?}");
        // No choice is better than the best; the losses are means of what the table measures.
        assert!(loss.before_roll > -1e-12 && loss.after_roll > -1e-12, "{loss:?}");
    }
    // Looking further never costs much: depth 3 gives up no more than depth 1 plus noise.
    assert!(losses[2].before_roll <= losses[0].before_roll + 0.01, "{losses:?}");
    // A king one move away is taken at every depth.
    let p = DiePosition::from_fen("8/8/8/8/8/8/1q6/K7 b - - 20 11 11").unwrap();
    let take = p.parse_turn("b2a1").unwrap();
    for depth in 1..=3 {
        let input = SearchInput {
            rules: &DieChess,
            eval: &DieEval,
            position: &p,
            root: Root::PreRoll,
            history: &[],
            limits: Limits { depth: Some(depth), ..Limits::default() },
            options: SearchOptions { threads: 1, ..SearchOptions::default() },
        };
        assert_eq!(search::search(&input, &Shared::new(16), &mut |_| {}).best, Choice::Turn(take));
    }
    assert_eq!(DieChess.end(&p.play(take)).map(|e| e.result), Some(GameResult::Win(Color::Black)));
}
