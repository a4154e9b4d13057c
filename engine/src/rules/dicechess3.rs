//! `dicechess3`: the rules of dicechess.com (shared/RULES.md). Three dice, a micro-move per die
//! (the die's face is the moving piece's type), no check, the king captured to win, the maximum
//! rule, castling on a 4 and a 6 together, several en-passant targets, and DFEN (a FEN whose
//! en-passant field may list several squares and whose 7th field holds the dice left).

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::chessmove::Move;
use crate::movegen::{Generator, Legality, MoveList};
use crate::piece::{Color, Role};
use crate::rules::dice::{OutcomeList, fair_dice};
use crate::rules::micro::{DicePool, MicroPosition, MicroRules};
use crate::rules::{EndReason, GameEnd, GameResult};
use crate::square::Square;
use arrayvec::ArrayVec;

/// Dice rolled at the start of a turn.
pub const DICE: usize = 3;

/// The rules of dicechess.com.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct DiceChess3;

impl MicroRules for DiceChess3 {
    fn name(&self) -> &'static str {
        "dicechess3"
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
        let generator = Generator::new(&pos.board, Legality::PseudoLegal);
        for role in pos.dice.roles() {
            generator.role_moves(role, out);
        }
        if pos.dice.has(Role::Pawn) {
            pos.en_passant_captures(out);
        }
        if pos.dice.has(Role::Rook) && pos.dice.has(Role::King) {
            generator.castles(out);
        }
    }

    fn spent(&self, pos: &MicroPosition, m: Move) -> ArrayVec<Role, 2> {
        let mut dice = ArrayVec::new();
        if m.is_castle() {
            dice.push(Role::Rook);
            dice.push(Role::King);
        } else {
            dice.push(pos.board.role_at(m.from()).expect("a piece on the move's origin"));
        }
        dice
    }
}

impl DiceChess3 {
    /// The start position.
    pub fn startpos(&self) -> MicroPosition {
        MicroPosition::new(Board::startpos(), Bitboard::EMPTY)
    }

    /// Reads a DFEN: a FEN whose en-passant field may list several squares (`g3h3`) and whose
    /// optional 7th field is the dice still to use (`PNB` on White's turn, `brk` on Black's).
    pub fn parse_dfen(&self, text: &str) -> Result<MicroPosition, String> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() < 4 || fields.len() > 7 {
            return Err(format!(
                "invalid DFEN {:?}: expected placement, side, castling, en passant, the clocks and the dice",
                text.trim()
            ));
        }
        let mut fen: Vec<&str> = fields.iter().take(6).copied().collect();
        fen[3] = "-";
        let board = Board::from_fen(&fen.join(" ")).map_err(|e| e.to_string())?;
        let us = board.turn();
        for color in Color::ALL {
            if board.pieces(color, Role::King).count() > 1 {
                return Err(format!("invalid DFEN: {} has more than one king", color.name()));
            }
        }
        let ep_targets = parse_targets(fields[3], &board)?;
        let mut pos = MicroPosition::new(board, ep_targets);
        if let Some(&dice) = fields.get(6)
            && dice != "-"
        {
            pos.dice = DicePool::parse_letters(dice, us, DICE).map_err(|e| format!("invalid DFEN: {e}"))?;
        }
        if pos.in_turn() && self.end(&pos).is_some() {
            return Err("invalid DFEN: dice to use in a finished game".into());
        }
        Ok(pos)
    }

    /// The position as DFEN (the dice field only during a turn).
    pub fn dfen(&self, pos: &MicroPosition) -> String {
        let fen = pos.board.fen();
        let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
        let targets: String = pos.ep_targets.into_iter().map(|sq| sq.to_string()).collect();
        fields[3] = if targets.is_empty() { "-".into() } else { targets };
        if pos.in_turn() {
            fields.push(pos.dice.letters(pos.turn()));
        }
        fields.join(" ")
    }
}

/// En-passant targets of a DFEN: squares behind a pawn of the side that just moved, which
/// stands where its double step arrived.
fn parse_targets(field: &str, board: &Board) -> Result<Bitboard, String> {
    if field == "-" {
        return Ok(Bitboard::EMPTY);
    }
    if !field.len().is_multiple_of(2) || field.len() > 16 {
        return Err(format!("invalid DFEN: en-passant field {field:?} is not a list of squares"));
    }
    let them = !board.turn();
    let (target_rank, arrival_rank) = if them == Color::White { (2, 3) } else { (5, 4) };
    let mut targets = Bitboard::EMPTY;
    for i in (0..field.len()).step_by(2) {
        let name = field.get(i..i + 2).ok_or_else(|| format!("invalid DFEN: en-passant field {field:?}"))?;
        let sq = Square::parse(name).ok_or_else(|| format!("invalid DFEN: {name:?} is not a square"))?;
        let arrival = Square::from_coords(sq.file(), arrival_rank);
        if sq.rank() != target_rank || !board.pieces(them, Role::Pawn).contains(arrival) {
            return Err(format!("invalid DFEN: en-passant target {sq} has no {} pawn in front of it", them.name()));
        }
        targets |= Bitboard::from_square(sq);
    }
    Ok(targets)
}
