//! One game on the page: a person against Alea. It owns the record (turns with rolls), whose
//! decision it is, and the dice. The dice of ply k come from the game's seed and k, so undoing a
//! move and playing again meets the same roll: undo takes back a mistake, not bad luck. The game
//! itself is the engine's game handle, so every variant plays here without a case of its own; in
//! the variants of several moves a turn the person makes a turn one micro-move at a time. A game
//! with the person's own dice takes every roll from the person, the engine's too (dice thrown at
//! a table, or a game followed from elsewhere): the engine then decides before its roll, and
//! waits for its dice where it rolls.

use alea_engine::Color;
use alea_engine::services::advice::Advice;
use alea_engine::services::analysis::analyse_game;
use alea_engine::services::driver::{TurnEvent, TurnRequest, play_turn};
use alea_engine::services::handle::{GameHandle, RollSpec, SearchReport, SearchRoot};
use alea_engine::services::pgn::{GameRecord, RecordedTurn};
use alea_engine::services::registry::{UnknownVariant, Variant};
use alea_engine::services::rollout::{self, RolloutSettings, RolloutTable, roll_out};
use alea_engine::services::search::Limits;
use alea_engine::services::search::Skill;
use alea_engine::services::search::{Choice, SearchOptions, Shared};
use alea_engine::{GameError, Roll};
use serde_json::{Value, json};

/// Why a request about a game was refused; the status tells the HTTP layer how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Malformed or impossible (400).
    Bad(String),
    /// Not allowed now: not your turn, the engine is thinking, the game is over (409).
    Conflict(String),
}

impl Refusal {
    /// The engine's refusals answer by their kind: what the game's state refuses now is a conflict.
    fn of(not_now: bool, message: String) -> Refusal {
        if not_now { Refusal::Conflict(message) } else { Refusal::Bad(message) }
    }
}

impl From<GameError> for Refusal {
    fn from(e: GameError) -> Refusal {
        Refusal::of(e.is_not_now(), e.to_string())
    }
}

impl From<alea_engine::services::error::Error> for Refusal {
    fn from(e: alea_engine::services::error::Error) -> Refusal {
        Refusal::of(e.is_not_now(), e.to_string())
    }
}

/// What the side to move is deciding.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Before the roll: roll, or play a Freedom move.
    BeforeRoll,
    /// After the roll: one of the allowed turns (or the next micro-move of one).
    AfterRoll,
    Over,
}

#[derive(Clone)]
pub struct WebGame {
    pub record: GameRecord,
    /// The record replayed, with the person's micro-moves of a turn in progress.
    pub game: GameHandle,
    /// The person's colour; the engine plays the other.
    pub human: Color,
    /// The dice of the turn being decided, once rolled.
    pub roll: Option<Roll>,
    pub seed: u64,
    /// Engine time per decision, in milliseconds.
    pub movetime: u64,
    /// What the engine said about its last turn (for the page's log).
    pub last_engine: Option<Value>,
    /// The person enters every roll, the engine's too.
    pub own_dice: bool,
    /// With own dice: the engine has chosen to roll (over its Freedom moves) and waits for its dice.
    pub engine_chose_roll: bool,
    /// The engine's `Skill Level`, 0 to 20 (full strength).
    pub skill: u8,
}

/// Longest engine time a page may ask for.
pub const MAX_MOVETIME: u64 = 10_000;

/// Whole turns ranked in the advice of a variant of several moves a turn (thousands exist).
const RANKED_TURNS: usize = 10;

/// The search that picks a rollout's choices (milliseconds).
const ROLLOUT_SEARCH_MS: u64 = 300;

impl WebGame {
    /// A new game of `variant` from `start` (FEN, or DFEN where the variant has it; the standard
    /// start when `None`, a random Chess960 start when `chess960` and no FEN is given).
    pub fn new(
        variant: &str,
        chess960: bool,
        start: Option<&str>,
        human: Color,
        seed: u64,
        movetime: u64,
        own_dice: bool,
    ) -> Result<WebGame, Refusal> {
        let random960;
        let start = match start {
            Some(fen) => Some(fen),
            None if chess960 => {
                random960 = GameHandle::chess960_start(seed);
                Some(random960.as_str())
            }
            None => None,
        };
        let variant: Variant = variant.parse().map_err(|e: UnknownVariant| Refusal::Bad(e.to_string()))?;
        let game = GameHandle::setup(variant, chess960, start, None, &[])?;
        let standard = start.is_none() || game.start_fen() == GameHandle::of(variant, false)?.fen();
        let mut record = GameRecord::new(variant, chess960, (!standard).then(|| game.start_fen()));
        let (white, black) = if human == Color::White { ("You", "Alea") } else { ("Alea", "You") };
        record.tags.push(("Event".into(), "Alea web game".into()));
        record.tags.push(("Date".into(), alea_engine::services::pgn::today()));
        record.tags.push(("White".into(), white.into()));
        record.tags.push(("Black".into(), black.into()));
        let mut web = WebGame::of(record, game, human, seed, movetime, own_dice);
        if let Some(end) = web.game.end() {
            web.record.result = end.result.to_string();
        }
        Ok(web)
    }

    /// A game from a record (an uploaded PGN), continued with the person on the side to move.
    pub fn from_record(record: GameRecord, seed: u64, movetime: u64, own_dice: bool) -> WebGame {
        let game = record.game();
        let human = game.side_to_move();
        WebGame::of(record, game, human, seed, movetime, own_dice)
    }

    /// The game `game` (the record replayed) stands in, with the dice of a turn it has in
    /// progress, at full strength.
    fn of(record: GameRecord, game: GameHandle, human: Color, seed: u64, movetime: u64, own_dice: bool) -> WebGame {
        let roll = game.dice_left();
        WebGame {
            record,
            game,
            human,
            roll,
            seed,
            movetime: movetime.clamp(1, MAX_MOVETIME),
            last_engine: None,
            own_dice,
            engine_chose_roll: false,
            skill: alea_engine::services::search::FULL_SKILL,
        }
    }

    pub fn side_to_move(&self) -> Color {
        self.game.side_to_move()
    }

    /// The game as it is kept on disk: its record as PGN and what the record does not hold (whose
    /// side the person plays, the dice, a turn in progress).
    pub fn saved(&self) -> Value {
        let partial = self.game.partial_turn();
        json!({
            "version": 1,
            "pgn": self.record.to_pgn(),
            "human": self.human.name(),
            "seed": self.seed,
            "movetime": self.movetime,
            "own_dice": self.own_dice,
            "engine_chose_roll": self.engine_chose_roll,
            "skill": self.skill,
            "roll": self.roll.map(|r| r.faces().to_vec()),
            "partial": if partial == "0000" { Vec::new() } else { partial.split(',').map(str::to_string).collect() },
        })
    }

    /// A game kept by [`WebGame::saved`], checked as an uploaded game is: every turn against its
    /// roll, the dice against the variant, the turn in progress micro-move by micro-move.
    pub fn from_saved(text: &str) -> Result<WebGame, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        if v["version"] != 1 {
            return Err(format!("version {} is not one this build reads (1)", v["version"]));
        }
        let field = |name: &str| v.get(name).filter(|f| !f.is_null()).ok_or_else(|| format!("no {name}"));
        let record = GameRecord::from_pgn(field("pgn")?.as_str().ok_or("pgn is not text")?)
            .map_err(|e| format!("its PGN: {e}"))?;
        let human = field("human")?.as_str().and_then(Color::from_name).ok_or("human is white or black")?;
        let number = |name: &str| field(name)?.as_u64().ok_or_else(|| format!("{name} is not a number"));
        let flag = |name: &str| field(name)?.as_bool().ok_or_else(|| format!("{name} is not true or false"));
        let mut web = WebGame::from_record(record, number("seed")?, number("movetime")?, flag("own_dice")?);
        web.human = human;
        web.engine_chose_roll = flag("engine_chose_roll")?;
        web.skill = match v.get("skill") {
            None => alea_engine::services::search::FULL_SKILL,
            Some(level) => level
                .as_u64()
                .filter(|l| *l <= u64::from(alea_engine::services::search::FULL_SKILL))
                .ok_or("skill is 0 to 20")? as u8,
        };
        if let Some(faces) = v.get("roll").and_then(Value::as_array) {
            let faces: Vec<u8> = faces
                .iter()
                .map(|f| f.as_u64().and_then(|f| u8::try_from(f).ok()))
                .collect::<Option<_>>()
                .ok_or("a die face is not a number")?;
            let roll = web.game.check_roll(&faces).map_err(|e| e.to_string())?;
            // The person's roll in a turn of several micro-moves began the turn; the engine's
            // (own dice) waits for its search.
            if web.game.several_moves_a_turn() && web.game.dice_left().is_none() && web.side_to_move() == human {
                web.game.start_turn(&roll).map_err(|e| e.to_string())?;
            }
            web.roll = Some(roll);
        }
        for step in v.get("partial").and_then(Value::as_array).into_iter().flatten() {
            let step = step.as_str().ok_or("a micro-move is not text")?;
            if web.game.play_step(step).map_err(|e| e.to_string())? {
                return Err(format!("the micro-move {step} ends a turn kept as in progress"));
            }
        }
        Ok(web)
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

    /// With own dice: the engine's turn waits for the person to enter its roll (it has chosen to
    /// roll, or has nothing to decide before the roll).
    pub fn engine_awaits_dice(&self) -> bool {
        self.own_dice
            && self.engine_to_move()
            && self.roll.is_none()
            && self.game.may_roll()
            && (self.engine_chose_roll || self.game.pre_roll_turns().is_empty())
    }

    /// The number below `total` that draws the dice of the turn now being decided: a function of
    /// the game's seed and the ply, so a take-back meets the same roll.
    fn draw(&self, total: u32) -> u32 {
        alea_engine::services::search::seeded_draw(self.seed, 0, self.record.turns.len() as u64, u64::from(total))
            as u32
    }

    /// The dice for the turn now being decided.
    fn dice(&self) -> Roll {
        self.game.roll_for(self.draw(self.game.total_weight())).expect("a game not over has outcomes")
    }

    /// The dice still to use in the turn being decided: the whole roll, or what a turn in
    /// progress has left.
    fn dice_left(&self) -> Option<Roll> {
        self.game.dice_left().or(self.roll)
    }

    /// What the person may play next: after the roll, the allowed turns (one move a turn) or the
    /// allowed next micro-moves (several); before it, the Freedom moves.
    fn choices_now(&self) -> Vec<String> {
        match (self.phase(), self.dice_left()) {
            (Phase::BeforeRoll, _) => self.game.pre_roll_turns(),
            (Phase::AfterRoll, Some(left)) => {
                self.game.first_moves(&RollSpec::Faces(left.faces().to_vec())).unwrap_or_default()
            }
            _ => Vec::new(),
        }
    }

    /// The person rolls, or with own dice enters the roll (`faces`, as `1 4 6`): their own, or
    /// the engine's where it waits for its dice.
    pub fn roll_dice(&mut self, faces: Option<&str>) -> Result<(), Refusal> {
        let faces = match (self.own_dice, faces) {
            (false, Some(_)) => {
                return Err(Refusal::Bad(
                    "this game's dice are rolled here: start a game with your own dice to enter them".into(),
                ));
            }
            (true, None) => return Err(Refusal::Bad("enter the dice, as {\"faces\": \"1 4 6\"}".into())),
            (_, faces) => faces,
        };
        if self.own_dice && self.engine_to_move() {
            if !self.engine_awaits_dice() {
                return Err(Refusal::Conflict(if self.roll.is_some() {
                    "Alea's dice are entered already: ask it to play".into()
                } else {
                    "Alea decides first whether to roll: ask it to play".into()
                }));
            }
            // The engine's dice: its turn is searched on them when it is asked to play.
            self.roll = Some(self.game.entered_roll(faces.unwrap_or_default()).map_err(Refusal::from)?);
            self.engine_chose_roll = false;
            return Ok(());
        }
        self.check_humans_turn()?;
        if self.roll.is_some() {
            return Err(Refusal::Conflict("the dice are already rolled: play one of the allowed moves".into()));
        }
        if !self.game.may_roll() {
            return Err(Refusal::Conflict(
                "no roll this turn (in check, or after giving check): play one of the moves offered without rolling"
                    .into(),
            ));
        }
        let roll = match faces {
            Some(text) => self.game.entered_roll(text).map_err(Refusal::from)?,
            None => self.dice(),
        };
        if self.game.several_moves_a_turn() {
            // The turn is made one micro-move at a time from here; a roll that allows nothing
            // passes at once.
            let passed = self.game.start_turn(&roll).map_err(Refusal::from)?;
            self.roll = Some(roll);
            if passed {
                self.turn_done();
            }
        } else {
            self.roll = Some(roll);
        }
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
    /// roll, or after it an allowed turn, or, in the variants of several moves a turn, the next
    /// micro-move (or the rest of the turn, micro-moves joined by commas).
    pub fn human_move(&mut self, text: &str) -> Result<(), Refusal> {
        self.check_humans_turn()?;
        let text = if text == "pass" { "0000" } else { text };
        let known = self.game.canonical(text).or_else(|| self.game.canonical(text.split(',').next().unwrap_or("")));
        if known.is_none() && text != "0000" {
            // Two squares of this board (`e2e4`, `a10a9`), a promotion's letter after them.
            let squares = text.strip_suffix(['n', 'b', 'r', 'q', 'k']).unwrap_or(text);
            let looks_like_uci = squares.is_ascii()
                && (2..squares.len()).any(|i| {
                    let (from, to) = squares.split_at(i);
                    self.game.square_coords(from).is_some() && self.game.square_coords(to).is_some()
                });
            return Err(Refusal::Bad(if looks_like_uci {
                format!("illegal move {text}: no piece of yours can move so")
            } else {
                format!("'{}' is not a move (write it in UCI, as e2e4)", truncate(text))
            }));
        }
        match self.roll {
            None => {
                let unrolled = self.game.pre_roll_turns();
                let turn = known.unwrap_or_else(|| text.to_string());
                if !unrolled.contains(&turn) {
                    let why = if unrolled.is_empty() {
                        "roll the dice first".to_string()
                    } else {
                        format!("{text} may not be played without rolling: roll, or play one of the marked moves")
                    };
                    return Err(Refusal::Bad(format!("illegal move {text}: {why}")));
                }
                self.play(&turn, None);
            }
            Some(roll) if self.game.several_moves_a_turn() => {
                // Micro-moves one at a time, on a copy: a refused one changes nothing.
                let mut next = self.game.clone();
                let mut ended = false;
                for (i, step) in text.split(',').enumerate() {
                    if ended {
                        return Err(Refusal::Bad(format!(
                            "illegal move {text}: the turn ends before its move {}",
                            i + 1
                        )));
                    }
                    ended = next.play_step(step).map_err(|e| {
                        Refusal::Bad(format!(
                            "illegal move {}: {e} (roll {roll}, dice left {})",
                            truncate(step),
                            self.dice_left().map_or(String::new(), |d| d.to_string())
                        ))
                    })?;
                }
                self.game = next;
                if ended {
                    self.turn_done();
                }
            }
            Some(roll) => {
                let allowed =
                    self.game.allowed_turns(&RollSpec::Faces(roll.faces().to_vec())).map_err(Refusal::from)?;
                let turn = known.unwrap_or_else(|| text.to_string());
                if !allowed.contains(&turn) {
                    return Err(Refusal::Bad(format!("illegal move {text}: the roll {roll} does not allow it")));
                }
                self.play(&turn, Some(roll));
            }
        }
        Ok(())
    }

    /// Plays a whole turn (checked against the lists) and records it.
    fn play(&mut self, turn: &str, roll: Option<Roll>) {
        self.game.play_checked(turn, roll.as_ref()).expect("a turn checked against the lists");
        self.record.turns.push(RecordedTurn { turn: turn.to_string(), roll, comment: None });
        self.roll = None;
        if let Some(end) = self.game.end() {
            self.record.result = end.result.to_string();
        }
    }

    /// Records the turn the handle has just completed micro-move by micro-move.
    fn turn_done(&mut self) {
        let turn = self.game.turns().last().cloned().expect("a completed turn");
        // The rest of a turn set up in progress (a DFEN with dice) was not rolled here.
        let roll = if self.in_starting_turn() { None } else { self.roll };
        self.record.turns.push(RecordedTurn { turn, roll, comment: None });
        self.roll = None;
        if let Some(end) = self.game.end() {
            self.record.result = end.result.to_string();
        }
    }

    /// Is the turn being made the one the start position had in progress (a DFEN with dice)?
    fn in_starting_turn(&self) -> bool {
        self.record.turns.is_empty() && self.record.start_game().is_ok_and(|g| g.dice_left().is_some())
    }

    /// Takes back the micro-moves of the person's turn in progress (the dice stay), or else the
    /// person's last turn and the engine's replies after it.
    pub fn undo(&mut self) -> Result<(), Refusal> {
        if let Some(roll) = self.roll
            && self.game.partial_turn() != "0000"
        {
            let starting_turn = self.in_starting_turn();
            self.game = self.record.game();
            if !starting_turn {
                self.game.start_turn(&roll).map_err(Refusal::from)?;
            }
            self.last_engine = None;
            return Ok(());
        }
        if self.record.take_back(self.human).is_none() {
            return Err(Refusal::Conflict("nothing of yours to take back".into()));
        }
        self.game = self.record.game();
        self.roll = self.game.dice_left();
        self.last_engine = None;
        self.engine_chose_roll = false;
        Ok(())
    }

    /// The engine plays its turn through the engine's turn driver: a Freedom move or a roll,
    /// then, having rolled, its turn. With own dice it rolls only by the person's hand: having
    /// chosen to roll, it waits for its dice (nothing is played), and given them it plays on
    /// them. `report` sees each finished iteration.
    pub fn engine_turn(
        &mut self,
        shared: &Shared,
        report: &mut (dyn FnMut(&SearchReport) + Send),
    ) -> Result<(), Refusal> {
        if self.phase() == Phase::Over {
            return Err(Refusal::Conflict("the game is over".into()));
        }
        if self.side_to_move() == self.human {
            return Err(Refusal::Conflict("it is your turn, not the engine's".into()));
        }
        if self.engine_awaits_dice() {
            return Err(Refusal::Conflict("Alea rolls: enter its dice first".into()));
        }
        let root = match (self.game.dice_left(), self.roll) {
            (None, Some(roll)) => SearchRoot::Rolled(RollSpec::Faces(roll.faces().to_vec())),
            _ => SearchRoot::Decision,
        };
        let given_roll = match root {
            SearchRoot::Rolled(_) => self.roll,
            _ => None,
        };
        let request = TurnRequest {
            root,
            engine_rolls: !self.own_dice,
            search_forced_roll: false,
            limits: Limits { movetime: Some(self.movetime.max(1)), ..Default::default() },
            options: SearchOptions::default(),
            skill: Skill::new(
                self.skill,
                alea_engine::services::search::seeded_draw(self.seed, 1, self.record.turns.len() as u64, u64::MAX),
            ),
        };
        let mut pick = |total: u32| self.draw(total);
        let mut rolled = self.roll;
        let mut last: Option<(i32, u32)> = None;
        let turn = play_turn(&self.game, request, shared, &mut pick, &mut |event| match event {
            TurnEvent::Iteration(r) => report(r),
            TurnEvent::Searched(r) => last = Some((r.score, r.depth)),
            TurnEvent::Rolled(roll) => {
                rolled = Some(roll);
                // The score before the roll is not the turn's.
                last = None;
            }
            TurnEvent::Outcomes(_) => {}
        })
        .map_err(Refusal::from)?;
        if turn == "roll" {
            // Own dice: the engine rolls; the person enters what it rolled.
            self.engine_chose_roll = true;
            self.last_engine = None;
            return Ok(());
        }
        // A turn searched on dice given before is written as the game records it (Die Chess's
        // roll turns the die first), as the driver writes a turn it rolled for itself.
        let turn = match given_roll {
            Some(roll) => self.game.turn_with_roll(&turn, &roll),
            None => turn,
        };
        let in_turn = self.game.dice_left().is_some();
        let without_roll = rolled.is_none() && !in_turn;
        let san = self.game.san(&turn);
        self.play(&turn, if in_turn { None } else { rolled });
        self.last_engine = Some(json!({
            "without_roll": without_roll,
            "roll": rolled.map(|r| r.faces().to_vec()),
            "roll_meaning": rolled.map(|r| self.game.roll_meaning(&r)),
            "move": turn,
            "san": san,
            "score": last.map(|(s, _)| s),
            "depth": last.map_or(0, |(_, d)| d),
        }));
        Ok(())
    }

    /// The page's view of the game.
    pub fn state(&self, id: &str) -> Value {
        let mut game = self.record.start_game().expect("a recorded start");
        let mut moves = Vec::new();
        let mut fens = Vec::new();
        for (ply, t) in self.record.turns.iter().enumerate() {
            fens.push(game.fen());
            let side = game.side_to_move();
            let pre_roll = if t.roll.is_none() { game.pre_roll_kinds(&t.turn) } else { Vec::new() };
            moves.push(json!({
                "ply": ply,
                "side": side.name(),
                "by": if side == self.human { "you" } else { "engine" },
                "uci": t.turn,
                "san": game.san(&t.turn),
                "roll": t.roll.map(|r| r.faces().to_vec()),
                "roll_meaning": t.roll.map(|r| game.roll_meaning(&r)),
                "pre_roll": pre_roll,
                "pass": t.turn == "0000",
            }));
            game.play_checked(&t.turn, t.roll.as_ref()).expect("a recorded turn");
        }
        let phase = self.phase();
        let (pre_roll, allowed) = match phase {
            Phase::BeforeRoll => (self.choices_now(), Vec::new()),
            Phase::AfterRoll => (Vec::new(), self.choices_now()),
            Phase::Over => (Vec::new(), Vec::new()),
        };
        let partial = self.game.partial_turn();
        // The micro-moves made so far, in SAN from where the turn began.
        let partial_san = if partial == "0000" { String::new() } else { game.san(&partial) };
        let end = self.game.end();
        json!({
            "id": id,
            "variant": self.game.variant().name(),
            "chess960": self.game.chess960(),
            "human": self.human.name(),
            "turn": self.side_to_move().name(),
            "engine_to_move": self.engine_to_move(),
            "phase": match phase { Phase::BeforeRoll => "before_roll", Phase::AfterRoll => "after_roll", Phase::Over => "over" },
            // Between the roll and the move, the board as the roll left it (Die Chess's die
            // shows the face rolled).
            "fen": match (phase, self.roll) {
                (Phase::AfterRoll, Some(roll)) => self.game.fen_after_roll(&roll),
                _ => self.game.fen(),
            },
            "start_fen": self.game.start_fen(),
            "in_check": self.game.in_check(),
            "roll": self.roll.map(|r| r.faces().to_vec()),
            "roll_meaning": self.roll.map(|r| self.game.roll_meaning(&r)),
            "dice_left": self.dice_left().filter(|_| phase == Phase::AfterRoll).map(|r| r.faces().to_vec()),
            "dice_left_meaning": self.dice_left().filter(|_| phase == Phase::AfterRoll).map(|r| self.game.roll_meaning(&r)),
            "partial": if partial == "0000" { Vec::new() } else { partial.split(',').map(str::to_string).collect() },
            "partial_san": if partial_san.is_empty() { Vec::new() } else { partial_san.split(',').map(str::to_string).collect() },
            "micro": self.game.several_moves_a_turn(),
            "may_roll": phase == Phase::BeforeRoll && self.game.may_roll(),
            "own_dice": self.own_dice,
            "engine_awaits_dice": self.engine_awaits_dice(),
            "skill": self.skill,
            "dice": self.game.dice(),
            "pre_roll": pre_roll,
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
    /// Freedom moves against rolling; after it, the allowed turns ranked (the best few of a turn
    /// of several moves, from the micro-moves already made).
    /// The root of the decision on show (before the roll, a turn in progress, or after a roll),
    /// with how many choices the advice ranks.
    fn decision_root(&self) -> (SearchRoot, usize) {
        match (self.roll, self.game.dice_left()) {
            (None, _) => (SearchRoot::Decision, self.game.pre_roll_turns().len() + 1),
            (Some(_), Some(_)) => (SearchRoot::Decision, RANKED_TURNS),
            (Some(r), None) => {
                let spec = RollSpec::Faces(r.faces().to_vec());
                let n = self.game.count_turns(&spec).map_or(1, |n| n as usize);
                (SearchRoot::Rolled(spec), n)
            }
        }
    }

    /// A rollout of the decision on show: a short search's best `choices` each played out up to
    /// `settings.games` times (as many as `settings.time` allows), ranked by their games.
    pub fn rollout(&self, choices: usize, settings: RolloutSettings, shared: &Shared) -> Result<Value, Refusal> {
        if self.phase() == Phase::Over {
            return Err(Refusal::Conflict("the game is over".into()));
        }
        let (root, _) = self.decision_root();
        let limits = Limits { movetime: Some(ROLLOUT_SEARCH_MS), ..Limits::default() };
        let options = SearchOptions { multipv: choices.max(1), ..SearchOptions::default() };
        let r = self.game.search(&root, limits, options, shared, &mut |_| {}).map_err(Refusal::from)?;
        let candidates = rollout::best_choices(&r, choices);
        let rolled = roll_out(&self.game, &root, &candidates, &settings, &|_, _| {}).map_err(Refusal::from)?;
        Ok(serde_json::to_value(RolloutTable::of(&self.game, &rolled, &settings)).expect("a rollout serialises"))
    }

    pub fn advice(
        &self,
        limits: Limits,
        shared: &Shared,
        report: &mut (dyn FnMut(&SearchReport) + Send),
    ) -> Result<Value, Refusal> {
        if self.phase() == Phase::Over {
            return Ok(json!({"over": true}));
        }
        let (root, choices) = self.decision_root();
        let options = SearchOptions { multipv: choices.max(1), ..SearchOptions::default() };
        let r = self.game.search(&root, limits, options, shared, report).map_err(Refusal::from)?;
        let roll = self.roll.map(|r| RollSpec::Faces(r.faces().to_vec()));
        Ok(serde_json::to_value(Advice::of(&self.game, roll.as_ref(), &r)).expect("advice serialises"))
    }

    /// Each turn of the game judged within `limits`, `threads` turns at a time: the loss of the
    /// turn played and the luck of the roll. `progress` hears the turns judged so far, in order,
    /// and how many there are.
    pub fn analysis(
        &self,
        limits: &Limits,
        threads: usize,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Value, Refusal> {
        let mut turns = Vec::new();
        let total = self.record.turns.len();
        analyse_game(&self.record, limits, threads, &mut |game, a| {
            let best = match &a.best {
                Choice::Turn(m) => game.san(m),
                Choice::Roll => "roll".into(),
            };
            turns.push(json!({
                "ply": a.ply,
                "side": a.side.name(),
                "san": game.san(&a.played),
                "roll": a.roll.map(|r| r.faces().to_vec()),
                "best": best,
                "best_score": a.best_score,
                "loss": a.loss,
                "luck": a.luck,
                // Rolled where a move without rolling was offered: the better free move, if any.
                "roll_decision": a.roll_decision.as_ref().map(|d| json!({
                    "offered": d.offered.iter().map(|m| game.san(m)).collect::<Vec<_>>(),
                    "better": match &d.best { Choice::Turn(m) => Some(game.san(m)), Choice::Roll => None },
                    "best_score": d.best_score,
                    "roll_score": d.roll_score,
                    "loss": d.loss,
                })),
            }));
            progress(turns.len(), total);
        })
        .map_err(Refusal::from)?;
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
        Ok(json!({"depth": limits.depth, "turns": turns, "summary": summary}))
    }
}

fn truncate(text: &str) -> String {
    text.chars().take(40).collect()
}
