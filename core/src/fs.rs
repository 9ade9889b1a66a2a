//! The file-system seam: the two primitives resolution needs.

use std::ffi::OsString;
use std::io;
use std::path::Path;

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
}

impl<F: Fs + ?Sized> Fs for &F {
    fn lstat(&self, path: &Path) -> io::Result<FileKind> {
        (**self).lstat(path)
    }

    fn readlink(&self, path: &Path) -> io::Result<OsString> {
        (**self).readlink(path)
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
}
