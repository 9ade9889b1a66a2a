//! The model oracle and the kernel side by side on one materialized
//! scenario: each is the other's check.

use std::fmt;

use crate::oracle::{judge_scenario, ModelFsError, Outside};
use crate::{kernel, Case, Judgement, MaterializeError, Materialized, Scenario};

/// Both judgements of one case.
#[derive(Debug, Clone)]
pub struct Comparison {
    /// The case's index in the scenario.
    pub index: usize,
    /// The case, `{base}` substituted.
    pub case: Case,
    /// The model oracle's judgement (`Outside::Host`, on the materialized base).
    pub model: Judgement,
    /// The kernel's judgement.
    pub kernel: Judgement,
}

impl Comparison {
    /// Whether the two judges agree on truth, target and containing root.
    pub fn judges_agree(&self) -> bool {
        self.model.truth == self.kernel.truth
            && self.model.target == self.kernel.target
            && self.model.root == self.kernel.root
    }

    /// Whether the case's `expect`, if it has one, is the model's truth.
    pub fn meets_expect(&self) -> bool {
        self.case
            .expect
            .is_none_or(|expect| self.model.truth == expect)
    }
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "case {} ({} {:?}",
            self.index, self.case.op, self.case.path
        )?;
        if let Some(expect) = self.case.expect {
            write!(f, ", expect {expect}")?;
        }
        write!(f, ")\n  model:  {}\n  kernel: {}", self.model, self.kernel)
    }
}

/// Why a scenario could not be compared.
#[derive(Debug)]
pub enum CompareError {
    /// Materializing it failed.
    Materialize(MaterializeError),
    /// The model could not lay it out.
    Model(ModelFsError),
}

impl fmt::Display for CompareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompareError::Materialize(e) => e.fmt(f),
            CompareError::Model(e) => write!(f, "the model cannot lay out the scenario: {e}"),
        }
    }
}

impl std::error::Error for CompareError {}

/// Materializes `scenario`, judges every case with the model oracle
/// (`Outside::Host`, on the real base) and with the kernel, and removes
/// the tree again.
///
/// # Errors
///
/// [`CompareError`] when the scenario cannot be materialized or laid out.
///
/// # Examples
///
/// ```
/// use rootguard_judge::{compare_model_with_kernel, Document};
///
/// let doc = Document::from_json(r#"{"version": 1, "scenarios": [{"name": "s",
///     "tree": [{"symlink": "p/up", "target": ".."}], "roots": ["file://{base}/p"],
///     "cases": [{"path": "{base}/p/up/x", "op": "write", "expect": "outside"}]}]}"#)?;
/// for c in compare_model_with_kernel(&doc.scenarios[0])? {
///     assert!(c.judges_agree() && c.meets_expect(), "{c}");
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn compare_model_with_kernel(scenario: &Scenario) -> Result<Vec<Comparison>, CompareError> {
    let materialized = Materialized::new(scenario).map_err(CompareError::Materialize)?;
    let model = judge_scenario(scenario, materialized.base(), Outside::Host)
        .map_err(CompareError::Model)?;
    let kernel = kernel::judge_materialized(&materialized);
    let comparisons = materialized
        .cases()
        .iter()
        .zip(model.into_iter().zip(kernel))
        .enumerate()
        .map(|(index, (case, (model, kernel)))| Comparison {
            index,
            case: case.clone(),
            model,
            kernel,
        })
        .collect();
    materialized.close().map_err(CompareError::Materialize)?;
    Ok(comparisons)
}
