//! `rootguard vet`: find the escapes in a path-boundary checker written in
//! any language.
//!
//! A checker speaks checker protocol v1 (`shared/spec/checker-protocol.md`)
//! as one persistent child process ([`ProcessChecker`]), or is a Rust
//! closure ([`vet_fn`]). [`vet`] asks it the bundled conformance corpus,
//! then random hostile scenarios with targeted queries, judges every answer
//! by the model oracle and the kernel on the materialized tree, shrinks
//! each escape to a minimal scenario, and returns a [`Report`].
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
//! # Ok::<(), rootguard_vet::HarnessError>(())
//! ```
#![deny(missing_docs)]

pub mod checker;
pub mod corpus;
mod error;
pub mod judge;
pub mod replay;
pub mod report;
pub mod run;
pub mod shrink;
pub mod targeted;
mod testkit;

pub use checker::{Answer, Checker, ProcessChecker, Reply, Request};
pub use error::HarnessError;
pub use judge::Class;
pub use replay::replay;
pub use run::{vet, Finding, Options, Progress, Report};
pub use testkit::{vet_fn, FnChecker};

/// The prefix of every temp dir the harness makes (the checker's working
/// dir; materialized trees use `rootguard-` too).
pub const TEMP_PREFIX: &str = "rootguard-vet-";
