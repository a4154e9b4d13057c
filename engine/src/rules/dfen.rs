//! DFEN, the position of a variant of several moves a turn as text: a FEN whose en-passant field
//! may list several squares joined (`g3h3`: the targets of the last turn's double steps) and whose
//! optional 7th field holds the dice still to use in a turn in progress, as piece letters in the
//! order P N B R Q K, upper case on White's turn and lower case on Black's (`PNB`, `brk`).

use crate::board::Board;
use crate::board::bitboard::Bitboard;
use crate::board::piece::{Color, Role};
use crate::board::square::Square;
use crate::rules::GameError;
use crate::rules::micro::{DicePool, MicroPosition, MicroRules};

/// Reads a DFEN under `rules` (how many dice a turn has; whether the game is over).
pub fn parse<R: MicroRules<Board = Board> + ?Sized>(rules: &R, text: &str) -> Result<MicroPosition, GameError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < 4 || fields.len() > 7 {
        return Err(GameError::Position(format!(
            "invalid DFEN {:?}: expected placement, side, castling, en passant, the clocks and the dice",
            text.trim()
        )));
    }
    let mut fen: Vec<&str> = fields.iter().take(6).copied().collect();
    fen[3] = "-";
    let board = Board::from_fen(&fen.join(" "))?;
    let us = board.turn();
    crate::rules::common::king_capture_kings(&board).map_err(|e| GameError::Position(format!("invalid DFEN: {e}")))?;
    let ep_targets = parse_targets(fields[3], &board)?;
    let mut pos = MicroPosition::new(board, ep_targets);
    if let Some(&field) = fields.get(6)
        && field != "-"
    {
        // gollon2: the turn's piece, once it has moved, after an `@`.
        let (dice, mover) = match field.split_once('@') {
            Some((dice, sq)) if rules.one_piece_turns() => {
                let sq = Square::parse(sq)
                    .ok_or_else(|| GameError::Position(format!("invalid DFEN: {sq:?} is not a square")))?;
                (dice, Some(sq))
            }
            Some(_) => {
                return Err(GameError::Position(format!(
                    "invalid DFEN: {field:?}: {} has no turn made by one piece to name (@)",
                    rules.name()
                )));
            }
            None => (field, None),
        };
        pos.dice = DicePool::parse_letters(dice, us, rules.pool_size(), rules.dice_letters())
            .map_err(|e| GameError::Position(format!("invalid DFEN: {e}")))?;
        if rules.one_piece_turns() {
            pos.dice = pos.dice.of_one_piece();
            let piece_dice = Role::ALL.into_iter().map(|r| usize::from(pos.dice.count(r))).sum::<usize>();
            match mover {
                None if piece_dice != 1 => {
                    return Err(GameError::Position(format!(
                        "invalid DFEN: {dice:?} needs one piece die (the turn's first micro-move)"
                    )));
                }
                Some(sq) if piece_dice != 0 || pos.board.piece_at(sq).is_none_or(|p| p.color != us) => {
                    return Err(GameError::Position(format!(
                        "invalid DFEN: {field:?}: the turn's piece on {sq}, and no piece die"
                    )));
                }
                _ => {}
            }
            pos.mover = mover;
        }
    }
    if pos.in_turn() && rules.end(&pos).is_some() {
        return Err(GameError::Position("invalid DFEN: dice to use in a finished game".into()));
    }
    Ok(pos)
}

/// The position as DFEN (the dice field only during a turn).
pub fn write(pos: &MicroPosition) -> String {
    let fen = pos.board.fen();
    let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
    let targets: String = pos.ep_targets.into_iter().map(|sq| sq.to_string()).collect();
    fields[3] = if targets.is_empty() { "-".into() } else { targets };
    if pos.in_turn() {
        let mover = pos.mover.map_or(String::new(), |sq| format!("@{sq}"));
        fields.push(format!("{}{mover}", pos.dice.letters(pos.turn())));
    }
    fields.join(" ")
}

/// En-passant targets of a DFEN: squares behind a pawn of the side that just moved, which
/// stands where its double step arrived.
fn parse_targets(field: &str, board: &Board) -> Result<Bitboard, GameError> {
    if field == "-" {
        return Ok(Bitboard::EMPTY);
    }
    if !field.len().is_multiple_of(2) || field.len() > 16 {
        return Err(GameError::Position(format!("invalid DFEN: en-passant field {field:?} is not a list of squares")));
    }
    let them = !board.turn();
    let (target_rank, arrival_rank) = if them == Color::White { (2, 3) } else { (5, 4) };
    let mut targets = Bitboard::EMPTY;
    for i in (0..field.len()).step_by(2) {
        let name = field
            .get(i..i + 2)
            .ok_or_else(|| GameError::Position(format!("invalid DFEN: en-passant field {field:?}")))?;
        let sq = Square::parse(name)
            .ok_or_else(|| GameError::Position(format!("invalid DFEN: {name:?} is not a square")))?;
        let arrival = Square::from_coords(sq.file(), arrival_rank);
        if sq.rank() != target_rank || !board.pieces(them, Role::Pawn).contains(arrival) {
            return Err(GameError::Position(format!(
                "invalid DFEN: en-passant target {sq} has no {} pawn in front of it",
                them.name()
            )));
        }
        targets |= Bitboard::from_square(sq);
    }
    Ok(targets)
}
