//! The hand-written hostile scenarios: the model (on the materialized
//! base, with the host outside it) and the kernel agree on every case, and
//! both agree with the hand-written `expect`.

use rootguard_judge::{compare_model_with_kernel, Document};

const HOSTILE: &str = include_str!("scenarios/hostile.json");

#[test]
fn model_kernel_and_expect_agree_on_every_hostile_case() {
    let doc = match Document::from_json(HOSTILE) {
        Ok(doc) => doc,
        Err(e) => panic!("tests/scenarios/hostile.json: {e}"),
    };
    let mut failures = Vec::new();
    let mut cases = 0;
    for scenario in &doc.scenarios {
        let comparisons = match compare_model_with_kernel(scenario) {
            Ok(c) => c,
            Err(e) => panic!("scenario {:?}: {e}", scenario.name),
        };
        for c in comparisons {
            cases += 1;
            if !c.judges_agree() || !c.meets_expect() || c.kernel.truth != c.model.truth {
                failures.push(format!("scenario {:?}, {c}", scenario.name));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} cases disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(cases >= 150, "only {cases} cases ran");
}

/// PATH_MAX exactly: a path of 4095 bytes resolves, one of 4096 does not,
/// for the model and for the kernel alike.
#[test]
fn path_max_boundary() {
    use rootguard_judge::{Case, Entry, Op, Scenario, Truth};

    let probe = Scenario {
        name: "path-max".into(),
        note: None,
        tree: vec![Entry::Dir { path: "d".into() }],
        roots: vec!["file://{base}".into()],
        cases: vec![],
    };
    // The base's length is known only once it exists.
    let base_len = rootguard_judge::Materialized::new(&probe)
        .expect("materializes")
        .base_text()
        .len();
    let mut cases = Vec::new();
    for len in [4093, 4094, 4095, 4096, 4097] {
        for (op, last) in [(Op::Read, ""), (Op::Write, "/new")] {
            // `{base}/d` + slashes + last, exactly `len` bytes long.
            let fill = len - base_len - "/d".len() - last.len();
            let path = format!("{{base}}/d{}{last}", "/".repeat(fill));
            cases.push(Case {
                path: path.into(),
                op,
                expect: Some(
                    if len < 4096 {
                        Truth::Inside
                    } else {
                        Truth::Either
                    }
                    .into(),
                ),
            });
        }
    }
    let scenario = Scenario { cases, ..probe };
    for c in compare_model_with_kernel(&scenario).expect("compares") {
        assert!(
            c.judges_agree() && c.meets_expect(),
            "{} bytes: {c}",
            c.case.path.len()
        );
    }
}
