//! The tail of what a checker writes to stderr, kept for reports by a
//! thread that drains the pipe, so a chatty checker never blocks on it.

use std::collections::VecDeque;
use std::io::Read;
use std::sync::{Arc, Mutex};
use std::thread;

/// How much of the checker's stderr is kept for reports (the last bytes).
pub const STDERR_KEEP: usize = 16 * 1024;

/// The last [`STDERR_KEEP`] bytes of stderr of one start of the child.
#[derive(Debug, Default)]
pub(super) struct StderrTail(Arc<Mutex<VecDeque<u8>>>);

impl StderrTail {
    /// Starts the thread that drains `stderr` into this tail.
    pub(super) fn keep_from(&self, stderr: impl Read + Send + 'static) {
        let keep = Arc::clone(&self.0);
        thread::spawn(move || drain_stderr(stderr, &keep));
    }

    /// What is kept, as text.
    pub(super) fn text(&self) -> String {
        let kept = self
            .0
            .lock()
            .map(|b| b.iter().copied().collect::<Vec<u8>>())
            .unwrap_or_default();
        String::from_utf8_lossy(&kept).into_owned()
    }
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
