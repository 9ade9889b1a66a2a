//! The report of a run, in the shared model of `rootguard_report` (the
//! same defects, IDs and writers as `rootguard vet`): text for a person,
//! JSON, SARIF 2.1.0, JUnit XML and an HTML page; and each finding as a
//! scenario file plus its JSON-RPC exchange.

use std::fs;
use std::path::{Path, PathBuf};

use rootguard_judge::Document;
use rootguard_report::{
    self as shared, clip, Check, Defect, Example, Ledger, Message, Sighting, Tool, Variants,
};
use rootguard_triage::{unprobed, Class, Feature};
use serde_json::{json, Value};

use crate::runner::race;
use crate::runner::{Finding, Report, CWD_CANARY, DEFAULT_GRANT, ROOTS_ANSWER};
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

/// The classes `rootguard mcp` can find, in report order.
const CLASSES: [Class; 7] = Class::ALL;

/// The checks of a roots change itself (the later ones, a root vanishing
/// or appearing, come after it in the same session).
const ROOTS_CHANGE: [&str; 2] = [
    "roots-change-old-root-revoked",
    "roots-change-new-root-granted",
];

/// What the run saw that names a finding's defect beyond its scenario:
/// the roots changing mid-session, a root vanishing or appearing, noise
/// on stdout. A server that did not take the changed roots fails the
/// later checks of the session for that same reason.
fn observed(f: &Finding, not_refreshed: bool) -> Vec<Feature> {
    let mut out = Vec::new();
    match f.attack.as_str() {
        a if ROOTS_CHANGE.contains(&a) => out.push(Feature::RootsChanged),
        "root-vanishes" | "root-appears" if not_refreshed => out.push(Feature::RootsChanged),
        "root-vanishes" => out.push(Feature::RootVanished),
        "root-appears" => out.push(Feature::RootAppeared),
        crate::runner::SWAP_ESCAPE => out.push(Feature::Swapped),
        a if crate::runner::ROOTS_MOVED.iter().any(|p| a.starts_with(p)) => {
            out.push(Feature::RootMoved);
        }
        "mrtr-retry-roots" => out.push(Feature::RetryRootsChanged),
        "mrtr-stale-state" => out.push(Feature::StateReplayed),
        "state-unsealed" => out.push(Feature::StateUnsealed),
        a if a.starts_with(crate::runner::STATE_CHECKS) => out.push(Feature::StateTampered),
        _ => {}
    }
    if race::is_race(&f.attack) && f.kind.is_escape() {
        out.push(Feature::Swapped);
    }
    if f.kind == Kind::ProtocolError && f.evidence.contains("non-JSON line") {
        out.push(Feature::StdoutNoise);
    }
    if f.attack.starts_with(DEFAULT_GRANT) {
        out.push(Feature::DefaultGrant);
    } else if f.attack.starts_with(ROOTS_ANSWER) {
        let cwd = f
            .scenario
            .cases
            .first()
            .is_some_and(|c| c.path == format!("{{base}}/{CWD_CANARY}"));
        // A failed roots/list leaves the client's roots unusable: granting then is failing open.
        out.push(if cwd {
            Feature::CwdFallback
        } else {
            Feature::NoUsableRoot
        });
    }
    out
}

/// The directories (`{base}` form, ending in `/`) that a mode's default
/// grants showed served: every escape into one is that grant's doing. A
/// canary beside the root served by a plain path explains the whole base.
fn default_grants(report: &Report) -> Vec<(crate::Mode, String)> {
    report
        .findings
        .iter()
        .filter(|f| f.attack.starts_with(DEFAULT_GRANT))
        .filter_map(|f| {
            let path = f.scenario.cases.first()?.path.to_string_lossy();
            let dir = if f.attack.ends_with("beside") {
                "{base}/".to_owned()
            } else {
                format!("{}/", path.rsplit_once('/')?.0)
            };
            Some((f.mode, dir))
        })
        .collect()
}

/// Whether `f` is an escape that a default grant explains (then it is
/// folded into RG-DEFAULT-GRANT instead of named on its own).
fn explained(f: &Finding, grants: &[(crate::Mode, String)]) -> bool {
    let probe = f.attack.starts_with(DEFAULT_GRANT) || f.attack.starts_with(ROOTS_ANSWER);
    let target = f.scenario.cases.first().map(|c| c.path.to_string_lossy());
    !probe
        && f.kind.is_escape()
        && target.is_some_and(|t| {
            grants
                .iter()
                .any(|(mode, dir)| *mode == f.mode && t.starts_with(dir.as_str()))
        })
}

fn example(f: &Finding) -> Example {
    let (truth, explanation) = match f.truth.as_deref().and_then(|t| t.split_once(": ")) {
        Some((truth, explanation)) => (Some(truth.to_owned()), Some(explanation.to_owned())),
        None => (None, f.truth.clone()),
    };
    Example {
        scenario: f.scenario.clone(),
        minimal: f.shrunk,
        origin: format!("{} ({} mode)", f.attack, f.mode.as_str()),
        request: key_request(f).unwrap_or_default().to_owned(),
        answer: key_response(f).map(|r| clip(r, 2000)).unwrap_or_default(),
        truth,
        explanation,
        evidence: Some(f.evidence.clone()),
        exchange: f
            .exchange
            .iter()
            .map(|m| Message {
                direction: m.direction.as_str().to_owned(),
                text: m.text.clone(),
            })
            .collect(),
        stderr: String::new(),
        refusal: None,
    }
}

/// The defects of a run: every finding a sighting (its probed identity,
/// or the unprobed one with what the run observed), grouped by ID.
pub fn defects(report: &Report) -> Vec<Defect> {
    let mut ledger = Ledger::default();
    let not_refreshed = report
        .findings
        .iter()
        .any(|f| ROOTS_CHANGE.contains(&f.attack.as_str()));
    let grants = default_grants(report);
    for f in &report.findings {
        let folded = explained(f, &grants);
        let identity = if folded {
            unprobed(&f.scenario, f.kind.class(), &[Feature::DefaultGrant])
        } else {
            f.identity.clone().unwrap_or_else(|| {
                unprobed(&f.scenario, f.kind.class(), &observed(f, not_refreshed))
            })
        };
        let mut variants = Variants::default();
        if let Some(case) = f.scenario.cases.first() {
            variants.ops.insert(case.op.to_string());
        }
        variants
            .channels
            .insert(f.kind.channel().as_str().to_owned());
        variants.tools.extend(f.tool.clone());
        variants.modes.insert(f.mode.as_str().to_owned());
        let rate = report
            .races
            .iter()
            .find(|r| r.name == f.attack && f.kind.is_escape())
            .map(|r| format!(", {} calls escaped", r.ratio()))
            .unwrap_or_default();
        variants.seen_in.insert(format!(
            "{} in {} ({} mode{}{}{rate})",
            f.kind,
            f.attack,
            f.mode.as_str(),
            if f.shrunk { ", minimal" } else { "" },
            if folded {
                ", folded: explained by the default grant"
            } else {
                ""
            }
        ));
        let mut example = example(f);
        // The grant's own probe, not an escape it explains, is its example.
        example.minimal &= !folded;
        ledger.add(Sighting {
            identity,
            example,
            hits: 1,
            variants,
        });
    }
    ledger.defects()
}

/// The run as the shared report model.
pub fn model(report: &Report, strict: bool) -> shared::Report {
    let server = report
        .server
        .as_ref()
        .map(|s| {
            format!(
                " ({} {}, protocol {}{})",
                s["serverInfo"]["name"].as_str().unwrap_or("?"),
                s["serverInfo"]["version"].as_str().unwrap_or("?"),
                s["protocolVersion"].as_str().unwrap_or("?"),
                if s["transport"] == "http" {
                    ", over Streamable HTTP"
                } else {
                    ""
                }
            )
        })
        .unwrap_or_default();
    let summary = vec![
        format!("rootguard mcp: {}{server}", report.command),
        format!(
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
        ),
    ];
    let mut summary = summary;
    summary.extend(door_lines(report));
    summary.extend(
        report
            .races
            .iter()
            .filter(|r| r.skipped.is_none())
            .map(|r| {
                format!(
                    "  {} ({}): {} calls escaped ({:.2}%) in {:.1}s, {} swaps",
                    r.name,
                    r.tool.as_deref().unwrap_or("no tool"),
                    r.ratio(),
                    r.rate() * 100.0,
                    r.elapsed.as_secs_f64(),
                    r.swaps
                )
            }),
    );
    let checks = report
        .outcomes
        .iter()
        .map(|o| Check {
            name: o.name.clone(),
            mode: o.mode.as_str().to_owned(),
            status: match (&o.finding, &o.skipped) {
                (Some(k), _) => k.as_str().to_uppercase(),
                (None, Some(why)) => format!("skipped ({why})"),
                (None, None) => "ok".into(),
            },
            detail: o.skipped.clone(),
        })
        .collect();
    let mut facts = serde_json::Map::new();
    facts.insert(
        "server".into(),
        report.server.clone().unwrap_or(Value::Null),
    );
    facts.insert("sandbox".into(), json!(report.sandbox.as_str()));
    facts.insert("write_attacks".into(), json!(report.writes));
    if !report.races.is_empty() {
        let races: Vec<Value> = report
            .races
            .iter()
            .map(|r| {
                json!({
                    "name": r.name,
                    "tool": r.tool,
                    "swap": r.swap.as_str(),
                    "tries": r.tries,
                    "escapes": r.escapes,
                    "rate": r.rate(),
                    "swaps": r.swaps,
                    "skipped": r.skipped,
                })
            })
            .collect();
        facts.insert("races".into(), Value::Array(races));
    }
    facts.insert("doors".into(), doors_json(report));
    let command: Vec<String> = report.command.split(' ').map(str::to_owned).collect();
    shared::Report {
        tool: Tool::Mcp,
        command: report.command.clone(),
        artifact: shared::artifact_of(&command),
        summary,
        seed: None,
        strict,
        interrupted: report.interrupted,
        elapsed: report.elapsed,
        queries: report.outcomes.len() as u64,
        counts: CLASSES
            .iter()
            .map(|c| {
                let n = report
                    .findings
                    .iter()
                    .filter(|f| f.kind.class() == *c)
                    .count();
                (*c, n as u64)
            })
            .collect(),
        defects: defects(report),
        checks,
        notes: report.notes.clone(),
        era: report.era.map(|e| e.describe()),
        facts,
        inconclusive: report.inconclusive(),
    }
}

/// What the server exposed and the calls each door got, for a person.
fn door_lines(report: &Report) -> Vec<String> {
    let Some(inventory) = &report.inventory else {
        return vec!["  doors: the server's lists could not be read".into()];
    };
    let doors = report.doors();
    let mut out = vec![format!(
        "  doors: {} tool(s) ({} file tools, {} git tools, {} archive tools), {} resource(s), {} URI template(s), {} prompt(s); {} attacked",
        inventory.tools.len(),
        inventory.file_tools.len(),
        inventory.git_doors.len(),
        inventory.archive_doors.len(),
        inventory.resources.len(),
        inventory.templates.len(),
        inventory.prompts.len(),
        doors.iter().filter(|d| d.calls.attacked()).count(),
    )];
    for d in &doors {
        let state = if d.calls.attacked() {
            "attacked"
        } else if d.attackable {
            "NOT ATTACKED"
        } else {
            "not attackable"
        };
        out.push(format!(
            "    {:<10} {:<40} {} call(s), {} refused at the schema level: {state}",
            d.kind.as_str(),
            d.name,
            d.calls.calls,
            d.calls.refused
        ));
    }
    out
}

/// The inventory and the calls per door, for JSON.
fn doors_json(report: &Report) -> Value {
    let Some(inventory) = &report.inventory else {
        return Value::Null;
    };
    json!({
        "tools": inventory.tools,
        "file_tools": inventory.file_tools,
        "git_tools": inventory.git_doors.iter().map(|d| json!({
            "name": d.tool,
            "repository": d.repository.as_ref().map(|r| r.label()),
            "paths": d.paths.iter().map(|s| s.label()).collect::<Vec<_>>(),
            "revisions": d.revisions.iter().map(|s| s.label()).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "archive_tools": inventory.archive_doors.iter().map(|d| json!({
            "name": d.tool,
            "archive": d.archive.label(),
            "destination": d.destination.as_ref().map(|s| s.label()),
        })).collect::<Vec<_>>(),
        "serves_resources": inventory.serves_resources,
        "resources": inventory.resources.iter().map(|r| json!({"uri": r.uri, "name": r.name})).collect::<Vec<_>>(),
        "templates": inventory.templates.iter().map(|t| json!({"uriTemplate": t.text, "variables": t.variables()})).collect::<Vec<_>>(),
        "prompts": inventory.prompts.iter().map(|p| json!({
            "name": p.name,
            "arguments": p.arguments.iter().map(|a| json!({"name": a.name, "required": a.required})).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "calls": report.doors().iter().map(|d| json!({
            "door": d.name,
            "kind": d.kind.as_str(),
            "attackable": d.attackable,
            "calls": d.calls.calls,
            "refused_at_schema": d.calls.refused,
            "attacked": d.calls.attacked(),
        })).collect::<Vec<_>>(),
    })
}

/// The report as text: the defects first, then every check, then the counts.
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

/// The report as one self-contained HTML page, each defect's exchange with it.
pub fn html(report: &Report, strict: bool) -> String {
    shared::html(&model(report, strict))
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
        let doc = Document::new(vec![scenario]);
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
