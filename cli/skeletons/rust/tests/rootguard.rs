//! Your crate's path check, vetted by rootguard in-process:
//!
//!     cargo test --test rootguard
//!
//! rootguard asks the check thousands of hostile requests (roots as an MCP
//! client sends them, a path a tool call carries, an operation), judges
//! every answer by its model and by the kernel on a real temp tree, and
//! fails the test with each escape's minimal scenario.
//! `ROOTGUARD_BUDGET=600 cargo test --test rootguard` searches longer;
//! `ROOTGUARD_CASES=N` stops after N queries whatever the budget (the same
//! queries on any machine); `ROOTGUARD_SEED=N` repeats a run.

use std::path::Path;
use std::time::Duration;

use rootguard::Op;
use rootguard_vet::{vet_fn, Answer, Options};

/// Whether your server lets `op` on `path` go ahead; `roots` are root URIs
/// (`file:///home/u/proj`) exactly as the client sent them.
fn is_allowed(roots: &[&str], path: &Path, op: Op) -> bool {
    let _ = (roots, path, op);
    true // PLACEHOLDER: allows everything, so vet finds escapes; call your check instead
}

fn from_env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn every_path_it_allows_stays_inside_its_roots() {
    let options = Options {
        budget: Duration::from_secs(from_env("ROOTGUARD_BUDGET", 20)),
        max_queries: std::env::var("ROOTGUARD_CASES")
            .ok()
            .and_then(|v| v.parse().ok()),
        seed: from_env("ROOTGUARD_SEED", 1),
        ..Options::default()
    };
    let report = vet_fn(
        |roots, path, op| {
            if is_allowed(roots, path, op) {
                Answer::allow()
            } else {
                Answer::deny()
            }
        },
        &options,
    )
    .expect("rootguard's harness runs");
    assert!(
        !report.failed(false),
        "{}",
        rootguard_vet::report::text(&report, false)
    );
}
