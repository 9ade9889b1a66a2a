//! Checker protocol v1: one request per line in, one response per line out.

use std::fmt;
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};

use serde::de::{self, Deserializer, IgnoredAny, Visitor};
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
    /// The tool's path argument, as bytes: a byte that is not UTF-8 comes
    /// as the lone surrogate `\udcXX` (checker-protocol.md, "Paths that are
    /// not UTF-8"), which serde_json reads into no `String`.
    #[serde(deserialize_with = "path_bytes")]
    pub path: Vec<u8>,
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

/// Reads a JSON string as bytes: serde_json hands them over as WTF-8
/// (lone surrogates as `ED A0..BF xx`), and each of U+DC80 to U+DCFF is
/// the byte it stands for; any other lone surrogate names no byte.
fn path_bytes<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<u8>, D::Error> {
    struct Bytes;
    impl Visitor<'_> for Bytes {
        type Value = Vec<u8>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a string")
        }
        fn visit_str<E: de::Error>(self, text: &str) -> Result<Vec<u8>, E> {
            Ok(text.as_bytes().to_vec())
        }
        fn visit_bytes<E: de::Error>(self, wtf8: &[u8]) -> Result<Vec<u8>, E> {
            let mut out = Vec::with_capacity(wtf8.len());
            let mut i = 0;
            while i < wtf8.len() {
                if wtf8[i] == 0xED && i + 2 < wtf8.len() && wtf8[i + 1] >= 0xA0 {
                    let unit = 0xD000 | u32::from(wtf8[i + 1] & 0x3F) << 6 | u32::from(wtf8[i + 2] & 0x3F);
                    if !(0xDC80..=0xDCFF).contains(&unit) {
                        return Err(E::custom(format!("path: the lone surrogate \\u{unit:04x} stands for no byte")));
                    }
                    out.push((unit & 0xFF) as u8);
                    i += 3;
                } else {
                    out.push(wtf8[i]);
                    i += 1;
                }
            }
            Ok(out)
        }
    }
    deserializer.deserialize_bytes(Bytes)
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

/// The request's `id` alone, every other field skipped unread (a path with
/// `\udcXX` in it cannot be a `Value`).
#[derive(Deserialize)]
struct Id {
    id: Option<Value>,
}

fn respond(line: &[u8], check: &impl Fn(&Request) -> Answer) -> (Value, Answer) {
    if let Err(e) = serde_json::from_slice::<IgnoredAny>(line) {
        return (Value::Null, Answer::deny(format!("not a JSON request: {e}")));
    }
    // serde would read a struct from an array too: only an object will do.
    let is_object = line.trim_ascii_start().first() == Some(&b'{');
    let Some(Id { id }) = serde_json::from_slice::<Id>(line).ok().filter(|_| is_object) else {
        return (Value::Null, Answer::deny("request is not a JSON object"));
    };
    let id = id.unwrap_or(Value::Null);
    if !is_integer(&id) {
        return (id, Answer::deny("bad request: id is not an integer"));
    }
    let request: Request = match serde_json::from_slice(line) {
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
