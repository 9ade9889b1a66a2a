//! rootguard side by side with its baselines, on identical inputs.
//!
//! The group and function ids are stable: release comparisons
//! (`--save-baseline`, critcmp) depend on them. See benches/README.md.

use std::ffi::CString;
use std::hint::black_box;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rootguard::lexical::LexicalRoots;
use rootguard::{Op, RootId, Roots};
use rustix::fs::{Mode, OFlags, ResolveFlags};

/// Cycles through a small set of inputs so that no single input is
/// predicted perfectly; every id pays the same for it.
struct Cycle<T> {
    items: Vec<T>,
    next: usize,
}

impl<T> Cycle<T> {
    fn new(items: Vec<T>) -> Self {
        Cycle { items, next: 0 }
    }

    fn next(&mut self) -> &T {
        self.next = (self.next + 1) % self.items.len();
        &self.items[self.next]
    }
}

fn uri_parse(c: &mut Criterion) {
    let mut group = c.benchmark_group("uri_parse");
    let uris = vec![
        "file:///home/user/projects/rootguard".to_string(),
        "file://localhost/srv/data/shared%20docs/2026".to_string(),
        "file:///var/lib/app/./cache/../state".to_string(),
        "file:///tmp/ws/r0001/proj".to_string(),
    ];
    let mut ours = Cycle::new(uris.clone());
    group.bench_function("rootguard", |b| {
        b.iter(|| {
            rootguard::RootUri::parse(black_box(ours.next())).map(|u| u.path().as_os_str().len())
        })
    });
    let mut theirs = Cycle::new(uris);
    group.bench_function("url_to_file_path", |b| {
        b.iter(|| {
            url::Url::parse(black_box(theirs.next()))
                .ok()
                .and_then(|u| u.to_file_path().ok())
                .map(|p| p.as_os_str().len())
        })
    });
    group.finish();
}

/// `n` roots `/srv/ws/rNNNN/proj`, and paths of 6 components beneath some
/// of them, beside them (`proj2`) and beneath none.
fn lexical_inputs(n: usize) -> (Vec<String>, Vec<String>, Vec<String>) {
    let roots: Vec<String> = (0..n).map(|i| format!("/srv/ws/r{i:04}/proj")).collect();
    let uris = roots.iter().map(|r| format!("file://{r}")).collect();
    let mut paths = Vec::new();
    for k in [0, n / 2, n - 1] {
        paths.push(format!("/srv/ws/r{k:04}/proj/src/main.rs"));
        paths.push(format!("/srv/ws/r{k:04}/proj2/src/main.rs"));
    }
    paths.push("/srv/ws/zzzz/proj/src/main.rs".to_string());
    paths.push("/home/user/notes/2026/todo/list.md".to_string());
    (uris, roots, paths)
}

fn check_lexical(c: &mut Criterion) {
    let mut group = c.benchmark_group("check_lexical");
    for n in [1, 16, 256, 4096] {
        let (uris, roots, paths) = lexical_inputs(n);
        let ours = LexicalRoots::new(&uris);
        let mut cycle = Cycle::new(paths.clone());
        group.bench_with_input(BenchmarkId::new("rootguard", n), &n, |b, _| {
            b.iter(|| ours.inside(black_box(cycle.next())).ok().flatten())
        });
        let mut cycle = Cycle::new(paths.clone());
        group.bench_with_input(BenchmarkId::new("naive_prefix", n), &n, |b, _| {
            b.iter(|| {
                let path = black_box(cycle.next());
                roots
                    .iter()
                    .position(|root| path.starts_with(root.as_str()))
            })
        });
        let root_paths: Vec<PathBuf> = roots.iter().map(PathBuf::from).collect();
        let mut cycle = Cycle::new(paths);
        group.bench_with_input(BenchmarkId::new("path_clean", n), &n, |b, _| {
            b.iter(|| {
                let clean = path_clean::clean(black_box(cycle.next()));
                root_paths.iter().position(|root| clean.starts_with(root))
            })
        });
    }
    group.finish();
}

/// A tree `base/root/...` `depth` components deep where every other
/// component is a link to a real directory beside it, plus a file at the
/// bottom; returns (temp dir, root URI, root's real path, deep directory).
fn linked_tree(depth: usize) -> (tempfile::TempDir, String, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let base = dir.path().canonicalize().expect("canonical temp dir");
    let root = base.join("root");
    std::fs::create_dir(&root).expect("root");
    let mut real = root.clone();
    let mut via = root.clone();
    for i in 0..depth {
        let name = format!("d{i}");
        std::fs::create_dir(real.join(&name)).expect("dir");
        if i % 2 == 1 {
            let link = format!("l{i}");
            symlink(&name, real.join(&link)).expect("link");
            via.push(link);
        } else {
            via.push(&name);
        }
        real.push(name);
    }
    std::fs::write(real.join("file.txt"), b"x").expect("file");
    let uri = format!("file://{}", root.display());
    (dir, uri, root, via)
}

fn check_resolved(c: &mut Criterion) {
    let mut group = c.benchmark_group("check_resolved");
    for depth in [1, 4, 16] {
        let (_dir, uri, root, deep) = linked_tree(depth);
        let file = deep.join("file.txt");
        let roots = Roots::new([&uri]);
        assert!(roots.check(&file, Op::Read).is_inside());
        assert_eq!(roots.inside(&file, Op::Read).map(RootId::index), Some(0));
        // The question the baselines answer: inside or not, and which root.
        group.bench_with_input(BenchmarkId::new("rootguard", depth), &file, |b, file| {
            b.iter(|| roots.inside(black_box(file), Op::Read).is_some())
        });
        // The full verdict, which also names the target.
        group.bench_with_input(
            BenchmarkId::new("rootguard_named", depth),
            &file,
            |b, file| b.iter(|| roots.check(black_box(file), Op::Read).is_inside()),
        );
        // The same questions beneath the pinned root directory.
        let pinned = roots.clone().pin();
        assert_eq!(pinned.inside(&file, Op::Read).map(RootId::index), Some(0));
        assert_eq!(pinned.check(&file, Op::Read), roots.check(&file, Op::Read));
        group.bench_with_input(BenchmarkId::new("pinned", depth), &file, |b, file| {
            b.iter(|| pinned.inside(black_box(file), Op::Read).is_some())
        });
        group.bench_with_input(BenchmarkId::new("pinned_named", depth), &file, |b, file| {
            b.iter(|| pinned.check(black_box(file), Op::Read).is_inside())
        });
        // The floor of a kernel-faithful answer beneath a held root: one
        // openat2 of the rest of the path from a cached descriptor (and the
        // close every id pays), the path already a C string.
        let root_fd = rustix::fs::open(&root, OFlags::PATH | OFlags::DIRECTORY, Mode::empty())
            .expect("the root opens");
        let rest = file
            .strip_prefix(&root)
            .expect("the file is spelled beneath the root");
        let rest = CString::new(rest.as_os_str().as_bytes()).expect("no NUL");
        group.bench_with_input(
            BenchmarkId::new("openat2_beneath", depth),
            &rest,
            |b, rest| {
                b.iter(|| {
                    rustix::fs::openat2(
                        &root_fd,
                        black_box(rest.as_c_str()),
                        OFlags::PATH | OFlags::CLOEXEC,
                        Mode::empty(),
                        ResolveFlags::BENEATH | ResolveFlags::NO_MAGICLINKS,
                    )
                    .is_ok()
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("std_canonicalize", depth),
            &file,
            |b, file| {
                b.iter(|| {
                    std::fs::canonicalize(black_box(file))
                        .map(|p| p.starts_with(&root))
                        .unwrap_or(false)
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("canonicalize_only", depth),
            &file,
            |b, file| {
                b.iter(|| std::fs::canonicalize(black_box(file)).map(|p| p.as_os_str().len()))
            },
        );
    }
    group.finish();
}

fn write_target(c: &mut Criterion) {
    let mut group = c.benchmark_group("write_target");
    for depth in [1, 4, 16] {
        let (_dir, uri, root, deep) = linked_tree(depth);
        let new = deep.join("new.txt");
        let roots = Roots::new([&uri]);
        assert!(roots.check(&new, Op::Write).is_inside());
        assert_eq!(roots.inside(&new, Op::Write).map(RootId::index), Some(0));
        group.bench_with_input(BenchmarkId::new("rootguard", depth), &new, |b, new| {
            b.iter(|| roots.inside(black_box(new), Op::Write).is_some())
        });
        group.bench_with_input(
            BenchmarkId::new("rootguard_named", depth),
            &new,
            |b, new| b.iter(|| roots.check(black_box(new), Op::Write).is_inside()),
        );
        let pinned = roots.clone().pin();
        assert_eq!(pinned.inside(&new, Op::Write).map(RootId::index), Some(0));
        assert_eq!(pinned.check(&new, Op::Write), roots.check(&new, Op::Write));
        group.bench_with_input(BenchmarkId::new("pinned", depth), &new, |b, new| {
            b.iter(|| pinned.inside(black_box(new), Op::Write).is_some())
        });
        group.bench_with_input(BenchmarkId::new("pinned_named", depth), &new, |b, new| {
            b.iter(|| pinned.check(black_box(new), Op::Write).is_inside())
        });
        group.bench_with_input(
            BenchmarkId::new("std_canonicalize_parent", depth),
            &new,
            |b, new| {
                b.iter(|| {
                    let new: &Path = black_box(new);
                    match (new.parent(), new.file_name()) {
                        (Some(parent), Some(name)) => std::fs::canonicalize(parent)
                            .map(|p| p.join(name).starts_with(&root))
                            .unwrap_or(false),
                        _ => false,
                    }
                })
            },
        );
    }
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2))
}

criterion_group! {
    name = benches;
    config = config();
    targets = uri_parse, check_lexical, check_resolved, write_target
}
criterion_main!(benches);
