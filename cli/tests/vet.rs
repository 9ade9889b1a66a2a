//! `rootguard vet` and `rootguard replay` as a user runs them: exit codes,
//! scenario files, and a clean exit on SIGTERM.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread;
use std::time::Duration;

use rootguard_testsupport::{within, Spawned, Tool};

const ROOTGUARD: &str = env!("CARGO_BIN_EXE_rootguard");

/// The python3 that runs the fake checkers, or `None` after a skip
/// message (a failure under `CI=true`).
fn python() -> Option<String> {
    Tool::Python3.need("the fake checkers")
}

/// A checker answering every request with `allowed`.
fn constant_checker(dir: &Path, allowed: bool) -> String {
    let script = dir.join(format!("always_{allowed}.py"));
    let value = if allowed { "True" } else { "False" };
    fs::write(
        &script,
        format!("import json, sys\nfor line in sys.stdin:\n    print(json.dumps({{'id': json.loads(line)['id'], 'allowed': {value}}}), flush=True)\n"),
    )
    .unwrap();
    script.display().to_string()
}

fn rootguard_dirs(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("rootguard-"))
        .collect()
}

#[test]
fn exit_codes_and_replay_of_a_minimal_scenario() {
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    fs::create_dir(&tmp).unwrap();
    let deny = constant_checker(dir.path(), false);
    let allow = constant_checker(dir.path(), true);
    let vet = |checker: &str, extra: &[&str]| {
        Command::new(ROOTGUARD)
            .env("TMPDIR", &tmp)
            // A count of queries, with time far past what they take.
            .args(["vet", "--budget", "600", "--cases", "5000", "--seed", "3"])
            .args(extra)
            .args(["--", &python, checker])
            .output()
            .unwrap()
    };
    let out = vet(&deny, &[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(vet(&deny, &["--strict"]).status.code(), Some(1));
    let found = dir.path().join("found");
    let json = dir.path().join("report.json");
    let sarif = dir.path().join("report.sarif");
    let junit = dir.path().join("report.xml");
    let out = vet(
        &allow,
        &[
            "--fail-fast",
            "--out",
            found.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
            "--sarif",
            sarif.to_str().unwrap(),
            "--junit",
            junit.to_str().unwrap(),
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("path-escape") && stdout.contains("seed 3"),
        "{stdout}"
    );
    let report: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["failed"], true);
    let sarif: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&sarif).unwrap()).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    assert!(!sarif["runs"][0]["results"].as_array().unwrap().is_empty());
    assert!(fs::read_to_string(&junit).unwrap().contains("<failure"));
    let minimal = fs::read_dir(&found)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let replay = |checker: &str| {
        Command::new(ROOTGUARD)
            .env("TMPDIR", &tmp)
            .arg("replay")
            .arg(&minimal)
            .args(["--", &python, checker])
            .output()
            .unwrap()
    };
    assert_eq!(replay(&allow).status.code(), Some(1));
    assert_eq!(replay(&deny).status.code(), Some(0));
    assert!(
        rootguard_dirs(&tmp).is_empty(),
        "{:?}",
        rootguard_dirs(&tmp)
    );
}

#[test]
fn a_command_that_cannot_start_exits_2_and_says_so() {
    let out = Command::new(ROOTGUARD)
        .args(["vet", "--", "/nonexistent/no-such-checker"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot start the checker") && stderr.contains("no-such-checker"),
        "{stderr}"
    );
    let out = Command::new(ROOTGUARD)
        .args(["vet", "--budget", "x", "--", "true"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn sigterm_mid_run_removes_every_temp_dir() {
    signal_mid_run_removes_every_temp_dir("-TERM");
}

#[test]
fn sigint_mid_run_removes_every_temp_dir() {
    signal_mid_run_removes_every_temp_dir("-INT");
}

fn signal_mid_run_removes_every_temp_dir(signal: &str) {
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    fs::create_dir(&tmp).unwrap();
    let deny = constant_checker(dir.path(), false);
    let mut child = Spawned::from_child(
        Command::new(ROOTGUARD)
            .env("TMPDIR", &tmp)
            .args(["vet", "--budget", "600", "--", &python, &deny])
            .stdout(Stdio::null())
            .spawn()
            .unwrap(),
    );
    // Wait until the run is under way: a materialized tree exists.
    let under_way = {
        let tmp = tmp.clone();
        move || {
            while rootguard_dirs(&tmp).len() < 2 {
                thread::sleep(Duration::from_millis(20));
            }
        }
    };
    within(Duration::from_secs(120), "the start of the run", under_way);
    let killed = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait_within(Duration::from_secs(120), "rootguard vet after the signal");
    assert_eq!(status.code(), Some(130));
    assert!(
        rootguard_dirs(&tmp).is_empty(),
        "left behind: {:?}",
        rootguard_dirs(&tmp)
    );
}

/// `vet --flavor windows` on the example checkers: the flavour is
/// announced, the JSON says whose truth it is, and the exit status is the
/// defects'.
#[test]
fn vet_flavor_windows_runs_the_model_and_says_so() {
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/checkers/python");
    let vet = |checker: &str| {
        let json = dir.path().join(format!("{checker}.json"));
        let out = Command::new(ROOTGUARD)
            .args([
                "vet", "--flavor", "windows", "--budget", "600", "--cases", "300",
            ])
            .args(["--seed", "1", "--json"])
            .arg(&json)
            .arg("--")
            .arg(&python)
            .arg(examples.join(checker))
            .output()
            .unwrap();
        let report: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
        (out, report)
    };
    let (out, report) = vet("windows_prefix.py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("every truth is the windows model's"),
        "{stdout}"
    );
    assert_eq!(report["flavour"], "windows");
    assert_eq!(report["truth"], "model");
    assert!(report["first_escape_seconds"].is_number(), "{report}");
    let ids: Vec<&str> = report["defects"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["id"].as_str())
        .collect();
    assert!(ids.contains(&"RG-PREFIX-SIBLING"), "{ids:?}");
    let (out, report) = vet("windows_sound.py");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(report["first_escape_seconds"].is_null(), "{report}");
}

/// A Windows defect saved with `--out` says its flavour, and `replay`
/// replays it in that flavour by itself: the flawed checker still fails
/// it, the sound one passes, and `--flavor linux` reads it as Linux's
/// (whose paths these are not).
#[test]
fn a_flavoured_defect_replays_in_its_flavour() {
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("found");
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/checkers/python");
    let flawed = examples.join("windows_normcase.py");
    let out = Command::new(ROOTGUARD)
        .args([
            "vet", "--flavor", "windows", "--budget", "600", "--cases", "300",
        ])
        .args(["--seed", "1", "--jobs", "1", "--out"])
        .arg(&out_dir)
        .arg("--")
        .arg(&python)
        .arg(&flawed)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let file = out_dir.join("vet-RG-WIN-FOLD.json");
    let doc: serde_json::Value = serde_json::from_str(&fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(doc["flavor"], "windows", "{doc}");
    assert!(doc["scenarios"][0]["tree"].as_array().unwrap().is_empty());
    let replay = |checker: &Path, extra: &[&str]| {
        Command::new(ROOTGUARD)
            .arg("replay")
            .args(extra)
            .arg(&file)
            .arg("--")
            .arg(&python)
            .arg(checker)
            .output()
            .unwrap()
    };
    let again = replay(&flawed, &[]);
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert_eq!(again.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("RG-WIN-FOLD"), "{stdout}");
    assert_eq!(
        replay(&examples.join("windows_sound.py"), &[])
            .status
            .code(),
        Some(0)
    );
    let as_linux = replay(&flawed, &["--flavor", "linux"]);
    assert_eq!(
        as_linux.status.code(),
        Some(2),
        "a Windows path is no Linux case"
    );
    assert!(String::from_utf8_lossy(&as_linux.stderr).contains("not absolute"));
}
