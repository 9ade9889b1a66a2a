//! The report as JSON, schema `rootguard-report` version 1
//! (docs/reports.md, "JSON"): what CI keeps, and reads back as a baseline.

use serde_json::{json, Map, Value};

use crate::model::{Defect, Example, Report};

/// The `format` every report carries.
pub const FORMAT: &str = "rootguard-report";
/// The schema version this crate writes (and the only one it reads).
pub const VERSION: u64 = 1;

/// A request or message as JSON where it parses, as a string where not.
fn as_json(text: &str) -> Value {
    serde_json::from_str::<Value>(text).unwrap_or_else(|_| Value::String(text.to_owned()))
}

fn example_json(e: &Example) -> Value {
    // A `Value` holds text only: a scenario with bytes that are not UTF-8
    // is shown with `\xHH` escapes, and given losslessly as scenario-format
    // text (`\udcXX` escapes) in `scenario_json`.
    let mut out = json!({
        "minimal": e.minimal,
        "origin": e.origin,
        "scenario": e.scenario.shown(),
        "request": if e.request.is_empty() { Value::Null } else { as_json(&e.request) },
        "answer": e.answer,
        "truth": e.truth,
        "explanation": e.explanation,
        "evidence": e.evidence,
        "exchange": e.exchange.iter().map(|m| json!({
            "direction": m.direction,
            "message": as_json(&m.text),
        })).collect::<Vec<_>>(),
        "stderr": e.stderr,
        "refusal": e.refusal.as_ref().map(|r| json!({
            "without": r.without,
            "scenario": r.scenario.shown(),
            "request": as_json(&r.request),
            "answer": r.answer,
        })),
    });
    if !e.scenario.is_utf8() {
        out["scenario_json"] =
            Value::String(serde_json::to_string(&e.scenario).unwrap_or_default());
    }
    out
}

/// One defect as JSON (also a SARIF result's `properties`).
pub fn defect_json(report: &Report, d: &Defect) -> Value {
    let v = &d.variants;
    json!({
        "id": d.id(),
        "title": d.entry.title,
        "class": d.class().as_str(),
        "fails": report.fails(d),
        "diagnosis": d.entry.diagnosis,
        "fix": d.entry.fix,
        "known": d.entry.known,
        "covers": d.covers,
        "aliases": d.aliases,
        "signature": {
            "class": d.signature.class.as_str(),
            "features": d.signature.features.iter().map(|f| f.name()).collect::<Vec<_>>(),
        },
        "probed": d.probed,
        "probes": d.probes.iter().map(|p| {
            let mut o = json!({"feature": p.feature.name(), "result": p.need.as_str()});
            if let rootguard_triage::Need::Inconclusive(why) = &p.need {
                o["why"] = json!(why);
            }
            o
        }).collect::<Vec<_>>(),
        "probing": {
            "queries": d.probe_queries,
            "seconds": d.probe_time.as_secs_f64(),
        },
        "hits": d.hits,
        "sightings": d.sightings.iter().map(|(s, n)| json!({"signature": s, "hits": n})).collect::<Vec<_>>(),
        "example": example_json(&d.example),
        "variants": {
            "ops": v.ops,
            "suffixes": v.suffixes,
            "channels": v.channels,
            "tools": v.tools,
            "modes": v.modes,
            "seen_in": v.seen_in,
        },
    })
}

/// The report as a JSON value.
pub fn report_value(report: &Report) -> Value {
    let counts: Map<String, Value> = report
        .counts
        .iter()
        .map(|(c, n)| (c.as_str().to_owned(), json!(n)))
        .collect();
    let mut out = json!({
        "format": FORMAT,
        "version": VERSION,
        "tool": report.tool.title(),
        "command": report.command,
        "artifact": report.artifact,
        "seed": report.seed,
        "strict": report.strict,
        "failed": report.failed(),
        "interrupted": report.interrupted,
        "elapsed_seconds": report.elapsed.as_secs_f64(),
        "queries": report.queries,
        "counts": counts,
        "defects": report.defects.iter().map(|d| defect_json(report, d)).collect::<Vec<_>>(),
        "checks": report.checks.iter().map(|c| json!({
            "name": c.name, "mode": c.mode, "status": c.status, "detail": c.detail,
        })).collect::<Vec<_>>(),
        "notes": report.notes,
        "era": report.era,
        "inconclusive": report.inconclusive,
    });
    if let Value::Object(map) = &mut out {
        for (k, v) in &report.facts {
            map.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    out
}

/// The report as pretty-printed JSON.
pub fn json(report: &Report) -> String {
    serde_json::to_string_pretty(&report_value(report)).unwrap_or_default()
}
