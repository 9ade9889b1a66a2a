//! npm packages under test, installed at test time into one cache that
//! every test crate shares; nothing is vendored.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::lock::CacheLock;
use crate::{skip, Tool};

/// npm's flags for every call: no lock files or audits, and a registry
/// that does not answer is given up on within a minute.
const QUIET: [&str; 2] = ["--fetch-retries=1", "--fetch-timeout=30000"];

/// What to do when the registry does not answer.
const REGISTRY_FIX: &str = "let npm reach its registry (`npm ping` says whether it does); \
     once installed, a package is reused from the cache";

/// The cache: `ROOTGUARD_NPM_CACHE`, else the workspace's `target/npm-cache`.
fn cache() -> PathBuf {
    std::env::var_os("ROOTGUARD_NPM_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/npm-cache"))
}

/// The directory of `name` at `version` (`PREFIX/node_modules/NAME`),
/// installed into the cache first unless it is there already; `None`
/// after [`skip`] has said why not.
///
/// The prefix is `NAME-VERSION` with the scope's `@` dropped and `/` made
/// `-`, never `NAME@VERSION` (npm 11 then looks for a package.json in it).
/// npm's own download cache is `_cacache` in the same cache, so a prefix
/// removed by hand installs again without the network.
///
/// # Panics
///
/// When `name@version` is not in testsupport/packages.toml; under CI,
/// when npm or node is missing, `ROOTGUARD_SKIP_NPM=1` is set, or npm
/// cannot install the package.
pub fn package(name: &str, version: &str) -> Option<PathBuf> {
    crate::pins::npm(name, version);
    let what = format!("{name}@{version}");
    if !allowed(&what) {
        return None;
    }
    Tool::Node.need(&format!("the tests of {what}"))?;
    let npm = Tool::Npm.need(&format!("the install of {what}"))?;
    let cache = cache();
    let prefix = cache.join(format!(
        "{}-{version}",
        name.trim_start_matches('@').replace('/', "-")
    ));
    let package = prefix.join("node_modules").join(name);
    let installed = || {
        std::fs::read_to_string(package.join("package.json"))
            .ok()
            .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
            .is_some_and(|pkg| pkg["version"] == version)
            // npm writes this last, so a half-done install is done again.
            && prefix.join("node_modules/.package-lock.json").is_file()
    };
    // Tests in parallel, in one process or several, may want the same package.
    let _one_at_a_time = match CacheLock::take(&cache) {
        Ok(lock) => lock,
        Err(e) => {
            skip(
                &format!("{what}: cannot lock {}: {e}", cache.display()),
                "make the cache writable, or point ROOTGUARD_NPM_CACHE at a writable dir",
            );
            return None;
        }
    };
    if installed() {
        return Some(package);
    }
    if let Err(e) = std::fs::create_dir_all(&prefix) {
        skip(
            &format!("{what}: cannot create {}: {e}", prefix.display()),
            "make the cache writable, or point ROOTGUARD_NPM_CACHE at a writable dir",
        );
        return None;
    }
    let out = Command::new(npm)
        .arg("install")
        .arg("--prefix")
        .arg(&prefix)
        .arg("--cache")
        .arg(cache.join("_cacache"))
        .args([
            "--no-save",
            "--no-audit",
            "--no-fund",
            "--no-package-lock",
            "--loglevel=error",
        ])
        .args(QUIET)
        .arg(&what)
        .output();
    match out {
        Ok(o) if o.status.success() && installed() => Some(package),
        out => {
            skip(
                &format!(
                    "npm could not install {what} (is the registry reachable?): {}",
                    failure(&out)
                ),
                REGISTRY_FIX,
            );
            None
        }
    }
}

/// The release of `name` that testsupport/packages.toml records as the
/// registry's newest, installed as [`package`] installs it. No registry is
/// asked: the scheduled workflow `newest-packages` moves the pin.
///
/// # Panics
///
/// As [`package`] does, and when `name` is not pinned.
pub fn newest(name: &str) -> Option<(String, PathBuf)> {
    let version = crate::pins::npm_newest(name);
    package(name, version).map(|dir| (version.to_owned(), dir))
}

/// Whether npm may be used: not when `ROOTGUARD_SKIP_NPM=1` (after a skip).
fn allowed(what: &str) -> bool {
    let refused = std::env::var_os("ROOTGUARD_SKIP_NPM").is_some_and(|v| v == "1");
    if refused {
        skip(
            &format!("ROOTGUARD_SKIP_NPM=1, so {what} is not installed"),
            "unset ROOTGUARD_SKIP_NPM",
        );
    }
    !refused
}

/// npm's first lines say what went wrong (`npm error code ECONNREFUSED`, ...).
fn failure(out: &std::io::Result<Output>) -> String {
    match out {
        Ok(o) => {
            let err = String::from_utf8_lossy(&o.stderr);
            let head: Vec<&str> = err
                .lines()
                .filter(|l| !l.trim().is_empty())
                .take(3)
                .collect();
            format!("{} ({})", head.join(" | "), o.status)
        }
        Err(e) => format!("npm could not run: {e}"),
    }
}
