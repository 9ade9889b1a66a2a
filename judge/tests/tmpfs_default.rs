//! With `$TMPDIR` unset the materializer makes its trees on tmpfs
//! (`/dev/shm`) when it has room; a `$TMPDIR` the user sets wins. Alone in
//! its own test binary, because it changes the process's environment.

use std::path::Path;

use rootguard_judge::{clean_temp_parent, has_room, Materialized, Scenario, TMPFS_ROOM};
use rootguard_testsupport::under_ci;

fn empty() -> Scenario {
    Scenario {
        name: "s".into(),
        note: None,
        tree: vec![],
        roots: vec![],
        cases: vec![],
    }
}

#[test]
fn trees_go_to_tmpfs_unless_tmpdir_says_otherwise() {
    let shm = Path::new("/dev/shm");
    let usable = has_room(shm, TMPFS_ROOM);
    assert!(
        usable || !under_ci(),
        "CI: /dev/shm is missing or has less than {TMPFS_ROOM} bytes free: give the runner a tmpfs /dev/shm (docker: --shm-size=256m)"
    );

    std::env::remove_var("TMPDIR");
    let parent = clean_temp_parent().expect("a clean temp parent");
    assert_eq!(parent == shm, usable, "{}", parent.display());
    let m = Materialized::new(&empty()).expect("materializes");
    assert_eq!(m.temp_dir().parent(), Some(parent.as_path()));
    let made = m.temp_dir().to_path_buf();
    m.close().expect("closes");
    assert!(!made.exists(), "{} is left behind", made.display());

    let chosen = tempfile::tempdir_in("/tmp").expect("a dir in /tmp");
    let chosen_path = chosen.path().canonicalize().expect("canonical");
    std::env::set_var("TMPDIR", &chosen_path);
    assert_eq!(clean_temp_parent().expect("clean"), chosen_path);
    let m = Materialized::new(&empty()).expect("materializes");
    assert!(m.base().starts_with(&chosen_path), "{}", m.base().display());
    m.close().expect("closes");
}
