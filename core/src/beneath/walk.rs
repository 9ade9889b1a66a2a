//! The fallback backend: a component walk in user space that can never
//! leave the root.
//!
//! Its guarantee rests on three rules. The kernel is only ever asked to
//! look up one plain name in a directory the walk holds open, never to
//! follow a link (`O_NOFOLLOW`) nor to take `..`. A link is read from the
//! descriptor of the link itself (`readlinkat(fd, "")`), so what is read is
//! what was inspected. `..` is a step back along the directories the walk
//! holds open, so it can reach nothing the walk did not pass through, and
//! at the root it is refused (`EXDEV`) as `RESOLVE_BENEATH` refuses it. A
//! final climb of `..` from the directory it stopped in proves the root is
//! still an ancestor, in case a directory was moved out meanwhile.

use std::os::fd::AsFd;

use rustix::fd::{BorrowedFd, OwnedFd};
use rustix::fs::{fstat, fstatfs, openat, readlinkat, FileType, Mode, OFlags, CWD};
use rustix::io::Errno;

use super::scope::Scope;
use crate::limits::{MAX_LINKS, NAME_MAX, PATH_MAX};

/// How often a final name that changed kind between two looks (a file
/// swapped for a link) is looked at again before giving up.
const RETRIES: u32 = 16;

/// How the walk opens each step: the name itself, never what a link names,
/// and not inherited by a child.
const STEP: OFlags = OFlags::PATH.union(OFlags::NOFOLLOW).union(OFlags::CLOEXEC);

/// A step that must be a directory: `/`, and each `..` of the final climb.
const STEP_DIR: OFlags = STEP.union(OFlags::DIRECTORY);

/// What the final name's open adds to the caller's flags: the walk has
/// already looked at the name, so a link there is not followed.
const LAST: OFlags = OFlags::NOFOLLOW.union(OFlags::CLOEXEC);

/// `O_CREAT | O_EXCL`: the name must be new.
const CREATE_EXCL: OFlags = OFlags::CREATE.union(OFlags::EXCL);

/// Opens `path` beneath `root` as `openat2` with `RESOLVE_BENEATH` (or
/// `RESOLVE_IN_ROOT`) and `RESOLVE_NO_MAGICLINKS` would, with the same
/// errno for the same tree.
pub(crate) fn open_beneath(
    root: BorrowedFd<'_>,
    path: &[u8],
    flags: OFlags,
    mode: Mode,
    scope: Scope,
) -> Result<OwnedFd, Errno> {
    if path.len() >= PATH_MAX {
        return Err(Errno::NAMETOOLONG);
    }
    let mut walk = Walk {
        root,
        scope,
        stack: Vec::new(),
        links: 0,
    };
    // `O_CREAT | O_EXCL` never follows a final link: the name must be new.
    let exclusive = flags.contains(CREATE_EXCL);
    let follow_last = !flags.contains(OFlags::NOFOLLOW) && !exclusive;
    let mut rest = path.to_vec();
    if rest.first() == Some(&b'/') {
        walk.absolute()?;
    }
    let mut pos = 0;
    let mut retries = 0;
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
        let last = rest[pos..].iter().all(|&b| b == b'/');
        let slash_after = pos < rest.len();
        let name = &rest[start..pos];
        if name == b"." {
            continue;
        }
        if name == b".." {
            walk.parent()?;
            continue;
        }
        if name.len() > NAME_MAX {
            return Err(Errno::NAMETOOLONG);
        }
        if !last || slash_after {
            if last && flags.contains(OFlags::CREATE) {
                // `open("name/", O_CREAT)`: refused before any lookup.
                return Err(Errno::ISDIR);
            }
            // A directory to enter, or a link to one.
            let fd = openat(walk.here(), name, STEP, Mode::empty())?;
            match FileType::from_raw_mode(fstat(&fd)?.st_mode) {
                FileType::Directory => walk.stack.push(fd),
                FileType::Symlink => {
                    let target = walk.read_link(&fd)?;
                    rest = splice(&target, &rest[pos..]);
                    pos = 0;
                }
                _ => return Err(Errno::NOTDIR),
            }
            continue;
        }
        // The last name: look first, so that a link is followed by hand.
        let probe = openat(walk.here(), name, STEP, Mode::empty());
        match probe {
            Ok(fd) if follow_last && is_link(&fd)? => {
                let target = walk.read_link(&fd)?;
                rest = splice(&target, &rest[pos..]);
                pos = 0;
                continue;
            }
            Ok(_) | Err(Errno::NOENT) => {}
            Err(e) => return Err(e),
        }
        let flags = flags | LAST;
        let opened = openat(walk.here(), name, flags, mode).and_then(|fd| {
            // O_PATH | O_NOFOLLOW hands back a link rather than refusing it.
            if follow_last && flags.contains(OFlags::PATH) && is_link(&fd)? {
                Err(Errno::LOOP)
            } else {
                Ok(fd)
            }
        });
        match opened {
            Ok(fd) => {
                walk.verify()?;
                return Ok(fd);
            }
            // The name changed since the probe: a link planted there (or
            // planted and taken away again, so it no longer looks like
            // one). Look again, a bounded number of times; if it keeps
            // failing this way, that is the answer.
            Err(Errno::LOOP | Errno::NOTDIR) if follow_last && retries < RETRIES => {
                retries += 1;
                pos = start;
            }
            Err(e) => return Err(e),
        }
    }
    // The path ends on a directory: the root, or one named by `.` or `..`.
    // The kernel refuses to create there.
    if exclusive {
        return Err(Errno::EXIST);
    }
    if flags.contains(OFlags::CREATE) {
        return Err(Errno::ISDIR);
    }
    let fd = openat(walk.here(), ".", flags | OFlags::CLOEXEC, mode)?;
    walk.verify()?;
    Ok(fd)
}

/// Opens the absolute, normal `path` one component at a time from `/`,
/// refusing a symlink anywhere (`ELOOP`), as `RESOLVE_NO_SYMLINKS` does.
pub(crate) fn open_physical(path: &[u8], flags: OFlags, mode: Mode) -> Result<OwnedFd, Errno> {
    let mut names = path.split(|&b| b == b'/').filter(|n| !n.is_empty());
    let Some(last) = names.next_back() else {
        return openat(CWD, "/", flags | OFlags::CLOEXEC, mode);
    };
    let mut dir = openat(CWD, "/", STEP_DIR, Mode::empty())?;
    for name in names {
        let fd = openat(&dir, name, STEP, Mode::empty())?;
        match FileType::from_raw_mode(fstat(&fd)?.st_mode) {
            FileType::Directory => dir = fd,
            FileType::Symlink => return Err(Errno::LOOP),
            _ => return Err(Errno::NOTDIR),
        }
    }
    let fd = openat(&dir, last, flags | LAST, mode)?;
    if flags.contains(OFlags::PATH) && !flags.contains(OFlags::NOFOLLOW) && is_link(&fd)? {
        return Err(Errno::LOOP);
    }
    Ok(fd)
}

/// Where a walk stands: the root and the directories entered beneath it.
struct Walk<'r> {
    root: BorrowedFd<'r>,
    scope: Scope,
    /// Each opened by name from the one before (the first from the root):
    /// the physical way back up.
    stack: Vec<OwnedFd>,
    links: u32,
}

impl Walk<'_> {
    fn here(&self) -> BorrowedFd<'_> {
        self.stack.last().map_or(self.root, AsFd::as_fd)
    }

    fn parent(&mut self) -> Result<(), Errno> {
        match (self.stack.pop(), self.scope) {
            (Some(_), _) | (None, Scope::InRoot) => Ok(()),
            (None, Scope::Beneath) => Err(Errno::XDEV),
        }
    }

    /// An absolute path or link: refused beneath a root, restarted from the
    /// root when the root is `/`.
    fn absolute(&mut self) -> Result<(), Errno> {
        match self.scope {
            Scope::Beneath => Err(Errno::XDEV),
            Scope::InRoot => {
                self.stack.clear();
                Ok(())
            }
        }
    }

    /// Counts and reads the link open as `link` (`O_PATH | O_NOFOLLOW`).
    fn read_link(&mut self, link: &OwnedFd) -> Result<Vec<u8>, Errno> {
        self.links += 1;
        if self.links > MAX_LINKS {
            return Err(Errno::LOOP);
        }
        // procfs links (`/proc/self/fd/N`) jump rather than name a path;
        // refuse them all, as RESOLVE_NO_MAGICLINKS refuses the magic ones.
        if fstatfs(link)?.f_type == rustix::fs::PROC_SUPER_MAGIC {
            return Err(Errno::LOOP);
        }
        let target = readlinkat(link, "", Vec::new())?.into_bytes();
        match target.first() {
            None => Err(Errno::NOENT),
            Some(b'/') => {
                self.absolute()?;
                Ok(target)
            }
            Some(_) => Ok(target),
        }
    }

    /// Checks that the directory the walk stopped in still has the root
    /// among its ancestors: a directory moved out of the root while the
    /// walk stood in it would otherwise take the walk along.
    fn verify(&self) -> Result<(), Errno> {
        let Some(top) = self.stack.last() else {
            return Ok(());
        };
        let root = file_id(self.root)?;
        let mut here = file_id(top)?;
        if here == root {
            return Ok(());
        }
        let mut dir = openat(top, "..", STEP_DIR, Mode::empty())?;
        for _ in 0..PATH_MAX / 2 {
            let up = file_id(&dir)?;
            if up == root {
                return Ok(());
            }
            if up == here {
                // `..` of `/` is `/`: the top was reached without the root.
                return Err(Errno::XDEV);
            }
            here = up;
            dir = openat(&dir, "..", STEP_DIR, Mode::empty())?;
        }
        Err(Errno::XDEV)
    }
}

fn is_link(fd: &OwnedFd) -> Result<bool, Errno> {
    Ok(FileType::from_raw_mode(fstat(fd)?.st_mode) == FileType::Symlink)
}

/// A file's identity: (device, inode).
pub(crate) fn file_id(fd: impl AsFd) -> Result<(u64, u64), Errno> {
    let stat = fstat(fd)?;
    Ok((stat.st_dev, stat.st_ino))
}

/// A link's target followed by what remained of the path after the link.
fn splice(target: &[u8], rest: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(target.len() + rest.len());
    out.extend_from_slice(target);
    out.extend_from_slice(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(path: &std::path::Path) -> OwnedFd {
        let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
        rustix::fs::open(path, flags, Mode::empty()).unwrap()
    }

    #[test]
    fn a_directory_moved_out_mid_walk_is_caught() {
        let temp = tempfile::tempdir().unwrap();
        let base = temp.path();
        std::fs::create_dir_all(base.join("root/a/b")).unwrap();
        std::fs::create_dir(base.join("out")).unwrap();
        let root = dir(&base.join("root"));
        let mut walk = Walk {
            root: root.as_fd(),
            scope: Scope::Beneath,
            stack: vec![dir(&base.join("root/a")), dir(&base.join("root/a/b"))],
            links: 0,
        };
        assert_eq!(walk.verify(), Ok(()));
        std::fs::rename(base.join("root/a"), base.join("out/a")).unwrap();
        assert_eq!(walk.verify(), Err(Errno::XDEV));
        // `..` is a step back along the walk, never the kernel's `..`.
        walk.stack.pop();
        assert_eq!(walk.verify(), Err(Errno::XDEV));
        walk.stack.pop();
        assert_eq!(walk.verify(), Ok(()));
        assert_eq!(walk.parent(), Err(Errno::XDEV));
    }
}
