//! The search of the one-move variants against the plain expectiminimax of `reference` (written
//! against the game as states, the same reference the micro-move search is checked against):
//! with the table and the reductions off, Star1, Star2 and no chance pruning all return its value
//! to the centipawn, before the roll and after it, in every one-move variant.
//!
//! The default run checks 120 states of random games of each 8x8 variant at depths 1 and 2, a
//! sample of them and 24 endgames at depth 3; `cargo test -p alea-engine --test engine one_move_exact
//! -- --ignored` checks all 120 at depth 3. Die Chess is searched here, not read from its
//! solution; `brainking10` at depths 1 and 2 (its moves are many).

use crate::reference;

use alea_engine::eval::big::BigEval;
use alea_engine::eval::die::DieEval;
use alea_engine::eval::{Evaluator, StaticEval};
use alea_engine::rules::diechess::{DieChess, DiePosition};
use alea_engine::rules::states::{OneMoveStates, TurnState};
use alea_engine::rules::{BrainKing10, ChessKind, ChessRules, Position, Rules, TurnList};
use alea_engine::search::equity::Equity;
use alea_engine::search::timeman::Limits;
use alea_engine::search::{self, ChancePruning, Root, SearchInput, SearchOptions, Shared};
use alea_engine::{Role, Square};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

/// The one-move search's leaves and its check extension.
struct OneMoveHorizon<'a, R, E> {
    rules: &'a R,
    eval: &'a E,
    horizon: search::Horizon,
}

impl<'s, R: Rules, E: Evaluator<R>> reference::Horizon<OneMoveStates<'s, R>> for OneMoveHorizon<'_, R, E> {
    fn leaf(&self, state: &TurnState<R::Position>, ply: usize) -> i32 {
        self.horizon.value(self.rules, self.eval, state.position(), ply)
    }

    fn extends(&self, state: &TurnState<R::Position>, ply: usize, root_depth: i32) -> bool {
        self.rules.in_check(state.position()) && (ply as i32) < 2 * root_depth
    }
}

/// The search's score (centipawns) of `state`, `depth` turns deep, with the table and the
/// reductions off.
fn searched<R, E>(rules: &R, eval: &E, state: &TurnState<R::Position>, depth: u32, pruning: ChancePruning) -> i32
where
    R: Rules + Sync,
    R::Position: Send + Sync,
    R::Turn: Send + Sync,
    E: Evaluator<R>,
{
    let (position, root) = match state {
        TurnState::BeforeRoll(p) => (p, Root::PreRoll),
        TurnState::Rolled(p, roll) => {
            let mut turns = TurnList::new();
            rules.allowed_turns(p, roll, &mut turns);
            (p, Root::Turns(turns.to_vec()))
        }
        TurnState::Rolling(_) => unreachable!("the tests' states are turn starts and rolled turns"),
    };
    let input = SearchInput {
        rules,
        eval,
        position,
        root,
        history: &[],
        limits: Limits { depth: Some(depth), ..Limits::default() },
        options: SearchOptions {
            chance_pruning: pruning,
            use_tt: false,
            reductions: false,
            chance_probcut: false,
            exact_solution: false,
            ..SearchOptions::default()
        },
    };
    search::search(&input, &Shared::new(1), &mut |_| {}).score
}

/// Checks every state at every depth; returns how many states were after a roll.
fn check<R, E>(rules: &R, eval: &E, states: &[TurnState<R::Position>], depths: std::ops::RangeInclusive<u32>) -> usize
where
    R: Rules + Sync,
    R::Position: Send + Sync + std::fmt::Debug,
    R::Turn: Send + Sync,
    E: Evaluator<R>,
{
    let game = OneMoveStates { rules };
    let horizon = OneMoveHorizon { rules, eval, horizon: search::Horizon::new() };
    let equity = Equity::new(eval.result_scale());
    let mut failures = Vec::new();
    for (n, state) in states.iter().enumerate() {
        for depth in depths.clone() {
            let plain = equity.to_score(reference::expectiminimax(&game, &horizon, state, depth as i32));
            for pruning in [ChancePruning::None, ChancePruning::Star1, ChancePruning::Star2] {
                let v = searched(rules, eval, state, depth, pruning);
                if v != plain {
                    failures.push(format!("state {n} {state:?} depth {depth} {}: {v} != {plain}", pruning.name()));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} states x depths differ:\n{}",
        failures.len(),
        states.len(),
        failures.join("\n")
    );
    states.iter().filter(|s| matches!(s, TurnState::Rolled(..))).count()
}

fn states_of<R: Rules>(
    rules: &R,
    start: R::Position,
    seed: u64,
    count: usize,
    turns: std::ops::RangeInclusive<usize>,
) -> Vec<TurnState<R::Position>> {
    reference::random_states(&OneMoveStates { rules }, &TurnState::BeforeRoll(start), seed, count, turns)
}

fn eight_by_eight(
    kind: ChessKind,
    seed: u64,
    count: usize,
    turns: std::ops::RangeInclusive<usize>,
) -> (ChessRules, StaticEval, Vec<TurnState<Position>>) {
    let rules = ChessRules::new(kind, false);
    let states = states_of(&rules, Position::new(alea_engine::Board::startpos()), seed, count, turns);
    (rules, StaticEval::new(alea_engine::services::registry::Variant::of_kind(kind).default_eval()), states)
}

/// Endgames, where a plain expectiminimax three turns deep ends in seconds even over two dice:
/// the kings and `men` other pieces of the boards of random games (the rest taken off, castling
/// and en passant cleared) that the rules accept as a game not over, each before the roll and
/// rolled.
fn endgames(
    kind: ChessKind,
    seed: u64,
    count: usize,
    men: usize,
) -> (ChessRules, StaticEval, Vec<TurnState<Position>>) {
    let (rules, eval, games) = eight_by_eight(kind, seed, 4 * count, 0..=40);
    let game = OneMoveStates { rules: &rules };
    let mut rng = StdRng::seed_from_u64(seed);
    let mut states = Vec::new();
    for state in games.iter().filter(|s| matches!(s, TurnState::BeforeRoll(_))) {
        let board = &state.position().board;
        // The pieces other than kings in the FEN's order (from a8), shuffled; the first `men` stay.
        let mut others: Vec<Square> =
            board.occupied().into_iter().filter(|&sq| board.role_at(sq) != Some(Role::King)).collect();
        others.sort_by_key(|sq| (7 - sq.rank(), sq.file()));
        others.shuffle(&mut rng);
        let mut kept = alea_engine::Board::empty();
        for sq in board.occupied() {
            if board.role_at(sq) == Some(Role::King) || others[..men.min(others.len())].contains(&sq) {
                kept.put(sq, board.piece_at(sq).expect("an occupied square"));
            }
        }
        let placement = kept.fen().split(' ').next().expect("a placement").to_string();
        let text = format!("{placement} {} - - 0 1", board.turn().fen_char());
        let Ok(board) = alea_engine::Board::from_fen(&text) else { continue };
        let pos = Position::new(board);
        if rules.validate(&pos).is_err() || rules.end(&pos).is_some() {
            continue;
        }
        let start = TurnState::BeforeRoll(pos);
        if let Some(rolled) = reference::rolled(&game, &start, &mut rng) {
            states.push(rolled);
        }
        states.push(start);
        if states.len() >= count {
            break;
        }
    }
    states.truncate(count);
    assert_eq!(states.len(), count, "{kind:?}: too few endgames");
    (rules, eval, states)
}

/// 120 states of random games at depths 1 and 2, the first `deep` of them at depth 3 too, and
/// 24 endgames (four men besides the kings: promotions, mates and kings taken within reach)
/// at depths 1 to 3.
fn check_variant(kind: ChessKind, deep: usize) {
    let (rules, eval, states) = eight_by_eight(kind, 1, 120, 0..=40);
    let rolled = check(&rules, &eval, &states, 1..=2);
    assert!((40..120).contains(&rolled), "{kind:?}: {rolled} of 120 states after a roll");
    check(&rules, &eval, &states[..deep], 3..=3);
    let (rules, eval, states) = endgames(kind, 2, 24, 4);
    check(&rules, &eval, &states, 1..=3);
}

#[test]
fn freedom_equals_plain_expectiminimax() {
    check_variant(ChessKind::Freedom, 40);
}

#[test]
fn classic_equals_plain_expectiminimax() {
    check_variant(ChessKind::Classic, 6);
}

#[test]
fn brainking_equals_plain_expectiminimax() {
    check_variant(ChessKind::BrainKing, 24);
}

#[test]
fn vegas_equals_plain_expectiminimax() {
    check_variant(ChessKind::Vegas, 8);
}

#[test]
fn brainking10_equals_plain_expectiminimax() {
    let rules = BrainKing10;
    let eval = BigEval::from_params(&alea_engine::services::registry::Variant::BrainKing10.default_eval());
    let states = states_of(&rules, rules.start(), 2, 40, 0..=40);
    check(&rules, &eval, &states, 1..=2);
}

#[test]
fn die_chess_equals_plain_expectiminimax() {
    let states = states_of(&DieChess, DiePosition::start(), 3, 120, 0..=40);
    check(&DieChess, &DieEval, &states, 1..=2);
    check(&DieChess, &DieEval, &states[..4], 3..=3);
}

/// Every 8x8 variant's 120 states, and Die Chess's, at depth 3 (about ten minutes):
/// `cargo test -p alea-engine --test engine one_move_exact -- --ignored`.
#[test]
#[ignore]
fn every_variant_at_depth_3() {
    for kind in [ChessKind::Freedom, ChessKind::Classic, ChessKind::BrainKing, ChessKind::Vegas] {
        let (rules, eval, states) = eight_by_eight(kind, 1, 120, 0..=40);
        check(&rules, &eval, &states, 3..=3);
    }
    check(&DieChess, &DieEval, &states_of(&DieChess, DiePosition::start(), 3, 120, 0..=40), 3..=3);
}
