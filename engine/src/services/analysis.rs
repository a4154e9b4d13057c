//! What a played turn was worth, for game reviews: the best choice in its place, what the turn
//! lost against it, and the luck of the roll (the best value the roll allowed minus the expected
//! value of rolling). Written against the game handle, so every variant is reviewed alike; front
//! ends format it (`alea analyse`, the web page).

use crate::board::piece::Color;
use crate::rules::{GameResult, Roll};
use crate::search::timeman::Limits;
use crate::search::{Choice, SearchOptions, Shared, WIN};
use crate::services::error::Error;
use crate::services::handle::{GameHandle, RollSpec, SearchReport, SearchRoot};
use crate::services::pgn::GameRecord;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// One turn of a game, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnAnalysis {
    pub ply: usize,
    pub side: Color,
    /// The turn played (UCI, micro-moves joined by commas).
    pub played: String,
    /// `None` for a turn played without rolling (a Freedom move).
    pub roll: Option<Roll>,
    /// The best choice in the same place: before the roll (a Freedom move or rolling) for a
    /// Freedom move, else the best turn the roll allowed.
    pub best: Choice<String>,
    pub best_score: i32,
    /// Centipawns the played turn gave away: against the best turn the roll allowed, plus what
    /// the choice to roll lost when moves without rolling were offered (0 for the best).
    pub loss: i32,
    /// For a rolled turn: the best value this roll allowed minus the expected value of rolling.
    pub luck: Option<i32>,
    /// For a rolled turn where moves without rolling were offered (Freedom): that choice, judged.
    pub roll_decision: Option<RollDecision>,
}

/// The choice to roll when moves without rolling were offered, judged before the roll (as
/// backgammon reviews judge a cube decision apart from the checker play).
#[derive(Clone, Debug, PartialEq)]
pub struct RollDecision {
    /// The moves that could have been played without rolling (UCI).
    pub offered: Vec<String>,
    /// The best choice before the roll: rolling, or one of `offered`.
    pub best: Choice<String>,
    pub best_score: i32,
    /// The expected value of rolling.
    pub roll_score: i32,
    /// What rolling lost against the best choice (0 when rolling was best).
    pub loss: i32,
}

/// Judges `played` (after `roll`, or without rolling) in the game's current position. Each
/// search has a fresh table and one thread, so the engine's own turns at the same limit lose
/// nothing.
pub fn analyse_turn(
    game: &GameHandle,
    ply: usize,
    played: &str,
    roll: Option<Roll>,
    limits: &Limits,
) -> Result<TurnAnalysis, Error> {
    let search = |game: &GameHandle, root: SearchRoot, choices: usize, limits: Limits| {
        let options = SearchOptions { multipv: choices.max(1), threads: 1, ..SearchOptions::default() };
        game.search(&root, limits, options, &Shared::new(16), &mut |_| {})
    };
    let offered = game.pre_roll_turns();
    // Where rolling is the only choice before the roll and a turn is several micro-moves, the
    // search before it serves the luck alone, and its mean over every outcome (56 for three
    // dice) costs a search after the roll for each: at a fixed depth it is read a turn less deep
    // (both of the luck's terms from it, so still at one depth).
    let before_limits = match limits.depth {
        Some(d) if offered.is_empty() && game.several_moves_a_turn() => {
            Limits { depth: Some(d.saturating_sub(1).max(1)), ..limits.clone() }
        }
        _ => limits.clone(),
    };
    let before = search(game, SearchRoot::Decision, offered.len() + 1, before_limits)?;
    let roll_decision = match (&roll, before.choices.first()) {
        (Some(_), Some(best)) if !offered.is_empty() => {
            let roll_score = before
                .choices
                .iter()
                .find(|c| c.choice == Choice::Roll)
                .map(|c| c.score)
                .or(before.roll_score)
                .ok_or(Error::NoAnswer("the search before the roll gave rolling no value".into()))?;
            Some(RollDecision {
                offered,
                best: best.choice.clone(),
                best_score: best.score,
                roll_score,
                loss: (best.score - roll_score).max(0),
            })
        }
        _ => None,
    };
    let (result, luck) = match roll {
        None => (before, None),
        Some(r) => {
            let spec = RollSpec::Faces(r.faces().to_vec());
            // One move a turn: every allowed turn scored exactly in one search. Several: thousands
            // of turns, so the best two are found (more than one: a search stopped midway then
            // answers its last whole iteration, not the turns it finished of the next, so the
            // best has the depth it reports) and the played one valued beside them below.
            let choices = if game.several_moves_a_turn() { 2 } else { game.allowed_turns(&spec)?.len() };
            let after = search(game, SearchRoot::Rolled(spec), choices, limits.clone())?;
            let luck = roll_luck(&before, &r).unwrap_or_else(|| {
                let expected = before.roll_score.unwrap_or(after.score);
                after.choices.first().map_or(after.score, |c| c.score) - expected
            });
            (after, Some(luck))
        }
    };
    let mut best = result.choices.first().cloned().ok_or(Error::NoAnswer("the search found no choice".into()))?;
    let played_choice = Choice::Turn(played.to_string());
    let played_score = if let Some(c) = result.choices.iter().find(|c| c.exact && c.choice == played_choice) {
        c.score
    } else {
        let after_played = after(game, played, roll.as_ref())?;
        let same_end = match &best.choice {
            Choice::Turn(t) => after(game, t, roll.as_ref())?.key() == after_played.key(),
            Choice::Roll => false,
        };
        if same_end {
            best.score
        } else {
            // The played turn's value: the position after it, searched one turn less deep.
            let side = game.side_to_move();
            match after_played.end() {
                Some(end) => match end.result {
                    GameResult::Win(c) if c == side => WIN,
                    GameResult::Win(_) => -WIN,
                    GameResult::Draw => 0,
                },
                // Several moves a turn: the played turn beside the best after the same roll, both
                // exactly and as deep as the search completed (the search's own way to value
                // turns of thousands). Alone under the same time, the played turn went deeper
                // than the best had, and one turn more changes a score by more than most losses.
                None if game.several_moves_a_turn() && roll.is_some() => {
                    let spec = RollSpec::Faces(roll.as_ref().expect("a roll").faces().to_vec());
                    let Choice::Turn(best_turn) = &best.choice else {
                        return Err(Error::NoAnswer("the search after the roll chose no turn".into()));
                    };
                    let only =
                        SearchRoot::Only { roll: Some(spec), turns: vec![best_turn.clone(), played.to_string()] };
                    let depth = Limits { depth: Some(result.depth.max(1)), ..Limits::default() };
                    let pair = search(game, only, 2, depth)?;
                    let score_of = |turn: &Choice<String>| pair.choices.iter().find(|c| c.exact && c.choice == *turn);
                    match (score_of(&best.choice), score_of(&played_choice)) {
                        (Some(b), Some(p)) => {
                            best.score = b.score.max(p.score);
                            p.score
                        }
                        _ => {
                            return Err(Error::NoAnswer(
                                "the search did not value the turn played beside the best".into(),
                            ));
                        }
                    }
                }
                None => {
                    let limits = match limits.depth {
                        Some(d) => Limits { depth: Some(d.saturating_sub(1).max(1)), ..limits.clone() },
                        None => limits.clone(),
                    };
                    let pre = after_played.pre_roll_turns().len() + 1;
                    -search(&after_played, SearchRoot::Decision, pre, limits)?.score
                }
            }
        }
    };
    Ok(TurnAnalysis {
        ply,
        side: game.side_to_move(),
        played: played.to_string(),
        roll,
        best: best.choice,
        best_score: best.score,
        loss: (best.score - played_score).max(0) + roll_decision.as_ref().map_or(0, |d| d.loss),
        luck,
        roll_decision,
    })
}

/// The luck of `roll` in centipawns, as the search before it valued each outcome: the outcome's
/// value less the expected value of rolling, both from that one search and so at one depth. (The
/// search after the roll goes deeper, and a turn deeper moves a value by more than a roll's
/// luck: one less the other read as luck what was depth.) `None` where that search does not list
/// the roll.
fn roll_luck(before: &SearchReport, roll: &Roll) -> Option<i32> {
    // Rolls compare as the rules list them (alike dice sorted; Vegas's unlike dice in order).
    let outcome = before.outcomes.iter().find(|o| o.roll == *roll)?;
    Some(outcome.score - before.roll_score?)
}

/// The position before each turn of `record`, each turn checked as it is replayed.
pub fn positions(record: &GameRecord) -> Result<Vec<GameHandle>, Error> {
    let mut game = record.start_game()?;
    let mut before = Vec::with_capacity(record.turns.len());
    for (ply, t) in record.turns.iter().enumerate() {
        before.push(game.clone());
        game.play_checked(&t.turn, t.roll.as_ref())
            .map_err(|e| Error::from(e).at(format!("turn {}: {}", ply + 1, t.turn)))?;
    }
    Ok(before)
}

/// Every turn of `record` judged by [`analyse_turn`], `threads` turns at a time. Each search has
/// its own table and one thread, so the results do not depend on `threads` at a fixed depth.
/// `on_judged` sees each turn with the position before it, in the game's order, as soon as the
/// turns before it are judged (a front end prints rows as they come). The first turn that
/// cannot be judged stops the rest and is the error.
pub fn analyse_game(
    record: &GameRecord,
    limits: &Limits,
    threads: usize,
    on_judged: &mut dyn FnMut(&GameHandle, &TurnAnalysis),
) -> Result<Vec<TurnAnalysis>, Error> {
    let positions = positions(record)?;
    let turns = &record.turns;
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (sender, judged) = std::sync::mpsc::channel();
    let judged_all = std::thread::scope(|scope| {
        for i in 0..threads.max(1).min(turns.len()) {
            let (sender, next, failed, positions) = (sender.clone(), &next, &failed, &positions);
            let worker = crate::search::stack::spawn_deep(scope, format!("analyse-{i}"), move || {
                loop {
                    let ply = next.fetch_add(1, Ordering::Relaxed);
                    if ply >= turns.len() || failed.load(Ordering::Relaxed) {
                        break;
                    }
                    let t = &turns[ply];
                    let judged = analyse_turn(&positions[ply], ply, &t.turn, t.roll, limits)
                        .map_err(|e| e.at(format!("turn {}", ply + 1)));
                    if judged.is_err() {
                        failed.store(true, Ordering::Relaxed);
                    }
                    if sender.send((ply, judged)).is_err() {
                        break;
                    }
                }
            });
            // Fewer threads than asked still judge every turn; none at all cannot.
            if worker.is_err() && i == 0 {
                return Err(Error::System("cannot start a thread to judge the turns".to_string()));
            }
        }
        drop(sender);
        let mut waiting = BTreeMap::new();
        let mut in_order = Vec::with_capacity(turns.len());
        for (ply, judged) in judged {
            waiting.insert(ply, judged?);
            while let Some(judged) = waiting.remove(&in_order.len()) {
                on_judged(&positions[in_order.len()], &judged);
                in_order.push(judged);
            }
        }
        Ok(in_order)
    })?;
    if judged_all.len() < turns.len() {
        return Err(Error::NoAnswer("not judged".into()).at(format!("turn {}", judged_all.len() + 1)));
    }
    Ok(judged_all)
}

/// The game after `turn` (with its roll).
fn after(game: &GameHandle, turn: &str, roll: Option<&Roll>) -> Result<GameHandle, Error> {
    let mut next = game.clone();
    next.play_checked(turn, roll)?;
    Ok(next)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::services::registry::Variant;

    fn depth(d: u32) -> Limits {
        Limits { depth: Some(d), ..Default::default() }
    }

    #[test]
    fn the_best_turn_loses_nothing_and_a_blunder_loses_its_material() {
        // Three rook dice: the rook takes the queen and then the king; shuffling it along the
        // first rank leaves the queen to take it back and more.
        let game =
            GameHandle::setup(Variant::DiceChess3, false, Some("3qk3/8/8/8/8/8/8/3RK3 w - - 0 1"), None, &[]).unwrap();
        let roll = Some(Roll::new(&[4, 4, 4]).unwrap());
        let blunder = analyse_turn(&game, 0, "d1a1,a1b1,b1c1", roll, &depth(1)).unwrap();
        assert!(blunder.loss >= 500, "{blunder:?}");
        assert!(blunder.luck.is_some());
        let Choice::Turn(best) = &blunder.best else { panic!("a turn after a roll") };
        assert!(best.starts_with("d1d8"), "{best}");
        let played_best = analyse_turn(&game, 0, best, roll, &depth(1)).unwrap();
        assert_eq!(played_best.loss, 0, "{played_best:?}");
        assert_eq!(played_best.best_score, blunder.best_score);
    }

    /// Under a limit of nodes or time the search after a roll goes deeper than the one before
    /// it, which shares the limit among every outcome. A turn's loss is still read at one depth
    /// (the played turn beside the best, as deep as the search after the roll completed) and a
    /// roll's luck at one depth (the search before the roll's own value of the outcome), as a
    /// fixed depth reads them.
    #[test]
    fn loss_and_luck_under_a_node_limit_are_each_read_at_one_depth() {
        let game =
            GameHandle::setup(Variant::DiceChess3, false, Some("8/5pk1/6p1/8/3R4/6P1/5PK1/3r4 w - - 0 40"), None, &[])
                .unwrap();
        let roll = Roll::new(&[1, 4, 6]).unwrap();
        let nodes = Limits { nodes: Some(100_000), ..Default::default() };
        // The depths the analysis's own searches complete: the outcomes before the roll, the two
        // best turns after it.
        let completed = |root: SearchRoot| {
            let options = SearchOptions { threads: 1, multipv: 2, ..SearchOptions::default() };
            game.search(&root, nodes.clone(), options, &Shared::new(16), &mut |_| {}).unwrap().depth
        };
        let before = completed(SearchRoot::Decision);
        let after = completed(SearchRoot::Rolled(RollSpec::Faces(roll.faces().to_vec())));
        assert!(after > before, "the limit should let the search after the roll go deeper: {after} {before}");
        for played in ["g3g4,d4a4,g2f1", "f2f3,d4d8,g2h1"] {
            let limited = analyse_turn(&game, 0, played, Some(roll), &nodes).unwrap();
            assert!(limited.loss > 0, "{limited:?}");
            assert_eq!(
                limited.loss,
                analyse_turn(&game, 0, played, Some(roll), &depth(after)).unwrap().loss,
                "{played}"
            );
            assert_eq!(
                limited.luck,
                analyse_turn(&game, 0, played, Some(roll), &depth(before)).unwrap().luck,
                "{played}"
            );
        }
        // At a fixed depth the luck of a roll with no choice before it is read a turn less deep
        // (the mean over every outcome is the dear part), the loss at the depth asked.
        let two = analyse_turn(&game, 0, "g3g4,d4a4,g2f1", Some(roll), &depth(2)).unwrap();
        let one = analyse_turn(&game, 0, "g3g4,d4a4,g2f1", Some(roll), &depth(1)).unwrap();
        assert_eq!(two.luck, one.luck);
        assert_ne!(two.loss, one.loss);
    }

    #[test]
    fn rolling_when_a_free_recapture_was_offered_is_judged() {
        // Black may take the pawn on d5 back with the queen without rolling; rolling instead
        // throws that away on five rolls in six.
        let game =
            GameHandle::setup(Variant::Freedom, false, None, None, &["e2e4".into(), "d7d5".into(), "e4d5".into()])
                .unwrap();
        let roll = Some(Roll::new(&[2]).unwrap());
        // Three turns deep: at two, Freedom's network still rates rolling above the recapture.
        let a = analyse_turn(&game, 3, "g8f6", roll, &depth(3)).unwrap();
        let d = a.roll_decision.clone().expect("a free move was offered");
        assert_eq!(d.offered, vec!["d8d5".to_string()]);
        assert_eq!(d.best, Choice::Turn("d8d5".to_string()));
        assert!(d.loss > 0 && d.loss == d.best_score - d.roll_score, "{d:?}");
        assert!(a.loss >= d.loss, "the turn's loss includes the decision's: {a:?}");
        // With nothing offered there is no decision to judge.
        let start = GameHandle::of(Variant::Freedom, false).unwrap();
        let a = analyse_turn(&start, 0, "g1f3", roll, &depth(2)).unwrap();
        assert_eq!(a.roll_decision, None);
    }

    fn recorded(variant: &str, turns: &[(&str, &[u8])]) -> GameRecord {
        let mut record = GameRecord::new(variant.parse().unwrap(), false, None);
        for (turn, faces) in turns {
            let roll = Some(Roll::new(faces).unwrap());
            record.turns.push(crate::services::pgn::RecordedTurn { turn: turn.to_string(), roll, comment: None });
        }
        record
    }

    #[test]
    fn a_game_is_judged_in_order_alike_on_any_number_of_threads() {
        let record = recorded(
            "dicechess3",
            &[("e2e4,d1h5,h5f7", &[1, 5, 5]), ("g8f6,f6h5", &[2, 2, 3]), ("b1c3,c3d5,d5c7", &[2, 2, 2])],
        );
        let mut seen = Vec::new();
        let one = analyse_game(&record, &depth(1), 1, &mut |game, a| {
            seen.push((a.ply, game.side_to_move()));
        })
        .unwrap();
        assert_eq!(seen, vec![(0, Color::White), (1, Color::Black), (2, Color::White)]);
        for threads in [2, 3, 8] {
            let mut plies = Vec::new();
            let many = analyse_game(&record, &depth(1), threads, &mut |_, a| plies.push(a.ply)).unwrap();
            assert_eq!(plies, vec![0, 1, 2]);
            assert_eq!(many, one, "{threads} threads");
        }
        // Each turn as judged alone.
        let positions = positions(&record).unwrap();
        for (ply, t) in record.turns.iter().enumerate() {
            assert_eq!(analyse_turn(&positions[ply], ply, &t.turn, t.roll, &depth(1)).unwrap(), one[ply]);
        }
    }

    #[test]
    fn an_illegal_turn_is_named_and_nothing_is_judged() {
        // A record's turns were checked against their rolls when it was made or read; a turn no
        // roll allows still fails the replay.
        let record = recorded("freedom", &[("e2e4", &[1]), ("e7e4", &[1])]);
        let mut called = 0;
        let err = analyse_game(&record, &depth(1), 2, &mut |_, _| called += 1).unwrap_err();
        assert!(err.to_string().starts_with("turn 2: e7e4"), "{err}");
        assert_eq!(called, 0);
        assert!(analyse_game(&recorded("freedom", &[]), &depth(1), 2, &mut |_, _| called += 1).unwrap().is_empty());
    }

    #[test]
    fn a_freedom_move_is_judged_before_the_roll() {
        let game =
            GameHandle::setup(Variant::Freedom, false, None, None, &["e2e4".into(), "d7d5".into(), "e4d5".into()])
                .unwrap();
        let a = analyse_turn(&game, 3, "d8d5", None, &depth(2)).unwrap();
        assert_eq!(a.luck, None);
        assert_eq!(a.side, Color::Black);
        assert!(a.loss < 100, "recapturing the pawn is sound: {a:?}");
    }
}
