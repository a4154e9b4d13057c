//! The game as front ends see it: a variant (its registry row) and its game behind the one game
//! interface ([`PlayedGame`], which the handle derefs to: positions and turns as text, rolls,
//! the lists of what a roll allows). The handle adds what needs the variant's row (the search's
//! defaults, the evaluation data) and what is alike for every game (typed rolls, the diagram).

use crate::Board;
use crate::eval::params::EvalParams;
use crate::rules::GameError;
use crate::rules::dice::{Roll, RollError};
use crate::search::timeman::Limits;
use crate::search::{SearchOptions, SearchResult, Shared};
use crate::services::game::PlayedGame;
use crate::services::registry::Variant;

/// The dice of a `go roll` or `legalmoves roll`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RollSpec {
    /// The faces shown (each 1..=6), in any order.
    Faces(Vec<u8>),
    /// `any`: every legal move is allowed (unconditional Freedom, a GUI's free move).
    Any,
}

/// What a search's root is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchRoot {
    /// Before the roll (the pre-roll options against rolling), or the rest of a turn in progress.
    Decision,
    /// After this roll.
    Rolled(RollSpec),
    /// Only these turns (UCI text), as `go searchmoves` asks: after `roll` where the variant has
    /// several moves a turn (one-move variants need none: their turns are the same whatever the
    /// roll that allows them), or in a turn in progress.
    Only { roll: Option<RollSpec>, turns: Vec<String> },
}

/// A search's findings with turns written as text.
pub type SearchReport = SearchResult<String>;

/// A board as a front end draws it: what stands where, and the names of the lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// The ranks from the top down: each its name and, file by file, the piece standing there
    /// as FEN writes it (upper case for White), or `None`.
    pub ranks: Vec<(String, Vec<Option<char>>)>,
    /// The files' names, left to right.
    pub files: Vec<String>,
}

/// A game of any variant.
#[derive(Clone, Debug)]
pub struct GameHandle {
    variant: Variant,
    game: Played,
}

/// A game of any variant behind the one game interface ([`PlayedGame`]): every question the
/// game answers by itself is asked of it directly through the handle.
impl std::ops::Deref for GameHandle {
    type Target = dyn PlayedGame;

    fn deref(&self) -> &(dyn PlayedGame + 'static) {
        self.game.as_ref()
    }
}

impl std::ops::DerefMut for GameHandle {
    fn deref_mut(&mut self) -> &mut (dyn PlayedGame + 'static) {
        self.game.as_mut()
    }
}

/// The game a variant's registry row sets up.
pub(crate) type Played = Box<dyn PlayedGame>;

impl GameHandle {
    /// A new game of `variant` from its start position.
    pub fn of(variant: Variant, chess960: bool) -> Result<GameHandle, GameError> {
        GameHandle::setup(variant, chess960, None, None, &[])
    }

    /// A game of `variant` from `fen` (the start position when `None`; a DFEN where the variant
    /// has one), with Freedom's recapture square if given, after `turns`. Nothing is kept of a
    /// refused setup.
    pub fn setup(
        variant: Variant,
        chess960: bool,
        fen: Option<&str>,
        recapture: Option<&str>,
        turns: &[String],
    ) -> Result<GameHandle, GameError> {
        let mut handle = GameHandle { variant, game: variant.set_up(chess960, fen, recapture)? };
        for (i, turn) in turns.iter().enumerate() {
            handle.play(turn).map_err(|e| GameError::Turn(format!("turn {} refused: {e}", i + 1)))?;
        }
        Ok(handle)
    }

    /// The variant played.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The positions `alea bench` searches for this variant, and how deep.
    pub fn bench_suite(&self) -> crate::services::bench::BenchSuite {
        self.variant.row().bench
    }

    /// The side to move's turns to the game's end that a clock is shared over
    /// ([`crate::services::registry::Row::clock_turns`]).
    pub fn clock_turns(&self) -> Option<u32> {
        self.variant.row().clock_turns
    }

    /// Is the variant solved exactly, so played from its solution rather than an evaluation
    /// (Die Chess)?
    pub fn is_solved(&self) -> bool {
        self.variant.row().solution.is_some()
    }

    /// Does now the work the first search would otherwise begin with and could not stop (Die
    /// Chess from its solution: solving the game, some seconds, once a process), so that a
    /// front end can wait for it where waiting is expected (the protocol's `isready`).
    pub fn prepare(&self, exact_solution: bool) {
        if let Some(solver) = self.variant.row().solution
            && exact_solution
        {
            solver.prepare();
        }
    }

    /// Can the piece-square tables ([`EvalParams`]) evaluate this variant, so that `tune` fits
    /// them and `EvalFile` loads them? If not, why (the big boards have their own evaluation).
    pub fn uses_tables(&self) -> Result<(), GameError> {
        self.game.uses_tables().map_err(|why| GameError::NotInVariant(format!("{} is {why}", self.variant)))
    }

    /// The board as front ends draw it, whatever its size.
    pub fn diagram(&self) -> Diagram {
        let (files, ranks) = self.size();
        let ranks = (0..ranks)
            .rev()
            .map(|rank| {
                let pieces = (0..files).map(|file| self.piece_at(file, rank).map(|p| p.char())).collect();
                ((rank + 1).to_string(), pieces)
            })
            .collect();
        Diagram { ranks, files: (0..files).map(|f| char::from(b'a' + f).to_string()).collect() }
    }

    /// The board alone as chess FEN writes it (no dice left or en-passant targets of a turn of
    /// micro-moves): the position as the evaluation sees it, for fitting data.
    pub fn board_fen(&self) -> String {
        match self.chess_board() {
            Some(board) => board.fen(),
            None => self.fen(),
        }
    }

    /// The piece on the square named `square` (`e4`, `j10`), if any.
    pub fn piece_on(&self, square: &str) -> Option<crate::Piece> {
        let (file, rank) = self.square_coords(square)?;
        self.piece_at(file, rank)
    }

    /// The file and rank (from 0) of the square named `name` on this board.
    pub fn square_coords(&self, name: &str) -> Option<(u8, u8)> {
        let (files, ranks) = self.size();
        let mut chars = name.chars();
        let file = chars.next().filter(char::is_ascii_lowercase).map(|c| c as u8 - b'a')?;
        let digits = chars.as_str();
        if digits.starts_with('0') || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let rank = digits.parse::<u8>().ok()?.checked_sub(1)?;
        (file < files && rank < ranks).then_some((file, rank))
    }

    /// The FEN of Chess960 start number `index` (0 to 959; larger numbers wrap), in the
    /// standard numbering.
    pub fn chess960_start(index: u64) -> String {
        Board::chess960((index % 960) as u16).fen()
    }

    /// A roll as a person or a program types it: faces as words, run together or joined by
    /// commas (`1 4 6`, `146`, `1,4,6`), checked as [`GameHandle::check_roll`] checks them.
    pub fn roll_from_text(&self, text: &str) -> Result<Roll, GameError> {
        self.check_roll(typed_roll(text)?.faces())
    }

    /// The roll to come as a person enters it (dice thrown at a table), read as
    /// [`GameHandle::roll_from_text`] reads it, and refused where the variant never rolls it here
    /// (BrainKing throws again a face on which nothing can move) or rolls nothing now.
    pub fn entered_roll(&self, text: &str) -> Result<Roll, GameError> {
        let typed = typed_roll(text)?;
        if self.dice_left().is_none() && typed.dice() != self.dice() {
            // Said plainly: a person typing a throw has no turn in progress to give fewer for.
            let wrong = RollError::WrongCount { expected: self.dice(), got: typed.dice() };
            return Err(wrong.into());
        }
        let roll = self.check_roll(typed.faces())?;
        let outcomes = self.outcomes();
        if outcomes.is_empty() {
            return Err(GameError::NotNow(
                "no roll now: the game is over, a turn is in progress, or this turn has no roll".into(),
            ));
        }
        if !outcomes.iter().any(|o| o.roll == roll && o.weight > 0) {
            return Err(RollError::NeverHere(roll).into());
        }
        Ok(roll)
    }

    /// May the side to move roll now? Not once the game is over or in a turn in progress, nor
    /// where the rules forbid it (Vegas: in check, or after giving check): the turn is then one
    /// of [`GameHandle::pre_roll_turns`].
    pub fn may_roll(&self) -> bool {
        !self.outcomes().is_empty()
    }

    /// A roll drawn by the outcomes' weights from `pick`, a number below their total weight
    /// (the one way a roll is chosen: BrainKing never rolls a face with no move, three dice
    /// weigh each multiset by its orderings).
    pub fn roll_for(&self, pick: u32) -> Option<Roll> {
        let outcomes = self.outcomes();
        let total: u32 = outcomes.iter().map(|o| o.weight).sum();
        crate::rules::dice::pick_by_weight(&outcomes, u64::from(pick % total.max(1)))
    }

    /// Before the roll, each outcome with its probability and a quick reading of its worth to
    /// the mover, an expected result: the search's horizon (the captures the dice allow, a king
    /// taken a win), in the variants whose horizon reads a roll's outcomes apart (several moves a
    /// turn, by dice that name the roles); empty elsewhere, in a turn in progress and in a
    /// finished game.
    pub fn outcome_worths(&self) -> Vec<(Roll, f64, f64)> {
        self.game.outcome_worths(&self.variant.with_defaults(SearchOptions::default()))
    }

    /// The sum of the outcomes' weights (what [`GameHandle::roll_for`] draws below).
    pub fn total_weight(&self) -> u32 {
        self.outcomes().iter().map(|o| o.weight).sum()
    }

    /// Stockfish's `go perft`: each root move's count of legal chess move paths (dice ignored),
    /// handed to `counted` as it is finished; false when `stop` ended the count early.
    pub fn perft(
        &self,
        depth: u32,
        stop: &std::sync::atomic::AtomicBool,
        mut counted: impl FnMut(&str, u64),
    ) -> Result<bool, GameError> {
        if depth == 0 {
            return Err(GameError::OutOfRange("perft depth must be at least 1".into()));
        }
        self.game.perft(depth, stop, &mut counted)
    }

    /// Searches the position. `eval` replaces the variant's evaluation where it fits
    /// ([`GameHandle::eval_fits`]; else the variant's own plays); `report` sees each completed
    /// iteration.
    pub fn search(
        &self,
        root: &SearchRoot,
        limits: Limits,
        mut options: SearchOptions,
        shared: &Shared,
        report: &mut (dyn FnMut(&SearchReport) + Send),
    ) -> Result<SearchReport, GameError> {
        if let Some(end) = self.end() {
            return Err(GameError::NotNow(format!("the game is over ({end})")));
        }
        if options.eval.as_deref().is_some_and(|params| self.eval_fits(params).is_err()) {
            options.eval = None;
        }
        let options = self.variant.with_defaults(options);
        self.game.search(root, limits, options, shared, report)
    }

    /// The evaluation a fit starts from: the documents' piece values, flat square tables (on
    /// the big boards, with their own terms' starting weights).
    pub fn starting_eval(&self) -> EvalParams {
        self.variant.starting_eval()
    }

    /// Can this variant play with `params`? The 8x8 tables do not fit a big board, and the big
    /// boards' own terms (`pawn-step`, `centre`) mean nothing where the tables hold them.
    pub fn eval_fits(&self, params: &EvalParams) -> Result<(), GameError> {
        match self.uses_tables() {
            Ok(()) if params.pawn_step != 0 || params.centre != 0 => Err(GameError::NotInVariant(format!(
                "pawn-step and centre are the big boards' terms; {} is evaluated by its square tables",
                self.variant()
            ))),
            Err(why) if !params.flat_tables() => Err(why),
            _ => Ok(()),
        }
    }

    /// The evaluation the engine plays with unless told otherwise.
    pub fn default_eval(&self) -> EvalParams {
        self.variant.default_eval()
    }
}

/// Faces as typed (`1 4 6`, `146`, `1,4,6`), not yet checked against a variant.
fn typed_roll(text: &str) -> Result<Roll, GameError> {
    let words: Vec<&str> = text.split([',', ' ']).filter(|w| !w.is_empty()).collect();
    Ok(Roll::parse(&words)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::piece::Color;

    /// Every roll a variant can throw from its start is taken as typed (faces as words, the
    /// variant's own order kept), and in BrainKing a face on which nothing can move is refused,
    /// as its dice never show one; a roll in a turn in progress is refused.
    #[test]
    fn an_entered_roll_is_one_the_variant_can_throw() {
        for variant in Variant::ALL.map(Variant::name) {
            let game = GameHandle::of(variant.parse().unwrap(), false).unwrap();
            let outcomes = game.outcomes();
            assert!(!outcomes.is_empty(), "{variant}");
            for o in outcomes.iter().filter(|o| o.weight > 0) {
                let text = o.roll.faces().iter().map(u8::to_string).collect::<Vec<_>>().join(" ");
                assert_eq!(game.entered_roll(&text), Ok(o.roll), "{variant} {text}");
            }
        }
        let brainking = GameHandle::of(Variant::BrainKing, false).unwrap();
        let refused = brainking.entered_roll("6").unwrap_err();
        assert!(refused.to_string().contains("never rolls 6 here"), "{refused}");
        assert_eq!(
            brainking.entered_roll("1 2").unwrap_err().to_string(),
            "this variant rolls 1 die, but 2 faces were given"
        );
        let dicechess3 = GameHandle::of(Variant::DiceChess3, false).unwrap();
        assert_eq!(
            dicechess3.entered_roll("1,4").unwrap_err().to_string(),
            "this variant rolls 3 dice, but 2 faces were given"
        );
        let mut dicechess3 = dicechess3;
        dicechess3.start_turn(&Roll::new(&[1, 1, 2]).unwrap()).unwrap();
        assert!(dicechess3.entered_roll("1 1 2").unwrap_err().to_string().contains("no roll now"));
    }

    #[test]
    fn the_ten_by_ten_board_speaks_through_the_same_handle() {
        assert!(GameHandle::of(Variant::BrainKing10, true).is_err(), "no Chess960 on 10x10");
        assert!(
            GameHandle::setup(Variant::BrainKing10, false, None, Some("e4"), &[])
                .unwrap_err()
                .to_string()
                .contains("no recapture square")
        );
        let game = GameHandle::setup(Variant::BrainKing10, false, None, None, &["e2e4".into(), "e9e7".into()]).unwrap();
        assert_eq!((game.size(), game.dice(), game.side_to_move()), ((10, 10), 1, Color::White));
        assert_eq!(game.square_coords("j10"), Some((9, 9)));
        for off in ["k1", "a11", "a0", "a01", "e", "10"] {
            assert_eq!(game.square_coords(off), None, "{off}");
        }
        let diagram = game.diagram();
        assert_eq!((diagram.ranks.len(), diagram.files.len(), diagram.ranks[0].0.as_str()), (10, 10, "10"));
        assert_eq!(diagram.ranks[0].1[4], Some('k'));
        assert_eq!(game.piece_on("e7").map(|p| p.char()), Some('p'));
        // Three kings a side: a king's move names its origin, SAN reads back.
        let kings = GameHandle::setup(
            Variant::BrainKing10,
            false,
            Some("k9/10/10/10/10/10/10/10/10/K1K6r w - - 0 1"),
            None,
            &[],
        )
        .unwrap();
        assert_eq!(kings.san("a1b1"), "Kab1");
        assert_eq!(kings.parse_san("Kab1").as_deref(), Some("a1b1"));
        assert_eq!(kings.san("0000"), "--");
        // A king taken is worth more than any material; the moving piece is the rook.
        let capture = GameHandle::setup(
            Variant::BrainKing10,
            false,
            Some("k9/10/10/10/10/10/10/10/10/K1K4r2 b - - 0 1"),
            None,
            &[],
        )
        .unwrap();
        assert_eq!(capture.material_gain("h1c1"), crate::services::one_turn::KING_GAIN);
        assert_eq!(capture.moving_role("h1c1", None), Some(crate::Role::Rook));
        assert!(game.uses_tables().is_err(), "the 8x8 tables do not evaluate 10x10");
        // Thirty queens spread out have 471 moves, more than a turn list holds: refused (it
        // crashed the engine before), not played.
        let queens = "1QQQ4Qk/Q4QQ2Q/Q6Q1Q/Q8Q/Q3Q5/Q8Q/Q8Q/Q8Q/1Q7Q/K1QQQQQQQ1 w - - 0 1";
        let refused = GameHandle::setup(Variant::BrainKing10, false, Some(queens), None, &[]).unwrap_err();
        assert!(refused.to_string().contains("at most"), "{refused}");
        assert!(GameHandle::of(Variant::Freedom, false).unwrap().uses_tables().is_ok());
    }

    /// A table kept from search to search (the protocol's, `alea play`'s, a self-play loop's)
    /// searches in full every time: a search's own end does not read as a stop at the next one
    /// (it did: every search after the first stopped at once, on its first turn), while a stop
    /// asked from outside stays visible to the caller afterwards.
    #[test]
    fn a_reused_table_searches_in_full_and_a_stop_asked_stays_asked() {
        use crate::search::{SearchOptions, Shared};
        let limits = Limits { depth: Some(2), ..Limits::default() };
        for (variant, faces) in [("brainking10", vec![2]), ("dicechess3", vec![1, 4, 6]), ("freedom", vec![2])] {
            let game = GameHandle::of(variant.parse().unwrap(), false).unwrap();
            let shared = Shared::new(1);
            let root = SearchRoot::Rolled(RollSpec::Faces(faces));
            let search = |shared: &Shared| {
                game.search(
                    &root,
                    limits.clone(),
                    SearchOptions { use_tt: false, ..SearchOptions::default() },
                    shared,
                    &mut |_| {},
                )
                .unwrap()
            };
            let first = search(&shared);
            let again = search(&shared);
            assert_eq!((first.depth, again.depth), (2, 2), "{variant}");
            assert_eq!((first.nodes, first.best), (again.nodes, again.best), "{variant}");
            assert!(!shared.stop.load(std::sync::atomic::Ordering::Relaxed), "{variant}");
            shared.request_stop();
            let stopped = search(&shared);
            assert!(stopped.nodes < first.nodes, "{variant}");
            assert!(shared.stop.load(std::sync::atomic::Ordering::Relaxed), "{variant}: the caller sees its stop");
        }
    }

    #[test]
    fn the_big_boards_evaluate_their_own_terms_and_refuse_tables() {
        let freedom = GameHandle::of(Variant::Freedom, false).unwrap();
        let freedom_tables = freedom.default_eval();
        assert_eq!(freedom.eval_terms(), None, "the tables are read from the board");
        assert!(freedom.eval_fits(&freedom_tables).is_ok());
        for name in ["grand", "brainking10"] {
            let big = GameHandle::of(name.parse().unwrap(), false).unwrap();
            let start = big.starting_eval();
            assert!(start.pawn_step > 0 && start.flat_tables(), "{name}");
            assert!(big.eval_fits(&start).is_ok() && big.eval_fits(&big.default_eval()).is_ok(), "{name}");
            assert!(big.eval_fits(&freedom_tables).unwrap_err().to_string().contains("8x8"), "{name}");
            assert!(freedom.eval_fits(&start).unwrap_err().to_string().contains("pawn-step"), "{name}");
            // The start is level: every term cancels.
            assert_eq!(big.eval_terms(), Some(vec![0; 8]), "{name}");
        }
        // Black without its a7 pawn (4 steps from its second rank) and its a11 knight (one
        // step from the edge rank).
        let grand = GameHandle::setup(
            Variant::Grand,
            false,
            Some("r2rq2qr2r/1nbb1kk1bbnn/nnbb1kk1bbnn/r2rq2qr2r/pppppppppppp/1ppppppppppp/PPPPPPPPPPPP/PPPPPPPPPPPP/R2RQ2QR2R/NNBB1KK1BBNN/NNBB1KK1BBNN/R2RQ2QR2R w - - 0 1"),
            None,
            &[],
        )
        .unwrap();
        assert_eq!(grand.eval_terms(), Some(vec![1, 1, 0, 0, 0, 0, 4, 1]));
    }

    #[test]
    fn setups_are_checked_whole() {
        assert!(GameHandle::of(Variant::DiceChess3, true).is_err(), "no Chess960 in dicechess3");
        assert!(GameHandle::setup(Variant::DiceChess3, false, None, Some("e4"), &[]).is_err());
        assert!("chess".parse::<Variant>().unwrap_err().to_string().contains("dicechess3"), "the names are listed");
        // A refused turn refuses the whole setup and names the turn.
        let e = GameHandle::setup(Variant::DiceChess3, false, None, None, &["e2e4,d1h5".into(), "a7a5".into()])
            .unwrap_err();
        assert!(e.to_string().contains("turn 2"), "{e}");
        let e = GameHandle::setup(Variant::Freedom, false, None, None, &["e2e4,e7e5".into()]).unwrap_err();
        assert!(e.to_string().contains("one a turn"), "{e}");
        for name in Variant::ALL.map(Variant::name) {
            let game = GameHandle::of(name.parse().unwrap(), false).unwrap();
            assert_eq!(game.variant().name(), name);
            assert!(game.end().is_none());
        }
    }

    #[test]
    fn rolls_are_checked_against_the_variant_and_the_turn_in_progress() {
        let game = GameHandle::of(Variant::DiceChess3, false).unwrap();
        assert!(game.check_roll(&[1, 4, 6]).is_ok());
        assert!(game.check_roll(&[1, 4]).unwrap_err().to_string().contains("rolls 3 dice"));
        let in_turn = GameHandle::setup(
            Variant::DiceChess3,
            false,
            Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PN"),
            None,
            &[],
        )
        .unwrap();
        assert_eq!(in_turn.dice_left(), Some(Roll::new(&[1, 2]).unwrap()));
        assert!(in_turn.check_roll(&[2, 1]).is_ok());
        assert!(in_turn.check_roll(&[1, 2, 3]).unwrap_err().to_string().contains("dice 1 2 left"));
        assert!(in_turn.outcomes().is_empty(), "nothing to roll in a turn in progress");
        let freedom = GameHandle::of(Variant::Freedom, false).unwrap();
        assert!(freedom.check_roll(&[2, 5]).is_err());
    }

    #[test]
    fn rolls_are_drawn_by_weight() {
        for name in Variant::ALL.map(Variant::name) {
            let game = GameHandle::of(name.parse().unwrap(), false).unwrap();
            let outcomes = game.outcomes();
            let total = game.total_weight();
            // Each outcome is drawn by exactly as many numbers as it weighs.
            let mut drawn = vec![0u32; outcomes.len()];
            for pick in 0..total {
                let roll = game.roll_for(pick).unwrap();
                drawn[outcomes.iter().position(|o| o.roll == roll).unwrap()] += 1;
            }
            assert_eq!(drawn, outcomes.iter().map(|o| o.weight).collect::<Vec<_>>(), "{name}");
        }
    }

    #[test]
    fn turns_in_san_and_freedom_labels() {
        let game = GameHandle::setup(Variant::Freedom, false, None, None, &["e2e4".into(), "d7d5".into()]).unwrap();
        assert_eq!(game.san("e4d5"), "exd5");
        assert_eq!(game.pre_roll_kinds("e4d5"), Vec::<&str>::new());
        let game =
            GameHandle::setup(Variant::Freedom, false, None, None, &["e2e4".into(), "d7d5".into(), "e4d5".into()])
                .unwrap();
        assert_eq!(game.pre_roll_kinds("d8d5"), ["recapture"]);
        let game = GameHandle::of(Variant::DiceChess3, false).unwrap();
        assert_eq!(game.san("e2e4,d1h5,b1c3"), "e4,Qh5,Nc3");
        assert_eq!(game.san("0000"), "--");
        // No check marks where there is no check.
        let game =
            GameHandle::setup(Variant::DiceChess3, false, Some("4k3/8/8/8/8/8/8/K3R3 w - - 0 1"), None, &[]).unwrap();
        assert_eq!(game.san("e1e7"), "Re7");
        assert_eq!(game.san("e1e8"), "Rxe8");
    }

    #[test]
    fn a_turn_made_one_micro_move_at_a_time() {
        let mut game = GameHandle::of(Variant::DiceChess3, false).unwrap();
        let roll = Roll::new(&[1, 4, 5]).unwrap();
        let first = game.first_moves(&RollSpec::Faces(vec![1, 4, 5])).unwrap();
        assert!(!game.start_turn(&roll).unwrap());
        let left = RollSpec::Faces(game.dice_left().unwrap().faces().to_vec());
        assert_eq!(game.first_moves(&left).unwrap(), first);
        assert!(!game.play_step("e2e4").unwrap());
        assert_eq!(game.partial_turn(), "e2e4");
        assert_eq!(game.dice_left(), Some(Roll::new(&[4, 5]).unwrap()));
        // No pawn die is left: refused, nothing changed.
        let before = game.fen();
        assert!(game.play_step("a2a3").is_err());
        assert_eq!(game.fen(), before);
        assert!(game.play("d1h5").is_err(), "a whole turn while one is made step by step");
        assert!(game.play_step("d1h5").unwrap(), "the rooks are shut in: two dice are the most");
        assert_eq!(game.turns(), ["e2e4,d1h5"]);
        assert_eq!(game.side_to_move(), Color::Black);
        assert_eq!(game.partial_turn(), "0000");
        // A roll that allows nothing passes at once: Black's bishops are shut in.
        assert!(game.start_turn(&Roll::new(&[3, 3, 3]).unwrap()).unwrap());
        assert_eq!(game.turns(), ["e2e4,d1h5", "0000"]);
        assert_eq!(game.side_to_move(), Color::White);
        assert!(GameHandle::of(Variant::Freedom, false).unwrap().start_turn(&Roll::new(&[1]).unwrap()).is_err());
    }

    #[test]
    fn the_baselines_play_allowed_turns() {
        use crate::search::baseline::Baseline;
        let game = GameHandle::of(Variant::DiceChess3, false).unwrap();
        let roll = RollSpec::Faces(vec![1, 2, 3]);
        for baseline in [Baseline::Expectimax2, Baseline::Aggressive, Baseline::Peer { candidates: 24 }] {
            let turn = game.baseline_turn(&roll, baseline, None).unwrap();
            assert!(game.allowed_turns(&roll).unwrap().contains(&turn), "{baseline:?}: {turn}");
        }
        let freedom = GameHandle::of(Variant::Freedom, false).unwrap();
        assert!(freedom.baseline_turn(&RollSpec::Faces(vec![1]), Baseline::Expectimax2, None).is_err());
    }
}
