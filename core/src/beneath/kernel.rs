//! The openat2 backend: the kernel resolves beneath the root.

use std::sync::OnceLock;

use rustix::fd::{BorrowedFd, OwnedFd};
use rustix::fs::{openat2, Mode, OFlags, ResolveFlags, CWD};
use rustix::io::Errno;

use super::scope::Scope;

/// A scoped lookup fails with `EAGAIN` when a rename or mount anywhere in
/// the system raced its `..`; the kernel asks the caller to retry.
const RETRIES: usize = 128;

/// `openat2(root, path, flags, mode, RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)`
/// (`RESOLVE_IN_ROOT` for [`Scope::InRoot`]); an empty path is the root.
pub(crate) fn open_beneath(
    root: BorrowedFd<'_>,
    path: &[u8],
    flags: OFlags,
    mode: Mode,
    scope: Scope,
) -> Result<OwnedFd, Errno> {
    let path: &[u8] = if path.is_empty() { b"." } else { path };
    let resolve = match scope {
        Scope::Beneath => BENEATH,
        Scope::InRoot => IN_ROOT,
    };
    retry(|| {
        openat2(
            root,
            path,
            flags | OFlags::CLOEXEC,
            mode_for(flags, mode),
            resolve,
        )
    })
}

/// Opens the absolute `path` with `RESOLVE_NO_SYMLINKS`: a link anywhere
/// means the path no longer names what it named when it was resolved.
pub(crate) fn open_physical(path: &[u8], flags: OFlags, mode: Mode) -> Result<OwnedFd, Errno> {
    retry(|| {
        openat2(
            CWD,
            path,
            flags | OFlags::CLOEXEC,
            mode_for(flags, mode),
            PHYSICAL,
        )
    })
}

/// Whether `openat2` works here, asked once per process: the answer cannot
/// change while the process runs, and a real `EPERM` on some file must not
/// be mistaken for a seccomp filter. `ENOSYS` before Linux 5.6, `EPERM`
/// from a seccomp filter that refuses it.
pub(crate) fn openat2_support() -> Result<(), Errno> {
    static SUPPORT: OnceLock<Result<(), Errno>> = OnceLock::new();
    *SUPPORT.get_or_init(|| {
        openat2(CWD, "/", PROBE, Mode::empty(), ResolveFlags::NO_MAGICLINKS).map(drop)
    })
}

/// `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS`: no step may leave the root,
/// and no `/proc` magic link is followed.
const BENEATH: ResolveFlags = ResolveFlags::BENEATH.union(ResolveFlags::NO_MAGICLINKS);

/// `RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS`: the root is `/` for every
/// step, absolute links included.
const IN_ROOT: ResolveFlags = ResolveFlags::IN_ROOT.union(ResolveFlags::NO_MAGICLINKS);

/// `RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS`: the path is taken as
/// written, a link anywhere in it refused (`ELOOP`).
const PHYSICAL: ResolveFlags = ResolveFlags::NO_SYMLINKS.union(ResolveFlags::NO_MAGICLINKS);

/// What the probe opens `/` with: nothing is read, nothing inherited.
const PROBE: OFlags = OFlags::PATH.union(OFlags::CLOEXEC);

/// openat2 refuses (`EINVAL`) a mode unless it may create.
fn mode_for(flags: OFlags, mode: Mode) -> Mode {
    // Not `intersects`: O_TMPFILE includes the O_DIRECTORY bit.
    if flags.contains(OFlags::CREATE) || flags.contains(OFlags::TMPFILE) {
        mode
    } else {
        Mode::empty()
    }
}

fn retry(mut open: impl FnMut() -> Result<OwnedFd, Errno>) -> Result<OwnedFd, Errno> {
    let mut result = open();
    for _ in 1..RETRIES {
        if !matches!(result, Err(Errno::AGAIN)) {
            break;
        }
        result = open();
    }
    result
}
