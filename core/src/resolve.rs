//! Kernel-faithful resolution of the location an operation reaches.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use rustix::io::Errno;

use crate::fs::{FileKind, Fs};
use crate::op::Op;

/// Linux follows at most this many symlinks in one resolution (`MAXSYMLINKS`).
pub const MAX_LINKS: u32 = 40;
/// A path of this many bytes or more is refused (`PATH_MAX`, NUL included).
pub const PATH_MAX: usize = 4096;
/// A component longer than this is refused (`NAME_MAX`).
pub const NAME_MAX: usize = 255;

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
/// use rootguard::{resolve_target, MemFs, Op};
/// let mut fs = MemFs::new();
/// fs.add_dir("/b/out").add_symlink("/b/root/dangling", "../out/new.txt");
/// let target = resolve_target(&fs, "/b/root/dangling", Op::Write).unwrap();
/// assert_eq!(target.path, std::path::Path::new("/b/out/new.txt"));
/// assert!(resolve_target(&fs, "/b/root/dangling", Op::Read).is_err());
/// ```
pub fn resolve_target<F: Fs + ?Sized>(
    fs: &F,
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
pub fn resolve_target_traced<F: Fs + ?Sized>(
    fs: &F,
    path: impl AsRef<OsStr>,
    op: Op,
    trace: &mut Vec<Step>,
) -> Result<Target, ResolveError> {
    resolve(fs, path.as_ref().as_bytes(), op, Some(trace))
}

pub(crate) fn resolve<F: Fs + ?Sized>(
    fs: &F,
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
    use super::*;
    use crate::memfs::MemFs;

    fn tree() -> MemFs {
        let mut fs = MemFs::new();
        fs.add_dir("/b/root/sub")
            .add_file("/b/root/file")
            .add_file("/b/out/secret")
            .add_symlink("/b/root/up", "..")
            .add_symlink("/b/root/abs", "/b/out")
            .add_symlink("/b/root/rel", "../out/secret")
            .add_symlink("/b/root/dangle", "../out/new")
            .add_symlink("/b/root/dangle_dir", "../out/newdir/")
            .add_symlink("/b/root/to_sub", "sub")
            .add_symlink("/b/root/sub/deep", "../../out")
            .add_symlink("/b/root/loop1", "loop2")
            .add_symlink("/b/root/loop2", "loop1")
            .add_symlink("/b/root/self", "self")
            .add_symlink("/b/root/empty_dir_link", "sub/")
            .add_symlink("/b/root/to_file_slash", "file/")
            .add_symlink("/b/root/to_slash", "/")
            .add_symlink("/b/root/to_slashes", "//");
        fs
    }

    fn at(path: &str, op: Op) -> String {
        match resolve_target(&tree(), path, op) {
            Ok(t) => t.path.to_string_lossy().into_owned(),
            Err(e) => format!("{:?}", e.kind),
        }
    }

    #[test]
    fn plain_walks() {
        assert_eq!(at("/", Op::Read), "/");
        assert_eq!(at("/b/root/file", Op::Read), "/b/root/file");
        assert_eq!(at("/b/root//sub/./", Op::Read), "/b/root/sub");
        assert_eq!(at("/b/root/sub/../file", Op::Read), "/b/root/file");
        assert_eq!(at("/../../b/root", Op::Read), "/b/root");
        assert_eq!(at("/b/root/missing", Op::Read), "NotFound");
        assert_eq!(at("/b/root/missing/x", Op::Write), "NotFound");
        assert_eq!(at("/b/root/file/x", Op::Read), "NotADirectory");
        assert_eq!(at("/b/root/file/", Op::Read), "NotADirectory");
        assert_eq!(at("/b/root/file/.", Op::Read), "NotADirectory");
        assert_eq!(at("/b/root/file/..", Op::Read), "NotADirectory");
    }

    #[test]
    fn links_are_followed_physically() {
        assert_eq!(at("/b/root/abs/secret", Op::Read), "/b/out/secret");
        assert_eq!(at("/b/root/rel", Op::Read), "/b/out/secret");
        assert_eq!(at("/b/root/up", Op::Read), "/b");
        assert_eq!(at("/b/root/to_sub/..", Op::Read), "/b/root");
        assert_eq!(at("/b/root/sub/deep/..", Op::Read), "/b");
        assert_eq!(at("/b/root/abs/../root", Op::Read), "/b/root");
        assert_eq!(at("/b/root/loop1", Op::Read), "TooManyLinks");
        assert_eq!(at("/b/root/self/x", Op::Read), "TooManyLinks");
        assert_eq!(at("/b/root/dangle", Op::Read), "NotFound");
        assert_eq!(at("/b/root/to_file_slash", Op::Read), "NotADirectory");
        assert_eq!(at("/b/root/empty_dir_link", Op::Read), "/b/root/sub");
    }

    #[test]
    fn write_targets() {
        assert_eq!(at("/b/root/new", Op::Write), "/b/root/new");
        assert_eq!(at("/b/root/file", Op::Write), "/b/root/file");
        assert_eq!(at("/b/root/dangle", Op::Write), "/b/out/new");
        assert_eq!(at("/b/root/rel", Op::Write), "/b/out/secret");
        assert_eq!(at("/b/root/abs/new", Op::Write), "/b/out/new");
        assert_eq!(at("/b/root/sub", Op::Write), "IsADirectory");
        assert_eq!(at("/b/root/sub/.", Op::Write), "IsADirectory");
        assert_eq!(at("/b/root/sub/..", Op::Write), "IsADirectory");
        assert_eq!(at("/b/root/new/", Op::Write), "TrailingSlash");
        assert_eq!(at("/", Op::Write), "TrailingSlash");
        assert_eq!(at("/b/root/dangle_dir", Op::Write), "NotFound");
        assert_eq!(at("/b/root/empty_dir_link", Op::Write), "IsADirectory");
        assert_eq!(at("/b/root/loop1", Op::Write), "TooManyLinks");
        // Found by the differential against the model: a link to "/".
        assert_eq!(at("/b/root/to_slash", Op::Write), "IsADirectory");
        assert_eq!(at("/b/root/to_slashes", Op::Write), "IsADirectory");
        assert_eq!(at("/b/root/to_slash", Op::Read), "/");
    }

    #[test]
    fn refused_paths() {
        assert_eq!(at("relative", Op::Read), "NotAbsolute");
        assert_eq!(at("", Op::Read), "NotAbsolute");
        assert_eq!(at("/b/\0", Op::Read), "NulByte");
        assert_eq!(
            at(&format!("/b/{}", "x".repeat(256)), Op::Read),
            "NameTooLong"
        );
        assert_eq!(
            at(&format!("/b/{}", "x".repeat(255)), Op::Write),
            format!("/b/{}", "x".repeat(255))
        );
        assert_eq!(
            at(&format!("/{}", "a/".repeat(2048)), Op::Read),
            "PathTooLong"
        );
    }

    #[test]
    fn forty_links_resolve_and_forty_one_do_not() {
        let mut fs = MemFs::new();
        fs.add_dir("/d");
        for i in 0..41 {
            fs.add_symlink(format!("/d/l{i}"), format!("l{}", i + 1));
        }
        fs.add_file("/d/l41");
        assert!(resolve_target(&fs, "/d/l1", Op::Read).is_ok());
        let err = resolve_target(&fs, "/d/l0", Op::Read).unwrap_err();
        assert_eq!(err.kind, ResolveErrorKind::TooManyLinks);
    }

    #[test]
    fn trace_names_each_step() {
        let mut trace = Vec::new();
        resolve_target_traced(&tree(), "/b/root/dangle", Op::Write, &mut trace).unwrap();
        let text: Vec<String> = trace.iter().map(ToString::to_string).collect();
        assert_eq!(
            text,
            [
                "/b (directory)",
                "/b/root (directory)",
                "/b/root/dangle -> ../out/new (symlink)",
                ".. -> /b",
                "/b/out (directory)",
                "/b/out/new (would be created)"
            ]
        );
    }

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

    /// A trailing slash makes the last component last all the same: a
    /// write there is refused for the slash, whatever the name is, and a
    /// read must find a directory.
    #[test]
    fn a_trailing_slash_is_judged_on_the_last_component() {
        use ResolveErrorKind::{NotADirectory, NotFound, TrailingSlash};
        let fs = tree();
        let cases: &[(&str, Op, Result<&str, ResolveErrorKind>)] = &[
            ("/b/root/new/", Op::Read, Err(NotFound)),
            ("/b/root/new/", Op::Write, Err(TrailingSlash)),
            ("/b/root/new//", Op::Write, Err(TrailingSlash)),
            ("/b/root/dangle/", Op::Read, Err(NotFound)),
            ("/b/root/dangle/", Op::Write, Err(TrailingSlash)),
            ("/b/root/sub/", Op::Read, Ok("/b/root/sub")),
            ("/b/root/sub/", Op::Write, Err(TrailingSlash)),
            ("/b/root/file/", Op::Read, Err(NotADirectory)),
            ("/b/root/file/", Op::Write, Err(TrailingSlash)),
            ("/b/root/up/", Op::Read, Ok("/b")),
        ];
        for (path, op, expected) in cases {
            let got = resolve_target(&fs, path, *op).map_err(|e| e.kind);
            let expected = expected.clone().map(PathBuf::from);
            assert_eq!(got.map(|t| t.path), expected, "{path} {op:?}");
        }
    }
}
