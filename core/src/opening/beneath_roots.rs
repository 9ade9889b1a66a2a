//! The one way a path is opened beneath its root, for [`Roots::open`] and
//! [`PinnedRoots::open`](crate::PinnedRoots::open): check, choose the root
//! the path spells, open the rest beneath that root's handle.

use std::ffi::OsStr;
use std::fs::File;
use std::os::fd::AsFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use rustix::fs::{Mode, OFlags};
use rustix::io::Errno;

use super::backend::Backend;
use super::error::OpenError;
use super::handle::{Handles, RootHandle};
use super::split::rest_beneath;
use crate::beneath::{file_id, Scope};
use crate::op::Op;
use crate::resolve::{ResolveError, ResolveErrorKind};
use crate::root_id::RootId;
use crate::roots::Roots;
use crate::verdict::Verdict;

/// The flags and mode of `op` (semantics §2, with the write policy).
fn open_flags(op: Op) -> (OFlags, Mode) {
    match op {
        Op::Read => (READ_FLAGS, Mode::empty()),
        Op::Write => (WRITE_FLAGS, Mode::from_raw_mode(0o666)),
    }
}

const READ_FLAGS: OFlags = OFlags::RDONLY.union(OFlags::NOCTTY);
const WRITE_FLAGS: OFlags = OFlags::WRONLY
    .union(OFlags::CREATE)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::NOCTTY);

/// The accepted root to open beneath (its position) and the rest of the
/// path: the verdict's root when the path spells it, else the first root
/// that the path spells.
fn choose_root<'p>(roots: &Roots, inside: RootId, path: &'p [u8]) -> Option<(usize, &'p [u8])> {
    let preferred = roots.accepted.iter().position(|r| r.id() == inside);
    let others = (0..roots.accepted.len()).filter(|&p| Some(p) != preferred);
    preferred.into_iter().chain(others).find_map(|position| {
        let root = &roots.accepted[position];
        [&root.resolved, &root.path]
            .into_iter()
            .find_map(|at| rest_beneath(path, at.as_os_str().as_bytes()))
            .map(|rest| (position, rest))
    })
}

/// [`Roots::open`] and [`PinnedRoots::open`](super::PinnedRoots::open): check, choose the root, open
/// the rest beneath the root's handle from `handles`.
pub(crate) fn open_beneath_roots(
    roots: &Roots,
    handles: &Handles,
    backend: Backend,
    path: &OsStr,
    op: Op,
) -> Result<(File, Verdict), OpenError> {
    let engine = backend.engine()?;
    let verdict = roots.check(path, op);
    let inside = match &verdict {
        Verdict::Inside { root, .. } => *root,
        Verdict::Outside { target } => {
            return Err(OpenError::Outside {
                target: target.clone(),
            })
        }
        Verdict::Unresolvable(e) => return Err(OpenError::Unresolvable(e.clone())),
    };
    let given = || PathBuf::from(path);
    let (position, rest) =
        choose_root(roots, inside, path.as_bytes()).ok_or_else(|| OpenError::NotUnderRootPath {
            root: inside,
            path: given(),
        })?;
    let root = &roots.accepted[position];
    let (flags, mode) = open_flags(op);
    let fd = match handles.get(position, root, engine)? {
        RootHandle::Dir(dir) => {
            let scope = if root.resolved == Path::new("/") {
                Scope::InRoot
            } else {
                Scope::Beneath
            };
            match engine.open_beneath(dir.as_fd(), rest, flags, mode, scope) {
                Ok(fd) => fd,
                Err(Errno::LOOP) if op == Op::Write && engine.last_is_link(dir, rest, scope) => {
                    return Err(OpenError::FinalSymlink { path: given() })
                }
                Err(errno) => return Err(OpenError::from_errno(errno, root.id(), given())),
            }
        }
        RootHandle::File(pinned) => {
            if !rest.is_empty() {
                return Err(OpenError::Unresolvable(ResolveError {
                    kind: ResolveErrorKind::NotADirectory,
                    at: root.resolved.clone(),
                }));
            }
            // The file's directory is outside the root: never create there.
            let at = root.resolved.as_os_str().as_bytes();
            let fd = engine
                .open_physical(at, flags - OFlags::CREATE, mode)
                .map_err(|errno| match errno {
                    Errno::NOENT | Errno::LOOP | Errno::NOTDIR => OpenError::RootChanged {
                        root: root.id(),
                        path: root.resolved.clone(),
                    },
                    _ => OpenError::from_errno(errno, root.id(), given()),
                })?;
            if file_id(&fd).ok() != Some(*pinned) {
                return Err(OpenError::RootChanged {
                    root: root.id(),
                    path: root.resolved.clone(),
                });
            }
            fd
        }
    };
    Ok((File::from(fd), verdict))
}
