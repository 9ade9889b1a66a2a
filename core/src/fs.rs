//! The file-system seam: the two primitives resolution needs.

use std::ffi::{OsStr, OsString};
use std::io;
use std::os::fd::{AsFd, AsRawFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

use std::cell::Cell;
use std::os::fd::OwnedFd;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rustix::fs::{AtFlags, FileType, Mode, OFlags, ResolveFlags, CWD};
use rustix::io::Errno;

use crate::lexical::is_normal;
use crate::op::Op;
use crate::open::kernel::{open_beneath, open_physical};
use crate::open::Scope;
use crate::resolve::PATH_MAX;

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

    /// Whether `op` on `path` certainly lands at or beneath the root whose
    /// path is `path[..root_len]`, found without naming the target, for
    /// [`Roots::inside`].
    ///
    /// `path` is normal (no `.`, `..` or empty segment, no NUL, no final
    /// `/`), shorter than `PATH_MAX`, and continues past the root's path:
    /// after a `/`, or at once for the root `/`. `true` promises two
    /// things: the root's path names a directory with no link anywhere in
    /// its text, and `op` on `path` resolves (as [`resolve_target`] would)
    /// to a target at or beneath it. `false` means only "not known": the
    /// caller checks the long way, so an implementation may refuse
    /// whatever it cannot vouch for cheaply.
    ///
    /// [`resolve_target`]: crate::resolve_target
    /// [`Roots::inside`]: crate::Roots::inside
    fn lands_beneath(&self, path: &[u8], root_len: usize, op: Op) -> bool {
        let _ = (path, root_len, op);
        false
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

    fn lands_beneath(&self, path: &[u8], root_len: usize, op: Op) -> bool {
        (**self).lands_beneath(path, root_len, op)
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

    fn lands_beneath(&self, path: &[u8], root_len: usize, op: Op) -> bool {
        RealFs::open_beneath_root(path, root_len, op)
    }

    /// The kernel resolves the whole path in one `open(O_PATH)` and names
    /// what it reached in `/proc/self/fd`: three system calls whatever the
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
                    match open_link_free(path, OFlags::empty()) {
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
                    open_link_free(parent, OFlags::DIRECTORY)
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

impl RealFs {
    /// [`Fs::lands_beneath`]. A path with no link in it is opened whole
    /// with `RESOLVE_NO_SYMLINKS`, as [`Fs::resolve_whole`] does: then it
    /// leads where its text says. Otherwise the root is opened with
    /// `RESOLVE_NO_SYMLINKS` (so its text names it, link-free), and the rest
    /// beneath it with `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS`, which the
    /// kernel fails (`EXDEV`, `ELOOP`) rather than let a `..` or an
    /// absolute link leave the root, even one that would come back. A
    /// write opens the parent so, and then looks at the name: a final
    /// directory or link is the walk's to judge (`false`), a file or
    /// nothing is written in place. Every failure is `false`.
    fn open_beneath_root(path: &[u8], root_len: usize, op: Op) -> bool {
        // What is opened: the target for a read, its parent for a write.
        let (whole, name, extra) = match op {
            Op::Read => (path, None, OFlags::empty()),
            Op::Write => match parent_and_name(path) {
                Some((parent, name)) => (parent, Some(name), OFlags::DIRECTORY),
                None => return false,
            },
        };
        let (root, opened) = split_at_root(whole, root_len);
        let fd = match open_link_free(whole, extra) {
            LinkFree::Opened(fd) => fd,
            LinkFree::Failed => return false,
            LinkFree::Link if NO_OPENAT2.load(Ordering::Relaxed) => return false,
            LinkFree::Link => {
                let Ok(dir) = open_physical(root, OFlags::PATH | OFlags::DIRECTORY, Mode::empty())
                else {
                    return false;
                };
                if opened.is_empty() {
                    dir
                } else {
                    let flags = OFlags::PATH | extra;
                    match open_beneath(dir.as_fd(), opened, flags, Mode::empty(), Scope::Beneath) {
                        Ok(fd) => fd,
                        Err(_) => return false,
                    }
                }
            }
        };
        name.is_none_or(|name| written_in_place(&fd, name))
    }
}

/// A write's path cut at its last `/`: the parent's path (`/` for a name
/// at the top) and the name.
fn parent_and_name(path: &[u8]) -> Option<(&[u8], &[u8])> {
    let cut = memchr::memrchr(b'/', path)?;
    let parent = if cut == 0 { &b"/"[..] } else { &path[..cut] };
    Some((parent, &path[cut + 1..]))
}

/// Whether a write of `name` in the directory `dir` lands on that name
/// itself: nothing is there, or a file. A directory or a link there is the
/// walk's to judge (the write fails, or follows the link).
fn written_in_place(dir: &impl AsFd, name: &[u8]) -> bool {
    match rustix::fs::statat(dir, OsStr::from_bytes(name), AtFlags::SYMLINK_NOFOLLOW) {
        Ok(stat) => !matches!(
            FileType::from_raw_mode(stat.st_mode),
            FileType::Directory | FileType::Symlink
        ),
        Err(errno) => errno == Errno::NOENT,
    }
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

/// A kernel without `openat2` (before Linux 5.6) is remembered, and not
/// asked again.
static NO_OPENAT2: AtomicBool = AtomicBool::new(false);

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

/// Opens `path` with `RESOLVE_NO_SYMLINKS`, remembering a kernel that has
/// no `openat2` (before Linux 5.6).
///
/// Where paths keep leading through links (a root reached through one, say)
/// the attempt is wasted work, so after a run of misses a thread tries only
/// one path in [`RETRY_EVERY`] until one is link-free again. Only speed
/// depends on this: a skipped attempt takes the general way.
fn open_link_free(path: &[u8], extra: OFlags) -> LinkFree {
    thread_local! {
        static MISSES: Cell<u32> = const { Cell::new(0) };
    }
    if NO_OPENAT2.load(Ordering::Relaxed) {
        return LinkFree::Link;
    }
    let misses = MISSES.with(Cell::get);
    if misses >= MISS_STREAK && misses % RETRY_EVERY != 0 {
        MISSES.with(|m| m.set(misses.wrapping_add(1)));
        return LinkFree::Link;
    }
    let how = ResolveFlags::NO_SYMLINKS;
    let outcome = match rustix::fs::openat2(
        CWD,
        OsStr::from_bytes(path),
        O_PATH | extra,
        Mode::empty(),
        how,
    ) {
        Ok(fd) => LinkFree::Opened(fd),
        Err(Errno::NOSYS) => {
            NO_OPENAT2.store(true, Ordering::Relaxed);
            LinkFree::Link
        }
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

/// The path the kernel gives for what `fd` refers to: the link
/// `/proc/<pid>/fd/<fd>`. Naming this process by its pid rather than by
/// `/proc/self` spares the kernel following the `self` link, about an
/// eighth of the lookup. Only where `/proc/self` is found to name that same
/// pid ([`proc_knows_pid`]) is the pid used; otherwise `/proc/self`, as
/// before.
fn fd_path(fd: &impl AsFd) -> Option<PathBuf> {
    let fd = u32::try_from(fd.as_fd().as_raw_fd()).ok()?;
    let pid = std::process::id();
    // "/proc/" + 10 digits + "/fd/" + 10 digits.
    let mut link = [0u8; 30];
    let mut len = 0;
    let mut put = |bytes: &[u8]| {
        link[len..len + bytes.len()].copy_from_slice(bytes);
        len += bytes.len();
    };
    put(b"/proc/");
    if proc_knows_pid(pid) {
        put(decimal(pid, &mut [0; 10]));
    } else {
        put(b"self");
    }
    put(b"/fd/");
    put(decimal(fd, &mut [0; 10]));
    let target = rustix::fs::readlink(OsStr::from_bytes(&link[..len]), Vec::new()).ok()?;
    let bytes = target.into_bytes();
    // A path the kernel cannot express from our root is not a real path.
    if bytes.first() != Some(&b'/') || bytes.ends_with(b" (deleted)") {
        return None;
    }
    Some(PathBuf::from(OsString::from_vec(bytes)))
}

/// Whether `/proc/<pid>` is this process, whose pid is `pid`: `/proc/self`
/// names `pid`. It may not where `/proc` belongs to another pid namespace
/// than the process. Asked once per pid, so a forked child, whose pid
/// differs, asks again; a pid whose answer was no is remembered too.
fn proc_knows_pid(pid: u32) -> bool {
    /// The pid last asked about and its answer, as [`remembered`] keeps them.
    static ASKED: AtomicU64 = AtomicU64::new(0);
    remembered(&ASKED, pid, || {
        rustix::fs::readlink("/proc/self", Vec::new())
            .is_ok_and(|name| name.as_bytes() == decimal(pid, &mut [0; 10]))
    })
}

/// `ask()`'s answer about `pid`, asked only when `asked` holds another pid.
/// `asked` holds the pid last asked about, shifted left, with the answer in
/// bit 0 (0 before the first question: no pid is 0).
fn remembered(asked: &AtomicU64, pid: u32, ask: impl FnOnce() -> bool) -> bool {
    let last = asked.load(Ordering::Relaxed);
    if last >> 1 == u64::from(pid) {
        return last & 1 == 1;
    }
    let answer = ask();
    asked.store(u64::from(pid) << 1 | u64::from(answer), Ordering::Relaxed);
    answer
}

/// `n` in decimal, written at the end of `digits`.
fn decimal(mut n: u32, digits: &mut [u8; 10]) -> &[u8] {
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &digits[at..];
        }
    }
}

#[cfg(test)]
mod tests {
    //! The kernel shortcut must answer (not merely fall back to the walk,
    //! which would hide a broken shortcut behind a right verdict) and must
    //! answer exactly what the walk would.

    use super::*;
    use crate::resolve::resolve_target;
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
        let longest = "n".repeat(crate::resolve::NAME_MAX);
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

    #[test]
    fn fd_path_names_high_descriptors_and_refuses_deleted_files() {
        let (_dir, base) = tree();
        // Hold enough descriptors that some have two and three digits.
        let mut held = Vec::new();
        for i in 0..120 {
            let path = base.join(format!("f{i}"));
            std::fs::write(&path, b"").expect("file");
            held.push((std::fs::File::open(&path).expect("open"), path));
        }
        let mut widths = std::collections::BTreeSet::new();
        for (file, path) in &held {
            widths.insert(file.as_raw_fd().to_string().len());
            assert_eq!(fd_path(file).as_deref(), Some(path.as_path()));
        }
        assert!(widths.contains(&2) && widths.contains(&3), "{widths:?}");
        let (file, path) = held.pop().expect("one");
        std::fs::remove_file(&path).expect("remove");
        assert_eq!(fd_path(&file), None, "a deleted file has no path");
    }

    #[test]
    fn decimal_writes_every_width() {
        for n in [0, 7, 10, 99, 100, 4_194_304, u32::MAX] {
            assert_eq!(decimal(n, &mut [0; 10]), n.to_string().as_bytes());
        }
    }

    /// The pid route and the `/proc/self` route name the same file, and a
    /// change of pid (as in a forked child) is noticed: the pid is asked
    /// about again, not taken from the last answer.
    #[test]
    fn fd_path_by_pid_agrees_with_proc_self_and_notices_a_new_pid() {
        let (_dir, base) = tree();
        let file = std::fs::File::open(base.join("link/file")).expect("open");
        let own = std::process::id();
        let by_self = std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd()))
            .expect("/proc/self/fd");
        assert_eq!(by_self, base.join("real/file"));
        let self_names_own = std::fs::read_link("/proc/self")
            .is_ok_and(|name| name.as_os_str().as_bytes() == own.to_string().as_bytes());
        assert_eq!(proc_knows_pid(own), self_names_own);
        // Another pid: /proc/self does not name it.
        assert!(!proc_knows_pid(own.wrapping_add(1)));
        assert_eq!(proc_knows_pid(own), self_names_own);
        assert_eq!(fd_path(&file), Some(by_self));
    }

    /// One question per pid, yes or no, and a new question when the pid
    /// changes (a forked child), with its own answer.
    #[test]
    fn the_answer_about_a_pid_is_remembered_until_the_pid_changes() {
        let asked = AtomicU64::new(0);
        let questions = Cell::new(0);
        let ask = |answer: bool| {
            let questions = &questions;
            move || {
                questions.set(questions.get() + 1);
                answer
            }
        };
        assert!(remembered(&asked, 41, ask(true)));
        assert!(remembered(&asked, 41, ask(false)), "remembered, not asked");
        assert_eq!(questions.get(), 1);
        assert!(!remembered(&asked, 42, ask(false)), "a new pid is asked");
        assert!(!remembered(&asked, 42, ask(true)), "a no is remembered too");
        assert_eq!(questions.get(), 2);
        assert!(remembered(&asked, 41, ask(true)));
        assert!(remembered(&asked, u32::MAX, ask(true)));
        assert!(remembered(&asked, u32::MAX, ask(false)));
        assert_eq!(questions.get(), 4);
    }
}
