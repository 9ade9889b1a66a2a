//! The text report's lines a person reads: a name whose control
//! characters or edge whitespace would not show is quoted with escapes,
//! and a feature probing could not settle is marked `?` with the reason.

use std::collections::BTreeSet;
use std::time::Duration;

use rootguard_judge::{Case, Entry, Op, Scenario};
use rootguard_report::{entry_text, text, Example, Ledger, Report, Sighting, Tool, Variants};
use rootguard_triage::{Class, Feature, FeatureProbe, Identity, Need, Signature};

#[test]
fn names_that_would_not_show_are_quoted() {
    let dir = |p: &str| Entry::Dir { path: p.into() };
    assert_eq!(entry_text(&dir("project")), "dir project");
    assert_eq!(entry_text(&dir("café/x y")), "dir café/x y");
    assert_eq!(entry_text(&dir("project\r")), "dir \"project\\r\"");
    assert_eq!(entry_text(&dir("proj ")), "dir \"proj \"");
    assert_eq!(entry_text(&dir("a\u{1b}b")), "dir \"a\\u{1b}b\"");
    let link = Entry::Symlink {
        path: "project/l\t".into(),
        target: "{base}/out".into(),
    };
    assert_eq!(entry_text(&link), "\"project/l\\t\" -> {base}/out");
}

/// One path escape on `tree` whose `open` features probing left open.
fn report(tree: Vec<Entry>, needed: &[Feature], open: &[(Feature, Need)]) -> Report {
    let scenario = Scenario {
        name: "s".into(),
        note: None,
        tree,
        roots: vec!["file://{base}/project".into()],
        cases: vec![Case {
            path: "{base}/project\r".into(),
            op: Op::Read,
            expect: None,
        }],
    };
    let mut probes: Vec<FeatureProbe> = needed
        .iter()
        .map(|&feature| FeatureProbe {
            feature,
            need: Need::Needed,
        })
        .collect();
    probes.extend(open.iter().map(|(feature, need)| FeatureProbe {
        feature: *feature,
        need: need.clone(),
    }));
    let features: BTreeSet<Feature> = needed
        .iter()
        .copied()
        .chain(open.iter().map(|(f, _)| *f))
        .collect();
    let mut ledger = Ledger::default();
    ledger.add(Sighting {
        identity: Identity {
            signature: Signature {
                class: Class::PathEscape,
                features,
                confirmed: needed.iter().copied().collect(),
            },
            probes,
            probed: true,
            queries: 1,
            elapsed: Duration::ZERO,
        },
        example: Example {
            scenario,
            minimal: true,
            ..Example::default()
        },
        hits: 1,
        variants: Variants::default(),
    });
    Report {
        tool: Tool::Mcp,
        command: "c".into(),
        artifact: "c".into(),
        summary: vec![],
        seed: Some(1),
        strict: false,
        interrupted: false,
        elapsed: Duration::ZERO,
        queries: 1,
        counts: vec![(Class::PathEscape, 1)],
        defects: ledger.defects(),
        checks: vec![],
        notes: vec![],
        era: None,
        facts: Default::default(),
        inconclusive: Vec::new(),
    }
}

fn needs_line(report: &Report) -> String {
    let out = text(report);
    out.lines()
        .find(|l| l.trim_start().starts_with("needs:"))
        .unwrap_or_else(|| panic!("a needs line:\n{out}"))
        .trim()
        .to_owned()
}

#[test]
fn features_probing_left_open_are_marked() {
    let tree = vec![
        Entry::Dir {
            path: "project".into(),
        },
        Entry::Dir {
            path: "project\r".into(),
        },
    ];
    let spent = Need::Inconclusive("the triage time is spent".into());
    let open = report(
        tree.clone(),
        &[],
        &[
            (Feature::TrimmableEdge, spent.clone()),
            (Feature::SiblingPrefix, spent),
        ],
    );
    assert_eq!(
        needs_line(&open),
        "needs:     trimmable-edge?, sibling-prefix? (? not confirmed: the triage time is spent)"
    );
    let out = text(&open);
    assert!(
        out.contains("tree:     dir project, dir \"project\\r\"") && !out.contains('\r'),
        "{out}"
    );
    let settled = report(tree, &[Feature::TrimmableEdge, Feature::SiblingPrefix], &[]);
    assert_eq!(
        needs_line(&settled),
        "needs:     trimmable-edge, sibling-prefix"
    );
}
