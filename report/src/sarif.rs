//! The report as SARIF 2.1.0, as GitHub code scanning takes it: one rule
//! per defect ID (help = diagnosis and fix), one result per defect,
//! located at the checker's (or server's) script or program.

use rootguard_judge::strategies::file_uri;
use serde_json::{json, Value};

use crate::json::defect_json;
use crate::model::{Defect, Report};
use rootguard_triage::Class;

/// The artifact as a URI reference: relative paths stay relative, absolute
/// ones become `file:` URIs; bytes a URI may not hold are escaped.
fn artifact_uri(artifact: &str) -> String {
    if artifact.starts_with('/') {
        file_uri(artifact.as_bytes())
    } else {
        let uri = file_uri(format!("/{artifact}").as_bytes());
        uri.strip_prefix("file:///").unwrap_or(&uri).to_owned()
    }
}

/// GitHub's `security-severity` (0–10) for a class.
fn security_severity(class: Class) -> &'static str {
    match class {
        Class::PathEscape | Class::RootEscape => "8.8",
        Class::StaleRoot => "7.5",
        Class::Crash | Class::Hang => "5.3",
        Class::ProtocolError => "4.0",
        Class::Overblock => "2.0",
    }
}

fn level(report: &Report, d: &Defect) -> &'static str {
    if report.fails(d) {
        "error"
    } else {
        "warning"
    }
}

fn rule(report: &Report, d: &Defect) -> Value {
    let help = format!("{}\n\nFix: {}", d.entry.diagnosis, d.entry.fix);
    let markdown = format!(
        "**{}** ({})\n\n{}\n\n**Fix:** {}\n\nSee docs/reports.md in rootguard for the catalogue.",
        d.entry.title,
        d.id(),
        d.entry.diagnosis,
        d.entry.fix
    );
    let mut tags = vec!["security".to_owned(), d.class().as_str().to_owned()];
    if d.class().is_escape() {
        tags.push("external/cwe/cwe-22".to_owned());
    }
    json!({
        "id": d.id(),
        "name": d.id().trim_start_matches("RG-").split('-').map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + &c.as_str().to_ascii_lowercase()).unwrap_or_default()
        }).collect::<String>(),
        "shortDescription": {"text": d.entry.title},
        "fullDescription": {"text": d.entry.diagnosis},
        "help": {"text": help, "markdown": markdown},
        "defaultConfiguration": {"level": level(report, d)},
        "properties": {
            "tags": tags,
            "precision": "very-high",
            "problem.severity": if report.fails(d) { "error" } else { "warning" },
            "security-severity": security_severity(d.class()),
        },
    })
}

fn result(report: &Report, index: usize, d: &Defect) -> Value {
    let case = d.example.scenario.cases.first();
    let mut message = format!("{} ({}): {}", d.entry.title, d.id(), d.hits);
    message.push_str(if d.hits == 1 { " hit" } else { " hits" });
    if let Some(case) = case {
        message.push_str(&format!("; e.g. {} {:?}", case.op, case.path));
        if !d.example.answer.is_empty() {
            message.push_str(&format!(" was {}", d.example.answer));
        }
        if let Some(truth) = &d.example.truth {
            message.push_str(&format!(", truth {truth}"));
        }
    }
    message.push_str(&format!(". Fix: {}", d.entry.fix));
    json!({
        "ruleId": d.id(),
        "ruleIndex": index,
        "level": level(report, d),
        "message": {"text": message},
        "locations": [{
            "physicalLocation": {
                "artifactLocation": {"uri": artifact_uri(&report.artifact)},
                "region": {"startLine": 1},
            },
            "message": {"text": format!("the checker under test: {}", report.command)},
        }],
        "partialFingerprints": {"rootguardDefect/v1": d.id()},
        "properties": defect_json(report, d),
    })
}

/// The report as SARIF 2.1.0.
pub fn sarif(report: &Report) -> String {
    let rules: Vec<Value> = report.defects.iter().map(|d| rule(report, d)).collect();
    let results: Vec<Value> = report
        .defects
        .iter()
        .enumerate()
        .map(|(i, d)| result(report, i, d))
        .collect();
    let counts: serde_json::Map<String, Value> = report
        .counts
        .iter()
        .map(|(c, n)| (c.as_str().to_owned(), json!(n)))
        .collect();
    serde_json::to_string_pretty(&json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "rootguard",
                "fullName": report.tool.title(),
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://example.invalid/rootguard",
                "rules": rules,
            }},
            "automationDetails": {"id": format!("{}/", report.tool.title().replace(' ', "-"))},
            "invocations": [{
                "executionSuccessful": !report.interrupted,
                "commandLine": report.command,
            }],
            "results": results,
            "properties": {"counts": counts, "seed": report.seed, "queries": report.queries},
        }],
    }))
    .unwrap_or_default()
}
