//! Beneath-open (`Roots::open`) on hostile scenarios from the strategies:
//! it succeeds only where the verdict is inside, and then it has opened the
//! very inode the kernel truth names. Through both backends.

use std::os::unix::fs::MetadataExt;

use proptest::prelude::*;
use rootguard::open::Backend;
use rootguard::{Roots, Verdict};
use rootguard_judge::bridge::core_op;
use rootguard_judge::strategies::scenario;
use rootguard_judge::{kernel, Materialized, Op, Scenario, Truth};

/// Opens case `index` of a fresh materialization of `s` (a write may create
/// a file, which must not change what later cases see).
fn open_one(s: &Scenario, index: usize, backend: Backend) -> Result<bool, TestCaseError> {
    let tree = Materialized::new(s).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let case = &tree.cases()[index];
    let truth = kernel::judge(tree.roots(), case.path.as_bytes(), case.op);
    if case.op == Op::Write
        && truth
            .target
            .as_ref()
            .is_some_and(|t| !t.starts_with(tree.temp_dir()))
    {
        // A root such as `file:///` grants it, and the open would create a
        // file on the host: beyond what a test may touch.
        tree.close()
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        return Ok(false);
    }
    let roots = Roots::new(tree.roots());
    let verdict = roots.check(&case.path, core_op(case.op));
    let result = roots.open_with(&case.path, core_op(case.op), backend);
    let opened_any = result.is_ok();
    if let Ok((file, opened)) = result {
        prop_assert!(
            matches!(opened, Verdict::Inside { .. }),
            "{:?}: opened with {:?}",
            case.path,
            opened
        );
        prop_assert_eq!(&opened, &verdict);
        prop_assert_eq!(
            truth.truth,
            Truth::Inside,
            "{} {:?} opened, truth: {}",
            case.op,
            case.path,
            truth.explanation
        );
        let target = truth.target.as_ref().expect("inside has a target");
        let (want, got) = (
            std::fs::metadata(target).map_err(|e| TestCaseError::fail(e.to_string()))?,
            file.metadata()
                .map_err(|e| TestCaseError::fail(e.to_string()))?,
        );
        prop_assert_eq!(
            (want.dev(), want.ino()),
            (got.dev(), got.ino()),
            "{} {:?} opened another inode than {:?}",
            case.op,
            case.path,
            target
        );
    }
    tree.close()
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    Ok(opened_any)
}

#[test]
fn beneath_open_succeeds_only_inside_and_opens_the_kernels_target() {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(96);
    let config = ProptestConfig {
        cases,
        source_file: Some(file!()),
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::SourceParallel("proptest-regressions"),
        )),
        ..ProptestConfig::default()
    };
    let opened = std::cell::Cell::new(0usize);
    let result = proptest::test_runner::TestRunner::new(config).run(&scenario(), |s| {
        for index in 0..s.cases.len() {
            for backend in [Backend::Openat2, Backend::Walk] {
                opened.set(opened.get() + usize::from(open_one(&s, index, backend)?));
            }
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    // The property says nothing if nothing ever opens.
    assert!(
        opened.get() >= cases as usize / 8,
        "only {} opens succeeded in {cases} scenarios",
        opened.get()
    );
    println!(
        "beneath-open: {} successful opens over {cases} scenarios",
        opened.get()
    );
}
