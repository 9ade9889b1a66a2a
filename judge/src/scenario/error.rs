//! Why a scenario document was refused.

use std::fmt;

use super::PathBytes;

/// A scenario document that cannot be used, and why.
#[derive(Debug)]
pub enum ScenarioError {
    /// The text is not JSON of the scenario format (serde's message says
    /// where; unknown fields are refused here too).
    Json(serde_json::Error),
    /// `version` is not 1.
    UnsupportedVersion {
        /// The version found.
        found: u64,
    },
    /// A scenario of a Windows or macOS document has a tree: those
    /// flavours are modelled, and nothing is materialized.
    FlavouredTree {
        /// The scenario's name.
        scenario: String,
        /// The document's flavour.
        flavour: crate::flavour::Flavour,
    },
    /// Two scenarios share a name.
    DuplicateName {
        /// The shared name.
        name: String,
        /// Index of the first scenario with that name.
        first: usize,
        /// Index of the second.
        second: usize,
    },
    /// A tree entry breaks a rule.
    Entry {
        /// The scenario's name.
        scenario: String,
        /// The entry's index in `tree`.
        index: usize,
        /// The entry's path as written.
        path: PathBytes,
        /// The rule it breaks.
        error: EntryError,
    },
    /// A case breaks a rule.
    Case {
        /// The scenario's name.
        scenario: String,
        /// The case's index in `cases`.
        index: usize,
        /// The rule it breaks.
        error: CaseError,
    },
}

/// The rule of the tree that an entry breaks (scenario-format.md, `tree`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryError {
    /// The path is empty.
    EmptyPath,
    /// The path starts with `/`; tree paths are relative to the base.
    AbsolutePath,
    /// The path has an empty segment (`a//b`, or a trailing `/`).
    EmptySegment,
    /// The path has a `.` or `..` segment.
    DotSegment {
        /// The segment: `.` or `..`.
        segment: String,
    },
    /// The path holds a NUL byte, which no file name can.
    NulInPath,
    /// A segment is longer than 255 bytes, which no Linux file name can be.
    NameTooLong {
        /// Its length in bytes.
        len: usize,
    },
    /// The entry lies beneath an entry that is a symlink, so creating it
    /// would go through the link.
    BeneathSymlink {
        /// Index of the symlink entry.
        symlink: usize,
    },
    /// Another entry has the same path (whatever the kinds).
    Duplicate {
        /// Index of the earlier entry.
        first: usize,
    },
    /// The entry lies beneath an entry that is a file.
    FileAsParent {
        /// Index of the file entry.
        file: usize,
    },
    /// A symlink target is empty, which Linux cannot store.
    EmptyTarget,
    /// A symlink target holds a NUL byte, which Linux cannot store.
    NulInTarget,
}

/// The rule that a case breaks (scenario-format.md, `cases`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaseError {
    /// The path is not absolute once `{base}` is substituted.
    NotAbsolute {
        /// The path as written.
        path: PathBytes,
    },
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::Json(e) => write!(
                f,
                "not a scenario document: {e}; write {{\"version\": 1, \"scenarios\": [...]}} with only the fields scenario-format.md names"
            ),
            ScenarioError::UnsupportedVersion { found } => write!(
                f,
                "version {found} is not supported; this reader knows only version 1 of the scenario format"
            ),
            ScenarioError::DuplicateName { name, first, second } => write!(
                f,
                "scenarios {first} and {second} are both named {name:?}; give each scenario a unique name"
            ),
            ScenarioError::FlavouredTree { scenario, flavour } => write!(
                f,
                "scenario {scenario:?} has a tree, but the document's flavor is {flavour}, which is modelled and never materialized; leave its tree empty"
            ),
            ScenarioError::Entry { scenario, index, path, error } => {
                write!(f, "scenario {scenario:?}, tree entry {index} ({path:?}): {error}")
            }
            ScenarioError::Case { scenario, index, error } => {
                write!(f, "scenario {scenario:?}, case {index}: {error}")
            }
        }
    }
}

impl fmt::Display for EntryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EntryError::EmptyPath => f.write_str("the path is empty; name the entry by its path relative to the base"),
            EntryError::AbsolutePath => f.write_str(
                "the path is absolute; tree paths are relative to the base, so drop the leading `/`",
            ),
            EntryError::EmptySegment => f.write_str(
                "the path has an empty segment (`//` or a trailing `/`); separate names by a single `/`",
            ),
            EntryError::DotSegment { segment } => write!(
                f,
                "the path has a `{segment}` segment; write the plain path from the base (use a symlink target for `..`)"
            ),
            EntryError::NulInPath => f.write_str("the path holds a NUL byte, which no file name can; remove it"),
            EntryError::NameTooLong { len } => write!(
                f,
                "a name is {len} bytes long, over Linux's 255; put long names in case paths, not in the tree"
            ),
            EntryError::BeneathSymlink { symlink } => write!(
                f,
                "the entry lies beneath tree entry {symlink}, a symlink, and would be created through it; move it or make that entry a dir"
            ),
            EntryError::Duplicate { first } => write!(
                f,
                "tree entry {first} has the same path; give each entry its own path (a path is a dir, a file or a symlink, not two)"
            ),
            EntryError::FileAsParent { file } => write!(
                f,
                "the entry lies beneath tree entry {file}, a file; make that entry a dir or move this one"
            ),
            EntryError::EmptyTarget => f.write_str(
                "the symlink target is empty, which Linux cannot store; give a target (it may dangle)",
            ),
            EntryError::NulInTarget => f.write_str(
                "the symlink target holds a NUL byte, which Linux cannot store; remove it",
            ),
        }
    }
}

impl fmt::Display for CaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CaseError::NotAbsolute { path } => write!(
                f,
                "path {path:?} is not absolute once {{base}} is substituted; start it with `{{base}}/` or `/`"
            ),
        }
    }
}

impl std::error::Error for ScenarioError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ScenarioError::Json(e) => Some(e),
            _ => None,
        }
    }
}

impl std::error::Error for EntryError {}
impl std::error::Error for CaseError {}
