//! The kernel features some tests exercise, probed once per process.

use std::sync::OnceLock;

use rustix::fs::{openat2, renameat_with, Mode, OFlags, RenameFlags, ResolveFlags, CWD};

/// A kernel feature some tests cannot run without.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    /// `openat2(2)` with `RESOLVE_*` flags (Linux 5.6): core's fast backend.
    Openat2,
    /// `/proc/self/fd`: the path an open descriptor names.
    ProcSelfFd,
    /// `renameat2(2)` with `RENAME_EXCHANGE` (Linux 3.15) in the temp dir's
    /// file system: the gap-free swap the race tests make.
    RenameExchange,
}

impl Kernel {
    /// Whether the feature works here; when not, [`skip`](crate::skip)
    /// has said why (a failure under CI) and the caller returns or tests
    /// what remains. `what_for` names what needs it.
    ///
    /// # Panics
    ///
    /// Under CI, when the feature is missing.
    pub fn need(self, what_for: &str) -> bool {
        match self.found() {
            Ok(()) => true,
            Err(why) => {
                crate::skip(&format!("{why}, so {what_for} cannot run"), self.fix());
                false
            }
        }
    }

    /// Whether the feature works here, saying nothing when it does not.
    pub fn found_here(self) -> bool {
        self.found().is_ok()
    }

    fn fix(self) -> &'static str {
        match self {
            Kernel::Openat2 => {
                "run on Linux 5.6 or later, outside a seccomp filter that refuses openat2 \
                 (some container runtimes do)"
            }
            Kernel::ProcSelfFd => "mount procfs at /proc (`mount -t proc proc /proc`)",
            Kernel::RenameExchange => {
                "run on Linux 3.15 or later with TMPDIR on a file system that has \
                 renameat2(RENAME_EXCHANGE): ext4, xfs, btrfs, tmpfs"
            }
        }
    }

    fn found(self) -> &'static Result<(), String> {
        static FOUND: [OnceLock<Result<(), String>>; 3] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        FOUND[self as usize].get_or_init(|| self.probe())
    }

    fn probe(self) -> Result<(), String> {
        match self {
            // `.` beneath `/`: an absolute path would be refused with
            // EXDEV by RESOLVE_BENEATH itself, on every kernel.
            Kernel::Openat2 => rustix::fs::open(
                "/",
                OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
                Mode::empty(),
            )
            .and_then(|root| {
                openat2(
                    &root,
                    ".",
                    OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
                    Mode::empty(),
                    ResolveFlags::BENEATH,
                )
            })
            .map(drop)
            .map_err(|e| format!("openat2 is not available ({e})")),
            Kernel::ProcSelfFd => std::fs::read_dir("/proc/self/fd")
                .map(drop)
                .map_err(|e| format!("/proc/self/fd cannot be read ({e})")),
            Kernel::RenameExchange => {
                let dir = tempfile::tempdir()
                    .map_err(|e| format!("no temp dir to probe RENAME_EXCHANGE in ({e})"))?;
                let (a, b) = (dir.path().join("a"), dir.path().join("b"));
                std::fs::create_dir(&a).map_err(|e| e.to_string())?;
                std::fs::write(&b, "").map_err(|e| e.to_string())?;
                renameat_with(CWD, &a, CWD, &b, RenameFlags::EXCHANGE).map_err(|e| {
                    format!(
                        "renameat2(RENAME_EXCHANGE) fails in {} ({e})",
                        dir.path().display()
                    )
                })
            }
        }
    }
}
