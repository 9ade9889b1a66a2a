//! `rootguard merge`: joins the JSON reports of `rootguard vet --shard I/N`
//! runs (one per machine) into one, each defect once.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use rootguard_report::{FORMAT, VERSION};
use serde_json::{json, Map, Value};

/// Options of `rootguard merge`.
#[derive(Args)]
pub struct MergeArgs {
    /// Write the merged report as JSON to FILE (the same schema as each input).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// The JSON reports (`rootguard vet --json FILE`), one per shard.
    #[arg(required = true, value_name = "REPORT")]
    reports: Vec<PathBuf>,
}

/// Why a file cannot be merged.
#[derive(Debug)]
enum MergeError {
    /// It cannot be read.
    Unreadable(PathBuf, String),
    /// It is not a rootguard JSON report of this version.
    NotAReport(PathBuf, String),
}

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MergeError::Unreadable(p, why) => write!(f, "cannot read {}: {why}", p.display()),
            MergeError::NotAReport(p, why) => write!(
                f,
                "{} is not a rootguard report ({why}): give the files `rootguard vet --json FILE` wrote",
                p.display()
            ),
        }
    }
}

fn load(path: &PathBuf) -> Result<Map<String, Value>, MergeError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| MergeError::Unreadable(path.clone(), e.to_string()))?;
    let not = |why: &str| MergeError::NotAReport(path.clone(), why.to_owned());
    let Value::Object(map) = serde_json::from_str(&text).map_err(|e| not(&e.to_string()))? else {
        return Err(not("not a JSON object"));
    };
    if map.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(not("no \"format\": \"rootguard-report\""));
    }
    if map.get("version").and_then(Value::as_u64) != Some(VERSION) {
        return Err(not(&format!("not version {VERSION}")));
    }
    if !map.get("defects").is_some_and(Value::is_array) {
        return Err(not("no \"defects\" array"));
    }
    Ok(map)
}

/// The reports joined: defects deduplicated by ID (the first report's
/// example kept, hits added), counts and queries added, failed if any
/// failed, the longest time, the earliest first escape and first failure
/// (in seconds and in queries, each the least of any shard's), every note
/// once.
fn merge(reports: Vec<Map<String, Value>>) -> Value {
    let mut out = Map::new();
    let mut defects: Vec<Value> = Vec::new();
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    let (mut queries, mut elapsed, mut failed, mut interrupted) = (0u64, 0f64, false, false);
    let mut notes: Vec<Value> = Vec::new();
    let mut first_escape: Option<f64> = None;
    let mut first_escape_query: Option<u64> = None;
    let mut first_failure: Option<f64> = None;
    let mut first_failure_query: Option<u64> = None;
    for report in reports {
        if out.is_empty() {
            out = report.clone();
        }
        queries += report.get("queries").and_then(Value::as_u64).unwrap_or(0);
        elapsed = elapsed.max(
            report
                .get("elapsed_seconds")
                .and_then(Value::as_f64)
                .unwrap_or(0.0),
        );
        failed |= report
            .get("failed")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        interrupted |= report
            .get("interrupted")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        if let Some(t) = report.get("first_escape_seconds").and_then(Value::as_f64) {
            first_escape = Some(first_escape.map_or(t, |f| f.min(t)));
        }
        if let Some(q) = report.get("first_escape_query").and_then(Value::as_u64) {
            first_escape_query = Some(first_escape_query.map_or(q, |f| f.min(q)));
        }
        if let Some(t) = report.get("first_failure_seconds").and_then(Value::as_f64) {
            first_failure = Some(first_failure.map_or(t, |f| f.min(t)));
        }
        if let Some(q) = report.get("first_failure_query").and_then(Value::as_u64) {
            first_failure_query = Some(first_failure_query.map_or(q, |f| f.min(q)));
        }
        if let Some(Value::Object(c)) = report.get("counts") {
            for (class, n) in c {
                *counts.entry(class.clone()).or_insert(0) += n.as_u64().unwrap_or(0);
            }
        }
        for note in report
            .get("notes")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if !notes.contains(note) {
                notes.push(note.clone());
            }
        }
        for defect in report
            .get("defects")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let id = defect.get("id");
            match defects.iter_mut().find(|d| d.get("id") == id) {
                Some(kept) => {
                    let hits =
                        kept["hits"].as_u64().unwrap_or(0) + defect["hits"].as_u64().unwrap_or(0);
                    kept["hits"] = json!(hits);
                }
                None => defects.push(defect.clone()),
            }
        }
    }
    out.insert("queries".into(), json!(queries));
    out.insert("elapsed_seconds".into(), json!(elapsed));
    out.insert("failed".into(), json!(failed));
    out.insert("interrupted".into(), json!(interrupted));
    out.insert("counts".into(), json!(counts));
    out.insert("notes".into(), json!(notes));
    out.insert("defects".into(), json!(defects));
    out.insert("first_escape_seconds".into(), json!(first_escape));
    out.insert("first_escape_query".into(), json!(first_escape_query));
    out.insert("first_failure_seconds".into(), json!(first_failure));
    out.insert("first_failure_query".into(), json!(first_failure_query));
    Value::Object(out)
}

/// Runs `rootguard merge`.
pub fn run(args: &MergeArgs) -> ExitCode {
    let mut reports = Vec::new();
    for path in &args.reports {
        match load(path) {
            Ok(r) => reports.push(r),
            Err(e) => {
                eprintln!("rootguard: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let merged = merge(reports);
    let defects = merged["defects"].as_array().cloned().unwrap_or_default();
    println!(
        "rootguard merge: {} reports, {} queries, {} defects",
        args.reports.len(),
        merged["queries"],
        defects.len()
    );
    for d in &defects {
        println!(
            "{}: {} ({}, {} hits)",
            d["id"].as_str().unwrap_or("?"),
            d["title"].as_str().unwrap_or(""),
            d["class"].as_str().unwrap_or("?"),
            d["hits"]
        );
    }
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&merged).unwrap_or_default();
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("rootguard: cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        }
    }
    if merged["failed"].as_bool() == Some(true) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
