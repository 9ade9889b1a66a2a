//! The session modes: with the `roots` capability or without it.

/// Whether the client declares the `roots` capability.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Declares `roots` (`listChanged: true`) and answers `roots/list`.
    Roots,
    /// No `roots` capability: `roots/list` gets -32601, and the server must
    /// honour the directories on its command line.
    NoRoots,
}

impl Mode {
    /// `"roots"` or `"no-roots"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Roots => "roots",
            Mode::NoRoots => "no-roots",
        }
    }
}
