//! One game on the page: a person against Alea. It owns the record (moves with rolls), whose
//! decision it is, and the dice. The dice of ply k come from the game's seed and k, so undoing a
//! move and playing again meets the same roll: undo takes back a mistake, not bad luck.

use alea_engine::pairing;
use alea_engine::pgn::{GameRecord, RecordedTurn};
use alea_engine::rules::{OutcomeList, Position, Roll, Rules, TurnList, Variant};
use alea_engine::san::to_san;
use alea_engine::search::{Choice, Root, SearchOptions, SearchResult, Shared, search_game};
use alea_engine::timeman::Limits;
use alea_engine::{Board, Color, Game, Move};
use serde_json::{Value, json};

/// Why a request about a game was refused; the status tells the HTTP layer how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Malformed or impossible (400).
    Bad(String),
    /// Not allowed now: not your turn, the engine is thinking, the game is over (409).
    Conflict(String),
}

/// What the side to move is deciding.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Before the roll: roll, or play a Freedom move.
    BeforeRoll,
    /// After the roll: one of the allowed moves.
    AfterRoll,
    Over,
}

#[derive(Clone)]
pub struct WebGame {
    pub record: GameRecord,
    pub game: Game<Variant>,
    /// The person's colour; the engine plays the other.
    pub human: Color,
    /// The dice of the turn being decided, once rolled.
    pub roll: Option<Roll>,
    pub seed: u64,
    /// Engine time per decision, in milliseconds.
    pub movetime: u64,
    /// What the engine said about its last turn (for the page's log).
    pub last_engine: Option<Value>,
}

/// Longest engine time a page may ask for.
pub const MAX_MOVETIME: u64 = 10_000;

impl WebGame {
    pub fn new(rules: Variant, start: Board, human: Color, seed: u64, movetime: u64) -> WebGame {
        let standard = start == Board::startpos() && !rules.chess960();
        let mut record = GameRecord::new(rules.name(), rules.chess960(), (!standard).then(|| start.fen()));
        let (white, black) = if human == Color::White { ("You", "Alea") } else { ("Alea", "You") };
        record.tags.push(("Event".into(), "Alea web game".into()));
        record.tags.push(("White".into(), white.into()));
        record.tags.push(("Black".into(), black.into()));
        let game = replay(&record);
        WebGame { record, game, human, roll: None, seed, movetime: movetime.clamp(1, MAX_MOVETIME), last_engine: None }
    }

    /// A game from a record (an uploaded PGN), continued with the person on the side to move.
    pub fn from_record(record: GameRecord, seed: u64, movetime: u64) -> WebGame {
        let game = replay(&record);
        let human = game.position().board.turn();
        WebGame { record, game, human, roll: None, seed, movetime: movetime.clamp(1, MAX_MOVETIME), last_engine: None }
    }

    pub fn rules(&self) -> Variant {
        *self.game.rules()
    }

    pub fn side_to_move(&self) -> Color {
        self.game.position().board.turn()
    }

    pub fn phase(&self) -> Phase {
        if self.game.end().is_some() {
            Phase::Over
        } else if self.roll.is_some() {
            Phase::AfterRoll
        } else {
            Phase::BeforeRoll
        }
    }

    pub fn engine_to_move(&self) -> bool {
        self.phase() != Phase::Over && self.side_to_move() != self.human
    }

    fn freedom_moves(&self) -> TurnList<Move> {
        let mut list = TurnList::new();
        self.rules().pre_roll_turns(self.game.position(), &mut list);
        list
    }

    fn allowed(&self, roll: &Roll) -> TurnList<Move> {
        let mut list = TurnList::new();
        self.rules().allowed_turns(self.game.position(), roll, &mut list);
        list
    }

    fn san(&self, pos: &Position, m: Move) -> String {
        let mut all = TurnList::new();
        self.rules().any_turns(pos, &mut all);
        to_san(&pos.board, m, &all)
    }

    /// The dice for the turn now being decided.
    fn dice(&self) -> Roll {
        let mut outcomes = OutcomeList::new();
        self.rules().outcomes(self.game.position(), &mut outcomes);
        pairing::roll(self.seed, 0, self.record.turns.len() as u64, &outcomes)
    }

    /// The person rolls.
    pub fn roll_dice(&mut self) -> Result<(), Refusal> {
        self.check_humans_turn()?;
        if self.roll.is_some() {
            return Err(Refusal::Conflict("the dice are already rolled: play one of the allowed moves".into()));
        }
        self.roll = Some(self.dice());
        Ok(())
    }

    fn check_humans_turn(&self) -> Result<(), Refusal> {
        if self.phase() == Phase::Over {
            return Err(Refusal::Conflict("the game is over".into()));
        }
        if self.side_to_move() != self.human {
            return Err(Refusal::Conflict("it is the engine's turn".into()));
        }
        Ok(())
    }

    /// The person plays `text` (UCI; `0000` or `pass` for a pass): a Freedom move before the
    /// roll, or an allowed move after it.
    pub fn human_move(&mut self, text: &str) -> Result<(), Refusal> {
        self.check_humans_turn()?;
        let rules = self.rules();
        let pos = self.game.position().clone();
        let text = if text == "pass" { "0000" } else { text };
        let looks_like_uci = (4..=5).contains(&text.len())
            && text.get(..2).and_then(alea_engine::Square::parse).is_some()
            && text.get(2..4).and_then(alea_engine::Square::parse).is_some();
        let turn = rules.parse_turn(&pos, text).ok_or_else(|| {
            Refusal::Bad(if looks_like_uci {
                format!("illegal move {text}: no piece of yours can move so")
            } else {
                format!("'{}' is not a move (write it in UCI, as e2e4)", truncate(text))
            })
        })?;
        match self.roll {
            None => {
                if !self.freedom_moves().contains(&turn) {
                    let why = if self.freedom_moves().is_empty() {
                        "roll the dice first".to_string()
                    } else {
                        format!("{text} is not a Freedom move: roll, or play one of the marked moves")
                    };
                    return Err(Refusal::Bad(format!("illegal move {text}: {why}")));
                }
                self.play(turn, None);
            }
            Some(roll) => {
                if !self.allowed(&roll).contains(&turn) {
                    return Err(Refusal::Bad(format!("illegal move {text}: the roll {roll} does not allow it")));
                }
                self.play(turn, Some(roll));
            }
        }
        Ok(())
    }

    fn play(&mut self, turn: Move, roll: Option<Roll>) {
        self.record.turns.push(RecordedTurn { turn: self.rules().turn_to_uci(turn), roll, comment: None });
        self.game.play(turn);
        self.roll = None;
        if let Some(end) = self.game.end() {
            self.record.result = end.result.to_string();
        }
    }

    /// Takes back the person's last turn and the engine's replies after it.
    pub fn undo(&mut self) -> Result<(), Refusal> {
        let human_turns: Vec<usize> = {
            let mut game = start_game(&self.record);
            let mut plies = Vec::new();
            for (i, t) in self.record.turns.iter().enumerate() {
                if game.position().board.turn() == self.human {
                    plies.push(i);
                }
                game.play(recorded_move(&game, t));
            }
            plies
        };
        let Some(&last) = human_turns.last() else {
            return Err(Refusal::Conflict("nothing of yours to take back".into()));
        };
        self.record.turns.truncate(last);
        self.record.result = "*".into();
        self.game = replay(&self.record);
        self.roll = None;
        self.last_engine = None;
        Ok(())
    }

    /// The engine decides its turn: a Freedom move or a roll (a third of its time), then, having
    /// rolled, a move (the rest). `report` sees each finished iteration.
    pub fn engine_turn(
        &mut self,
        shared: &Shared,
        report: &mut (dyn FnMut(&SearchResult<Move>) + Send),
    ) -> Result<(), Refusal> {
        if self.phase() == Phase::Over {
            return Err(Refusal::Conflict("the game is over".into()));
        }
        if self.side_to_move() == self.human {
            return Err(Refusal::Conflict("it is your turn, not the engine's".into()));
        }
        let limits = |ms: u64| Limits { movetime: Some(ms.max(1)), ..Default::default() };
        let freedom = self.freedom_moves();
        let mut info = json!({});
        if self.roll.is_none() && !freedom.is_empty() {
            let r = search_game(
                &self.game,
                Root::PreRoll,
                limits(self.movetime / 3),
                SearchOptions::default(),
                shared,
                report,
            );
            if let Choice::Turn(t) = r.best {
                info = json!({"freedom": true, "score": r.score, "depth": r.depth});
                let san = self.san(self.game.position(), t);
                info["move"] = json!(self.rules().turn_to_uci(t));
                info["san"] = json!(san);
                self.play(t, None);
                self.last_engine = Some(info);
                return Ok(());
            }
        }
        let roll = self.roll.unwrap_or_else(|| self.dice());
        let allowed = self.allowed(&roll);
        let (turn, score, depth) = if allowed.len() == 1 {
            (allowed[0], None, 0)
        } else {
            let time = if freedom.is_empty() { self.movetime } else { self.movetime * 2 / 3 };
            let r = search_game(
                &self.game,
                Root::Turns(allowed.to_vec()),
                limits(time),
                SearchOptions::default(),
                shared,
                report,
            );
            let t = match r.best {
                Choice::Turn(t) => t,
                Choice::Roll => allowed[0],
            };
            (t, Some(r.score), r.depth)
        };
        info["freedom"] = json!(false);
        info["roll"] = json!(roll.faces());
        info["move"] = json!(self.rules().turn_to_uci(turn));
        info["san"] = json!(self.san(self.game.position(), turn));
        info["score"] = json!(score);
        info["depth"] = json!(depth);
        self.play(turn, Some(roll));
        self.last_engine = Some(info);
        Ok(())
    }

    /// The page's view of the game.
    pub fn state(&self, id: &str) -> Value {
        let rules = self.rules();
        let mut game = start_game(&self.record);
        let mut moves = Vec::new();
        let mut fens = Vec::new();
        for (ply, t) in self.record.turns.iter().enumerate() {
            let turn = recorded_move(&game, t);
            fens.push(game.position().board.fen());
            let side = game.position().board.turn();
            let freedom = match (t.roll, rules) {
                (None, Variant::Freedom(f)) => f.freedom_kinds(game.position(), turn).names(),
                _ => Vec::new(),
            };
            moves.push(json!({
                "ply": ply,
                "side": side.name(),
                "by": if side == self.human { "you" } else { "engine" },
                "uci": rules.turn_to_uci(turn),
                "san": self.san(game.position(), turn),
                "roll": t.roll.map(|r| r.faces().to_vec()),
                "freedom": freedom,
                "pass": turn.is_null(),
            }));
            game.play(turn);
        }
        let phase = self.phase();
        let to_uci = |list: &[Move]| list.iter().map(|&m| rules.turn_to_uci(m)).collect::<Vec<_>>();
        let (freedom, allowed) = match (phase, self.roll) {
            (Phase::BeforeRoll, _) => (to_uci(&self.freedom_moves()), Vec::new()),
            (Phase::AfterRoll, Some(r)) => (Vec::new(), to_uci(&self.allowed(&r))),
            _ => (Vec::new(), Vec::new()),
        };
        let end = self.game.end();
        json!({
            "id": id,
            "variant": rules.name(),
            "chess960": rules.chess960(),
            "human": self.human.name(),
            "turn": self.side_to_move().name(),
            "engine_to_move": self.engine_to_move(),
            "phase": match phase { Phase::BeforeRoll => "before_roll", Phase::AfterRoll => "after_roll", Phase::Over => "over" },
            "fen": self.game.position().board.fen(),
            "in_check": self.game.position().board.in_check(),
            "roll": self.roll.map(|r| r.faces().to_vec()),
            "dice": rules.dice(),
            "freedom": freedom,
            "allowed": allowed,
            "moves": moves,
            "fens": fens,
            "movetime": self.movetime,
            "result": end.map(|e| e.result.to_string()),
            "reason": end.map(|e| e.reason.name()),
            "last_engine": self.last_engine,
        })
    }

    /// The engine's advice on the decision now open: before the roll, each outcome and the
    /// Freedom moves against rolling; after it, the allowed moves ranked.
    pub fn advice(
        &self,
        movetime: u64,
        shared: &Shared,
        report: &mut (dyn FnMut(&SearchResult<Move>) + Send),
    ) -> Value {
        let rules = self.rules();
        let pos = self.game.position();
        if self.phase() == Phase::Over {
            return json!({"over": true});
        }
        let (root, choices) = match self.roll {
            None => (Root::PreRoll, self.freedom_moves().len() + 1),
            Some(r) => {
                let allowed = self.allowed(&r);
                let n = allowed.len();
                (Root::Turns(allowed.to_vec()), n)
            }
        };
        let options = SearchOptions { multipv: choices.max(1), ..SearchOptions::default() };
        let limits = Limits { movetime: Some(movetime.max(1)), ..Default::default() };
        let r = search_game(&self.game, root, limits, options, shared, report);
        let best_score = r.choices.first().map_or(r.score, |c| c.score);
        let choices: Vec<Value> = r
            .choices
            .iter()
            .map(|c| {
                let (w, d, l) = r.wdl_of(c.score);
                let (uci, san) = match c.choice {
                    Choice::Turn(t) => (rules.turn_to_uci(t), self.san(pos, t)),
                    Choice::Roll => ("roll".into(), "roll".into()),
                };
                json!({"move": uci, "san": san, "score": c.score, "exact": c.exact,
                       "loss": best_score - c.score, "wdl": [w, d, l]})
            })
            .collect();
        let outcomes: Vec<Value> = r
            .outcomes
            .iter()
            .map(|o| {
                json!({"roll": o.roll.faces(), "probability": o.probability,
                       "best": rules.turn_to_uci(o.best), "san": self.san(pos, o.best), "score": o.score})
            })
            .collect();
        let (w, d, l) = r.wdl();
        let side = pos.board.turn();
        let white_score = if side == Color::White { r.score } else { -r.score };
        json!({
            "side": side.name(),
            "roll": self.roll.map(|r| r.faces().to_vec()),
            "best": match r.best { Choice::Turn(t) => rules.turn_to_uci(t), Choice::Roll => "roll".into() },
            "score": r.score,
            "white_score": white_score,
            "mate": r.mate,
            "wdl": [w, d, l],
            "depth": r.depth,
            "nodes": r.nodes,
            "choices": choices,
            "outcomes": outcomes,
            "expected": r.roll_score,
        })
    }

    /// Each turn of the game judged at `depth`: the loss of the move played and the luck of the roll.
    pub fn analysis(&self, depth: u32) -> Value {
        let limits = Limits { depth: Some(depth), ..Default::default() };
        let mut game = start_game(&self.record);
        let mut turns = Vec::new();
        for (ply, t) in self.record.turns.iter().enumerate() {
            let turn = recorded_move(&game, t);
            let a = alea_engine::analysis::analyse_turn(&game, ply, turn, t.roll, &limits);
            let best = match a.best {
                Choice::Turn(m) => self.san(game.position(), m),
                Choice::Roll => "roll".into(),
            };
            turns.push(json!({
                "ply": ply,
                "side": a.side.name(),
                "san": self.san(game.position(), turn),
                "roll": t.roll.map(|r| r.faces().to_vec()),
                "best": best,
                "best_score": a.best_score,
                "loss": a.loss,
                "luck": a.luck,
            }));
            game.play(turn);
        }
        let summary: Vec<Value> = [Color::White, Color::Black]
            .into_iter()
            .map(|side| {
                let mine: Vec<&Value> = turns.iter().filter(|t| t["side"] == side.name()).collect();
                let loss: i64 = mine.iter().map(|t| t["loss"].as_i64().unwrap_or(0)).sum();
                let luck: i64 = mine.iter().filter_map(|t| t["luck"].as_i64()).sum();
                json!({"side": side.name(), "moves": mine.len(),
                       "average_loss": if mine.is_empty() { 0.0 } else { loss as f64 / mine.len() as f64 },
                       "luck": luck})
            })
            .collect();
        json!({"depth": depth, "turns": turns, "summary": summary})
    }
}

fn truncate(text: &str) -> String {
    text.chars().take(40).collect()
}

/// The record's start as a game of the one-move variants (the page plays those so far; an upload
/// of another variant is refused before it gets here).
fn start_game(record: &GameRecord) -> Game<Variant> {
    let kind = alea_engine::VariantKind::from_name(&record.variant).expect("a one-move variant");
    let board =
        record.start.as_deref().map_or_else(Board::startpos, |fen| Board::from_fen(fen).expect("a recorded start"));
    Game::new(Variant::new(kind, record.chess960), Position::new(board))
}

/// A recorded turn as the move it is in `game`'s position.
fn recorded_move(game: &Game<Variant>, turn: &RecordedTurn) -> Move {
    game.rules().parse_turn(game.position(), &turn.turn).expect("a recorded turn")
}

/// The record replayed.
fn replay(record: &GameRecord) -> Game<Variant> {
    let mut game = start_game(record);
    for t in &record.turns {
        let m = recorded_move(&game, t);
        game.play(m);
    }
    game
}
