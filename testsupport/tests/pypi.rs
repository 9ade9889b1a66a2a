//! `pypi::venv` installs a named package once and reuses it.

use rootguard_testsupport::pypi;

#[test]
fn a_venv_is_made_once_and_reused() {
    let cache = tempfile::tempdir().expect("a temp dir");
    // The only test of this binary, so the variable is seen by it alone.
    std::env::set_var("ROOTGUARD_PYPI_CACHE", cache.path());
    let Some(venv) = pypi::venv("six", &["six==1.16.0"]) else {
        return;
    };
    let python = venv.join("bin/python");
    let version = std::process::Command::new(&python)
        .args(["-c", "import six; print(six.__version__)"])
        .output()
        .expect("the venv's python runs");
    assert_eq!(String::from_utf8_lossy(&version.stdout).trim(), "1.16.0");
    let made = std::fs::metadata(&python).and_then(|m| m.modified()).ok();
    assert_eq!(pypi::venv("six", &["six==1.16.0"]), Some(venv.clone()));
    assert_eq!(
        std::fs::metadata(&python).and_then(|m| m.modified()).ok(),
        made,
        "the second call reused the venv"
    );
}
