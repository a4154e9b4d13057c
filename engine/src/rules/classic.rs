//! `classic`: two-dice chess. Chess legality; move a piece of a type shown on either die (any
//! move on doubles); no allowed move passes the turn; a king left in check by a pass may be taken.

use super::common::{
    MovesByRole, RoleOutcomes, automatic_draw, king_captured, no_recapture, one_king_each, table_by_role,
};
use super::dice::{OutcomeList, Roll, two_dice};
use super::{EndReason, GameEnd, GameResult, OutcomeMask, Position, Rules, TurnList, TurnTable, chess_rules_common};
use crate::board::Board;
use crate::board::chessmove::Move;
use crate::board::movegen::{Generator, Legality, MoveList, generate, has_legal_move, king_captures};
use crate::board::piece::{Role, RoleSet};
use crate::board::values::PieceValues;

/// The two-dice rules.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Classic {
    /// Castling is written king-takes-rook (UCI_Chess960).
    pub chess960: bool,
}

impl Classic {
    /// Legal moves of `roles`, plus the king captures those roles make when the opponent passed
    /// in check.
    fn moves_of(pos: &Position, roles: RoleSet, out: &mut TurnList<Move>) {
        generate(&pos.board, roles, Legality::Legal, out);
        if pos.passed_in_check {
            king_captures(&pos.board, roles, out);
        }
    }

    fn roles_of(roll: &Roll) -> RoleSet {
        if roll.is_doubles() {
            return RoleSet::ALL;
        }
        roll.faces().iter().filter_map(|&f| Role::from_face(f)).fold(RoleSet::EMPTY, RoleSet::with)
    }
}

/// The two dice's outcomes with the roles each allows (a bit per role index) and, per role, the
/// outcomes allowing it: made once, since a turn table is made at every node of the horizon.
struct OutcomeRoles {
    outcomes: OutcomeList,
    roles: [u8; 21],
    by_role: RoleOutcomes,
}

fn outcome_roles() -> &'static OutcomeRoles {
    static TABLE: std::sync::OnceLock<OutcomeRoles> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let outcomes = two_dice();
        let mut roles = [0u8; 21];
        let mut by_role: RoleOutcomes = [0; 6];
        for (i, outcome) in outcomes.iter().enumerate() {
            let set = Classic::roles_of(&outcome.roll);
            for role in Role::ALL.into_iter().filter(|&r| set.contains(r)) {
                roles[i] |= 1 << role.index();
                by_role[role.index()] |= 1 << i;
            }
        }
        OutcomeRoles { outcomes, roles, by_role }
    })
}

/// After a pass in check, the king captures, each with its capturer's role.
fn add_king_captures(pos: &Position, moves: &mut MovesByRole) {
    if pos.passed_in_check {
        let mut captures = MoveList::new();
        king_captures(&pos.board, RoleSet::ALL, &mut captures);
        for m in captures {
            let role = pos.board.role_at(m.from()).expect("a capturer");
            moves.by_role[role.index()].push(m);
        }
    }
}

fn has_any_move(pos: &Position) -> bool {
    if has_legal_move(&pos.board) {
        return true;
    }
    let mut list = MoveList::new();
    if pos.passed_in_check {
        king_captures(&pos.board, RoleSet::ALL, &mut list);
    }
    !list.is_empty()
}

fn pass_if_empty(out: &mut TurnList<Move>) {
    if out.is_empty() {
        out.push(Move::NULL);
    }
}

impl Rules for Classic {
    chess_rules_common!();

    fn in_check(&self, pos: &Position) -> bool {
        pos.board.in_check()
    }

    fn name(&self) -> &'static str {
        "classic"
    }

    /// The usual 1/3/3/5/9, until tuned; the king is capturable (after a pass left it in check).
    fn piece_values(&self) -> PieceValues {
        PieceValues([100, 300, 300, 500, 900, 2000])
    }

    /// Chess's kings; the side that just moved may stand in check (it passed), so that is not
    /// refused.
    fn validate(&self, pos: &Position) -> Result<(), crate::rules::GameError> {
        one_king_each(&pos.board, self.name())?;
        no_recapture(pos)
    }

    fn dice(&self) -> usize {
        2
    }

    fn pre_roll_turns(&self, _pos: &Position, _out: &mut TurnList<Move>) {}

    fn outcomes(&self, pos: &Position, out: &mut OutcomeList) {
        if self.end(pos).is_none() {
            out.extend(two_dice());
        }
    }

    fn allowed_turns(&self, pos: &Position, roll: &Roll, out: &mut TurnList<Move>) {
        Classic::moves_of(pos, Classic::roles_of(roll), out);
        pass_if_empty(out);
    }

    fn any_turns(&self, pos: &Position, out: &mut TurnList<Move>) {
        Classic::moves_of(pos, RoleSet::ALL, out);
        pass_if_empty(out);
    }

    /// One generation of every move; an outcome allows the moves of its dice's roles, all of
    /// them on doubles, and a pass where that leaves nothing.
    fn turn_table(&self, pos: &Position, table: &mut TurnTable<Move>) {
        table.clear();
        let board = &pos.board;
        let mut moves = MovesByRole::new();
        moves.generate(board, Legality::Legal);
        add_king_captures(pos, &mut moves);
        let o = outcome_roles();
        let movable = moves.roles_with_moves();
        let castlers = if moves.castles.is_empty() { 0 } else { 1 << Role::King.index() | 1 << Role::Rook.index() };
        let mut passes: OutcomeMask = 0;
        table.outcomes.clone_from(&o.outcomes);
        for (i, &roles) in o.roles.iter().enumerate() {
            // The roles of the roll that can move decide the allowed set (none: a pass).
            // Key: the rolled roles with moves of their own, and whether castling is allowed.
            let key = u64::from(roles & movable) | u64::from(roles & castlers != 0) << 6;
            if key == 0 {
                passes |= 1 << i;
            }
            table.set_keys.push(key);
        }
        table_by_role(&moves, &o.by_role, table);
        table.push(Move::NULL, passes);
    }

    /// Only the captures (of the king too, after a pass in check) and promotions are listed:
    /// an outcome allows those of its dice's roles.
    fn tactical_table(&self, pos: &Position, table: &mut TurnTable<Move>) {
        table.clear();
        let board = &pos.board;
        let generator = Generator::new(board, Legality::Legal);
        let mut captures = MovesByRole::new();
        for role in Role::ALL {
            generator.captures(RoleSet::single(role), &mut captures.by_role[role.index()]);
        }
        add_king_captures(pos, &mut captures);
        let o = outcome_roles();
        let capturing = captures.roles_with_moves();
        table.outcomes.clone_from(&o.outcomes);
        // Key: the rolled roles with something to take (none: the outcome stands pat).
        table.set_keys.extend(o.roles.iter().map(|&roles| u64::from(roles & capturing)));
        table_by_role(&captures, &o.by_role, table);
    }

    fn play(&self, pos: &Position, m: Move) -> Position {
        let mut board: Board = pos.board.clone();
        let passed_in_check = m.is_null() && board.in_check();
        board.play(m);
        Position { board, recapture: None, passed_in_check, gave_check: [false; 2] }
    }

    fn end(&self, pos: &Position) -> Option<GameEnd> {
        let board = &pos.board;
        if let Some(end) = king_captured(board) {
            return Some(end);
        }
        // Judged before the roll: no move at all whatever the dice (king captures count).
        if !has_any_move(pos) {
            return Some(if board.in_check() {
                GameEnd { result: GameResult::Win(!board.turn()), reason: EndReason::Checkmate }
            } else {
                GameEnd { result: GameResult::Draw, reason: EndReason::Stalemate }
            });
        }
        automatic_draw(board, true)
    }
}
