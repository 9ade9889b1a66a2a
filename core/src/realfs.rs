//! The real file system, and the kernel shortcuts it brings: the whole
//! path resolved in one `open(O_PATH)`, and a path vouched for beneath its
//! root by `openat2(RESOLVE_BENEATH)`.

use std::cell::Cell;
use std::ffi::{OsStr, OsString};
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use rustix::fs::{Mode, OFlags};
use rustix::io::Errno;

use crate::beneath::{named_in, written_in_place, Engine};
use crate::limits::PATH_MAX;
use crate::normal::is_normal;
use crate::op::Op;
use crate::procfs::fd_path;
use crate::seam::sealed::Sealed;
use crate::seam::{resolver_by_reference, FileKind, Resolver};

/// The real file system of this process.
#[derive(Clone, Copy, Debug, Default)]
pub struct RealFs;

impl Resolver for RealFs {}
resolver_by_reference!(RealFs);

impl Sealed for RealFs {
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

    fn lands_beneath(&self, path: &[u8], root_len: usize, op: Op) -> bool {
        open_beneath_root(path, root_len, op)
    }

    /// The kernel resolves the whole path in one `open(O_PATH)` and names
    /// what it reached in `/proc/<pid>/fd`: three system calls whatever the
    /// depth, and faithful by construction. A normal path that the kernel
    /// opens with `RESOLVE_NO_SYMLINKS` leads exactly where its text says,
    /// so then even the `/proc` lookup is skipped. Any failure falls back to
    /// the walk, which then names the component that failed.
    fn resolve_whole(&self, path: &[u8], op: Op) -> Option<PathBuf> {
        // Relative paths are the walk's to refuse. A NUL byte or too long a
        // name needs no test here: the kernel refuses them (EINVAL,
        // ENAMETOOLONG) and the walk then names the problem. Neither does
        // too long a path for a read, which the kernel is given whole.
        if path.first() != Some(&b'/') {
            return None;
        }
        let normal = is_normal(path);
        match op {
            Op::Read => {
                if normal {
                    match open_link_free(path, O_PATH) {
                        LinkFree::Opened(_) => return Some(PathBuf::from(OsStr::from_bytes(path))),
                        LinkFree::Failed => return None,
                        LinkFree::Link => {}
                    }
                }
                let fd = rustix::fs::open(OsStr::from_bytes(path), O_PATH, Mode::empty()).ok()?;
                fd_path(&fd)
            }
            Op::Write => {
                // A write's path reaches the kernel in two pieces, each of
                // which may be short enough when the whole is not; the
                // write itself would fail with ENAMETOOLONG.
                if path.len() >= PATH_MAX {
                    return None;
                }
                let (parent, name) = parent_and_name(path)?;
                if matches!(name, b"" | b"." | b"..") {
                    return None;
                }
                let link_free = if normal {
                    open_link_free(parent, O_PATH_DIR)
                } else {
                    LinkFree::Link
                };
                let (dir, known_parent) = match link_free {
                    LinkFree::Opened(dir) => (dir, true),
                    LinkFree::Failed => return None,
                    LinkFree::Link => (
                        rustix::fs::open(OsStr::from_bytes(parent), O_PATH_DIR, Mode::empty())
                            .ok()?,
                        false,
                    ),
                };
                if !written_in_place(&dir, name) {
                    return None;
                }
                if known_parent {
                    return Some(PathBuf::from(OsStr::from_bytes(path)));
                }
                named_in(&dir, name)
            }
        }
    }
}

/// [`Sealed::lands_beneath`]. A path with no link in it is opened whole
/// with `RESOLVE_NO_SYMLINKS`, as [`Sealed::resolve_whole`] does: then it
/// leads where its text says. Otherwise the root is opened with
/// `RESOLVE_NO_SYMLINKS` (so its text names it, link-free), and the rest
/// beneath it with `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS`, which the
/// kernel fails (`EXDEV`, `ELOOP`) rather than let a `..` or an
/// absolute link leave the root, even one that would come back. A
/// write opens the parent so, and then looks at the name: a final
/// directory or link is the walk's to judge (`false`), a file or
/// nothing is written in place. Every failure is `false`.
fn open_beneath_root(path: &[u8], root_len: usize, op: Op) -> bool {
    // What a path with no link is opened for: the target for a read, its
    // parent for a write.
    let (whole, name, flags) = match op {
        Op::Read => (path, None, O_PATH),
        Op::Write => match parent_and_name(path) {
            Some((parent, name)) => (parent, Some(name), O_PATH_DIR),
            None => return false,
        },
    };
    match open_link_free(whole, flags) {
        LinkFree::Opened(fd) => name.is_none_or(|name| written_in_place(&fd, name)),
        LinkFree::Failed => false,
        LinkFree::Link => {
            let Ok(kernel) = Engine::kernel() else {
                return false;
            };
            let (root, rest) = split_at_root(path, root_len);
            let Ok(dir) = kernel.open_physical(root, O_PATH_DIR, Mode::empty()) else {
                return false;
            };
            kernel.landing(dir.as_fd(), rest, op).is_some()
        }
    }
}

/// A write's path cut at its last `/`: the parent's path (`/` for a name
/// at the top) and the name.
fn parent_and_name(path: &[u8]) -> Option<(&[u8], &[u8])> {
    let cut = memchr::memrchr(b'/', path)?;
    let parent = if cut == 0 { &b"/"[..] } else { &path[..cut] };
    Some((parent, &path[cut + 1..]))
}

/// `path` cut into the root's path, its first `root_len` bytes, and the
/// rest after the `/` that follows (the root `/` is followed by none);
/// the rest is empty when `path` is the root.
fn split_at_root(path: &[u8], root_len: usize) -> (&[u8], &[u8]) {
    let root = &path[..root_len];
    let rest = if root == b"/" {
        &path[1..]
    } else {
        path.get(root_len + 1..).unwrap_or_default()
    };
    (root, rest)
}

const O_PATH: OFlags = OFlags::PATH.union(OFlags::CLOEXEC);
const O_PATH_DIR: OFlags = O_PATH.union(OFlags::DIRECTORY);

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

/// Opens `path` with `flags` and `RESOLVE_NO_SYMLINKS`, where the kernel has `openat2`
/// (asked once, by [`Engine::kernel`]).
///
/// Where paths keep leading through links (a root reached through one, say)
/// the attempt is wasted work, so after a run of misses a thread tries only
/// one path in [`RETRY_EVERY`] until one is link-free again. Only speed
/// depends on this: a skipped attempt takes the general way.
fn open_link_free(path: &[u8], flags: OFlags) -> LinkFree {
    thread_local! {
        static MISSES: Cell<u32> = const { Cell::new(0) };
    }
    let Ok(kernel) = Engine::kernel() else {
        return LinkFree::Link;
    };
    let misses = MISSES.with(Cell::get);
    if misses >= MISS_STREAK && !misses.is_multiple_of(RETRY_EVERY) {
        MISSES.with(|m| m.set(misses.wrapping_add(1)));
        return LinkFree::Link;
    }
    let outcome = match kernel.open_physical(path, flags, Mode::empty()) {
        Ok(fd) => LinkFree::Opened(fd),
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

#[cfg(test)]
mod tests {
    //! The kernel shortcut must answer (not merely fall back to the walk,
    //! which would hide a broken shortcut behind a right verdict) and must
    //! answer exactly what the walk would.

    use super::*;
    use crate::resolve::resolve_target;
    use crate::seam::Fs;
    use rustix::fs::{FileType, CWD};
    use std::os::unix::fs::symlink;

    /// A canonical temp dir with `real/file`, `real/sub/`, `link -> real`,
    /// `up -> /` and `final -> real/file`.
    fn tree() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().expect("temp dir");
        let base = dir.path().canonicalize().expect("canonical");
        std::fs::create_dir_all(base.join("real/sub")).expect("dirs");
        std::fs::write(base.join("real/file"), b"x").expect("file");
        symlink("real", base.join("link")).expect("link");
        symlink("/", base.join("up")).expect("up");
        symlink("real/file", base.join("final")).expect("final");
        (dir, base)
    }

    fn whole(path: &Path, op: Op) -> Option<PathBuf> {
        RealFs.resolve_whole(path.as_os_str().as_bytes(), op)
    }

    /// The shortcut's answer, checked against the walk's.
    fn answers(path: &Path, op: Op) -> PathBuf {
        let fast = whole(path, op).unwrap_or_else(|| panic!("no shortcut for {path:?}"));
        let walk = resolve_target(&NoShortcut, path, op)
            .expect("the walk resolves it")
            .path;
        assert_eq!(fast, walk, "{path:?} {op:?}");
        fast
    }

    /// A reference to the real file system answers as the file system
    /// itself, shortcuts included.
    #[test]
    fn a_reference_answers_as_the_file_system_itself() {
        let (_dir, base) = tree();
        let by_ref = &RealFs;
        for (rest, op) in [
            ("real/file", Op::Read),
            ("link/new", Op::Write),
            ("missing", Op::Read),
        ] {
            let path = base.join(rest);
            let bytes = path.as_os_str().as_bytes();
            assert_eq!(
                by_ref.resolve_whole(bytes, op),
                RealFs.resolve_whole(bytes, op)
            );
            for root in [base.join("real"), base.clone()] {
                let len = root.as_os_str().len();
                assert_eq!(
                    by_ref.lands_beneath(bytes, len, op),
                    RealFs.lands_beneath(bytes, len, op),
                    "{rest} beneath {root:?}"
                );
            }
        }
        assert!(by_ref.lands_beneath(
            base.join("real/file").as_os_str().as_bytes(),
            base.as_os_str().len(),
            Op::Read
        ));
        assert_eq!(
            by_ref.lstat(&base.join("link")).ok(),
            Some(FileKind::Symlink)
        );
        assert_eq!(by_ref.lstat(&base.join("real")).ok(), Some(FileKind::Dir));
        assert_eq!(
            by_ref.readlink(&base.join("link")).ok(),
            Some("real".into())
        );
        assert!(by_ref.readlink(&base.join("real")).is_err());
    }

    /// The real file system with the shortcut turned off.
    struct NoShortcut;
    impl Fs for NoShortcut {
        fn lstat(&self, path: &Path) -> io::Result<FileKind> {
            RealFs.lstat(path)
        }
        fn readlink(&self, path: &Path) -> io::Result<OsString> {
            RealFs.readlink(path)
        }
    }

    #[test]
    fn reads_are_answered_with_and_without_links() {
        let (_dir, base) = tree();
        // Repeat past the rationing of link-free attempts.
        for _ in 0..40 {
            for (path, target) in [
                ("real/file", "real/file"),
                ("link/file", "real/file"),
                ("link/sub/..", "real"),
                ("final", "real/file"),
            ] {
                assert_eq!(answers(&base.join(path), Op::Read), base.join(target));
            }
        }
        assert_eq!(whole(&base.join("missing"), Op::Read), None);
        assert_eq!(whole(&base.join("real/file/x"), Op::Read), None);
    }

    #[test]
    fn writes_are_answered_beneath_plain_and_linked_parents() {
        let (_dir, base) = tree();
        for _ in 0..40 {
            for (path, target) in [
                ("real/new", "real/new"),
                ("real/file", "real/file"),
                ("link/new", "real/new"),
                ("link/sub/../new", "real/new"),
            ] {
                assert_eq!(answers(&base.join(path), Op::Write), base.join(target));
            }
        }
        // A name of exactly NAME_MAX bytes is a name.
        let longest = "n".repeat(crate::limits::NAME_MAX);
        assert_eq!(
            answers(&base.join("real").join(&longest), Op::Write),
            base.join("real").join(&longest)
        );
        assert_eq!(
            answers(&base.join("link").join(&longest), Op::Write),
            base.join("real").join(&longest)
        );
        // Beneath a link to `/`: the parent is `/` itself (only looked at).
        let name = "rootguard-test-no-such-name";
        assert_eq!(
            answers(&base.join("up").join(name), Op::Write),
            Path::new("/").join(name)
        );
    }

    #[test]
    fn writes_the_walk_must_decide_are_left_to_it() {
        let (_dir, base) = tree();
        for path in [
            "final",
            "link/sub",
            "real/sub",
            "real/.",
            "real/..",
            "real/new/",
        ] {
            let bytes = [base.as_os_str().as_bytes(), b"/", path.as_bytes()].concat();
            assert_eq!(RealFs.resolve_whole(&bytes, Op::Write), None, "{path}");
        }
        // PATH_MAX bytes in all, though the parent and the name each fit:
        // `{base}/././.../real/nnn...`.
        let base_bytes = base.as_os_str().as_bytes();
        let pad = "/.".repeat((PATH_MAX - base_bytes.len() - b"/real/".len() - 200) / 2);
        let parent = [base_bytes, pad.as_bytes(), b"/real/"].concat();
        let long = |total: usize| {
            let mut path = parent.clone();
            path.resize(total, b'n');
            path
        };
        let fits = long(PATH_MAX - 1);
        let name = OsStr::from_bytes(&fits[parent.len()..]);
        assert_eq!(
            whole(Path::new(OsStr::from_bytes(&fits)), Op::Write),
            Some(base.join("real").join(name))
        );
        assert_eq!(RealFs.resolve_whole(&long(PATH_MAX), Op::Write), None);
        assert_eq!(whole(&base.join("missing/new"), Op::Write), None);
        assert_eq!(whole(&base.join("link/missing/new"), Op::Write), None);
        assert_eq!(whole(Path::new("relative/new"), Op::Write), None);
        assert_eq!(whole(Path::new("relative"), Op::Read), None);
    }

    /// A canonical temp dir (kept while the first is held) with `root/sub/`;
    /// returns the temp dir's path and the root's.
    fn root_with_sub() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let dir = tempfile::tempdir().expect("temp dir");
        let base = dir.path().canonicalize().expect("canonical");
        let root = base.join("root");
        std::fs::create_dir_all(root.join("sub")).expect("dirs");
        (dir, base, root)
    }

    /// `lands_beneath` vouches where the kernel can, refuses every way out
    /// (and every way that leaves and comes back), and every yes agrees
    /// with the walk.
    #[test]
    fn lands_beneath_vouches_only_for_what_stays_beneath() {
        let (_dir, base, root) = root_with_sub();
        std::fs::create_dir_all(base.join("outside")).expect("dirs");
        std::fs::write(root.join("file"), b"x").expect("file");
        std::fs::write(base.join("outside/secret"), b"x").expect("file");
        for (link, target) in [
            ("root/in", "sub".to_string()),
            ("root/fin", "file".to_string()),
            ("root/dot", ".".to_string()),
            ("root/abs_in", format!("{}/sub", root.display())),
            ("root/out", "../outside".to_string()),
            ("root/back", "../root/sub".to_string()),
            ("root/up", "..".to_string()),
            ("root/sub/dangling", "../new_target".to_string()),
            ("alias", "root".to_string()),
        ] {
            symlink(target, base.join(link)).expect("link");
        }
        let alias = base.join("alias");
        let file_root = root.join("file");
        let missing = base.join("missing");
        let cases: &[(&Path, &str, Op, bool)] = &[
            (&root, "file", Op::Read, true),
            (&root, "sub", Op::Read, true),
            (&root, "in", Op::Read, true),
            (&root, "fin", Op::Read, true),
            (&root, "dot", Op::Read, true),
            (&root, "in/new", Op::Write, true),
            (&root, "new", Op::Write, true),
            (&root, "file", Op::Write, true),
            (&root, "dot/new", Op::Write, true),
            // The walk's own rules: a final link or directory on a write.
            (&root, "fin", Op::Write, false),
            (&root, "sub/dangling", Op::Write, false),
            (&root, "sub", Op::Write, false),
            (&root, "missing", Op::Read, false),
            (&root, "missing/new", Op::Write, false),
            (&root, "file/x", Op::Read, false),
            // Out, or out and back in: the kernel refuses both.
            (&root, "out/secret", Op::Read, false),
            (&root, "out/new", Op::Write, false),
            (&root, "up", Op::Read, false),
            (&root, "up/root/file", Op::Read, false),
            (&root, "back", Op::Read, false),
            (&root, "back/new", Op::Write, false),
            (&root, "abs_in", Op::Read, false),
            // The root itself must be a link-free directory.
            (&alias, "file", Op::Read, false),
            (&alias, "new", Op::Write, false),
            (&file_root, "x", Op::Read, false),
            (&missing, "x", Op::Write, false),
        ];
        for &(root, rest, op, expected) in cases {
            let path = root.join(rest);
            let says =
                RealFs.lands_beneath(path.as_os_str().as_bytes(), root.as_os_str().len(), op);
            assert_eq!(says, expected, "{} / {rest} ({op:?})", root.display());
            if says {
                let walk = resolve_target(&NoShortcut, root.join(rest), op).expect("resolves");
                assert!(walk.path.starts_with(root), "{walk:?} not beneath {root:?}");
            }
        }
    }

    /// Nothing on the way is opened for reading: a FIFO opened so would
    /// block the server until a writer came. Runs of linked paths, so that
    /// the link-free attempt is rationed and the root and the rest are
    /// opened by `openat2`.
    #[test]
    fn lands_beneath_opens_nothing_for_reading_not_even_a_fifo() {
        let (_dir, base, root) = root_with_sub();
        symlink("sub", root.join("link")).expect("link");
        let fifo = |path: &Path| {
            rustix::fs::mknodat(CWD, path, FileType::Fifo, Mode::from_raw_mode(0o600), 0)
                .expect("mkfifo");
        };
        fifo(&root.join("sub/pipe"));
        fifo(&base.join("pipe_root"));
        let linked = root.join("link/pipe");
        let beneath_pipe = base.join("pipe_root/x");
        let len = |p: &Path| p.as_os_str().len();
        for _ in 0..40 {
            // A failed attempt ends the run of misses: start a new one.
            for _ in 0..8 {
                assert!(RealFs.lands_beneath(linked.as_os_str().as_bytes(), len(&root), Op::Read));
            }
            assert!(!RealFs.lands_beneath(
                beneath_pipe.as_os_str().as_bytes(),
                len(&base.join("pipe_root")),
                Op::Read
            ));
        }
    }
}
