//! `rootguard mcp --race` on the project's own servers: the one that checks
//! then opens by name must be caught, run after run, at the default tries;
//! the Rust one that opens beneath its roots (`PinnedRoots::open`) must not
//! escape once in 20,000 tries.
//!
//! Run: `cargo test -p rootguard-mcp --test race -- --nocapture`. The
//! `race_live` test prints one line for scripts:
//! `race-live check-then-open=<escapes>/<tries> beneath=<escapes>/<tries>`.

mod common;

use std::sync::Mutex;
use std::time::Duration;

use common::{python, test_servers};
use rootguard_mcp::race::{Race, DEFAULT_TRIES};
use rootguard_mcp::{run, Kind, Mode, Options, Report, Sandbox};

/// Runs of the check-then-open server, and how many must catch it.
const RUNS: usize = 10;
const CAUGHT_AT_LEAST: usize = 9;

/// Tries the race-free server gets, over all its races.
const BENEATH_TRIES: u64 = 20_000;

/// The tests here set TMPDIR or load both cores: one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

/// Only the races, in roots mode.
fn race_options(command: Vec<String>, tries: u64) -> Options {
    let mut options = Options::new(command);
    options.modes = vec![Mode::Roots];
    options.attacks = false;
    options.stale_roots = false;
    options.race = true;
    options.race_tries = tries;
    // The tries decide when a race ends; this is only a hang guard, ten
    // times what the slowest race here takes on a loaded machine.
    options.race_time = Duration::from_secs(600);
    options
}

fn check_then_open(python: &str) -> Vec<String> {
    vec![
        python.to_owned(),
        test_servers()
            .join("check_then_open_server.py")
            .display()
            .to_string(),
        "{roots}".to_owned(),
    ]
}

fn beneath() -> Vec<String> {
    vec![
        env!("CARGO_BIN_EXE_rootguard-beneath-server").to_owned(),
        "{roots}".to_owned(),
    ]
}

fn ran(report: &Report) -> Vec<&Race> {
    report
        .races
        .iter()
        .filter(|r| r.skipped.is_none())
        .collect()
}

fn totals(report: &Report) -> (u64, u64) {
    ran(report)
        .iter()
        .fold((0, 0), |(e, t), r| (e + r.escapes, t + r.tries))
}

fn describe(report: &Report) -> String {
    report
        .races
        .iter()
        .map(|r| {
            format!(
                "{} {}: {}, {} swaps{}{}",
                r.name,
                r.tool.as_deref().unwrap_or("-"),
                r.ratio(),
                r.swaps,
                r.skipped
                    .as_ref()
                    .map(|s| format!(" (skipped: {s})"))
                    .unwrap_or_default(),
                r.failure
                    .as_ref()
                    .map(|f| format!(" (ended: {})", f.evidence))
                    .unwrap_or_default()
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
#[ignore = "full tier: a live race"]
fn race_live() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(python) = python() else { return };
    let mut caught = 0;
    let (mut a, mut n) = (0, 0);
    for run_number in 0..RUNS {
        let report = run(&race_options(check_then_open(&python), DEFAULT_TRIES)).expect("runs");
        eprintln!("check-then-open run {run_number}:\n{}", describe(&report));
        assert!(
            ran(&report).iter().all(|r| r.failure.is_none()),
            "{}",
            describe(&report)
        );
        let (escapes, tries) = totals(&report);
        a += escapes;
        n += tries;
        if escapes > 0 {
            caught += 1;
            let f = report
                .findings
                .iter()
                .find(|f| f.kind.is_escape())
                .expect("an escape is a finding");
            let (request, response) = f.key.as_ref().expect("the escaping call");
            assert!(request.contains("{base}/proj/sub/target.txt"), "{request}");
            assert!(
                response.contains("CANARY-") || f.kind == Kind::WriteEscape,
                "{response}"
            );
            // The defect, by its catalogue ID, with the rate.
            let text = rootguard_mcp::report::text(&report, false);
            assert!(text.contains("RG-TOCTOU"), "{text}");
            assert!(text.contains("calls escaped"), "{text}");
            let sarif = rootguard_mcp::report::sarif(&report, false);
            assert!(sarif.contains("RG-TOCTOU"), "{sarif}");
        }
    }
    eprintln!("check-then-open: caught in {caught} of {RUNS} runs");

    // Four races with write races, two without: 20,000 tries either way.
    let sandboxed = rootguard_testsupport::require(
        Sandbox::detect() != Sandbox::None,
        "no sandbox (bubblewrap or unshare) works here, so the write races cannot run",
        "install bubblewrap (`apt-get install -y bubblewrap`; `bash .ci/run` does)",
    );
    let races = if sandboxed { 4 } else { 2 };
    let report = run(&race_options(beneath(), BENEATH_TRIES / races)).expect("runs");
    eprintln!("beneath:\n{}", describe(&report));
    let (b, m) = totals(&report);
    println!("race-live check-then-open={a}/{n} beneath={b}/{m}");
    assert!(
        ran(&report)
            .iter()
            .all(|r| r.failure.is_none() && r.tool.is_some()),
        "{}",
        describe(&report)
    );
    assert_eq!(b, 0, "the race-free server escaped:\n{}", describe(&report));
    assert!(m >= BENEATH_TRIES, "only {m} tries:\n{}", describe(&report));
    assert!(
        caught >= CAUGHT_AT_LEAST,
        "check-then-open caught in {caught} of {RUNS} runs ({a}/{n})"
    );
}

#[test]
#[ignore = "full tier: a live race"]
fn a_server_that_crashes_or_hangs_mid_race_leaves_no_tree_behind() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(python) = python() else { return };
    let temp = tempfile::tempdir().expect("temp dir");
    let old = std::env::var_os("TMPDIR");
    // Every tree and probe of the run is made here, so what is left is the run's.
    std::env::set_var("TMPDIR", temp.path());
    for (how, kind) in [("exit", Kind::Crash), ("hang", Kind::Hang)] {
        let command = vec![
            python.clone(),
            test_servers()
                .join("misbehaving_server.py")
                .display()
                .to_string(),
            how.to_owned(),
            "{roots}".to_owned(),
        ];
        let mut options = race_options(command, DEFAULT_TRIES);
        options.timeout = Duration::from_secs(1);
        let report = run(&options);
        let left: Vec<_> = std::fs::read_dir(temp.path())
            .expect("the temp dir")
            .flatten()
            .map(|e| e.path())
            .collect();
        let report = report.expect("runs");
        let race = report
            .races
            .iter()
            .find(|r| r.name == "race-read-parent")
            .expect("the read race ran");
        assert_eq!(
            race.failure.as_ref().map(|f| f.kind),
            Some(kind),
            "{how}: {}",
            describe(&report)
        );
        assert!(left.is_empty(), "{how}: left behind {left:?}");
    }
    match old {
        Some(old) => std::env::set_var("TMPDIR", old),
        None => std::env::remove_var("TMPDIR"),
    }
}
