//! `rootguard mcp` against a real server of the 2026-07-28 revision:
//! PyPI filesystem-mcp 1.0.2 (on the official Python SDK `mcp` 2.3.0, both
//! eras), installed at test time into a venv under `target/pypi-cache`
//! (skipped with a message when pip or its index is unavailable, or
//! ROOTGUARD_SKIP_PYPI=1; under `CI=true` those fail instead).
//!
//! Its check resolves an existing path and, for a new one, the parent: a
//! write through a dangling link lands outside (docs/findings-mcp.md). The
//! escape must be observed in both eras, and its reads must hold.

mod common;

use std::path::PathBuf;
use std::time::Duration;

use common::{assert_found, outcome};
use rootguard_mcp::era::{Era, EraChoice};
use rootguard_mcp::{report, run, Kind, Mode, Options};
use rootguard_testsupport::pypi;

fn server() -> Option<PathBuf> {
    pypi::venv("filesystem-mcp").map(|venv| venv.join("bin/filesystem-mcp"))
}

fn options(program: &std::path::Path, filter: &str) -> Options {
    let mut options = Options::new(vec![program.display().to_string(), "{roots}".to_owned()]);
    options.timeout = Duration::from_secs(20);
    options.stale_roots = false;
    options.filter = Some(filter.to_owned());
    options
}

#[test]
#[ignore = "full tier: installs PyPI packages"]
fn the_dangling_link_write_escapes_in_both_eras() {
    let Some(program) = server() else { return };
    let report = run(&options(&program, "dangling-link-write")).expect("runs");
    println!("{}", report::text(&report, false));
    assert_eq!(
        report.era,
        Some(Era::Modern),
        "auto speaks its preferred era"
    );
    assert_eq!(
        report
            .server
            .as_ref()
            .map(|s| s["serverInfo"]["name"].clone()),
        Some("filesystem-mcp".into())
    );
    if !common::writes_ran(&report) {
        return;
    }
    for mode in [Mode::Roots, Mode::NoRoots] {
        assert_eq!(outcome(&report, "baseline", mode).finding, None);
        assert_found(&report, "dangling-link-write", mode, Kind::WriteEscape);
    }
    let f = &report.findings[0];
    assert!(
        f.evidence.contains("created {base}/out/new.txt"),
        "{}",
        f.evidence
    );
    // The whole exchange is stateless: no initialize, `_meta` on every request.
    assert!(f
        .exchange
        .iter()
        .all(|m| !m.text.contains("\"initialize\"")));
    let (request, _) = f.key.as_ref().expect("the key request");
    assert!(
        request.contains("\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\""),
        "{request}"
    );

    // The same boundary, the same escape, in the legacy era.
    let mut legacy = options(&program, "dangling-link-write");
    legacy.era = EraChoice::Legacy;
    legacy.modes = vec![Mode::NoRoots];
    let report = run(&legacy).expect("runs");
    assert_eq!(report.era, Some(Era::Legacy));
    assert_found(
        &report,
        "dangling-link-write",
        Mode::NoRoots,
        Kind::WriteEscape,
    );
}

#[test]
#[ignore = "full tier: installs PyPI packages"]
fn its_reads_hold() {
    let Some(program) = server() else { return };
    let mut options = options(&program, "-read");
    options.modes = vec![Mode::NoRoots];
    let report = run(&options).expect("runs");
    let text = report::text(&report, false);
    assert_eq!(report.era, Some(Era::Modern));
    assert!(report.findings.is_empty(), "{text}");
    for name in [
        "sibling-prefix-read",
        "symlink-file-read",
        "dotdot-read",
        "symlink-parent-read",
    ] {
        let o = outcome(&report, name, Mode::NoRoots);
        assert!(o.skipped.is_none() && o.finding.is_none(), "{name}: {o:?}");
    }
}
