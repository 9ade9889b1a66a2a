//! Checker protocol v1: one request per line in, one response per line out.

use std::fmt;
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What the tool is about to do with the path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Op {
    /// Open for reading, or list a directory.
    Read,
    /// Open for writing, creating the file if it is missing.
    Write,
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Op::Read => "read",
            Op::Write => "write",
        })
    }
}

/// One query, as the harness sends it.
#[derive(Debug, Deserialize)]
pub struct Request {
    /// Echoed back in the response.
    pub id: Value,
    /// Root URIs exactly as a client sent them; entries need not be strings.
    pub roots: Vec<Value>,
    /// The tool's path argument.
    pub path: String,
    /// The operation.
    pub op: Op,
}

/// A checker's verdict on one request.
#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    /// Whether the operation may proceed.
    pub allowed: bool,
    /// Shown in reports.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The path the caller will operate on instead of the request's, if any.
    #[serde(rename = "use", skip_serializing_if = "Option::is_none")]
    pub use_path: Option<String>,
}

impl Answer {
    /// The operation may proceed.
    pub fn allow(reason: impl Into<String>) -> Self {
        Answer { allowed: true, reason: Some(reason.into()), use_path: None }
    }

    /// The operation may not proceed.
    pub fn deny(reason: impl Into<String>) -> Self {
        Answer { allowed: false, reason: Some(reason.into()), use_path: None }
    }
}

#[derive(Serialize)]
struct Response<'a> {
    id: &'a Value,
    #[serde(flatten)]
    answer: &'a Answer,
}

/// Answers requests from stdin with `check` until stdin closes.
///
/// A request that cannot be understood, and a `check` that panics, get a
/// denial with a reason: the process never dies of its input.
pub fn serve(check: impl Fn(&Request) -> Answer) {
    let mut input = io::stdin().lock();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let (id, answer) = respond(&line, &check);
        let response = Response { id: &id, answer: &answer };
        let sent = serde_json::to_writer(&mut out, &response).is_ok()
            && out.write_all(b"\n").is_ok()
            && out.flush().is_ok();
        if !sent {
            break; // the reader is gone
        }
    }
}

fn respond(line: &[u8], check: &impl Fn(&Request) -> Answer) -> (Value, Answer) {
    let value: Value = match serde_json::from_slice(line) {
        Ok(value) => value,
        Err(e) => return (Value::Null, Answer::deny(format!("not a JSON request: {e}"))),
    };
    let Some(object) = value.as_object() else {
        return (Value::Null, Answer::deny("request is not a JSON object"));
    };
    let id = object.get("id").cloned().unwrap_or(Value::Null);
    if !is_integer(&id) {
        return (id, Answer::deny("bad request: id is not an integer"));
    }
    let request: Request = match serde_json::from_value(value) {
        Ok(request) => request,
        Err(e) => return (id, Answer::deny(format!("bad request: {e}"))),
    };
    let answer = panic::catch_unwind(AssertUnwindSafe(|| check(&request)))
        .unwrap_or_else(|_| Answer::deny("internal error: the checker panicked"));
    (id, answer)
}

fn is_integer(id: &Value) -> bool {
    // With arbitrary_precision the number keeps its text, however long.
    let Value::Number(n) = id else { return false };
    let text = n.to_string();
    let digits = text.strip_prefix('-').unwrap_or(&text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}
