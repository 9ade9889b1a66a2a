//! The file-system seam: [`Fs`], the two primitives resolution needs, which
//! anyone may implement, and [`Resolver`], what [`Roots`] resolves on,
//! which only this crate implements.
//!
//! [`Roots`]: crate::Roots

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};

use crate::op::Op;

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
/// Implement it for a tree of your own (a snapshot, a virtual file system,
/// a tree that logs what it is asked) and hand it to
/// [`Roots::with_fs`](crate::Roots::with_fs) or
/// [`resolve_target`](crate::resolve::resolve_target): every `Fs` is a
/// [`Resolver`], and each path on it is resolved by the component walk,
/// one `lstat` per component and one `readlink` per link.
///
/// Resolution only ever asks about paths whose every component but the
/// last is a directory it has already reached, so an implementation need not
/// follow links anywhere.
///
/// # Examples
///
/// ```
/// use std::ffi::OsString;
/// use std::io;
/// use std::path::Path;
/// use rootguard::fs::{FileKind, Fs};
/// use rootguard::{Op, Roots, Verdict};
///
/// /// `/srv` and `/srv/data`, where `/srv/data/latest` links out to `/etc`.
/// struct Tiny;
/// impl Fs for Tiny {
///     fn lstat(&self, path: &Path) -> io::Result<FileKind> {
///         match path.to_str() {
///             Some("/srv" | "/srv/data" | "/etc") => Ok(FileKind::Dir),
///             Some("/srv/data/latest") => Ok(FileKind::Symlink),
///             _ => Err(io::Error::from_raw_os_error(2)), // ENOENT
///         }
///     }
///     fn readlink(&self, path: &Path) -> io::Result<OsString> {
///         match path.to_str() {
///             Some("/srv/data/latest") => Ok("/etc".into()),
///             _ => Err(io::Error::from_raw_os_error(22)), // EINVAL
///         }
///     }
/// }
///
/// let roots = Roots::with_fs(["file:///srv/data"], Tiny);
/// assert!(roots.check("/srv/data/new.txt", Op::Write).is_inside());
/// assert!(matches!(roots.check("/srv/data/latest/passwd", Op::Write), Verdict::Outside { .. }));
/// ```
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

/// What [`Roots`](crate::Roots) and
/// [`resolve_target`](crate::resolve::resolve_target) resolve paths on:
/// [`RealFs`](crate::fs::RealFs), [`MemFs`](crate::fs::MemFs), references
/// to them, and every [`Fs`].
///
/// Its methods are private to this crate and it is sealed (no other crate
/// can implement it), because they are shortcuts whose promises keep paths
/// inside their roots
/// ("this `Some` is exactly the walk's target", "this path certainly lands
/// beneath that root"). A shortcut that broke them would let a path
/// escape, so only the two file systems whose shortcuts this crate's tests
/// hold to the walk have them: `RealFs` asks the kernel (one `open(O_PATH)`
/// for the whole path; `openat2(RESOLVE_BENEATH)` beneath a root for
/// [`Roots::inside`](crate::Roots::inside)), and `MemFs` runs the walk
/// itself, which keeps `Roots::inside`'s own logic under the in-memory
/// tests. Every other [`Fs`] is a `Resolver` through a blanket impl with no
/// shortcut: each path takes the component walk, which is always right,
/// only slower. That is also why `RealFs` and `MemFs` implement `Resolver`
/// directly rather than `Fs`: an `Fs` impl of theirs would meet the
/// blanket impl.
///
/// # Examples
///
/// Code that works on any roots names the bound:
///
/// ```
/// use rootguard::fs::{MemFs, Resolver};
/// use rootguard::{Op, Roots};
///
/// fn may_write<R: Resolver>(roots: &Roots<R>, path: &str) -> bool {
///     roots.inside(path, Op::Write).is_some()
/// }
///
/// let mut fs = MemFs::new();
/// fs.add_dir("/srv/data");
/// let roots = Roots::with_fs(["file:///srv/data"], &fs);
/// assert!(may_write(&roots, "/srv/data/new.txt"));
/// assert!(!may_write(&roots, "/srv/other.txt"));
/// ```
pub trait Resolver: sealed::Sealed {}

impl<F: Fs + ?Sized> Resolver for F {}

impl<F: Fs + ?Sized> sealed::Sealed for F {
    fn lstat(&self, path: &Path) -> io::Result<FileKind> {
        Fs::lstat(self, path)
    }

    fn readlink(&self, path: &Path) -> io::Result<OsString> {
        Fs::readlink(self, path)
    }
}

/// The methods behind [`Resolver`], out of reach of other crates.
pub(crate) mod sealed {
    use super::{io, FileKind, Op, OsString, Path, PathBuf};

    /// A file system resolution runs on, and its shortcuts.
    pub trait Sealed {
        /// [`Fs::lstat`](super::Fs::lstat).
        fn lstat(&self, path: &Path) -> io::Result<FileKind>;

        /// [`Fs::readlink`](super::Fs::readlink).
        fn readlink(&self, path: &Path) -> io::Result<OsString>;

        /// Where `op` on the absolute `path` lands, found in one go where
        /// this file system can do that faster than a walk (the kernel
        /// can).
        ///
        /// `None` means "walk instead": the shortcut is unavailable, or the
        /// path fails or needs the walk's own rules (a final link on a
        /// write). A `Some` answer must be exactly the walk's target.
        fn resolve_whole(&self, _path: &[u8], _op: Op) -> Option<PathBuf> {
            None
        }

        /// Whether `op` on `path` certainly lands at or beneath the root
        /// whose path is `path[..root_len]`, found without naming the
        /// target, for [`Roots::inside`](crate::Roots::inside).
        ///
        /// `path` is normal (no `.`, `..` or empty segment, no NUL, no
        /// final `/`), shorter than `PATH_MAX`, and continues past the
        /// root's path: after a `/`, or at once for the root `/`. `true`
        /// promises two things: the root's path names a directory with no
        /// link anywhere in its text, and `op` on `path` resolves (as
        /// [`resolve_target`](crate::resolve::resolve_target) would) to a
        /// target at or beneath it. `false` means only "not known": the
        /// caller checks the long way, so an implementation may refuse
        /// whatever it cannot vouch for cheaply.
        fn lands_beneath(&self, _path: &[u8], _root_len: usize, _op: Op) -> bool {
            false
        }
    }
}

/// [`Resolver`] for `&$fs`, answering as `$fs` does: for this crate's own
/// file systems, which are not [`Fs`] and so miss `&F`'s blanket impl.
macro_rules! resolver_by_reference {
    ($fs:ty) => {
        impl $crate::seam::sealed::Sealed for &$fs {
            fn lstat(&self, path: &std::path::Path) -> std::io::Result<$crate::seam::FileKind> {
                $crate::seam::sealed::Sealed::lstat(*self, path)
            }

            fn readlink(&self, path: &std::path::Path) -> std::io::Result<std::ffi::OsString> {
                $crate::seam::sealed::Sealed::readlink(*self, path)
            }

            fn resolve_whole(&self, path: &[u8], op: $crate::op::Op) -> Option<std::path::PathBuf> {
                $crate::seam::sealed::Sealed::resolve_whole(*self, path, op)
            }

            fn lands_beneath(&self, path: &[u8], root_len: usize, op: $crate::op::Op) -> bool {
                $crate::seam::sealed::Sealed::lands_beneath(*self, path, root_len, op)
            }
        }

        impl $crate::seam::Resolver for &$fs {}
    };
}
pub(crate) use resolver_by_reference;
