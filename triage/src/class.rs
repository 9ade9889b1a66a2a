//! The classes of defect, and how a finding was observed.

use std::fmt;

/// What kind of defect a finding shows: the one vocabulary of `rootguard
/// vet` (a checker's verdicts) and `rootguard mcp` (a live server's tools).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// An outside target was allowed (or reached) with nothing hostile but the path.
    PathEscape,
    /// An outside target was allowed because of a hostile or malformed root.
    RootEscape,
    /// After the roots changed, an old root still granted access.
    StaleRoot,
    /// An inside target was denied (or a root was not honoured).
    Overblock,
    /// No response within the timeout.
    Hang,
    /// Exited before answering.
    Crash,
    /// A response that breaks the protocol.
    ProtocolError,
}

impl Class {
    /// Every class, in report order.
    pub const ALL: [Class; 7] = [
        Class::PathEscape,
        Class::RootEscape,
        Class::StaleRoot,
        Class::Overblock,
        Class::Hang,
        Class::Crash,
        Class::ProtocolError,
    ];

    /// The class's name in reports, e.g. `path-escape`.
    ///
    /// # Examples
    ///
    /// ```
    /// use rootguard_triage::Class;
    /// assert_eq!(Class::PathEscape.as_str(), "path-escape");
    /// assert_eq!(Class::from_name("root-escape"), Some(Class::RootEscape));
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Class::PathEscape => "path-escape",
            Class::RootEscape => "root-escape",
            Class::StaleRoot => "stale-root",
            Class::Overblock => "overblock",
            Class::Hang => "hang",
            Class::Crash => "crash",
            Class::ProtocolError => "protocol-error",
        }
    }

    /// The class named `name` (as [`Class::as_str`] writes it).
    pub fn from_name(name: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.as_str() == name)
    }

    /// Whether the class is an escape (a security defect).
    pub fn is_escape(self) -> bool {
        matches!(
            self,
            Class::PathEscape | Class::RootEscape | Class::StaleRoot
        )
    }

    /// Whether a defect of this class fails the run (`strict`: overblocks too).
    pub fn fails(self, strict: bool) -> bool {
        self != Class::Overblock || strict
    }

    /// Rank for "most severe first": escapes, then a checker that stops
    /// working, then overblocks.
    pub fn severity_rank(self) -> u8 {
        match self {
            Class::PathEscape => 0,
            Class::RootEscape => 1,
            Class::StaleRoot => 2,
            Class::Crash => 3,
            Class::Hang => 4,
            Class::ProtocolError => 5,
            Class::Overblock => 6,
        }
    }

    /// What it means, in one line.
    pub fn describe(self) -> &'static str {
        match self {
            Class::PathEscape => "allowed a path whose target is outside every root",
            Class::RootEscape => {
                "allowed an outside target because of a hostile or malformed root URI"
            }
            Class::StaleRoot => "after the roots changed, an old root still granted access",
            Class::Overblock => "denied a target inside a root",
            Class::Hang => "no response within the timeout",
            Class::Crash => "exited before answering",
            Class::ProtocolError => "a response that breaks the protocol",
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a finding was observed: a checker's verdict (`rootguard vet`), or
/// what a live server's tool did (`rootguard mcp`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Channel {
    /// A checker answered `allowed` (or denied) for a request.
    Verdict,
    /// A tool returned the contents or names of files (a canary came back).
    Read,
    /// A tool created, changed or removed something on disk.
    Write,
    /// A tool returned metadata of a target.
    Info,
    /// The session itself: a hang, an exit, or noise on stdout.
    Session,
}

impl Channel {
    /// The channel's name in reports, e.g. `read`.
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Verdict => "verdict",
            Channel::Read => "read",
            Channel::Write => "write",
            Channel::Info => "info",
            Channel::Session => "session",
        }
    }
}

impl fmt::Display for Channel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
