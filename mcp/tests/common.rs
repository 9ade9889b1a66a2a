//! Helpers shared by the tests: the project's test servers, an interpreter
//! that starts without a shim, and clear skips.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use rootguard_mcp::{Kind, Outcome, Report};

/// The directory of the project's own test servers.
pub fn test_servers() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test-servers")
}

/// The real python3 executable (not a version-manager shim, which may need
/// a HOME the sandbox does not give), or `None` with a skip message.
pub fn python() -> Option<String> {
    let out = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output();
    match out {
        Ok(o) if o.status.success() => Some(String::from_utf8_lossy(&o.stdout).trim().to_owned()),
        _ => {
            eprintln!(
                "skipped: python3 is not available, so the project's test servers cannot run"
            );
            None
        }
    }
}

/// The outcome of `name` in `mode`.
pub fn outcome<'a>(report: &'a Report, name: &str, mode: rootguard_mcp::Mode) -> &'a Outcome {
    report
        .outcomes
        .iter()
        .find(|o| o.name == name && o.mode == mode)
        .unwrap_or_else(|| panic!("no outcome {name} in {mode:?}: {:#?}", report.outcomes))
}

/// Asserts `name` in `mode` found `kind`.
pub fn assert_found(report: &Report, name: &str, mode: rootguard_mcp::Mode, kind: Kind) {
    let o = outcome(report, name, mode);
    assert_eq!(
        o.finding,
        Some(kind),
        "{name} ({mode:?}): expected {kind}\n{}",
        rootguard_mcp::report::text(report, false)
    );
}
