//! `grand`: Grand Dice Chess (source 004, docs/variants.md). A 12x12 board with four kings a side,
//! four dice a turn (126 outcomes), a micro-move per die whose face is the moving piece's type,
//! in any order. Non-pawn dice may be left unused; a pawn die must be used while a pawn
//! micro-move exists (so the turn may stop at any point, `0000` included, unless an unused pawn
//! die could still move a pawn). Pawns step one square (no double step, no en passant) and
//! promote on the last rank to a knight, bishop, rook or queen, which may move later in the turn
//! with its own die. No castling, no check. Taking a king that is not the last does not end the
//! turn; taking all four wins. Draws as in `dicechess3`.

use crate::board::big::{BigBoard, BigMove, BigSpec};
use crate::board::micro_board::MicroBoard;
use crate::board::piece::{Color, Role};
use crate::board::values::PieceValues;
use crate::rules::dice::{OutcomeList, fair_dice};
use crate::rules::micro::{DicePool, Die, MicroPosition, MicroRules, MovesOf};
use crate::rules::{EndReason, GameEnd, GameError, GameResult};
use arrayvec::ArrayVec;

/// Dice rolled at the start of a turn.
pub const DICE: usize = 4;

/// The board: 12x12, four kings a side, pawns step one square.
pub const SPEC: BigSpec = BigSpec { files: 12, ranks: 12, kings: 4, double_step: false };

/// The start position (docs/variants.md).
pub const START: &str = "r2rq2qr2r/nnbb1kk1bbnn/nnbb1kk1bbnn/r2rq2qr2r/pppppppppppp/pppppppppppp/PPPPPPPPPPPP/PPPPPPPPPPPP/R2RQ2QR2R/NNBB1KK1BBNN/NNBB1KK1BBNN/R2RQ2QR2R w - - 0 1";

/// A middlegame: pawns traded, a queen and a king of each side taken.
pub const MIDDLEGAME: &str = "r2rq2qr2r/nnbb1k2bbnn/nnbb1kk1bbnn/r2rq3r2r/pp1ppp1ppppp/2p3p5/4P2P4/PP1PP1PPPP2/R2RQ3R2R/NNBB1KK1BBNN/NNBB1K2BBNN/R2RQ2QR2R w - - 0 20";

/// Grand Dice Chess.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Grand;

impl MicroRules for Grand {
    type Board = BigBoard;
    fn name(&self) -> &'static str {
        "grand"
    }

    fn startpos(&self) -> MicroPosition<BigBoard> {
        MicroPosition::new(BigBoard::from_fen(START, SPEC).expect("the start position reads"), ())
    }

    /// The source gives no values: chess's 1/3/3/5/9 (a king counted as nothing: the search
    /// sees the loss of the last one as the game's).
    fn piece_values(&self) -> PieceValues {
        PieceValues([100, 300, 300, 500, 900, 0])
    }

    /// A 12x12 FEN (no castling, no en passant) and, in a turn in progress, a 7th field with the
    /// dice left as piece letters (`PPNQ`; lower case on Black's turn).
    fn parse_dfen(&self, text: &str) -> Result<MicroPosition<BigBoard>, GameError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() < 4 || fields.len() > 7 {
            return Err(GameError::Position(format!(
                "invalid DFEN {:?}: expected placement, side, castling, en passant, the clocks and the dice",
                text.trim()
            )));
        }
        if fields[2] != "-" {
            return Err(GameError::Position(format!(
                "invalid DFEN: grand has no castling, so no castling rights ({:?})",
                fields[2]
            )));
        }
        if fields[3] != "-" {
            return Err(GameError::Position(format!("invalid DFEN: grand has no en passant ({:?})", fields[3])));
        }
        let board = BigBoard::from_fen(&fields[..fields.len().min(6)].join(" "), SPEC)
            .map_err(|e| GameError::Position(format!("invalid DFEN: {e}")))?;
        let mut pos = MicroPosition::new(board, ());
        if let Some(&dice) = fields.get(6)
            && dice != "-"
        {
            pos.dice = DicePool::parse_letters(dice, pos.turn(), DICE, "PNBRQK")
                .map_err(|e| GameError::Position(format!("invalid DFEN: {e}")))?;
        }
        if pos.in_turn() && self.end(&pos).is_some() {
            return Err(GameError::Position("invalid DFEN: the game is over, so no turn is in progress".into()));
        }
        Ok(pos)
    }

    fn dfen(&self, pos: &MicroPosition<BigBoard>) -> String {
        let fen = pos.board.fen();
        if pos.in_turn() { format!("{fen} {}", pos.dice.letters(pos.turn())) } else { fen }
    }

    fn dice(&self) -> usize {
        DICE
    }

    /// The 126 outcomes of four dice; none once the game is over.
    fn outcomes(&self, pos: &MicroPosition<BigBoard>) -> OutcomeList {
        if self.end(pos).is_some() { OutcomeList::new() } else { fair_dice(DICE) }
    }

    /// All four kings of a side taken, or a hundred turns without a capture or a pawn move.
    fn end(&self, pos: &MicroPosition<BigBoard>) -> Option<GameEnd> {
        if let Some(loser) = Color::ALL.into_iter().find(|&c| !pos.board.has_king(c)) {
            return Some(GameEnd { result: GameResult::Win(!loser), reason: EndReason::KingCapture });
        }
        if !pos.in_turn() && pos.board.halfmove_clock() >= 100 {
            return Some(GameEnd { result: GameResult::Draw, reason: EndReason::FiftyMoveRule });
        }
        None
    }

    /// Each die's piece type's moves (a promoted pawn's new piece moves with its own type's die).
    fn micro_moves(&self, pos: &MicroPosition<BigBoard>, out: &mut MovesOf<Grand>) {
        let roles = pos.dice.roles().fold(0u8, |bits, r| bits | 1 << r.index());
        pos.board.role_moves(roles, out);
    }

    fn spent(&self, pos: &MicroPosition<BigBoard>, m: BigMove) -> ArrayVec<Die, 2> {
        let mut dice = ArrayVec::new();
        dice.push(Die::Piece(pos.board.mover_role(m).expect("a piece on the move's origin")));
        dice
    }

    fn dice_optional(&self) -> bool {
        true
    }

    /// Any point of the turn, its start included, unless a pawn die is left and a pawn could
    /// use it.
    fn may_stop(&self, pos: &MicroPosition<BigBoard>, moves: &[BigMove]) -> bool {
        // With a pawn die left, `moves` holds every pawn micro-move.
        !pos.dice.has(Role::Pawn) || !moves.iter().any(|&m| pos.board.mover_role(m) == Some(Role::Pawn))
    }
}
