//! Which mechanism resolves a path beneath a root: the kernel's openat2 or
//! the user-space component walk.

use std::sync::OnceLock;

use rustix::fd::{BorrowedFd, OwnedFd};
use rustix::fs::{Mode, OFlags};
use rustix::io::Errno;

use super::{kernel, walk, OpenError, Scope};

/// The environment variable that steers [`Backend::Auto`]: `walk` forces
/// the component walk, `openat2` demands the kernel. Read once per process.
pub const BACKEND_ENV: &str = "ROOTGUARD_OPEN_BACKEND";

/// How a path is resolved beneath its root's directory.
///
/// Both backends give the same answers (the tests run every hostile tree
/// through each, and each is the other's oracle); the walk exists for
/// kernels older than 5.6 and sandboxes whose seccomp filter refuses
/// `openat2`.
///
/// # Examples
///
/// ```
/// use rootguard::{Backend, Op, Roots};
/// let dir = tempfile::tempdir().unwrap();
/// let base = dir.path().canonicalize().unwrap();
/// std::fs::write(base.join("a.txt"), "hi").unwrap();
/// let roots = Roots::new([format!("file://{}", base.display())]);
/// for backend in [Backend::Auto, Backend::Walk] {
///     let (file, verdict) = roots.open_with(base.join("a.txt"), Op::Read, backend).unwrap();
///     assert!(verdict.is_inside());
///     assert!(file.metadata().unwrap().is_file());
/// }
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Backend {
    /// `openat2` where the kernel offers it, the walk where it does not
    /// (`ENOSYS`, or `EPERM` from a seccomp filter: probed once per
    /// process). [`BACKEND_ENV`]`=walk` forces the walk,
    /// [`BACKEND_ENV`]`=openat2` forces `openat2`.
    #[default]
    Auto,
    /// `openat2(2)` with `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS`: the
    /// kernel resolves the path and refuses, with `EXDEV`, every step that
    /// would leave the root. [`OpenError::Openat2Unavailable`] where the
    /// kernel refuses the call.
    Openat2,
    /// A component walk in user space: `openat(O_PATH | O_NOFOLLOW)` one
    /// name at a time from the root's descriptor, reading each link itself
    /// (at most 40), taking `..` as a step back along the directories it
    /// holds open (never above the root), and checking at the end, by
    /// climbing `..` from the directory it stopped in, that the root is
    /// still an ancestor.
    Walk,
}

/// A backend with `Auto` decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Engine {
    Openat2,
    Walk,
}

impl Backend {
    /// The engine this backend stands for in this process.
    pub(crate) fn engine(self) -> Result<Engine, OpenError> {
        match self {
            Backend::Walk => Ok(Engine::Walk),
            Backend::Openat2 => match openat2_support() {
                Ok(()) => Ok(Engine::Openat2),
                Err(errno) => Err(OpenError::Openat2Unavailable(errno.into())),
            },
            Backend::Auto => match forced() {
                Some(backend) => backend.engine(),
                None if openat2_support().is_ok() => Ok(Engine::Openat2),
                None => Ok(Engine::Walk),
            },
        }
    }
}

/// The backend [`BACKEND_ENV`] forces, read once.
fn forced() -> Option<Backend> {
    static FORCED: OnceLock<Option<Backend>> = OnceLock::new();
    *FORCED.get_or_init(|| parse_forced(std::env::var_os(BACKEND_ENV).as_deref()))
}

/// What a value of [`BACKEND_ENV`] forces: `walk` or `openat2`; anything
/// else (or nothing) leaves the choice to [`Backend::Auto`].
fn parse_forced(value: Option<&std::ffi::OsStr>) -> Option<Backend> {
    match value?.to_str()? {
        "walk" => Some(Backend::Walk),
        "openat2" => Some(Backend::Openat2),
        _ => None,
    }
}

/// Whether `openat2` works here, asked once: the answer cannot change while
/// the process runs, and a real `EPERM` on some file must not be mistaken
/// for a seccomp filter.
fn openat2_support() -> Result<(), Errno> {
    static SUPPORT: OnceLock<Result<(), Errno>> = OnceLock::new();
    *SUPPORT.get_or_init(|| {
        rustix::fs::openat2(
            rustix::fs::CWD,
            "/",
            OFlags::PATH | OFlags::CLOEXEC,
            Mode::empty(),
            rustix::fs::ResolveFlags::NO_MAGICLINKS,
        )
        .map(drop)
    })
}

impl Engine {
    /// Opens `path` (relative) beneath the directory `root`.
    pub(crate) fn open_beneath(
        self,
        root: BorrowedFd<'_>,
        path: &[u8],
        flags: OFlags,
        mode: Mode,
        scope: Scope,
    ) -> Result<OwnedFd, Errno> {
        match self {
            Engine::Openat2 => kernel::open_beneath(root, path, flags, mode, scope),
            Engine::Walk => walk::open_beneath(root, path, flags, mode, scope),
        }
    }

    /// Opens the absolute `path`, refusing a symlink in any component.
    pub(crate) fn open_physical(
        self,
        path: &[u8],
        flags: OFlags,
        mode: Mode,
    ) -> Result<OwnedFd, Errno> {
        match self {
            Engine::Openat2 => kernel::open_physical(path, flags, mode),
            Engine::Walk => walk::open_physical(path, flags, mode),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn the_environment_forces_only_the_two_names() {
        assert_eq!(parse_forced(Some(OsStr::new("walk"))), Some(Backend::Walk));
        assert_eq!(
            parse_forced(Some(OsStr::new("openat2"))),
            Some(Backend::Openat2)
        );
        for other in ["", "auto", "Walk", "walk ", "openat"] {
            assert_eq!(parse_forced(Some(OsStr::new(other))), None, "{other:?}");
        }
        assert_eq!(parse_forced(None), None);
    }

    /// Auto takes openat2 wherever it works, unless the environment says
    /// otherwise; Walk is always the walk.
    #[test]
    fn auto_prefers_openat2() {
        assert_eq!(Backend::Walk.engine().ok(), Some(Engine::Walk));
        let expected = match forced() {
            Some(backend) => backend.engine().ok(),
            None if openat2_support().is_ok() => Some(Engine::Openat2),
            None => Some(Engine::Walk),
        };
        assert_eq!(Backend::Auto.engine().ok(), expected);
        if forced().is_none() && openat2_support().is_ok() {
            assert_eq!(Backend::Auto.engine().ok(), Some(Engine::Openat2));
            assert_eq!(Backend::Openat2.engine().ok(), Some(Engine::Openat2));
        }
    }
}
