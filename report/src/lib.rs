//! The reports of `rootguard vet` and `rootguard mcp`: the report model
//! ([`Report`], [`Defect`], [`Ledger`]), baselines, and one set of writers: text,
//! JSON (schema `rootguard-report` version 1), SARIF 2.1.0, JUnit XML and
//! a self-contained HTML page. docs/reports.md documents the JSON schema,
//! the features and the catalogue of IDs.
//!
//! A harness finds escapes, shrinks each to a minimal scenario and probes
//! it with `rootguard-triage` (the finding vocabulary, the shrinker, the
//! features and the catalogue of IDs live there), and hands
//! each [`Sighting`] to a [`Ledger`], which groups them into [`Defect`]s by
//! catalogue ID and keeps each one's simplest example.
//!
//! # Examples
//!
//! ```
//! use rootguard_judge::{Case, Entry, Op, Scenario};
//! use rootguard_report::{Example, Ledger, Sighting, Variants};
//! use rootguard_triage::{probe, Class, Probe};
//!
//! // A minimal scenario a checker let out: `{base}/project2` for the root `{base}/project`.
//! let minimal = Scenario {
//!     name: "found".into(),
//!     note: None,
//!     tree: vec![Entry::Dir { path: "project".into() }],
//!     roots: vec!["file://{base}/project".into()],
//!     cases: vec![Case { path: "{base}/project2".into(), op: Op::Write, expect: None }],
//! };
//! // Probing: does each variant still escape? (Here, a text-prefix checker.)
//! let identity = probe(&minimal, Class::PathEscape, &[], |v: &Scenario| {
//!     let allowed = v.cases[0].path.starts_with("{base}/project");
//!     Ok::<_, ()>(if allowed { Probe::Shows } else { Probe::Gone })
//! })?;
//! let mut ledger = Ledger::default();
//! ledger.add(Sighting {
//!     identity,
//!     example: Example { scenario: minimal, minimal: true, ..Example::default() },
//!     hits: 1,
//!     variants: Variants::default(),
//! });
//! let defects = ledger.defects();
//! assert_eq!(defects[0].id(), "RG-PREFIX-SIBLING");
//! assert_eq!(defects[0].entry.title, "text-prefix compare");
//! # Ok::<(), ()>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod baseline;
mod html;
mod json;
mod junit;
mod marks;
mod model;
mod sarif;
mod svg;
mod text;

pub use baseline::{Baseline, BaselineError, Comparison};
pub use html::html;
pub use json::{defect_json, json, report_value, FORMAT, VERSION};
pub use junit::{junit, xml_escape};
pub use marks::hostile_marks;
pub use model::{
    artifact_of, is_seeded, sort_defects, Check, Defect, Example, Ledger, Message, Refusal, Report,
    Sighting, Tool, Variants,
};
pub use sarif::sarif;
pub use svg::tree_svg;
pub use text::{clip, defects_phrase, entry_text, text, verdict_line};
