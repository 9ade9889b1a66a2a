//! How the server under test is started: in the scenario's base, with a
//! scrubbed environment, and where bubblewrap works, in a mount namespace
//! where everything but the base is read-only.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The placeholder in the server's command that becomes the root directories.
pub const ROOTS_PLACEHOLDER: &str = "{roots}";

/// Which sandbox to run the server in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sandbox {
    /// bubblewrap: `/` read-only, the base read-write, fresh `/dev`, `/proc` and PID namespace.
    Bwrap,
    /// `unshare --mount` (needs root): every mount remounted read-only but
    /// the base, bound onto itself first.
    Unshare,
    /// None: only the working directory and the scrubbed environment.
    None,
}

impl Sandbox {
    /// The first sandbox that is shown to work here: bubblewrap, then
    /// `unshare`, each probed by a write inside and one outside a temp base;
    /// else none.
    pub fn detect() -> Sandbox {
        [Sandbox::Bwrap, Sandbox::Unshare]
            .into_iter()
            .find(|s| s.confines())
            .unwrap_or(Sandbox::None)
    }

    /// Whether a process in this sandbox can write in its base and nowhere else.
    pub fn confines(self) -> bool {
        if self == Sandbox::None {
            return false;
        }
        let Ok(dir) = tempfile::Builder::new()
            .prefix("rootguard-mcp-probe-")
            .tempdir()
        else {
            return false;
        };
        let Ok(parent) = dir.path().canonicalize() else {
            return false;
        };
        let base = parent.join("base");
        if std::fs::create_dir(&base).is_err() {
            return false;
        }
        let probe = [
            "sh".to_owned(),
            "-c".to_owned(),
            ": > \"$0/in\"; : > \"$1/out\"".to_owned(),
            base.display().to_string(),
            parent.display().to_string(),
        ];
        let launch = Launch::new(&probe, &[], &base, &base, self);
        let ran = launch
            .command()
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok();
        ran && base.join("in").exists() && !parent.join("out").exists()
    }

    /// `"bwrap"` or `"none"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Sandbox::Bwrap => "bwrap",
            Sandbox::Unshare => "unshare",
            Sandbox::None => "none",
        }
    }
}

/// Run by `sh` in the new mount namespace: `$1` is the base, the rest the
/// server's command. The base becomes a mount of its own, then every other
/// mount is made read-only. If `/` refuses, the server does not start; any
/// other mount that refuses (a pseudo file system) stays as it was.
const UNSHARE_SCRIPT: &str = r#"set -e
base=$1; shift
mount --bind "$base" "$base"
cut -d' ' -f5 /proc/self/mountinfo | while read -r mp; do
  case "$mp" in "$base"|"$base"/*) continue;; esac
  if [ "$mp" = / ]; then mount -o remount,bind,ro /; else mount -o remount,bind,ro "$mp" 2>/dev/null || true; fi
done
exec "$@""#;

/// A server command ready to start for one scenario.
#[derive(Debug, Clone)]
pub struct Launch {
    /// The command, `{roots}` already replaced.
    pub argv: Vec<String>,
    /// The base: working directory, and the only writable place in a sandbox.
    pub base: PathBuf,
    /// The server's working dir, HOME and TMPDIR: a directory in the base
    /// that the write observation ignores.
    pub home: PathBuf,
    /// The sandbox.
    pub sandbox: Sandbox,
}

impl Launch {
    /// `command` with each `{roots}` argument replaced by `root_dirs`, one argument each.
    pub fn new(
        command: &[String],
        root_dirs: &[PathBuf],
        base: &Path,
        home: &Path,
        sandbox: Sandbox,
    ) -> Launch {
        let mut argv = Vec::new();
        for arg in command {
            if arg == ROOTS_PLACEHOLDER {
                argv.extend(root_dirs.iter().map(|d| d.display().to_string()));
            } else {
                argv.push(arg.clone());
            }
        }
        Launch {
            argv,
            base: base.to_path_buf(),
            home: home.to_path_buf(),
            sandbox,
        }
    }

    /// The command line, for messages.
    pub fn describe(&self) -> String {
        self.argv.join(" ")
    }

    /// The process to spawn: working dir the home, environment scrubbed to
    /// PATH, HOME and TMPDIR (the home) and a UTF-8 locale.
    pub fn command(&self) -> Command {
        let base = self.base.display().to_string();
        let mut command = match self.sandbox {
            Sandbox::Bwrap => {
                let mut c = Command::new("bwrap");
                c.args(["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]);
                c.args(["--bind", &base, &base]);
                c.arg("--chdir").arg(&self.home);
                c.args(["--unshare-pid", "--die-with-parent", "--new-session", "--"]);
                c.args(&self.argv);
                c
            }
            Sandbox::Unshare => {
                let mut c = Command::new("unshare");
                c.args(["--mount", "--propagation", "private", "--", "sh", "-c"]);
                c.arg(UNSHARE_SCRIPT).arg("sh").arg(&base).args(&self.argv);
                c
            }
            Sandbox::None => {
                let mut c = Command::new(&self.argv[0]);
                c.args(&self.argv[1..]);
                c
            }
        };
        command.current_dir(&self.home).env_clear();
        if let Some(path) = std::env::var_os("PATH") {
            command.env("PATH", path);
        }
        command
            .env("HOME", &self.home)
            .env("TMPDIR", &self.home)
            .env("LANG", "C.UTF-8");
        command
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_placeholder_becomes_one_argument_per_root() {
        let command: Vec<String> = ["srv", "--x", "{roots}", "{roots}x"]
            .map(String::from)
            .into();
        let roots = [PathBuf::from("/b/p"), PathBuf::from("/b/q r")];
        let launch = Launch::new(
            &command,
            &roots,
            Path::new("/b"),
            Path::new("/b/h"),
            Sandbox::None,
        );
        assert_eq!(launch.argv, ["srv", "--x", "/b/p", "/b/q r", "{roots}x"]);
    }

    #[test]
    fn a_working_sandbox_confines_writes_to_the_base() {
        for sandbox in [Sandbox::Bwrap, Sandbox::Unshare] {
            // `confines` is itself the check: a write inside, none outside.
            eprintln!(
                "{}: {}",
                sandbox.as_str(),
                if sandbox.confines() {
                    "confines"
                } else {
                    "not available here"
                }
            );
        }
        assert!(!Sandbox::None.confines());
    }

    #[test]
    fn the_environment_is_scrubbed() {
        let launch = Launch::new(
            &["env".into()],
            &[],
            Path::new("/"),
            Path::new("/"),
            Sandbox::None,
        );
        let command = launch.command();
        let keys: Vec<_> = command
            .get_envs()
            .map(|(k, _)| k.to_string_lossy().into_owned())
            .collect();
        assert!(
            keys.iter()
                .all(|k| ["PATH", "HOME", "TMPDIR", "LANG"].contains(&k.as_str())),
            "{keys:?}"
        );
    }
}
