//! The engine's UCI options: how `uci` lists them and how `setoption` sets them.

use alea_engine::services::registry::Variant;
use alea_engine::services::search::EvalParams;
use alea_engine::services::search::NamedEval;
use std::sync::Arc;

/// Which chance-node pruning the search uses.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ChancePruningOption {
    None,
    Star1,
    Star2,
}

/// Current option values.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub hash_mib: usize,
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead_ms: u64,
    pub show_wdl: bool,
    /// The variant `UCI_Variant` names.
    pub variant: Variant,
    pub chess960: bool,
    pub engine_rolls: bool,
    pub seed: u64,
    /// `Skill Level`, 0 to 20 ([`alea_engine::services::search::Skill`]); 20 is full strength.
    pub skill_level: u8,
    pub chance_pruning: ChancePruningOption,
    /// ChanceProbCut, the forward pruning at rolls (`ChanceProbCut`); off, Star1 and Star2 give
    /// plain expectiminimax's value exactly.
    pub chance_probcut: bool,
    /// Evaluation parameters read from `EvalFile`; `None` is the variant's built-in table.
    pub eval: Option<Arc<EvalParams>>,
    /// A learned evaluation read from `EvalFile` (used for the variant it was trained for).
    pub net: Option<Arc<alea_engine::services::search::Network>>,
    /// Off (`EvalFile tables`): the variant's tables without the network it has adopted.
    pub use_net: bool,
    pub eval_file: String,
    /// Die Chess from its exact solution (`DieChessSolution`); off, by search.
    pub die_chess_solution: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mib: alea_engine::services::search::DEFAULT_HASH_MIB,
            threads: 1,
            multipv: 1,
            move_overhead_ms: alea_engine::services::search::DEFAULT_MOVE_OVERHEAD_MS,
            show_wdl: false,
            variant: Variant::DEFAULT,
            chess960: false,
            engine_rolls: false,
            seed: 0,
            skill_level: alea_engine::services::search::FULL_SKILL,
            die_chess_solution: true,
            chance_pruning: ChancePruningOption::Star2,
            chance_probcut: true,
            eval: None,
            net: None,
            use_net: true,
            eval_file: String::new(),
        }
    }
}

pub const MAX_HASH_MIB: usize = 16_384;
pub const MAX_THREADS: usize = 64;
pub const MAX_MULTIPV: usize = 256;
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// What changed, so the session can react (a new variant resets the game).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Changed {
    Rules,
    Hash,
    Other,
}

impl Options {
    /// The `option ...` lines of the `uci` reply.
    pub fn uci_lines(&self) -> Vec<String> {
        let d = Options::default();
        vec![
            format!("option name Hash type spin default {} min 1 max {MAX_HASH_MIB}", d.hash_mib),
            format!("option name Threads type spin default {} min 1 max {MAX_THREADS}", d.threads),
            format!("option name MultiPV type spin default {} min 1 max {MAX_MULTIPV}", d.multipv),
            format!("option name Move Overhead type spin default {} min 0 max 5000", d.move_overhead_ms),
            "option name UCI_ShowWDL type check default false".into(),
            format!(
                "option name UCI_Variant type combo default {} {}",
                d.variant,
                Variant::ALL.map(|v| format!("var {v}")).join(" ")
            ),
            "option name UCI_Chess960 type check default false".into(),
            "option name EngineRolls type check default false".into(),
            format!("option name Seed type spin default {} min 0 max {MAX_SEED}", d.seed),
            format!("option name Skill Level type spin default {0} min 0 max {0}", d.skill_level),
            "option name ChancePruning type combo default star2 var none var star1 var star2".into(),
            "option name ChanceProbCut type check default true".into(),
            "option name EvalFile type string default <empty>".into(),
            "option name DieChessTable type string default <empty>".into(),
            "option name DieChessSolution type check default true".into(),
            "option name Clear Hash type button".into(),
        ]
    }

    /// Sets an option by its UCI name (case-insensitive). Nothing changes on error.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Changed, String> {
        let key = name.to_ascii_lowercase();
        if key == "clear hash" {
            return Ok(Changed::Hash);
        }
        let Some(value) = value else {
            return Err(format!("option '{name}' needs a value"));
        };
        let spin = |min: u64, max: u64| -> Result<u64, String> {
            match value.parse::<u64>() {
                Ok(v) if (min..=max).contains(&v) => Ok(v),
                _ => Err(format!("option '{name}' takes a whole number from {min} to {max}, not '{value}'")),
            }
        };
        let check = || -> Result<bool, String> {
            match value.to_ascii_lowercase().as_str() {
                "true" => Ok(true),
                "false" => Ok(false),
                _ => Err(format!("option '{name}' takes true or false, not '{value}'")),
            }
        };
        match key.as_str() {
            "hash" => {
                self.hash_mib = spin(1, MAX_HASH_MIB as u64)? as usize;
                Ok(Changed::Hash)
            }
            "threads" => {
                self.threads = spin(1, MAX_THREADS as u64)? as usize;
                Ok(Changed::Other)
            }
            "multipv" => {
                self.multipv = spin(1, MAX_MULTIPV as u64)? as usize;
                Ok(Changed::Other)
            }
            "move overhead" => {
                self.move_overhead_ms = spin(0, 5000)?;
                Ok(Changed::Other)
            }
            "uci_showwdl" => {
                self.show_wdl = check()?;
                Ok(Changed::Other)
            }
            "uci_variant" => {
                self.variant =
                    value.parse().map_err(|e: alea_engine::services::registry::UnknownVariant| e.to_string())?;
                Ok(Changed::Rules)
            }
            "uci_chess960" => {
                self.chess960 = check()?;
                Ok(Changed::Rules)
            }
            "enginerolls" => {
                self.engine_rolls = check()?;
                Ok(Changed::Other)
            }
            "seed" => {
                self.seed = spin(0, MAX_SEED)?;
                Ok(Changed::Other)
            }
            "skill level" => {
                self.skill_level = spin(0, u64::from(alea_engine::services::search::FULL_SKILL))? as u8;
                Ok(Changed::Other)
            }
            "chanceprobcut" => {
                self.chance_probcut = check()?;
                Ok(Changed::Other)
            }
            "chancepruning" => {
                self.chance_pruning = match value.to_ascii_lowercase().as_str() {
                    "none" => ChancePruningOption::None,
                    "star1" => ChancePruningOption::Star1,
                    "star2" => ChancePruningOption::Star2,
                    _ => {
                        return Err(format!("option '{name}' takes none, star1 or star2, not '{value}'"));
                    }
                };
                Ok(Changed::Other)
            }
            "evalfile" => {
                let (eval, net, use_net) = if value.is_empty() || value == "<empty>" {
                    (None, None, true)
                } else {
                    match NamedEval::read(value).map_err(|e| format!("EvalFile {e}"))? {
                        NamedEval::Tables(params) => (Some(Arc::new(*params)), None, true),
                        NamedEval::Network(net) => (None, Some(Arc::new(*net)), true),
                        NamedEval::OwnTables => (None, None, false),
                    }
                };
                (self.eval, self.net, self.use_net) = (eval, net, use_net);
                self.eval_file = if value == "<empty>" { String::new() } else { value.to_string() };
                // The table's scores were made with the old evaluation.
                Ok(Changed::Hash)
            }
            "diechesssolution" => {
                self.die_chess_solution = check()?;
                Ok(Changed::Other)
            }
            "diechesstable" => {
                // The exact Die Chess table that `alea solve diechess --out FILE` wrote; with
                // none the engine solves the game itself when it first plays it.
                if !value.is_empty() && value != "<empty>" {
                    let table = alea_engine::services::registry::read_solution(std::path::Path::new(value))
                        .map_err(|e| format!("DieChessTable {e}"))?;
                    table.install();
                }
                Ok(Changed::Other)
            }
            _ => Err(format!("unknown option '{}'", crate::command::truncate(name))),
        }
    }
}
