//! Checker protocol v1, the harness side: one persistent child, JSON Lines
//! over its stdin and stdout (`shared/spec/checker-protocol.md`).

use std::collections::VecDeque;
use std::ffi::OsString;
use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use rootguard_proptests::Op;

use crate::HarnessError;

/// The longest response line accepted; a longer one is a protocol error,
/// read and discarded without being held in memory.
pub const MAX_LINE: usize = 1 << 20;
/// How much of the checker's stderr is kept for reports (the last bytes).
pub const STDERR_KEEP: usize = 16 * 1024;
/// Extra time the first request after a (re)start gets: starting an
/// interpreter on a busy machine is not a hang.
pub const STARTUP_GRACE: Duration = Duration::from_secs(3);

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

/// A checker's verdict on one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// `true`: the operation may proceed.
    pub allowed: bool,
    /// With `allowed`: the path the caller will actually operate on, where
    /// the checker rewrites it.
    pub use_path: Option<String>,
}

impl Answer {
    /// An answer that allows the path as it is.
    pub fn allow() -> Answer {
        Answer {
            allowed: true,
            use_path: None,
        }
    }
    /// An answer that denies.
    pub fn deny() -> Answer {
        Answer {
            allowed: false,
            use_path: None,
        }
    }
    /// An answer that allows, operating on `path` instead.
    pub fn allow_as(path: impl Into<String>) -> Answer {
        Answer {
            allowed: true,
            use_path: Some(path.into()),
        }
    }
}

/// What came back for one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// A well-formed response.
    Answer(Answer),
    /// No response within the timeout (the checker was killed).
    Hang,
    /// The checker exited or closed its stdout before answering.
    Crash(String),
    /// A response that breaks the protocol, and why.
    ProtocolError(String),
}

/// Something that answers requests: a child process or, for the Rust
/// testkit, a closure.
pub trait Checker {
    /// Asks one request.
    ///
    /// # Errors
    ///
    /// [`HarnessError`] when the checker cannot be (re)started at all.
    fn ask(&mut self, request: &Request) -> Result<Reply, HarnessError>;

    /// The last part of what the checker wrote to stderr, for reports.
    fn stderr_tail(&self) -> String {
        String::new()
    }
}

enum LineEvent {
    Line(Vec<u8>),
    TooLong(usize),
    Eof,
    Failed(String),
}

struct Running {
    /// No request has been answered by this child yet.
    fresh: bool,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<LineEvent>,
}

/// A checker command run as one persistent child process, restarted after a
/// hang, a crash or a protocol error.
pub struct ProcessChecker {
    command: Vec<OsString>,
    timeout: Duration,
    running: Option<Running>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    workdir: tempfile::TempDir,
    starts: u64,
}

impl fmt::Debug for ProcessChecker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProcessChecker")
            .field("command", &self.command)
            .field("timeout", &self.timeout)
            .field("starts", &self.starts)
            .finish()
    }
}

impl ProcessChecker {
    /// Starts `command` (program and arguments) in a fresh temp working dir.
    ///
    /// # Errors
    ///
    /// [`HarnessError::CannotStart`] when the command is empty or cannot be
    /// spawned; [`HarnessError::Io`] when no temp dir can be made.
    pub fn start(
        command: Vec<OsString>,
        timeout: Duration,
    ) -> Result<ProcessChecker, HarnessError> {
        if command.is_empty() {
            return Err(HarnessError::CannotStart {
                command: String::new(),
                reason: "no checker command was given; put it after `--`".to_owned(),
            });
        }
        let parent = rootguard_proptests::clean_temp_parent()
            .map_err(|e| HarnessError::Io(e.to_string()))?;
        let workdir = tempfile::Builder::new()
            .prefix(crate::TEMP_PREFIX)
            .tempdir_in(parent)
            .map_err(|e| {
                HarnessError::Io(format!("cannot create the checker's working dir: {e}"))
            })?;
        // The child runs in a temp dir, so relative paths in the command are made absolute here.
        let command = command.into_iter().map(absolute_if_relative_file).collect();
        let mut checker = ProcessChecker {
            command,
            timeout,
            running: None,
            stderr: Arc::new(Mutex::new(VecDeque::new())),
            workdir,
            starts: 0,
        };
        checker.spawn()?;
        Ok(checker)
    }

    /// How many times the child was started (1 + restarts).
    pub fn starts(&self) -> u64 {
        self.starts
    }

    fn command_text(&self) -> String {
        self.command
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn spawn(&mut self) -> Result<(), HarnessError> {
        let mut child = Command::new(&self.command[0])
            .args(&self.command[1..])
            .current_dir(self.workdir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| HarnessError::CannotStart {
                command: self.command_text(),
                reason: if e.kind() == io::ErrorKind::NotFound {
                    format!("{e}: is the program installed and on PATH?")
                } else {
                    e.to_string()
                },
            })?;
        self.starts += 1;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(HarnessError::Io(
                "the checker's pipes were not set up".to_owned(),
            ));
        };
        let keep = Arc::clone(&self.stderr);
        thread::spawn(move || drain_stderr(stderr, &keep));
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || read_lines(stdout, &tx));
        self.running = Some(Running {
            fresh: true,
            child,
            stdin,
            lines: rx,
        });
        Ok(())
    }

    fn stop(&mut self) {
        if let Some(mut running) = self.running.take() {
            let _ = running.child.kill();
            let _ = running.child.wait();
        }
    }

    fn exit_status(&mut self) -> String {
        let Some(running) = self.running.as_mut() else {
            return "not running".to_owned();
        };
        // Give an exiting child a moment to be reaped, so the report can say how it ended.
        for _ in 0..20 {
            if let Ok(Some(status)) = running.child.try_wait() {
                return format!("exited ({status})");
            }
            thread::sleep(Duration::from_millis(5));
        }
        "closed its stdout".to_owned()
    }
}

impl Checker for ProcessChecker {
    fn ask(&mut self, request: &Request) -> Result<Reply, HarnessError> {
        if self.running.is_none() {
            self.spawn()?;
        }
        let Some(running) = self.running.as_mut() else {
            return Err(HarnessError::Io("the checker is not running".to_owned()));
        };
        let mut line = request.to_json();
        line.push('\n');
        if running
            .stdin
            .write_all(line.as_bytes())
            .and_then(|()| running.stdin.flush())
            .is_err()
        {
            let how = self.exit_status();
            self.stop();
            return Ok(Reply::Crash(format!(
                "the checker {how} before reading the request"
            )));
        }
        let timeout = if running.fresh {
            self.timeout + STARTUP_GRACE
        } else {
            self.timeout
        };
        running.fresh = false;
        let event = running.lines.recv_timeout(timeout);
        let reply = match event {
            Ok(LineEvent::Line(bytes)) => match parse_response(&bytes, request.id) {
                Ok(answer) => return Ok(Reply::Answer(answer)),
                Err(why) => Reply::ProtocolError(why),
            },
            Ok(LineEvent::TooLong(len)) => Reply::ProtocolError(format!(
                "a response line of {len} bytes or more, over the limit of {MAX_LINE}"
            )),
            Ok(LineEvent::Failed(why)) => Reply::Crash(format!("reading its stdout failed: {why}")),
            Ok(LineEvent::Eof) | Err(RecvTimeoutError::Disconnected) => Reply::Crash(format!(
                "the checker {} before answering",
                self.exit_status()
            )),
            Err(RecvTimeoutError::Timeout) => Reply::Hang,
        };
        // After any defect the stream cannot be trusted to be in step: start afresh.
        self.stop();
        Ok(reply)
    }

    fn stderr_tail(&self) -> String {
        let kept = self
            .stderr
            .lock()
            .map(|b| b.iter().copied().collect::<Vec<u8>>())
            .unwrap_or_default();
        String::from_utf8_lossy(&kept).into_owned()
    }
}

impl Drop for ProcessChecker {
    fn drop(&mut self) {
        if let Some(mut running) = self.running.take() {
            drop(running.stdin);
            // A checker exits when stdin closes; one that does not is killed.
            for _ in 0..20 {
                if let Ok(Some(_)) = running.child.try_wait() {
                    return;
                }
                thread::sleep(Duration::from_millis(5));
            }
            let _ = running.child.kill();
            let _ = running.child.wait();
        }
    }
}

fn absolute_if_relative_file(arg: OsString) -> OsString {
    let path = std::path::Path::new(&arg);
    if path.is_relative() && arg.as_encoded_bytes().contains(&b'/') && path.exists() {
        if let Ok(dir) = std::env::current_dir() {
            return dir.join(path).into_os_string();
        }
    }
    arg
}

fn drain_stderr(mut stderr: impl Read, keep: &Mutex<VecDeque<u8>>) {
    let mut buf = [0u8; 8192];
    while let Ok(n) = stderr.read(&mut buf) {
        if n == 0 {
            break;
        }
        if let Ok(mut kept) = keep.lock() {
            kept.extend(&buf[..n]);
            let excess = kept.len().saturating_sub(STDERR_KEEP);
            kept.drain(..excess);
        }
    }
}

fn read_lines(stdout: impl Read, tx: &mpsc::Sender<LineEvent>) {
    let mut reader = BufReader::with_capacity(64 * 1024, stdout);
    let mut line = Vec::new();
    let mut discarded = 0usize;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = tx.send(LineEvent::Failed(e.to_string()));
                return;
            }
        };
        if buf.is_empty() {
            let _ = tx.send(LineEvent::Eof);
            return;
        }
        let (chunk, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if discarded > 0 || line.len() + chunk.len() > MAX_LINE {
            discarded += line.len() + chunk.len();
            line.clear();
        } else {
            line.extend_from_slice(chunk);
        }
        let used = end.unwrap_or(buf.len());
        reader.consume(used);
        if end.is_some() {
            let event = if discarded > 0 {
                LineEvent::TooLong(std::mem::take(&mut discarded))
            } else {
                LineEvent::Line(std::mem::take(&mut line))
            };
            if tx.send(event).is_err() {
                return;
            }
        }
    }
}

/// Parses one response line for request `id`.
fn parse_response(bytes: &[u8], id: u64) -> Result<Answer, String> {
    let shown = || {
        let text = String::from_utf8_lossy(bytes);
        let mut short: String = text.chars().take(120).collect();
        if short.len() < text.len() {
            short.push('…');
        }
        short
    };
    let value: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| format!("not JSON ({e}): {:?}", shown()))?;
    let object = value
        .as_object()
        .ok_or_else(|| format!("not a JSON object: {:?}", shown()))?;
    match object.get("id") {
        Some(got) if got.as_u64() == Some(id) => {}
        Some(got) => return Err(format!("answered id {got}, expected {id}")),
        None => return Err(format!("no \"id\" in the response: {:?}", shown())),
    }
    let allowed = match object.get("allowed") {
        Some(serde_json::Value::Bool(b)) => *b,
        Some(other) => return Err(format!("\"allowed\" is {other}, not a boolean")),
        None => return Err(format!("no \"allowed\" in the response: {:?}", shown())),
    };
    let use_path = if allowed {
        object
            .get("use")
            .and_then(|u| u.as_str())
            .map(str::to_owned)
    } else {
        None
    };
    Ok(Answer { allowed, use_path })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses() {
        assert_eq!(
            parse_response(br#"{"id":3,"allowed":true}"#, 3),
            Ok(Answer::allow())
        );
        assert_eq!(
            parse_response(br#"{"id":3,"allowed":true,"use":"/x"}"#, 3),
            Ok(Answer::allow_as("/x"))
        );
        assert!(parse_response(br#"{"id":4,"allowed":true}"#, 3).is_err());
        assert!(parse_response(br#"{"id":3,"allowed":"yes"}"#, 3).is_err());
        assert!(parse_response(br#"[1]"#, 3).is_err());
        assert!(parse_response(b"hello", 3).is_err());
    }
}
