//! The game handle's way into every variant of several micro-moves a turn, whatever its board:
//! the one game interface ([`PlayedGame`]), written once for every [`MicroGame`] of rules
//! ([`MicroRules`]) on any board ([`MicroBoard`]). A variant on a new
//! board is then its rules and its board, and nothing in the handle.

use crate::board::micro_board::{MicroBoard, MicroMove};
use crate::board::piece::{Color, Piece, Role};
use crate::board::values::PieceValues;
use crate::eval::{Evaluated, MicroEval};
use crate::rules::dice::{OutcomeList, Roll, RollError};
use crate::rules::game::MicroGame;
use crate::rules::micro::{
    DicePool, MicroRules, MovesOf, PlanCache, PositionOf, StepsOf, TurnOf, allowed_steps, for_each_turn, parse_turn,
    play_turn,
};
use crate::rules::{GameEnd, GameError};
use crate::search::baseline::Baseline;
use crate::search::timeman::Limits;
use crate::search::{MicroInput, SearchOptions, SearchResult, Shared};
use crate::services::game::{PlayedGame, over, sorted_texts};
use crate::services::handle::{RollSpec, SearchReport, SearchRoot};
use crate::services::one_turn::map_result;
use std::fmt;
use std::sync::atomic::AtomicBool;

impl<R> MicroGame<R>
where
    R: MicroRules + Clone,
{
    /// The position after `roll`, or in a turn in progress the position with its dice.
    fn rolled_position(&self, roll: &Roll) -> PositionOf<R> {
        if self.position().in_turn() { self.position().clone() } else { self.rules().rolled(self.position(), roll) }
    }
}

impl<R> PlayedGame for MicroGame<R>
where
    R: MicroRules + Clone + fmt::Debug + Send + Sync + 'static,
    R::Board: Evaluated,
    <R::Board as Evaluated>::Eval: MicroEval<R::Board>,
{
    fn box_clone(&self) -> Box<dyn PlayedGame> {
        Box::new(self.clone())
    }

    fn name(&self) -> &'static str {
        self.rules().name()
    }

    fn dice(&self) -> usize {
        self.rules().dice()
    }

    fn roll_meaning(&self, roll: &Roll) -> String {
        self.rules().roll_meaning(roll)
    }

    fn dice_left(&self) -> Option<Roll> {
        self.rules().roll_left(self.position())
    }

    fn check_roll(&self, faces: &[u8]) -> Result<Roll, GameError> {
        let rules = self.rules();
        let roll = rules.roll_of(faces)?;
        match rules.roll_left(self.position()) {
            Some(left) if left != roll => Err(RollError::NotLeft { left, given: roll }.into()),
            None if roll.dice() != rules.dice() => {
                Err(RollError::WrongCount { expected: rules.dice(), got: roll.dice() }.into())
            }
            _ => Ok(roll),
        }
    }

    fn start_turn(&mut self, roll: &Roll) -> Result<bool, GameError> {
        let rules = self.rules();
        if roll.dice() != rules.dice() {
            return Err(RollError::WrongCount { expected: rules.dice(), got: roll.dice() }.into());
        }
        MicroGame::start_turn(self, roll)
    }

    fn play_step(&mut self, micro: &str) -> Result<bool, GameError> {
        MicroGame::play_step(self, micro)
    }

    fn partial_turn(&self) -> String {
        MicroGame::partial_turn(self).to_uci(false)
    }

    fn canonical(&self, text: &str) -> Option<String> {
        parse_turn(self.rules(), self.position(), text).ok().map(|moves| TurnOf::<R>::new(&moves).to_uci(false))
    }

    fn start_fen(&self) -> String {
        self.rules().dfen(self.start())
    }

    fn fen(&self) -> String {
        self.rules().dfen(self.position())
    }

    fn material_gain(&self, turn: &str) -> i32 {
        let Ok(moves) = parse_turn(self.rules(), self.position(), turn) else { return 0 };
        let values = self.rules().piece_values();
        let mut pos = self.position().clone();
        let mut total = 0;
        for m in moves {
            total += crate::search::baseline::micro_gain(&pos, m, &values);
            pos = pos.after_micro(m, &[]);
        }
        total
    }

    fn moving_role(&self, turn: &str, _roll: Option<&Roll>) -> Option<Role> {
        let moves = parse_turn(self.rules(), self.position(), turn).ok()?;
        self.position().board.mover_role(*moves.first()?)
    }

    fn end(&self) -> Option<GameEnd> {
        MicroGame::end(self)
    }

    fn size(&self) -> (u8, u8) {
        self.position().board.size()
    }

    fn piece_at(&self, file: u8, rank: u8) -> Option<Piece> {
        self.position().board.piece_at_coords(file, rank)
    }

    fn chess_board(&self) -> Option<&crate::Board> {
        self.position().board.chess_board()
    }

    fn side_to_move(&self) -> Color {
        self.position().turn()
    }

    fn fullmove_number(&self) -> u32 {
        self.position().board.fullmove_number()
    }

    fn key(&self) -> u64 {
        self.position().hash()
    }

    fn turns(&self) -> Vec<String> {
        MicroGame::turns(self).iter().map(|t| t.to_uci(false)).collect()
    }

    fn outcomes(&self) -> OutcomeList {
        if self.position().in_turn() || MicroGame::end(self).is_some() {
            return OutcomeList::new();
        }
        self.rules().outcomes(self.position())
    }

    fn state_lines(&self) -> Vec<String> {
        let pos = self.position();
        let mut lines = Vec::new();
        let targets = R::Board::target_names(pos.ep_targets);
        if !targets.is_empty() {
            lines.push(format!("En-passant targets: {}", targets.join(" ")));
        }
        if let Some(roll) = self.rules().roll_left(pos) {
            lines.push(format!("Turn in progress, dice left: {roll}"));
        }
        lines
    }

    fn perft(&self, depth: u32, stop: &AtomicBool, counted: &mut dyn FnMut(&str, u64)) -> Result<bool, GameError> {
        Ok(self.position().board.perft_divide(depth, stop, counted))
    }

    fn outcome_worths(&self, options: &SearchOptions) -> Vec<(Roll, f64, f64)> {
        let outcomes = PlayedGame::outcomes(self);
        if outcomes.is_empty() {
            return Vec::new();
        }
        let eval = <R::Board as Evaluated>::evaluation(
            &options.eval_or_values(self.rules().piece_values()),
            options.network_for(self.rules().name()),
        );
        let equity = crate::search::equity::Equity::new(crate::eval::MicroEval::result_scale(&eval));
        let dice = crate::search::micro::HorizonDice::new(self.rules(), &outcomes);
        if !dice.tell_roles_apart() {
            return Vec::new();
        }
        let values = crate::search::micro::horizon_outcome_values(self.rules(), &eval, &equity, self.position(), &dice);
        outcomes.iter().zip(values).map(|(o, v)| (o.roll, o.probability, equity.expected_result_of(v))).collect()
    }

    fn san(&self, turn: &str) -> String {
        let Ok(moves) = parse_turn(self.rules(), self.position(), turn) else {
            return turn.to_string();
        };
        if moves.is_empty() {
            return "--".into();
        }
        let mut pos = self.position().clone();
        let mut parts = Vec::new();
        for m in moves {
            pos.dice = DicePool::ONE_EACH;
            let mut candidates = MovesOf::<R>::default();
            self.rules().micro_moves(&pos, &mut candidates);
            parts.push(pos.board.san(m, &candidates));
            pos = pos.after_micro(m, &[]);
        }
        parts.join(",")
    }

    fn parse_san(&self, text: &str) -> Option<String> {
        if text == "--" {
            return Some("0000".into());
        }
        let mut pos = self.position().clone();
        let mut moves = Vec::new();
        for part in text.split(',') {
            pos.dice = DicePool::ONE_EACH;
            let mut candidates = MovesOf::<R>::default();
            self.rules().micro_moves(&pos, &mut candidates);
            let m = pos.board.parse_san(part, &candidates)?;
            moves.push(m.uci(false));
            pos = pos.after_micro(m, &[]);
        }
        (moves.len() <= crate::rules::dice::MAX_DICE).then(|| moves.join(","))
    }

    fn piece_values(&self) -> PieceValues {
        self.rules().piece_values()
    }

    fn uses_tables(&self) -> Result<(), &'static str> {
        <R::Board as Evaluated>::uses_tables()
    }

    fn eval_terms(&self) -> Option<Vec<i32>> {
        self.position().board.eval_terms()
    }

    fn dice_letters(&self) -> Option<String> {
        let pos = self.position();
        pos.in_turn().then(|| pos.dice.letters(pos.turn()))
    }

    fn several_moves_a_turn(&self) -> bool {
        true
    }

    fn play(&mut self, turn: &str) -> Result<(), GameError> {
        self.play_with(turn, None)
    }

    fn play_checked(&mut self, turn: &str, roll: Option<&Roll>) -> Result<(), GameError> {
        self.play_with(turn, roll)
    }

    fn allowed_turns(&self, roll: &RollSpec) -> Result<Vec<String>, GameError> {
        over(MicroGame::end(self))?;
        Ok(sorted_texts(self.allowed(&self.rolled(roll)?)))
    }

    fn check_roll_spec(&self, roll: &RollSpec) -> Result<(), GameError> {
        over(MicroGame::end(self))?;
        self.rolled(roll).map(|_| ())
    }

    fn check_only(&self, roll: Option<&RollSpec>, turns: &[String]) -> Result<(), GameError> {
        if turns.is_empty() {
            return Err(GameError::Turn("no turn named".into()));
        }
        // Each turn on its own against the roll, or a turn in progress's dice (four dice allow
        // hundreds of thousands of turns).
        let dice = match (roll, self.dice_left()) {
            (Some(spec), _) => self.rolled(spec)?,
            (None, Some(left)) => left,
            (None, None) => return Err(GameError::Turn("the turns of several micro-moves need the roll".into())),
        };
        match turns.iter().find(|t| !self.allows_rolled(t, &dice)) {
            Some(t) => Err(GameError::Turn(format!("{t} is not allowed here"))),
            None => Ok(()),
        }
    }

    fn count_turns(&self, roll: &RollSpec) -> Result<u64, GameError> {
        over(MicroGame::end(self))?;
        Ok(self.count(&self.rolled(roll)?))
    }

    fn nth_turn(&self, roll: &RollSpec, k: u64) -> Result<Option<String>, GameError> {
        over(MicroGame::end(self))?;
        Ok(self.nth(&self.rolled(roll)?, k))
    }

    fn allows(&self, turn: &str, roll: &Roll) -> bool {
        self.canonical(turn).as_deref() == Some(turn)
            && self.rolled(&RollSpec::Faces(roll.faces().to_vec())).is_ok_and(|roll| self.allows_rolled(turn, &roll))
    }

    fn greedy_turn(&self, roll: &RollSpec) -> Result<(String, i32), GameError> {
        over(MicroGame::end(self))?;
        Ok(self.greedy(&self.rolled(roll)?))
    }

    fn first_moves(&self, roll: &RollSpec) -> Result<Vec<String>, GameError> {
        over(MicroGame::end(self))?;
        let first = sorted_texts(self.first(&self.rolled(roll)?));
        Ok(if first.is_empty() { vec!["0000".into()] } else { first })
    }

    fn baseline_turn(
        &self,
        roll: &RollSpec,
        baseline: Baseline,
        deadline: Option<std::time::Instant>,
    ) -> Result<String, GameError> {
        over(MicroGame::end(self))?;
        let pos = self.rolled_position(&self.rolled(roll)?);
        let rules = self.rules();
        let turn = match baseline {
            Baseline::Expectimax2 => crate::search::baseline::expectimax2(rules, &pos).0,
            Baseline::Aggressive => crate::search::baseline::aggressive_turn(rules, &pos).0,
            Baseline::Peer { candidates } => {
                let mut stop = || deadline.is_some_and(|d| std::time::Instant::now() >= d);
                crate::search::baseline::peer(rules, &pos, candidates, &mut stop).turn
            }
        };
        Ok(turn.to_uci(false))
    }

    fn search(
        &self,
        root: &SearchRoot,
        limits: Limits,
        options: SearchOptions,
        shared: &Shared,
        report: &mut (dyn FnMut(&SearchReport) + Send),
    ) -> Result<SearchReport, GameError> {
        let (roll, only) = match root {
            SearchRoot::Decision => (None, None),
            SearchRoot::Rolled(spec) => (Some(self.rolled(spec)?), None),
            SearchRoot::Only { roll: None, turns } => (None, Some(turns.as_slice())),
            SearchRoot::Only { roll: Some(spec), turns } => (Some(self.rolled(spec)?), Some(turns.as_slice())),
        };
        self.search_rolled(roll.as_ref(), only, limits, options, shared, report)
    }
}

impl<R> MicroGame<R>
where
    R: MicroRules + Clone + fmt::Debug + Send + Sync + 'static,
    R::Board: Evaluated,
    <R::Board as Evaluated>::Eval: MicroEval<R::Board>,
{
    /// The roll a question is asked about, checked (in a turn in progress, its dice).
    fn rolled(&self, roll: &RollSpec) -> Result<Roll, GameError> {
        match roll {
            RollSpec::Any => {
                Err(GameError::NotInVariant(format!("{} has no free turn: give the dice", self.rules().name())))
            }
            RollSpec::Faces(faces) => self.check_roll(faces),
        }
    }

    /// Plays a whole turn; with `roll`, the one it must be allowed by (else some roll's).
    fn play_with(&mut self, turn: &str, roll: Option<&Roll>) -> Result<(), GameError> {
        let roll = roll.filter(|_| !self.position().in_turn());
        self.play_text(turn, roll).map(|_| ())
    }

    /// Every whole turn `roll` allows, in generation order (`0000` where it allows nothing).
    fn allowed(&self, roll: &Roll) -> Vec<String> {
        let mut turns = Vec::new();
        for_each_turn(self.rules(), &self.rolled_position(roll), &mut PlanCache::default(), &mut |t, _| {
            turns.push(t.to_uci(false))
        });
        turns
    }

    /// How many whole turns `roll` allows.
    fn count(&self, roll: &Roll) -> u64 {
        let pos = self.rolled_position(roll);
        crate::rules::micro::count_turns(
            self.rules(),
            &pos,
            &mut PlanCache::default(),
            &mut std::collections::HashMap::new(),
        )
    }

    /// The `k`-th of the turns `roll` allows, in generation order.
    fn nth(&self, roll: &Roll, k: u64) -> Option<String> {
        crate::rules::micro::nth_turn(self.rules(), &self.rolled_position(roll), k, &mut PlanCache::default())
            .map(|t| t.to_uci(false))
    }

    /// Does `roll` allow the turn `turn`?
    fn allows_rolled(&self, turn: &str, roll: &Roll) -> bool {
        let pos = self.rolled_position(roll);
        let Ok(moves) = parse_turn(self.rules(), &pos, turn) else { return false };
        play_turn(self.rules(), &pos, &moves, &mut PlanCache::new(12)).is_ok()
    }

    /// The first micro-moves `roll` allows, in generation order.
    fn first(&self, roll: &Roll) -> Vec<String> {
        let mut steps = StepsOf::<R>::new();
        allowed_steps(self.rules(), &self.rolled_position(roll), &mut PlanCache::default(), &mut steps);
        steps.iter().map(|s| s.mv.uci(false)).collect()
    }

    /// The `greedy` baseline's turn after `roll` and what it wins.
    fn greedy(&self, roll: &Roll) -> (String, i32) {
        let pos = self.rolled_position(roll);
        let (turn, gain) = crate::search::baseline::greedy(self.rules(), &pos, &self.rules().piece_values());
        (turn.to_uci(false), gain)
    }

    /// Searches the turn's start (`roll` `None`) or the turn after `roll` (a turn in progress:
    /// its dice left), among `only` these whole turns where given; a turn the dice do not allow
    /// is refused.
    fn search_rolled(
        &self,
        roll: Option<&Roll>,
        only: Option<&[String]>,
        limits: Limits,
        options: SearchOptions,
        shared: &Shared,
        report: &mut (dyn FnMut(&SearchResult<String>) + Send),
    ) -> Result<SearchResult<String>, GameError> {
        let position = match roll {
            Some(roll) => self.rolled_position(roll),
            None => self.position().clone(),
        };
        let only: Option<Vec<TurnOf<R>>> = match only {
            None => None,
            Some(_) if !position.in_turn() => return Err(GameError::Turn("searchmoves needs the roll".into())),
            Some([]) => return Err(GameError::Turn("searchmoves names no turn".into())),
            Some(texts) => Some(
                texts
                    .iter()
                    .map(|text| {
                        let moves = parse_turn(self.rules(), &position, text)?;
                        play_turn(self.rules(), &position, &moves, &mut PlanCache::new(12))
                            .map_err(|e| crate::rules::game::describe(text, e))?;
                        Ok(TurnOf::<R>::new(&moves))
                    })
                    .collect::<Result<_, GameError>>()?,
            ),
        };
        let eval = <R::Board as Evaluated>::evaluation(
            &options.eval_or_values(self.rules().piece_values()),
            options.network_for(self.rules().name()),
        );
        let input = MicroInput {
            rules: self.rules(),
            eval: &eval,
            position: &position,
            history: self.hashes(),
            limits,
            options,
            only: only.as_deref(),
        };
        let text = |r: &SearchResult<TurnOf<R>>| map_result(r, |t| t.to_uci(false));
        let result = crate::search::search_micro(&input, shared, &mut |r| report(&text(r)));
        Ok(text(&result))
    }
}
