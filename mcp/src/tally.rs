//! Calls per door: how many requests each tool, resource read, template
//! and prompt got, and how many of them the server refused at the schema
//! level (before any path was looked at). A door counts as attacked when
//! at least one call got past that.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::wire::{is_failure, response_text};

/// What one door got.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DoorCalls {
    /// Requests sent through the door.
    pub calls: u64,
    /// Of those, the ones refused at the schema level ([`refused_at_schema`]).
    pub refused: u64,
}

impl DoorCalls {
    /// Whether at least one call got past the schema level.
    pub fn attacked(&self) -> bool {
        self.calls > self.refused
    }
}

/// The calls of a run, per door, shared by every session of the run.
#[derive(Debug, Clone, Default)]
pub struct Tally(Arc<Mutex<BTreeMap<String, DoorCalls>>>);

impl Tally {
    /// Counts one call through `door`, answered `response` (`None`: no
    /// answer, a hang or a crash, which is not a schema refusal).
    pub fn record(&self, door: &str, response: Option<&Value>) {
        let refused = response.is_some_and(refused_at_schema);
        if let Ok(mut map) = self.0.lock() {
            let entry = map.entry(door.to_owned()).or_default();
            entry.calls += 1;
            entry.refused += u64::from(refused);
        }
    }

    /// The calls so far, per door.
    pub fn snapshot(&self) -> BTreeMap<String, DoorCalls> {
        self.0.lock().map(|m| m.clone()).unwrap_or_default()
    }
}

/// Phrases of input-validation errors (the SDKs' and JSON Schema validators').
const VALIDATION: &[&str] = &[
    "input validation error",
    "invalid arguments",
    "invalid params",
    "validation error",
    "is a required property",
    "invalid_type",
    "missing required",
];

/// Phrases of a refusal made after looking at what the request names.
const LOOKED: &[&str] = &[
    "unknown resource",
    "not found",
    "access denied",
    "not allowed",
    "outside",
    "permission denied",
    "no such file",
];

/// Whether `response` refuses the request before looking at what it
/// names: -32602 (invalid params), -32601 (no such method), or an error
/// result that says its input failed validation. A -32602 whose message
/// says the resource is unknown or the path denied is not one: the SDKs
/// answer so after a lookup (the Python SDK's `Unknown resource: URI`,
/// the TypeScript SDK's `Resource URI not found`, where the spec has
/// -32002), and servers throw their access errors through them
/// (server-filesystem 2.3.0's `Access denied - symlink target outside
/// allowed directories`).
pub fn refused_at_schema(response: &Value) -> bool {
    let error = response.get("error");
    if let Some(code) = error.and_then(|e| e.get("code")).and_then(Value::as_i64) {
        let message = error
            .and_then(|e| e.get("message"))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_lowercase();
        let looked = LOOKED.iter().any(|phrase| message.contains(phrase));
        if code == -32601 || (code == -32602 && !looked) {
            return true;
        }
    }
    let text = response_text(response).to_lowercase();
    // Some servers answer a failed validation as a plain result, its text
    // `Error: [{"code": "invalid_type", ...}]` but no `isError` (mcp-cli).
    let plain_error = response
        .pointer("/result/content/0/text")
        .and_then(Value::as_str)
        .is_some_and(|t| t.trim_start().to_lowercase().starts_with("error"));
    (is_failure(response) || plain_error) && VALIDATION.iter().any(|phrase| text.contains(phrase))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn schema_refusals_are_told_from_path_refusals() {
        let invalid = json!({"error": {"code": -32602, "message": "bad"}});
        let missing = json!({"error": {"code": -32601, "message": "Method not found"}});
        let validation = json!({"result": {"isError": true, "content": [{"type": "text", "text": "Input validation error: 'path' is a required property"}]}});
        let denied = json!({"result": {"isError": true, "content": [{"type": "text", "text": "Access denied"}]}});
        let read = json!({"result": {"contents": [{"uri": "file:///x", "text": "x"}]}});
        let unknown = json!({"error": {"code": -32602, "message": "Unknown resource: file:///b/out/secret.txt"}});
        let not_found = json!({"error": {"code": -32602, "message": "MCP error -32602: Resource file:///b/x not found"}});
        let spec = json!({"error": {"code": -32002, "message": "Resource not found"}});
        let plain = json!({"result": {"content": [{"type": "text", "text": "Error: [\n  {\n    \"code\": \"invalid_type\",\n    \"path\": [\"workingDirectory\"],\n    \"message\": \"Required\"\n  }\n]"}]}});
        let content = json!({"result": {"content": [{"type": "text", "text": "notes: the invalid_type error came back"}]}});
        let thrown = json!({"error": {"code": -32602, "message": "Access denied - symlink target outside allowed directories: /b/out/secret.txt not in /b/proj"}});
        for r in [&invalid, &missing, &validation, &plain] {
            assert!(refused_at_schema(r), "{r}");
        }
        for r in [
            &denied, &read, &unknown, &not_found, &spec, &thrown, &content,
        ] {
            assert!(!refused_at_schema(r), "{r}");
        }
        let tally = Tally::default();
        tally.record("t", Some(&invalid));
        assert!(!tally.snapshot()["t"].attacked());
        tally.record("t", Some(&denied));
        tally.record("t", None);
        let t = tally.snapshot()["t"];
        assert_eq!((t.calls, t.refused, t.attacked()), (3, 1, true));
    }
}
