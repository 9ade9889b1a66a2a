//! `pypi::venv` installs a named package once and reuses it.

use rootguard_testsupport::pypi;

#[test]
#[ignore = "full tier: installs a PyPI package"]
fn a_venv_is_made_once_and_reused() {
    let cache = tempfile::tempdir().expect("a temp dir");
    // The only test of this binary, so the variable is seen by it alone.
    std::env::set_var("ROOTGUARD_PYPI_CACHE", cache.path());
    let Some(venv) = pypi::venv("six") else {
        return;
    };
    let pinned = pypi::requirements("six")[0].trim_start_matches("six==");
    let python = venv.join("bin/python");
    let version = std::process::Command::new(&python)
        .args(["-c", "import six; print(six.__version__)"])
        .output()
        .expect("the venv's python runs");
    assert_eq!(String::from_utf8_lossy(&version.stdout).trim(), pinned);
    let made = std::fs::metadata(&python).and_then(|m| m.modified()).ok();
    assert_eq!(pypi::venv("six"), Some(venv.clone()));
    assert_eq!(
        std::fs::metadata(&python).and_then(|m| m.modified()).ok(),
        made,
        "the second call reused the venv"
    );
}
