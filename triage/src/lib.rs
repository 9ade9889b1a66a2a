//! What rootguard does with an escape once a harness has found one, the
//! same for `rootguard vet` (a checker) and `rootguard mcp` (a live
//! server): the finding vocabulary ([`Class`], [`Channel`]), the one
//! [`shrink`]er, the variants of a scenario ([`Subject`], [`nested`],
//! [`rehomed`], [`rename_component`]), [`probe`] for the features a
//! defect needs ([`Feature`]), the [`catalogue`] of stable IDs and its
//! [`witness`]es.
//!
//! Everything here is generic over how the harness asks: a closure that
//! takes a [`Scenario`](rootguard_judge::Scenario) and says whether
//! the escape still shows. The reports themselves are
//! `rootguard-report`'s.
//!
//! # Examples
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use rootguard_judge::{Case, Entry, Op, Scenario};
//! use rootguard_triage::{catalogue, probe, shrink, Budget, Class, Probe, Seen, Steps};
//!
//! // A checker that compares text prefixes lets `{base}/project-old` out.
//! let found = Scenario {
//!     name: "found".into(),
//!     note: None,
//!     tree: vec![Entry::Dir { path: "project".into() }, Entry::Dir { path: "project-old".into() }],
//!     roots: vec!["file://{base}/project".into()],
//!     cases: vec![Case { path: "{base}/project-old".into(), op: Op::Write, expect: None }],
//! };
//! // It allows a path that starts with a root's text: an escape when the
//! // path is not really beneath the root (and the root is on disk).
//! let lets_out = |s: &Scenario| {
//!     let path = &s.cases[0].path;
//!     let allowed = s.roots.iter().any(|r| path.starts_with(r.trim_start_matches("file://")));
//!     let inside = path == "{base}/project" || path.starts_with(b"{base}/project/");
//!     let root_is_there = s.tree.iter().any(|e| e.path() == "project");
//!     allowed && !inside && root_is_there
//! };
//! let never = AtomicBool::new(false);
//! let minimal = shrink(&found, Steps::All, Budget::default(), &never, |_| true, |s: &Scenario| {
//!     Ok::<_, ()>(if lets_out(s) { Seen::Shows((), None) } else { Seen::Gone })
//! })?
//! .expect("the escape shows")
//! .scenario;
//! assert_eq!(minimal.tree, [Entry::Dir { path: "project".into() }]);
//! assert_eq!(minimal.cases[0].path.len(), "{base}/project".len() + 1);
//! // Probing: which features does the escape need?
//! let identity = probe(&minimal, Class::PathEscape, &[], |v: &Scenario| {
//!     Ok::<_, ()>(if lets_out(v) { Probe::Shows } else { Probe::Gone })
//! })?;
//! assert_eq!(catalogue::identify(&identity.signature).id, "RG-PREFIX-SIBLING");
//! # Ok::<(), ()>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod catalogue;
mod class;
mod feature;
mod probe;
mod shrink;
mod simplicity;
mod vary;
pub mod witness;

pub use class::{Channel, Class};
pub use feature::{Feature, RootRule, LONG_PATH, MANY_LINKS};
pub use probe::{probe, unprobed, FeatureProbe, Identity, Need, Probe, Signature};
pub use shrink::{
    candidates, shrink, shrink_found, Budget, Found, Seen, Shrunk, Steps, MAX_ATTEMPTS,
};
pub use simplicity::{simplicity, Simplicity};
pub use vary::{nested, plain_root, rehomed, rename_component, Subject};
