//! What report's tests share: a report of the defects a ledger makes of
//! some sightings, and a sighting probed with some features needed and
//! some left open. Each test uses some of them.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::time::Duration;

use rootguard_judge::{Case, Entry, Op, Scenario};
use rootguard_report::{Example, Ledger, Report, Sighting, Tool};
use rootguard_triage::{Class, Feature, FeatureProbe, Identity, Need, Signature};

/// A `rootguard vet` report of the defects `sightings` make.
pub fn report_of(sightings: impl IntoIterator<Item = Sighting>) -> Report {
    let mut ledger = Ledger::default();
    for s in sightings {
        ledger.add(s);
    }
    Report {
        tool: Tool::Vet,
        command: "checker".into(),
        artifact: "checker".into(),
        summary: Vec::new(),
        seed: Some(1),
        strict: false,
        interrupted: false,
        elapsed: Duration::ZERO,
        queries: 1,
        counts: Vec::new(),
        defects: ledger.defects(),
        checks: Vec::new(),
        notes: Vec::new(),
        era: None,
        facts: Default::default(),
        inconclusive: Vec::new(),
    }
}

/// A probed sighting of `class` with `example` as its example: `needed`
/// confirmed, `open` kept but not varied, 3 hits unless changed.
pub fn probed(class: Class, needed: &[Feature], open: &[Feature], example: Example) -> Sighting {
    let mut probes: Vec<FeatureProbe> = needed
        .iter()
        .map(|&feature| FeatureProbe {
            feature,
            need: Need::Needed,
        })
        .collect();
    probes.extend(open.iter().map(|&feature| FeatureProbe {
        feature,
        need: Need::NoVariant,
    }));
    let features: BTreeSet<Feature> = needed.iter().chain(open).copied().collect();
    Sighting {
        identity: Identity {
            signature: Signature {
                class,
                features,
                confirmed: needed.iter().copied().collect(),
            },
            probes,
            probed: true,
            queries: 1,
            elapsed: Duration::ZERO,
        },
        example,
        hits: 3,
        variants: Default::default(),
    }
}

/// A minimal example named `name`: a read of `{base}/project/x` with the
/// root `{base}/project`.
pub fn minimal(name: &str) -> Example {
    Example {
        scenario: Scenario {
            name: name.into(),
            note: None,
            tree: vec![Entry::Dir {
                path: "project".into(),
            }],
            roots: vec!["file://{base}/project".into()],
            cases: vec![Case {
                path: "{base}/project/x".into(),
                op: Op::Read,
                expect: None,
            }],
        },
        minimal: true,
        ..Example::default()
    }
}
