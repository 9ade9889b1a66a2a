//! What the phases of a run share, and what a phase is.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use rootguard_judge::{Case, Entry, Scenario};

use super::launch::{Launcher, Server};
use super::{token, Attempt, Options, Outcome, Report};
use crate::attacks::TOKEN;
use crate::HarnessError;

/// One step of a run (the baseline, the default-grant probes, the table,
/// the generative phase, the roots-that-change and multi-round-trip
/// checks, the races): what it settles goes into the context's report,
/// or stays in the phase for the run to record.
pub(crate) trait Phase {
    /// Runs the phase.
    ///
    /// # Errors
    ///
    /// [`HarnessError`] when a server cannot be started at all or a tree
    /// cannot be made.
    fn run(&mut self, cx: &mut Context<'_>) -> Result<(), HarnessError>;
}

/// What the phases of a run share.
pub(crate) struct Context<'a> {
    /// How the run is done (prepared: the command's paths made absolute).
    pub(crate) options: &'a Options,
    /// The run's token, in every canary.
    pub(crate) token: String,
    /// Whether write attacks run.
    pub(crate) writes: bool,
    /// Starts the servers, and keeps what the first sessions settled.
    pub(crate) launcher: Launcher<'a>,
    /// The report being built.
    pub(crate) report: Report,
    /// The server the fixed table's attacks share while their roots and mode stay.
    pub(crate) table_server: Option<Server>,
    /// How much of the run's triage time (shrinking and probing) is left.
    pub(crate) triage: Arc<TriageClock>,
}

/// The run's triage time ([`Options::triage_time`]): how long shrinking
/// and probing may take in all, whichever phase or worker does them.
#[derive(Debug)]
pub(crate) struct TriageClock {
    limit: Duration,
    spent: Mutex<Duration>,
}

/// One finding's triage under way: it may run until its deadline, what
/// is left of the run's triage time when it began.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Triage {
    started: Instant,
    deadline: Instant,
}

impl TriageClock {
    /// A clock with `limit` to spend.
    pub(crate) fn new(limit: Duration) -> TriageClock {
        TriageClock {
            limit,
            spent: Mutex::new(Duration::ZERO),
        }
    }

    /// Starts one finding's triage.
    pub(crate) fn start(&self) -> Triage {
        let spent = *self.spent.lock().unwrap_or_else(PoisonError::into_inner);
        let started = Instant::now();
        Triage {
            started,
            deadline: started + self.limit.saturating_sub(spent),
        }
    }

    /// Counts the time `triage` took as spent.
    pub(crate) fn charge(&self, triage: Triage) {
        *self.spent.lock().unwrap_or_else(PoisonError::into_inner) += triage.started.elapsed();
    }
}

impl Triage {
    /// No further attempt of this triage starts after this.
    pub(crate) fn deadline(&self) -> Instant {
        self.deadline
    }

    /// Whether its time is up.
    pub(crate) fn spent(&self) -> bool {
        Instant::now() >= self.deadline
    }
}

/// What a worker's context is made from in its own thread (a context
/// holds live servers, which stay in the thread that started them).
pub(crate) struct WorkerSeed<'a> {
    token: String,
    writes: bool,
    launcher: Launcher<'a>,
    triage: Arc<TriageClock>,
}

impl<'a> WorkerSeed<'a> {
    /// The worker's context: the run's token, sandbox and era, a report
    /// of its own and no table server.
    pub(crate) fn context(self, options: &'a Options) -> Context<'a> {
        Context {
            options,
            token: self.token,
            writes: self.writes,
            report: empty_report(options, self.launcher.sandbox, self.writes),
            launcher: self.launcher,
            table_server: None,
            triage: self.triage,
        }
    }
}

/// A report with nothing in it yet.
fn empty_report(options: &Options, sandbox: crate::Sandbox, writes: bool) -> Report {
    Report {
        command: options.command.join(" "),
        server: None,
        era: None,
        sandbox,
        writes,
        findings: Vec::new(),
        outcomes: Vec::new(),
        races: Vec::new(),
        notes: Vec::new(),
        generated_scenarios: 0,
        generated_calls: 0,
        inventory: None,
        calls: Default::default(),
        interrupted: false,
        elapsed: Duration::ZERO,
    }
}

impl<'a> Context<'a> {
    /// A context for `options` (prepared), its sandbox chosen.
    ///
    /// # Errors
    ///
    /// [`HarnessError::Usage`] when the sandbox asked for does not work here.
    pub(crate) fn new(options: &'a Options) -> Result<Context<'a>, HarnessError> {
        let launcher = Launcher::new(options)?;
        let (sandbox, writes) = (
            launcher.sandbox,
            launcher.sandbox != crate::Sandbox::None || options.allow_unsandboxed_writes,
        );
        Ok(Context {
            options,
            token: token(),
            writes,
            launcher,
            report: empty_report(options, sandbox, writes),
            table_server: None,
            triage: Arc::new(TriageClock::new(options.triage_time)),
        })
    }

    /// What one more worker's context is made from: the same token,
    /// sandbox, era and triage time.
    pub(crate) fn worker(&self) -> WorkerSeed<'a> {
        WorkerSeed {
            token: self.token.clone(),
            writes: self.writes,
            launcher: self.launcher.clone(),
            triage: Arc::clone(&self.triage),
        }
    }

    /// The report, with what the run settled at its end.
    pub(crate) fn finish(mut self, started: Instant) -> Report {
        self.stop_table_server();
        let mut report = self.report;
        report.interrupted = self.options.interrupted.load(Ordering::Relaxed);
        report.server = self.launcher.server;
        report.era = self.launcher.era.fixed();
        report.calls = self.launcher.tally.snapshot();
        report.elapsed = started.elapsed();
        report
    }

    /// Whether the run was interrupted.
    pub(crate) fn stopped(&self) -> bool {
        self.options.interrupted.load(Ordering::Relaxed)
    }

    /// Stops the table's server, if one runs.
    pub(crate) fn stop_table_server(&mut self) {
        if let Some(server) = self.table_server.take() {
            drop(server.stop());
        }
    }

    /// Records `attempt`: its outcome told to the progress callback and
    /// kept, its finding kept.
    pub(crate) fn record(&mut self, attempt: Attempt) {
        let outcome = Outcome {
            name: attempt.name,
            mode: attempt.mode,
            finding: attempt.finding.as_ref().map(|f| f.kind),
            skipped: attempt.skipped,
        };
        self.progress(outcome);
        if let Some(f) = attempt.finding {
            self.report.findings.push(f);
        }
    }

    /// Tells the progress callback `outcome` and keeps it.
    pub(crate) fn progress(&mut self, outcome: Outcome) {
        if let Some(progress) = &self.options.progress {
            progress(&outcome);
        }
        self.report.outcomes.push(outcome);
    }

    /// A scenario `name` on `tree` with `roots` (directories relative to
    /// the base) and `case`, the run's token in place of [`TOKEN`].
    pub(crate) fn scenario(
        &self,
        name: &str,
        tree: &[Entry],
        roots: &[&str],
        case: Option<Case>,
    ) -> Scenario {
        let tree = tree
            .iter()
            .map(|e| match e {
                Entry::File { path, content } => Entry::File {
                    path: path.replace(TOKEN, &self.token),
                    content: content.as_ref().map(|c| c.replace(TOKEN, &self.token)),
                },
                Entry::Symlink { path, target } => Entry::Symlink {
                    path: path.replace(TOKEN, &self.token),
                    target: target.clone(),
                },
                Entry::Dir { path } => Entry::Dir {
                    path: path.replace(TOKEN, &self.token),
                },
            })
            .collect();
        Scenario {
            name: name.into(),
            note: None,
            tree,
            roots: roots
                .iter()
                .map(|r| format!("file://{{base}}/{r}"))
                .collect(),
            cases: case.into_iter().collect(),
        }
    }
}
