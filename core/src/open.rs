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
mod error;
mod handle;
pub(crate) mod kernel;
mod pinned;
mod split;
#[cfg(test)]
mod tests;
mod walk;

use std::ffi::OsStr;
use std::fs::File;
use std::os::fd::AsFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use rustix::fd::OwnedFd;
use rustix::fs::{fstat, FileType, Mode, OFlags};
use rustix::io::Errno;

pub use self::backend::{Backend, BACKEND_ENV};
pub use self::error::OpenError;
pub use self::pinned::PinnedRoots;

use self::backend::Engine;
use self::handle::{Handles, RootHandle};
use self::split::rest_beneath;
use crate::fs::RealFs;
use crate::op::Op;
use crate::resolve::{ResolveError, ResolveErrorKind};
use crate::roots::{Roots, Verdict};

/// How the rest of a path is resolved beneath a root's directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    /// `RESOLVE_BENEATH`: a step that would leave the root is refused.
    Beneath,
    /// `RESOLVE_IN_ROOT`: the root is `/`, and `..` and absolute links work
    /// as they always do there. Used only for the root `/`.
    InRoot,
}

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
    /// use rootguard::{Op, OpenError, Roots};
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

    /// Pins the roots: see [`PinnedRoots`].
    pub fn pin(self) -> PinnedRoots {
        PinnedRoots::new(self)
    }
}

/// The flags and mode of `op` (semantics §2, with the write policy).
fn open_flags(op: Op) -> (OFlags, Mode) {
    match op {
        Op::Read => (READ_FLAGS, Mode::empty()),
        Op::Write => (WRITE_FLAGS, Mode::from_raw_mode(0o666)),
    }
}

const READ_FLAGS: OFlags = OFlags::RDONLY.union(OFlags::NOCTTY);
const WRITE_FLAGS: OFlags = OFlags::WRONLY
    .union(OFlags::CREATE)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::NOCTTY);

/// The accepted root to open beneath (its position) and the rest of the
/// path: the verdict's root when the path spells it, else the first root
/// that the path spells.
fn choose_root<'p>(roots: &Roots, inside: usize, path: &'p [u8]) -> Option<(usize, &'p [u8])> {
    let preferred = roots.accepted.iter().position(|r| r.index == inside);
    let others = (0..roots.accepted.len()).filter(|&p| Some(p) != preferred);
    preferred.into_iter().chain(others).find_map(|position| {
        let root = &roots.accepted[position];
        [&root.resolved, &root.path]
            .into_iter()
            .find_map(|at| rest_beneath(path, at.as_os_str().as_bytes()))
            .map(|rest| (position, rest))
    })
}

/// Whether the last component of `rest` beneath `dir` is a symlink: tells
/// the write policy's `ELOOP` from a loop's.
fn last_is_link(engine: Engine, dir: &OwnedFd, rest: &[u8], scope: Scope) -> bool {
    let flags = OFlags::PATH.union(OFlags::NOFOLLOW);
    engine
        .open_beneath(dir.as_fd(), rest, flags, Mode::empty(), scope)
        .and_then(fstat)
        .is_ok_and(|stat| FileType::from_raw_mode(stat.st_mode) == FileType::Symlink)
}

/// [`Roots::open`] and [`PinnedRoots::open`]: check, choose the root, open
/// the rest beneath the root's handle from `handles`.
pub(crate) fn open_beneath_roots(
    roots: &Roots,
    handles: &Handles,
    backend: Backend,
    path: &OsStr,
    op: Op,
) -> Result<(File, Verdict), OpenError> {
    let engine = backend.engine()?;
    let verdict = roots.check(path, op);
    let inside = match &verdict {
        Verdict::Inside { root, .. } => *root,
        Verdict::Outside { target } => {
            return Err(OpenError::Outside {
                target: target.clone(),
            })
        }
        Verdict::Unresolvable(e) => return Err(OpenError::Unresolvable(e.clone())),
    };
    let given = || PathBuf::from(path);
    let (position, rest) =
        choose_root(roots, inside, path.as_bytes()).ok_or_else(|| OpenError::NotUnderRootPath {
            root: inside,
            path: given(),
        })?;
    let root = &roots.accepted[position];
    let (flags, mode) = open_flags(op);
    let fd = match handles.get(position, root, engine)? {
        RootHandle::Dir(dir) => {
            let scope = if root.resolved == Path::new("/") {
                Scope::InRoot
            } else {
                Scope::Beneath
            };
            match engine.open_beneath(dir.as_fd(), rest, flags, mode, scope) {
                Ok(fd) => fd,
                Err(Errno::LOOP) if op == Op::Write && last_is_link(engine, dir, rest, scope) => {
                    return Err(OpenError::FinalSymlink { path: given() })
                }
                Err(errno) => return Err(OpenError::from_errno(errno, root.index, given())),
            }
        }
        RootHandle::File(pinned) => {
            if !rest.is_empty() {
                return Err(OpenError::Unresolvable(ResolveError {
                    kind: ResolveErrorKind::NotADirectory,
                    at: root.resolved.clone(),
                }));
            }
            // The file's directory is outside the root: never create there.
            let at = root.resolved.as_os_str().as_bytes();
            let fd = engine
                .open_physical(at, flags - OFlags::CREATE, mode)
                .map_err(|errno| match errno {
                    Errno::NOENT | Errno::LOOP | Errno::NOTDIR => OpenError::RootChanged {
                        root: root.index,
                        path: root.resolved.clone(),
                    },
                    _ => OpenError::from_errno(errno, root.index, given()),
                })?;
            if walk::file_id(&fd).ok() != Some(*pinned) {
                return Err(OpenError::RootChanged {
                    root: root.index,
                    path: root.resolved.clone(),
                });
            }
            fd
        }
    };
    Ok((File::from(fd), verdict))
}
