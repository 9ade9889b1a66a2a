//! Roots whose directories are held open for the life of a server.

use std::ffi::OsStr;
use std::fs::File;

use super::handle::Handles;
use super::{open_beneath_roots, Backend, OpenError};
use crate::op::Op;
use crate::roots::{Roots, Verdict};

/// [`Roots`] with each root's directory opened once, on first use, and
/// kept: every later [`PinnedRoots::open`] resolves beneath that very
/// directory, even if the root's path is later moved or replaced.
///
/// [`Roots::open`] opens the root afresh on every call; pin the roots when
/// one set serves many calls. `PinnedRoots` is `Send + Sync`.
///
/// # Examples
///
/// ```
/// use std::io::Write;
/// use rootguard::{Op, Roots};
/// let dir = tempfile::tempdir().unwrap();
/// let base = dir.path().canonicalize().unwrap();
/// let roots = Roots::new([format!("file://{}", base.display())]).pin();
/// let (mut file, _) = roots.open(base.join("notes.txt"), Op::Write).unwrap();
/// file.write_all(b"hello").unwrap();
/// assert_eq!(std::fs::read(base.join("notes.txt")).unwrap(), b"hello");
/// ```
#[derive(Debug)]
pub struct PinnedRoots {
    roots: Roots,
    handles: Handles,
    backend: Backend,
}

impl PinnedRoots {
    /// Pins `roots`; nothing is opened until a root is first needed.
    pub fn new(roots: Roots) -> PinnedRoots {
        let handles = Handles::new(roots.accepted.len());
        PinnedRoots {
            roots,
            handles,
            backend: Backend::Auto,
        }
    }

    /// Resolves with `backend` instead of [`Backend::Auto`].
    #[must_use]
    pub fn with_backend(mut self, backend: Backend) -> PinnedRoots {
        self.backend = backend;
        self
    }

    /// The roots, to [`Roots::check`] or list.
    pub fn roots(&self) -> &Roots {
        &self.roots
    }

    /// Gives the roots back, closing the pinned directories.
    pub fn into_roots(self) -> Roots {
        self.roots
    }

    /// [`Roots::open`], beneath the pinned directories.
    ///
    /// # Errors
    ///
    /// As for [`Roots::open`]; [`OpenError::RootChanged`] when a root that
    /// is a single file no longer leads to the file pinned.
    pub fn open(&self, path: impl AsRef<OsStr>, op: Op) -> Result<(File, Verdict), OpenError> {
        open_beneath_roots(&self.roots, &self.handles, self.backend, path.as_ref(), op)
    }
}
