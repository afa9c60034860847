//! Errors a user sees: every one names where it came from (file, line, field), and its kind
//! tells a front end how to end (bad input, a failed read or write, a lost output). Bad input
//! is an error, never a panic.

use std::fmt;
use std::path::{Path, PathBuf};

/// Where in an input a problem was found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Location {
    /// The file, when known.
    pub file: Option<PathBuf>,
    /// The line in the file, 1-based, when known.
    pub line: Option<usize>,
    /// The field or request field concerned (e.g. `players[3].id`, `round`), when known.
    pub field: Option<String>,
}

/// An error of input, of the request, or of the machinery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The input (a file, a command's arguments) is wrong.
    Input {
        /// Where the problem is.
        at: Location,
        /// What is wrong, for the user.
        message: String,
    },
    /// Reading or writing a file failed.
    Io {
        /// The file.
        path: PathBuf,
        /// The system's message.
        message: String,
    },
    /// Standard output could not be written (a closed pipe, a full disk).
    Output {
        /// The system's message.
        message: String,
    },
}

impl Error {
    /// An input error with no location.
    pub fn input(message: impl Into<String>) -> Self {
        Error::Input {
            at: Location::default(),
            message: message.into(),
        }
    }

    /// An input error at a line and field.
    pub fn at(line: usize, field: &str, message: impl Into<String>) -> Self {
        Error::Input {
            at: Location {
                file: None,
                line: Some(line),
                field: Some(field.to_string()),
            },
            message: message.into(),
        }
    }

    /// An input error about a field, line unknown.
    pub fn field(field: &str, message: impl Into<String>) -> Self {
        Error::Input {
            at: Location {
                file: None,
                line: None,
                field: Some(field.to_string()),
            },
            message: message.into(),
        }
    }

    /// An I/O error on `path`, with the system's message.
    pub fn io(path: &Path, e: impl fmt::Display) -> Self {
        Error::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        }
    }

    /// Attach the file name to an input error that lacks one.
    pub fn in_file(self, path: &Path) -> Self {
        match self {
            Error::Input { mut at, message } => {
                if at.file.is_none() {
                    at.file = Some(path.to_path_buf());
                }
                Error::Input { at, message }
            }
            other => other,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input { at, message } => {
                let mut parts = Vec::new();
                if let Some(file) = &at.file {
                    parts.push(file.display().to_string());
                }
                if let Some(line) = at.line {
                    parts.push(format!("line {line}"));
                }
                if let Some(field) = &at.field {
                    parts.push(format!("field {field}"));
                }
                if parts.is_empty() {
                    write!(f, "{message}")
                } else {
                    write!(f, "{}: {message}", parts.join(", "))
                }
            }
            Error::Io { path, message } => write!(f, "{}: {message}", path.display()),
            Error::Output { message } => write!(f, "standard output: {message}"),
        }
    }
}

impl std::error::Error for Error {}

/// The library's result type, with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
