//! The `lexical` target's roots: a fixed pool of hostile root sets, each
//! parsed once per process by core and by the oracle, and the path built
//! from raw input bytes against one of them.
//!
//! Building roots per input (two URI parsers, core's index, the oracle's
//! components) costs most of an execution and most of its coverage
//! bookkeeping; with the roots built once, a run is one path checked by
//! both sides, which is what lets `lexical` run at hundreds of thousands
//! of inputs a second. Arbitrary roots are still fuzzed: the URIs
//! themselves by `root_uri`, roots and paths together (specs and scenario
//! documents, parsed per input) by `lexical_roots`.
//!
//! An input is `[set, mode, rest...]`: `set` picks one of the
//! [`SET_COUNT`] sets of [`root_sets`], `mode` says what the path starts
//! with (nothing, or a valid root of the set, its parent, or the root cut
//! short by a byte; see [`lexical_path`]) and `rest`, any bytes, follows.
//!
//! The pool is generated, not listed: every set is drawn by a fixed
//! pseudo-random sequence from classes of roots (sibling names that share
//! a prefix, nested and repeated roots, `/`, lengths on both sides of the
//! 8-, 16- and 32-byte chunks and of the 64-bit length words core's index
//! uses, non-ASCII and non-UTF-8 names, and URIs a parser may read
//! differently), in sets of 0, 1, a few, 8 and 9 (around core's switch
//! from a scan to a hash index), dozens and hundreds of roots. Changing
//! the generator changes which set an index means: a kept corpus still
//! runs, only less to the point. `tests/fuzz_regressions.rs` holds the
//! pool to the classes it must contain.

use std::sync::OnceLock;

use rootguard_judge::gen::file_uri;
use rootguard_judge::oracle::{parse_root_uri, LexicalModel};

/// How many root sets the pool holds: one per value of the input's first
/// byte.
pub const SET_COUNT: usize = 256;

/// One set of roots, as URIs, with both sides' parse of them.
pub struct RootSet {
    /// The root URIs, in order (the verdict is an index into these).
    pub uris: Vec<String>,
    /// Each root's path as the oracle parses it (`None`: invalid).
    pub paths: Vec<Option<Vec<u8>>>,
    /// The valid roots' paths, for building paths near them.
    valid: Vec<Vec<u8>>,
    /// Core's lexical roots.
    pub core: rootguard::lexical::LexicalRoots,
    /// The oracle's lexical roots.
    pub model: LexicalModel,
}

impl RootSet {
    fn new(uris: Vec<String>) -> RootSet {
        let paths: Vec<Option<Vec<u8>>> = uris.iter().map(|u| parse_root_uri(u).ok()).collect();
        let valid = paths.iter().flatten().cloned().collect();
        RootSet {
            core: rootguard::lexical::LexicalRoots::new(&uris),
            model: LexicalModel::new(&uris),
            uris,
            paths,
            valid,
        }
    }
}

/// The pool, built on first use.
pub fn root_sets() -> &'static [RootSet] {
    static SETS: OnceLock<Vec<RootSet>> = OnceLock::new();
    SETS.get_or_init(|| generate().into_iter().map(RootSet::new).collect())
}

/// The path an input stands for: `mode` picks a valid root of `set`
/// (`mode / 8`, modulo their number) and what of it begins the path
/// (`mode % 8`): 0 and 7 nothing (`rest` is the whole path), 1 to 3 the
/// root, 4 its parent, 5 the root without its last byte, 6 the root and
/// a `/`. With no valid root, `rest` is the whole path.
pub fn lexical_path(set: &RootSet, mode: u8, rest: &[u8], out: &mut Vec<u8>) {
    out.clear();
    if !set.valid.is_empty() {
        let root = &set.valid[usize::from(mode / 8) % set.valid.len()];
        match mode % 8 {
            1..=3 => out.extend_from_slice(root),
            4 => {
                let cut = root.iter().rposition(|&b| b == b'/').unwrap_or(0);
                out.extend_from_slice(&root[..cut.max(1)]);
            }
            5 => out.extend_from_slice(&root[..root.len() - 1]),
            6 => {
                out.extend_from_slice(root);
                out.push(b'/');
            }
            _ => {}
        }
    }
    out.extend_from_slice(rest);
}

// ------------------------------------------------------------ generation

/// Directories roots are made beneath (the family of a set).
const BASES: &[&str] = &[
    "/x",
    "/srv/ws",
    "/home/u",
    "/a",
    rootguard_judge::oracle::MODEL_BASE,
    "/tmp",
    "/x/y/z/w",
    // 16, 17, 32 and 33 bytes: both sides of core's compare chunks.
    "/aaaaaaaaaaaaaaa",
    "/aaaaaaaaaaaaaaaa",
    "/aaaaaaaaaaaaaaa/bbbbbbbbbbbbbbb",
    "/aaaaaaaaaaaaaaa/bbbbbbbbbbbbbbbb",
];

/// Last names of roots: the prefix victim and its siblings, names that are
/// dots but not dot segments, names some checker normalizes away, and
/// bytes that mean something to a URI or to a shell.
const LEAVES: &[&[u8]] = &[
    b"proj",
    b"proj2",
    b"project",
    b"project2",
    b"pro",
    b"proj.bak",
    b"proj ",
    b"proj'",
    b"proj-old",
    b"PROJ",
    b"p",
    b"...",
    b"..a",
    b"a..",
    b".a",
    b"a.",
    b".hidden",
    b"a b",
    b"~",
    b"%",
    b"?",
    b"#",
    b"\\",
    b"caf\xc3\xa9",
    b"cafe\xcc\x81",
    b"\xef\xbd\x90roj",
    b"\xc2\xa0",
    b"\xff\xfe",
    b"a\nb",
    b"data",
    b"src",
];

/// Root URIs that are not `file://` plus a path: forms a parser may read
/// differently (rejected ones among them contain nothing).
const QUIRKS: &[&str] = &[
    "file:///",
    "file://localhost/x/proj",
    "file:/x/proj",
    "FILE:///x/proj",
    "file:///x/proj/",
    "file:///x/./proj/../proj",
    "file:///x/%2e%2e/x/proj",
    "file:///x/proj%2F..",
    "file:///x/proj?q",
    "file:///x/proj#f",
    "file:///x//proj",
    "file:///x/proj/..",
    "file:///x/proj%00",
    "file:///x/proj%2",
    "file://host/x/proj",
    "http:///x/proj",
    "",
    "/x/proj",
    "file:///x/pro%6A",
    "file:///x/proj%20",
];

/// A fixed pseudo-random sequence (xorshift64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One root's path in the set's family, as bytes.
fn root_path(rng: &mut Rng, base: &str, earlier: &[Vec<u8>]) -> Vec<u8> {
    let leaf = |rng: &mut Rng| LEAVES[rng.below(LEAVES.len())];
    match rng.below(12) {
        // Nested in an earlier root, or the same as one.
        0 | 1 if !earlier.is_empty() => {
            let mut path = earlier[rng.below(earlier.len())].clone();
            if rng.below(2) == 0 {
                path.push(b'/');
                path.extend_from_slice(leaf(rng));
            }
            path
        }
        // The family's base itself.
        2 => base.as_bytes().to_vec(),
        // A root of an exact length, 2 to 140 bytes: one long name, or
        // names of 1 to 20 bytes.
        3 => {
            let len = 2 + rng.below(139);
            let mut path = b"/".to_vec();
            let step = if rng.below(2) == 0 {
                len
            } else {
                2 + rng.below(20)
            };
            while path.len() < len {
                if path.len().is_multiple_of(step) {
                    path.push(b'/');
                }
                path.push(b'r');
            }
            if path.last() == Some(&b'/') {
                path.push(b'r');
            }
            path
        }
        // Two names deep.
        4 => {
            let mut path = base.as_bytes().to_vec();
            for _ in 0..2 {
                path.push(b'/');
                path.extend_from_slice(leaf(rng));
            }
            path
        }
        _ => {
            let mut path = base.as_bytes().to_vec();
            path.push(b'/');
            path.extend_from_slice(leaf(rng));
            path
        }
    }
}

/// The pool's URIs, set by set.
fn generate() -> Vec<Vec<String>> {
    let mut rng = Rng(0x5DEE_CE66_D1CE_4E5B);
    let mut sets = vec![
        Vec::new(),
        vec!["file:///".to_owned()],
        vec!["file:///x/proj".to_owned()],
        vec!["file:///x/proj".to_owned(), "file:///x/proj2".to_owned()],
    ];
    while sets.len() < SET_COUNT {
        let size = match rng.below(20) {
            0..=7 => 1,
            8..=11 => 2 + rng.below(3),
            12 => 8,
            13 => 9,
            14..=17 => 10 + rng.below(40),
            18 => 300,
            _ => 1 + rng.below(3),
        };
        let base = BASES[rng.below(BASES.len())];
        let mut paths: Vec<Vec<u8>> = Vec::new();
        let mut uris = Vec::new();
        for _ in 0..size {
            match rng.below(40) {
                0 => uris.push("file:///".to_owned()),
                1..=3 => uris.push(QUIRKS[rng.below(QUIRKS.len())].to_owned()),
                _ => {
                    let path = root_path(&mut rng, base, &paths);
                    uris.push(file_uri(&path));
                    paths.push(path);
                }
            }
        }
        sets.push(uris);
    }
    sets
}
