//! A solved game's solution kept between runs. Solving a game takes some seconds (Die Chess's
//! ten or so on two cores, more on a busy machine); every later process reads the table from the user's cache directory instead
//! (`$XDG_CACHE_HOME/alea` on Linux, the platform's own place elsewhere) in a fraction of a
//! second. A kept table is used only if its checksum holds, its version is this build's and it
//! was solved to the engine's tolerance; anything else is solved again and replaced. Processes
//! starting together (the two engines of a match) solve once: the others wait on a lock file.

use super::solve::Solution;
use crate::eval::data::DataError;
use crate::rules::solvable::Solvable;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// The largest change of the last sweep of a table the engine plays from.
pub const TOLERANCE: f64 = 1e-12;

/// The directory tables are kept in, if the platform has one for this user.
pub fn cache_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "alea").map(|dirs| dirs.cache_dir().to_path_buf())
}

/// The kept table's file name in a cache directory: the game's name and its solution's version
/// ([`Solvable::SOLUTION_VERSION`]).
pub fn file_name<G: Solvable>(rules: &G) -> String {
    format!("{}-v{}.table", rules.name(), G::SOLUTION_VERSION)
}

/// How [`load_or_solve_in`] had its table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Had {
    /// Read from the cache.
    Read,
    /// Solved now and kept; the reason the cache could not serve (missing, damaged, not to
    /// the tolerance).
    Solved(String),
}

/// The kept table at `path`, or why it cannot be used.
fn usable<G: Solvable>(rules: &G, path: &Path) -> Result<Solution<G>, DataError> {
    if !path.exists() {
        return Err(DataError::Unusable("none kept yet".into()));
    }
    let table = Solution::read(rules.clone(), path)?;
    if table.last_change > TOLERANCE {
        return Err(DataError::Unusable(format!("solved only to {:.1e}", table.last_change)));
    }
    Ok(table)
}

/// The table kept in `dir`, or solved (`progress` told each sweep) and kept there. Errs, having
/// solved nothing, only where the directory cannot hold it (it cannot be made or locked).
pub fn load_or_solve_in<G: Solvable>(
    rules: &G,
    dir: &Path,
    progress: &mut dyn FnMut(u32, f64),
) -> Result<(Solution<G>, Had), DataError> {
    let name = file_name(rules);
    let path = dir.join(&name);
    if let Ok(table) = usable(rules, &path) {
        return Ok((table, Had::Read));
    }
    std::fs::create_dir_all(dir).map_err(|e| DataError::io(dir, &e))?;
    let lock_path = dir.join(format!("{name}.lock"));
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| DataError::io(&lock_path, &e))?;
    lock.lock().map_err(|e| DataError::io(&lock_path, &e))?;
    // Another process may have solved it while this one waited.
    let why = match usable(rules, &path) {
        Ok(table) => return Ok((table, Had::Read)),
        Err(why) => why.to_string(),
    };
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let table = Solution::solve(rules.clone(), TOLERANCE, threads, progress);
    // Written beside it and renamed over it: a reader never sees half a table.
    let partial = dir.join(format!(".{name}.{}.partial", std::process::id()));
    let mut bytes = Vec::new();
    table.write_to(&mut bytes).map_err(|e| DataError::io(&path, &e))?;
    if let Err(e) = std::fs::write(&partial, &bytes).and_then(|()| std::fs::rename(&partial, &path)) {
        let _ = std::fs::remove_file(&partial);
        return Ok((table, Had::Solved(format!("{why}; not kept: {}: {e}", path.display()))));
    }
    Ok((table, Had::Solved(why)))
}

/// The table the engine plays from when none was installed: kept in the cache directory, or
/// solved and kept. While it solves, a terminal on standard error sees its progress; where it
/// cannot be kept, standard error is told why and it is solved for this process only.
pub fn table<G: Solvable>(rules: G) -> Solution<G> {
    let terminal = std::io::stderr().is_terminal();
    let name = rules.name();
    let mut progress = |sweep: u32, change: f64| {
        if terminal {
            eprint!("\rSolving {name} once for this machine: sweep {sweep}, largest change {change:.1e}   ");
        }
    };
    let result = match cache_dir() {
        Some(dir) => load_or_solve_in(&rules, &dir, &mut progress),
        None => Err(DataError::Unusable("this platform names no cache directory for the user".into())),
    };
    match result {
        Ok((table, Had::Read)) => table,
        Ok((table, Had::Solved(_))) => {
            if terminal {
                eprintln!(
                    "\rSolved {name}; kept in {} for next time.{:20}",
                    cache_dir().unwrap_or_default().display(),
                    ""
                );
            }
            table
        }
        Err(e) => {
            eprintln!("alea: the {name} solution cannot be kept ({e}); solving it for this run only");
            let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
            Solution::solve(rules, TOLERANCE, threads, &mut progress)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::diechess::DieChess;

    /// A table solved coarsely (fast) stands in for the real one to check the keeping.
    fn coarse() -> Vec<u8> {
        let mut bytes = Vec::new();
        Solution::solve(DieChess, 1e-2, 2, &mut |_, _| {}).write_to(&mut bytes).unwrap();
        bytes
    }

    #[test]
    fn a_damaged_or_coarse_kept_table_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(file_name(&DieChess));
        assert_eq!(usable(&DieChess, &path).unwrap_err().to_string(), "none kept yet");
        let mut bytes = coarse();
        std::fs::write(&path, &bytes).unwrap();
        assert!(usable(&DieChess, &path).unwrap_err().to_string().starts_with("solved only to"));
        bytes[100] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(usable(&DieChess, &path).unwrap_err().to_string().contains("checksum"));
    }

    #[test]
    fn a_directory_that_cannot_be_made_is_said_before_any_solving() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a-file");
        std::fs::write(&file, "").unwrap();
        let mut sweeps = 0;
        let err = load_or_solve_in(&DieChess, &file.join("cache"), &mut |_, _| sweeps += 1).unwrap_err();
        assert!(err.to_string().contains("a-file"), "{err}");
        assert_eq!(sweeps, 0);
    }
}
