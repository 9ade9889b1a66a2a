//! The report of a run: plain text for a person, JSON, SARIF 2.1.0 and
//! JUnit XML for machines.

use std::fmt::Write as _;

use rootguard_proptests::Document;
use serde_json::{json, Value};

use crate::judge::Class;
use crate::run::{Finding, Report};

/// The report as text: counts per class, then each class's first (minimal) example.
pub fn text(report: &Report, strict: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
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
    );
    for class in Class::ALL {
        let _ = writeln!(out, "  {:<15} {}", class.as_str(), report.count(class));
    }
    for class in Class::ALL {
        let Some(f) = report.first(class) else {
            continue;
        };
        let _ = writeln!(
            out,
            "\n{} ({}, from {}):",
            class,
            if f.shrunk { "minimal" } else { "as found" },
            f.origin
        );
        let _ = writeln!(out, "  request: {}", f.request);
        let _ = writeln!(out, "  answer:  {}", f.answer);
        if let Some(t) = &f.truth {
            let _ = writeln!(out, "  truth:   {t}");
        }
        let tree: Vec<String> = f.scenario.tree.iter().map(entry_text).collect();
        let _ = writeln!(out, "  tree:    [{}]", tree.join(", "));
        let _ = writeln!(out, "  roots:   {:?}", f.scenario.roots);
        if !f.stderr.trim().is_empty() && !class.is_escape() {
            let tail: String = f
                .stderr
                .lines()
                .rev()
                .take(5)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect::<Vec<_>>()
                .join("\n    ");
            let _ = writeln!(out, "  stderr:  {tail}");
        }
    }
    for note in &report.notes {
        let _ = writeln!(out, "\nharness note: {note}");
    }
    let verdict = if report.failed(strict) { "FAIL" } else { "ok" };
    let _ = writeln!(
        out,
        "\n{verdict}: {} escapes, {} overblocks, {} hangs, {} crashes, {} protocol errors",
        report.escapes(),
        report.count(Class::Overblock),
        report.count(Class::Hang),
        report.count(Class::Crash),
        report.count(Class::ProtocolError)
    );
    out
}

/// One tree entry in a line: `dir P`, `file P` or `P -> T`.
pub fn entry_text(entry: &rootguard_proptests::Entry) -> String {
    match entry {
        rootguard_proptests::Entry::Dir { path } => format!("dir {path}"),
        rootguard_proptests::Entry::File { path, .. } => format!("file {path}"),
        rootguard_proptests::Entry::Symlink { path, target } => format!("{path} -> {target}"),
    }
}

/// A finding's scenario as a scenario-format v1 document.
pub fn scenario_document(finding: &Finding, name: &str) -> Document {
    let mut scenario = finding.scenario.clone();
    scenario.name = name.to_owned();
    Document {
        version: rootguard_proptests::FORMAT_VERSION,
        scenarios: vec![scenario],
    }
}

fn finding_json(f: &Finding) -> Value {
    json!({
        "class": f.class.as_str(),
        "origin": f.origin,
        "request": serde_json::from_str::<Value>(&f.request).unwrap_or(Value::String(f.request.clone())),
        "answer": f.answer,
        "truth": f.truth.as_ref().map(|t| t.truth.to_string()),
        "explanation": f.truth.as_ref().map(|t| t.explanation.clone()),
        "minimal": f.shrunk,
        "scenario": f.scenario,
    })
}

/// The report as JSON.
pub fn json(report: &Report, strict: bool) -> String {
    let counts: serde_json::Map<String, Value> = Class::ALL
        .iter()
        .map(|c| (c.as_str().to_owned(), json!(report.count(*c))))
        .collect();
    serde_json::to_string_pretty(&json!({
        "seed": report.seed,
        "queries": report.queries,
        "scenarios": report.scenarios,
        "elapsed_seconds": report.elapsed.as_secs_f64(),
        "interrupted": report.interrupted,
        "failed": report.failed(strict),
        "counts": counts,
        "findings": report.findings.iter().map(finding_json).collect::<Vec<_>>(),
        "notes": report.notes,
    }))
    .unwrap_or_default()
}

/// The report as SARIF 2.1.0, one result per finding.
pub fn sarif(report: &Report, strict: bool) -> String {
    let rules: Vec<Value> = Class::ALL
        .iter()
        .map(|c| json!({"id": c.as_str(), "shortDescription": {"text": describe(*c)}}))
        .collect();
    let results: Vec<Value> = report
        .findings
        .iter()
        .map(|f| {
            let level = if f.class.fails(strict) {
                "error"
            } else {
                "warning"
            };
            let mut message = format!("{}: {} answered {}", describe(f.class), f.request, f.answer);
            if let Some(t) = &f.truth {
                let _ = write!(message, "; truth {t}");
            }
            json!({
                "ruleId": f.class.as_str(),
                "level": level,
                "message": {"text": message},
                "properties": finding_json(f),
            })
        })
        .collect();
    serde_json::to_string_pretty(&json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "rootguard vet", "informationUri": "https://example.invalid/rootguard", "rules": rules}},
            "results": results,
        }],
    }))
    .unwrap_or_default()
}

/// The report as JUnit XML, one test case per class.
pub fn junit(report: &Report, strict: bool) -> String {
    let failures = Class::ALL
        .iter()
        .filter(|c| report.count(**c) > 0 && c.fails(strict))
        .count();
    let mut out = String::new();
    let _ = writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    let _ = writeln!(
        out,
        "<testsuite name=\"rootguard vet\" tests=\"{}\" failures=\"{failures}\" time=\"{:.3}\">",
        Class::ALL.len(),
        report.elapsed.as_secs_f64()
    );
    for class in Class::ALL {
        let _ = write!(
            out,
            "  <testcase classname=\"rootguard.vet\" name=\"{}\"",
            class.as_str()
        );
        match report.first(class) {
            Some(f) if class.fails(strict) => {
                let detail = format!(
                    "{} found; first: {} answered {}{}",
                    report.count(class),
                    f.request,
                    f.answer,
                    f.truth
                        .as_ref()
                        .map(|t| format!("; truth {t}"))
                        .unwrap_or_default()
                );
                let _ = writeln!(
                    out,
                    ">\n    <failure message=\"{}\">{}</failure>\n  </testcase>",
                    xml_escape(describe(class)),
                    xml_escape(&detail)
                );
            }
            _ => {
                let _ = writeln!(out, "/>");
            }
        }
    }
    let _ = writeln!(out, "</testsuite>");
    out
}

fn describe(class: Class) -> &'static str {
    match class {
        Class::PathEscape => "allowed a path whose target is outside every root",
        Class::RootEscape => "allowed an outside target because of a hostile or malformed root URI",
        Class::Overblock => "denied a target inside a root",
        Class::Hang => "no response within the timeout",
        Class::Crash => "exited before answering",
        Class::ProtocolError => "a response that breaks checker protocol v1",
    }
}

/// Text escaped for XML 1.0 (JUnit), control characters replaced.
pub fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 has no way to carry other control characters.
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t' | '\r') => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}
