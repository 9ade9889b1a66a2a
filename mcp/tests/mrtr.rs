//! The attacks on multi-round-trip requests of revision 2026-07-28: a
//! server keeping an earlier call's roots, and one trusting a replayed
//! `requestState`, are caught with their catalogue IDs; the sound modern
//! server, which asks for roots on every call, passes.

mod common;

use std::time::Duration;

use common::{assert_found, outcome, python, test_servers};
use rootguard_mcp::era::Era;
use rootguard_mcp::{report, run, Kind, Mode, Options, Report};

const CHECKS: [&str; 3] = ["mrtr-retry-roots", "mrtr-stale-state", "mrtr-empty-roots"];

fn checks_only(server: &str, python: &str) -> Report {
    let mut options = Options::new(vec![
        python.to_owned(),
        test_servers().join(server).display().to_string(),
        "{roots}".to_owned(),
    ]);
    options.timeout = Duration::from_secs(10);
    options.modes = vec![Mode::Roots];
    options.attacks = false;
    let report = run(&options).expect("runs");
    assert_eq!(report.era, Some(Era::Modern));
    report
}

fn ids(report: &Report) -> Vec<String> {
    report::defects(report)
        .into_iter()
        .map(|d| d.entry.id)
        .collect()
}

#[test]
fn the_sound_modern_server_passes_the_round_trip_attacks() {
    let Some(python) = python() else { return };
    let report = checks_only("modern_server.py", &python);
    let text = report::text(&report, false);
    assert!(report.findings.is_empty(), "{text}");
    for name in CHECKS {
        let o = outcome(&report, name, Mode::Roots);
        assert!(o.skipped.is_none() && o.finding.is_none(), "{name}: {o:?}");
    }
}

#[test]
fn a_server_keeping_the_first_roots_is_caught_on_the_retry() {
    let Some(python) = python() else { return };
    let report = checks_only("modern_caching_server.py", &python);
    assert_found(&report, "mrtr-retry-roots", Mode::Roots, Kind::StaleRoot);
    assert!(
        ids(&report).contains(&"RG-MRTR-RETRY-ROOTS".to_owned()),
        "{:?}",
        ids(&report)
    );
    let f = report
        .findings
        .iter()
        .find(|f| f.attack == "mrtr-retry-roots")
        .expect("the finding");
    // Replayable: the roots in force and the case, judged outside; the
    // exchange ends with the retry that answered roots [b].
    assert_eq!(f.scenario.roots, vec!["file://{base}/b".to_owned()]);
    assert!(
        f.truth.as_deref().is_some_and(|t| t.starts_with("outside")),
        "{:?}",
        f.truth
    );
    let (request, response) = f.key.as_ref().expect("the key request");
    assert!(request.contains("{base}/a/file.txt"), "{request}");
    assert!(
        f.evidence.contains("without asking for the roots again"),
        "{}",
        f.evidence
    );
    assert!(response.contains("ROOT-a-"), "{response}");
    assert!(report.failed(false));
}

#[test]
fn a_server_trusting_a_replayed_request_state_is_caught() {
    let Some(python) = python() else { return };
    let report = checks_only("modern_stale_state_server.py", &python);
    let text = report::text(&report, false);
    // Each call gets a fresh state, so the retry itself is judged rightly ...
    assert_eq!(
        outcome(&report, "mrtr-retry-roots", Mode::Roots).finding,
        None,
        "{text}"
    );
    // ... but the state of the first call brings its roots back.
    assert_found(&report, "mrtr-stale-state", Mode::Roots, Kind::StaleRoot);
    assert!(
        ids(&report).contains(&"RG-MRTR-STALE-STATE".to_owned()),
        "{text}"
    );
    let f = report
        .findings
        .iter()
        .find(|f| f.attack == "mrtr-stale-state")
        .expect("the finding");
    let (request, _) = f.key.as_ref().expect("the key request");
    assert!(
        request.contains("file://{base}/b") && request.contains("requestState"),
        "{request}"
    );
    assert!(text.contains("RG-MRTR-STALE-STATE"), "{text}");
}

#[test]
fn legacy_runs_have_no_round_trip_checks() {
    let Some(python) = python() else { return };
    let mut options = Options::new(vec![
        python.clone(),
        test_servers()
            .join("refreshing_server.py")
            .display()
            .to_string(),
        "{roots}".to_owned(),
    ]);
    options.modes = vec![Mode::Roots];
    options.attacks = false;
    let report = run(&options).expect("runs");
    assert_eq!(report.era, Some(Era::Legacy));
    assert!(report
        .outcomes
        .iter()
        .all(|o| !CHECKS.contains(&o.name.as_str())));
}

#[test]
fn a_server_taking_no_roots_for_no_limit_is_caught() {
    let Some(python) = python() else { return };
    let report = checks_only("modern_fail_open_server.py", &python);
    let text = report::text(&report, false);
    assert_eq!(
        outcome(&report, "mrtr-retry-roots", Mode::Roots).finding,
        None,
        "{text}"
    );
    assert_found(&report, "mrtr-empty-roots", Mode::Roots, Kind::RootEscape);
    assert!(
        ids(&report).contains(&"RG-NO-ROOTS-FAIL-OPEN".to_owned()),
        "{text}"
    );
    let f = report
        .findings
        .iter()
        .find(|f| f.attack == "mrtr-empty-roots")
        .expect("the finding");
    assert!(f.scenario.roots.is_empty());
    let (request, _) = f.key.as_ref().expect("the key request");
    assert!(
        request.contains("\"roots\":[]") && request.contains("{base}/out/file.txt"),
        "{request}"
    );
}
