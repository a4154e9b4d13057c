//! `vegas`: Koltanowski's Vegas Fun Chess (docs/variants.md). Two unlike dice: die A shows
//! P N B R K P, die B shows P N B R Q and "any". Chess legality, check and checkmate. A player
//! moves a piece of a type either die shows ("any" allows every legal move, or a pass); a roll
//! that allows nothing passes. A player in check does not roll: any legal move. A player who gave
//! check with his last move does not roll either: any legal move, or a pass (not in check).

use super::common::{
    MovesByRole, RoleOutcomes, automatic_draw, no_recapture, off_turn_side_not_in_check, one_king_each, table_by_role,
};
use super::dice::{Outcome, OutcomeList, Roll, RollError};
use super::{EndReason, GameEnd, GameResult, OutcomeMask, Position, Rules, TurnList, TurnTable, chess_rules_common};
use crate::board::chessmove::Move;
use crate::board::movegen::{Generator, Legality, checkmating_move, generate, has_legal_move};
use crate::board::piece::{Role, RoleSet};
use crate::board::values::PieceValues;

/// Vegas Fun Chess.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Vegas {
    /// Castling is written king-takes-rook (UCI_Chess960).
    pub chess960: bool,
}

/// Die A's faces: pawn, knight, bishop, rook, king, pawn.
const DIE_A: [Role; 6] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::King, Role::Pawn];
/// Die B's faces: pawn, knight, bishop, rook, queen; its 6 is "any".
const DIE_B: [Role; 5] = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
/// Die B's face that allows any move.
const ANY: u8 = 6;

/// The roles a roll (die A's face, then die B's) lets move; `None` for "any".
fn roles_of(roll: &Roll) -> Option<RoleSet> {
    let [a, b] = [roll.faces()[0], roll.faces()[1]];
    if b == ANY {
        return None;
    }
    Some(RoleSet::EMPTY.with(DIE_A[usize::from(a) - 1]).with(DIE_B[usize::from(b) - 1]))
}

impl Vegas {
    /// The side to move does not roll: it is in check, or its last move gave check.
    pub fn rolls_not(pos: &Position) -> bool {
        pos.board.in_check() || pos.gave_check[pos.board.turn().index()]
    }
}

/// The 36 outcomes with the roles each allows (a bit per role index; `None`: "any") and, per
/// role, the outcomes allowing it ("any" allows every role): made once, since a turn table is
/// made at every node of the horizon.
struct OutcomeRoles {
    outcomes: OutcomeList,
    roles: [Option<u8>; 36],
    by_role: RoleOutcomes,
}

fn outcome_roles() -> &'static OutcomeRoles {
    static TABLE: std::sync::OnceLock<OutcomeRoles> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut outcomes = OutcomeList::new();
        let mut roles = [None; 36];
        let mut by_role: RoleOutcomes = [0; 6];
        for a in 1..=6 {
            for b in 1..=6 {
                let roll = Roll::ordered(&[a, b]).expect("faces 1..6");
                let i = outcomes.len();
                let set = roles_of(&roll);
                roles[i] = set.map(|set| {
                    Role::ALL.into_iter().filter(|&r| set.contains(r)).fold(0u8, |acc, r| acc | 1 << r.index())
                });
                for role in Role::ALL.into_iter().filter(|&r| set.is_none_or(|set| set.contains(r))) {
                    by_role[role.index()] |= 1 << i;
                }
                outcomes.push(Outcome { roll, probability: 1.0 / 36.0, weight: 1 });
            }
        }
        OutcomeRoles { outcomes, roles, by_role }
    })
}

fn pass_if_empty(out: &mut TurnList<Move>) {
    if out.is_empty() {
        out.push(Move::NULL);
    }
}

impl Rules for Vegas {
    chess_rules_common!();

    fn in_check(&self, pos: &Position) -> bool {
        pos.board.in_check()
    }

    fn name(&self) -> &'static str {
        "vegas"
    }

    /// The usual 1/3/3/5/9, until tuned (kings are never captured: checkmate ends the game).
    fn piece_values(&self) -> PieceValues {
        PieceValues([100, 300, 300, 500, 900, 0])
    }

    /// Chess's kings, and the side that just moved is not in check.
    fn validate(&self, pos: &Position) -> Result<(), crate::rules::GameError> {
        one_king_each(&pos.board, self.name())?;
        off_turn_side_not_in_check(&pos.board)?;
        no_recapture(pos)
    }

    fn dice(&self) -> usize {
        2
    }

    /// Die A's face, then die B's: their order is kept.
    fn roll_of(&self, faces: &[u8]) -> Result<Roll, RollError> {
        let roll = Roll::ordered(faces)?;
        self.check_roll(&roll)?;
        Ok(roll)
    }

    /// A side in check was checked by the other side's last move, which then does not roll on
    /// its next turn. Whether the side to move gave check with its own last move a FEN cannot
    /// say (taken as not); set the game up with its moves to keep it.
    fn implied_state(&self, pos: &mut Position) {
        if pos.board.in_check() {
            pos.gave_check[(!pos.board.turn()).index()] = true;
        }
    }

    /// "die A king, die B any".
    fn roll_meaning(&self, roll: &Roll) -> String {
        let [a, b] = [roll.faces()[0], roll.faces()[1]];
        let b_name = if b == ANY { "any" } else { DIE_B[usize::from(b) - 1].name() };
        format!("die A {}, die B {b_name}", DIE_A[usize::from(a) - 1].name())
    }

    /// Without rolling, when the player does not roll: every legal move, and a pass for a
    /// player who gave check and is not in check.
    fn pre_roll_turns(&self, pos: &Position, out: &mut TurnList<Move>) {
        if !Vegas::rolls_not(pos) {
            return;
        }
        generate(&pos.board, RoleSet::ALL, Legality::Legal, out);
        if !pos.board.in_check() {
            out.push(Move::NULL);
        }
    }

    /// A player who gave check moves without rolling: a mate among its moves needs no dice.
    fn winning_free_turn(&self, pos: &Position) -> Option<Move> {
        if Vegas::rolls_not(pos) { checkmating_move(&pos.board) } else { None }
    }

    /// The 36 ordered faces of the two dice, 1/36 each; none when the player does not roll.
    fn outcomes(&self, pos: &Position, out: &mut OutcomeList) {
        if Vegas::rolls_not(pos) || self.end(pos).is_some() {
            return;
        }
        out.clone_from(&outcome_roles().outcomes);
    }

    fn allowed_turns(&self, pos: &Position, roll: &Roll, out: &mut TurnList<Move>) {
        match roles_of(roll) {
            None => self.any_turns(pos, out),
            Some(roles) => {
                generate(&pos.board, roles, Legality::Legal, out);
                pass_if_empty(out);
            }
        }
    }

    /// Every legal move and the pass ("any").
    fn any_turns(&self, pos: &Position, out: &mut TurnList<Move>) {
        generate(&pos.board, RoleSet::ALL, Legality::Legal, out);
        out.push(Move::NULL);
    }

    /// One generation of every move; an outcome allows the moves of its two roles (castling as a
    /// king and a rook move), every move and the pass on "any", and a pass where nothing moves.
    /// (The caller has checked that the game is on.)
    fn turn_table(&self, pos: &Position, table: &mut TurnTable<Move>) {
        table.clear();
        if Vegas::rolls_not(pos) {
            return;
        }
        let mut moves = MovesByRole::new();
        moves.generate(&pos.board, Legality::Legal);
        let o = outcome_roles();
        let movable = moves.roles_with_moves();
        let castlers = if moves.castles.is_empty() { 0 } else { 1 << Role::King.index() | 1 << Role::Rook.index() };
        let mut passes: OutcomeMask = 0;
        table.outcomes.clone_from(&o.outcomes);
        for (i, roles) in o.roles.iter().enumerate() {
            // Key: the rolled roles with moves of their own, castling, and "any".
            let key = match *roles {
                None => 1 << 7,
                Some(roles) => u64::from(roles & movable) | u64::from(roles & castlers != 0) << 6,
            };
            if key == 0 || roles.is_none() {
                passes |= 1 << i;
            }
            table.set_keys.push(key);
        }
        table_by_role(&moves, &o.by_role, table);
        table.push(Move::NULL, passes);
    }

    /// Only the captures and promotions are listed: an outcome allows those of its two roles,
    /// every one on "any". (The caller has checked that the game is on.)
    fn tactical_table(&self, pos: &Position, table: &mut TurnTable<Move>) {
        table.clear();
        if Vegas::rolls_not(pos) {
            return;
        }
        let generator = Generator::new(&pos.board, Legality::Legal);
        let mut captures = MovesByRole::new();
        for role in Role::ALL {
            generator.captures(RoleSet::single(role), &mut captures.by_role[role.index()]);
        }
        let o = outcome_roles();
        let capturing = captures.roles_with_moves();
        table.outcomes.clone_from(&o.outcomes);
        // Key: the rolled roles with something to take (none: the outcome stands pat), or "any".
        table.set_keys.extend(o.roles.iter().map(|roles| match *roles {
            None => 1 << 7,
            Some(roles) => u64::from(roles & capturing),
        }));
        table_by_role(&captures, &o.by_role, table);
    }

    /// The move, and whether it gave check (the mover's next turn is then without a roll).
    fn play(&self, pos: &Position, m: Move) -> Position {
        let mover = pos.board.turn();
        let mut next = Position::new(pos.board.clone());
        next.board.play(m);
        next.gave_check = pos.gave_check;
        next.gave_check[mover.index()] = !m.is_null() && next.board.in_check();
        next
    }

    /// Checkmate, stalemate, and the automatic draws.
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
