//! The answer of a judge (the model oracle or the kernel) for one query.

use std::fmt;
use std::path::PathBuf;

use crate::Expect;

/// The truth of one query (semantics.md section 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Truth {
    /// The target is at or beneath the resolved location of a valid root.
    Inside,
    /// The target resolves and is beneath no valid root.
    Outside,
    /// The operation cannot happen, so no answer harms.
    Either,
}

/// What a judge found for one query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judgement {
    /// The verdict.
    pub truth: Truth,
    /// The location the operation would touch: `Some` exactly when the
    /// truth is [`Truth::Inside`] or [`Truth::Outside`].
    pub target: Option<PathBuf>,
    /// Index into the roots of the first root containing the target:
    /// `Some` exactly when the truth is [`Truth::Inside`].
    pub root: Option<usize>,
    /// How the judge got there, for a person reading a report.
    pub explanation: String,
}

impl Truth {
    /// The label a scenario would carry for this truth.
    pub fn to_expect(self) -> Expect {
        match self {
            Truth::Inside => Expect::Inside,
            Truth::Outside => Expect::Outside,
            Truth::Either => Expect::Either,
        }
    }
}

impl From<Truth> for Expect {
    fn from(truth: Truth) -> Expect {
        truth.to_expect()
    }
}

impl From<Expect> for Truth {
    fn from(expect: Expect) -> Truth {
        match expect {
            Expect::Inside => Truth::Inside,
            Expect::Outside => Truth::Outside,
            Expect::Either => Truth::Either,
        }
    }
}

impl PartialEq<Expect> for Truth {
    fn eq(&self, other: &Expect) -> bool {
        self.to_expect() == *other
    }
}

impl fmt::Display for Truth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_expect().fmt(f)
    }
}

impl fmt::Display for Judgement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.truth, self.explanation)
    }
}
