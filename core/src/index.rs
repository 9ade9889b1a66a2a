//! Finding the roots that contain a path without scanning every root.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::lexical::{is_at_or_beneath, is_normal_from};

/// Up to this many roots, a linear scan beats hashing.
const LINEAR_MAX: usize = 8;

/// The roots' normal paths, arranged so that `find` costs about the same
/// for 4096 roots as for 16.
#[derive(Clone, Debug, Default)]
pub(crate) struct RootIndex {
    /// For a few roots: the first root but `/` as (normal path, its index
    /// in the caller's list), kept in the index itself, where the common
    /// case of one root is one load away ...
    first: Option<(Box<[u8]>, usize)>,
    /// ... and the others after it, in the caller's order.
    few: Vec<(Box<[u8]>, usize)>,
    /// For many roots: a hash lookup instead of a scan.
    many: Option<ManyRoots>,
    /// The first `/` root, which contains everything.
    slash: Option<usize>,
}

#[derive(Clone, Debug, Default)]
struct ManyRoots {
    /// A root's path (never `/`) -> the first caller's index with that path.
    by_path: HashMap<Box<[u8]>, usize, BuildHasherDefault<PathHasher>>,
    /// A bitset of the byte lengths roots have, so that only the prefixes
    /// of those lengths are looked up.
    lengths: Box<[u64]>,
}

impl RootIndex {
    pub(crate) fn new(roots: Vec<(Vec<u8>, usize)>) -> RootIndex {
        let slash = roots.iter().find(|(p, _)| p == b"/").map(|&(_, i)| i);
        let others: Vec<(Box<[u8]>, usize)> = roots
            .into_iter()
            .filter(|(p, _)| p != b"/")
            .map(|(p, i)| (p.into_boxed_slice(), i))
            .collect();
        if others.len() <= LINEAR_MAX {
            let mut few = others.into_iter();
            return RootIndex {
                first: few.next(),
                few: few.collect(),
                many: None,
                slash,
            };
        }
        let longest = others.iter().map(|(p, _)| p.len()).max().unwrap_or(0);
        let mut lengths = vec![0u64; longest / 64 + 1].into_boxed_slice();
        let mut by_path = HashMap::default();
        for (path, index) in others {
            lengths[path.len() / 64] |= 1 << (path.len() % 64);
            by_path.entry(path).or_insert(index);
        }
        RootIndex {
            first: None,
            few: Vec::new(),
            many: Some(ManyRoots { by_path, lengths }),
            slash,
        }
    }

    /// The caller's index of the first root (in the caller's order) that is
    /// `path` or an ancestor of it. `path` must be normal.
    #[inline]
    pub(crate) fn find(&self, path: &[u8]) -> Option<usize> {
        let found = match &self.many {
            None => self.first_few(path).map(|(index, _)| index),
            Some(many) => many.find(path).map(|(index, _)| index),
        };
        earliest(found, self.slash)
    }

    /// [`RootIndex::find`] for a path that may not be normal: `None` when
    /// it is not (the caller normalizes it and calls `find`). For few
    /// roots, a path that textually lies in one is only scanned for dot
    /// and empty segments past that root's bytes.
    #[inline(always)]
    pub(crate) fn find_if_normal(&self, path: &[u8]) -> Option<Option<usize>> {
        match path {
            [b'/'] => return Some(self.find(path)),
            [b'/', _, ..] => {}
            _ => return None,
        }
        // The bytes up to a root that textually begins the path are that
        // root's, which are normal: only the rest needs the scan. (Among
        // many roots, the prefixes looked up may be anything but normal
        // text; a root that equals one is still normal.)
        let found = match &self.many {
            None => self.first_few(path),
            Some(many) => many.find(path),
        };
        let (found, from) = match found {
            Some((index, root_len)) => (Some(index), root_len),
            None => (None, 0),
        };
        is_normal_from(path, from).then(|| earliest(found, self.slash))
    }
}

impl RootIndex {
    /// Among few roots, the first (in the caller's order) that is `path`
    /// or an ancestor of it, as (caller's index, root's length).
    #[inline(always)]
    fn first_few(&self, path: &[u8]) -> Option<(usize, usize)> {
        let (root, index) = self.first.as_ref()?;
        if is_at_or_beneath(path, root) {
            return Some((*index, root.len()));
        }
        self.few
            .iter()
            .find(|(root, _)| is_at_or_beneath(path, root))
            .map(|(root, index)| (*index, root.len()))
    }
}

/// The earlier of two roots in the caller's order, if any.
#[inline(always)]
fn earliest(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

impl ManyRoots {
    /// The first root (in the caller's order) that is `path` or an
    /// ancestor of it, and the length of the longest root that is: only
    /// the prefixes whose lengths some root has, and that end where a
    /// component does, are looked up.
    #[inline(never)]
    fn find(&self, path: &[u8]) -> Option<(usize, usize)> {
        let n = path.len();
        let mut best: Option<usize> = None;
        let mut longest = 0;
        for (word, &bits) in self.lengths.iter().enumerate().take(n / 64 + 1) {
            // Only lengths up to the path's own.
            let mut bits = if word == n / 64 {
                bits & (u64::MAX >> (63 - n % 64))
            } else {
                bits
            };
            while bits != 0 {
                let len = word * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if len == n || path[len] == b'/' {
                    if let Some(&index) = self.by_path.get(&path[..len]) {
                        best = earliest(best, Some(index));
                        longest = len;
                    }
                }
            }
        }
        best.map(|index| (index, longest))
    }
}

/// The hash of a root's path: its 8-byte words (the last one overlapping
/// the one before it) mixed by multiplication, as the `rustc-hash` crate does, but a
/// word at a time rather than a word, a half, a quarter and a byte, which
/// halves the chain of multiplications for a typical root of 10 to 40
/// bytes. The length is mixed in first, so a path and its prefix differ
/// even where their words coincide. Not resistant to chosen collisions,
/// no more than `rustc-hash`: roots come from the client's configuration.
#[derive(Default)]
pub(crate) struct PathHasher(u64);

const SEED: u64 = 0xf135_7aea_2e62_a9c5;

impl PathHasher {
    #[inline(always)]
    fn add(&mut self, word: u64) {
        self.0 = (self.0 ^ word).wrapping_mul(SEED).rotate_left(26);
    }
}

impl Hasher for PathHasher {
    #[inline(always)]
    fn write(&mut self, bytes: &[u8]) {
        let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let n = bytes.len();
        if n < 8 {
            let mut padded = [0u8; 8];
            padded[..n].copy_from_slice(bytes);
            self.add(u64::from_le_bytes(padded));
            return;
        }
        let mut at = 0;
        while n - at > 8 {
            self.add(word(at));
            at += 8;
        }
        self.add(word(n - 8));
    }

    #[inline(always)]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    #[inline(always)]
    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexical::is_within;

    fn index(paths: &[&str]) -> RootIndex {
        RootIndex::new(
            paths
                .iter()
                .enumerate()
                .map(|(i, p)| (p.as_bytes().to_vec(), i))
                .collect(),
        )
    }

    #[test]
    fn linear_and_hashed_agree() {
        let mut paths: Vec<String> = (0..20).map(|i| format!("/r/p{i}")).collect();
        paths.extend(["/r/p3/inner".into(), "/x".into(), "/r/p1 ".into()]);
        let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
        let many = index(&refs);
        assert!(many.many.is_some());
        assert!(index(&refs[..8]).many.is_none());
        let probes = [
            "/r/p3/inner/f",
            "/r/p1",
            "/r/p1 /a",
            "/r/p10/x",
            "/r/p100",
            "/r",
            "/x/y",
            "/y",
            "/",
        ];
        for probe in probes {
            let linear = refs
                .iter()
                .position(|r| is_within(probe.as_bytes(), r.as_bytes()));
            assert_eq!(many.find(probe.as_bytes()), linear, "{probe}");
        }
        assert_eq!(many.find(b"/r/p3/inner/f"), Some(3));
        // The longest root that begins the path, for the scan to start at.
        let hashed = many.many.as_ref().expect("hashed");
        assert_eq!(
            hashed.find(b"/r/p3/inner/f"),
            Some((3, "/r/p3/inner".len()))
        );
        assert_eq!(hashed.find(b"/r/p1 /a"), Some((22, "/r/p1 ".len())));
    }

    /// Paths that differ anywhere, in length alone or in one byte at any
    /// place, hash apart; the hash reads every byte.
    #[test]
    fn path_hash_reads_every_byte() {
        use std::hash::BuildHasher;
        let hash = |b: &[u8]| BuildHasherDefault::<PathHasher>::default().hash_one(b);
        let mut seen = std::collections::HashSet::new();
        for n in 0..=40 {
            let a: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
            assert!(seen.insert(hash(&a)), "length {n} collides");
            for at in 0..n {
                let mut b = a.clone();
                b[at] ^= 0x01;
                assert!(seen.insert(hash(&b)), "a change at {at} of {n} collides");
            }
        }
        // Zero bytes are bytes: the padding of a short path is told apart.
        assert_ne!(hash(b"/a"), hash(b"/a\0"));
    }

    #[test]
    fn slash_root_contains_everything() {
        let mut paths: Vec<String> = (0..10).map(|i| format!("/r/p{i}")).collect();
        paths.push("/".into());
        let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
        let many = index(&refs);
        assert_eq!(many.find(b"/etc/passwd"), Some(10));
        assert_eq!(many.find(b"/r/p2/a"), Some(2));
        assert_eq!(index(&["/"]).find(b"/"), Some(0));
        assert_eq!(index(&[]).find(b"/"), None);
    }

    /// `find_if_normal` against its definition (normalize, then the first
    /// root in order that contains the result), for few and many roots, on
    /// paths built from the roots' own bytes plus dots, slashes and NULs.
    #[test]
    fn find_if_normal_matches_its_definition() {
        let pieces = [
            "a",
            "ab",
            "b",
            ".",
            "..",
            "",
            "a.",
            ".a",
            "x\0",
            "aaaaaaaaaaaaaaaaaaaa",
        ];
        let mut state = 0x0123_4567_89AB_CDEF_u64;
        let mut next = |below: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % below as u64) as usize
        };
        let mut out = Vec::new();
        for round in 0..400 {
            let count = if round % 2 == 0 {
                1 + next(4)
            } else {
                9 + next(12)
            };
            let mut roots: Vec<String> = (0..count)
                .map(|_| {
                    let depth = 1 + next(4);
                    (0..depth)
                        .map(|_| ["/a", "/ab", "/b", "/aaaaaaaaaaaaaaaaaaaa"][next(4)])
                        .collect()
                })
                .collect();
            if next(10) == 0 {
                roots.insert(next(roots.len()), "/".into());
            }
            let refs: Vec<&str> = roots.iter().map(String::as_str).collect();
            let index = index(&refs);
            for _ in 0..50 {
                let mut path = if next(2) == 0 {
                    roots[next(roots.len())].clone()
                } else {
                    String::new()
                };
                for _ in 0..next(6) {
                    path.push('/');
                    path.push_str(pieces[next(pieces.len())]);
                }
                if next(8) == 0 {
                    path.push('/');
                }
                let bytes = path.as_bytes();
                let expected = crate::lexical::normalize_into(bytes, &mut out)
                    .ok()
                    .map(|_| refs.iter().position(|r| is_within(&out, r.as_bytes())));
                match index.find_if_normal(bytes) {
                    Some(found) => {
                        assert!(crate::lexical::is_normal(bytes), "{path:?} is not normal");
                        assert_eq!(Some(found), expected, "{path:?} in {refs:?}");
                    }
                    None => assert!(!crate::lexical::is_normal(bytes), "{path:?} is normal"),
                }
                if let Some(expected) = expected {
                    assert_eq!(
                        index.find(&out),
                        expected,
                        "{:?} in {refs:?}",
                        out.escape_ascii().to_string()
                    );
                }
            }
        }
    }
}
