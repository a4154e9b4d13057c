//! A game of one move a turn as the game handle speaks to it, whatever its board: the 8x8
//! variants, BrainKing on 10x10 and Die Chess alike. A variant of that shape says what front
//! ends need beyond its [`Rules`] in [`OneTurnRules`] (its positions as FEN, its squares, SAN),
//! its positions bring their evaluation ([`crate::eval::Evaluated`]), the variant registry says
//! how it is searched ([`SearchFn`]), and [`OneTurn`] turns all that into the one game interface ([`PlayedGame`]) once for all
//! of them, so the handle has one arm for every such variant.

use crate::board::piece::{Color, Piece, Role};
use crate::board::values::PieceValues;
use crate::eval::{Evaluated, Evaluator};
use crate::rules::dice::{OutcomeList, Roll};
use crate::rules::game::Game;
use crate::rules::one_turn::OneTurnRules;
use crate::rules::{GameEnd, GameError, Rules, TurnList};
use crate::search::timeman::Limits;
use crate::search::{Choice, OutcomeAdvice, Root, ScoredChoice, SearchOptions, SearchResult, Shared};
use crate::services::game::{PlayedGame, over};
use crate::services::handle::{RollSpec, SearchReport, SearchRoot};
use std::fmt;
use std::sync::atomic::AtomicBool;

/// A king taken counts this much in [`PlayedGame::material_gain`]: more than any material.
pub const KING_GAIN: i32 = 100_000;

/// What a search of a one-move game starts from.
#[derive(Clone, Copy, Debug)]
enum OneTurnRoot<'a> {
    /// Before the roll.
    Decision,
    /// After this roll: every turn it allows.
    Rolled(&'a Roll),
    /// Every turn, whatever the dice (`go roll any`).
    Free,
    /// Only these turns (UCI text).
    Only(&'a [String]),
}

/// How a game of one move a turn is searched: [`search_evaluated`] (the evaluation its
/// positions bring), unless the variant registry gives another way (Die Chess from its exact
/// solution, [`crate::search::solve::search_solved`]).
pub type SearchFn<R> = fn(
    &Game<R>,
    Root<<R as Rules>::Turn>,
    Limits,
    SearchOptions,
    &Shared,
    &mut (dyn FnMut(&SearchResult<<R as Rules>::Turn>) + Send),
) -> SearchResult<<R as Rules>::Turn>;

/// A game of one move a turn with the way it is searched.
pub struct OneTurn<R: Rules> {
    game: Game<R>,
    search: SearchFn<R>,
}

impl<R: Rules + Clone> Clone for OneTurn<R> {
    fn clone(&self) -> OneTurn<R> {
        OneTurn { game: self.game.clone(), search: self.search }
    }
}

impl<R: Rules> fmt::Debug for OneTurn<R>
where
    Game<R>: fmt::Debug,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OneTurn").field("game", &self.game).finish_non_exhaustive()
    }
}

impl<R: OneTurnRules> OneTurn<R>
where
    R::Position: fmt::Debug + Send + Sync,
    R::Turn: Send + Sync,
{
    /// A game of `rules` from `fen` (as [`Game::set_up`]), searched by `search`.
    pub fn set_up(
        rules: R,
        fen: Option<&str>,
        recapture: Option<&str>,
        search: SearchFn<R>,
    ) -> Result<OneTurn<R>, GameError> {
        Ok(OneTurn { game: Game::set_up(rules, fen, recapture)?, search })
    }
}

impl<R: Rules> std::ops::Deref for OneTurn<R> {
    type Target = Game<R>;

    fn deref(&self) -> &Game<R> {
        &self.game
    }
}

impl<R: Rules> std::ops::DerefMut for OneTurn<R> {
    fn deref_mut(&mut self) -> &mut Game<R> {
        &mut self.game
    }
}

/// The search of a game of one move a turn by the evaluation its positions bring: the way
/// every such variant is searched unless its registry row gives another.
pub fn search_evaluated<R>(
    game: &Game<R>,
    root: Root<R::Turn>,
    limits: Limits,
    options: SearchOptions,
    shared: &Shared,
    report: &mut (dyn FnMut(&SearchResult<R::Turn>) + Send),
) -> SearchResult<R::Turn>
where
    R: Rules + Sync,
    R::Position: Evaluated + Send + Sync + fmt::Debug,
    <R::Position as Evaluated>::Eval: Evaluator<R>,
    R::Turn: Send + Sync,
{
    crate::search::search_evaluated(game, root, limits, options, shared, report)
}

impl<R: OneTurnRules> Game<R>
where
    R::Position: fmt::Debug + Send + Sync,
    R::Turn: Send + Sync,
{
    /// A game of `rules` from `fen` (the start when `None`), with Freedom's recapture square if
    /// given, its rule state filled in and checked.
    pub fn set_up(rules: R, fen: Option<&str>, recapture: Option<&str>) -> Result<Game<R>, GameError> {
        let mut pos = match fen {
            Some(text) => rules.parse_fen(text)?,
            None => rules.start_position(),
        };
        rules.implied_state(&mut pos);
        if let Some(square) = recapture {
            rules.set_recapture(&mut pos, square)?;
        }
        rules.validate(&pos)?;
        Ok(Game::new(rules, pos))
    }

    fn parse(&self, text: &str) -> Result<R::Turn, GameError> {
        self.rules()
            .parse_turn(self.position(), text)
            .ok_or_else(|| GameError::Turn(format!("{text} is not a move here")))
    }

    fn candidates(&self) -> TurnList<R::Turn> {
        let mut list = TurnList::new();
        self.rules().any_turns(self.position(), &mut list);
        list
    }

    fn texts(&self, turns: &[R::Turn]) -> Vec<String> {
        let mut v: Vec<String> = turns.iter().map(|&t| self.rules().answer(t)).collect();
        v.sort();
        v.dedup();
        v
    }
}

impl<R: OneTurnRules> PlayedGame for OneTurn<R>
where
    R::Position: Evaluated + fmt::Debug + Send + Sync,
    R::Turn: Send + Sync,
{
    fn box_clone(&self) -> Box<dyn PlayedGame> {
        Box::new(self.clone())
    }

    fn name(&self) -> &'static str {
        self.rules().name()
    }

    fn chess960(&self) -> bool {
        self.rules().chess960()
    }

    fn dice(&self) -> usize {
        self.rules().dice()
    }

    fn roll_meaning(&self, roll: &Roll) -> String {
        self.rules().roll_meaning(roll)
    }

    fn check_roll(&self, faces: &[u8]) -> Result<Roll, GameError> {
        Ok(self.rules().roll_of(faces)?)
    }

    fn play(&mut self, turn: &str) -> Result<(), GameError> {
        if self.rules().parse_turn(self.position(), turn).is_none() {
            // The rules' own reason where they have one (Die Chess joins a roll to its move with
            // a comma: `roll3,b2a1` is one turn, and the fault is the face or the move).
            if let Some(why) = self.rules().why_not(self.position(), turn) {
                return Err(why);
            }
            if turn.contains(',') {
                return Err(GameError::Turn(format!(
                    "'{turn}' has several moves, but {} plays one a turn",
                    self.rules().name()
                )));
            }
        }
        let rules = self.rules().clone();
        self.play_uci(turn, |p| rules.fen(p)).map(|_| ())
    }

    fn canonical(&self, text: &str) -> Option<String> {
        self.rules().read_turn(self.position(), text).map(|t| self.rules().turn_to_uci(t))
    }

    fn in_check(&self) -> bool {
        self.rules().in_check(self.position())
    }

    fn start_fen(&self) -> String {
        self.rules().fen(self.start())
    }

    fn fen(&self) -> String {
        self.rules().fen(self.position())
    }

    fn material_gain(&self, turn: &str) -> i32 {
        let Some(t) = self.rules().read_turn(self.position(), turn) else { return 0 };
        let roles = self.rules().turn_roles(self.position(), t);
        let values = self.rules().piece_values();
        let promotion = roles.promotion.map_or(0, |r| values.of(r) - values.of(Role::Pawn));
        match roles.captured {
            Some(Role::King) => KING_GAIN + promotion,
            Some(r) => values.of(r) + promotion,
            None => promotion,
        }
    }

    fn moving_role(&self, turn: &str, roll: Option<&Roll>) -> Option<Role> {
        let whole = match roll {
            Some(roll) => self.rules().turn_of_answer(roll, turn).ok()?,
            None => turn.to_string(),
        };
        let t = self.rules().read_turn(self.position(), &whole)?;
        self.rules().turn_roles(self.position(), t).mover
    }

    fn end(&self) -> Option<GameEnd> {
        Game::end(self)
    }

    fn size(&self) -> (u8, u8) {
        self.rules().size()
    }

    fn piece_at(&self, file: u8, rank: u8) -> Option<Piece> {
        self.rules().piece_at(self.position(), file, rank)
    }

    fn side_to_move(&self) -> Color {
        self.rules().turn(self.position())
    }

    fn fullmove_number(&self) -> u32 {
        self.rules().fullmove(self.position())
    }

    fn key(&self) -> u64 {
        self.rules().hash(self.position())
    }

    fn turns(&self) -> Vec<String> {
        self.game.turns().iter().map(|&t| self.rules().turn_to_uci(t)).collect()
    }

    fn pre_roll_turns(&self) -> Vec<String> {
        if Game::end(&self.game).is_some() {
            return Vec::new();
        }
        let mut list = TurnList::new();
        self.rules().pre_roll_turns(self.position(), &mut list);
        self.texts(&list)
    }

    fn outcomes(&self) -> OutcomeList {
        let mut out = OutcomeList::new();
        if Game::end(&self.game).is_some() {
            return out;
        }
        self.rules().outcomes(self.position(), &mut out);
        out
    }

    fn state_lines(&self) -> Vec<String> {
        self.rules().state_lines(self.position())
    }

    fn perft(&self, depth: u32, stop: &AtomicBool, counted: &mut dyn FnMut(&str, u64)) -> Result<bool, GameError> {
        self.rules().perft_divide(self.position(), depth, stop, counted)
    }

    fn san(&self, turn: &str) -> String {
        let Some(t) = self.rules().read_turn(self.position(), turn) else { return turn.to_string() };
        if self.rules().turn_to_uci(t) == "0000" {
            return "--".into();
        }
        self.rules().san(self.position(), t, &self.candidates())
    }

    fn parse_san(&self, text: &str) -> Option<String> {
        if text == "--" {
            return Some("0000".into());
        }
        let t = self.rules().parse_san(self.position(), text, &self.candidates())?;
        Some(self.rules().turn_to_uci(t))
    }

    fn pre_roll_kinds(&self, turn: &str) -> Vec<&'static str> {
        match self.parse(turn) {
            Ok(t) => self.rules().pre_roll_kinds(self.position(), t),
            Err(_) => Vec::new(),
        }
    }

    fn piece_values(&self) -> PieceValues {
        self.rules().piece_values()
    }

    fn uses_tables(&self) -> Result<(), &'static str> {
        <R::Position as Evaluated>::uses_tables()
    }

    fn eval_terms(&self) -> Option<Vec<i32>> {
        self.position().eval_terms()
    }

    fn chess_board(&self) -> Option<&crate::Board> {
        self.rules().chess_board(self.position())
    }

    fn fen_after_roll(&self, roll: &Roll) -> String {
        self.rules().fen(&self.rules().after_roll(self.position(), roll))
    }

    fn several_moves_a_turn(&self) -> bool {
        false
    }

    fn play_checked(&mut self, turn: &str, roll: Option<&Roll>) -> Result<(), GameError> {
        // The game records the whole turn (Die Chess's answer after a roll is the move alone;
        // the roll joins it).
        match roll {
            Some(roll) => {
                let whole = self.turn_of_answer(roll, turn)?;
                PlayedGame::play(self, &whole)
            }
            None => PlayedGame::play(self, turn),
        }
    }

    fn start_turn(&mut self, _roll: &Roll) -> Result<bool, GameError> {
        Err(GameError::NotInVariant(format!("{} plays one move a turn: play the turn whole", self.rules().name())))
    }

    fn play_step(&mut self, _micro: &str) -> Result<bool, GameError> {
        Err(GameError::NotInVariant(format!("{} plays one move a turn: play the turn whole", self.rules().name())))
    }

    fn turn_with_roll(&self, answer: &str, roll: &Roll) -> String {
        self.turn_of_answer(roll, answer).unwrap_or_else(|_| answer.to_string())
    }

    fn allowed_turns(&self, roll: &RollSpec) -> Result<Vec<String>, GameError> {
        over(Game::end(&self.game))?;
        // After a roll, what the player answers (in Die Chess the move alone, or `0000`).
        match roll {
            RollSpec::Any => {
                self.rules().free_turns()?;
                Ok(self.allowed(None))
            }
            RollSpec::Faces(faces) => Ok(self.allowed(Some(&self.check_roll(faces)?))),
        }
    }

    fn check_roll_spec(&self, roll: &RollSpec) -> Result<(), GameError> {
        over(Game::end(&self.game))?;
        match roll {
            RollSpec::Any => self.rules().free_turns(),
            RollSpec::Faces(faces) => self.check_roll(faces).map(|_| ()),
        }
    }

    fn check_only(&self, roll: Option<&RollSpec>, turns: &[String]) -> Result<(), GameError> {
        if turns.is_empty() {
            return Err(GameError::Turn("no turn named".into()));
        }
        // The turns are the same whatever roll allows them: any roll's, without one.
        let allowed = self.allowed_turns(roll.unwrap_or(&RollSpec::Any))?;
        match turns.iter().find(|t| !allowed.contains(t)) {
            Some(t) => Err(GameError::Turn(format!("{t} is not allowed here"))),
            None => Ok(()),
        }
    }

    fn count_turns(&self, roll: &RollSpec) -> Result<u64, GameError> {
        Ok(self.allowed_turns(roll)?.len() as u64)
    }

    fn nth_turn(&self, roll: &RollSpec, k: u64) -> Result<Option<String>, GameError> {
        Ok(self.allowed_turns(roll)?.into_iter().nth(k as usize))
    }

    fn allows(&self, turn: &str, roll: &Roll) -> bool {
        self.canonical(turn).as_deref() == Some(turn)
            && self.allowed_turns(&RollSpec::Faces(roll.faces().to_vec())).is_ok_and(|l| l.iter().any(|t| t == turn))
    }

    fn greedy_turn(&self, roll: &RollSpec) -> Result<(String, i32), GameError> {
        let allowed = self.allowed_turns(roll)?;
        let best = allowed.iter().map(|t| self.material_gain(t)).max().unwrap_or(0);
        let turn = allowed.into_iter().find(|t| self.material_gain(t) == best).unwrap_or_else(|| "0000".into());
        Ok((turn, best))
    }

    fn first_moves(&self, roll: &RollSpec) -> Result<Vec<String>, GameError> {
        self.allowed_turns(roll)
    }

    fn baseline_turn(
        &self,
        _roll: &RollSpec,
        _baseline: crate::search::baseline::Baseline,
        _deadline: Option<std::time::Instant>,
    ) -> Result<String, GameError> {
        over(Game::end(&self.game))?;
        Err(GameError::NotInVariant(format!(
            "the baselines (expectimax2, peer, aggressive) play the variants of several moves a turn, not {}",
            self.rules().name()
        )))
    }

    fn search(
        &self,
        root: &SearchRoot,
        limits: Limits,
        options: SearchOptions,
        shared: &Shared,
        report: &mut (dyn FnMut(&SearchReport) + Send),
    ) -> Result<SearchReport, GameError> {
        let roll = match root {
            SearchRoot::Rolled(RollSpec::Faces(faces)) => Some(self.check_roll(faces)?),
            _ => None,
        };
        let root = match (root, &roll) {
            (SearchRoot::Decision, _) => OneTurnRoot::Decision,
            (SearchRoot::Rolled(_), Some(roll)) => OneTurnRoot::Rolled(roll),
            (SearchRoot::Rolled(_), None) => OneTurnRoot::Free,
            (SearchRoot::Only { turns, .. }, _) => OneTurnRoot::Only(turns),
        };
        self.search_from(root, limits, options, shared, report)
    }
}

impl<R: OneTurnRules> OneTurn<R>
where
    R::Position: Evaluated + fmt::Debug + Send + Sync,
    R::Turn: Send + Sync,
{
    /// The turns a roll allows (`None`: whatever the dice), sorted.
    fn allowed(&self, roll: Option<&Roll>) -> Vec<String> {
        let mut list = TurnList::new();
        match roll {
            None => self.rules().any_turns(self.position(), &mut list),
            Some(roll) => self.rules().allowed_turns(self.position(), roll, &mut list),
        }
        self.texts(&list)
    }

    /// Searches from `root`; turns after a roll come back as the player answers them.
    fn search_from(
        &self,
        root: OneTurnRoot<'_>,
        limits: Limits,
        options: SearchOptions,
        shared: &Shared,
        report: &mut (dyn FnMut(&SearchResult<String>) + Send),
    ) -> Result<SearchResult<String>, GameError> {
        let rules = self.rules().clone();
        let root = match root {
            OneTurnRoot::Decision => Root::PreRoll,
            OneTurnRoot::Rolled(_) | OneTurnRoot::Free => {
                let mut turns = TurnList::new();
                match root {
                    OneTurnRoot::Rolled(roll) => rules.allowed_turns(self.position(), roll, &mut turns),
                    _ => {
                        rules.free_turns()?;
                        rules.any_turns(self.position(), &mut turns);
                    }
                }
                // In the order of their text; a pass offered beside moves (Vegas's "any") goes
                // last: it wins no tie.
                let mut keyed: Vec<(bool, String, R::Turn)> =
                    turns.iter().map(|&t| (rules.answer(t) == "0000", rules.answer(t), t)).collect();
                keyed.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
                keyed.dedup_by(|a, b| a.1 == b.1);
                Root::Turns(keyed.into_iter().map(|(_, _, t)| t).collect())
            }
            OneTurnRoot::Only(texts) => Root::Turns(texts.iter().map(|t| self.parse(t)).collect::<Result<_, _>>()?),
        };
        let text = |r: &SearchResult<R::Turn>| map_result(r, |&t| rules.answer(t));
        let result = (self.search)(&self.game, root, limits, options, shared, &mut |r| report(&text(r)));
        Ok(text(&result))
    }

    /// The whole turn of an answer after `roll` ([`OneTurnRules::turn_of_answer`]).
    fn turn_of_answer(&self, roll: &Roll, answer: &str) -> Result<String, GameError> {
        self.rules().turn_of_answer(roll, answer)
    }
}

/// A search result with its turns written as text.
pub(crate) fn map_result<T>(r: &SearchResult<T>, text: impl Fn(&T) -> String) -> SearchResult<String> {
    let choice = |c: &Choice<T>| match c {
        Choice::Turn(t) => Choice::Turn(text(t)),
        Choice::Roll => Choice::Roll,
    };
    SearchResult {
        best: choice(&r.best),
        score: r.score,
        depth: r.depth,
        seldepth: r.seldepth,
        nodes: r.nodes,
        elapsed: r.elapsed,
        pv: r.pv.iter().map(&text).collect(),
        choices: r
            .choices
            .iter()
            .map(|c| ScoredChoice { choice: choice(&c.choice), score: c.score, exact: c.exact, value: c.value })
            .collect(),
        outcomes: r
            .outcomes
            .iter()
            .map(|o| OutcomeAdvice {
                roll: o.roll,
                probability: o.probability,
                best: text(&o.best),
                score: o.score,
                value: o.value,
                estimated: o.estimated,
            })
            .collect(),
        roll_score: r.roll_score,
        mate: r.mate,
        hashfull: r.hashfull,
        result_scale: r.result_scale,
        value: r.value,
    }
}
