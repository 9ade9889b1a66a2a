//! The check-then-use gap, measured: one thread swaps a directory inside
//! the root with a link to a directory outside, while another opens a file
//! beneath it thousands of times, by `check` then a plain open, and by
//! `Roots::open`. The first escapes now and then; the second never may.
//!
//! Run: `cargo test -p rootguard --test race -- --nocapture`. The `race`
//! test prints one line for scripts:
//! `race check-then-open=<escapes>/<tries> beneath-open=<escapes>/<tries>`.

use std::fs::File;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rootguard::open::{Backend, OpenError};
use rootguard::{Op, PinnedRoots, ResolveErrorKind, Roots, Verdict};
use rootguard_testsupport::Kernel;
use rustix::fd::OwnedFd;
use rustix::fs::{renameat, renameat_with, Mode, OFlags, RenameFlags};

/// Beneath-open tries every run makes at least.
const MIN_TRIES: u64 = 20_000;
/// If the gap has not shown by `MIN_TRIES`, keep going up to this many.
const MAX_TRIES: u64 = 200_000;
/// A hang guard, never a measure: `MAX_TRIES` take about ten seconds on a
/// loaded 2-core machine.
const HANG_GUARD: Duration = Duration::from_secs(120);

/// The two race tests compete for the same cores: run them one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

/// `root/d` is a directory holding `f`; `root/l` links to `out`, which holds
/// another `f`. The swapper exchanges `d` and `l`, so `root/d/f` names the
/// inside file or the outside one, depending on the moment.
struct Arena {
    _dir: tempfile::TempDir,
    base: PathBuf,
    inside: (u64, u64),
    outside: (u64, u64),
}

impl Arena {
    fn new() -> Arena {
        let dir = tempfile::tempdir().expect("temp dir");
        let base = dir.path().canonicalize().expect("canonical temp dir");
        std::fs::create_dir_all(base.join("root/d")).unwrap();
        std::fs::create_dir_all(base.join("out")).unwrap();
        std::fs::write(base.join("root/d/f"), "inside").unwrap();
        std::fs::write(base.join("out/f"), "outside").unwrap();
        std::os::unix::fs::symlink(base.join("out"), base.join("root/l")).unwrap();
        let inside = id(&base.join("root/d/f"));
        let outside = id(&base.join("out/f"));
        Arena {
            _dir: dir,
            base,
            inside,
            outside,
        }
    }

    fn roots(&self) -> Roots {
        Roots::new([format!("file://{}/root", self.base.display())])
    }

    fn target(&self) -> PathBuf {
        self.base.join("root/d/f")
    }

    /// Starts the swapper; it runs until `stop` and returns its swap count.
    /// Without RENAME_EXCHANGE (a failure under CI) it swaps by three plain
    /// renames, which leave `d` missing for a moment.
    fn swapper(&self, stop: Arc<AtomicBool>) -> std::thread::JoinHandle<u64> {
        let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let root = rustix::fs::open(self.base.join("root"), flags, Mode::empty()).unwrap();
        let exchange = Kernel::RenameExchange.need("the gap-free swap of the race");
        std::thread::spawn(move || {
            let mut swaps = 0;
            while !stop.load(Ordering::Relaxed) {
                if exchange {
                    renameat_with(&root, "d", &root, "l", RenameFlags::EXCHANGE).expect("exchange");
                } else {
                    plain_swap(&root);
                }
                swaps += 1;
            }
            swaps
        })
    }
}

/// Three renames: `d` is missing for a moment, which readers may see.
fn plain_swap(root: &OwnedFd) {
    renameat(root, "d", root, "t").unwrap();
    renameat(root, "l", root, "d").unwrap();
    renameat(root, "t", root, "l").unwrap();
}

fn id(path: &Path) -> (u64, u64) {
    let meta = std::fs::metadata(path).unwrap();
    (meta.dev(), meta.ino())
}

fn file_id(file: &File) -> (u64, u64) {
    let meta = file.metadata().unwrap();
    (meta.dev(), meta.ino())
}

#[derive(Debug, Default)]
struct Tally {
    check_then_open_tries: u64,
    check_then_open_escapes: u64,
    beneath_tries: u64,
    beneath_escapes: u64,
    beneath_opened: u64,
    beneath_refused: u64,
    swaps: u64,
}

/// How a round opens beneath the root.
type BeneathOpen = fn(&PinnedRoots, &Path) -> Result<(File, Verdict), OpenError>;

/// Runs the race with `beneath` as the beneath-open; with `compare`, each
/// round also does a check-then-open.
fn race_with(backend: Backend, beneath: BeneathOpen, compare: bool) -> Tally {
    let arena = Arena::new();
    let roots = arena.roots().pin().with_backend(backend);
    let path = arena.target();
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = arena.swapper(Arc::clone(&stop));
    let refusals = AtomicU64::new(0);
    let mut tally = Tally::default();
    let start = Instant::now();
    loop {
        let tries = tally.beneath_tries;
        let enough = tries >= MIN_TRIES && (tally.check_then_open_escapes > 0 || !compare);
        if enough || tries >= MAX_TRIES {
            break;
        }
        assert!(
            start.elapsed() < HANG_GUARD,
            "hang guard: {tries} tries in {HANG_GUARD:?}: {tally:?}"
        );
        if compare {
            // (a) The gap: check, then open by path as most code does.
            tally.check_then_open_tries += 1;
            if roots.roots().check(&path, Op::Read).is_inside() {
                if let Ok(file) = File::open(&path) {
                    if file_id(&file) == arena.outside {
                        tally.check_then_open_escapes += 1;
                    }
                }
            }
        }
        // (b) Beneath-open: every outcome must be on this short list.
        tally.beneath_tries += 1;
        match beneath(&roots, &path) {
            Ok((file, _)) => {
                let opened = file_id(&file);
                if opened == arena.outside {
                    tally.beneath_escapes += 1;
                } else {
                    assert_eq!(opened, arena.inside, "opened a third file");
                    tally.beneath_opened += 1;
                }
            }
            Err(OpenError::Outside { .. } | OpenError::Escape { .. }) => {
                refusals.fetch_add(1, Ordering::Relaxed);
            }
            // Only plain renames leave `d` missing for a moment.
            Err(OpenError::Unresolvable(e)) if e.kind == ResolveErrorKind::NotFound => {
                refusals.fetch_add(1, Ordering::Relaxed);
            }
            Err(e) => panic!("unexpected outcome: {e}"),
        }
    }
    stop.store(true, Ordering::Relaxed);
    tally.swaps = swapper.join().unwrap();
    tally.beneath_refused = refusals.into_inner();
    tally
}

#[test]
fn race() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // `Roots::open`: the root's directory opened afresh on every call.
    let tally = race_with(Backend::Auto, |r, p| r.roots().open(p, Op::Read), true);
    println!(
        "race check-then-open={}/{} beneath-open={}/{}",
        tally.check_then_open_escapes,
        tally.check_then_open_tries,
        tally.beneath_escapes,
        tally.beneath_tries
    );
    eprintln!("# {tally:?}");
    assert_eq!(tally.beneath_escapes, 0, "beneath-open escaped: {tally:?}");
    assert!(
        tally.beneath_opened > 0 && tally.beneath_refused > 0,
        "the swap never changed the outcome: {tally:?}"
    );
    // The gap is real: check-then-open escapes within the tries made.
    assert!(
        tally.check_then_open_escapes > 0,
        "no check-then-open escape in {} tries: {tally:?}",
        tally.check_then_open_tries
    );
    assert!(tally.beneath_tries >= MIN_TRIES, "{tally:?}");
}

/// The same race through the fallback walk, forced, beneath a pinned root.
#[test]
fn race_walk_fallback() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let tally = race_with(Backend::Walk, |r, p| r.open(p, Op::Read), false);
    eprintln!(
        "# walk fallback: beneath-open={}/{} ({tally:?})",
        tally.beneath_escapes, tally.beneath_tries
    );
    assert_eq!(tally.beneath_escapes, 0, "the walk escaped: {tally:?}");
    assert!(
        tally.beneath_opened > 0 && tally.beneath_refused > 0,
        "{tally:?}"
    );
}

/// The last name itself races: `root/f` is a file one moment and a link to
/// `g` (inside) the next. Through the walk, forced, every open of
/// `root/f` must succeed and give `f` or `g`: a link planted between the
/// walk's look at the name and its open is followed, not reported as
/// `ELOOP`.
#[test]
fn race_on_the_last_name_walk() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().expect("temp dir");
    let base = dir.path().canonicalize().expect("canonical temp dir");
    std::fs::create_dir(base.join("root")).unwrap();
    std::fs::write(base.join("root/f"), "f").unwrap();
    std::fs::write(base.join("root/g"), "g").unwrap();
    std::os::unix::fs::symlink("g", base.join("root/fl")).unwrap();
    let (f, g) = (id(&base.join("root/f")), id(&base.join("root/g")));
    let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
    let root = rustix::fs::open(base.join("root"), flags, Mode::empty()).unwrap();
    // Why this fails under CI rather than skipping: docs/race.md, "Measured".
    if !Kernel::RenameExchange
        .need("the race on the last name, which plain renames would leave gaps in")
    {
        return;
    }
    renameat_with(&root, "f", &root, "fl", RenameFlags::EXCHANGE).expect("exchange");
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            let mut swaps = 0u64;
            while !stop.load(Ordering::Relaxed) {
                renameat_with(&root, "f", &root, "fl", RenameFlags::EXCHANGE).unwrap();
                swaps += 1;
            }
            swaps
        })
    };
    let roots = Roots::new([format!("file://{}/root", base.display())]);
    let path = base.join("root/f");
    let (mut opened_f, mut opened_g) = (0u64, 0u64);
    let start = Instant::now();
    let mut failure = None;
    while opened_f + opened_g < MIN_TRIES {
        assert!(
            start.elapsed() < HANG_GUARD,
            "hang guard: {opened_f} + {opened_g} opens in {HANG_GUARD:?}"
        );
        match roots.open_with(&path, Op::Read, Backend::Walk) {
            Ok((file, _)) if file_id(&file) == f => opened_f += 1,
            Ok((file, _)) if file_id(&file) == g => opened_g += 1,
            Ok((file, verdict)) => {
                failure = Some(format!(
                    "opened a third file {:?} ({verdict:?})",
                    file_id(&file)
                ));
                break;
            }
            Err(e) => {
                failure = Some(format!("{e}"));
                break;
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = swapper.join().unwrap();
    eprintln!("# last-name race: f {opened_f}, g {opened_g}, {swaps} swaps");
    if let Some(failure) = failure {
        panic!("after {opened_f} + {opened_g} opens and {swaps} swaps: {failure}");
    }
    assert!(
        opened_f > 0 && opened_g > 0,
        "the swap never changed the outcome"
    );
}
