//! The judge of rootguard: the scenario format, a model oracle, kernel
//! truth, and hostile proptest strategies.
#![deny(missing_docs)]

mod judgement;
pub mod oracle;
mod scenario;

pub use judgement::{Judgement, Truth};
pub use scenario::{
    substitute_base, validate_tree, Case, CaseError, Document, Entry, EntryError, Expect, Op, Scenario,
    ScenarioError, BASE_PLACEHOLDER, FORMAT_VERSION,
};
