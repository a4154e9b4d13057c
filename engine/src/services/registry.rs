//! The variants Alea plays, each one row of one table: its name, a phrase for help texts, how a
//! game of it is set up and searched, its evaluation data (the tables and network it adopted,
//! embedded from `engine/data/`), and the engine's settings for it (the positions `alea bench`
//! searches, the turns a clock is shared over, ChanceProbCut's margin). Front ends list, parse
//! and print variants through [`Variant`]; nothing else matches on a variant's name.

use crate::eval::data::DataError;
use crate::eval::nnue::Network;
use crate::eval::params::EvalParams;
use crate::eval::{Evaluated, Evaluator};
use crate::rules::GameError;
use crate::rules::game::MicroGame;
use crate::rules::micro::MicroRules;
use crate::rules::one_turn::OneTurnRules;
use crate::rules::{
    BrainKing10, Burmese, ChessKind, ChessRules, DiceChess3, Gollon, Gollon2, Grand, MicroVariant, Rules, diechess,
    grand,
};
use crate::search::SearchOptions;
use crate::services::bench::{BenchCase, BenchSuite, GIUOCO, KIWIPETE, QGD, START, case};
use crate::services::handle::Played;
use crate::services::one_turn::{OneTurn, SearchFn, search_evaluated};
use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, OnceLock};

/// The word the formats use for a turn played without rolling: the protocol's `legalmoves`
/// reply, the PGN comment command (`{[%freedom check]}`) and the self-play record's counts. It is
/// named after the rules that began such turns, but it is a word of those formats, fixed by the
/// agreed protocol and by games already stored: it does not follow the variant's name.
pub const NO_ROLL_WORD: &str = "freedom";

/// Reads the exact solution in the file at `path` (as `alea solve <variant> --out FILE` writes
/// it), whichever solved variant's it is: the file's first bytes say.
pub fn read_solution(path: &std::path::Path) -> Result<Box<dyn crate::services::solution::Table>, DataError> {
    let bytes = std::fs::read(path).map_err(|e| DataError::io(path, &e))?;
    let solver = Variant::ALL
        .iter()
        .filter_map(|v| v.row().solution)
        .find(|solver| solver.claims(&bytes))
        .ok_or_else(|| DataError::Damaged("not a solution table (its first bytes name no solved variant)".into()))
        .map_err(|e| e.in_file(path))?;
    solver.read_from(&bytes).map_err(|e| e.in_file(path))
}

/// A variant Alea plays, as `UCI_Variant` names it.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Variant {
    Freedom,
    Classic,
    BrainKing,
    Vegas,
    DiceChess3,
    Burmese,
    Gollon,
    Gollon2,
    DieChess,
    BrainKing10,
    Grand,
}

impl Variant {
    /// Every variant, the default first, in the order help texts list them.
    pub const ALL: [Variant; 11] = [
        Variant::Freedom,
        Variant::Classic,
        Variant::BrainKing,
        Variant::Vegas,
        Variant::DiceChess3,
        Variant::Burmese,
        Variant::Gollon,
        Variant::Gollon2,
        Variant::DieChess,
        Variant::BrainKing10,
        Variant::Grand,
    ];

    /// What a game is when nobody names a variant.
    pub const DEFAULT: Variant = Variant::ALL[0];

    /// The rules dicechess.com plays, and so its bot platform (`alea bot`).
    pub const DICECHESS_COM: Variant = Variant::DiceChess3;

    /// The variant's row of the registry.
    pub fn row(self) -> &'static Row {
        &ROWS[self as usize]
    }

    /// The name `UCI_Variant`, `--variant` and the PGN `Variant` tag use.
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// Every variant's name, comma-separated, the default first (for help texts and errors).
    pub fn names() -> String {
        Variant::ALL.map(Variant::name).join(", ")
    }

    /// Where a fit of the evaluation starts: the rules' piece values, and the row's
    /// [`Row::start_terms`].
    pub fn starting_eval(self) -> EvalParams {
        static VALUES: [OnceLock<EvalParams>; Variant::ALL.len()] = [const { OnceLock::new() }; Variant::ALL.len()];
        VALUES[self as usize]
            .get_or_init(|| {
                let start = self.set_up(false, None, None).expect("every variant's start sets up (a test checks)");
                let (pawn_step, centre) = self.row().start_terms;
                EvalParams { pawn_step, centre, ..EvalParams::from_values(start.piece_values()) }
            })
            .clone()
    }

    /// What the engine plays with unless told otherwise: the tables the variant adopted
    /// ([`Row::tables`]), else [`Variant::starting_eval`].
    pub fn default_eval(self) -> EvalParams {
        (*self.default_eval_shared()).clone()
    }

    /// [`Variant::default_eval`], parsed once.
    fn default_eval_shared(self) -> Arc<EvalParams> {
        static TABLES: [OnceLock<Arc<EvalParams>>; Variant::ALL.len()] =
            [const { OnceLock::new() }; Variant::ALL.len()];
        TABLES[self as usize]
            .get_or_init(|| {
                Arc::new(match self.row().tables {
                    Some(text) => EvalParams::parse(text).expect("the adopted tables parse (a test checks)"),
                    None => self.starting_eval(),
                })
            })
            .clone()
    }

    /// The network the variant adopted ([`Row::network`]), parsed once; `None` where it has
    /// none (its tables alone).
    pub fn network(self) -> Option<Arc<Network>> {
        static NETWORKS: [OnceLock<Option<Arc<Network>>>; Variant::ALL.len()] =
            [const { OnceLock::new() }; Variant::ALL.len()];
        NETWORKS[self as usize]
            .get_or_init(|| {
                self.row().network.map(|bytes| {
                    Arc::new(Network::from_bytes(bytes).expect("an adopted network parses (a test checks)"))
                })
            })
            .clone()
    }

    /// `options` with what they leave to the variant filled in from its row: its evaluation
    /// where none is given (and its network beside it, where `use_net` and no network is
    /// given), and its ChanceProbCut margin.
    pub fn with_defaults(self, mut options: SearchOptions) -> SearchOptions {
        if options.eval.is_none() {
            if options.net.is_none() && options.use_net {
                options.net = self.network();
            }
            options.eval = Some(self.default_eval_shared());
        }
        options.probcut_margin = self.row().probcut_margin;
        options
    }

    /// The variant an 8x8 kind of rules plays.
    pub fn of_kind(kind: ChessKind) -> Variant {
        ChessRules::new(kind, false).name().parse().expect("every kind of 8x8 rules is a variant (a test checks)")
    }

    /// A new game of this variant from `fen` (its start when `None`; a DFEN where the variant has
    /// one), Chess960 castling where asked, with Freedom's recapture square if given.
    pub(crate) fn set_up(
        self,
        chess960: bool,
        fen: Option<&str>,
        recapture: Option<&str>,
    ) -> Result<Played, GameError> {
        let row = self.row();
        if chess960 && !row.chess960 {
            return Err(GameError::NotInVariant(format!("{} is played from the standard start only", row.name)));
        }
        (row.set_up)(chess960, fen, recapture)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that names none of [`Variant::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant '{given}' (one of {})", Variant::names())]
pub struct UnknownVariant {
    pub given: String,
}

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// A variant by its name, in any case.
    fn from_str(text: &str) -> Result<Variant, UnknownVariant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| UnknownVariant { given: text.to_string() })
    }
}

/// What Alea knows of one variant beyond its rules.
pub struct Row {
    pub variant: Variant,
    /// The name the variant's rules give it ([`Variant::name`]).
    pub name: &'static str,
    /// What a menu shows: the name people know it by, and its dice.
    pub title: &'static str,
    /// One phrase for help texts and lists.
    pub summary: &'static str,
    /// May a game start from a Chess960 position?
    pub chess960: bool,
    /// The positions `alea bench` searches and how deep; none where the variant is played from
    /// its exact solution.
    pub bench: BenchSuite,
    /// The side to move's turns to the game's end that a clock is shared over, unless the GUI
    /// names fewer to its next time control (`movestogo`). `None`: the plan of a chess game (40
    /// turns, or the GUI's `movestogo`). Variants whose games end much sooner (a captured king)
    /// give theirs: the mean own turns left over the positions of their self-play games.
    pub clock_turns: Option<u32>,
    /// ChanceProbCut's margin ([`crate::search::SearchOptions::probcut_margin`]): how far (in
    /// equity) outside the window a roll's outcomes, searched a turn less deep, must put its
    /// mean for the roll to be cut unsearched. `None`: every roll is searched in full. A variant
    /// gives one where it measured stronger with it (docs/search.md).
    pub probcut_margin: Option<i32>,
    /// The evaluation tables the engine plays with (`engine/data/NAME.eval`, adopted once they
    /// won their match against the starting values: docs/journal); `None`, the starting ones.
    pub tables: Option<&'static str>,
    /// The network scoring beside the tables (`engine/data/NAME.nnue`, adopted once it won its
    /// SPRT against the tables alone at equal time); `None` for none.
    pub network: Option<&'static [u8]>,
    /// Where a fit starts besides the rules' piece values: centipawns for each pawn step and
    /// each step of a piece towards the centre (the big boards' own terms).
    pub start_terms: (i32, i32),
    /// The game's exact solver, where it is small enough to solve: then played from its
    /// solution, not by search unless asked.
    pub solution: Option<&'static dyn crate::services::solution::Solver>,
    set_up: SetUp,
}

/// Sets up a game of a row's variant: (Chess960, FEN or DFEN, recapture square).
type SetUp = fn(bool, Option<&str>, Option<&str>) -> Result<Played, GameError>;

/// A game of one move a turn, searched with the evaluation its positions bring.
fn one_turn<R: OneTurnRules>(rules: R, fen: Option<&str>, recapture: Option<&str>) -> Result<Played, GameError>
where
    R::Position: Evaluated + fmt::Debug + Send + Sync,
    <R::Position as Evaluated>::Eval: Evaluator<R>,
    R::Turn: Send + Sync,
{
    one_turn_searched(rules, fen, recapture, search_evaluated::<R>)
}

/// A game of one move a turn, searched by `search`.
fn one_turn_searched<R: OneTurnRules>(
    rules: R,
    fen: Option<&str>,
    recapture: Option<&str>,
    search: SearchFn<R>,
) -> Result<Played, GameError>
where
    R::Position: Evaluated + fmt::Debug + Send + Sync,
    R::Turn: Send + Sync,
{
    Ok(Box::new(OneTurn::set_up(rules, fen, recapture, search)?))
}

/// A game of several micro-moves a turn.
fn micro<R>(rules: R, fen: Option<&str>, recapture: Option<&str>) -> Result<Played, GameError>
where
    R: MicroRules + Clone + fmt::Debug + Send + Sync + 'static,
    R::Board: Evaluated,
    <R::Board as Evaluated>::Eval: crate::eval::MicroEval<R::Board>,
{
    if recapture.is_some() {
        return Err(GameError::Position("this variant has no recapture square".into()));
    }
    let start = match fen {
        Some(text) => rules.parse_dfen(text)?,
        None => rules.startpos(),
    };
    Ok(Box::new(MicroGame::new(rules, start)))
}

static ROWS: [Row; 11] = [
    Row {
        variant: Variant::Freedom,
        name: "freedom",
        title: "Freedom",
        summary: "one die; a recapture, a check or an answer to check needs no roll",
        chess960: true,
        bench: BenchSuite { depth: 3, cases: &FREEDOM_BENCH },
        clock_turns: None,
        // On freedom's bench the mean of a roll two turns deep and the same roll searched one
        // turn deep differ by 112 (one standard deviation), three turns against two by 64.
        probcut_margin: Some(160),
        tables: Some(include_str!("../../data/freedom.eval")),
        network: Some(include_bytes!("../../data/freedom.nnue")),
        start_terms: (0, 0),
        solution: None,
        set_up: |c, f, r| one_turn(ChessRules::new(ChessKind::Freedom, c), f, r),
    },
    Row {
        variant: Variant::Classic,
        name: "classic",
        title: "Classic (two dice)",
        summary: "two dice, a piece of either die's type; doubles move any piece",
        chess960: true,
        bench: BenchSuite { depth: 3, cases: &CLASSIC_BENCH },
        clock_turns: None,
        probcut_margin: None,
        tables: Some(include_str!("../../data/classic.eval")),
        network: Some(include_bytes!("../../data/classic.nnue")),
        start_terms: (0, 0),
        solution: None,
        set_up: |c, f, r| one_turn(ChessRules::new(ChessKind::Classic, c), f, r),
    },
    Row {
        variant: Variant::BrainKing,
        name: "brainking",
        title: "BrainKing (one die)",
        summary: "one die, no check: the king is captured; only faces with a move are rolled",
        chess960: true,
        bench: BenchSuite { depth: 3, cases: &BRAINKING_BENCH },
        clock_turns: None,
        probcut_margin: None,
        tables: Some(include_str!("../../data/brainking.eval")),
        network: Some(include_bytes!("../../data/brainking.nnue")),
        start_terms: (0, 0),
        solution: None,
        set_up: |c, f, r| one_turn(ChessRules::new(ChessKind::BrainKing, c), f, r),
    },
    Row {
        variant: Variant::Vegas,
        name: "vegas",
        title: "Vegas (two unlike dice)",
        summary: "two unlike dice (Vegas Fun Chess), one move of either die's piece",
        chess960: true,
        bench: BenchSuite { depth: 3, cases: &VEGAS_BENCH },
        clock_turns: None,
        probcut_margin: None,
        tables: Some(include_str!("../../data/vegas.eval")),
        network: None,
        start_terms: (0, 0),
        solution: None,
        set_up: |c, f, r| one_turn(ChessRules::new(ChessKind::Vegas, c), f, r),
    },
    Row {
        variant: Variant::DiceChess3,
        name: "dicechess3",
        title: "dicechess.com (three dice, a move each)",
        summary: "three dice, a micro-move for each, as many as can be used (dicechess.com)",
        chess960: false,
        bench: BenchSuite { depth: 1, cases: &DICECHESS3_BENCH },
        // The king falls early: the mean own turns left over self-play positions is 8.4 (19,500
        // games of `alea tune datagen --nodes 30000`).
        clock_turns: Some(8),
        probcut_margin: None,
        tables: Some(include_str!("../../data/dicechess3.eval")),
        network: None,
        start_terms: (0, 0),
        solution: None,
        set_up: |_, f, r| micro(MicroVariant::DiceChess3(DiceChess3), f, r),
    },
    Row {
        variant: Variant::Burmese,
        name: "burmese",
        title: "Burmese (three dice, any may go unused)",
        summary: "three dice as dicechess3, but any die may go unused",
        chess960: false,
        bench: BenchSuite { depth: 1, cases: &BURMESE_BENCH },
        // The mean own turns left over self-play positions is 10.2 (2,000 depth-1 games).
        clock_turns: Some(10),
        probcut_margin: None,
        tables: Some(include_str!("../../data/burmese.eval")),
        network: None,
        start_terms: (0, 0),
        solution: None,
        set_up: |_, f, r| micro(MicroVariant::Burmese(Burmese), f, r),
    },
    Row {
        variant: Variant::Gollon,
        name: "gollon",
        title: "Gollon (a count die)",
        summary: "a count die: 1 to 4 micro-moves by any pieces",
        chess960: false,
        bench: BenchSuite { depth: 1, cases: &GOLLON_BENCH },
        // The mean own turns left over self-play positions is 1.3 (2,000 depth-1 games: most end
        // on the first player's first 4, 5 or 6).
        clock_turns: Some(1),
        probcut_margin: None,
        tables: None,
        network: None,
        start_terms: (0, 0),
        solution: None,
        set_up: |_, f, r| micro(MicroVariant::Gollon(Gollon), f, r),
    },
    Row {
        variant: Variant::Gollon2,
        name: "gollon2",
        title: "Gollon 2 (piece and count dice)",
        summary: "a piece die and a count die: one piece of that type moves that many times",
        chess960: false,
        bench: BenchSuite { depth: 1, cases: &GOLLON2_BENCH },
        // The mean own turns left over self-play positions is 2.7 (2,000 depth-1 games).
        clock_turns: Some(3),
        probcut_margin: None,
        tables: None,
        network: None,
        start_terms: (0, 0),
        solution: None,
        set_up: |_, f, r| micro(MicroVariant::Gollon2(Gollon2), f, r),
    },
    Row {
        variant: Variant::DieChess,
        name: "diechess",
        title: "Die Chess (two dice as pieces)",
        summary: "one piece a side, a die that moves as the face it shows; solved exactly",
        chess960: false,
        // Played from its exact solution: nothing to bench.
        bench: BenchSuite { depth: 3, cases: &[] },
        clock_turns: None,
        probcut_margin: None,
        tables: None,
        network: None,
        start_terms: (0, 0),
        solution: Some(&crate::services::solution::Exact(diechess::DieChess)),
        set_up: |_, f, r| one_turn_searched(diechess::DieChess, f, r, crate::search::solve::search_solved),
    },
    Row {
        variant: Variant::BrainKing10,
        name: "brainking10",
        title: "BrainKing 10x10 (one die, three kings)",
        summary: "BrainKing's rules on 10x10, three kings a side",
        chess960: false,
        bench: BenchSuite { depth: 2, cases: &BRAINKING10_BENCH },
        clock_turns: None,
        probcut_margin: None,
        tables: Some(include_str!("../../data/brainking10.eval")),
        network: None,
        start_terms: (4, 0),
        solution: None,
        set_up: |_, f, r| one_turn(BrainKing10, f, r),
    },
    Row {
        variant: Variant::Grand,
        name: "grand",
        title: "Grand Dice Chess 12x12 (four dice, four kings)",
        summary: "four dice on 12x12, four kings a side",
        chess960: false,
        bench: BenchSuite { depth: 2, cases: &GRAND_BENCH },
        // The mean own turns left over self-play positions, 14.0 in 152 depth-1 games: fewer
        // than a chess game's plan.
        clock_turns: Some(14),
        probcut_margin: None,
        tables: Some(include_str!("../../data/grand.eval")),
        network: None,
        start_terms: (4, 3),
        solution: None,
        set_up: |_, f, r| micro(Grand, f, r),
    },
];

/// `alea bench`'s Freedom positions: openings to endgames, before and after the roll, free
/// moves (a check, a recapture), castling on a rook roll, a Chess960 start.
const FREEDOM_BENCH: [BenchCase; 11] = [
    case("freedom start", "", &[]),
    BenchCase {
        name: "freedom italian, Bxf7+ free",
        start: "",
        turns: &["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"],
        roll: &[],
    },
    case("freedom kiwipete", KIWIPETE, &[]),
    case("freedom queen's gambit, knight roll", QGD, &[2]),
    case("freedom giuoco piano", GIUOCO, &[]),
    BenchCase { name: "freedom recapture on d5", start: "", turns: &["e2e4", "d7d5", "e4d5"], roll: &[] },
    case("freedom rook ending", "8/5pk1/6p1/8/3R4/6P1/5PK1/3r4 w - - 0 40", &[]),
    case("freedom king and pawn, king roll", "8/8/4k3/8/2K5/3P4/8/8 w - - 0 50", &[6]),
    case("freedom back-rank mate by check", "6k1/5ppp/8/8/8/8/5PPP/1Q4K1 w - - 0 30", &[]),
    case("freedom castling on a rook", "r3k2r/pppq1ppp/2n5/3pp3/3PP3/2N5/PPPQ1PPP/R3K2R w KQkq - 0 9", &[4]),
    case("freedom chess960 #123", "chess960 123", &[]),
];

/// `alea bench`'s classic positions: two dice, doubles, a pass in check, mates.
const CLASSIC_BENCH: [BenchCase; 8] = [
    case("classic start", "", &[]),
    case("classic kiwipete, 2 and 5", KIWIPETE, &[2, 5]),
    case("classic scholar's threat", "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3", &[]),
    BenchCase {
        name: "classic passed in check, king capturable",
        start: "rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2",
        turns: &["0000"],
        roll: &[],
    },
    case("classic queen's gambit", QGD, &[]),
    case("classic king and pawn, 1 and 6", "8/8/8/4k3/8/8/3PK3/8 w - - 0 1", &[1, 6]),
    case("classic rook mate", "7k/8/8/8/8/8/8/R6K w - - 0 1", &[]),
    case("classic doubles", "r2qkb1r/pp2pppp/2p2n2/3b4/3P4/2N2N2/PPP2PPP/R1BQKB1R w KQkq - 0 7", &[3, 3]),
];

/// `alea bench`'s BrainKing positions: king capture, a promotion race, a Chess960 start.
const BRAINKING_BENCH: [BenchCase; 7] = [
    case("brainking start", "", &[]),
    case("brainking kiwipete, bishop roll", KIWIPETE, &[3]),
    case("brainking king attacked", "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", &[]),
    case("brainking promotion race", "8/4P1k1/8/8/8/8/6K1/8 w - - 0 1", &[]),
    case("brainking giuoco piano", GIUOCO, &[]),
    case("brainking rook ending, rook roll", "8/8/3k4/8/8/3K4/3R4/8 w - - 0 1", &[4]),
    case("brainking chess960 #700", "chess960 700", &[]),
];

/// `alea bench`'s vegas positions: rolls, a check to answer without rolling, a checker's free turn.
const VEGAS_BENCH: [BenchCase; 5] = [
    case("vegas start", "", &[]),
    case("vegas kiwipete, rook and any", KIWIPETE, &[4, 6]),
    case("vegas queen's gambit, knight and queen", QGD, &[2, 5]),
    case("vegas in check", "rnbqkbnr/ppp2ppp/8/1B1pp3/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 3", &[]),
    BenchCase {
        name: "vegas after giving check",
        start: "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3",
        turns: &["f1b5", "c7c6"],
        roll: &[],
    },
];

/// `alea bench`'s dicechess3 positions: after a roll (the turn's micro-moves to choose) and
/// before it (all 56 outcomes), searched one turn deep by default (two turns take a minute).
const DICECHESS3_BENCH: [BenchCase; 8] = [
    case("dicechess3 start, 1 2 3", START, &[1, 2, 3]),
    case("dicechess3 kiwipete, 1 2 3", KIWIPETE, &[1, 2, 3]),
    case("dicechess3 queen's gambit, 2 4 5", QGD, &[2, 4, 5]),
    case("dicechess3 giuoco piano, 1 3 5", GIUOCO, &[1, 3, 5]),
    case("dicechess3 rook ending, 1 4 6", "8/5pk1/6p1/8/3R4/6P1/5PK1/3r4 w - - 0 40", &[1, 4, 6]),
    case("dicechess3 king hunt", "4k3/8/8/8/4B3/8/8/K3R3 w - - 0 1", &[]),
    case("dicechess3 king and pawn", "8/8/4k3/8/2K5/3P4/8/8 w - - 0 50", &[]),
    case("dicechess3 start", START, &[]),
];

/// `alea bench`'s burmese positions, searched one turn deep.
const BURMESE_BENCH: [BenchCase; 4] = [
    case("burmese start, 1 2 3", START, &[1, 2, 3]),
    case("burmese kiwipete, 1 2 3", KIWIPETE, &[1, 2, 3]),
    case("burmese giuoco piano, 1 3 5", GIUOCO, &[1, 3, 5]),
    case("burmese start", START, &[]),
];

/// `alea bench`'s gollon positions, searched one turn deep.
const GOLLON_BENCH: [BenchCase; 4] = [
    case("gollon start, 4 moves", START, &[4]),
    case("gollon kiwipete, 3 moves", KIWIPETE, &[3]),
    case("gollon giuoco piano, 4 moves", GIUOCO, &[4]),
    case("gollon king and pawn", "8/8/4k3/8/2K5/3P4/8/8 w - - 0 50", &[]),
];

/// `alea bench`'s gollon2 positions, searched one turn deep.
const GOLLON2_BENCH: [BenchCase; 4] = [
    case("gollon2 start, knight 4", START, &[2, 4]),
    case("gollon2 kiwipete, queen 3", KIWIPETE, &[5, 3]),
    case("gollon2 giuoco piano, bishop 2", GIUOCO, &[3, 2]),
    case("gollon2 kiwipete", KIWIPETE, &[]),
];

/// `alea bench`'s positions for it: the start, and a middlegame with kings exposed.
const BRAINKING10_BENCH: [BenchCase; 2] = [
    case("brainking10 start", "", &[]),
    case(
        "brainking10 open kings, queen roll",
        "r1b1k1kbnr/pp1p1ppppp/2n1p5/2q7/4P5/3k1N4/10/10/PPPP1PPPPP/RNBQKK1B1R w - - 0 9",
        &[5],
    ),
];

/// `alea bench`'s grand positions: after a roll (four micro-moves to choose), searched two turns
/// deep (ours, then the opponent's 126 outcomes and replies).
const GRAND_BENCH: [BenchCase; 3] = [
    case("grand start, 1 2 3 5", grand::START, &[1, 2, 3, 5]),
    case("grand middlegame, 1 1 4 5", grand::MIDDLEGAME, &[1, 1, 4, 5]),
    case("grand middlegame, 2 3 3 6", grand::MIDDLEGAME, &[2, 3, 3, 6]),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_row_is_its_variant_and_names_what_its_rules_name() {
        for (i, v) in Variant::ALL.into_iter().enumerate() {
            assert_eq!(v as usize, i, "ALL is in the enum's order");
            assert_eq!(v.row().variant, v);
            let rules_name = v.set_up(false, None, None).unwrap().name();
            assert_eq!(rules_name, v.name(), "the rules call {v:?} by another name");
        }
    }

    #[test]
    fn a_name_is_read_in_any_case_and_an_unknown_one_lists_the_names() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>(), Ok(v));
            assert_eq!(v.name().to_ascii_uppercase().parse::<Variant>(), Ok(v));
            assert_eq!(v.to_string(), v.name());
        }
        let err = "chess".parse::<Variant>().unwrap_err();
        assert_eq!(err.given, "chess");
        assert_eq!(
            err.to_string(),
            "unknown variant 'chess' (one of freedom, classic, brainking, vegas, dicechess3, burmese, gollon, \
             gollon2, diechess, brainking10, grand)"
        );
    }

    /// The evaluation data embedded in the rows: every adopted table parses, fits its board
    /// and differs from the starting values it was fitted from; every adopted network parses
    /// and was trained for its row's variant; a big board starts from its own terms.
    #[test]
    fn each_row_s_evaluation_data_is_its_variant_s() {
        for v in Variant::ALL {
            let game = crate::services::handle::GameHandle::of(v, false).unwrap();
            let (start, default) = (v.starting_eval(), v.default_eval());
            assert!(game.eval_fits(&start).is_ok() && game.eval_fits(&default).is_ok(), "{v}");
            assert_eq!(v.row().tables.is_some(), default != start, "{v}: adopted tables are fitted ones");
            if let Some(net) = v.network() {
                assert_eq!(net.variant, v.name());
            }
            assert_eq!(v.network().is_some(), v.row().network.is_some(), "{v}");
            assert_eq!(game.uses_tables().is_ok(), v.row().start_terms == (0, 0) && v.row().solution.is_none(), "{v}");
        }
        for kind in ChessKind::ALL {
            assert_eq!(Variant::of_kind(kind).name(), ChessRules::new(kind, false).name());
        }
    }

    /// Options the front end left to the variant are filled in from its row; those it gave stay.
    #[test]
    fn the_row_fills_in_what_the_options_leave_to_the_variant() {
        let filled = Variant::Freedom.with_defaults(SearchOptions::default());
        assert_eq!(filled.eval.as_deref(), Some(&Variant::Freedom.default_eval()));
        assert!(filled.net.is_some() && filled.probcut_margin == Some(160));
        let tables_alone = Variant::Freedom.with_defaults(SearchOptions { use_net: false, ..SearchOptions::default() });
        assert!(tables_alone.net.is_none() && tables_alone.eval.is_some());
        let own = Arc::new(Variant::Freedom.starting_eval());
        let given =
            Variant::Freedom.with_defaults(SearchOptions { eval: Some(own.clone()), ..SearchOptions::default() });
        assert!(Arc::ptr_eq(given.eval.as_ref().unwrap(), &own) && given.net.is_none());
        assert!(Variant::Gollon.with_defaults(SearchOptions::default()).net.is_none());
    }
}
