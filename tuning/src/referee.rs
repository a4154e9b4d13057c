//! The referee: it owns the rules and the dice, asks each player in turn, checks every answer,
//! and ends the game by the rules, by a ply limit (a draw), or against a player that fails (an
//! illegal move, a crash, a hang, garbage).

use crate::players::{Clocks, Player};
use alea_engine::services::handle::GameHandle;
use alea_engine::services::luck::LuckTable;
use alea_engine::services::pgn::{GameRecord, RecordedTurn};
use alea_engine::services::registry::Variant;
use alea_engine::services::search::Shared;
use alea_engine::{Color, GameResult};

/// The tag of a refereed game that holds White's luck less Black's, as an expected result.
pub const WHITE_LUCK: &str = "WhiteLuck";

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

/// Plays one game of `variant` from `start` (a FEN; `None` for the standard start); the dice of
/// ply `k` come from (seed, pair, k), whoever plays. With a time control the referee keeps the
/// clocks: a turn's thinking (before and after the roll) is charged to the mover, the increment
/// added, and a clock run out loses. With `luck` (a table for its searches), the referee also
/// reads each roll's luck ([`alea_engine::services::luck`]), off the clock, and writes White's luck less
/// Black's in the `WhiteLuck` tag, where every roll's luck was read.
#[allow(clippy::too_many_arguments)]
pub fn play_game(
    white: &mut dyn Player,
    black: &mut dyn Player,
    variant: Variant,
    chess960: bool,
    start: Option<&str>,
    seed: u64,
    pair: u64,
    max_plies: usize,
    tc: Option<TimeControl>,
    luck: Option<&Shared>,
) -> Refereed {
    let mut game = GameHandle::setup(variant, chess960, start, None, &[]).expect("a start the match checked");
    let mut record = GameRecord::new(variant, chess960, start.map(str::to_string));
    record.tags.push(("White".into(), white.name()));
    record.tags.push(("Black".into(), black.name()));
    // White's luck less Black's, while every roll's luck has been read.
    let mut white_luck = luck.map(|_| 0.0);
    let finish = |mut record: GameRecord, result: GameResult, reason: String, failed: bool, luck: Option<f64>| {
        if let Some(l) = luck {
            record.tags.push((WHITE_LUCK.into(), format!("{l:+.6}")));
        }
        record.result = result.to_string();
        record.tags.push(("Termination".into(), reason.clone()));
        Refereed { record, result, reason, failed }
    };
    if let Err(f) = white.new_game(&game) {
        return finish(record, GameResult::Win(Color::Black), format!("white {f}"), true, None);
    }
    if let Err(f) = black.new_game(&game) {
        return finish(record, GameResult::Win(Color::White), format!("black {f}"), true, None);
    }
    let mut clock = tc.map(|t| [t.base, t.base]);
    for ply in 0..max_plies {
        if let Some(end) = game.end() {
            return finish(record, end.result, end.reason.name().into(), false, white_luck);
        }
        let mover = game.side_to_move();
        let player: &mut dyn Player = if mover == Color::White { &mut *white } else { &mut *black };
        player.clocks(clock.map(|[w, b]| Clocks {
            white: w,
            black: b,
            increment: tc.map_or(0, |t| t.increment),
            white_to_move: mover == Color::White,
        }));
        let started = std::time::Instant::now();
        let pre_roll = game.pre_roll_turns();
        let lost = |f: crate::players::Failure| (GameResult::Win(!mover), format!("{} {f}", mover.name()));
        let chosen = match player.before_roll(&game, &pre_roll) {
            Err(f) => Err(lost(f)),
            Ok(Some(m)) if pre_roll.contains(&m) => Ok((m, None)),
            Ok(Some(m)) => Err(lost(crate::players::Failure::Illegal(m))),
            Ok(None) if !game.may_roll() => Err(lost(crate::players::Failure::Illegal("roll".into()))),
            Ok(None) => {
                let roll = alea_engine::services::search::seeded_roll(seed, pair, ply as u64, &game.outcomes());
                match player.after_roll(&game, &roll) {
                    Ok(m) if game.allows(&m, &roll) => Ok((m, Some(roll))),
                    Ok(m) => Err(lost(crate::players::Failure::Illegal(m))),
                    Err(f) => Err(lost(f)),
                }
            }
        };
        if let (Some(clock), Some(tc)) = (clock.as_mut(), tc) {
            let side = if mover == Color::White { 0 } else { 1 };
            let used = started.elapsed().as_millis() as u64;
            if used > clock[side] {
                return finish(
                    record,
                    GameResult::Win(!mover),
                    format!("{} lost on time", mover.name()),
                    true,
                    white_luck,
                );
            }
            clock[side] = clock[side] - used + tc.increment;
        }
        match chosen {
            Ok((turn, roll)) => {
                // The roll's luck, read from the position before it (off the mover's clock).
                if let (Some(shared), Some(roll), Some(sum)) = (luck, roll.as_ref(), white_luck) {
                    white_luck = LuckTable::searched(&game, shared)
                        .and_then(|t| t.luck(roll).ok())
                        .map(|l| sum + if mover == Color::White { l } else { -l });
                }
                game.play_checked(&turn, roll.as_ref()).expect("a turn from the game's own lists");
                // The mover's last search and the turn's time, as cutechess-cli notes a move.
                let comment = player.last_search().map(|note| note.comment(started.elapsed().as_secs_f64()));
                record.turns.push(RecordedTurn { turn, roll, comment });
            }
            Err((result, reason)) => return finish(record, result, reason, true, white_luck),
        }
    }
    match game.end() {
        Some(end) => finish(record, end.result, end.reason.name().into(), false, white_luck),
        None => finish(record, GameResult::Draw, format!("ply limit {max_plies}"), false, white_luck),
    }
}
