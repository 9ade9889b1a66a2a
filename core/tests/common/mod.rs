//! A self-cleaning tree builder: the same tree on disk (in a temp dir) and
//! in memory, so every check can be made against both.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use rootguard::fs::MemFs;
use rootguard::open::{Backend, OpenError};
use rootguard::{Op, Roots, Verdict};
use rootguard_testsupport::Kernel;

/// One tree, twice: under a fresh temp dir and in a [`MemFs`] at the same
/// absolute paths.
pub struct Tree {
    _dir: tempfile::TempDir,
    pub base: PathBuf,
    pub mem: MemFs,
}

impl Tree {
    pub fn new() -> Tree {
        let dir = tempfile::tempdir().expect("temp dir");
        // The base must itself be link-free so targets compare as written.
        let base = dir.path().canonicalize().expect("canonical temp dir");
        let mut mem = MemFs::new();
        mem.add_dir(&base);
        Tree {
            _dir: dir,
            base,
            mem,
        }
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.base.join(rel)
    }

    /// Replaces `{base}` with the base directory.
    pub fn sub(&self, text: &str) -> String {
        text.replace("{base}", &self.base.to_string_lossy())
    }

    pub fn dir(&mut self, rel: &str) -> &mut Self {
        std::fs::create_dir_all(self.path(rel)).expect("create dir");
        self.mem.add_dir(self.path(rel));
        self
    }

    pub fn file(&mut self, rel: &str) -> &mut Self {
        let path = self.path(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create parent");
        }
        std::fs::write(&path, b"").expect("create file");
        self.mem.add_file(&path);
        self
    }

    pub fn link(&mut self, rel: &str, target: &str) -> &mut Self {
        let path = self.path(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create parent");
        }
        let target = self.sub(target);
        std::os::unix::fs::symlink(&target, &path).expect("create symlink");
        self.mem.add_symlink(&path, &target);
        self
    }

    /// Checks `path` (with `{base}`) on disk and in memory, asserts that
    /// both agree, and returns "inside", "outside" or "either".
    pub fn verdict(&self, roots: &[&str], path: &str, op: Op) -> &'static str {
        let uris: Vec<String> = roots.iter().map(|r| self.sub(r)).collect();
        let path = self.sub(path);
        let real = agreed(
            &Roots::new(&uris),
            &Roots::with_fs(&uris, &self.mem),
            &path,
            op,
        );
        word(&real)
    }
}

/// The verdict of `op` on `path`, asserting that the real and the
/// in-memory roots agree on it, that `inside` gives each one's root, and
/// that the real roots pinned give the same verdict and root.
pub fn agreed(real: &Roots, mem: &Roots<&MemFs>, path: impl AsRef<Path>, op: Op) -> Verdict {
    let path = path.as_ref();
    let verdict = real.check(path, op);
    let shown = path.display();
    assert_eq!(
        verdict,
        mem.check(path, op),
        "real and in-memory disagree on {shown} ({op})"
    );
    // The question without the target's name has the same answer.
    assert_eq!(
        real.inside(path, op),
        verdict.root(),
        "inside() on disk: {shown} ({op})"
    );
    assert_eq!(
        mem.inside(path, op),
        verdict.root(),
        "inside() in memory: {shown} ({op})"
    );
    // Pinned, on a tree that does not change: the same answers, through
    // openat2 and through the walk.
    for backend in [Backend::Auto, Backend::Walk] {
        let pinned = real.clone().pin().with_backend(backend);
        assert_eq!(
            pinned.check(path, op),
            verdict,
            "pinned check() ({backend:?}): {shown} ({op})"
        );
        assert_eq!(
            pinned.inside(path, op),
            verdict.root(),
            "pinned inside() ({backend:?}): {shown} ({op})"
        );
    }
    verdict
}

pub fn word(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::Inside { .. } => "inside",
        Verdict::Outside { .. } => "outside",
        Verdict::Unresolvable(_) => "either",
    }
}

/// What the kernel itself reaches for a read: open(O_PATH) and the
/// `/proc/self/fd` link of the result.
///
/// # Panics
///
/// Without `/proc/self/fd` (under CI; elsewhere after a skip message, when
/// every answer is `None`).
pub fn kernel_read_target(path: &Path) -> Option<PathBuf> {
    use rustix::fs::{open, Mode, OFlags};
    if !Kernel::ProcSelfFd.need("the kernel's own answer to a read") {
        return None;
    }
    let fd = open(path, OFlags::PATH | OFlags::CLOEXEC, Mode::empty()).ok()?;
    let link = format!("/proc/self/fd/{}", std::os::fd::AsRawFd::as_raw_fd(&fd));
    std::fs::read_link(link).ok()
}

/// The backends this machine can run: the walk always, openat2 where the
/// kernel allows it (and core agrees that it does).
///
/// # Panics
///
/// Under CI, when the kernel has no openat2: the walk alone would pass
/// without testing the backend most machines use.
pub fn backends() -> Vec<Backend> {
    let probe = Roots::new(["file:///"]).open_with("/", Op::Read, Backend::Openat2);
    let core_has_it = !matches!(probe, Err(OpenError::Openat2Unavailable(_)));
    // The two must agree both ways: a probe that fails where core
    // succeeds would skip the openat2 tests on every machine.
    let probe_has_it = Kernel::Openat2.found_here();
    assert_eq!(
        probe_has_it, core_has_it,
        "the test's openat2 probe and core disagree on whether this kernel has it: {probe:?}"
    );
    if Kernel::Openat2.need("the openat2 backend's tests") {
        vec![Backend::Openat2, Backend::Walk]
    } else {
        vec![Backend::Walk]
    }
}
