//! `rootguard mcp replay FILE -- CMD`: a finding written by `--out`
//! (its scenario file and, beside it, its `.exchange.jsonl`) run again on
//! a fresh server: the tree laid, the server started with the roots and in
//! the session mode of the recorded exchange, and the recorded hostile
//! request sent again with the new base in place of `{base}`: a file
//! tool's `tools/call`, observed as the table observes it, or a door's
//! `resources/read`, `prompts/get` or `tools/call` (an attack named
//! `door-…`), observed as the door attacks observe it.

use std::fs;
use std::path::{Path, PathBuf};

use rootguard_judge::{Document, Scenario};
use serde_json::Value;

use super::call::{Call, Seen};
use super::doors::knock_again;
use super::finding::based;
use super::{prepared, At, Context, Finding, Mode, Options, Started};
use crate::tools::{Action, Nesting, Tool};
use crate::HarnessError;

/// What a replay saw.
#[derive(Debug)]
pub enum Replayed {
    /// The call still shows a finding (exit 1).
    Still(Box<Finding>),
    /// It no longer does (exit 0).
    Gone,
}

/// The requests a finding's hostile call can be.
const REPLAYABLE: [&str; 3] = ["tools/call", "resources/read", "prompts/get"];

/// The recorded hostile request: the last `tools/call`, `resources/read`
/// or `prompts/get` the client sent (its method and params), and the
/// session mode its `initialize` declared.
fn recorded(exchange: &Path) -> Result<(String, Value, Mode), HarnessError> {
    let text = fs::read_to_string(exchange).map_err(|e| {
        HarnessError::Usage(format!(
            "cannot read the exchange {} that --out writes beside the scenario file: {e}",
            exchange.display()
        ))
    })?;
    let sent: Vec<Value> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|m| m["direction"] == "client->server")
        .map(|m| m["message"].clone())
        .collect();
    let mode = match sent.iter().find(|m| m["method"] == "initialize") {
        Some(init) if init["params"]["capabilities"].get("roots").is_some() => Mode::Roots,
        Some(_) => Mode::NoRoots,
        None => Mode::Roots,
    };
    let call = sent
        .iter()
        .rev()
        .find(|m| REPLAYABLE.iter().any(|r| m["method"] == *r))
        .ok_or_else(|| {
            HarnessError::Usage(format!(
                "{} holds no {} to replay",
                exchange.display(),
                REPLAYABLE.join(", ")
            ))
        })?;
    let method = call["method"].as_str().unwrap_or_default().to_owned();
    Ok((method, call["params"].clone(), mode))
}

/// The exchange file beside a scenario file `x.json`: `x.exchange.jsonl`.
fn exchange_beside(file: &Path) -> PathBuf {
    let stem = file
        .file_name()
        .and_then(|n| n.to_str())
        .map(|n| n.strip_suffix(".json").unwrap_or(n).to_owned())
        .unwrap_or_default();
    file.with_file_name(format!("{stem}.exchange.jsonl"))
}

/// The run token in the scenario's canaries (`CANARY-<token>`).
fn token_of(scenario: &Scenario) -> Option<String> {
    scenario.tree.iter().find_map(|e| match e {
        rootguard_judge::Entry::File {
            content: Some(c), ..
        } => c
            .strip_prefix("CANARY-")
            .map(|t| t.trim_end().to_owned())
            .filter(|t| !t.is_empty()),
        _ => None,
    })
}

/// Replays the finding in `file` against `options.command`.
///
/// # Errors
///
/// [`HarnessError::Usage`] when the file or its exchange cannot be read or
/// hold nothing to replay; the errors of [`run`](super::run) when the
/// server cannot be started.
pub fn replay(options: &Options, file: &Path) -> Result<Replayed, HarnessError> {
    let text = fs::read_to_string(file)
        .map_err(|e| HarnessError::Usage(format!("cannot read {}: {e}", file.display())))?;
    let doc = Document::from_json(&text).map_err(|e| {
        HarnessError::Usage(format!(
            "{} is not a scenario file written by --out: {e}",
            file.display()
        ))
    })?;
    let scenario = doc
        .scenarios
        .into_iter()
        .next()
        .ok_or_else(|| HarnessError::Usage(format!("{} holds no scenario", file.display())))?;
    let (method, params, mode) = recorded(&exchange_beside(file))?;
    let options = &prepared(options)?;
    let mut cx = Context::new(options)?;
    if let Some(token) = token_of(&scenario) {
        cx.token = token;
    }
    // `--out` names a scenario `<mode>-<attack>`.
    let attack = [Mode::Roots, Mode::NoRoots]
        .iter()
        .find_map(|m| scenario.name.strip_prefix(&format!("{}-", m.as_str())))
        .unwrap_or(&scenario.name);
    if attack.starts_with(super::git::PREFIX) || attack.starts_with(super::archives::PREFIX) {
        return Err(HarnessError::Usage(format!(
            "{} is a finding of the git or archive attacks, whose repositories and archives the run lays beside the scenario's tree: it is not replayed; run `rootguard mcp --only {attack}` with the same launch flags instead",
            file.display()
        )));
    }
    if attack.starts_with("door-") {
        return Ok(
            match knock_again(&mut cx, &scenario, &method, params, mode)? {
                Some(f) => Replayed::Still(Box::new(f)),
                None => Replayed::Gone,
            },
        );
    }
    if method != "tools/call" {
        return Err(HarnessError::Usage(format!(
            "{} records a {method}, but its attack {} is no door attack: only a door's finding replays one",
            file.display(),
            scenario.name
        )));
    }
    let tool_name = params["name"].as_str().unwrap_or_default().to_owned();
    let arguments = params["arguments"].clone();
    let mut live = match cx.launcher.start(&scenario, mode)? {
        Started::Running(live) => live,
        Started::Failed(failed) => {
            let f = failed.finding(&scenario.name, mode, &scenario);
            return Ok(Replayed::Still(Box::new(f)));
        }
    };
    let tool = cx
        .launcher
        .tools(&mut live.session)
        .ok()
        .and_then(|tools| tools.into_iter().find(|t| t.name == tool_name))
        .unwrap_or(Tool {
            action: Action::Read,
            name: tool_name,
            nesting: Nesting::Top,
            fills: Vec::new(),
        });
    let action = tool.action;
    let case = scenario.cases.first();
    let c = Call {
        action,
        paths: case.map(|c| c.path.to_string_lossy()).into_iter().collect(),
        hostile: 0,
    };
    let base = live.materialized.base_text().to_owned();
    let arguments = based(&arguments, &base);
    let Seen::Finding(spotted) = c.observe(&mut live, &tool, arguments, &cx.token) else {
        drop(live.session.close());
        return Ok(Replayed::Gone);
    };
    let exchange = live.session.close();
    let f = spotted.finding(
        At {
            name: &scenario.name,
            mode,
            scenario: &scenario,
            materialized: &live.materialized,
        },
        &c,
        exchange,
    );
    Ok(Replayed::Still(Box::new(f)))
}
