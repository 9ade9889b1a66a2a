//! The judge of rootguard: the scenario format, a model oracle, kernel
//! truth, and hostile proptest strategies.
#![deny(missing_docs)]

mod compare;
mod judgement;
pub mod kernel;
mod materialize;
pub mod oracle;
mod scenario;

pub use compare::{compare_model_with_kernel, CompareError, Comparison};
pub use judgement::{Judgement, Truth};
pub use materialize::{
    clean_temp_parent, is_clean_path, remove_tree, MaterializeError, Materialized,
};
pub use scenario::{
    substitute_base, validate_tree, Case, CaseError, Document, Entry, EntryError, Expect, Op,
    Scenario, ScenarioError, BASE_PLACEHOLDER, FORMAT_VERSION,
};
