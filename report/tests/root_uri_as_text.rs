//! One mechanism, one defect: a checker that ignores several root-URI
//! rules gets one `RG-ROOT-URI-AS-TEXT` listing them, one that ignores a
//! single rule keeps that rule's ID, and baselines match across the two
//! (and across reports written before `covers` existed).

use std::path::Path;

use rootguard_judge::{Case, Entry, Op, Scenario};
use rootguard_report::{
    json, report_value, Baseline, Comparison, Example, Report, Sighting, Variants,
};
use rootguard_triage::{unprobed, Class};

mod common;
use common::report_of;

fn sighting(root: &str) -> Sighting {
    let scenario = Scenario {
        name: root.into(),
        note: None,
        tree: vec![
            Entry::Dir {
                path: "project".into(),
            },
            Entry::File {
                path: "project/a.txt".into(),
                content: None,
            },
        ],
        roots: vec![root.into()],
        cases: vec![Case {
            path: "{base}/project/a.txt".into(),
            op: Op::Read,
            expect: None,
        }],
    };
    Sighting {
        identity: unprobed(&scenario, Class::RootEscape, &[]),
        example: Example {
            scenario,
            minimal: true,
            ..Example::default()
        },
        hits: 3,
        variants: Variants::default(),
    }
}

fn report(roots: &[&str]) -> Report {
    report_of(roots.iter().map(|root| sighting(root)))
}

const HOST: &str = "file://evil{base}/project";
const PORT: &str = "file://localhost:22{base}/project";
const QUERY: &str = "file://{base}/project?x=1";

#[test]
fn several_rules_are_one_defect_and_one_rule_keeps_its_id() {
    let one = report(&[HOST]);
    assert_eq!(one.defects.len(), 1);
    assert_eq!(one.defects[0].id(), "RG-ROOT-URI-HOST");
    assert!(one.defects[0].covers.is_empty());

    let many = report(&[HOST, PORT, QUERY]);
    assert_eq!(
        many.defects.len(),
        1,
        "{:?}",
        many.defects.iter().map(|d| d.id()).collect::<Vec<_>>()
    );
    let d = &many.defects[0];
    assert_eq!(d.id(), "RG-ROOT-URI-AS-TEXT");
    assert_eq!(
        d.covers,
        ["RG-ROOT-URI-HOST", "RG-ROOT-URI-PORT", "RG-ROOT-URI-QUERY"]
    );
    assert_eq!(d.hits, 9);
    assert!(
        d.entry.title.contains("(ignores: port, host, query)"),
        "{}",
        d.entry.title
    );
    assert_eq!(
        report_value(&many)["defects"][0]["covers"][1],
        "RG-ROOT-URI-PORT"
    );
}

fn baseline_of(r: &Report) -> Baseline {
    Baseline::from_json(Path::new("old.json"), &json(r)).expect("a baseline")
}

#[test]
fn baselines_match_across_the_merge_both_ways() {
    let merged = report(&[HOST, PORT]);
    let single = report(&[HOST]);
    // Per-rule IDs then (a report from before the merge), one defect now.
    let old = Baseline::from_json(
        Path::new("old.json"),
        r#"{"format": "rootguard-report", "version": 1,
            "defects": [{"id": "RG-ROOT-URI-HOST"}, {"id": "RG-ROOT-URI-PORT"}]}"#,
    )
    .expect("an old baseline");
    let c = Comparison::new(&merged, &old);
    assert!(
        c.new.is_empty() && c.gone.is_empty() && !c.failed(),
        "{c:?}"
    );
    // One defect then, one rule now (the checker fixed the others).
    let c = Comparison::new(&single, &baseline_of(&merged));
    assert!(c.new.is_empty() && c.gone.is_empty(), "{c:?}");
    // One rule then, several now: the merged defect stands for the old one.
    let c = Comparison::new(&merged, &baseline_of(&single));
    assert!(c.new.is_empty() && c.gone.is_empty(), "{c:?}");
    // Something else entirely is still new.
    let c = Comparison::new(&report(&[QUERY]), &baseline_of(&single));
    assert_eq!(c.new, ["RG-ROOT-URI-QUERY"]);
    assert_eq!(c.gone, ["RG-ROOT-URI-HOST"]);
}
