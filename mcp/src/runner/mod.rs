//! The run: for each session mode, a baseline, the fixed attack table
//! (each attack on a fresh server, escapes shrunk), the generative phase
//! (scenarios drawn from the judge's generator on one long-lived server),
//! then the roots-that-change check.
//!
//! One file per part: [`Options`] and [`Mode`] say how, [`Report`],
//! [`Finding`] and [`Outcome`] what was found; the runner starts servers
//! (`start`), runs the table (`table`, `shrink`), the generative phase
//! (`generative` on a `server` that serves scenario after scenario), and
//! the roots-that-change check (`roots_change`).

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use rootguard_proptests::{Case, Entry, Materialized, Scenario, Truth};
use serde_json::{json, Value};

use crate::attacks::{self, TOKEN};
use crate::client::{RootsAnswer, Session, SessionError, Transcript};
use crate::era::EraChoice;
use crate::sandbox::Sandbox;
use crate::{HarnessError, Kind};

mod call;
mod defaults;
mod draw;
mod finding;
mod generative;
mod mode;
mod mrtr;
mod options;
mod replay;
mod report;
mod roots_change;
mod server;
mod shrink;
mod start;
mod table;

pub(crate) use defaults::{CWD_CANARY, DEFAULT_GRANT, ROOTS_ANSWER};
pub use draw::GENERATED_ROOT;
pub(crate) use finding::{At, Sighting};
pub use finding::{Finding, Outcome};
pub use mode::Mode;
pub use options::{Options, ProgressFn};
pub use replay::{replay, Replayed};
pub use report::Report;

/// The server's home inside the base (working dir, HOME, TMPDIR), ignored by the write observation.
const HOME: &str = ".rootguard-home";

/// Runs every mode's baseline and attacks, then the roots-that-change check.
///
/// # Errors
///
/// [`HarnessError`] when the server cannot be started at all or a tree
/// cannot be made; what the server does wrong is a [`Finding`].
pub fn run(options: &Options) -> Result<Report, HarnessError> {
    let started = Instant::now();
    let options = &prepared(options)?;
    let mut runner = Runner::new(options)?;
    let (sandbox, writes) = (runner.sandbox, runner.writes);
    let mut report = Report {
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
        interrupted: false,
        elapsed: Duration::ZERO,
    };
    let stop = || options.interrupted.load(Ordering::Relaxed);
    if !writes {
        report.notes.push("no sandbox (neither bubblewrap nor unshare --mount works here): write attacks skipped; pass --allow-unsandboxed-writes to run them anyway".into());
    }
    'modes: for &mode in &options.modes {
        if stop() {
            break;
        }
        let baseline = runner.baseline(mode)?;
        if mode == Mode::NoRoots {
            runner.note_roots_without_capability(&baseline, &mut report);
        }
        let baseline_ok = baseline.finding.is_none();
        runner.record(baseline, &mut report);
        runner.defaults(mode, &mut report)?;
        if !baseline_ok {
            report.notes.push(format!(
                "{} mode: the baseline read inside the root failed, so a refused attack there proves nothing",
                mode.as_str()
            ));
        }
        if !options.attacks {
            continue;
        }
        let table = if options.table {
            attacks::all()
                .into_iter()
                .chain(attacks::root_attacks())
                .collect()
        } else {
            Vec::new()
        };
        for attack in table {
            if options
                .filter
                .as_ref()
                .is_some_and(|f| !attack.name.contains(f.as_str()))
            {
                continue;
            }
            if attack.hostile_root.is_some() && mode == Mode::NoRoots {
                continue;
            }
            if attack.action.writes() && !writes {
                runner.record(
                    Attempt {
                        name: attack.name.into(),
                        mode,
                        finding: None,
                        skipped: Some("write attack without a sandbox".into()),
                        roots_requests: 0,
                        truth: None,
                    },
                    &mut report,
                );
                continue;
            }
            if stop() {
                break 'modes;
            }
            let attempt = runner.attempt(&attack, &attack.tree, mode)?;
            let attempt = match (&attempt.finding, options.shrink) {
                (Some(f), true) if f.kind.is_escape() => {
                    let shrunk = runner.shrink(&attack, mode, attempt)?;
                    runner.identify(&attack, mode, shrunk)?
                }
                _ => attempt,
            };
            // A signal may have reached the server too: what it did then proves nothing.
            if stop() {
                break 'modes;
            }
            runner.record(attempt, &mut report);
        }
        if let Some(server) = runner.table_server.take() {
            drop(server.stop());
        }
        if !options.budget.is_zero() && !stop() {
            let share = options.budget / u32::try_from(options.modes.len()).unwrap_or(1).max(1);
            let tally = runner.generative(mode, Instant::now() + share, &mut report)?;
            report.generated_scenarios += tally.scenarios;
            report.generated_calls += tally.calls;
        }
        if stop() {
            break;
        }
    }
    if let Some(server) = runner.table_server.take() {
        drop(server.stop());
    }
    if options.stale_roots && options.modes.contains(&Mode::Roots) && !stop() {
        let mut attempts = runner.roots_change()?;
        attempts.extend(runner.mrtr()?);
        if !stop() {
            for attempt in attempts {
                runner.record(attempt, &mut report);
            }
        }
    }
    if options.race && !stop() {
        let mode = options.modes.first().copied().unwrap_or(Mode::Roots);
        let races = runner.races(mode, options.race_tries, writes)?;
        for race in &races {
            runner.record(race.attempt(), &mut report);
        }
        report.races = races;
    }
    report.interrupted = stop();
    report.server = runner.server.clone();
    report.era = runner.era.fixed();
    report.elapsed = started.elapsed();
    Ok(report)
}

/// `options` with the command's relative paths made absolute, or why it
/// cannot run at all.
fn prepared(options: &Options) -> Result<Options, HarnessError> {
    if options.command.is_empty() {
        return Err(HarnessError::Usage("no server command after --".into()));
    }
    Ok(Options {
        command: absolute_args(&options.command),
        ..options.clone()
    })
}

impl<'a> Runner<'a> {
    /// A runner for `options` (prepared), its sandbox chosen.
    fn new(options: &'a Options) -> Result<Runner<'a>, HarnessError> {
        let sandbox = options.sandbox.unwrap_or_else(Sandbox::detect);
        if sandbox != Sandbox::None && options.sandbox.is_some() && !sandbox.confines() {
            return Err(HarnessError::Usage(format!(
                "the {} sandbox does not work here (a probe could write outside its base); choose another with --sandbox",
                sandbox.as_str()
            )));
        }
        Ok(Runner {
            options,
            sandbox,
            token: token(),
            writes: sandbox != Sandbox::None || options.allow_unsandboxed_writes,
            starts: 0,
            table_server: None,
            asks_roots: None,
            server: None,
            roots_answer: RootsAnswer::Roots,
            era: options.era,
        })
    }
}

/// The command with each argument that names an existing relative path made
/// absolute: the server runs with its working dir in the sandbox.
fn absolute_args(command: &[String]) -> Vec<String> {
    let cwd = std::env::current_dir().ok();
    command
        .iter()
        .map(|arg| match &cwd {
            Some(cwd) if !arg.starts_with('/') && !arg.is_empty() && cwd.join(arg).exists() => {
                cwd.join(arg).display().to_string()
            }
            _ => arg.clone(),
        })
        .collect()
}

fn token() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    format!(
        "{:012x}",
        (nanos ^ (u128::from(std::process::id()) << 40)) & 0xffff_ffff_ffff
    )
}

/// One attack or check, run once.
#[derive(Debug)]
pub(crate) struct Attempt {
    pub(crate) name: String,
    pub(crate) mode: Mode,
    pub(crate) finding: Option<Finding>,
    pub(crate) skipped: Option<String>,
    pub(crate) roots_requests: usize,
    /// The truth of the hostile case, where one was judged.
    pub(crate) truth: Option<Truth>,
}

impl Attempt {
    /// An attempt whose server could not be used: its one finding, no truth.
    fn failed(name: String, mode: Mode, finding: Finding) -> Attempt {
        Attempt {
            name,
            mode,
            finding: Some(finding),
            skipped: None,
            roots_requests: 0,
            truth: None,
        }
    }
}

pub(crate) struct Runner<'a> {
    pub(crate) options: &'a Options,
    sandbox: Sandbox,
    pub(crate) token: String,
    /// Whether write attacks run.
    writes: bool,
    /// How many servers were started so far.
    starts: usize,
    /// The server the fixed table's attacks share while their roots stay.
    table_server: Option<server::Server>,
    /// Whether the server asked for roots in the roots-mode baseline.
    asks_roots: Option<bool>,
    server: Option<Value>,
    /// How the next server started is answered on roots/list.
    roots_answer: RootsAnswer,
    /// The era sessions speak: fixed by the first one that settled it.
    era: EraChoice,
}

/// A session that failed before it could be used: the kind, what happened,
/// the exchange so far, and the tree.
pub(crate) type Failed = (Kind, String, Transcript, Materialized);

/// A materialized scenario with its server running, initialized.
pub(crate) struct Live {
    pub(crate) materialized: Materialized,
    pub(crate) session: Session,
    pub(crate) skip: Vec<PathBuf>,
}

impl Runner<'_> {
    /// Whether the run was interrupted.
    fn stopped(&self) -> bool {
        self.options.interrupted.load(Ordering::Relaxed)
    }

    pub(crate) fn record(&self, attempt: Attempt, report: &mut Report) {
        let outcome = Outcome {
            name: attempt.name,
            mode: attempt.mode,
            finding: attempt.finding.as_ref().map(|f| f.kind),
            skipped: attempt.skipped,
        };
        if let Some(progress) = &self.options.progress {
            progress(&outcome);
        }
        report.outcomes.push(outcome);
        if let Some(f) = attempt.finding {
            report.findings.push(f);
        }
    }

    fn note_roots_without_capability(&self, baseline: &Attempt, report: &mut Report) {
        if baseline.roots_requests > 0 {
            report.notes.push(format!(
                "no-roots mode: the server sent roots/list {} time(s) although the client declared no roots capability; it was answered -32601",
                baseline.roots_requests
            ));
        }
    }

    /// Directories `dirs`, each holding `file.txt` whose content is its
    /// [`marker`]: a read that returns the marker reached that directory.
    pub(crate) fn marked_dirs(dirs: &[&str]) -> Vec<Entry> {
        dirs.iter()
            .map(|d| Entry::File {
                path: format!("{d}/file.txt").into(),
                content: Some(format!("{}\n", marker(d, TOKEN))),
            })
            .collect()
    }

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

pub(crate) fn call(
    session: &mut Session,
    tool: &str,
    arguments: Value,
) -> Result<Value, SessionError> {
    session.request("tools/call", json!({"name": tool, "arguments": arguments}))
}

pub(crate) fn session_error_kind(error: &SessionError) -> Kind {
    match error {
        SessionError::Timeout { .. } => Kind::Hang,
        SessionError::Exited { .. } => Kind::Crash,
        SessionError::Protocol { .. } => Kind::ProtocolError,
    }
}

fn excerpt(text: &str, needle: &str) -> String {
    let at = text.find(needle).unwrap_or(0);
    let mut start = at.saturating_sub(60);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (at + needle.len() + 20).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    text[start..end].replace('\n', "\\n")
}

/// What `dir/file.txt` of [`Runner::marked_dirs`] holds, `token` being the
/// run's.
pub(crate) fn marker(dir: &str, token: &str) -> String {
    format!("ROOT-{dir}-{token}")
}
