//! The race: time-of-check-to-time-of-use escapes on a live server.
//!
//! For each file tool that reads or writes one path, and for each [`Swap`],
//! a fresh tree and a fresh server: `proj/sub/target.txt` is an innocent
//! file inside the root and `outside/target.txt`, in the same temp base,
//! holds the canary. A thread exchanges two names with
//! `renameat2(RENAME_EXCHANGE)` in a tight loop (the parent `proj/sub` with
//! a link to `{base}/outside`, or the final component with a link to
//! `{base}/outside/target.txt`) while the harness calls the tool on
//! `{base}/proj/sub/target.txt` again and again. A server that checks the
//! path and later opens it by name now and then opens the canary instead:
//! the canary's token (or the canary in base64) in a result, or anything in
//! the base outside the root changing, is an escape, and escapes / tries is
//! the rate. Every link points inside the temp base; the swapper is stopped
//! and the tree removed on every way out (an error, a panic, a server crash).

use std::fs;
use std::os::fd::OwnedFd;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rootguard_judge::{Case, Entry, Op};
use rustix::fs::{renameat, renameat_with, Mode as FileMode, OFlags, RenameFlags};
use rustix::io::Errno;

use super::{
    call, session_error_kind, At, Attempt, Context, Finding, Live, Mode, Phase, Sighting, Started,
};
use crate::attacks::{ROOT, TOKEN};
use crate::client::{response_text, Transcript};
use crate::observe::{blob_text, changes, snapshot, Seen, Snapshot};
use crate::tools::{self, Action};
use crate::{HarnessError, Kind};

/// Tries per race when `--race-tries` is not given.
pub const DEFAULT_TRIES: u64 = 2_000;

/// How long one race may run by default, whatever its tries (`--race-time`).
pub const DEFAULT_RACE_TIME: Duration = Duration::from_secs(120);

/// The file the tool is called on, in `proj/sub`, and the canary's name in `outside`.
const TARGET: &str = "target.txt";

/// The link the swapper exchanges with the real entry.
const SWAP_LINK: &str = ".swap";

/// The directory outside the root, in the base, that holds the canary.
const OUTSIDE: &str = "outside";

/// Which entry the swapper exchanges with a link to outside.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Swap {
    /// The parent: `proj/sub` (a real directory) and `proj/.swap` (a link to `{base}/outside`).
    Parent,
    /// The final component: `proj/sub/target.txt` and `proj/sub/.swap`
    /// (a link to `{base}/outside/target.txt`).
    Final,
}

impl Swap {
    /// Both swaps.
    pub const ALL: [Swap; 2] = [Swap::Parent, Swap::Final];

    /// `"parent"` or `"final"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Swap::Parent => "parent",
            Swap::Final => "final",
        }
    }

    /// The directory (relative to the base) holding the two names exchanged, and the names.
    fn names(self) -> (String, &'static str) {
        match self {
            Swap::Parent => (ROOT.to_owned(), "sub"),
            Swap::Final => (format!("{ROOT}/sub"), TARGET),
        }
    }

    /// The tree: the innocent file, the canary, and the link to swap in.
    fn tree(self) -> Vec<Entry> {
        let link = match self {
            Swap::Parent => Entry::Symlink {
                path: format!("{ROOT}/{SWAP_LINK}").into(),
                target: format!("{{base}}/{OUTSIDE}").into(),
            },
            Swap::Final => Entry::Symlink {
                path: format!("{ROOT}/sub/{SWAP_LINK}").into(),
                target: format!("{{base}}/{OUTSIDE}/{TARGET}").into(),
            },
        };
        vec![
            Entry::File {
                path: format!("{ROOT}/sub/{TARGET}").into(),
                content: Some("innocent\n".into()),
            },
            Entry::File {
                path: format!("{OUTSIDE}/{TARGET}").into(),
                content: Some(format!("CANARY-{TOKEN}\n")),
            },
            link,
        ]
    }
}

/// One race: one tool, one swap, on a server of its own.
#[derive(Debug, Clone)]
pub struct Race {
    /// `race-<action>-<swap>`, as in the report's checks.
    pub name: String,
    /// What the tool does (read or write).
    pub action: Action,
    /// What was swapped.
    pub swap: Swap,
    /// The session mode.
    pub mode: Mode,
    /// The tool called, once discovered.
    pub tool: Option<String>,
    /// Calls made.
    pub tries: u64,
    /// Calls that escaped.
    pub escapes: u64,
    /// Exchanges the swapper made meanwhile.
    pub swaps: u64,
    /// How long the calls took.
    pub elapsed: Duration,
    /// Why the race did not run (no such tool, writes without a sandbox).
    pub skipped: Option<String>,
    /// The first escaping call: its evidence and exchange (handshake, then that call).
    pub escape: Option<Finding>,
    /// The session failure that ended the race early (a hang, a crash), if any.
    pub failure: Option<Finding>,
}

impl Race {
    fn new(action: Action, swap: Swap, mode: Mode) -> Race {
        Race {
            name: format!("{PREFIX}{}-{}", action.as_str(), swap.as_str()),
            action,
            swap,
            mode,
            tool: None,
            tries: 0,
            escapes: 0,
            swaps: 0,
            elapsed: Duration::ZERO,
            skipped: None,
            escape: None,
            failure: None,
        }
    }

    /// Escapes per try (0 when nothing was tried).
    pub fn rate(&self) -> f64 {
        if self.tries == 0 {
            0.0
        } else {
            self.escapes as f64 / self.tries as f64
        }
    }

    /// `escapes/tries`, the rate's plain form.
    pub fn ratio(&self) -> String {
        format!("{}/{}", self.escapes, self.tries)
    }

    /// The race as a check of the run: its escape, else the failure that ended it.
    pub(crate) fn attempt(&self) -> Attempt {
        Attempt {
            name: self.name.clone(),
            mode: self.mode,
            finding: self.escape.clone().or_else(|| self.failure.clone()),
            skipped: self.skipped.clone(),
            roots_requests: 0,
            truth: None,
        }
    }
}

/// Whether `name` (an attack or check) is one of the races.
pub fn is_race(name: &str) -> bool {
    name.starts_with(PREFIX)
}

/// What every race's name begins with.
const PREFIX: &str = "race-";

/// The actions raced: a read and a write of one path.
const RACED: [Action; 2] = [Action::Read, Action::Write];

/// Every race (`--race`): each raced action's tool under each swap,
/// `--race-tries` calls each; write races only where writes run. Each is
/// recorded as a check, and the report keeps them all with their rates.
pub(crate) struct Races {
    /// The session mode.
    pub mode: Mode,
}

impl Phase for Races {
    fn run(&mut self, cx: &mut Context<'_>) -> Result<(), HarnessError> {
        let races = races(cx, self.mode)?;
        for race in &races {
            cx.record(race.attempt());
        }
        cx.report.races = races;
        Ok(())
    }
}

/// Every race, in order, until interrupted.
fn races(cx: &mut Context<'_>, mode: Mode) -> Result<Vec<Race>, HarnessError> {
    let (mut races, tries) = (Vec::new(), cx.options.race_tries);
    for action in RACED {
        for swap in Swap::ALL {
            if cx.stopped() {
                return Ok(races);
            }
            if action.writes() && !cx.writes {
                let mut race = Race::new(action, swap, mode);
                race.skipped = Some("write race without a sandbox".into());
                races.push(race);
                continue;
            }
            races.push(race(cx, action, swap, mode, tries)?);
        }
    }
    Ok(races)
}

/// One race on a fresh tree and server.
fn race(
    cx: &mut Context<'_>,
    action: Action,
    swap: Swap,
    mode: Mode,
    tries: u64,
) -> Result<Race, HarnessError> {
    let mut race = Race::new(action, swap, mode);
    let op = if action.writes() { Op::Write } else { Op::Read };
    let case = Case {
        path: format!("{{base}}/{ROOT}/sub/{TARGET}").into(),
        op,
        expect: None,
    };
    let mut scenario = cx.scenario(&race.name, &swap.tree(), &[ROOT], Some(case));
    scenario.note = Some(format!(
        "{} swapped with a link to outside while the tool is called again and again",
        swap.names().1
    ));
    let live = match cx.launcher.start(&scenario, mode)? {
        Started::Running(live) => live,
        Started::Failed(failed) => {
            let f = failed.finding(&race.name, mode, &scenario);
            race.failure = Some(f);
            return Ok(race);
        }
    };
    // Declared in this order so that they drop in reverse: the swapper
    // stops, then the server is killed, then the tree is removed.
    let Live {
        materialized,
        mut session,
        skip,
    } = live;
    let base = materialized.base().to_path_buf();
    let tool = match cx.launcher.tools(&mut session) {
        Ok(found) => found.into_iter().find(|t| t.action == action),
        Err(e) => {
            let f = At {
                name: &race.name,
                mode,
                scenario: &scenario,
                materialized: &materialized,
            }
            .failure(&e, session.close());
            race.failure = Some(f);
            return Ok(race);
        }
    };
    let Some(tool) = tool else {
        race.skipped = Some(format!("no {} tool", action.as_str()));
        return Ok(race);
    };
    race.tool = Some(tool.name.clone());
    let (dir, name) = swap.names();
    let dir = base.join(dir);
    links_stay_in_base(&base, &dir)?;
    let arguments = tools::arguments(
        action,
        &[format!("{}/{ROOT}/sub/{TARGET}", materialized.base_text())],
        "x",
    );
    let canary = Canary::new(&cx.token);
    let clean = snapshot(&base, &skip);
    let handshake = session.transcript.len();
    let mut swapper = Swapper::start(&dir, name)?;
    let started = Instant::now();
    let mut escaped: Option<(String, Transcript)> = None;
    let mut failed = None;
    while race.tries < tries && started.elapsed() < cx.options.race_time && !cx.stopped() {
        // Only the handshake and the current call are kept: thousands of calls add up.
        session.transcript.truncate(handshake);
        race.tries += 1;
        let response = match call(&mut session, &tool.name, arguments.clone()) {
            Ok(response) => response,
            Err(e) => {
                failed = Some(e);
                break;
            }
        };
        let evidence = if action.writes() {
            let now = snapshot(&base, &skip);
            let changed = changes(&clean, &now);
            if !changed.is_empty() {
                restore(&base, &clean, &now)?;
            }
            (!changed.is_empty()).then(|| changed.join(", "))
        } else {
            canary.seen_in(&response)
        };
        if let Some(evidence) = evidence {
            race.escapes += 1;
            if escaped.is_none() {
                let evidence = format!("try {}: {evidence}", race.tries);
                escaped = Some((evidence, session.transcript.clone()));
            }
        }
    }
    race.elapsed = started.elapsed();
    race.swaps = swapper.finish();
    if race.swaps == 0 && race.tries > 0 && failed.is_none() {
        // Calls on a tree standing still prove nothing about a race.
        race.skipped = Some(format!(
            "the swapper made no swap in {}: renameat2 fails there",
            dir.display()
        ));
    }
    let exchange = session.close();
    let kind = if action.writes() {
        Kind::WriteEscape
    } else {
        Kind::ReadEscape
    };
    let name = race.name.clone();
    let finding = |kind, evidence, exchange| {
        let tool = Some(tool.name.clone());
        At {
            name: &name,
            mode,
            scenario: &scenario,
            materialized: &materialized,
        }
        .finding(Sighting {
            kind,
            tool,
            evidence,
            truth: None,
            exchange,
        })
    };
    race.escape = escaped.map(|(evidence, exchange)| {
        let evidence = format!(
            "{} of {} calls escaped while {} was swapped ({evidence})",
            race.escapes,
            race.tries,
            swap.names().1
        );
        finding(kind, evidence, exchange)
    });
    race.failure = failed.map(|e| {
        let evidence = format!("during try {} of the race: {e}", race.tries);
        finding(session_error_kind(&e), evidence, exchange)
    });
    drop(materialized);
    Ok(race)
}

/// Refuses to race unless both entries the swapper exchanges in `dir`
/// lead, link followed, into the base.
fn links_stay_in_base(base: &Path, dir: &Path) -> Result<(), HarnessError> {
    let link = dir.join(SWAP_LINK);
    match fs::canonicalize(&link) {
        Ok(target) if target.starts_with(base) => Ok(()),
        other => Err(HarnessError::Scenario(format!(
            "the race's link {} must lead into the temp base {}, not {other:?}",
            link.display(),
            base.display()
        ))),
    }
}

/// Puts the base outside the root back as `clean` was: created entries
/// removed (never through a link), changed files rewritten.
fn restore(base: &Path, clean: &Snapshot, now: &Snapshot) -> Result<(), HarnessError> {
    let failed = |path: &Path, e: std::io::Error| {
        HarnessError::Scenario(format!(
            "cannot restore {} after a write escape: {e}",
            path.display()
        ))
    };
    for (rel, seen) in now {
        let path = base.join(rel);
        match (clean.get(rel), seen) {
            (None, Seen::Dir) => fs::remove_dir_all(&path)
                .or_else(gone)
                .map_err(|e| failed(&path, e))?,
            (None, _) => fs::remove_file(&path)
                .or_else(gone)
                .map_err(|e| failed(&path, e))?,
            (Some(Seen::File(bytes)), current) if current != &Seen::File(bytes.clone()) => {
                if fs::symlink_metadata(&path).is_ok_and(|m| !m.is_file()) {
                    fs::remove_dir_all(&path)
                        .or_else(|_| fs::remove_file(&path))
                        .or_else(gone)
                        .map_err(|e| failed(&path, e))?;
                }
                fs::write(&path, bytes).map_err(|e| failed(&path, e))?
            }
            _ => {}
        }
    }
    Ok(())
}

/// An entry already gone is as good as removed.
fn gone(e: std::io::Error) -> std::io::Result<()> {
    if e.kind() == std::io::ErrorKind::NotFound {
        Ok(())
    } else {
        Err(e)
    }
}

/// The canary's token, seen in a result's text or in a blob it carries
/// base64-encoded (a tool returning bytes), decoded as every phase decodes
/// them ([`blob_text`]).
struct Canary {
    token: String,
}

impl Canary {
    fn new(token: &str) -> Canary {
        Canary {
            token: token.to_owned(),
        }
    }

    /// What in `response` shows the canary, if anything does.
    fn seen_in(&self, response: &serde_json::Value) -> Option<String> {
        if response_text(response).contains(&self.token) {
            Some("the canary token came back".into())
        } else if blob_text(response).contains(&self.token) {
            Some("the canary came back in base64".into())
        } else {
            None
        }
    }
}

/// The thread exchanging `name` with [`SWAP_LINK`] in a directory until
/// [`Swapper::finish`] or drop, which also swaps back to where it began.
struct Swapper {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<u64>>,
    dir: OwnedFd,
    name: &'static str,
    swaps: u64,
}

impl Swapper {
    fn start(dir: &Path, name: &'static str) -> Result<Swapper, HarnessError> {
        let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let open = |what: &str| {
            let failed =
                |e: Errno| HarnessError::Scenario(format!("cannot {what} {}: {e}", dir.display()));
            rustix::fs::open(dir, flags, FileMode::empty()).map_err(failed)
        };
        let held = open("open the race's directory")?;
        let own = open("open the race's directory")?;
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let mut swaps = 0;
            while !stopped.load(Ordering::Relaxed) {
                if exchange(&own, name).is_err() {
                    break;
                }
                swaps += 1;
            }
            swaps
        });
        Ok(Swapper {
            stop,
            thread: Some(thread),
            dir: held,
            name,
            swaps: 0,
        })
    }

    /// Stops the thread and swaps back if it left the link in place; the swap count.
    fn finish(&mut self) -> u64 {
        if let Some(thread) = self.thread.take() {
            self.stop.store(true, Ordering::Relaxed);
            self.swaps = thread.join().unwrap_or(0);
            if self.swaps % 2 == 1 {
                let _ = exchange(&self.dir, self.name);
            }
        }
        self.swaps
    }
}

impl Drop for Swapper {
    fn drop(&mut self) {
        self.finish();
    }
}

/// One exchange of `name` and [`SWAP_LINK`] in `dir`: `RENAME_EXCHANGE`,
/// or where the kernel lacks it, three renames (`name` missing a moment).
fn exchange(dir: &OwnedFd, name: &str) -> Result<(), Errno> {
    match renameat_with(dir, name, dir, SWAP_LINK, RenameFlags::EXCHANGE) {
        Err(Errno::INVAL | Errno::NOSYS) => {
            let parked = ".swap-parked";
            renameat(dir, name, dir, parked)?;
            renameat(dir, SWAP_LINK, dir, name)?;
            renameat(dir, parked, dir, SWAP_LINK)
        }
        done => done,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_canary_is_seen_as_text_and_as_base64() {
        let canary = Canary::new("0123456789ab");
        let text = serde_json::json!({"result": {"content": [{"type": "text", "text": "x CANARY-0123456789ab y"}]}});
        assert!(canary.seen_in(&text).is_some());
        // "CANARY-0123456789ab\n" in base64.
        let blob = serde_json::json!({"result": {"contents": [{"uri": "file:///x", "blob": "Q0FOQVJZLTAxMjM0NTY3ODlhYgo="}]}});
        assert!(canary.seen_in(&blob).is_some());
        let innocent =
            serde_json::json!({"result": {"content": [{"type": "text", "text": "innocent"}]}});
        assert!(canary.seen_in(&innocent).is_none());
    }

    #[test]
    fn the_swapper_swaps_back_when_it_stops() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("sub")).unwrap();
        std::os::unix::fs::symlink("elsewhere", dir.path().join(SWAP_LINK)).unwrap();
        for _ in 0..5 {
            let mut swapper = Swapper::start(dir.path(), "sub").unwrap();
            // Long enough for the thread to be scheduled on a loaded machine.
            std::thread::sleep(Duration::from_millis(50));
            let swaps = swapper.finish();
            assert!(swaps > 0);
            assert!(fs::symlink_metadata(dir.path().join("sub"))
                .unwrap()
                .is_dir());
            assert!(fs::symlink_metadata(dir.path().join(SWAP_LINK))
                .unwrap()
                .is_symlink());
        }
    }
}
