//! What the bot platform POSTs, read into our own types: the ownership handshake, or a turn to
//! play (the game, our seat, the position with its dice as DFEN, the clocks, the time control and
//! the legal turns as a tree of micro-moves). Anything else is refused with the reason.

use alea_engine::Color;
use serde_json::Value;
use std::collections::BTreeSet;

/// One delivery.
#[derive(Debug)]
pub enum Delivery {
    /// The handshake that registers the endpoint: answered by echoing the nonce.
    Verification { nonce: Value },
    /// Our turn in a game.
    Turn(TurnDelivery),
}

/// A turn to play, as delivered.
#[derive(Debug, Clone)]
pub struct TurnDelivery {
    pub game_id: String,
    pub seat: Color,
    /// The position and, in its 7th field, the dice to play.
    pub dfen: String,
    /// Each side's clock in milliseconds when the delivery was sent, if the game has clocks.
    pub clocks: Option<[u64; 2]>,
    pub control: TimeControl,
    /// The platform's legal turns; `None` when it was too large to send.
    pub tree: Option<Tree>,
}

impl TurnDelivery {
    /// Our clock in milliseconds as delivered.
    pub fn our_clock(&self) -> Option<u64> {
        self.clocks.map(|c| c[usize::from(self.seat == Color::Black)])
    }
}

/// The platform's time controls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeControl {
    /// No clock; the platform still cuts a turn off after its own cap.
    Unlimited,
    SuddenDeath {
        initial_ms: u64,
    },
    /// A clock and an increment credited after each turn.
    Fischer {
        initial_ms: u64,
        increment_ms: u64,
    },
    /// A fresh budget every turn.
    PerMove {
        ms: u64,
    },
}

/// The legal turns as the platform lists them: each a path of UCI micro-moves from the root to
/// a leaf of its prefix tree.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Tree {
    pub turns: BTreeSet<Vec<String>>,
}

/// The deepest a turn's path may be: no variant has more than a few dice a turn.
const MAX_MICRO_MOVES: usize = 16;

impl Tree {
    /// Reads a prefix tree of micro-moves (`{"e2e4": {"g1f3": {}}}`).
    pub fn read(value: &Value) -> Result<Tree, String> {
        let mut tree = Tree::default();
        let mut path = Vec::new();
        walk(value, &mut path, &mut tree.turns)?;
        Ok(tree)
    }

    /// Turns written as the engine writes them: micro-moves joined by commas.
    pub fn joined(&self) -> BTreeSet<String> {
        self.turns.iter().map(|t| t.join(",")).collect()
    }
}

fn walk(node: &Value, path: &mut Vec<String>, out: &mut BTreeSet<Vec<String>>) -> Result<(), String> {
    let Value::Object(children) = node else {
        return Err(format!("legalMoves: after {:?} a node is not an object", path.join(" ")));
    };
    if children.is_empty() {
        if !path.is_empty() {
            out.insert(path.clone());
        }
        return Ok(());
    }
    if path.len() >= MAX_MICRO_MOVES {
        return Err(format!("legalMoves: a turn longer than {MAX_MICRO_MOVES} micro-moves"));
    }
    for (micro, child) in children {
        if micro.is_empty() || micro.len() > 8 || !micro.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(format!("legalMoves: {micro:?} is not a UCI micro-move"));
        }
        path.push(micro.clone());
        walk(child, path, out)?;
        path.pop();
    }
    Ok(())
}

/// The delivery's `type`, read before anything else (the handshake is answered unsigned).
pub fn kind(body: &Value) -> Result<&str, String> {
    match body.get("type") {
        Some(Value::String(kind)) => Ok(kind),
        Some(_) => Err("the delivery's \"type\" is not a string".into()),
        None => Err("the delivery has no \"type\"".into()),
    }
}

/// Reads a delivery whose body is already JSON.
pub fn read(body: &Value) -> Result<Delivery, String> {
    match kind(body)? {
        "verification" => match body.get("nonce") {
            Some(nonce @ (Value::String(_) | Value::Number(_))) => Ok(Delivery::Verification { nonce: nonce.clone() }),
            _ => Err("a verification delivery needs a \"nonce\"".into()),
        },
        "yourTurn" => read_turn(body).map(Delivery::Turn),
        other => Err(format!("unknown delivery type {other:?} (verification, yourTurn)")),
    }
}

fn read_seat(value: Option<&Value>, field: &str) -> Result<Color, String> {
    match value.and_then(Value::as_str) {
        Some("White") => Ok(Color::White),
        Some("Black") => Ok(Color::Black),
        Some(other) => Err(format!("{field} {other:?} is not White or Black")),
        None => Err(format!("the delivery has no {field}")),
    }
}

fn millis(value: &Value, field: &str) -> Result<u64, String> {
    value.as_u64().ok_or_else(|| format!("{field} is not a whole number of milliseconds: {value}"))
}

fn seconds(value: &Value, field: &str) -> Result<u64, String> {
    value
        .get(field)
        .and_then(Value::as_u64)
        .map(|s| s.saturating_mul(1000))
        .ok_or_else(|| format!("timeControl: {field} is not a whole number of seconds"))
}

fn read_control(value: Option<&Value>) -> Result<TimeControl, String> {
    let Some(value) = value.filter(|v| !v.is_null()) else { return Ok(TimeControl::Unlimited) };
    let Some((name, body)) = value.as_object().filter(|o| o.len() == 1).and_then(|o| o.iter().next()) else {
        return Err(format!("timeControl {value} is not one of Unlimited, SuddenDeath, Fischer, PerMove"));
    };
    match name.as_str() {
        "Unlimited" => Ok(TimeControl::Unlimited),
        "SuddenDeath" => Ok(TimeControl::SuddenDeath { initial_ms: seconds(body, "initialSeconds")? }),
        "Fischer" => Ok(TimeControl::Fischer {
            initial_ms: seconds(body, "initialSeconds")?,
            increment_ms: seconds(body, "incrementSeconds")?,
        }),
        "PerMove" => Ok(TimeControl::PerMove { ms: seconds(body, "secondsPerMove")? }),
        other => Err(format!("unknown time control {other:?} (Unlimited, SuddenDeath, Fischer, PerMove)")),
    }
}

fn read_turn(body: &Value) -> Result<TurnDelivery, String> {
    let game_id = match body.get("gameId").and_then(Value::as_str) {
        Some(id) if !id.is_empty() && id.len() <= 200 && !id.chars().any(char::is_control) => id.to_string(),
        Some(_) => return Err("gameId is empty, too long or holds control characters".into()),
        None => return Err("the delivery has no gameId".into()),
    };
    let seat = read_seat(body.get("seat"), "seat")?;
    let state = body.get("state").filter(|s| s.is_object()).ok_or("the delivery has no state object")?;
    let active = read_seat(state.get("activeSeat"), "state.activeSeat")?;
    if active != seat {
        return Err(format!("it is {active:?}'s turn, and the delivery seats us as {seat:?}"));
    }
    if state.get("dicePending").and_then(Value::as_bool) == Some(false) {
        return Err("the dice are not rolled (dicePending is false)".into());
    }
    let dfen = state.get("dfen").and_then(Value::as_str).ok_or("state.dfen is missing")?.to_string();
    let clocks = match state.get("clocks") {
        None | Some(Value::Null) => None,
        Some(c) => Some([
            millis(c.get("white").unwrap_or(&Value::Null), "clocks.white")?,
            millis(c.get("black").unwrap_or(&Value::Null), "clocks.black")?,
        ]),
    };
    let control = read_control(state.get("timeControl"))?;
    let tree = match state.get("legalMoves") {
        None | Some(Value::Null) => None,
        Some(tree) => Some(Tree::read(tree)?),
    };
    Ok(TurnDelivery { game_id, seat, dfen, clocks, control, tree })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn turn(state: Value) -> Value {
        json!({"type": "yourTurn", "gameId": "g1", "seat": "White", "state": state})
    }

    #[test]
    fn a_turn_reads_its_clocks_control_and_tree() {
        let body = turn(json!({
            "version": 4,
            "dfen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PPN",
            "activeSeat": "White", "dicePending": true,
            "clocks": {"white": 295000, "black": 300000},
            "timeControl": {"Fischer": {"initialSeconds": 300, "incrementSeconds": 3}},
            "legalMoves": {"e2e4": {"g1f3": {}, "e4e5": {}}, "d2d4": {"d4d5": {}}},
        }));
        let Delivery::Turn(t) = read(&body).unwrap() else { panic!("a turn") };
        assert_eq!((t.game_id.as_str(), t.seat, t.our_clock()), ("g1", Color::White, Some(295_000)));
        assert_eq!(t.control, TimeControl::Fischer { initial_ms: 300_000, increment_ms: 3000 });
        let joined: Vec<String> = t.tree.unwrap().joined().into_iter().collect();
        assert_eq!(joined, ["d2d4,d4d5", "e2e4,e4e5", "e2e4,g1f3"]);
    }

    #[test]
    fn a_null_tree_is_left_to_the_engine_and_an_empty_one_has_no_turn() {
        let dfen = "8/8/8/8/8/8/8/K6k w - - 0 1 K";
        let body = turn(json!({"dfen": dfen, "activeSeat": "White", "legalMoves": null}));
        let Delivery::Turn(t) = read(&body).unwrap() else { panic!("a turn") };
        assert!(t.tree.is_none() && t.clocks.is_none() && t.control == TimeControl::Unlimited);
        let body = turn(json!({"dfen": dfen, "activeSeat": "White", "legalMoves": {}}));
        let Delivery::Turn(t) = read(&body).unwrap() else { panic!("a turn") };
        assert!(t.tree.unwrap().turns.is_empty());
    }

    #[test]
    fn bad_deliveries_say_what_is_wrong() {
        let dfen = "8/8/8/8/8/8/8/K6k w - - 0 1 K";
        for (body, says) in [
            (json!({"nonce": "x"}), "no \"type\""),
            (json!({"type": "gameOver"}), "unknown delivery type \"gameOver\""),
            (json!({"type": "verification"}), "needs a \"nonce\""),
            (turn(json!({"dfen": dfen, "activeSeat": "Black"})), "it is Black's turn"),
            (turn(json!({"activeSeat": "White"})), "state.dfen is missing"),
            (turn(json!({"dfen": dfen, "activeSeat": "White", "dicePending": false})), "not rolled"),
            (turn(json!({"dfen": dfen, "activeSeat": "White", "clocks": {"white": -1, "black": 0}})), "clocks.white"),
            (turn(json!({"dfen": dfen, "activeSeat": "White", "timeControl": {"Bronstein": {}}})), "Bronstein"),
            (turn(json!({"dfen": dfen, "activeSeat": "White", "legalMoves": {"e2e4": []}})), "not an object"),
            (turn(json!({"dfen": dfen, "activeSeat": "White", "legalMoves": {"e2 e4": {}}})), "not a UCI micro-move"),
            (json!({"type": "yourTurn", "seat": "White", "state": {}}), "no gameId"),
        ] {
            let e = read(&body).unwrap_err();
            assert!(e.contains(says), "{body}: {e}");
        }
    }
}
