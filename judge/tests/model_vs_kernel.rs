//! On random hostile scenarios, the model oracle (with the host outside the
//! materialized base) and the kernel agree on every case: truth, target and
//! the containing root.

use proptest::prelude::*;
use rootguard_judge::strategies::scenario;
use rootguard_judge::{compare_model_with_kernel, Document};

proptest! {
    #[test]
    fn model_agrees_with_kernel(s in scenario()) {
        let comparisons = compare_model_with_kernel(&s).map_err(|e| TestCaseError::fail(e.to_string()))?;
        for c in comparisons {
            prop_assert!(c.judges_agree(), "{c}\nscenario:\n{}", Document::new(vec![s.clone()]).to_json());
        }
    }

    #[test]
    fn generated_scenarios_are_valid_and_round_trip(s in scenario()) {
        let doc = Document::new(vec![s]);
        let text = doc.to_json();
        let back = Document::from_json(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(back, doc);
    }
}
