//! Race-free use of a verdict: open the target beneath the root that
//! contains it, so that no link swapped in after the check can lead out.
//!
//! [`Roots::check`] answers for the tree as it was while it looked; a plain
//! `open` afterwards resolves the path again, against the tree as it is
//! then. [`Roots::open`] closes that gap: it checks, then opens the path
//! relative to a descriptor of the root's directory with `openat2(2)` and
//! `RESOLVE_BENEATH` (or the [`Backend::Walk`] fallback), so the kernel
//! itself refuses every step that would leave the root. See `docs/race.md`.

mod backend;
mod beneath_roots;
mod error;
mod handle;
mod pinned;
mod spellings;
mod split;

use std::ffi::OsStr;
use std::fs::File;

pub use self::backend::{Backend, BACKEND_ENV};
pub use self::error::OpenError;
pub use self::pinned::PinnedRoots;

use self::beneath_roots::open_beneath_roots;
use self::handle::Handles;
use crate::op::Op;
use crate::realfs::RealFs;
use crate::roots::Roots;
use crate::verdict::Verdict;

impl Roots<RealFs> {
    /// Checks `op` on `path`, then opens the target beneath the root that
    /// contains it, so that a link swapped in after the check cannot lead
    /// outside. On success the verdict is always [`Verdict::Inside`], and
    /// the file is the verdict's target unless the tree changed between the
    /// check and the open (then it is still beneath the same root).
    ///
    /// **How.** The path must begin with the root's location, spelled as
    /// its URI path or its resolved path (`/home/u/proj/src/a.rs` for the
    /// root `file:///home/u/proj`); the rest (`src/a.rs`) is opened
    /// relative to a descriptor of the root's directory with `openat2(2)`,
    /// `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS`, or by the component walk
    /// where `openat2` is unavailable ([`Backend`]). `RESOLVE_BENEATH`
    /// refuses a step out rather than reinterpreting it, so the file opened
    /// is always the one the plain kernel would open, or none. (The root
    /// `/` uses `RESOLVE_IN_ROOT`, which for `/` is exactly the ordinary
    /// resolution.)
    ///
    /// A read opens `O_RDONLY`. A write opens `O_WRONLY | O_CREAT |
    /// O_NOFOLLOW`, mode `0o666` less the umask, neither truncating nor
    /// appending: it writes the file the path names or creates it, but
    /// never through a final symlink. A root that is a single file is
    /// opened by its path and must still be that file; it is never created.
    ///
    /// **Stricter than [`Roots::check`].** It never opens what the check
    /// calls outside, but it refuses a few things the check calls inside:
    ///
    /// | the path | check | open |
    /// |---|---|---|
    /// | an absolute symlink beneath the root, even one that lands inside | inside | [`OpenError::Escape`] |
    /// | a `..` above the root that comes back (`root/../root/a`, a link to `../root/a`) | inside | [`OpenError::Escape`] |
    /// | spelled under one root, led by a link into another root | inside | [`OpenError::Escape`] |
    /// | a write whose last component is a symlink (even a dangling one into the root) | inside | [`OpenError::FinalSymlink`] |
    /// | reaches the root only by a link or `..` outside it (`/b/alias/a`, `alias -> root`) | inside | [`OpenError::NotUnderRootPath`] |
    /// | a write to a root that is a single file which has since disappeared | inside | [`OpenError::RootChanged`] |
    /// | a procfs magic link (`/proc/self/fd/N`), under a root holding `/proc` | inside | [`OpenError::Unresolvable`] (`ELOOP`) |
    ///
    /// # Errors
    ///
    /// [`OpenError::Outside`] and [`OpenError::Unresolvable`] where the
    /// check says so; the refusals above; [`OpenError::RootChanged`] when
    /// the root's path no longer leads to a link-free directory or to the
    /// same file; [`OpenError::Io`] for anything else.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::io::Read;
    /// use rootguard::{Op, Roots};
    /// use rootguard::open::OpenError;
    /// let dir = tempfile::tempdir().unwrap();
    /// let base = dir.path().canonicalize().unwrap();
    /// std::fs::create_dir_all(base.join("proj/src")).unwrap();
    /// std::fs::write(base.join("proj/src/a.rs"), "fn main() {}").unwrap();
    /// std::fs::write(base.join("secret"), "no").unwrap();
    /// std::os::unix::fs::symlink("../secret", base.join("proj/leak")).unwrap();
    /// let roots = Roots::new([format!("file://{}/proj", base.display())]);
    ///
    /// let (mut file, verdict) = roots.open(base.join("proj/src/a.rs"), Op::Read).unwrap();
    /// let mut text = String::new();
    /// file.read_to_string(&mut text).unwrap();
    /// assert_eq!(text, "fn main() {}");
    /// assert_eq!(verdict.target(), Some(base.join("proj/src/a.rs").as_path()));
    ///
    /// let refused = roots.open(base.join("proj/leak"), Op::Read).unwrap_err();
    /// assert!(matches!(refused, OpenError::Outside { .. }));
    /// ```
    pub fn open(&self, path: impl AsRef<OsStr>, op: Op) -> Result<(File, Verdict), OpenError> {
        self.open_with(path, op, Backend::Auto)
    }

    /// [`Roots::open`] with a chosen [`Backend`].
    ///
    /// # Errors
    ///
    /// As for [`Roots::open`]; [`OpenError::Openat2Unavailable`] for
    /// [`Backend::Openat2`] where the kernel refuses it.
    pub fn open_with(
        &self,
        path: impl AsRef<OsStr>,
        op: Op,
        backend: Backend,
    ) -> Result<(File, Verdict), OpenError> {
        let handles = Handles::new(self.accepted.len());
        open_beneath_roots(self, &handles, backend, path.as_ref(), op)
    }

    /// Pins the roots: each root's directory is opened once, on first use,
    /// and every later [`PinnedRoots::open`] resolves beneath it. What a
    /// server wants; see [`PinnedRoots`].
    pub fn pin(self) -> PinnedRoots {
        PinnedRoots::new(self)
    }
}
