//! `rootguard mcp` against third-party MCP servers with their own path
//! checks, each installed at an exact version at test time (npm into
//! `target/npm-cache`, PyPI into a venv under `target/pypi-cache`; skipped
//! with a message locally when the registry or the tool is missing, a
//! failure under `CI=true`) and started in the launch shape its users use.
//! Each must show the defect confirmed by hand against the same release in
//! docs/findings-mcp.md ("The ecosystem").

mod common;

use std::collections::BTreeSet;
use std::time::Duration;

use rootguard_mcp::{report, run, Kind, Mode, Options, Report, Shape};
use rootguard_testsupport::{npm, pypi, Tool};

/// The IDs of the defects that fail the run.
fn failing(report: &Report) -> BTreeSet<String> {
    let model = report::model(report, false);
    model
        .defects
        .iter()
        .filter(|d| model.fails(d))
        .map(|d| d.id().to_owned())
        .collect()
}

/// The fixed table in the no-roots session only: these servers never ask
/// for roots, so their configured directories are all they have.
fn options(command: Vec<String>, launch: Shape) -> Options {
    let mut options = Options::new(command);
    options.launch = launch;
    options.modes = vec![Mode::NoRoots];
    options.stale_roots = false;
    options.timeout = Duration::from_secs(20);
    options
}

/// @agent-infra/mcp-server-filesystem (ByteDance UI-TARS) takes its
/// directories as a repeated `--allowed-directories DIR` and carries the
/// reference server's pre-July-2025 check: a text prefix, and a realpath
/// failure swallowed by the new-file fallback. It also prints debug lines
/// on stdout, which must not stop the run.
#[test]
#[ignore = "full tier: installs npm and PyPI packages"]
fn agent_infra_repeated_flag_prefix_link_and_dangling_write() {
    let Some(node) = Tool::Node.need("@agent-infra/mcp-server-filesystem") else {
        return;
    };
    // The newest pinned release (newest-packages.yml moves the pin).
    let Some((_, package)) = npm::newest("@agent-infra/mcp-server-filesystem") else {
        return;
    };
    let shape = Shape {
        each_root: Some(Shape::each_root("--allowed-directories {root}")),
        ..Shape::default()
    };
    let entry = package.join("dist/index.cjs").display().to_string();
    let report = run(&options(vec![node, entry], shape)).expect("runs");
    println!("{}", report::text(&report, false));
    let ids = failing(&report);
    assert!(ids.contains("RG-PREFIX-SIBLING"), "{ids:?}");
    // Probing shows the dangling write needs only the final link: it is a
    // sighting of the same defect as the existing link's.
    assert!(ids.contains("RG-FINAL-LINK-PARENT"), "{ids:?}");
    // The link to a prefixed sibling escapes through either bug; it is
    // named by one of them, never as a plain path allowed.
    assert!(!ids.contains("RG-ALLOWS-OUTSIDE"), "{ids:?}");
    if common::writes_ran(&report) {
        let dangling = report
            .findings
            .iter()
            .find(|f| f.attack == "dangling-link-write")
            .expect("the dangling-link write escapes");
        assert_eq!(dangling.kind, Kind::WriteEscape);
    }
}

/// fsguard-mcp takes one root in `FSGUARD_ROOT` and answers refusals as
/// ordinary results; `Path.exists()` is false for a dangling link, so a
/// write through one is judged by the link's own path and lands outside.
#[test]
#[ignore = "full tier: installs npm and PyPI packages"]
fn fsguard_env_root_dangling_write() {
    let Some(venv) = pypi::venv("fsguard-mcp") else {
        return;
    };
    let shape = Shape {
        env: vec![("FSGUARD_ROOT".into(), "{root1}".into())],
        ..Shape::default()
    };
    let server = venv.join("bin/fsguard-mcp").display().to_string();
    let mut options = options(vec![server], shape);
    options.filter = Some("dangling".into());
    let report = run(&options).expect("runs");
    println!("{}", report::text(&report, false));
    if !common::writes_ran(&report) {
        return;
    }
    let ids = failing(&report);
    assert!(ids.contains("RG-DANGLING-WRITE"), "{ids:?}");
}
