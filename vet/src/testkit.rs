//! Vetting a checker written in Rust in-process, from `cargo test`.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use crate::checker::{Answer, Checker, Reply, Request};
use crate::run::{Options, Report};
use crate::vetting::vet;
use crate::HarnessError;

/// A closure `Fn(roots, path, op) -> Answer` as a [`Checker`]; a panic is
/// reported as a crash.
pub struct FnChecker<F>(pub F);

impl<F> std::fmt::Debug for FnChecker<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FnChecker")
    }
}

impl<F> Checker for FnChecker<F>
where
    F: Fn(&[&str], &Path, rootguard::Op) -> Answer,
{
    fn ask(&mut self, request: &Request) -> Result<Reply, HarnessError> {
        let roots: Vec<&str> = request.roots.iter().map(String::as_str).collect();
        let path = Path::new(OsStr::from_bytes(request.path.as_bytes()));
        let op = rootguard_judge::bridge::core_op(request.op);
        Ok(
            match catch_unwind(AssertUnwindSafe(|| (self.0)(&roots, path, op))) {
                Ok(answer) => Reply::Answer(answer),
                Err(_) => Reply::Crash("the checker panicked".to_owned()),
            },
        )
    }
}

/// Vets a checker written as a closure, in-process: the same corpus, random
/// scenarios, judging and shrinking as `rootguard vet`.
///
/// # Errors
///
/// [`HarnessError`] when the corpus or a temp dir cannot be set up.
///
/// # Examples
///
/// Vetting `rootguard::Roots` itself finds no escape:
///
/// ```
/// use std::time::Duration;
/// use rootguard_vet::{vet_fn, Answer, Options};
///
/// let options = Options { budget: Duration::from_secs(1), seed: 7, ..Options::default() };
/// let report = vet_fn(
///     |roots, path, op| {
///         let roots = rootguard::Roots::new(roots.iter().copied());
///         if roots.check(path, op).is_inside() { Answer::allow() } else { Answer::deny() }
///     },
///     &options,
/// )?;
/// assert_eq!(report.escapes(), 0, "{}", rootguard_vet::report::text(&report, false));
/// # Ok::<(), rootguard_vet::HarnessError>(())
/// ```
pub fn vet_fn<F>(checker: F, options: &Options) -> Result<Report, HarnessError>
where
    F: Fn(&[&str], &Path, rootguard::Op) -> Answer,
{
    vet(&mut FnChecker(checker), options)
}
