//! `bench`: a fixed search suite whose node count identifies the engine's behaviour (the same on
//! every run and machine: one thread, a fresh table per position, a fixed depth) and whose speed
//! is measured in OpenBench's form, `<N> nodes <M> nps`.

use crate::board::Board;
use crate::eval::StaticEval;
use crate::game::Game;
use crate::rules::{Position, Roll, Rules, TurnList, Variant, VariantKind};
use crate::search::{self, Root, SearchInput, SearchOptions, Shared};
use crate::timeman::Limits;
use std::time::{Duration, Instant};

/// One position of the suite.
pub struct BenchPosition {
    pub variant: VariantKind,
    pub chess960: bool,
    /// FEN, or `chess960 N` for a Chess960 start.
    pub start: &'static str,
    pub moves: &'static [&'static str],
    /// Faces rolled, or empty for a search before the roll.
    pub roll: &'static [u8],
    pub name: &'static str,
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const QGD: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 8";
const GIUOCO: &str = "r2q1rk1/ppp2ppp/2npbn2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 8";

const fn at(variant: VariantKind, start: &'static str, roll: &'static [u8], name: &'static str) -> BenchPosition {
    BenchPosition { variant, chess960: false, start, moves: &[], roll, name }
}

/// The suite: every variant, openings to endgames, before and after the roll.
pub const SUITE: [BenchPosition; 26] = {
    use VariantKind::{BrainKing, Classic, Freedom};
    [
        at(Freedom, START, &[], "freedom start"),
        BenchPosition {
            variant: Freedom,
            chess960: false,
            start: START,
            moves: &["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"],
            roll: &[],
            name: "freedom italian, Bxf7+ free",
        },
        at(Freedom, KIWIPETE, &[], "freedom kiwipete"),
        at(Freedom, QGD, &[2], "freedom queen's gambit, knight roll"),
        at(Freedom, GIUOCO, &[], "freedom giuoco piano"),
        BenchPosition {
            variant: Freedom,
            chess960: false,
            start: START,
            moves: &["e2e4", "d7d5", "e4d5"],
            roll: &[],
            name: "freedom recapture on d5",
        },
        at(Freedom, "8/5pk1/6p1/8/3R4/6P1/5PK1/3r4 w - - 0 40", &[], "freedom rook ending"),
        at(Freedom, "8/8/4k3/8/2K5/3P4/8/8 w - - 0 50", &[6], "freedom king and pawn, king roll"),
        at(Freedom, "6k1/5ppp/8/8/8/8/5PPP/1Q4K1 w - - 0 30", &[], "freedom back-rank mate by check"),
        at(Freedom, "r3k2r/pppq1ppp/2n5/3pp3/3PP3/2N5/PPPQ1PPP/R3K2R w KQkq - 0 9", &[4], "freedom castling on a rook"),
        BenchPosition {
            variant: Freedom,
            chess960: true,
            start: "chess960 123",
            moves: &[],
            roll: &[],
            name: "freedom chess960 #123",
        },
        at(Classic, START, &[], "classic start"),
        at(Classic, KIWIPETE, &[2, 5], "classic kiwipete, 2 and 5"),
        at(
            Classic,
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3",
            &[],
            "classic scholar's threat",
        ),
        BenchPosition {
            variant: Classic,
            chess960: false,
            start: "rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2",
            moves: &["0000"],
            roll: &[],
            name: "classic passed in check, king capturable",
        },
        at(Classic, QGD, &[], "classic queen's gambit"),
        at(Classic, "8/8/8/4k3/8/8/3PK3/8 w - - 0 1", &[1, 6], "classic king and pawn, 1 and 6"),
        at(Classic, "7k/8/8/8/8/8/8/R6K w - - 0 1", &[], "classic rook mate"),
        at(BrainKing, START, &[], "brainking start"),
        at(BrainKing, KIWIPETE, &[3], "brainking kiwipete, bishop roll"),
        at(BrainKing, "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", &[], "brainking king attacked"),
        at(BrainKing, "8/4P1k1/8/8/8/8/6K1/8 w - - 0 1", &[], "brainking promotion race"),
        at(BrainKing, GIUOCO, &[], "brainking giuoco piano"),
        at(BrainKing, "8/8/3k4/8/8/3K4/3R4/8 w - - 0 1", &[4], "brainking rook ending, rook roll"),
        BenchPosition {
            variant: BrainKing,
            chess960: true,
            start: "chess960 700",
            moves: &[],
            roll: &[],
            name: "brainking chess960 #700",
        },
        at(Classic, "r2qkb1r/pp2pppp/2p2n2/3b4/3P4/2N2N2/PPP2PPP/R1BQKB1R w KQkq - 0 7", &[3, 3], "classic doubles"),
    ]
};

/// Depth of `bench` when none is given (turns).
pub const DEFAULT_DEPTH: u32 = 3;

/// What one position of the suite took.
pub struct BenchLine {
    pub name: &'static str,
    pub nodes: u64,
    pub elapsed: Duration,
    pub best: String,
    pub score: i32,
}

impl BenchPosition {
    /// The game this entry sets up.
    pub fn game(&self) -> Game<Variant> {
        let rules = Variant::new(self.variant, self.chess960);
        let board = match self.start.strip_prefix("chess960 ") {
            Some(n) => Board::chess960(n.parse().expect("a Chess960 number")),
            None => Board::from_fen(self.start).expect("bench FENs are valid"),
        };
        let mut game = Game::new(rules, Position::new(board));
        for m in self.moves {
            game.play_uci(m, |p| p.board.fen()).expect("bench moves are legal");
        }
        game
    }

    /// The root of this entry's search.
    pub fn root(&self, game: &Game<Variant>) -> Root<crate::Move> {
        if self.roll.is_empty() {
            return Root::PreRoll;
        }
        let mut turns = TurnList::new();
        let roll = Roll::new(self.roll).expect("bench rolls are valid");
        game.rules().allowed_turns(game.position(), &roll, &mut turns);
        Root::Turns(turns.to_vec())
    }
}

/// Searches every position of the suite to `depth` with `options` (a fresh 16 MiB table each;
/// the node count is fixed only with one thread), calling `line` after each; returns the total
/// nodes and time.
pub fn run(depth: u32, options: &SearchOptions, mut line: impl FnMut(&BenchLine)) -> (u64, Duration) {
    let mut nodes = 0;
    let mut elapsed = Duration::ZERO;
    for entry in &SUITE {
        let game = entry.game();
        let rules = *game.rules();
        let eval = StaticEval::default_for(entry.variant);
        let shared = Shared::new(16);
        let input = SearchInput {
            rules: &rules,
            eval: &eval,
            position: game.position(),
            root: entry.root(&game),
            history: game.hashes(),
            limits: Limits { depth: Some(depth), ..Default::default() },
            options: options.clone(),
        };
        let start = Instant::now();
        let result = search::search(&input, &shared, &mut |_| {});
        let took = start.elapsed();
        nodes += result.nodes;
        elapsed += took;
        let best = match result.best {
            search::Choice::Turn(t) => rules.turn_to_uci(t),
            search::Choice::Roll => "roll".to_string(),
        };
        line(&BenchLine { name: entry.name, nodes: result.nodes, elapsed: took, best, score: result.score });
    }
    (nodes, elapsed)
}

/// The `dicechess3` suite (`alea bench --variant dicechess3`): DFENs, each searched after the
/// roll given (a turn's micro-moves to choose) or, with none, before the roll (all 56 outcomes).
pub const DICECHESS3_SUITE: [(&str, &[u8], &str); 8] = [
    (START, &[1, 2, 3], "dicechess3 start, 1 2 3"),
    (KIWIPETE, &[1, 2, 3], "dicechess3 kiwipete, 1 2 3"),
    (QGD, &[2, 4, 5], "dicechess3 queen's gambit, 2 4 5"),
    (GIUOCO, &[1, 3, 5], "dicechess3 giuoco piano, 1 3 5"),
    ("8/5pk1/6p1/8/3R4/6P1/5PK1/3r4 w - - 0 40", &[1, 4, 6], "dicechess3 rook ending, 1 4 6"),
    ("4k3/8/8/8/4B3/8/8/K3R3 w - - 0 1", &[], "dicechess3 king hunt"),
    ("8/8/4k3/8/2K5/3P4/8/8 w - - 0 50", &[], "dicechess3 king and pawn"),
    (START, &[], "dicechess3 start"),
];

/// Depth of `bench --variant dicechess3` when none is given (turns).
pub const DICECHESS3_DEPTH: u32 = 2;

/// Searches the `dicechess3` suite through the game handle, as [`run`] does its suite.
pub fn run_dicechess3(depth: u32, options: &SearchOptions, mut line: impl FnMut(&BenchLine)) -> (u64, Duration) {
    use crate::handle::{GameHandle, RollSpec, SearchRoot};
    let mut nodes = 0;
    let mut elapsed = Duration::ZERO;
    for &(dfen, roll, name) in &DICECHESS3_SUITE {
        let game = GameHandle::setup("dicechess3", false, Some(dfen), None, &[]).expect("bench DFENs are valid");
        let root =
            if roll.is_empty() { SearchRoot::Decision } else { SearchRoot::Rolled(RollSpec::Faces(roll.to_vec())) };
        let shared = Shared::new(16);
        let limits = Limits { depth: Some(depth), ..Default::default() };
        let start = Instant::now();
        let result =
            game.search(&root, limits, options.clone(), &shared, &mut |_| {}).expect("bench positions are live");
        let took = start.elapsed();
        nodes += result.nodes;
        elapsed += took;
        let best = match result.best {
            search::Choice::Turn(t) => t,
            search::Choice::Roll => "roll".to_string(),
        };
        line(&BenchLine { name, nodes: result.nodes, elapsed: took, best, score: result.score });
    }
    (nodes, elapsed)
}
