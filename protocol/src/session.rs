//! The protocol session: the game, the options, and the reply to each command.

use crate::command::{Command, GoParams, RollSpec, StartSpec};
use crate::go::{self, Dice, GoRequest, SearchJob};
use crate::options::{Changed, Options};
use crate::output::Output;
use alea_engine::perft::perft_divide;
use alea_engine::rules::{Position, Roll, Rules, TurnList, Variant};
use alea_engine::search::Shared;
use alea_engine::{Board, Game, Move, Square};
use std::sync::Arc;

/// What the caller should do after a command.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Flow {
    Continue,
    Quit,
}

/// One engine session.
pub struct Session {
    pub(crate) options: Options,
    pub(crate) game: Game<Variant>,
    pub(crate) debug: bool,
    pub(crate) out: Output,
    /// The transposition table and stop flag, kept between searches.
    shared: Arc<Shared>,
    dice: Dice,
    job: Option<SearchJob>,
}

fn sorted_uci(rules: &Variant, turns: &[Move]) -> Vec<String> {
    let mut v: Vec<String> = turns.iter().map(|&m| rules.turn_to_uci(m)).collect();
    v.sort();
    v.dedup();
    v
}

impl Session {
    pub fn new(out: Output) -> Session {
        let options = Options::default();
        let rules = Variant::new(options.variant, options.chess960);
        Session {
            game: Game::new(rules, Position::new(Board::startpos())),
            shared: Arc::new(Shared::new(options.hash_mib)),
            dice: go::new_dice(options.seed),
            options,
            debug: false,
            out,
            job: None,
        }
    }

    /// Is a search running?
    pub fn searching(&mut self) -> bool {
        if self.job.as_ref().is_some_and(|j| j.is_finished()) {
            self.job.take().expect("a job").join();
        }
        self.job.is_some()
    }

    /// Stops a running search and waits for its `bestmove`.
    pub fn stop_search(&mut self) {
        if let Some(job) = self.job.take() {
            job.stop();
            job.join();
        }
    }

    /// Handles one command.
    pub fn handle(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::IsReady => {
                self.out.line("readyok");
                Flow::Continue
            }
            Command::Stop | Command::PonderHit => {
                self.stop_search();
                Flow::Continue
            }
            Command::Quit => {
                self.stop_search();
                Flow::Quit
            }
            Command::Uci | Command::Debug(_) | Command::LegalMoves(_) | Command::Display => self.handle_simple(cmd),
            cmd => {
                // Anything else changes state or starts work: a running search ends first.
                self.stop_search();
                match cmd {
                    Command::Go(go) if go.perft.is_none() => {
                        self.go(go);
                        Flow::Continue
                    }
                    Command::Bench => {
                        self.bench();
                        Flow::Continue
                    }
                    cmd => self.handle_simple(cmd),
                }
            }
        }
    }

    /// Starts a search, or answers at once where there is nothing to search.
    fn go(&mut self, params: GoParams) {
        if let Some(end) = self.game.end() {
            if params.roll.is_some() {
                self.out.error(format!("the game is over ({end}); no roll can be played"));
            }
            self.out.lines([format!("info string result {end}"), "bestmove (none)".to_string()]);
            return;
        }
        let plan = match go::plan(&self.game, &params, self.options.engine_rolls) {
            Ok(plan) => plan,
            Err(e) => {
                self.out.error(e);
                self.out.line("bestmove (none)");
                return;
            }
        };
        let limits = go::limits(&params, self.game.position().board.turn(), &self.options);
        self.job = Some(go::start(GoRequest {
            game: self.game.clone(),
            plan,
            limits,
            options: self.options.clone(),
            shared: Arc::clone(&self.shared),
            dice: Arc::clone(&self.dice),
            out: self.out.clone(),
        }));
    }

    /// The fixed search suite, as `alea bench` runs it, reported as info strings.
    fn bench(&self) {
        let options = alea_engine::search::SearchOptions::default();
        let out = self.out.clone();
        let (nodes, elapsed) = alea_engine::bench::run(alea_engine::bench::DEFAULT_DEPTH, &options, |l| {
            out.line(format!("info string bench {}: {} nodes, best {} score cp {}", l.name, l.nodes, l.best, l.score));
        });
        let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
        self.out.line(format!("{nodes} nodes {nps} nps"));
    }

    pub fn rules(&self) -> Variant {
        *self.game.rules()
    }

    pub fn game(&self) -> &Game<Variant> {
        &self.game
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Handles the commands that need no search.
    pub fn handle_simple(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::Uci => {
                let mut lines =
                    vec![format!("id name Alea {}", env!("CARGO_PKG_VERSION")), "id author the Alea developers".into()];
                lines.extend(self.options.uci_lines());
                lines.push("uciok".into());
                self.out.lines(lines);
            }
            Command::Debug(on) => self.debug = on,
            Command::IsReady => self.out.line("readyok"),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UciNewGame => self.new_game(),
            Command::Position { start, recapture, moves } => {
                if let Err(e) = self.set_position(&start, recapture.as_deref(), &moves) {
                    self.out.error(e);
                }
            }
            Command::LegalMoves(roll) => self.legal_moves(roll),
            Command::Display => self.display(),
            Command::Quit => return Flow::Quit,
            Command::Go(GoParams { perft: Some(depth), .. }) => self.perft(depth),
            Command::Stop | Command::PonderHit => {}
            Command::Go(_) | Command::Bench => {
                unreachable!("search commands are handled by the engine loop")
            }
        }
        Flow::Continue
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let before = self.options.clone();
        match self.options.set(name, value) {
            Ok(Changed::Rules) if self.options != before => self.reset_game(),
            Ok(Changed::Hash) => match Shared::try_new(self.options.hash_mib) {
                Ok(shared) => self.shared = Arc::new(shared),
                Err(e) => {
                    self.out.error(format!("{e}; the table stays at {} MiB", before.hash_mib));
                    self.options.hash_mib = before.hash_mib;
                }
            },
            Ok(_) if self.options.seed != before.seed => self.dice = go::new_dice(self.options.seed),
            Ok(_) => {}
            Err(e) => self.out.error(e),
        }
    }

    /// A new game: the start position, an empty table, the dice seeded afresh.
    fn new_game(&mut self) {
        self.reset_game();
        self.shared = Arc::new(Shared::try_new(self.options.hash_mib).unwrap_or_else(|_| Shared::new(1)));
        self.dice = go::new_dice(self.options.seed);
    }

    /// Back to the start position under the current rules.
    pub(crate) fn reset_game(&mut self) {
        let rules = Variant::new(self.options.variant, self.options.chess960);
        self.game = Game::new(rules, Position::new(Board::startpos()));
    }

    /// Builds the whole new game first, so a refused command leaves the old one in place.
    pub fn set_position(&mut self, start: &StartSpec, recapture: Option<&str>, moves: &[String]) -> Result<(), String> {
        let rules = Variant::new(self.options.variant, self.options.chess960);
        let board = match start {
            StartSpec::StartPos => Board::startpos(),
            StartSpec::Fen(fen) => Board::from_fen(fen).map_err(|e| e.to_string())?,
        };
        let mut pos = Position::new(board);
        if let Some(sq) = recapture {
            pos.recapture = Some(Square::parse(sq).ok_or_else(|| format!("recapture square '{sq}' is not a square"))?);
        }
        rules.validate(&pos).map_err(|e| format!("position refused: {e}"))?;
        let mut game = Game::new(rules, pos);
        for (i, turn) in moves.iter().enumerate() {
            // A turn of several moves is comma-joined; these variants play one move a turn.
            if turn.contains(',') {
                return Err(format!(
                    "turn {} '{turn}' has several moves, but {} plays one a turn",
                    i + 1,
                    rules.name()
                ));
            }
            game.play_uci(turn, |p| p.board.fen()).map_err(|e| format!("position refused: {e}"))?;
        }
        self.game = game;
        Ok(())
    }

    fn legal_moves(&mut self, roll: Option<RollSpec>) {
        let rules = self.rules();
        let pos = self.game.position();
        let mut list = TurnList::new();
        match roll {
            None => {
                if self.game.end().is_none() {
                    rules.pre_roll_turns(pos, &mut list);
                }
                let moves = sorted_uci(&rules, &list);
                self.out.line(if moves.is_empty() {
                    "freedom".to_string()
                } else {
                    format!("freedom {}", moves.join(" "))
                });
            }
            Some(spec) => {
                if let Some(end) = self.game.end() {
                    self.out.error(format!("the game is over ({end}); no roll can be played"));
                    return;
                }
                match spec {
                    RollSpec::Any => rules.any_turns(pos, &mut list),
                    RollSpec::Faces(faces) => match self.check_roll(&faces) {
                        Ok(roll) => rules.allowed_turns(pos, &roll, &mut list),
                        Err(e) => return self.out.error(e),
                    },
                }
                self.out.line(format!("legalmoves {}", sorted_uci(&rules, &list).join(" ")));
            }
        }
    }

    /// The roll as the variant rolls it, or why not.
    pub(crate) fn check_roll(&self, faces: &[u8]) -> Result<Roll, String> {
        let roll = Roll::new(faces).map_err(|e| e.to_string())?;
        self.rules().check_roll(&roll).map_err(|e| e.to_string())?;
        Ok(roll)
    }

    /// Stockfish's `go perft`: each root move's count, then the total.
    fn perft(&self, depth: u32) {
        if depth == 0 {
            return self.out.error("perft depth must be at least 1");
        }
        let board = &self.game.position().board;
        let rules = self.rules();
        let divided = perft_divide(board, depth);
        let total: u64 = divided.iter().map(|&(_, n)| n).sum();
        let mut lines: Vec<String> =
            divided.into_iter().map(|(m, n)| format!("{}: {n}", rules.turn_to_uci(m))).collect();
        lines.push(String::new());
        lines.push(format!("Nodes searched: {total}"));
        lines.push(String::new());
        self.out.lines(lines);
    }

    fn display(&self) {
        let pos = self.game.position();
        let board = &pos.board;
        let rules = self.rules();
        let mut lines = vec![String::new(), " +---+---+---+---+---+---+---+---+".to_string()];
        for rank in (0..8).rev() {
            let mut row = String::from(" |");
            for file in 0..8 {
                let c = board.piece_at(Square::from_coords(file, rank)).map_or(' ', |p| p.char());
                row.push_str(&format!(" {c} |"));
            }
            row.push_str(&format!(" {}", rank + 1));
            lines.push(row);
            lines.push(" +---+---+---+---+---+---+---+---+".to_string());
        }
        lines.push("   a   b   c   d   e   f   g   h".to_string());
        lines.push(String::new());
        lines.push(format!("Fen: {}", board.fen()));
        lines.push(format!("Key: {:016X}", pos.hash()));
        let checkers: Vec<String> = board.checkers_of(board.turn()).into_iter().map(|s| s.to_string()).collect();
        lines.push(format!("Checkers: {}", checkers.join(" ")));
        lines.push(format!("Variant: {}{}", rules.name(), if rules.chess960() { " (Chess960)" } else { "" }));
        lines.push(format!("Side to move: {}", board.turn().name()));
        if let Some(sq) = pos.recapture {
            lines.push(format!("Recapture square: {sq}"));
        }
        if pos.passed_in_check {
            lines.push("Opponent passed in check: its king may be captured".into());
        }
        match self.game.end() {
            Some(end) => lines.push(format!("Result: {end}")),
            None => {
                let mut list = TurnList::new();
                rules.pre_roll_turns(pos, &mut list);
                let free = sorted_uci(&rules, &list);
                lines.push(if free.is_empty() {
                    "Pre-roll options: none (must roll)".into()
                } else {
                    format!("Pre-roll options: roll, or {}", free.join(" "))
                });
            }
        }
        self.out.lines(lines);
    }
}
