//! The report of a run, in the shared model of `rootguard_report`: text
//! for a person, JSON, SARIF 2.1.0, JUnit XML and an HTML page for
//! machines and reviewers; and each defect's minimal scenario as a file.

use rootguard_judge::flavour::Flavour;
use rootguard_judge::{Document, Scenario};
use rootguard_report::{self as shared, Defect, Ledger, Sighting, Tool, Variants};
use serde_json::json;

use crate::judge::Class;
use crate::judge::Finding;
use crate::run::Report;
use crate::triage::{example, unprobed_identity};

pub use rootguard_report::{entry_text, xml_escape};

/// The classes `rootguard vet` can find, in report order.
const CLASSES: [Class; 6] = [
    Class::PathEscape,
    Class::RootEscape,
    Class::Overblock,
    Class::Hang,
    Class::Crash,
    Class::ProtocolError,
];

/// The run as the shared report model. A report without defects but with
/// findings (a replay) gets one defect per finding's identity, unprobed.
pub fn model(report: &Report, strict: bool) -> shared::Report {
    let defects = if report.defects.is_empty() && !report.findings.is_empty() {
        untriaged(&report.findings)
    } else {
        report.defects.clone()
    };
    let mut summary = vec![format!(
        "rootguard vet: {} queries on {} scenarios in {:.1}s (seed {}){}",
        report.queries,
        report.scenarios,
        report.elapsed.as_secs_f64(),
        report.seed,
        if report.interrupted {
            ", interrupted"
        } else {
            ""
        }
    )];
    let t = &report.triage;
    if t.candidates > 0 {
        summary.push(format!(
            "  triage: {} candidate defects; {} examples shrunk ({} attempts) and probed ({} variants, {:.2}s) in {:.1}s",
            t.candidates,
            t.shrunk,
            t.attempts,
            t.probe_queries,
            t.probe_time.as_secs_f64(),
            t.elapsed.as_secs_f64()
        ));
    }
    if t.unreproduced > 0 {
        summary.push(format!(
            "  {} findings never showed again when asked alone (a checker that depends on earlier requests, or a host that changed); counted, not named",
            t.unreproduced
        ));
    }
    let mut facts = serde_json::Map::new();
    facts.insert("scenarios".into(), json!(report.scenarios));
    if report.flavour != rootguard_judge::flavour::Flavour::Linux {
        facts.insert("flavour".into(), json!(report.flavour.name()));
        facts.insert("truth".into(), json!("model"));
    }
    facts.insert(
        "first_escape_seconds".into(),
        json!(report.first_escape.map(|t| t.as_secs_f64())),
    );
    facts.insert(
        "first_escape_query".into(),
        json!(report.first_escape_query),
    );
    facts.insert(
        "first_failure_seconds".into(),
        json!(report.first_failure.map(|t| t.as_secs_f64())),
    );
    facts.insert(
        "first_failure_query".into(),
        json!(report.first_failure_query),
    );
    facts.insert(
        "triage".into(),
        json!({
            "candidates": t.candidates,
            "shrunk": t.shrunk,
            "attempts": t.attempts,
            "probe_queries": t.probe_queries,
            "probe_seconds": t.probe_time.as_secs_f64(),
            "seconds": t.elapsed.as_secs_f64(),
            "unreproduced": t.unreproduced,
        }),
    );
    shared::Report {
        era: None,
        tool: Tool::Vet,
        command: report.command.join(" "),
        artifact: shared::artifact_of(&report.command),
        summary,
        seed: Some(report.seed),
        strict,
        interrupted: report.interrupted,
        elapsed: report.elapsed,
        queries: report.queries,
        counts: CLASSES.iter().map(|c| (*c, report.count(*c))).collect(),
        defects,
        checks: Vec::new(),
        notes: report.notes.clone(),
        facts,
        inconclusive: Vec::new(),
    }
}

/// One defect per finding's (unprobed) identity, for a report triage did not make.
fn untriaged(findings: &[Finding]) -> Vec<Defect> {
    let mut ledger = Ledger::default();
    for f in findings {
        let mut variants = Variants::default();
        if let Some(case) = f.scenario.cases.first() {
            variants.ops.insert(case.op.to_string());
        }
        variants.seen_in.insert(f.origin.clone());
        ledger.add(Sighting {
            identity: unprobed_identity(f, None),
            example: example(f),
            hits: 1,
            variants,
        });
    }
    ledger.defects()
}

/// The report as text: the defects first, then the counts per class.
pub fn text(report: &Report, strict: bool) -> String {
    shared::text(&model(report, strict))
}

/// The report as JSON (schema `rootguard-report` version 1, docs/reports.md).
pub fn json(report: &Report, strict: bool) -> String {
    shared::json(&model(report, strict))
}

/// The report as SARIF 2.1.0, one rule and one result per defect.
pub fn sarif(report: &Report, strict: bool) -> String {
    shared::sarif(&model(report, strict))
}

/// The report as JUnit XML, one test case per defect.
pub fn junit(report: &Report, strict: bool) -> String {
    shared::junit(&model(report, strict))
}

/// The report as one self-contained HTML page.
pub fn html(report: &Report, strict: bool) -> String {
    shared::html(&model(report, strict))
}

/// A finding's scenario as a scenario-format v1 document of `flavour`
/// (the run's: `replay` reads it from the file).
pub fn scenario_document(finding: &Finding, name: &str, flavour: Flavour) -> Document {
    document(&finding.scenario, name, flavour)
}

/// A defect's example as a scenario-format v1 document of `flavour`.
pub fn defect_document(defect: &Defect, name: &str, flavour: Flavour) -> Document {
    document(&defect.example.scenario, name, flavour)
}

fn document(scenario: &Scenario, name: &str, flavour: Flavour) -> Document {
    let mut scenario = scenario.clone();
    scenario.name = name.to_owned();
    Document {
        flavour,
        ..Document::new(vec![scenario])
    }
}
