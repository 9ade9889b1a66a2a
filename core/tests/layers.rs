//! core/src flows one way: no files may use each other in a circle, and a
//! top-level module may use only the modules listed above it in lib.rs's
//! layer comment. The reading is testsupport's
//! ([`rootguard_testsupport::layers`]), the same for every crate.

use rootguard_testsupport::layers::{
    assert_layered, assert_no_circle, file_name, names, read_src, uses,
};

#[test]
fn no_files_use_each_other_in_a_circle() {
    assert_no_circle(env!("CARGO_MANIFEST_DIR"));
}

#[test]
fn each_module_uses_only_the_layers_below_it() {
    assert_layered(env!("CARGO_MANIFEST_DIR"));
}

/// The reader finds the uses that are there in core (a reader that found
/// none would pass every check).
#[test]
fn the_reader_sees_core_s_uses() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let uses = uses(&read_src(&src));
    for (from, to) in [
        (names(&["realfs"]), names(&["beneath"])),
        (names(&["roots"]), names(&["index"])),
        (names(&["opening", "beneath_roots"]), names(&["beneath"])),
        (
            names(&["opening", "pinned"]),
            names(&["opening", "beneath_roots"]),
        ),
        (names(&["index", "few"]), names(&["index", "testing"])),
        (names(&["beneath", "tests"]), names(&["beneath"])),
        (names(&["seam"]), names(&["op"])),
        (names(&[]), names(&["opening"])),
    ] {
        assert!(
            uses.get(&from).is_some_and(|used| used.contains(&to)),
            "{} should be seen to use {}",
            file_name(&from),
            file_name(&to)
        );
    }
}
