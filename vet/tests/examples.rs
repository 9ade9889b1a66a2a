//! Vets every example checker (examples/checkers/): each flawed one is
//! caught within 30 s with a minimal scenario of at most 4 tree entries;
//! the sound ones pass.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use rootguard_vet::{vet, Options, ProcessChecker};

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/checkers")
}

fn have(tool: &str) -> bool {
    let ok = Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: {tool} is not available, so its example checkers are not vetted");
    }
    ok
}

/// Builds the Rust example checkers; `None` (and a message) when cargo fails.
fn rust_bins() -> Option<PathBuf> {
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
        eprintln!(
            "skipped: the Rust example checkers did not build ({})",
            manifest.display()
        );
        return None;
    }
    Some(target.join("release"))
}

fn command(parts: &[&str]) -> Vec<OsString> {
    parts.iter().map(OsString::from).collect()
}

fn catches(name: &str, command: Vec<OsString>) {
    let start = Instant::now();
    let mut checker = ProcessChecker::start(command, Duration::from_secs(2)).unwrap();
    let options = Options {
        budget: Duration::from_secs(30),
        seed: 1,
        fail_fast: true,
        ..Options::default()
    };
    let report = vet(&mut checker, &options).unwrap();
    let took = start.elapsed();
    let text = rootguard_vet::report::text(&report, false);
    assert!(report.escapes() > 0, "{name}: no escape found\n{text}");
    assert!(
        took < Duration::from_secs(30),
        "{name}: caught only after {took:?}"
    );
    let minimal = report
        .findings
        .iter()
        .find(|f| f.class.is_escape() && f.shrunk)
        .expect("a shrunk escape");
    assert!(
        minimal.scenario.tree.len() <= 4,
        "{name}: minimal scenario too big\n{text}"
    );
    eprintln!(
        "{name}: caught in {took:.2?} ({} queries): {}",
        report.queries, minimal.request
    );
}

fn passes(name: &str, command: Vec<OsString>) {
    let mut checker = ProcessChecker::start(command, Duration::from_secs(2)).unwrap();
    let options = Options {
        budget: Duration::from_secs(5),
        seed: 1,
        ..Options::default()
    };
    let report = vet(&mut checker, &options).unwrap();
    let text = rootguard_vet::report::text(&report, false);
    assert!(!report.failed(false), "{name} should pass\n{text}");
    eprintln!("{name}: passed {} queries", report.queries);
}

fn script(lang: &str, file: &str) -> String {
    examples().join(lang).join(file).display().to_string()
}

#[test]
fn python_checkers() {
    if !have("python3") {
        return;
    }
    passes(
        "python/sound.py",
        command(&["python3", &script("python", "sound.py")]),
    );
    for file in [
        "sibling_prefix.py",
        "case_folding.py",
        "uri_decoding.py",
        "empty_roots.py",
        "backslash_separator.py",
        "unicode_nfkc.py",
    ] {
        catches(file, command(&["python3", &script("python", file)]));
    }
}

#[test]
fn node_checkers() {
    if !have("node") {
        return;
    }
    passes(
        "node/sound.js",
        command(&["node", &script("node", "sound.js")]),
    );
    for file in [
        "lexical_only.js",
        "missing_file_fallback.js",
        "one_level_link.js",
        "swallowed_denial.js",
        "percent_decoded_path.js",
        "trimmed_path.js",
    ] {
        catches(file, command(&["node", &script("node", file)]));
    }
}

#[test]
fn rust_checkers() {
    let Some(bins) = rust_bins() else { return };
    let bin = |name: &str| vec![bins.join(name).into_os_string()];
    passes("rust sound", bin("sound"));
    for name in ["clean_before_resolve", "dangling_write", "uri_any_host"] {
        catches(name, bin(name));
    }
}
