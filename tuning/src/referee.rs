//! The referee: it owns the rules and the dice, asks each player in turn, checks every answer,
//! and ends the game by the rules, by a ply limit (a draw), or against a player that fails (an
//! illegal move, a crash, a hang, garbage).

use crate::players::{Clocks, Player};
use alea_engine::pairing;
use alea_engine::pgn::{GameRecord, RecordedTurn};
use alea_engine::rules::{OutcomeList, Position, Rules, TurnList, Variant};
use alea_engine::{Board, Color, Game, GameResult};

/// How a refereed game ended.
#[derive(Clone, Debug)]
pub struct Refereed {
    pub record: GameRecord,
    pub result: GameResult,
    pub reason: String,
    /// The game was lost by a player's failure (not by the rules).
    pub failed: bool,
}

/// A time control: each side's starting clock and the increment a move, in milliseconds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base: u64,
    pub increment: u64,
}

/// Plays one game; the dice of ply `k` come from (seed, pair, k), whoever plays. With a time
/// control the referee keeps the clocks: a turn's thinking (before and after the roll) is charged
/// to the mover, the increment added, and a clock run out loses.
#[allow(clippy::too_many_arguments)]
pub fn play_game(
    white: &mut dyn Player,
    black: &mut dyn Player,
    rules: Variant,
    start: &Board,
    seed: u64,
    pair: u64,
    max_plies: usize,
    tc: Option<TimeControl>,
) -> Refereed {
    let mut game = Game::new(rules, Position::new(start.clone()));
    let standard = *start == Board::startpos() && !rules.chess960();
    let mut record = GameRecord::new(rules.name(), rules.chess960(), (!standard).then(|| start.fen()));
    record.tags.push(("White".into(), white.name()));
    record.tags.push(("Black".into(), black.name()));
    let finish = |mut record: GameRecord, result: GameResult, reason: String, failed: bool| {
        record.result = result.to_string();
        record.tags.push(("Termination".into(), reason.clone()));
        Refereed { record, result, reason, failed }
    };
    if let Err(f) = white.new_game(&rules) {
        return finish(record, GameResult::Win(Color::Black), format!("white {f}"), true);
    }
    if let Err(f) = black.new_game(&rules) {
        return finish(record, GameResult::Win(Color::White), format!("black {f}"), true);
    }
    let mut clock = tc.map(|t| [t.base, t.base]);
    for ply in 0..max_plies {
        if let Some(end) = game.end() {
            return finish(record, end.result, end.reason.name().into(), false);
        }
        let pos = game.position().clone();
        let mover = pos.board.turn();
        let player: &mut dyn Player = if mover == Color::White { &mut *white } else { &mut *black };
        player.clocks(clock.map(|[w, b]| Clocks {
            white: w,
            black: b,
            increment: tc.map_or(0, |t| t.increment),
            white_to_move: mover == Color::White,
        }));
        let started = std::time::Instant::now();
        let mut freedom = TurnList::new();
        rules.pre_roll_turns(&pos, &mut freedom);
        let lost = |f: crate::players::Failure| (GameResult::Win(!mover), format!("{} {f}", mover.name()));
        let chosen = match player.before_roll(&game, &freedom) {
            Err(f) => Err(lost(f)),
            Ok(Some(m)) if freedom.contains(&m) => Ok((m, None)),
            Ok(Some(m)) => Err(lost(crate::players::Failure::Illegal(rules.turn_to_uci(m)))),
            Ok(None) => {
                let mut outcomes = OutcomeList::new();
                rules.outcomes(&pos, &mut outcomes);
                let roll = pairing::roll(seed, pair, ply as u64, &outcomes);
                let mut allowed = TurnList::new();
                rules.allowed_turns(&pos, &roll, &mut allowed);
                match player.after_roll(&game, &roll, &allowed) {
                    Ok(m) if allowed.contains(&m) => Ok((m, Some(roll))),
                    Ok(m) => Err(lost(crate::players::Failure::Illegal(rules.turn_to_uci(m)))),
                    Err(f) => Err(lost(f)),
                }
            }
        };
        if let (Some(clock), Some(tc)) = (clock.as_mut(), tc) {
            let side = if mover == Color::White { 0 } else { 1 };
            let used = started.elapsed().as_millis() as u64;
            if used > clock[side] {
                return finish(record, GameResult::Win(!mover), format!("{} lost on time", mover.name()), true);
            }
            clock[side] = clock[side] - used + tc.increment;
        }
        match chosen {
            Ok((turn, roll)) => {
                game.play(turn);
                record.turns.push(RecordedTurn { turn: rules.turn_to_uci(turn), roll, comment: None });
            }
            Err((result, reason)) => return finish(record, result, reason, true),
        }
    }
    match game.end() {
        Some(end) => finish(record, end.result, end.reason.name().into(), false),
        None => finish(record, GameResult::Draw, format!("ply limit {max_plies}"), false),
    }
}
