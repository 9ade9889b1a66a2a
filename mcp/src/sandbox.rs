//! How the server under test is started: with its roots in the shape it
//! takes them ([`Shape`]), a fresh HOME, a scratch directory, a scrubbed
//! environment, and where bubblewrap or `unshare` works, in a mount
//! namespace where everything but the base and the scratch directory is
//! read-only, with no network but loopback.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::shape::{Shape, Vars};
use crate::HarnessError;

/// Which sandbox to run the server in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sandbox {
    /// bubblewrap: `/` read-only, the base and scratch read-write, fresh
    /// `/dev`, `/proc`, PID and network namespace (loopback only).
    Bwrap,
    /// `unshare --mount --net` (needs root): every mount remounted
    /// read-only but the base and scratch, each bound onto itself first;
    /// a network namespace whose loopback is brought up where `ip` can.
    Unshare,
    /// None: only the working directory and the scrubbed environment; the
    /// network is the host's.
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
        let launch = Launch::new(&probe, &base, &base, self);
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

/// Run by `sh` in the new namespaces: `$1` is how many writable
/// directories follow (clean paths, no spaces), then the server's command.
/// Each writable directory becomes a mount of its own, then every other
/// mount is made read-only. If `/` refuses, the server does not start; any
/// other mount that refuses (a pseudo file system) stays as it was.
const UNSHARE_SCRIPT: &str = r#"set -e
n=$1; shift
keep=
while [ "$n" -gt 0 ]; do mount --bind "$1" "$1"; keep="$keep $1"; shift; n=$((n-1)); done
ip link set lo up 2>/dev/null || true
cut -d' ' -f5 /proc/self/mountinfo | while read -r mp; do
  for d in $keep; do case "$mp" in "$d"|"$d"/*) continue 2;; esac; done
  if [ "$mp" = / ]; then mount -o remount,bind,ro /; else mount -o remount,bind,ro "$mp" 2>/dev/null || true; fi
done
exec "$@""#;

/// A server command ready to start for one scenario.
#[derive(Debug, Clone)]
pub struct Launch {
    /// The command, its placeholders filled in.
    pub argv: Vec<String>,
    /// The `--env` variables, filled in.
    pub env: Vec<(String, String)>,
    /// The base: writable in a sandbox, walked by the write observation.
    pub base: PathBuf,
    /// The server's HOME: a fresh directory in the base that the write
    /// observation ignores (the working directory too, without a scratch).
    pub home: PathBuf,
    /// The scratch directory beside the base (`{scratch}`): writable in
    /// the sandbox, never walked; it holds the working directory `cwd/`
    /// and TMPDIR `tmp/`.
    pub scratch: Option<PathBuf>,
    /// The sandbox.
    pub sandbox: Sandbox,
    /// Keep the host's network namespace (Streamable HTTP: rootguard must
    /// reach the server's loopback port); otherwise a sandbox gives the
    /// server a network of its own, loopback only.
    pub host_network: bool,
}

/// The name of the scratch directory beside the base.
pub const SCRATCH: &str = "scratch";

impl Launch {
    /// `argv` as it is, no placeholders filled in and no scratch
    /// directory (the sandbox probe's own command).
    pub fn new(argv: &[String], base: &Path, home: &Path, sandbox: Sandbox) -> Launch {
        let argv = argv.to_vec();
        Launch {
            argv,
            env: Vec::new(),
            base: base.to_path_buf(),
            home: home.to_path_buf(),
            scratch: None,
            sandbox,
            host_network: false,
        }
    }

    /// `command` started in `shape` with `root_dirs`: the scratch
    /// directory made beside the base (in the base's temp dir, removed
    /// with it) holding `cwd/` and `tmp/`, every placeholder filled in, and
    /// each `--config` file written under the home or the scratch.
    ///
    /// # Errors
    ///
    /// [`HarnessError::Usage`] for a bad template; [`HarnessError::Scenario`]
    /// when a directory or file cannot be made.
    pub fn prepare(
        shape: &Shape,
        command: &[String],
        root_dirs: &[PathBuf],
        base: &Path,
        home: &Path,
        sandbox: Sandbox,
    ) -> Result<Launch, HarnessError> {
        let parent = base.parent().ok_or_else(|| {
            HarnessError::Scenario(format!("the base {} has no parent", base.display()))
        })?;
        let scratch = parent.join(SCRATCH);
        let made = |dir: &Path| {
            fs::create_dir_all(dir).map_err(|e| {
                HarnessError::Scenario(format!("cannot create {}: {e}", dir.display()))
            })
        };
        made(&scratch.join("cwd"))?;
        made(&scratch.join("tmp"))?;
        made(home)?;
        let vars = Vars {
            roots: root_dirs.iter().map(|d| d.display().to_string()).collect(),
            scratch: scratch.display().to_string(),
            home: home.display().to_string(),
        };
        let usage = |e: crate::shape::ShapeError| HarnessError::Usage(e.to_string());
        for (file, text) in shape.files(&vars).map_err(usage)? {
            if let Some(dir) = file.parent() {
                made(dir)?;
            }
            fs::write(&file, text).map_err(|e| {
                HarnessError::Scenario(format!("cannot write {}: {e}", file.display()))
            })?;
        }
        Ok(Launch {
            argv: shape.argv(command, &vars).map_err(usage)?,
            env: shape.environment(&vars).map_err(usage)?,
            base: base.to_path_buf(),
            home: home.to_path_buf(),
            scratch: Some(scratch),
            sandbox,
            host_network: false,
        })
    }

    /// The server's working directory: `cwd/` in the scratch, else the home.
    pub fn cwd(&self) -> PathBuf {
        match &self.scratch {
            Some(s) => s.join("cwd"),
            None => self.home.clone(),
        }
    }

    /// The command line, for messages (the `--env` variables first).
    pub fn describe(&self) -> String {
        self.env
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .chain(self.argv.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The process to spawn: working dir [`Launch::cwd`], environment
    /// scrubbed to PATH, HOME, TMPDIR (the scratch's `tmp/`, else the
    /// home), a UTF-8 locale and the `--env` variables.
    pub fn command(&self) -> Command {
        let writable: Vec<String> = std::iter::once(&self.base)
            .chain(self.scratch.as_ref())
            .map(|d| d.display().to_string())
            .collect();
        let cwd = self.cwd();
        let mut command = match self.sandbox {
            Sandbox::Bwrap => {
                let mut c = Command::new("bwrap");
                c.args(["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]);
                for dir in &writable {
                    c.args(["--bind", dir, dir]);
                }
                c.arg("--chdir").arg(&cwd);
                c.arg("--unshare-pid");
                if !self.host_network {
                    c.arg("--unshare-net");
                }
                c.args(["--die-with-parent", "--new-session", "--"]);
                c.args(&self.argv);
                c
            }
            Sandbox::Unshare => {
                let mut c = Command::new("unshare");
                c.arg("--mount");
                if !self.host_network {
                    c.arg("--net");
                }
                c.args(["--propagation", "private", "--", "sh", "-c"]);
                c.arg(UNSHARE_SCRIPT)
                    .arg("sh")
                    .arg(writable.len().to_string())
                    .args(&writable)
                    .args(&self.argv);
                c
            }
            Sandbox::None => {
                let mut c = Command::new(&self.argv[0]);
                c.args(&self.argv[1..]);
                c
            }
        };
        command.current_dir(&cwd).env_clear();
        if let Some(path) = std::env::var_os("PATH") {
            command.env("PATH", path);
        }
        let tmp = self
            .scratch
            .as_ref()
            .map_or_else(|| self.home.clone(), |s| s.join("tmp"));
        command
            .env("HOME", &self.home)
            .env("TMPDIR", tmp)
            .env("LANG", "C.UTF-8");
        command.envs(self.env.iter().map(|(k, v)| (k, v)));
        command
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prepare_fills_the_shape_writes_its_config_and_makes_the_scratch() {
        let dir = tempfile::tempdir().expect("temp dir");
        let base = dir.path().join("base");
        fs::create_dir(&base).expect("base");
        let home = base.join(".home");
        let shape = Shape {
            each_root: Some(Shape::each_root("--allow {root}")),
            env: vec![("DIRS".into(), "{roots::}".into())],
            config: vec![(".app/c.json".into(), "{\"d\": {roots_json}}".into())],
        };
        let command: Vec<String> = ["srv", "{roots}", "{each-root}", "{scratch}/log"]
            .map(String::from)
            .into();
        let roots = [base.join("p"), base.join("q r")];
        let launch =
            Launch::prepare(&shape, &command, &roots, &base, &home, Sandbox::None).expect("ok");
        let (p, q) = (
            roots[0].display().to_string(),
            roots[1].display().to_string(),
        );
        let scratch = dir.path().join(SCRATCH);
        let log = format!("{}/log", scratch.display());
        assert_eq!(
            launch.argv,
            ["srv", &p, &q, "--allow", &p, "--allow", &q, &log]
        );
        assert_eq!(launch.env, [("DIRS".to_owned(), format!("{p}:{q}"))]);
        let config = fs::read_to_string(home.join(".app/c.json")).expect("config written");
        assert_eq!(config, format!("{{\"d\": [\"{p}\",\"{q}\"]}}"));
        assert_eq!(launch.cwd(), scratch.join("cwd"));
        assert!(scratch.join("tmp").is_dir());
        let bad = Launch::prepare(
            &Shape::default(),
            &["srv".into(), "{rootz}".into()],
            &roots,
            &base,
            &home,
            Sandbox::None,
        );
        assert!(matches!(bad, Err(HarnessError::Usage(m)) if m.contains("{rootz}")));
    }

    #[test]
    fn a_working_sandbox_confines_writes_to_the_base() {
        // `confines` is itself the check: a write inside, none outside.
        assert!(!Sandbox::None.confines());
        let working: Vec<Sandbox> = [Sandbox::Bwrap, Sandbox::Unshare]
            .into_iter()
            .filter(|s| s.confines())
            .collect();
        if !rootguard_testsupport::require(
            !working.is_empty(),
            "neither bubblewrap nor unshare confines a process here",
            "install bubblewrap (`apt-get install -y bubblewrap`; `bash .ci/run` does), or run as root for unshare",
        ) {
            return;
        }
        // What `rootguard mcp` picks is the first that works.
        assert_eq!(Sandbox::detect(), working[0]);
    }

    #[test]
    fn the_environment_is_scrubbed() {
        let launch = Launch::new(
            &["env".into()],
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
