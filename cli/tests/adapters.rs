//! The protocol adapters from a fresh clone: their own test suites pass,
//! and the README's "Vet your checker" examples, taken from the README
//! itself and installed from the adapters' paths, vet clean with a sound
//! check behind them (and fail with a flawed one).

mod common;

use std::ffi::OsStr;
use std::fs;
use std::path::Path;
use std::process::Command;

use common::{
    cargo_test, node_with_adapter, python_with_adapter, repo, sound_example, vet, Search,
};
use rootguard_testsupport::Tool;

/// The README's fenced ```LANG block that holds `marker`, verbatim.
fn readme_block(lang: &str, marker: &str) -> String {
    let readme = fs::read_to_string(repo().join("README.md")).unwrap();
    let fence = format!("```{lang}\n");
    readme
        .split(&fence)
        .skip(1)
        .map(|rest| &rest[..rest.find("```").expect("a closed block")])
        .find(|block| block.contains(marker))
        .unwrap_or_else(|| panic!("README.md has no ```{lang} block holding {marker:?}"))
        .to_owned()
}

fn passes(command: &mut Command) {
    let out = command.output().expect("the suite runs");
    assert!(
        out.status.success(),
        "{command:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_python_adapters_own_tests_pass() {
    let Some(python) = Tool::Python3.need("the Python adapter's tests") else {
        return;
    };
    passes(
        Command::new(python)
            .args(["-m", "unittest", "discover", "-s"])
            .arg(repo().join("adapters/python/tests")),
    );
}

#[test]
fn the_node_adapters_own_tests_pass() {
    let Some(node) = Tool::Node.need("the Node adapter's tests") else {
        return;
    };
    passes(
        Command::new(node)
            .arg("--test")
            .current_dir(repo().join("adapters/node")),
    );
}

#[test]
fn the_readmes_python_checker_vets_as_shown() {
    let tmp = tempfile::tempdir().unwrap();
    let Some(python) = python_with_adapter(tmp.path()) else {
        return;
    };
    let dir = tmp.path().join("server");
    fs::create_dir_all(dir.join("my_server")).unwrap();
    let script = dir.join("rootguard_checker.py");
    fs::write(&script, readme_block("python", "rootguard_protocol")).unwrap();
    let examples = sound_example("sound.py").parent().unwrap().to_owned();
    let command = [python.as_os_str(), script.as_os_str()];
    for (example, want) in [("sound", 0), ("sibling_prefix", 1)] {
        fs::write(
            dir.join("my_server/paths.py"),
            format!("import sys\nsys.path.insert(0, {examples:?})\nfrom {example} import check as is_allowed\n"),
        )
        .unwrap();
        let (code, out) = vet(tmp.path(), Search::Cases(6_000), &command);
        assert_eq!(code, Some(want), "my_server.paths is {example}.py:\n{out}");
    }
}

#[test]
fn the_readmes_node_checkers_vet_as_shown() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("server");
    fs::create_dir_all(dir.join("my-server")).unwrap();
    let Some(node) = node_with_adapter(&dir) else {
        return;
    };
    let paths = format!(
        "exports.isAllowed = require({:?}).check;\n",
        sound_example("sound.js")
    );
    fs::write(dir.join("my-server/paths.js"), paths).unwrap();
    for (file, marker) in [
        ("rootguard-checker.mjs", "from 'rootguard-protocol'"),
        ("rootguard-checker.cjs", "require('rootguard-protocol')"),
    ] {
        let script = dir.join(file);
        fs::write(&script, readme_block("js", marker)).unwrap();
        let (code, out) = vet(
            tmp.path(),
            Search::Cases(6_000),
            &[OsStr::new(&node), script.as_os_str()],
        );
        assert_eq!(code, Some(0), "{file}:\n{out}");
    }
}

/// A crate `my-server` whose `paths::is_allowed` is rootguard's own check,
/// with the README's `[dev-dependencies]` and test.
fn readme_rust_crate(dir: &Path) {
    let dev_dependencies = readme_block("toml", "[dev-dependencies]")
        .replace("ROOTGUARD/", &format!("{}/", repo().display()));
    let core = repo().join("core");
    fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"my-server\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n\n\
             [dependencies]\nrootguard = {{ path = {:?} }}\n\n{dev_dependencies}",
            core.display()
        ),
    )
    .unwrap();
    fs::create_dir_all(dir.join("src")).unwrap();
    fs::write(
        dir.join("src/lib.rs"),
        "pub mod paths {\n    pub fn is_allowed(roots: &[&str], path: &std::path::Path, op: rootguard::Op) -> bool {\n        \
         rootguard::Roots::new(roots.iter().copied()).check(path, op).is_inside()\n    }\n}\n",
    )
    .unwrap();
    fs::create_dir_all(dir.join("tests")).unwrap();
    // The README's budget of seconds becomes a count of queries, with time
    // far past what they take: a loaded machine asks the same ones.
    let test = readme_block("rust", "vet_fn(check").replace(
        "budget: Duration::from_secs(20), ..Options::default()",
        "budget: Duration::from_secs(600), max_queries: Some(6_000), ..Options::default()",
    );
    assert!(
        test.contains("max_queries: Some(6_000)"),
        "the README's test changed: {test}"
    );
    fs::write(dir.join("tests/rootguard.rs"), test).unwrap();
}

#[test]
#[ignore = "full tier: builds the crates again, in a target dir of its own"]
fn the_readmes_rust_test_vets_as_shown() {
    let tmp = tempfile::tempdir().unwrap();
    readme_rust_crate(tmp.path());
    let Some((passed, out)) = cargo_test(tmp.path(), &[]) else {
        return;
    };
    assert!(passed, "{out}");
}
