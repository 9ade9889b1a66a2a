//! `rootguard mcp` against the project's own test servers: the caching one
//! must be caught by the roots-that-change check, the refreshing one must
//! pass everything, and a server asking roots/list without the capability
//! gets -32601 and keeps its command-line directories.

mod common;

use std::time::Duration;

use common::{assert_found, outcome, python, test_servers};
use rootguard_mcp::{run, Kind, Mode, Options};

fn options(server: &str, python: &str) -> Options {
    let mut options = Options::new(vec![
        python.to_owned(),
        test_servers().join(server).display().to_string(),
        "{roots}".to_owned(),
    ]);
    options.timeout = Duration::from_secs(10);
    options
}

#[test]
fn caching_server_is_caught_keeping_the_old_roots() {
    let Some(python) = python() else { return };
    let mut options = options("caching_server.py", &python);
    options.attacks = false;
    let report = run(&options).expect("runs");
    // It fetched its roots once, so the baseline passes in both modes ...
    assert_eq!(outcome(&report, "baseline", Mode::Roots).finding, None);
    assert_eq!(outcome(&report, "baseline", Mode::NoRoots).finding, None);
    // ... but keeps them after roots/list_changed.
    assert_found(
        &report,
        "roots-change-old-root-revoked",
        Mode::Roots,
        Kind::StaleRoot,
    );
    assert_found(
        &report,
        "roots-change-new-root-granted",
        Mode::Roots,
        Kind::RootNotHonoured,
    );
    assert!(report.failed(false));
    let stale = report
        .findings
        .iter()
        .find(|f| f.kind == Kind::StaleRoot)
        .expect("a stale-root finding");
    // The exchange shows the notification and, ending it, the read of the old root.
    assert!(stale
        .exchange
        .iter()
        .any(|m| m.text.contains("notifications/roots/list_changed")));
    let (request, response) = stale.key.as_ref().expect("the key request");
    assert!(request.contains("{base}/a/file.txt"), "{request}");
    assert!(response.contains("ROOT-a-"), "{response}");
    assert_eq!(stale.scenario.roots.len(), 3);
    let text = rootguard_mcp::report::text(&report, false);
    assert!(
        text.contains("stale-root in roots-change-old-root-revoked"),
        "{text}"
    );
}

#[test]
fn refreshing_server_passes_everything() {
    let Some(python) = python() else { return };
    let report = run(&options("refreshing_server.py", &python)).expect("runs");
    let text = rootguard_mcp::report::text(&report, false);
    assert!(report.findings.is_empty(), "{text}");
    assert!(!report.failed(true), "{text}");
    // The attacks it has tools for really ran.
    for name in [
        "sibling-prefix-read",
        "symlink-file-read",
        "dotdot-read",
        "symlink-dir-list",
    ] {
        let o = outcome(&report, name, Mode::Roots);
        assert!(o.skipped.is_none() && o.finding.is_none(), "{name}: {o:?}");
    }
    for name in [
        "roots-change-old-root-revoked",
        "roots-change-new-root-granted",
        "root-vanishes",
        "root-appears",
    ] {
        assert_eq!(outcome(&report, name, Mode::Roots).finding, None, "{text}");
    }
    if common::writes_ran(&report) {
        for name in [
            "dangling-link-write",
            "symlink-file-write",
            "sibling-prefix-write",
        ] {
            let o = outcome(&report, name, Mode::Roots);
            assert!(o.skipped.is_none() && o.finding.is_none(), "{name}: {o:?}");
        }
    }
    // The report formats all say so.
    let junit = rootguard_mcp::report::junit(&report, false);
    assert!(junit.contains("failures=\"0\""), "{junit}");
    let sarif: serde_json::Value =
        serde_json::from_str(&rootguard_mcp::report::sarif(&report, false)).expect("SARIF is JSON");
    assert_eq!(
        sarif["runs"][0]["results"].as_array().map(Vec::len),
        Some(0)
    );
}

#[test]
fn roots_list_without_the_capability_gets_method_not_found() {
    let Some(python) = python() else { return };
    let mut options = options("pushy_server.py", &python);
    options.modes = vec![Mode::NoRoots];
    options.stale_roots = false;
    options.filter = Some("sibling-prefix-read".into());
    let report = run(&options).expect("runs");
    let text = rootguard_mcp::report::text(&report, false);
    assert!(
        report.notes.iter().any(|n| n.contains("-32601")),
        "the server's roots/list should be noted: {text}"
    );
    // Its fallback, the command-line directory, is honoured, and only it.
    assert_eq!(
        outcome(&report, "baseline", Mode::NoRoots).finding,
        None,
        "{text}"
    );
    assert_eq!(
        outcome(&report, "sibling-prefix-read", Mode::NoRoots).finding,
        None,
        "{text}"
    );
}

#[test]
fn roots_asked_inside_a_tool_call_are_answered_in_input_responses() {
    let Some(python) = python() else { return };
    // The roots-that-change check passes only if each retried call carries
    // the client's current roots: the command line names a and c only.
    let mut options = options("mrtr_server.py", &python);
    options.attacks = false;
    let report = run(&options).expect("runs");
    let text = rootguard_mcp::report::text(&report, false);
    assert!(report.findings.is_empty(), "{text}");

    // And on the wire: an input_required result, then the retry with inputResponses.
    let (_dir, root, mut session) = common::temp_session(&python, &["mrtr_server.py"]);
    session.initialize().expect("initializes");
    let path = root.join("f.txt").display().to_string();
    let response = session
        .request(
            "tools/call",
            serde_json::json!({"name": "read_text_file", "arguments": {"path": path}}),
        )
        .expect("answers");
    assert_eq!(
        response["result"]["content"][0]["text"], "hello",
        "{response}"
    );
    let transcript = session.close();
    assert!(transcript
        .iter()
        .any(|m| m.text.contains("\"input_required\"")));
    assert!(transcript
        .iter()
        .any(|m| m.text.contains("\"inputResponses\"")
            && m.text.contains("\"requestState\":\"need-roots\"")));
}

#[test]
fn without_a_sandbox_write_attacks_need_the_flag() {
    let Some(python) = python() else { return };
    let mut options = options("refreshing_server.py", &python);
    options.sandbox = Some(rootguard_mcp::Sandbox::None);
    options.modes = vec![Mode::NoRoots];
    options.stale_roots = false;
    options.filter = Some("dangling-link-write".into());
    let report = run(&options).expect("runs");
    assert!(!report.writes);
    let o = outcome(&report, "dangling-link-write", Mode::NoRoots);
    assert_eq!(o.skipped.as_deref(), Some("write attack without a sandbox"));
    assert!(report
        .notes
        .iter()
        .any(|n| n.contains("--allow-unsandboxed-writes")));
    assert!(rootguard_mcp::report::text(&report, false).contains("write attacks skipped"));

    options.allow_unsandboxed_writes = true;
    let report = run(&options).expect("runs");
    let o = outcome(&report, "dangling-link-write", Mode::NoRoots);
    assert!(o.skipped.is_none() && o.finding.is_none(), "{o:?}");
}

#[test]
fn a_lenient_root_parser_is_a_root_escape() {
    let Some(python) = python() else { return };
    let mut options = options("lenient_roots_server.py", &python);
    options.modes = vec![Mode::Roots];
    options.stale_roots = false;
    options.filter = Some("root-".into());
    let report = run(&options).expect("runs");
    for name in ["root-query", "root-fragment", "root-host"] {
        assert_found(&report, name, Mode::Roots, Kind::RootEscape);
    }
    let f = report
        .findings
        .iter()
        .find(|f| f.attack == "root-query")
        .expect("finding");
    assert_eq!(
        f.scenario.roots,
        ["file://{base}/proj", "file://{base}/out?x=1"]
    );
    assert_eq!(
        f.scenario.cases[0].expect,
        Some(rootguard_judge::Expect::Outside)
    );
    assert!(
        f.truth.as_deref().is_some_and(|t| t.contains("no query")),
        "{:?}",
        f.truth
    );
}
