//! The covering array and every strategy class are drawn in a default-budget
//! run: any nonzero budget asks the covering array in full and draws the
//! random phase's classes (random scenarios with targeted queries, decoys)
//! at least once, so the shortest run draws what any longer one does,
//! however loaded the machine.

use std::time::Duration;

use rootguard_judge::gen::{covering_array, FEATURES};
use rootguard_vet::{vet_fn, Answer, Options, STRATEGIES};

#[test]
fn every_triple_and_every_strategy_class_is_drawn() {
    let options = Options {
        // Any nonzero budget: no time at all is left after the first query.
        budget: Duration::from_nanos(1),
        seed: 1,
        ..Options::default()
    };
    let report = vet_fn(
        |roots, path, op| {
            let roots = rootguard::Roots::new(roots.iter().copied());
            if roots.check(path, op).is_inside() {
                Answer::allow()
            } else {
                Answer::deny()
            }
        },
        &options,
    )
    .unwrap();
    let stats = &report.stats;
    let missing: Vec<_> = covering_array()
        .into_iter()
        .filter(|t| !stats.triples.contains(t))
        .collect();
    assert!(missing.is_empty(), "triples never drawn: {missing:?}");
    for strategy in STRATEGIES {
        let queries = stats.strategies.get(&strategy).map_or(0, |t| t.queries);
        assert!(
            queries > 0,
            "strategy {strategy} never drawn:\n{}",
            stats.table()
        );
    }
    for feature in FEATURES {
        let queries = stats.features.get(&feature).map_or(0, |t| t.queries);
        assert!(
            queries > 0,
            "feature {feature} never drawn:\n{}",
            stats.table()
        );
    }
    // Queries of every strategy add up to the search's queries.
    let asked: u64 = stats.strategies.values().map(|t| t.queries).sum();
    assert!(asked <= report.queries, "{asked} > {}", report.queries);
}
