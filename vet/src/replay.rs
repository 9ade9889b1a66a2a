//! `rootguard replay`: run scenario files through a checker, judging each
//! answer against the case's `expect`.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rootguard_judge::flavour::Flavour;
use rootguard_judge::gen::{marks_of, FlavourCase};
use rootguard_judge::{Materialized, Scenario, Truth};
use rootguard_report::Ledger;

use crate::checker::{Checker, Reply};
use crate::corpus::Source;
use crate::flavoured::{ask_and_judge, sighting, Asked};
use crate::judge::Finding;
use crate::judge::{evaluate_against, Ids, Judge};
use crate::run::Report;
use crate::HarnessError;

/// Asks every case of every scenario in `sources` and reports every defect:
/// an escape or overblock against the case's `expect` (or the computed
/// truth where a case has none, or the checker rewrote the path), a hang, a
/// crash or a protocol error. A document's `flavor` (or `flavour`, when
/// given, for every document) says how: Linux's scenarios are
/// materialized and judged by the kernel; a Windows or macOS document's
/// cases are asked with `"flavor"` and judged by that flavour's model.
///
/// # Errors
///
/// [`HarnessError`] when the checker cannot be started, or a scenario
/// cannot be materialized.
pub fn replay(
    checker: &mut dyn Checker,
    sources: &[Source],
    flavour: Option<Flavour>,
    interrupted: &AtomicBool,
) -> Result<Report, HarnessError> {
    let start = Instant::now();
    let mut ids = Ids::default();
    let mut report = Report {
        counts: BTreeMap::new(),
        ..Report::default()
    };
    // A modelled flavour's findings, named by the features their queries hold.
    let mut flavoured = Ledger::default();
    for source in sources {
        let flavour = flavour.unwrap_or(source.document.flavour);
        report.flavour = flavour;
        for scenario in &source.document.scenarios {
            if interrupted.load(Ordering::Relaxed) {
                report.interrupted = true;
                break;
            }
            if !flavour.is_linux() {
                replay_flavoured(
                    checker,
                    &mut ids,
                    (&mut report, &mut flavoured),
                    flavour,
                    source,
                    scenario,
                )?;
                continue;
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
                let answer = answer_text(&outcome.reply);
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
    if !report.flavour.is_linux() {
        report.defects = flavoured.defects();
    }
    Ok(report)
}

/// Asks each case of a Windows or macOS scenario as it is (no tree), and
/// judges the answers by the flavour's model, against `expect` where given.
fn replay_flavoured(
    checker: &mut dyn Checker,
    ids: &mut Ids,
    (report, ledger): (&mut Report, &mut Ledger),
    flavour: Flavour,
    source: &Source,
    scenario: &Scenario,
) -> Result<(), HarnessError> {
    if !scenario.tree.is_empty() {
        return Err(HarnessError::Scenario(format!(
            "{}: scenario {:?} has a tree, but {flavour} is modelled: nothing is materialized; leave its tree empty or replay it as linux",
            source.origin, scenario.name
        )));
    }
    report.scenarios += 1;
    for (index, case) in scenario.cases.iter().enumerate() {
        let Some(path) = case.path.to_str() else {
            return Err(HarnessError::Scenario(format!(
                "{}: scenario {:?}, case {index}: a {flavour} path must be UTF-8",
                source.origin, scenario.name
            )));
        };
        let asked = ask_and_judge(
            checker,
            ids,
            flavour,
            &FlavourCase {
                name: scenario.name.clone(),
                roots: scenario.roots.clone(),
                path: path.to_owned(),
                op: case.op,
                marks: Vec::new(),
            },
            case.expect.map(Truth::from),
        )?;
        let Asked {
            class: Some(class),
            request,
            reply,
            judgement,
        } = asked
        else {
            continue;
        };
        *report.counts.entry(class).or_insert(0) += 1;
        let origin = format!("{} / {} / case {index}", source.origin, scenario.name);
        let finding = Finding {
            class,
            origin: origin.clone(),
            request: request.to_json(),
            answer: answer_text(&reply),
            truth: judgement,
            scenario: Scenario {
                cases: vec![case.clone()],
                ..scenario.clone()
            },
            shrunk: false,
            stderr: checker.stderr_tail(),
        };
        let marks = marks_of(flavour, &scenario.roots, path);
        ledger.add(sighting(&finding, &reply, case.op, &marks, origin));
        report.findings.push(finding);
    }
    Ok(())
}

/// What the checker answered, in words.
fn answer_text(reply: &Reply) -> String {
    match reply {
        Reply::Answer(a) if a.allowed => a
            .use_path
            .as_ref()
            .map_or("allowed".to_owned(), |u| format!("allowed, using {u:?}")),
        Reply::Answer(_) => "denied".to_owned(),
        Reply::Hang => "no response within the timeout".to_owned(),
        Reply::Crash(why) | Reply::ProtocolError(why) => why.clone(),
    }
}
