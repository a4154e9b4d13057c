//! `dicechess3`: the rules of dicechess.com (docs/variants.md). Three dice, a micro-move per die
//! (the die's face is the moving piece's type), no check, the king captured to win, the maximum
//! rule, castling on a 4 and a 6 together, several en-passant targets, and DFEN (a FEN whose
//! en-passant field may list several squares and whose 7th field holds the dice left).

use crate::board::chessmove::Move;
use crate::board::movegen::{Generator, Legality, MoveList};
use crate::board::piece::Role;
use crate::board::values::PieceValues;
use crate::rules::GameEnd;
use crate::rules::dice::{OutcomeList, fair_dice};
use crate::rules::micro::{Die, MicroPosition, MicroRules};
use crate::rules::micro_chess_common;
use crate::rules::piece_dice::{
    CHESS_VALUES, dice_surely_move_twice_after, die_can_move, die_captures, die_moves, die_surely_moves_after,
    king_taken_or_fifty_turns,
};
use arrayvec::ArrayVec;

/// Dice rolled at the start of a turn.
pub const DICE: usize = 3;

/// The rules of dicechess.com.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct DiceChess3;

impl MicroRules for DiceChess3 {
    micro_chess_common!();

    /// The rules give no values: chess's 1/3/3/5/9 (the king is never counted: taking it ends the
    /// game).
    fn piece_values(&self) -> PieceValues {
        CHESS_VALUES
    }

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
        king_taken_or_fifty_turns(pos)
    }

    fn micro_moves(&self, pos: &MicroPosition, out: &mut MoveList) {
        die_moves(pos, out);
        if pos.dice.has(Role::Rook) && pos.dice.has(Role::King) {
            Generator::new(&pos.board, Legality::PseudoLegal).castles(out);
        }
    }

    fn has_micro_move(&self, pos: &MicroPosition) -> bool {
        die_can_move(pos) || {
            let mut castles = MoveList::new();
            if pos.dice.has(Role::Rook) && pos.dice.has(Role::King) {
                Generator::new(&pos.board, Legality::PseudoLegal).castles(&mut castles);
            }
            !castles.is_empty()
        }
    }

    fn surely_moves_after(&self, pos: &MicroPosition, m: Move, spent: &[Die]) -> bool {
        die_surely_moves_after(pos, m, spent)
    }

    fn surely_moves_twice_after(&self, pos: &MicroPosition, m: Move, spent: &[Die]) -> bool {
        dice_surely_move_twice_after(pos, m, spent)
    }

    fn micro_captures(&self, pos: &MicroPosition, out: &mut MoveList) {
        die_captures(pos, out);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::rules::dice::pick_by_weight;
    use crate::rules::micro::{DicePool, MicroRules, PlanCache, StepsOf, after_step, allowed_steps, most_dice};
    use crate::rules::{Burmese, Gollon, Gollon2, Roll};
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// `has_micro_move` answers as listing does, at every point of seeded random games, for the
    /// dice left there and for every single die and pair of dice; where `surely_moves_after`
    /// says the last die will move something, it does; and where `surely_moves_twice_after`
    /// says the two dice left will both move, some sequence uses both. The counts of the three
    /// checks.
    fn has_micro_move_agrees_with_listing<R: MicroRules<Board = Board>>(rules: &R, seed: u64) -> (usize, usize, usize) {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut cache = PlanCache::default();
        let (mut checked, mut surely, mut twice) = (0, 0, 0);
        let mut check = |pos: &MicroPosition| {
            let mut moves = MoveList::new();
            rules.micro_moves(pos, &mut moves);
            assert_eq!(rules.has_micro_move(pos), !moves.is_empty(), "{} {:?}", rules.dfen(pos), pos.dice);
            checked += 1;
            // Where the last die is said to move something after a micro-move, it does.
            for &m in moves.iter() {
                let spent = rules.spent(pos, m);
                if spent.len() + 1 == pos.dice.len() && rules.surely_moves_after(pos, m, &spent) {
                    let after = pos.after_micro(m, &spent);
                    assert!(rules.has_micro_move(&after), "{} {}", rules.dfen(pos), m.to_uci(false));
                    surely += 1;
                }
                if spent.len() + 2 == pos.dice.len() && rules.surely_moves_twice_after(pos, m, &spent) {
                    let after = pos.after_micro(m, &spent);
                    let most = most_dice(rules, &after, &mut PlanCache::default());
                    assert_eq!(most, 2, "{} {}", rules.dfen(pos), m.to_uci(false));
                    twice += 1;
                }
            }
        };
        for _ in 0..40 {
            let mut pos = rules.startpos();
            for _ in 0..60 {
                if rules.end(&pos).is_some() {
                    break;
                }
                let outcomes = rules.outcomes(&pos);
                let total: u32 = outcomes.iter().map(|o| o.weight).sum();
                let roll = pick_by_weight(&outcomes, u64::from(rng.random_range(0..total))).expect("a roll");
                pos = rules.rolled(&pos, &roll);
                for a in 1..=6u8 {
                    check(&pos.with_dice(DicePool::from_roll(&Roll::new(&[a]).unwrap())));
                    for b in a..=6u8 {
                        check(&pos.with_dice(DicePool::from_roll(&Roll::new(&[a, b]).unwrap())));
                    }
                }
                let mut steps = StepsOf::<R>::new();
                loop {
                    check(&pos);
                    allowed_steps(rules, &pos, &mut cache, &mut steps);
                    if steps.is_empty() {
                        pos = pos.finish_turn();
                        break;
                    }
                    let step = steps[rng.random_range(0..steps.len())];
                    pos = after_step(rules, &pos, step);
                    if step.ends_turn {
                        break;
                    }
                }
            }
        }
        (checked, surely, twice)
    }

    #[test]
    fn has_micro_move_is_listing_not_empty() {
        let (checked, surely, twice) = has_micro_move_agrees_with_listing(&DiceChess3, 1);
        assert!(checked > 10_000 && surely > 10_000 && twice > 10_000, "{checked} {surely} {twice}");
        assert!(has_micro_move_agrees_with_listing(&Burmese, 2).0 > 10_000);
        let (checked, surely, twice) = has_micro_move_agrees_with_listing(&Gollon, 3);
        assert!(checked > 1_000 && surely > 1_000 && twice > 1_000, "{checked} {surely} {twice}");
        assert!(has_micro_move_agrees_with_listing(&Gollon2, 4).0 > 1_000);
    }
}
