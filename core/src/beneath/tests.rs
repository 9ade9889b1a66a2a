//! The two backends as each other's oracle: every path of a hostile tree,
//! opened with every flag set, must give the same file or the same errno.

use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};

use rustix::fs::{open, Mode, OFlags};
use rustix::io::Errno;

use super::{Engine, Scope};

/// A hostile tree under a fresh temp dir: `root/` (opened as the root) and
/// `out/` beside it.
struct Tree {
    _dir: tempfile::TempDir,
    base: PathBuf,
    root: OwnedFd,
}

fn tree() -> Tree {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().canonicalize().unwrap();
    let b = base.display().to_string();
    for d in ["root/sub", "out/dir"] {
        std::fs::create_dir_all(base.join(d)).unwrap();
    }
    for f in ["root/file", "root/sub/inner", "out/secret"] {
        std::fs::write(base.join(f), f).unwrap();
    }
    let links: &[(&str, String)] = &[
        ("root/to_sub", "sub".into()),
        ("root/abs_in", format!("{b}/root/sub")),
        ("root/abs_out", format!("{b}/out")),
        ("root/rel_out", "../out/secret".into()),
        ("root/up", "..".into()),
        ("root/chain1", "chain2".into()),
        ("root/chain2", "sub/../file".into()),
        ("root/loop1", "loop2".into()),
        ("root/loop2", "loop1".into()),
        ("root/self", "self".into()),
        ("root/dangle_in", "sub/new_in".into()),
        ("root/dangle_out", "../out/new_out".into()),
        ("root/dangle_dir", "sub/newdir/".into()),
        ("root/file_slash", "file/".into()),
        ("root/dir_slash", "sub/".into()),
        ("root/sub/back", "../../root/file".into()),
        ("root/sub/deep", "../../out".into()),
        ("root/sub/parent", "..".into()),
        ("root/proc", "/proc/self/root".into()),
    ];
    for (at, target) in links {
        std::os::unix::fs::symlink(target, base.join(at)).unwrap();
    }
    for i in 0..41 {
        std::os::unix::fs::symlink(format!("l{}", i + 1), base.join(format!("root/l{i}"))).unwrap();
    }
    std::fs::write(base.join("root/l41"), "end").unwrap();
    let root = open(
        base.join("root"),
        OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .unwrap();
    Tree {
        _dir: dir,
        base,
        root,
    }
}

const PATHS: &[&str] = &[
    "",
    ".",
    "..",
    "./",
    "file",
    "file/",
    "file/.",
    "file/..",
    "sub",
    "sub/",
    "sub/..",
    "sub/../file",
    "sub/../..",
    "missing",
    "missing/",
    "missing/x",
    "to_sub",
    "to_sub/",
    "to_sub/inner",
    "to_sub/..",
    "to_sub/../file",
    "abs_in",
    "abs_in/inner",
    "abs_out/secret",
    "rel_out",
    "up",
    "up/root/file",
    "up/out/secret",
    "chain1",
    "loop1",
    "self/x",
    "dangle_in",
    "dangle_out",
    "dangle_dir",
    "file_slash",
    "dir_slash",
    "sub/back",
    "sub/deep/secret",
    "sub/deep/..",
    "sub/parent/file",
    "sub/parent/..",
    "/etc",
    "//file",
    "new",
    "new/",
    "sub/new",
    "to_sub/new",
    "l0",
    "l1",
    "proc",
    "proc/etc",
    "sub/inner/x",
];

fn flag_sets() -> Vec<(OFlags, &'static str)> {
    vec![
        (OFlags::RDONLY, "RDONLY"),
        (OFlags::PATH, "PATH"),
        (OFlags::PATH | OFlags::NOFOLLOW, "PATH|NOFOLLOW"),
        (OFlags::RDONLY | OFlags::DIRECTORY, "RDONLY|DIRECTORY"),
        (OFlags::WRONLY, "WRONLY"),
        (OFlags::WRONLY | OFlags::CREATE, "WRONLY|CREAT"),
        (
            OFlags::WRONLY | OFlags::CREATE | OFlags::NOFOLLOW,
            "WRONLY|CREAT|NOFOLLOW",
        ),
        (
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL,
            "WRONLY|CREAT|EXCL",
        ),
    ]
}

/// What an open gave: the file's path relative to the temp dir, or the errno.
fn outcome(tree: &Tree, result: Result<OwnedFd, Errno>) -> Result<String, Errno> {
    let fd = result?;
    let link = std::fs::read_link(format!("/proc/self/fd/{}", fd.as_raw_fd())).unwrap();
    Ok(link
        .strip_prefix(&tree.base)
        .map_or_else(|_| link.display().to_string(), |p| p.display().to_string()))
}

/// Opens every path in turn on one fresh tree, so that what one open
/// creates is there for the next, the same for both engines.
fn run_all(
    engine: Engine,
    paths: &[&str],
    flags: OFlags,
    scope: Scope,
) -> Vec<Result<String, Errno>> {
    let tree = tree();
    let root = rustix::fd::AsFd::as_fd(&tree.root);
    let mode = Mode::from_raw_mode(0o644);
    paths
        .iter()
        .map(|path| {
            outcome(
                &tree,
                engine.open_beneath(root, path.as_bytes(), flags, mode, scope),
            )
        })
        .collect()
}

fn kernel() -> Option<Engine> {
    let engine = Engine::kernel().ok();
    if engine.is_none() {
        eprintln!("openat2 is unavailable here: the oracle comparison is skipped");
    }
    engine
}

fn paths() -> Vec<String> {
    let mut paths: Vec<String> = PATHS.iter().map(|p| p.to_string()).collect();
    paths.push("x".repeat(256));
    paths.push("a/".repeat(2048));
    paths
}

#[test]
fn walk_agrees_with_openat2_on_every_path_and_flag_set() {
    let Some(kernel) = kernel() else { return };
    let paths = paths();
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    let mut mismatches = Vec::new();
    for (flags, name) in flag_sets() {
        for scope in [Scope::Beneath, Scope::InRoot] {
            let expected = run_all(kernel, &paths, flags, scope);
            let walked = run_all(Engine::Walk, &paths, flags, scope);
            for ((path, expected), walked) in paths.iter().zip(expected).zip(walked) {
                if expected != walked {
                    let path: String = path.chars().take(40).collect();
                    mismatches.push(format!(
                        "{path:?} {name} {scope:?}: openat2 {expected:?}, walk {walked:?}"
                    ));
                }
            }
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn the_walk_never_leaves_the_root() {
    for (flags, name) in flag_sets() {
        let outcomes = run_all(Engine::Walk, PATHS, flags, Scope::Beneath);
        for (path, outcome) in PATHS.iter().zip(outcomes) {
            if let Ok(at) = outcome {
                assert!(
                    Path::new(&at).starts_with("root"),
                    "{path:?} {name} opened {at}"
                );
            }
        }
    }
}

#[test]
fn magic_links_are_refused_by_both() {
    // Read-only and process-local: /proc/self as a root, its magic links.
    let Ok(proc_self) = open(
        "/proc/self",
        OFlags::PATH | OFlags::DIRECTORY,
        Mode::empty(),
    ) else {
        eprintln!("no /proc here: skipped");
        return;
    };
    let engines = [Some(Engine::Walk), kernel()];
    for engine in engines.into_iter().flatten() {
        for magic in ["root", "cwd", "exe", "fd/0"] {
            let result = engine.open_beneath(
                rustix::fd::AsFd::as_fd(&proc_self),
                magic.as_bytes(),
                OFlags::PATH,
                Mode::empty(),
                Scope::Beneath,
            );
            assert_eq!(result.err(), Some(Errno::LOOP), "{engine:?} {magic}");
        }
    }
}

#[test]
fn physical_open_refuses_any_link() {
    let tree = tree();
    let engines = [Some(Engine::Walk), kernel()];
    for engine in engines.into_iter().flatten() {
        let open = |rel: &str| {
            let path = tree.base.join(rel);
            let result = engine.open_physical(
                path.as_os_str().as_encoded_bytes(),
                OFlags::PATH,
                Mode::empty(),
            );
            outcome(&tree, result)
        };
        assert_eq!(open("root/sub/inner"), Ok("root/sub/inner".into()));
        assert_eq!(open("root/to_sub/inner"), Err(Errno::LOOP), "{engine:?}");
        assert_eq!(open("root/to_sub"), Err(Errno::LOOP), "{engine:?}");
        assert_eq!(open("root/file/x"), Err(Errno::NOTDIR), "{engine:?}");
        assert_eq!(open("root/missing"), Err(Errno::NOENT), "{engine:?}");
        // `O_PATH | O_NOFOLLOW` hands back a final link itself, as
        // `RESOLVE_NO_SYMLINKS` does; a link before it is still refused.
        let nofollow = |rel: &str| {
            let path = tree.base.join(rel);
            let bytes = path.as_os_str().as_encoded_bytes();
            outcome(
                &tree,
                engine.open_physical(bytes, OFlags::PATH | OFlags::NOFOLLOW, Mode::empty()),
            )
        };
        assert_eq!(
            nofollow("root/to_sub"),
            Ok("root/to_sub".into()),
            "{engine:?}"
        );
        assert_eq!(
            nofollow("root/to_sub/inner"),
            Err(Errno::LOOP),
            "{engine:?}"
        );
    }
}

/// Every descriptor either engine opens is close-on-exec, whatever the
/// caller's flags hold, `O_CLOEXEC` among them (it is added, never
/// toggled), and keeps the flags asked for: an `O_PATH` open gives an
/// `O_PATH` descriptor, on every way through each engine (a last name,
/// a path that ends on a directory, the root `/` itself).
#[test]
fn every_descriptor_is_close_on_exec_and_opened_as_asked() {
    let t = tree();
    let root = rustix::fd::AsFd::as_fd(&t.root);
    let file = t.base.join("root/file");
    let sub = t.base.join("root/sub");
    let engines = [Some(Engine::Walk), kernel()];
    for engine in engines.into_iter().flatten() {
        for asked in [OFlags::empty(), OFlags::CLOEXEC] {
            let mut opened = Vec::new();
            for rest in ["file", "to_sub/inner", "sub", "", "sub/.."] {
                let fd = engine.open_beneath(
                    root,
                    rest.as_bytes(),
                    OFlags::PATH | asked,
                    Mode::empty(),
                    Scope::Beneath,
                );
                opened.push((rest.to_owned(), OFlags::PATH, fd));
            }
            let write = OFlags::WRONLY | OFlags::CREATE | asked;
            let fd = engine.open_beneath(
                root,
                b"sub/created",
                write,
                Mode::from_raw_mode(0o644),
                Scope::Beneath,
            );
            opened.push(("sub/created".to_owned(), OFlags::WRONLY, fd));
            for path in [Path::new("/"), &file, &sub] {
                let bytes = path.as_os_str().as_encoded_bytes();
                let fd = engine.open_physical(bytes, OFlags::PATH | asked, Mode::empty());
                opened.push((path.display().to_string(), OFlags::PATH, fd));
            }
            for (what, mode, fd) in opened {
                let fd = fd.unwrap_or_else(|e| panic!("{engine:?} {asked:?} {what}: {e}"));
                let fd_flags = rustix::io::fcntl_getfd(&fd).expect("F_GETFD");
                assert!(
                    fd_flags.contains(rustix::io::FdFlags::CLOEXEC),
                    "{engine:?} {asked:?} {what}: not close-on-exec"
                );
                let status = rustix::fs::fcntl_getfl(&fd).expect("F_GETFL");
                assert!(
                    status.contains(mode),
                    "{engine:?} {asked:?} {what}: {status:?}"
                );
            }
        }
    }
}

/// `last_is_link` tells a final symlink (the write policy's ELOOP) from
/// everything else, with both engines: a check-then-open race is the only
/// way to reach it with a loop, so it is tested here directly.
#[test]
fn last_is_link_sees_only_a_final_symlink() {
    let t = tree();
    for engine in [Engine::Walk, Engine::Openat2] {
        if engine == Engine::Openat2 && Engine::kernel().is_err() {
            continue;
        }
        for (rest, link) in [
            ("to_sub", true),
            ("loop1", true),
            ("abs_out", true),
            ("file", false),
            ("sub", false),
            ("sub/inner", false),
            ("missing", false),
            ("loop1/x", false),
        ] {
            assert_eq!(
                engine.last_is_link(&t.root, rest.as_bytes(), Scope::Beneath),
                link,
                "{engine:?} {rest}"
            );
        }
    }
}
