//! The search: chance pruning is exact (Star1 and Star2 give plain expectimax's value to the
//! last unit), the tactics a dice-chess engine must see, threads and time limits.

use alea_engine::eval::StaticEval;
use alea_engine::rules::{ChessKind, ChessRules, Position, Roll, Rules, TurnList, Vegas};
use alea_engine::search::timeman::Limits;
use alea_engine::search::{
    self, ChancePruning, Choice, MATE_ZONE, Root, SearchInput, SearchOptions, SearchResult, Shared,
};
use alea_engine::{Board, Game, Move};

struct Case {
    game: Game<ChessRules>,
    root: Root<Move>,
}

fn case(kind: ChessKind, fen: &str, moves: &[&str], roll: &[u8]) -> Case {
    let mut game = Game::new(ChessRules::new(kind, false), Position::new(Board::from_fen(fen).unwrap()));
    for m in moves {
        game.play_uci(m, |p| p.board.fen()).unwrap();
    }
    let root = if roll.is_empty() {
        Root::PreRoll
    } else {
        let mut turns = TurnList::new();
        game.rules().allowed_turns(game.position(), &Roll::new(roll).unwrap(), &mut turns);
        Root::Turns(turns.to_vec())
    };
    Case { game, root }
}

fn run(c: &Case, depth: u32, options: SearchOptions, limits: Limits) -> SearchResult<Move> {
    run_reporting(c, options, Limits { depth: Some(depth), ..limits }, &mut |_| {})
}

/// The search of `c`, `report` called after each iteration.
fn run_reporting(
    c: &Case,
    options: SearchOptions,
    limits: Limits,
    report: &mut (dyn FnMut(&SearchResult<Move>) + Send),
) -> SearchResult<Move> {
    let rules = *c.game.rules();
    let eval = StaticEval::new(alea_engine::services::registry::Variant::of_kind(rules.kind()).default_eval());
    let input = SearchInput {
        rules: &rules,
        eval: &eval,
        position: c.game.position(),
        root: c.root.clone(),
        history: c.game.hashes(),
        limits,
        options,
    };
    search::search(&input, &Shared::new(4), report)
}

fn exact_search(c: &Case, depth: u32, pruning: ChancePruning) -> SearchResult<Move> {
    let options = SearchOptions {
        chance_pruning: pruning,
        use_tt: false,
        threads: 1,
        multipv: 1,
        eval: None,
        net: None,
        use_net: true,
        exact_solution: true,
        reductions: true,
        chance_probcut: false,
        probcut_margin: None,
    };
    run(c, depth, options, Limits::default())
}

/// Positions from the shared conformance games (every variant; pre-roll and rolled roots).
fn conformance_cases(per_variant: usize) -> Vec<Case> {
    let mut cases = Vec::new();
    for (file, kind) in
        [("freedom", ChessKind::Freedom), ("classic", ChessKind::Classic), ("brainking", ChessKind::BrainKing)]
    {
        let path = format!("{}/../tests/data/conformance/{file}.jsonl", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let step = lines.len() / per_variant;
        for (i, line) in lines.iter().step_by(step).take(per_variant).enumerate() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let rules = ChessRules::new(kind, false);
            let pos = Position::new(Board::from_fen(v["fen"].as_str().unwrap()).unwrap());
            // Rebuild the rule state from the moves, as the protocol would.
            let mut p = Position::new(Board::from_fen(v["start"].as_str().unwrap()).unwrap());
            for m in v["moves"].as_array().unwrap() {
                let t = rules.parse_turn(&p, m.as_str().unwrap()).unwrap();
                p = rules.play(&p, t);
            }
            assert_eq!(p.board, pos.board);
            if rules.end(&p).is_some() {
                continue;
            }
            let game = Game::new(rules, p);
            let root = if i % 2 == 0 {
                Root::PreRoll
            } else {
                let mut outcomes = alea_engine::rules::OutcomeList::new();
                rules.outcomes(game.position(), &mut outcomes);
                let roll = outcomes[i % outcomes.len()].roll;
                let mut turns = TurnList::new();
                rules.allowed_turns(game.position(), &roll, &mut turns);
                Root::Turns(turns.to_vec())
            };
            cases.push(Case { game, root });
        }
    }
    cases
}

fn check_exact(cases: &[Case], depths: std::ops::RangeInclusive<u32>) {
    for (n, c) in cases.iter().enumerate() {
        for depth in depths.clone() {
            let plain = exact_search(c, depth, ChancePruning::None);
            for pruning in [ChancePruning::Star1, ChancePruning::Star2] {
                let pruned = exact_search(c, depth, pruning);
                assert_eq!(
                    pruned.score,
                    plain.score,
                    "case {n} ({}) depth {depth}: {} differs from none",
                    c.game.position().board.fen(),
                    pruning.name()
                );
                // The choice made has that value.
                assert_eq!(pruned.choices[0].score, plain.score);
                assert!(pruned.choices[0].exact);
            }
        }
    }
}

#[test]
fn chance_pruning_is_exact_on_54_positions_to_depth_3() {
    let cases = conformance_cases(18);
    assert!(cases.len() >= 50, "{} cases", cases.len());
    check_exact(&cases, 1..=3);
}

#[test]
fn chance_pruning_is_exact_at_depth_4() {
    let cases = conformance_cases(2);
    check_exact(&cases, 4..=4);
}

/// Every case at depth 4: `cargo test --release -- --ignored exact_at_depth_4_everywhere`.
#[test]
#[ignore]
fn chance_pruning_is_exact_at_depth_4_everywhere() {
    check_exact(&conformance_cases(18), 4..=4);
}

/// ChanceProbCut cuts rolls by a shallower search's estimate, so its values are not plain
/// expectimax's (the tests above turn it off); what it must keep is the choice: on freedom's
/// bench suite three turns deep it plays the moves the full search plays, in fewer nodes.
#[test]
fn chance_probcut_keeps_the_bench_moves_in_fewer_nodes() {
    let suites = alea_engine::services::bench::suites(&[alea_engine::services::registry::Variant::Freedom]).unwrap();
    let bench = |chance_probcut| {
        let options = SearchOptions { chance_probcut, ..SearchOptions::default() };
        let mut moves = Vec::new();
        let (nodes, _) =
            alea_engine::services::bench::run(&suites, Some(3), &options, |line| moves.push(line.best.clone()))
                .unwrap();
        (moves, nodes)
    };
    let (full_moves, full_nodes) = bench(false);
    let (cut_moves, cut_nodes) = bench(true);
    assert_eq!(cut_moves, full_moves);
    assert!(cut_nodes * 3 < full_nodes * 2, "{cut_nodes} nodes with ChanceProbCut against {full_nodes}");
}

fn best(c: &Case, depth: u32) -> SearchResult<Move> {
    run(c, depth, SearchOptions::default(), Limits::default())
}

fn uci(c: &Case, choice: Choice<Move>) -> String {
    match choice {
        Choice::Turn(t) => c.game.rules().turn_to_uci(t),
        Choice::Roll => "roll".into(),
    }
}

#[test]
fn takes_the_king_when_the_roll_allows_it() {
    // Classic: Black passed while in check; a queen roll takes the king.
    let c =
        case(ChessKind::Classic, "rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2", &["0000"], &[5, 2]);
    let r = best(&c, 2);
    assert_eq!(uci(&c, r.best), "h5e8");
    assert!(r.score >= MATE_ZONE);
    // BrainKing: a king left en prise is taken.
    let c = case(ChessKind::BrainKing, "4k3/8/8/8/8/8/3PP3/4K2r b - - 0 1", &[], &[4]);
    let r = best(&c, 2);
    assert_eq!(uci(&c, r.best), "h1e1");
    assert_eq!(r.mate, Some(1));
}

#[test]
fn finds_a_certain_mate_by_check_in_freedom_and_reports_mate() {
    let c = case(ChessKind::Freedom, "6k1/5ppp/8/8/8/8/5PPP/1Q4K1 w - - 0 30", &[], &[]);
    let r = best(&c, 3);
    assert_eq!(uci(&c, r.best), "b1b8", "a Freedom check, played without rolling");
    assert_eq!(r.mate, Some(1));
    // A king-and-rook mate: the check is free, the mate certain.
    let c = case(ChessKind::Freedom, "4k3/8/4K3/8/8/8/8/R7 w - - 0 1", &[], &[]);
    let r = best(&c, 2);
    assert_eq!(uci(&c, r.best), "a1a8");
    assert_eq!(r.mate, Some(1));
}

/// The horizon's value of `position` for its side to move, as the leaves of a search score it.
fn horizon_value(kind: ChessKind, position: &Position) -> i32 {
    let eval = StaticEval::new(alea_engine::services::registry::Variant::of_kind(kind).default_eval());
    search::Horizon::new().value(&ChessRules::new(kind, false), &eval, position, 0)
}

#[test]
fn the_horizon_takes_a_free_mate_whatever_the_dice() {
    let at = |fen: &str| Position::new(Board::from_fen(fen).unwrap());
    // A quiet check that mates: in Freedom it needs no roll, so a leaf standing here is won.
    let back_rank = at("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 30");
    let freedom = ChessRules::new(ChessKind::Freedom, false);
    let mate = freedom.winning_free_turn(&back_rank).map(|m| freedom.turn_to_uci(m));
    assert_eq!(mate.as_deref(), Some("a1a8"));
    assert!(horizon_value(ChessKind::Freedom, &back_rank) >= MATE_ZONE);
    // With an escape square the check is only a check; in classic no check is free.
    let luft = at("6k1/5pp1/7p/8/8/8/5PPP/R5K1 w - - 0 30");
    assert_eq!(freedom.winning_free_turn(&luft), None);
    assert!(horizon_value(ChessKind::Freedom, &luft) < MATE_ZONE);
    assert!(horizon_value(ChessKind::Classic, &back_rank) < MATE_ZONE);
    // In Vegas only a player whose last move gave check moves without rolling.
    assert!(horizon_value(ChessKind::Vegas, &back_rank) < MATE_ZONE);
    let mut checker = back_rank.clone();
    checker.gave_check = [true, false];
    assert!(horizon_value(ChessKind::Vegas, &checker) >= MATE_ZONE);
}

#[test]
fn a_likely_win_is_not_called_mate() {
    // Classic: White to move can take the king only with a queen roll; no certainty.
    let c = case(ChessKind::Classic, "rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2", &["0000"], &[]);
    let r = best(&c, 2);
    assert_eq!(r.mate, None);
    assert!(r.score > 0);
}

#[test]
fn takes_a_free_queen_when_the_roll_allows_it() {
    let c = case(ChessKind::Freedom, "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", &[], &[4]);
    let r = best(&c, 3);
    assert_eq!(uci(&c, r.best), "d1d5");
    // A rook up in a bare endgame: most of a rook's endgame value (the square tables move it a little).
    let rook = alea_engine::services::registry::Variant::of_kind(ChessKind::Freedom).default_eval().material[1]
        [alea_engine::Role::Rook.index()];
    assert!(r.score >= rook * 3 / 4, "a rook up: {} (a rook: {rook})", r.score);
}

#[test]
fn recaptures_with_freedom_when_it_wins_material() {
    // 1.e4 d5 2.exd5: Black's queen retakes without rolling.
    let c = case(
        ChessKind::Freedom,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &["e2e4", "d7d5", "e4d5"],
        &[],
    );
    let r = best(&c, 3);
    assert_eq!(uci(&c, r.best), "d8d5");
    let c = case(ChessKind::Freedom, "4k3/8/2n5/8/4p3/8/8/B3K3 w - - 0 1", &["a1e5", "c6e5"], &[]);
    let r = best(&c, 2);
    assert_eq!(r.best, Choice::Roll, "the knight that retook is not attacked: nothing to recapture");
}

#[test]
fn rolls_when_every_freedom_move_loses_material() {
    // The only Freedom move is Qd8+, which the rook takes (for free: a recapture).
    let c = case(ChessKind::Freedom, "r5k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1", &[], &[]);
    let mut pre = TurnList::new();
    c.game.rules().pre_roll_turns(c.game.position(), &mut pre);
    assert_eq!(pre.len(), 1);
    let r = best(&c, 3);
    assert_eq!(r.best, Choice::Roll);
    assert!(r.choices.iter().any(|ch| ch.choice != Choice::Roll && ch.score < r.score));
}

/// In check every legal move is free, so rolling is worth at most the best of them; where it
/// is worth as much (here every face falls to the king, whose moves are the only ones), the
/// engine plays the free move rather than rolling for nothing.
#[test]
fn does_not_roll_in_check_for_nothing() {
    let c = case(ChessKind::Freedom, "4k3/8/8/8/8/8/4r3/4K2R w - - 0 1", &[], &[]);
    let r = best(&c, 3);
    assert_eq!(uci(&c, r.best), "e1e2", "the king takes the checking rook without rolling");
    assert_eq!(r.roll_score, Some(r.score), "rolling is worth the same here");
}

#[test]
fn pre_roll_root_reports_every_outcome() {
    let c = case(ChessKind::Classic, "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3", &[], &[]);
    let r = best(&c, 2);
    assert_eq!(r.outcomes.len(), 21);
    let total: f64 = r.outcomes.iter().map(|o| o.probability).sum();
    assert!((total - 1.0).abs() < 1e-9);
    // The roll is the outcomes' mean as equity (what the search averages; a mate by the queen
    // stays a win); reported scores are centipawns rounded from it, so the mean holds to a few
    // units of equity.
    let equity = alea_engine::search::equity::Equity::new(r.result_scale);
    let expected: f64 = r.outcomes.iter().map(|o| o.probability * f64::from(equity.of_reported(o.score))).sum();
    let roll = f64::from(equity.of_reported(r.roll_score.unwrap()));
    assert!((expected - roll).abs() <= 4.0, "mean {expected} against the roll's {roll}");
    // A bishop or queen roll takes f7 with check; doubles too.
    for o in &r.outcomes {
        if o.roll.faces().contains(&5) {
            assert!(o.score > 300, "{}: {}", o.roll, o.score);
        }
    }
}

#[test]
fn two_threads_search_the_same_root() {
    let c = case(ChessKind::Freedom, "r2q1rk1/ppp2ppp/2npbn2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 8", &[], &[2]);
    let one = run(&c, 3, SearchOptions::default(), Limits::default());
    let two = run(&c, 3, SearchOptions { threads: 2, ..SearchOptions::default() }, Limits::default());
    let Root::Turns(turns) = &c.root else { unreachable!() };
    for r in [&one, &two] {
        let Choice::Turn(t) = r.best else { panic!("a turn after a roll") };
        assert!(turns.contains(&t));
        assert_eq!(r.depth, 3);
    }
}

#[test]
fn movetime_is_kept() {
    let c = case(ChessKind::Freedom, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", &[], &[]);
    for movetime in [50u64, 300] {
        let limits = Limits { movetime: Some(movetime), move_overhead: 0, ..Default::default() };
        let r = search::search_evaluated(
            &c.game,
            c.root.clone(),
            limits,
            SearchOptions::default(),
            &Shared::new(16),
            &mut |_| {},
        );
        // The search ends on its own clock (it is infinite without one) and answers from a whole
        // iteration. How closely it keeps the time is measured, not asserted; the budget's
        // arithmetic is checked in timeman's unit tests, with clocks started in the past.
        assert!(r.depth >= 1, "{movetime} ms");
        assert!(matches!(r.best, Choice::Turn(_) | Choice::Roll));
    }
}

/// One thread's search of `c` within `limits`, and the node count at the end of each iteration.
fn stoppable(c: &Case, limits: Limits, ends: &mut Vec<u64>) -> SearchResult<Move> {
    let options = SearchOptions { threads: 1, ..SearchOptions::default() };
    run_reporting(c, options, limits, &mut |r| ends.push(r.nodes))
}

/// A search stopped midway through an iteration answers from the choices that iteration
/// finished (the first of them the last iteration's best), not from the iteration before: the
/// same scores as the whole iteration gave those choices, at its depth.
#[test]
fn a_stopped_iteration_keeps_the_choices_it_finished() {
    let c = case(ChessKind::Freedom, "r2q1rk1/ppp2ppp/2npbn2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 8", &[], &[2]);
    let mut ends = Vec::new();
    let whole = stoppable(&c, Limits { depth: Some(4), ..Default::default() }, &mut ends);
    assert_eq!((whole.depth, ends.len()), (4, 4));
    // Stopped in the last stretch of depth 4, when its first choice is long done.
    let limit = ends[3] - 4096;
    assert!(limit > ends[2] + (ends[3] - ends[2]) / 2, "depth 4 is long enough to stop within: {ends:?}");
    let stopped = stoppable(&c, Limits { depth: Some(4), nodes: Some(limit), ..Default::default() }, &mut Vec::new());
    assert_eq!(stopped.depth, 4, "the stopped iteration answers");
    assert!(stopped.nodes < ends[3]);
    assert!(!stopped.choices.is_empty() && stopped.choices.len() <= whole.choices.len());
    for choice in &stopped.choices {
        assert!(whole.choices.contains(choice), "{choice:?} is scored as the whole iteration scored it");
    }
    assert_eq!(stopped.best, stopped.choices[0].choice);
    assert!(stopped.choices.iter().filter(|c| c.exact).all(|c| c.score <= stopped.score));
}

/// Before the roll, a search stopped anywhere still gives the outcome table: that of its last
/// iteration to finish rolling.
#[test]
fn a_stopped_search_before_the_roll_keeps_its_outcome_table() {
    // 1.e4 d5 2.exd5: the queen's free recapture is searched first, rolling after it.
    let c = case(
        ChessKind::Freedom,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &["e2e4", "d7d5", "e4d5"],
        &[],
    );
    let mut ends = Vec::new();
    let whole = stoppable(&c, Limits { depth: Some(4), ..Default::default() }, &mut ends);
    assert_eq!(whole.outcomes.len(), 6);
    let mut stopped_in_the_last = 0;
    for k in 1..20 {
        let limit = ends[2] + (ends[3] - ends[2]) * k / 20;
        let r = stoppable(&c, Limits { depth: Some(4), nodes: Some(limit), ..Default::default() }, &mut Vec::new());
        assert!(r.depth == 3 || r.depth == 4, "{limit}: depth {}", r.depth);
        assert_eq!(r.outcomes.len(), 6, "stopped at {limit} nodes: {:?}", r.outcomes);
        assert!(r.roll_score.is_some());
        stopped_in_the_last += usize::from(r.depth == 4 && r.nodes < ends[3]);
    }
    assert!(stopped_in_the_last > 0, "some stops fall after the first choice of depth 4: {ends:?}");
}

#[test]
fn stop_flag_ends_an_infinite_search() {
    let c = case(ChessKind::Classic, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", &[], &[]);
    let rules = *c.game.rules();
    let eval = StaticEval::new(alea_engine::services::registry::Variant::of_kind(rules.kind()).default_eval());
    let shared = Shared::new(16);
    let input = SearchInput {
        rules: &rules,
        eval: &eval,
        position: c.game.position(),
        root: c.root.clone(),
        history: c.game.hashes(),
        limits: Limits { infinite: true, ..Default::default() },
        options: SearchOptions::default(),
    };
    // The stop is asked once the second iteration has reported: without it the search would
    // never end, so its end shows the flag worked.
    let (iterated, waited) = std::sync::mpsc::channel();
    let shared_ref = &shared;
    let r = std::thread::scope(|s| {
        s.spawn(move || {
            for _ in 0..2 {
                waited.recv().unwrap();
            }
            shared_ref.request_stop();
        });
        search::search(&input, shared_ref, &mut |_| {
            let _ = iterated.send(());
        })
    });
    assert!(r.depth >= 2);
}

#[test]
fn a_mate_is_proven_under_a_movetime() {
    let c = case(ChessKind::Freedom, "6k1/5ppp/8/8/8/8/5PPP/1Q4K1 w - - 0 30", &[], &[]);
    let limits = Limits { movetime: Some(200), move_overhead: 0, ..Default::default() };
    let r = search::search_evaluated(
        &c.game,
        c.root.clone(),
        limits,
        SearchOptions::default(),
        &Shared::new(16),
        &mut |_| {},
    );
    assert_eq!(r.mate, Some(1));
}

#[test]
fn win_chances_follow_the_fitted_result_scale() {
    use alea_engine::search::wdl;
    // Balanced: even chances with a small draw share.
    let (w, d, l) = wdl(0, 0.2711);
    assert_eq!((w, l), (480, 480));
    assert_eq!(w + d + l, 1000);
    // 400 / K centipawns is ten to one.
    let (w, _, l) = wdl((400.0 / 0.2711) as i32, 0.2711);
    assert!((895..=910).contains(&w) && l < 100, "{w} {l}");
    // A smaller scale (results depend less on the score) means less certainty for the same score.
    assert!(wdl(300, 0.0436).0 < wdl(300, 0.2711).0);
    // The search reports the scale of the evaluation it used.
    let c = case(ChessKind::Freedom, "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", &[], &[4]);
    let r = best(&c, 1);
    let fitted = alea_engine::services::registry::Variant::of_kind(ChessKind::Freedom).default_eval().result_scale;
    assert_eq!(r.result_scale, fitted);
    assert!(r.wdl().0 > 500);
}

/// Vegas positions from its shared conformance games: rolls of two unlike dice, and the turns a
/// player in check or after giving check makes without rolling (every such case is taken).
fn vegas_cases(per_file: usize) -> Vec<Case> {
    use std::io::Read;
    let path = format!("{}/../tests/data/conformance/vegas.jsonl.gz", env!("CARGO_MANIFEST_DIR"));
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap()).read_to_string(&mut text).unwrap();
    let rules = ChessRules::new(ChessKind::Vegas, false);
    let lines: Vec<&str> = text.lines().collect();
    let step = lines.len() / per_file;
    let mut cases = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let without_roll = !v["no_roll"].is_null();
        if i % step != 0 && !(without_roll && cases.len() < 2 * per_file) {
            continue;
        }
        let mut p = Position::new(Board::from_fen(v["start"].as_str().unwrap()).unwrap());
        for m in v["turns"].as_array().unwrap() {
            let t = rules.parse_turn(&p, m.as_str().unwrap()).unwrap();
            p = rules.play(&p, t);
        }
        if rules.end(&p).is_some() {
            continue;
        }
        let game = Game::new(rules, p);
        let mut outcomes = alea_engine::rules::OutcomeList::new();
        rules.outcomes(game.position(), &mut outcomes);
        let root = if i % 2 == 0 || outcomes.is_empty() {
            Root::PreRoll
        } else {
            let mut turns = TurnList::new();
            rules.allowed_turns(game.position(), &outcomes[i % outcomes.len()].roll, &mut turns);
            Root::Turns(turns.to_vec())
        };
        cases.push(Case { game, root });
    }
    cases
}

#[test]
fn chance_pruning_is_exact_in_vegas() {
    let cases = vegas_cases(12);
    let without_roll = cases.iter().filter(|c| Vegas::rolls_not(c.game.position())).count();
    assert!(cases.len() >= 20 && without_roll >= 5, "{} cases, {without_roll} without a roll", cases.len());
    check_exact(&cases, 1..=3);
}

#[test]
fn vegas_answers_check_without_rolling_and_keeps_the_dice_apart() {
    // In check from the bishop: no roll, a legal answer at once.
    let c = case(ChessKind::Vegas, "rnbqkbnr/ppp2ppp/8/1B1pp3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3", &[], &[]);
    assert!(matches!(best(&c, 2).best, Choice::Turn(_)), "no roll in check");
    // Die A 5 is a king, die B 5 a queen: the same faces in the other order allow other moves.
    let rules = ChessRules::new(ChessKind::Vegas, false);
    let pos = Position::new(Board::from_fen("4k3/8/8/8/8/8/3P4/3QK3 w - - 0 1").unwrap());
    let moves = |faces: &[u8]| {
        let mut list = TurnList::new();
        rules.allowed_turns(&pos, &rules.roll_of(faces).unwrap(), &mut list);
        list.iter().map(|&m| rules.turn_to_uci(m)).collect::<Vec<_>>()
    };
    assert!(moves(&[5, 1]).contains(&"e1f1".to_string()) && !moves(&[5, 1]).contains(&"d1a4".to_string()));
    assert!(moves(&[1, 5]).contains(&"d1a4".to_string()) && !moves(&[1, 5]).contains(&"e1f1".to_string()));
}

/// Freedom, classic and BrainKing play with the networks they adopted unless told otherwise: the
/// game's search equals a search with the tables and that network, and with `use_net` off
/// (`EvalFile tables`) or a file of tables it equals the tables alone; the two differ. Vegas has
/// no network: one value.
#[test]
fn the_adopted_network_scores_its_variant_unless_the_tables_are_asked_for() {
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 8";
    let limits = Limits { depth: Some(2), ..Limits::default() };
    for (kind, name) in
        [(ChessKind::Freedom, "freedom"), (ChessKind::Classic, "classic"), (ChessKind::BrainKing, "brainking")]
    {
        let net = alea_engine::services::registry::Variant::of_kind(kind).network().expect("the variant's network");
        assert_eq!(net.variant, name);
        let c = case(kind, fen, &[], &[]);
        // The game's search as the game handle gives it: the options filled in from the registry.
        let variant = alea_engine::services::registry::Variant::of_kind(kind);
        let game_search = |options: SearchOptions| {
            let options = variant.with_defaults(options);
            search::search_evaluated(&c.game, Root::PreRoll, limits.clone(), options, &Shared::new(4), &mut |_| {})
                .score
        };
        let with_eval = |eval: &StaticEval| {
            let input = SearchInput {
                rules: c.game.rules(),
                eval,
                position: c.game.position(),
                root: Root::PreRoll,
                history: c.game.hashes(),
                limits: limits.clone(),
                options: SearchOptions { probcut_margin: variant.row().probcut_margin, ..SearchOptions::default() },
            };
            search::search(&input, &Shared::new(4), &mut |_| {}).score
        };
        let tables = StaticEval::new(alea_engine::services::registry::Variant::of_kind(kind).default_eval());
        let by_net = with_eval(&tables.clone().with_net(Some(net)));
        let by_tables = with_eval(&tables);
        assert_ne!(by_net, by_tables, "{name}: the network changes nothing here: choose another position");
        assert_eq!(game_search(SearchOptions::default()), by_net, "{name}");
        assert_eq!(game_search(SearchOptions { use_net: false, ..SearchOptions::default() }), by_tables, "{name}");
        let file = SearchOptions { eval: Some(std::sync::Arc::new(tables.params.clone())), ..SearchOptions::default() };
        assert_eq!(game_search(file), by_tables, "{name}");
    }
    assert!(alea_engine::services::registry::Variant::Vegas.network().is_none());
    let vegas = case(ChessKind::Vegas, fen, &[], &[]);
    let vegas_search = |options: SearchOptions| {
        let options = alea_engine::services::registry::Variant::Vegas.with_defaults(options);
        search::search_evaluated(&vegas.game, Root::PreRoll, limits.clone(), options, &Shared::new(4), &mut |_| {})
            .score
    };
    assert_eq!(
        vegas_search(SearchOptions::default()),
        vegas_search(SearchOptions { use_net: false, ..SearchOptions::default() })
    );
}

/// A search of a position the table already holds (a GUI's second `go`, a rollout's players)
/// still lists every outcome with its best turn: the root's outcomes are searched, not read
/// from the table, which holds their values but not which turn is best.
#[test]
fn a_search_the_table_has_seen_still_reports_every_outcome() {
    use alea_engine::search::Shared;
    use alea_engine::services::handle::{GameHandle, SearchRoot};
    let moves = |m: &[&str]| m.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    for (variant, played, depths) in [
        ("freedom", moves(&["e2e4", "d7d5", "e4d5"]), &[3, 2, 1][..]),
        ("classic", moves(&["e2e4", "e7e5"]), &[3, 2, 1][..]),
        ("brainking", moves(&["e2e4", "e7e5", "g1f3"]), &[3, 2, 1][..]),
        ("dicechess3", moves(&[]), &[2, 1][..]),
    ] {
        let game = GameHandle::setup(variant.parse().unwrap(), false, None, None, &played).unwrap();
        let shared = Shared::new(16);
        let mut first = None;
        for &depth in depths {
            for _ in 0..2 {
                let limits = Limits { depth: Some(depth), ..Limits::default() };
                let r =
                    game.search(&SearchRoot::Decision, limits, SearchOptions::default(), &shared, &mut |_| {}).unwrap();
                let total: f64 = r.outcomes.iter().map(|o| o.probability).sum();
                assert!((total - 1.0).abs() < 1e-9, "{variant} depth {depth}: outcomes {}", r.outcomes.len());
                let count = *first.get_or_insert(r.outcomes.len());
                assert_eq!(r.outcomes.len(), count, "{variant} depth {depth}");
            }
        }
    }
}
