//! When `$TMPDIR` holds characters that cannot stand for `{base}`, the
//! materializer falls back to a clean temp directory. Alone in its own test
//! binary, because it sets an environment variable for the whole process.

use std::fs;

use rootguard_judge::{is_clean_path, Materialized, Scenario};

#[test]
fn a_dirty_tmpdir_falls_back_to_a_clean_one() {
    let outer = tempfile::tempdir().expect("temp dir");
    let dirty = outer.path().join("has space'and\"quotes");
    fs::create_dir(&dirty).expect("mkdir");
    std::env::set_var("TMPDIR", &dirty);
    assert_eq!(std::env::temp_dir(), dirty);

    let scenario = Scenario {
        name: "s".into(),
        note: None,
        tree: vec![],
        roots: vec![],
        cases: vec![],
    };
    let m = Materialized::new(&scenario).expect("falls back to a clean temp dir");
    assert!(is_clean_path(m.base()), "{}", m.base().display());
    assert!(!m.base().starts_with(&dirty));
    assert_eq!(
        fs::read_dir(&dirty).expect("lists").count(),
        0,
        "nothing was made in the dirty dir"
    );
    m.close().expect("closes");
}
