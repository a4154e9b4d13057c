//! What the protocol does alike in every variant, written once over the variant registry: the
//! variant is offered and chosen, its start is set up, the engine answers a roll with a turn the
//! rules allow, the GUI plays the turns back in `position ... moves` and reaches the position the
//! engine library reaches, and bad input is refused with one error. Each variant's own rules
//! have their own files beside this one.

use crate::common;
use alea_engine::services::handle::{GameHandle, RollSpec};
use alea_engine::services::registry::Variant;
use common::{Engine, errors, fen_of};

fn best(reply: &[String]) -> String {
    reply.last().and_then(|l| l.strip_prefix("bestmove ")).unwrap_or_else(|| panic!("no bestmove: {reply:?}")).into()
}

fn faces(roll: &alea_engine::rules::Roll) -> String {
    roll.faces().iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
}

/// The engine in `variant`, at its start.
fn engine_in(variant: Variant) -> Engine {
    let mut e = Engine::start();
    let set = e.ask(&format!("setoption name UCI_Variant value {variant}"));
    assert!(set.is_empty(), "{variant}: {set:?}");
    assert!(e.ask("position startpos").is_empty(), "{variant}");
    e
}

#[test]
fn every_variant_is_offered_and_plays_its_turns_through_the_protocol() {
    let mut e = Engine::start();
    let uci = e.ask("uci");
    let combo = uci.iter().find(|l| l.starts_with("option name UCI_Variant ")).expect("the variant option");
    for v in Variant::ALL {
        assert!(combo.contains(&format!(" var {v}")), "{v} is not offered: {combo}");
    }
    e.quit();
    for v in Variant::ALL {
        let mut e = engine_in(v);
        // The library's game beside the engine's: both must reach the same positions.
        let mut game = GameHandle::of(v, false).unwrap();
        assert_eq!(fen_of(&mut e), game.fen(), "{v}: the start");
        let mut turns: Vec<String> = Vec::new();
        for ply in 0..3 {
            // A roll the variant throws here (the ply-th with a weight), and the engine's answer.
            let rolls: Vec<_> = game.outcomes().iter().filter(|o| o.weight > 0).map(|o| o.roll).collect();
            let Some(&roll) = rolls.get(ply % rolls.len().max(1)) else { break };
            let reply = e.go(&format!("go depth 1 roll {}", faces(&roll)));
            let answer = best(&reply);
            let allowed = game.allowed_turns(&RollSpec::Faces(roll.faces().to_vec())).unwrap();
            assert!(allowed.contains(&answer), "{v}: {answer} after {roll} is not among {allowed:?}");
            turns.push(game.turn_with_roll(&answer, &roll));
            game.play_checked(&answer, Some(&roll)).unwrap();
            let played = e.ask(&format!("position startpos moves {}", turns.join(" ")));
            assert!(played.is_empty(), "{v}: {turns:?}: {played:?}");
            assert_eq!(fen_of(&mut e), game.fen(), "{v}: after {turns:?}");
            if game.end().is_some() {
                break;
            }
        }
        e.quit();
    }
}

#[test]
fn bad_input_gets_one_error_in_every_variant() {
    for v in Variant::ALL {
        let mut e = engine_in(v);
        let game = GameHandle::of(v, false).unwrap();
        let start = fen_of(&mut e);
        // Dice the variant does not roll: a face of seven, and one die too many.
        let too_many = vec!["1"; game.dice() + 1].join(" ");
        for bad in ["go roll 7".to_string(), format!("go roll {too_many}")] {
            let reply = e.go(&bad);
            assert_eq!(errors(&reply), 1, "{v}: {bad}: {reply:?}");
            assert_eq!(best(&reply), "(none)", "{v}: {bad}");
            assert_eq!(fen_of(&mut e), start, "{v}: {bad} changed the position");
        }
        for bad in ["legalmoves roll 7".to_string(), format!("legalmoves roll {too_many}")] {
            assert_eq!(errors(&e.ask(&bad)), 1, "{v}: {bad}");
            assert_eq!(fen_of(&mut e), start, "{v}: {bad} changed the position");
        }
        // An unknown variant leaves this one.
        let unknown = e.ask("setoption name UCI_Variant value nonesuch");
        assert!(errors(&unknown) == 1 && unknown[0].contains(v.name()), "{v}: {unknown:?}");
        assert_eq!(fen_of(&mut e), start, "{v}: an unknown variant changed the position");
        // Positions that are none, and moves that are none: one error each.
        for bad in ["position fen garbage", "position fen 8/8/8/8/8/8/8/8 w - - 0 1", "position startpos moves z9z9"] {
            assert_eq!(errors(&e.ask(bad)), 1, "{v}: {bad}");
            assert!(e.ask("position startpos").is_empty(), "{v}");
        }
        e.quit();
    }
}
