//! The judge of rootguard: what "inside the roots" means, computed by means
//! that know nothing of the `rootguard` crate.
//!
//! - [`Document`] and [`Scenario`]: scenario format v1
//!   (`shared/spec/scenario-format.md`), parsed and validated.
//! - [`Materialized`]: a scenario's tree made real in a fresh temp dir,
//!   safely (nothing is ever created or removed through a link).
//! - [`oracle`]: the model oracle, `shared/spec/semantics.md` followed
//!   literally on an in-memory file system, with its own root-URI parser.
//! - [`kernel`]: kernel truth on a materialized tree (`open(O_PATH)` and
//!   `/proc/self/fd`), computed without writing anything.
//! - [`compare_model_with_kernel`]: both judges on one scenario.
//! - [`strategies`]: proptest strategies for hostile trees, paths, root
//!   URIs and whole scenarios.
//! - `fuzzing` (feature `arbitrary`): `Arbitrary` inputs and the checks
//!   that the targets in `fuzz/` run.
//!
//! # Examples
//!
//! ```
//! use std::path::Path;
//! use rootguard_proptests::oracle::{judge_scenario, Outside};
//! use rootguard_proptests::{compare_model_with_kernel, Document, Truth};
//!
//! let doc = Document::from_json(r#"{
//!   "version": 1,
//!   "scenarios": [{
//!     "name": "sibling-prefix",
//!     "tree": [
//!       {"dir": "project"},
//!       {"file": "project2/secret.txt"},
//!       {"symlink": "project/back", "target": "../project2"}
//!     ],
//!     "roots": ["file://{base}/project"],
//!     "cases": [
//!       {"path": "{base}/project/back/secret.txt", "op": "read", "expect": "outside"},
//!       {"path": "{base}/project/new.txt", "op": "write", "expect": "inside"}
//!     ]
//!   }]
//! }"#)?;
//! let scenario = &doc.scenarios[0];
//!
//! // The model alone, on a made-up base with nothing outside it.
//! let judged = judge_scenario(scenario, Path::new("/rg-model/base"), Outside::Absent)?;
//! assert_eq!(judged[0].truth, Truth::Outside);
//! assert_eq!(judged[1].truth, Truth::Inside);
//!
//! // The model and the kernel on a real tree.
//! for c in compare_model_with_kernel(scenario)? {
//!     assert!(c.judges_agree() && c.meets_expect(), "{c}");
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

// Feature `no-coverage` asks fuzz/rustc-wrapper.sh to compile this crate
// without coverage counters; the wrapper says it did by this cfg.
#[cfg(all(feature = "no-coverage", not(rootguard_no_coverage)))]
compile_error!(
    "feature `no-coverage` needs fuzz/rustc-wrapper.sh as RUSTC_WRAPPER, which removes \
     this crate's coverage counters: build through fuzz/campaign.sh or fuzz/smoke.sh, \
     or run `source fuzz/targets.sh` first (see fuzz/README.md, \"Speed\")"
);

mod compare;
#[cfg(feature = "arbitrary")]
pub mod fuzzing;
mod judgement;
pub mod kernel;
mod materialize;
pub mod oracle;
mod scenario;
pub mod strategies;

pub use compare::{compare_model_with_kernel, CompareError, Comparison};
pub use judgement::{Judgement, Truth};
pub use materialize::{
    clean_temp_parent, is_clean_path, remove_tree, MaterializeError, Materialized,
};
pub use scenario::{
    substitute_base, validate_tree, Case, CaseError, Document, Entry, EntryError, Expect, Op,
    Scenario, ScenarioError, BASE_PLACEHOLDER, FORMAT_VERSION,
};
