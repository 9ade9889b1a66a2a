//! Where an operation lands beneath a directory, found by opening it there
//! ([`Engine::landing`](super::Engine::landing)): the kernel shortcut of
//! [`Roots::inside`](crate::Roots::inside) beneath a root opened by its
//! path, and of [`PinnedRoots::inside`](crate::PinnedRoots::inside)
//! beneath a pinned one.

use std::ffi::{OsStr, OsString};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::PathBuf;

use rustix::fs::{AtFlags, FileType, OFlags};
use rustix::io::Errno;

use crate::op::Op;
use crate::procfs::fd_path;

/// What `op` on a path beneath a directory reaches, held open (`O_PATH`):
/// a read's target, or the directory a write lands in and the name it
/// lands on there.
#[derive(Debug)]
pub(crate) struct Landing<'a> {
    /// The target (read) or its directory (write); `None` when that is the
    /// directory beneath which the path was opened.
    opened: Option<OwnedFd>,
    /// The directory beneath which the path was opened.
    from: BorrowedFd<'a>,
    /// A write's last name, in that directory.
    name: Option<&'a [u8]>,
}

impl<'a> Landing<'a> {
    /// Where `op` on `rest` (relative, normal and not empty) lands beneath
    /// `dir`, when it certainly lands there, as the component walk would
    /// find it: a read opens `rest`, a write opens its parent and finds
    /// nothing or a file by the last name. `open_beneath` opens a path
    /// beneath `dir` (`O_PATH`, with the flags given) so that no step can
    /// leave it ([`Engine::landing`](super::Engine::landing)).
    ///
    /// `None` means only "not known": a step out of `dir` (even one that
    /// comes back), a path that fails, or a write whose last name is a
    /// directory or a link, which the walk's own rules decide.
    pub(super) fn find(
        dir: BorrowedFd<'a>,
        rest: &'a [u8],
        op: Op,
        open_beneath: impl FnOnce(&[u8], OFlags) -> Result<OwnedFd, Errno>,
    ) -> Option<Landing<'a>> {
        let (opened, flags, name) = match op {
            Op::Read => (Some(rest), OFlags::PATH, None),
            Op::Write => match memchr::memrchr(b'/', rest) {
                Some(cut) => (
                    Some(&rest[..cut]),
                    OFlags::PATH | OFlags::DIRECTORY,
                    Some(&rest[cut + 1..]),
                ),
                None => (None, OFlags::PATH, Some(rest)),
            },
        };
        let opened = match opened {
            Some(path) => Some(open_beneath(path, flags).ok()?),
            None => None,
        };
        let landing = Landing {
            opened,
            from: dir,
            name,
        };
        landing
            .name
            .is_none_or(|name| written_in_place(&landing.fd(), name))
            .then_some(landing)
    }
}

impl Landing<'_> {
    /// The target or its directory, as held.
    fn fd(&self) -> BorrowedFd<'_> {
        self.opened.as_ref().map_or(self.from, AsFd::as_fd)
    }

    /// The target's path as the kernel names it now (`/proc`); `None` where
    /// it has none (a directory on the way was deleted).
    pub(crate) fn target(&self) -> Option<PathBuf> {
        match self.name {
            None => fd_path(&self.fd()),
            Some(name) => named_in(&self.fd(), name),
        }
    }
}

/// Whether a write of `name` in the directory `dir` lands on that name
/// itself: nothing is there, or a file. A directory or a link there is the
/// walk's to judge (the write fails, or follows the link).
pub(crate) fn written_in_place(dir: &impl AsFd, name: &[u8]) -> bool {
    match rustix::fs::statat(dir, OsStr::from_bytes(name), AtFlags::SYMLINK_NOFOLLOW) {
        Ok(stat) => !matches!(
            FileType::from_raw_mode(stat.st_mode),
            FileType::Directory | FileType::Symlink
        ),
        Err(errno) => errno == Errno::NOENT,
    }
}

/// The path of `name` in the directory `dir`, the directory named as the
/// kernel names it now (`/proc`).
pub(crate) fn named_in(dir: &impl AsFd, name: &[u8]) -> Option<PathBuf> {
    let mut target = fd_path(dir)?.into_os_string().into_vec();
    if target != b"/" {
        target.push(b'/');
    }
    target.extend_from_slice(name);
    Some(PathBuf::from(OsString::from_vec(target)))
}
