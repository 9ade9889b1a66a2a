//! The SARIF rootguard writes is valid SARIF 2.1.0 by the official OASIS
//! schema (vendored in tests/data, see its README), and carries what GitHub
//! code scanning needs: a rule per defect with help text, and for every
//! result a message, a physical location with a URI and a start line, and
//! a fingerprint.

use std::time::Duration;

use rootguard_judge::{Case, Entry, Op, Scenario};
use rootguard_report::{
    sarif, Example, Ledger, Message, Refusal, Report, Sighting, Tool, Variants,
};
use rootguard_triage::{probe, unprobed, Class, Feature, Probe};
use serde_json::Value;

fn schema() -> jsonschema::Validator {
    let text = include_str!("data/sarif-schema-2.1.0.json");
    let schema: Value = serde_json::from_str(text).expect("the vendored schema is JSON");
    jsonschema::draft4::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("the vendored schema compiles")
}

fn scenario(tree: Vec<Entry>, roots: &[&str], path: &str, op: Op) -> Scenario {
    Scenario {
        name: "example".into(),
        note: Some("a note".into()),
        tree,
        roots: roots.iter().map(|r| (*r).to_owned()).collect(),
        cases: vec![Case {
            path: path.into(),
            op,
            expect: None,
        }],
    }
}

fn report(tool: Tool, artifact: &str, strict: bool, sightings: Vec<Sighting>) -> Report {
    let mut ledger = Ledger::default();
    for s in sightings {
        ledger.add(s);
    }
    Report {
        tool,
        command: format!("python3 {artifact} '{{roots}}'"),
        artifact: artifact.into(),
        summary: vec!["a run".into()],
        seed: Some(7),
        strict,
        interrupted: false,
        elapsed: Duration::from_millis(1500),
        queries: 1234,
        counts: Class::ALL.iter().map(|c| (*c, 1)).collect(),
        defects: ledger.defects(),
        checks: Vec::new(),
        notes: vec!["a note".into()],
        era: None,
        facts: Default::default(),
        inconclusive: Vec::new(),
    }
}

fn sightings() -> Vec<Sighting> {
    let sibling = scenario(
        vec![Entry::Dir {
            path: "project".into(),
        }],
        &["file://{base}/project"],
        "{base}/project2",
        Op::Write,
    );
    let escape = probe(&sibling, Class::PathEscape, &[], |v: &Scenario| {
        Ok::<_, ()>(if v.cases[0].path.starts_with("{base}/project") {
            Probe::Shows
        } else {
            Probe::Gone
        })
    })
    .unwrap();
    let dangling = scenario(
        vec![
            Entry::Dir { path: "out".into() },
            Entry::Symlink {
                path: "project/d".into(),
                target: "../out/new.txt".into(),
            },
        ],
        &["file://{base}/project", "file://srv{base}/out?x=1"],
        "{base}/project/d",
        Op::Write,
    );
    let overblock = scenario(
        vec![Entry::File {
            path: "project/a b".into(),
            content: Some("x".into()),
        }],
        &["file://localhost{base}/project/"],
        "{base}/project/a b",
        Op::Read,
    );
    let example = |s: &Scenario| Example {
        scenario: s.clone(),
        minimal: true,
        origin: "random".into(),
        request: r#"{"id":1,"roots":[],"path":"/x","op":"read"}"#.into(),
        answer: "allowed".into(),
        truth: Some("outside".into()),
        explanation: Some("target {base}/x is under no root".into()),
        evidence: Some("the canary token came back: CANARY-1234\"<&>".into()),
        exchange: vec![
            Message {
                direction: "to-server".into(),
                text: r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#.into(),
            },
            Message {
                direction: "from-server".into(),
                text: "not json \u{1}".into(),
            },
        ],
        stderr: "Traceback\n  boom".into(),
        refusal: Some(Refusal {
            without: "sibling-prefix".into(),
            scenario: s.clone(),
            request: r#"{"id":2,"roots":[],"path":"/y","op":"read"}"#.into(),
            answer: "denied".into(),
        }),
    };
    let mut variants = Variants::default();
    variants.ops.insert("write".into());
    variants.tools.insert("write_file".into());
    variants
        .seen_in
        .insert("write-escape in dangling-link-write (roots mode)".into());
    vec![
        Sighting {
            identity: escape,
            example: example(&sibling),
            hits: 3074,
            variants: variants.clone(),
        },
        Sighting {
            identity: unprobed(&dangling, Class::PathEscape, &[]),
            example: example(&dangling),
            hits: 3,
            variants: variants.clone(),
        },
        Sighting {
            identity: unprobed(&overblock, Class::Overblock, &[]),
            example: example(&overblock),
            hits: 2,
            variants: Variants::default(),
        },
        Sighting {
            identity: unprobed(&sibling, Class::ProtocolError, &[Feature::StdoutNoise]),
            example: example(&sibling),
            hits: 1,
            variants: Variants::default(),
        },
        Sighting {
            identity: unprobed(&sibling, Class::StaleRoot, &[Feature::RootsChanged]),
            example: example(&sibling),
            hits: 1,
            variants: Variants::default(),
        },
    ]
}

fn assert_valid(text: &str) -> Value {
    let sarif: Value = serde_json::from_str(text).expect("SARIF is JSON");
    let errors: Vec<String> = schema()
        .iter_errors(&sarif)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "schema errors: {errors:#?}\n{text}");
    sarif
}

#[test]
fn sarif_of_every_kind_of_defect_is_valid_and_fit_for_github() {
    for (tool, artifact) in [
        (Tool::Vet, "examples/checkers/python/sibling_prefix.py"),
        (Tool::Mcp, "/work/odd dir/server [1].js"),
    ] {
        for strict in [false, true] {
            let report = report(tool, artifact, strict, sightings());
            assert!(report.defects.len() >= 4, "{:?}", report.defects);
            let sarif = assert_valid(&sarif(&report));
            let run = &sarif["runs"][0];
            let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
            let results = run["results"].as_array().unwrap();
            assert_eq!(rules.len(), report.defects.len());
            assert_eq!(results.len(), report.defects.len());
            for (rule, defect) in rules.iter().zip(&report.defects) {
                assert_eq!(rule["id"], defect.id());
                let help = rule["help"]["text"].as_str().unwrap();
                assert!(help.contains(&defect.entry.diagnosis) && help.contains(&defect.entry.fix));
            }
            for (i, result) in results.iter().enumerate() {
                assert_eq!(result["ruleIndex"], i);
                assert!(!result["message"]["text"].as_str().unwrap().is_empty());
                let location = &result["locations"][0]["physicalLocation"];
                let uri = location["artifactLocation"]["uri"].as_str().unwrap();
                assert!(!uri.is_empty() && !uri.contains(' '), "{uri}");
                assert_eq!(location["region"]["startLine"], 1);
                assert!(result["partialFingerprints"]["rootguardDefect/v1"].is_string());
            }
            let levels: Vec<&str> = results
                .iter()
                .map(|r| r["level"].as_str().unwrap())
                .collect();
            assert_eq!(levels.contains(&"warning"), !strict, "{levels:?}");
        }
    }
}

#[test]
fn sarif_of_a_clean_run_is_valid() {
    let report = report(Tool::Vet, "sound.py", false, Vec::new());
    let sarif = assert_valid(&sarif(&report));
    assert_eq!(
        sarif["runs"][0]["results"].as_array().map(Vec::len),
        Some(0)
    );
}

#[test]
fn the_schema_catches_what_it_should() {
    // The test would prove nothing if the schema accepted anything.
    let bad =
        r#"{"version": "2.1.0", "runs": [{"tool": {"driver": {}}, "results": [{"message": {}}]}]}"#;
    let value: Value = serde_json::from_str(bad).unwrap();
    assert!(schema().iter_errors(&value).next().is_some());
}
