//! Minimal escapes of the table: tree entries removed while the escape
//! stays, then the report crate's probing for the features it needs.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use rootguard_proptests::{Entry, Scenario, Truth};
use rootguard_report::{probe, Probe, Subject};

use super::{Attempt, Mode, Runner};
use crate::attacks::{Attack, ROOT};
use crate::HarnessError;

impl Runner<'_> {
    /// Probes a (shrunk) escape: each variant of its scenario without one
    /// feature is attacked on a fresh server; a variant counts only when
    /// its truth is still outside and it stays inside the temp base.
    pub(super) fn identify(
        &mut self,
        attack: &Attack,
        mode: Mode,
        found: Attempt,
    ) -> Result<Attempt, HarnessError> {
        let Some(f) = found.finding.as_ref().filter(|f| f.kind.is_escape()) else {
            return Ok(found);
        };
        let (minimal, class) = (f.scenario.clone(), f.kind.class());
        let interrupted = Arc::clone(&self.options.interrupted);
        let identity = probe(&minimal, class, &[], |variant: &Scenario| {
            if interrupted.load(Ordering::Relaxed) {
                return Ok(Probe::Inconclusive("interrupted".into()));
            }
            if !stays_in_base(variant) {
                return Ok(Probe::Inconclusive(
                    "it would reach outside the temp base".into(),
                ));
            }
            let attempt = self.attempt_on(attack, variant.clone(), mode)?;
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

    /// Removes tree entries one at a time while the same kind of escape stays.
    pub(super) fn shrink(
        &mut self,
        attack: &Attack,
        mode: Mode,
        found: Attempt,
    ) -> Result<Attempt, HarnessError> {
        let Some(kind) = found.finding.as_ref().map(|f| f.kind) else {
            return Ok(found);
        };
        let mut best = found;
        let mut tree = attack.tree.clone();
        let mut i = 0;
        while i < tree.len() && !self.options.interrupted.load(Ordering::Relaxed) {
            let mut smaller = tree.clone();
            smaller.remove(i);
            if !smaller
                .iter()
                .any(|e| e.path() == ROOT || e.path().starts_with("proj/"))
            {
                // The root must stay on disk: a server may refuse to start without it.
                smaller.push(Entry::Dir { path: ROOT.into() });
                if smaller.len() >= tree.len() {
                    i += 1;
                    continue;
                }
            }
            let attempt = self.attempt(attack, &smaller, mode)?;
            // The model must still call it an escape: a server that creates
            // missing parents escapes with `proj2` gone from the tree, where
            // the model only says the write cannot happen.
            if attempt.finding.as_ref().is_some_and(|f| f.kind == kind)
                && attempt.truth == best.truth
            {
                tree = smaller;
                best = attempt;
                i = 0;
            } else {
                i += 1;
            }
        }
        if let Some(f) = best.finding.as_mut() {
            f.shrunk = true;
        }
        Ok(best)
    }
}

/// Whether every link of `scenario` and its case stay in the base (a
/// probe never lets a server loose outside the temp base).
pub(super) fn stays_in_base(scenario: &Scenario) -> bool {
    let subject = Subject::new(scenario);
    let inside = |text: &str| text.starts_with("{base}/") && !text.split('/').any(|c| c == "..");
    subject.target().is_some_and(|t| inside(&t))
        && scenario.tree.iter().all(|e| match e {
            Entry::Symlink { target, .. } => {
                let target = target.to_string_lossy();
                inside(&target) || (!target.starts_with('/') && !target.contains(".."))
            }
            _ => true,
        })
}
