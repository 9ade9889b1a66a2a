//! The fixed attack table, the first, deterministic phase: the baseline,
//! then each attack, on one server while the roots and the mode stay.

use rootguard_proptests::{kernel, Case, Entry, Op, Scenario};

use super::call::{Call, Seen};
use super::{call, At, Attempt, Live, Mode, Runner, Sighting};
use crate::attacks::{Attack, ROOT, TOKEN};
use crate::client::{response_text, tail};
use crate::tools::Action;
use crate::{HarnessError, Kind};

impl Runner<'_> {
    /// The baseline: a read inside the root must return its content.
    pub(super) fn baseline(&mut self, mode: Mode) -> Result<Attempt, HarnessError> {
        let tree = vec![Entry::File {
            path: format!("{ROOT}/inside.txt").into(),
            content: Some(format!("INSIDE-{TOKEN}\n")),
        }];
        let case = Case {
            path: format!("{{base}}/{ROOT}/inside.txt").into(),
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
                let finding =
                    self.start_failure(&name, mode, &scenario, (kind, evidence, exchange, m));
                return Ok(Attempt::failed(name, mode, finding));
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
            let response = call(&mut session, &tool.name, tool.arguments(&[path], "x"))?;
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
            Err(e) => Some(self.session_failure(
                At {
                    name: &name,
                    mode,
                    scenario: &scenario,
                    materialized: &materialized,
                },
                &e,
                exchange,
            )),
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
            Ok(Ok((tool, read, _))) if !stray.is_empty() => Some(self.finding(
                At {
                    name: &name,
                    mode,
                    scenario: &scenario,
                    materialized: &materialized,
                },
                Sighting {
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
                },
            )),
            Ok(Ok((_, true, _))) => None,
            Ok(Ok((tool, false, response))) => Some(self.finding(
                At {
                    name: &name,
                    mode,
                    scenario: &scenario,
                    materialized: &materialized,
                },
                Sighting {
                    kind: Kind::RootNotHonoured,
                    tool: Some(tool),
                    evidence: format!(
                        "reading a file inside the root failed: {}",
                        tail(&response_text(&response), 300)
                    ),
                    truth: None,
                    exchange,
                },
            )),
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

    /// One attack on one tree, on a fresh server.
    pub(super) fn attempt(
        &mut self,
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
        let mut scenario = self.scenario(attack.name, tree, &[ROOT], Some(case));
        scenario.note = Some(attack.note.into());
        scenario
            .roots
            .extend(attack.hostile_root.map(str::to_owned));
        self.attempt_on(attack, scenario, mode)
    }

    /// One attack on `scenario` (its tree, roots and case; the attack's
    /// other paths as they are), on the table's long-lived server.
    pub(super) fn attempt_on(
        &mut self,
        attack: &Attack,
        scenario: Scenario,
        mode: Mode,
    ) -> Result<Attempt, HarnessError> {
        let (index, op) = attack.case;
        let mut attack_paths = attack.paths.clone();
        if let Some(case) = scenario.cases.first() {
            attack_paths[index] = case.path.to_string();
        }
        let name = attack.name.to_string();
        let mut slot = self.table_server.take();
        if let Err(failed) = self.serve(&mut slot, &scenario, mode)? {
            let finding = self.start_failure(&name, mode, &scenario, failed);
            return Ok(Attempt::failed(name, mode, finding));
        }
        let Some(mut server) = slot else {
            return Err(HarnessError::Scenario(format!(
                "{name}: no server after a start that did not fail"
            )));
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
            self.table_server = Some(server);
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
        let finding = match self.observe(&mut server.live, &tool, &c, arguments) {
            Seen::Nothing => {
                self.table_server = Some(server);
                None
            }
            Seen::Finding(kind, tool, evidence) => {
                let exchange = server.exchange();
                let f = self.finding(
                    At {
                        name: &name,
                        mode,
                        scenario: &scenario,
                        materialized: &server.live.materialized,
                    },
                    Sighting {
                        kind,
                        tool,
                        evidence,
                        truth: Some(&truth),
                        exchange,
                    },
                );
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
}
