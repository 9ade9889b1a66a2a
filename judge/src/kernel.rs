//! Kernel truth for a materialized tree: the targets Linux itself reaches,
//! found without writing anything.
//!
//! - `read`: `open(path, O_PATH)` follows every link; `readlink` of
//!   `/proc/self/fd/N` names what it reached.
//! - `write`: the parent is opened with `O_PATH | O_DIRECTORY` and named
//!   the same way; the last name is inspected with `fstatat(...,
//!   AT_SYMLINK_NOFOLLOW)`: missing, it would be created in the parent; a
//!   directory is `either`; any other non-link is the target; a link is read
//!   and its target taken apart the same way, relative to the real parent.
//!   Linux counts links over the whole resolution, which this step-by-step
//!   walk cannot see; but up to the last component a write walks exactly
//!   the links a read walks, so `open(path, O_PATH)` failing with ELOOP or
//!   ENAMETOOLONG means the write fails too, and that probe is asked first.
//! - Roots: parsed by the oracle's URI parser, then resolved by
//!   `std::fs::canonicalize` (realpath(3)).

use std::ffi::OsStr;
use std::fmt;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::PathBuf;

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

use crate::oracle::{is_within, parse_root_uri, show_in, MAX_LINKS};
use crate::{Judgement, Materialized, Op, Truth};

/// Why the kernel would not reach a target, so the truth is `either`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KernelNoTarget {
    /// The path holds a NUL byte; no system call can take it.
    NulByte,
    /// The path does not start with `/`.
    NotAbsolute,
    /// A system call failed.
    Errno {
        /// The call, with its flags.
        call: &'static str,
        /// The path it was given.
        path: Vec<u8>,
        /// The error.
        errno: Errno,
    },
    /// `write`: the path ends in `/`.
    TrailingSlash,
    /// `write`: the last component is `.` or `..`, a directory.
    DotLast,
    /// `write`: the target is an existing directory.
    ExistingDirectory {
        /// The directory.
        path: Vec<u8>,
    },
    /// `write`: a link's target ends in `/`, `.` or `..`.
    LinkNamesDirectory {
        /// The link's target.
        target: Vec<u8>,
    },
    /// `write`: more than 40 links were followed at the last component.
    TooManyLinks,
    /// An empty link target (Linux: ENOENT).
    EmptyLink,
    /// `readlink("/proc/self/fd/N")` failed (is /proc mounted?).
    FdPath {
        /// The error.
        message: String,
    },
}

impl KernelNoTarget {
    /// The reason as [`Display`](fmt::Display) says it, with paths within
    /// `base` written as `{base}`.
    pub fn describe(&self, base: &[u8]) -> String {
        Described { reason: self, base }.to_string()
    }
}

impl fmt::Display for KernelNoTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Described {
            reason: self,
            base: b"/",
        }
        .fmt(f)
    }
}

struct Described<'a> {
    reason: &'a KernelNoTarget,
    base: &'a [u8],
}

impl fmt::Display for Described<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |path: &[u8]| show_in(self.base, path);
        match self.reason {
            KernelNoTarget::NulByte => f.write_str("the path holds a NUL byte"),
            KernelNoTarget::NotAbsolute => f.write_str("the path is not absolute"),
            KernelNoTarget::Errno { call, path, errno } => {
                write!(f, "{call} on {} failed: {}", show(path), errno_name(*errno))
            }
            KernelNoTarget::TrailingSlash => {
                f.write_str("a write path that ends in `/` names a directory")
            }
            KernelNoTarget::DotLast => {
                f.write_str("a write path that ends in `.` or `..` names a directory")
            }
            KernelNoTarget::ExistingDirectory { path } => {
                write!(f, "EISDIR: {} is a directory", show(path))
            }
            KernelNoTarget::LinkNamesDirectory { target } => {
                write!(f, "EISDIR: a link to {} names a directory", show(target))
            }
            KernelNoTarget::TooManyLinks => write!(f, "ELOOP: more than {MAX_LINKS} links"),
            KernelNoTarget::EmptyLink => f.write_str("ENOENT: an empty link"),
            KernelNoTarget::FdPath { message } => {
                write!(
                    f,
                    "cannot name an open file through /proc/self/fd ({message}); mount /proc"
                )
            }
        }
    }
}

impl std::error::Error for KernelNoTarget {}

fn errno_name(errno: Errno) -> String {
    let name = match errno {
        Errno::NOENT => "ENOENT",
        Errno::NOTDIR => "ENOTDIR",
        Errno::LOOP => "ELOOP",
        Errno::NAMETOOLONG => "ENAMETOOLONG",
        Errno::ACCESS => "EACCES",
        Errno::ISDIR => "EISDIR",
        other => return other.to_string(),
    };
    name.to_owned()
}

const PATH_FLAGS: OFlags = OFlags::PATH.union(OFlags::CLOEXEC);
const DIR_FLAGS: OFlags = OFlags::PATH.union(OFlags::DIRECTORY).union(OFlags::CLOEXEC);

fn check_path(path: &[u8]) -> Result<(), KernelNoTarget> {
    if path.contains(&0) {
        return Err(KernelNoTarget::NulByte);
    }
    if path.first() != Some(&b'/') {
        return Err(KernelNoTarget::NotAbsolute);
    }
    Ok(())
}

/// The path of an open file, as the kernel names it.
fn fd_path(fd: &OwnedFd) -> Result<Vec<u8>, KernelNoTarget> {
    let link = format!("/proc/self/fd/{}", fd.as_raw_fd());
    std::fs::read_link(link)
        .map(|p| p.into_os_string().into_vec())
        .map_err(|e| KernelNoTarget::FdPath {
            message: e.to_string(),
        })
}

fn join(dir: &[u8], name: &[u8]) -> Vec<u8> {
    let mut out = dir.to_vec();
    if out.last() != Some(&b'/') {
        out.push(b'/');
    }
    out.extend_from_slice(name);
    out
}

/// The `read` target: what `open(path, O_PATH)` reaches.
///
/// # Errors
///
/// Why there is none: the system call's error, or a path no call can take.
pub fn read_target(path: &[u8]) -> Result<Vec<u8>, KernelNoTarget> {
    check_path(path)?;
    let fd = rustix::fs::open(path, PATH_FLAGS, Mode::empty()).map_err(|errno| {
        KernelNoTarget::Errno {
            call: "open(O_PATH)",
            path: path.to_vec(),
            errno,
        }
    })?;
    fd_path(&fd)
}

/// The `write` target: where `open(path, O_WRONLY | O_CREAT)` would write,
/// found without writing.
///
/// # Errors
///
/// Why there is none: a system call's error, or a rule of semantics.md
/// section 2 (trailing `/`, an existing directory, a link naming a
/// directory).
pub fn write_target(path: &[u8]) -> Result<Vec<u8>, KernelNoTarget> {
    check_path(path)?;
    if path.last() == Some(&b'/') {
        return Err(KernelNoTarget::TrailingSlash);
    }
    // Errors of the shared walk (see the module docs).
    if let Err(errno) = rustix::fs::open(path, PATH_FLAGS, Mode::empty()) {
        if errno == Errno::LOOP || errno == Errno::NAMETOOLONG {
            return Err(KernelNoTarget::Errno {
                call: "open(O_PATH)",
                path: path.to_vec(),
                errno,
            });
        }
    }
    let slash = path.iter().rposition(|&b| b == b'/').unwrap_or(0);
    let (parent, name) = (&path[..=slash], &path[slash + 1..]);
    if name == b"." || name == b".." {
        return Err(KernelNoTarget::DotLast);
    }
    let mut dir = rustix::fs::open(parent, DIR_FLAGS, Mode::empty()).map_err(|errno| {
        KernelNoTarget::Errno {
            call: "open(O_PATH|O_DIRECTORY)",
            path: parent.to_vec(),
            errno,
        }
    })?;
    let mut name = name.to_vec();
    let mut links = 0;
    loop {
        let real_dir = fd_path(&dir)?;
        let stat = match rustix::fs::statat(dir.as_fd(), name.as_slice(), AtFlags::SYMLINK_NOFOLLOW)
        {
            Ok(stat) => stat,
            Err(Errno::NOENT) => return Ok(join(&real_dir, &name)),
            Err(errno) => {
                return Err(KernelNoTarget::Errno {
                    call: "fstatat(AT_SYMLINK_NOFOLLOW)",
                    path: join(&real_dir, &name),
                    errno,
                })
            }
        };
        match FileType::from_raw_mode(stat.st_mode) {
            FileType::Directory => {
                return Err(KernelNoTarget::ExistingDirectory {
                    path: join(&real_dir, &name),
                })
            }
            FileType::Symlink => {}
            _ => return Ok(join(&real_dir, &name)),
        }
        links += 1;
        if links > MAX_LINKS {
            return Err(KernelNoTarget::TooManyLinks);
        }
        let target = rustix::fs::readlinkat(dir.as_fd(), name.as_slice(), Vec::new())
            .map_err(|errno| KernelNoTarget::Errno {
                call: "readlinkat",
                path: join(&real_dir, &name),
                errno,
            })?
            .into_bytes();
        if target.is_empty() {
            return Err(KernelNoTarget::EmptyLink);
        }
        let (target_parent, target_name) = match target.iter().rposition(|&b| b == b'/') {
            Some(i) => (&target[..=i], &target[i + 1..]),
            None => (&b"."[..], &target[..]),
        };
        if target_name.is_empty() || target_name == b"." || target_name == b".." {
            return Err(KernelNoTarget::LinkNamesDirectory { target });
        }
        // Relative to the real parent; an absolute target ignores `dir`.
        dir = rustix::fs::openat(dir.as_fd(), target_parent, DIR_FLAGS, Mode::empty()).map_err(
            |errno| KernelNoTarget::Errno {
                call: "openat(O_PATH|O_DIRECTORY)",
                path: target_parent.to_vec(),
                errno,
            },
        )?;
        name = target_name.to_vec();
    }
}

/// A root's real location: parsed by the oracle's parser, then resolved by
/// realpath(3). `Err` says why it grants nothing.
pub fn resolve_root(uri: &str) -> Result<Vec<u8>, String> {
    resolve_root_in(uri, b"/")
}

fn resolve_root_in(uri: &str, base: &[u8]) -> Result<Vec<u8>, String> {
    let path = parse_root_uri(uri).map_err(|e| format!("is invalid ({e})"))?;
    std::fs::canonicalize(OsStr::from_bytes(&path))
        .map(|p| p.into_os_string().into_vec())
        .map_err(|e| format!("{} does not resolve ({e})", show_in(base, &path)))
}

/// Judges one query on the real file system, the way [`crate::oracle::judge`]
/// does on the model.
///
/// # Examples
///
/// ```
/// use rootguard_judge::{kernel, Op, Truth};
///
/// let j = kernel::judge(&["file:///".to_string()], b"/proc/self/../self", Op::Read);
/// assert_eq!(j.truth, Truth::Inside);
/// assert_eq!(kernel::judge(&[], b"/", Op::Write).truth, Truth::Either);
/// ```
pub fn judge(roots: &[String], path: &[u8], op: Op) -> Judgement {
    judge_in(roots, path, op, b"/")
}

/// [`judge`], with paths within `base` written as `{base}` in the
/// explanation.
fn judge_in(roots: &[String], path: &[u8], op: Op, base: &[u8]) -> Judgement {
    let show = |path: &[u8]| show_in(base, path);
    let mut notes = Vec::new();
    if roots.is_empty() {
        notes.push("no roots, so nothing is granted".to_owned());
    }
    let resolved: Vec<Option<Vec<u8>>> = roots
        .iter()
        .enumerate()
        .map(|(i, uri)| match resolve_root_in(uri, base) {
            Ok(real) => {
                notes.push(format!("root {i} -> {}", show(&real)));
                Some(real)
            }
            Err(why) => {
                notes.push(format!("root {i} {why}"));
                None
            }
        })
        .collect();
    let outcome = match op {
        Op::Read => read_target(path),
        Op::Write => write_target(path),
    };
    let (truth, target, root, what) = match outcome {
        Err(why) => (
            Truth::Either,
            None,
            None,
            format!(
                "{op} of {} cannot happen: {}",
                show(path),
                why.describe(base)
            ),
        ),
        Ok(target) => {
            let root = resolved
                .iter()
                .position(|r| r.as_deref().is_some_and(|r| is_within(&target, r)));
            let what = match root {
                Some(i) => format!("target {} is under root {i}", show(&target)),
                None => format!("target {} is under no root", show(&target)),
            };
            let truth = if root.is_some() {
                Truth::Inside
            } else {
                Truth::Outside
            };
            (
                truth,
                Some(PathBuf::from(OsStr::from_bytes(&target))),
                root,
                what,
            )
        }
    };
    let mut explanation = vec![what];
    explanation.extend(notes);
    Judgement {
        truth,
        target,
        root,
        explanation: explanation.join("; "),
    }
}

/// Judges every case of a materialized scenario on the real file system;
/// explanations write the base as `{base}`.
pub fn judge_materialized(materialized: &Materialized) -> Vec<Judgement> {
    let base = materialized.base_text().as_bytes();
    materialized
        .cases()
        .iter()
        .map(|case| judge_in(materialized.roots(), case.path.as_bytes(), case.op, base))
        .collect()
}
