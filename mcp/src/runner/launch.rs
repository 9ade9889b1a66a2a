//! Starting servers: a scenario materialized, its server started over
//! the transport the options name, the handshake, its roots, its file
//! tools; and the long-lived [`Server`] that serves scenario after
//! scenario while the roots stay (its next tree laid in the same base,
//! [`Materialized::relay`]), started afresh only when the roots or the
//! session mode change, or the old one crashed, hung or showed an escape
//! (its state is then unknown). The table and the generative phase both
//! use it.

use std::fs;
use std::path::PathBuf;
use std::time::Duration;

use rootguard_judge::{MaterializeError, Materialized, Scenario};
use serde_json::{json, Value};

use super::{git_tree, session_error_kind, At, Finding, Mode, Options, Sighting, HOME};
use crate::client::{RootsAnswer, Session, SessionError, Transcript};
use crate::era::EraChoice;
use crate::sandbox::{Launch, Sandbox};
use crate::tally::Tally;
use crate::tools::{self, Tool};
use crate::{HarnessError, Kind};

/// A materialized scenario with its server running, initialized.
pub(crate) struct Live {
    /// The tree on disk.
    pub(crate) materialized: Materialized,
    /// The client of its server.
    pub(crate) session: Session,
    /// What the write observation skips: the roots and the server's home.
    pub(crate) skip: Vec<PathBuf>,
}

/// What a phase lays in a base after its tree and before its server
/// starts, and again after each relay: the git phase's repositories and
/// archives, which a scenario's entries cannot describe.
pub(crate) type Prepare<'p> = &'p dyn Fn(&Materialized) -> Result<(), HarnessError>;

/// A server that failed before it could be used: the kind, what
/// happened, the exchange so far, and the tree.
pub(crate) struct StartFailure {
    /// A hang, a crash or a protocol error.
    pub(crate) kind: Kind,
    /// What happened.
    pub(crate) evidence: String,
    /// The exchange so far.
    pub(crate) exchange: Transcript,
    /// The tree it was started on.
    pub(crate) materialized: Materialized,
}

impl StartFailure {
    /// Its finding, in the attack or check `name` on `scenario`.
    pub(crate) fn finding(self, name: &str, mode: Mode, scenario: &Scenario) -> Finding {
        At {
            name,
            mode,
            scenario,
            materialized: &self.materialized,
        }
        .finding(Sighting {
            kind: self.kind,
            tool: None,
            evidence: self.evidence,
            truth: None,
            exchange: self.exchange,
        })
    }
}

/// How a start went: the server running (a [`Live`] scenario, or a
/// [`Server`] serving it), or failed in a way that is the server's doing.
// Clippy reads the generic variant as empty; its values (Live, Server) are the larger.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Started<T> {
    /// It runs, initialized.
    Running(T),
    /// It failed before it could be used.
    Failed(StartFailure),
}

/// Starts the servers of a run, and keeps what the first sessions settled.
#[derive(Clone)]
pub(crate) struct Launcher<'a> {
    options: &'a Options,
    /// The sandbox every server runs in.
    pub(crate) sandbox: Sandbox,
    /// How many servers were started so far.
    pub(crate) starts: usize,
    /// Whether the server asked for roots in the roots-mode baseline.
    asks_roots: Option<bool>,
    /// The server as the first session settled it named itself.
    pub(crate) server: Option<Value>,
    /// The era sessions speak: fixed by the first one that settled it.
    pub(crate) era: EraChoice,
    /// The calls every session made, per door.
    pub(crate) tally: Tally,
}

impl<'a> Launcher<'a> {
    /// A launcher for `options` (prepared), its sandbox chosen.
    ///
    /// # Errors
    ///
    /// [`HarnessError::Usage`] when the sandbox asked for does not work here.
    pub(crate) fn new(options: &'a Options) -> Result<Launcher<'a>, HarnessError> {
        let sandbox = options.sandbox.unwrap_or_else(Sandbox::detect);
        if sandbox != Sandbox::None && options.sandbox.is_some() && !sandbox.confines() {
            return Err(HarnessError::Usage(format!(
                "the {} sandbox does not work here (a probe could write outside its base); choose another with --sandbox",
                sandbox.as_str()
            )));
        }
        Ok(Launcher {
            options,
            sandbox,
            starts: 0,
            asks_roots: None,
            server: None,
            era: options.era,
            tally: Tally::default(),
        })
    }

    /// Takes in what a worker's copy of this launcher did: its starts,
    /// and what its sessions settled when this one had not.
    pub(crate) fn absorb(&mut self, worker: Launcher<'a>) {
        self.starts += worker.starts;
        self.asks_roots = self.asks_roots.or(worker.asks_roots);
        if self.server.is_none() {
            self.server = worker.server;
        }
        if self.era.fixed().is_none() {
            self.era = worker.era;
        }
    }

    /// Materializes `scenario`, starts the server with its roots,
    /// initializes, and lets it fetch its roots.
    pub(crate) fn start(
        &mut self,
        scenario: &Scenario,
        mode: Mode,
    ) -> Result<Started<Live>, HarnessError> {
        self.start_answering(scenario, mode, RootsAnswer::Roots)
    }

    /// As [`Launcher::start`], `roots/list` answered `answer`.
    pub(crate) fn start_answering(
        &mut self,
        scenario: &Scenario,
        mode: Mode,
        answer: RootsAnswer,
    ) -> Result<Started<Live>, HarnessError> {
        self.start_prepared(scenario, mode, answer, None)
    }

    /// As [`Launcher::start_answering`], `prepare` run on the tree before
    /// the server starts.
    fn start_prepared(
        &mut self,
        scenario: &Scenario,
        mode: Mode,
        answer: RootsAnswer,
        prepare: Option<Prepare<'_>>,
    ) -> Result<Started<Live>, HarnessError> {
        let materialized = match &self.options.base_dir {
            Some(dir) => Materialized::new_in(scenario, dir),
            None => Materialized::new(scenario),
        }
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
        if self.options.git_roots {
            // A fresh tree, no server yet: nothing here could hold a planted hook.
            for dir in &root_dirs {
                git_tree::init(dir)?;
            }
        }
        if let Some(prepare) = prepare {
            prepare(&materialized)?;
        }
        let mut skip = root_dirs.clone();
        skip.push(home.clone());
        let launch = Launch::prepare(
            &self.options.launch,
            &self.options.command,
            &root_dirs,
            &base,
            &home,
            self.sandbox,
        )?;
        let uris = (mode == Mode::Roots).then(|| materialized.roots().to_vec());
        let mut tries = 0;
        loop {
            tries += 1;
            self.starts += 1;
            let mut session = match &self.options.http {
                Some(url) => Session::start_http(&launch, url, uris.clone(), self.options.timeout)?,
                None => Session::start(&launch, uris.clone(), self.options.timeout)?,
            };
            session.roots_answer = answer;
            session.tally = Some(self.tally.clone());
            session.set_era(self.era);
            match self.handshake(&mut session, mode) {
                Ok(()) => {
                    return Ok(Started::Running(Live {
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
                    return Ok(Started::Failed(StartFailure {
                        kind: session_error_kind(&e),
                        evidence: e.to_string(),
                        exchange: session.close(),
                        materialized,
                    }));
                }
            }
        }
    }

    fn handshake(&mut self, session: &mut Session, mode: Mode) -> Result<(), SessionError> {
        session.initialize()?;
        if self.server.is_none() {
            self.server = session.server();
        }
        if let Some(era) = session.era() {
            self.era = era.into();
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

    /// The server's file tools, every page of `tools/list`.
    pub(crate) fn tools(&self, session: &mut Session) -> Result<Vec<Tool>, SessionError> {
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
        Ok(crate::argdoors::with_fills(tools::discover(&all), &all))
    }

    /// A server serving `scenario`: `old` with its tree relaid when the
    /// roots and the mode match and it is alive, else a fresh one (`old`
    /// stopped).
    pub(crate) fn serve(
        &mut self,
        old: Option<Server>,
        scenario: &Scenario,
        mode: Mode,
    ) -> Result<Started<Server>, HarnessError> {
        self.serve_prepared(old, scenario, mode, None)
    }

    /// As [`Launcher::serve`], `prepare` run on each tree laid (before a
    /// fresh server starts, after a relay).
    pub(crate) fn serve_prepared(
        &mut self,
        old: Option<Server>,
        scenario: &Scenario,
        mode: Mode,
        prepare: Option<Prepare<'_>>,
    ) -> Result<Started<Server>, HarnessError> {
        if let Some(mut server) = old {
            if server.mode == mode
                && !server.live.session.has_exited()
                && !self.options.restart_each_scenario
            {
                match server.live.materialized.relay(scenario, &[HOME]) {
                    Ok(()) => {
                        if let Some(Err(e)) = prepare.map(|p| p(&server.live.materialized)) {
                            drop(server.stop());
                            return Err(e);
                        }
                        server.begin();
                        return Ok(Started::Running(server));
                    }
                    Err(MaterializeError::RootsDiffer) => {}
                    Err(e) => {
                        drop(server.stop());
                        return Err(HarnessError::Scenario(format!("{}: {e}", scenario.name)));
                    }
                }
            }
            drop(server.stop());
        }
        let mut live = match self.start_prepared(scenario, mode, RootsAnswer::Roots, prepare)? {
            Started::Running(live) => live,
            Started::Failed(failed) => return Ok(Started::Failed(failed)),
        };
        match self.tools(&mut live.session) {
            Ok(tools) => {
                let handshake = live.session.transcript.len();
                Ok(Started::Running(Server {
                    live,
                    tools,
                    handshake,
                    mark: handshake,
                    mode,
                }))
            }
            Err(e) => {
                let Live {
                    materialized,
                    session,
                    ..
                } = live;
                Ok(Started::Failed(StartFailure {
                    kind: session_error_kind(&e),
                    evidence: e.to_string(),
                    exchange: session.close(),
                    materialized,
                }))
            }
        }
    }
}

/// A server serving scenario after scenario.
pub(crate) struct Server {
    /// The tree, the session and what the write observation skips.
    pub(crate) live: Live,
    /// Its file tools, listed once.
    pub(crate) tools: Vec<Tool>,
    /// How many messages the start and the tool listing took.
    handshake: usize,
    /// Where the current scenario's messages begin.
    mark: usize,
    /// The session mode it was started in.
    mode: Mode,
}

impl Server {
    /// Begins a new knock or scenario on the same tree: its exchange
    /// starts here (after the start and tool listing).
    pub(crate) fn begin(&mut self) {
        self.mark = self.live.session.transcript.len();
    }

    /// The current scenario's exchange: the start and tool listing, then
    /// its own messages.
    pub(crate) fn exchange(&self) -> Transcript {
        let all = &self.live.session.transcript;
        let mut out = all[..self.handshake.min(all.len())].to_vec();
        out.extend_from_slice(&all[self.mark.min(all.len())..]);
        out
    }

    /// Stops the server; the tree goes with it.
    pub(crate) fn stop(self) -> Transcript {
        let exchange = self.exchange();
        drop(self.live.session.close());
        exchange
    }
}
