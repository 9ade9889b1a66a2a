//! The kinds of defect `rootguard mcp` observes: each one a class of the
//! shared vocabulary and the channel it was seen through.

use rootguard_triage::{Channel, Class};

/// What kind of defect a finding shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// An outside file's canary came back in a result.
    ReadEscape,
    /// A file appeared, changed or vanished outside the roots.
    WriteEscape,
    /// A root URI that grants nothing (docs/semantics.md §1) granted access.
    RootEscape,
    /// Metadata of an outside target was returned.
    InfoEscape,
    /// After the roots changed, an old root still granted access.
    StaleRoot,
    /// A root was not honoured (a baseline read failed, or a new root did not work).
    RootNotHonoured,
    /// A `requestState` reads as structure and a tampered copy was taken
    /// (a warning, as an overblock is: the spec's MUST, not an escape).
    StateUnsealed,
    /// No response within the timeout.
    Hang,
    /// The server exited.
    Crash,
    /// Output that breaks JSON-RPC over stdio.
    ProtocolError,
}

impl Kind {
    /// Every kind, in report order.
    pub const ALL: [Kind; 10] = [
        Kind::ReadEscape,
        Kind::WriteEscape,
        Kind::RootEscape,
        Kind::InfoEscape,
        Kind::StaleRoot,
        Kind::RootNotHonoured,
        Kind::StateUnsealed,
        Kind::Hang,
        Kind::Crash,
        Kind::ProtocolError,
    ];

    /// The kind's name in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::ReadEscape => "read-escape",
            Kind::WriteEscape => "write-escape",
            Kind::RootEscape => "root-escape",
            Kind::InfoEscape => "info-escape",
            Kind::StaleRoot => "stale-root",
            Kind::RootNotHonoured => "root-not-honoured",
            Kind::StateUnsealed => "state-unsealed",
            Kind::Hang => "hang",
            Kind::Crash => "crash",
            Kind::ProtocolError => "protocol-error",
        }
    }

    /// Its class in the shared vocabulary (`rootguard_triage::Class`).
    pub fn class(self) -> Class {
        match self {
            Kind::ReadEscape | Kind::WriteEscape | Kind::InfoEscape => Class::PathEscape,
            Kind::RootEscape => Class::RootEscape,
            Kind::StaleRoot => Class::StaleRoot,
            Kind::RootNotHonoured | Kind::StateUnsealed => Class::Overblock,
            Kind::Hang => Class::Hang,
            Kind::Crash => Class::Crash,
            Kind::ProtocolError => Class::ProtocolError,
        }
    }

    /// How it was seen: a canary read back, a change on disk, metadata, or
    /// the session itself. With [`Kind::class`] it names the kind again.
    pub fn channel(self) -> Channel {
        match self {
            Kind::WriteEscape => Channel::Write,
            Kind::InfoEscape => Channel::Info,
            Kind::Hang | Kind::Crash | Kind::ProtocolError | Kind::StateUnsealed => {
                Channel::Session
            }
            Kind::ReadEscape | Kind::RootEscape | Kind::StaleRoot | Kind::RootNotHonoured => {
                Channel::Read
            }
        }
    }

    /// Whether it is an escape (a security defect).
    pub fn is_escape(self) -> bool {
        matches!(
            self,
            Kind::ReadEscape
                | Kind::WriteEscape
                | Kind::RootEscape
                | Kind::InfoEscape
                | Kind::StaleRoot
        )
    }

    /// Whether it fails the run: everything but a root not honoured and
    /// an unsealed state (warnings, counted as overblocks), unless `strict`.
    pub fn fails(self, strict: bool) -> bool {
        self.class().fails(strict)
    }

    /// What it means, in one line.
    pub fn describe(self) -> &'static str {
        match self {
            Kind::ReadEscape => "a tool returned the contents or names of files outside every root",
            Kind::WriteEscape => "a tool created, changed or removed something outside every root",
            Kind::RootEscape => {
                "a root URI that must grant nothing (docs/semantics.md section 1) granted access"
            }
            Kind::InfoEscape => "a tool returned metadata of a target outside every root",
            Kind::StaleRoot => "after roots/list_changed an old root still granted access",
            Kind::RootNotHonoured => {
                "a root the client listed (or the command line gave) was refused"
            }
            Kind::StateUnsealed => {
                "a requestState decoded to readable structure and a tampered copy was taken"
            }
            Kind::Hang => "no response within the timeout",
            Kind::Crash => "the server exited",
            Kind::ProtocolError => "output that breaks JSON-RPC over stdio",
        }
    }
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_a_class_and_channel_of_its_own() {
        let pairs: std::collections::BTreeSet<(Class, Channel)> =
            Kind::ALL.iter().map(|k| (k.class(), k.channel())).collect();
        assert_eq!(pairs.len(), Kind::ALL.len());
        for kind in Kind::ALL {
            assert_eq!(kind.is_escape(), kind.class().is_escape(), "{kind}");
        }
    }
}
