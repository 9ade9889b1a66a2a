//! One mechanism, one defect: a defect whose probing left features open
//! (a scenario the variants cannot take on) is folded into a defect of its
//! class that confirmed more, all of it among what the first one has, and
//! keeps its own ID when there is none.

use rootguard_report::{Ledger, Sighting};
use rootguard_triage::{Class, Feature};

mod common;
use common::{minimal, probed};

/// A probed path escape: `needed` confirmed, `open` kept but not varied.
fn sighting(name: &str, needed: &[Feature], open: &[Feature], hits: u64) -> Sighting {
    Sighting {
        hits,
        ..probed(Class::PathEscape, needed, open, minimal(name))
    }
}

fn ids(ledger: Ledger) -> Vec<(String, u64)> {
    ledger
        .defects()
        .into_iter()
        .map(|d| (d.id().to_owned(), d.hits))
        .collect()
}

#[test]
fn an_unconfirmed_defect_joins_the_one_whose_confirmed_features_it_has() {
    let mut ledger = Ledger::default();
    ledger.add(sighting(
        "chain",
        &[Feature::Link, Feature::LinkChain],
        &[],
        150,
    ));
    // Seen once on a scenario the variants could not take on: by its
    // features alone the catalogue would call it a backslash separator.
    ledger.add(sighting(
        "messy",
        &[],
        &[Feature::Backslash, Feature::Link, Feature::LinkChain],
        1,
    ));
    assert_eq!(ids(ledger), [("RG-LINK-CHAIN".to_owned(), 151)]);
}

#[test]
fn a_defect_whose_open_feature_a_more_specific_one_confirmed_joins_it() {
    let mut ledger = Ledger::default();
    // A write beneath a link out: the target could not be made to exist.
    ledger.add(sighting(
        "link",
        &[Feature::Link],
        &[Feature::NewTarget],
        500,
    ));
    ledger.add(sighting(
        "fallback",
        &[Feature::Link, Feature::NewTarget],
        &[],
        40,
    ));
    assert_eq!(ids(ledger), [("RG-MISSING-FILE-FALLBACK".to_owned(), 540)]);
    // A link escape whose every feature was settled stays its own defect.
    let mut ledger = Ledger::default();
    ledger.add(sighting("link", &[Feature::Link], &[], 500));
    ledger.add(sighting(
        "fallback",
        &[Feature::Link, Feature::NewTarget],
        &[],
        40,
    ));
    assert_eq!(
        ids(ledger),
        [
            ("RG-LINK-FOLLOWED".to_owned(), 500),
            ("RG-MISSING-FILE-FALLBACK".to_owned(), 40)
        ]
    );
}

#[test]
fn an_unconfirmed_defect_with_nothing_to_join_keeps_its_id() {
    let mut ledger = Ledger::default();
    ledger.add(sighting(
        "chain",
        &[Feature::Link, Feature::LinkChain],
        &[],
        150,
    ));
    ledger.add(sighting("messy", &[], &[Feature::Backslash], 1));
    assert_eq!(
        ids(ledger),
        [
            ("RG-LINK-CHAIN".to_owned(), 150),
            ("RG-BACKSLASH-SEPARATOR".to_owned(), 1)
        ]
    );
}

/// The host may have confirmed what the loose one kept in another of its
/// sightings than its example: a long path whose `sub/..` padding could
/// not be dropped joins the long-path defect that once confirmed a link
/// and the long path alone, though its example also needed a final link.
#[test]
fn an_unconfirmed_defect_joins_a_host_through_any_sighting() {
    let mut ledger = Ledger::default();
    ledger.add(sighting(
        "final",
        &[Feature::LongPath, Feature::Link, Feature::FinalLink],
        &[],
        120,
    ));
    ledger.add(sighting(
        "through",
        &[Feature::LongPath, Feature::Link],
        &[],
        5,
    ));
    ledger.add(sighting(
        "padded",
        &[Feature::Link],
        &[Feature::DotDot, Feature::LongPath],
        1,
    ));
    let defects = ledger.defects();
    let found: Vec<(&str, u64)> = defects.iter().map(|d| (d.id(), d.hits)).collect();
    assert_eq!(found, [("RG-LONG-PATH-LEXICAL", 126)]);
    assert_eq!(
        defects[0].aliases,
        ["RG-FINAL-LINK-PARENT", "RG-LINK-FOLLOWED"]
    );
}

/// A sighting probing could vary nothing of (a name of bytes that are not
/// UTF-8) is named by no rule of its own: it joins the defect whose
/// confirmed features it shares most, and keeps its ID when it shares none.
#[test]
fn a_defect_probing_could_not_vary_joins_the_one_it_shares_most_with() {
    let unvaried = [
        Feature::Backslash,
        Feature::PatternChar,
        Feature::DotDot,
        Feature::Link,
    ];
    let mut ledger = Ledger::default();
    ledger.add(sighting(
        "fallback",
        &[Feature::NewTarget, Feature::Link],
        &[],
        40,
    ));
    ledger.add(sighting("bytes", &[], &unvaried, 2));
    assert_eq!(ids(ledger), [("RG-MISSING-FILE-FALLBACK".to_owned(), 42)]);

    let mut ledger = Ledger::default();
    ledger.add(sighting("prefix", &[Feature::SiblingPrefix], &[], 40));
    ledger.add(sighting("bytes", &[], &unvaried, 2));
    let mut found = ids(ledger);
    found.sort();
    assert_eq!(
        found,
        [
            ("RG-BACKSLASH-SEPARATOR".to_owned(), 2),
            ("RG-PREFIX-SIBLING".to_owned(), 40)
        ]
    );
}
