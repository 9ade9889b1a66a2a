//! `PinnedRoots::inside` and `check`: the answers of `Roots` while the
//! roots stay where they were pinned (every hostile test holds them to
//! that, through `common::agreed`), and answers beneath the directory
//! pinned once a root moves, which is also how these tests see that the
//! shortcut answered rather than the full check.

mod common;

use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};

use common::{backends, Tree};
use rootguard::open::{Backend, OpenError};
use rootguard::{Op, PinnedRoots, RootId, Roots, Verdict};

/// `root/` with `file`, `sub/inner`, links in and out, and `out/secret`
/// beside it; `alias -> root`.
fn tree() -> Tree {
    let mut t = Tree::new();
    t.file("root/file")
        .file("root/sub/inner")
        .file("out/secret")
        .link("root/to_sub", "sub")
        .link("root/to_out", "../out/secret")
        .link("root/back", "../root/file")
        .link("root/dangling", "sub/new")
        .link("alias", "root");
    t
}

/// Pins `uris` (with `{base}`) on `backend`, and pins every root at once
/// by asking about a path beneath it.
fn pinned(t: &Tree, uris: &[&str], backend: Backend) -> PinnedRoots {
    let roots = Roots::new(uris.iter().map(|uri| t.sub(uri)));
    let pinned = roots.pin().with_backend(backend);
    for root in pinned.roots().accepted() {
        pinned.inside(root.path.join("x"), Op::Write);
    }
    pinned
}

fn index(id: Option<RootId>) -> Option<usize> {
    id.map(RootId::index)
}

/// The root and target of an inside verdict.
fn inside_at(verdict: Verdict) -> Option<(usize, PathBuf)> {
    match verdict {
        Verdict::Inside { root, target } => Some((root.index(), target)),
        _ => None,
    }
}

/// The documented difference: once the root's directory is renamed, a path
/// the pinned directory vouches for is judged there; every other path by
/// what it names now.
#[test]
fn a_moved_root_is_judged_beneath_the_directory_pinned() {
    for backend in backends() {
        let t = tree();
        let pinned = pinned(&t, &["file://{base}/root"], backend);
        std::fs::rename(t.path("root"), t.path("moved")).unwrap();
        let by_path = Roots::new([t.sub("file://{base}/root")]);
        let moved = |rel: &str| t.path("moved").join(rel);
        for (rel, op, target) in [
            ("file", Op::Read, moved("file")),
            ("to_sub/inner", Op::Read, moved("sub/inner")),
            ("sub", Op::Read, moved("sub")),
            ("new", Op::Write, moved("new")),
            ("file", Op::Write, moved("file")),
            ("to_sub/new", Op::Write, moved("sub/new")),
        ] {
            let path = t.path("root").join(rel);
            let what = format!("{backend:?} {op} {rel}");
            assert_eq!(index(pinned.inside(&path, op)), Some(0), "{what}");
            assert_eq!(
                inside_at(pinned.check(&path, op)),
                Some((0, target)),
                "{what}"
            );
            // The root's path leads nowhere now.
            assert_eq!(by_path.inside(&path, op), None, "{what}");
        }
        // What the pinned directory cannot vouch for gets the full check:
        // a link that leaves and comes back, a path that is not normal,
        // the root itself, a final link on a write, a missing name.
        for (rel, op) in [
            ("back", Op::Read),
            ("./file", Op::Read),
            ("sub/../file", Op::Read),
            ("", Op::Read),
            ("dangling", Op::Write),
            ("missing", Op::Read),
            ("to_out", Op::Read),
        ] {
            let path = match rel {
                "" => t.path("root"),
                rel => t.path("root").join(rel),
            };
            let what = format!("{backend:?} {op} {rel:?}");
            assert_eq!(pinned.inside(&path, op), None, "{what}");
            assert!(
                matches!(pinned.check(&path, op), Verdict::Unresolvable(_)),
                "{what}"
            );
        }
        // Open checks by path, as it always has: it refuses what the path
        // no longer reaches, though inside accepts it.
        let file = t.path("root/file");
        assert!(matches!(
            pinned.open(&file, Op::Read),
            Err(OpenError::Unresolvable(_))
        ));

        // Something else at the root's path: it decides what the pinned
        // directory cannot.
        let mut t = t;
        t.link("root/file", "../out/secret");
        std::fs::write(t.path("root/only_new"), "").unwrap();
        assert_eq!(index(pinned.inside(&file, Op::Read)), Some(0));
        assert!(!Roots::new([t.sub("file://{base}/root")])
            .check(&file, Op::Read)
            .is_inside());
        assert!(matches!(
            pinned.open(&file, Op::Read),
            Err(OpenError::Outside { .. })
        ));
        let only_new = t.path("root/only_new");
        assert_eq!(
            inside_at(pinned.check(&only_new, Op::Read)),
            Some((0, only_new.clone()))
        );
    }
}

/// A root reached through a link is pinned at the directory the link led
/// to, and a path spelled through the link is judged beneath it, even once
/// the link leads elsewhere.
#[test]
fn a_root_spelled_through_a_link_is_judged_beneath_its_directory() {
    for backend in backends() {
        let t = tree();
        let pinned = pinned(&t, &["file://{base}/alias"], backend);
        let spelled = t.path("alias/sub/inner");
        let real = t.path("root/sub/inner");
        for path in [&spelled, &real] {
            assert_eq!(
                inside_at(pinned.check(path, Op::Read)),
                Some((0, real.clone())),
                "{backend:?} {}",
                path.display()
            );
        }
        std::fs::remove_file(t.path("alias")).unwrap();
        std::os::unix::fs::symlink("out", t.path("alias")).unwrap();
        assert_eq!(index(pinned.inside(&spelled, Op::Read)), Some(0));
        assert_eq!(
            index(pinned.inside(t.path("alias/new"), Op::Write)),
            Some(0)
        );
        let by_path = Roots::new([t.sub("file://{base}/alias")]);
        assert_eq!(by_path.inside(&spelled, Op::Read), None);
        // The link leads to out/ now: its secret is not beneath the root.
        let secret = t.path("alias/secret");
        assert_eq!(pinned.inside(&secret, Op::Read), None);
        assert!(matches!(
            pinned.check(&secret, Op::Read),
            Verdict::Outside { .. }
        ));
    }
}

/// Only a root with no other root beneath it answers from its directory:
/// beneath the outer of two nested roots, a link may lead into the inner
/// one, which comes first.
#[test]
fn nested_roots_answer_beneath_the_innermost_only() {
    for backend in backends() {
        let t = {
            let mut t = tree();
            t.link("root/sub/up", "..");
            t
        };
        let uris = ["file://{base}/root/sub", "file://{base}/root"];
        let pinned = pinned(&t, &uris, backend);
        std::fs::rename(t.path("root"), t.path("moved")).unwrap();
        // Beneath the inner root: its directory (now moved/sub) answers.
        assert_eq!(
            index(pinned.inside(t.path("root/sub/inner"), Op::Read)),
            Some(0)
        );
        assert_eq!(
            index(pinned.inside(t.path("root/sub/new"), Op::Write)),
            Some(0)
        );
        // Beneath the outer root only: the full check, and root/ is gone.
        assert_eq!(pinned.inside(t.path("root/file"), Op::Read), None);
        assert_eq!(pinned.inside(t.path("root/new"), Op::Write), None);
        // `..` out of the inner root is refused beneath it: the full check.
        assert_eq!(pinned.inside(t.path("root/sub/up/file"), Op::Read), None);
    }
}

/// A root that is a single file has no directory to answer from: its
/// path gets the full check, and a path beneath it is unresolvable.
#[test]
fn a_file_root_gets_the_full_check() {
    for backend in backends() {
        let t = tree();
        let pinned = pinned(&t, &["file://{base}/root/file"], backend);
        let file = t.path("root/file");
        assert_eq!(index(pinned.inside(&file, Op::Read)), Some(0));
        assert_eq!(index(pinned.inside(&file, Op::Write)), Some(0));
        assert!(matches!(
            pinned.check(file.join("x"), Op::Write),
            Verdict::Unresolvable(_)
        ));
        std::fs::rename(&file, t.path("root/old")).unwrap();
        assert_eq!(pinned.inside(&file, Op::Read), None);
    }
}

/// A path of PATH_MAX bytes or more cannot be opened, though the rest of it
/// beneath the root is short enough to be: it is unresolvable, pinned or
/// not.
#[test]
fn a_path_too_long_for_the_kernel_is_unresolvable_beneath_a_pinned_root() {
    let t = tree();
    // 16 directories of 250-byte names beneath root/, made one beneath the
    // other (their whole paths are too long to make by path).
    let name = "n".repeat(250);
    let mut dir: OwnedFd = rustix::fs::open(
        t.path("root"),
        rustix::fs::OFlags::DIRECTORY | rustix::fs::OFlags::CLOEXEC,
        rustix::fs::Mode::empty(),
    )
    .unwrap();
    for _ in 0..16 {
        rustix::fs::mkdirat(
            dir.as_fd(),
            name.as_str(),
            rustix::fs::Mode::from_raw_mode(0o755),
        )
        .unwrap();
        dir = rustix::fs::openat(
            dir.as_fd(),
            name.as_str(),
            rustix::fs::OFlags::DIRECTORY | rustix::fs::OFlags::CLOEXEC,
            rustix::fs::Mode::empty(),
        )
        .unwrap();
    }
    let mut rest: PathBuf = (0..16).map(|_| name.as_str()).collect();
    let root = t.path("root");
    let last = 4090 - rest.as_os_str().len() - 1;
    rest.push("f".repeat(last));
    let path = root.join(&rest);
    assert_eq!(rest.as_os_str().len(), 4090);
    assert!(path.as_os_str().len() >= rootguard::limits::PATH_MAX);
    // The rest alone is short enough to open beneath the root.
    let root_fd =
        rustix::fs::open(&root, rustix::fs::OFlags::PATH, rustix::fs::Mode::empty()).unwrap();
    let parent = rest.parent().unwrap();
    assert!(rustix::fs::openat(
        root_fd.as_fd(),
        parent,
        rustix::fs::OFlags::PATH,
        rustix::fs::Mode::empty()
    )
    .is_ok());
    for backend in backends() {
        let pinned = pinned(&t, &["file://{base}/root"], backend);
        assert_eq!(pinned.inside(&path, Op::Write), None, "{backend:?}");
        assert!(matches!(
            pinned.check(&path, Op::Write),
            Verdict::Unresolvable(_)
        ));
    }
}

/// Many threads ask one set of pinned roots at once, and the first use
/// pins each root once.
#[test]
fn pinned_roots_answer_from_many_threads() {
    let t = tree();
    let uris = [t.sub("file://{base}/root"), t.sub("file://{base}/out")];
    let pinned = Roots::new(&uris).pin();
    let file = t.path("root/to_sub/inner");
    let secret = t.path("out/secret");
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                for _ in 0..200 {
                    assert_eq!(index(pinned.inside(&file, Op::Read)), Some(0));
                    assert_eq!(index(pinned.inside(&secret, Op::Write)), Some(1));
                }
            });
        }
    });
    assert_eq!(
        pinned.check(Path::new(&file), Op::Read).target(),
        Some(t.path("root/sub/inner").as_path())
    );
}

/// Nothing on the way is opened for reading: a FIFO opened so would block
/// the server until a writer came. A read of it, or a write beneath it,
/// through a link (so that the path is not link-free) answers at once.
#[test]
fn nothing_on_the_way_is_opened_for_reading_not_even_a_fifo() {
    let mut t = tree();
    t.link("root/to_pipe", "sub/pipe");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        t.path("root/sub/pipe"),
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .unwrap();
    for backend in backends() {
        let pinned = pinned(&t, &["file://{base}/root"], backend);
        for (rel, op, inside) in [
            ("to_pipe", Op::Read, Some(0)),
            ("to_sub/pipe", Op::Read, Some(0)),
            ("to_pipe/new", Op::Write, None),
            ("to_sub/pipe/new", Op::Write, None),
        ] {
            let path = t.path("root").join(rel);
            assert_eq!(index(pinned.inside(&path, op)), inside, "{backend:?} {rel}");
        }
    }
}
