//! Vets more real path helpers (docs/findings.md, "Issue 31, item 5")
//! through their adapters: npm's contains-path (adapters/npm/), werkzeug's
//! `safe_join`, aiohttp's static route and tornado's `StaticFileHandler`
//! (adapters/pypi/), each on one scenario file, so the facts do not depend
//! on a random budget. The assertions are the defect IDs that page
//! reports.
//!
//! Each package is installed at its pin in testsupport/packages.toml
//! (npm into `target/npm-cache`, PyPI into a venv under
//! `target/pypi-cache`), and reused when it is already there. Without
//! node, npm, Python's venv or the registries (or with `ROOTGUARD_SKIP_NPM=1`,
//! `ROOTGUARD_SKIP_PYPI=1`), each test says why and passes; under
//! `CI=true` it fails instead.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use rootguard_testsupport::{npm, pypi};
use rootguard_vet::corpus::load_file;
use rootguard_vet::{Class, Options, Report};

mod common;
use common::{repo, vet_adapter};

/// Vets `command` on one scenario file alone (no bundled corpus, no random phase).
fn run(label: &str, command: Vec<OsString>, scenarios: &Path) -> Report {
    let options = Options {
        budget: Duration::ZERO,
        seed: 1,
        bundled_corpus: false,
        corpus: vec![load_file(scenarios).unwrap()],
        max_shrunk: 64,
        ..Options::default()
    };
    vet_adapter(label, command, Duration::from_secs(5), &options)
}

/// The IDs of the defects seen as `class`.
fn ids(report: &Report, class: Class) -> BTreeSet<String> {
    report
        .defects
        .iter()
        .filter(|d| d.class() == class)
        .map(|d| d.id().to_owned())
        .collect()
}

fn set(ids: &[&str]) -> BTreeSet<String> {
    ids.iter().map(|s| (*s).to_owned()).collect()
}

fn corpus(file: &str) -> PathBuf {
    repo().join("corpus/scenarios").join(file)
}

fn python_adapter(venv: &Path, script: &str) -> Vec<OsString> {
    vec![
        venv.join("bin/python").into_os_string(),
        repo().join("adapters/pypi").join(script).into_os_string(),
    ]
}

#[test]
#[ignore = "full tier: installs npm packages"]
fn contains_path_reads_an_absolute_root_as_a_text_prefix() {
    let Some(pkg) = npm::package("contains-path", "1.0.0") else {
        return;
    };
    let command = vec![
        OsString::from("node"),
        repo()
            .join("adapters/npm/contains-path.js")
            .into_os_string(),
        pkg.into_os_string(),
    ];
    let report = run(
        "contains-path sibling-prefix",
        command,
        &corpus("sibling-prefix.json"),
    );
    // Its README: "returns false for partial matches"; with a leading `/`
    // the code matches any occurrence, so `ROOT2` is inside `ROOT`.
    assert_eq!(ids(&report, Class::PathEscape), set(&["RG-PREFIX-SIBLING"]));
}

#[test]
#[ignore = "full tier: installs PyPI packages"]
fn werkzeug_safe_join_is_lexical_and_lets_links_out() {
    let Some(venv) = pypi::venv("werkzeug") else {
        return;
    };
    let cmd = || python_adapter(&venv, "werkzeug_safe_join.py");
    let links = run("werkzeug links", cmd(), &corpus("links.json"));
    assert_eq!(ids(&links, Class::PathEscape), set(&["RG-LINK-FOLLOWED"]));
    // The text compare itself is right: no sibling and no `..` gets through.
    let prefix = run(
        "werkzeug sibling-prefix",
        cmd(),
        &corpus("sibling-prefix.json"),
    );
    assert_eq!(ids(&prefix, Class::PathEscape), set(&[]));
}

/// The venv's Python as (major, minor).
fn python_version(venv: &Path) -> (u32, u32) {
    let out = Command::new(venv.join("bin/python"))
        .args(["-c", "import sys; print(*sys.version_info[:2])"])
        .output()
        .expect("the venv's python runs");
    let text = String::from_utf8(out.stdout).unwrap();
    let mut parts = text.split_whitespace().map(|p| p.parse::<u32>().unwrap());
    (parts.next().unwrap(), parts.next().unwrap())
}

#[test]
#[ignore = "full tier: installs PyPI packages"]
fn aiohttp_static_lets_a_loop_then_dotdot_out_where_realpath_gives_up_and_tornado_does_not() {
    let Some(venv) = pypi::venv("aiohttp-tornado") else {
        return;
    };
    let quirks = repo().join("adapters/pypi/scenarios/realpath-quirks.json");
    let aiohttp = run(
        "aiohttp realpath-quirks",
        python_adapter(&venv, "aiohttp_static.py"),
        &quirks,
    );
    // os.path.realpath(strict=False) gives up at a link loop and returns the
    // rest unresolved up to Python 3.12 (a resolution past the kernel's 40
    // links answered as text); 3.13 resolves the rest.
    let version = python_version(&venv);
    let expected = if version < (3, 13) {
        set(&["RG-LINK-BUDGET"])
    } else {
        set(&[])
    };
    assert_eq!(
        ids(&aiohttp, Class::PathEscape),
        expected,
        "Python {version:?}"
    );
    // tornado removes `..` as text (abspath) before it resolves: nothing out.
    let tornado = run(
        "tornado realpath-quirks",
        python_adapter(&venv, "tornado_staticfilehandler.py"),
        &quirks,
    );
    assert_eq!(ids(&tornado, Class::PathEscape), set(&[]));
    assert_eq!(ids(&tornado, Class::RootEscape), set(&[]));
}
