//! `brainking10`: BrainKing's one-die rules on a 10x10 board with three kings a side (source
//! 001; docs/variants.md). No check: any pseudo-legal move; only faces with a move are ever
//! rolled; a pawn promotes on a 1 (to any piece) or on the face of the piece it becomes; pawns
//! double-step with en passant; no castling. Capturing all three enemy kings wins: a side keeps
//! playing while it has a king left.

use super::dice::{OutcomeList, Roll, one_die};
use super::{EndReason, GameEnd, GameResult, OutcomeMask, Rules, TurnList, TurnTable};
use crate::board::big::{BigBoard, BigMove, BigSpec, BigSquare};
use crate::board::piece::{Color, Piece};
use crate::board::values::PieceValues;
use crate::rules::GameError;
use crate::rules::one_turn::{OneTurnRules, TurnRoles};
use std::sync::atomic::AtomicBool;

/// The board: 10x10, three kings a side, pawns double-step (with en passant).
pub const SPEC: BigSpec = BigSpec { files: 10, ranks: 10, kings: 3, double_step: true };

/// The start: three kings in the middle of the back rank.
pub const START: &str = "rnbqkkkbnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBQKKKBNR w - - 0 1";

/// The rules of BrainKing on 10x10.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct BrainKing10;

impl BrainKing10 {
    /// The start position.
    pub fn start(&self) -> BigBoard {
        BigBoard::from_fen(START, SPEC).expect("the start is a position")
    }

    /// The die faces (bit `face - 1`) that allow `m`: its piece's face, and for a promotion the
    /// pawn's face and the face of the piece made.
    fn faces_of(board: &BigBoard, m: BigMove) -> u8 {
        let role = board.piece_at(m.from).expect("a move starts on a piece").role;
        match m.promotion {
            Some(made) => 1 | 1 << made.index(),
            None => 1 << role.index(),
        }
    }

    /// The turn table from the side to move's `moves`: the faces with a move (each equally
    /// likely) and, per move, the faces that allow it.
    fn fill_table(board: &BigBoard, moves: &[BigMove], table: &mut TurnTable<BigMove>) {
        let playable = moves.iter().fold(0u8, |acc, &m| acc | BrainKing10::faces_of(board, m));
        if playable == 0 {
            table.outcomes.extend(one_die());
            table.push(BigMove::NULL, table.all_outcomes());
            return;
        }
        let mut index = [usize::MAX; 6];
        for outcome in one_die() {
            let f = usize::from(outcome.roll.faces()[0]) - 1;
            if playable >> f & 1 == 1 {
                index[f] = table.outcomes.len();
                table.outcomes.push(outcome);
            }
        }
        let probability = 1.0 / table.outcomes.len() as f64;
        for o in table.outcomes.iter_mut() {
            o.probability = probability;
        }
        for &m in moves {
            let faces = BrainKing10::faces_of(board, m);
            let mask = (0..6).filter(|f| faces >> f & 1 == 1).fold(0 as OutcomeMask, |acc, f| acc | 1 << index[f]);
            table.push(m, mask);
        }
    }
}

impl Rules for BrainKing10 {
    type Position = BigBoard;
    type Turn = BigMove;

    fn name(&self) -> &'static str {
        "brainking10"
    }

    /// BrainKing's 1/3/3/5/9; a king 1000: losing one of three is a heavy blow, not the game.
    fn piece_values(&self) -> PieceValues {
        PieceValues([100, 300, 300, 500, 900, 1000])
    }

    /// A position whose moves would not fit a turn list (a dozen queens) is refused rather
    /// than played.
    fn validate(&self, board: &BigBoard) -> Result<(), GameError> {
        for side in [board.clone(), board.pass()] {
            let count = side.with_moves(|moves| moves.len());
            if count > crate::board::movegen::MAX_MOVES {
                return Err(GameError::Position(format!(
                    "{} would have {count} moves here; the engine handles at most {}",
                    side.turn().name(),
                    crate::board::movegen::MAX_MOVES
                )));
            }
        }
        Ok(())
    }

    fn dice(&self) -> usize {
        1
    }

    fn pre_roll_turns(&self, _board: &BigBoard, _out: &mut TurnList<BigMove>) {}

    /// Uniform over the faces that allow a move; if none does, every face (each a pass).
    fn outcomes(&self, board: &BigBoard, out: &mut OutcomeList) {
        let mut table = TurnTable::new();
        self.turn_table(board, &mut table);
        out.extend(table.outcomes);
    }

    fn allowed_turns(&self, board: &BigBoard, roll: &Roll, out: &mut TurnList<BigMove>) {
        let face = roll.faces()[0];
        board.with_moves(|moves| {
            out.extend(moves.iter().copied().filter(|&m| BrainKing10::faces_of(board, m) >> (face - 1) & 1 == 1));
        });
        if out.is_empty() {
            out.push(BigMove::NULL);
        }
    }

    fn any_turns(&self, board: &BigBoard, out: &mut TurnList<BigMove>) {
        board.with_moves(|moves| out.extend(moves.iter().copied()));
        if out.is_empty() {
            out.push(BigMove::NULL);
        }
    }

    /// One generation of every move; faces with no move drop out of the roll.
    fn turn_table(&self, board: &BigBoard, table: &mut TurnTable<BigMove>) {
        table.clear();
        if self.end(board).is_some() {
            return;
        }
        board.with_moves(|moves| BrainKing10::fill_table(board, moves, table));
    }

    fn play(&self, board: &BigBoard, m: BigMove) -> BigBoard {
        if m == BigMove::NULL { board.pass() } else { board.play(m) }
    }

    /// All three kings of a side taken: the other wins; fifty moves of each side with no capture
    /// or pawn move: a draw.
    fn end(&self, board: &BigBoard) -> Option<GameEnd> {
        if let Some(loser) = Color::ALL.into_iter().find(|&c| board.kings(c) == 0) {
            return Some(GameEnd { result: GameResult::Win(!loser), reason: EndReason::KingCapture });
        }
        (board.halfmove_clock() >= 100)
            .then_some(GameEnd { result: GameResult::Draw, reason: EndReason::FiftyMoveRule })
    }

    fn hash(&self, board: &BigBoard) -> u64 {
        board.hash()
    }

    fn reversible_plies(&self, board: &BigBoard) -> u32 {
        board.halfmove_clock()
    }

    fn turn(&self, board: &BigBoard) -> Color {
        board.turn()
    }

    fn in_check(&self, _board: &BigBoard) -> bool {
        false
    }

    fn turn_to_uci(&self, m: BigMove) -> String {
        m.to_string()
    }

    fn parse_turn(&self, board: &BigBoard, text: &str) -> Option<BigMove> {
        if text == "0000" { Some(BigMove::NULL) } else { BigMove::parse(board, text) }
    }
}

/// What front ends see: the 10x10 board's FEN, squares up to `j10` and SAN, searched with the
/// big board's evaluation.
impl OneTurnRules for BrainKing10 {
    fn start_position(&self) -> BigBoard {
        self.start()
    }

    fn parse_fen(&self, text: &str) -> Result<BigBoard, GameError> {
        Ok(BigBoard::from_fen(text, SPEC)?)
    }

    fn fen(&self, board: &BigBoard) -> String {
        board.fen()
    }

    fn size(&self) -> (u8, u8) {
        (SPEC.files, SPEC.ranks)
    }

    fn piece_at(&self, board: &BigBoard, file: u8, rank: u8) -> Option<Piece> {
        board.piece_at(BigSquare::new(file, rank))
    }

    fn fullmove(&self, board: &BigBoard) -> u32 {
        board.fullmove_number()
    }

    fn san(&self, board: &BigBoard, m: BigMove, candidates: &[BigMove]) -> String {
        crate::board::big::san::to_san(board, m, candidates)
    }

    fn parse_san(&self, board: &BigBoard, text: &str, candidates: &[BigMove]) -> Option<BigMove> {
        crate::board::big::san::from_san(board, text, candidates)
    }

    fn turn_roles(&self, board: &BigBoard, m: BigMove) -> TurnRoles {
        if m == BigMove::NULL {
            return TurnRoles::default();
        }
        TurnRoles {
            mover: board.piece_at(m.from).map(|p| p.role),
            captured: board.captured(m).map(|p| p.role),
            promotion: m.promotion,
        }
    }

    fn perft_divide(
        &self,
        board: &BigBoard,
        depth: u32,
        stop: &AtomicBool,
        counted: &mut dyn FnMut(&str, u64),
    ) -> Result<bool, GameError> {
        Ok(crate::board::big::perft::divide_until(board, depth, stop, |m, n| counted(&m.to_string(), n)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> BigBoard {
        BigBoard::from_fen(fen, SPEC).unwrap()
    }

    fn allowed(b: &BigBoard, face: u8) -> Vec<String> {
        let mut out = TurnList::new();
        BrainKing10.allowed_turns(b, &Roll::new(&[face]).unwrap(), &mut out);
        let mut names: Vec<String> = out.iter().map(|m| m.to_string()).collect();
        names.sort();
        names
    }

    #[test]
    fn only_faces_with_a_move_are_rolled() {
        // At the start only pawns and knights can move: two faces, a half each.
        let mut outcomes = OutcomeList::new();
        BrainKing10.outcomes(&BrainKing10.start(), &mut outcomes);
        let faces: Vec<u8> = outcomes.iter().map(|o| o.roll.faces()[0]).collect();
        assert_eq!(faces, [1, 2]);
        assert!(outcomes.iter().all(|o| (o.probability - 0.5).abs() < 1e-12));
        assert_eq!(allowed(&BrainKing10.start(), 2), ["b1a3", "b1c3", "i1h3", "i1j3"]);
        // A face with no move allows only the pass (`legalmoves roll` answers 0000).
        assert_eq!(allowed(&BrainKing10.start(), 5), ["0000"]);
    }

    #[test]
    fn a_pawn_promotes_on_a_one_or_on_the_face_of_the_piece_it_becomes() {
        let b = board("1r6k1/P9/10/10/10/10/10/10/10/K9 w - - 0 1");
        assert_eq!(allowed(&b, 1).len(), 8, "{:?}", allowed(&b, 1));
        assert_eq!(allowed(&b, 2), ["a9a10n", "a9b10n"]);
        assert_eq!(allowed(&b, 5), ["a9a10q", "a9b10q"]);
        assert_eq!(allowed(&b, 6), ["a1a2", "a1b1", "a1b2"]);
    }

    #[test]
    fn the_game_goes_on_until_the_last_king_falls() {
        let rules = BrainKing10;
        // Black's rook takes one of three kings: the game goes on; the last one ends it.
        let b = board("k9/10/10/10/10/10/10/10/10/K1K1Kr4 b - - 0 1");
        let one = rules.play(&b, rules.parse_turn(&b, "f1e1").unwrap());
        assert_eq!((one.kings(Color::White), rules.end(&one)), (2, None));
        let b = board("k9/10/10/10/10/10/10/10/10/4Kr4 b - - 0 1");
        let last = rules.play(&b, rules.parse_turn(&b, "f1e1").unwrap());
        assert_eq!(
            rules.end(&last),
            Some(GameEnd { result: GameResult::Win(Color::Black), reason: EndReason::KingCapture })
        );
        // Fifty moves of each side without a capture or a pawn move draw.
        let quiet = board("k9/10/10/10/10/10/10/10/10/K9 w - - 100 80");
        assert_eq!(rules.end(&quiet).map(|e| e.reason), Some(EndReason::FiftyMoveRule));
        // A pass keeps the position and hands the turn over.
        let passed = rules.play(&b, BigMove::NULL);
        assert_eq!(passed.fen(), "k9/10/10/10/10/10/10/10/10/4Kr4 w - - 1 2");
        assert_eq!(passed.hash(), passed.hash_from_scratch());
    }
}
