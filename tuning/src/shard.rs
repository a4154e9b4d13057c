//! One machine's share of a match or of a data run, so that an existing executor (a Kubernetes
//! Indexed Job, a Slurm job array, GNU parallel) can spread the work over many machines.
//!
//! Shard `I` of `N` takes the items (pairs of a match, games of a data run) whose number is `I`
//! modulo `N`. An item's dice and opening come from the seed and its own number only, so the `N`
//! shards together play exactly the items of the unsharded run, each with the same dice.

/// Shard `index` of `count` (`0 <= index < count`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The whole run on one machine.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// `I/N`, counted from 0 as Kubernetes and Slurm count their tasks.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard takes I/N with 0 <= I < N (as 3/64), not '{text}'");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (i.trim().parse::<u64>().map_err(|_| bad())?, n.trim().parse::<u64>().map_err(|_| bad())?);
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The shard of a run split `count` ways whose index the executor gives in the environment:
    /// `JOB_COMPLETION_INDEX` (Kubernetes Indexed Jobs, from 0) or `SLURM_ARRAY_TASK_ID` (less
    /// `SLURM_ARRAY_TASK_MIN`, so that `--array=1-64` works as well as `--array=0-63`).
    pub fn from_env(count: u64, var: impl Fn(&str) -> Option<String>) -> Result<Shard, String> {
        if count == 0 {
            return Err("--shards takes a number of shards of at least 1".into());
        }
        let number = |name: &str| -> Result<Option<u64>, String> {
            match var(name) {
                None => Ok(None),
                Some(v) => v.trim().parse().map(Some).map_err(|_| format!("{name}='{v}' is not a number")),
            }
        };
        let index = if let Some(i) = number("JOB_COMPLETION_INDEX")? {
            i
        } else if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
            let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            id.checked_sub(min)
                .ok_or_else(|| format!("SLURM_ARRAY_TASK_ID {id} is below SLURM_ARRAY_TASK_MIN {min}"))?
        } else {
            return Err(
                "--shards N takes this shard's index from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID, and neither \
                 is set (give --shard I/N instead)"
                    .into(),
            );
        };
        if index >= count {
            return Err(format!("the executor gives shard index {index}, but there are only {count} shards"));
        }
        Ok(Shard { index, count })
    }

    /// The shard of the command line: `--shard I/N`, or `--shards N` with the index from the
    /// environment, or the whole run.
    pub fn from_args(shard: Option<&str>, shards: Option<u64>) -> Result<Shard, String> {
        match (shard, shards) {
            (Some(_), Some(_)) => Err("give --shard I/N or --shards N, not both".into()),
            (Some(text), None) => Shard::parse(text),
            (None, Some(n)) => Shard::from_env(n, |name| std::env::var(name).ok()),
            (None, None) => Ok(Shard::WHOLE),
        }
    }

    /// Is item `n` (counted from 0) this shard's?
    pub fn holds(&self, n: u64) -> bool {
        n % self.count == self.index
    }

    /// This shard's items among the first `total`, in order.
    pub fn items(&self, total: u64) -> impl Iterator<Item = u64> + use<> {
        (self.index..total).step_by(self.count as usize)
    }

    pub fn is_whole(&self) -> bool {
        self.count == 1
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shards_split_the_items_between_them() {
        let shards: Vec<Shard> = (0..4).map(|i| Shard { index: i, count: 4 }).collect();
        let mut all: Vec<u64> = shards.iter().flat_map(|s| s.items(10)).collect();
        all.sort_unstable();
        assert_eq!(all, (0..10).collect::<Vec<_>>());
        assert_eq!(shards[1].items(10).collect::<Vec<_>>(), [1, 5, 9]);
        assert!(shards[1].holds(5) && !shards[1].holds(6));
        assert_eq!(Shard::WHOLE.items(3).collect::<Vec<_>>(), [0, 1, 2]);
    }

    #[test]
    fn shards_are_read_from_the_command_line_and_the_environment() {
        assert_eq!(Shard::parse("3/64"), Ok(Shard { index: 3, count: 64 }));
        for bad in ["64/64", "1/0", "3", "a/4", "-1/4", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string())
        };
        assert_eq!(Shard::from_env(8, env(&[("JOB_COMPLETION_INDEX", "5")])), Ok(Shard { index: 5, count: 8 }));
        assert_eq!(Shard::from_env(8, env(&[("SLURM_ARRAY_TASK_ID", "2")])), Ok(Shard { index: 2, count: 8 }));
        // --array=1-8: the first task is shard 0.
        let slurm = env(&[("SLURM_ARRAY_TASK_ID", "8"), ("SLURM_ARRAY_TASK_MIN", "1")]);
        assert_eq!(Shard::from_env(8, slurm), Ok(Shard { index: 7, count: 8 }));
        assert!(
            Shard::from_env(8, env(&[("JOB_COMPLETION_INDEX", "8")]))
                .unwrap_err()
                .to_string()
                .contains("only 8 shards")
        );
        assert!(
            Shard::from_env(8, env(&[("JOB_COMPLETION_INDEX", "x")])).unwrap_err().to_string().contains("not a number")
        );
        assert!(Shard::from_env(8, env(&[])).unwrap_err().to_string().contains("neither"));
        assert!(Shard::from_args(Some("1/2"), Some(2)).is_err());
        assert_eq!(Shard::from_args(None, None), Ok(Shard::WHOLE));
    }
}
