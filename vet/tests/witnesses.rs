//! The catalogue's witnesses (corpus/witnesses.json) against the example
//! checkers: a flawed checker asked nothing but one witness of an ID its
//! row of examples/checkers/README.md names reports that ID (and nothing
//! its row does not allow), shown beside the refusal of the same query
//! without what it needs; a sound checker asked every witness reports
//! nothing, overblocks included.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

use rootguard_judge::gen::witnesses;
use rootguard_judge::{Document, Scenario};
use rootguard_testsupport::Tool;
use rootguard_triage::witness;
use rootguard_vet::corpus::Source;
use rootguard_vet::{vet, Options, ProcessChecker, Report};

#[path = "common/examples.rs"]
mod table;
use table::{rows_for, rust_bins, script, Row};

/// `command` asked `scenarios` and nothing else (no bundled corpus, no
/// search), its findings shrunk and probed.
fn asked(command: &[OsString], scenarios: Vec<Scenario>) -> Report {
    let mut checker = ProcessChecker::start(command.to_vec(), Duration::from_secs(2)).unwrap();
    let options = Options {
        budget: Duration::ZERO,
        bundled_corpus: false,
        corpus: vec![Source {
            origin: "corpus/witnesses.json".to_owned(),
            document: Document::new(scenarios),
        }],
        strict: true,
        // Only a hang guard: triage is bounded by its attempts.
        triage_time: Duration::from_secs(600),
        seed: 1,
        ..Options::default()
    };
    vet(&mut checker, &options).unwrap()
}

/// Every witness of each ID the row's checker must report, one at a time.
fn holds(row: &Row, command: &[OsString]) -> usize {
    let allowed: BTreeSet<&String> = row.required.union(&row.also).collect();
    let mut asked_witnesses = 0;
    for id in &row.required {
        let ws = witness::of(id);
        assert!(!ws.is_empty(), "{id} has no witness");
        for w in ws {
            let report = asked(command, vec![w.clone()]);
            let text = rootguard_vet::report::text(&report, false);
            let found: BTreeSet<String> =
                report.defects.iter().map(|d| d.id().to_owned()).collect();
            assert!(
                found.contains(id),
                "{}: the witness {} does not show {id}\n{text}",
                row.file,
                w.name
            );
            // Shown beside the refusal of the same query without what it needs.
            let defect = report.defects.iter().find(|d| d.id() == id).unwrap();
            assert!(
                !defect.class().is_escape() || defect.example.refusal.is_some(),
                "{}: {id} from {} has no refusal beside it\n{text}",
                row.file,
                w.name
            );
            let extra: Vec<&String> = found.iter().filter(|f| !allowed.contains(f)).collect();
            assert!(
                extra.is_empty(),
                "{}: the witness {} shows {extra:?}, not in the table\n{text}",
                row.file,
                w.name
            );
            asked_witnesses += 1;
        }
    }
    asked_witnesses
}

/// A sound checker reports nothing on every witness.
fn passes_all(row: &Row, command: &[OsString]) {
    let all = witnesses();
    let report = asked(command, all.clone());
    let text = rootguard_vet::report::text(&report, false);
    assert!(report.defects.is_empty(), "{}\n{text}", row.file);
    let cases: u64 = all.iter().map(|w| w.cases.len() as u64).sum();
    assert_eq!(report.queries, cases, "{}: every case asked once", row.file);
}

fn each(rows: Vec<Row>, command: impl Fn(&Row) -> Vec<OsString>) -> usize {
    let mut asked_witnesses = 0;
    for row in rows {
        let command = command(&row);
        if row.required.is_empty() {
            passes_all(&row, &command);
        } else {
            asked_witnesses += holds(&row, &command);
        }
    }
    asked_witnesses
}

#[test]
fn python_checkers_show_their_witnesses() {
    let Some(python) = Tool::Python3.need("the Python example checkers") else {
        return;
    };
    let asked = each(rows_for("python/"), |row| {
        vec![python.clone().into(), script(&row.file).into()]
    });
    assert!(asked >= 11, "{asked} witnesses asked");
}

#[test]
fn node_checkers_show_their_witnesses() {
    let Some(node) = Tool::Node.need("the Node example checkers") else {
        return;
    };
    let asked = each(rows_for("node/"), |row| {
        vec![node.clone().into(), script(&row.file).into()]
    });
    assert!(asked >= 7, "{asked} witnesses asked");
}

#[test]
#[ignore = "full tier: builds the Rust example checkers"]
fn rust_checkers_show_their_witnesses() {
    let Some(bins) = rust_bins() else { return };
    let asked = each(rows_for("rust/"), |row| {
        let name = Path::new(&row.file).file_stem().unwrap();
        vec![bins.join(name).into_os_string()]
    });
    assert!(asked >= 3, "{asked} witnesses asked");
}
