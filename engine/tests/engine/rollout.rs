//! Rollouts (`engine/src/services/rollout.rs`): the games played out from each choice, on dice shared
//! between the choices, their results for the side choosing.

use alea_engine::search::Choice;
use alea_engine::services::handle::{GameHandle, RollSpec, SearchRoot};
use alea_engine::services::registry::Variant;
use alea_engine::services::rollout::{RolloutSettings, roll_out};

fn settings(games: u32, turns: Option<u32>, threads: usize) -> RolloutSettings {
    RolloutSettings { games, depth: 1, turns, seed: 5, threads, time: None, luck_adjusted: false }
}

fn turn(t: &str) -> Choice<String> {
    Choice::Turn(t.to_string())
}

/// A BrainKing rook four squares from the enemy king, a rook rolled.
fn rook_at_the_king() -> (GameHandle, SearchRoot) {
    let game = GameHandle::setup(Variant::BrainKing, false, Some("4k3/8/8/8/8/8/4R3/K7 w - - 0 1"), None, &[]).unwrap();
    (game, SearchRoot::Rolled(RollSpec::Faces(vec![4])))
}

#[test]
fn taking_the_king_wins_every_game_at_once_and_a_retreat_does_not() {
    let (game, root) = rook_at_the_king();
    let rolled = roll_out(&game, &root, &[turn("e2e8"), turn("e2a2")], &settings(40, None, 2), &|_, _| {}).unwrap();
    let (take, retreat) = (&rolled[0], &rolled[1]);
    assert_eq!(take.results, vec![1.0; 40]);
    assert_eq!((take.wins, take.draws, take.losses, take.ended), (40, 0, 0, 40));
    assert_eq!(take.turns, vec![0; 40]);
    assert_eq!(take.result().ci95, 0.0);
    // A rook up against a bare king still wins most games, but not all at once.
    assert_eq!(retreat.ended, 40);
    assert!(retreat.turns.iter().all(|&t| t > 0));
    assert!(retreat.result().mean < 1.0);
    let loss = retreat.loss_against(take);
    assert!(loss.mean > 0.0 && (loss.mean - (1.0 - retreat.result().mean)).abs() < 1e-12);
}

#[test]
fn every_choice_is_played_on_the_same_dice_and_the_threads_change_nothing() {
    let game = GameHandle::of(Variant::DiceChess3, false).unwrap();
    let root = SearchRoot::Rolled(RollSpec::Faces(vec![1, 2, 2]));
    let choices = [turn("e2e4,b1c3,c3d5"), turn("e2e4,b1c3,c3d5"), turn("d2d4,b1c3,g1f3")];
    let one = roll_out(&game, &root, &choices, &settings(12, None, 1), &|_, _| {}).unwrap();
    let two = roll_out(&game, &root, &choices, &settings(12, None, 2), &|_, _| {}).unwrap();
    // The same choice twice: the same games, game by game.
    assert_eq!(one[0].results, one[1].results);
    assert_eq!(one[0].turns, one[1].turns);
    for (a, b) in one.iter().zip(&two) {
        assert_eq!(a.results, b.results);
        assert_eq!(a.turns, b.turns);
    }
    assert_eq!(one[0].loss_against(&one[1]).mean, 0.0);
    // Another seed, other dice.
    let other = RolloutSettings { seed: 6, ..settings(12, None, 2) };
    let reseeded = roll_out(&game, &root, &choices[..1], &other, &|_, _| {}).unwrap();
    assert_ne!(reseeded[0].turns, one[0].turns);
}

#[test]
fn rolling_and_a_freedom_move_are_played_out_before_the_roll() {
    // Freedom after 1. e4 d5 2. exd5 Qxd5: White may give check without rolling (Bb5+), or roll.
    let moves: Vec<String> = ["e2e4", "d7d5", "e4d5", "d8d5"].map(String::from).to_vec();
    let game = GameHandle::setup(Variant::Freedom, false, None, None, &moves).unwrap();
    assert!(game.pre_roll_turns().contains(&"f1b5".to_string()));
    let choices = [turn("f1b5"), Choice::Roll];
    let rolled = roll_out(&game, &SearchRoot::Decision, &choices, &settings(4, Some(6), 2), &|_, _| {}).unwrap();
    assert_eq!(rolled.len(), 2);
    for r in &rolled {
        assert_eq!(r.results.len(), 4);
        // Cut short after six turns unless the game ended sooner.
        assert!(r.turns.iter().all(|&t| t <= 6));
        assert!(r.results.iter().all(|v| (0.0..=1.0).contains(v)));
    }
    // A Freedom move the position does not have is refused.
    assert!(roll_out(&game, &SearchRoot::Decision, &[turn("g1f3")], &settings(1, Some(1), 1), &|_, _| {}).is_err());
}

#[test]
fn a_game_cut_at_once_is_the_search_value_of_the_position_after_the_choice() {
    let (game, root) = rook_at_the_king();
    let rolled = roll_out(&game, &root, &[turn("e2a2")], &settings(6, Some(0), 2), &|_, _| {}).unwrap();
    let r = &rolled[0];
    assert_eq!(r.ended, 0);
    assert_eq!(r.turns, vec![0; 6]);
    // No die is thrown before the cut: every game is the same value, a rook up for White.
    assert!(r.results.iter().all(|&v| v == r.results[0]));
    assert!(r.results[0] > 0.5 && r.results[0] < 1.0, "{}", r.results[0]);
}

#[test]
fn a_choice_the_position_does_not_allow_is_refused() {
    let (game, root) = rook_at_the_king();
    let bad = |choices: &[Choice<String>]| roll_out(&game, &root, choices, &settings(2, None, 1), &|_, _| {});
    assert!(bad(&[turn("e2e8"), turn("a1b1")]).unwrap_err().to_string().contains("not allowed by the roll"));
    assert!(bad(&[Choice::Roll]).is_err());
    let mut over = game.clone();
    over.play("e2e8").unwrap();
    assert!(over.end().is_some());
    assert!(roll_out(&over, &SearchRoot::Decision, &[Choice::Roll], &settings(2, None, 1), &|_, _| {}).is_err());
    let die = GameHandle::of(Variant::DieChess, false).unwrap();
    assert!(roll_out(&die, &SearchRoot::Decision, &[Choice::Roll], &settings(2, None, 1), &|_, _| {}).is_err());
    let none = RolloutSettings { games: 0, ..settings(2, None, 1) };
    assert!(roll_out(&game, &root, &[turn("e2e8")], &none, &|_, _| {}).is_err());
}

#[test]
fn a_rollout_out_of_time_keeps_the_games_every_choice_finished() {
    let game = GameHandle::of(Variant::Freedom, false).unwrap();
    let root = SearchRoot::Rolled(RollSpec::Faces(vec![1]));
    let choices = [turn("e2e4"), turn("d2d4"), turn("a2a3")];
    let timed = RolloutSettings { time: Some(std::time::Duration::from_millis(300)), ..settings(100_000, None, 2) };
    let rolled = roll_out(&game, &root, &choices, &timed, &|_, _| {}).unwrap();
    let played = rolled[0].results.len();
    assert!((1..100_000).contains(&played));
    assert!(rolled.iter().all(|r| r.results.len() == played && r.turns.len() == played));
    // The games kept are the first ones, as a rollout of that many games plays them.
    let whole = roll_out(&game, &root, &choices, &settings(played as u32, None, 2), &|_, _| {}).unwrap();
    for (a, b) in rolled.iter().zip(&whole) {
        assert_eq!(a.results, b.results);
    }
    // No time at all: no game, refused.
    let none = RolloutSettings { time: Some(std::time::Duration::ZERO), ..settings(10, None, 1) };
    assert!(roll_out(&game, &root, &choices, &none, &|_, _| {}).unwrap_err().to_string().contains("no game finished"));
}

/// Luck taken out (GNU Backgammon's variance reduction): `depth` turns deep, `games` games.
fn luck_settings(games: u32, depth: u32, threads: usize, luck_adjusted: bool) -> RolloutSettings {
    RolloutSettings { games, depth, turns: None, seed: 5, threads, time: None, luck_adjusted }
}

#[test]
fn luck_taken_out_leaves_the_games_as_they_were_two_turns_deep() {
    // Deeper players read the luck from searches of their own: the same games, won, drawn and
    // lost alike, only each result less its luck. Over these games the luck's mean is near
    // zero: the adjusted mean keeps within the games' interval of the plain one.
    for variant in [Variant::Freedom, Variant::DiceChess3] {
        let game = GameHandle::of(variant, false).unwrap();
        let (root, choices) = (SearchRoot::Decision, [Choice::Roll]);
        let games = if variant == Variant::Freedom { 30 } else { 4 };
        let plain = roll_out(&game, &root, &choices, &luck_settings(games, 2, 2, false), &|_, _| {}).unwrap();
        let adjusted = roll_out(&game, &root, &choices, &luck_settings(games, 2, 2, true), &|_, _| {}).unwrap();
        let (plain, adjusted) = (&plain[0], &adjusted[0]);
        assert_eq!(plain.turns, adjusted.turns, "{variant}");
        assert_eq!((plain.wins, plain.draws, plain.losses), (adjusted.wins, adjusted.draws, adjusted.losses));
        assert_ne!(plain.results, adjusted.results, "{variant}: some luck");
        let (p, a) = (plain.result(), adjusted.result());
        assert!((p.mean - a.mean).abs() < p.ci95, "{variant}: {p:?} against {a:?}");
    }
}

#[test]
fn luck_taken_out_narrows_the_interval_alike_on_any_number_of_threads() {
    // One turn deep: BrainKing reads the luck from its players' search before each roll
    // (which then plays their turn), dicechess3 from its quick reading of the outcomes.
    for (variant, games) in [("brainking", 200), ("dicechess3", 200)] {
        let game = GameHandle::of(variant.parse().unwrap(), false).unwrap();
        let (root, choices) = (SearchRoot::Decision, [Choice::Roll]);
        let plain = roll_out(&game, &root, &choices, &luck_settings(games, 1, 2, false), &|_, _| {}).unwrap();
        let adjusted = roll_out(&game, &root, &choices, &luck_settings(games, 1, 2, true), &|_, _| {}).unwrap();
        let (p, a) = (plain[0].result(), adjusted[0].result());
        assert!(a.ci95 < 0.85 * p.ci95, "{variant}: {a:?} against {p:?}");
        assert!((p.mean - a.mean).abs() < p.ci95, "{variant}: {p:?} against {a:?}");
        // Wins, draws and losses count the games as they ended.
        let counted = adjusted[0].wins + adjusted[0].draws + adjusted[0].losses;
        assert_eq!(counted, adjusted[0].ended, "{variant}");
        let one = roll_out(&game, &root, &choices, &luck_settings(40, 1, 1, true), &|_, _| {}).unwrap();
        let two = roll_out(&game, &root, &choices, &luck_settings(40, 1, 2, true), &|_, _| {}).unwrap();
        assert_eq!(one[0].results, two[0].results, "{variant}");
    }
}

#[test]
fn a_roll_that_takes_the_king_is_the_luck_of_the_roll() {
    use alea_engine::services::luck::LuckTable;
    // dicechess3: White's rook faces the black king down an open file; any rook die wins.
    let game =
        GameHandle::setup(Variant::DiceChess3, false, Some("4k3/8/8/8/8/8/8/K3R3 w - - 0 1"), None, &[]).unwrap();
    let worths = game.outcome_worths();
    assert_eq!(worths.len(), 56);
    assert!((worths.iter().map(|w| w.1).sum::<f64>() - 1.0).abs() < 1e-9);
    for (roll, _, worth) in &worths {
        if roll.faces().contains(&4) {
            assert!(*worth > 0.99, "{roll}: {worth}");
        } else {
            assert!(*worth < 0.9, "{roll}: {worth}");
        }
    }
    // The chance of a rook among three dice is 91/216; a rook's luck is what the roll adds to it.
    let table = LuckTable::of_worths(&worths).unwrap();
    let rook = alea_engine::Roll::new(&[4, 1, 1]).unwrap();
    let none = alea_engine::Roll::new(&[1, 2, 3]).unwrap();
    // Every outcome with a rook wins and every other stands where it is: a rook's luck is the
    // chance of none, 125/216, times the difference, and no rook's minus the chance of one.
    let worth = |roll: &alea_engine::Roll| worths.iter().find(|w| w.0 == *roll).unwrap().2;
    let gap = worth(&rook) - worth(&none);
    assert!(gap > 0.1, "{gap}");
    assert!((table.luck(&rook).unwrap() - 125.0 / 216.0 * gap).abs() < 1e-9);
    assert!((table.luck(&none).unwrap() + 91.0 / 216.0 * gap).abs() < 1e-9);
    assert!(table.mean_luck().abs() < 1e-12);
    // A turn in progress has no roll to come.
    let in_turn =
        GameHandle::setup(Variant::DiceChess3, false, Some("4k3/8/8/8/8/8/8/K3R3 w - - 0 1 R"), None, &[]).unwrap();
    assert!(in_turn.outcome_worths().is_empty());
    // From a search before a Freedom roll: six outcomes, each with its turn, their luck's mean zero.
    let freedom = GameHandle::of(Variant::Freedom, false).unwrap();
    let limits = alea_engine::search::timeman::Limits { depth: Some(2), ..Default::default() };
    let shared = alea_engine::search::Shared::new(1);
    let before = freedom
        .search(&SearchRoot::Decision, limits, alea_engine::search::SearchOptions::default(), &shared, &mut |_| {})
        .unwrap();
    let table = LuckTable::of(&before).unwrap();
    assert!(table.mean_luck().abs() < 1e-12);
    for o in &before.outcomes {
        assert_eq!(table.best(&o.roll).unwrap(), Some(o.best.as_str()));
    }
}
