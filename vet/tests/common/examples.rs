//! The example checkers (examples/checkers/) and the table of the defects
//! vet reports for each, from their README: what the tests that vet them
//! share.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use rootguard_testsupport::skip;

/// examples/checkers/ of this repository.
pub fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/checkers")
}

/// Builds the Rust example checkers; `None` after a skip message when
/// cargo fails (their crates cannot be fetched, say), a failure under `CI=true`.
pub fn rust_bins() -> Option<PathBuf> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let manifest = examples().join("rust/Cargo.toml");
    // The checkers' own target dir, whatever CARGO_TARGET_DIR this test runs under.
    let target = examples().join("rust/target");
    let status = Command::new(cargo)
        .args(["build", "--quiet", "--release", "--manifest-path"])
        .arg(&manifest)
        .arg("--target-dir")
        .arg(&target)
        .env_remove("CARGO_TARGET_DIR")
        .status();
    if !status.is_ok_and(|s| s.success()) {
        skip(
            &format!(
                "the Rust example checkers did not build ({})",
                manifest.display()
            ),
            "build them by hand to see why: cargo build --release --manifest-path examples/checkers/rust/Cargo.toml",
        );
        return None;
    }
    Some(target.join("release"))
}

/// One row of the README's table.
#[derive(Debug)]
pub struct Row {
    /// The checker, relative to examples/checkers/.
    pub file: String,
    /// The defects that fail the run.
    pub required: BTreeSet<String>,
    /// What it may also report.
    pub also: BTreeSet<String>,
}

fn ids(cell: &str) -> BTreeSet<String> {
    cell.split('`')
        .filter(|s| s.starts_with("RG-"))
        .map(str::to_owned)
        .collect()
}

/// The table under "The defects vet reports".
pub fn table() -> Vec<Row> {
    let readme = std::fs::read_to_string(examples().join("README.md")).expect("the README");
    let section = readme
        .split("## The defects vet reports")
        .nth(1)
        .expect("the README has the defect table");
    let rows: Vec<Row> = section
        .lines()
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            Row {
                file: cells[1].trim_matches('`').to_owned(),
                required: ids(cells[2]),
                also: ids(cells[3]),
            }
        })
        .collect();
    assert!(rows.len() >= 18, "the table lost rows: {rows:?}");
    rows
}

/// The rows of the checkers whose file begins with `prefix`.
pub fn rows_for(prefix: &str) -> Vec<Row> {
    table()
        .into_iter()
        .filter(|r| r.file.starts_with(prefix))
        .collect()
}

/// The path of an example checker, as an argument.
pub fn script(file: &str) -> String {
    examples().join(file).display().to_string()
}
