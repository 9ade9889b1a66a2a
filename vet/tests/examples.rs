//! Vets every example checker (examples/checkers/) and holds vet to the
//! table of defect IDs in examples/checkers/README.md: each checker
//! reports every ID of its row's second column and nothing outside its
//! second and third, each defect that fails the run with a minimal
//! scenario of at most 4 tree entries (16 for a chain of 13 links); the same checker vetted with
//! five seeds names the same defects; and the rare escapes (a link out
//! after 48 components, a chain of 13 links) are seen within 10,000
//! queries by seeds 1..5 (benches/first-escape.sh gives the seconds).
//!
//! The full tier: `cargo test --release -p rootguard-vet --test examples -- --ignored`.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

use rootguard_testsupport::Tool;
use rootguard_vet::{vet, Options, ProcessChecker, Report};

#[path = "common/examples.rs"]
mod table;
use table::{rows_for, rust_bins, script, Row};

/// The queries within which every seed must see the rare escapes: the
/// covering array's (about 4,000) and as many random ones again.
const RARE_WITHIN: u64 = 10_000;

fn run(command: Vec<OsString>, seed: u64) -> Report {
    let mut checker = ProcessChecker::start(command, Duration::from_secs(2)).unwrap();
    let options = Options {
        budget: Duration::from_secs(600),
        max_queries: Some(20_000),
        seed,
        // Only a hang guard: `shrink_attempts` bounds triage by count, so
        // a busy machine shrinks what a quiet one does.
        triage_time: Duration::from_secs(1800),
        ..Options::default()
    };
    vet(&mut checker, &options).unwrap()
}

fn defect_ids(report: &Report) -> BTreeSet<String> {
    report.defects.iter().map(|d| d.id().to_owned()).collect()
}

fn holds(row: &Row, command: Vec<OsString>) {
    let report = run(command, 1);
    let text = rootguard_vet::report::text(&report, false);
    let found = defect_ids(&report);
    let allowed: BTreeSet<String> = row.required.union(&row.also).cloned().collect();
    let missing: Vec<&String> = row.required.difference(&found).collect();
    let extra: Vec<&String> = found.difference(&allowed).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{}: missing {missing:?}, not in the table {extra:?}\n{text}",
        row.file
    );
    // A checker that gives up after 12 links shows it on a chain of 13,
    // 13 entries and what they lead to however it is shrunk (a shortcut
    // ends the escape).
    let entries = if row.file == "python/link_budget.py" {
        16
    } else {
        4
    };
    for d in report.defects.iter().filter(|d| d.class().fails(false)) {
        assert!(
            d.example.minimal && d.example.scenario.tree.len() <= entries,
            "{}: {} has no small minimal scenario\n{text}",
            row.file,
            d.id()
        );
    }
    eprintln!(
        "{}: {} queries, {:?} (triage {:.1}s, probing {} variants in {:.3}s)",
        row.file,
        report.queries,
        found,
        report.triage.elapsed.as_secs_f64(),
        report.triage.probe_queries,
        report.triage.probe_time.as_secs_f64()
    );
}

#[test]
#[ignore = "full tier: example checkers, each vetted at length"]
fn python_checkers_report_their_defects() {
    let Some(python) = Tool::Python3.need("the Python example checkers") else {
        return;
    };
    for row in rows_for("python/") {
        holds(&row, vec![python.clone().into(), script(&row.file).into()]);
    }
}

#[test]
#[ignore = "full tier: example checkers, each vetted at length"]
fn node_checkers_report_their_defects() {
    let Some(node) = Tool::Node.need("the Node example checkers") else {
        return;
    };
    for row in rows_for("node/") {
        holds(&row, vec![node.clone().into(), script(&row.file).into()]);
    }
}

#[test]
#[ignore = "full tier: example checkers, each vetted at length"]
fn rust_checkers_report_their_defects() {
    let Some(bins) = rust_bins() else { return };
    for row in rows_for("rust/") {
        let name = Path::new(&row.file).file_stem().unwrap();
        holds(&row, vec![bins.join(name).into_os_string()]);
    }
}

#[test]
#[ignore = "full tier: example checkers, each vetted at length"]
fn five_seeds_name_the_same_defects() {
    let Some(python) = Tool::Python3.need("the Python example checkers") else {
        return;
    };
    for file in ["python/sibling_prefix.py"] {
        let command = || vec![OsString::from(&python), script(file).into()];
        let first = defect_ids(&run(command(), 11));
        assert!(!first.is_empty(), "{file}: no defect");
        for seed in [12, 13, 14, 15] {
            let report = run(command(), seed);
            assert_eq!(
                defect_ids(&report),
                first,
                "{file}, seed {seed} against seed 11\n{}",
                rootguard_vet::report::text(&report, false)
            );
        }
    }
}

#[test]
#[ignore = "full tier: example checkers, each vetted at length"]
fn rare_escapes_are_caught_within_ten_thousand_queries_by_every_seed() {
    let Some(python) = Tool::Python3.need("the Python example checkers") else {
        return;
    };
    for file in ["python/component_cap.py", "python/link_budget.py"] {
        for seed in 1..=5 {
            let command = vec![OsString::from(&python), script(file).into()];
            let mut checker = ProcessChecker::start(command, Duration::from_secs(2)).unwrap();
            let options = Options {
                // Only a hang guard: the queries decide.
                budget: Duration::from_secs(600),
                max_queries: Some(RARE_WITHIN),
                fail_fast: true,
                seed,
                ..Options::default()
            };
            let report = vet(&mut checker, &options).unwrap();
            let first = report.first_escape_query;
            assert!(
                first.is_some_and(|q| q <= RARE_WITHIN),
                "{file}, seed {seed}: first escape at query {first:?}\n{}",
                rootguard_vet::report::text(&report, false)
            );
        }
    }
}
