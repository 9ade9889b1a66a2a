//! The fixed attack table, the first, deterministic phase: the baseline
//! ([`Baseline`]), then each attack ([`Table`]), on one server while the
//! roots and the mode stay; each escape shrunk and probed (`shrink`).

use std::sync::Arc;

use rootguard_judge::{kernel, Case, Entry, Op, Scenario};

use super::call::{Call, Seen, Spotted};
use super::shrink;
use super::{call, At, Attempt, Context, Live, Mode, Phase, Sighting, Started};
use crate::attacks::{self, Attack, ROOT, TOKEN};
use crate::client::{response_text, tail};
use crate::tools::Action;
use crate::{HarnessError, Kind};

/// The baseline in one mode: a read inside the root must return its
/// content, else a refused attack proves nothing.
pub(super) struct Baseline {
    mode: Mode,
    /// Whether the read inside the root worked (set by [`Phase::run`]).
    pub ok: bool,
}

impl Baseline {
    /// The baseline of `mode`, not yet run.
    pub fn new(mode: Mode) -> Baseline {
        Baseline { mode, ok: false }
    }
}

impl Phase for Baseline {
    fn run(&mut self, cx: &mut Context<'_>) -> Result<(), HarnessError> {
        let baseline = baseline(cx, self.mode)?;
        if self.mode == Mode::NoRoots && baseline.roots_requests > 0 {
            cx.report.notes.push(format!(
                "no-roots mode: the server sent roots/list {} time(s) although the client declared no roots capability; it was answered -32601",
                baseline.roots_requests
            ));
        }
        self.ok = baseline.finding.is_none();
        cx.record(baseline);
        Ok(())
    }
}

/// The table's attacks in one mode (the hostile roots in roots mode
/// only, the write attacks only where writes run), `--only` obeyed.
pub(super) struct Table {
    /// The session mode.
    pub mode: Mode,
}

impl Phase for Table {
    fn run(&mut self, cx: &mut Context<'_>) -> Result<(), HarnessError> {
        let (options, mode) = (cx.options, self.mode);
        let table = if options.table {
            let mut table = attacks::all().map_err(HarnessError::Scenario)?;
            table.extend(attacks::root_attacks().map_err(HarnessError::Scenario)?);
            table
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
            if attack.action.writes() && !cx.writes {
                cx.record(Attempt {
                    name: attack.name.clone(),
                    mode,
                    finding: None,
                    skipped: Some("write attack without a sandbox".into()),
                    roots_requests: 0,
                    truth: None,
                });
                continue;
            }
            if cx.stopped() {
                break;
            }
            let attempt = attempt(cx, &attack, &attack.tree, mode)?;
            let attempt = match (&attempt.finding, options.shrink) {
                (Some(f), true) if f.kind.is_escape() => {
                    let again = |cx: &mut Context<'_>, s: &Scenario| {
                        attempt_on(cx, &attack, s.clone(), mode)
                    };
                    let (interrupted, clock) = (&options.interrupted, Arc::clone(&cx.triage));
                    let triage = clock.start();
                    let shrunk = shrink::shrink(attempt, interrupted, &triage, |s| again(cx, s));
                    let found = shrunk.and_then(|shrunk| {
                        shrink::identify(shrunk, interrupted, &triage, |s| again(cx, s))
                    });
                    clock.charge(triage);
                    found?
                }
                _ => attempt,
            };
            // A signal may have reached the server too: what it did then proves nothing.
            if cx.stopped() {
                break;
            }
            cx.record(attempt);
        }
        cx.stop_table_server();
        Ok(())
    }
}

/// The baseline: a read inside the root must return its content.
fn baseline(cx: &mut Context<'_>, mode: Mode) -> Result<Attempt, HarnessError> {
    let tree = vec![Entry::File {
        path: format!("{ROOT}/inside.txt").into(),
        content: Some(format!("INSIDE-{TOKEN}\n")),
    }];
    let case = Case {
        path: format!("{{base}}/{ROOT}/inside.txt").into(),
        op: Op::Read,
        expect: None,
    };
    let scenario = cx.scenario("baseline", &tree, &[ROOT], Some(case));
    let name = "baseline".to_string();
    let live = match cx.launcher.start(&scenario, mode)? {
        Started::Running(live) => live,
        Started::Failed(failed) => {
            if failed.kind == Kind::Crash {
                return Err(HarnessError::Start {
                    command: cx.options.command.join(" "),
                    reason: format!(
                        "the server did not complete initialize: {}",
                        failed.evidence
                    ),
                });
            }
            let finding = failed.finding(&name, mode, &scenario);
            return Ok(Attempt::failed(name, mode, finding));
        }
    };
    let Live {
        materialized,
        mut session,
        ..
    } = live;
    let outcome = (|| {
        let tools = cx.launcher.tools(&mut session)?;
        let Some(tool) = tools.iter().find(|t| t.action == Action::Read) else {
            return Ok(Err("the server offers no read tool".to_string()));
        };
        let path = format!("{}/{ROOT}/inside.txt", materialized.base_text());
        let response = call(&mut session, &tool.name, tool.arguments(&[path], "x"))?;
        let want = format!("INSIDE-{}", cx.token);
        Ok(Ok((
            tool.name.clone(),
            response_text(&response).contains(&want),
            response,
        )))
    })();
    let roots_requests = session.roots_requests;
    let stray = session.stray_lines.clone();
    let exchange = session.close();
    let at = At {
        name: &name,
        mode,
        scenario: &scenario,
        materialized: &materialized,
    };
    let finding = match outcome {
        Err(e) => Some(at.failure(&e, exchange)),
        Ok(Err(why)) => {
            return Ok(Attempt {
                name,
                mode,
                finding: None,
                skipped: Some(why),
                roots_requests,
                truth: None,
            })
        }
        // Noise on stdout breaks every client of the server: it comes first.
        Ok(Ok((tool, read, _))) if !stray.is_empty() => Some(at.finding(Sighting {
            kind: Kind::ProtocolError,
            tool: Some(tool),
            evidence: format!(
                "{} non-JSON line(s) on stdout, the first {:?} (the read inside the root {})",
                stray.len(),
                stray[0],
                if read { "worked" } else { "failed" }
            ),
            truth: None,
            exchange,
        })),
        Ok(Ok((_, true, _))) => None,
        Ok(Ok((tool, false, response))) => Some(at.finding(Sighting {
            kind: Kind::RootNotHonoured,
            tool: Some(tool),
            evidence: format!(
                "reading a file inside the root failed: {}",
                tail(&response_text(&response), 300)
            ),
            truth: None,
            exchange,
        })),
    };
    Ok(Attempt {
        name,
        mode,
        finding,
        skipped: None,
        roots_requests,
        truth: None,
    })
}

/// One attack on one tree, on the table's long-lived server.
fn attempt(
    cx: &mut Context<'_>,
    attack: &Attack,
    tree: &[Entry],
    mode: Mode,
) -> Result<Attempt, HarnessError> {
    let (index, op) = attack.case;
    let case = Case {
        path: attack.paths[index].clone().into(),
        op,
        expect: None,
    };
    let mut scenario = cx.scenario(&attack.name, tree, &[ROOT], Some(case));
    scenario.note = Some(attack.note.clone());
    scenario.roots.extend(attack.hostile_root.clone());
    attempt_on(cx, attack, scenario, mode)
}

/// One attack on `scenario` (its tree, roots and case; the attack's
/// other paths as they are), on the table's long-lived server.
fn attempt_on(
    cx: &mut Context<'_>,
    attack: &Attack,
    scenario: Scenario,
    mode: Mode,
) -> Result<Attempt, HarnessError> {
    let (index, op) = attack.case;
    let mut attack_paths = attack.paths.clone();
    if let Some(case) = scenario.cases.first() {
        attack_paths[index] = case.path.to_string();
    }
    let name = attack.name.clone();
    let old = cx.table_server.take();
    let mut server = match cx.launcher.serve(old, &scenario, mode)? {
        Started::Running(server) => server,
        Started::Failed(failed) => {
            let finding = failed.finding(&name, mode, &scenario);
            return Ok(Attempt::failed(name, mode, finding));
        }
    };
    let base_text = server.live.materialized.base_text().to_owned();
    let paths: Vec<String> = attack_paths
        .iter()
        .map(|p| p.replace("{base}", &base_text))
        .collect();
    let truth = kernel::judge(
        server.live.materialized.roots(),
        paths[index].as_bytes(),
        op,
    );
    let roots_requests = server.live.session.roots_requests;
    let Some(tool) = server
        .tools
        .iter()
        .find(|t| t.action == attack.action)
        .cloned()
    else {
        cx.table_server = Some(server);
        return Ok(Attempt {
            name,
            mode,
            finding: None,
            skipped: Some(format!("no {} tool", attack.action.as_str())),
            roots_requests,
            truth: Some(truth.truth),
        });
    };
    let c = Call {
        action: attack.action,
        paths: attack_paths,
        hostile: index,
    };
    let arguments = tool.arguments(&paths, "listed");
    let finding = match c.observe(&mut server.live, &tool, arguments, &cx.token) {
        Seen::Nothing => {
            cx.table_server = Some(server);
            None
        }
        Seen::Finding(Spotted {
            kind,
            tool,
            evidence,
        }) => {
            let exchange = server.exchange();
            let f = At {
                name: &name,
                mode,
                scenario: &scenario,
                materialized: &server.live.materialized,
            }
            .finding(Sighting {
                kind,
                tool,
                evidence,
                truth: Some(&truth),
                exchange,
            });
            // What the escape did to the server is unknown: the next attack gets a fresh one.
            drop(server.stop());
            Some(f)
        }
    };
    let judged = Some(truth.truth);
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
        truth: judged,
    })
}
