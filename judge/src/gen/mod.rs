//! The generators: one set of hostile *specs* for every driver, proptest
//! ([`crate::strategies`] and the tests), libFuzzer (`rootguard-fuzzing`, whose
//! inputs decode as these types through [`arbitrary::Arbitrary`]), vet's
//! random phase and mcp's generative phase ([`Generator`]).
//!
//! A spec is small and says what to make, not which names: a path piece
//! says "the name of some entry", and it is rendered against the tree at
//! the end ([`TreeNames`]). So there is no `prop_flat_map`, and proptest
//! shrinks entries, pieces, roots and cases independently, ending in small
//! trees; every pool index shrinks toward 0, and each pool is ordered
//! plainest first. Each type has its proptest strategy beside it
//! (`Type::strategy()`, weighted toward the plain case); `Arbitrary`
//! decodes it uniformly, and rendering caps what a long input makes
//! ([`MAX_ENTRIES`], [`MAX_ROOTS`], [`MAX_CASES`], [`MAX_PIECES`]) so that
//! a fuzz target stays fast.
//!
//! The classes, one module each:
//!
//! - [`names`](NameSpec): a small pool, and *siblings* of it: a suffix or
//!   prefix from a hostile alphabet, case variants, fullwidth forms,
//!   Cyrillic homoglyphs, NFC and NFD accents, names of 250–260 bytes, any
//!   text;
//! - [`pieces`](Piece): the pieces paths, link targets and roots are made
//!   of, and [`TreeNames`], what they are rendered against;
//! - [`tree`](TreeSpec): dirs, files and links of every kind, chains of
//!   links around Linux's limit of 40;
//! - [`roots`](RootSpec): `file:` URIs of the tree's paths in every valid
//!   and invalid form, fixed roots, and hostile URI strings ([`UriSpec`],
//!   [`root_uri`]);
//! - [`paths`](PathSpec): query paths, with padding near PATH_MAX, NUL,
//!   trailing dot segments and separators in disguise;
//! - [`scenario`](ScenarioSpec): a tree, roots and queries together;
//! - [`features`](Feature): the hostile features as a vocabulary, and a
//!   3-way covering array over it ([`covering_array`], [`combination`]),
//!   walking boundary ladders ([`LADDER`]);
//! - [`systematic`]: one bounded list, the same at every seed, of root-URI
//!   rules broken alone, names derived from the root's, and hostile link
//!   targets; drivers ask it before anything else generated.
//!
//! # Examples
//!
//! ```
//! use proptest::prelude::*;
//! use rootguard_judge::gen::ScenarioSpec;
//!
//! proptest!(ProptestConfig::with_cases(16), |(spec in ScenarioSpec::strategy())| {
//!     prop_assert!(spec.to_scenario().validate().is_ok());
//! });
//! ```

mod features;
mod flavoured;
mod generator;
mod names;
mod paths;
mod pieces;
mod roots;
mod scenario;
mod systematic;
mod tree;
mod uris;

pub use features::{combination, covering_array, Feature, Triple, FEATURES, LADDER};
pub use flavoured::{
    flavoured_cases, respelled, FlavourCase, MACOS_ROOT, WINDOWS_ROOT, WINDOWS_UNC_ROOT,
};
pub use generator::Generator;
pub use names::{entry_name, NameSpec, Variant, FIRST_NOT_UTF8, HOSTILE_ALPHABET, NAMES};
pub use paths::{Pad, PadUnit, PathSpec, Separator, Start, Trailing};
pub use pieces::{pieces, Piece, TreeNames, MAX_PIECES};
pub use roots::{file_uri, Escape, Form, RootSpec, FIXED_ROOTS, ROOT_SUFFIXES};
pub use scenario::{CaseSpec, OpSpec, ScenarioSpec, MAX_CASES, MAX_ROOTS};
pub use systematic::{
    link_tree, systematic, Item, NameForm, CASES_PER_ITEM, LINK_TARGETS, ROOT_RULES,
};
pub use tree::{ChainSpec, EntrySpec, KindSpec, TargetSpec, TreeSpec, HOST_TARGETS, MAX_ENTRIES};
pub use uris::{root_uri, Authority, SchemeEnd, UriSpec};

/// Entry `i` of `pool`, modulo its length (`pool` is never empty).
fn pick<T>(pool: &[T], i: u8) -> &T {
    &pool[usize::from(i) % pool.len()]
}

/// Uniform indices into `pool` for proptest, shrinking toward its first.
fn pool_index<T>(pool: &[T]) -> std::ops::Range<u8> {
    0..u8::try_from(pool.len()).unwrap_or(u8::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pool_is_indexable_by_a_byte() {
        for len in [
            NAMES.len(),
            HOSTILE_ALPHABET.len(),
            HOST_TARGETS.len(),
            ROOT_SUFFIXES.len(),
            FIXED_ROOTS.len(),
        ] {
            assert!((1..256).contains(&len));
        }
    }
}
