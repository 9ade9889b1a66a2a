//! Shrinking an escape to a minimal scenario by asking the checker again,
//! with triage's one shrinker ([`rootguard_triage::shrink`]): each step is
//! kept only when it is simpler and the checker still shows the class.

use std::sync::atomic::AtomicBool;

use rootguard_judge::{Materialized, PathBytes, Scenario, Truth, BASE_PLACEHOLDER};
pub use rootguard_triage::{Budget, MAX_ATTEMPTS};
use rootguard_triage::{Seen, Steps};

use crate::checker::{Checker, Reply};
use crate::judge::{evaluate, Class, Ids, Judge, Outcome};
use crate::HarnessError;

/// A scenario with its single case, and the outcome that shows its class.
#[derive(Debug, Clone)]
pub struct Shrunk {
    /// The minimal scenario in `{base}` form, one case, `expect` set to the truth.
    pub scenario: Scenario,
    /// The last outcome showing the class on that scenario.
    pub outcome: Outcome,
    /// How many attempts were made.
    pub attempts: usize,
}

/// Shrinks `scenario` (in `{base}` form) reduced to its case `case`, keeping
/// each simplification only when it is simpler and the checker still shows
/// `class`, within `budget`.
///
/// Returns `None` when the escape does not show again on the single case
/// (a checker that depends on earlier requests).
///
/// # Errors
///
/// [`HarnessError`] when the checker cannot be restarted.
pub fn shrink(
    checker: &mut dyn Checker,
    ids: &mut Ids,
    scenario: &Scenario,
    case: usize,
    class: Class,
    interrupted: &AtomicBool,
    budget: Budget,
) -> Result<Option<Shrunk>, HarnessError> {
    let Some(the_case) = scenario.cases.get(case) else {
        return Ok(None);
    };
    let one = Scenario {
        cases: vec![the_case.clone()],
        ..scenario.clone()
    };
    let found = rootguard_triage::shrink(
        &one,
        Steps::All,
        budget,
        interrupted,
        |_| true,
        |s: &Scenario| {
            Ok(match ask(checker, ids, s, None)? {
                Asked::Answered(outcome, used) if outcome.class == Some(class) => {
                    Seen::Shows(outcome, used)
                }
                _ => Seen::Gone,
            })
        },
    )?;
    let Some(found) = found else {
        return Ok(None);
    };
    let (mut best, outcome) = (found.scenario, found.shown);
    // Label the case with the truth of its own path.
    if let Ok(materialized) = Materialized::new(&best) {
        if let (Ok(judge), Some(case)) = (Judge::new(&materialized), materialized.cases().first()) {
            let truth = judge.truth(materialized.roots(), &case.path, case.op);
            best.cases[0].expect = Some(truth.judgement.truth.to_expect());
        }
    }
    best.note = outcome
        .truth
        .as_ref()
        .map(|t| t.judgement.explanation.clone());
    Ok(Some(Shrunk {
        scenario: best,
        outcome,
        attempts: found.attempts,
    }))
}

/// A one-case scenario asked of the checker on a fresh tree.
#[derive(Debug)]
pub(crate) enum Asked {
    /// It could not be asked; the reason.
    Not(String),
    /// It was asked: the outcome, and the `use` path of the answer
    /// (`{base}` form) when it differs from the request's.
    Answered(Outcome, Option<PathBytes>),
}

/// Materializes `scenario`, judges its case and, unless its truth is not
/// `want`, asks it.
///
/// # Errors
///
/// [`HarnessError`] when the checker cannot be restarted.
pub(crate) fn ask(
    checker: &mut dyn Checker,
    ids: &mut Ids,
    scenario: &Scenario,
    want: Option<Truth>,
) -> Result<Asked, HarnessError> {
    let Ok(materialized) = Materialized::new(scenario) else {
        return Ok(Asked::Not("its tree cannot be made".into()));
    };
    let Ok(judge) = Judge::new(&materialized) else {
        return Ok(Asked::Not("the model cannot lay its tree out".into()));
    };
    let Some(case) = materialized.cases().first() else {
        return Ok(Asked::Not("it has no case".into()));
    };
    if let Some(want) = want {
        let truth = judge.truth(materialized.roots(), &case.path, case.op);
        if truth.judgement.truth != want {
            return Ok(Asked::Not(format!(
                "its truth is {}",
                truth.judgement.truth
            )));
        }
    }
    let outcome = evaluate(
        checker,
        &judge,
        ids,
        materialized.roots(),
        &case.path,
        case.op,
    )?;
    let used = match &outcome.reply {
        Reply::Answer(a) => a.use_path.as_ref().filter(|u| **u != case.path).map(|u| {
            match u.strip_prefix(materialized.base_text()) {
                Some(rest) if rest.is_empty() || rest.starts_with(b"/") => {
                    PathBytes::from(BASE_PLACEHOLDER).join(rest)
                }
                _ => u.clone(),
            }
        }),
        _ => None,
    };
    Ok(Asked::Answered(outcome, used))
}
