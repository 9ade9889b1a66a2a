//! `rootguard vet`: find the escapes in a path-boundary checker written in
//! any language.
//!
//! A checker speaks checker protocol v1 (`docs/checker-protocol.md`)
//! as one persistent child process ([`ProcessChecker`]), or is a Rust
//! closure ([`vet_fn`]). [`vet`] asks it the bundled conformance corpus,
//! then random hostile scenarios with targeted queries, and judges every
//! answer by the model oracle and the kernel on the materialized tree.
//! Findings are grouped into candidate defects as they come; then each
//! candidate's examples are shrunk to minimal scenarios and probed (which
//! features does the defect need?), and the [`Report`] names its defects
//! by the IDs of `rootguard_report`'s catalogue.
//!
//! # Examples
//!
//! ```
//! use std::time::Duration;
//! use rootguard_vet::{vet_fn, Answer, Class, Options};
//!
//! // A checker that allows everything escapes at once.
//! let options = Options { budget: Duration::ZERO, max_queries: Some(200), ..Options::default() };
//! let report = vet_fn(|_roots, _path, _op| Answer::allow(), &options)?;
//! assert!(report.count(Class::PathEscape) > 0);
//! let minimal = report.first(Class::PathEscape).unwrap();
//! assert!(minimal.shrunk && minimal.scenario.tree.len() <= 2);
//! // It lets out a plain path: no hostile feature is needed.
//! assert!(report.defects.iter().any(|d| d.id() == "RG-ALLOWS-OUTSIDE"));
//! # Ok::<(), rootguard_vet::HarnessError>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod checker;
pub mod corpus;
mod error;
pub mod flavoured;
pub mod judge;
pub mod replay;
pub mod report;
pub mod run;
pub mod shard;
pub mod shrink;
pub mod stats;
pub mod targeted;
mod testkit;
mod triage;
mod vetting;

pub use checker::{Answer, Checker, ProcessChecker, Reply, Request};
pub use error::HarnessError;
pub use judge::Class;
pub use judge::Finding;
pub use replay::replay;
pub use run::{Options, Progress, Report};
pub use shard::{Shard, ShardError};
pub use stats::{Stats, Strategy, Tally, STRATEGIES};
pub use testkit::{vet_fn, FnChecker};
pub use triage::TriageStats;
pub use vetting::{vet, vet_jobs};

/// The prefix of every temp dir the harness makes (the checker's working
/// dir; materialized trees use `rootguard-` too).
pub const TEMP_PREFIX: &str = "rootguard-vet-";
