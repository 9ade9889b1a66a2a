//! A need that is not met: locally the test says why and passes; under CI
//! it fails naming what is missing. Each case runs the `need-child`
//! binary as a child, with the environment under test.

use std::process::{Command, Output};

/// Runs the need `case` of the `need-child` binary in a child whose `CI`
/// is `ci` (unset for `None`).
fn child(case: &str, ci: Option<&str>, env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_need-child"));
    command.arg(case);
    command.env_remove("CI");
    if let Some(ci) = ci {
        command.env("CI", ci);
    }
    command.envs(env.iter().copied());
    command.output().expect("the need-child binary runs")
}

fn output_of(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Runs the need `name` with `env`, locally (`CI` unset, or
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
        "skips",
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
        "needs-node",
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
        "needs-a-package",
        &[("ROOTGUARD_SKIP_NPM", "1")],
        &["skipped: ROOTGUARD_SKIP_NPM=1", "found: None"],
        &["ROOTGUARD_SKIP_NPM=1", "unset ROOTGUARD_SKIP_NPM"],
    );
}

#[test]
fn an_unmet_condition_is_a_skip_locally_and_a_failure_under_ci() {
    passes_locally_fails_under_ci(
        "requires",
        &[],
        &["skipped: no sandbox works here", "holds: false"],
        &["no sandbox works here", "install bubblewrap"],
    );
}
