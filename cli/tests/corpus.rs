//! The conformance corpus (corpus/scenarios/*.json) and the catalogue's
//! witnesses (corpus/witnesses.json) agree with the oracle: every `expect`
//! written by hand is the truth `rootguard oracle --verify` computes, on
//! the model and the kernel alike.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Fewer hand-written scenarios than this and the corpus no longer covers
/// every hostile class (issue 3, item 7).
const MIN_SCENARIOS: usize = 40;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/scenarios")
}

fn corpus_files() -> Vec<PathBuf> {
    let dir = corpus_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    files
}

/// The `N/M cases agree` line `oracle --verify` prints last, as (N, M).
fn agree_line(out: &str) -> Option<(usize, usize)> {
    let last = out.lines().last()?;
    let (counts, rest) = last.split_once(' ')?;
    if rest != "cases agree" {
        return None;
    }
    let (agree, total) = counts.split_once('/')?;
    Some((agree.parse().ok()?, total.parse().ok()?))
}

#[test]
fn every_corpus_file_verifies() {
    let mut files = corpus_files();
    assert!(
        !files.is_empty(),
        "no scenario files in {}",
        corpus_dir().display()
    );
    files.push(corpus_dir().join("../witnesses.json"));
    let mut failures = Vec::new();
    for file in &files {
        let out = Command::new(env!("CARGO_BIN_EXE_rootguard"))
            .args(["oracle", "--verify"])
            .arg(file)
            .output()
            .expect("run rootguard");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let all_agree = matches!(agree_line(&stdout), Some((n, m)) if n == m && m > 0);
        if out.status.code() != Some(0) || !all_agree {
            // Only the disagreements, each after its case line, and the
            // summary: the other lines of a large file would bury them.
            let lines: Vec<&str> = stdout.lines().collect();
            let indented = |i: usize| lines.get(i).is_some_and(|l| l.starts_with(' '));
            let report: Vec<&str> = (0..lines.len())
                .filter(|&i| indented(i) || indented(i + 1) || i + 1 == lines.len())
                .map(|i| lines[i])
                .collect();
            failures.push(format!(
                "{} (exit {:?}):\n{}\n{stderr}",
                file.display(),
                out.status.code(),
                report.join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_corpus_is_big_enough() {
    let mut total = 0;
    for file in corpus_files() {
        let text = std::fs::read_to_string(&file).expect("read a corpus file");
        let doc = rootguard_judge::Document::from_json(&text)
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(
            !doc.scenarios.is_empty(),
            "{} holds no scenario",
            file.display()
        );
        for scenario in &doc.scenarios {
            assert!(
                scenario
                    .note
                    .as_deref()
                    .is_some_and(|n| !n.trim().is_empty()),
                "{}: scenario {:?} has no note saying what a wrong checker does",
                file.display(),
                scenario.name
            );
            assert!(
                scenario.cases.iter().all(|c| c.expect.is_some()),
                "{}: scenario {:?} has a case without expect",
                file.display(),
                scenario.name
            );
        }
        total += doc.scenarios.len();
    }
    assert!(
        total >= MIN_SCENARIOS,
        "the corpus holds {total} scenarios, fewer than {MIN_SCENARIOS}"
    );
}

#[test]
fn agree_line_parses_the_summary() {
    assert_eq!(
        agree_line("a#0 read inside x\n3/3 cases agree\n"),
        Some((3, 3))
    );
    assert_eq!(agree_line("2/3 cases agree"), Some((2, 3)));
    assert_eq!(agree_line("3/3 cases agree\nmore"), None);
    assert_eq!(agree_line(""), None);
}
