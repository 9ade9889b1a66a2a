//! What `rootguard vet` and `rootguard mcp` share on the command line: the
//! headings their `--help` groups flags under, and the search flags both
//! take, with the same defaults.

use std::time::{SystemTime, UNIX_EPOCH};

use clap::Args;

/// How much is searched, and with which seed.
pub const SEARCH: &str = "Search";
/// Which of mcp's checks run.
pub const CHECKS: &str = "Checks";
/// What counts as a defect, and how findings are named.
pub const JUDGING: &str = "Judging";
/// How mcp starts and speaks to the server.
pub const LAUNCH: &str = "Launch";
/// The report files and scenario files written.
pub const OUTPUTS: &str = "Outputs";
/// Comparing with a previous run.
pub const BASELINES: &str = "Baselines";

/// The search flags of `rootguard vet` and `rootguard mcp`: one
/// definition, so that both read and default alike.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct SearchArgs {
    /// The seed of the random scenarios: the same seed asks the same
    /// scenarios again [default: a new one each run, printed at the start
    /// so that `--seed N` repeats the run].
    #[arg(long, value_name = "N", help_heading = SEARCH)]
    pub seed: Option<u64>,
    /// End the random search at its first escape (mcp's generative phase:
    /// also at its first crash, hang or other failure); what it found is
    /// still shrunk and probed.
    #[arg(long, help_heading = SEARCH)]
    pub fail_fast: bool,
}

impl SearchArgs {
    /// The seed given, else a new one from the clock.
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(1)
        })
    }
}
