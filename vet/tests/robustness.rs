//! Checkers that misbehave: each defect is classed, the run goes on, and
//! nothing panics. The fake checkers are small Python scripts.

use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

use rootguard_testsupport::Tool;
use rootguard_vet::{vet, Class, HarnessError, Options, ProcessChecker, Report};

/// Writes `body` (Python) into `dir` and vets it for at most `queries`
/// queries; `None` without python3 (a failure under `CI=true`).
fn vet_fake(dir: &Path, body: &str, queries: u64) -> Option<Report> {
    let python = Tool::Python3.need("the fake checkers, which are Python scripts,")?;
    let script = dir.join("fake.py");
    std::fs::write(&script, format!("import json, os, sys, time\n{body}\n")).unwrap();
    let command = vec![OsString::from(python), script.into_os_string()];
    // A hang is what outlasts this; an answer takes a few milliseconds, and a
    // restarted Python well under a second on a loaded machine.
    let mut checker = ProcessChecker::start(command, Duration::from_secs(2)).unwrap();
    let options = Options {
        budget: Duration::ZERO,
        max_queries: Some(queries),
        seed: 1,
        ..Options::default()
    };
    Some(vet(&mut checker, &options).unwrap())
}

const DENY_LOOP: &str = r#"
def answer(line, **extra):
    req = json.loads(line)
    out = {"id": req["id"], "allowed": False}
    out.update(extra)
    print(json.dumps(out), flush=True)
"#;

#[test]
fn a_hanging_checker_is_a_hang_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!("{DENY_LOOP}\nfor n, line in enumerate(sys.stdin):\n    time.sleep(100) if n == 2 else answer(line)\n");
    let Some(report) = vet_fake(dir.path(), &body, 8) else {
        return;
    };
    // Each restarted checker hangs on its third request; answers come in between.
    assert!(report.count(Class::Hang) >= 1, "{report:?}");
    assert!(
        report.count(Class::Hang) < 8 && report.queries >= 8,
        "{report:?}"
    );
    assert!(report.failed(false));
}

#[test]
fn a_checker_that_exits_mid_run_is_a_crash_and_is_restarted() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!("{DENY_LOOP}\nfor n, line in enumerate(sys.stdin):\n    if n == 3: sys.exit(3)\n    answer(line)\n");
    let Some(report) = vet_fake(dir.path(), &body, 20) else {
        return;
    };
    assert!(report.count(Class::Crash) >= 2, "{report:?}");
    let crash = report.first(Class::Crash).unwrap();
    assert!(crash.answer.contains("exit status: 3"), "{}", crash.answer);
    assert!(report.queries >= 20);
}

#[test]
fn non_json_is_a_protocol_error() {
    let dir = tempfile::tempdir().unwrap();
    let Some(report) = vet_fake(
        dir.path(),
        "for line in sys.stdin:\n    print('hello', flush=True)\n",
        3,
    ) else {
        return;
    };
    assert_eq!(report.count(Class::ProtocolError), 3, "{report:?}");
    assert!(report
        .first(Class::ProtocolError)
        .unwrap()
        .answer
        .contains("not JSON"));
}

#[test]
fn a_wrong_id_is_a_protocol_error() {
    let dir = tempfile::tempdir().unwrap();
    let body = "for line in sys.stdin:\n    print(json.dumps({'id': json.loads(line)['id'] + 1, 'allowed': False}), flush=True)\n";
    let Some(report) = vet_fake(dir.path(), body, 3) else {
        return;
    };
    assert_eq!(report.count(Class::ProtocolError), 3, "{report:?}");
    assert!(report
        .first(Class::ProtocolError)
        .unwrap()
        .answer
        .contains("expected"));
}

#[test]
fn a_non_boolean_allowed_is_a_protocol_error() {
    let dir = tempfile::tempdir().unwrap();
    let body = "for line in sys.stdin:\n    print(json.dumps({'id': json.loads(line)['id'], 'allowed': 'yes'}), flush=True)\n";
    let Some(report) = vet_fake(dir.path(), body, 2) else {
        return;
    };
    assert_eq!(report.count(Class::ProtocolError), 2, "{report:?}");
}

#[test]
fn a_ten_megabyte_line_is_a_protocol_error() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!("{DENY_LOOP}\nfor n, line in enumerate(sys.stdin):\n    print('x' * 10_000_000, flush=True) if n == 1 else answer(line)\n");
    let Some(report) = vet_fake(dir.path(), &body, 6) else {
        return;
    };
    // Each restarted checker sends the long line as its second answer.
    assert!(report.count(Class::ProtocolError) >= 1, "{report:?}");
    assert!(
        report.count(Class::ProtocolError) < 6 && report.queries >= 6,
        "{report:?}"
    );
    assert!(report
        .first(Class::ProtocolError)
        .unwrap()
        .answer
        .contains("over the limit"));
}

#[test]
fn a_checker_that_closes_stdout_is_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let body = "os.close(1)\nfor line in sys.stdin:\n    pass\n";
    let Some(report) = vet_fake(dir.path(), body, 3) else {
        return;
    };
    assert_eq!(report.count(Class::Crash), 3, "{report:?}");
}

#[test]
fn a_checker_that_writes_only_to_stderr_hangs_and_its_stderr_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let body = "for line in sys.stdin:\n    print('thinking about', line.strip()[:20], file=sys.stderr, flush=True)\n";
    let Some(report) = vet_fake(dir.path(), body, 2) else {
        return;
    };
    assert_eq!(report.count(Class::Hang), 2, "{report:?}");
    assert!(report
        .first(Class::Hang)
        .unwrap()
        .stderr
        .contains("thinking about"));
}

/// Each start of the checker has its own stderr: a crash's stderr is that
/// of the process that crashed, and a later finding's is that of the
/// process that gave its answer, not a crashed one's before it.
#[test]
fn a_finding_shows_the_stderr_of_the_process_that_answered() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("started-once");
    // The first start says FIRST-START and exits on its first request;
    // every later one says LATER-START and allows everything.
    let body = format!(
        "first = not os.path.exists({marker:?})\nopen({marker:?}, 'a').close()\n\
         print('FIRST-START' if first else 'LATER-START', file=sys.stderr, flush=True)\n\
         for line in sys.stdin:\n    if first: sys.exit(3)\n    \
         print(json.dumps({{'id': json.loads(line)['id'], 'allowed': True}}), flush=True)\n",
        marker = marker.display().to_string()
    );
    let Some(report) = vet_fake(dir.path(), &body, 30) else {
        return;
    };
    let crash = report.first(Class::Crash).expect("the first start crashes");
    assert!(crash.stderr.contains("FIRST-START"), "{:?}", crash.stderr);
    let escapes: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.class.is_escape())
        .collect();
    assert!(
        !escapes.is_empty(),
        "allowing everything escapes: {report:?}"
    );
    for f in escapes {
        assert!(!f.stderr.contains("FIRST-START"), "{:?}", f.stderr);
    }
}

#[test]
fn a_checker_failing_every_query_is_given_up_on() {
    let dir = tempfile::tempdir().unwrap();
    let Some(report) = vet_fake(dir.path(), "sys.exit(1)", 10_000) else {
        return;
    };
    assert!(report.count(Class::Crash) <= 25, "{report:?}");
    assert!(report.notes.iter().any(|n| n.contains("giving up")));
}

#[test]
fn a_command_that_cannot_start_is_a_harness_error() {
    let err = ProcessChecker::start(
        vec!["/nonexistent/rootguard-no-such-checker".into()],
        Duration::from_secs(1),
    )
    .unwrap_err();
    assert!(matches!(err, HarnessError::CannotStart { .. }), "{err}");
    assert!(err.to_string().contains("no-such-checker"), "{err}");
    let err = ProcessChecker::start(Vec::new(), Duration::from_secs(1)).unwrap_err();
    assert!(err.to_string().contains("--"), "{err}");
}
