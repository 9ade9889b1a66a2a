//! A need that is not met: locally the test says why and passes; under CI
//! it fails naming what is missing. Each case runs this binary again as a
//! child, with the environment under test.

use std::process::{Command, Output};

use rootguard_testsupport::{skip, Tool};

#[test]
#[ignore = "run by the tests below, in a child with CI set or not"]
fn child_skips() {
    skip("the frobnicator is missing", "install the frobnicator");
}

#[test]
#[ignore = "run by the tests below, in a child with an empty PATH"]
fn child_needs_node() {
    println!("found: {:?}", Tool::Node.need("the example checkers"));
}

#[test]
#[ignore = "run by the tests below, in a child with ROOTGUARD_SKIP_NPM=1"]
fn child_needs_a_package() {
    let package = rootguard_testsupport::npm::package("path-is-inside", "1.0.2");
    println!("found: {package:?}");
}

/// Runs the ignored test `name` in a child whose `CI` is `ci` (unset for `None`).
fn child(name: &str, ci: Option<&str>, env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(std::env::current_exe().expect("the test binary"));
    command.args([
        name,
        "--exact",
        "--ignored",
        "--nocapture",
        "--test-threads=1",
    ]);
    command.env_remove("CI");
    if let Some(ci) = ci {
        command.env("CI", ci);
    }
    command.envs(env.iter().copied());
    command.output().expect("the test binary runs")
}

fn output_of(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Runs the ignored test `name` with `env`, locally (`CI` unset, or
/// set to something else) and under CI: locally it must pass and say each
/// of `local`, under CI fail and say each of `ci`.
fn passes_locally_fails_under_ci(name: &str, env: &[(&str, &str)], local: &[&str], ci: &[&str]) {
    for value in [None, Some("false"), Some("0"), Some("")] {
        let out = child(name, value, env);
        let said = output_of(&out);
        assert!(out.status.success(), "CI={value:?}: {said}");
        for needle in local {
            assert!(
                said.contains(needle),
                "CI={value:?}: no {needle:?} in {said}"
            );
        }
    }
    for value in ["true", "1", "TRUE", "True"] {
        let out = child(name, Some(value), env);
        let said = output_of(&out);
        assert!(!out.status.success(), "CI={value}: {said}");
        for needle in ci {
            assert!(said.contains(needle), "CI={value}: no {needle:?} in {said}");
        }
    }
}

#[test]
fn a_skip_passes_locally_and_fails_under_ci_saying_what_to_do() {
    passes_locally_fails_under_ci(
        "child_skips",
        &[],
        &["skipped: the frobnicator is missing"],
        &[
            "the frobnicator is missing",
            "under CI=true no test may skip",
            "install the frobnicator",
        ],
    );
}

#[test]
fn a_missing_tool_is_named_with_its_package() {
    let empty = std::env::temp_dir().join("rootguard-testsupport-no-such-dir");
    passes_locally_fails_under_ci(
        "child_needs_node",
        &[("PATH", empty.to_str().expect("a UTF-8 temp dir"))],
        &["skipped: node is not available", "found: None"],
        &[
            "node is not available",
            "so the example checkers cannot run",
            "apt-get install -y nodejs",
        ],
    );
}

#[test]
fn skip_npm_is_a_skip_locally_and_a_failure_under_ci() {
    passes_locally_fails_under_ci(
        "child_needs_a_package",
        &[("ROOTGUARD_SKIP_NPM", "1")],
        &["skipped: ROOTGUARD_SKIP_NPM=1", "found: None"],
        &["ROOTGUARD_SKIP_NPM=1", "unset ROOTGUARD_SKIP_NPM"],
    );
}
