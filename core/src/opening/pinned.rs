//! Roots whose directories are held open for the life of a server, and
//! the checks that answer beneath them.

use std::ffi::OsStr;
use std::fs::File;
use std::os::fd::AsFd;
use std::os::unix::ffi::OsStrExt;

use super::backend::Backend;
use super::beneath_roots::open_beneath_roots;
use super::error::OpenError;
use super::handle::{Handles, RootHandle};
use super::spellings::Spellings;
use crate::beneath::Landing;
use crate::limits::PATH_MAX;
use crate::op::Op;
use crate::root_id::RootId;
use crate::roots::Roots;
use crate::verdict::Verdict;

/// [`Roots`] with each root's directory opened once, on first use, and
/// kept: every later [`PinnedRoots::open`] resolves beneath that very
/// directory, even if the root's path is later moved or replaced.
///
/// [`Roots::open`] opens the root afresh on every call; pin the roots when
/// one set serves many calls. `PinnedRoots` is `Send + Sync`.
///
/// [`PinnedRoots::inside`] and [`PinnedRoots::check`] answer from the
/// pinned directories too: the rest of a path spelled beneath a root is
/// opened beneath the root's directory in one system call, the least a
/// kernel-faithful answer can cost (about a fifth of [`Roots::inside`]'s
/// time on a deep linked path; `benches/README.md` has the figures).
///
/// # When a pinned root moves
///
/// While every root's directory is where it was pinned, `inside`, `check`
/// and `open` give exactly the answers of [`Roots`]. A [`Roots`] answers
/// for what a path names now; pinned roots have chosen the directory they
/// opened. So once a root's directory is renamed (and perhaps something
/// else put at its path):
///
/// - a path that the pinned directory vouches for (see
///   [`PinnedRoots::inside`]) is judged beneath that directory:
///   `root/file` is inside the root while the moved directory holds
///   `file`, and [`PinnedRoots::check`] names its new location;
/// - every other path gets [`Roots::check`], which follows the path to
///   what is at the root's location now, or to nothing;
/// - [`PinnedRoots::open`] checks the path as [`Roots::check`] does, then
///   opens beneath the pinned directory: it refuses where the path now
///   leads out or to nothing, and otherwise opens beneath the directory
///   pinned. It never opens what `inside` refuses.
///
/// Never open by path what a pinned check accepted: after a move the path
/// names another file than the one judged. Open through
/// [`PinnedRoots::open`], or rebuild the roots when a move is legitimate.
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
    spellings: Spellings,
}

impl PinnedRoots {
    /// Pins `roots`; nothing is opened until a root is first needed.
    pub fn new(roots: Roots) -> PinnedRoots {
        let handles = Handles::new(roots.accepted.len());
        let spellings = Spellings::new(&roots);
        PinnedRoots {
            roots,
            handles,
            backend: Backend::Auto,
            spellings,
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

    /// [`Roots::inside`], answered beneath the pinned directories: the
    /// root that `op` on `path` lands inside, or `None`.
    ///
    /// A normal path spelled beneath a root (its resolved location, or its
    /// URI's path where a link leads there) with no other root beneath it
    /// is answered by one `openat2(2)` of the rest of the path beneath that
    /// root's pinned directory, `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS`
    /// (`O_PATH`; a write opens the parent and looks at the name), or by
    /// the component walk where the kernel lacks `openat2` ([`Backend`]).
    /// Every path that way cannot vouch for (a link out of the root, even
    /// one that comes back; a path that is not normal; the root itself; a
    /// write whose last name is a link) gets [`Roots::check`].
    ///
    /// While each root's directory is where it was pinned, the answer is
    /// exactly [`Roots::inside`]'s. Once a root's directory is moved (or
    /// its path replaced), a path that way vouches for is judged beneath
    /// the directory pinned, as [`PinnedRoots::open`] opens it, and the
    /// others by what the path names now: see "When a pinned root moves"
    /// on [`PinnedRoots`].
    ///
    /// # Examples
    ///
    /// ```
    /// use rootguard::{Op, Roots};
    /// let dir = tempfile::tempdir().unwrap();
    /// let base = dir.path().canonicalize().unwrap();
    /// std::fs::create_dir_all(base.join("proj/src")).unwrap();
    /// std::fs::create_dir(base.join("other")).unwrap();
    /// std::os::unix::fs::symlink("src", base.join("proj/code")).unwrap();
    /// std::os::unix::fs::symlink("../other", base.join("proj/out")).unwrap();
    /// let roots = Roots::new([format!("file://{}/proj", base.display())]).pin();
    /// let id = roots.inside(base.join("proj/code/new.rs"), Op::Write);
    /// assert_eq!(id.map(|id| id.index()), Some(0));
    /// assert_eq!(roots.inside(base.join("proj/out/new.rs"), Op::Write), None);
    /// assert_eq!(roots.inside(base.join("proj/missing"), Op::Read), None);
    /// ```
    pub fn inside(&self, path: impl AsRef<OsStr>, op: Op) -> Option<RootId> {
        let path = path.as_ref();
        match self.landing(path.as_bytes(), op) {
            Some((root, _)) => Some(root),
            None => self.roots.check(path, op).root(),
        }
    }

    /// [`Roots::check`], answered beneath the pinned directories where
    /// [`PinnedRoots::inside`] is: the verdict, its target named as the
    /// kernel names it now (`/proc/<pid>/fd`).
    ///
    /// While each root's directory is where it was pinned, the verdict is
    /// exactly [`Roots::check`]'s. Once one is moved, a path answered
    /// beneath it is [`Verdict::Inside`] its root, with the target where
    /// the file now is (beneath the directory's new location).
    ///
    /// # Examples
    ///
    /// ```
    /// use rootguard::{Op, Roots, Verdict};
    /// let dir = tempfile::tempdir().unwrap();
    /// let base = dir.path().canonicalize().unwrap();
    /// std::fs::create_dir_all(base.join("proj/src")).unwrap();
    /// std::os::unix::fs::symlink("src", base.join("proj/code")).unwrap();
    /// let roots = Roots::new([format!("file://{}/proj", base.display())]).pin();
    /// match roots.check(base.join("proj/code/new.rs"), Op::Write) {
    ///     Verdict::Inside { target, .. } => assert_eq!(target, base.join("proj/src/new.rs")),
    ///     other => panic!("{other:?}"),
    /// }
    /// assert!(!roots.check(base.join("proj/../x"), Op::Write).is_inside());
    /// ```
    pub fn check(&self, path: impl AsRef<OsStr>, op: Op) -> Verdict {
        let path = path.as_ref();
        if let Some((root, landing)) = self.landing(path.as_bytes(), op) {
            if let Some(target) = landing.target() {
                return Verdict::Inside { root, target };
            }
        }
        self.roots.check(path, op)
    }

    /// The shortcut of [`PinnedRoots::inside`]: the verdict's root and what
    /// `op` on `path` reaches beneath the pinned directory of the root the
    /// path is spelled beneath, when that directory vouches for it.
    fn landing<'a>(&'a self, path: &'a [u8], op: Op) -> Option<(RootId, Landing<'a>)> {
        // Beneath the root, a path too long for the kernel could pass.
        if path.len() >= PATH_MAX {
            return None;
        }
        let (spelling, rest) = self.spellings.find(path)?;
        let engine = self.backend.engine().ok()?;
        let root = &self.roots.accepted[spelling.position];
        let RootHandle::Dir(dir) = self.handles.get(spelling.position, root, engine).ok()? else {
            return None;
        };
        let landing = engine.landing(dir.as_fd(), rest, op)?;
        Some((spelling.verdict_root, landing))
    }
}
