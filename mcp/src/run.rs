//! The run: for each session mode, a baseline, every attack on a fresh
//! server, escapes shrunk, then the roots-that-change check.

use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use rootguard_proptests::{kernel, Case, Entry, Judgement, Materialized, Op, Scenario, Truth};
use serde_json::{json, Value};

use crate::attacks::{self, Attack, ROOT, TOKEN};
use crate::client::{is_failure, response_text, tail, Session, SessionError, Transcript};
use crate::observe::{changes, snapshot};
use crate::sandbox::{Launch, Sandbox};
use crate::tools::{self, Action};
use crate::{HarnessError, Kind};

mod roots_change;

/// The server's home inside the base (working dir, HOME, TMPDIR), ignored by the write observation.
const HOME: &str = ".rootguard-home";

/// Whether the client declares the `roots` capability.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Declares `roots` (`listChanged: true`) and answers `roots/list`.
    Roots,
    /// No `roots` capability: `roots/list` gets -32601, and the server must
    /// honour the directories on its command line.
    NoRoots,
}

impl Mode {
    /// `"roots"` or `"no-roots"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Roots => "roots",
            Mode::NoRoots => "no-roots",
        }
    }
}

/// One defect, observed.
#[derive(Debug, Clone)]
pub struct Finding {
    /// Its kind.
    pub kind: Kind,
    /// The attack (or check) that showed it.
    pub attack: String,
    /// The session mode.
    pub mode: Mode,
    /// The tool called, if any.
    pub tool: Option<String>,
    /// What was seen: the canary in the result, the changes on disk, the error.
    pub evidence: String,
    /// The truth of the hostile case (model oracle and kernel), if judged.
    pub truth: Option<String>,
    /// The scenario, `{base}` form, its case labelled with the truth.
    pub scenario: Scenario,
    /// The request that showed it and the server's response, where one did.
    pub key: Option<(String, String)>,
    /// The whole JSON-RPC exchange, `{base}` in place of the base.
    pub exchange: Transcript,
    /// Whether the scenario was shrunk (entries removed while the escape stayed).
    pub shrunk: bool,
}

/// The result of one attack or check in one mode.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The attack or check.
    pub name: String,
    /// The mode.
    pub mode: Mode,
    /// `None` passed; `Some(kind)` a finding; see `skipped`.
    pub finding: Option<Kind>,
    /// Why it did not run.
    pub skipped: Option<String>,
}

/// A callback told each outcome as it is settled.
pub type ProgressFn = Arc<dyn Fn(&Outcome) + Send + Sync>;

/// How a run is done.
#[derive(Clone)]
pub struct Options {
    /// The server command, `{roots}` standing for the root directories.
    pub command: Vec<String>,
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
    /// Run the attacks.
    pub attacks: bool,
    /// Only attacks whose name contains this.
    pub filter: Option<String>,
    /// Shrink each escape.
    pub shrink: bool,
    /// How long to wait for the server's first `roots/list`.
    pub roots_wait: Duration,
    /// Set from outside (a signal handler) to stop between attacks; the
    /// attack under way is dropped, its server killed and its tree removed.
    pub interrupted: Arc<AtomicBool>,
    /// Called with each outcome as it is settled (a display of progress).
    pub progress: Option<ProgressFn>,
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("command", &self.command)
            .field("timeout", &self.timeout)
            .field("sandbox", &self.sandbox)
            .field("allow_unsandboxed_writes", &self.allow_unsandboxed_writes)
            .field("modes", &self.modes)
            .field("filter", &self.filter)
            .finish_non_exhaustive()
    }
}

impl Options {
    /// Defaults for `command`.
    pub fn new(command: Vec<String>) -> Options {
        Options {
            command,
            timeout: Duration::from_secs(10),
            sandbox: None,
            allow_unsandboxed_writes: false,
            modes: vec![Mode::Roots, Mode::NoRoots],
            stale_roots: true,
            attacks: true,
            filter: None,
            shrink: true,
            roots_wait: Duration::from_secs(2),
            interrupted: Arc::new(AtomicBool::new(false)),
            progress: None,
        }
    }
}

/// What a run found.
#[derive(Debug, Clone)]
pub struct Report {
    /// The server command as given.
    pub command: String,
    /// The server's `serverInfo` and protocol version, from the first initialize.
    pub server: Option<Value>,
    /// The sandbox used.
    pub sandbox: Sandbox,
    /// Whether write attacks ran.
    pub writes: bool,
    /// Findings, in order.
    pub findings: Vec<Finding>,
    /// Every attack and check per mode.
    pub outcomes: Vec<Outcome>,
    /// Observations that are not findings (a server asking roots/list without the capability …).
    pub notes: Vec<String>,
    /// Whether the run was stopped by [`Options::interrupted`].
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

/// Runs every mode's baseline and attacks, then the roots-that-change check.
///
/// # Errors
///
/// [`HarnessError`] when the server cannot be started at all or a tree
/// cannot be made; what the server does wrong is a [`Finding`].
pub fn run(options: &Options) -> Result<Report, HarnessError> {
    if options.command.is_empty() {
        return Err(HarnessError::Usage("no server command after --".into()));
    }
    let started = Instant::now();
    let command = absolute_args(&options.command);
    let options = &Options {
        command,
        ..options.clone()
    };
    let sandbox = options.sandbox.unwrap_or_else(Sandbox::detect);
    if sandbox != Sandbox::None && options.sandbox.is_some() && !sandbox.confines() {
        return Err(HarnessError::Usage(format!(
            "the {} sandbox does not work here (a probe could write outside its base); choose another with --sandbox",
            sandbox.as_str()
        )));
    }
    let writes = sandbox != Sandbox::None || options.allow_unsandboxed_writes;
    let mut runner = Runner {
        options,
        sandbox,
        token: token(),
        asks_roots: None,
        server: None,
    };
    let mut report = Report {
        command: options.command.join(" "),
        server: None,
        sandbox,
        writes,
        findings: Vec::new(),
        outcomes: Vec::new(),
        notes: Vec::new(),
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
        if !baseline_ok {
            report.notes.push(format!(
                "{} mode: the baseline read inside the root failed, so a refused attack there proves nothing",
                mode.as_str()
            ));
        }
        if !options.attacks {
            continue;
        }
        for attack in attacks::all().into_iter().chain(attacks::root_attacks()) {
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
                (Some(f), true) if f.kind.is_escape() => runner.shrink(&attack, mode, attempt)?,
                _ => attempt,
            };
            // A signal may have reached the server too: what it did then proves nothing.
            if stop() {
                break 'modes;
            }
            runner.record(attempt, &mut report);
        }
    }
    if options.stale_roots && options.modes.contains(&Mode::Roots) && !stop() {
        let attempts = runner.roots_change()?;
        if !stop() {
            for attempt in attempts {
                runner.record(attempt, &mut report);
            }
        }
    }
    report.interrupted = stop();
    report.server = runner.server.clone();
    report.elapsed = started.elapsed();
    Ok(report)
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
struct Attempt {
    name: String,
    mode: Mode,
    finding: Option<Finding>,
    skipped: Option<String>,
    roots_requests: usize,
}

struct Runner<'a> {
    options: &'a Options,
    sandbox: Sandbox,
    token: String,
    /// Whether the server asked for roots in the roots-mode baseline.
    asks_roots: Option<bool>,
    server: Option<Value>,
}

/// A session that failed before it could be used: the kind, what happened,
/// the exchange so far, and the tree.
type Failed = (Kind, String, Transcript, Materialized);

/// A materialized scenario with its server running, initialized.
struct Live {
    materialized: Materialized,
    session: Session,
    skip: Vec<PathBuf>,
}

impl Runner<'_> {
    fn record(&self, attempt: Attempt, report: &mut Report) {
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

    fn scenario(&self, name: &str, tree: &[Entry], roots: &[&str], case: Option<Case>) -> Scenario {
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

    /// Materializes `scenario`, starts the server with `roots` (directories
    /// relative to the base), initializes, and lets it fetch its roots.
    fn start(
        &mut self,
        scenario: &Scenario,
        mode: Mode,
    ) -> Result<Result<Live, Failed>, HarnessError> {
        let materialized = Materialized::new(scenario)
            .map_err(|e| HarnessError::Scenario(format!("{}: {e}", scenario.name)))?;
        let base = materialized.base().to_path_buf();
        let home = base.join(HOME);
        fs::create_dir(&home).map_err(|e| {
            HarnessError::Scenario(format!("cannot create {}: {e}", home.display()))
        })?;
        // Only plain roots go on the command line; a hostile one is for roots/list alone.
        let root_dirs: Vec<PathBuf> = scenario
            .roots
            .iter()
            .filter_map(|r| r.strip_prefix("file://{base}/"))
            .filter(|rel| {
                rel.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"/._-".contains(&b))
            })
            .map(|rel| base.join(rel))
            .collect();
        let mut skip = root_dirs.clone();
        skip.push(home.clone());
        let launch = Launch::new(
            &self.options.command,
            &root_dirs,
            &base,
            &home,
            self.sandbox,
        );
        let uris = (mode == Mode::Roots).then(|| materialized.roots().to_vec());
        let mut tries = 0;
        loop {
            tries += 1;
            let mut session = Session::start(&launch, uris.clone(), self.options.timeout)?;
            match self.handshake(&mut session, mode) {
                Ok(()) => {
                    return Ok(Ok(Live {
                        materialized,
                        session,
                        skip,
                    }))
                }
                // A server slow to start under load once is not a hang; twice is.
                Err(SessionError::Timeout { method }) if method == "initialize" && tries < 2 => {
                    drop(session.close());
                }
                Err(e) => {
                    let kind = session_error_kind(&e);
                    let text = e.to_string();
                    return Ok(Err((kind, text, session.close(), materialized)));
                }
            }
        }
    }

    fn handshake(&mut self, session: &mut Session, mode: Mode) -> Result<(), SessionError> {
        let response = session.initialize()?;
        if self.server.is_none() {
            let result = &response["result"];
            self.server = Some(
                json!({"serverInfo": result["serverInfo"], "protocolVersion": result["protocolVersion"]}),
            );
        }
        let wait = match (mode, self.asks_roots) {
            (Mode::Roots, Some(false)) | (Mode::NoRoots, _) => Duration::from_millis(250),
            _ => self.options.roots_wait,
        };
        session.pump(wait, Some(1))?;
        if mode == Mode::Roots && self.asks_roots.is_none() {
            self.asks_roots = Some(session.roots_requests > 0);
        }
        if session.roots_requests > 0 {
            // The server applies the roots after our answer; a round trip lets it finish.
            std::thread::sleep(Duration::from_millis(100));
            session.request("ping", json!({}))?;
        }
        Ok(())
    }

    fn tools(&self, session: &mut Session) -> Result<Vec<tools::Tool>, SessionError> {
        let mut all = Vec::new();
        let mut cursor: Option<Value> = None;
        for _ in 0..20 {
            let params = match &cursor {
                Some(c) => json!({"cursor": c}),
                None => json!({}),
            };
            let response = session.request("tools/list", params)?;
            if let Some(list) = response["result"]["tools"].as_array() {
                all.extend(list.iter().cloned());
            }
            match response["result"].get("nextCursor") {
                Some(c) if !c.is_null() => cursor = Some(c.clone()),
                _ => break,
            }
        }
        Ok(tools::discover(&all))
    }

    /// The baseline: a read inside the root must return its content.
    fn baseline(&mut self, mode: Mode) -> Result<Attempt, HarnessError> {
        let tree = vec![Entry::File {
            path: format!("{ROOT}/inside.txt"),
            content: Some(format!("INSIDE-{TOKEN}\n")),
        }];
        let case = Case {
            path: format!("{{base}}/{ROOT}/inside.txt"),
            op: Op::Read,
            expect: None,
        };
        let scenario = self.scenario("baseline", &tree, &[ROOT], Some(case));
        let name = "baseline".to_string();
        let live = match self.start(&scenario, mode)? {
            Ok(live) => live,
            Err((kind, evidence, exchange, m)) => {
                if kind == Kind::Crash {
                    return Err(HarnessError::Start {
                        command: self.options.command.join(" "),
                        reason: format!("the server did not complete initialize: {evidence}"),
                    });
                }
                let finding = self.finding(
                    kind, &name, mode, None, evidence, None, &scenario, exchange, &m,
                );
                return Ok(Attempt {
                    name,
                    mode,
                    finding: Some(finding),
                    skipped: None,
                    roots_requests: 0,
                });
            }
        };
        let Live {
            materialized,
            mut session,
            ..
        } = live;
        let outcome = (|| {
            let tools = self.tools(&mut session)?;
            let Some(tool) = tools.iter().find(|t| t.action == Action::Read) else {
                return Ok(Err("the server offers no read tool".to_string()));
            };
            let path = format!("{}/{ROOT}/inside.txt", materialized.base_text());
            let response = call(
                &mut session,
                &tool.name,
                tools::arguments(Action::Read, &[path], "x"),
            )?;
            let want = format!("INSIDE-{}", self.token);
            Ok(Ok((
                tool.name.clone(),
                response_text(&response).contains(&want),
                response,
            )))
        })();
        let roots_requests = session.roots_requests;
        let stray = session.stray_lines.clone();
        let exchange = session.close();
        let finding = match outcome {
            Err(e) => Some(self.finding(
                session_error_kind(&e),
                &name,
                mode,
                None,
                e.to_string(),
                None,
                &scenario,
                exchange,
                &materialized,
            )),
            Ok(Err(why)) => {
                return Ok(Attempt {
                    name,
                    mode,
                    finding: None,
                    skipped: Some(why),
                    roots_requests,
                })
            }
            // Noise on stdout breaks every client of the server: it comes first.
            Ok(Ok((tool, read, _))) if !stray.is_empty() => Some(self.finding(
                Kind::ProtocolError,
                &name,
                mode,
                Some(tool),
                format!(
                    "{} non-JSON line(s) on stdout, the first {:?} (the read inside the root {})",
                    stray.len(),
                    stray[0],
                    if read { "worked" } else { "failed" }
                ),
                None,
                &scenario,
                exchange,
                &materialized,
            )),
            Ok(Ok((_, true, _))) => None,
            Ok(Ok((tool, false, response))) => Some(self.finding(
                Kind::RootNotHonoured,
                &name,
                mode,
                Some(tool),
                format!(
                    "reading a file inside the root failed: {}",
                    tail(&response_text(&response), 300)
                ),
                None,
                &scenario,
                exchange,
                &materialized,
            )),
        };
        Ok(Attempt {
            name,
            mode,
            finding,
            skipped: None,
            roots_requests,
        })
    }

    /// One attack on one tree, on a fresh server.
    fn attempt(
        &mut self,
        attack: &Attack,
        tree: &[Entry],
        mode: Mode,
    ) -> Result<Attempt, HarnessError> {
        let (index, op) = attack.case;
        let case = Case {
            path: attack.paths[index].clone(),
            op,
            expect: None,
        };
        let mut scenario = self.scenario(attack.name, tree, &[ROOT], Some(case));
        scenario.note = Some(attack.note.into());
        scenario
            .roots
            .extend(attack.hostile_root.map(str::to_owned));
        let name = attack.name.to_string();
        let live = match self.start(&scenario, mode)? {
            Ok(live) => live,
            Err((kind, evidence, exchange, m)) => {
                let finding = self.finding(
                    kind, &name, mode, None, evidence, None, &scenario, exchange, &m,
                );
                return Ok(Attempt {
                    name,
                    mode,
                    finding: Some(finding),
                    skipped: None,
                    roots_requests: 0,
                });
            }
        };
        let Live {
            materialized,
            mut session,
            skip,
        } = live;
        let base = materialized.base().to_path_buf();
        let base_text = materialized.base_text().to_owned();
        let paths: Vec<String> = attack
            .paths
            .iter()
            .map(|p| p.replace("{base}", &base_text))
            .collect();
        let truth = kernel::judge(materialized.roots(), paths[index].as_bytes(), op);
        let before = snapshot(&base, &skip);
        let outcome = (|| {
            let tools = self.tools(&mut session)?;
            let Some(tool) = tools.iter().find(|t| t.action == attack.action) else {
                return Ok(None);
            };
            let arguments = tools::arguments(attack.action, &paths, "listed");
            let response = call(&mut session, &tool.name, arguments)?;
            Ok(Some((tool.name.clone(), response)))
        })();
        let after = snapshot(&base, &skip);
        let changed = changes(&before, &after);
        let roots_requests = session.roots_requests;
        let exchange = session.close();
        let truth_text = Some(&truth);
        let finding = match outcome {
            Ok(None) => {
                return Ok(Attempt {
                    name,
                    mode,
                    finding: None,
                    skipped: Some(format!("no {} tool", attack.action.as_str())),
                    roots_requests,
                });
            }
            Err(e) => {
                let kind = if changed.is_empty() {
                    session_error_kind(&e)
                } else {
                    Kind::WriteEscape
                };
                let evidence = if changed.is_empty() {
                    e.to_string()
                } else {
                    format!("{}; {e}", changed.join(", "))
                };
                Some(self.finding(
                    kind,
                    &name,
                    mode,
                    None,
                    evidence,
                    truth_text,
                    &scenario,
                    exchange,
                    &materialized,
                ))
            }
            Ok(Some((tool, response))) => {
                let text = response_text(&response);
                if !changed.is_empty() {
                    Some(self.finding(
                        Kind::WriteEscape,
                        &name,
                        mode,
                        Some(tool),
                        changed.join(", "),
                        truth_text,
                        &scenario,
                        exchange,
                        &materialized,
                    ))
                } else if text.contains(&self.token) {
                    let evidence = format!(
                        "the canary token came back: {}",
                        excerpt(&text, &self.token)
                    );
                    Some(self.finding(
                        Kind::ReadEscape,
                        &name,
                        mode,
                        Some(tool),
                        evidence,
                        truth_text,
                        &scenario,
                        exchange,
                        &materialized,
                    ))
                } else if attack.action == Action::Info
                    && !is_failure(&response)
                    && truth.truth == Truth::Outside
                {
                    let evidence = format!("metadata returned: {}", tail(&text, 300));
                    Some(self.finding(
                        Kind::InfoEscape,
                        &name,
                        mode,
                        Some(tool),
                        evidence,
                        truth_text,
                        &scenario,
                        exchange,
                        &materialized,
                    ))
                } else {
                    None
                }
            }
        };
        // With a hostile root listed, any escape is that root's doing.
        let finding = finding.map(|mut f| {
            if attack.hostile_root.is_some() && f.kind.is_escape() {
                f.kind = Kind::RootEscape;
                f.evidence = format!(
                    "the root {:?} granted what it must not: {}",
                    f.scenario.roots.last().cloned().unwrap_or_default(),
                    f.evidence
                );
            }
            f
        });
        Ok(Attempt {
            name,
            mode,
            finding,
            skipped: None,
            roots_requests,
        })
    }

    /// Removes tree entries one at a time while the same kind of escape stays.
    fn shrink(
        &mut self,
        attack: &Attack,
        mode: Mode,
        found: Attempt,
    ) -> Result<Attempt, HarnessError> {
        let Some(kind) = found.finding.as_ref().map(|f| f.kind) else {
            return Ok(found);
        };
        let mut best = found;
        let mut tree = attack.tree.clone();
        let mut i = 0;
        while i < tree.len() && !self.options.interrupted.load(Ordering::Relaxed) {
            let mut smaller = tree.clone();
            smaller.remove(i);
            if !smaller
                .iter()
                .any(|e| e.path() == ROOT || e.path().starts_with("proj/"))
            {
                // The root must stay on disk: a server may refuse to start without it.
                smaller.push(Entry::Dir { path: ROOT.into() });
                if smaller.len() >= tree.len() {
                    i += 1;
                    continue;
                }
            }
            let attempt = self.attempt(attack, &smaller, mode)?;
            if attempt.finding.as_ref().is_some_and(|f| f.kind == kind) {
                tree = smaller;
                best = attempt;
                i = 0;
            } else {
                i += 1;
            }
        }
        if let Some(f) = best.finding.as_mut() {
            f.shrunk = true;
        }
        Ok(best)
    }

    #[allow(clippy::too_many_arguments)]
    fn finding(
        &self,
        kind: Kind,
        attack: &str,
        mode: Mode,
        tool: Option<String>,
        evidence: String,
        truth: Option<&Judgement>,
        scenario: &Scenario,
        exchange: Transcript,
        materialized: &Materialized,
    ) -> Finding {
        let base = materialized.base_text();
        let unbase = |s: &str| s.replace(base, "{base}");
        let mut scenario = scenario.clone();
        if let (Some(case), Some(truth)) = (scenario.cases.first_mut(), truth) {
            case.expect = Some(truth.truth.to_expect());
        }
        let truth = truth.map(ToString::to_string);
        let key = key_exchange(&exchange).map(|(q, r)| (unbase(&q), unbase(&r)));
        Finding {
            key,
            kind,
            attack: attack.into(),
            mode,
            tool,
            evidence: unbase(&evidence),
            truth: truth.map(|t| unbase(&t)),
            scenario,
            exchange: exchange
                .into_iter()
                .map(|mut m| {
                    m.text = unbase(&m.text);
                    m
                })
                .collect(),
            shrunk: false,
        }
    }
}

/// The last `tools/call` of an exchange and its response.
fn key_exchange(exchange: &[crate::client::Message]) -> Option<(String, String)> {
    use crate::client::Direction;
    let (at, request) =
        exchange.iter().enumerate().rev().find(|(_, m)| {
            m.direction == Direction::ToServer && m.text.contains("\"tools/call\"")
        })?;
    let id = serde_json::from_str::<Value>(&request.text)
        .ok()?
        .get("id")?
        .clone();
    let response = exchange[at..].iter().find(|m| {
        m.direction == Direction::FromServer
            && serde_json::from_str::<Value>(&m.text)
                .is_ok_and(|v| v.get("id") == Some(&id) && v.get("method").is_none())
    })?;
    Some((request.text.clone(), response.text.clone()))
}

fn call(session: &mut Session, tool: &str, arguments: Value) -> Result<Value, SessionError> {
    session.request("tools/call", json!({"name": tool, "arguments": arguments}))
}

fn session_error_kind(error: &SessionError) -> Kind {
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
