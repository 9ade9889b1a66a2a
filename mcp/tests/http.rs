//! Streamable HTTP on loopback: the project's HTTP test server of each
//! era driven end to end (`{port}` a free port), the headers each era
//! requires sent, SSE answers read, the legacy session id kept; a URL
//! elsewhere is refused.

mod common;

use std::time::Duration;

use common::{outcome, python, test_servers};
use rootguard_mcp::era::{Era, EraChoice};
use rootguard_mcp::{report, run, HarnessError, Mode, Options, Report};

fn options(era: &str, python: &str) -> Options {
    let mut options = Options::new(vec![
        python.to_owned(),
        test_servers().join("http_server.py").display().to_string(),
        era.to_owned(),
        "{port}".to_owned(),
        "{roots}".to_owned(),
    ]);
    options.timeout = Duration::from_secs(10);
    options.http = Some("http://127.0.0.1:{port}/mcp".into());
    options
}

fn assert_clean(report: &Report) {
    let text = report::text(report, false);
    assert!(report.findings.is_empty(), "{text}");
    for mode in [Mode::Roots, Mode::NoRoots] {
        for name in [
            "baseline",
            "sibling-prefix-read",
            "symlink-file-read",
            "dotdot-read",
        ] {
            let o = outcome(report, name, mode);
            assert!(
                o.skipped.is_none() && o.finding.is_none(),
                "{name}: {o:?}\n{text}"
            );
        }
    }
    for name in [
        "roots-change-old-root-revoked",
        "roots-change-new-root-granted",
    ] {
        assert_eq!(outcome(report, name, Mode::Roots).finding, None, "{text}");
    }
}

#[test]
#[ignore = "full tier: a long mcp run"]
fn the_modern_http_server_passes_with_the_required_headers() {
    let Some(python) = python() else { return };
    let report = run(&options("modern", &python)).expect("runs");
    assert_eq!(report.era, Some(Era::Modern));
    assert_clean(&report);
    let text = report::text(&report, false);
    assert!(
        text.contains("protocol 2026-07-28, over Streamable HTTP"),
        "{text}"
    );
    assert_eq!(
        report.server.as_ref().map(|s| s["transport"].clone()),
        Some("http".into())
    );
    for name in ["mrtr-retry-roots", "mrtr-stale-state"] {
        assert_eq!(outcome(&report, name, Mode::Roots).finding, None);
        assert!(outcome(&report, name, Mode::Roots).skipped.is_none());
    }
}

#[test]
#[ignore = "full tier: a long mcp run"]
fn the_legacy_http_server_passes_in_its_session() {
    let Some(python) = python() else { return };
    let report = run(&options("legacy", &python)).expect("runs");
    assert_eq!(
        report.era,
        Some(Era::Legacy),
        "the modern probe is refused, initialize follows"
    );
    assert_clean(&report);
    let mut forced = options("legacy", &python);
    forced.era = EraChoice::Legacy;
    forced.attacks = false;
    let report = run(&forced).expect("runs");
    assert_eq!(report.era, Some(Era::Legacy));
    assert!(
        report.findings.is_empty(),
        "{}",
        report::text(&report, false)
    );
}

#[test]
fn a_url_off_loopback_is_refused() {
    let Some(python) = python() else { return };
    for url in ["http://192.0.2.1:{port}/mcp", "http://example.com/mcp"] {
        let mut options = options("modern", &python);
        options.http = Some(url.into());
        match run(&options) {
            Err(HarnessError::Usage(why)) => assert!(why.contains("loopback"), "{why}"),
            other => panic!("{url}: expected a usage error, got {other:?}"),
        }
    }
}
