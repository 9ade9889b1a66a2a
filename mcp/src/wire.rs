//! What goes over the wire whatever carries it: a message and its
//! direction, a session's transcript, how a session fails, and the
//! readings of a response every layer above shares.

use serde_json::Value;

/// Which way a message went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// From rootguard to the server.
    ToServer,
    /// From the server to rootguard.
    FromServer,
}

impl Direction {
    /// `"client->server"` or `"server->client"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::ToServer => "client->server",
            Direction::FromServer => "server->client",
        }
    }
}

/// One line on the wire.
#[derive(Debug, Clone)]
pub struct Message {
    /// Its direction.
    pub direction: Direction,
    /// The line as sent or received, without the newline.
    pub text: String,
}

/// Every message of a session, in order.
pub type Transcript = Vec<Message>;

/// How a session failed.
#[derive(Debug, Clone)]
pub enum SessionError {
    /// No response to `method` within the timeout.
    Timeout {
        /// The request's method.
        method: String,
    },
    /// The server exited (or closed stdout) before answering.
    Exited {
        /// Its recent stderr.
        stderr: String,
    },
    /// The server printed something that is not JSON-RPC on stdout.
    Protocol {
        /// What was wrong.
        detail: String,
    },
}

impl std::fmt::Display for SessionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SessionError::Timeout { method } => write!(f, "no response to {method} in time"),
            SessionError::Exited { stderr } => {
                write!(
                    f,
                    "the server exited; its stderr ends: {}",
                    tail(stderr, 400)
                )
            }
            SessionError::Protocol { detail } => write!(f, "protocol error: {detail}"),
        }
    }
}

/// The last `n` bytes of `text` (at a char boundary).
pub fn tail(text: &str, n: usize) -> &str {
    let mut start = text.len().saturating_sub(n);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    text[start..].trim()
}

/// The text of a `tools/call` response for searching: the whole response
/// as JSON, plus each text content item unescaped.
pub fn response_text(response: &Value) -> String {
    let mut out = response.to_string();
    if let Some(items) = response
        .get("result")
        .and_then(|r| r.get("content"))
        .and_then(Value::as_array)
    {
        for item in items {
            if let Some(text) = item.get("text").and_then(Value::as_str) {
                out.push('\n');
                out.push_str(text);
            }
        }
    }
    out
}

/// Whether a `tools/call` response reports failure (a JSON-RPC error or `isError`).
pub fn is_failure(response: &Value) -> bool {
    response.get("error").is_some()
        || response
            .get("result")
            .and_then(|r| r.get("isError"))
            .and_then(Value::as_bool)
            .unwrap_or(false)
}
