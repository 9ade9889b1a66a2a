//! The catalogue's witnesses (corpus/witnesses.json) against the catalogue:
//! every ID a scenario can show has at least one, each names an ID the
//! catalogue gives, and each holds the features that name its ID.

use std::collections::BTreeSet;

use rootguard_judge::gen::witnesses;
use rootguard_judge::{Expect, Scenario};
use rootguard_triage::{catalogue, unprobed, witness, Class, Feature, RootRule};

/// The IDs the cases of `w` get from the features they hold, unprobed.
fn named_by(w: &Scenario) -> BTreeSet<String> {
    (0..w.cases.len())
        .map(|i| {
            let one = Scenario {
                cases: vec![w.cases[i].clone()],
                ..w.clone()
            };
            let class = match w.cases[i].expect {
                Some(Expect::Inside) => Class::Overblock,
                _ => Class::PathEscape,
            };
            catalogue::identify(&unprobed(&one, class, &[]).signature).id
        })
        .collect()
}

#[test]
fn every_id_a_scenario_can_show_has_a_witness() {
    let needed = witness::needed();
    // Each root-URI rule, the merged rule, and each entry of the catalogue
    // for escapes and overblocks that a scenario can hold.
    assert_eq!(needed.len(), 42, "{needed:?}");
    let missing: Vec<&String> = needed
        .iter()
        .filter(|id| witness::of(id).is_empty())
        .collect();
    assert!(missing.is_empty(), "no witness for {missing:?}");
    let names: BTreeSet<String> = witnesses()
        .iter()
        .map(|w| witness::id_of(&w.name).to_owned())
        .collect();
    let stray: Vec<&String> = names.iter().filter(|id| !needed.contains(id)).collect();
    assert!(stray.is_empty(), "witnesses of no catalogue ID: {stray:?}");
    assert_eq!(witnesses().len(), 45);
}

#[test]
fn each_witness_holds_the_features_of_its_id() {
    for w in witnesses() {
        let id = witness::id_of(&w.name);
        let named = named_by(&w);
        if id == catalogue::ROOT_URI_AS_TEXT {
            // Two rules broken at once, each of which probing names alone
            // (the other root is not needed), and a run merges.
            let rules = rootguard_triage::Subject::new(&w)
                .present()
                .into_iter()
                .filter(|f| matches!(f, Feature::RootUri(_)))
                .count();
            assert!(rules >= 2, "{}: {named:?}", w.name);
        } else {
            assert!(named.contains(id), "{}: its cases name {named:?}", w.name);
        }
    }
}

#[test]
fn each_root_uri_witness_breaks_its_rule_alone() {
    for rule in RootRule::ALL {
        let id = format!("RG-ROOT-URI-{}", rule.as_str().to_uppercase());
        let ws = witness::of(&id);
        assert_eq!(ws.len(), 1, "{id}");
        let w = &ws[0];
        assert_eq!(w.roots.len(), 1, "{id}: one root");
        let features: Vec<Feature> = rootguard_triage::Subject::new(w).present();
        let rules: Vec<&Feature> = features
            .iter()
            .filter(|f| matches!(f, Feature::RootUri(_)))
            .collect();
        assert_eq!(rules, [&Feature::RootUri(rule)], "{id}: {features:?}");
    }
}
