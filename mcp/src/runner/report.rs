//! What a run found.

use std::time::Duration;

use serde_json::Value;

use super::{Finding, Outcome};
use crate::sandbox::Sandbox;
use crate::Kind;

/// What a run found.
#[derive(Debug, Clone)]
pub struct Report {
    /// The server command as given.
    pub command: String,
    /// The server's `serverInfo` and protocol version, from the first initialize.
    pub server: Option<Value>,
    /// The era spoken (`None`: no session got that far).
    pub era: Option<crate::era::Era>,
    /// The sandbox used.
    pub sandbox: Sandbox,
    /// Whether write attacks ran.
    pub writes: bool,
    /// Findings, in order.
    pub findings: Vec<Finding>,
    /// Every attack and check per mode.
    pub outcomes: Vec<Outcome>,
    /// The races run (`--race`), each with its rate.
    pub races: Vec<crate::runner::race::Race>,
    /// Observations that are not findings (a server asking roots/list without the capability …).
    pub notes: Vec<String>,
    /// Scenarios the generative phase drew, every mode.
    pub generated_scenarios: usize,
    /// Tool calls the generative phase made, every mode.
    pub generated_calls: usize,
    /// Whether the run was stopped by [`Options::interrupted`](super::Options::interrupted).
    pub interrupted: bool,
    /// How long it took.
    pub elapsed: Duration,
}

impl Report {
    /// How many findings of `kind`.
    pub fn count(&self, kind: Kind) -> usize {
        self.findings.iter().filter(|f| f.kind == kind).count()
    }

    /// Whether the run fails (exit 1).
    pub fn failed(&self, strict: bool) -> bool {
        self.findings.iter().any(|f| f.kind.fails(strict))
    }
}
