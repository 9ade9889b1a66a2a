//! Vets every Windows and macOS example checker (examples/checkers/) in its
//! flavour and holds vet to the table of examples/checkers/README.md,
//! "Windows and macOS checkers": at seeds 1..5, bounded by a count of
//! queries, each flawed checker reports every ID of its row's third
//! column and nothing outside its third and fourth, fails a `--strict`
//! run (with its first failing query counted), every escape row sees an
//! escape, and every finding says that its truth is the model's; a sound
//! checker reports nothing over the flavour's whole systematic list.
//!
//! The full tier: `cargo test -p rootguard-vet --test flavoured_examples -- --ignored`.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rootguard_judge::flavour::Flavour;
use rootguard_judge::gen::flavoured_cases;
use rootguard_testsupport::Tool;
use rootguard_vet::flavoured::model_note;
use rootguard_vet::{vet, Class, Options, ProcessChecker, Report};

/// Queries a fast-tier run asks: the whole systematic list (a few
/// hundred) and some respellings.
const FAST_QUERIES: u64 = 400;

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/checkers")
}

#[derive(Debug)]
struct Row {
    file: String,
    flavour: Flavour,
    required: BTreeSet<String>,
    also: BTreeSet<String>,
}

fn ids(cell: &str) -> BTreeSet<String> {
    cell.split('`')
        .filter(|s| s.starts_with("RG-"))
        .map(str::to_owned)
        .collect()
}

/// The defects table under "Windows and macOS checkers" (the one of four columns).
fn table() -> Vec<Row> {
    let readme = std::fs::read_to_string(examples().join("README.md")).expect("the README");
    let section = readme
        .split("## Windows and macOS checkers")
        .nth(1)
        .expect("the README has the flavoured checkers");
    let rows: Vec<Row> = section
        .lines()
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.starts_with("| `"))
        .map(|l| l.split('|').map(str::trim).collect::<Vec<_>>())
        .filter(|cells| cells.len() == 6)
        .map(|cells| Row {
            file: cells[1].trim_matches('`').to_owned(),
            flavour: cells[2].parse().expect("a flavour"),
            required: ids(cells[3]),
            also: ids(cells[4]),
        })
        .collect();
    assert!(rows.len() >= 16, "the table lost rows: {rows:?}");
    rows
}

fn command(row: &Row) -> Option<Vec<OsString>> {
    let script = examples().join(&row.file).into_os_string();
    let tool = if row.file.ends_with(".py") {
        Tool::Python3.need("the Python example checkers")?
    } else {
        Tool::Node.need("the Node example checkers")?
    };
    Some(vec![tool.into(), script])
}

fn run(command: Vec<OsString>, flavour: Flavour, seed: u64, queries: u64) -> Report {
    let mut checker = ProcessChecker::start(command, Duration::from_secs(2)).unwrap();
    let options = Options {
        // Only a hang guard: the count of queries decides.
        budget: Duration::from_secs(600),
        max_queries: Some(queries),
        seed,
        flavour,
        strict: true,
        ..Options::default()
    };
    vet(&mut checker, &options).unwrap()
}

fn holds(row: &Row, report: &Report, seed: u64) {
    let text = rootguard_vet::report::text(report, true);
    let found: BTreeSet<String> = report.defects.iter().map(|d| d.id().to_owned()).collect();
    let allowed: BTreeSet<String> = row.required.union(&row.also).cloned().collect();
    let missing: Vec<&String> = row.required.difference(&found).collect();
    let extra: Vec<&String> = found.difference(&allowed).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{} ({}, seed {seed}): missing {missing:?}, not in the table {extra:?}\n{text}",
        row.file,
        row.flavour
    );
    let escapes = report.defects.iter().any(|d| d.class().is_escape());
    let escape_expected = row.required.iter().any(|id| {
        report
            .defects
            .iter()
            .any(|d| d.id() == id && d.class().is_escape())
    });
    assert_eq!(
        report.first_escape_query.is_some(),
        escapes,
        "{}: {text}",
        row.file
    );
    // A flawed checker fails a --strict run, and its first failing query
    // is counted; a sound one fails nothing.
    assert_eq!(
        report.failed(true),
        !row.required.is_empty(),
        "{}: {text}",
        row.file
    );
    assert_eq!(
        report.first_failure_query.is_some(),
        !row.required.is_empty(),
        "{}: {text}",
        row.file
    );
    if escape_expected {
        assert!(report.escapes() > 0, "{}: {text}", row.file);
    }
    assert_eq!(
        report.notes.first(),
        Some(&model_note(row.flavour)),
        "{text}"
    );
    for f in &report.findings {
        if let Some(truth) = &f.truth {
            assert!(
                truth.explanation.contains("model's truth"),
                "{}",
                truth.explanation
            );
        }
        assert!(
            f.scenario.tree.is_empty(),
            "a modelled flavour materializes nothing"
        );
    }
    assert_eq!(
        report.count(Class::Hang) + report.count(Class::Crash),
        0,
        "{text}"
    );
}

#[test]
fn flavoured_checkers_report_their_defects_at_seeds_one_to_five() {
    for row in table().into_iter().filter(|r| !r.required.is_empty()) {
        let Some(command) = command(&row) else {
            return;
        };
        for seed in 1..=5 {
            let report = run(command.clone(), row.flavour, seed, FAST_QUERIES);
            // The search's queries; shrinking the examples asks on top.
            assert_eq!(report.scenarios, FAST_QUERIES);
            holds(&row, &report, seed);
        }
    }
}

/// The sound checkers over the whole list, every character of the fold
/// class included, and some respellings.
#[test]
fn sound_flavoured_checkers_find_nothing_in_the_whole_list() {
    let mut sound = 0;
    for row in table().into_iter().filter(|r| r.required.is_empty()) {
        let Some(command) = command(&row) else {
            return;
        };
        let queries = flavoured_cases(row.flavour).len() as u64 + FAST_QUERIES;
        let report = run(command, row.flavour, 1, queries);
        assert_eq!((report.scenarios, report.queries), (queries, queries));
        holds(&row, &report, 1);
        sound += 1;
    }
    assert_eq!(sound, 4, "two sound checkers per flavour");
}

#[test]
#[ignore = "full tier: the flavoured example checkers, each vetted at length"]
fn flavoured_checkers_report_their_defects_at_length() {
    for row in table() {
        let Some(command) = command(&row) else {
            return;
        };
        let report = run(command, row.flavour, 1, 20_000);
        holds(&row, &report, 1);
    }
}
