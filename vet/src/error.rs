//! What stops the harness itself (as opposed to a checker's defects).

use std::fmt;

/// A failure of the harness, not of the checker: exit status 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HarnessError {
    /// The checker command could not be started.
    CannotStart {
        /// The command as given.
        command: String,
        /// Why.
        reason: String,
    },
    /// A scenario file or the generator is unusable.
    Scenario(String),
    /// A temp dir or output file could not be made.
    Io(String),
}

impl fmt::Display for HarnessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HarnessError::CannotStart { command, reason } => write!(
                f,
                "cannot start the checker `{command}`: {reason}; give the command after `--`, e.g. `rootguard vet -- python3 checker.py`"
            ),
            HarnessError::Scenario(why) => f.write_str(why),
            HarnessError::Io(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for HarnessError {}
