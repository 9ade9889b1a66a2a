//! Checker protocol v1, the harness side: one persistent child, JSON Lines
//! over its stdin and stdout (`docs/checker-protocol.md` in the repository).
//!
//! [`Request`] goes out, a [`Reply`] comes back: an [`Answer`], or the
//! defect that stood in for one. [`Checker`] is anything that answers;
//! [`ProcessChecker`] runs a command as the child and restarts it after
//! a defect.

mod answer;
mod lines;
mod process;
mod reply;
mod request;
mod response;
mod stderr;

pub use answer::Answer;
pub use lines::MAX_LINE;
pub use process::{ProcessChecker, STARTUP_GRACE};
pub use reply::Reply;
pub use request::Request;
pub use stderr::STDERR_KEEP;

use crate::HarnessError;

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
