//! Why a beneath-open refused, in words that say what to do.

use std::fmt;
use std::io;
use std::path::PathBuf;

use rustix::io::Errno;

use crate::resolve::{ResolveError, ResolveErrorKind};
use crate::root_id::RootId;

/// Why [`Roots::open`](crate::Roots::open) opened nothing.
///
/// The first two come from [`Roots::check`](crate::Roots::check) and mean
/// what its verdict means. The others are refusals of the open itself: each
/// is either a rule stricter than the check (documented on
/// [`Roots::open`](crate::Roots::open)) or the trace of a tree that changed
/// between the check and the open. None of them ever follows an escape.
///
/// # Examples
///
/// ```
/// use rootguard::{Op, Roots};
/// use rootguard::open::OpenError;
/// let dir = tempfile::tempdir().unwrap();
/// let base = dir.path().canonicalize().unwrap();
/// std::fs::create_dir(base.join("root")).unwrap();
/// std::fs::write(base.join("secret"), "no").unwrap();
/// let roots = Roots::new([format!("file://{}/root", base.display())]);
/// let err = roots.open(base.join("root/../secret"), Op::Read).unwrap_err();
/// assert!(matches!(err, OpenError::Outside { .. }));
/// println!("{err}");
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum OpenError {
    /// The target lies beneath no root: the verdict was
    /// [`Verdict::Outside`](crate::Verdict::Outside). Refuse the operation.
    Outside {
        /// Where the path leads.
        target: PathBuf,
    },
    /// The operation cannot happen: the verdict was
    /// [`Verdict::Unresolvable`](crate::Verdict::Unresolvable), or the
    /// kernel found the same at open time (the tree changed meanwhile).
    Unresolvable(ResolveError),
    /// Resolving beneath the root tried to leave it (`EXDEV`): a `..` above
    /// the root, an absolute symlink, or a directory swapped for a link
    /// since the check. Refused even where the path would come back inside.
    Escape {
        /// The root it was resolved beneath.
        root: RootId,
        /// The path as given.
        path: PathBuf,
    },
    /// The path reaches its root only by way of a link or `..` outside
    /// that root, so no part of it can be resolved beneath the root.
    NotUnderRootPath {
        /// The root that contains the target.
        root: RootId,
        /// The path as given.
        path: PathBuf,
    },
    /// A write whose last component is a symlink, dangling or not: refused
    /// by policy, so a planted link can never redirect a write.
    FinalSymlink {
        /// The path as given.
        path: PathBuf,
    },
    /// The root is no longer what it was: its path now holds a link or
    /// names nothing, or (for a root that is a single file) names another
    /// file than the one pinned.
    RootChanged {
        /// The root.
        root: RootId,
        /// The root's resolved location.
        path: PathBuf,
    },
    /// [`Backend::Openat2`](crate::open::Backend::Openat2) was asked for, but the
    /// kernel refuses `openat2` (older than 5.6, or a seccomp filter).
    Openat2Unavailable(io::Error),
    /// Any other error from the file system (permission denied, too many
    /// open files, a tree that kept changing: `EAGAIN`).
    Io {
        /// The path as given.
        path: PathBuf,
        /// The error.
        source: io::Error,
    },
}

impl OpenError {
    /// The kernel's errno at open time, in the words of the check.
    pub(crate) fn from_errno(errno: Errno, root: RootId, path: PathBuf) -> OpenError {
        let kind = match errno {
            Errno::XDEV => return OpenError::Escape { root, path },
            Errno::NOENT => ResolveErrorKind::NotFound,
            Errno::NOTDIR => ResolveErrorKind::NotADirectory,
            Errno::LOOP => ResolveErrorKind::TooManyLinks,
            Errno::NAMETOOLONG => ResolveErrorKind::NameTooLong,
            Errno::ISDIR => ResolveErrorKind::IsADirectory,
            _ => {
                return OpenError::Io {
                    path,
                    source: errno.into(),
                }
            }
        };
        OpenError::Unresolvable(ResolveError { kind, at: path })
    }
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::Outside { target } => write!(
                f,
                "{} is outside every root: refuse the operation",
                target.display()
            ),
            OpenError::Unresolvable(e) => write!(f, "the operation cannot happen: {e}"),
            OpenError::Escape { root, path } => write!(
                f,
                "{}: resolving beneath root #{root} tried to leave it (a `..` above the root, \
                 an absolute symlink, or a link swapped in since the check; EXDEV): refused; \
                 give a path whose links and `..` stay beneath the root",
                path.display()
            ),
            OpenError::NotUnderRootPath { root, path } => write!(
                f,
                "{} reaches root #{root} only through a link or `..` outside it: give the path \
                 as the root's location followed by the rest",
                path.display()
            ),
            OpenError::FinalSymlink { path } => write!(
                f,
                "{}: the last component is a symlink, and writes never follow one: \
                 write to the link's target by its own path",
                path.display()
            ),
            OpenError::RootChanged { root, path } => write!(
                f,
                "root #{root} at {} is not what it was (moved, replaced, or now a link): \
                 rebuild the roots if the change is legitimate",
                path.display()
            ),
            OpenError::Openat2Unavailable(e) => write!(
                f,
                "the kernel refuses openat2 ({e}): use Backend::Auto or Backend::Walk"
            ),
            OpenError::Io { path, source } => write!(f, "{}: {source}", path.display()),
        }
    }
}

impl std::error::Error for OpenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OpenError::Unresolvable(e) => Some(e),
            OpenError::Openat2Unavailable(e) | OpenError::Io { source: e, .. } => Some(e),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What each errno from an open beneath a root becomes. Most arms are
    /// reached only when the tree changes between the check and the open.
    #[test]
    fn errnos_are_named_as_the_check_names_them() {
        let path = || PathBuf::from("/r/x");
        let three = RootId::new(3);
        let kind = |errno| match OpenError::from_errno(errno, three, path()) {
            OpenError::Unresolvable(e) => {
                assert_eq!(e.at, path());
                Some(e.kind)
            }
            _ => None,
        };
        assert_eq!(kind(Errno::NOENT), Some(ResolveErrorKind::NotFound));
        assert_eq!(kind(Errno::NOTDIR), Some(ResolveErrorKind::NotADirectory));
        assert_eq!(kind(Errno::LOOP), Some(ResolveErrorKind::TooManyLinks));
        assert_eq!(
            kind(Errno::NAMETOOLONG),
            Some(ResolveErrorKind::NameTooLong)
        );
        assert_eq!(kind(Errno::ISDIR), Some(ResolveErrorKind::IsADirectory));
        assert!(matches!(
            OpenError::from_errno(Errno::XDEV, three, path()),
            OpenError::Escape { root, .. } if root == three
        ));
        let unresolvable = OpenError::from_errno(Errno::NOENT, three, path());
        assert!(std::error::Error::source(&unresolvable).is_some());
        let io = OpenError::from_errno(Errno::ACCESS, three, path());
        assert!(matches!(io, OpenError::Io { .. }));
        // The errno stays reachable as the error's source.
        let source = std::error::Error::source(&io).expect("an io error has a source");
        assert_eq!(
            source
                .downcast_ref::<std::io::Error>()
                .and_then(std::io::Error::raw_os_error),
            Some(Errno::ACCESS.raw_os_error())
        );
    }
}
