//! The game as states, whatever the variant: each state is a decision of one side, a chance
//! event (a roll, its outcomes weighted), or the end. A turn of a one-move variant is a decision
//! before the roll (Freedom moves against rolling, where there are any), the roll, and the
//! decision it allows; a turn of several micro-moves is the roll and then one decision per
//! micro-move, the dice left part of the state. Written against [`GameStates`], a search (and
//! the tests' plain expectiminimax, which checks both of today's searches) needs to know nothing
//! else of the rules: the side a value is for changes only where a turn ends.

use crate::board::piece::Color;
use crate::rules::dice::OutcomeList;
use crate::rules::micro::{MicroRules, PlanCache, PositionOf, StepOf, after_step, allowed_steps};
use crate::rules::{GameEnd, MAX_OUTCOMES, OutcomeMask, Roll, Rules, TurnList, TurnTable};
use arrayvec::ArrayVec;
use std::cell::RefCell;
use std::fmt;

/// A decision's choices: at most every move of a position, and rolling.
pub type ChoiceList<C> = ArrayVec<C, { crate::board::movegen::MAX_MOVES + 1 }>;

/// Per choice of a decision: which of its turn's children it leads to ([`NO_SLOT`]: a child
/// of its own), so that the turn's decisions share what they learn of a child.
pub type SlotList = ArrayVec<u16, { crate::board::movegen::MAX_MOVES + 1 }>;

/// A choice whose child no other decision of the turn shares.
pub const NO_SLOT: u16 = u16::MAX;

/// What happens at a state.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum StateKind {
    /// A player chooses ([`GameStates::choices`]).
    Decision,
    /// The dice fall ([`GameStates::outcomes`]).
    Chance,
    /// The game is over.
    End(GameEnd),
}

/// A game of dice chess as states.
pub trait GameStates {
    type State: Clone;
    type Choice: Copy + Eq + fmt::Debug;

    fn kind(&self, state: &Self::State) -> StateKind;

    /// The side a state's value is for: the player who decides or rolls here (at the end, the
    /// side that would have moved).
    fn side(&self, state: &Self::State) -> Color;

    /// Does a turn start here? A search counts its depth in these, and only here can a
    /// position repeat.
    fn starts_turn(&self, state: &Self::State) -> bool;

    /// A decision's choices, never empty (a player who cannot move passes).
    fn choices(&self, state: &Self::State, out: &mut ChoiceList<Self::Choice>);

    fn after_choice(&self, state: &Self::State, choice: Self::Choice) -> Self::State;

    /// A chance event's outcomes, with weights.
    fn outcomes(&self, state: &Self::State, out: &mut OutcomeList);

    fn after_outcome(&self, state: &Self::State, roll: &Roll) -> Self::State;

    /// The state's key: equal for states from which the same play follows (the dice left and
    /// the kind of state included), so the orders of a turn's micro-moves meet.
    fn key(&self, state: &Self::State) -> u64;

    /// Turns (plies) since the last capture or pawn move: no repetition reaches further back.
    fn reversible_turns(&self, state: &Self::State) -> u32;

    /// Could one turn lead from the turn start keyed `a` to the one keyed `b` ([`GameStates::key`])
    /// without a capture or a pawn move? `false` (the default) is always safe.
    fn one_turn_apart(&self, _a: u64, _b: u64) -> bool {
        false
    }

    // What a search asks, turn by turn: the same answers as above, read from what the states
    // of one turn share (made once, where the turn starts), so that a turn's states do not list
    // its moves again. The tests' plain expectiminimax asks the questions above instead.

    /// What the states of one turn share ([`GameStates::begin_turn`]).
    type Turn: Default;

    /// How the game ends at `start`, a turn's start, if it does (only there can it end);
    /// cheaper than [`GameStates::kind`] where that lists moves.
    fn end(&self, start: &Self::State) -> Option<GameEnd> {
        match self.kind(start) {
            StateKind::End(end) => Some(end),
            _ => None,
        }
    }

    /// Can a turn's start be a decision (a choice before the roll, as Freedom's)? Where it never
    /// is, a search looks a turn's start up in its table under the roll's key alone.
    fn starts_may_decide(&self) -> bool {
        true
    }

    /// Fills `turn` for the turn `state` is in (its start or a later state of it), not over.
    fn begin_turn(&self, _state: &Self::State, _turn: &mut Self::Turn) {}

    /// [`GameStates::kind`] of a state of the turn `turn` was made for.
    fn kind_in(&self, state: &Self::State, _turn: &Self::Turn) -> StateKind {
        self.kind(state)
    }

    /// [`GameStates::choices`] of a decision of `turn`, and each one's slot among the turn's
    /// children (`slots` empty: none shared).
    fn choices_in(
        &self,
        state: &Self::State,
        _turn: &Self::Turn,
        out: &mut ChoiceList<Self::Choice>,
        slots: &mut SlotList,
    ) {
        self.choices(state, out);
        slots.clear();
    }

    /// How many children the decisions of `turn` share (the slots of [`GameStates::choices_in`]).
    fn shared_children(&self, _turn: &Self::Turn) -> usize {
        0
    }

    /// Takes rolling out of `choices` (and its slot out of `slots`) where, at this decision of
    /// `turn`, it is worth no more than the best choice without it whatever the dice (Freedom in
    /// check: every legal move is free, and a roll only narrows them). Leaving it in is always
    /// safe, and the default.
    fn drop_dominated_roll(
        &self,
        _state: &Self::State,
        _turn: &Self::Turn,
        _choices: &mut ChoiceList<Self::Choice>,
        _slots: &mut SlotList,
    ) {
    }

    /// [`GameStates::outcomes`] of a chance state of `turn`, and the outcomes searched as one
    /// (outcomes after which the decisions are alike), heaviest first.
    fn outcomes_in(&self, state: &Self::State, _turn: &Self::Turn, out: &mut OutcomeList, groups: &mut Groups) {
        self.outcomes(state, out);
        one_group_per_outcome(out, groups);
    }
}

/// Every outcome its own group, heaviest first.
pub fn one_group_per_outcome(outcomes: &OutcomeList, groups: &mut Groups) {
    groups.clear();
    groups.extend(outcomes.iter().enumerate().map(|(i, o)| OutcomeGroup {
        representative: i,
        members: 1 << i,
        weight: o.weight,
    }));
    groups.sort_by_key(|g| std::cmp::Reverse(g.weight));
}

/// A state of a one-move variant ([`Rules`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TurnState<P> {
    /// A turn's start: Freedom moves against rolling, or (with none) the roll itself.
    BeforeRoll(P),
    /// The player has chosen to roll.
    Rolling(P),
    /// The dice show `Roll`: the player picks one of the turns it allows.
    Rolled(P, Roll),
}

impl<P> TurnState<P> {
    pub fn position(&self) -> &P {
        match self {
            TurnState::BeforeRoll(p) | TurnState::Rolling(p) | TurnState::Rolled(p, _) => p,
        }
    }
}

/// The states of a one-move variant: its [`Rules`] read as a [`GameStates`].
pub struct OneMoveStates<'a, R> {
    pub rules: &'a R,
}

impl<R: Rules> OneMoveStates<'_, R> {
    fn pre_roll(&self, pos: &R::Position) -> TurnList<R::Turn> {
        let mut pre = TurnList::new();
        self.rules.pre_roll_turns(pos, &mut pre);
        pre
    }

    fn position_outcomes(&self, pos: &R::Position) -> OutcomeList {
        let mut outcomes = OutcomeList::new();
        self.rules.outcomes(pos, &mut outcomes);
        outcomes
    }
}

/// What the states of a one-move turn share: the turn table (every turn each outcome allows,
/// listed once), its outcome groups (outcomes allowing the same turns), and the Freedom moves.
pub struct OneMoveTurn<T> {
    pub table: TurnTable<T>,
    pub groups: Groups,
    pub pre: TurnList<T>,
}

impl<T> OneMoveTurn<T> {
    /// Is rolling dominated: every turn any roll allows is a move without rolling too (the
    /// table lists each turn once), so each outcome's best is at most the best free move?
    pub fn roll_dominated(&self) -> bool {
        !self.pre.is_empty() && self.pre.len() == self.table.turns.len()
    }
}

impl<T: Copy + Eq> Default for OneMoveTurn<T> {
    fn default() -> OneMoveTurn<T> {
        OneMoveTurn { table: TurnTable::new(), groups: Groups::new(), pre: TurnList::new() }
    }
}

/// Keys of the three kinds of a one-move variant's state, and of a roll's faces (die by die:
/// Vegas's unlike dice in their order).
fn kind_key(kind: usize) -> u64 {
    crate::board::zobrist::NODE_KIND[kind].rotate_left(17)
}

fn roll_key(roll: &Roll) -> u64 {
    roll.faces()
        .iter()
        .enumerate()
        .fold(kind_key(2), |key, (i, &face)| key ^ crate::board::zobrist::NODE_KIND[32 + 8 * i + usize::from(face)])
}

impl<R: Rules> GameStates for OneMoveStates<'_, R> {
    type State = TurnState<R::Position>;
    type Choice = Choice<R::Turn>;

    fn kind(&self, state: &Self::State) -> StateKind {
        match state {
            TurnState::BeforeRoll(pos) => {
                if let Some(end) = self.rules.end(pos) {
                    StateKind::End(end)
                } else if self.pre_roll(pos).is_empty() {
                    StateKind::Chance
                } else {
                    StateKind::Decision
                }
            }
            TurnState::Rolling(_) => StateKind::Chance,
            TurnState::Rolled(..) => StateKind::Decision,
        }
    }

    fn side(&self, state: &Self::State) -> Color {
        self.rules.turn(state.position())
    }

    fn starts_turn(&self, state: &Self::State) -> bool {
        matches!(state, TurnState::BeforeRoll(_))
    }

    fn choices(&self, state: &Self::State, out: &mut ChoiceList<Self::Choice>) {
        out.clear();
        match state {
            TurnState::BeforeRoll(pos) => {
                // Rolling first, unless the player may not roll (Vegas: in check, or after giving it).
                if !self.position_outcomes(pos).is_empty() {
                    out.push(Choice::Roll);
                }
                out.extend(self.pre_roll(pos).iter().map(|&t| Choice::Turn(t)));
            }
            TurnState::Rolling(_) => {}
            TurnState::Rolled(pos, roll) => {
                let mut turns = TurnList::new();
                self.rules.allowed_turns(pos, roll, &mut turns);
                out.extend(turns.iter().map(|&t| Choice::Turn(t)));
            }
        }
    }

    fn after_choice(&self, state: &Self::State, choice: Self::Choice) -> Self::State {
        match choice {
            Choice::Roll => TurnState::Rolling(state.position().clone()),
            Choice::Turn(t) => TurnState::BeforeRoll(self.rules.play(state.position(), t)),
        }
    }

    fn outcomes(&self, state: &Self::State, out: &mut OutcomeList) {
        out.clear();
        if let TurnState::BeforeRoll(pos) | TurnState::Rolling(pos) = state {
            self.rules.outcomes(pos, out);
        }
    }

    fn after_outcome(&self, state: &Self::State, roll: &Roll) -> Self::State {
        TurnState::Rolled(state.position().clone(), *roll)
    }

    fn key(&self, state: &Self::State) -> u64 {
        let hash = self.rules.hash(state.position());
        match state {
            // A turn's start is the position's own hash, as the game's history keeps it.
            TurnState::BeforeRoll(_) => hash,
            TurnState::Rolling(_) => hash ^ kind_key(1),
            TurnState::Rolled(_, roll) => hash ^ roll_key(roll),
        }
    }

    fn reversible_turns(&self, state: &Self::State) -> u32 {
        self.rules.reversible_plies(state.position())
    }

    fn one_turn_apart(&self, a: u64, b: u64) -> bool {
        self.rules.one_turn_apart(a, b)
    }

    type Turn = OneMoveTurn<R::Turn>;

    fn end(&self, start: &Self::State) -> Option<GameEnd> {
        self.rules.end(start.position())
    }

    fn begin_turn(&self, state: &Self::State, turn: &mut Self::Turn) {
        let pos = state.position();
        self.rules.turn_table(pos, &mut turn.table);
        group_outcomes(&turn.table, &mut turn.groups);
        turn.pre.clear();
        self.rules.pre_roll_from_table(pos, &turn.table, &mut turn.pre);
    }

    fn kind_in(&self, state: &Self::State, turn: &Self::Turn) -> StateKind {
        match state {
            TurnState::BeforeRoll(_) if turn.pre.is_empty() => StateKind::Chance,
            TurnState::BeforeRoll(_) | TurnState::Rolled(..) => StateKind::Decision,
            TurnState::Rolling(_) => StateKind::Chance,
        }
    }

    fn choices_in(
        &self,
        state: &Self::State,
        turn: &Self::Turn,
        out: &mut ChoiceList<Self::Choice>,
        slots: &mut SlotList,
    ) {
        out.clear();
        slots.clear();
        let table = &turn.table;
        match state {
            TurnState::BeforeRoll(_) => {
                if !table.outcomes.is_empty() {
                    out.push(Choice::Roll);
                    slots.push(NO_SLOT);
                }
                for &t in &turn.pre {
                    out.push(Choice::Turn(t));
                    slots.push(table.turns.iter().position(|&x| x == t).map_or(NO_SLOT, |k| k as u16));
                }
            }
            TurnState::Rolling(_) => {}
            TurnState::Rolled(_, roll) => {
                let i = table.outcomes.iter().position(|o| o.roll == *roll).expect("a roll of the table");
                for (k, (&t, &mask)) in table.turns.iter().zip(&table.masks).enumerate() {
                    if mask >> i & 1 == 1 {
                        out.push(Choice::Turn(t));
                        slots.push(k as u16);
                    }
                }
            }
        }
    }

    fn shared_children(&self, turn: &Self::Turn) -> usize {
        turn.table.turns.len()
    }

    /// Below the root a dominated roll ([`OneMoveTurn::roll_dominated`]) is not searched.
    fn drop_dominated_roll(
        &self,
        state: &Self::State,
        turn: &Self::Turn,
        choices: &mut ChoiceList<Self::Choice>,
        slots: &mut SlotList,
    ) {
        let dominated = matches!(state, TurnState::BeforeRoll(_)) && turn.roll_dominated();
        // `choices_in` gives every choice a slot, the roll too.
        if let Some(k) = choices.iter().position(|c| *c == Choice::Roll).filter(|_| dominated) {
            choices.remove(k);
            slots.remove(k);
        }
    }

    fn outcomes_in(&self, _: &Self::State, turn: &Self::Turn, out: &mut OutcomeList, groups: &mut Groups) {
        out.clone_from(&turn.table.outcomes);
        groups.clone_from(&turn.groups);
    }
}

/// The states of a variant of several micro-moves a turn ([`MicroRules`]): a turn's start is
/// the roll, a turn in progress the mover's next micro-move (or stopping, where the rules let
/// dice go unused). The maximum rule's answers are kept between calls.
pub struct MicroStates<'a, R> {
    pub rules: &'a R,
    cache: RefCell<PlanCache>,
    /// The roll's outcomes, the same at every turn's start of these variants, and their groups
    /// (one each: no two rolls allow the same micro-moves throughout a turn).
    roll: OutcomeList,
    groups: Groups,
}

impl<'a, R: MicroRules> MicroStates<'a, R> {
    pub fn new(rules: &'a R) -> MicroStates<'a, R> {
        let roll = rules.outcomes(&rules.startpos());
        let mut groups = Groups::new();
        one_group_per_outcome(&roll, &mut groups);
        MicroStates { rules, cache: RefCell::new(PlanCache::default()), roll, groups }
    }
}

impl<R: MicroRules> GameStates for MicroStates<'_, R> {
    type State = PositionOf<R>;
    type Choice = StepOf<R>;

    fn kind(&self, state: &Self::State) -> StateKind {
        if state.in_turn() {
            StateKind::Decision
        } else if let Some(end) = self.rules.end(state) {
            StateKind::End(end)
        } else {
            StateKind::Chance
        }
    }

    fn side(&self, state: &Self::State) -> Color {
        state.turn()
    }

    fn starts_turn(&self, state: &Self::State) -> bool {
        !state.in_turn()
    }

    fn starts_may_decide(&self) -> bool {
        false
    }

    fn choices(&self, state: &Self::State, out: &mut ChoiceList<Self::Choice>) {
        allowed_steps(self.rules, state, &mut self.cache.borrow_mut(), out);
        if out.is_empty() {
            // Nothing the dice allow: the turn passes.
            out.push(StepOf::<R>::STOP);
        }
    }

    fn after_choice(&self, state: &Self::State, choice: Self::Choice) -> Self::State {
        after_step(self.rules, state, choice)
    }

    fn outcomes(&self, state: &Self::State, out: &mut OutcomeList) {
        out.clear();
        if !state.in_turn() {
            out.extend(self.rules.outcomes(state));
        }
    }

    fn after_outcome(&self, state: &Self::State, roll: &Roll) -> Self::State {
        self.rules.rolled(state, roll)
    }

    fn key(&self, state: &Self::State) -> u64 {
        state.hash()
    }

    fn reversible_turns(&self, state: &Self::State) -> u32 {
        crate::board::micro_board::MicroBoard::halfmove_clock(&state.board)
    }

    type Turn = ();

    fn end(&self, start: &Self::State) -> Option<GameEnd> {
        if start.in_turn() { None } else { self.rules.end(start) }
    }

    fn kind_in(&self, state: &Self::State, _: &()) -> StateKind {
        if state.in_turn() { StateKind::Decision } else { StateKind::Chance }
    }

    fn outcomes_in(&self, _: &Self::State, _: &(), out: &mut OutcomeList, groups: &mut Groups) {
        out.clone_from(&self.roll);
        groups.clone_from(&self.groups);
    }
}

/// A choice at a decision before the roll: a turn, or rolling the dice.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Choice<T> {
    Turn(T),
    /// Roll the dice (at a pre-roll root).
    Roll,
}

/// Outcomes that allow the same turns, searched once.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct OutcomeGroup {
    /// The first outcome of the group (its column in the turn table stands for all).
    pub representative: usize,
    /// The outcomes of the group.
    pub members: OutcomeMask,
    /// Sum of the members' weights.
    pub weight: u32,
}

/// The groups of one chance node.
pub type Groups = ArrayVec<OutcomeGroup, MAX_OUTCOMES>;

/// Groups a turn table's outcomes by the turns they allow, heaviest group first: by the rules'
/// set keys where given, else by comparing columns.
pub fn group_outcomes(table: &TurnTable<impl Copy + Eq>, groups: &mut Groups) {
    groups.clear();
    let n = table.outcomes.len();
    if table.set_keys.len() == n {
        'keyed: for i in 0..n {
            for g in groups.iter_mut() {
                if table.set_keys[g.representative] == table.set_keys[i] {
                    g.members |= 1 << i;
                    g.weight += table.outcomes[i].weight;
                    continue 'keyed;
                }
            }
            groups.push(OutcomeGroup { representative: i, members: 1 << i, weight: table.outcomes[i].weight });
        }
    } else {
        // A column's signature: a sum of per-turn keys, equal for equal columns; equality is
        // then confirmed turn by turn.
        let key = |k: usize| (k as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(17);
        let mut signatures = [0u64; MAX_OUTCOMES];
        for (k, &mask) in table.masks.iter().enumerate() {
            let mut m = mask;
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                signatures[i] = signatures[i].wrapping_add(key(k));
                m &= m - 1;
            }
        }
        'outcomes: for i in 0..n {
            for g in groups.iter_mut() {
                let r = g.representative;
                if signatures[r] == signatures[i] && table.masks.iter().all(|&m| (m >> r & 1) == (m >> i & 1)) {
                    g.members |= 1 << i;
                    g.weight += table.outcomes[i].weight;
                    continue 'outcomes;
                }
            }
            groups.push(OutcomeGroup { representative: i, members: 1 << i, weight: table.outcomes[i].weight });
        }
    }
    groups.sort_by_key(|g| std::cmp::Reverse(g.weight));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::micro::{PlanCache, count_turns};
    use crate::rules::{ChessKind, ChessRules, DiceChess3, Position};

    /// Every whole turn a state allows, counted through the states: the decisions' choices
    /// followed until a turn starts again.
    fn turns_from<G: GameStates>(game: &G, state: &G::State) -> u64 {
        let mut choices = ChoiceList::new();
        game.choices(state, &mut choices);
        choices
            .iter()
            .map(|&c| {
                let next = game.after_choice(state, c);
                if game.starts_turn(&next) { 1 } else { turns_from(game, &next) }
            })
            .sum()
    }

    #[test]
    fn a_one_move_turn_is_the_choice_to_roll_the_outcomes_and_the_rolled_turns() {
        let rules = ChessRules::new(ChessKind::Freedom, false);
        let game = OneMoveStates { rules: &rules };
        // After 1. e4 d5 2. exd5 Black may recapture without rolling.
        let mut pos = Position::new(crate::Board::startpos());
        for m in ["e2e4", "d7d5", "e4d5"] {
            let t = rules.parse_turn(&pos, m).expect("a move");
            pos = rules.play(&pos, t);
        }
        let start = TurnState::BeforeRoll(pos.clone());
        assert_eq!(game.kind(&start), StateKind::Decision);
        assert!(game.starts_turn(&start));
        let mut choices = ChoiceList::new();
        game.choices(&start, &mut choices);
        assert_eq!(choices[0], Choice::Roll);
        let recapture = rules.parse_turn(&pos, "d8d5").expect("Qxd5");
        assert!(choices.contains(&Choice::Turn(recapture)));
        let rolling = game.after_choice(&start, Choice::Roll);
        assert_eq!((game.kind(&rolling), game.side(&rolling)), (StateKind::Chance, crate::Color::Black));
        assert!(!game.starts_turn(&rolling));
        let mut outcomes = OutcomeList::new();
        game.outcomes(&rolling, &mut outcomes);
        assert_eq!(outcomes.len(), 6);
        // Each face's decision holds the turns the rules allow for it, and they end the turn.
        for o in &outcomes {
            let rolled = game.after_outcome(&rolling, &o.roll);
            assert_eq!(game.kind(&rolled), StateKind::Decision);
            let mut turns = TurnList::new();
            rules.allowed_turns(&pos, &o.roll, &mut turns);
            game.choices(&rolled, &mut choices);
            assert_eq!(choices.to_vec(), turns.iter().map(|&t| Choice::Turn(t)).collect::<Vec<_>>());
            let after = game.after_choice(&rolled, choices[0]);
            assert!(game.starts_turn(&after));
            assert_eq!(game.side(&after), crate::Color::White);
        }
        // Keys tell the kinds and the rolls apart.
        let keys = [
            game.key(&start),
            game.key(&rolling),
            game.key(&game.after_outcome(&rolling, &outcomes[0].roll)),
            game.key(&game.after_outcome(&rolling, &outcomes[1].roll)),
        ];
        for i in 0..keys.len() {
            for j in i + 1..keys.len() {
                assert_ne!(keys[i], keys[j]);
            }
        }
        // Without Freedom moves the turn starts with the roll.
        let quiet = TurnState::BeforeRoll(Position::new(crate::Board::startpos()));
        assert_eq!(game.kind(&quiet), StateKind::Chance);
    }

    #[test]
    fn vegas_unlike_dice_in_either_order_are_two_states() {
        let rules = ChessRules::new(ChessKind::Vegas, false);
        let game = OneMoveStates { rules: &rules };
        let pos = Position::new(crate::Board::startpos());
        let a = Roll::ordered(&[5, 1]).expect("a roll");
        let b = Roll::ordered(&[1, 5]).expect("a roll");
        let rolling = TurnState::Rolling(pos);
        assert_ne!(game.key(&game.after_outcome(&rolling, &a)), game.key(&game.after_outcome(&rolling, &b)));
    }

    #[test]
    fn micro_turns_through_the_states_are_the_rules_whole_turns() {
        let rules = DiceChess3;
        let game = MicroStates::new(&rules);
        let start = rules.startpos();
        assert_eq!(game.kind(&start), StateKind::Chance);
        let mut outcomes = OutcomeList::new();
        game.outcomes(&start, &mut outcomes);
        assert_eq!(outcomes.len(), 56);
        let mut cache = PlanCache::default();
        for o in outcomes.iter().take(20) {
            let rolled = game.after_outcome(&start, &o.roll);
            assert_eq!((game.kind(&rolled), game.side(&rolled)), (StateKind::Decision, crate::Color::White));
            let mut memo = std::collections::HashMap::new();
            let mut listed = 0u64;
            crate::rules::micro::for_each_turn(&rules, &rolled, &mut cache, &mut |_, _| listed += 1);
            assert_eq!(turns_from(&game, &rolled), listed, "roll {}", o.roll);
            assert_eq!(count_turns(&rules, &rolled, &mut cache, &mut memo), listed, "roll {}", o.roll);
        }
        // The dice's orders meet: a pawn then a knight, or the knight then the pawn.
        let rolled = rules.rolled(&start, &Roll::new(&[1, 2, 2]).expect("a roll"));
        let pawn = |p: &PositionOf<DiceChess3>, text: &str| {
            let mut choices = ChoiceList::new();
            game.choices(p, &mut choices);
            let step = *choices.iter().find(|s| s.mv.to_uci(false).to_string() == text).expect(text);
            game.after_choice(p, step)
        };
        let one = pawn(&pawn(&rolled, "e2e4"), "g1f3");
        let other = pawn(&pawn(&rolled, "g1f3"), "e2e4");
        assert_eq!(game.key(&one), game.key(&other));
        assert_eq!(game.kind(&one), StateKind::Decision);
    }
}
