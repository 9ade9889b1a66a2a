//! Which root: a root's place in the list the roots were built from.

use std::fmt;

/// Which root an answer names: the root's position in the list of URIs the
/// roots were built from, rejected roots included.
///
/// Not a position in [`Roots::accepted`](crate::Roots::accepted): a
/// rejected root before it shifts that list, never this one. Look the root
/// up with [`Roots::get`](crate::Roots::get), or compare
/// [`RootId::index`] with the caller's own list.
///
/// # Examples
///
/// ```
/// use rootguard::{Op, Roots};
/// let dir = tempfile::tempdir().unwrap();
/// let base = dir.path().canonicalize().unwrap();
/// let uris = ["file://server/share".to_string(), format!("file://{}", base.display())];
/// let roots = Roots::new(&uris);
/// let id = roots.inside(base.join("notes.txt"), Op::Write).unwrap();
/// assert_eq!(id.index(), 1, "the second URI given");
/// assert_eq!(roots.get(id).unwrap().uri, uris[1]);
/// assert_eq!(roots.accepted().len(), 1, "the first was rejected");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RootId(usize);

impl RootId {
    /// The root at `index` in the caller's list.
    pub(crate) const fn new(index: usize) -> RootId {
        RootId(index)
    }

    /// The root's position in the list of URIs the roots were built from,
    /// counting from 0 and counting rejected roots.
    pub const fn index(self) -> usize {
        self.0
    }
}

impl fmt::Display for RootId {
    /// The index alone: `3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// The earlier of two roots in the caller's order, if any.
#[inline(always)]
pub(crate) fn earliest(a: Option<RootId>, b: Option<RootId>) -> Option<RootId> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}
