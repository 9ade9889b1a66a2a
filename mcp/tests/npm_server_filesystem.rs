//! `rootguard mcp` against the real @modelcontextprotocol/server-filesystem,
//! installed with npm into a cache dir at test time (skipped, with a
//! message, when npm or the registry is unavailable, or ROOTGUARD_SKIP_NPM=1;
//! under `CI=true` those fail instead):
//!
//! - 2025.3.28, from before the July 2025 fixes: the text-prefix check
//!   (CVE-2025-53110) and the symlink check that falls through to the
//!   parent (CVE-2025-53109) must be observed end to end;
//! - the newest release pinned in testsupport/packages.toml: those escapes
//!   must be gone, and whatever is found is printed. (The scheduled
//!   workflow newest-packages.yml moves the pin to npm's newest.)

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{assert_found, outcome};
use rootguard_mcp::{report, run, Kind, Mode, Options};
use rootguard_testsupport::{npm, Tool};

const PACKAGE: &str = "@modelcontextprotocol/server-filesystem";
const OLD: &str = "2025.3.28";

/// The server's entry point at `version`, installed once into the cache
/// that vet's adapter tests share.
fn install(version: &str) -> Option<PathBuf> {
    npm::package(PACKAGE, version).map(|package| package.join("dist/index.js"))
}

fn node() -> Option<String> {
    Tool::Node.need("the MCP reference server")
}

fn options(node: &str, entry: &Path) -> Options {
    let mut options = Options::new(vec![
        node.to_owned(),
        entry.display().to_string(),
        "{roots}".to_owned(),
    ]);
    options.timeout = Duration::from_secs(15);
    options
}

#[test]
#[ignore = "full tier: installs an npm package"]
fn old_server_escapes_are_observed() {
    let Some(node) = node() else { return };
    let Some(entry) = install(OLD) else { return };
    let mut options = options(&node, &entry);
    // 2025.3.28 knows nothing of roots: its command-line directories are all it has.
    options.modes = vec![Mode::NoRoots];
    options.stale_roots = false;
    let report = run(&options).expect("runs");
    println!("{}", report::text(&report, false));
    assert_eq!(outcome(&report, "baseline", Mode::NoRoots).finding, None);
    // CVE-2025-53110: a text-prefix compare lets proj2 pass for proj.
    assert_found(
        &report,
        "sibling-prefix-read",
        Mode::NoRoots,
        Kind::ReadEscape,
    );
    assert_found(
        &report,
        "sibling-prefix-list",
        Mode::NoRoots,
        Kind::ReadEscape,
    );
    // CVE-2025-53109: a link leading out is refused, and the refusal is caught
    // by the fallback for new files, which then allows the path.
    assert_found(
        &report,
        "symlink-file-read",
        Mode::NoRoots,
        Kind::ReadEscape,
    );
    if common::writes_ran(&report) {
        assert_found(
            &report,
            "dangling-link-write",
            Mode::NoRoots,
            Kind::WriteEscape,
        );
        assert_found(
            &report,
            "symlink-file-write",
            Mode::NoRoots,
            Kind::WriteEscape,
        );
        assert_found(
            &report,
            "sibling-prefix-write",
            Mode::NoRoots,
            Kind::WriteEscape,
        );
    }
    // Each escape is minimal and carries its exchange.
    let f = report
        .findings
        .iter()
        .find(|f| f.attack == "symlink-file-read")
        .expect("finding");
    assert!(f.shrunk);
    assert_eq!(f.scenario.tree.len(), 2, "{:?}", f.scenario.tree);
    let (request, response) = f.key.as_ref().expect("key exchange");
    assert!(request.contains("\"{base}/proj/link\""), "{request}");
    assert!(response.contains("CANARY-"), "{response}");
    assert!(report.failed(false));
    let dir = tempfile::tempdir().expect("temp dir");
    let written = report::write_findings(&report, dir.path()).expect("writes");
    assert!(written
        .iter()
        .any(|p| p.ends_with("no-roots-symlink-file-read.json")));
    let doc = rootguard_judge::Document::from_json(
        &std::fs::read_to_string(dir.path().join("no-roots-symlink-file-read.json"))
            .expect("reads"),
    )
    .expect("a valid scenario file");
    assert_eq!(
        doc.scenarios[0].cases[0].expect,
        Some(rootguard_judge::Expect::Outside)
    );
}

#[test]
#[ignore = "full tier: installs an npm package"]
fn newest_server_is_reported() {
    let Some(node) = node() else { return };
    // The release testsupport/packages.toml records as npm's `latest`.
    let Some((version, package)) = npm::newest(PACKAGE) else {
        return;
    };
    let entry = package.join("dist/index.js");
    let mut options = options(&node, &entry);
    options.shrink = false;
    let report = run(&options).expect("runs");
    println!("{PACKAGE}@{version}:\n{}", report::text(&report, false));
    for mode in [Mode::Roots, Mode::NoRoots] {
        assert_eq!(outcome(&report, "baseline", mode).finding, None);
        // The July 2025 fixes hold.
        for name in ["sibling-prefix-read", "symlink-file-read"] {
            let o = outcome(&report, name, mode);
            assert!(
                o.skipped.is_none() && o.finding.is_none(),
                "{version} {name}: {o:?}"
            );
        }
    }
    // It asks roots/list again on list_changed.
    assert_eq!(
        outcome(&report, "roots-change-old-root-revoked", Mode::Roots).finding,
        None
    );
}
