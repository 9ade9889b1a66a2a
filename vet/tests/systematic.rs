//! The systematic phase is the same list at every seed: every item of
//! `gen::systematic` is asked in every run with a nonzero budget, whatever
//! the seed, and shards share it out without leaving any item behind. The
//! catalogue's witnesses are among them, every ID a scenario can show
//! with at least one. A sound checker (core) shows nothing in it, and a
//! text-prefix checker is caught by it alone.

use std::collections::BTreeSet;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::time::Duration;

use rootguard_judge::gen::{systematic, witnesses};
use rootguard_triage::witness;
use rootguard_vet::{vet_fn, Answer, Class, Options, Report, Shard, Strategy};

fn sound(roots: &[&str], path: &Path, op: rootguard::Op) -> Answer {
    let roots = rootguard::Roots::new(roots.iter().copied());
    if roots.check(path, op).is_inside() {
        Answer::allow()
    } else {
        Answer::deny()
    }
}

fn run(
    seed: u64,
    shard: Shard,
    max_queries: Option<u64>,
    check: fn(&[&str], &Path, rootguard::Op) -> Answer,
) -> Report {
    let options = Options {
        // Any nonzero budget: the list is asked however little time there is.
        budget: Duration::from_nanos(1),
        seed,
        shard,
        max_queries,
        bundled_corpus: false,
        ..Options::default()
    };
    vet_fn(check, &options).expect("the run completes")
}

#[test]
fn every_item_is_asked_at_every_seed() {
    let items = systematic();
    let all: BTreeSet<String> = items.iter().map(|i| i.name.clone()).collect();
    let cases: u64 = items.iter().map(|i| i.scenario.cases.len() as u64).sum();
    for seed in [1, 2, 977] {
        let report = run(seed, Shard::WHOLE, None, sound);
        let stats = &report.stats;
        assert_eq!(stats.systematic, all, "seed {seed}:\n{}", stats.table());
        let tally = stats.strategies[&Strategy::Systematic];
        assert_eq!(tally.queries, cases, "seed {seed}");
        assert_eq!(
            tally.findings,
            0,
            "core is sound, seed {seed}: {:?}",
            report.first(Class::PathEscape)
        );
        assert!(
            stats.table().contains(&format!(
                "systematic phase: {} of {} items asked",
                all.len(),
                all.len()
            )),
            "{}",
            stats.table()
        );
        // Every witness of the catalogue, so every ID a scenario can show.
        let asked: BTreeSet<&str> = stats.witnesses();
        assert_eq!(asked.len(), 45, "seed {seed}");
        assert_eq!(asked.len(), witnesses().len(), "seed {seed}");
        for id in witness::needed() {
            assert!(
                asked.iter().any(|w| witness::id_of(w) == id),
                "seed {seed}: no witness of {id} asked"
            );
        }
        assert!(
            stats
                .table()
                .contains("catalogue witnesses: 45 of 45 asked"),
            "{}",
            stats.table()
        );
    }
}

#[test]
fn shards_share_the_list_out_whole() {
    let all: BTreeSet<String> = systematic().into_iter().map(|i| i.name).collect();
    let mut seen = BTreeSet::new();
    for index in 0..3 {
        let shard: Shard = format!("{index}/3").parse().expect("a shard");
        let report = run(5, shard, None, sound);
        for name in &report.stats.systematic {
            assert!(seen.insert(name.clone()), "{name} asked by two shards");
        }
    }
    assert_eq!(seen, all);
}

/// Allows a path whose text begins with a root's path, as text.
fn text_prefix(roots: &[&str], path: &[u8]) -> Answer {
    let allowed = roots.iter().any(|r| {
        r.strip_prefix("file://")
            .is_some_and(|p| path.starts_with(p.as_bytes()))
    });
    if allowed {
        Answer::allow()
    } else {
        Answer::deny()
    }
}

/// A checker that compares text prefixes, asked nothing but the
/// systematic phase (no corpus, the covering array cut off by the query
/// cap): it is caught, at every seed, by the same queries.
#[test]
fn a_prefix_checker_is_caught_by_the_list_alone() {
    fn prefix(roots: &[&str], path: &Path, _op: rootguard::Op) -> Answer {
        text_prefix(roots, path.as_os_str().as_bytes())
    }
    let cases: u64 = systematic()
        .iter()
        .map(|i| i.scenario.cases.len() as u64)
        .sum();
    let firsts: Vec<Option<u64>> = [1, 2, 3]
        .into_iter()
        .map(|seed| run(seed, Shard::WHOLE, Some(cases), prefix).first_escape_query)
        .collect();
    assert!(firsts[0].is_some(), "no escape found");
    assert!(firsts.iter().all(|f| *f == firsts[0]), "{firsts:?}");
}

/// A checker with two flaws of names, a text prefix and `\` read as `/`:
/// asked the systematic phase alone, it is named by both, since each
/// candidate shrinks the witness of its own ID first (the simpler
/// `project\` of the suffix family is a text prefix too, and shrunk first
/// it named the backslash candidate `RG-PREFIX-SIBLING`).
#[test]
fn two_flaws_of_names_are_both_named() {
    fn prefix_after_backslash(roots: &[&str], path: &Path, _op: rootguard::Op) -> Answer {
        let path: Vec<u8> = path
            .as_os_str()
            .as_bytes()
            .iter()
            .map(|&b| if b == b'\\' { b'/' } else { b })
            .collect();
        text_prefix(roots, &path)
    }
    let cases: u64 = systematic()
        .iter()
        .map(|i| i.scenario.cases.len() as u64)
        .sum();
    // One example shrunk per candidate, as in a run with more candidates
    // than triage has room for: count them first, nothing shrunk.
    let options = |max_shrunk| Options {
        budget: Duration::from_nanos(1),
        seed: 1,
        max_queries: Some(cases),
        bundled_corpus: false,
        max_shrunk,
        ..Options::default()
    };
    let counted = vet_fn(prefix_after_backslash, &options(0)).expect("the run completes");
    let candidates = counted.triage.candidates;
    let report = vet_fn(prefix_after_backslash, &options(candidates)).expect("the run completes");
    assert_eq!(report.triage.shrunk, candidates, "{:?}", report.triage);
    let ids: BTreeSet<&str> = report
        .defects
        .iter()
        .filter(|d| d.class().is_escape())
        .map(|d| d.id())
        .collect();
    assert!(
        ids.contains("RG-BACKSLASH-SEPARATOR") && ids.contains("RG-PREFIX-SIBLING"),
        "{ids:?}"
    );
}
