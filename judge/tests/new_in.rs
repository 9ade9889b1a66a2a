//! `Materialized::new_in(scenario, dir)` makes its temp dir in `dir`,
//! whatever `$TMPDIR` says, and refuses a directory that cannot hold a
//! clean base. Alone in its own test binary, and one test, because it
//! sets an environment variable for the whole process.

use std::fs;

use rootguard_judge::{Document, MaterializeError, Materialized};

fn scenario() -> rootguard_judge::Scenario {
    Document::from_json(
        r#"{"version": 1, "scenarios": [{"name": "s",
            "tree": [{"file": "d/f", "content": "hi"}], "roots": ["file://{base}/d"], "cases": []}]}"#,
    )
    .expect("parses")
    .scenarios
    .remove(0)
}

/// One test: the other one's temp dirs would follow the TMPDIR set here.
#[test]
fn the_tree_goes_into_the_dir_given_not_tmpdir() {
    a_dir_that_cannot_hold_a_clean_base_is_refused_naming_it();
    let chosen = tempfile::tempdir().expect("temp dir");
    let elsewhere = tempfile::tempdir().expect("temp dir");
    std::env::set_var("TMPDIR", elsewhere.path());
    let real = fs::canonicalize(chosen.path()).expect("resolves");

    let m = Materialized::new_in(&scenario(), chosen.path()).expect("lays");
    assert_eq!(m.temp_dir().parent(), Some(real.as_path()));
    assert!(m.base().starts_with(&real));
    assert_eq!(
        fs::read_to_string(m.base().join("d/f")).expect("laid"),
        "hi"
    );
    assert_eq!(m.roots()[0], format!("file://{}/d", m.base().display()));
    assert_eq!(fs::read_dir(elsewhere.path()).expect("lists").count(), 0);
    let temp = m.temp_dir().to_path_buf();
    drop(m);
    assert!(!temp.exists(), "removed on drop");
    assert_eq!(fs::read_dir(&real).expect("lists").count(), 0);
}

fn a_dir_that_cannot_hold_a_clean_base_is_refused_naming_it() {
    let outer = tempfile::tempdir().expect("temp dir");
    let dirty = outer.path().join("has space");
    fs::create_dir(&dirty).expect("mkdir");
    let file = outer.path().join("file");
    fs::write(&file, "").expect("write");
    for dir in [dirty.clone(), file, outer.path().join("missing")] {
        match Materialized::new_in(&scenario(), &dir) {
            Err(e @ MaterializeError::UnusableDir { .. }) => {
                assert!(e.to_string().contains(&dir.display().to_string()), "{e}");
            }
            other => panic!("{}: {other:?}", dir.display()),
        }
    }
    assert_eq!(fs::read_dir(&dirty).expect("lists").count(), 0);
}
