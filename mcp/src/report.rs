//! The report of a run, in the shapes `rootguard vet` uses: text for a
//! person, JSON, SARIF 2.1.0 and JUnit XML for machines; and each finding
//! as a scenario file plus its JSON-RPC exchange.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use rootguard_proptests::{Document, FORMAT_VERSION};
use rootguard_vet::report::{entry_text, xml_escape};
use serde_json::{json, Value};

use crate::run::{Finding, Report};
use crate::HarnessError;
use crate::Kind;

/// The request that showed a finding: its key request, else the last message sent.
pub fn key_request(f: &Finding) -> Option<&str> {
    if let Some((request, _)) = &f.key {
        return Some(request);
    }
    let sent = || {
        f.exchange
            .iter()
            .filter(|m| m.direction == crate::client::Direction::ToServer)
    };
    sent()
        .rfind(|m| m.text.contains("\"tools/call\""))
        .or_else(|| sent().next_back())
        .map(|m| m.text.as_str())
}

/// The response to [`key_request`] (matched by id), if there was one.
pub fn key_response(f: &Finding) -> Option<&str> {
    if let Some((_, response)) = &f.key {
        return Some(response);
    }
    let request: Value = serde_json::from_str(key_request(f)?).ok()?;
    let id = request.get("id")?;
    f.exchange
        .iter()
        .filter(|m| m.direction == crate::client::Direction::FromServer)
        .find(|m| {
            serde_json::from_str::<Value>(&m.text)
                .is_ok_and(|v| v.get("id") == Some(id) && v.get("method").is_none())
        })
        .map(|m| m.text.as_str())
}

fn clip(text: &str, n: usize) -> String {
    if text.len() <= n {
        return text.to_owned();
    }
    let mut end = n;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &text[..end], text.len())
}

/// The report as text: counts per kind, then each finding with its minimal exchange.
pub fn text(report: &Report, strict: bool) -> String {
    let mut out = String::new();
    let server = report
        .server
        .as_ref()
        .map(|s| {
            format!(
                " ({} {}, protocol {})",
                s["serverInfo"]["name"].as_str().unwrap_or("?"),
                s["serverInfo"]["version"].as_str().unwrap_or("?"),
                s["protocolVersion"].as_str().unwrap_or("?")
            )
        })
        .unwrap_or_default();
    let _ = writeln!(out, "rootguard mcp: {}{server}", report.command);
    let _ = writeln!(
        out,
        "  sandbox {}, write attacks {}, {} checks in {:.1}s{}",
        report.sandbox.as_str(),
        if report.writes { "run" } else { "skipped" },
        report.outcomes.len(),
        report.elapsed.as_secs_f64(),
        if report.interrupted {
            ", interrupted"
        } else {
            ""
        }
    );
    for kind in Kind::ALL {
        let _ = writeln!(out, "  {:<18} {}", kind.as_str(), report.count(kind));
    }
    for o in &report.outcomes {
        let status = match (&o.finding, &o.skipped) {
            (Some(k), _) => k.as_str().to_uppercase(),
            (None, Some(why)) => format!("skipped ({why})"),
            (None, None) => "ok".into(),
        };
        let _ = writeln!(out, "  [{}] {:<32} {status}", o.mode.as_str(), o.name);
    }
    for f in &report.findings {
        let _ = writeln!(
            out,
            "\n{} in {} ({} mode{}):",
            f.kind,
            f.attack,
            f.mode.as_str(),
            if f.shrunk { ", minimal" } else { "" }
        );
        let _ = writeln!(out, "  seen:     {}", clip(&f.evidence, 400));
        if let Some(t) = &f.truth {
            let _ = writeln!(out, "  truth:    {}", clip(t, 300));
        }
        if let Some(r) = key_request(f) {
            let _ = writeln!(out, "  request:  {}", clip(r, 400));
        }
        if let Some(r) = key_response(f) {
            let _ = writeln!(out, "  response: {}", clip(r, 400));
        }
        let tree: Vec<String> = f.scenario.tree.iter().map(entry_text).collect();
        let _ = writeln!(out, "  tree:     [{}]", tree.join(", "));
        let _ = writeln!(out, "  roots:    {:?}", f.scenario.roots);
    }
    for note in &report.notes {
        let _ = writeln!(out, "\nnote: {note}");
    }
    let escapes = report
        .findings
        .iter()
        .filter(|f| f.kind.is_escape())
        .count();
    let _ = writeln!(
        out,
        "\n{}: {escapes} escapes, {} roots not honoured, {} hangs, {} crashes, {} protocol errors",
        if report.failed(strict) { "FAIL" } else { "ok" },
        report.count(Kind::RootNotHonoured),
        report.count(Kind::Hang),
        report.count(Kind::Crash),
        report.count(Kind::ProtocolError)
    );
    out
}

fn exchange_json(f: &Finding) -> Vec<Value> {
    f.exchange
        .iter()
        .map(|m| {
            json!({
                "direction": m.direction.as_str(),
                "message": serde_json::from_str::<Value>(&m.text).unwrap_or(Value::String(m.text.clone())),
            })
        })
        .collect()
}

fn finding_json(f: &Finding) -> Value {
    json!({
        "kind": f.kind.as_str(),
        "attack": f.attack,
        "mode": f.mode.as_str(),
        "tool": f.tool,
        "evidence": f.evidence,
        "truth": f.truth,
        "minimal": f.shrunk,
        "scenario": f.scenario,
        "exchange": exchange_json(f),
    })
}

/// The report as JSON.
pub fn json(report: &Report, strict: bool) -> String {
    let counts: serde_json::Map<String, Value> = Kind::ALL
        .iter()
        .map(|k| (k.as_str().to_owned(), json!(report.count(*k))))
        .collect();
    let outcomes: Vec<Value> = report
        .outcomes
        .iter()
        .map(|o| json!({"name": o.name, "mode": o.mode.as_str(), "finding": o.finding.map(Kind::as_str), "skipped": o.skipped}))
        .collect();
    serde_json::to_string_pretty(&json!({
        "command": report.command,
        "server": report.server,
        "sandbox": report.sandbox.as_str(),
        "write_attacks": report.writes,
        "elapsed_seconds": report.elapsed.as_secs_f64(),
        "interrupted": report.interrupted,
        "failed": report.failed(strict),
        "counts": counts,
        "outcomes": outcomes,
        "findings": report.findings.iter().map(finding_json).collect::<Vec<_>>(),
        "notes": report.notes,
    }))
    .unwrap_or_default()
}

/// The report as SARIF 2.1.0, one result per finding.
pub fn sarif(report: &Report, strict: bool) -> String {
    let rules: Vec<Value> = Kind::ALL
        .iter()
        .map(|k| json!({"id": k.as_str(), "shortDescription": {"text": k.describe()}}))
        .collect();
    let results: Vec<Value> = report
        .findings
        .iter()
        .map(|f| {
            json!({
                "ruleId": f.kind.as_str(),
                "level": if f.kind.fails(strict) { "error" } else { "warning" },
                "message": {"text": format!("{} ({}, {} mode): {}", f.kind.describe(), f.attack, f.mode.as_str(), f.evidence)},
                "properties": finding_json(f),
            })
        })
        .collect();
    serde_json::to_string_pretty(&json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "rootguard mcp", "informationUri": "https://example.invalid/rootguard", "rules": rules}},
            "results": results,
        }],
    }))
    .unwrap_or_default()
}

/// The report as JUnit XML, one test case per attack or check and mode.
pub fn junit(report: &Report, strict: bool) -> String {
    let failures = report
        .outcomes
        .iter()
        .filter(|o| o.finding.is_some_and(|k| k.fails(strict)))
        .count();
    let skipped = report
        .outcomes
        .iter()
        .filter(|o| o.skipped.is_some())
        .count();
    let mut out = String::new();
    let _ = writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    let _ = writeln!(
        out,
        "<testsuite name=\"rootguard mcp\" tests=\"{}\" failures=\"{failures}\" skipped=\"{skipped}\" time=\"{:.3}\">",
        report.outcomes.len(),
        report.elapsed.as_secs_f64()
    );
    for o in &report.outcomes {
        let _ = write!(
            out,
            "  <testcase classname=\"rootguard.mcp.{}\" name=\"{}\"",
            o.mode.as_str(),
            xml_escape(&o.name)
        );
        let finding = report
            .findings
            .iter()
            .find(|f| f.attack == o.name && f.mode == o.mode);
        match (o.finding, finding, &o.skipped) {
            (Some(kind), Some(f), _) if kind.fails(strict) => {
                let detail = format!(
                    "{}\nrequest: {}\nresponse: {}",
                    f.evidence,
                    key_request(f).unwrap_or("-"),
                    key_response(f)
                        .map(|r| clip(r, 2000))
                        .unwrap_or_else(|| "-".into())
                );
                let _ = writeln!(
                    out,
                    ">\n    <failure message=\"{}\">{}</failure>\n  </testcase>",
                    xml_escape(kind.describe()),
                    xml_escape(&detail)
                );
            }
            (None, _, Some(why)) => {
                let _ = writeln!(
                    out,
                    ">\n    <skipped message=\"{}\"/>\n  </testcase>",
                    xml_escape(why)
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

/// Writes each finding as `<mode>-<attack>.json` (a scenario document, its
/// case labelled with the truth) and `<mode>-<attack>.exchange.jsonl` (the
/// JSON-RPC exchange, one message a line, `{base}` for the base) into `dir`.
///
/// # Errors
///
/// [`HarnessError::Io`] when a file cannot be written.
pub fn write_findings(report: &Report, dir: &Path) -> Result<Vec<PathBuf>, HarnessError> {
    fs::create_dir_all(dir)
        .map_err(|e| HarnessError::Io(format!("cannot create {}: {e}", dir.display())))?;
    let mut written = Vec::new();
    for f in &report.findings {
        let stem = format!("{}-{}", f.mode.as_str(), f.attack);
        let mut scenario = f.scenario.clone();
        scenario.name = stem.clone();
        let doc = Document {
            version: FORMAT_VERSION,
            scenarios: vec![scenario],
        };
        let scenario_path = dir.join(format!("{stem}.json"));
        let exchange_path = dir.join(format!("{stem}.exchange.jsonl"));
        let mut lines = String::new();
        for m in exchange_json(f) {
            lines.push_str(&m.to_string());
            lines.push('\n');
        }
        for (path, text) in [(&scenario_path, doc.to_json()), (&exchange_path, lines)] {
            fs::write(path, text)
                .map_err(|e| HarnessError::Io(format!("cannot write {}: {e}", path.display())))?;
        }
        written.push(scenario_path);
        written.push(exchange_path);
    }
    Ok(written)
}
