//! The attacks on multi-round-trip requests (revision 2026-07-28, roots
//! mode): every request carries its own roots, asked for with an
//! `input_required` result, and `requestState` is attacker-controlled.
//!
//! - `mrtr-retry-roots`: a call with roots `[a]`, then a call whose retry
//!   answers roots `[b]`: reading `a` must be refused (a server keeping the
//!   first call's roots grants it).
//! - `mrtr-stale-state`: a call with roots `[a]`, then another call whose
//!   retry answers roots `[b]` but echoes the first call's `requestState`:
//!   reading `a` must still be refused.
//! - `mrtr-empty-roots`: a call with roots `[a]`, then a call whose retry
//!   answers an empty roots list reading `out`, outside every directory:
//!   no roots grant nothing (docs/semantics.md section 1), so it must be
//!   refused (a server taking `[]` for "no restriction" grants it).
//!
//! Each runs on a fresh server (the command line names `a` and `b`), so a
//! finding is one session.

use rootguard_judge::{kernel, Case, Op};
use serde_json::json;

use super::{
    excerpt, marked_dirs, marker, At, Attempt, Context, Kind, Live, Mode, Phase, Sighting, Started,
};
use crate::client::{response_text, SessionError};
use crate::era::{self, EraChoice, ResultType};
use crate::tools::{self, Action};
use crate::HarnessError;

const RETRY_ROOTS: &str = "mrtr-retry-roots";
const STALE_STATE: &str = "mrtr-stale-state";
const EMPTY_ROOTS: &str = "mrtr-empty-roots";

/// What one check's session came to.
enum Seen {
    /// `a` was refused under roots `[b]`.
    Held,
    /// `a`'s content came back under roots `[b]`: its excerpt, and whether
    /// the server asked for the roots in that call at all.
    Granted(String, bool),
    /// The check could not be made: why.
    Skipped(String),
}

/// The multi-round-trip checks; none unless the run speaks the modern
/// era. Their attempts stay in [`Mrtr::attempts`] for the run to record.
#[derive(Default)]
pub(super) struct Mrtr {
    /// What each check showed.
    pub attempts: Vec<Attempt>,
}

impl Phase for Mrtr {
    fn run(&mut self, cx: &mut Context<'_>) -> Result<(), HarnessError> {
        if cx.launcher.era != EraChoice::Modern {
            return Ok(());
        }
        for name in [RETRY_ROOTS, STALE_STATE, EMPTY_ROOTS] {
            self.attempts.push(check(cx, name)?);
        }
        Ok(())
    }
}

/// One check, on a server of its own.
fn check(cx: &mut Context<'_>, name: &'static str) -> Result<Attempt, HarnessError> {
    let mode = Mode::Roots;
    let tree = marked_dirs(&["a", "b", "out"]);
    let attempt = |finding, skipped, roots_requests| Attempt {
        name: name.into(),
        mode,
        finding,
        skipped,
        roots_requests,
        truth: None,
    };
    let scenario = cx.scenario(name, &tree, &["a", "b"], None);
    let live = match cx.launcher.start(&scenario, mode)? {
        Started::Running(live) => live,
        Started::Failed(failed) => {
            let f = failed.finding(name, mode, &scenario);
            return Ok(attempt(Some(f), None, 0));
        }
    };
    let Live {
        materialized,
        mut session,
        ..
    } = live;
    let base = materialized.base().to_path_buf();
    let uri = |d: &str| format!("file://{}/{d}", base.display());
    let token = cx.token.clone();
    let path = format!("{}/a/file.txt", base.display());
    // What the second call reads, and its roots then.
    let (dir, roots): (&str, &[&str]) = match name {
        EMPTY_ROOTS => ("out", &[]),
        _ => ("a", &["b"]),
    };
    let target = format!("{}/{dir}/file.txt", base.display());
    let seen = (|| -> Result<(Option<String>, Seen), SessionError> {
        let tools = cx.launcher.tools(&mut session)?;
        let Some(tool) = tools.iter().find(|t| t.action == Action::Read) else {
            return Ok((None, Seen::Skipped("the server offers no read tool".into())));
        };
        let tool = tool.name.clone();
        let params = json!({"name": tool, "arguments": tools::arguments(Action::Read, std::slice::from_ref(&path), "x")});
        let want = format!("ROOT-a-{token}");
        // The first call, roots [a]: it must ask for them, and grant a.
        session.set_roots(vec![uri("a")]);
        let first = session.round("tools/call", params.clone())?;
        let result = &first["result"];
        if era::result_type(result) != Ok(ResultType::InputRequired) {
            return Ok((
                Some(tool),
                Seen::Skipped(
                    "the server did not ask for roots in an input_required result".into(),
                ),
            ));
        }
        let state = result.get("requestState").cloned();
        let mut retry = params.clone();
        retry["inputResponses"] = session.input_responses(result);
        if let Some(state) = &state {
            retry["requestState"] = state.clone();
        }
        let granted = session.request("tools/call", retry)?;
        if !response_text(&granted).contains(&want) {
            return Ok((
                Some(tool),
                Seen::Skipped("the server refused its own root a in the first call".into()),
            ));
        }
        // The second call, under the other roots.
        session.set_roots(roots.iter().map(|r| uri(r)).collect());
        let asked = session.roots_requests;
        let params = json!({"name": tool, "arguments": tools::arguments(Action::Read, std::slice::from_ref(&target), "x")});
        let want = marker(dir, &token);
        let response = if name != STALE_STATE {
            session.request("tools/call", params)?
        } else {
            let Some(state) = state else {
                return Ok((
                    Some(tool),
                    Seen::Skipped("the server issued no requestState to replay".into()),
                ));
            };
            let second = session.round("tools/call", params.clone())?;
            let result = &second["result"];
            if era::result_type(result) != Ok(ResultType::InputRequired) {
                second
            } else {
                let mut replay = params;
                replay["inputResponses"] = session.input_responses(result);
                replay["requestState"] = state;
                session.request("tools/call", replay)?
            }
        };
        let text = response_text(&response);
        Ok((
            Some(tool),
            if text.contains(&want) {
                Seen::Granted(excerpt(&text, &token), session.roots_requests > asked)
            } else {
                Seen::Held
            },
        ))
    })();
    let requests = session.roots_requests;
    let exchange = session.close();
    let (tool, seen) = match seen {
        Ok(found) => found,
        Err(e) => {
            let f = At {
                name,
                mode,
                scenario: &scenario,
                materialized: &materialized,
            }
            .failure(&e, exchange);
            return Ok(attempt(Some(f), None, requests));
        }
    };
    Ok(match seen {
        Seen::Held => attempt(None, None, requests),
        Seen::Skipped(why) => attempt(None, Some(why), requests),
        Seen::Granted(excerpt, asked) => {
            let evidence = if name == EMPTY_ROOTS {
                format!("a retry answering an empty roots list read {{base}}/out, outside every directory: {excerpt}")
            } else if name == RETRY_ROOTS && asked {
                format!("after a call with roots [a], a call whose retry answered roots [b] still read a: {excerpt}")
            } else if name == RETRY_ROOTS {
                format!("after a call with roots [a], a call made with roots [b] read a without asking for the roots again: {excerpt}")
            } else {
                format!("a retry answering roots [b] but echoing the requestState of an earlier call made with roots [a] read a: {excerpt}")
            };
            let case = Case {
                path: format!("{{base}}/{dir}/file.txt").into(),
                op: Op::Read,
                expect: None,
            };
            let mut s = cx.scenario(name, &tree, roots, Some(case));
            s.note = Some(
                    "the roots in force are those of the last retry (see the exchange); the server's command line names a and b".into(),
                );
            let uris: Vec<String> = roots.iter().map(|r| uri(r)).collect();
            let truth = kernel::judge(&uris, target.as_bytes(), Op::Read);
            let kind = if name == EMPTY_ROOTS {
                Kind::RootEscape
            } else {
                Kind::StaleRoot
            };
            let f = At {
                name,
                mode,
                scenario: &s,
                materialized: &materialized,
            }
            .finding(Sighting {
                kind,
                tool,
                evidence,
                truth: Some(&truth),
                exchange,
            });
            attempt(Some(f), None, requests)
        }
    })
}
