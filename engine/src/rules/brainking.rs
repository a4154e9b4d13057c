//! `brainking`: BrainKing's one-die chess. No check: any pseudo-legal move, capturing the king
//! wins; only faces with a move are ever rolled; a pawn may promote on a 1 (to any piece) or on
//! the face of the piece it becomes.

use super::common::{automatic_draw, king_capture_kings, king_captured, no_recapture};
use super::dice::{Outcome, OutcomeList, Roll, dice_outcomes, one_die};
use super::{GameEnd, OutcomeMask, Position, Rules, TurnList, TurnTable, chess_rules_common};
use crate::board::chessmove::Move;
use crate::board::movegen::{Generator, Legality, MoveList, generate, generate_promotions};
use crate::board::piece::{Role, RoleSet};
use crate::board::values::PieceValues;

/// The BrainKing rules.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct BrainKing {
    /// Castling is written king-takes-rook (UCI_Chess960).
    pub chess960: bool,
}

impl BrainKing {
    /// The moves a face allows, with no pass added (empty when the face has none).
    pub fn moves_for_face(pos: &Position, face: u8, out: &mut TurnList<Move>) {
        let board = &pos.board;
        let role = Role::from_face(face).expect("faces are checked by the caller");
        generate(board, RoleSet::single(role), Legality::PseudoLegal, out);
        if matches!(role, Role::Knight | Role::Bishop | Role::Rook | Role::Queen) {
            generate_promotions(board, Some(role), Legality::PseudoLegal, out);
        }
    }
}

impl Rules for BrainKing {
    chess_rules_common!();

    fn in_check(&self, pos: &Position) -> bool {
        let _ = pos;
        false
    }

    fn name(&self) -> &'static str {
        "brainking"
    }

    /// The usual 1/3/3/5/9, until tuned; the king is capturable.
    fn piece_values(&self) -> PieceValues {
        PieceValues([100, 300, 300, 500, 900, 2000])
    }

    /// Any number of kings (a captured one has ended the game); no rule state but the board.
    fn validate(&self, pos: &Position) -> Result<(), crate::rules::GameError> {
        no_recapture(pos)?;
        king_capture_kings(&pos.board)
    }

    fn dice(&self) -> usize {
        1
    }

    fn pre_roll_turns(&self, _pos: &Position, _out: &mut TurnList<Move>) {}

    /// Uniform over the faces that allow a move; if none does, every face (each a pass).
    fn outcomes(&self, pos: &Position, out: &mut OutcomeList) {
        if self.end(pos).is_some() {
            return;
        }
        let mut list = TurnList::new();
        for &outcome in dice_outcomes(1) {
            list.clear();
            BrainKing::moves_for_face(pos, outcome.roll.faces()[0], &mut list);
            if !list.is_empty() {
                out.push(outcome);
            }
        }
        if out.is_empty() {
            out.extend(one_die());
        }
        let probability = 1.0 / out.len() as f64;
        for Outcome { probability: p, .. } in out.iter_mut() {
            *p = probability;
        }
    }

    fn allowed_turns(&self, pos: &Position, roll: &Roll, out: &mut TurnList<Move>) {
        BrainKing::moves_for_face(pos, roll.faces()[0], out);
        if out.is_empty() {
            out.push(Move::NULL);
        }
    }

    fn any_turns(&self, pos: &Position, out: &mut TurnList<Move>) {
        generate(&pos.board, RoleSet::ALL, Legality::PseudoLegal, out);
        if out.is_empty() {
            out.push(Move::NULL);
        }
    }

    /// One generation of every pseudo-legal move; faces with no move drop out of the roll.
    fn turn_table(&self, pos: &Position, table: &mut TurnTable<Move>) {
        let board = &pos.board;
        let mut moves = MoveList::new();
        generate(board, RoleSet::ALL, Legality::PseudoLegal, &mut moves);
        let playable = moves.iter().fold(0u8, |acc, &m| acc | faces_of(board, m));
        // Faces with moves other than castling; a face that only castles allows what the other
        // castling face allows if that one only castles too.
        let own = moves.iter().filter(|m| !m.is_castle()).fold(0u8, |acc, &m| acc | faces_of(board, m));
        fill_table(board, &moves, playable, own, table);
        if playable == 0 {
            table.push(Move::NULL, table.all_outcomes());
        }
    }

    /// Only the captures (the king's too) and promotions are listed; which faces stay in the
    /// roll (those with a move) is asked piece type by piece type, stopping at a first move.
    fn tactical_table(&self, pos: &Position, table: &mut TurnTable<Move>) {
        let board = &pos.board;
        let generator = Generator::new(board, Legality::PseudoLegal);
        let mut moves = MoveList::new();
        generator.captures(RoleSet::ALL, &mut moves);
        let tactical = moves.iter().fold(0u8, |acc, &m| acc | faces_of(board, m));
        let mut playable = tactical;
        for role in Role::ALL {
            if playable >> role.index() & 1 == 0 && generator.role_can_move(role) {
                playable |= 1 << role.index();
            }
        }
        // A king that can castle can step towards its rook; a rook may have no move but castling.
        if playable >> Role::Rook.index() & 1 == 0 {
            let mut castles = MoveList::new();
            generator.castles(&mut castles);
            if !castles.is_empty() {
                playable |= 1 << Role::Rook.index() | 1 << Role::King.index();
            }
        }
        // Faces with nothing to take all stand pat alike.
        fill_table(board, &moves, playable, tactical, table);
    }

    fn play(&self, pos: &Position, m: Move) -> Position {
        let mut board = pos.board.clone();
        board.play(m);
        Position::new(board)
    }

    fn end(&self, pos: &Position) -> Option<GameEnd> {
        king_captured(&pos.board).or_else(|| automatic_draw(&pos.board, false))
    }
}

/// Fills `table` with the outcomes of the `playable` faces (bit f-1; none: all six, each then
/// passing) and `moves`, each allowed by its faces. Outcomes get a set key of their own where
/// their face is in `keyed` (faces' moves never overlap: each is its role's, or its promotions),
/// and one key shared by the rest.
fn fill_table(board: &crate::board::Board, moves: &MoveList, playable: u8, keyed: u8, table: &mut TurnTable<Move>) {
    table.clear();
    let playable = if playable == 0 { 0b11_1111 } else { playable };
    // Outcome index of each playable face.
    let mut index = [usize::MAX; 6];
    for &outcome in dice_outcomes(1) {
        let f = outcome.roll.faces()[0] as usize - 1;
        if playable >> f & 1 == 1 {
            index[f] = table.outcomes.len();
            table.outcomes.push(outcome);
            table.set_keys.push(if keyed >> f & 1 == 1 { f as u64 } else { 100 });
        }
    }
    let probability = 1.0 / table.outcomes.len() as f64;
    for o in table.outcomes.iter_mut() {
        o.probability = probability;
    }
    for &m in moves {
        let faces = faces_of(board, m);
        let mask = (0..6).filter(|f| faces >> f & 1 == 1).fold(0 as OutcomeMask, |acc, f| acc | 1 << index[f]);
        table.push(m, mask);
    }
}

/// The faces (bit f-1) allowing a move: its piece's, and a promotion's piece's too (with the
/// pawn's); castling, the king's and the rook's.
fn faces_of(board: &crate::board::Board, m: Move) -> u8 {
    match m.promotion_role() {
        Some(p) => 1 | 1 << p.index(),
        None => {
            let role = board.role_at(m.from()).expect("a piece moves");
            let castle = if m.is_castle() { 1 << Role::Rook.index() } else { 0 };
            1 << role.index() | castle
        }
    }
}
