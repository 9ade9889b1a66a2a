//! What came back for a request: an answer, or the defect instead of one.

use super::Answer;

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
