//! The search of the variants of several moves a turn against the independent plain
//! expectiminimax of `reference` (no windows, no table, no reductions; the same leaves, averaged
//! as equities; the one-move search is checked against it too): Star1 and Star2 must return its
//! value to the centipawn, at turn starts (the roll to come) and in turns (dice left). And what
//! the search finds: a king capture the dice allow, its probability.

use crate::reference;

use alea_engine::Board;
use alea_engine::board::values::PieceValues;
use alea_engine::eval::MicroEval;
use alea_engine::eval::StaticEval;
use alea_engine::rules::Roll;
use alea_engine::rules::micro::{MicroPosition, MicroRules, PlanCache, PositionOf, StepsOf, after_step, allowed_steps};
use alea_engine::rules::states::MicroStates;
use alea_engine::rules::{Burmese, DiceChess3, Gollon, Gollon2};
use alea_engine::search::equity::Equity;
use alea_engine::search::micro::{HorizonDice, horizon_value};
use alea_engine::search::timeman::Limits;
use alea_engine::search::{ChancePruning, Choice, MicroInput, SearchOptions, Shared, WIN, search_micro};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn eval() -> StaticEval {
    StaticEval::material(PieceValues([100, 300, 300, 500, 900, 0]))
}

/// Material and the danger to the mover's king (which moves the horizon's floor).
fn careful_eval() -> StaticEval {
    let mut params = alea_engine::eval::params::EvalParams::from_values(PieceValues([100, 300, 300, 500, 900, 0]));
    params.king_danger = 600;
    StaticEval::new(params)
}

/// The micro-move search's leaves (no extension: a turn always costs its depth).
struct MicroHorizon<'a, R, E> {
    rules: &'a R,
    eval: &'a E,
    equity: Equity,
}

impl<'s, R: MicroRules, E: MicroEval<R::Board>> reference::Horizon<MicroStates<'s, R>> for MicroHorizon<'_, R, E> {
    fn leaf(&self, pos: &PositionOf<R>, ply: usize) -> i32 {
        let dice = HorizonDice::new(self.rules, &self.rules.outcomes(pos));
        horizon_value(self.rules, self.eval, &self.equity, pos, ply, &dice)
    }
}

fn searched(eval: &StaticEval, pos: &MicroPosition, depth: u32, pruning: ChancePruning, use_tt: bool) -> i32 {
    searched_in(&DiceChess3, eval, pos, depth, pruning, use_tt)
}

fn searched_in<R: MicroRules + Sync, E: MicroEval<R::Board>>(
    rules: &R,
    eval: &E,
    pos: &PositionOf<R>,
    depth: u32,
    pruning: ChancePruning,
    use_tt: bool,
) -> i32 {
    searched_with(rules, eval, pos, depth, SearchOptions { chance_pruning: pruning, use_tt, ..Default::default() })
}

fn searched_with<R: MicroRules + Sync, E: MicroEval<R::Board>>(
    rules: &R,
    eval: &E,
    pos: &PositionOf<R>,
    depth: u32,
    options: SearchOptions,
) -> i32 {
    let input = MicroInput {
        rules,
        eval,
        position: pos,
        history: &[],
        limits: Limits { depth: Some(depth), ..Default::default() },
        options,
        only: None,
    };
    let shared = Shared::new(16);
    search_micro(&input, &shared, &mut |_| {}).score
}

/// Positions from seeded random games, each at a turn's start and, rolled, in its turn.
fn random_positions(seed: u64, count: usize, max_turns: usize) -> Vec<MicroPosition> {
    random_positions_of(&DiceChess3, seed, count, max_turns)
}

/// A roll of the variant at `pos`, drawn by the outcomes' weights.
fn random_roll<R: MicroRules<Board = Board>>(rules: &R, pos: &MicroPosition, rng: &mut StdRng) -> Roll {
    let outcomes = rules.outcomes(pos);
    let total: u32 = outcomes.iter().map(|o| o.weight).sum();
    alea_engine::rules::dice::pick_by_weight(&outcomes, u64::from(rng.random_range(0..total))).expect("a roll")
}

fn random_positions_of<R: MicroRules<Board = Board>>(
    rules: &R,
    seed: u64,
    count: usize,
    max_turns: usize,
) -> Vec<MicroPosition> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut cache = PlanCache::default();
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = rules.startpos();
        let turns = rng.random_range(0..max_turns);
        for _ in 0..turns {
            if rules.end(&pos).is_some() {
                break;
            }
            pos = rules.rolled(&pos, &random_roll(rules, &pos, &mut rng));
            let mut steps = StepsOf::<R>::new();
            loop {
                allowed_steps(rules, &pos, &mut cache, &mut steps);
                if steps.is_empty() {
                    pos = pos.finish_turn();
                    break;
                }
                let step = steps[rng.random_range(0..steps.len())];
                pos = after_step(rules, &pos, step);
                if step.ends_turn {
                    break;
                }
            }
        }
        if rules.end(&pos).is_none() {
            out.push(rules.rolled(&pos, &random_roll(rules, &pos, &mut rng)));
            out.push(pos);
        }
    }
    out
}

fn endgames() -> Vec<MicroPosition> {
    endgames_of(&DiceChess3)
}

fn endgames_of<R: MicroRules<Board = Board>>(rules: &R) -> Vec<MicroPosition> {
    [
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "4k3/4p3/8/8/8/8/8/4K3 b - - 0 1",
        "8/8/3k4/8/3K4/8/8/8 w - - 0 1",
        "8/5k2/8/8/2P5/8/8/2K5 b - - 0 1",
        "k7/8/1K6/8/8/8/8/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 RK",
        "8/8/8/3k4/8/8/3pK3/8 w - - 0 1 KK",
        "7k/8/8/8/8/8/6p1/7K b - - 0 1 ppk",
    ]
    .iter()
    .map(|d| rules.parse_dfen(d).expect("a DFEN"))
    .collect()
}

fn check(eval: &StaticEval, positions: &[MicroPosition], depths: std::ops::RangeInclusive<u32>) -> usize {
    check_in(&DiceChess3, eval, positions, depths)
}

fn check_in<R: MicroRules + Sync, E: MicroEval<R::Board>>(
    rules: &R,
    eval: &E,
    positions: &[PositionOf<R>],
    depths: std::ops::RangeInclusive<u32>,
) -> usize {
    let game = MicroStates::new(rules);
    let horizon = MicroHorizon { rules, eval, equity: Equity::new(eval.result_scale()) };
    let mut failures = Vec::new();
    let mut differing = 0;
    for pos in positions {
        for depth in depths.clone() {
            // The search reports its value in centipawns.
            let plain = horizon.equity.to_score(reference::expectiminimax(&game, &horizon, pos, depth as i32));
            // Without reductions, the plain expectiminimax's value; with them (late micro-moves
            // searched a turn less deep, or pruned before the horizon: a property of each
            // position, so one tree), every chance pruning gives the same value as none.
            let mut reduced_none = None;
            for pruning in [ChancePruning::None, ChancePruning::Star1, ChancePruning::Star2] {
                let exact =
                    SearchOptions { chance_pruning: pruning, use_tt: false, reductions: false, ..Default::default() };
                let v = searched_with(rules, eval, pos, depth, exact.clone());
                if v != plain {
                    failures.push(format!("{} depth {depth} {pruning:?}: {v} != {plain}", rules.dfen(pos)));
                }
                let reduced = searched_with(rules, eval, pos, depth, SearchOptions { reductions: true, ..exact });
                differing += usize::from(pruning == ChancePruning::None && reduced != plain);
                if *reduced_none.get_or_insert(reduced) != reduced {
                    failures.push(format!(
                        "{} depth {depth} {pruning:?} reduced: {reduced} != {reduced_none:?} without chance pruning",
                        rules.dfen(pos)
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    differing
}

/// Material with a network beside it: Freedom's, read as if trained for dicechess3 (its
/// weights are as good a test as any: they score each position differently).
fn learned_eval() -> StaticEval {
    let freedom =
        "freedom".parse::<alea_engine::services::registry::Variant>().unwrap().network().expect("freedom's network");
    let mut net = alea_engine::eval::nnue::Network::from_bytes(&freedom.to_bytes()).expect("it reads back");
    net.variant = "dicechess3".into();
    eval().with_net(Some(std::sync::Arc::new(net)))
}

#[test]
fn star1_and_star2_equal_plain_expectiminimax_at_depth_1() {
    check(&eval(), &random_positions(1, 16, 20), 1..=1);
    check(&careful_eval(), &random_positions(3, 16, 20), 1..=1);
    // With a network, whose score does not follow from the tables' sums, so no bound is taken
    // from them (in debug builds a wrong one fails its assertion).
    check(&learned_eval(), &random_positions(5, 12, 20), 1..=1);
}

/// A network scores a game of several moves a turn as it does one of one move: the game's
/// search with a network for its variant differs from the tables' and equals the search with
/// that evaluation; one trained for another variant is not used.
#[test]
fn a_network_for_the_variant_scores_its_searches() {
    use alea_engine::services::handle::{GameHandle, RollSpec, SearchRoot};
    let dfen = "r1bqk2r/ppp2ppp/2n2n2/2bpp3/2B1P3/3P1N2/PPP2PPP/RNBQ1RK1 w kq - 0 6";
    let game = GameHandle::setup(alea_engine::services::registry::Variant::DiceChess3, false, Some(dfen), None, &[])
        .expect("a DFEN");
    let depth = Limits { depth: Some(1), ..Default::default() };
    let root = SearchRoot::Rolled(RollSpec::Faces(vec![2, 3, 6]));
    let score = |options: SearchOptions| {
        game.search(&root, depth.clone(), options, &Shared::new(16), &mut |_| {}).expect("a search").score
    };
    let learned = learned_eval();
    let net = learned.net.clone();
    let with_net = score(SearchOptions { net: net.clone(), ..Default::default() });
    let tables = score(SearchOptions::default());
    assert_ne!(with_net, tables, "the network changes nothing here: choose another position");
    let tables_and_net =
        alea_engine::eval::StaticEval::new(alea_engine::services::registry::Variant::DiceChess3.default_eval())
            .with_net(net);
    let pos = DiceChess3.parse_dfen(&format!("{dfen} NBK")).expect("the same position rolled");
    assert_eq!(searched_with(&DiceChess3, &tables_and_net, &pos, 1, SearchOptions::default()), with_net);
    let freedom = "freedom".parse::<alea_engine::services::registry::Variant>().unwrap().network();
    assert_eq!(score(SearchOptions { net: freedom, ..Default::default() }), tables);
}

/// Grand Dice Chess on its 12x12 board: four dice (126 outcomes), non-pawn dice optional, a pawn
/// die compulsory while a pawn can move, several kings; small endgames, so that the plain
/// expectiminimax can list every turn.
#[test]
fn grand_star1_and_star2_equal_plain_expectiminimax() {
    use alea_engine::eval::big::BigEval;
    use alea_engine::rules::Grand;
    // With development counted, as grand plays (the bound of a last micro-move follows it exactly).
    let eval = BigEval {
        values: PieceValues([100, 300, 300, 500, 900, 0]),
        pawn_step: 4,
        centre: 3,
        result_scale: alea_engine::eval::params::DEFAULT_RESULT_SCALE,
    };
    let positions: Vec<_> = [
        "k11/12/12/12/12/12/12/12/12/12/4P7/K11 w - - 0 1",
        "k5k5/1p10/12/12/12/12/12/12/12/12/12/K5K5 b - - 0 1",
        "k11/1p10/12/12/12/12/12/12/12/12/12/K4R6 w - - 0 1 PR",
        "k11/12/12/12/12/12/12/12/12/12/6p5/K4N6 b - - 0 1 pq",
        "1k1k8/12/12/12/12/12/12/12/12/12/12/1R1K8 w - - 0 1 RK",
        "k11/12/12/12/12/12/12/12/12/12/4P7/K11 w - - 0 1 P",
    ]
    .iter()
    .map(|d| Grand.parse_dfen(d).expect("a DFEN"))
    .collect();
    check_in(&Grand, &eval, &positions, 1..=1);
    check_in(&Grand, &eval, &positions[5..], 2..=2);
}

/// Burmese: any die may go unused, so every turn may stop early (and the search weighs stopping).
#[test]
fn burmese_star1_and_star2_equal_plain_expectiminimax() {
    check_in(&Burmese, &eval(), &random_positions_of(&Burmese, 5, 12, 20), 1..=1);
    check_in(&Burmese, &careful_eval(), &random_positions_of(&Burmese, 6, 8, 20), 1..=1);
    check_in(&Burmese, &eval(), &endgames_of(&Burmese), 1..=2);
}

/// Gollon: up to four micro-moves by any pieces, so turns in the millions; the positions are
/// few and small, two of them searched two turns deep.
#[test]
fn gollon_star1_and_star2_equal_plain_expectiminimax() {
    let in_turn: Vec<MicroPosition> =
        random_positions_of(&Gollon, 7, 12, 16).into_iter().filter(|p| p.in_turn() && p.dice.len() <= 2).collect();
    assert!(in_turn.len() >= 3, "{} positions", in_turn.len());
    check_in(&Gollon, &eval(), &in_turn, 1..=1);
    // At a turn's start: the four counts, four micro-moves by any pieces at half the weight.
    let starts: Vec<MicroPosition> =
        random_positions_of(&Gollon, 8, 4, 12).into_iter().filter(|p| !p.in_turn()).collect();
    check_in(&Gollon, &eval(), &starts, 1..=1);
    let endgames: Vec<MicroPosition> = [
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "8/8/3k4/8/3K4/8/8/8 w - - 0 1",
        "8/5k2/8/8/2P5/8/8/2K5 b - - 0 1",
        "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 AA",
        "7k/8/8/8/8/8/6p1/7K b - - 0 1 aaa",
    ]
    .iter()
    .map(|d| Gollon.parse_dfen(d).expect("a DFEN"))
    .collect();
    check_in(&Gollon, &eval(), &endgames, 1..=1);
    check_in(&Gollon, &careful_eval(), &endgames, 1..=1);
    // Two turns deep from the last micro-move of a turn: the opponent's four counts in full.
    let last_moves: Vec<MicroPosition> = ["4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 A", "7k/8/8/8/8/8/6p1/7K b - - 0 1 a"]
        .iter()
        .map(|d| Gollon.parse_dfen(d).expect("a DFEN"))
        .collect();
    check_in(&Gollon, &eval(), &last_moves, 2..=2);
}

/// Gollon2: one piece makes a turn's micro-moves, so its turns are few; random positions (in
/// turns and at turn starts) at depth 1, and two turns in progress two turns deep.
#[test]
fn gollon2_star1_and_star2_equal_plain_expectiminimax() {
    check_in(&Gollon2, &eval(), &random_positions_of(&Gollon2, 9, 12, 20), 1..=1);
    check_in(&Gollon2, &careful_eval(), &random_positions_of(&Gollon2, 10, 8, 20), 1..=1);
    let endgames: Vec<MicroPosition> = [
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "8/5k2/8/8/2P5/8/8/2K5 b - - 0 1",
        "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 RAA",
        "4k3/8/8/8/8/8/8/2KR4 w - - 0 1 A@d1",
    ]
    .iter()
    .map(|d| Gollon2.parse_dfen(d).expect("a DFEN"))
    .collect();
    check_in(&Gollon2, &eval(), &endgames[..2], 1..=1);
    check_in(&Gollon2, &eval(), &endgames[2..], 1..=2);
}

#[test]
fn star1_and_star2_equal_plain_expectiminimax_in_endgames_at_depth_2() {
    let reduced = check(&eval(), &endgames(), 1..=2) + check(&careful_eval(), &endgames(), 1..=2);
    // Two turns deep, three dice reduce nothing: the root's turn is searched whole and the
    // opponent's is one turn deep. Three turns deep they do (the heavy test below).
    assert_eq!(reduced, 0, "the reductions changed a value two turns deep");
}

#[test]
#[ignore = "minutes: cargo test --release -p alea-engine --test engine micro_search -- --ignored"]
fn star1_and_star2_equal_plain_expectiminimax_on_many_positions() {
    check(&eval(), &random_positions(2, 100, 40), 1..=1);
    check(&careful_eval(), &random_positions(4, 50, 40), 1..=1);
    // Three turns of plain expectiminimax multiply 56 outcomes by every turn three times over:
    // positions where little can move.
    let tiny: Vec<MicroPosition> = ["k7/p7/P7/K7/8/8/8/8 w - - 0 1", "7k/7p/7P/7K/8/8/8/8 b - - 0 1"]
        .iter()
        .map(|d| DiceChess3.parse_dfen(d).expect("a DFEN"))
        .collect();
    check(&eval(), &tiny, 3..=3);
    // Three turns deep the opponent's turn reduces its late micro-moves: some values change, and
    // every chance pruning agrees on the reduced tree.
    let kings: Vec<MicroPosition> = ["8/8/3k4/8/3K4/8/8/8 w - - 0 1", "8/5k2/8/8/2P5/8/8/2K5 b - - 0 1"]
        .iter()
        .map(|d| DiceChess3.parse_dfen(d).expect("a DFEN"))
        .collect();
    assert!(check(&eval(), &kings, 3..=3) > 0, "the reductions changed no value three turns deep");
}

/// A rook on the king's file takes it with any roll holding a 4: 1 - (5/6)^3 = 91/216 of the
/// time; otherwise the position stands (no other capture). The root's table says so.
#[test]
fn a_king_capture_is_found_for_exactly_the_rolls_that_allow_it() {
    let pos = DiceChess3.parse_dfen("4k3/8/8/8/8/8/8/K3R3 w - - 0 1").unwrap();
    let eval = eval();
    let input = MicroInput {
        rules: &DiceChess3,
        eval: &eval,
        position: &pos,
        history: &[],
        limits: Limits { depth: Some(1), ..Default::default() },
        options: SearchOptions::default(),
        only: None,
    };
    let result = search_micro(&input, &Shared::new(16), &mut |_| {});
    assert_eq!(result.best, Choice::Roll);
    assert_eq!(result.outcomes.len(), 56);
    let winning: f64 = result.outcomes.iter().filter(|o| o.score > WIN - 10).map(|o| o.probability).sum();
    assert!((winning - 91.0 / 216.0).abs() < 1e-9, "P(king capture) = {winning}");
    for o in &result.outcomes {
        let has_rook = o.roll.faces().contains(&4);
        assert_eq!(o.score > WIN - 10, has_rook, "roll {}: {}", o.roll, o.score);
        if has_rook {
            assert_eq!(o.best.to_uci(false), "e1e8", "roll {}", o.roll);
        }
    }
}

/// Within one depth the table changes the work, not the value.
#[test]
fn the_table_keeps_the_value() {
    let mut positions = random_positions(3, 8, 20);
    positions.extend(endgames());
    for pos in positions {
        let depth = if pos.board.occupied().count() <= 5 { 2 } else { 1 };
        assert_eq!(
            searched(&eval(), &pos, depth, ChancePruning::Star2, true),
            searched(&eval(), &pos, depth, ChancePruning::Star2, false),
            "{}",
            DiceChess3.dfen(&pos)
        );
    }
}

/// The horizon's arithmetic by hand: a rook that takes the king with any rook die among three
/// (91 of the 216 ordered rolls) wins those, and the rest stand on the material (its equity);
/// the side whose king that rook attacks is charged the king-danger share of the same 91 rolls.
#[test]
fn the_horizon_and_the_king_danger_by_hand() {
    use alea_engine::eval::params::EvalParams;
    use alea_engine::search::micro::standing;
    let white = DiceChess3.parse_dfen("4k3/8/8/8/8/8/8/K3R3 w - - 0 1").unwrap();
    let dice = HorizonDice::new(&DiceChess3, &DiceChess3.outcomes(&white));
    let plain = eval();
    let equity = Equity::new(plain.params.result_scale);
    // A rook up at the default scale, 0.695: 1 / (1 + 10^-0.86875) = 0.88087 expected, so
    // 4000 * (2 * 0.88087 - 1) = 3047 of equity.
    assert_eq!(equity.of(500), 3047);
    assert_eq!(horizon_value(&DiceChess3, &plain, &equity, &white, 0, &dice), (91 * (WIN - 1) + 125 * 3047) / 216);
    let mut params = EvalParams::from_values(PieceValues([100, 300, 300, 500, 900, 0]));
    params.king_danger = 600;
    let careful = StaticEval::new(params);
    let black = DiceChess3.parse_dfen("4k3/8/8/8/8/8/8/K3R3 b - - 0 1").unwrap();
    assert_eq!(standing(&plain, &black, &dice), -500);
    assert_eq!(standing(&careful, &black, &dice), -500 - 600 * 91 / 216);
    // White's king is not attacked: nothing is charged.
    assert_eq!(standing(&careful, &white, &dice), 500);
    // Two steps: a knight two moves from the king (any two knight dice) counts too.
    let knight = DiceChess3.parse_dfen("4k3/8/8/8/4N3/8/8/K7 b - - 0 1").unwrap();
    let two_knights = 216 - 125 - 75; // at least two 2s among three dice: 16 rolls
    assert_eq!(standing(&careful, &knight, &dice), -300 - 600 * two_knights / 216);
}

/// Helper threads only fill the table: the root's value is the one thread's, to the centipawn.
#[test]
fn two_threads_find_the_same_values() {
    let eval = eval();
    // Middlegames one turn deep (thousands of root turns each), endgames two.
    let cases: Vec<(MicroPosition, u32)> = random_positions(5, 24, 30)
        .into_iter()
        .filter(|p| p.in_turn())
        .map(|p| (p, 1))
        .chain(endgames().into_iter().flat_map(|p| [(p.clone(), 1), (p, 2)]))
        .chain(
            [
                ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNB", 2),
                ("4k3/8/8/8/4B3/8/8/K3R3 w - - 0 1 BRK", 2),
            ]
            .map(|(d, depth)| (DiceChess3.parse_dfen(d).expect("a DFEN"), depth)),
        )
        .collect();
    assert!(cases.len() >= 20);
    for (pos, depth) in &cases {
        let (pos, depth) = (pos, *depth);
        {
            let value = |threads: usize| {
                let input = MicroInput {
                    rules: &DiceChess3,
                    eval: &eval,
                    position: pos,
                    history: &[],
                    limits: Limits { depth: Some(depth), ..Default::default() },
                    options: SearchOptions { threads, ..Default::default() },
                    only: None,
                };
                search_micro(&input, &Shared::new(16), &mut |_| {}).score
            };
            assert_eq!(value(2), value(1), "{} depth {depth}", DiceChess3.dfen(pos));
        }
    }
}

/// `searchmoves` in a variant of several moves a turn: the root restricted to the turns given
/// scores each as the whole search scores it, and picks the best of them.
#[test]
fn a_root_of_chosen_turns_scores_them_as_the_whole_search_does() {
    use alea_engine::services::handle::{GameHandle, RollSpec, SearchRoot};
    let mut rng = StdRng::seed_from_u64(17);
    let mut checked = 0;
    for variant in ["dicechess3", "burmese", "gollon2"] {
        let mut game = GameHandle::of(variant.parse().unwrap(), false).unwrap();
        for _ in 0..12 {
            if game.end().is_some() {
                break;
            }
            let roll = game.roll_for(rng.random_range(0..game.total_weight())).unwrap();
            let spec = RollSpec::Faces(roll.faces().to_vec());
            for depth in 1..=2 {
                let limits = Limits { depth: Some(depth), ..Default::default() };
                let options = SearchOptions { multipv: 5, ..Default::default() };
                let whole = game
                    .search(&SearchRoot::Rolled(spec.clone()), limits.clone(), options, &Shared::new(16), &mut |_| {})
                    .unwrap();
                let ranked: Vec<(String, i32)> = whole
                    .choices
                    .iter()
                    .filter(|c| c.exact)
                    .filter_map(|c| match &c.choice {
                        Choice::Turn(t) => Some((t.clone(), c.score)),
                        Choice::Roll => None,
                    })
                    .collect();
                if ranked.len() < 3 {
                    continue;
                }
                // The second and the last of the ranked, in that order and the other.
                for turns in [
                    vec![ranked[1].clone(), ranked[ranked.len() - 1].clone()],
                    vec![ranked[ranked.len() - 1].clone(), ranked[1].clone()],
                ] {
                    let root = SearchRoot::Only {
                        roll: Some(spec.clone()),
                        turns: turns.iter().map(|(t, _)| t.clone()).collect(),
                    };
                    let only = game
                        .search(&root, limits.clone(), SearchOptions::default(), &Shared::new(16), &mut |_| {})
                        .unwrap();
                    let what = format!("{variant} {} roll {spec:?} depth {depth}: {turns:?}", game.fen());
                    assert_eq!(only.score, ranked[1].1, "{what}");
                    // Of two turns of one score, either.
                    let best = turns.iter().filter(|(_, s)| *s == ranked[1].1).map(|(t, _)| Choice::Turn(t.clone()));
                    assert!(best.clone().any(|t| t == only.best), "{what}: {:?}", only.best);
                    checked += 1;
                }
            }
            let turn = game.nth_turn(&spec, 0).unwrap().unwrap();
            game.play_checked(&turn, Some(&roll)).unwrap();
        }
        // A turn the roll does not allow, and none, are refused.
        let roll = game.roll_for(0).unwrap();
        let root = SearchRoot::Only { roll: Some(RollSpec::Faces(roll.faces().to_vec())), turns: vec!["a1a8".into()] };
        assert!(game.search(&root, Limits::default(), SearchOptions::default(), &Shared::new(1), &mut |_| {}).is_err());
        let root = SearchRoot::Only { roll: Some(RollSpec::Faces(roll.faces().to_vec())), turns: vec![] };
        assert!(game.search(&root, Limits::default(), SearchOptions::default(), &Shared::new(1), &mut |_| {}).is_err());
    }
    assert!(checked >= 40, "{checked}");
}

/// The table before the roll gives each outcome the value the search after that roll gives, at
/// the same depth: the root's own turn is searched whole either way. (Reduced before the roll, a
/// late micro-move's shallower value, the opponent's reply unseen, was often an outcome's best,
/// and the table two turns deep read about one turn deep.)
#[test]
fn each_outcome_before_the_roll_is_worth_what_the_search_after_it_finds() {
    use alea_engine::services::handle::{GameHandle, RollSpec, SearchRoot};
    let cases = [
        ("dicechess3", "8/5pk1/6p1/8/3R4/6P1/5PK1/3r4 w - - 0 40"),
        ("dicechess3", "r5k1/5ppp/8/8/8/2N5/5PPP/3R2K1 b - - 0 30"),
        ("burmese", "8/5pk1/6p1/8/3R4/6P1/5PK1/3r4 w - - 0 40"),
        ("gollon", "r5k1/5ppp/8/8/8/2N5/5PPP/3R2K1 w - - 0 30"),
    ];
    let limits = Limits { depth: Some(2), ..Default::default() };
    for (variant, fen) in cases {
        let game = GameHandle::setup(variant.parse().unwrap(), false, Some(fen), None, &[]).unwrap();
        let before = game
            .search(&SearchRoot::Decision, limits.clone(), SearchOptions::default(), &Shared::new(16), &mut |_| {})
            .unwrap();
        assert!(!before.outcomes.is_empty(), "{variant} {fen}");
        for outcome in &before.outcomes {
            let spec = RollSpec::Faces(outcome.roll.faces().to_vec());
            let after = game
                .search(
                    &SearchRoot::Rolled(spec),
                    limits.clone(),
                    SearchOptions::default(),
                    &Shared::new(16),
                    &mut |_| {},
                )
                .unwrap();
            assert_eq!(outcome.score, after.score, "{variant} {fen} roll {:?}", outcome.roll.faces());
        }
    }
}

/// Four dice before the roll: a search stopped before its first iteration ended still answers
/// with every outcome, those it finished searched and the rest marked estimated by the horizon,
/// and the roll's expected score is their mean (of equities: within their range in centipawns);
/// never an empty table.
#[test]
fn a_search_stopped_in_its_first_iteration_still_values_every_outcome() {
    use alea_engine::search::timeman::Limits;
    use alea_engine::search::{SearchOptions, Shared};
    use alea_engine::services::handle::{GameHandle, SearchRoot};
    let game = GameHandle::of(alea_engine::services::registry::Variant::Grand, false).unwrap();
    let limits = Limits { nodes: Some(300_000), ..Limits::default() };
    let r =
        game.search(&SearchRoot::Decision, limits, SearchOptions::default(), &Shared::new(16), &mut |_| {}).unwrap();
    assert_eq!(r.depth, 0, "the first iteration ended: give fewer nodes");
    assert_eq!(r.outcomes.len(), game.outcomes().len());
    let estimated = r.outcomes.iter().filter(|o| o.estimated).count();
    assert!(estimated > 0 && estimated < r.outcomes.len(), "{estimated} of {} estimated", r.outcomes.len());
    for o in &r.outcomes {
        assert!(game.allows(&o.best, &o.roll), "{} after {}", o.best, o.roll);
    }
    let (low, high) = (r.outcomes.iter().map(|o| o.score).min(), r.outcomes.iter().map(|o| o.score).max());
    let expected = r.roll_score.expect("the roll's expected score");
    assert!(low.unwrap() <= expected && expected <= high.unwrap(), "{expected} outside {low:?}..{high:?}");
    assert_eq!(r.score, expected);
}
