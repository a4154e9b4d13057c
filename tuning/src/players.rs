//! The players of a match: Alea searching in this process, the `random` and `greedy` baselines,
//! and any engine process: one that speaks docs/protocol.md, or a plain UCI engine that knows no
//! dice (restricted to the rolled moves with `go searchmoves`).

use crate::search_note::{NoteScore, SearchNote};
use alea_engine::Roll;
use alea_engine::eval::params::EvalParams;
use alea_engine::services::driver::{TurnEvent, TurnRequest, play_turn};
use alea_engine::services::handle::{GameHandle, RollSpec, SearchRoot};
use alea_engine::services::search::Limits;
use alea_engine::services::search::Skill;
use alea_engine::services::search::{Baseline, SearchOptions, Shared};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Why a player lost a game without the rules deciding it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// A move the rules do not allow here.
    Illegal(String),
    /// The process ended.
    Crashed,
    /// No answer in time.
    Timeout,
    /// An answer that is not a move.
    Garbage(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Illegal(m) => write!(f, "illegal move {m}"),
            Failure::Crashed => f.write_str("engine crashed"),
            Failure::Timeout => f.write_str("no answer in time"),
            Failure::Garbage(l) => write!(f, "unreadable answer {l:?}"),
        }
    }
}

/// How long a player may think a move.
#[derive(Clone, Debug, PartialEq)]
pub enum MoveLimit {
    Depth(u32),
    Nodes(u64),
    Movetime(u64),
}

impl MoveLimit {
    /// As the command line writes it: `depth=2`, `nodes=5000`, `movetime=100`.
    pub fn text(&self) -> String {
        match self {
            MoveLimit::Depth(d) => format!("depth={d}"),
            MoveLimit::Nodes(n) => format!("nodes={n}"),
            MoveLimit::Movetime(ms) => format!("movetime={ms}"),
        }
    }

    fn go_words(&self) -> String {
        match self {
            MoveLimit::Depth(d) => format!("depth {d}"),
            MoveLimit::Nodes(n) => format!("nodes {n}"),
            MoveLimit::Movetime(ms) => format!("movetime {ms}"),
        }
    }

    /// How long to wait for an answer before calling it a hang.
    fn patience(&self) -> Duration {
        match self {
            MoveLimit::Movetime(ms) => Duration::from_millis(ms * 3 + 2000),
            _ => Duration::from_secs(30),
        }
    }
}

/// The clocks of a game with a time control, in milliseconds, as the referee keeps them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    pub white: u64,
    pub black: u64,
    pub increment: u64,
    /// The side about to think.
    pub white_to_move: bool,
}

impl Clocks {
    fn ours(&self) -> u64 {
        if self.white_to_move { self.white } else { self.black }
    }
}

/// A player: asked before the roll (a Freedom move, or `None` to roll) and after it, the game
/// and the turns as the engine's game handle gives them (text).
pub trait Player {
    /// The clocks before a decision, in games with a time control (which then replaces the
    /// player's own per-move limit). Players that take no time may ignore it.
    fn clocks(&mut self, _clocks: Option<Clocks>) {}

    fn name(&self) -> String;
    /// A new game begins (its variant and start are `game`'s).
    fn new_game(&mut self, game: &GameHandle) -> Result<(), Failure>;
    fn before_roll(&mut self, game: &GameHandle, without_roll: &[String]) -> Result<Option<String>, Failure>;
    /// The turn after `roll`. The game lists the allowed turns on request
    /// ([`GameHandle::allowed_turns`], [`GameHandle::nth_turn`]): a Gollon roll allows millions.
    fn after_roll(&mut self, game: &GameHandle, roll: &Roll) -> Result<String, Failure>;

    /// What the last search of the turn just played said (its score and depth), for the game's
    /// record; `None` where the player does not search or did not this turn.
    fn last_search(&self) -> Option<SearchNote> {
        None
    }

    /// Before a match: can this player play `game`'s variant at all (an engine that cannot
    /// start, or does not answer the handshake, stops the match before its first game)?
    fn check_ready(&mut self, _game: &GameHandle) -> Result<(), String> {
        Ok(())
    }
}

/// Alea in this process, one thread, with one table for the game as an engine keeps one across
/// a GUI's moves (forgotten when a game begins, so a game's play depends on that game alone).
pub struct AleaPlayer {
    pub limit: MoveLimit,
    pub clocks: Option<Clocks>,
    /// Evaluation parameters; `None` plays with the variant's default.
    pub eval: Option<Arc<EvalParams>>,
    /// A learned evaluation scoring the positions instead (one-move variants).
    pub net: Option<Arc<alea_engine::eval::nnue::Network>>,
    /// Off: the variant's tables without the network it has adopted (where no `eval` or `net`).
    pub use_net: bool,
    /// Plays a solved variant (Die Chess) from its solution; off, by search.
    pub exact_solution: bool,
    /// `Skill Level` ([`alea_engine::search::skill`]); full strength by default.
    pub skill_level: u8,
    pub name: String,
    /// The score (centipawns, for the side to move) of its last search, for self-play data.
    pub last_score: Option<i32>,
    /// The last search of the turn under way, for the game's record.
    note: Option<SearchNote>,
    /// The transposition table, made at the first search.
    table: Option<Shared>,
}

impl AleaPlayer {
    pub fn new(limit: MoveLimit) -> AleaPlayer {
        AleaPlayer::with_eval(limit, None)
    }

    pub fn with_eval(limit: MoveLimit, eval: Option<Arc<EvalParams>>) -> AleaPlayer {
        AleaPlayer {
            limit,
            clocks: None,
            eval,
            net: None,
            use_net: true,
            exact_solution: true,
            skill_level: alea_engine::services::search::FULL_SKILL,
            name: "alea".into(),
            last_score: None,
            note: None,
            table: None,
        }
    }

    /// Gives the player a table to use (cleared at its next game's start, so it plays as a new
    /// one), or takes its table back: a caller that makes a player a game keeps one table.
    pub fn swap_table(&mut self, table: Option<Shared>) -> Option<Shared> {
        std::mem::replace(&mut self.table, table)
    }

    /// The engine's turn through the engine's turn driver (the referee rolls): `roll`, or a turn.
    fn think(&mut self, game: &GameHandle, root: SearchRoot) -> Option<String> {
        let limits = match (self.clocks, &self.limit) {
            // The clock as a GUI gives it: the turn driver splits it between the turn's searches,
            // as it does for the protocol.
            (Some(c), _) => Limits {
                time: Some(c.ours()),
                increment: c.increment,
                // Kept off the clock for the referee's own work between the searches.
                move_overhead: alea_engine::services::search::DEFAULT_MOVE_OVERHEAD_MS,
                ..Default::default()
            },
            (None, MoveLimit::Depth(d)) => Limits { depth: Some(*d), ..Default::default() },
            (None, MoveLimit::Nodes(n)) => Limits { nodes: Some(*n), ..Default::default() },
            (None, MoveLimit::Movetime(ms)) => Limits { movetime: Some(*ms), ..Default::default() },
        };
        let request = TurnRequest {
            root,
            engine_rolls: false,
            search_forced_roll: false,
            limits,
            options: SearchOptions {
                eval: self.eval.clone(),
                net: self.net.clone(),
                use_net: self.use_net,
                exact_solution: self.exact_solution,
                ..SearchOptions::default()
            },
            // Drawn from the position: the same choices in both games of a pair, and again on a
            // rerun.
            skill: Skill::new(self.skill_level, game.key()),
        };
        let (mut score, mut note) = (None, None);
        let shared = self.table.get_or_insert_with(|| Shared::new(alea_engine::services::search::DEFAULT_HASH_MIB));
        let answer = play_turn(game, request, shared, &mut |_| 0, &mut |event| {
            if let TurnEvent::Searched(result) = event {
                score = Some(result.score);
                let score = result.mate.map_or(NoteScore::Cp(result.score), NoteScore::Mate);
                note = Some(SearchNote { score, depth: result.depth });
            }
        });
        self.last_score = score;
        self.note = note.or(self.note);
        answer.ok()
    }
}

impl Player for AleaPlayer {
    fn clocks(&mut self, clocks: Option<Clocks>) {
        self.clocks = clocks;
    }

    fn name(&self) -> String {
        self.name.clone()
    }
    /// Refuses an evaluation that does not fit the variant's board (8x8 tables on a big board,
    /// or the reverse), which the search would leave unused.
    fn check_ready(&mut self, game: &GameHandle) -> Result<(), String> {
        match &self.eval {
            Some(params) => game.eval_fits(params).map_err(|e| format!("its eval= does not fit: {e}")),
            None => Ok(()),
        }
    }
    fn new_game(&mut self, _game: &GameHandle) -> Result<(), Failure> {
        if let Some(shared) = &mut self.table {
            shared.tt.clear();
        }
        Ok(())
    }
    fn before_roll(&mut self, game: &GameHandle, without_roll: &[String]) -> Result<Option<String>, Failure> {
        self.note = None;
        if without_roll.is_empty() {
            return Ok(None);
        }
        Ok(self.think(game, SearchRoot::Decision).filter(|t| t != "roll"))
    }
    fn after_roll(&mut self, game: &GameHandle, roll: &Roll) -> Result<String, Failure> {
        let spec = RollSpec::Faces(roll.faces().to_vec());
        let first = || game.nth_turn(&spec, 0).ok().flatten().unwrap_or_else(|| "0000".into());
        if game.count_turns(&spec).is_ok_and(|n| n == 1) {
            return Ok(first());
        }
        Ok(self.think(game, SearchRoot::Rolled(spec.clone())).unwrap_or_else(first))
    }
    fn last_search(&self) -> Option<SearchNote> {
        self.note
    }
}

/// Uniform over the allowed moves; always rolls. The choice is a function of the seed and the
/// position, so games replay alike whatever thread plays them.
pub struct RandomPlayer {
    pub state: u64,
}

impl RandomPlayer {
    fn pick(&self, game: &GameHandle, n: usize) -> usize {
        let key = game.key() ^ (game.turns().len() as u64).rotate_left(32);
        alea_engine::services::search::seeded_draw(self.state, key, 0, n as u64) as usize
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }
    fn new_game(&mut self, _game: &GameHandle) -> Result<(), Failure> {
        Ok(())
    }
    /// Rolls, except where the rules forbid it: then one of the turns without rolling.
    fn before_roll(&mut self, game: &GameHandle, without_roll: &[String]) -> Result<Option<String>, Failure> {
        if game.may_roll() || without_roll.is_empty() {
            return Ok(None);
        }
        Ok(Some(without_roll[self.pick(game, without_roll.len())].clone()))
    }
    fn after_roll(&mut self, game: &GameHandle, roll: &Roll) -> Result<String, Failure> {
        let spec = RollSpec::Faces(roll.faces().to_vec());
        let n = game.count_turns(&spec).map_err(|e| Failure::Garbage(e.to_string()))?;
        let k = self.pick(game, n as usize) as u64;
        game.nth_turn(&spec, k)
            .map_err(|e| Failure::Garbage(e.to_string()))?
            .ok_or_else(|| Failure::Garbage(format!("no turn {k} of {n}")))
    }
}

/// The move that wins the most material at once; a Freedom move when it wins material.
pub struct GreedyPlayer;

impl Player for GreedyPlayer {
    fn name(&self) -> String {
        "greedy".into()
    }
    fn new_game(&mut self, _game: &GameHandle) -> Result<(), Failure> {
        Ok(())
    }
    fn before_roll(&mut self, game: &GameHandle, without_roll: &[String]) -> Result<Option<String>, Failure> {
        let best = without_roll.iter().map(|t| game.material_gain(t)).max().unwrap_or(0);
        // A turn without rolling when it wins material, or when the rules forbid rolling.
        let take = best > 0 || !game.may_roll();
        Ok(without_roll.iter().find(|t| take && game.material_gain(t) == best).cloned())
    }
    fn after_roll(&mut self, game: &GameHandle, roll: &Roll) -> Result<String, Failure> {
        // The first of the best, so the choice is reproducible.
        game.greedy_turn(&RollSpec::Faces(roll.faces().to_vec()))
            .map(|(turn, _)| turn)
            .map_err(|e| Failure::Garbage(e.to_string()))
    }
}

/// A baseline of the variants of several moves a turn, as the best public dicechess engine plays
/// or is documented to play (`expectimax2`, `peer`, `aggressive`; see the engine's
/// `search::baseline`).
pub struct BaselinePlayer {
    pub baseline: Baseline,
    /// Its time a turn where it keeps time (the peer): `movetime` gives it; depth and nodes
    /// limits mean nothing to it (it always searches its two turns).
    pub limit: MoveLimit,
    pub clocks: Option<Clocks>,
}

impl BaselinePlayer {
    pub fn new(baseline: Baseline, limit: MoveLimit) -> BaselinePlayer {
        BaselinePlayer { baseline, limit, clocks: None }
    }

    /// When the peer's time for this turn is up: under a clock, as the peer manages its clock (a
    /// reserve of 5 % or 300 ms, whichever is more; the increment and the clock left over the
    /// moves to go, 30 where no one says, at most a fifth of the clock); else its `movetime`.
    fn deadline(&self) -> Option<Instant> {
        let now = Instant::now();
        match (self.clocks, &self.limit) {
            (Some(clocks), _) => {
                let ours = clocks.ours();
                let reserve = (ours / 20).max(300);
                let share = clocks.increment + ours.saturating_sub(reserve) / PEER_MOVES_TO_GO;
                Some(now + Duration::from_millis(share.min(ours / 5)))
            }
            (None, MoveLimit::Movetime(ms)) => Some(now + Duration::from_millis(*ms)),
            (None, _) => None,
        }
    }
}

/// The moves to go the peer plans its clock over (not documented: ours).
const PEER_MOVES_TO_GO: u64 = 30;

impl Player for BaselinePlayer {
    fn clocks(&mut self, clocks: Option<Clocks>) {
        self.clocks = clocks;
    }
    fn name(&self) -> String {
        match self.baseline {
            Baseline::Expectimax2 => "expectimax2".into(),
            Baseline::Aggressive => "aggressive".into(),
            Baseline::Peer { candidates } if candidates == alea_engine::services::search::PEER_CANDIDATES => {
                "peer".into()
            }
            Baseline::Peer { candidates } => format!("peer-{candidates}"),
        }
    }
    fn new_game(&mut self, _game: &GameHandle) -> Result<(), Failure> {
        Ok(())
    }
    fn before_roll(&mut self, game: &GameHandle, without_roll: &[String]) -> Result<Option<String>, Failure> {
        GreedyPlayer.before_roll(game, without_roll)
    }
    fn after_roll(&mut self, game: &GameHandle, roll: &Roll) -> Result<String, Failure> {
        game.baseline_turn(&RollSpec::Faces(roll.faces().to_vec()), self.baseline, self.deadline())
            .map_err(|e| Failure::Garbage(e.to_string()))
    }
}

/// How an engine process talks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Proto {
    /// docs/protocol.md: it knows the dice.
    Alea,
    /// Plain UCI: it knows no dice. After a roll it is restricted to the allowed moves with `go
    /// searchmoves`; before the roll it plays as [`PreRoll`] says.
    Uci(PreRoll),
}

/// What a dice-blind (plain UCI) engine does before the roll, where the rules allow moves
/// without rolling (Freedom's recaptures, checks and check defences).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PreRoll {
    /// Freedom-aware, the strongest use of a dice-blind engine: it searches the position with
    /// no restriction and plays its best move without rolling whenever the rules allow that
    /// move; otherwise it rolls.
    OwnBest,
    /// It always rolls where it may (a check it must answer and a side that may not roll still
    /// search the moves without a roll).
    AlwaysRoll,
}

/// An engine in its own process.
pub struct EngineProcess {
    pub name: String,
    pub command: String,
    pub args: Vec<String>,
    pub options: Vec<(String, String)>,
    pub proto: Proto,
    pub limit: MoveLimit,
    clocks: Option<Clocks>,
    child: Option<(Child, ChildStdin, Receiver<String>)>,
    /// Why the last start could not even spawn the process (the operating system's words).
    spawn_error: Option<String>,
    /// The last `info` line with a score and a depth this turn, for the game's record.
    note: Option<SearchNote>,
}

impl EngineProcess {
    pub fn new(name: String, command: String, proto: Proto, limit: MoveLimit, options: Vec<(String, String)>) -> Self {
        EngineProcess {
            name,
            command,
            args: Vec::new(),
            options,
            proto,
            limit,
            clocks: None,
            child: None,
            spawn_error: None,
            note: None,
        }
    }

    fn start(&mut self, game: &GameHandle) -> Result<(), Failure> {
        self.stop();
        let mut child = Command::new(&self.command)
            .args(&self.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| {
                self.spawn_error = Some(e.to_string());
                Failure::Crashed
            })?;
        self.spawn_error = None;
        let stdin = child.stdin.take().ok_or(Failure::Crashed)?;
        let stdout = child.stdout.take().ok_or(Failure::Crashed)?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        self.child = Some((child, stdin, rx));
        self.send("uci")?;
        self.wait_for("uciok", Duration::from_secs(10))?;
        let mut options = self.options.clone();
        if self.proto == Proto::Alea {
            options.push(("UCI_Variant".into(), game.variant().name().into()));
        }
        options.push(("UCI_Chess960".into(), game.chess960().to_string()));
        for (name, value) in options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.wait_for("readyok", Duration::from_secs(10))?;
        Ok(())
    }

    fn stop(&mut self) {
        if let Some((mut child, mut stdin, _)) = self.child.take() {
            let _ = writeln!(stdin, "quit");
            std::thread::sleep(Duration::from_millis(10));
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        let (_, stdin, _) = self.child.as_mut().ok_or(Failure::Crashed)?;
        writeln!(stdin, "{line}").and_then(|()| stdin.flush()).map_err(|_| Failure::Crashed)
    }

    /// Reads lines until one starts with `prefix`, keeping the last search note on the way.
    fn wait_for(&mut self, prefix: &str, patience: Duration) -> Result<String, Failure> {
        let (_, _, rx) = self.child.as_mut().ok_or(Failure::Crashed)?;
        let deadline = std::time::Instant::now() + patience;
        loop {
            match rx.recv_timeout(deadline.saturating_duration_since(std::time::Instant::now())) {
                Ok(line) if line.starts_with(prefix) => return Ok(line),
                Ok(line) => {
                    if let Some(note) = SearchNote::from_info(&line) {
                        self.note = Some(note);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err(Failure::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(Failure::Crashed),
            }
        }
    }

    /// Sends the game and a `go`, and reads the `bestmove` word.
    fn ask(&mut self, game: &GameHandle, go_extra: &str) -> Result<String, Failure> {
        let moves = game.turns();
        let position = format!("position fen {}", game.start_fen());
        let position = if moves.is_empty() {
            position
        } else if matches!(self.proto, Proto::Uci(_)) && moves.iter().any(|t| t == "0000") {
            // Plain UCI engines stop reading moves at a pass (`0000`): the position as it is now.
            format!("position fen {}", game.fen())
        } else {
            format!("{position} moves {}", moves.join(" "))
        };
        self.send(&position)?;
        // The limit first: UCI engines read every word after `searchmoves` as a move.
        let (limit, patience) = match self.clocks {
            Some(c) => (
                format!("wtime {} btime {} winc {} binc {}", c.white, c.black, c.increment, c.increment),
                Duration::from_millis(c.ours() + 2000),
            ),
            None => (self.limit.go_words(), self.limit.patience()),
        };
        self.send(&format!("go {limit} {go_extra}"))?;
        let line = self.wait_for("bestmove", patience)?;
        line.split_whitespace().nth(1).map(str::to_string).ok_or(Failure::Garbage(line))
    }

    fn pick(game: &GameHandle, word: &str, allowed: impl Fn(&str) -> bool) -> Result<String, Failure> {
        match game.canonical(word) {
            Some(t) if allowed(&t) => Ok(t),
            Some(_) | None if word.len() >= 4 && word.is_ascii() => Err(Failure::Illegal(word.into())),
            _ => Err(Failure::Garbage(word.into())),
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stop();
    }
}

impl Player for EngineProcess {
    fn check_ready(&mut self, game: &GameHandle) -> Result<(), String> {
        let answered = self.start(game);
        self.stop();
        answered.map_err(|e| match (e, &self.spawn_error) {
            (_, Some(why)) => format!("'{}' cannot be started: {why}", self.command),
            (Failure::Timeout, _) => format!("'{}' does not answer 'uci' with 'uciok' within 10 s", self.command),
            _ => format!("'{}' ended before answering 'uci' with 'uciok' (and 'isready' with 'readyok')", self.command),
        })
    }

    fn clocks(&mut self, clocks: Option<Clocks>) {
        self.clocks = clocks;
    }

    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, game: &GameHandle) -> Result<(), Failure> {
        // A fresh process each game: a crash or a hang in one costs only that game.
        self.start(game)
    }

    fn before_roll(&mut self, game: &GameHandle, without_roll: &[String]) -> Result<Option<String>, Failure> {
        self.note = None;
        if without_roll.is_empty() {
            return Ok(None);
        }
        match self.proto {
            Proto::Alea => {
                let word = self.ask(game, "")?;
                if word == "roll" {
                    Ok(None)
                } else {
                    Self::pick(game, &word, |t| without_roll.iter().any(|f| f == t)).map(Some)
                }
            }
            Proto::Uci(pre_roll) => {
                if !game.may_roll() {
                    // No roll to take: the engine searches the moves without one.
                    let moves: Vec<&str> = without_roll.iter().map(String::as_str).filter(|&t| t != "0000").collect();
                    if moves.is_empty() {
                        return Ok(Some("0000".into()));
                    }
                    let word = self.ask(game, &format!("searchmoves {}", moves.join(" ")))?;
                    return Self::pick(game, &word, |t| without_roll.iter().any(|f| f == t)).map(Some);
                }
                match pre_roll {
                    PreRoll::OwnBest => {
                        // Its own best move, unrestricted: played if the rules allow it now.
                        let word = self.ask(game, "")?;
                        let best = Self::pick(game, &word, |_| true)?;
                        Ok(without_roll.contains(&best).then_some(best))
                    }
                    PreRoll::AlwaysRoll => {
                        // In check every legal move is free: rolling could only restrict it.
                        let all = game.allowed_turns(&RollSpec::Any).unwrap_or_default();
                        if game.in_check() && without_roll.len() == all.len() {
                            let word = self.ask(game, &format!("searchmoves {}", without_roll.join(" ")))?;
                            Self::pick(game, &word, |t| without_roll.iter().any(|f| f == t)).map(Some)
                        } else {
                            Ok(None)
                        }
                    }
                }
            }
        }
    }

    fn after_roll(&mut self, game: &GameHandle, roll: &Roll) -> Result<String, Failure> {
        let spec = RollSpec::Faces(roll.faces().to_vec());
        if game.nth_turn(&spec, 0).ok().flatten().as_deref() == Some("0000") {
            return Ok("0000".into());
        }
        let word = match self.proto {
            Proto::Alea => self.ask(game, &format!("roll {roll}"))?,
            Proto::Uci(_) => {
                let allowed = game.allowed_turns(&spec).map_err(|e| Failure::Garbage(e.to_string()))?;
                self.ask(game, &format!("searchmoves {}", allowed.join(" ")))?
            }
        };
        Self::pick(game, &word, |t| game.allows(t, roll))
    }

    fn last_search(&self) -> Option<SearchNote> {
        self.note
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn middlegame() -> GameHandle {
        GameHandle::setup(
            alea_engine::services::registry::Variant::DiceChess3,
            false,
            Some("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 1"),
            None,
            &[],
        )
        .expect("a dicechess3 position")
    }

    /// The table outlives a turn (an engine keeps it between a GUI's moves) and a new game
    /// forgets it, so that the game plays as with a fresh player.
    #[test]
    fn the_table_is_kept_within_a_game_and_forgotten_at_the_next() {
        let game = middlegame();
        let roll = Roll::new(&[2, 3, 5]).expect("a roll");
        let mut used = AleaPlayer::new(MoveLimit::Depth(2));
        used.new_game(&game).expect("a new game");
        let first = used.after_roll(&game, &roll).expect("a turn");
        let first_score = used.last_score;
        let table = used.table.as_ref().expect("a table after a search");
        assert!(table.tt.hashfull() > 0, "the search left nothing in the table");

        used.new_game(&game).expect("a new game");
        assert_eq!(used.table.as_ref().expect("the table").tt.hashfull(), 0);
        let again = used.after_roll(&game, &roll).expect("a turn");
        let mut fresh = AleaPlayer::new(MoveLimit::Depth(2));
        fresh.new_game(&game).expect("a new game");
        assert_eq!(fresh.after_roll(&game, &roll).expect("a turn"), again);
        assert_eq!((again, used.last_score), (first, first_score));
        assert_eq!(fresh.last_score, first_score);
    }
}
