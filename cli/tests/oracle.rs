//! `rootguard oracle` as a user runs it.

use std::process::Command;

fn oracle(args: &[&str], json: &str) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.json");
    std::fs::write(&file, json).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_rootguard"))
        .arg("oracle")
        .args(args)
        .arg(&file)
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

const SCENARIO: &str = r#"{"version": 1, "scenarios": [{
  "name": "sibling-prefix",
  "tree": [{"dir": "project"}, {"file": "project2/secret.txt"}, {"symlink": "project/back", "target": "../project2"}],
  "roots": ["file://{base}/project"],
  "cases": [
    {"path": "{base}/project2/secret.txt", "op": "read", "expect": "outside"},
    {"path": "{base}/project/back/secret.txt", "op": "read", "expect": "EXPECT"},
    {"path": "{base}/project/new.txt", "op": "write", "expect": "inside"}
  ]}]}"#;

#[test]
fn prints_one_line_a_case_and_verifies() {
    let (code, out, _) = oracle(&["--verify"], &SCENARIO.replace("EXPECT", "outside"));
    assert_eq!(code, 0, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "sibling-prefix#0 read outside {base}/project2/secret.txt",
            "sibling-prefix#1 read outside {base}/project/back/secret.txt",
            "sibling-prefix#2 write inside {base}/project/new.txt",
            "3/3 cases agree"
        ]
    );
}

#[test]
fn a_wrong_expect_is_a_disagreement() {
    let (code, out, _) = oracle(&["--verify"], &SCENARIO.replace("EXPECT", "inside"));
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("DISAGREES: expect inside, truth outside"),
        "{out}"
    );
    assert!(out.trim_end().ends_with("2/3 cases agree"), "{out}");
}

#[test]
fn a_malformed_file_is_a_clear_error() {
    let (code, _, err) = oracle(
        &[],
        r#"{"version": 1, "scenarios": [{"name": "x", "tree": [{"dir": "a/../b"}], "roots": [], "cases": []}]}"#,
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("not a valid scenario file") && err.contains(".."),
        "{err}"
    );
    let (code, _, err) = oracle(&[], "{not json");
    assert_eq!(code, 2);
    assert!(err.contains("not a valid scenario file"), "{err}");
}
