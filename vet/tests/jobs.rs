//! `vet_jobs`: the triage after the search runs on every job's checker,
//! each round's examples dealt out in turn, and a seed and a number of
//! jobs still name the same defects from the same minimal examples (a
//! number of jobs other than the seed's shares the scenarios out
//! otherwise, so only the same seed and number are held to it).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rootguard_judge::Scenario;
use rootguard_vet::{vet_jobs, Answer, Checker, HarnessError, Options, Reply, Report, Request};

/// A text-prefix compare of the path with each root's path (the classic
/// defect), remembering the highest request id it was sent.
struct Prefix {
    highest: Arc<AtomicU64>,
}

impl Checker for Prefix {
    fn ask(&mut self, request: &Request) -> Result<Reply, HarnessError> {
        self.highest.fetch_max(request.id, Ordering::Relaxed);
        let allowed = request.roots.iter().any(|root| {
            root.strip_prefix("file://")
                .is_some_and(|dir| !dir.is_empty() && request.path.starts_with(dir))
        });
        Ok(Reply::Answer(if allowed {
            Answer::allow()
        } else {
            Answer::deny()
        }))
    }
}

fn options() -> Options {
    Options {
        budget: Duration::from_secs(3600),
        seed: 11,
        max_queries: Some(2_000),
        // Small enough to be quick, large enough that no limit but these
        // two cuts triage short (a deadline would make runs differ).
        max_shrunk: 12,
        shrink_attempts: 3_000,
        triage_time: Duration::from_secs(300),
        ..Options::default()
    }
}

/// Vets with `n` prefix checkers; the report and each checker's highest id.
fn run(n: usize) -> (Report, Vec<u64>) {
    let highest: Vec<Arc<AtomicU64>> = (0..n).map(|_| Arc::default()).collect();
    let mut checkers: Vec<Prefix> = highest
        .iter()
        .map(|h| Prefix { highest: h.clone() })
        .collect();
    let report = vet_jobs(&mut checkers, &options()).expect("vet runs");
    let ids = highest.iter().map(|h| h.load(Ordering::Relaxed)).collect();
    (report, ids)
}

fn defects(report: &Report) -> Vec<(String, Scenario)> {
    report
        .defects
        .iter()
        .map(|d| {
            // The note may name the temp base, which differs between runs.
            let mut scenario = d.example.scenario.clone();
            scenario.note = None;
            (d.id().to_owned(), scenario)
        })
        .collect()
}

#[test]
fn the_second_job_shrinks_too() {
    let (report, highest) = run(2);
    assert!(
        report.triage.candidates >= 2 && report.triage.shrunk >= 2,
        "the prefix checker gives several candidates to shrink: {:?}",
        report.triage
    );
    // Triage ids of the second checker start above 2^32: its search's ids
    // are small, so only triage sends it such an id.
    assert!(
        highest[1] > 1 << 32,
        "the second checker was sent no triage request (highest id {})",
        highest[1]
    );
    assert!(
        report.defects.iter().any(|d| d.id() == "RG-PREFIX-SIBLING"),
        "{:?}",
        defects(&report)
    );
}

#[test]
fn a_seed_and_two_jobs_give_the_same_defects_and_examples() {
    let (first, _) = run(2);
    let (second, _) = run(2);
    assert_eq!(defects(&first), defects(&second));
    assert_eq!(first.queries, second.queries);
}
