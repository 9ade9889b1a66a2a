//! Whole scenarios: a tree, roots around its paths, and queries.

use arbitrary::Arbitrary;
use proptest::collection::vec;
use proptest::prelude::*;

use super::paths::PathSpec;
use super::pieces::TreeNames;
use super::roots::RootSpec;
use super::tree::TreeSpec;
use crate::{Case, Op, Scenario, BASE_PLACEHOLDER};

/// At most this many roots are rendered from a spec.
pub const MAX_ROOTS: usize = 4;

/// At most this many cases are rendered from a spec.
pub const MAX_CASES: usize = 6;

/// The operation of a query.
#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpSpec {
    /// read
    Read,
    /// write
    Write,
}

impl From<OpSpec> for Op {
    fn from(op: OpSpec) -> Op {
        match op {
            OpSpec::Read => Op::Read,
            OpSpec::Write => Op::Write,
        }
    }
}

/// One query.
#[derive(Arbitrary, Debug, Clone, PartialEq, Eq)]
pub struct CaseSpec {
    /// The path.
    pub path: PathSpec,
    /// The operation.
    pub op: OpSpec,
}

impl CaseSpec {
    /// A [`PathSpec::strategy`] path, read or write.
    pub fn strategy() -> impl Strategy<Value = CaseSpec> {
        (
            PathSpec::strategy(),
            prop_oneof![Just(OpSpec::Read), Just(OpSpec::Write)],
        )
            .prop_map(|(path, op)| CaseSpec { path, op })
    }

    /// The case, without `expect`, its path absolute and `{base}`-led.
    ///
    /// # Examples
    ///
    /// ```
    /// use rootguard_judge::gen::{Generator, TreeNames};
    /// use rootguard_judge::Entry;
    ///
    /// // A tree one has already, and more queries for it.
    /// let names = TreeNames::of(&[Entry::Dir { path: "project".into() }]);
    /// let mut generator = Generator::new(7);
    /// let case = generator.case().render(&names);
    /// assert!(case.path.starts_with("/") || case.path.starts_with("{base}"));
    /// ```
    pub fn render(&self, names: &TreeNames) -> Case {
        Case {
            path: self.path.render_case_path(names),
            op: self.op.into(),
            expect: None,
        }
    }
}

/// A small scenario, as a spec: rendered against the tree at the end, so
/// that a piece says "the name of some entry", not which one.
#[derive(Arbitrary, Debug, Clone, PartialEq, Eq)]
pub struct ScenarioSpec {
    /// The tree.
    pub tree: TreeSpec,
    /// Roots (the first four count).
    pub roots: Vec<RootSpec>,
    /// Queries (the first six count).
    pub cases: Vec<CaseSpec>,
}

impl ScenarioSpec {
    /// A [`TreeSpec::strategy`] tree, 0–3 roots and 1–6 cases.
    pub fn strategy() -> impl Strategy<Value = ScenarioSpec> {
        (
            TreeSpec::strategy(),
            vec(RootSpec::strategy(), 0..=3),
            vec(CaseSpec::strategy(), 1..=MAX_CASES),
        )
            .prop_map(|(tree, roots, cases)| ScenarioSpec { tree, roots, cases })
    }

    /// The scenario this spec stands for, named `generated`; always valid
    /// by the format's rules.
    pub fn to_scenario(&self) -> Scenario {
        let tree = self.tree.render();
        let names = TreeNames::of(&tree);
        Scenario {
            name: "generated".to_owned(),
            note: None,
            roots: self
                .roots
                .iter()
                .take(MAX_ROOTS)
                .map(|r| r.render(BASE_PLACEHOLDER, &names))
                .collect(),
            cases: self
                .cases
                .iter()
                .take(MAX_CASES)
                .map(|c| c.render(&names))
                .collect(),
            tree,
        }
    }
}
