//! An MCP client: JSON-RPC 2.0 over a [`Transport`] (stdio with
//! [`Session::start`], Streamable HTTP on loopback with
//! [`Session::start_http`]), in the era its first exchange settles, held
//! as that era's [`Dialect`]; the server's `roots/list` answered; every
//! message kept in a [`Transcript`].
//!
//! Raw JSON-RPC rather than the `rmcp` crate: the harness must answer the
//! server's own `roots/list` requests with roots that change mid-session,
//! refuse them with -32601 in a session without the capability, keep the
//! exact bytes of every message for the findings, and kill a server that
//! does not answer within a per-call timeout. All of that is a few lines
//! over a pipe, and none of it needs an async runtime. (rmcp's client
//! was not built here: the choice was made on these needs, not on a failed build.)

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::era::{self, Dialect, Era, EraChoice, LegacyDialect, Probe, ResultType};
use crate::http::StreamableHttp;
use crate::sandbox::Launch;
use crate::transport::{Stdio, Transport};
use crate::HarnessError;

pub use crate::wire::{
    is_failure, response_text, tail, Direction, Message, SessionError, Transcript,
};

/// The protocol revision the client offers in `initialize`.
pub const PROTOCOL_VERSION: &str = era::LEGACY_VERSION;

/// How many `input_required` rounds one request may take.
const MAX_INPUT_ROUNDS: usize = 5;

/// How the client answers the server's `roots/list`: with its roots, or
/// with one of the failures the roots specification lists, to see that
/// the server then grants nothing beyond its configured directories.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RootsAnswer {
    /// The session's roots.
    #[default]
    Roots,
    /// An empty list.
    Empty,
    /// A JSON-RPC error with this code (-32601, -32603).
    Error(i64),
    /// The roots, this long after the request (past the server's own timeout).
    Late(Duration),
    /// No answer at all.
    Never,
}

/// A running server and its client side.
pub struct Session {
    transport: Box<dyn Transport>,
    next_id: u64,
    timeout: Duration,
    /// `Some` when the client declared the roots capability: the URIs it lists.
    roots: Option<Vec<String>>,
    /// How many `roots/list` requests the server sent.
    pub roots_requests: usize,
    /// How `roots/list` is answered (in a session with the capability).
    pub roots_answer: RootsAnswer,
    /// Answers held back by [`RootsAnswer::Late`], each with when it is due.
    late: Vec<(Instant, Value)>,
    /// Every message so far.
    pub transcript: Transcript,
    /// Non-JSON lines the server printed on stdout.
    pub stray_lines: Vec<String>,
    /// The era asked for.
    choice: EraChoice,
    /// How the era spoken speaks, once [`Session::initialize`] settled it.
    dialect: Option<&'static dyn Dialect>,
    /// The server's name, version and revision, once settled.
    server: Option<Value>,
    /// Where its `tools/call` requests are counted, per tool.
    pub tally: Option<crate::tally::Tally>,
}

impl Session {
    /// Starts the server and returns its client over stdio, not yet initialized.
    ///
    /// # Errors
    ///
    /// [`HarnessError::Start`] when the command cannot start.
    pub fn start(
        launch: &Launch,
        roots: Option<Vec<String>>,
        timeout: Duration,
    ) -> Result<Session, HarnessError> {
        let transport = Stdio::start(launch)?;
        Ok(Session::over(Box::new(transport), roots, timeout))
    }

    /// Starts the server with `{port}` in its command (and in `url`) a free
    /// loopback port, waits until it listens, and returns its client over
    /// Streamable HTTP, not yet initialized.
    ///
    /// # Errors
    ///
    /// [`HarnessError::Usage`] when `url` is not a loopback `http` URL;
    /// [`HarnessError::Start`] when the server cannot start or never listens.
    pub fn start_http(
        launch: &Launch,
        url: &str,
        roots: Option<Vec<String>>,
        timeout: Duration,
    ) -> Result<Session, HarnessError> {
        let transport = StreamableHttp::start(launch, url, timeout)?;
        Ok(Session::over(Box::new(transport), roots, timeout))
    }

    /// The client of a server already reached over `transport`, not yet initialized.
    pub fn over(
        transport: Box<dyn Transport>,
        roots: Option<Vec<String>>,
        timeout: Duration,
    ) -> Session {
        Session {
            transport,
            next_id: 1,
            timeout,
            roots,
            roots_requests: 0,
            roots_answer: RootsAnswer::Roots,
            late: Vec::new(),
            transcript: Vec::new(),
            stray_lines: Vec::new(),
            choice: EraChoice::Auto,
            dialect: None,
            server: None,
            tally: None,
        }
    }

    /// The server's stderr so far (its tail).
    pub fn stderr(&self) -> String {
        self.transport.stderr()
    }

    /// Replaces the roots the client lists (the session must have declared the capability).
    pub fn set_roots(&mut self, roots: Vec<String>) {
        self.roots = Some(roots);
    }

    /// Which era [`Session::initialize`] speaks (before it is called; the default is [`EraChoice::Auto`]).
    pub fn set_era(&mut self, choice: EraChoice) {
        self.choice = choice;
    }

    /// The era spoken, once [`Session::initialize`] settled it.
    pub fn era(&self) -> Option<Era> {
        self.dialect.map(|d| d.era())
    }

    /// How the session speaks now: its era's dialect, and before the era
    /// is settled the legacy one (`initialize` is a legacy request).
    fn dialect(&self) -> &'static dyn Dialect {
        self.dialect.unwrap_or(&LegacyDialect)
    }

    /// The server as it named itself: `{"serverInfo", "protocolVersion",
    /// "era", "transport"}` (`"stdio"` or `"http"`), once
    /// [`Session::initialize`] settled the era.
    pub fn server(&self) -> Option<Value> {
        let mut server = self.server.clone()?;
        server["transport"] = json!(self.transport.name());
        Some(server)
    }

    /// Settles the era and starts the session. Legacy: `initialize` then
    /// `notifications/initialized`, the `roots` capability (`listChanged:
    /// true`) exactly when the session lists roots. Modern: a
    /// `server/discover` carrying `_meta` (a Python SDK 2.x server fixes its
    /// era by the first message, so the probe must be a modern request).
    /// Auto probes and falls back to `initialize` on any answer that is not
    /// a modern one, or none in time. Returns the `initialize` or
    /// `server/discover` response.
    ///
    /// # Errors
    ///
    /// [`SessionError`] when the server does not answer, answers with an
    /// error, or (era modern) does not speak 2026-07-28.
    pub fn initialize(&mut self) -> Result<Value, SessionError> {
        if self.choice == EraChoice::Legacy {
            return self.initialize_legacy();
        }
        let params = json!({"_meta": self.meta()});
        let answer = self.request_once("server/discover", params);
        let why = match answer {
            Ok(response) => match era::probe(&response) {
                Probe::Modern => {
                    let result = &response["result"];
                    if let Err(detail) = era::result_type(result) {
                        return Err(SessionError::Protocol {
                            detail: format!("server/discover: {detail}"),
                        });
                    }
                    self.dialect = Some(Era::Modern.dialect());
                    self.server = Some(json!({
                        "serverInfo": result["_meta"][era::META_SERVER_INFO],
                        "protocolVersion": era::MODERN_VERSION,
                        "era": Era::Modern.as_str(),
                    }));
                    return Ok(response);
                }
                Probe::ModernElsewhere(versions) => {
                    return Err(SessionError::Protocol {
                        detail: format!(
                        "the server speaks the stateless revision but not {}: it offers {versions}",
                        era::MODERN_VERSION
                    ),
                    })
                }
                Probe::Legacy(why) => why,
            },
            Err(SessionError::Timeout { .. }) => "no answer in time".to_owned(),
            // Over HTTP an answer that is not JSON-RPC (a 400 page of a legacy server) is not a modern one.
            Err(SessionError::Protocol { detail }) if self.transport.garbled_probe_is_legacy() => {
                detail
            }
            Err(e) => return Err(e),
        };
        if self.choice == EraChoice::Modern {
            return Err(SessionError::Protocol {
                detail: format!(
                    "--era modern: server/discover got {why}; the server does not speak {}",
                    era::MODERN_VERSION
                ),
            });
        }
        self.initialize_legacy()
    }

    fn initialize_legacy(&mut self) -> Result<Value, SessionError> {
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
                detail: format!("initialize failed: {}", era::describe_error(error)),
            });
        }
        let result = &response["result"];
        self.dialect = Some(Era::Legacy.dialect());
        self.server = Some(json!({
            "serverInfo": result["serverInfo"],
            "protocolVersion": result["protocolVersion"],
            "era": Era::Legacy.as_str(),
        }));
        self.notify("notifications/initialized", None)?;
        Ok(response)
    }

    /// The capabilities the client declares: `roots` exactly when the session lists roots.
    fn capabilities(&self) -> Value {
        if self.roots.is_some() {
            json!({"roots": {}})
        } else {
            json!({})
        }
    }

    /// The `_meta` of a modern request.
    fn meta(&self) -> Value {
        era::request_meta(self.capabilities())
    }

    /// Sends a notification. A modern session drops the ones the revision
    /// removed (`notifications/initialized`, `notifications/roots/list_changed`):
    /// its roots travel with each request instead.
    ///
    /// # Errors
    ///
    /// [`SessionError::Exited`] when the server's stdin is closed.
    pub fn notify(&mut self, method: &str, params: Option<Value>) -> Result<(), SessionError> {
        if !self.dialect().sends(method) {
            return Ok(());
        }
        let mut message = json!({"jsonrpc": "2.0", "method": method});
        if let Some(params) = params {
            message["params"] = params;
        }
        self.send(&message)
    }

    /// Sends a request and waits for its response (the whole JSON-RPC
    /// object, `result` or `error`), answering the server's own requests
    /// meanwhile. In a modern session the params carry `_meta`. An
    /// `input_required` result is answered and the request retried (with a
    /// new id), at most a few rounds.
    ///
    /// # Errors
    ///
    /// [`SessionError`] on timeout, exit, or a line that is not JSON;
    /// [`SessionError::Protocol`] on a `resultType` the revision does not
    /// define, or a server still asking for input after the last round.
    pub fn request(&mut self, method: &str, params: Value) -> Result<Value, SessionError> {
        let mut params = params;
        if !params.is_object() {
            params = json!({});
        }
        // Revision 2026-07-28 (multi round-trip requests): a server may answer
        // with an `input_required` result naming requests such as roots/list;
        // the client answers them in `inputResponses` and retries.
        for _ in 0..MAX_INPUT_ROUNDS {
            let response = self.round(method, params.clone())?;
            let result = match response.get("result") {
                Some(result) if era::result_type(result) == Ok(ResultType::InputRequired) => result,
                _ => return Ok(response),
            };
            params["inputResponses"] = self.input_responses(result);
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

    /// One round of a request: sent (with `_meta` in a modern session, a
    /// new id each time) and its response returned as it is, an
    /// `input_required` result too; the attacks on multi-round-trip
    /// requests build their own retries with it.
    ///
    /// # Errors
    ///
    /// As [`Session::request`].
    pub fn round(&mut self, method: &str, params: Value) -> Result<Value, SessionError> {
        let params = self.dialect().params(params, self.capabilities());
        let response = self.request_once(method, params)?;
        if let Some(Err(detail)) = response.get("result").map(era::result_type) {
            return Err(SessionError::Protocol {
                detail: format!("{method}: {detail}"),
            });
        }
        Ok(response)
    }

    /// The `inputResponses` answering an `input_required` result's
    /// `inputRequests`, with the roots the session lists now; what this
    /// client does not offer is left out.
    pub fn input_responses(&mut self, result: &Value) -> Value {
        let mut responses = serde_json::Map::new();
        if let Some(requests) = result.get("inputRequests").and_then(Value::as_object) {
            for (key, request) in requests {
                if let Some(answer) = self.input_response(request) {
                    responses.insert(key.clone(), answer);
                }
            }
        }
        Value::Object(responses)
    }

    /// The answer to one of an `input_required` result's requests; `None`
    /// for what this client does not offer (roots without the capability,
    /// sampling, elicitation).
    fn input_response(&mut self, request: &Value) -> Option<Value> {
        match (request.get("method").and_then(Value::as_str), &self.roots) {
            (Some("roots/list"), Some(roots)) => {
                self.roots_requests += 1;
                // A retry cannot carry an error or come late: those answers are left out.
                match self.roots_answer {
                    RootsAnswer::Roots => Some(json!({"roots": listed_roots(roots)})),
                    RootsAnswer::Empty => Some(json!({"roots": []})),
                    _ => None,
                }
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
            self.send_late()?;
            let until = self
                .late
                .iter()
                .map(|(due, _)| *due)
                .fold(deadline, Instant::min);
            let wait = until.saturating_duration_since(Instant::now());
            let line = match self.transport.receive(wait)? {
                Some(line) => line,
                None if Instant::now() >= deadline => return Ok(None),
                None => continue,
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
                self.dialect()
                    .allows_server_request(&method)
                    .map_err(|detail| SessionError::Protocol { detail })?;
                let id = id.clone();
                self.answer(&method, id)?;
            }
            return Ok(Some(message));
        }
    }

    /// Sends the held-back answers that are due.
    fn send_late(&mut self) -> Result<(), SessionError> {
        let now = Instant::now();
        let (due, held): (Vec<_>, Vec<_>) = self.late.drain(..).partition(|(t, _)| *t <= now);
        self.late = held;
        for (_, reply) in due {
            self.send(&reply)?;
        }
        Ok(())
    }

    fn answer(&mut self, method: &str, id: Value) -> Result<(), SessionError> {
        let reply = match (method, &self.roots) {
            ("roots/list", Some(roots)) => {
                self.roots_requests += 1;
                let roots =
                    json!({"jsonrpc": "2.0", "id": id, "result": {"roots": listed_roots(roots)}});
                match self.roots_answer {
                    RootsAnswer::Roots => roots,
                    RootsAnswer::Empty => {
                        json!({"jsonrpc": "2.0", "id": id, "result": {"roots": []}})
                    }
                    RootsAnswer::Error(code) => {
                        json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": "roots unavailable"}})
                    }
                    RootsAnswer::Late(after) => {
                        self.late.push((Instant::now() + after, roots));
                        return Ok(());
                    }
                    RootsAnswer::Never => return Ok(()),
                }
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
        self.transcript.push(Message {
            direction: Direction::ToServer,
            text: message.to_string(),
        });
        self.transport.send(message)
    }

    /// Whether the server has exited (as far as the client has seen).
    pub fn has_exited(&mut self) -> bool {
        self.transport.has_exited()
    }

    /// Closes stdin, gives the server a moment, then kills it.
    pub fn close(mut self) -> Transcript {
        self.transport.close();
        std::mem::take(&mut self.transcript)
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
