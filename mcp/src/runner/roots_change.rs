//! The roots-that-change check: mid-session the roots change and
//! `notifications/roots/list_changed` is sent; the old root must stop
//! working and the new one must work; then a listed root vanishes from
//! disk and a listed one appears. Then, each on a fresh server, roots
//! that move on disk (`roots_moved`) and roots spelled every way
//! (`root_spellings`).

use std::fs;
use std::time::Duration;

use rootguard_judge::{kernel, Case, Judgement, Op};
use serde_json::json;

use super::{
    call, excerpt, marked_dirs, marker, session_error_kind, At, Attempt, Context, Finding, Kind,
    Live, Mode, Phase, Sighting, Started,
};
use crate::client::{response_text, tail, Session, SessionError};
use crate::tools::Action;
use crate::HarnessError;

/// Roots that change mid-session (roots mode): the old root must stop
/// working, the new one must work; then a listed root vanishes from disk
/// and a listed one appears. Its attempts stay in [`RootsChange::attempts`]
/// for the run to record.
#[derive(Default)]
pub(super) struct RootsChange {
    /// What each step showed.
    pub attempts: Vec<Attempt>,
}

impl Phase for RootsChange {
    fn run(&mut self, cx: &mut Context<'_>) -> Result<(), HarnessError> {
        self.attempts = roots_change(cx)?;
        self.attempts.extend(super::roots_moved::roots_moved(cx)?);
        self.attempts
            .extend(super::root_spellings::root_spellings(cx)?);
        Ok(())
    }
}

/// The check's steps, on one server.
fn roots_change(cx: &mut Context<'_>) -> Result<Vec<Attempt>, HarnessError> {
    let mode = Mode::Roots;
    let tree = marked_dirs(&["a", "b", "c"]);
    let scenario = cx.scenario("roots-change", &tree, &["a", "c"], None);
    let names = [
        "roots-change-old-root-revoked",
        "roots-change-new-root-granted",
        "root-vanishes",
        "root-appears",
    ];
    let attempt =
        |name: &str, finding: Option<Finding>, skipped: Option<String>, requests: usize| Attempt {
            name: name.into(),
            mode,
            finding,
            skipped,
            roots_requests: requests,
            truth: None,
        };
    let live = match cx.launcher.start(&scenario, mode)? {
        Started::Running(live) => live,
        Started::Failed(failed) => {
            let f = failed.finding(names[0], mode, &scenario);
            return Ok(vec![attempt(names[0], Some(f), None, 0)]);
        }
    };
    let Live {
        materialized,
        mut session,
        ..
    } = live;
    let base = materialized.base().to_path_buf();
    let uri = |d: &str| format!("file://{}/{d}", base.display());
    let tools = match cx.launcher.tools(&mut session) {
        Ok(tools) => tools,
        Err(e) => {
            let exchange = session.close();
            let f = At {
                name: names[0],
                mode,
                scenario: &scenario,
                materialized: &materialized,
            }
            .failure(&e, exchange);
            return Ok(vec![attempt(names[0], Some(f), None, 0)]);
        }
    };
    let Some(tool) = tools.iter().find(|t| t.action == Action::Read).cloned() else {
        return Ok(names
            .iter()
            .map(|n| attempt(n, None, Some("the server offers no read tool".into()), 0))
            .collect());
    };
    let token = cx.token.clone();
    // Reads `d/file.txt`; Ok(true) when its content came back.
    let read = |session: &mut Session, d: &str| -> Result<(bool, String), SessionError> {
        let path = format!("{}/{d}/file.txt", base.display());
        let response = call(session, &tool.name, tool.arguments(&[path], "x"))?;
        let text = response_text(&response);
        Ok((text.contains(&marker(d, &token)), text))
    };
    let mut results = Vec::new();
    let mut steps = || -> Result<(), SessionError> {
        let (a_before, text) = read(&mut session, "a")?;
        if !a_before {
            results.push(judged(
                &base,
                (
                    session.transcript.len(),
                    names[1],
                    Some((
                        Kind::RootNotHonoured,
                        format!(
                            "the initial root a was refused before any change: {}",
                            tail(&text, 200)
                        ),
                        "a",
                        vec!["a", "c"],
                    )),
                ),
            ));
            return Ok(());
        }
        // Change 1: a leaves, b and a not-yet-existing d join.
        let asked = session.roots_requests;
        session.set_roots(vec![uri("b"), uri("c"), uri("d")]);
        session.notify("notifications/roots/list_changed", None)?;
        session.pump(cx.options.roots_wait, Some(asked + 1))?;
        std::thread::sleep(Duration::from_millis(150));
        session.request("ping", json!({}))?;
        let refreshed = session.roots_requests > asked;
        let (a_after, text) = read(&mut session, "a")?;
        results.push(judged(
            &base,
            (
                session.transcript.len(),
                names[0],
                a_after.then(|| {
                    (
                        Kind::StaleRoot,
                        format!(
                            "after roots/list_changed {} the old root a still grants: {}",
                            if refreshed {
                                "and a roots/list answered with [b, c, d]"
                            } else {
                                "(the server never asked roots/list again)"
                            },
                            excerpt(&text, &token)
                        ),
                        "a",
                        vec!["b", "c", "d"],
                    )
                }),
            ),
        ));
        let (b_after, text) = read(&mut session, "b")?;
        results.push(judged(
            &base,
            (
                session.transcript.len(),
                names[1],
                (!b_after).then(|| {
                    (
                        Kind::RootNotHonoured,
                        format!(
                            "the new root b was refused{}: {}",
                            if refreshed {
                                ""
                            } else {
                                " (the server never asked roots/list again)"
                            },
                            tail(&text, 200)
                        ),
                        "b",
                        vec!["b", "c", "d"],
                    )
                }),
            ),
        ));
        // Change 2: c vanishes from disk, d appears.
        let _ = fs::remove_file(base.join("c/file.txt"));
        let _ = fs::remove_dir(base.join("c"));
        let _ = fs::create_dir(base.join("d"));
        let _ = fs::write(base.join("d/file.txt"), format!("ROOT-d-{token}\n"));
        let asked = session.roots_requests;
        session.notify("notifications/roots/list_changed", None)?;
        session.pump(cx.options.roots_wait, Some(asked + 1))?;
        std::thread::sleep(Duration::from_millis(150));
        session.request("ping", json!({}))?;
        let (b_still, text) = read(&mut session, "b")?;
        results.push(judged(
            &base,
            (
                session.transcript.len(),
                names[2],
                (!b_still).then(|| {
                    (
                        Kind::RootNotHonoured,
                        format!(
                            "with root c gone from disk, root b was refused: {}",
                            tail(&text, 200)
                        ),
                        "b",
                        vec!["b", "c", "d"],
                    )
                }),
            ),
        ));
        let (d_now, text) = read(&mut session, "d")?;
        results.push(judged(
            &base,
            (
                session.transcript.len(),
                names[3],
                (!d_now).then(|| {
                    (
                        Kind::RootNotHonoured,
                        format!(
                            "root d, listed before it existed, was refused after it appeared: {}",
                            tail(&text, 200)
                        ),
                        "d",
                        vec!["b", "c", "d"],
                    )
                }),
            ),
        ));
        Ok(())
    };
    let failure = steps().err();
    let requests = session.roots_requests;
    let exchange = session.close();
    let mut out = Vec::new();
    for (cut, name, found) in results {
        let finding = found.map(|(kind, evidence, dir, roots, truth)| {
                let path = format!("{{base}}/{dir}/file.txt");
                let mut s = cx.scenario(name, &tree, &roots, Some(Case { path: path.clone().into(), op: Op::Read, expect: None }));
                s.note = Some("roots changed mid-session (see the exchange); the case is judged under the roots in force then".into());
                At { name, mode, scenario: &s, materialized: &materialized }.finding(Sighting { kind, tool: Some(tool.name.clone()), evidence, truth: Some(&truth), exchange: exchange[..cut.min(exchange.len())].to_vec() })
            });
        out.push(attempt(name, finding, None, requests));
    }
    if let Some(e) = failure {
        let name = names[out.len().min(names.len() - 1)];
        let f = At {
            name,
            mode,
            scenario: &scenario,
            materialized: &materialized,
        }
        .finding(Sighting {
            kind: session_error_kind(&e),
            tool: Some(tool.name.clone()),
            evidence: e.to_string(),
            truth: None,
            exchange,
        });
        out.push(attempt(name, Some(f), None, requests));
    }
    Ok(out)
}

/// What the roots-that-change check found at one step.
type Found = (Kind, String, &'static str, Vec<&'static str>);

/// A step's finding with the truth of its read.
type Judged = (Kind, String, &'static str, Vec<&'static str>, Judgement);

/// A step's result with the truth of its read judged now, before the tree changes again.
fn judged(
    base: &std::path::Path,
    (cut, name, found): (usize, &'static str, Option<Found>),
) -> (usize, &'static str, Option<Judged>) {
    let found = found.map(|(kind, evidence, dir, roots)| {
        let uris: Vec<String> = roots
            .iter()
            .map(|r| format!("file://{}/{r}", base.display()))
            .collect();
        let path = format!("{}/{dir}/file.txt", base.display());
        let truth = kernel::judge(&uris, path.as_bytes(), Op::Read);
        (kind, evidence, dir, roots, truth)
    });
    (cut, name, found)
}
