//! A server that hangs, exits or prints noise on stdout is reported as a
//! hang, a crash or a protocol error, and the run goes on.

mod common;

use std::time::Duration;

use common::{assert_found, python, test_servers};
use rootguard_mcp::{run, Kind, Mode, Options};
use rootguard_testsupport::within;

fn options(mode: &str, python: &str) -> Options {
    let mut options = Options::new(vec![
        python.to_owned(),
        test_servers()
            .join("misbehaving_server.py")
            .display()
            .to_string(),
        mode.to_owned(),
        "{roots}".to_owned(),
    ]);
    options.timeout = Duration::from_millis(1500);
    options.modes = vec![Mode::NoRoots];
    options.stale_roots = false;
    options.filter = Some("sibling-prefix-read".into());
    options
}

#[test]
fn a_server_that_never_answers_is_a_hang_within_the_timeout() {
    let Some(python) = python() else { return };
    // Each call ends at its 1.5 s timeout; a run that hangs is caught here.
    let options = options("hang", &python);
    let report = within(
        Duration::from_secs(120),
        "the run against a silent server",
        move || run(&options).expect("runs"),
    );
    // The baseline's read hangs too, and every attack after it.
    assert_found(&report, "baseline", Mode::NoRoots, Kind::Hang);
    assert_found(&report, "sibling-prefix-read", Mode::NoRoots, Kind::Hang);
    assert!(report.failed(false));
}

#[test]
fn a_server_that_exits_is_a_crash() {
    let Some(python) = python() else { return };
    let report = run(&options("exit", &python)).expect("runs");
    assert_found(&report, "sibling-prefix-read", Mode::NoRoots, Kind::Crash);
}

#[test]
fn noise_on_stdout_is_a_protocol_error() {
    let Some(python) = python() else { return };
    let mut options = options("noise", &python);
    options.filter = Some("no-attack-has-this-name".into());
    let report = run(&options).expect("runs");
    assert_found(&report, "baseline", Mode::NoRoots, Kind::ProtocolError);
    let f = &report.findings[0];
    assert!(f.evidence.contains("starting up..."), "{}", f.evidence);
}
