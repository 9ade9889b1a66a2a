//! The generative phase: scenarios drawn from the judge's generator
//! ([`Generator`]) until the budget is spent, mapped onto a fixed root
//! layout (`{base}/project`, sometimes `{base}/data` too), every case
//! called on every file tool that fits its operation.
//!
//! The drawing and its safety rules are in `draw`; one call and its
//! observation in `call`.

use std::collections::BTreeSet;
use std::time::Instant;

use rootguard_judge::gen::Generator;
use rootguard_judge::{Case, Op, Scenario};
use rootguard_triage::{probe, Probe};

use super::call::{Call, Seen};
use super::draw::{callable, draw, INSIDE_FILE};
use super::launch::Server;
use super::{At, Context, Finding, Mode, Outcome, Phase, Started};
use crate::{HarnessError, Kind};

/// Whether a finding's case was judged outside.
fn outside(f: &Finding) -> bool {
    f.scenario
        .cases
        .first()
        .and_then(|c| c.expect)
        .is_some_and(|e| e == rootguard_judge::Expect::Outside)
}

/// What the phase did in one mode.
#[derive(Debug, Default)]
struct Tally {
    /// Scenarios drawn.
    pub scenarios: usize,
    /// Tool calls made.
    pub calls: usize,
    /// Escapes and failures seen, findings or not.
    pub seen: usize,
    /// Servers started.
    pub starts: usize,
}

/// The generative phase in one mode, until its deadline.
pub(super) struct Generative {
    mode: Mode,
    deadline: Instant,
}

impl Generative {
    /// The phase in `mode`, drawing until `deadline`.
    pub fn new(mode: Mode, deadline: Instant) -> Generative {
        Generative { mode, deadline }
    }
}

impl Phase for Generative {
    /// Draws scenarios until the deadline and calls each case on every
    /// file tool; findings go into the report, one per kind and tool.
    fn run(&mut self, cx: &mut Context<'_>) -> Result<(), HarnessError> {
        let (options, mode, deadline) = (cx.options, self.mode, self.deadline);
        let mut generator = Generator::new(options.seed);
        let mut tally = Tally::default();
        let mut kept: BTreeSet<(Kind, Option<String>)> = BTreeSet::new();
        let mut first: Option<Kind> = None;
        let stop = |tally: &Tally| {
            Instant::now() >= deadline
                || options
                    .interrupted
                    .load(std::sync::atomic::Ordering::Relaxed)
                || (options.fail_fast && tally.seen > 0)
                || options
                    .max_scenarios
                    .is_some_and(|n| tally.scenarios as u64 >= n)
        };
        let mut slot: Option<Server> = None;
        let starts = cx.launcher.starts;
        while !stop(&tally) {
            tally.scenarios += 1;
            let drawn = draw(&mut generator, &cx.token, tally.scenarios);
            let found = self.generated(cx, &mut slot, &drawn, &mut tally)?;
            for finding in found {
                tally.seen += 1;
                if kept.insert((finding.kind, finding.tool.clone())) {
                    first.get_or_insert(finding.kind);
                    cx.report.findings.push(finding);
                }
                if options.fail_fast {
                    break;
                }
            }
        }
        if let Some(server) = slot {
            drop(server.stop());
        }
        tally.starts = cx.launcher.starts - starts;
        cx.progress(Outcome {
            name: "generative".into(),
            mode,
            finding: first,
            skipped: None,
        });
        cx.report.notes.push(format!(
            "{} mode, generative phase (seed {}): {} scenarios on {} server start(s), {} tool calls, {} escapes or failures seen, {} findings kept",
            mode.as_str(),
            options.seed,
            tally.scenarios,
            tally.starts,
            tally.calls,
            tally.seen,
            kept.len()
        ));
        cx.report.generated_scenarios += tally.scenarios;
        cx.report.generated_calls += tally.calls;
        Ok(())
    }
}

impl Generative {
    /// One generated scenario on the long-lived server in `slot`: every
    /// callable case on every tool, reads first; the first escape or
    /// failure ends it, and the server with it.
    fn generated(
        &self,
        cx: &mut Context<'_>,
        slot: &mut Option<Server>,
        drawn: &Scenario,
        tally: &mut Tally,
    ) -> Result<Vec<Finding>, HarnessError> {
        let mode = self.mode;
        match cx.launcher.serve(slot.take(), drawn, mode)? {
            Started::Running(server) => *slot = Some(server),
            Started::Failed(failed) => return Ok(vec![failed.finding(&drawn.name, mode, drawn)]),
        }
        let Some(server) = slot.as_mut() else {
            return Ok(Vec::new());
        };
        let base_text = server.live.materialized.base_text().to_owned();
        let roots = server.live.materialized.roots().to_vec();
        let has_inside = drawn.tree.iter().any(|e| e.path() == INSIDE_FILE);
        let mut calls: Vec<Call> = Vec::new();
        for op in [Op::Read, Op::Write] {
            for case in drawn.cases.iter().filter(|c| c.op == op) {
                for c in Call::for_case(case, &server.tools, has_inside, cx.writes) {
                    if callable(&roots, &base_text, case, c.op()) {
                        calls.push(c);
                    }
                }
            }
        }
        let mut found = None;
        for c in &calls {
            if Instant::now() >= self.deadline || cx.stopped() {
                break;
            }
            let Some(tool) = server.tools.iter().find(|t| t.action == c.action) else {
                continue;
            };
            tally.calls += 1;
            if let Seen::Finding(spotted) = c.call_and_observe(&mut server.live, tool, &cx.token) {
                found = Some((spotted, c.clone()));
                break;
            }
        }
        let Some((spotted, c)) = found else {
            return Ok(Vec::new());
        };
        let scenario = Scenario {
            cases: vec![Case {
                path: c.paths[c.hostile].clone().into(),
                op: c.op(),
                expect: None,
            }],
            note: Some(format!(
                "{}; {} {}",
                drawn.note.clone().unwrap_or_default(),
                c.action.as_str(),
                c.paths.join(" -> ")
            )),
            ..drawn.clone()
        };
        let name = format!("{}-{}", drawn.name, c.action.as_str());
        let exchange = server.exchange();
        let kind = spotted.kind;
        let found = spotted.finding(
            At {
                name: &name,
                mode,
                scenario: &scenario,
                materialized: &server.live.materialized,
            },
            &c,
            exchange,
        );
        // What the escape did to the server is unknown: the next scenario gets a fresh one.
        if let Some(server) = slot.take() {
            drop(server.stop());
        }
        if cx.options.shrink && kind.is_escape() {
            return Ok(vec![self.shrink(cx, found, &c)?]);
        }
        Ok(vec![found])
    }

    /// `c` alone on `scenario`, served by `slot`: the finding it shows, if any.
    fn call_alone(
        &self,
        cx: &mut Context<'_>,
        slot: &mut Option<Server>,
        scenario: &Scenario,
        c: &Call,
    ) -> Result<Option<Finding>, HarnessError> {
        if scenario.validate().is_err() {
            return Ok(None);
        }
        match cx.launcher.serve(slot.take(), scenario, self.mode)? {
            Started::Running(server) => *slot = Some(server),
            Started::Failed(_) => return Ok(None),
        }
        let Some(server) = slot.as_mut() else {
            return Ok(None);
        };
        let Some(tool) = server.tools.iter().find(|t| t.action == c.action).cloned() else {
            return Ok(None);
        };
        let Seen::Finding(spotted) = c.call_and_observe(&mut server.live, &tool, &cx.token) else {
            return Ok(None);
        };
        let exchange = server.exchange();
        let kind = spotted.kind;
        let f = spotted.finding(
            At {
                name: &scenario.name,
                mode: self.mode,
                scenario,
                materialized: &server.live.materialized,
            },
            c,
            exchange,
        );
        if !kind.is_escape() {
            if let Some(server) = slot.take() {
                drop(server.stop());
            }
        }
        Ok(Some(f))
    }

    /// Removes roots beyond the first, then tree entries one at a time
    /// (never a root's own directory), while `c` shows the same kind of
    /// escape; one server serves every try while the roots stay.
    fn shrink(
        &self,
        cx: &mut Context<'_>,
        found: Finding,
        c: &Call,
    ) -> Result<Finding, HarnessError> {
        let kind = found.kind;
        let mut best = found;
        let name = best.attack.clone();
        let mut slot = None;
        let keeps = |f: &Option<Finding>| f.as_ref().is_some_and(|f| f.kind == kind);
        if best.scenario.roots.len() > 1 {
            let mut fewer = best.scenario.clone();
            fewer.roots.truncate(1);
            let seen = self.call_alone(cx, &mut slot, &fewer, c)?;
            if keeps(&seen) {
                best = seen.expect("kept");
            }
        }
        let mut i = 0;
        while i < best.scenario.tree.len() && !cx.stopped() {
            let path = best.scenario.tree[i].path().to_owned();
            let is_root = best.scenario.roots.iter().any(|r| {
                r.strip_prefix("file://{base}/").map(str::as_bytes) == Some(path.as_bytes())
            });
            if is_root {
                i += 1;
                continue;
            }
            let mut smaller = best.scenario.clone();
            smaller.tree.remove(i);
            let seen = self.call_alone(cx, &mut slot, &smaller, c)?;
            if keeps(&seen) {
                best = seen.expect("kept");
            } else {
                i += 1;
            }
        }
        if let Some(server) = slot {
            drop(server.stop());
        }
        best.attack = name.clone();
        best.scenario.name = name;
        best.shrunk = true;
        self.identify(cx, best, c)
    }

    /// Probes a minimal escape for the features it needs (the report
    /// crate's engine): each variant's case is called as `c` was, on one
    /// server while the roots stay; a variant counts only when its truth
    /// is still outside and it stays in the base.
    fn identify(
        &self,
        cx: &mut Context<'_>,
        found: Finding,
        c: &Call,
    ) -> Result<Finding, HarnessError> {
        let class = found.kind.class();
        let mut slot = None;
        let identity = probe(&found.scenario, class, &[], |variant: &Scenario| {
            if cx.stopped() {
                return Ok(Probe::Inconclusive("interrupted".into()));
            }
            if !variant.stays_in_base() {
                return Ok(Probe::Inconclusive(
                    "it would reach outside the temp base".into(),
                ));
            }
            let Some(case) = variant.cases.first() else {
                return Ok(Probe::Inconclusive("no case".into()));
            };
            let mut call = c.clone();
            call.paths[call.hostile] = case.path.to_string();
            Ok(match self.call_alone(cx, &mut slot, variant, &call)? {
                Some(f) if f.kind.is_escape() && outside(&f) => Probe::Shows,
                Some(f) if f.kind.is_escape() => {
                    Probe::Inconclusive("its truth is not outside".into())
                }
                _ => Probe::Gone,
            })
        })?;
        if let Some(server) = slot {
            drop(server.stop());
        }
        Ok(Finding {
            identity: Some(identity),
            ..found
        })
    }
}
