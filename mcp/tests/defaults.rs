//! Defaults and fallbacks: a server that grants more than it was told is
//! reported once, under RG-DEFAULT-GRANT or RG-CWD-FALLBACK, with the
//! escapes it explains folded in; a server that fails closed when the
//! client's roots/list fails gives nothing.

mod common;

use std::collections::BTreeSet;
use std::time::Duration;

use common::{outcome, python, row, test_servers};
use rootguard_mcp::{report, run, Kind, Mode, Options, Report};

fn vet(python: &str, server: &str, tune: impl FnOnce(&mut Options)) -> Report {
    let mut options = Options::new(vec![
        python.to_owned(),
        test_servers().join(server).display().to_string(),
        "{roots}".into(),
    ]);
    options.timeout = Duration::from_secs(10);
    options.stale_roots = false;
    tune(&mut options);
    run(&options).expect("runs")
}

fn ids(report: &Report) -> BTreeSet<String> {
    report::defects(report)
        .iter()
        .map(|d| d.id().to_owned())
        .collect()
}

const FAILURES: [&str; 5] = [
    "roots-answer-empty",
    "roots-answer-error-32601",
    "roots-answer-error-32603",
    "roots-answer-late",
    "roots-answer-never",
];

#[test]
#[ignore = "full tier: a long mcp run"]
fn a_default_allow_list_is_one_defect_with_the_escapes_folded_in() {
    let Some(python) = python() else { return };
    let report = vet(&python, "default_grant_server.py", |o| o.shrink = false);
    let text = report::text(&report, false);
    assert_eq!(ids(&report), row("default_grant_server.py").0, "{text}");
    for mode in [Mode::Roots, Mode::NoRoots] {
        for probe in ["default-grant-home", "default-grant-cwd"] {
            assert_eq!(
                outcome(&report, probe, mode).finding,
                Some(Kind::ReadEscape),
                "{text}"
            );
        }
    }
    // What the defaults grant already is not blamed on a failed roots/list.
    for probe in FAILURES {
        assert_eq!(outcome(&report, probe, Mode::Roots).finding, None, "{text}");
    }
    let base = rootguard_judge::clean_temp_parent().expect("temp dir");
    if ["/tmp", "/var/tmp", "/dev/shm"]
        .iter()
        .any(|d| base.starts_with(d))
    {
        // The base is under a default: every attack that reads beside the root escapes, folded in.
        assert!(
            report
                .findings
                .iter()
                .any(|f| f.attack == "sibling-prefix-read"),
            "{text}"
        );
        let defects = report::defects(&report);
        assert_eq!(defects[0].hits as usize, report.findings.len(), "{text}");
        assert!(defects[0]
            .variants
            .seen_in
            .iter()
            .any(|s| s.contains("folded: explained by the default grant")));
    }
}

#[test]
fn a_cwd_fallback_is_caught_for_each_client_failure() {
    let Some(python) = python() else { return };
    let report = vet(&python, "cwd_fallback_server.py", |o| {
        o.modes = vec![Mode::Roots];
        o.filter = Some("roots-answer".into());
    });
    let text = report::text(&report, false);
    for probe in FAILURES {
        assert_eq!(
            outcome(&report, probe, Mode::Roots).finding,
            Some(Kind::ReadEscape),
            "{probe}\n{text}"
        );
    }
    assert_eq!(ids(&report), row("cwd_fallback_server.py").0, "{text}");
    assert!(text.contains("RG-CWD-FALLBACK"), "{text}");
}

#[test]
fn a_server_that_fails_closed_gives_nothing() {
    let Some(python) = python() else { return };
    let report = vet(&python, "fail_closed_server.py", |_| {});
    let text = report::text(&report, false);
    assert!(report.findings.is_empty(), "{text}");
    assert_eq!(ids(&report), row("fail_closed_server.py").0);
    for probe in FAILURES {
        let o = outcome(&report, probe, Mode::Roots);
        assert!(
            o.finding.is_none() && o.skipped.is_none(),
            "{probe}\n{text}"
        );
    }
    for probe in [
        "default-grant-beside",
        "default-grant-home",
        "default-grant-cwd",
    ] {
        for mode in [Mode::Roots, Mode::NoRoots] {
            assert_eq!(outcome(&report, probe, mode).finding, None, "{text}");
        }
    }
}
