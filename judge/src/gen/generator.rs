//! A seeded source of specs, for harnesses that are not proptest tests.

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use super::paths::PathSpec;
use super::roots::RootSpec;
use super::scenario::{CaseSpec, ScenarioSpec};
use crate::Scenario;

/// Specs and scenarios drawn from the proptest strategies of this module,
/// the same sequence for the same seed (proptest's ChaCha generator).
///
/// # Examples
///
/// ```
/// use rootguard_judge::gen::Generator;
///
/// let mut one = Generator::new(7);
/// let mut other = Generator::new(7);
/// let scenario = one.scenario();
/// assert_eq!(scenario, other.scenario());
/// assert!(scenario.validate().is_ok());
/// ```
pub struct Generator {
    runner: TestRunner,
}

impl Generator {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Generator {
        let mut rng_seed = [0u8; 32];
        rng_seed[..8].copy_from_slice(&seed.to_le_bytes());
        Generator {
            runner: TestRunner::new_with_rng(
                Config::default(),
                TestRng::from_seed(RngAlgorithm::ChaCha, &rng_seed),
            ),
        }
    }

    /// The next value of `strategy`.
    pub fn draw<S: Strategy>(&mut self, strategy: &S) -> S::Value {
        match strategy.new_tree(&mut self.runner) {
            Ok(tree) => tree.current(),
            // Only filters reject, and the spec strategies have none.
            Err(why) => unreachable!("a spec strategy rejected a value: {why}"),
        }
    }

    /// The next scenario spec.
    pub fn spec(&mut self) -> ScenarioSpec {
        self.draw(&ScenarioSpec::strategy())
    }

    /// The next scenario ([`ScenarioSpec::to_scenario`] of the next spec).
    pub fn scenario(&mut self) -> Scenario {
        self.spec().to_scenario()
    }

    /// The next query, for a tree one has already: render it with
    /// [`CaseSpec::render`] against [`TreeNames::of`](super::TreeNames::of)
    /// that tree.
    pub fn case(&mut self) -> CaseSpec {
        self.draw(&CaseSpec::strategy())
    }

    /// The next query path, for a tree one has already.
    pub fn path(&mut self) -> PathSpec {
        self.draw(&PathSpec::strategy())
    }

    /// The next root, for a tree one has already.
    pub fn root(&mut self) -> RootSpec {
        self.draw(&RootSpec::strategy())
    }
}
