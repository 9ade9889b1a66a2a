//! What `rootguard vet` and `rootguard mcp` share on the command line: the
//! headings their `--help` groups flags under, and the search flags both
//! take, with the same defaults.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use clap::{Args, ValueEnum};
use rootguard_judge::flavour::Flavour;

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
    /// Seconds of random scenarios (vet: from the start, after the corpus and the covering array, which are asked whole; mcp: the generative phase after the fixed table, split between the session modes); 0: none.
    #[arg(long, value_name = "SECONDS", default_value_t = 60, help_heading = SEARCH)]
    pub budget: u64,
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
    /// Processes asking at once, each its share of the seed's scenarios (vet: checker processes; mcp: servers in the generative phase, each on its own trees) [default: the number of cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..), help_heading = SEARCH)]
    pub jobs: Option<u16>,
    /// Seconds that shrinking and probing the findings may take in all (a slow checker or server needs more to name every defect); what is left untriaged is reported as found.
    #[arg(long, value_name = "SECONDS", default_value_t = 60, help_heading = SEARCH)]
    pub triage_time: u64,
}

impl SearchArgs {
    /// The jobs given, else one per core.
    pub fn jobs(&self) -> usize {
        self.jobs.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            usize::from,
        )
    }

    /// The budget, as a duration.
    pub fn budget(&self) -> Duration {
        Duration::from_secs(self.budget)
    }

    /// The triage time, as a duration.
    pub fn triage_time(&self) -> Duration {
        Duration::from_secs(self.triage_time)
    }

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

/// `--flavor`: whose path semantics a path and its roots are read in
/// (`vet` and `check` alike).
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FlavorArg {
    /// Linux, judged by the kernel.
    #[default]
    Linux,
    /// Windows (Win32 on NTFS), judged by the model of docs/semantics.md section 5.
    Windows,
    /// macOS (APFS), judged by the model of docs/semantics.md section 5.
    Macos,
}

impl From<FlavorArg> for Flavour {
    fn from(f: FlavorArg) -> Flavour {
        match f {
            FlavorArg::Linux => Flavour::Linux,
            FlavorArg::Windows => Flavour::Windows,
            FlavorArg::Macos => Flavour::MacOs,
        }
    }
}
