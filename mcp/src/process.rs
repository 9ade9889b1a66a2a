//! The server as a process: started with piped stdin, stdout and
//! stderr, stdout read line by line on a thread, the tail of stderr kept,
//! killed when dropped. Both transports run their server this way.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::sandbox::Launch;
use crate::wire::SessionError;
use crate::HarnessError;

/// What the stdout thread read.
enum Incoming {
    Line(String),
    Eof,
}

/// A running server process.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    incoming: Receiver<Incoming>,
    stderr: Arc<Mutex<String>>,
    exited: bool,
}

impl Process {
    /// Starts `launch` with its three streams piped.
    ///
    /// # Errors
    ///
    /// [`HarnessError::Start`] when the command cannot start.
    pub fn spawn(launch: &Launch) -> Result<Process, HarnessError> {
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
        Ok(Process {
            child,
            stdin,
            incoming,
            stderr,
            exited: false,
        })
    }

    /// Its stderr so far (the tail).
    pub fn stderr(&self) -> String {
        self.stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The server gone: noted, and the error that says so.
    pub fn gone(&mut self) -> SessionError {
        self.exited = true;
        SessionError::Exited {
            stderr: self.stderr(),
        }
    }

    /// Writes `text` and a newline to its stdin.
    ///
    /// # Errors
    ///
    /// [`SessionError::Exited`] when stdin is closed or the write fails.
    pub fn write_line(&mut self, text: &str) -> Result<(), SessionError> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(SessionError::Exited {
                stderr: self.stderr(),
            });
        };
        let written = stdin
            .write_all(text.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        written.map_err(|_| self.gone())
    }

    /// The next line of its stdout within `wait`: `None` when none came.
    ///
    /// # Errors
    ///
    /// [`SessionError::Exited`] when stdout has ended.
    pub fn read_line(&mut self, wait: Duration) -> Result<Option<String>, SessionError> {
        match self.incoming.recv_timeout(wait) {
            Ok(Incoming::Line(line)) => Ok(Some(line)),
            Ok(Incoming::Eof) | Err(RecvTimeoutError::Disconnected) => Err(self.gone()),
            Err(RecvTimeoutError::Timeout) => Ok(None),
        }
    }

    /// Reads and drops what stdout holds now (a log), noting its end.
    pub fn drain(&mut self) {
        while let Ok(line) = self.incoming.try_recv() {
            if matches!(line, Incoming::Eof) {
                self.exited = true;
            }
        }
    }

    /// Whether it has exited (as far as has been seen).
    pub fn has_exited(&mut self) -> bool {
        self.exited || matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// Closes stdin, gives it a moment, then kills it.
    pub fn shutdown(&mut self) {
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

impl Drop for Process {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
