//! The protocol session: the game, the options, and the reply to each command.

use crate::command::{Command, GoParams, LegalMovesQuery, RollSpec, StartSpec};
use crate::go::{self, Dice, GoRequest, SearchJob};
use crate::options::{Changed, Options};
use crate::output::Output;
use alea_engine::services::handle::GameHandle;
use alea_engine::services::registry::NO_ROLL_WORD;
use alea_engine::services::search::Shared;
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
    pub(crate) game: GameHandle,
    pub(crate) debug: bool,
    pub(crate) out: Output,
    /// The transposition table and stop flag, kept between searches.
    shared: Arc<Shared>,
    dice: Dice,
    job: Option<SearchJob>,
    /// The last `position` command was refused: the engine holds no position (a GUI must not
    /// get an answer for the one before) until a position is set again.
    no_position: bool,
}

/// What `go`, `legalmoves` and `d` answer while the engine holds no position.
const NO_POSITION: &str = "no position (the last position command was refused)";

impl Session {
    pub fn new(out: Output) -> Session {
        let options = Options::default();
        Session {
            game: GameHandle::of(options.variant, options.chess960).expect("the default variant"),
            shared: Arc::new(Shared::new(options.hash_mib)),
            dice: go::new_dice(options.seed),
            options,
            debug: false,
            out,
            job: None,
            no_position: false,
        }
    }

    /// A `position` command was refused (here, or as a line that could not be read): the engine
    /// holds no position until the next one is set.
    pub fn position_refused(&mut self) {
        self.no_position = true;
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

    /// Ends the running work for `quit`: a search stops (as in Stockfish), a `go perft` count
    /// is finished (it is finite, and what the script asked for; `stop` ends it early).
    pub fn stop_search_for_quit(&mut self) {
        match self.job.take() {
            Some(job) if job.counts() => job.join(),
            Some(job) => {
                job.stop();
                job.join();
            }
            None => {}
        }
    }

    /// Handles one command.
    pub fn handle(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::IsReady => {
                // A GUI waits for `readyok` after setting options: the place for slow setup,
                // not the first `go`, whose clock is running (UCI's own advice).
                if !self.searching() {
                    self.game.prepare(self.options.die_chess_solution);
                }
                self.out.line("readyok");
                Flow::Continue
            }
            Command::Stop | Command::PonderHit => {
                self.stop_search();
                Flow::Continue
            }
            Command::Quit => {
                self.stop_search_for_quit();
                Flow::Quit
            }
            Command::Uci | Command::Debug(_) | Command::LegalMoves(_) | Command::Display | Command::Help => {
                self.handle_simple(cmd)
            }
            cmd => {
                // Anything else changes state or starts work: a running search ends first.
                self.stop_search();
                match cmd {
                    Command::Go(_) if self.no_position => {
                        self.out.error(NO_POSITION);
                        self.out.line("bestmove (none)");
                        Flow::Continue
                    }
                    Command::Go(GoParams { perft: Some(depth), .. }) => {
                        self.job =
                            Some(go::start_perft(self.game.clone(), depth, Arc::clone(&self.shared), self.out.clone()));
                        Flow::Continue
                    }
                    Command::Go(go) => {
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
        let root = match go::root(&self.game, &params) {
            Ok(root) => root,
            Err(e) => {
                self.out.error(e);
                self.out.line("bestmove (none)");
                return;
            }
        };
        self.job = Some(go::start(GoRequest {
            game: self.game.clone(),
            root,
            params,
            options: self.options.clone(),
            shared: Arc::clone(&self.shared),
            dice: Arc::clone(&self.dice),
            out: self.out.clone(),
        }));
    }

    /// The fixed search suite, as `alea bench` runs it, reported as info strings.
    fn bench(&self) {
        let options = alea_engine::services::search::SearchOptions::default();
        let out = self.out.clone();
        let suites = alea_engine::services::bench::suites(&[]).expect("every variant has its suite");
        let report = |l: &alea_engine::services::bench::BenchLine| {
            out.line(format!("info string bench {}: {} nodes, best {} score cp {}", l.name, l.nodes, l.best, l.score));
        };
        let (nodes, elapsed) = match alea_engine::services::bench::run(&suites, None, &options, report) {
            Ok(r) => r,
            Err(e) => return self.out.error(e),
        };
        let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
        self.out.line(format!("{nodes} nodes {nps} nps"));
    }

    pub fn game(&self) -> &GameHandle {
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
                    self.position_refused();
                    self.out.error(e);
                }
            }
            Command::LegalMoves(_) | Command::Display if self.no_position => self.out.error(NO_POSITION),
            Command::LegalMoves(query) => self.legal_moves(query),
            Command::Display => self.display(),
            Command::Help => self.out.lines(HELP),
            Command::Quit => return Flow::Quit,
            Command::Stop | Command::PonderHit => {}
            Command::Go(_) | Command::Bench => {
                unreachable!("search commands are handled by the engine loop")
            }
        }
        Flow::Continue
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let before = self.options.clone();
        let (file_before, variant_before) = (before.eval_file.clone(), before.variant);
        match self.options.set(name, value) {
            Ok(Changed::Rules) if self.options != before => {
                if let Err(e) = self.reset_game() {
                    self.out.error(e);
                    self.options = before;
                } else if let Ok(shared) = Shared::try_new(self.options.hash_mib) {
                    // The table's values were searched under the old rules (the same board has
                    // other values under other dice rules).
                    self.shared = Arc::new(shared);
                }
            }
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
        // A network plays only the variant it was trained for: say so when it will not be used,
        // rather than leave the GUI to guess.
        if let Some(net) = &self.options.net
            && (self.options.eval_file != file_before || self.options.variant != variant_before)
            && net.variant != self.options.variant.name()
        {
            self.out.line(format!(
                "info string the EvalFile network is for {}: {} plays with its tables",
                net.variant, self.options.variant
            ));
        }
        // Tables fit the 8x8 boards only, the big boards' weights the big boards only: the
        // search then plays the variant's own evaluation.
        if let Some(params) = &self.options.eval
            && (self.options.eval_file != file_before || self.options.variant != variant_before)
            && let Err(why) = self.game.eval_fits(params)
        {
            self.out.line(format!("info string the EvalFile evaluation is not used: {why}"));
        }
    }

    /// A new game: the start position, an empty table, the dice seeded afresh.
    fn new_game(&mut self) {
        // The options were accepted with this variant, so its start is there.
        let _ = self.reset_game();
        self.shared = Arc::new(Shared::try_new(self.options.hash_mib).unwrap_or_else(|_| Shared::new(1)));
        self.dice = go::new_dice(self.options.seed);
    }

    /// Back to the start position under the current rules.
    pub(crate) fn reset_game(&mut self) -> Result<(), alea_engine::GameError> {
        self.game = GameHandle::of(self.options.variant, self.options.chess960)?;
        self.no_position = false;
        Ok(())
    }

    /// Builds the whole new game first, so a refused command leaves the old one in place.
    pub fn set_position(&mut self, start: &StartSpec, recapture: Option<&str>, moves: &[String]) -> Result<(), String> {
        let fen = match start {
            StartSpec::StartPos => None,
            StartSpec::Fen(fen) => Some(fen.as_str()),
        };
        self.game = GameHandle::setup(self.options.variant, self.options.chess960, fen, recapture, moves)
            .map_err(|e| format!("position refused: {e}"))?;
        self.no_position = false;
        Ok(())
    }

    /// `legalmoves`: the Freedom moves before the roll, or what a roll allows (whole turns,
    /// their first micro-moves, or their number). In a turn in progress the dice are its own.
    fn legal_moves(&mut self, query: LegalMovesQuery) {
        let game = &self.game;
        let roll = match (&query.roll, game.dice_left()) {
            (Some(spec), _) => Some(spec.clone()),
            (None, Some(left)) => Some(RollSpec::Faces(left.faces().to_vec())),
            (None, None) => None,
        };
        let Some(roll) = roll else {
            if query.first || query.count {
                return self.out.error("legalmoves first and count need a roll");
            }
            let moves = game.pre_roll_turns();
            return self.out.line(if moves.is_empty() {
                NO_ROLL_WORD.to_string()
            } else {
                format!("{NO_ROLL_WORD} {}", moves.join(" "))
            });
        };
        let reply = if query.count {
            game.count_turns(&roll).map(|n| format!("legalmoves count {n}"))
        } else if query.first {
            game.first_moves(&roll).map(|m| format!("legalmoves {}", m.join(" ")))
        } else {
            game.allowed_turns(&roll).map(|t| format!("legalmoves {}", t.join(" ")))
        };
        match reply {
            Ok(line) => self.out.line(line),
            Err(e) => self.out.error(e),
        }
    }

    fn display(&self) {
        let game = &self.game;
        let diagram = game.diagram();
        let rule = format!(" +{}", "---+".repeat(diagram.files.len()));
        let mut lines = vec![String::new(), rule.clone()];
        for (name, pieces) in &diagram.ranks {
            let mut row = String::from(" |");
            for piece in pieces {
                row.push_str(&format!(" {} |", piece.unwrap_or(' ')));
            }
            row.push_str(&format!(" {name}"));
            lines.push(row);
            lines.push(rule.clone());
        }
        lines.push(format!("  {}", diagram.files.iter().map(|f| format!(" {f:<3}")).collect::<String>().trim_end()));
        lines.push(String::new());
        lines.push(format!("Fen: {}", game.fen()));
        lines.push(format!("Key: {:016X}", game.key()));
        lines.extend(game.state_lines());
        lines.push(format!("Variant: {}{}", game.variant(), if game.chess960() { " (Chess960)" } else { "" }));
        lines.push(format!("Side to move: {}", game.side_to_move().name()));
        match game.end() {
            Some(end) => lines.push(format!("Result: {end}")),
            None if game.dice_left().is_some() => {}
            None => {
                let free = game.pre_roll_turns();
                lines.push(if free.is_empty() {
                    "Pre-roll options: none (must roll)".into()
                } else if !game.may_roll() {
                    format!("Pre-roll options: no roll (a turn without rolling): {}", free.join(" "))
                } else {
                    format!("Pre-roll options: roll, or {}", free.join(" "))
                });
            }
        }
        self.out.lines(lines);
    }
}

/// `help`: what a person at the prompt can type (the protocol itself is docs/protocol.md).
const HELP: [&str; 12] = [
    "Alea speaks UCI extended for dice (docs/protocol.md). Commands:",
    "  uci | isready | ucinewgame | quit | stop | debug on|off",
    "  setoption name <name> [value <value>]   (uci lists the options: UCI_Variant, EngineRolls, ...)",
    "  position startpos|fen <FEN or DFEN> [moves <turns>]   (turns in UCI; micro-moves joined by commas)",
    "  go [roll <faces>|roll any] [depth N|movetime MS|nodes N|wtime/btime/winc/binc MS|infinite]",
    "     before a roll: the outcome table and 'bestmove roll' or a move without rolling; after it: the turn",
    "  go perft N     legal move paths (dice ignored)",
    "  legalmoves [count] [roll <faces>] [first]   what a roll allows",
    "  d              the position, the variant and the choices before the roll",
    "  bench          the speed benchmark",
    "  help           this text",
    "Faces are 1 (pawn) to 6 (king), as words or joined by commas: go roll 2 5, go roll 2,5.",
];
