//! Streamable HTTP on loopback (transports/streamable-http.mdx): each
//! JSON-RPC message its own POST, the answer one JSON object or an SSE
//! stream of messages; the headers each era requires; `Mcp-Session-Id`
//! where the legacy era uses it. Only loopback addresses are contacted.
//! [`StreamableHttp`] is the [`Transport`] over it.

use std::collections::VecDeque;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::era;
use crate::process::Process;
use crate::sandbox::Launch;
use crate::transport::Transport;
use crate::wire::{tail, SessionError};
use crate::HarnessError;

/// The placeholder in the server command (and the URL) for the port rootguard picks.
pub use crate::shape::PORT_PLACEHOLDER;

/// Why a POST gave no messages.
#[derive(Debug)]
pub enum PostError {
    /// No answer within the timeout.
    Timeout,
    /// Nothing listens (the server is gone).
    Refused(String),
    /// An answer that is not MCP over HTTP: the status and what came.
    Protocol(String),
}

/// A client of one server endpoint.
pub struct Http {
    agent: ureq::Agent,
    url: String,
    address: SocketAddr,
    /// The legacy era's session, from the `initialize` answer.
    session_id: Option<String>,
}

/// `url` checked to name a loopback address (`127.0.0.0/8`, `::1`, or
/// `localhost`, taken as 127.0.0.1) over plain `http`, `{port}` allowed.
///
/// # Errors
///
/// A message naming what is wrong and what to give instead.
pub fn loopback_address(url: &str, port: u16) -> Result<(String, SocketAddr), String> {
    let text = url.replace(PORT_PLACEHOLDER, &port.to_string());
    let parsed = url::Url::parse(&text).map_err(|e| {
        format!("--http {url:?} is not a URL ({e}); give one like http://127.0.0.1:{{port}}/mcp")
    })?;
    if parsed.scheme() != "http" {
        return Err(format!(
            "--http {url:?}: only plain http on loopback is spoken, not {}",
            parsed.scheme()
        ));
    }
    let ip = match parsed.host() {
        Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip),
        Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip),
        Some(url::Host::Domain(d)) if d.eq_ignore_ascii_case("localhost") => {
            IpAddr::V4(Ipv4Addr::LOCALHOST)
        }
        _ => {
            return Err(format!(
                "--http {url:?}: rootguard contacts loopback addresses only; use 127.0.0.1, [::1] or localhost"
            ))
        }
    };
    if !ip.is_loopback() {
        return Err(format!(
            "--http {url:?}: {ip} is not a loopback address; rootguard contacts loopback addresses only"
        ));
    }
    let port = parsed
        .port_or_known_default()
        .ok_or_else(|| format!("--http {url:?} names no port"))?;
    let mut parsed = parsed;
    // The checked address is the one contacted: no name is looked up.
    let _ = parsed.set_ip_host(ip);
    Ok((parsed.to_string(), SocketAddr::new(ip, port)))
}

/// A loopback port free now (the server is told to listen on it).
///
/// # Errors
///
/// When no socket can be bound on 127.0.0.1.
pub fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?
        .local_addr()?
        .port())
}

impl Http {
    /// A client of `url` (checked by [`loopback_address`]) at `address`.
    pub fn new(url: String, address: SocketAddr, timeout: Duration) -> Http {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .proxy(None)
            .max_redirects(0)
            .timeout_global(Some(timeout))
            .build()
            .into();
        Http {
            agent,
            url,
            address,
            session_id: None,
        }
    }

    /// Whether something accepts connections at the address now.
    pub fn listening(&self) -> bool {
        TcpStream::connect_timeout(&self.address, Duration::from_millis(200)).is_ok()
    }

    /// Waits until the server listens, `alive` saying whether it still runs.
    pub fn wait_listening(&self, deadline: Instant, mut alive: impl FnMut() -> bool) -> bool {
        while Instant::now() < deadline {
            if self.listening() {
                return true;
            }
            if !alive() {
                return false;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }

    /// POSTs one message with the headers of its era, returning the
    /// messages of the answer (none for an accepted notification or response).
    ///
    /// # Errors
    ///
    /// [`PostError`] on timeout, refusal, or an answer that is neither
    /// JSON-RPC nor an SSE stream of it.
    pub fn post(&mut self, message: &Value) -> Result<Vec<String>, PostError> {
        let method = message.get("method").and_then(Value::as_str);
        let params = message.get("params");
        let modern = params
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get(era::META_PROTOCOL_VERSION))
            .is_some();
        let mut request = self
            .agent
            .post(&self.url)
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json");
        if modern {
            request = request.header("MCP-Protocol-Version", era::MODERN_VERSION);
            if let Some(method) = method {
                request = request.header("Mcp-Method", method);
                let name = params
                    .and_then(|p| p.get("name").or_else(|| p.get("uri")))
                    .and_then(Value::as_str);
                if let Some(name) = name.filter(|n| n.bytes().all(|b| b.is_ascii_graphic())) {
                    request = request.header("Mcp-Name", name);
                }
            }
        } else if method != Some("initialize") {
            request = request.header("MCP-Protocol-Version", era::LEGACY_VERSION);
        }
        if let (false, Some(id)) = (modern, &self.session_id) {
            request = request.header("Mcp-Session-Id", id);
        }
        let mut response = request.send(message.to_string()).map_err(|e| match e {
            ureq::Error::Timeout(_) => PostError::Timeout,
            ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
                PostError::Refused(e.to_string())
            }
            other => PostError::Protocol(other.to_string()),
        })?;
        if method == Some("initialize") {
            self.session_id = response
                .headers()
                .get("mcp-session-id")
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
        }
        let status = response.status().as_u16();
        let kind = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_ascii_lowercase();
        let body = response.body_mut().read_to_string().map_err(|e| match e {
            ureq::Error::Timeout(_) => PostError::Timeout,
            other => PostError::Protocol(format!(
                "HTTP {status}: the body could not be read: {other}"
            )),
        })?;
        if kind.starts_with("text/event-stream") {
            return Ok(sse_messages(&body));
        }
        let body = body.trim();
        if body.is_empty() && (200..300).contains(&status) {
            return Ok(Vec::new());
        }
        // A JSON-RPC answer, an error on a 400 or 404 too (-32020, -32022, -32601).
        if serde_json::from_str::<Value>(body).is_ok_and(|v| v.is_object()) {
            return Ok(vec![body.to_owned()]);
        }
        Err(PostError::Protocol(format!(
            "HTTP {status} ({kind}) answered with {}",
            tail(body, 200)
        )))
    }
}

/// JSON-RPC over Streamable HTTP to a server of its own: each message a
/// POST, the messages of the answers kept until received. The server's
/// stdout is its log, read and dropped; its end is the server's exit.
pub struct StreamableHttp {
    process: Process,
    link: Http,
    /// Messages of answers not yet received.
    inbox: VecDeque<String>,
}

impl StreamableHttp {
    /// Starts the server with `{port}` in its command (and in `url`) a
    /// free loopback port, in the host's network, and waits until it listens.
    ///
    /// # Errors
    ///
    /// [`HarnessError::Usage`] when `url` is not a loopback `http` URL;
    /// [`HarnessError::Start`] when the server cannot start or never listens.
    pub fn start(
        launch: &Launch,
        url: &str,
        timeout: Duration,
    ) -> Result<StreamableHttp, HarnessError> {
        let port = free_port().map_err(|e| HarnessError::Start {
            command: launch.describe(),
            reason: format!("no free loopback port: {e}"),
        })?;
        let (url, address) = loopback_address(url, port).map_err(HarnessError::Usage)?;
        let mut launch = launch.clone();
        launch.host_network = true;
        for arg in &mut launch.argv {
            *arg = arg.replace(PORT_PLACEHOLDER, &port.to_string());
        }
        let mut process = Process::spawn(&launch)?;
        let link = Http::new(url.clone(), address, timeout);
        let deadline = Instant::now() + timeout;
        if !link.wait_listening(deadline, || !process.has_exited()) {
            return Err(HarnessError::Start {
                command: launch.describe(),
                reason: format!(
                    "nothing listened at {url} within {timeout:?}; its stderr ends: {}",
                    tail(&process.stderr(), 300)
                ),
            });
        }
        Ok(StreamableHttp {
            process,
            link,
            inbox: VecDeque::new(),
        })
    }
}

impl Transport for StreamableHttp {
    fn name(&self) -> &'static str {
        "http"
    }

    fn send(&mut self, message: &Value) -> Result<(), SessionError> {
        let method = message["method"]
            .as_str()
            .unwrap_or("a response")
            .to_owned();
        match self.link.post(message) {
            Ok(messages) => {
                self.inbox.extend(messages);
                Ok(())
            }
            Err(PostError::Timeout) => Err(SessionError::Timeout { method }),
            Err(PostError::Refused(_)) => Err(self.process.gone()),
            Err(PostError::Protocol(detail)) => Err(SessionError::Protocol {
                detail: format!("{method}: {detail}"),
            }),
        }
    }

    /// The next message of the answers so far, at once: every answer
    /// came with its POST.
    fn receive(&mut self, _wait: Duration) -> Result<Option<String>, SessionError> {
        self.process.drain();
        Ok(self.inbox.pop_front())
    }

    fn has_exited(&mut self) -> bool {
        self.process.has_exited()
    }

    fn stderr(&self) -> String {
        self.process.stderr()
    }

    fn close(&mut self) {
        self.process.shutdown();
    }

    fn garbled_probe_is_legacy(&self) -> bool {
        true
    }
}

/// The `data` of each event of an SSE stream, its lines joined.
fn sse_messages(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut data: Vec<&str> = Vec::new();
    for line in body.lines().chain(std::iter::once("")) {
        if line.is_empty() {
            if !data.is_empty() {
                out.push(data.join("\n"));
                data.clear();
            }
        } else if let Some(rest) = line.strip_prefix("data:") {
            data.push(rest.strip_prefix(' ').unwrap_or(rest));
        }
    }
    out.retain(|d| !d.trim().is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_is_contacted() {
        let (url, address) = loopback_address("http://127.0.0.1:{port}/mcp", 8123).expect("ok");
        assert_eq!(url, "http://127.0.0.1:8123/mcp");
        assert_eq!(address.port(), 8123);
        let (url, _) = loopback_address("http://localhost:{port}/", 9).expect("ok");
        assert_eq!(url, "http://127.0.0.1:9/");
        assert!(loopback_address("http://[::1]:80/mcp", 1).is_ok());
        for bad in [
            "http://10.0.0.1:{port}/mcp",
            "http://example.com/mcp",
            "https://127.0.0.1/mcp",
            "not a url",
        ] {
            assert!(loopback_address(bad, 1).is_err(), "{bad}");
        }
    }

    #[test]
    fn sse_events_are_split() {
        let body = "event: message\ndata: {\"a\":1}\n\n: comment\ndata: {\"b\":\ndata: 2}\n\n";
        assert_eq!(sse_messages(body), ["{\"a\":1}", "{\"b\":\n2}"]);
    }
}
