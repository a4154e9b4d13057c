//! Self-play, measured: seeded games of any variant played by the engine against itself through
//! the turn driver (a Freedom move or a roll, then the turn after it), for the shares of White,
//! Black and draws with their intervals, the games' length and the branching (whole turns a roll
//! allows). Game `n` depends on `n` and the settings alone, so runs in parts add up to one run.

use crate::rules::GameResult;
use crate::search::timeman::Limits;
use crate::search::{SearchOptions, Shared};
use crate::services::driver::{TurnEvent, TurnRequest, play_turn};
use crate::services::error::Error;
use crate::services::handle::{GameHandle, RollSpec, SearchRoot};
use crate::services::registry::Variant;
use std::fmt;

/// How the games are played.
#[derive(Clone, Debug, PartialEq)]
pub struct SelfPlaySettings {
    pub variant: Variant,
    /// Each turn's search.
    pub limits: Limits,
    /// Turns played at random (among those the roll allows) at each game's start, so that
    /// seeded games differ.
    pub random_plies: usize,
    /// A game still on after this many turns is a draw.
    pub max_plies: usize,
    /// The allowed turns are counted at the random turns and at every `count_every`-th turn
    /// (counting four dice's turns costs as much as a search).
    pub count_every: usize,
}

impl SelfPlaySettings {
    /// The settings as one line, which a file of games starts with (a resumed run must match).
    pub fn header(&self) -> String {
        let limit = match (self.limits.depth, self.limits.nodes) {
            (Some(d), _) => format!("depth={d}"),
            (None, Some(n)) => format!("nodes={n}"),
            (None, None) => "depth=1".into(),
        };
        format!(
            "# alea selfplay variant={} {limit} random_plies={} max_plies={} count_every={}",
            self.variant, self.random_plies, self.max_plies, self.count_every
        )
    }
}

/// One game's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelfPlayed {
    /// The game's number (its seed).
    pub number: u64,
    /// How it ended; a game cut at the turn limit is a draw.
    pub result: GameResult,
    pub plies: usize,
    /// The rolls at which the allowed turns were counted, and their sum.
    pub rolls_counted: u64,
    pub turns_allowed: u64,
}

impl fmt::Display for SelfPlayed {
    /// `game 12 1-0 plies 40 rolls 9 allowed 2111`: a line of a file of games.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {} {} plies {} rolls {} allowed {}",
            self.number, self.result, self.plies, self.rolls_counted, self.turns_allowed
        )
    }
}

impl std::str::FromStr for SelfPlayed {
    type Err = Error;

    fn from_str(line: &str) -> Result<SelfPlayed, Error> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let bad = || Error::Record(format!("not a game line: {line:?}"));
        let [_, number, result, _, plies, _, rolls, _, allowed] = words[..] else { return Err(bad()) };
        if [words[0], words[3], words[5], words[7]] != ["game", "plies", "rolls", "allowed"] {
            return Err(bad());
        }
        let result = match result {
            "1-0" => GameResult::Win(crate::board::piece::Color::White),
            "0-1" => GameResult::Win(crate::board::piece::Color::Black),
            "1/2-1/2" => GameResult::Draw,
            _ => return Err(bad()),
        };
        Ok(SelfPlayed {
            number: number.parse().map_err(|_| bad())?,
            result,
            plies: plies.parse().map_err(|_| bad())?,
            rolls_counted: rolls.parse().map_err(|_| bad())?,
            turns_allowed: allowed.parse().map_err(|_| bad())?,
        })
    }
}

/// A small seeded generator (xorshift), one per game.
struct Dice(u64);

impl Dice {
    fn new(game: u64) -> Dice {
        Dice(0x9e37_79b9_7f4a_7c15 ^ (game + 1).wrapping_mul(0x2545_f491_4f6c_dd1d))
    }

    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) % n.max(1)
    }
}

/// Plays game `number` (its dice seeded by the number), with `shared` cleared first so the game
/// depends on its number alone.
pub fn play_game(settings: &SelfPlaySettings, number: u64, shared: &mut Shared) -> Result<SelfPlayed, Error> {
    shared.tt.clear();
    let mut dice = Dice::new(number);
    let mut game = GameHandle::of(settings.variant, false)?;
    let (mut plies, mut rolls_counted, mut turns_allowed) = (0usize, 0u64, 0u64);
    let result = loop {
        if let Some(end) = game.end() {
            break end.result;
        }
        if plies >= settings.max_plies {
            break GameResult::Draw;
        }
        let random = plies < settings.random_plies;
        let counted = random || plies % settings.count_every.max(1) == 0;
        // The random turns roll (where the rules let the player), then pick among what the roll allows.
        if random && game.may_roll() {
            let roll = game
                .roll_for(dice.below(u64::from(game.total_weight())) as u32)
                .ok_or(Error::NoAnswer("nothing to roll".into()))?;
            let spec = RollSpec::Faces(roll.faces().to_vec());
            let allowed = game.count_turns(&spec)?;
            rolls_counted += 1;
            turns_allowed += allowed;
            let turn = game.nth_turn(&spec, dice.below(allowed))?.unwrap_or_else(|| "0000".into());
            game.play_checked(&turn, Some(&roll))?;
            plies += 1;
            continue;
        }
        let request = TurnRequest {
            root: SearchRoot::Decision,
            engine_rolls: true,
            search_forced_roll: false,
            limits: settings.limits.clone(),
            options: SearchOptions::default(),
            skill: None,
        };
        let mut rolled = None;
        let turn = play_turn(&game, request, &*shared, &mut |total| dice.below(u64::from(total)) as u32, &mut |e| {
            if let TurnEvent::Rolled(roll) = e {
                rolled = Some(roll);
            }
        })?;
        if let (Some(roll), true) = (rolled, counted) {
            rolls_counted += 1;
            turns_allowed += game.count_turns(&RollSpec::Faces(roll.faces().to_vec()))?;
        }
        game.play_checked(&turn, rolled.as_ref()).map_err(|e| Error::from(e).at(format!("game {number}: {turn}")))?;
        plies += 1;
    };
    Ok(SelfPlayed { number, result, plies, rolls_counted, turns_allowed })
}

/// What a set of games came to.
#[derive(Clone, Debug, PartialEq)]
pub struct SelfPlaySummary {
    pub games: usize,
    pub white: usize,
    pub black: usize,
    pub draws: usize,
    pub mean_plies: f64,
    /// Whole turns a roll allows, over the rolls counted.
    pub turns_a_roll: f64,
}

impl SelfPlaySummary {
    pub fn of(games: &[SelfPlayed]) -> SelfPlaySummary {
        let count = |r: GameResult| games.iter().filter(|g| g.result == r).count();
        let rolls: u64 = games.iter().map(|g| g.rolls_counted).sum();
        let allowed: u64 = games.iter().map(|g| g.turns_allowed).sum();
        SelfPlaySummary {
            games: games.len(),
            white: count(GameResult::Win(crate::board::piece::Color::White)),
            black: count(GameResult::Win(crate::board::piece::Color::Black)),
            draws: count(GameResult::Draw),
            mean_plies: games.iter().map(|g| g.plies as f64).sum::<f64>() / games.len().max(1) as f64,
            turns_a_roll: allowed as f64 / rolls.max(1) as f64,
        }
    }

    /// A share of the games, in per cent, with its 95 % interval (normal approximation).
    pub fn share(&self, count: usize) -> (f64, f64, f64) {
        let n = self.games.max(1) as f64;
        let p = count as f64 / n;
        let half = 1.96 * (p * (1.0 - p) / n).sqrt();
        (100.0 * p, 100.0 * (p - half).max(0.0), 100.0 * (p + half).min(1.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_line_reads_back_and_a_bad_one_is_refused() {
        let g = SelfPlayed { number: 12, result: GameResult::Draw, plies: 40, rolls_counted: 9, turns_allowed: 2111 };
        assert_eq!(g.to_string(), "game 12 1/2-1/2 plies 40 rolls 9 allowed 2111");
        assert_eq!(g.to_string().parse::<SelfPlayed>(), Ok(g));
        for bad in ["game 12 2-0 plies 40 rolls 9 allowed 2111", "game x 1-0 plies 1 rolls 1 allowed 1", "game 1", ""] {
            assert!(bad.parse::<SelfPlayed>().is_err(), "{bad}");
        }
    }

    /// The same number plays the same game, a shared table or not.
    #[test]
    fn a_game_depends_on_its_number_alone() {
        let settings = SelfPlaySettings {
            variant: Variant::Gollon2,
            limits: Limits { depth: Some(1), ..Limits::default() },
            random_plies: 2,
            max_plies: 30,
            count_every: 5,
        };
        let mut shared = Shared::new(1);
        let once = play_game(&settings, 3, &mut shared).unwrap();
        let _other = play_game(&settings, 4, &mut shared).unwrap();
        assert_eq!(play_game(&settings, 3, &mut shared).unwrap(), once);
        assert!(once.plies > 0 && once.rolls_counted > 0);
        let summary = SelfPlaySummary::of(&[once]);
        assert_eq!(summary.white + summary.black + summary.draws, 1);
    }
}
