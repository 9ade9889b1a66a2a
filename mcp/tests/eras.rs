//! Both protocol eras over stdio: a 2026-07-28-only server, a dual-era
//! one and a legacy one, each driven end to end with `--era auto`, and
//! with an era forced; `_meta` on every modern request, `resultType`
//! checked, multi-round-trip requests bounded, the era in the report.

mod common;

use std::time::Duration;

use common::{assert_found, outcome, python, test_servers};
use rootguard_mcp::client::{Session, SessionError};
use rootguard_mcp::era::{Era, EraChoice};
use rootguard_mcp::{run, Kind, Mode, Options, Report};
use rootguard_testsupport::within;
use serde_json::{json, Value};

fn options(server: &[&str], python: &str) -> Options {
    let mut command = vec![
        python.to_owned(),
        test_servers().join(server[0]).display().to_string(),
    ];
    command.extend(server[1..].iter().map(|s| (*s).to_owned()));
    command.push("{roots}".to_owned());
    let mut options = Options::new(command);
    options.timeout = Duration::from_secs(10);
    options
}

/// Asserts the run found nothing and its attacks really ran in both modes.
fn assert_clean(report: &Report) {
    let text = rootguard_mcp::report::text(report, false);
    assert!(report.findings.is_empty(), "{text}");
    for mode in [Mode::Roots, Mode::NoRoots] {
        for name in ["baseline", "sibling-prefix-read", "symlink-file-read"] {
            let o = outcome(report, name, mode);
            assert!(o.skipped.is_none() && o.finding.is_none(), "{name}: {o:?}");
        }
    }
    for name in [
        "roots-change-old-root-revoked",
        "roots-change-new-root-granted",
    ] {
        assert_eq!(outcome(report, name, Mode::Roots).finding, None, "{text}");
    }
}

/// A session on `server` in a temp dir holding `f.txt`, its root listed, speaking `choice`.
fn session(python: &str, server: &[&str], choice: EraChoice) -> (tempfile::TempDir, Session) {
    let (dir, _, mut session) = common::temp_session(python, server);
    session.set_era(choice);
    (dir, session)
}

fn read(session: &mut Session, dir: &tempfile::TempDir) -> Result<Value, SessionError> {
    let path = dir.path().canonicalize().expect("real").join("f.txt");
    session.request(
        "tools/call",
        json!({"name": "read_text_file", "arguments": {"path": path.display().to_string()}}),
    )
}

/// The protocol error of a read from `modern_misbehaving_server.py MODE`.
fn misbehaving_read(python: &str, mode: &str) -> String {
    let (dir, mut session) = session(
        python,
        &["modern_misbehaving_server.py", mode],
        EraChoice::Modern,
    );
    session.initialize().expect("discovers");
    match read(&mut session, &dir) {
        Err(SessionError::Protocol { detail }) => detail,
        other => panic!("expected a protocol error: {other:?}"),
    }
}

fn sent(transcript: &[rootguard_mcp::client::Message]) -> Vec<Value> {
    transcript
        .iter()
        .filter(|m| m.direction == rootguard_mcp::client::Direction::ToServer)
        .map(|m| serde_json::from_str(&m.text).expect("JSON"))
        .collect()
}

#[test]
#[ignore = "full tier: a long mcp run"]
fn a_modern_only_server_is_spoken_to_in_its_era_and_passes() {
    let Some(python) = python() else { return };
    let report = run(&options(&["modern_server.py"], &python)).expect("runs");
    assert_eq!(report.era, Some(Era::Modern));
    assert_clean(&report);
    let text = rootguard_mcp::report::text(&report, false);
    assert!(text.contains("era modern (2026-07-28)"), "{text}");
    let json: Value =
        serde_json::from_str(&rootguard_mcp::report::json(&report, false)).expect("JSON");
    assert_eq!(json["era"], "modern (2026-07-28)");
    assert_eq!(json["server"]["serverInfo"]["name"], "rootguard-modern-fs");
}

#[test]
fn a_modern_session_sends_meta_on_every_request_and_no_handshake() {
    let Some(python) = python() else { return };
    let (dir, mut session) = session(&python, &["modern_server.py"], EraChoice::Auto);
    let discover = session.initialize().expect("discovers");
    assert_eq!(discover["result"]["supportedVersions"][0], "2026-07-28");
    assert_eq!(session.era(), Some(Era::Modern));
    session
        .notify("notifications/initialized", None)
        .expect("dropped");
    let response = read(&mut session, &dir).expect("answers");
    assert_eq!(
        response["result"]["content"][0]["text"], "hello",
        "{response}"
    );
    let messages = sent(&session.close());
    assert!(messages
        .iter()
        .all(|m| m["method"] != "initialize" && m["method"] != "notifications/initialized"));
    for m in &messages {
        let meta = &m["params"]["_meta"];
        assert_eq!(
            meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28",
            "{m}"
        );
        assert_eq!(
            meta["io.modelcontextprotocol/clientCapabilities"],
            json!({"roots": {}}),
            "{m}"
        );
        assert_eq!(
            meta["io.modelcontextprotocol/clientInfo"]["name"],
            "rootguard-mcp"
        );
    }
    // The call, then its retry with a new id, the roots and the state echoed.
    let calls: Vec<&Value> = messages
        .iter()
        .filter(|m| m["method"] == "tools/call")
        .collect();
    assert_eq!(calls.len(), 2, "{calls:?}");
    assert_ne!(calls[0]["id"], calls[1]["id"]);
    assert!(
        calls[1]["params"]["inputResponses"]["roots"]["roots"][0]["uri"]
            .as_str()
            .is_some_and(|u| u.starts_with("file:///"))
    );
    assert!(calls[1]["params"]["requestState"].is_string());
}

#[test]
fn a_modern_only_server_forced_into_the_legacy_era_fails_with_its_error_named() {
    let Some(python) = python() else { return };
    let mut options = options(&["modern_server.py"], &python);
    options.era = EraChoice::Legacy;
    options.modes = vec![Mode::NoRoots];
    options.attacks = false;
    let report = run(&options).expect("runs");
    assert_found(&report, "baseline", Mode::NoRoots, Kind::ProtocolError);
    let f = &report.findings[0];
    assert!(
        f.evidence.contains("-32022 UnsupportedProtocolVersion"),
        "{}",
        f.evidence
    );
}

#[test]
#[ignore = "full tier: a long mcp run"]
fn a_dual_era_server_passes_in_both_eras() {
    let Some(python) = python() else { return };
    let report = run(&options(&["dual_server.py"], &python)).expect("runs");
    assert_eq!(report.era, Some(Era::Modern), "auto prefers the modern era");
    assert_clean(&report);
    let mut legacy = options(&["dual_server.py"], &python);
    legacy.era = EraChoice::Legacy;
    let report = run(&legacy).expect("runs");
    assert_eq!(report.era, Some(Era::Legacy));
    assert_clean(&report);
}

#[test]
fn a_legacy_server_is_probed_then_spoken_to_with_initialize() {
    let Some(python) = python() else { return };
    let (dir, mut session) = session(&python, &["refreshing_server.py"], EraChoice::Auto);
    session.initialize().expect("falls back");
    assert_eq!(session.era(), Some(Era::Legacy));
    session
        .pump(Duration::from_secs(2), Some(1))
        .expect("roots");
    let response = read(&mut session, &dir).expect("answers");
    assert_eq!(
        response["result"]["content"][0]["text"], "hello",
        "{response}"
    );
    let messages = sent(&session.close());
    assert_eq!(messages[0]["method"], "server/discover");
    assert_eq!(messages[1]["method"], "initialize");
    // After the fallback no request carries the modern `_meta`.
    assert!(messages[1..]
        .iter()
        .all(|m| m["params"].get("_meta").is_none()));
    // Forced modern, the same server does not start.
    let mut options = options(&["refreshing_server.py"], &python);
    options.era = EraChoice::Modern;
    options.modes = vec![Mode::NoRoots];
    options.attacks = false;
    let report = run(&options).expect("runs");
    assert_found(&report, "baseline", Mode::NoRoots, Kind::ProtocolError);
    assert!(report.findings[0].evidence.contains("--era modern"));
}

#[test]
fn an_unknown_result_type_is_a_protocol_error() {
    let Some(python) = python() else { return };
    let detail = misbehaving_read(&python, "bad-result-type");
    assert!(detail.contains("\"partial\""), "{detail}");
}

#[test]
fn a_server_that_asks_forever_is_a_finding_not_a_hang() {
    let Some(python) = python() else { return };
    let mut options = options(&["modern_misbehaving_server.py", "asks-forever"], &python);
    options.modes = vec![Mode::Roots];
    options.attacks = false;
    options.stale_roots = false;
    let report = within(
        Duration::from_secs(150),
        "the run against a server that asks forever",
        move || run(&options).expect("runs"),
    );
    assert_found(&report, "baseline", Mode::Roots, Kind::ProtocolError);
    assert!(
        report.findings[0]
            .evidence
            .contains("still asked for input"),
        "{}",
        report.findings[0].evidence
    );
}

#[test]
fn a_server_request_on_modern_stdio_is_a_protocol_error() {
    let Some(python) = python() else { return };
    let detail = misbehaving_read(&python, "pushes-request");
    assert!(detail.contains("roots/list request"), "{detail}");
}
