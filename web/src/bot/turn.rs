//! One delivered turn, decided: the position set up from its DFEN, our own generator's turns
//! checked against the platform's tree, the time to spend from the delivered clock, and the
//! search, stopped in time whatever happens. The turn answered is always one the platform
//! listed (when it listed them): where the two generators disagree the search runs over the
//! turns both know, and where they share none the platform's turn that wins the most material
//! at once is played.

use super::delivery::{TimeControl, TurnDelivery};
use alea_engine::services::driver::{TurnEvent, TurnRequest, play_turn};
use alea_engine::services::handle::{GameHandle, RollSpec, SearchRoot};
use alea_engine::services::registry::Variant;
use alea_engine::services::search::{Limits, SearchOptions, Shared, spawn_deep};
use std::collections::BTreeSet;
use std::sync::mpsc;
use std::time::Duration;

/// A turn of a game without a clock is cut off by the platform after this long.
pub const UNLIMITED_TURN_MS: u64 = 120_000;

/// Below this much usable time no search starts: the fallback turn is answered at once.
pub const MIN_SEARCH_MS: u64 = 20;

/// A delivered turn made ready to decide.
#[derive(Debug)]
pub struct Prepared {
    pub game: GameHandle,
    /// The turns we may answer, as the engine writes them (micro-moves joined by commas); empty
    /// when the platform listed none (a pass, which it never should deliver).
    pub playable: Vec<String>,
    /// What the search decides among; `None` when it cannot help (no turn both generators know).
    pub root: Option<SearchRoot>,
    /// Where our generator and the platform's disagree, what differs.
    pub disagreement: Option<String>,
}

impl Prepared {
    /// The turn answered without a search: of the playable turns, the one that wins the most
    /// material at once (the first such in order).
    pub fn fallback(&self) -> Option<String> {
        let mut best: Option<(&String, i32)> = None;
        for turn in &self.playable {
            let gain = self.game.material_gain(turn);
            if best.is_none_or(|(_, b)| gain > b) {
                best = Some((turn, gain));
            }
        }
        best.map(|(t, _)| t.clone())
    }
}

/// A few of a set's turns, for a log line.
fn sample(turns: &BTreeSet<&String>) -> String {
    let shown: Vec<&str> = turns.iter().take(3).map(|t| t.as_str()).collect();
    let more =
        if turns.len() > shown.len() { format!(" and {} more", turns.len() - shown.len()) } else { String::new() };
    format!("{}{more}", shown.join(" "))
}

/// Sets the delivered turn up in `variant` and checks the two generators against each other.
pub fn prepare(variant: Variant, delivery: &TurnDelivery) -> Result<Prepared, String> {
    let game = GameHandle::setup(variant, false, Some(&delivery.dfen), None, &[])
        .map_err(|e| format!("state.dfen refused: {e}"))?;
    if let Some(end) = game.end() {
        return Err(format!("state.dfen: the game is over ({end})"));
    }
    if game.side_to_move() != delivery.seat {
        return Err(format!(
            "state.dfen has {:?} to move, and the delivery seats us as {:?}",
            game.side_to_move(),
            delivery.seat
        ));
    }
    let dice = game.dice_left().ok_or("state.dfen holds no dice to play (its 7th field)")?;
    let ours: BTreeSet<String> = game
        .allowed_turns(&RollSpec::Faces(dice.faces().to_vec()))
        .map_err(|e| format!("the dice in state.dfen: {e}"))?
        .into_iter()
        .filter(|t| t != "0000")
        .collect();
    let Some(tree) = &delivery.tree else {
        // Too large for the platform to send: our generator decides.
        return Ok(Prepared {
            playable: ours.into_iter().collect(),
            root: Some(SearchRoot::Decision),
            game,
            disagreement: None,
        });
    };
    let theirs = tree.joined();
    if theirs == ours {
        return Ok(Prepared {
            playable: ours.into_iter().collect(),
            root: Some(SearchRoot::Decision),
            game,
            disagreement: None,
        });
    }
    let only_ours: BTreeSet<&String> = ours.difference(&theirs).collect();
    let only_theirs: BTreeSet<&String> = theirs.difference(&ours).collect();
    let both: Vec<String> = ours.intersection(&theirs).cloned().collect();
    let mut note = format!("the platform lists {} turns and we find {}", theirs.len(), ours.len());
    if !only_theirs.is_empty() {
        note += &format!("; only the platform's: {}", sample(&only_theirs));
    }
    if !only_ours.is_empty() {
        note += &format!("; only ours: {}", sample(&only_ours));
    }
    if theirs.is_empty() {
        return Ok(Prepared { playable: Vec::new(), root: None, game, disagreement: Some(note) });
    }
    if both.is_empty() {
        return Ok(Prepared { playable: theirs.into_iter().collect(), root: None, game, disagreement: Some(note) });
    }
    let root = SearchRoot::Only { roll: None, turns: both.clone() };
    Ok(Prepared { playable: both, root: Some(root), game, disagreement: Some(note) })
}

/// The time a turn may take.
#[derive(Debug, Clone)]
pub struct Budget {
    /// What the search is told.
    pub limits: Limits,
    /// Past this the search is stopped and its best turn so far taken.
    pub watchdog: Duration,
    /// After the stop, how long to wait for the search to hand its turn over before answering
    /// the fallback instead.
    pub grace: Duration,
    /// The time left for the whole answer, the safety margin already off.
    pub usable_ms: u64,
}

/// The budget of a turn delivered `waited` ago: from our clock as delivered (or the time
/// control's own budget), less `margin_ms` for the network both ways, never more than
/// `max_turn_ms` of search.
pub fn budget(delivery: &TurnDelivery, waited: Duration, margin_ms: u64, max_turn_ms: u64) -> Budget {
    let waited_ms = u64::try_from(waited.as_millis()).unwrap_or(u64::MAX);
    let (clock_ms, increment_ms, per_turn) = match delivery.control {
        TimeControl::PerMove { ms } => (ms, 0, true),
        TimeControl::Unlimited => (delivery.our_clock().unwrap_or(UNLIMITED_TURN_MS).min(UNLIMITED_TURN_MS), 0, true),
        TimeControl::SuddenDeath { initial_ms } => (delivery.our_clock().unwrap_or(initial_ms), 0, false),
        TimeControl::Fischer { initial_ms, increment_ms } => {
            (delivery.our_clock().unwrap_or(initial_ms), increment_ms, false)
        }
    };
    let left = clock_ms.saturating_sub(waited_ms);
    let usable_ms = left.saturating_sub(margin_ms);
    let (limits, watchdog_ms) = if per_turn {
        // The whole budget is this turn's: a tenth of it kept for handing the turn over.
        let t = (usable_ms - usable_ms / 10).min(max_turn_ms).max(1);
        (Limits { movetime: Some(t), ..Limits::default() }, t)
    } else {
        // The engine's clock plan: it spends at most two thirds of what is left past the
        // margin on a turn, so the stop at three quarters is only a safety net.
        let limits =
            Limits { time: Some(left), increment: increment_ms, move_overhead: margin_ms, ..Limits::default() };
        (limits, (usable_ms / 4 * 3).min(max_turn_ms))
    };
    let grace_ms = usable_ms.saturating_sub(watchdog_ms).min(300);
    Budget { limits, watchdog: Duration::from_millis(watchdog_ms), grace: Duration::from_millis(grace_ms), usable_ms }
}

/// A decided turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decided {
    /// The turn, as the engine writes it; `None` for a pass.
    pub turn: Option<String>,
    /// The deepest finished iteration, if a search decided.
    pub depth: Option<u32>,
    /// Why the search did not decide, where it did not.
    pub note: Option<String>,
    /// Where our generator and the platform's disagree, what differs.
    pub disagreement: Option<String>,
}

impl Decided {
    /// The fallback turn, with the reason it was played.
    pub fn fallback(prepared: &Prepared, why: impl Into<String>) -> Decided {
        Decided {
            turn: prepared.fallback(),
            depth: None,
            note: Some(why.into()),
            disagreement: prepared.disagreement.clone(),
        }
    }

    /// The micro-moves to answer.
    pub fn moves(&self) -> Vec<String> {
        self.turn.as_deref().map_or_else(Vec::new, |t| t.split(',').map(str::to_string).collect())
    }
}

/// Searches the prepared turn within `budget` on `shared` (a game's table), stopping the search
/// at the budget's watchdog and answering the fallback if it still has not handed a turn over
/// after the grace. Blocks; the answer is always one of the playable turns.
pub fn decide(prepared: &Prepared, budget: &Budget, shared: &Shared) -> Decided {
    if prepared.playable.is_empty() {
        // The platform passes for us and should not have asked: nothing to play.
        return Decided {
            turn: None,
            depth: None,
            note: Some("no legal turn: a pass".into()),
            disagreement: prepared.disagreement.clone(),
        };
    }
    let Some(root) = prepared.root.clone() else {
        return Decided::fallback(prepared, "no turn both generators know: the platform's best capture played");
    };
    if prepared.playable.len() == 1 {
        return Decided {
            turn: prepared.playable.first().cloned(),
            depth: None,
            note: Some("the only turn".into()),
            disagreement: prepared.disagreement.clone(),
        };
    }
    if budget.usable_ms < MIN_SEARCH_MS {
        return Decided::fallback(prepared, format!("{} ms left: no search", budget.usable_ms));
    }
    shared.stop.store(false, std::sync::atomic::Ordering::Relaxed);
    let request = TurnRequest {
        root,
        engine_rolls: false,
        search_forced_roll: false,
        limits: budget.limits.clone(),
        options: SearchOptions::default(),
        skill: None,
    };
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let decided = std::thread::scope(|scope| {
        let search = spawn_deep(scope, "bot search".into(), move || {
            let mut depth = None;
            let turn = play_turn(&prepared.game, request, shared, &mut |_| 0, &mut |event| {
                if let TurnEvent::Searched(report) = event {
                    depth = Some(report.depth);
                }
            });
            let _ = done_tx.send(());
            (turn, depth)
        });
        let Ok(search) = search else {
            return Decided::fallback(prepared, "no thread for the search");
        };
        if done_rx.recv_timeout(budget.watchdog).is_err() {
            shared.request_stop();
            if done_rx.recv_timeout(budget.grace).is_err() {
                // The scope waits for the thread; the caller's own timeout answers meanwhile.
                return Decided::fallback(prepared, "the search did not stop in time");
            }
        }
        match search.join() {
            Ok((Ok(turn), depth)) => {
                Decided { turn: Some(turn), depth, note: None, disagreement: prepared.disagreement.clone() }
            }
            Ok((Err(e), _)) => Decided::fallback(prepared, format!("the search refused: {e}")),
            Err(_) => Decided::fallback(prepared, "the search failed"),
        }
    });
    match &decided.turn {
        Some(turn) if !prepared.playable.contains(turn) => {
            Decided::fallback(prepared, format!("the search chose {turn}, which is not playable"))
        }
        _ => decided,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::delivery::Tree;
    use alea_engine::Color;
    use serde_json::json;

    const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 ppn";

    fn delivery(dfen: &str, tree: Option<serde_json::Value>) -> TurnDelivery {
        TurnDelivery {
            game_id: "g".into(),
            seat: if dfen.contains(" w ") { Color::White } else { Color::Black },
            dfen: dfen.into(),
            clocks: Some([60_000, 60_000]),
            control: TimeControl::Fischer { initial_ms: 60_000, increment_ms: 1000 },
            tree: tree.map(|t| Tree::read(&t).unwrap()),
        }
    }

    fn tree_of(turns: &[String]) -> serde_json::Value {
        let mut root = json!({});
        for turn in turns {
            let mut node = &mut root;
            for micro in turn.split(',') {
                node = node.as_object_mut().unwrap().entry(micro.to_string()).or_insert(json!({}));
            }
        }
        root
    }

    #[test]
    fn agreeing_generators_search_freely_and_a_disagreement_keeps_to_the_platforms_turns() {
        let ours = prepare(Variant::DiceChess3, &delivery(AFTER_E4, None)).unwrap();
        assert!(ours.playable.len() > 10 && ours.disagreement.is_none());
        let same = prepare(Variant::DiceChess3, &delivery(AFTER_E4, Some(tree_of(&ours.playable)))).unwrap();
        assert_eq!((same.playable.len(), same.root.clone()), (ours.playable.len(), Some(SearchRoot::Decision)));
        // The platform lists two of our turns and one we do not know.
        let mut listed = vec![ours.playable[0].clone(), ours.playable[5].clone()];
        listed.push("a7a5,a5a4,h7h6".into());
        let differ = prepare(Variant::DiceChess3, &delivery(AFTER_E4, Some(tree_of(&listed)))).unwrap();
        assert_eq!(differ.playable, listed[..2]);
        let note = differ.disagreement.clone().unwrap();
        assert!(note.contains("only the platform's: a7a5,a5a4,h7h6") && note.contains("and"), "{note}");
        let budget = budget(&delivery(AFTER_E4, None), Duration::ZERO, 100, 300);
        let decided = decide(&differ, &budget, &Shared::new(1));
        assert!(listed[..2].contains(decided.turn.as_ref().unwrap()), "{decided:?}");
        // Nothing in common: the platform's turn is played, never one of ours it did not list.
        let strange = prepare(Variant::DiceChess3, &delivery(AFTER_E4, Some(tree_of(&listed[2..])))).unwrap();
        assert_eq!(decide(&strange, &budget, &Shared::new(1)).moves(), ["a7a5", "a5a4", "h7h6"]);
    }

    #[test]
    fn the_budget_keeps_the_margin_and_the_cap() {
        let d = delivery(AFTER_E4, None);
        let b = budget(&d, Duration::from_millis(500), 1000, 30_000);
        assert_eq!((b.limits.time, b.limits.increment, b.limits.move_overhead), (Some(59_500), 1000, 1000));
        assert_eq!((b.usable_ms, b.watchdog), (58_500, Duration::from_millis(30_000)));
        let short = budget(&d, Duration::from_millis(59_000), 1000, 30_000);
        assert_eq!((short.usable_ms, short.watchdog, short.grace), (0, Duration::ZERO, Duration::ZERO));
        let per_move = TurnDelivery { control: TimeControl::PerMove { ms: 5000 }, clocks: None, ..d };
        let b = budget(&per_move, Duration::ZERO, 1000, 30_000);
        assert_eq!((b.limits.movetime, b.watchdog), (Some(3600), Duration::from_millis(3600)));
    }

    #[test]
    fn with_no_time_left_the_fallback_answers_at_once_and_takes_the_most_material() {
        // White's queen may take the rook on h8 with its die.
        let dfen = "r3k2r/8/8/8/3Q4/8/8/R3K2R w - - 0 30 QPP";
        let mut d = delivery(dfen, None);
        d.clocks = Some([900, 60_000]);
        let prepared = prepare(Variant::DiceChess3, &d).unwrap();
        let decided = decide(&prepared, &budget(&d, Duration::ZERO, 1000, 30_000), &Shared::new(1));
        assert!(decided.depth.is_none() && decided.note.as_deref().unwrap().contains("no search"), "{decided:?}");
        assert!(prepared.game.material_gain(decided.turn.as_ref().unwrap()) >= 500, "{decided:?}");
    }

    #[test]
    fn a_position_that_is_not_our_turn_or_has_no_dice_is_refused() {
        let mut d = delivery(AFTER_E4, None);
        d.seat = Color::White;
        assert!(prepare(Variant::DiceChess3, &d).unwrap_err().contains("seats us as White"));
        let d = delivery("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", None);
        assert!(prepare(Variant::DiceChess3, &d).unwrap_err().contains("no dice"));
        let d = delivery("rnbqkbnr/pppppppp/8/8 b KQkq - 0 1 ppn", None);
        assert!(prepare(Variant::DiceChess3, &d).unwrap_err().contains("state.dfen refused"));
    }
}
