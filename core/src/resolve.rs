//! Kernel-faithful resolution of the location an operation reaches
//! (semantics §2): [`resolve_target`] walks a path one component at a time
//! on a [`Resolver`], following every link, taking
//! `..` physically, and following a dangling final link on a write, and
//! names the [`Target`] or the component that failed ([`ResolveError`]).

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use rustix::io::Errno;

use crate::limits::{MAX_LINKS, NAME_MAX, PATH_MAX};
use crate::op::Op;
use crate::seam::{FileKind, Resolver};

/// Where an operation lands: a physical, link-free, normal absolute path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The location.
    pub path: PathBuf,
    /// What is there now, or `None` for a write that would create it.
    pub kind: Option<FileKind>,
}

/// One step of a resolution, for explanations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Reached an existing directory or file.
    Enter {
        /// The physical path reached.
        path: PathBuf,
        /// What it is.
        kind: FileKind,
    },
    /// A `..`, taken against the directory actually reached.
    Parent {
        /// Where it led.
        to: PathBuf,
    },
    /// Followed a symlink.
    Follow {
        /// The link's physical path.
        link: PathBuf,
        /// Its target, verbatim.
        target: OsString,
    },
    /// A write would create this file.
    Create {
        /// The file that would be created.
        path: PathBuf,
    },
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Enter { path, kind } => {
                let what = match kind {
                    FileKind::Dir => "directory",
                    FileKind::File => "file",
                    FileKind::Symlink => "symlink",
                };
                write!(f, "{} ({what})", path.display())
            }
            Step::Parent { to } => write!(f, ".. -> {}", to.display()),
            Step::Follow { link, target } => {
                write!(
                    f,
                    "{} -> {} (symlink)",
                    link.display(),
                    Path::new(target).display()
                )
            }
            Step::Create { path } => write!(f, "{} (would be created)", path.display()),
        }
    }
}

/// Why a path reaches nothing: the operation cannot happen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolveError {
    /// What went wrong.
    pub kind: ResolveErrorKind,
    /// The physical path of the component that failed (empty when the
    /// path as a whole was refused).
    pub at: PathBuf,
}

/// The reason in a [`ResolveError`], named after the errno the kernel gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResolveErrorKind {
    /// The path does not start with `/`.
    NotAbsolute,
    /// The path holds a NUL byte.
    NulByte,
    /// The path is `PATH_MAX` bytes or longer (`ENAMETOOLONG`).
    PathTooLong,
    /// A component is longer than `NAME_MAX` (`ENAMETOOLONG`).
    NameTooLong,
    /// A component does not exist (`ENOENT`).
    NotFound,
    /// A non-directory was walked through (`ENOTDIR`).
    NotADirectory,
    /// More than [`MAX_LINKS`] symlinks (`ELOOP`).
    TooManyLinks,
    /// A write whose target is an existing directory (`EISDIR`).
    IsADirectory,
    /// A write to a path that ends in `/`.
    TrailingSlash,
    /// Any other error from the file system.
    Io(io::ErrorKind),
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match &self.kind {
            ResolveErrorKind::NotAbsolute => {
                "the path is not absolute: give a path that starts with '/'"
            }
            ResolveErrorKind::NulByte => "the path holds a NUL byte",
            ResolveErrorKind::PathTooLong => "the path is 4096 bytes or longer (ENAMETOOLONG)",
            ResolveErrorKind::NameTooLong => "a component is longer than 255 bytes (ENAMETOOLONG)",
            ResolveErrorKind::NotFound => "does not exist (ENOENT)",
            ResolveErrorKind::NotADirectory => {
                "is not a directory but the path goes on through it (ENOTDIR)"
            }
            ResolveErrorKind::TooManyLinks => {
                "one symlink too many: more than 40 in one resolution (ELOOP)"
            }
            ResolveErrorKind::IsADirectory => {
                "is an existing directory: a write cannot open it (EISDIR)"
            }
            ResolveErrorKind::TrailingSlash => {
                "a write path ends in '/': it names a directory, not a file"
            }
            ResolveErrorKind::Io(kind) => return write!(f, "{}: {kind}", self.at.display()),
        };
        if self.at.as_os_str().is_empty() {
            f.write_str(what)
        } else {
            write!(f, "{}: {what}", self.at.display())
        }
    }
}

impl std::error::Error for ResolveError {}

fn fail(kind: ResolveErrorKind, at: &[u8]) -> ResolveError {
    ResolveError {
        kind,
        at: PathBuf::from(OsStr::from_bytes(at)),
    }
}

fn from_io(error: &io::Error, at: &[u8]) -> ResolveError {
    let kind = match error.raw_os_error().map(Errno::from_raw_os_error) {
        Some(Errno::NOENT) => ResolveErrorKind::NotFound,
        Some(Errno::NOTDIR) => ResolveErrorKind::NotADirectory,
        Some(Errno::NAMETOOLONG) => ResolveErrorKind::NameTooLong,
        Some(Errno::LOOP) => ResolveErrorKind::TooManyLinks,
        _ => ResolveErrorKind::Io(error.kind()),
    };
    fail(kind, at)
}

/// Resolves where `op` on `path` lands, as Linux would (semantics §2).
///
/// Every symlink is followed, `..` is taken physically against the directory
/// actually reached, and for [`Op::Write`] a final symlink is followed even
/// when it dangles, because `open(O_CREAT)` creates the file where it points.
///
/// # Errors
///
/// A [`ResolveError`] naming the component that failed and why, whenever
/// the operation could not happen at all.
///
/// # Examples
///
/// ```
/// use rootguard::fs::MemFs;
/// use rootguard::resolve::resolve_target;
/// use rootguard::Op;
/// let mut fs = MemFs::new();
/// fs.add_dir("/b/out").add_symlink("/b/root/dangling", "../out/new.txt");
/// let target = resolve_target(&fs, "/b/root/dangling", Op::Write).unwrap();
/// assert_eq!(target.path, std::path::Path::new("/b/out/new.txt"));
/// assert!(resolve_target(&fs, "/b/root/dangling", Op::Read).is_err());
/// ```
pub fn resolve_target<R: Resolver + ?Sized>(
    fs: &R,
    path: impl AsRef<OsStr>,
    op: Op,
) -> Result<Target, ResolveError> {
    resolve(fs, path.as_ref().as_bytes(), op, None)
}

/// [`resolve_target`], recording each step in `trace`.
///
/// # Errors
///
/// As for [`resolve_target`]; the trace holds the steps taken before it.
///
/// # Examples
///
/// ```
/// use rootguard::fs::MemFs;
/// use rootguard::resolve::{resolve_target_traced, Step};
/// use rootguard::Op;
/// let mut fs = MemFs::new();
/// fs.add_dir("/b/out").add_symlink("/b/root/up", "..");
/// let mut trace = Vec::new();
/// let target = resolve_target_traced(&fs, "/b/root/up/out", Op::Read, &mut trace).unwrap();
/// assert_eq!(target.path, std::path::Path::new("/b/out"));
/// assert!(matches!(trace[2], Step::Follow { .. }));
/// ```
pub fn resolve_target_traced<R: Resolver + ?Sized>(
    fs: &R,
    path: impl AsRef<OsStr>,
    op: Op,
    trace: &mut Vec<Step>,
) -> Result<Target, ResolveError> {
    resolve(fs, path.as_ref().as_bytes(), op, Some(trace))
}

pub(crate) fn resolve<R: Resolver + ?Sized>(
    fs: &R,
    path: &[u8],
    op: Op,
    mut trace: Option<&mut Vec<Step>>,
) -> Result<Target, ResolveError> {
    if path.contains(&0) {
        return Err(fail(ResolveErrorKind::NulByte, b""));
    }
    if path.len() >= PATH_MAX {
        return Err(fail(ResolveErrorKind::PathTooLong, b""));
    }
    if path.first() != Some(&b'/') {
        return Err(fail(ResolveErrorKind::NotAbsolute, b""));
    }
    if op == Op::Write && path.last() == Some(&b'/') {
        return Err(fail(ResolveErrorKind::TrailingSlash, b""));
    }
    let write = op == Op::Write;
    // `current` is always a physical, link-free path; it is a directory
    // whenever another component remains.
    let mut current: Vec<u8> = Vec::with_capacity(path.len() + 16);
    current.push(b'/');
    let mut kind = FileKind::Dir;
    let mut rest: Vec<u8> = path.to_vec();
    let mut pos = 0;
    let mut links = 0;
    let mut record = |step: Step| {
        if let Some(trace) = trace.as_deref_mut() {
            trace.push(step);
        }
    };
    loop {
        while rest.get(pos) == Some(&b'/') {
            pos += 1;
        }
        if pos == rest.len() {
            break;
        }
        let start = pos;
        pos = rest[start..]
            .iter()
            .position(|&b| b == b'/')
            .map_or(rest.len(), |i| start + i);
        let more = rest[pos..].iter().any(|&b| b != b'/');
        let slash_after = pos < rest.len();
        let last = !more;
        match &rest[start..pos] {
            b"." => {
                if last && write {
                    return Err(fail(ResolveErrorKind::IsADirectory, &current));
                }
            }
            b".." => {
                let cut = current.iter().rposition(|&b| b == b'/').unwrap_or(0);
                current.truncate(cut.max(1));
                record(Step::Parent {
                    to: PathBuf::from(OsStr::from_bytes(&current)),
                });
                if last && write {
                    return Err(fail(ResolveErrorKind::IsADirectory, &current));
                }
            }
            name => {
                let saved = current.len();
                if current.len() > 1 {
                    current.push(b'/');
                }
                current.extend_from_slice(name);
                if name.len() > NAME_MAX {
                    return Err(fail(ResolveErrorKind::NameTooLong, &current));
                }
                let here = Path::new(OsStr::from_bytes(&current));
                match fs.lstat(here) {
                    Ok(FileKind::Symlink) => {
                        links += 1;
                        if links > MAX_LINKS {
                            return Err(fail(ResolveErrorKind::TooManyLinks, &current));
                        }
                        let target = fs.readlink(here).map_err(|e| from_io(&e, &current))?;
                        let target_bytes = target.as_bytes();
                        if target_bytes.is_empty() {
                            return Err(fail(ResolveErrorKind::NotFound, &current));
                        }
                        record(Step::Follow {
                            link: here.to_path_buf(),
                            target: target.clone(),
                        });
                        let mut expanded =
                            Vec::with_capacity(target_bytes.len() + rest.len() - pos);
                        expanded.extend_from_slice(target_bytes);
                        expanded.extend_from_slice(&rest[pos..]);
                        rest = expanded;
                        pos = 0;
                        current.truncate(if target_bytes[0] == b'/' { 1 } else { saved });
                    }
                    Ok(FileKind::Dir) => {
                        record(Step::Enter {
                            path: here.to_path_buf(),
                            kind: FileKind::Dir,
                        });
                        if last && write {
                            return Err(fail(ResolveErrorKind::IsADirectory, &current));
                        }
                        kind = FileKind::Dir;
                    }
                    Ok(FileKind::File) => {
                        if more || slash_after {
                            return Err(fail(ResolveErrorKind::NotADirectory, &current));
                        }
                        record(Step::Enter {
                            path: here.to_path_buf(),
                            kind: FileKind::File,
                        });
                        kind = FileKind::File;
                    }
                    Err(e) => {
                        let error = from_io(&e, &current);
                        let creatable = last && write && !slash_after;
                        if creatable && error.kind == ResolveErrorKind::NotFound {
                            record(Step::Create {
                                path: here.to_path_buf(),
                            });
                            return Ok(Target {
                                path: here.to_path_buf(),
                                kind: None,
                            });
                        }
                        return Err(error);
                    }
                }
            }
        }
    }
    // Only a link whose target is all slashes ends a walk here on a write.
    if write && kind == FileKind::Dir {
        return Err(fail(ResolveErrorKind::IsADirectory, &current));
    }
    Ok(Target {
        path: PathBuf::from(OsString::from_vec(current)),
        kind: Some(kind),
    })
}

#[cfg(test)]
mod tests {
    //! The walk itself is tested on the in-memory tree in
    //! `core/tests/resolve.rs` (`MemFs` sits above this module).

    use super::*;

    /// Every errno the walk can meet is named as the kernel names it; the
    /// file systems in the tests rarely produce some of them (an `lstat`
    /// that fails with ENOTDIR, ENAMETOOLONG or ELOOP means the tree changed
    /// under the walk).
    #[test]
    fn io_errors_are_named_by_errno() {
        let named = |errno: Errno| {
            from_io(&io::Error::from_raw_os_error(errno.raw_os_error()), b"/x/y").kind
        };
        assert_eq!(named(Errno::NOENT), ResolveErrorKind::NotFound);
        assert_eq!(named(Errno::NOTDIR), ResolveErrorKind::NotADirectory);
        assert_eq!(named(Errno::NAMETOOLONG), ResolveErrorKind::NameTooLong);
        assert_eq!(named(Errno::LOOP), ResolveErrorKind::TooManyLinks);
        assert_eq!(
            named(Errno::ACCESS),
            ResolveErrorKind::Io(io::ErrorKind::PermissionDenied)
        );
        let error = from_io(
            &io::Error::from_raw_os_error(Errno::NOENT.raw_os_error()),
            b"/x/y",
        );
        assert_eq!(error.at, Path::new("/x/y"));
    }
}
