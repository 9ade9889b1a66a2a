//! The operation a tool is about to perform.

use std::fmt;
use std::str::FromStr;

/// What the caller is about to do with a path (semantics §2).
///
/// The operation decides what the path *reaches*: a `Read` follows every
/// link, while a `Write` (`open(O_WRONLY | O_CREAT)`) also follows a final
/// link that dangles, because the kernel creates the file where it points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// Open for reading, or list a directory.
    Read,
    /// Open for writing, creating the file if it does not exist.
    Write,
}

impl Op {
    /// The protocol's spelling: `"read"` or `"write"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Read => "read",
            Op::Write => "write",
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error from parsing an [`Op`] that is neither `read` nor `write`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseOpError(pub String);

impl fmt::Display for ParseOpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown operation {:?}: use \"read\" or \"write\"",
            self.0
        )
    }
}

impl std::error::Error for ParseOpError {}

impl FromStr for Op {
    type Err = ParseOpError;

    /// ```
    /// use rootguard::Op;
    /// assert_eq!("write".parse::<Op>(), Ok(Op::Write));
    /// assert!("delete".parse::<Op>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "read" => Ok(Op::Read),
            "write" => Ok(Op::Write),
            other => Err(ParseOpError(other.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Op;

    #[test]
    fn spelled_as_the_protocol_spells_it() {
        assert_eq!(Op::Read.as_str(), "read");
        assert_eq!(Op::Write.as_str(), "write");
        assert_eq!(Op::Write.to_string(), "write");
    }
}
