//! What a played turn was worth, for game reviews: the best choice in its place, what the turn
//! lost against it, and the luck of the roll (the best value the roll allowed minus the expected
//! value of rolling). Front ends format it (`alea analyse`, the web page).

use crate::chessmove::Move;
use crate::game::Game;
use crate::piece::Color;
use crate::rules::{Roll, Rules, TurnList, Variant};
use crate::search::{Choice, Root, SearchOptions, Shared, search_game};
use crate::timeman::Limits;

/// One turn of a game, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnAnalysis {
    pub ply: usize,
    pub side: Color,
    pub played: Move,
    /// `None` for a turn played without rolling (a Freedom move).
    pub roll: Option<Roll>,
    /// The best choice in the same place: before the roll (a Freedom move or rolling) for a
    /// Freedom move, else the best move the roll allowed.
    pub best: Choice<Move>,
    pub best_score: i32,
    /// Centipawns the played turn gave away against the best (0 for the best).
    pub loss: i32,
    /// For a rolled turn: the best value this roll allowed minus the expected value of rolling.
    pub luck: Option<i32>,
}

/// Judges `played` (with its `roll`) in the game's current position. Each search has a fresh
/// table and one thread, so the engine's own moves at the same limit lose nothing.
pub fn analyse_turn(
    game: &Game<Variant>,
    ply: usize,
    played: Move,
    roll: Option<Roll>,
    limits: &Limits,
) -> TurnAnalysis {
    let rules = game.rules();
    let pos = game.position();
    let search = |root: Root<Move>, choices: usize| {
        let options = SearchOptions { multipv: choices.max(1), threads: 1, ..SearchOptions::default() };
        search_game(game, root, limits.clone(), options, &Shared::new(16), &mut |_| {})
    };
    let mut pre = TurnList::new();
    rules.pre_roll_turns(pos, &mut pre);
    let before = search(Root::PreRoll, pre.len() + 1);
    let side = pos.board.turn();
    let (result, luck) = match roll {
        None => (before, None),
        Some(r) => {
            let mut allowed = TurnList::new();
            rules.allowed_turns(pos, &r, &mut allowed);
            let after = search(Root::Turns(allowed.to_vec()), allowed.len());
            let expected = before.roll_score.unwrap_or(after.score);
            let best = after.choices.first().map_or(after.score, |c| c.score);
            (after, Some(best - expected))
        }
    };
    let best = result.choices[0];
    let played_score = result.choices.iter().find(|c| c.choice == Choice::Turn(played)).map_or(best.score, |c| c.score);
    TurnAnalysis {
        ply,
        side,
        played,
        roll,
        best: best.choice,
        best_score: best.score,
        loss: (best.score - played_score).max(0),
        luck,
    }
}
