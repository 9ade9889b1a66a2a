//! The run: for each session mode, a baseline, the default-grant probes
//! and the fixed attack table (escapes shrunk); then the doors beyond
//! file tools (resources, templates, prompts, tools taking paths) and the
//! git and archive tools; then, for each mode, the generative phase
//! (scenarios drawn from the judge's generator on one long-lived server);
//! then the roots-that-change, multi-round-trip and requestState checks
//! and the races.
//!
//! Each phase is a type with `Phase::run` on a `Context`, which holds
//! what phases share: the options, the run's token, the `Launcher` that
//! starts servers, the report being built and the table's long-lived
//! server. [`Options`] and [`Mode`] say how a run is done; [`Report`],
//! [`Finding`] and [`Outcome`] what it found.

use std::time::{Instant, SystemTime, UNIX_EPOCH};

use rootguard_judge::{Entry, Truth};
use serde_json::{json, Value};

use crate::attacks::TOKEN;
use crate::client::{Session, SessionError};
use crate::{HarnessError, Kind};

mod archive_tree;
mod archives;
mod call;
mod context;
mod defaults;
mod doors;
mod draw;
mod finding;
mod generative;
mod git;
mod git_tree;
mod knock;
mod launch;
mod mode;
mod mrtr;
mod options;
pub mod race;
mod replay;
mod report;
mod root_spellings;
mod roots_change;
mod roots_moved;
mod shrink;
mod state;
mod table;

pub(crate) use context::{Context, Phase};
pub(crate) use defaults::{CWD_CANARY, DEFAULT_GRANT, ROOTS_ANSWER};
pub use draw::GENERATED_ROOT;
pub(crate) use finding::{At, Sighting};
pub use finding::{Finding, Outcome};
pub(crate) use launch::{Live, Started};
pub use mode::Mode;
pub use options::{Options, ProgressFn};
pub use replay::{replay, Replayed};
pub use report::Report;
pub(crate) use roots_moved::{MOVED as ROOTS_MOVED, SWAP_ESCAPE};
pub(crate) use state::PREFIX as STATE_CHECKS;

use archives::Archives;
use defaults::Defaults;
use doors::Doors;
use generative::Generative;
use git::Git;
use mrtr::Mrtr;
use race::Races;
use roots_change::RootsChange;
use state::RequestState;
use table::{Baseline, Table};

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
    let mut cx = Context::new(options)?;
    phases(&mut cx)?;
    Ok(cx.finish(started))
}

/// Every phase the options ask for, in order.
fn phases(cx: &mut Context<'_>) -> Result<(), HarnessError> {
    let options = cx.options;
    if !cx.writes {
        cx.report.notes.push("no sandbox (neither bubblewrap nor unshare --mount works here): write attacks skipped; pass --allow-unsandboxed-writes to run them anyway".into());
    }
    for &mode in &options.modes {
        if cx.stopped() {
            break;
        }
        let mut baseline = Baseline::new(mode);
        baseline.run(cx)?;
        Defaults { mode }.run(cx)?;
        if !baseline.ok {
            cx.report.notes.push(format!(
                "{} mode: the baseline read inside the root failed, so a refused attack there proves nothing",
                mode.as_str()
            ));
        }
        if options.attacks {
            Table { mode }.run(cx)?;
        }
    }
    cx.stop_table_server();
    // Every door's fixed attacks before the random search, which takes what is left of the time.
    let first = options.modes.first().copied().unwrap_or(Mode::Roots);
    if !cx.stopped() {
        Doors { mode: first }.run(cx)?;
    }
    if !cx.stopped() {
        Git { mode: first }.run(cx)?;
    }
    if !cx.stopped() {
        Archives { mode: first }.run(cx)?;
    }
    if options.attacks && !options.budget.is_zero() {
        let share = options.budget / u32::try_from(options.modes.len()).unwrap_or(1).max(1);
        for &mode in &options.modes {
            if cx.stopped() {
                break;
            }
            Generative::new(mode, Instant::now() + share).run(cx)?;
        }
        cx.stop_table_server();
    }
    if options.stale_roots && options.modes.contains(&Mode::Roots) && !cx.stopped() {
        let mut roots_change = RootsChange::default();
        roots_change.run(cx)?;
        let mut mrtr = Mrtr::default();
        mrtr.run(cx)?;
        // A signal may have reached the server too: what it did then proves nothing.
        if !cx.stopped() {
            for attempt in roots_change.attempts.into_iter().chain(mrtr.attempts) {
                cx.record(attempt);
            }
        }
    }
    if options.modes.contains(&Mode::Roots) && !cx.stopped() {
        let mut state = RequestState::default();
        state.run(cx)?;
        if !cx.stopped() {
            for attempt in state.attempts {
                cx.record(attempt);
            }
        }
    }
    if options.race && !cx.stopped() {
        let mode = options.modes.first().copied().unwrap_or(Mode::Roots);
        Races { mode }.run(cx)?;
    }
    Ok(())
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
    pub(crate) fn failed(name: String, mode: Mode, finding: Finding) -> Attempt {
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

pub(crate) fn call(
    session: &mut Session,
    tool: &str,
    arguments: Value,
) -> Result<Value, SessionError> {
    let response = session.request("tools/call", json!({"name": tool, "arguments": arguments}));
    if let Some(tally) = &session.tally {
        tally.record(&format!("tools/call:{tool}"), response.as_ref().ok());
    }
    response
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

/// What `dir/file.txt` of [`marked_dirs`] holds, `token` being the
/// run's.
pub(crate) fn marker(dir: &str, token: &str) -> String {
    format!("ROOT-{dir}-{token}")
}
