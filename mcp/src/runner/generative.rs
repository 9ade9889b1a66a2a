//! The generative phase: scenarios drawn from the judge's generator
//! ([`Generator`]) until the budget is spent, mapped onto a fixed root
//! layout (`{base}/project`, sometimes `{base}/data` too), every case
//! called on every file tool that fits its operation.
//!
//! The drawing and its safety rules are in `draw`; one call and its
//! observation in `call`.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use rootguard_judge::gen::Generator;
use rootguard_judge::{Case, Op, Scenario};
use rootguard_triage::{probe, shrink_found, Budget, Found, Probe, Seen as Shown, Steps};

use super::call::{Call, Seen};
use super::context::Triage;
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

/// What one worker of the phase did.
#[derive(Debug, Default)]
struct Tally {
    /// Scenarios drawn.
    scenarios: usize,
    /// Tool calls made.
    calls: usize,
    /// Escapes and failures seen, findings or not.
    seen: usize,
    /// Servers started.
    starts: usize,
    /// The findings kept, in the order found.
    found: Vec<Finding>,
    /// Whether it ended because the server offers no file tool to call.
    no_tools: bool,
}

/// What the workers of the phase share: one generator, so that the
/// scenarios drawn are the seed's first ones whatever the number of
/// workers, and what has been kept, so that no two workers triage the
/// same defect.
struct Shared {
    /// The generator, and how many scenarios it has handed out.
    next: Mutex<(Generator, usize)>,
    /// The (kind, tool) pairs kept so far, one finding each.
    kept: Mutex<BTreeSet<(Kind, Option<String>)>>,
    /// Escapes and failures seen by every worker (`--fail-fast` ends them all at the first).
    seen: AtomicUsize,
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
    /// file tool, on `options.jobs` long-lived servers at once; findings
    /// go into the report, one per kind and tool.
    fn run(&mut self, cx: &mut Context<'_>) -> Result<(), HarnessError> {
        let (options, mode) = (cx.options, self.mode);
        let shared = Shared {
            next: Mutex::new((Generator::new(options.seed), 0)),
            kept: Mutex::new(BTreeSet::new()),
            seen: AtomicUsize::new(0),
        };
        // Servers on one fixed port cannot run side by side.
        let fixed_port = options.http.as_ref().is_some_and(|u| !u.contains("{port}"));
        let jobs = if fixed_port { 1 } else { options.jobs.max(1) };
        if fixed_port && options.jobs > 1 {
            cx.report.notes.push(format!(
                "{} mode, generative phase: one job, not {}: the --http URL names a fixed port (put {{port}} in it and in the command to run servers side by side)",
                mode.as_str(),
                options.jobs
            ));
        }
        let tallies = if jobs == 1 {
            vec![self.work(cx, &shared)?]
        } else {
            let this = &*self;
            let seeds: Vec<_> = (0..jobs).map(|_| cx.worker()).collect();
            let joined = std::thread::scope(|s| {
                let handles: Vec<_> = seeds
                    .into_iter()
                    .map(|seed| {
                        let shared = &shared;
                        s.spawn(move || {
                            let mut worker = seed.context(options);
                            let tally = this.work(&mut worker, shared);
                            (tally, worker.launcher)
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                    .collect::<Vec<_>>()
            });
            let mut tallies = Vec::with_capacity(jobs);
            for (tally, launcher) in joined {
                cx.launcher.absorb(launcher);
                tallies.push(tally?);
            }
            tallies
        };
        let mut total = Tally::default();
        for tally in tallies {
            total.scenarios += tally.scenarios;
            total.calls += tally.calls;
            total.seen += tally.seen;
            total.starts += tally.starts;
            total.no_tools |= tally.no_tools;
            total.found.extend(tally.found);
        }
        let kept = total.found.len();
        cx.progress(Outcome {
            name: "generative".into(),
            mode,
            finding: total.found.first().map(|f| f.kind),
            skipped: None,
        });
        cx.report.findings.extend(total.found);
        cx.report.notes.push(format!(
            "{} mode, generative phase (seed {}): {} scenarios on {} server start(s) in {jobs} job(s), {} tool calls, {} escapes or failures seen, {kept} findings kept",
            mode.as_str(),
            options.seed,
            total.scenarios,
            total.starts,
            total.calls,
            total.seen,
        ));
        if total.no_tools {
            cx.report.notes.push(format!(
                "{} mode, generative phase: ended at once, the server offers no file tool to call",
                mode.as_str()
            ));
        }
        cx.report.generated_scenarios += total.scenarios;
        cx.report.generated_calls += total.calls;
        Ok(())
    }
}

impl Generative {
    /// One worker: draws the next scenario from `shared` until the
    /// deadline (or the scenarios asked for are drawn), and keeps the
    /// first finding of each kind and tool, triaged.
    fn work(&self, cx: &mut Context<'_>, shared: &Shared) -> Result<Tally, HarnessError> {
        let options = cx.options;
        let mut tally = Tally::default();
        let starts = cx.launcher.starts;
        let mut slot: Option<Server> = None;
        loop {
            if Instant::now() >= self.deadline
                || cx.stopped()
                || (options.fail_fast && shared.seen.load(Ordering::Relaxed) > 0)
            {
                break;
            }
            let drawn = {
                let mut next = shared.next.lock().unwrap_or_else(PoisonError::into_inner);
                if options.max_scenarios.is_some_and(|n| next.1 as u64 >= n) {
                    break;
                }
                next.1 += 1;
                let n = next.1;
                draw(&mut next.0, &cx.token, n)
            };
            tally.scenarios += 1;
            let found = self.generated(cx, &mut slot, &drawn, &mut tally)?;
            if slot.as_ref().is_some_and(|s| s.tools.is_empty()) {
                tally.no_tools = true;
                break;
            }
            let Some((found, c)) = found else {
                continue;
            };
            tally.seen += 1;
            shared.seen.fetch_add(1, Ordering::Relaxed);
            let new = shared
                .kept
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert((found.kind, found.tool.clone()));
            if !new {
                continue;
            }
            let found = match c {
                Some(c) if options.shrink && found.kind.is_escape() => {
                    self.shrink(cx, found, &c)?
                }
                _ => found,
            };
            tally.found.push(found);
        }
        if let Some(server) = slot {
            drop(server.stop());
        }
        tally.starts = cx.launcher.starts - starts;
        Ok(tally)
    }

    /// One generated scenario on the long-lived server in `slot`: every
    /// callable case on every tool, reads first; the first escape or
    /// failure ends it, and the server with it. What it found comes back
    /// untriaged, with the call that showed it (none when the server
    /// failed to start).
    fn generated(
        &self,
        cx: &mut Context<'_>,
        slot: &mut Option<Server>,
        drawn: &Scenario,
        tally: &mut Tally,
    ) -> Result<Option<(Finding, Option<Call>)>, HarnessError> {
        let mode = self.mode;
        match cx.launcher.serve(slot.take(), drawn, mode)? {
            Started::Running(server) => *slot = Some(server),
            Started::Failed(failed) => {
                return Ok(Some((failed.finding(&drawn.name, mode, drawn), None)))
            }
        }
        let Some(server) = slot.as_mut() else {
            return Ok(None);
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
            return Ok(None);
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
        Ok(Some((found, Some(c))))
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

    /// Removes roots beyond the first, then shrinks the tree with
    /// triage's one shrinker ([`Steps::Tree`]: the call names paths beside
    /// the case, which a rename would leave pointing at names that are
    /// gone; a root's own directory stays), while `c` shows the same kind
    /// of escape; one server serves every try while the roots stay. Then
    /// probes it; both within the run's triage time.
    fn shrink(
        &self,
        cx: &mut Context<'_>,
        found: Finding,
        c: &Call,
    ) -> Result<Finding, HarnessError> {
        let triage = cx.triage.start();
        let kind = found.kind;
        let name = found.attack.clone();
        let mut best = found;
        let mut slot = None;
        if best.scenario.roots.len() > 1 && !triage.spent() {
            let mut fewer = best.scenario.clone();
            fewer.roots.truncate(1);
            if let Some(seen) = self.call_alone(cx, &mut slot, &fewer, c)? {
                if seen.kind == kind {
                    best = seen;
                }
            }
        }
        let start = best.scenario.clone();
        let roots: Vec<String> = start
            .roots
            .iter()
            .filter_map(|r| r.strip_prefix("file://{base}/").map(str::to_owned))
            .collect();
        let keep = |s: &Scenario| {
            roots
                .iter()
                .all(|r| s.tree.iter().any(|e| e.path() == r.as_str()))
        };
        let interrupted = &cx.options.interrupted;
        let budget = Budget {
            deadline: Some(triage.deadline()),
            ..Budget::default()
        };
        let shrunk = shrink_found(
            Found {
                scenario: &start,
                shown: best,
                used: None,
            },
            Steps::Tree,
            budget,
            interrupted,
            keep,
            |smaller: &Scenario| {
                Ok::<_, HarnessError>(match self.call_alone(cx, &mut slot, smaller, c)? {
                    Some(f) if f.kind == kind => Shown::Shows(f, None),
                    _ => Shown::Gone,
                })
            },
        )?;
        if let Some(server) = slot {
            drop(server.stop());
        }
        let mut best = shrunk.shown;
        best.attack = name.clone();
        best.scenario.name = name;
        best.shrunk = true;
        let best = self.identify(cx, best, c, &triage);
        cx.triage.charge(triage);
        best
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
        triage: &Triage,
    ) -> Result<Finding, HarnessError> {
        let class = found.kind.class();
        let mut slot = None;
        let identity = probe(&found.scenario, class, &[], |variant: &Scenario| {
            if cx.stopped() {
                return Ok(Probe::Inconclusive("interrupted".into()));
            }
            if triage.spent() {
                return Ok(Probe::Inconclusive("the triage time is spent".into()));
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
