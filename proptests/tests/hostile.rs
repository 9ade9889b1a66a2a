//! The hand-written hostile scenarios: the model (on the materialized
//! base, with the host outside it) and the kernel agree on every case, and
//! both agree with the hand-written `expect`.

use rootguard_proptests::{compare_model_with_kernel, Document};

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
