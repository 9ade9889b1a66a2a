//! Proptest strategies for hostile scenarios, strong for *classes* of
//! hostility rather than for particular cases: the proptest face of
//! [`crate::gen`], where the specs, their weights and the classes they
//! cover are described.

use proptest::prelude::*;

use crate::gen::{entry_name, NameSpec, ScenarioSpec, TreeSpec, Variant};
use crate::{Entry, PathBytes, Scenario};

pub use crate::gen::{file_uri, root_uri, HOSTILE_ALPHABET, NAMES, ROOT_SUFFIXES};

/// A file name: one of [`NAMES`] or a hostile sibling of one, valid in a
/// tree.
///
/// # Examples
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// use rootguard_judge::strategies::name;
///
/// let mut runner = TestRunner::deterministic();
/// let n = name().new_tree(&mut runner).unwrap().current();
/// assert!(!n.is_empty() && !n.contains("/") && n.len() <= 255);
/// ```
pub fn name() -> impl Strategy<Value = PathBytes> {
    NameSpec::strategy().prop_map(|spec| spec.render_entry_name().into())
}

/// Hostile siblings of `name`, valid in a tree: the same text with a
/// suffix or prefix from [`HOSTILE_ALPHABET`], in another case, fullwidth,
/// with homoglyphs, with an NFC or NFD accent, or padded long.
pub fn sibling_of(name: PathBytes) -> impl Strategy<Value = PathBytes> {
    Variant::strategy().prop_map(move |v| entry_name(v.apply(name.as_bytes())).into())
}

/// A small hostile tree (1 to 8 entries and one optional chain of links);
/// always valid by the format's rules.
pub fn tree() -> impl Strategy<Value = Vec<Entry>> {
    TreeSpec::strategy().prop_map(|spec| spec.render())
}

/// A whole hostile scenario: a [`tree`], 0–3 roots (mostly `file:` URIs of
/// the tree's own paths in valid and invalid forms), and 1–6 cases without
/// `expect`, whose paths are made of the tree's names and hostile pieces.
/// It always passes [`Scenario::validate`].
///
/// # Examples
///
/// ```
/// use proptest::prelude::*;
/// use rootguard_judge::strategies::scenario;
///
/// proptest!(ProptestConfig::with_cases(16), |(s in scenario())| {
///     prop_assert!(s.validate().is_ok());
/// });
/// ```
pub fn scenario() -> impl Strategy<Value = Scenario> {
    ScenarioSpec::strategy().prop_map(|spec| spec.to_scenario())
}
