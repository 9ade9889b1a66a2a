//! What a run asked, by the strategy that made each query and by the
//! hostile features of the covering array: `vet --stats`, and the
//! coverage test.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use rootguard_judge::gen::{Feature, Triple};

/// The strategy that made a scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Strategy {
    /// The bundled conformance corpus and `--corpus` files.
    Corpus,
    /// The systematic phase: the same list at every seed
    /// ([`rootguard_judge::gen::systematic`]).
    Systematic,
    /// The 3-way covering array over the features, with its ladders.
    Covering,
    /// Random scenarios from the generator, with targeted queries.
    Random,
    /// Decoy roots around a random tree.
    Decoys,
}

/// Every strategy, in the order a run uses them.
pub const STRATEGIES: [Strategy; 5] = [
    Strategy::Corpus,
    Strategy::Systematic,
    Strategy::Covering,
    Strategy::Random,
    Strategy::Decoys,
];

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Strategy::Corpus => "corpus",
            Strategy::Systematic => "systematic",
            Strategy::Covering => "covering array",
            Strategy::Random => "random",
            Strategy::Decoys => "decoys",
        })
    }
}

/// Queries asked and findings they showed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Queries asked.
    pub queries: u64,
    /// Findings (any class, overblocks included).
    pub findings: u64,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.queries += other.queries;
        self.findings += other.findings;
    }
}

/// Queries and findings per strategy and per feature, and the triples of
/// the covering array whose scenario was asked in full.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Per strategy.
    pub strategies: BTreeMap<Strategy, Tally>,
    /// Per feature of the covering array (a query counts for each of its three).
    pub features: BTreeMap<Feature, Tally>,
    /// The rows of the covering array asked in full.
    pub triples: BTreeSet<Triple>,
    /// The items of the systematic phase asked in full, by name.
    pub systematic: BTreeSet<String>,
}

impl Stats {
    /// Counts one scenario's queries and findings.
    pub(crate) fn count(&mut self, strategy: Strategy, features: &[Feature], tally: Tally) {
        self.strategies.entry(strategy).or_default().add(tally);
        for feature in features {
            self.features.entry(*feature).or_default().add(tally);
        }
    }

    /// Adds another job's stats to these.
    pub(crate) fn absorb(&mut self, other: Stats) {
        for (strategy, tally) in other.strategies {
            self.strategies.entry(strategy).or_default().add(tally);
        }
        for (feature, tally) in other.features {
            self.features.entry(feature).or_default().add(tally);
        }
        self.triples.extend(other.triples);
        self.systematic.extend(other.systematic);
    }

    /// The catalogue's witnesses asked in full (among [`Stats::systematic`]),
    /// by scenario name (`RG-LINK-CHAIN`, `RG-LINK-FOLLOWED/link-in`).
    pub fn witnesses(&self) -> BTreeSet<&str> {
        self.systematic
            .iter()
            .filter_map(|item| item.strip_prefix(rootguard_judge::gen::WITNESS_ITEM))
            .collect()
    }

    /// The table `vet --stats` prints.
    pub fn table(&self) -> String {
        let mut out = format!("{:<22} {:>9} {:>9}\n", "class", "queries", "findings");
        let rows = STRATEGIES
            .iter()
            .map(|s| {
                (
                    s.to_string(),
                    self.strategies.get(s).copied().unwrap_or_default(),
                )
            })
            .chain(rootguard_judge::gen::FEATURES.iter().map(|f| {
                (
                    format!("  {f}"),
                    self.features.get(f).copied().unwrap_or_default(),
                )
            }));
        for (name, tally) in rows {
            out.push_str(&format!(
                "{name:<22} {:>9} {:>9}\n",
                tally.queries, tally.findings
            ));
        }
        out.push_str(&format!(
            "systematic phase: {} of {} items asked\n",
            self.systematic.len(),
            rootguard_judge::gen::systematic().len()
        ));
        out.push_str(&format!(
            "catalogue witnesses: {} of {} asked\n",
            self.witnesses().len(),
            rootguard_judge::gen::witnesses().len()
        ));
        out.push_str(&format!(
            "covering array: {} of {} triples asked\n",
            self.triples.len(),
            rootguard_judge::gen::covering_array().len()
        ));
        out
    }
}
