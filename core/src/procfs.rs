//! What `/proc` says about this process: the path an open descriptor
//! refers to, as the kernel names it.

use std::ffi::{OsStr, OsString};
use std::os::fd::{AsFd, AsRawFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

/// The path the kernel gives for what `fd` refers to: the link
/// `/proc/<pid>/fd/<fd>`. Naming this process by its pid rather than by
/// `/proc/self` spares the kernel following the `self` link, about an
/// eighth of the lookup. Only where `/proc/self` is found to name that same
/// pid ([`proc_knows_pid`]) is the pid used; otherwise `/proc/self`, as
/// before.
pub(crate) fn fd_path(fd: &impl AsFd) -> Option<PathBuf> {
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
    use super::*;
    use std::cell::Cell;

    #[test]
    fn fd_path_names_high_descriptors_and_refuses_deleted_files() {
        let dir = tempfile::tempdir().expect("temp dir");
        let base = dir.path().canonicalize().expect("canonical");
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
        let dir = tempfile::tempdir().expect("temp dir");
        let base = dir.path().canonicalize().expect("canonical");
        std::fs::create_dir(base.join("real")).expect("dir");
        std::fs::write(base.join("real/file"), b"x").expect("file");
        std::os::unix::fs::symlink("real", base.join("link")).expect("link");
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
