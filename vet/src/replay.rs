//! `rootguard replay`: run scenario files through a checker, judging each
//! answer against the case's `expect`.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rootguard_judge::{Materialized, Scenario, Truth};

use crate::checker::{Checker, Reply};
use crate::corpus::Source;
use crate::judge::Finding;
use crate::judge::{evaluate_against, Ids, Judge};
use crate::run::Report;
use crate::HarnessError;

/// Asks every case of every scenario in `sources` and reports every defect:
/// an escape or overblock against the case's `expect` (or the computed
/// truth where a case has none, or the checker rewrote the path), a hang, a
/// crash or a protocol error.
///
/// # Errors
///
/// [`HarnessError`] when the checker cannot be started, or a scenario
/// cannot be materialized.
pub fn replay(
    checker: &mut dyn Checker,
    sources: &[Source],
    interrupted: &AtomicBool,
) -> Result<Report, HarnessError> {
    let start = Instant::now();
    let mut ids = Ids::default();
    let mut report = Report {
        counts: BTreeMap::new(),
        ..Report::default()
    };
    for source in sources {
        for scenario in &source.document.scenarios {
            if interrupted.load(Ordering::Relaxed) {
                report.interrupted = true;
                break;
            }
            let materialized = Materialized::new(scenario).map_err(|e| {
                HarnessError::Scenario(format!(
                    "{}: scenario {:?} cannot be materialized: {e}",
                    source.origin, scenario.name
                ))
            })?;
            let judge = Judge::new(&materialized)?;
            report.scenarios += 1;
            for (index, case) in materialized.cases().iter().enumerate() {
                let expected = case.expect.map(Truth::from);
                let outcome = evaluate_against(
                    checker,
                    &judge,
                    &mut ids,
                    materialized.roots(),
                    &case.path,
                    case.op,
                    expected,
                )?;
                if let Some(note) = outcome.truth.as_ref().and_then(|t| t.disagreement.clone()) {
                    report.notes.push(note);
                }
                let Some(class) = outcome.class else { continue };
                *report.counts.entry(class).or_insert(0) += 1;
                let answer = match &outcome.reply {
                    Reply::Answer(a) if a.allowed => a
                        .use_path
                        .as_ref()
                        .map_or("allowed".to_owned(), |u| format!("allowed, using {u:?}")),
                    Reply::Answer(_) => "denied".to_owned(),
                    Reply::Hang => "no response within the timeout".to_owned(),
                    Reply::Crash(why) | Reply::ProtocolError(why) => why.clone(),
                };
                report.findings.push(Finding {
                    class,
                    origin: format!("{} / {} / case {index}", source.origin, scenario.name),
                    request: outcome.request.to_json(),
                    answer,
                    truth: outcome.truth.map(|t| t.judgement),
                    scenario: Scenario {
                        cases: vec![scenario.cases[index].clone()],
                        ..scenario.clone()
                    },
                    shrunk: false,
                    stderr: checker.stderr_tail(),
                });
            }
        }
    }
    report.queries = ids.issued();
    report.elapsed = start.elapsed();
    Ok(report)
}
