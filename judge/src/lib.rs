//! The judge of rootguard: what "inside the roots" means, computed by means
//! that know nothing of the `rootguard` crate, and the hostile inputs core
//! is held to it on. The project's docs are the contract:
//! `docs/scenario-format.md` and `docs/semantics.md`.
//!
//! - [`Document`] and [`Scenario`]: the scenario format, parsed and
//!   validated.
//! - [`oracle`]: the model oracle, semantics.md followed literally on an
//!   in-memory file system, with its own root-URI parser.
//! - [`kernel`]: kernel truth on a materialized tree (`open(O_PATH)` and
//!   `/proc/self/fd`), computed without writing anything.
//! - [`Materialized`]: a scenario's tree made real in a fresh temp dir,
//!   safely (nothing is ever created or removed through a link).
//! - [`compare_model_with_kernel`]: both judges on one scenario.
//! - [`flavour`]: whose path semantics a verdict follows: Linux (the
//!   kernel's), and models of Windows and macOS.
//! - [`gen`]: the generators, one set of hostile specs (trees, paths, root
//!   URIs, whole scenarios) for proptest, libFuzzer, vet and mcp;
//!   [`strategies`] is their proptest face, [`gen::Generator`] a seeded
//!   source for other harnesses.
//! - `bridge` (feature `core`): core's types next to the judge's, so that
//!   the two can be compared (the `rootguard-fuzzing` crate does, with the
//!   fuzz targets' checks and the differential property tests).
//!
//! # Examples
//!
//! ```
//! use std::path::Path;
//! use rootguard_judge::oracle::{judge_scenario, Outside, MODEL_BASE};
//! use rootguard_judge::{compare_model_with_kernel, Document, Truth};
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
//! let judged = judge_scenario(scenario, Path::new(MODEL_BASE), Outside::Absent)?;
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
#![forbid(unsafe_code)]

// Feature `no-coverage` asks fuzz/rustc-wrapper.sh to compile this crate
// without coverage counters; the wrapper says it did by this cfg.
#[cfg(all(feature = "no-coverage", not(rootguard_no_coverage)))]
compile_error!(
    "feature `no-coverage` needs fuzz/rustc-wrapper.sh as RUSTC_WRAPPER, which removes \
     this crate's coverage counters: build through fuzz/campaign.sh or fuzz/smoke.sh, \
     or run `source fuzz/targets.sh` first (see fuzz/README.md, \"Speed\")"
);

#[cfg(feature = "core")]
pub mod bridge;
mod compare;
pub mod flavour;
pub mod gen;
mod judgement;
pub mod kernel;
mod materialize;
pub mod oracle;
mod scenario;
pub mod strategies;

pub use compare::{compare_model_with_kernel, CompareError, Comparison};
pub use judgement::{Judgement, Truth};
pub use materialize::{
    clean_temp_parent, has_room, is_clean_path, remove_tree, MaterializeError, Materialized,
    TMPFS_ROOM,
};
pub use scenario::{
    from_wtf8, substitute_base, validate_tree, write_json_string, Case, CaseError, Document, Entry,
    EntryError, Expect, Op, PathBytes, Scenario, ScenarioError, BASE_PLACEHOLDER, FORMAT_VERSION,
};
