//! No two files of this crate use each other in a circle, however far
//! apart (testsupport's reading, the same for every crate).

#[test]
fn no_files_use_each_other_in_a_circle() {
    rootguard_testsupport::layers::assert_no_circle(env!("CARGO_MANIFEST_DIR"));
}
