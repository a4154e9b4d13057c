//! `dicechess3`: the rules of dicechess.com (shared/RULES.md). Three dice, a micro-move per die
//! (the die's face is the moving piece's type), no check, the king captured to win, the maximum
//! rule, castling on a 4 and a 6 together, several en-passant targets, and DFEN (a FEN whose
//! en-passant field may list several squares and whose 7th field holds the dice left).

use crate::bench::{BenchCase, BenchSuite, GIUOCO, KIWIPETE, QGD, START, case};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::chessmove::Move;
use crate::movegen::{Generator, Legality, MoveList};
use crate::piece::{Color, Role, RoleSet};
use crate::rules::dice::{OutcomeList, fair_dice};
use crate::rules::micro::{Die, MicroPosition, MicroRules};
use crate::rules::{EndReason, GameEnd, GameResult};
use crate::values::PieceValues;
use arrayvec::ArrayVec;

/// Appends each die's piece type's moves and en passant (castling apart): a micro-move per die.
pub(crate) fn die_moves(pos: &MicroPosition, out: &mut MoveList) {
    let generator = Generator::new(&pos.board, Legality::PseudoLegal);
    for role in pos.dice.roles() {
        generator.role_moves(role, out);
    }
    if pos.dice.has(Role::Pawn) {
        pos.en_passant_captures(out);
    }
}

/// Dice rolled at the start of a turn.
pub const DICE: usize = 3;

/// The rules of dicechess.com.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct DiceChess3;

/// `alea bench`'s dicechess3 positions: after a roll (the turn's micro-moves to choose) and
/// before it (all 56 outcomes), searched one turn deep by default (two turns take a minute).
const BENCH: [BenchCase; 8] = [
    case("dicechess3 start, 1 2 3", START, &[1, 2, 3]),
    case("dicechess3 kiwipete, 1 2 3", KIWIPETE, &[1, 2, 3]),
    case("dicechess3 queen's gambit, 2 4 5", QGD, &[2, 4, 5]),
    case("dicechess3 giuoco piano, 1 3 5", GIUOCO, &[1, 3, 5]),
    case("dicechess3 rook ending, 1 4 6", "8/5pk1/6p1/8/3R4/6P1/5PK1/3r4 w - - 0 40", &[1, 4, 6]),
    case("dicechess3 king hunt", "4k3/8/8/8/4B3/8/8/K3R3 w - - 0 1", &[]),
    case("dicechess3 king and pawn", "8/8/4k3/8/2K5/3P4/8/8 w - - 0 50", &[]),
    case("dicechess3 start", START, &[]),
];

impl MicroRules for DiceChess3 {
    type Board = Board;
    type Eval = crate::eval::StaticEval;

    fn evaluation(&self, params: crate::params::EvalParams) -> crate::eval::StaticEval {
        crate::eval::StaticEval::new(params)
    }

    fn parse_dfen(&self, text: &str) -> Result<MicroPosition, String> {
        crate::rules::dfen::parse(self, text)
    }

    fn dfen(&self, pos: &MicroPosition) -> String {
        crate::rules::dfen::write(pos)
    }

    fn startpos(&self) -> MicroPosition {
        MicroPosition::new(Board::startpos(), Bitboard::EMPTY)
    }

    /// The rules give no values: chess's 1/3/3/5/9 (the king is never counted: taking it ends the
    /// game).
    fn piece_values(&self) -> PieceValues {
        PieceValues([100, 300, 300, 500, 900, 0])
    }

    /// Tables fitted to 30,000 self-play games (depth 1); they won their SPRT against the 1/3/3/5/9
    /// start (+40 Elo [+13, +68] at 50 ms a turn, README).
    fn default_eval(&self) -> crate::params::EvalParams {
        static FITTED: std::sync::OnceLock<crate::params::EvalParams> = std::sync::OnceLock::new();
        crate::params::EvalParams::adopted(&FITTED, include_str!("../../data/dicechess3.eval"))
    }

    fn name(&self) -> &'static str {
        "dicechess3"
    }

    fn bench_suite(&self) -> BenchSuite {
        BenchSuite { depth: 1, cases: &BENCH }
    }

    /// The king falls early: the mean own turns left over self-play positions is 8.4 (19,500
    /// games of `alea tune datagen --nodes 30000`).
    fn clock_turns(&self) -> Option<u32> {
        Some(8)
    }

    fn dice(&self) -> usize {
        DICE
    }

    /// The 56 outcomes of three dice; none once the game is over.
    fn outcomes(&self, pos: &MicroPosition) -> OutcomeList {
        if self.end(pos).is_some() { OutcomeList::new() } else { fair_dice(DICE) }
    }

    /// A captured king, or a hundred turns without a capture or a pawn move.
    fn end(&self, pos: &MicroPosition) -> Option<GameEnd> {
        if let Some(loser) = Color::ALL.into_iter().find(|&c| pos.board.pieces(c, Role::King).is_empty()) {
            return Some(GameEnd { result: GameResult::Win(!loser), reason: EndReason::KingCapture });
        }
        if !pos.in_turn() && pos.board.halfmove_clock() >= 100 {
            return Some(GameEnd { result: GameResult::Draw, reason: EndReason::FiftyMoveRule });
        }
        None
    }

    fn micro_moves(&self, pos: &MicroPosition, out: &mut MoveList) {
        die_moves(pos, out);
        if pos.dice.has(Role::Rook) && pos.dice.has(Role::King) {
            Generator::new(&pos.board, Legality::PseudoLegal).castles(out);
        }
    }

    fn micro_captures(&self, pos: &MicroPosition, out: &mut MoveList) {
        let roles = pos.dice.roles().fold(RoleSet::EMPTY, RoleSet::with);
        Generator::new(&pos.board, Legality::PseudoLegal).captures(roles, out);
        if pos.dice.has(Role::Pawn) {
            pos.en_passant_captures(out);
        }
    }

    fn spent(&self, pos: &MicroPosition, m: Move) -> ArrayVec<Die, 2> {
        let mut dice = ArrayVec::new();
        if m.is_castle() {
            dice.push(Die::Piece(Role::Rook));
            dice.push(Die::Piece(Role::King));
        } else {
            dice.push(Die::Piece(pos.board.role_at(m.from()).expect("a piece on the move's origin")));
        }
        dice
    }
}
