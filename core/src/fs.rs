//! The file-system seam: the two primitives resolution needs.

use std::ffi::{OsStr, OsString};
use std::io;
use std::os::fd::{AsFd, AsRawFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

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
    /// depth, and faithful by construction. Any failure falls back to the
    /// walk, which then names the component that failed.
    fn resolve_whole(&self, path: &[u8], op: Op) -> Option<PathBuf> {
        if path.first() != Some(&b'/')
            || path.len() >= PATH_MAX
            || memchr::memchr(0, path).is_some()
        {
            return None;
        }
        let flags = OFlags::PATH | OFlags::CLOEXEC;
        match op {
            Op::Read => {
                let fd = rustix::fs::open(OsStr::from_bytes(path), flags, Mode::empty()).ok()?;
                fd_path(&fd)
            }
            Op::Write => {
                let cut = memchr::memrchr(b'/', path)?;
                let name = &path[cut + 1..];
                if matches!(name, b"" | b"." | b"..") || name.len() > NAME_MAX {
                    return None;
                }
                let parent = if cut == 0 { &b"/"[..] } else { &path[..cut] };
                let dir = rustix::fs::open(
                    OsStr::from_bytes(parent),
                    flags | OFlags::DIRECTORY,
                    Mode::empty(),
                )
                .ok()?;
                match rustix::fs::statat(&dir, OsStr::from_bytes(name), AtFlags::SYMLINK_NOFOLLOW) {
                    Ok(stat) => match FileType::from_raw_mode(stat.st_mode) {
                        FileType::Directory | FileType::Symlink => return None,
                        _ => {}
                    },
                    Err(Errno::NOENT) => {}
                    Err(_) => return None,
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
