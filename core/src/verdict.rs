//! The answer to "may this operation on this path proceed?".

use std::path::{Path, PathBuf};

use crate::resolve::ResolveError;
use crate::root_id::RootId;

/// The answer to "may this operation on this path proceed?", from
/// [`Roots::check`](crate::Roots::check).
///
/// # Examples
///
/// ```
/// use rootguard::fs::MemFs;
/// use rootguard::{Op, ResolveErrorKind, Roots, Verdict};
/// let mut fs = MemFs::new();
/// fs.add_dir("/b/proj").add_dir("/b/other");
/// let roots = Roots::with_fs(["file:///b/other", "file:///b/proj"], fs);
/// let verdict = roots.check("/b/proj/new.txt", Op::Write);
/// assert_eq!(verdict.root().map(|root| root.index()), Some(1));
/// assert_eq!(verdict.target(), Some(std::path::Path::new("/b/proj/new.txt")));
/// match roots.check("/b/proj/missing/new.txt", Op::Write) {
///     Verdict::Unresolvable(why) => assert_eq!(why.kind, ResolveErrorKind::NotFound),
///     other => panic!("{other:?}"),
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The target is at or beneath a root.
    Inside {
        /// The first root, in the caller's order, that contains the target.
        root: RootId,
        /// The physical target.
        target: PathBuf,
    },
    /// The target resolves, but beneath no root.
    Outside {
        /// The physical target.
        target: PathBuf,
    },
    /// The operation cannot happen at all; deny it.
    Unresolvable(ResolveError),
}

impl Verdict {
    /// Whether the operation may proceed: only when the target is inside.
    pub fn is_inside(&self) -> bool {
        matches!(self, Verdict::Inside { .. })
    }

    /// The root that contains the target, when it is inside.
    pub fn root(&self) -> Option<RootId> {
        match self {
            Verdict::Inside { root, .. } => Some(*root),
            Verdict::Outside { .. } | Verdict::Unresolvable(_) => None,
        }
    }

    /// The physical target, when the path resolved.
    pub fn target(&self) -> Option<&Path> {
        match self {
            Verdict::Inside { target, .. } | Verdict::Outside { target } => Some(target),
            Verdict::Unresolvable(_) => None,
        }
    }
}
