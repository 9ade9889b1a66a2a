//! The two protocol eras a server may speak, and what the 2026-07-28
//! revision adds on the wire: per-request `_meta`, `resultType`, and its
//! error codes (docs/specification/2026-07-28/basic/index.mdx).

use serde_json::{json, Value};

/// The revision the client offers in `initialize` (the legacy era).
pub const LEGACY_VERSION: &str = "2025-11-25";

/// The revision the client speaks statelessly (the modern era).
pub const MODERN_VERSION: &str = "2026-07-28";

/// The `_meta` key naming the protocol version of a request.
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// The `_meta` key carrying the client's capabilities for a request.
pub const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// The `_meta` key naming the client.
pub const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// The `_meta` key of a result naming the server.
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// `HeaderMismatch`: HTTP headers missing, malformed or not matching the body.
pub const HEADER_MISMATCH: i64 = -32020;
/// `MissingRequiredClientCapability`: the request needs a capability the client did not declare.
pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i64 = -32021;
/// `UnsupportedProtocolVersion`: retry with one of `data.supported`.
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

/// The era a session speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Era {
    /// Revision 2025-11-25: `initialize`, a session, server-to-client requests.
    Legacy,
    /// Revision 2026-07-28: no handshake, `_meta` on every request, roots only through `input_required`.
    Modern,
}

impl Era {
    /// `"legacy"` or `"modern"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Era::Legacy => "legacy",
            Era::Modern => "modern",
        }
    }

    /// The protocol revision the client speaks in this era.
    pub fn version(self) -> &'static str {
        match self {
            Era::Legacy => LEGACY_VERSION,
            Era::Modern => MODERN_VERSION,
        }
    }

    /// `"modern (2026-07-28)"`: the era and its revision, for reports.
    pub fn describe(self) -> String {
        format!("{} ({})", self.as_str(), self.version())
    }
}

/// Which era to speak (`--era`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EraChoice {
    /// Probe with `server/discover`; fall back to `initialize` on any
    /// answer that is not a modern one (transports/stdio.mdx "Backward Compatibility").
    #[default]
    Auto,
    /// `initialize` only.
    Legacy,
    /// `server/discover` only; a server that does not speak 2026-07-28 fails to start.
    Modern,
}

impl EraChoice {
    /// The era this choice fixes, if it fixes one.
    pub fn fixed(self) -> Option<Era> {
        match self {
            EraChoice::Auto => None,
            EraChoice::Legacy => Some(Era::Legacy),
            EraChoice::Modern => Some(Era::Modern),
        }
    }
}

impl From<Era> for EraChoice {
    fn from(era: Era) -> EraChoice {
        match era {
            Era::Legacy => EraChoice::Legacy,
            Era::Modern => EraChoice::Modern,
        }
    }
}

/// Notifications the 2026-07-28 revision removed; a modern session does not send them.
const LEGACY_ONLY_NOTIFICATIONS: [&str; 2] = [
    "notifications/initialized",
    "notifications/roots/list_changed",
];

/// What an era changes in a session once it is settled: what a request
/// carries, which notifications go out, whether the server may ask the
/// client anything. A session holds the dialect of its era
/// ([`Era::dialect`]) and asks it instead of matching on the era.
pub trait Dialect: Send + Sync {
    /// The era it is.
    fn era(&self) -> Era;

    /// The params of a request as this era sends them, the client
    /// declaring `capabilities`.
    fn params(&self, params: Value, capabilities: Value) -> Value;

    /// Whether the notification `method` is sent at all.
    fn sends(&self, method: &str) -> bool;

    /// Whether the server may send the request `method`; why not, if not.
    ///
    /// # Errors
    ///
    /// The protocol error the request is in this era.
    fn allows_server_request(&self, method: &str) -> Result<(), String>;
}

/// Revision 2025-11-25: params as they are, every notification, the
/// server's requests answered.
#[derive(Debug, Clone, Copy)]
pub struct LegacyDialect;

/// Revision 2026-07-28: `_meta` on every request, no handshake or
/// roots-changed notifications, no server-to-client requests.
#[derive(Debug, Clone, Copy)]
pub struct ModernDialect;

impl Dialect for LegacyDialect {
    fn era(&self) -> Era {
        Era::Legacy
    }

    fn params(&self, params: Value, _capabilities: Value) -> Value {
        params
    }

    fn sends(&self, _method: &str) -> bool {
        true
    }

    fn allows_server_request(&self, _method: &str) -> Result<(), String> {
        Ok(())
    }
}

impl Dialect for ModernDialect {
    fn era(&self) -> Era {
        Era::Modern
    }

    fn params(&self, params: Value, capabilities: Value) -> Value {
        let mut params = if params.is_object() {
            params
        } else {
            json!({})
        };
        params["_meta"] = request_meta(capabilities);
        params
    }

    fn sends(&self, method: &str) -> bool {
        !LEGACY_ONLY_NOTIFICATIONS.contains(&method)
    }

    fn allows_server_request(&self, method: &str) -> Result<(), String> {
        // transports/stdio.mdx: the server MUST NOT send requests; asks ride in results.
        Err(format!(
            "the server sent a {method} request in a {MODERN_VERSION} session; it must ask through an input_required result"
        ))
    }
}

impl Era {
    /// How a session of this era speaks.
    pub fn dialect(self) -> &'static dyn Dialect {
        match self {
            Era::Legacy => &LegacyDialect,
            Era::Modern => &ModernDialect,
        }
    }
}

/// The `_meta` every modern request carries, with `capabilities` declared.
pub fn request_meta(capabilities: Value) -> Value {
    json!({
        META_PROTOCOL_VERSION: MODERN_VERSION,
        META_CLIENT_CAPABILITIES: capabilities,
        META_CLIENT_INFO: {"name": "rootguard-mcp", "version": env!("CARGO_PKG_VERSION")},
    })
}

/// What a result says it is (basic/index.mdx "ResultType").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultType {
    /// The final result (also a result without `resultType`, as legacy servers send).
    Complete,
    /// An `InputRequiredResult`: answer its `inputRequests` and retry.
    InputRequired,
}

/// The `resultType` of `result`.
///
/// # Errors
///
/// A message naming the value when it is not one the revision defines
/// (an unrecognised value MUST be treated as invalid).
pub fn result_type(result: &Value) -> Result<ResultType, String> {
    match result.get("resultType") {
        None => Ok(ResultType::Complete),
        Some(Value::String(s)) if s == "complete" => Ok(ResultType::Complete),
        Some(Value::String(s)) if s == "input_required" => Ok(ResultType::InputRequired),
        Some(other) => Err(format!(
            "the result's resultType {other} is neither \"complete\" nor \"input_required\""
        )),
    }
}

/// The name of an error code the 2026-07-28 revision defines, if it is one.
pub fn error_name(code: i64) -> Option<&'static str> {
    match code {
        HEADER_MISMATCH => Some("HeaderMismatch"),
        MISSING_REQUIRED_CLIENT_CAPABILITY => Some("MissingRequiredClientCapability"),
        UNSUPPORTED_PROTOCOL_VERSION => Some("UnsupportedProtocolVersion"),
        _ => None,
    }
}

/// A JSON-RPC error object in a line: its code, the revision's name for
/// it where it has one, its message and data.
pub fn describe_error(error: &Value) -> String {
    let code = error.get("code").and_then(Value::as_i64);
    let name = code
        .and_then(error_name)
        .map(|n| format!(" {n}"))
        .unwrap_or_default();
    let message = error.get("message").and_then(Value::as_str).unwrap_or("");
    let data = error
        .get("data")
        .map(|d| format!(" {d}"))
        .unwrap_or_default();
    match code {
        Some(code) => format!("error {code}{name}: {message}{data}"),
        None => format!("error {error}"),
    }
}

/// How a `server/discover` answer decides the era.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Probe {
    /// A `DiscoverResult` listing 2026-07-28: speak modern.
    Modern,
    /// A modern server that does not offer 2026-07-28 (a `-32022` or a
    /// result without it): do not fall back, the versions it offers.
    ModernElsewhere(String),
    /// Anything else: a legacy server, fall back to `initialize`.
    Legacy(String),
}

/// What the answer to `server/discover` says about the server's era.
pub fn probe(response: &Value) -> Probe {
    if let Some(result) = response.get("result") {
        let versions = result.get("supportedVersions").and_then(Value::as_array);
        return match versions {
            Some(v) if v.iter().any(|v| v == MODERN_VERSION) => Probe::Modern,
            Some(v) => Probe::ModernElsewhere(Value::Array(v.clone()).to_string()),
            None => Probe::Legacy(format!("a result without supportedVersions: {result}")),
        };
    }
    let error = &response["error"];
    if error.get("code").and_then(Value::as_i64) == Some(UNSUPPORTED_PROTOCOL_VERSION) {
        let supported = error["data"]["supported"].clone();
        if supported
            .as_array()
            .is_some_and(|v| v.iter().any(|v| v == MODERN_VERSION))
        {
            return Probe::Modern;
        }
        return Probe::ModernElsewhere(supported.to_string());
    }
    Probe::Legacy(describe_error(error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_types() {
        assert_eq!(result_type(&json!({})), Ok(ResultType::Complete));
        assert_eq!(
            result_type(&json!({"resultType": "input_required"})),
            Ok(ResultType::InputRequired)
        );
        assert!(result_type(&json!({"resultType": "partial"})).is_err());
        assert!(result_type(&json!({"resultType": 1})).is_err());
    }

    #[test]
    fn dialects() {
        let legacy = Era::Legacy.dialect();
        let modern = Era::Modern.dialect();
        assert_eq!((legacy.era(), modern.era()), (Era::Legacy, Era::Modern));
        assert_eq!(legacy.params(json!({"a": 1}), json!({})), json!({"a": 1}));
        let params = modern.params(json!(null), json!({"roots": {}}));
        assert_eq!(params["_meta"][META_PROTOCOL_VERSION], MODERN_VERSION);
        assert!(legacy.sends("notifications/initialized"));
        assert!(!modern.sends("notifications/roots/list_changed"));
        assert!(modern.sends("notifications/cancelled"));
        assert!(legacy.allows_server_request("roots/list").is_ok());
        assert!(modern.allows_server_request("roots/list").is_err());
    }

    #[test]
    fn probes() {
        let modern =
            json!({"result": {"resultType": "complete", "supportedVersions": ["2026-07-28"]}});
        assert_eq!(probe(&modern), Probe::Modern);
        let not_found = json!({"error": {"code": -32601, "message": "Method not found"}});
        assert!(matches!(probe(&not_found), Probe::Legacy(_)));
        let other = json!({"error": {"code": -32022, "message": "no", "data": {"supported": ["2027-01-01"]}}});
        assert_eq!(
            probe(&other),
            Probe::ModernElsewhere("[\"2027-01-01\"]".into())
        );
        let error = json!({"code": -32021, "message": "needs roots", "data": {"requiredCapabilities": {"roots": {}}}});
        assert!(describe_error(&error).contains("MissingRequiredClientCapability"));
    }
}
