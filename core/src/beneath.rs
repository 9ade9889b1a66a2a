//! Opening a path beneath a directory so that no step can leave it: the
//! kernel's `openat2(RESOLVE_BENEATH)`, or a component walk in user space
//! that refuses the same steps, for kernels without `openat2`.
//!
//! Both engines give the same file or the same errno for the same tree
//! (`beneath/tests.rs` holds them to that on a hostile tree, each the
//! other's oracle). Whether this kernel has `openat2` is probed once per
//! process ([`Engine::kernel`]), for every user of this module: the
//! race-free [`Roots::open`](crate::Roots::open) and the kernel shortcuts of
//! [`Roots::inside`](crate::Roots::inside) and
//! [`PinnedRoots::inside`](crate::PinnedRoots::inside), which ask where an
//! operation lands beneath a directory ([`Engine::landing`]).

mod kernel;
mod landing;
mod scope;
#[cfg(test)]
mod tests;
mod walk;

use rustix::fd::{AsFd, BorrowedFd, OwnedFd};
use rustix::fs::{fstat, FileType, Mode, OFlags};
use rustix::io::Errno;

use crate::op::Op;

pub(crate) use self::landing::{named_in, written_in_place, Landing};
pub(crate) use self::scope::Scope;
pub(crate) use self::walk::file_id;

/// Which mechanism resolves a path beneath a directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Engine {
    /// The kernel's `openat2(2)`.
    Openat2,
    /// The component walk, `openat(O_PATH | O_NOFOLLOW)` one name at a time.
    Walk,
}

impl Engine {
    /// [`Engine::Openat2`] where this kernel offers `openat2`, else the
    /// errno of the one probe (`ENOSYS` before Linux 5.6, `EPERM` from a
    /// seccomp filter).
    pub(crate) fn kernel() -> Result<Engine, Errno> {
        kernel::openat2_support().map(|()| Engine::Openat2)
    }

    /// Opens `path` (relative) beneath the directory `root`, as `openat2`
    /// with `RESOLVE_BENEATH` (or `RESOLVE_IN_ROOT`) and
    /// `RESOLVE_NO_MAGICLINKS` would; an empty path is `root` itself.
    pub(crate) fn open_beneath(
        self,
        root: BorrowedFd<'_>,
        path: &[u8],
        flags: OFlags,
        mode: Mode,
        scope: Scope,
    ) -> Result<OwnedFd, Errno> {
        match self {
            Engine::Openat2 => kernel::open_beneath(root, path, flags, mode, scope),
            Engine::Walk => walk::open_beneath(root, path, flags, mode, scope),
        }
    }

    /// Opens the absolute `path`, refusing a symlink in any component
    /// (`ELOOP`), as `RESOLVE_NO_SYMLINKS` does.
    pub(crate) fn open_physical(
        self,
        path: &[u8],
        flags: OFlags,
        mode: Mode,
    ) -> Result<OwnedFd, Errno> {
        match self {
            Engine::Openat2 => kernel::open_physical(path, flags, mode),
            Engine::Walk => walk::open_physical(path, flags, mode),
        }
    }

    /// Where `op` on `rest` (relative, normal and not empty) certainly
    /// lands beneath `dir`, opened there (`O_PATH`) with `RESOLVE_BENEATH |
    /// RESOLVE_NO_MAGICLINKS`: see [`Landing`]. `None` means "not known".
    pub(crate) fn landing<'a>(
        self,
        dir: BorrowedFd<'a>,
        rest: &'a [u8],
        op: Op,
    ) -> Option<Landing<'a>> {
        Landing::find(dir, rest, op, |path, flags| {
            self.open_beneath(dir, path, flags, Mode::empty(), Scope::Beneath)
        })
    }

    /// Whether the last component of `rest` beneath `dir` is a symlink:
    /// tells the write policy's `ELOOP` (`O_NOFOLLOW` on a final link) from
    /// a loop's.
    pub(crate) fn last_is_link(self, dir: &impl AsFd, rest: &[u8], scope: Scope) -> bool {
        let flags = OFlags::PATH.union(OFlags::NOFOLLOW);
        self.open_beneath(dir.as_fd(), rest, flags, Mode::empty(), scope)
            .and_then(fstat)
            .is_ok_and(|stat| FileType::from_raw_mode(stat.st_mode) == FileType::Symlink)
    }
}
