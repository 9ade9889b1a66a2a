//! Every hostile class, on a real temp tree and on the same tree in memory.

mod common;

use common::{agreed, kernel_read_target, Tree};
use rootguard::{
    Op::Read, Op::Write, ResolveErrorKind, RootError, RootId, Roots, UriError, Verdict,
};

const ROOT: &[&str] = &["file://{base}/project"];

#[test]
fn sibling_prefixes_are_outside() {
    let mut t = Tree::new();
    t.dir("project");
    for sibling in [
        "project2",
        "project.bak",
        "project ",
        "project'",
        "project-old",
        "projectX",
        "project\u{a0}",
    ] {
        t.file(&format!("{sibling}/secret.txt"));
        for op in [Read, Write] {
            let path = format!("{{base}}/{sibling}/secret.txt");
            assert_eq!(t.verdict(ROOT, &path, op), "outside", "{sibling:?} {op}");
        }
        assert_eq!(
            t.verdict(ROOT, &format!("{{base}}/{sibling}"), Read),
            "outside"
        );
    }
    assert_eq!(t.verdict(ROOT, "{base}/project", Read), "inside");
    assert_eq!(t.verdict(ROOT, "{base}/project/", Read), "inside");
}

#[test]
fn dotdot_climbs() {
    let mut t = Tree::new();
    t.dir("project/sub").file("secret.txt").file("project2/x");
    assert_eq!(
        t.verdict(ROOT, "{base}/project/../secret.txt", Read),
        "outside"
    );
    assert_eq!(
        t.verdict(ROOT, "{base}/project/sub/../../secret.txt", Write),
        "outside"
    );
    assert_eq!(
        t.verdict(ROOT, "{base}/project/../project2/x", Read),
        "outside"
    );
    assert_eq!(
        t.verdict(ROOT, "{base}/project/sub/../new.txt", Write),
        "inside"
    );
    assert_eq!(t.verdict(ROOT, "{base}/project/..", Read), "outside");
    assert_eq!(
        t.verdict(
            ROOT,
            "{base}/../../../../../../../..{base}/project/new",
            Write
        ),
        "inside"
    );
    assert_eq!(
        t.verdict(ROOT, "{base}/project/missing/../new", Write),
        "either"
    );
}

#[test]
fn link_escapes() {
    let mut t = Tree::new();
    t.dir("project/sub")
        .file("outside/secret.txt")
        .link("project/abs", "{base}/outside")
        .link("project/rel", "../outside/secret.txt")
        .link("project/chain1", "chain2")
        .link("project/chain2", "sub/chain3")
        .link("project/sub/chain3", "../../outside")
        .link("project/loop1", "loop2")
        .link("project/loop2", "loop1")
        .link("project/to_sub", "sub")
        .link("project/sub/up", "../..")
        .link("project/to_root", "/")
        .link("project/inner", "sub");
    assert_eq!(
        t.verdict(ROOT, "{base}/project/abs/secret.txt", Read),
        "outside"
    );
    assert_eq!(
        t.verdict(ROOT, "{base}/project/abs/new.txt", Write),
        "outside"
    );
    assert_eq!(t.verdict(ROOT, "{base}/project/rel", Read), "outside");
    assert_eq!(t.verdict(ROOT, "{base}/project/rel", Write), "outside");
    assert_eq!(
        t.verdict(ROOT, "{base}/project/chain1/secret.txt", Read),
        "outside"
    );
    assert_eq!(t.verdict(ROOT, "{base}/project/loop1", Read), "either");
    assert_eq!(t.verdict(ROOT, "{base}/project/loop1", Write), "either");
    assert_eq!(
        t.verdict(
            ROOT,
            "{base}/project/to_root{base}/outside/secret.txt",
            Read
        ),
        "outside"
    );
    assert_eq!(
        t.verdict(ROOT, "{base}/project/to_root{base}/project/new", Write),
        "inside"
    );
    // link/.. is the parent of the link's *target*, not the link's directory.
    assert_eq!(t.verdict(ROOT, "{base}/project/to_sub/..", Read), "inside");
    assert_eq!(
        t.verdict(ROOT, "{base}/project/abs/../project/x", Write),
        "inside"
    );
    assert_eq!(
        t.verdict(ROOT, "{base}/project/sub/up/outside/secret.txt", Read),
        "outside"
    );
    assert_eq!(t.verdict(ROOT, "{base}/project/chain1/..", Read), "outside");
    assert_eq!(t.verdict(ROOT, "{base}/project/inner/new", Write), "inside");
}

#[test]
fn dangling_link_writes_land_where_the_link_points() {
    let mut t = Tree::new();
    t.dir("project")
        .dir("outside")
        .link("project/out", "../outside/created.txt")
        .link("project/out_abs", "{base}/outside/created.txt")
        .link("project/hop", "out")
        .link("project/ok", "new.txt")
        .link("project/nowhere", "../missing_dir/x");
    assert_eq!(t.verdict(ROOT, "{base}/project/out", Write), "outside");
    assert_eq!(t.verdict(ROOT, "{base}/project/out_abs", Write), "outside");
    assert_eq!(t.verdict(ROOT, "{base}/project/hop", Write), "outside");
    assert_eq!(t.verdict(ROOT, "{base}/project/ok", Write), "inside");
    // Nothing to read there, and a write under a missing directory fails.
    assert_eq!(t.verdict(ROOT, "{base}/project/out", Read), "either");
    assert_eq!(t.verdict(ROOT, "{base}/project/nowhere", Write), "either");
}

#[test]
fn writes_beneath_linked_parents() {
    let mut t = Tree::new();
    t.dir("project/real")
        .dir("outside")
        .link("project/parent_out", "../outside")
        .link("project/parent_in", "real")
        .link("project/real/back", "../../outside");
    assert_eq!(
        t.verdict(ROOT, "{base}/project/parent_out/new.txt", Write),
        "outside"
    );
    assert_eq!(
        t.verdict(ROOT, "{base}/project/parent_in/new.txt", Write),
        "inside"
    );
    assert_eq!(
        t.verdict(ROOT, "{base}/project/real/back/new.txt", Write),
        "outside"
    );
    assert_eq!(
        t.verdict(ROOT, "{base}/project/real/back/../project/x", Write),
        "inside"
    );
}

#[test]
fn write_edge_cases_are_either() {
    let mut t = Tree::new();
    t.dir("project/d").file("project/f");
    assert_eq!(t.verdict(ROOT, "{base}/project/d", Write), "either");
    assert_eq!(t.verdict(ROOT, "{base}/project/new/", Write), "either");
    assert_eq!(t.verdict(ROOT, "{base}/project/f/x", Write), "either");
    assert_eq!(t.verdict(ROOT, "{base}/project/missing", Read), "either");
    assert_eq!(t.verdict(ROOT, "{base}/project/f", Write), "inside");
    assert_eq!(t.verdict(ROOT, "relative/path", Read), "either");
    assert_eq!(t.verdict(ROOT, "{base}/project/a\0b", Write), "either");
    let long = format!("{{base}}/project/{}", "n".repeat(256));
    assert_eq!(t.verdict(ROOT, &long, Write), "either");
    let ok = format!("{{base}}/project/{}", "n".repeat(255));
    assert_eq!(t.verdict(ROOT, &ok, Write), "inside");
}

#[test]
fn percent_encoding_in_roots() {
    let mut t = Tree::new();
    t.dir("project/a b").dir("pro%ject").file("secret.txt");
    assert_eq!(
        t.verdict(&["file://{base}/project/%2e%2e"], "{base}/secret.txt", Read),
        "inside"
    );
    assert_eq!(
        t.verdict(
            &["file://{base}/project/%2E%2E/project"],
            "{base}/secret.txt",
            Read
        ),
        "outside"
    );
    assert_eq!(
        t.verdict(&["file://{base}/pro%25ject"], "{base}/pro%ject/x", Write),
        "inside"
    );
    assert_eq!(
        t.verdict(
            &["file://{base}/project/a%20b"],
            "{base}/project/a b/x",
            Write
        ),
        "inside"
    );
    for bad in [
        "file://{base}/project%2F..",
        "file://{base}/project%00",
        "file://{base}/pro%ject",
        "file://{base}/project%2",
    ] {
        assert_eq!(
            t.verdict(&[bad], "{base}/project/x", Write),
            "outside",
            "{bad}"
        );
        let roots = Roots::new([t.sub(bad)]);
        assert!(
            matches!(roots.rejected()[0].reason, RootError::Invalid(_)),
            "{bad}"
        );
    }
}

#[test]
fn hosts_schemes_and_backslashes_grant_nothing() {
    let mut t = Tree::new();
    t.dir("project");
    let base = t.base.to_string_lossy().into_owned();
    type IsExpected = fn(&UriError) -> bool;
    let cases: [(String, IsExpected); 7] = [
        (format!("file://server{base}/project"), |e| {
            matches!(e, UriError::HostNotAllowed { .. })
        }),
        (format!("file://user@localhost{base}/project"), |e| {
            *e == UriError::UserinfoNotAllowed
        }),
        (format!("file://localhost:22{base}/project"), |e| {
            *e == UriError::PortNotAllowed
        }),
        (format!("http://localhost{base}/project"), |e| {
            matches!(e, UriError::NotFileScheme { .. })
        }),
        (format!("file://{base}\\project"), |e| {
            matches!(e, UriError::ForbiddenCharacter { ch: '\\', .. })
        }),
        (format!("file://{base}/project?x=1"), |e| {
            *e == UriError::QueryNotAllowed
        }),
        (format!("{base}/project"), |e| *e == UriError::MissingScheme),
    ];
    for (uri, is_expected) in cases {
        let roots = Roots::new([&uri]);
        assert!(roots.accepted().is_empty(), "{uri}");
        match &roots.rejected()[0].reason {
            RootError::Invalid(e) => assert!(is_expected(e), "{uri}: {e:?}"),
            other => panic!("{uri}: {other:?}"),
        }
        assert!(!roots.check(t.path("project/x"), Write).is_inside());
    }
    // The accepted spellings of the same root.
    for uri in [
        "FILE://{base}/project",
        "file://LOCALHOST{base}/project",
        "file:{base}/project",
    ] {
        assert_eq!(
            t.verdict(&[uri], "{base}/project/x", Write),
            "inside",
            "{uri}"
        );
    }
}

#[test]
fn case_and_unicode_variants_are_different_names() {
    let mut t = Tree::new();
    t.dir("project")
        .dir("Project")
        .dir("PROJECT")
        .dir("caf\u{e9}")
        .dir("cafe\u{301}")
        .dir("\u{ff50}roject");
    for other in ["Project", "PROJECT", "\u{ff50}roject"] {
        assert_eq!(
            t.verdict(ROOT, &format!("{{base}}/{other}/x"), Write),
            "outside",
            "{other}"
        );
    }
    let nfc = &["file://{base}/caf%C3%A9"];
    assert_eq!(t.verdict(nfc, "{base}/caf\u{e9}/x", Write), "inside");
    assert_eq!(t.verdict(nfc, "{base}/cafe\u{301}/x", Write), "outside");
}

#[test]
fn special_roots() {
    let mut t = Tree::new();
    t.dir("project")
        .file("single.txt")
        .file("other.txt")
        .link("via_link", "project")
        .link("broken", "missing");
    // Root = / contains everything.
    assert_eq!(t.verdict(&["file:///"], "{base}/other.txt", Read), "inside");
    assert_eq!(t.verdict(&["file:///"], "/", Read), "inside");
    // Root = a single file grants that file only.
    let file_root = &["file://{base}/single.txt"];
    assert_eq!(t.verdict(file_root, "{base}/single.txt", Write), "inside");
    assert_eq!(t.verdict(file_root, "{base}/other.txt", Read), "outside");
    assert_eq!(t.verdict(file_root, "{base}/single.txt/x", Write), "either");
    // Root through a link: its resolved location is what counts.
    let linked = &["file://{base}/via_link"];
    assert_eq!(t.verdict(linked, "{base}/project/x", Write), "inside");
    assert_eq!(t.verdict(linked, "{base}/via_link/x", Write), "inside");
    // A root that does not resolve grants nothing; the others still count.
    let roots = Roots::new([
        t.sub("file://{base}/broken"),
        t.sub("file://{base}/project"),
    ]);
    assert_eq!(roots.accepted().len(), 1);
    assert!(
        matches!(&roots.rejected()[0].reason, RootError::Unresolvable(e) if e.kind == ResolveErrorKind::NotFound)
    );
    let verdict = roots.check(t.path("project/x"), Write);
    assert!(verdict.is_inside());
    assert_eq!(verdict.root().map(RootId::index), Some(1));
    assert_eq!(verdict.target(), Some(t.path("project/x").as_path()));
    // No roots grant nothing, not even the working directory.
    assert_eq!(t.verdict(&[], "{base}/project/x", Write), "outside");
    assert_eq!(
        t.verdict(&["file://{base}/missing"], "{base}/project/x", Write),
        "outside"
    );
}

#[test]
fn relative_paths_are_refused_even_where_they_exist_from_the_working_directory() {
    // The kernel would open these relative to the working directory; a tool
    // argument must be absolute, so they are unresolvable whatever exists.
    let roots = Roots::new(["file:///"]);
    for relative in [
        ".",
        "..",
        "Cargo.toml",
        "./src",
        "src/lib.rs",
        "src/../Cargo.toml",
    ] {
        for op in [Read, Write] {
            let verdict = roots.check(relative, op);
            assert!(
                matches!(&verdict, Verdict::Unresolvable(e) if e.kind == ResolveErrorKind::NotAbsolute),
                "{relative:?} ({op}): {verdict:?}"
            );
        }
    }
}

#[test]
fn inside_names_the_first_containing_root() {
    let mut t = Tree::new();
    t.dir("a/b/c");
    let roots = Roots::new([
        t.sub("file://{base}/x"),
        t.sub("file://{base}/a/b"),
        t.sub("file://{base}/a"),
    ]);
    let root = |path: &str| roots.check(t.path(path), Read).root().map(RootId::index);
    assert_eq!(root("a/b/c"), Some(1));
    assert_eq!(root("a"), Some(2));
}

/// `inside` names the root the check names, never the one the path's text
/// suggests: a link can carry a path spelled under an outer root into an
/// inner one that comes first, or out of its root into another.
#[test]
fn inside_names_the_checks_root_through_links_between_roots() {
    let mut t = Tree::new();
    t.dir("outer/inner/deep")
        .dir("other")
        .file("outer/plain")
        .link("outer/to_inner", "inner")
        .link("outer/inner/to_outer", "..")
        .link("outer/to_other", "../other")
        .link("other/to_outer", "../outer");
    for order in [
        ["{base}/outer/inner", "{base}/outer", "{base}/other"],
        ["{base}/outer", "{base}/outer/inner", "{base}/other"],
        ["{base}/other", "{base}/outer", "{base}/outer/inner"],
        ["{base}/outer/inner", "{base}/outer/inner", "{base}/outer"],
    ] {
        let uris: Vec<String> = order
            .iter()
            .map(|r| t.sub(&format!("file://{r}")))
            .collect();
        let on_disk = Roots::new(&uris);
        let in_memory = Roots::with_fs(&uris, &t.mem);
        for path in [
            "outer/plain",
            "outer/new",
            "outer/to_inner/deep",
            "outer/to_inner/new",
            "outer/inner/deep",
            "outer/inner/to_outer/plain",
            "outer/to_other/new",
            "other/to_outer/plain",
            "other/new",
        ] {
            for op in [Read, Write] {
                agreed(&on_disk, &in_memory, t.path(path), op);
            }
        }
    }
    // The root `/` holds every path, and with another root is not the only
    // one to ask.
    let slash = Roots::new(["file:///".to_string(), t.sub("file://{base}/outer")]);
    let inside = |roots: &Roots, path: &str| roots.inside(t.path(path), Write).map(RootId::index);
    assert_eq!(inside(&slash, "outer/to_inner/new"), Some(0));
    let outer_first = Roots::new([t.sub("file://{base}/outer"), "file:///".to_string()]);
    assert_eq!(inside(&outer_first, "outer/to_other/new"), Some(1));
    assert_eq!(inside(&outer_first, "outer/to_inner/new"), Some(0));
}

#[test]
fn forty_links_resolve_and_the_forty_first_is_eloop_as_in_the_kernel() {
    let mut t = Tree::new();
    t.file("project/end");
    for i in 0..41 {
        let next = if i == 40 {
            "end".to_string()
        } else {
            format!("l{}", i + 1)
        };
        t.link(&format!("project/l{i}"), &next);
    }
    // l1 needs 40 expansions, l0 needs 41.
    assert_eq!(t.verdict(ROOT, "{base}/project/l1", Read), "inside");
    assert_eq!(t.verdict(ROOT, "{base}/project/l0", Read), "either");
    assert!(kernel_read_target(&t.path("project/l1")).is_some());
    assert!(kernel_read_target(&t.path("project/l0")).is_none());
}

#[test]
fn read_targets_match_the_kernel() {
    let mut t = Tree::new();
    t.dir("project/sub/deep")
        .file("outside/f")
        .file("project/sub/f")
        .link("project/up", "..")
        .link("project/sub/deep/back", "../../../outside")
        .link("project/abs", "{base}/project/sub")
        .link("project/sub/self", ".")
        .link("project/dangling", "nothing")
        .link("project/to_file", "sub/f")
        .link("project/to_file_slash", "sub/f/");
    let paths = [
        "project",
        "project/",
        "project/.",
        "project/..",
        "project/up",
        "project/up/outside/f",
        "project/sub/deep/back/f",
        "project/sub/deep/back/..",
        "project/abs/deep/../f",
        "project/sub/self/self/f",
        "project/dangling",
        "project/to_file",
        "project/to_file/",
        "project/to_file_slash",
        "project/sub/f/..",
        "project//sub///deep/./back",
        "project/sub/missing/..",
        "project/abs/../up/project",
    ];
    let fs = rootguard::fs::RealFs;
    for rel in paths {
        let path = t.path(rel);
        let ours = rootguard::resolve::resolve_target(&fs, &path, Read)
            .ok()
            .map(|target| target.path);
        assert_eq!(ours, kernel_read_target(&path), "{rel}");
    }
}

/// A verdict names the physical target when the path resolved, inside or
/// out, and none when it did not.
#[test]
fn verdicts_name_their_target() {
    let mut t = Tree::new();
    t.dir("project/sub").dir("out").link("project/up", "../out");
    let base = t.path("");
    let roots = Roots::new([format!("file://{}", t.path("project").display())]);
    let inside = roots.check(t.path("project/sub/new"), Write);
    assert!(inside.is_inside());
    assert_eq!(
        inside.target(),
        Some(base.join("project/sub/new").as_path())
    );
    let outside = roots.check(t.path("project/up/x"), Write);
    assert!(!outside.is_inside());
    assert_eq!(outside.target(), Some(base.join("out/x").as_path()));
    let unresolvable = roots.check(t.path("project/missing/x"), Read);
    assert!(matches!(unresolvable, Verdict::Unresolvable(_)));
    assert_eq!(unresolvable.target(), None);
}

/// A verdict's root counts the roots as the caller listed them, rejected
/// ones included, and `Roots::get` finds the root it names; a rejected
/// root or an id beyond the list finds none.
#[test]
fn root_ids_count_the_callers_list_and_get_finds_the_root() {
    let mut t = Tree::new();
    t.dir("a").dir("b");
    let uris = [
        "file://server/share".to_string(),
        t.sub("file://{base}/missing"),
        t.sub("file://{base}/a"),
        t.sub("file://{base}/b"),
    ];
    let roots = Roots::new(&uris);
    assert_eq!(roots.rejected().len(), 2);
    for (dir, index) in [("a", 2), ("b", 3)] {
        let id = roots
            .check(t.path(dir).join("new"), Write)
            .root()
            .expect("inside");
        assert_eq!(id.index(), index);
        let root = roots.get(id).expect("accepted");
        assert_eq!((root.uri.as_str(), root.id()), (uris[index].as_str(), id));
        assert_eq!(root.resolved, t.path(dir));
    }
    let rejected = Roots::new([uris[0].as_str(), uris[2].as_str()]);
    let id = rejected.inside(t.path("a/new"), Write).expect("inside");
    assert_eq!(id.index(), 1);
    assert_eq!(rejected.get(id).map(|r| r.index), Some(1));
    // The rejected root's id, and an id beyond the list, name no root.
    let first = roots.inside(t.path("a/x"), Write).expect("inside");
    let one = Roots::new([uris[2].as_str()]);
    assert_eq!(one.get(first), None, "root #2 of a one-root list");
    let only_rejected = Roots::new(["file://server/share", uris[2].as_str()]);
    let zero = one.inside(t.path("a/x"), Write).expect("inside");
    assert_eq!(zero.index(), 0);
    assert_eq!(only_rejected.get(zero), None, "root #0 was rejected");
}
