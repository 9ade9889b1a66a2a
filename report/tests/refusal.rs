//! The refusal beside the escape: an escape's example carries, when one was
//! seen, the same query without a needed feature that the checker refused,
//! and the text, JSON and HTML reports show it; an overblock's does not.
//! The example itself prefers one found the same way at every seed.

use rootguard_judge::{Case, Entry, Expect, Op, Scenario};
use rootguard_report::{html, json, text, Example, Refusal, Report, Sighting};
use rootguard_triage::{unprobed, Class};
use serde_json::Value;

mod common;
use common::report_of;

fn scenario(tree: Vec<Entry>, path: &str, expect: Expect) -> Scenario {
    Scenario {
        name: "example".into(),
        note: None,
        tree,
        roots: vec!["file://{base}/project".into()],
        cases: vec![Case {
            path: path.into(),
            op: Op::Read,
            expect: Some(expect),
        }],
    }
}

fn link_out() -> Vec<Entry> {
    vec![
        Entry::Dir {
            path: "project".into(),
        },
        Entry::File {
            path: "outside/secret.txt".into(),
            content: None,
        },
        Entry::File {
            path: "outside/s".into(),
            content: None,
        },
        Entry::Symlink {
            path: "project/linkout".into(),
            target: "../outside".into(),
        },
    ]
}

/// A link followed out, and beside it the same target asked directly, refused.
fn escape(origin: &str, path: &str) -> Sighting {
    let s = scenario(link_out(), path, Expect::Outside);
    let refused = scenario(link_out(), "{base}/outside/secret.txt", Expect::Outside);
    Sighting {
        identity: unprobed(&s, Class::PathEscape, &[]),
        example: Example {
            scenario: s,
            minimal: true,
            origin: origin.into(),
            answer: "allowed".into(),
            truth: Some("outside".into()),
            refusal: Some(Refusal {
                without: "link".into(),
                scenario: refused,
                request: r#"{"id":7,"op":"read","path":"/t/base/outside/secret.txt","roots":["file:///t/base/project"]}"#.into(),
                answer: "denied".into(),
            }),
            ..Example::default()
        },
        hits: 4,
        variants: Default::default(),
    }
}

fn report(sightings: Vec<Sighting>) -> Report {
    report_of(sightings)
}

#[test]
fn every_writer_shows_the_refusal_beside_an_escape() {
    let report = report(vec![escape(
        "systematic",
        "{base}/project/linkout/secret.txt",
    )]);
    assert_eq!(report.defects.len(), 1);
    assert_eq!(report.defects[0].id(), "RG-LINK-FOLLOWED");

    let text = text(&report);
    let refused: Vec<&str> = text.lines().filter(|l| l.contains("refused:")).collect();
    assert_eq!(
        refused,
        [
            r#"    refused:  read "{base}/outside/secret.txt": denied (the same without link, truth outside)"#
        ],
        "{text}"
    );

    let value: Value = serde_json::from_str(&json(&report)).expect("JSON");
    let r = &value["defects"][0]["example"]["refusal"];
    assert_eq!(r["without"], "link");
    assert_eq!(r["answer"], "denied");
    assert_eq!(r["request"]["path"], "/t/base/outside/secret.txt");
    assert_eq!(
        r["scenario"]["cases"][0]["path"],
        "{base}/outside/secret.txt"
    );
    assert_eq!(r["scenario"]["cases"][0]["expect"], "outside");

    let page = html(&report);
    assert_eq!(page.matches("<th>refused</th>").count(), 1, "{page}");
    assert!(page.contains("the same without link, truth outside"));
}

#[test]
fn an_example_without_a_refusal_shows_none_and_json_says_null() {
    let mut sighting = escape("random", "{base}/project/linkout/secret.txt");
    sighting.example.refusal = None;
    let report = report(vec![sighting]);
    assert!(!text(&report).contains("refused:"));
    assert!(!html(&report).contains("<th>refused</th>"));
    let value: Value = serde_json::from_str(&json(&report)).expect("JSON");
    assert!(value["defects"][0]["example"]["refusal"].is_null());
}

#[test]
fn the_example_is_one_found_the_same_way_at_every_seed() {
    // A random example, simpler, and one from the systematic phase: the
    // systematic one is shown, whichever came first.
    for order in [[0, 1], [1, 0]] {
        let sightings = [
            escape("random", "{base}/project/linkout/s"),
            escape("systematic", "{base}/project/linkout/secret.txt"),
        ];
        let report = report(order.iter().map(|&i| sightings[i].clone()).collect());
        assert_eq!(report.defects.len(), 1);
        assert_eq!(report.defects[0].hits, 8);
        assert_eq!(report.defects[0].example.origin, "systematic");
    }
}
