//! `alea advise --rollout N`: the search's best choices played out N times each (the engine's
//! `rollout`), shown as a table for people and as JSON for programs.

use crate::progress::Progress;
use alea_engine::services::handle::{GameHandle, SearchReport, SearchRoot};
use alea_engine::services::rollout::{ChoiceRollout, RolloutSettings, RolloutTable, best_choices, roll_out};
use serde_json::Value;
use std::time::Instant;

/// The rollout asked for on the command line.
#[derive(Clone, Debug)]
pub struct RolloutAsk {
    pub settings: RolloutSettings,
    /// How many of the search's best choices are played out.
    pub choices: usize,
}

/// The games played out, with what the table says of them.
pub struct Rolled {
    pub ask: RolloutAsk,
    pub choices: Vec<ChoiceRollout>,
    pub seconds: f64,
}

/// Plays out the best `ask.choices` of the search `r` at `root` (only the choices it scored
/// exactly, where it bounded the rest).
pub fn run(game: &GameHandle, root: &SearchRoot, r: &SearchReport, ask: &RolloutAsk) -> Result<Rolled, String> {
    let choices = best_choices(r, ask.choices);
    let total = choices.len() as u64 * u64::from(ask.settings.games);
    let progress = Progress::new(
        total,
        "games",
        (total / 10).max(1),
        "rollout {bar:40} {pos}/{len} games, {elapsed} (about {eta} left)",
    );
    let started = Instant::now();
    let rolled = roll_out(game, root, &choices, &ask.settings, &|done, _| progress.update(done as u64, ""));
    progress.finish();
    Ok(Rolled {
        ask: ask.clone(),
        choices: rolled.map_err(|e| e.to_string())?,
        seconds: started.elapsed().as_secs_f64(),
    })
}

impl Rolled {
    /// Games played out from each choice (fewer than asked where the time ran out).
    fn played(&self) -> usize {
        self.choices.first().map_or(0, |c| c.results.len())
    }

    fn how(&self) -> String {
        let s = &self.ask.settings;
        let length = match s.turns {
            Some(t) => format!("{t} turns, then valued by a search"),
            None => "to the end".into(),
        };
        let played = self.played();
        let games = if played < s.games as usize {
            format!("{played} games a choice (of {} asked: the time ran out)", s.games)
        } else {
            format!("{played} games a choice")
        };
        format!(
            "rollout: {games}, both players {} turn{} deep, {length}; dice from seed {}, {}\n({} thread{}, {:.1} s)",
            s.depth,
            if s.depth == 1 { "" } else { "s" },
            s.seed,
            if s.luck_adjusted {
                "each roll's luck taken out of the results"
            } else {
                "the results as the games ended"
            },
            s.threads,
            if s.threads == 1 { "" } else { "s" },
            self.seconds
        )
    }

    /// The table every front end shows ([`RolloutTable`]).
    fn table(&self, game: &GameHandle) -> RolloutTable {
        RolloutTable::of(game, &self.choices, &self.ask.settings)
    }

    pub fn to_text(&self, game: &GameHandle) -> String {
        let table = self.table(game);
        let Some(best) = table.choices.first() else { return String::new() };
        let mw = table.choices.iter().map(|r| r.san.chars().count()).max().unwrap_or(0).max(8);
        let mut out = format!(
            "\n{}\nresults for {}, in per cent (a draw half a game), ± the 95 % interval\n\n",
            self.how(),
            table.side
        );
        out.push_str(&format!(
            "   #  {:<mw$}  search   result        loss vs best    win  draw  loss   cut  turns\n",
            "move"
        ));
        for (rank, r) in table.choices.iter().enumerate() {
            let loss = if rank == 0 {
                "0".to_string()
            } else {
                format!("{:.1} ± {:.1}", r.loss * 100.0, r.loss_ci95 * 100.0)
            };
            let share = |n: u32| f64::from(n) * 100.0 / r.games.max(1) as f64;
            out.push_str(&format!(
                "{:>4}  {:<mw$}  {:>6}   {:>5.1} ± {:<4.1}  {:<14}  {:>4.0}% {:>4.0}% {:>4.0}% {:>4.0}%  {:>5.1}\n",
                rank + 1,
                r.san,
                format!("#{}", r.search_rank),
                r.result * 100.0,
                r.ci95 * 100.0,
                loss,
                share(r.wins),
                share(r.draws),
                share(r.losses),
                share(r.cut),
                r.mean_turns
            ));
        }
        out.push_str(&format!("\nbest by rollout: {} ({})\n", best.san, best.uci));
        out
    }

    /// The table as JSON, with the seconds the rollout took.
    pub fn to_json(&self, game: &GameHandle) -> Value {
        let mut value = serde_json::to_value(self.table(game)).expect("a rollout serialises");
        value["seconds"] = serde_json::json!(self.seconds);
        value
    }
}
