//! Why a file of evaluation data (tables, a network) or the Die Chess solution was refused: not
//! readable, a line wrong, the contents damaged, each naming the file.

use std::path::Path;

/// Why data was refused; nothing of it was taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DataError {
    /// The file could not be read or written (the system's reason).
    #[error("{path}: {why}")]
    Io { path: String, why: String },
    /// A line of a text file is wrong.
    #[error("line {line}: {why}")]
    Line { line: usize, why: String },
    /// The contents are not what they should be: damaged, cut off, of another kind or version.
    #[error("{0}")]
    Damaged(String),
    /// Data that cannot serve as it is: none kept yet, or not solved to the tolerance asked.
    #[error("{0}")]
    Unusable(String),
    /// The error `source` in the file `path`.
    #[error("{path}: {source}")]
    InFile { path: String, source: Box<DataError> },
}

impl DataError {
    /// The system's refusal to read or write `path`.
    pub fn io(path: &Path, e: &std::io::Error) -> DataError {
        DataError::Io { path: path.display().to_string(), why: e.to_string() }
    }

    /// This error, in the file `path`.
    pub fn in_file(self, path: &Path) -> DataError {
        DataError::InFile { path: path.display().to_string(), source: Box::new(self) }
    }
}
