//! The file-system seam: the two primitives resolution needs.

use std::ffi::{OsStr, OsString};
use std::io;
use std::os::fd::{AsFd, AsRawFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use std::cell::Cell;
use std::os::fd::OwnedFd;
use std::sync::atomic::{AtomicBool, Ordering};

use rustix::fs::{AtFlags, FileType, Mode, OFlags, ResolveFlags, CWD};
use rustix::io::Errno;

use crate::lexical::is_normal;
use crate::op::Op;
use crate::resolve::{NAME_MAX, PATH_MAX};

/// What a name is, without following it (as `lstat` says).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileKind {
    /// A directory.
    Dir,
    /// A regular file, or anything else that is neither a directory nor a
    /// symlink (fifo, socket, device): none can be walked through.
    File,
    /// A symbolic link.
    Symlink,
}

/// The primitives path resolution needs: `lstat` and `readlink`.
///
/// Resolution only ever asks about paths whose every component but the
/// last is a directory it has already reached, so an implementation need not
/// follow links anywhere.
pub trait Fs {
    /// The kind of `path`'s last component, not following it.
    ///
    /// # Errors
    ///
    /// An `io::Error` carrying the errno the kernel would give (`ENOENT`
    /// for a name that does not exist, `ENOTDIR`, `ENAMETOOLONG`, …).
    fn lstat(&self, path: &Path) -> io::Result<FileKind>;

    /// The target of the symlink at `path`, verbatim.
    ///
    /// # Errors
    ///
    /// As for [`Fs::lstat`]; `EINVAL` when `path` is not a symlink.
    fn readlink(&self, path: &Path) -> io::Result<OsString>;

    /// Where `op` on the absolute `path` lands, found in one go where this
    /// file system can do that faster than a walk (the kernel can).
    ///
    /// `None` means "walk instead": the shortcut is unavailable, or the
    /// path fails or needs the walk's own rules (a final link on a write).
    /// A `Some` answer must be exactly the walk's target.
    fn resolve_whole(&self, path: &[u8], op: Op) -> Option<PathBuf> {
        let _ = (path, op);
        None
    }
}

impl<F: Fs + ?Sized> Fs for &F {
    fn lstat(&self, path: &Path) -> io::Result<FileKind> {
        (**self).lstat(path)
    }

    fn readlink(&self, path: &Path) -> io::Result<OsString> {
        (**self).readlink(path)
    }

    fn resolve_whole(&self, path: &[u8], op: Op) -> Option<PathBuf> {
        (**self).resolve_whole(path, op)
    }
}

/// The real file system of this process.
#[derive(Clone, Copy, Debug, Default)]
pub struct RealFs;

impl Fs for RealFs {
    fn lstat(&self, path: &Path) -> io::Result<FileKind> {
        let file_type = std::fs::symlink_metadata(path)?.file_type();
        Ok(if file_type.is_symlink() {
            FileKind::Symlink
        } else if file_type.is_dir() {
            FileKind::Dir
        } else {
            // Regular files, fifos, sockets and devices alike end a walk.
            FileKind::File
        })
    }

    fn readlink(&self, path: &Path) -> io::Result<OsString> {
        std::fs::read_link(path).map(|target| target.into_os_string())
    }

    /// The kernel resolves the whole path in one `open(O_PATH)` and names
    /// what it reached in `/proc/self/fd`: three system calls whatever the
    /// depth, and faithful by construction. A normal path that the kernel
    /// opens with `RESOLVE_NO_SYMLINKS` leads exactly where its text says,
    /// so then even the `/proc` lookup is skipped. Any failure falls back to
    /// the walk, which then names the component that failed.
    fn resolve_whole(&self, path: &[u8], op: Op) -> Option<PathBuf> {
        if path.first() != Some(&b'/')
            || path.len() >= PATH_MAX
            || memchr::memchr(0, path).is_some()
        {
            return None;
        }
        let normal = is_normal(path);
        match op {
            Op::Read => {
                if normal {
                    match open_link_free(path, OFlags::empty()) {
                        LinkFree::Opened(_) => return Some(PathBuf::from(OsStr::from_bytes(path))),
                        LinkFree::Failed => return None,
                        LinkFree::Link => {}
                    }
                }
                let fd = rustix::fs::open(OsStr::from_bytes(path), O_PATH, Mode::empty()).ok()?;
                fd_path(&fd)
            }
            Op::Write => {
                let cut = memchr::memrchr(b'/', path)?;
                let name = &path[cut + 1..];
                if matches!(name, b"" | b"." | b"..") || name.len() > NAME_MAX {
                    return None;
                }
                let parent = if cut == 0 { &b"/"[..] } else { &path[..cut] };
                let link_free = if normal {
                    open_link_free(parent, OFlags::DIRECTORY)
                } else {
                    LinkFree::Link
                };
                let (dir, known_parent) = match link_free {
                    LinkFree::Opened(dir) => (dir, true),
                    LinkFree::Failed => return None,
                    LinkFree::Link => {
                        let flags = O_PATH | OFlags::DIRECTORY;
                        (
                            rustix::fs::open(OsStr::from_bytes(parent), flags, Mode::empty())
                                .ok()?,
                            false,
                        )
                    }
                };
                match rustix::fs::statat(&dir, OsStr::from_bytes(name), AtFlags::SYMLINK_NOFOLLOW) {
                    Ok(stat) => match FileType::from_raw_mode(stat.st_mode) {
                        FileType::Directory | FileType::Symlink => return None,
                        _ => {}
                    },
                    Err(Errno::NOENT) => {}
                    Err(_) => return None,
                }
                if known_parent {
                    return Some(PathBuf::from(OsStr::from_bytes(path)));
                }
                let mut target = fd_path(&dir)?.into_os_string().into_vec();
                if target != b"/" {
                    target.push(b'/');
                }
                target.extend_from_slice(name);
                Some(PathBuf::from(OsString::from_vec(target)))
            }
        }
    }
}

const O_PATH: OFlags = OFlags::PATH.union(OFlags::CLOEXEC);

/// What opening a path with no symlink allowed anywhere in it gave.
enum LinkFree {
    /// Opened: no component is a link, so the normal text is the target.
    Opened(OwnedFd),
    /// A link on the way (or `openat2` is unavailable): ask the kernel
    /// where the path leads instead.
    Link,
    /// It fails with no link involved, as the plain open would.
    Failed,
}

/// Opens `path` with `RESOLVE_NO_SYMLINKS`, remembering a kernel that has
/// no `openat2` (before Linux 5.6).
///
/// Where paths keep leading through links (a root reached through one, say)
/// the attempt is wasted work, so after a run of misses a thread tries only
/// one path in [`RETRY_EVERY`] until one is link-free again. Only speed
/// depends on this: a skipped attempt takes the general way.
fn open_link_free(path: &[u8], extra: OFlags) -> LinkFree {
    static NO_OPENAT2: AtomicBool = AtomicBool::new(false);
    thread_local! {
        static MISSES: Cell<u32> = const { Cell::new(0) };
    }
    if NO_OPENAT2.load(Ordering::Relaxed) {
        return LinkFree::Link;
    }
    let misses = MISSES.with(Cell::get);
    if misses >= MISS_STREAK && misses % RETRY_EVERY != 0 {
        MISSES.with(|m| m.set(misses.wrapping_add(1)));
        return LinkFree::Link;
    }
    let how = ResolveFlags::NO_SYMLINKS;
    let outcome = match rustix::fs::openat2(
        CWD,
        OsStr::from_bytes(path),
        O_PATH | extra,
        Mode::empty(),
        how,
    ) {
        Ok(fd) => LinkFree::Opened(fd),
        Err(Errno::NOSYS) => {
            NO_OPENAT2.store(true, Ordering::Relaxed);
            LinkFree::Link
        }
        // ELOOP is the link; EPERM may be a seccomp filter refusing openat2;
        // EAGAIN and EXDEV cannot come from these flags, but cost nothing.
        Err(Errno::LOOP | Errno::PERM | Errno::AGAIN | Errno::XDEV) => LinkFree::Link,
        Err(_) => LinkFree::Failed,
    };
    let next = if matches!(outcome, LinkFree::Link) {
        misses.wrapping_add(1).max(1)
    } else {
        0
    };
    MISSES.with(|m| m.set(next));
    outcome
}

/// Link-free attempts that must miss in a row before they are rationed.
const MISS_STREAK: u32 = 4;
/// While rationed, one path in this many is tried link-free.
const RETRY_EVERY: u32 = 16;

/// The path the kernel gives for what `fd` refers to.
fn fd_path(fd: &impl AsFd) -> Option<PathBuf> {
    let mut link = *b"/proc/self/fd/\0\0\0\0\0\0\0\0\0\0";
    let prefix = b"/proc/self/fd/".len();
    let mut n = u32::try_from(fd.as_fd().as_raw_fd()).ok()?;
    let mut digits = [0u8; 10];
    let mut len = 0;
    loop {
        digits[len] = b'0' + (n % 10) as u8;
        len += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for i in 0..len {
        link[prefix + i] = digits[len - 1 - i];
    }
    let link = OsStr::from_bytes(&link[..prefix + len]);
    let target = rustix::fs::readlink(link, Vec::new()).ok()?;
    let bytes = target.into_bytes();
    // A path the kernel cannot express from our root is not a real path.
    if bytes.first() != Some(&b'/') || bytes.ends_with(b" (deleted)") {
        return None;
    }
    Some(PathBuf::from(OsString::from_vec(bytes)))
}
