//! What the harness sends: one query, one JSON line.

use rootguard_proptests::Op;

/// One query, as sent to a checker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// Echoed back in the response.
    pub id: u64,
    /// Root URIs exactly as a client would send them.
    pub roots: Vec<String>,
    /// The absolute path a tool argument carries.
    pub path: String,
    /// What the tool is about to do.
    pub op: Op,
}

impl Request {
    /// The request as one JSON line (without the `\n`).
    pub fn to_json(&self) -> String {
        serde_json::json!({
            "id": self.id,
            "roots": self.roots,
            "path": self.path,
            "op": self.op.to_string(),
        })
        .to_string()
    }
}
