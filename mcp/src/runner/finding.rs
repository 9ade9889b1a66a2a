//! Findings: what one attack or check showed, and how a sighting becomes one.

use rootguard_judge::{Judgement, Materialized, Scenario};
use rootguard_triage::Identity;
use serde_json::Value;

use super::{session_error_kind, Mode};
use crate::client::{SessionError, Transcript};
use crate::Kind;

/// The base without its leading `/`, as a request may carry it after a
/// `/` of its own (a URI template's `file:///{+path}` filled with the
/// root's whole path): `{base_rel}` in a finding and in the door attacks.
pub(super) const BASE_REL: &str = "{base_rel}";

/// `text` with the base written `{base}`, and what is left of it without
/// its leading `/` written [`BASE_REL`].
pub(super) fn unbased(text: &str, base: &str) -> String {
    text.replace(base, "{base}")
        .replace(base.trim_start_matches('/'), BASE_REL)
}

/// `value` with every string's `{base}` made the real base, and
/// [`BASE_REL`] the real base without its leading `/`.
pub(super) fn based(value: &Value, base: &str) -> Value {
    match value {
        Value::String(s) => Value::String(
            s.replace(BASE_REL, base.trim_start_matches('/'))
                .replace("{base}", base),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|v| based(v, base)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), based(v, base)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// One defect, observed.
#[derive(Debug, Clone)]
pub struct Finding {
    /// Its kind.
    pub kind: Kind,
    /// The attack (or check) that showed it.
    pub attack: String,
    /// The session mode.
    pub mode: Mode,
    /// The tool called, if any.
    pub tool: Option<String>,
    /// What was seen: the canary in the result, the changes on disk, the error.
    pub evidence: String,
    /// The truth of the hostile case (model oracle and kernel), if judged.
    pub truth: Option<String>,
    /// The scenario, `{base}` form, its case labelled with the truth.
    pub scenario: Scenario,
    /// The request that showed it and the server's response, where one did.
    pub key: Option<(String, String)>,
    /// The whole JSON-RPC exchange, `{base}` in place of the base.
    pub exchange: Transcript,
    /// Whether the scenario was shrunk (entries removed while the escape stayed).
    pub shrunk: bool,
    /// What probing the minimal scenario found (escapes only): the
    /// features the escape needs, which name its defect.
    pub identity: Option<Identity>,
}

/// The result of one attack or check in one mode.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The attack or check.
    pub name: String,
    /// The mode.
    pub mode: Mode,
    /// `None` passed; `Some(kind)` a finding; see `skipped`.
    pub finding: Option<Kind>,
    /// Why it did not run.
    pub skipped: Option<String>,
}

/// Where a finding was seen: the attack or check, the mode, the
/// scenario it ran and the tree it ran on.
pub(crate) struct At<'a> {
    /// The attack or check.
    pub name: &'a str,
    /// The session mode.
    pub mode: Mode,
    /// The scenario, `{base}` form.
    pub scenario: &'a Scenario,
    /// Its tree on disk, whose base is written back as `{base}`.
    pub materialized: &'a Materialized,
}

/// What was seen there.
pub(crate) struct Sighting<'a> {
    /// The kind of defect.
    pub kind: Kind,
    /// The tool called, if any.
    pub tool: Option<String>,
    /// The canary, the changes on disk, the error.
    pub evidence: String,
    /// The truth of the hostile case, if judged.
    pub truth: Option<&'a Judgement>,
    /// The JSON-RPC exchange.
    pub exchange: Transcript,
}

impl At<'_> {
    /// The finding `seen` here, with the base written as `{base}`.
    pub(crate) fn finding(self, seen: Sighting<'_>) -> Finding {
        let Sighting {
            kind,
            tool,
            evidence,
            truth,
            exchange,
        } = seen;
        let (attack, mode, scenario, materialized) =
            (self.name, self.mode, self.scenario, self.materialized);
        let base = materialized.base_text();
        let unbase = |s: &str| unbased(s, base);
        let mut scenario = scenario.clone();
        if let (Some(case), Some(truth)) = (scenario.cases.first_mut(), truth) {
            case.expect = Some(truth.truth.to_expect());
        }
        let truth = truth.map(ToString::to_string);
        let key = key_exchange(&exchange).map(|(q, r)| (unbase(&q), unbase(&r)));
        Finding {
            key,
            kind,
            attack: attack.into(),
            mode,
            tool,
            evidence: unbase(&evidence),
            truth: truth.map(|t| unbase(&t)),
            scenario,
            exchange: exchange
                .into_iter()
                .map(|mut m| {
                    m.text = unbase(&m.text);
                    m
                })
                .collect(),
            shrunk: false,
            identity: None,
        }
    }

    /// The finding of a session that failed while in use here (a hang, a
    /// crash, a protocol error), with the exchange so far.
    pub(crate) fn failure(self, error: &SessionError, exchange: Transcript) -> Finding {
        self.finding(Sighting {
            kind: session_error_kind(error),
            tool: None,
            evidence: error.to_string(),
            truth: None,
            exchange,
        })
    }
}

/// The methods whose requests carry a hostile path: the key request is the last of them.
pub(crate) const DOOR_METHODS: [&str; 3] =
    ["\"tools/call\"", "\"resources/read\"", "\"prompts/get\""];

/// The last `tools/call` (or other door request) of an exchange and its response.
fn key_exchange(exchange: &[crate::client::Message]) -> Option<(String, String)> {
    use crate::client::Direction;
    let (at, request) = exchange.iter().enumerate().rev().find(|(_, m)| {
        m.direction == Direction::ToServer && DOOR_METHODS.iter().any(|d| m.text.contains(d))
    })?;
    let id = serde_json::from_str::<Value>(&request.text)
        .ok()?
        .get("id")?
        .clone();
    let response = exchange[at..].iter().find(|m| {
        m.direction == Direction::FromServer
            && serde_json::from_str::<Value>(&m.text)
                .is_ok_and(|v| v.get("id") == Some(&id) && v.get("method").is_none())
    })?;
    Some((request.text.clone(), response.text.clone()))
}
