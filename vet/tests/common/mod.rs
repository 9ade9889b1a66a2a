//! What the adapter tests share: the repository's root, and one vet run
//! of an adapter, which must never hang, crash or break the protocol
//! whatever the package behind it does.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rootguard_vet::{vet, Class, Options, ProcessChecker, Report};

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .expect("the repository root")
}

/// Vets `command` (an answer may take up to `timeout`) with `options`,
/// prints the report under `label`, and asserts no hang, crash or
/// protocol error.
pub fn vet_adapter(
    label: &str,
    command: Vec<OsString>,
    timeout: Duration,
    options: &Options,
) -> Report {
    let mut checker = ProcessChecker::start(command, timeout).unwrap();
    let report = vet(&mut checker, options).unwrap();
    eprintln!(
        "---- {label}\n{}",
        rootguard_vet::report::text(&report, false)
    );
    for class in [Class::Hang, Class::Crash, Class::ProtocolError] {
        assert_eq!(report.count(class), 0, "{label}: {class}");
    }
    report
}
