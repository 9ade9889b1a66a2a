//! PyPI packages under test, installed at test time into a virtual
//! environment per requirement set, in one cache every test crate shares;
//! nothing is vendored.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::lock::CacheLock;
use crate::{skip, Tool};

/// pip's flags for every call: quiet, no prompts, and an index that does
/// not answer is given up on within a minute.
const QUIET: [&str; 6] = [
    "--disable-pip-version-check",
    "--no-input",
    "--quiet",
    "--timeout=30",
    "--retries=1",
    "--no-warn-script-location",
];

/// Written into a venv last, holding its requirements: a venv without it,
/// or with other requirements, is made again.
const MARKER: &str = ".rootguard-requirements";

/// What to do when the index does not answer.
const INDEX_FIX: &str = "let pip reach its index (`pip download --no-deps six` says whether it \
     does); once installed, a venv is reused from the cache";

/// The cache: `ROOTGUARD_PYPI_CACHE`, else the workspace's `target/pypi-cache`.
fn cache() -> PathBuf {
    std::env::var_os("ROOTGUARD_PYPI_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/pypi-cache"))
}

/// The virtual environment named `name` in testsupport/packages.toml,
/// in the cache with exactly its pinned requirements installed, made first
/// unless it is there already; `None` after [`skip`] has said why not. A
/// program the packages install is at `venv.join("bin").join(PROGRAM)`.
/// pip's download cache is `_pip` in the same cache.
///
/// # Panics
///
/// When `name` is not pinned; under CI, when python3 or its `venv` module
/// is missing, `ROOTGUARD_SKIP_PYPI=1` is set, or pip cannot install the
/// requirements.
pub fn venv(name: &str) -> Option<PathBuf> {
    let requirements = crate::pins::pypi(name);
    let what = format!("{name} ({})", requirements.join(" "));
    if std::env::var_os("ROOTGUARD_SKIP_PYPI").is_some_and(|v| v == "1") {
        skip(
            &format!("ROOTGUARD_SKIP_PYPI=1, so {what} is not installed"),
            "unset ROOTGUARD_SKIP_PYPI",
        );
        return None;
    }
    let python = Tool::Python3.need(&format!("the install of {what}"))?;
    let cache = cache();
    let dir = cache.join(name);
    let wanted = requirements.join("\n");
    let installed = || std::fs::read_to_string(dir.join(MARKER)).is_ok_and(|m| m == wanted);
    // Tests in parallel, in one process or several, may want the same venv.
    let _one_at_a_time = match CacheLock::take(&cache) {
        Ok(lock) => lock,
        Err(e) => {
            skip(
                &format!("{what}: cannot lock {}: {e}", cache.display()),
                "make the cache writable, or point ROOTGUARD_PYPI_CACHE at a writable dir",
            );
            return None;
        }
    };
    if installed() {
        return Some(dir);
    }
    // A half-made venv, or one with other requirements, is made afresh.
    let _ = std::fs::remove_dir_all(&dir);
    let made = Command::new(&python)
        .args(["-m", "venv"])
        .arg(&dir)
        .output();
    if !matches!(&made, Ok(o) if o.status.success()) {
        skip(
            &format!(
                "python3 -m venv could not make {}: {}",
                dir.display(),
                failure(&made)
            ),
            "install Python's venv module (`apt-get install -y python3-venv` on Debian; \
             `bash .ci/run` does that)",
        );
        return None;
    }
    let out = Command::new(dir.join("bin/pip"))
        .arg("install")
        .args(QUIET)
        .arg("--cache-dir")
        .arg(cache.join("_pip"))
        .args(requirements)
        .output();
    match out {
        Ok(o) if o.status.success() => {
            if let Err(e) = std::fs::write(dir.join(MARKER), &wanted) {
                skip(
                    &format!("{what}: cannot write {}: {e}", dir.join(MARKER).display()),
                    "make the cache writable",
                );
                return None;
            }
            Some(dir)
        }
        out => {
            skip(
                &format!(
                    "pip could not install {what} (is the index reachable?): {}",
                    failure(&out)
                ),
                INDEX_FIX,
            );
            None
        }
    }
}

/// The requirements testsupport/packages.toml pins for the venv `name`.
///
/// # Panics
///
/// When `name` is not pinned.
pub fn requirements(name: &str) -> &'static [String] {
    crate::pins::pypi(name)
}

/// The last lines pip printed say what went wrong.
fn failure(out: &std::io::Result<Output>) -> String {
    match out {
        Ok(o) => {
            let err = String::from_utf8_lossy(&o.stderr);
            let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
            let tail = &lines[lines.len().saturating_sub(3)..];
            format!("{} ({})", tail.join(" | "), o.status)
        }
        Err(e) => format!("it could not run: {e}"),
    }
}
