//! Starting a server on a materialized scenario: the handshake, its
//! roots, and its file tools.

use std::fs;
use std::path::PathBuf;
use std::time::Duration;

use rootguard_proptests::{Materialized, Scenario};
use serde_json::{json, Value};

use super::{session_error_kind, Failed, Live, Mode, Runner, HOME};
use crate::client::{Session, SessionError};
use crate::sandbox::Launch;
use crate::tools;
use crate::HarnessError;

impl Runner<'_> {
    /// Materializes `scenario`, starts the server with `roots` (directories
    /// relative to the base), initializes, and lets it fetch its roots.
    pub(crate) fn start(
        &mut self,
        scenario: &Scenario,
        mode: Mode,
    ) -> Result<Result<Live, Failed>, HarnessError> {
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
            session.roots_answer = self.roots_answer;
            session.set_era(self.era);
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

    pub(super) fn handshake(
        &mut self,
        session: &mut Session,
        mode: Mode,
    ) -> Result<(), SessionError> {
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

    pub(crate) fn tools(&self, session: &mut Session) -> Result<Vec<tools::Tool>, SessionError> {
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
}
