//! What the server grants with no hostile input, before the attacks: a
//! canary beside the roots, one in its HOME and one in its working
//! directory, each read by a plain path. Then, in roots mode, the
//! client's failures as the roots specification lists them (`roots/list`
//! answered with an empty list, -32601, -32603, late, or never): the
//! server must still grant nothing beyond its configured directories.
//! docs/mcp-launch.md says how the findings are named and folded.

use std::fs;
use std::path::PathBuf;
use std::time::Duration;

use rootguard_judge::{Case, Entry, Op};

use super::{
    call, excerpt, At, Attempt, Context, Finding, Kind, Live, Mode, Phase, Sighting, Started, HOME,
};
use crate::attacks::{ROOT, TOKEN};
use crate::client::{response_text, RootsAnswer, SessionError};
use crate::sandbox::SCRATCH;
use crate::tools::{self, Action};
use crate::HarnessError;

/// The prefix of the default-grant probes' names.
pub(crate) const DEFAULT_GRANT: &str = "default-grant-";
/// The prefix of the client-failure probes' names.
pub(crate) const ROOTS_ANSWER: &str = "roots-answer-";
/// The working directory's canary, relative to the base.
pub(crate) const CWD_CANARY: &str = "../scratch/cwd/canary.txt";

/// Each canary: its probe's suffix, what it shows, and its path relative to the base.
const PLACES: [(&str, &str, &str); 3] = [
    (
        "beside",
        "a directory beside the root that no root names",
        "beside/canary.txt",
    ),
    ("home", "its HOME", ".rootguard-home/canary.txt"),
    ("cwd", "its working directory", CWD_CANARY),
];

/// How long a late answer waits: past the few seconds servers give a client.
const LATE: Duration = Duration::from_secs(3);

/// The client's failures, each with its probe's suffix.
const FAILURES: [(&str, RootsAnswer); 5] = [
    ("empty", RootsAnswer::Empty),
    ("error-32601", RootsAnswer::Error(-32601)),
    ("error-32603", RootsAnswer::Error(-32603)),
    ("late", RootsAnswer::Late(LATE)),
    ("never", RootsAnswer::Never),
];

/// The default-grant probe in one mode, then (roots mode) the
/// client-failure probes, each recorded. Skipped when the attacks are, or
/// when `--only` names none of them.
pub(super) struct Defaults {
    /// The session mode.
    pub mode: Mode,
}

impl Phase for Defaults {
    fn run(&mut self, cx: &mut Context<'_>) -> Result<(), HarnessError> {
        let (options, mode) = (cx.options, self.mode);
        let wanted = |name: &str| {
            options.attacks
                && options
                    .filter
                    .as_ref()
                    .is_none_or(|f| name.contains(f.as_str()))
        };
        let mut granted = Vec::new();
        if PLACES
            .iter()
            .any(|(p, ..)| wanted(&format!("{DEFAULT_GRANT}{p}")))
        {
            let served = canaries(cx, mode, RootsAnswer::Roots)?;
            for (place, shows, path) in PLACES {
                let name = format!("{DEFAULT_GRANT}{place}");
                let finding = served.iter().find(|(p, _)| *p == path).map(|(_, f)| {
                    let mut f = f.clone();
                    f.attack = name.clone();
                    f.evidence = format!("grants {shows} by default: {}", f.evidence);
                    f.scenario.cases[0].path = format!("{{base}}/{path}").into();
                    // The root and one canary: minimal as made, so it is the defect's example.
                    f.shrunk = true;
                    f
                });
                if finding.is_some() {
                    granted.push(path);
                }
                cx.record(attempt(name, mode, finding));
            }
        }
        if mode != Mode::Roots {
            return Ok(());
        }
        for (suffix, answer) in FAILURES {
            let name = format!("{ROOTS_ANSWER}{suffix}");
            if !wanted(&name) {
                continue;
            }
            let served = canaries(cx, mode, answer)?;
            // What the defaults already grant is not the failure's doing.
            let new: Vec<_> = served
                .into_iter()
                .filter(|(path, _)| !granted.contains(path))
                .collect();
            let finding = new.first().map(|(path, f)| {
                let mut f = f.clone();
                f.attack = name.clone();
                f.scenario.cases[0].path = format!("{{base}}/{path}").into();
                let places: Vec<&str> = new
                    .iter()
                    .filter_map(|(p, _)| PLACES.iter().find(|(.., q)| q == p).map(|(_, s, _)| *s))
                    .collect();
                f.evidence = format!(
                    "after roots/list was answered {suffix}, it grants {}: {}",
                    places.join(" and "),
                    f.evidence
                );
                f
            });
            cx.record(attempt(name, mode, finding));
        }
        Ok(())
    }
}

/// Starts the server with the root on its command line (and listed,
/// in roots mode, answered `answer`), puts the canaries in place and
/// reads each by a plain path: the ones served, each with its finding.
fn canaries(
    cx: &mut Context<'_>,
    mode: Mode,
    answer: RootsAnswer,
) -> Result<Vec<(&'static str, Finding)>, HarnessError> {
    let tree = vec![
        Entry::File {
            path: format!("{ROOT}/inside.txt").into(),
            content: Some(format!("INSIDE-{TOKEN}\n")),
        },
        Entry::File {
            path: PLACES[0].2.into(),
            content: Some(format!("CANARY-beside-{TOKEN}\n")),
        },
    ];
    let case = Case {
        path: format!("{{base}}/{}", PLACES[0].2).into(),
        op: Op::Read,
        expect: None,
    };
    let mut scenario = cx.scenario("defaults", &tree, &[ROOT], Some(case));
    scenario.note = Some(format!(
        "the canaries beside the root, in HOME ({{base}}/{HOME}) and in the working directory ({{base}}/../{SCRATCH}/cwd); roots/list answered {answer:?}"
    ));
    let Live {
        materialized,
        mut session,
        ..
    } = match cx.launcher.start_answering(&scenario, mode, answer)? {
        Started::Running(live) => live,
        Started::Failed(failed) => {
            let why = failed.evidence;
            cx.report.notes.push(format!(
                "{} mode, roots/list answered {answer:?}: the server did not start ({why}), so its defaults were not probed",
                mode.as_str()
            ));
            return Ok(Vec::new());
        }
    };
    let base = materialized.base().to_path_buf();
    let mut paths: Vec<(&'static str, PathBuf, String)> = Vec::new();
    for (place, _, rel) in PLACES {
        let path = base.join(rel);
        let content = format!("CANARY-{place}-{}", cx.token);
        if place != "beside" {
            // Beneath the temp dir by construction: the home and scratch were made there.
            fs::write(&path, format!("{content}\n")).map_err(|e| {
                HarnessError::Scenario(format!("cannot write {}: {e}", path.display()))
            })?;
        }
        paths.push((rel, path, content));
    }
    let mut served = Vec::new();
    let outcome = (|| {
        let tools = cx.launcher.tools(&mut session)?;
        let Some(tool) = tools.iter().find(|t| t.action == Action::Read) else {
            return Ok(());
        };
        for (rel, path, content) in &paths {
            let arguments = tools::arguments(Action::Read, &[path.display().to_string()], "x");
            let response = call(&mut session, &tool.name, arguments)?;
            let text = response_text(&response);
            if text.contains(content.as_str()) {
                // The exchange up to this read, so that it is the finding's key request.
                let cut = session.transcript.len();
                served.push((*rel, tool.name.clone(), excerpt(&text, content), cut));
            }
        }
        Ok(())
    })();
    let exchange = session.close();
    if let Err(e) = outcome {
        let e: SessionError = e;
        cx.report.notes.push(format!(
            "{} mode, roots/list answered {answer:?}: the canary reads stopped ({e}); a server that waits is not granting",
            mode.as_str()
        ));
    }
    Ok(served
        .into_iter()
        .map(|(rel, tool, excerpt, cut)| {
            let f = At {
                name: "defaults",
                mode,
                scenario: &scenario,
                materialized: &materialized,
            }
            .finding(Sighting {
                kind: Kind::ReadEscape,
                tool: Some(tool),
                evidence: format!("the canary came back: {excerpt}"),
                truth: None,
                exchange: exchange[..cut.min(exchange.len())].to_vec(),
            });
            (rel, f)
        })
        .collect())
}

fn attempt(name: String, mode: Mode, finding: Option<Finding>) -> Attempt {
    Attempt {
        name,
        mode,
        finding,
        skipped: None,
        roots_requests: 0,
        truth: None,
    }
}
