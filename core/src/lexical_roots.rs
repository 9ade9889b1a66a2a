//! Roots checked by text alone, for trees known to hold no links.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::index::RootIndex;
use crate::normal::{normalize_into, LexicalError};
use crate::root::{RejectedRoot, RootError};
use crate::root_id::RootId;
use crate::uri::RootUri;

/// Roots checked by text alone: no file-system access at all.
///
/// **Only sound for trees that hold no symlinks.** The path and the roots
/// are normalized lexically (`..` clamped at `/`) and compared by whole
/// components; a link anywhere in the tree can lead the real operation
/// somewhere else. Use [`Roots`](crate::Roots) unless you know the tree.
///
/// # Examples
///
/// ```
/// use rootguard::lexical::LexicalRoots;
/// let roots = LexicalRoots::new(["file:///x/proj"]);
/// let id = roots.inside("/x/proj/a/../b").unwrap().unwrap();
/// assert_eq!(id.index(), 0);
/// assert_eq!(roots.get(id), Some(std::path::Path::new("/x/proj")));
/// assert_eq!(roots.inside("/x/proj2/a"), Ok(None));
/// assert_eq!(roots.inside("/x/proj/../proj2"), Ok(None));
/// ```
#[derive(Clone, Debug)]
pub struct LexicalRoots {
    accepted: Vec<(usize, PathBuf)>,
    rejected: Vec<RejectedRoot>,
    index: RootIndex,
}

impl LexicalRoots {
    /// Parses `uris`; invalid ones are kept aside with their reason.
    pub fn new<I, S>(uris: I) -> LexicalRoots
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut accepted = Vec::new();
        let mut rejected = Vec::new();
        for (index, uri) in uris.into_iter().enumerate() {
            match RootUri::parse(uri.as_ref()) {
                Ok(parsed) => accepted.push((index, parsed.into_path())),
                Err(e) => rejected.push(RejectedRoot {
                    index,
                    uri: uri.as_ref().to_string(),
                    reason: RootError::Invalid(e),
                }),
            }
        }
        let index = RootIndex::new(
            accepted
                .iter()
                .map(|(i, p)| (p.as_os_str().as_bytes().to_vec(), RootId::new(*i)))
                .collect(),
        );
        LexicalRoots {
            accepted,
            rejected,
            index,
        }
    }

    /// The valid roots as (index in the list given, normal path).
    pub fn accepted(&self) -> &[(usize, PathBuf)] {
        &self.accepted
    }

    /// The invalid roots, with the reason for each.
    pub fn rejected(&self) -> &[RejectedRoot] {
        &self.rejected
    }

    /// The normal path of the valid root `id` names, as
    /// [`LexicalRoots::inside`] gives it; `None` for a root that was
    /// rejected (or an id from other roots, beyond this list).
    pub fn get(&self, id: RootId) -> Option<&Path> {
        let at = self
            .accepted
            .binary_search_by_key(&id.index(), |&(index, _)| index)
            .ok()?;
        Some(&self.accepted[at].1)
    }

    /// The first root (in the caller's order) that lexically contains
    /// `path`, or `None`. Allocates only when `path` is not already normal.
    ///
    /// # Errors
    ///
    /// A [`LexicalError`] for a relative path or one with a NUL byte.
    #[inline(always)]
    pub fn inside(&self, path: impl AsRef<OsStr>) -> Result<Option<RootId>, LexicalError> {
        let bytes = path.as_ref().as_bytes();
        match self.index.find_if_normal(bytes) {
            Some(found) => Ok(found),
            None => self.check_abnormal(bytes),
        }
    }

    /// [`LexicalRoots::inside`] for a path that must be normalized first.
    #[cold]
    #[inline(never)]
    fn check_abnormal(&self, bytes: &[u8]) -> Result<Option<RootId>, LexicalError> {
        let mut out = Vec::with_capacity(bytes.len());
        normalize_into(bytes, &mut out)?;
        Ok(self.index.find(&out))
    }
}
