//! `freedom`: Freedom Dice Chess (Hodgetts & Jeffery). Chess legality, one die, Freedom moves
//! playable without rolling, and unusable rolls reallocated down the order pawn .. king.

use super::common::{
    MovesByRole, RoleOutcomes, automatic_draw, off_turn_side_not_in_check, one_king_each, table_by_role,
};
use super::dice::{OutcomeList, Roll, dice_outcomes, one_die};
use super::{EndReason, GameEnd, GameResult, Position, Rules, TurnList, TurnTable, chess_rules_common};
use crate::board::Board;
use crate::board::chessmove::Move;
use crate::board::movegen::{
    CheckInfo, Generator, Legality, MoveList, checkmating_move, generate, gives_check, has_legal_move, legal_moves,
};
use crate::board::piece::{Role, RoleSet};
use crate::board::values::PieceValues;

/// The Freedom Dice Chess rules.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Freedom {
    /// Castling is written king-takes-rook (UCI_Chess960).
    pub chess960: bool,
}

/// Which Freedom conditions a move meets (a move may meet several).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct FreedomKinds {
    /// It captures the piece that captured on the opponent's last move.
    pub recapture: bool,
    /// The mover is in check (every legal move is free).
    pub defend: bool,
    /// It gives check.
    pub check: bool,
}

impl FreedomKinds {
    pub fn any(self) -> bool {
        self.recapture || self.defend || self.check
    }

    /// The conditions met, by name, in the order PGN comments write them.
    pub fn names(self) -> Vec<&'static str> {
        [(self.recapture, "recapture"), (self.check, "check"), (self.defend, "defend")]
            .into_iter()
            .filter_map(|(on, name)| on.then_some(name))
            .collect()
    }
}

impl Freedom {
    /// Why `m` (a legal move) may be played without rolling, if it may.
    pub fn freedom_kinds(&self, pos: &Position, m: Move) -> FreedomKinds {
        let board = &pos.board;
        FreedomKinds { recapture: is_recapture(pos, m), defend: board.in_check(), check: gives_check(board, m) }
    }

    /// The legal moves of the rolled role, or of the lowest role that has one.
    fn moves_for_face(board: &Board, face: u8, out: &mut TurnList<Move>) {
        let rolled = Role::from_face(face).expect("faces are checked by the caller");
        generate(board, RoleSet::single(rolled), Legality::Legal, out);
        if out.is_empty() {
            for role in Role::ALL {
                if role != rolled {
                    generate(board, RoleSet::single(role), Legality::Legal, out);
                    if !out.is_empty() {
                        return;
                    }
                }
            }
        }
    }
}

/// The Freedom moves among `legal` (every legal move of the position).
fn freedom_set(pos: &Position, legal: &[Move], out: &mut TurnList<Move>) {
    let board = &pos.board;
    if board.in_check() {
        out.extend(legal.iter().copied());
        return;
    }
    let checks = CheckInfo::new(board);
    for &m in legal {
        let role = board.role_at(m.from()).expect("a piece moves");
        if is_recapture(pos, m) || checks.gives_check(board, m, role) {
            out.push(m);
        }
    }
}

fn is_recapture(pos: &Position, m: Move) -> bool {
    pos.recapture.is_some_and(|sq| m.to() == sq && pos.board.is_capture(m))
}

impl Rules for Freedom {
    chess_rules_common!();

    fn in_check(&self, pos: &Position) -> bool {
        pos.board.in_check()
    }

    fn name(&self) -> &'static str {
        "freedom"
    }

    /// From the document: P 1, N 2, B 3, R 4, Q 6.5 (the king is never captured).
    fn piece_values(&self) -> PieceValues {
        PieceValues([100, 200, 300, 400, 650, 0])
    }

    /// Chess's kings; the side that just moved is not in check; a recapture square holds the
    /// piece that just captured.
    fn validate(&self, pos: &Position) -> Result<(), crate::rules::GameError> {
        one_king_each(&pos.board, self.name())?;
        off_turn_side_not_in_check(&pos.board)?;
        if let Some(sq) = pos.recapture
            && pos.board.piece_at(sq).is_none_or(|p| p.color == pos.board.turn())
        {
            return Err(crate::rules::GameError::Position(format!(
                "recapture square {sq} holds no piece of the side that just moved"
            )));
        }
        Ok(())
    }

    fn dice(&self) -> usize {
        1
    }

    fn pre_roll_turns(&self, pos: &Position, out: &mut TurnList<Move>) {
        freedom_set(pos, &legal_moves(&pos.board), out);
    }

    fn pre_roll_from_table(&self, pos: &Position, table: &TurnTable<Move>, out: &mut TurnList<Move>) {
        // The table holds every legal move: each is allowed by its own role's face.
        freedom_set(pos, &table.turns, out);
    }

    fn pre_roll_among(&self, pos: &Position, _table: &TurnTable<Move>, candidates: &[Move], out: &mut TurnList<Move>) {
        // Each legal move is judged on its own: no need to look at the others.
        freedom_set(pos, candidates, out);
    }

    /// Every check is free, so a mate is there whatever the dice.
    fn winning_free_turn(&self, pos: &Position) -> Option<Move> {
        checkmating_move(&pos.board)
    }

    fn outcomes(&self, pos: &Position, out: &mut OutcomeList) {
        if self.end(pos).is_none() {
            out.extend(one_die());
        }
    }

    fn allowed_turns(&self, pos: &Position, roll: &Roll, out: &mut TurnList<Move>) {
        Freedom::moves_for_face(&pos.board, roll.faces()[0], out);
    }

    fn any_turns(&self, pos: &Position, out: &mut TurnList<Move>) {
        generate(&pos.board, RoleSet::ALL, Legality::Legal, out);
    }

    /// One generation of every legal move; each face goes to its role, or down the order.
    fn turn_table(&self, pos: &Position, table: &mut TurnTable<Move>) {
        table.clear();
        let mut moves = MovesByRole::new();
        moves.generate(&pos.board, Legality::Legal);
        let Some(lowest) = Role::ALL.into_iter().find(|&r| moves.can_move(r)) else { return };
        let mut by_role: RoleOutcomes = [0; 6];
        for (i, outcome) in dice_outcomes(1).iter().enumerate() {
            let rolled = Role::from_face(outcome.roll.faces()[0]).expect("a face");
            let role = if moves.can_move(rolled) { rolled } else { lowest };
            by_role[role.index()] |= 1 << i;
            table.outcomes.push(*outcome);
            // The set is the role's own moves, plus castling for a king or rook: a role that
            // only castles allows the same set as the other castling role.
            let own = if moves.by_role[role.index()].is_empty() { 0 } else { 1 << role.index() };
            let castles = matches!(role, Role::King | Role::Rook) && !moves.castles.is_empty();
            table.set_keys.push(own | u64::from(castles) << 6);
        }
        table_by_role(&moves, &by_role, table);
    }

    /// Only the captures and promotions are listed; which roles can move at all (each face's
    /// role, or the lowest that can) is asked role by role, stopping at a first move.
    fn tactical_table(&self, pos: &Position, table: &mut TurnTable<Move>) {
        table.clear();
        let board = &pos.board;
        let generator = Generator::new(board, Legality::Legal);
        // A king that can castle can also step towards the rook; a rook may only castle.
        let movable: [bool; 6] = Role::ALL.map(|role| {
            generator.role_can_move(role)
                || role == Role::Rook && {
                    let mut castles = MoveList::new();
                    generator.castles(&mut castles);
                    !castles.is_empty()
                }
        });
        let Some(lowest) = Role::ALL.into_iter().find(|r| movable[r.index()]) else { return };
        let mut captures = MovesByRole::new();
        let mut by_role: RoleOutcomes = [0; 6];
        for (i, outcome) in dice_outcomes(1).iter().enumerate() {
            let rolled = Role::from_face(outcome.roll.faces()[0]).expect("a face");
            let role = if movable[rolled.index()] { rolled } else { lowest };
            let list = &mut captures.by_role[role.index()];
            if by_role[role.index()] == 0 {
                generator.captures(RoleSet::single(role), list);
            }
            by_role[role.index()] |= 1 << i;
            table.outcomes.push(*outcome);
            // Outcomes whose role has nothing to take all stand pat alike.
            table.set_keys.push(if list.is_empty() { 0 } else { 1 << role.index() });
        }
        table_by_role(&captures, &by_role, table);
    }

    fn play(&self, pos: &Position, m: Move) -> Position {
        let mut board = pos.board.clone();
        let recapture = board.is_capture(m).then(|| m.to());
        let passed_in_check = m.is_null() && board.in_check();
        board.play(m);
        Position { board, recapture, passed_in_check, gave_check: [false; 2] }
    }

    fn end(&self, pos: &Position) -> Option<GameEnd> {
        let board = &pos.board;
        if !has_legal_move(board) {
            return Some(if board.in_check() {
                GameEnd { result: GameResult::Win(!board.turn()), reason: EndReason::Checkmate }
            } else {
                GameEnd { result: GameResult::Draw, reason: EndReason::Stalemate }
            });
        }
        automatic_draw(board, true)
    }
}
