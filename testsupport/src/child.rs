//! Child processes a test starts, never left running, and hang guards
//! that are only that.

use std::io::Read;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// A child process that is killed and reaped when dropped, so a test that
/// panics (an assertion, an `unwrap`) leaves nothing running: a checker,
/// a server, a browser.
///
/// # Examples
///
/// ```
/// use std::process::Command;
/// use std::time::Duration;
/// use rootguard_testsupport::Spawned;
///
/// let out = Spawned::start(Command::new("echo").arg("hi"))
///     .unwrap()
///     .output_within(Duration::from_secs(60), "echo");
/// assert_eq!(out.stdout, b"hi\n");
/// ```
#[derive(Debug)]
pub struct Spawned {
    child: Option<Child>,
}

impl Spawned {
    /// Spawns `command` with stdout and stderr piped.
    ///
    /// # Errors
    ///
    /// When the program cannot be started.
    pub fn start(command: &mut Command) -> std::io::Result<Spawned> {
        let child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        Ok(Spawned { child: Some(child) })
    }

    /// Wraps a child spawned by hand (its pipes as the caller set them).
    pub fn from_child(child: Child) -> Spawned {
        Spawned { child: Some(child) }
    }

    /// The child's pid.
    pub fn id(&self) -> u32 {
        self.child().id()
    }

    /// The child itself: its pipes, `try_wait`.
    pub fn child(&self) -> &Child {
        self.child.as_ref().expect("a live child")
    }

    /// The child itself, mutably.
    pub fn child_mut(&mut self) -> &mut Child {
        self.child.as_mut().expect("a live child")
    }

    /// Waits for the child to exit, at most `limit`.
    ///
    /// # Panics
    ///
    /// When `limit` passes first (the child is killed): `limit` is a hang
    /// guard, never a measurement.
    pub fn wait_within(&mut self, limit: Duration, what: &str) -> ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child_mut().try_wait().expect("try_wait") {
                return status;
            }
            if start.elapsed() > limit {
                self.kill();
                panic!("hang guard: {what} still ran after {limit:?}, and was killed");
            }
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Everything the child wrote, once it exits; its pipes are read as
    /// it writes, so a child with much to say never blocks on a full pipe.
    ///
    /// # Panics
    ///
    /// When `limit` passes first, as [`Spawned::wait_within`].
    pub fn output_within(mut self, limit: Duration, what: &str) -> Output {
        let child = self.child_mut();
        let stdout = drain(child.stdout.take());
        let stderr = drain(child.stderr.take());
        let status = self.wait_within(limit, what);
        Output {
            status,
            stdout: stdout.join().expect("stdout reader"),
            stderr: stderr.join().expect("stderr reader"),
        }
    }

    fn kill(&mut self) {
        if let Some(child) = self.child.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for Spawned {
    fn drop(&mut self) {
        self.kill();
    }
}

fn drain(pipe: Option<impl Read + Send + 'static>) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        bytes
    })
}

/// Runs `f` and returns what it returns, or panics if it has not returned
/// within `limit`: a hang guard, set at least five times what `f` is
/// expected to take, never a measurement. (The thread running `f` is left
/// to the process's end.)
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use rootguard_testsupport::within;
///
/// assert_eq!(within(Duration::from_secs(60), "an addition", || 1 + 1), 2);
/// ```
pub fn within<T: Send + 'static>(
    limit: Duration,
    what: &str,
    f: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (sent, got) = mpsc::channel();
    let worker = thread::spawn(move || {
        let _ = sent.send(f());
    });
    match got.recv_timeout(limit) {
        Ok(value) => value,
        // `f` panicked: its panic, not a hang.
        Err(mpsc::RecvTimeoutError::Disconnected) => match worker.join() {
            Err(panic) => std::panic::resume_unwind(panic),
            Ok(()) => unreachable!("f returned without sending"),
        },
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("hang guard: {what} did not finish within {limit:?}")
        }
    }
}
