//! `rootguard vet --shard I/N` on two machines and `rootguard merge` of
//! their reports name the same defects as one run with twice the queries,
//! on the flawed example checkers; and `--jobs 2` names the same defects
//! twice over for a seed.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use rootguard_testsupport::Tool;

const ROOTGUARD: &str = env!("CARGO_BIN_EXE_rootguard");

/// Queries of the whole run; each shard gets half.
const CASES: u64 = 8000;

fn example(file: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/checkers/python")
        .join(file)
        .display()
        .to_string()
}

fn ids(report: &Path) -> BTreeSet<String> {
    let value: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(report).unwrap()).unwrap();
    value["defects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap().to_owned())
        .collect()
}

fn vet(python: &str, checker: &str, json: &Path, extra: &[&str]) {
    let out = Command::new(ROOTGUARD)
        // The queries (`--cases`) and triage's attempts decide; the budget
        // and the triage time are hang guards, far past what a loaded
        // machine needs, so no deadline shrinks less in one run than in
        // another.
        .args([
            "vet",
            "--budget",
            "1800",
            "--triage-time",
            "1800",
            "--seed",
            "1",
        ])
        .arg("--json")
        .arg(json)
        .args(extra)
        .args(["--", python, checker])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

fn report(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.json"))
}

#[test]
#[ignore = "full tier: a long vet run"]
fn two_shards_merged_name_what_one_run_of_twice_the_queries_names() {
    let Some(python) = Tool::Python3.need("the Python example checkers") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (whole, half) = (CASES.to_string(), (CASES / 2).to_string());
    // Two of the flawed examples whose triage is quick (a CI minute
    // matters): a root-level flaw and a rare one of the covering array.
    for file in ["case_folding.py", "link_budget.py"] {
        let checker = example(file);
        let one = report(dir.path(), "one");
        vet(&python, &checker, &one, &["--jobs", "1", "--cases", &whole]);
        let mut shards = Vec::new();
        for shard in ["0/2", "1/2"] {
            let path = report(dir.path(), &format!("shard{}", &shard[..1]));
            vet(
                &python,
                &checker,
                &path,
                &["--jobs", "1", "--shard", shard, "--cases", &half],
            );
            shards.push(path);
        }
        let merged = report(dir.path(), "merged");
        let out = Command::new(ROOTGUARD)
            .arg("merge")
            .args(&shards)
            .arg("--json")
            .arg(&merged)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(ids(&merged), ids(&one), "{file}");
    }
}

#[test]
#[ignore = "full tier: a long vet run"]
fn jobs_name_the_same_defects_for_a_seed() {
    let Some(python) = Tool::Python3.need("the Python example checkers") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let checker = example("case_folding.py");
    let cases = CASES.to_string();
    let first = report(dir.path(), "first");
    let second = report(dir.path(), "second");
    vet(
        &python,
        &checker,
        &first,
        &["--jobs", "2", "--cases", &cases],
    );
    vet(
        &python,
        &checker,
        &second,
        &["--jobs", "2", "--cases", &cases],
    );
    assert!(!ids(&first).is_empty());
    assert_eq!(ids(&first), ids(&second));
}

#[test]
fn merge_refuses_what_is_not_a_report() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    fs::write(&bad, "{\"format\": \"other\"}").unwrap();
    let out = Command::new(ROOTGUARD)
        .arg("merge")
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is not a rootguard report") && err.contains("--json"),
        "{err}"
    );
}
