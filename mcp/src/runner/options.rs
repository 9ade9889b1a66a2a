//! How a run is done.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use super::{Mode, Outcome};
use crate::era::EraChoice;
use crate::sandbox::Sandbox;
use crate::shape::Shape;

/// A callback told each outcome as it is settled.
pub type ProgressFn = Arc<dyn Fn(&Outcome) + Send + Sync>;

/// How a run is done.
#[derive(Clone)]
pub struct Options {
    /// The server command, `{roots}` standing for the root directories.
    pub command: Vec<String>,
    /// How else the server is given its roots (`--each-root`, `--env`, `--config`).
    pub launch: Shape,
    /// Make each root a git repository before its server starts
    /// (`git init`), for git servers that refuse a directory that is not one.
    pub git_roots: bool,
    /// The timeout of each request.
    pub timeout: Duration,
    /// The sandbox (`None`: detect).
    pub sandbox: Option<Sandbox>,
    /// Run write attacks without a sandbox.
    pub allow_unsandboxed_writes: bool,
    /// The session modes.
    pub modes: Vec<Mode>,
    /// Run the roots-that-change check (roots mode only).
    pub stale_roots: bool,
    /// Run the attacks (the fixed table and the generative phase).
    pub attacks: bool,
    /// Run the fixed attack table, the first, deterministic phase.
    pub table: bool,
    /// How long the generative phase may run, split evenly between the
    /// modes (zero: no generative phase).
    pub budget: Duration,
    /// End the generative phase after this many scenarios in each mode,
    /// whatever is left of the budget: a seed then draws and calls the same
    /// scenarios however loaded the machine is.
    pub max_scenarios: Option<u64>,
    /// The generator's seed: the same seed draws the same scenarios.
    pub seed: u64,
    /// End the generative phase at its first escape or failure.
    pub fail_fast: bool,
    /// Servers the generative phase runs at once, each on its own trees,
    /// all drawing from the seed's one stream of scenarios.
    pub jobs: usize,
    /// How long shrinking and probing the escapes may take in all; what
    /// is not done by then is reported as found.
    pub triage_time: Duration,
    /// Start a fresh server for every generated scenario instead of one
    /// long-lived server: the baseline `mcp_throughput` measures against.
    pub restart_each_scenario: bool,
    /// Only attacks whose name contains this.
    pub filter: Option<String>,
    /// Shrink each escape, and probe its minimal scenario for the features
    /// it needs (each probe a fresh server, as each attempt is).
    pub shrink: bool,
    /// How long to wait for the server's first `roots/list`.
    pub roots_wait: Duration,
    /// Race each read and write tool (time-of-check-to-time-of-use, [`crate::runner::race`]).
    pub race: bool,
    /// Calls per race.
    pub race_tries: u64,
    /// How long one race may run, whatever its tries.
    pub race_time: Duration,
    /// Set from outside (a signal handler) to stop between attacks; the
    /// attack under way is dropped, its server killed and its tree removed.
    pub interrupted: Arc<AtomicBool>,
    /// Called with each outcome as it is settled (a display of progress).
    pub progress: Option<ProgressFn>,
    /// The protocol era to speak (auto: the first session's probe decides for the run).
    pub era: EraChoice,
    /// Streamable HTTP at this loopback URL instead of stdio; `{port}` in it
    /// and in the command becomes a free port picked for each server.
    pub http: Option<String>,
    /// Where each temp base is made ([`Materialized::new_in`]); `None`:
    /// where [`Materialized::new`] picks (`$TMPDIR`, else `/dev/shm` or
    /// `/tmp`). `rootguard mcp` gives `/var/tmp` unless `--base-dir` says
    /// otherwise.
    ///
    /// [`Materialized::new_in`]: rootguard_judge::Materialized::new_in
    /// [`Materialized::new`]: rootguard_judge::Materialized::new
    pub base_dir: Option<PathBuf>,
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("command", &self.command)
            .field("git_roots", &self.git_roots)
            .field("timeout", &self.timeout)
            .field("sandbox", &self.sandbox)
            .field("allow_unsandboxed_writes", &self.allow_unsandboxed_writes)
            .field("modes", &self.modes)
            .field("filter", &self.filter)
            .field("budget", &self.budget)
            .field("max_scenarios", &self.max_scenarios)
            .field("seed", &self.seed)
            .field("jobs", &self.jobs)
            .field("triage_time", &self.triage_time)
            .field("base_dir", &self.base_dir)
            .finish_non_exhaustive()
    }
}

impl Options {
    /// Defaults for `command`.
    pub fn new(command: Vec<String>) -> Options {
        Options {
            command,
            launch: Shape::default(),
            git_roots: false,
            timeout: Duration::from_secs(10),
            sandbox: None,
            allow_unsandboxed_writes: false,
            modes: vec![Mode::Roots, Mode::NoRoots],
            stale_roots: true,
            attacks: true,
            table: true,
            budget: Duration::ZERO,
            max_scenarios: None,
            seed: 0,
            fail_fast: false,
            jobs: 1,
            triage_time: Duration::from_secs(60),
            restart_each_scenario: false,
            filter: None,
            shrink: true,
            roots_wait: Duration::from_secs(2),
            race: false,
            race_tries: crate::runner::race::DEFAULT_TRIES,
            race_time: crate::runner::race::DEFAULT_RACE_TIME,
            interrupted: Arc::new(AtomicBool::new(false)),
            progress: None,
            era: EraChoice::Auto,
            http: None,
            base_dir: None,
        }
    }
}
