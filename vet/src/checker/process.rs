//! The checker as a child process: started in a temp working dir, asked
//! one request at a time with a timeout, and restarted after a hang, a
//! crash or a protocol error.

use std::ffi::OsString;
use std::fmt;
use std::io::{self, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use super::lines::{read_lines_apart, LineEvent};
use super::response::parse_response;
use super::stderr::StderrTail;
use super::{Checker, Reply, Request, MAX_LINE};
use crate::HarnessError;

/// Extra time the first request after a (re)start gets: starting an
/// interpreter on a busy machine is not a hang.
pub const STARTUP_GRACE: Duration = Duration::from_secs(3);

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
    stderr: StderrTail,
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
        let parent =
            rootguard_judge::clean_temp_parent().map_err(|e| HarnessError::Io(e.to_string()))?;
        let workdir = tempfile::Builder::new()
            .prefix(crate::TEMP_PREFIX)
            .tempdir_in(parent)
            .map_err(|e| {
                HarnessError::Io(format!("cannot create the checker's working dir: {e}"))
            })?;
        // The child runs in a temp dir, so relative paths in the command are made absolute here.
        let command = command
            .into_iter()
            .enumerate()
            .map(|(i, arg)| absolute_if_relative_file(arg, i == 0))
            .collect();
        let mut checker = ProcessChecker {
            command,
            timeout,
            running: None,
            stderr: StderrTail::default(),
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
        // Each start its own tail: a defect shows the stderr of the
        // process that gave its answer, never an earlier crashed one's.
        self.stderr = StderrTail::default();
        self.stderr.keep_from(stderr);
        self.running = Some(Running {
            fresh: true,
            child,
            stdin,
            lines: read_lines_apart(stdout),
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
        self.stderr.text()
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

/// `arg` made absolute when it names an existing file or directory by a
/// relative path, as `python3 checker.py` means the `checker.py` here. The
/// program itself only when it holds a `/` (`./checker`): a bare name is
/// looked up in `PATH`, as a shell does.
fn absolute_if_relative_file(arg: OsString, program: bool) -> OsString {
    let path = std::path::Path::new(&arg);
    let spelled_as_path = !program || arg.as_encoded_bytes().contains(&b'/');
    if path.is_relative() && spelled_as_path && path.exists() {
        if let Ok(dir) = std::env::current_dir() {
            return dir.join(path).into_os_string();
        }
    }
    arg
}

#[cfg(test)]
mod tests {
    use super::absolute_if_relative_file;
    use std::ffi::OsString;

    #[test]
    fn relative_files_become_absolute_and_bare_programs_stay_bare() {
        let here = std::env::current_dir().expect("a working directory");
        // Cargo runs unit tests in the package's directory, which holds Cargo.toml.
        let manifest = OsString::from("Cargo.toml");
        assert_eq!(
            absolute_if_relative_file(manifest.clone(), false),
            here.join("Cargo.toml").into_os_string()
        );
        assert_eq!(
            absolute_if_relative_file(OsString::from("./Cargo.toml"), true),
            here.join("./Cargo.toml").into_os_string()
        );
        assert_eq!(absolute_if_relative_file(manifest.clone(), true), manifest);
        let missing = OsString::from("no-such-file.py");
        assert_eq!(absolute_if_relative_file(missing.clone(), false), missing);
        let flag = OsString::from("--strict");
        assert_eq!(absolute_if_relative_file(flag.clone(), false), flag);
    }
}
