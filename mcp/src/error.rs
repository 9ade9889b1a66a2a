//! What stops a run before it can judge the server.

use std::fmt;

/// A harness or usage error (exit status 2).
#[derive(Debug)]
pub enum HarnessError {
    /// The options make no sense.
    Usage(String),
    /// The server command could not be started or never completed `initialize`.
    Start {
        /// The command line.
        command: String,
        /// Why.
        reason: String,
    },
    /// A scenario tree could not be made.
    Scenario(String),
    /// Writing a report or finding failed.
    Io(String),
}

impl fmt::Display for HarnessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HarnessError::Usage(why) => write!(f, "usage: {why}"),
            HarnessError::Start { command, reason } => {
                write!(
                    f,
                    "cannot start the server `{command}`: {reason}; check that the command runs on its own and speaks MCP over stdio"
                )?;
                let said = reason.to_lowercase();
                if said.contains("git repo") || said.contains("not a git") {
                    // mcp-server-git refuses a --repository that is not one.
                    f.write_str(
                        "; a git server that needs each root to be a repository runs with --git-roots",
                    )?;
                }
                Ok(())
            }
            HarnessError::Scenario(why) => write!(f, "cannot set up a scenario: {why}"),
            HarnessError::Io(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for HarnessError {}
