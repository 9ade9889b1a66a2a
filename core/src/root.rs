//! One root as the roots hold it: accepted, or rejected with the reason.

use std::fmt;
use std::path::PathBuf;

use crate::resolve::ResolveError;
use crate::root_id::RootId;
use crate::uri::UriError;

/// A root that was accepted: valid, and resolved by the file system.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Root {
    /// Its position in the list the roots were built from, rejected roots
    /// included: [`Root::id`]'s index.
    pub index: usize,
    /// The URI as given.
    pub uri: String,
    /// The path the URI names, normalized but not resolved.
    pub path: PathBuf,
    /// Where that path resolves to (every link followed, as realpath does).
    pub resolved: PathBuf,
}

impl Root {
    /// Which root this is, as [`Verdict::Inside`](crate::Verdict::Inside)
    /// names it.
    pub fn id(&self) -> RootId {
        RootId::new(self.index)
    }
}

/// A root that grants nothing, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RejectedRoot {
    /// Its position in the list the roots were built from.
    pub index: usize,
    /// The URI as given.
    pub uri: String,
    /// Why it grants nothing.
    pub reason: RootError,
}

/// Why a root grants nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootError {
    /// The URI breaks a rule of semantics §1.
    Invalid(UriError),
    /// The URI is valid but its path does not resolve (semantics §1 rule 7).
    Unresolvable(ResolveError),
}

impl fmt::Display for RootError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RootError::Invalid(e) => write!(f, "invalid root URI: {e}"),
            RootError::Unresolvable(e) => write!(f, "root does not resolve: {e}"),
        }
    }
}

impl std::error::Error for RootError {}
