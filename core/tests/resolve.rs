//! The component walk (semantics §2) on an in-memory tree: every step of
//! `resolve_target`, named as the kernel names it.

use std::path::PathBuf;

use rootguard::fs::MemFs;
use rootguard::resolve::{resolve_target, resolve_target_traced, ResolveErrorKind};
use rootguard::Op;

fn tree() -> MemFs {
    let mut fs = MemFs::new();
    fs.add_dir("/b/root/sub")
        .add_file("/b/root/file")
        .add_file("/b/out/secret")
        .add_symlink("/b/root/up", "..")
        .add_symlink("/b/root/abs", "/b/out")
        .add_symlink("/b/root/rel", "../out/secret")
        .add_symlink("/b/root/dangle", "../out/new")
        .add_symlink("/b/root/dangle_dir", "../out/newdir/")
        .add_symlink("/b/root/to_sub", "sub")
        .add_symlink("/b/root/sub/deep", "../../out")
        .add_symlink("/b/root/loop1", "loop2")
        .add_symlink("/b/root/loop2", "loop1")
        .add_symlink("/b/root/self", "self")
        .add_symlink("/b/root/empty_dir_link", "sub/")
        .add_symlink("/b/root/to_file_slash", "file/")
        .add_symlink("/b/root/to_slash", "/")
        .add_symlink("/b/root/to_slashes", "//");
    fs
}

fn at(path: &str, op: Op) -> String {
    match resolve_target(&tree(), path, op) {
        Ok(t) => t.path.to_string_lossy().into_owned(),
        Err(e) => format!("{:?}", e.kind),
    }
}

#[test]
fn plain_walks() {
    assert_eq!(at("/", Op::Read), "/");
    assert_eq!(at("/b/root/file", Op::Read), "/b/root/file");
    assert_eq!(at("/b/root//sub/./", Op::Read), "/b/root/sub");
    assert_eq!(at("/b/root/sub/../file", Op::Read), "/b/root/file");
    assert_eq!(at("/../../b/root", Op::Read), "/b/root");
    assert_eq!(at("/b/root/missing", Op::Read), "NotFound");
    assert_eq!(at("/b/root/missing/x", Op::Write), "NotFound");
    assert_eq!(at("/b/root/file/x", Op::Read), "NotADirectory");
    assert_eq!(at("/b/root/file/", Op::Read), "NotADirectory");
    assert_eq!(at("/b/root/file/.", Op::Read), "NotADirectory");
    assert_eq!(at("/b/root/file/..", Op::Read), "NotADirectory");
}

#[test]
fn links_are_followed_physically() {
    assert_eq!(at("/b/root/abs/secret", Op::Read), "/b/out/secret");
    assert_eq!(at("/b/root/rel", Op::Read), "/b/out/secret");
    assert_eq!(at("/b/root/up", Op::Read), "/b");
    assert_eq!(at("/b/root/to_sub/..", Op::Read), "/b/root");
    assert_eq!(at("/b/root/sub/deep/..", Op::Read), "/b");
    assert_eq!(at("/b/root/abs/../root", Op::Read), "/b/root");
    assert_eq!(at("/b/root/loop1", Op::Read), "TooManyLinks");
    assert_eq!(at("/b/root/self/x", Op::Read), "TooManyLinks");
    assert_eq!(at("/b/root/dangle", Op::Read), "NotFound");
    assert_eq!(at("/b/root/to_file_slash", Op::Read), "NotADirectory");
    assert_eq!(at("/b/root/empty_dir_link", Op::Read), "/b/root/sub");
}

#[test]
fn write_targets() {
    assert_eq!(at("/b/root/new", Op::Write), "/b/root/new");
    assert_eq!(at("/b/root/file", Op::Write), "/b/root/file");
    assert_eq!(at("/b/root/dangle", Op::Write), "/b/out/new");
    assert_eq!(at("/b/root/rel", Op::Write), "/b/out/secret");
    assert_eq!(at("/b/root/abs/new", Op::Write), "/b/out/new");
    assert_eq!(at("/b/root/sub", Op::Write), "IsADirectory");
    assert_eq!(at("/b/root/sub/.", Op::Write), "IsADirectory");
    assert_eq!(at("/b/root/sub/..", Op::Write), "IsADirectory");
    assert_eq!(at("/b/root/new/", Op::Write), "TrailingSlash");
    assert_eq!(at("/", Op::Write), "TrailingSlash");
    assert_eq!(at("/b/root/dangle_dir", Op::Write), "NotFound");
    assert_eq!(at("/b/root/empty_dir_link", Op::Write), "IsADirectory");
    assert_eq!(at("/b/root/loop1", Op::Write), "TooManyLinks");
    // Found by the differential against the model: a link to "/".
    assert_eq!(at("/b/root/to_slash", Op::Write), "IsADirectory");
    assert_eq!(at("/b/root/to_slashes", Op::Write), "IsADirectory");
    assert_eq!(at("/b/root/to_slash", Op::Read), "/");
}

#[test]
fn refused_paths() {
    assert_eq!(at("relative", Op::Read), "NotAbsolute");
    assert_eq!(at("", Op::Read), "NotAbsolute");
    assert_eq!(at("/b/\0", Op::Read), "NulByte");
    assert_eq!(
        at(&format!("/b/{}", "x".repeat(256)), Op::Read),
        "NameTooLong"
    );
    assert_eq!(
        at(&format!("/b/{}", "x".repeat(255)), Op::Write),
        format!("/b/{}", "x".repeat(255))
    );
    assert_eq!(
        at(&format!("/{}", "a/".repeat(2048)), Op::Read),
        "PathTooLong"
    );
}

#[test]
fn forty_links_resolve_and_forty_one_do_not() {
    let mut fs = MemFs::new();
    fs.add_dir("/d");
    for i in 0..41 {
        fs.add_symlink(format!("/d/l{i}"), format!("l{}", i + 1));
    }
    fs.add_file("/d/l41");
    assert!(resolve_target(&fs, "/d/l1", Op::Read).is_ok());
    let err = resolve_target(&fs, "/d/l0", Op::Read).unwrap_err();
    assert_eq!(err.kind, ResolveErrorKind::TooManyLinks);
}

#[test]
fn trace_names_each_step() {
    let mut trace = Vec::new();
    resolve_target_traced(&tree(), "/b/root/dangle", Op::Write, &mut trace).unwrap();
    let text: Vec<String> = trace.iter().map(ToString::to_string).collect();
    assert_eq!(
        text,
        [
            "/b (directory)",
            "/b/root (directory)",
            "/b/root/dangle -> ../out/new (symlink)",
            ".. -> /b",
            "/b/out (directory)",
            "/b/out/new (would be created)"
        ]
    );
}

/// A trailing slash makes the last component last all the same: a
/// write there is refused for the slash, whatever the name is, and a
/// read must find a directory.
#[test]
fn a_trailing_slash_is_judged_on_the_last_component() {
    use ResolveErrorKind::{NotADirectory, NotFound, TrailingSlash};
    let fs = tree();
    let cases: &[(&str, Op, Result<&str, ResolveErrorKind>)] = &[
        ("/b/root/new/", Op::Read, Err(NotFound)),
        ("/b/root/new/", Op::Write, Err(TrailingSlash)),
        ("/b/root/new//", Op::Write, Err(TrailingSlash)),
        ("/b/root/dangle/", Op::Read, Err(NotFound)),
        ("/b/root/dangle/", Op::Write, Err(TrailingSlash)),
        ("/b/root/sub/", Op::Read, Ok("/b/root/sub")),
        ("/b/root/sub/", Op::Write, Err(TrailingSlash)),
        ("/b/root/file/", Op::Read, Err(NotADirectory)),
        ("/b/root/file/", Op::Write, Err(TrailingSlash)),
        ("/b/root/up/", Op::Read, Ok("/b")),
    ];
    for (path, op, expected) in cases {
        let got = resolve_target(&fs, path, *op).map_err(|e| e.kind);
        let expected = expected.clone().map(PathBuf::from);
        assert_eq!(got.map(|t| t.path), expected, "{path} {op:?}");
    }
}
