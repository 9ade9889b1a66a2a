//! What carries a session's JSON-RPC: the [`Transport`] trait, and its
//! stdio implementation ([`Stdio`], newline-delimited messages over the
//! child's pipes). The Streamable HTTP one is [`crate::http::StreamableHttp`].
//! The session ([`crate::client::Session`]) speaks over either without
//! knowing which.

use std::time::Duration;

use serde_json::Value;

use crate::process::Process;
use crate::sandbox::Launch;
use crate::wire::SessionError;
use crate::HarnessError;

/// A way to exchange JSON-RPC messages with one running server.
pub trait Transport {
    /// `"stdio"` or `"http"`, as the report names it.
    fn name(&self) -> &'static str;

    /// Sends one message.
    ///
    /// # Errors
    ///
    /// [`SessionError`] when it cannot be delivered: the server gone, no
    /// answer in time, an answer that is not MCP.
    fn send(&mut self, message: &Value) -> Result<(), SessionError>;

    /// The next message from the server as its text, waiting at most
    /// `wait` (a transport with nothing to wait on may return at once);
    /// `None` when none came.
    ///
    /// # Errors
    ///
    /// [`SessionError::Exited`] when the server is gone.
    fn receive(&mut self, wait: Duration) -> Result<Option<String>, SessionError>;

    /// Whether the server has exited (as far as has been seen).
    fn has_exited(&mut self) -> bool;

    /// The server's stderr so far (its tail).
    fn stderr(&self) -> String;

    /// Ends the session: stdin closed, a moment's grace, then the server killed.
    fn close(&mut self);

    /// Whether an answer to the era probe that is not JSON-RPC still
    /// tells a legacy server (over HTTP a legacy server may answer with a
    /// 400 page), rather than a broken one.
    fn garbled_probe_is_legacy(&self) -> bool {
        false
    }
}

/// Newline-delimited JSON-RPC over the server's stdin and stdout.
pub struct Stdio {
    process: Process,
}

impl Stdio {
    /// Starts the server of `launch`.
    ///
    /// # Errors
    ///
    /// [`HarnessError::Start`] when the command cannot start.
    pub fn start(launch: &Launch) -> Result<Stdio, HarnessError> {
        Ok(Stdio {
            process: Process::spawn(launch)?,
        })
    }
}

impl Transport for Stdio {
    fn name(&self) -> &'static str {
        "stdio"
    }

    fn send(&mut self, message: &Value) -> Result<(), SessionError> {
        self.process.write_line(&message.to_string())
    }

    fn receive(&mut self, wait: Duration) -> Result<Option<String>, SessionError> {
        self.process.read_line(wait)
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
}
