//! Baselines hold across rootguard versions that add catalogue entries: a
//! baseline written by an older catalogue (an ID since split, `RG-LINK-CHAIN`
//! for a link budget, or merged, one root-URI rule's ID) matches the defect
//! that is named otherwise now, and a baseline written now matches a run
//! that names a defect by the older ID.

use std::path::Path;

use rootguard_report::{json, Baseline, Comparison, Report, Sighting};
use rootguard_triage::{Class, Feature, RootRule};

mod common;
use common::{minimal, probed, report_of};

/// A probed escape whose every feature was shown needed.
fn sighting(class: Class, needed: &[Feature]) -> Sighting {
    probed(class, needed, &[], minimal("example"))
}

fn report(sightings: Vec<Sighting>) -> Report {
    report_of(sightings)
}

/// A link budget, a component cap and a lenient root-URI reader, as the
/// catalogue names them now.
fn now() -> Report {
    let escape = Class::PathEscape;
    report(vec![
        sighting(
            escape,
            &[
                Feature::DotDot,
                Feature::Link,
                Feature::LinkChain,
                Feature::ManyLinks,
            ],
        ),
        sighting(escape, &[Feature::LongPath, Feature::Link]),
        sighting(Class::RootEscape, &[Feature::RootUri(RootRule::Host)]),
        sighting(Class::RootEscape, &[Feature::RootUri(RootRule::Port)]),
    ])
}

fn ids(report: &Report) -> Vec<(&str, Vec<String>)> {
    report
        .defects
        .iter()
        .map(|d| (d.id(), d.aliases.clone()))
        .collect()
}

#[test]
fn a_defect_goes_by_the_ids_earlier_catalogues_gave_it() {
    let report = now();
    let mut named = ids(&report);
    named.sort();
    assert_eq!(
        named,
        [
            ("RG-LINK-BUDGET", vec!["RG-LINK-CHAIN".to_owned()]),
            ("RG-LONG-PATH-LEXICAL", vec!["RG-LINK-FOLLOWED".to_owned()]),
            ("RG-ROOT-URI-AS-TEXT", vec![]),
        ]
    );
    let value: serde_json::Value = serde_json::from_str(&json(&report)).unwrap();
    let budget = value["defects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["id"] == "RG-LINK-BUDGET")
        .unwrap();
    assert_eq!(budget["aliases"], serde_json::json!(["RG-LINK-CHAIN"]));
}

#[test]
fn a_baseline_of_an_older_catalogue_still_matches() {
    // As a rootguard without `covers`, `aliases`, the link budget, the long
    // path and the merged root-URI rules wrote it.
    let old = r#"{"format": "rootguard-report", "version": 1, "defects": [
        {"id": "RG-LINK-CHAIN"}, {"id": "RG-LINK-FOLLOWED"}, {"id": "RG-ROOT-URI-HOST"}
    ]}"#;
    let baseline = Baseline::from_json(Path::new("old.json"), old).unwrap();
    let c = Comparison::new(&now(), &baseline);
    assert!(c.new.is_empty(), "{c:?}");
    assert!(c.gone.is_empty(), "{c:?}");
    assert_eq!(c.known.len(), 3, "{c:?}");
    assert!(!c.failed());
}

#[test]
fn a_baseline_written_now_matches_a_run_that_names_a_defect_the_older_way() {
    let baseline = Baseline::from_json(Path::new("new.json"), &json(&now())).unwrap();
    // The same link budget where probing could not count the links (a run
    // on another seed, or an older rootguard): the chain's ID.
    let older = report(vec![
        sighting(
            Class::PathEscape,
            &[Feature::DotDot, Feature::Link, Feature::LinkChain],
        ),
        sighting(Class::PathEscape, &[Feature::LongPath, Feature::Link]),
        sighting(Class::RootEscape, &[Feature::RootUri(RootRule::Port)]),
    ]);
    let mut named = ids(&older);
    named.sort();
    assert_eq!(named[0].0, "RG-LINK-CHAIN");
    let c = Comparison::new(&older, &baseline);
    assert!(c.new.is_empty(), "{c:?}");
    assert!(c.gone.is_empty(), "{c:?}");
    assert_eq!(c.known.len(), 3, "{c:?}");
}

#[test]
fn a_new_mechanism_is_still_new() {
    let old =
        r#"{"format": "rootguard-report", "version": 1, "defects": [{"id": "RG-LINK-CHAIN"}]}"#;
    let baseline = Baseline::from_json(Path::new("old.json"), old).unwrap();
    let c = Comparison::new(
        &report(vec![sighting(Class::PathEscape, &[Feature::SiblingPrefix])]),
        &baseline,
    );
    assert_eq!(c.new, ["RG-PREFIX-SIBLING"]);
    assert_eq!(c.gone, ["RG-LINK-CHAIN"]);
    assert!(c.failed());
}
