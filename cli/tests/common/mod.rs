//! What the adapter and init tests share: this checkout's protocol adapters
//! installed from their paths into a temp dir, as a user installs them,
//! and `rootguard vet` run on a checker command.

// Each test binary uses part of it.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

use rootguard_testsupport::{skip, Tool};

/// The rootguard binary under test.
pub const ROOTGUARD: &str = env!("CARGO_BIN_EXE_rootguard");

/// The checkout: the workspace root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ has a parent")
        .to_owned()
}

/// A sound check from the example checkers, for a skeleton's placeholder.
pub fn sound_example(file: &str) -> PathBuf {
    let lang = if file.ends_with(".py") {
        "python"
    } else {
        "node"
    };
    repo().join("examples/checkers").join(lang).join(file)
}

fn output(command: &mut Command) -> Result<String, String> {
    match command.output() {
        Ok(out) if out.status.success() => Ok(String::from_utf8_lossy(&out.stdout).into_owned()),
        Ok(out) => Err(format!(
            "{command:?} failed ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )),
        Err(e) => Err(format!("{command:?} could not run: {e}")),
    }
}

/// A venv in `dir/venv` holding adapters/python, pip-installed from its
/// path without an index; its python, or `None` after a skip (a failure
/// under `CI=true`).
pub fn python_with_adapter(dir: &Path) -> Option<PathBuf> {
    let python = Tool::Python3.need("the Python adapter's install")?;
    let venv = dir.join("venv");
    if let Err(e) = output(Command::new(&python).args(["-m", "venv"]).arg(&venv)) {
        skip(
            &format!("python3 -m venv does not work here: {e}"),
            "install Python's venv module (`apt-get install -y python3-venv`; `bash .ci/run` does that)",
        );
        return None;
    }
    output(
        Command::new(venv.join("bin/pip"))
            .args(["install", "--disable-pip-version-check", "--no-input"])
            .args(["--quiet", "--no-index", "--no-cache-dir"])
            .arg(repo().join("adapters/python")),
    )
    .expect("adapters/python installs from its path, offline");
    Some(venv.join("bin/python"))
}

/// adapters/node npm-installed from its path into `dir/node_modules` (a
/// copy, as from the registry; npm's cache inside `dir` too); node, or
/// `None` after a skip.
pub fn node_with_adapter(dir: &Path) -> Option<String> {
    let node = Tool::Node.need("the Node adapter's tests")?;
    let npm = Tool::Npm.need("the Node adapter's install")?;
    output(
        Command::new(npm)
            .arg("install")
            .arg("--prefix")
            .arg(dir)
            .arg("--cache")
            .arg(dir.join(".npm-cache"))
            .args(["--install-links", "--offline", "--no-audit", "--no-fund"])
            .args(["--loglevel=error"])
            .arg(repo().join("adapters/node")),
    )
    .expect("adapters/node installs from its path, offline");
    Some(node)
}

/// How much a test's `rootguard vet` asks.
#[derive(Debug, Clone, Copy)]
pub enum Search {
    /// The bundled corpus only (`--budget 0`).
    Corpus,
    /// The corpus, the covering array and random scenarios until this many
    /// queries (`--cases N`), with a budget far past what they take: a
    /// count, so a loaded machine asks the same queries.
    Cases(u64),
}

impl Search {
    fn args(self) -> Vec<String> {
        match self {
            Search::Corpus => vec!["--budget".into(), "0".into()],
            Search::Cases(n) => vec![
                "--budget".into(),
                "600".into(),
                "--cases".into(),
                n.to_string(),
            ],
        }
    }
}

/// `rootguard vet --seed 1` asking `search`, with its temp trees in
/// `tmp`: the exit status and everything it printed.
pub fn vet(tmp: &Path, search: Search, command: &[&OsStr]) -> (Option<i32>, String) {
    let out = Command::new(ROOTGUARD)
        .env("TMPDIR", tmp)
        .args(["vet", "--seed", "1"])
        .args(search.args())
        .arg("--")
        .args(command)
        .output()
        .expect("rootguard runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code(), text)
}

/// `cargo test --test rootguard` of a crate in `dir` (a skeleton, or the
/// README's example) with `env`, offline, in a target dir of its own (the
/// workspace's is locked by the `cargo test` running this) and the
/// workspace's lock file: whether it passed, and what it printed; `None`
/// after a skip when the crates it needs are not in cargo's cache.
pub fn cargo_test(dir: &Path, env: &[(&str, &str)]) -> Option<(bool, String)> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    std::fs::copy(repo().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let out = Command::new(cargo)
        .args(["test", "--offline", "--quiet", "--test", "rootguard"])
        .arg("--manifest-path")
        .arg(dir.join("Cargo.toml"))
        .env(
            "CARGO_TARGET_DIR",
            repo().join("target/rootguard-tests-crates"),
        )
        .env("TMPDIR", dir)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if text.contains("error: failed to") || text.contains("no matching package") {
        skip(
            &format!(
                "the crates {} needs are not all in cargo's cache: {text}",
                dir.display()
            ),
            "run `cargo fetch` in the workspace once with the network up",
        );
        return None;
    }
    Some((out.status.success(), text))
}
