//! What the workspace's tests need from the machine, and what happens when
//! it is missing.
//!
//! A test that needs python3, node, npm, an npm or PyPI package, a kernel
//! feature or a sandbox asks here first. On a developer's machine a missing need prints
//! `skipped: …` with the reason and the test returns, passing. Under CI
//! (`CI=true` or `CI=1`) nothing may pass by skipping: the same call panics
//! with what is missing and how to get it, so a machine without node fails
//! the run instead of passing it silently.
//!
//! # Examples
//!
//! ```no_run
//! use rootguard_testsupport::{npm, Tool};
//!
//! let Some(node) = Tool::Node.need("the Node example checkers") else {
//!     return;
//! };
//! let Some(package) = npm::package("path-is-inside", "1.0.2") else {
//!     return;
//! };
//! # let _ = (node, package);
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod child;
mod kernel;
pub mod layers;
mod lock;
pub mod npm;
mod pins;
pub mod pypi;
mod tool;

pub use child::{within, Spawned};
pub use kernel::Kernel;
pub use tool::Tool;

/// Whether this is a CI run: `CI` is `true` or `1` (any case), as CI
/// services and `.ci/run` set it.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1")
}

/// A test cannot run here because of `why`; `fix` says what would let it.
///
/// Locally this prints `skipped: {why}` and returns, and the caller
/// returns too. Under CI it panics with both, since a skipped test there
/// would pass without having run.
///
/// # Panics
///
/// Always, under CI.
pub fn skip(why: &str, fix: &str) {
    if under_ci() {
        panic!("{why}; under CI=true no test may skip: {fix}");
    }
    eprintln!("skipped: {why} (under CI=true this fails: {fix})");
}

/// Whether a condition a test needs holds: `holds`, else [`skip`] with
/// `missing` (what is not there) and `fix`, and `false`. For what
/// testsupport cannot probe itself, such as a working sandbox.
///
/// # Panics
///
/// Under CI, when the condition does not hold.
pub fn require(holds: bool, missing: &str, fix: &str) -> bool {
    if !holds {
        skip(missing, fix);
    }
    holds
}
