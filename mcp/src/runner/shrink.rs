//! Minimal escapes of the table: tree entries removed while the escape
//! stays, then triage's probing for the features it needs, both within
//! the run's triage time.

use std::sync::atomic::{AtomicBool, Ordering};

use rootguard_judge::{Scenario, Truth};
use rootguard_triage::{probe, shrink_found, Budget, Found, Probe, Seen, Steps};

use super::context::Triage;
use super::Attempt;
use crate::attacks::ROOT;
use crate::HarnessError;

/// Probes a (shrunk) escape: each variant of its scenario without one
/// feature is attacked again (`again`, on a fresh server); a variant
/// counts only when its truth is still outside and it stays inside the
/// temp base.
pub(super) fn identify(
    found: Attempt,
    interrupted: &AtomicBool,
    triage: &Triage,
    mut again: impl FnMut(&Scenario) -> Result<Attempt, HarnessError>,
) -> Result<Attempt, HarnessError> {
    let Some(f) = found.finding.as_ref().filter(|f| f.kind.is_escape()) else {
        return Ok(found);
    };
    let (minimal, class) = (f.scenario.clone(), f.kind.class());
    let identity = probe(&minimal, class, &[], |variant: &Scenario| {
        if interrupted.load(Ordering::Relaxed) {
            return Ok(Probe::Inconclusive("interrupted".into()));
        }
        if triage.spent() {
            return Ok(Probe::Inconclusive("the triage time is spent".into()));
        }
        if !variant.stays_in_base() {
            return Ok(Probe::Inconclusive(
                "it would reach outside the temp base".into(),
            ));
        }
        let attempt = again(variant)?;
        Ok(match (attempt.truth, attempt.finding) {
            (Some(Truth::Outside), Some(f)) if f.kind.is_escape() => Probe::Shows,
            (Some(Truth::Outside), _) => Probe::Gone,
            (truth, _) => Probe::Inconclusive(format!(
                "its truth is {}",
                truth.map_or("unknown".to_owned(), |t| t.to_string())
            )),
        })
    })?;
    let mut found = found;
    if let Some(f) = found.finding.as_mut() {
        f.identity = Some(identity);
    }
    Ok(found)
}

/// Shrinks the tree with triage's one shrinker ([`Steps::Tree`]:
/// the attack's other paths name entries a rename would take away)
/// while the same kind of escape stays, with the same truth, each
/// smaller scenario attacked again with `again`.
pub(super) fn shrink(
    found: Attempt,
    interrupted: &AtomicBool,
    triage: &Triage,
    mut again: impl FnMut(&Scenario) -> Result<Attempt, HarnessError>,
) -> Result<Attempt, HarnessError> {
    let Some(f) = found.finding.as_ref() else {
        return Ok(found);
    };
    let (kind, truth, start) = (f.kind, found.truth, f.scenario.clone());
    // The root must stay on disk: a server may refuse to start without it.
    let keep = |s: &Scenario| {
        s.tree
            .iter()
            .any(|e| e.path() == ROOT || e.path().starts_with("proj/"))
    };
    let found = Found {
        scenario: &start,
        shown: found,
        used: None,
    };
    let shrunk = shrink_found(
        found,
        Steps::Tree,
        Budget {
            deadline: Some(triage.deadline()),
            ..Budget::default()
        },
        interrupted,
        keep,
        |smaller: &Scenario| {
            let attempt = again(smaller)?;
            // The model must still call it an escape: a server that
            // creates missing parents escapes with `proj2` gone from the
            // tree, where the model only says the write cannot happen.
            Ok(
                if attempt.finding.as_ref().is_some_and(|f| f.kind == kind)
                    && attempt.truth == truth
                {
                    Seen::Shows(attempt, None)
                } else {
                    Seen::Gone
                },
            )
        },
    )?;
    let mut best = shrunk.shown;
    if let Some(f) = best.finding.as_mut() {
        f.shrunk = true;
    }
    Ok(best)
}
