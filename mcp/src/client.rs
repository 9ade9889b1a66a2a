//! An MCP client over a child's stdin and stdout: newline-delimited JSON-RPC
//! 2.0, every message kept in a [`Transcript`].
//!
//! Raw JSON-RPC rather than the `rmcp` crate: the harness must answer the
//! server's own `roots/list` requests with roots that change mid-session,
//! refuse them with -32601 in a session without the capability, keep the
//! exact bytes of every message for the findings, and kill a server that
//! does not answer within a per-call timeout. All of that is a few lines
//! over a pipe, and none of it needs an async runtime. (rmcp's client
//! was not built here: the choice was made on these needs, not on a failed build.)

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::sandbox::Launch;
use crate::HarnessError;

/// The protocol revision the client offers in `initialize`.
pub const PROTOCOL_VERSION: &str = "2025-11-25";

/// How many `input_required` rounds one request may take.
const MAX_INPUT_ROUNDS: usize = 5;

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

enum Incoming {
    Line(String),
    Eof,
}

/// A running server and its client side.
pub struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    incoming: Receiver<Incoming>,
    stderr: Arc<Mutex<String>>,
    next_id: u64,
    timeout: Duration,
    /// `Some` when the client declared the roots capability: the URIs it lists.
    roots: Option<Vec<String>>,
    /// How many `roots/list` requests the server sent.
    pub roots_requests: usize,
    /// Every message so far.
    pub transcript: Transcript,
    /// Non-JSON lines the server printed on stdout.
    pub stray_lines: Vec<String>,
    exited: bool,
}

impl Session {
    /// Starts the server and returns its client, not yet initialized.
    ///
    /// # Errors
    ///
    /// [`HarnessError::Start`] when the command cannot start.
    pub fn start(
        launch: &Launch,
        roots: Option<Vec<String>>,
        timeout: Duration,
    ) -> Result<Session, HarnessError> {
        let mut command = launch.command();
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = command.spawn().map_err(|e| HarnessError::Start {
            command: launch.describe(),
            reason: e.to_string(),
        })?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr_pipe = child.stderr.take().expect("piped stderr");
        let (tx, incoming) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut line = Vec::new();
            loop {
                line.clear();
                match reader.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(Incoming::Eof);
                        return;
                    }
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&line).trim_end().to_owned();
                        if tx.send(Incoming::Line(text)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&stderr);
        thread::spawn(move || {
            let mut pipe = stderr_pipe;
            let mut buf = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 {
                    return;
                }
                let mut s = sink.lock().unwrap_or_else(|e| e.into_inner());
                s.push_str(&String::from_utf8_lossy(&buf[..n]));
                // Keep the tail only: a chatty server must not grow this forever.
                if s.len() > 64 * 1024 {
                    let cut = s.len() - 32 * 1024;
                    let cut = (cut..s.len()).find(|i| s.is_char_boundary(*i)).unwrap_or(0);
                    s.drain(..cut);
                }
            }
        });
        let stdin = child.stdin.take();
        Ok(Session {
            child,
            stdin,
            incoming,
            stderr,
            next_id: 1,
            timeout,
            roots,
            roots_requests: 0,
            transcript: Vec::new(),
            stray_lines: Vec::new(),
            exited: false,
        })
    }

    /// The server's stderr so far (its tail).
    pub fn stderr(&self) -> String {
        self.stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Replaces the roots the client lists (the session must have declared the capability).
    pub fn set_roots(&mut self, roots: Vec<String>) {
        self.roots = Some(roots);
    }

    /// `initialize` then `notifications/initialized`; the `roots` capability
    /// (`listChanged: true`) exactly when the session lists roots.
    ///
    /// # Errors
    ///
    /// [`SessionError`] when the server does not answer or answers with an error.
    pub fn initialize(&mut self) -> Result<Value, SessionError> {
        let mut capabilities = json!({});
        if self.roots.is_some() {
            capabilities["roots"] = json!({"listChanged": true});
        }
        let response = self.request(
            "initialize",
            json!({
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": capabilities,
                "clientInfo": {"name": "rootguard-mcp", "version": env!("CARGO_PKG_VERSION")},
            }),
        )?;
        if let Some(error) = response.get("error") {
            return Err(SessionError::Protocol {
                detail: format!("initialize failed: {error}"),
            });
        }
        self.notify("notifications/initialized", None)?;
        Ok(response)
    }

    /// Sends a notification.
    ///
    /// # Errors
    ///
    /// [`SessionError::Exited`] when the server's stdin is closed.
    pub fn notify(&mut self, method: &str, params: Option<Value>) -> Result<(), SessionError> {
        let mut message = json!({"jsonrpc": "2.0", "method": method});
        if let Some(params) = params {
            message["params"] = params;
        }
        self.send(&message)
    }

    /// Sends a request and waits for its response (the whole JSON-RPC
    /// object, `result` or `error`), answering the server's own requests
    /// meanwhile.
    ///
    /// # Errors
    ///
    /// [`SessionError`] on timeout, exit, or a line that is not JSON.
    pub fn request(&mut self, method: &str, params: Value) -> Result<Value, SessionError> {
        let mut params = params;
        // Revision 2026-07-28 (multi round-trip requests): a server may answer
        // with an `input_required` result naming requests such as roots/list;
        // the client answers them in `inputResponses` and retries.
        for _ in 0..MAX_INPUT_ROUNDS {
            let response = self.request_once(method, params.clone())?;
            let result = &response["result"];
            if result.get("resultType").and_then(Value::as_str) != Some("input_required") {
                return Ok(response);
            }
            let mut responses = serde_json::Map::new();
            if let Some(requests) = result.get("inputRequests").and_then(Value::as_object) {
                for (key, request) in requests {
                    if let Some(answer) = self.input_response(request) {
                        responses.insert(key.clone(), answer);
                    }
                }
            }
            if !params.is_object() {
                params = json!({});
            }
            params["inputResponses"] = Value::Object(responses);
            match result.get("requestState") {
                Some(state) => params["requestState"] = state.clone(),
                None => {
                    if let Some(p) = params.as_object_mut() {
                        p.remove("requestState");
                    }
                }
            }
        }
        Err(SessionError::Protocol {
            detail: format!("{method} still asked for input after {MAX_INPUT_ROUNDS} rounds"),
        })
    }

    /// The answer to one of an `input_required` result's requests; `None`
    /// for what this client does not offer (roots without the capability,
    /// sampling, elicitation).
    fn input_response(&mut self, request: &Value) -> Option<Value> {
        match (request.get("method").and_then(Value::as_str), &self.roots) {
            (Some("roots/list"), Some(roots)) => {
                self.roots_requests += 1;
                Some(json!({"roots": listed_roots(roots)}))
            }
            (Some("roots/list"), None) => {
                self.roots_requests += 1;
                None
            }
            _ => None,
        }
    }

    fn request_once(&mut self, method: &str, params: Value) -> Result<Value, SessionError> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        let deadline = Instant::now() + self.timeout;
        loop {
            let Some(message) = self.receive(deadline)? else {
                return Err(SessionError::Timeout {
                    method: method.to_owned(),
                });
            };
            if message.get("method").is_none() && message.get("id") == Some(&json!(id)) {
                return Ok(message);
            }
        }
    }

    /// Handles what the server sends for `duration` (or until it has sent
    /// `roots/list` `until_roots_requests` times in all), answering its requests.
    ///
    /// # Errors
    ///
    /// [`SessionError`] on exit or a line that is not JSON.
    pub fn pump(
        &mut self,
        duration: Duration,
        until_roots_requests: Option<usize>,
    ) -> Result<(), SessionError> {
        let deadline = Instant::now() + duration;
        loop {
            if until_roots_requests.is_some_and(|n| self.roots_requests >= n) {
                return Ok(());
            }
            if self.receive(deadline)?.is_none() {
                return Ok(());
            }
        }
    }

    /// Receives one message before `deadline`, answering it first if it is
    /// a request from the server; `None` at the deadline.
    fn receive(&mut self, deadline: Instant) -> Result<Option<Value>, SessionError> {
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            let line = match self.incoming.recv_timeout(wait) {
                Ok(Incoming::Line(line)) => line,
                Ok(Incoming::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    self.exited = true;
                    return Err(SessionError::Exited {
                        stderr: self.stderr(),
                    });
                }
                Err(RecvTimeoutError::Timeout) => return Ok(None),
            };
            if line.trim().is_empty() {
                continue;
            }
            self.transcript.push(Message {
                direction: Direction::FromServer,
                text: line.clone(),
            });
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                // A server that logs to stdout breaks the transport; note it and go on.
                self.stray_lines.push(line);
                continue;
            };
            if let (Some(method), Some(id)) = (message.get("method"), message.get("id")) {
                let method = method.as_str().unwrap_or_default().to_owned();
                let id = id.clone();
                self.answer(&method, id)?;
            }
            return Ok(Some(message));
        }
    }

    fn answer(&mut self, method: &str, id: Value) -> Result<(), SessionError> {
        let reply = match (method, &self.roots) {
            ("roots/list", Some(roots)) => {
                self.roots_requests += 1;
                json!({"jsonrpc": "2.0", "id": id, "result": {"roots": listed_roots(roots)}})
            }
            ("ping", _) => json!({"jsonrpc": "2.0", "id": id, "result": {}}),
            (method, _) => {
                if method == "roots/list" {
                    self.roots_requests += 1;
                }
                // Without the roots capability, roots/list is a method this client does not have.
                json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": format!("Method not found: {method}")}})
            }
        };
        self.send(&reply)
    }

    fn send(&mut self, message: &Value) -> Result<(), SessionError> {
        let text = message.to_string();
        self.transcript.push(Message {
            direction: Direction::ToServer,
            text: text.clone(),
        });
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(SessionError::Exited {
                stderr: self.stderr(),
            });
        };
        let written = stdin
            .write_all(text.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        written.map_err(|_| {
            self.exited = true;
            SessionError::Exited {
                stderr: self.stderr(),
            }
        })
    }

    /// Whether the server has exited (as far as the client has seen).
    pub fn has_exited(&mut self) -> bool {
        self.exited || matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// Closes stdin, gives the server a moment, then kills it.
    pub fn close(mut self) -> Transcript {
        self.shutdown();
        std::mem::take(&mut self.transcript)
    }

    fn shutdown(&mut self) {
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_millis(300);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn listed_roots(roots: &[String]) -> Vec<Value> {
    roots
        .iter()
        .map(|uri| json!({"uri": uri, "name": root_name(uri)}))
        .collect()
}

fn root_name(uri: &str) -> String {
    uri.trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or_default()
        .to_owned()
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
