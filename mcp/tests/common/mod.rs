//! Helpers shared by the tests: the project's test servers, the Python
//! that runs them, and the outcomes to look for. A directory module, so
//! cargo does not build it as a test of its own.

#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use rootguard_mcp::client::Session;
use rootguard_mcp::{report, run, Finding, Kind, Options, Outcome, Report};
use rootguard_testsupport::Tool;

/// The directory of the project's own test servers.
pub fn test_servers() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test-servers")
}

/// The real python3 executable, or `None` after a skip message (a
/// failure under `CI=true`).
pub fn python() -> Option<String> {
    Tool::Python3.need("the project's test servers")
}

/// Whether the run's write attacks ran: they need a sandbox (bubblewrap or
/// `unshare`) to confine the server. When not, a skip message, and a
/// failure under `CI=true`: a write check must never pass unrun there.
pub fn writes_ran(report: &Report) -> bool {
    rootguard_testsupport::require(
        report.writes,
        "no sandbox (bubblewrap or unshare) confines a server here, so the write attacks did not run",
        "install bubblewrap (`apt-get install -y bubblewrap`; `bash .ci/run` does), or run as root for unshare",
    )
}

/// `options` run on a thread of its own, failing if it takes longer than
/// `guard` (a hang guard only: set it far past what the run takes).
pub fn guarded(options: Options, guard: Duration) -> Report {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        // The receiver gone means the guard already failed the test.
        let _ = send.send(run(&options).expect("runs"));
    });
    receive
        .recv_timeout(guard)
        .expect("the run ends (hang guard)")
}

/// The IDs of the defects that fail the run.
pub fn failing(found: &Report) -> BTreeSet<String> {
    let model = report::model(found, false);
    model
        .defects
        .iter()
        .filter(|d| model.fails(d))
        .map(|d| d.id().to_owned())
        .collect()
}

/// The first finding of the attack `attack`, or a panic showing the report.
pub fn finding<'a>(found: &'a Report, attack: &str) -> &'a Finding {
    found
        .findings
        .iter()
        .find(|f| f.attack == attack)
        .unwrap_or_else(|| panic!("no finding of {attack}\n{}", report::text(found, false)))
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

/// The table's row for `server` (the first cell, `misbehaving_server.py hang` and all).
pub fn row(server: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/reports.md");
    let text = std::fs::read_to_string(docs).expect("docs/reports.md");
    let ids = |cell: &str| -> BTreeSet<String> {
        cell.split('`')
            .filter(|s| s.starts_with("RG-"))
            .map(str::to_owned)
            .collect()
    };
    text.lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| l.split('|').map(str::trim).collect::<Vec<_>>())
        .find(|cells| cells[1].trim_matches('`') == server)
        .map(|cells| (ids(cells[2]), ids(cells[3])))
        .unwrap_or_else(|| panic!("no row for {server} in docs/reports.md"))
}

/// A session on the test server `server` (its script, then arguments),
/// started unsandboxed in a new temp dir holding `f.txt` ("hello"), that
/// dir its one listed root; not yet initialized. The dir goes with the
/// first value.
pub fn temp_session(python: &str, server: &[&str]) -> (tempfile::TempDir, PathBuf, Session) {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().canonicalize().expect("real path");
    std::fs::write(root.join("f.txt"), "hello").expect("writes");
    let mut command = vec![
        python.to_owned(),
        test_servers().join(server[0]).display().to_string(),
    ];
    command.extend(server[1..].iter().map(|s| (*s).to_owned()));
    let launch =
        rootguard_mcp::sandbox::Launch::new(&command, &root, &root, rootguard_mcp::Sandbox::None);
    let uri = format!("file://{}", root.display());
    let session =
        Session::start(&launch, Some(vec![uri]), Duration::from_secs(10)).expect("starts");
    (dir, root, session)
}
