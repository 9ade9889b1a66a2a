//! Which mechanism resolves a path beneath a root: the kernel's openat2 or
//! the user-space component walk.

use std::sync::OnceLock;

use super::error::OpenError;
use crate::beneath::Engine;

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
/// use rootguard::open::Backend;
/// use rootguard::{Op, Roots};
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

impl Backend {
    /// The engine this backend stands for in this process.
    pub(crate) fn engine(self) -> Result<Engine, OpenError> {
        match self {
            Backend::Walk => Ok(Engine::Walk),
            Backend::Openat2 => {
                Engine::kernel().map_err(|errno| OpenError::Openat2Unavailable(errno.into()))
            }
            Backend::Auto => match forced() {
                Some(backend) => backend.engine(),
                None => Ok(Engine::kernel().unwrap_or(Engine::Walk)),
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
            None if Engine::kernel().is_ok() => Some(Engine::Openat2),
            None => Some(Engine::Walk),
        };
        assert_eq!(Backend::Auto.engine().ok(), expected);
        if forced().is_none() && Engine::kernel().is_ok() {
            assert_eq!(Backend::Auto.engine().ok(), Some(Engine::Openat2));
            assert_eq!(Backend::Openat2.engine().ok(), Some(Engine::Openat2));
        }
    }

    /// Marks the run of this test binary that the test below starts.
    const CHILD: &str = "ROOTGUARD_TEST_BACKEND_CHILD";

    /// The environment is read, by the process that has it: this test
    /// runs again in a child of this binary with [`BACKEND_ENV`]`=walk`,
    /// where Auto must be the walk.
    #[test]
    fn the_environment_steers_auto_in_the_process_that_has_it() {
        let said = std::env::var_os(BACKEND_ENV);
        assert_eq!(forced(), parse_forced(said.as_deref()));
        if said.as_deref() == Some(OsStr::new("walk")) {
            assert_eq!(Backend::Auto.engine().ok(), Some(Engine::Walk));
        }
        if std::env::var_os(CHILD).is_some() {
            return;
        }
        // The test's own name, as the harness spells it (no crate name).
        let module = module_path!().split_once("::").map_or("", |(_, m)| m);
        let name = format!("{module}::the_environment_steers_auto_in_the_process_that_has_it");
        let run = std::process::Command::new(std::env::current_exe().expect("the test binary"))
            .args(["--exact", &name, "--test-threads=1"])
            .env(BACKEND_ENV, "walk")
            .env(CHILD, "1")
            .output()
            .expect("the test binary runs");
        let out = String::from_utf8_lossy(&run.stdout);
        assert!(run.status.success(), "the child failed:\n{out}");
        assert!(out.contains("1 passed"), "the child ran no test:\n{out}");
    }
}
