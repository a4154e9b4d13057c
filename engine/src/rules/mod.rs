//! The dice rules behind one interface, [`Rules`], that the search, the protocol and the match
//! referee all use. A turn has three steps, and the interface has one call for each:
//! the pre-roll decision ([`Rules::pre_roll_turns`]), the roll ([`Rules::outcomes`]), and the
//! moves the roll allows ([`Rules::allowed_turns`]); [`Rules::end`] says when the game is over.
//!
//! Positions and turns are associated types, so a variant with several moves a turn or a
//! board other than 8x8 brings its own and the search, written against the trait, stays.

pub mod brainking;
pub mod brainking10;
pub mod burmese;
pub mod classic;
pub mod dfen;
pub mod dice;
pub mod dicechess3;
pub mod diechess;
pub mod error;
pub mod freedom;
pub mod game;
pub mod gollon;
pub mod gollon2;
pub mod grand;
pub mod micro;
pub mod one_turn;
pub mod pairing;
pub mod piece_dice;
pub mod position;
pub mod solvable;
pub mod states;
pub mod vegas;

use crate::board::chessmove::Move;
use crate::board::movegen::MAX_MOVES;
use crate::board::piece::Color;
use arrayvec::ArrayVec;
use std::fmt;

pub use brainking::BrainKing;
pub use brainking10::BrainKing10;
pub use burmese::Burmese;
pub use classic::Classic;
pub use dice::{MAX_OUTCOMES, Outcome, OutcomeList, Roll, RollError};
pub use dicechess3::DiceChess3;
pub use diechess::{DiePosition, DieTurn};
pub use error::GameError;
pub use freedom::Freedom;
pub use gollon::Gollon;
pub use gollon2::Gollon2;
pub use grand::Grand;
pub use position::Position;
pub use vegas::Vegas;

/// The turns playable at one point, on the stack.
pub type TurnList<T> = ArrayVec<T, MAX_MOVES>;

/// A set of outcomes: bit `i` stands for the `i`-th outcome of an [`OutcomeList`].
pub type OutcomeMask = u128;

/// Every turn some outcome of the roll allows, each with the outcomes that allow it: one
/// generation for a whole chance node, and the outcomes that allow the same turns are found by
/// comparing columns.
#[derive(Clone, Debug, Default)]
pub struct TurnTable<T> {
    pub outcomes: OutcomeList,
    pub turns: TurnList<T>,
    /// `masks[k]` holds the outcomes that allow `turns[k]`.
    pub masks: ArrayVec<OutcomeMask, MAX_MOVES>,
    /// Optional, one per outcome: equal keys exactly when two outcomes allow the same turns.
    /// Rules that know this cheaply fill it; otherwise the columns are compared.
    pub set_keys: ArrayVec<u64, MAX_OUTCOMES>,
}

impl<T: Copy + Eq> TurnTable<T> {
    pub fn new() -> TurnTable<T> {
        TurnTable {
            outcomes: OutcomeList::new(),
            turns: TurnList::new(),
            masks: ArrayVec::new(),
            set_keys: ArrayVec::new(),
        }
    }

    pub fn clear(&mut self) {
        self.outcomes.clear();
        self.turns.clear();
        self.masks.clear();
        self.set_keys.clear();
    }

    /// Adds `turn` as allowed by the outcomes in `mask` (merging with an earlier entry).
    pub fn allow(&mut self, turn: T, mask: OutcomeMask) {
        if mask == 0 {
            return;
        }
        match self.turns.iter().position(|&t| t == turn) {
            Some(k) => self.masks[k] |= mask,
            None => {
                self.turns.push(turn);
                self.masks.push(mask);
            }
        }
    }

    /// Adds a turn known not to be in the table yet.
    #[inline]
    pub fn push(&mut self, turn: T, mask: OutcomeMask) {
        if mask != 0 {
            self.turns.push(turn);
            self.masks.push(mask);
        }
    }

    /// The turns outcome `i` allows.
    pub fn allowed_by(&self, i: usize) -> impl Iterator<Item = T> + '_ {
        self.turns.iter().zip(&self.masks).filter(move |&(_, &m)| m >> i & 1 == 1).map(|(&t, _)| t)
    }

    /// The mask of all outcomes.
    pub fn all_outcomes(&self) -> OutcomeMask {
        if self.outcomes.len() >= 128 { !0 } else { (1u128 << self.outcomes.len()) - 1 }
    }
}

/// Who won, or a draw.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum GameResult {
    Win(Color),
    Draw,
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::Win(Color::White) => "1-0",
            GameResult::Win(Color::Black) => "0-1",
            GameResult::Draw => "1/2-1/2",
        })
    }
}

/// The rule that ended a game.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum EndReason {
    Checkmate,
    Stalemate,
    KingCapture,
    ThreefoldRepetition,
    FiftyMoveRule,
    InsufficientMaterial,
    /// Die Chess's 200 turns.
    TurnLimit,
}

impl EndReason {
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::KingCapture => "king capture",
            EndReason::ThreefoldRepetition => "threefold repetition",
            EndReason::FiftyMoveRule => "fifty-move rule",
            EndReason::InsufficientMaterial => "insufficient material",
            EndReason::TurnLimit => "turn limit",
        }
    }
}

/// How a game ended.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct GameEnd {
    pub result: GameResult,
    pub reason: EndReason,
}

impl fmt::Display for GameEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.result, self.reason.name())
    }
}

/// The rules of one dice variant.
pub trait Rules {
    /// Everything the rules need to know of the game so far, besides repetitions.
    type Position: Clone;
    /// What a player does on a turn: one move, a pass, or (later variants) several moves.
    type Turn: Copy + Eq + fmt::Debug;

    /// The variant's name as `UCI_Variant` spells it.
    fn name(&self) -> &'static str;

    /// The variant's documents' piece values: the evaluation's starting point.
    fn piece_values(&self) -> crate::board::values::PieceValues;

    /// Checks that a position set up from a FEN can occur under these rules (kings, checks,
    /// rule state); everything by default.
    fn validate(&self, _pos: &Self::Position) -> Result<(), GameError> {
        Ok(())
    }

    /// How many dice one roll uses.
    fn dice(&self) -> usize;

    /// The turns playable without rolling (Freedom moves); empty when the player must roll.
    fn pre_roll_turns(&self, pos: &Self::Position, out: &mut TurnList<Self::Turn>);

    /// The outcomes of the roll and their probabilities (summing to 1). Empty at a finished game.
    fn outcomes(&self, pos: &Self::Position, out: &mut OutcomeList);

    /// The turns a roll allows (a lone pass where the variant passes). `roll` has
    /// [`Rules::dice`] faces.
    fn allowed_turns(&self, pos: &Self::Position, roll: &Roll, out: &mut TurnList<Self::Turn>);

    /// The pre-roll turns, given the turn table of the same position (which a search has made
    /// already); variants whose Freedom moves are among the table's turns override it to avoid
    /// generating moves again.
    fn pre_roll_from_table(&self, pos: &Self::Position, table: &TurnTable<Self::Turn>, out: &mut TurnList<Self::Turn>) {
        let _ = table;
        self.pre_roll_turns(pos, out);
    }

    /// The pre-roll turns among `candidates`, which are turns of `table` (the horizon asks only
    /// about its captures). Variants that can judge one turn at a time override it.
    fn pre_roll_among(
        &self,
        pos: &Self::Position,
        table: &TurnTable<Self::Turn>,
        candidates: &[Self::Turn],
        out: &mut TurnList<Self::Turn>,
    ) {
        self.pre_roll_from_table(pos, table, out);
        out.retain(|t| candidates.contains(t));
    }

    /// A turn playable without rolling that wins at once (Freedom: a check that mates), which
    /// the horizon takes before anything else; `None` where the rules have none. Not asked in
    /// check, where the horizon follows every answer anyway.
    fn winning_free_turn(&self, pos: &Self::Position) -> Option<Self::Turn> {
        let _ = pos;
        None
    }

    /// The table the horizon asks for where the mover is not in check: the outcomes and every
    /// capture and promotion each allows, with the outcomes allowing it; quiet turns may be
    /// there too (the horizon passes over them). Its `set_keys`, where given, are equal only
    /// for outcomes allowing the same captures and promotions. The default is the whole table;
    /// variants override it where listing the quiet turns costs.
    fn tactical_table(&self, pos: &Self::Position, table: &mut TurnTable<Self::Turn>) {
        self.turn_table(pos, table);
    }

    /// Fills `table` with the outcomes and, for each turn some outcome allows, the outcomes
    /// allowing it. The caller has checked that the game is not over. The default asks
    /// [`Rules::allowed_turns`] once per outcome; variants override it with one generation.
    fn turn_table(&self, pos: &Self::Position, table: &mut TurnTable<Self::Turn>) {
        table.clear();
        self.outcomes(pos, &mut table.outcomes);
        let mut list = TurnList::new();
        for i in 0..table.outcomes.len() {
            list.clear();
            let roll = table.outcomes[i].roll;
            self.allowed_turns(pos, &roll, &mut list);
            for &t in &list {
                table.allow(t, 1 << i);
            }
        }
    }

    /// Every turn the rules allow whatever the dice (unconditional Freedom, `go roll any`).
    fn any_turns(&self, pos: &Self::Position, out: &mut TurnList<Self::Turn>);

    /// The position after `turn`, which the caller has taken from this position's lists.
    fn play(&self, pos: &Self::Position, turn: Self::Turn) -> Self::Position;

    /// The end of the game judged from the position alone (checkmate, king capture, fifty
    /// moves, ...); repetition needs the history and is judged by [`crate::rules::game::Game`].
    fn end(&self, pos: &Self::Position) -> Option<GameEnd>;

    /// The position's key for repetition and the transposition table.
    fn hash(&self, pos: &Self::Position) -> u64;

    /// Could one turn without a capture or a pawn move lead from the position hashed `a` to the
    /// one hashed `b` ([`Rules::hash`])? The search asks it to see a repetition one turn ahead;
    /// a wrong "yes" costs it only speed, and `false` (the default) is always safe.
    fn one_turn_apart(&self, _a: u64, _b: u64) -> bool {
        false
    }

    /// Plies since the last capture or pawn move: no repetition reaches further back.
    fn reversible_plies(&self, pos: &Self::Position) -> u32;

    /// The side to move.
    fn turn(&self, pos: &Self::Position) -> Color;

    /// Is the side to move in check, in a variant that has check? (The search's horizon may not
    /// assume a quiet move is available then.)
    fn in_check(&self, pos: &Self::Position) -> bool;

    /// The turn written in UCI (`e2e4`, `0000`, castling per `UCI_Chess960`).
    fn turn_to_uci(&self, turn: Self::Turn) -> String;

    /// Reads a turn written in UCI (`0000` for a pass); `None` if no rule could ever allow it
    /// here. Whether luck could allow it is [`Rules::is_possible_turn`].
    fn parse_turn(&self, pos: &Self::Position, text: &str) -> Option<Self::Turn>;

    /// What a roll lets the player move, in words ("pawn, knight"): the faces of piece dice by
    /// default.
    fn roll_meaning(&self, roll: &Roll) -> String {
        dice::piece_names(roll)
    }

    /// The roll of these faces, as given (a face per die, in the dice's order where they are
    /// unlike), with its shape checked.
    fn roll_of(&self, faces: &[u8]) -> Result<Roll, RollError> {
        let roll = Roll::new(faces)?;
        self.check_roll(&roll)?;
        Ok(roll)
    }

    /// Fills in the rule state a position set up from a FEN implies (Vegas: a side in check was
    /// checked by the other's last move); nothing by default.
    fn implied_state(&self, _pos: &mut Self::Position) {}

    /// Checks a roll's shape: the right number of dice for this variant.
    fn check_roll(&self, roll: &Roll) -> Result<(), RollError> {
        if roll.dice() == self.dice() {
            Ok(())
        } else {
            Err(RollError::WrongCount { expected: self.dice(), got: roll.dice() })
        }
    }

    /// Could `turn` be played here with some luck: before the roll, or after one of the
    /// outcomes? This is what a game record without rolls can be checked against.
    fn is_possible_turn(&self, pos: &Self::Position, turn: Self::Turn) -> bool {
        let mut list = TurnList::new();
        self.pre_roll_turns(pos, &mut list);
        if list.contains(&turn) {
            return true;
        }
        let mut outcomes = OutcomeList::new();
        self.outcomes(pos, &mut outcomes);
        outcomes.iter().any(|o| {
            list.clear();
            self.allowed_turns(pos, &o.roll, &mut list);
            list.contains(&turn)
        })
    }
}

/// The 8x8 variants of one move a turn, whose rules are one type, [`ChessRules`].
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ChessKind {
    Freedom,
    Classic,
    BrainKing,
    Vegas,
}

impl ChessKind {
    pub const ALL: [ChessKind; 4] = [ChessKind::Freedom, ChessKind::Classic, ChessKind::BrainKing, ChessKind::Vegas];

    pub fn name(self) -> &'static str {
        match self {
            ChessKind::Freedom => "freedom",
            ChessKind::Classic => "classic",
            ChessKind::BrainKing => "brainking",
            ChessKind::Vegas => "vegas",
        }
    }
}

/// One of the variants of several moves a turn, chosen at run time (as [`ChessRules`] is for
/// one move a turn): a new such variant is its own file and an arm here.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum MicroVariant {
    DiceChess3(DiceChess3),
    Burmese(Burmese),
    Gollon(Gollon),
    Gollon2(Gollon2),
}

impl MicroVariant {
    pub const ALL: [MicroVariant; 4] = [
        MicroVariant::DiceChess3(DiceChess3),
        MicroVariant::Burmese(Burmese),
        MicroVariant::Gollon(Gollon),
        MicroVariant::Gollon2(Gollon2),
    ];
}

macro_rules! dispatch_micro {
    ($self:ident, $r:ident => $e:expr) => {
        match $self {
            MicroVariant::DiceChess3($r) => $e,
            MicroVariant::Burmese($r) => $e,
            MicroVariant::Gollon($r) => $e,
            MicroVariant::Gollon2($r) => $e,
        }
    };
}

impl micro::MicroRules for MicroVariant {
    type Board = crate::board::Board;
    fn parse_dfen(&self, text: &str) -> Result<micro::MicroPosition, GameError> {
        dispatch_micro!(self, r => r.parse_dfen(text))
    }
    fn dfen(&self, pos: &micro::MicroPosition) -> String {
        dispatch_micro!(self, r => r.dfen(pos))
    }
    fn name(&self) -> &'static str {
        dispatch_micro!(self, r => r.name())
    }
    fn startpos(&self) -> micro::MicroPosition {
        dispatch_micro!(self, r => r.startpos())
    }
    fn piece_values(&self) -> crate::board::values::PieceValues {
        dispatch_micro!(self, r => r.piece_values())
    }
    fn dice(&self) -> usize {
        dispatch_micro!(self, r => r.dice())
    }
    fn outcomes(&self, pos: &micro::MicroPosition) -> OutcomeList {
        dispatch_micro!(self, r => r.outcomes(pos))
    }
    fn end(&self, pos: &micro::MicroPosition) -> Option<GameEnd> {
        dispatch_micro!(self, r => r.end(pos))
    }
    fn micro_moves(&self, pos: &micro::MicroPosition, out: &mut crate::board::movegen::MoveList) {
        dispatch_micro!(self, r => r.micro_moves(pos, out))
    }
    fn has_micro_move(&self, pos: &micro::MicroPosition) -> bool {
        dispatch_micro!(self, r => r.has_micro_move(pos))
    }
    fn surely_moves_after(&self, pos: &micro::MicroPosition, m: Move, spent: &[micro::Die]) -> bool {
        dispatch_micro!(self, r => r.surely_moves_after(pos, m, spent))
    }
    fn surely_moves_twice_after(&self, pos: &micro::MicroPosition, m: Move, spent: &[micro::Die]) -> bool {
        dispatch_micro!(self, r => r.surely_moves_twice_after(pos, m, spent))
    }
    fn spent(&self, pos: &micro::MicroPosition, m: Move) -> ArrayVec<micro::Die, 2> {
        dispatch_micro!(self, r => r.spent(pos, m))
    }
    fn pool(&self, roll: &Roll) -> micro::DicePool {
        dispatch_micro!(self, r => r.pool(roll))
    }
    fn roll_left(&self, pos: &micro::MicroPosition) -> Option<Roll> {
        dispatch_micro!(self, r => r.roll_left(pos))
    }
    fn roll_of(&self, faces: &[u8]) -> Result<Roll, RollError> {
        dispatch_micro!(self, r => r.roll_of(faces))
    }
    fn pool_size(&self) -> usize {
        dispatch_micro!(self, r => r.pool_size())
    }
    fn roll_meaning(&self, roll: &Roll) -> String {
        dispatch_micro!(self, r => r.roll_meaning(roll))
    }
    fn dice_letters(&self) -> &'static str {
        dispatch_micro!(self, r => r.dice_letters())
    }
    fn one_piece_turns(&self) -> bool {
        dispatch_micro!(self, r => r.one_piece_turns())
    }
    fn micro_captures(&self, pos: &micro::MicroPosition, out: &mut crate::board::movegen::MoveList) {
        dispatch_micro!(self, r => r.micro_captures(pos, out))
    }
    fn may_stop(&self, pos: &micro::MicroPosition, moves: &[Move]) -> bool {
        dispatch_micro!(self, r => r.may_stop(pos, moves))
    }
    fn dice_optional(&self) -> bool {
        dispatch_micro!(self, r => r.dice_optional())
    }
}

/// The rules of one of the 8x8 variants of one move a turn, chosen at run time (the variant
/// registry sets games up with it). It dispatches to the variant's own type; code that wants no
/// dispatch uses that type directly.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ChessRules {
    Freedom(Freedom),
    Classic(Classic),
    BrainKing(BrainKing),
    Vegas(Vegas),
}

impl ChessRules {
    pub fn new(kind: ChessKind, chess960: bool) -> ChessRules {
        match kind {
            ChessKind::Freedom => ChessRules::Freedom(Freedom { chess960 }),
            ChessKind::Classic => ChessRules::Classic(Classic { chess960 }),
            ChessKind::BrainKing => ChessRules::BrainKing(BrainKing { chess960 }),
            ChessKind::Vegas => ChessRules::Vegas(Vegas { chess960 }),
        }
    }

    pub fn kind(&self) -> ChessKind {
        match self {
            ChessRules::Freedom(_) => ChessKind::Freedom,
            ChessRules::Classic(_) => ChessKind::Classic,
            ChessRules::BrainKing(_) => ChessKind::BrainKing,
            ChessRules::Vegas(_) => ChessKind::Vegas,
        }
    }

    pub fn chess960(&self) -> bool {
        match self {
            ChessRules::Freedom(r) => r.chess960,
            ChessRules::Classic(r) => r.chess960,
            ChessRules::BrainKing(r) => r.chess960,
            ChessRules::Vegas(r) => r.chess960,
        }
    }
}

macro_rules! dispatch {
    ($self:ident, $r:ident => $e:expr) => {
        match $self {
            ChessRules::Freedom($r) => $e,
            ChessRules::Classic($r) => $e,
            ChessRules::BrainKing($r) => $e,
            ChessRules::Vegas($r) => $e,
        }
    };
}

impl Rules for ChessRules {
    type Position = Position;
    type Turn = Move;

    fn name(&self) -> &'static str {
        dispatch!(self, r => r.name())
    }
    fn piece_values(&self) -> crate::board::values::PieceValues {
        dispatch!(self, r => r.piece_values())
    }
    fn validate(&self, pos: &Position) -> Result<(), GameError> {
        dispatch!(self, r => r.validate(pos))
    }
    fn dice(&self) -> usize {
        dispatch!(self, r => r.dice())
    }
    fn pre_roll_turns(&self, pos: &Position, out: &mut TurnList<Move>) {
        dispatch!(self, r => r.pre_roll_turns(pos, out))
    }
    fn outcomes(&self, pos: &Position, out: &mut OutcomeList) {
        dispatch!(self, r => r.outcomes(pos, out))
    }
    fn allowed_turns(&self, pos: &Position, roll: &Roll, out: &mut TurnList<Move>) {
        dispatch!(self, r => r.allowed_turns(pos, roll, out))
    }
    fn any_turns(&self, pos: &Position, out: &mut TurnList<Move>) {
        dispatch!(self, r => r.any_turns(pos, out))
    }
    fn turn_table(&self, pos: &Position, table: &mut TurnTable<Move>) {
        dispatch!(self, r => r.turn_table(pos, table))
    }
    fn tactical_table(&self, pos: &Position, table: &mut TurnTable<Move>) {
        dispatch!(self, r => r.tactical_table(pos, table))
    }
    fn pre_roll_from_table(&self, pos: &Position, table: &TurnTable<Move>, out: &mut TurnList<Move>) {
        dispatch!(self, r => r.pre_roll_from_table(pos, table, out))
    }
    fn pre_roll_among(&self, pos: &Position, table: &TurnTable<Move>, candidates: &[Move], out: &mut TurnList<Move>) {
        dispatch!(self, r => r.pre_roll_among(pos, table, candidates, out))
    }
    fn winning_free_turn(&self, pos: &Position) -> Option<Move> {
        dispatch!(self, r => r.winning_free_turn(pos))
    }
    fn play(&self, pos: &Position, turn: Move) -> Position {
        dispatch!(self, r => r.play(pos, turn))
    }
    fn end(&self, pos: &Position) -> Option<GameEnd> {
        dispatch!(self, r => r.end(pos))
    }
    fn hash(&self, pos: &Position) -> u64 {
        pos.hash()
    }
    fn one_turn_apart(&self, a: u64, b: u64) -> bool {
        crate::board::cycles::one_move_apart(a, b)
    }
    fn reversible_plies(&self, pos: &Position) -> u32 {
        pos.board.halfmove_clock()
    }
    fn turn(&self, pos: &Position) -> Color {
        pos.board.turn()
    }
    fn in_check(&self, pos: &Position) -> bool {
        dispatch!(self, r => r.in_check(pos))
    }
    fn turn_to_uci(&self, turn: Move) -> String {
        turn.to_uci(self.chess960()).to_string()
    }
    fn roll_of(&self, faces: &[u8]) -> Result<Roll, RollError> {
        dispatch!(self, r => r.roll_of(faces))
    }
    fn roll_meaning(&self, roll: &Roll) -> String {
        dispatch!(self, r => r.roll_meaning(roll))
    }
    fn implied_state(&self, pos: &mut Position) {
        dispatch!(self, r => r.implied_state(pos))
    }
    fn parse_turn(&self, pos: &Position, text: &str) -> Option<Move> {
        dispatch!(self, r => r.parse_turn(pos, text))
    }
}

/// The 8x8 variants as front ends see them: FEN, SAN and squares of the chess board.
impl crate::rules::one_turn::OneTurnRules for ChessRules {
    fn start_position(&self) -> Position {
        Position::new(crate::Board::startpos())
    }

    /// A FEN of another board's size (a 10x10 or 12x12 one) is refused by its size.
    fn parse_fen(&self, text: &str) -> Result<Position, GameError> {
        crate::Board::from_fen(text)
            .map(Position::new)
            .map_err(|e| fen_mistake(text).map_or(GameError::Fen(e), GameError::Position))
    }

    fn fen(&self, pos: &Position) -> String {
        pos.board.fen()
    }

    fn size(&self) -> (u8, u8) {
        (8, 8)
    }

    fn piece_at(&self, pos: &Position, file: u8, rank: u8) -> Option<crate::Piece> {
        pos.board.piece_at(crate::Square::from_coords(file, rank))
    }

    fn fullmove(&self, pos: &Position) -> u32 {
        pos.board.fullmove_number()
    }

    /// Chess SAN, with check marks where the variant has check (BrainKing has none).
    fn san(&self, pos: &Position, m: Move, candidates: &[Move]) -> String {
        match self {
            ChessRules::BrainKing(_) => crate::board::san::san_body(&pos.board, m, candidates),
            _ => crate::board::san::to_san(&pos.board, m, candidates),
        }
    }

    fn parse_san(&self, pos: &Position, text: &str, candidates: &[Move]) -> Option<Move> {
        crate::board::san::from_san(&pos.board, text, candidates)
    }

    fn turn_roles(&self, pos: &Position, m: Move) -> crate::rules::one_turn::TurnRoles {
        if m.is_null() {
            return crate::rules::one_turn::TurnRoles::default();
        }
        let board = &pos.board;
        crate::rules::one_turn::TurnRoles {
            mover: board.role_at(m.from()),
            captured: board.captured_square(m).and_then(|sq| board.role_at(sq)),
            promotion: m.promotion_role(),
        }
    }

    fn perft_divide(
        &self,
        pos: &Position,
        depth: u32,
        stop: &std::sync::atomic::AtomicBool,
        counted: &mut dyn FnMut(&str, u64),
    ) -> Result<bool, GameError> {
        let chess960 = self.chess960();
        Ok(crate::board::perft::perft_divide_until(&pos.board, depth, stop, |m, n| {
            counted(&m.to_uci(chess960).to_string(), n)
        }))
    }

    fn chess960(&self) -> bool {
        ChessRules::chess960(self)
    }

    fn set_recapture(&self, pos: &mut Position, square: &str) -> Result<(), GameError> {
        let sq = crate::Square::parse(square)
            .ok_or_else(|| GameError::Position(format!("recapture square '{square}' is not a square")))?;
        pos.recapture = Some(sq);
        Ok(())
    }

    fn state_lines(&self, pos: &Position) -> Vec<String> {
        let checkers: Vec<String> =
            pos.board.checkers_of(pos.board.turn()).into_iter().map(|s| s.to_string()).collect();
        let mut lines = vec![format!("Checkers: {}", checkers.join(" "))];
        if let Some(sq) = pos.recapture {
            lines.push(format!("Recapture square: {sq}"));
        }
        if pos.passed_in_check {
            lines.push("Opponent passed in check: its king may be captured".into());
        }
        lines
    }

    fn pre_roll_kinds(&self, pos: &Position, m: Move) -> Vec<&'static str> {
        match self {
            ChessRules::Freedom(f) => f.freedom_kinds(pos, m).names(),
            _ => Vec::new(),
        }
    }

    fn chess_board<'a>(&self, pos: &'a Position) -> Option<&'a crate::Board> {
        Some(&pos.board)
    }
}

/// What is wrong in a FEN the 8x8 board refused, named in the text given: its placement's ranks
/// too many or too few, a rank too long or short (counting two-digit runs of empty squares as big
/// boards write them), a letter that is no piece, the side to move, a clock.
fn fen_mistake(fen: &str) -> Option<String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let placement = *fields.first()?;
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != 8 {
        let ranks = if rows.len() == 1 { "rank" } else { "ranks" };
        return Some(format!(
            "invalid FEN: its placement '{placement}' has {} {ranks}: this board has 8 ranks",
            rows.len()
        ));
    }
    for (i, row) in rows.iter().enumerate() {
        if let Some(c) = row.chars().find(|c| !c.is_ascii_digit() && !"pnbrqkPNBRQK".contains(*c)) {
            return Some(format!(
                "invalid FEN: '{c}' in rank {} '{row}' is no piece letter (PNBRQK for White, pnbrqk for Black) nor a count of empty squares",
                8 - i
            ));
        }
        let (mut width, mut run) = (0, 0);
        for c in row.chars() {
            match c.to_digit(10) {
                Some(d) => run = run * 10 + d,
                None => {
                    width += run + 1;
                    run = 0;
                }
            }
        }
        width += run;
        if width != 8 {
            return Some(format!("invalid FEN: rank {} '{row}' has {width} squares, this board 8", 8 - i));
        }
    }
    if let Some(side) = fields.get(1).filter(|s| !matches!(**s, "w" | "b")) {
        return Some(format!("invalid FEN: the side to move is 'w' or 'b', not '{side}'"));
    }
    for (name, field) in [("halfmove clock", fields.get(4)), ("move number", fields.get(5))] {
        if let Some(field) = field.filter(|f| f.parse::<u32>().is_err()) {
            return Some(format!("invalid FEN: the {name} is a whole number, not '{field}'"));
        }
    }
    None
}

/// What the chess variants share: positions are [`Position`], turns are one [`Move`].
pub(crate) mod common {
    use super::*;
    use crate::board::Board;

    /// Draws every variant has: the fifty-move rule (checked after mate, which wins on the
    /// hundredth ply too) and, where `with_material`, insufficient material.
    pub fn automatic_draw(board: &Board, with_material: bool) -> Option<GameEnd> {
        if board.halfmove_clock() >= 100 {
            return Some(GameEnd { result: GameResult::Draw, reason: EndReason::FiftyMoveRule });
        }
        if with_material && board.insufficient_material() {
            return Some(GameEnd { result: GameResult::Draw, reason: EndReason::InsufficientMaterial });
        }
        None
    }

    /// Exactly one king each, as chess (and every variant with check) has.
    pub fn one_king_each(board: &Board, variant: &str) -> Result<(), GameError> {
        for color in Color::ALL {
            if board.pieces(color, crate::board::piece::Role::King).count() != 1 {
                return Err(GameError::Position(format!("{} must have exactly one king in {variant}", color.name())));
            }
        }
        Ok(())
    }

    /// The side that just moved is not left in check.
    pub fn off_turn_side_not_in_check(board: &Board) -> Result<(), GameError> {
        let mover = board.turn();
        if board.checkers_of(!mover).any() {
            return Err(GameError::Position(format!("{} is in check but it is not its turn", (!mover).name())));
        }
        Ok(())
    }

    /// A recapture square is Freedom's rule state: no other variant has one.
    pub fn no_recapture(pos: &Position) -> Result<(), GameError> {
        match pos.recapture {
            Some(_) => Err(GameError::Position("this variant has no recapture square".into())),
            None => Ok(()),
        }
    }

    /// The kings of a game of king capture: at most one a side, and not none on both (a side
    /// without its king lost it, and the game ended there, the other side's king still on).
    pub fn king_capture_kings(board: &Board) -> Result<(), GameError> {
        let count = |c: Color| board.pieces(c, crate::board::piece::Role::King).count();
        if let Some(c) = Color::ALL.into_iter().find(|&c| count(c) > 1) {
            return Err(GameError::Position(format!("{} has more than one king", c.name())));
        }
        if Color::ALL.into_iter().all(|c| count(c) == 0) {
            return Err(GameError::Position("neither side has a king: a game ends when the first one is taken".into()));
        }
        Ok(())
    }

    /// A side without its king has lost it to a capture.
    pub fn king_captured(board: &Board) -> Option<GameEnd> {
        Color::ALL
            .into_iter()
            .find(|&c| board.pieces(c, crate::board::piece::Role::King).is_empty())
            .map(|c| GameEnd { result: GameResult::Win(!c), reason: EndReason::KingCapture })
    }

    /// For each role, the outcomes (bits) whose allowed roles include it.
    pub type RoleOutcomes = [OutcomeMask; 6];

    /// Every move of a position, role by role (castling apart, as a king and a rook move).
    pub struct MovesByRole {
        pub by_role: [crate::board::movegen::MoveList; 6],
        pub castles: crate::board::movegen::MoveList,
    }

    impl Default for MovesByRole {
        fn default() -> MovesByRole {
            MovesByRole::new()
        }
    }

    impl MovesByRole {
        pub fn new() -> MovesByRole {
            MovesByRole {
                by_role: std::array::from_fn(|_| crate::board::movegen::MoveList::new()),
                castles: crate::board::movegen::MoveList::new(),
            }
        }

        /// Fills the lists in place (a turn table is made at most nodes; returning seven
        /// lists by value would copy them).
        pub fn generate(&mut self, board: &Board, legality: crate::board::movegen::Legality) {
            let generator = crate::board::movegen::Generator::new(board, legality);
            for role in crate::board::piece::Role::ALL {
                self.by_role[role.index()].clear();
                generator.role_moves(role, &mut self.by_role[role.index()]);
            }
            self.castles.clear();
            generator.castles(&mut self.castles);
        }

        /// The roles with a move in the lists (castling left out), a bit per role index.
        pub fn roles_with_moves(&self) -> u8 {
            crate::board::piece::Role::ALL
                .into_iter()
                .filter(|r| !self.by_role[r.index()].is_empty())
                .fold(0, |acc, r| acc | 1 << r.index())
        }

        /// Can `role` move (castling counts for king and rook)?
        pub fn can_move(&self, role: crate::board::piece::Role) -> bool {
            use crate::board::piece::Role;
            !self.by_role[role.index()].is_empty()
                || (matches!(role, Role::King | Role::Rook) && !self.castles.is_empty())
        }
    }

    /// Fills a turn table where each move is allowed by the outcomes of its role (castling: of
    /// the king or the rook).
    pub fn table_by_role(moves: &MovesByRole, by_role: &RoleOutcomes, table: &mut TurnTable<Move>) {
        use crate::board::piece::Role;
        for role in Role::ALL {
            for &m in &moves.by_role[role.index()] {
                table.push(m, by_role[role.index()]);
            }
        }
        for &m in &moves.castles {
            table.push(m, by_role[Role::King.index()] | by_role[Role::Rook.index()]);
        }
    }
}

macro_rules! chess_rules_common {
    () => {
        type Position = $crate::rules::Position;
        type Turn = $crate::board::chessmove::Move;

        fn hash(&self, pos: &$crate::rules::Position) -> u64 {
            pos.hash()
        }
        fn one_turn_apart(&self, a: u64, b: u64) -> bool {
            $crate::board::cycles::one_move_apart(a, b)
        }
        fn reversible_plies(&self, pos: &$crate::rules::Position) -> u32 {
            pos.board.halfmove_clock()
        }
        fn turn(&self, pos: &$crate::rules::Position) -> $crate::board::piece::Color {
            pos.board.turn()
        }
        fn turn_to_uci(&self, turn: $crate::board::chessmove::Move) -> String {
            turn.to_uci(self.chess960).to_string()
        }
        fn parse_turn(&self, pos: &$crate::rules::Position, text: &str) -> Option<$crate::board::chessmove::Move> {
            if text == "0000" {
                return Some($crate::board::chessmove::Move::NULL);
            }
            let mut all = $crate::rules::TurnList::new();
            self.any_turns(pos, &mut all);
            $crate::board::movegen::find_uci(&pos.board, &all, text)
        }
    };
}
pub(crate) use chess_rules_common;

/// What every variant of several micro-moves a turn on the 8x8 board writes alike: the board,
/// the piece-square evaluation, DFEN, and chess's start.
macro_rules! micro_chess_common {
    () => {
        type Board = $crate::board::Board;
        fn parse_dfen(&self, text: &str) -> Result<$crate::rules::micro::MicroPosition, $crate::rules::GameError> {
            $crate::rules::dfen::parse(self, text)
        }
        fn dfen(&self, pos: &$crate::rules::micro::MicroPosition) -> String {
            $crate::rules::dfen::write(pos)
        }
        fn startpos(&self) -> $crate::rules::micro::MicroPosition {
            $crate::rules::micro::MicroPosition::new(
                $crate::board::Board::startpos(),
                $crate::board::bitboard::Bitboard::EMPTY,
            )
        }
    };
}
pub(crate) use micro_chess_common;
