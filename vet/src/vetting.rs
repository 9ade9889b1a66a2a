//! The entry points of a run: the Linux flavour's ([`crate::run`]: corpus,
//! covering array, random trees, triage) or a modelled flavour's
//! ([`crate::flavoured`]), as [`Options::flavour`] says.

use rootguard_judge::flavour::Flavour;

use crate::checker::Checker;
use crate::run::{Options, Report};
use crate::HarnessError;

/// Vets `checker` in `options.flavour`: on Linux the corpus, the
/// systematic phase, the covering array and random scenarios until the
/// budget or `max_queries` is spent, each finding shrunk and probed; in a
/// modelled flavour its systematic list and respellings, judged by the
/// model.
///
/// # Errors
///
/// [`HarnessError`] when the checker cannot be (re)started or a scenario
/// cannot be materialized at all.
pub fn vet(checker: &mut dyn Checker, options: &Options) -> Result<Report, HarnessError> {
    match options.flavour {
        Flavour::Linux => crate::run::vet(checker, options),
        _ => crate::flavoured::vet_flavoured(checker, options),
    }
}

/// [`vet`] with one checker process per job (all the same checker,
/// started by the caller), each asking its own share of the scenarios.
///
/// # Errors
///
/// [`HarnessError`] when there is no checker, or as [`vet`].
pub fn vet_jobs<C: Checker + Send>(
    checkers: &mut [C],
    options: &Options,
) -> Result<Report, HarnessError> {
    match options.flavour {
        Flavour::Linux => crate::run::vet_jobs(checkers, options),
        _ => crate::flavoured::vet_flavoured_jobs(checkers, options),
    }
}
