//! Finding the roots that contain a path without scanning every root.

use crate::lexical::{
    has_dot_slash_or_nul_long, is_at_or_beneath, is_normal, is_normal_exact, same_bytes,
};

/// Up to this many roots, a linear scan beats hashing.
const LINEAR_MAX: usize = 8;

/// The roots' normal paths, arranged so that `find` costs about the same
/// for 4096 roots as for 16.
#[derive(Clone, Debug, Default)]
pub(crate) struct RootIndex {
    /// For a few roots: the first root but `/`, in the index itself, where
    /// the common case of one root finds it with no pointer to follow ...
    first: Option<FewRoot>,
    /// ... and the others but `/` after it, in the caller's order.
    few: Box<[FewRoot]>,
    /// For many roots: a hash lookup instead of a scan.
    many: Option<ManyRoots>,
    /// The first `/` root, which contains everything.
    slash: Option<usize>,
}

/// A root (never `/`) among few, kept ready for the compare of a path of
/// 16 bytes or more: its first and last 16 bytes are in the struct, so
/// that for a root of up to 32 bytes the compare is two 16-byte compares,
/// with no branch on the root's length and no pointer to follow.
#[derive(Clone, Debug)]
struct FewRoot {
    /// The root's first 16 bytes; a shorter root's bytes, then zeros.
    head: [u8; 16],
    /// The root's last 16 bytes; for a shorter root, `head`.
    tail: [u8; 16],
    /// For a root shorter than 16 bytes, `0xff` at each place past its
    /// end, where the path may hold anything; otherwise zeros.
    past: [u8; 16],
    /// Where `tail` starts in the root: its length less 16, or 0.
    tail_at: usize,
    /// The root's normal path.
    path: Box<[u8]>,
    /// Its index in the caller's list.
    index: usize,
}

#[derive(Clone, Debug)]
struct ManyRoots {
    /// An open-addressing table (linear probing) of the distinct root
    /// paths (never `/`): a power of two long and at most half full, so
    /// that a probe soon ends at an empty slot (one whose path is empty).
    /// 32 bytes a slot: 256 KiB for 4096 roots.
    slots: Box<[Slot]>,
    /// The distinct byte lengths roots have, shortest first, so that only
    /// the prefixes of those lengths are looked up.
    lengths: Box<[usize]>,
}

/// A root in [`ManyRoots::slots`], its bytes one load away: a lookup
/// reads the slot, then the root's bytes, and nothing else.
#[derive(Clone, Debug, Default)]
struct Slot {
    /// [`path_hash`] of `path`.
    hash: u64,
    /// The root's normal path, or empty for a free slot.
    path: Box<[u8]>,
    /// The first caller's index with this path.
    index: usize,
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
            let mut few = others
                .into_iter()
                .map(|(path, index)| FewRoot::new(path, index));
            return RootIndex {
                first: few.next(),
                few: few.collect(),
                many: None,
                slash,
            };
        }
        let mut lengths: Vec<usize> = others.iter().map(|(p, _)| p.len()).collect();
        lengths.sort_unstable();
        lengths.dedup();
        let mut slots = vec![Slot::default(); (2 * others.len()).next_power_of_two()];
        for (path, index) in others {
            let hash = path_hash(&path);
            // A root repeated later in the caller's list keeps the index
            // of its first appearance.
            if let Err(free) = probe(&slots, &path, hash) {
                slots[free] = Slot { hash, path, index };
            }
        }
        let many = ManyRoots {
            slots: slots.into_boxed_slice(),
            lengths: lengths.into_boxed_slice(),
        };
        RootIndex {
            first: None,
            few: Box::default(),
            many: Some(many),
            slash,
        }
    }

    /// The caller's index of the first root (in the caller's order) that is
    /// `path` or an ancestor of it. `path` must be normal.
    #[inline]
    pub(crate) fn find(&self, path: &[u8]) -> Option<usize> {
        earliest(self.find_but_slash(path), self.slash)
    }

    /// [`RootIndex::find`] for a path that may not be normal: `None` when
    /// it is not (the caller normalizes it and calls `find`).
    ///
    /// For a path of 17 bytes or more (nearly every path a tool is given),
    /// the scan for dot segments, empty segments and NUL, and the compare
    /// with the roots, each read only the path: neither waits for the
    /// other, and the CPU runs them side by side.
    #[inline(always)]
    pub(crate) fn find_if_normal(&self, path: &[u8]) -> Option<Option<usize>> {
        let n = path.len();
        // `first` is there only when `many` is not.
        let (flagged, found) = match (&self.first, &self.many, n) {
            (Some(first), _, 17..) => {
                let (flagged, inside) = first.scan_and_begins(path);
                let found = if inside {
                    Some(first.index)
                } else if self.few.is_empty() {
                    None
                } else {
                    self.few_but_first(path)
                };
                (flagged, found)
            }
            (_, Some(many), 17..) => (has_dot_slash_or_nul_long(path), many.find(path)),
            _ => return self.find_if_normal_other(path),
        };
        let (head, last) = (path[0], path[n - 1]);
        if head != b'/' || last == b'/' || last == 0 || (flagged && !is_normal_exact(path)) {
            return None;
        }
        Some(earliest(found, self.slash))
    }

    /// [`RootIndex::find_if_normal`] for no roots but `/`, or a path
    /// shorter than 17 bytes.
    #[inline(never)]
    fn find_if_normal_other(&self, path: &[u8]) -> Option<Option<usize>> {
        is_normal(path).then(|| self.find(path))
    }

    /// Among few roots but the first, the first that begins `path` (of 16
    /// bytes or more).
    #[inline(never)]
    fn few_but_first(&self, path: &[u8]) -> Option<usize> {
        self.few
            .iter()
            .find(|root| root.begins_long(path))
            .map(|root| root.index)
    }
}

impl RootIndex {
    /// The caller's index of the first root but `/` (in the caller's
    /// order) that is `path` or an ancestor of it, among few roots or many.
    #[inline(always)]
    fn find_but_slash(&self, path: &[u8]) -> Option<usize> {
        match &self.many {
            None => self
                .first
                .iter()
                .chain(self.few.iter())
                .find(|root| is_at_or_beneath(path, &root.path))
                .map(|root| root.index),
            Some(many) => many.find(path),
        }
    }
}

impl FewRoot {
    fn new(path: Box<[u8]>, index: usize) -> FewRoot {
        let n = path.len();
        let mut head = [0u8; 16];
        let mut past = [0xffu8; 16];
        head[..n.min(16)].copy_from_slice(&path[..n.min(16)]);
        past[..n.min(16)].fill(0);
        let tail_at = n.saturating_sub(16);
        let tail = if n < 16 {
            head
        } else {
            path[tail_at..].try_into().expect("16 bytes")
        };
        FewRoot {
            head,
            tail,
            past,
            tail_at,
            path,
            index,
        }
    }

    /// For a path of 17 bytes or more, at once: whether it has a `/`
    /// followed by `.` or `/`, or a NUL but at its end
    /// ([`has_dot_slash_or_nul_long`]), and whether this root is the path or an
    /// ancestor of it ([`is_at_or_beneath`]).
    #[inline(always)]
    fn scan_and_begins(&self, path: &[u8]) -> (bool, bool) {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        let (flagged, ends) = scan_and_compare_sse2(path, self);
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        let (flagged, ends) = (
            has_dot_slash_or_nul_long(path),
            self.ends_match_portable(path),
        );
        (flagged, self.begins_given_ends(path, ends))
    }

    /// [`is_at_or_beneath`] for a path of 16 bytes or more.
    #[inline(always)]
    fn begins_long(&self, path: &[u8]) -> bool {
        self.begins_given_ends(path, self.ends_match(path))
    }

    /// Whether the root begins `path` (of 16 bytes or more), given whether
    /// `path` holds the root's head and tail ([`FewRoot::ends_match`]).
    #[inline(always)]
    fn begins_given_ends(&self, path: &[u8], ends: bool) -> bool {
        let len = self.path.len();
        len <= path.len()
            && ends
            && path.get(len).is_none_or(|&next| next == b'/')
            && (len <= 32 || middle_matches(path, &self.path))
    }

    /// Whether a path of at least 16 bytes and at least the root's length
    /// holds the root's first and last 16 bytes where the root has them.
    #[inline(always)]
    fn ends_match(&self, path: &[u8]) -> bool {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        return ends_match_sse2(path, self);
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        return self.ends_match_portable(path);
    }

    /// [`FewRoot::ends_match`] for every target (and the tests' reference).
    #[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
    fn ends_match_portable(&self, path: &[u8]) -> bool {
        let word = |at: usize| u128::from_ne_bytes(path[at..at + 16].try_into().expect("16 bytes"));
        let differ = |at: usize, root: [u8; 16]| {
            (word(at) ^ u128::from_ne_bytes(root)) & !u128::from_ne_bytes(self.past)
        };
        path.len() >= self.tail_at + 16
            && differ(0, self.head) | differ(self.tail_at, self.tail) == 0
    }
}

/// [`FewRoot::scan_and_begins`] with SSE2, which every x86_64 has: the
/// windows of [`has_dot_slash_or_nul_long`], and the compare of the
/// root's head and tail, which shares the first window's load. Returns
/// (flagged, ends match); the ends only match where the path is at least
/// as long as the root.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn scan_and_compare_sse2(path: &[u8], root: &FewRoot) -> (bool, bool) {
    use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_movemask_epi8};
    let n = path.len();
    assert!(n >= 17);
    let p = path.as_ptr();
    // SAFETY: SSE2 is enabled for this target (the cfg above). The loads
    // read 16 bytes at 0, and at `tail_at` only when `tail_at + 16` (the
    // root's length, or 16) is at most `n`: within `path`.
    unsafe {
        let load = |at: usize| _mm_loadu_si128(p.add(at).cast::<__m128i>());
        let flagged = _mm_movemask_epi8(crate::lexical::windows_sse2(path)) != 0;
        let tail_at = if root.tail_at + 16 <= n {
            root.tail_at
        } else {
            0
        };
        (flagged, ends_equal_sse2(load(0), load(tail_at), root))
    }
}

/// [`FewRoot::ends_match`] with SSE2.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn ends_match_sse2(path: &[u8], root: &FewRoot) -> bool {
    use std::arch::x86_64::{__m128i, _mm_loadu_si128};
    let (Some(head), Some(tail)) = (
        path.first_chunk::<16>(),
        path.get(root.tail_at..).and_then(<[u8]>::first_chunk::<16>),
    ) else {
        return false;
    };
    // SAFETY: SSE2 is enabled for this target (the cfg above); each load
    // reads one 16-byte array.
    unsafe {
        let load = |bytes: &[u8; 16]| _mm_loadu_si128(bytes.as_ptr().cast::<__m128i>());
        ends_equal_sse2(load(head), load(tail), root)
    }
}

/// Whether `head` and `tail`, a path's 16 bytes where the root's head and
/// tail lie, hold the root's bytes (past the end of a short root, anything).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn ends_equal_sse2(
    head: std::arch::x86_64::__m128i,
    tail: std::arch::x86_64::__m128i,
    root: &FewRoot,
) -> bool {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
    };
    // SAFETY: SSE2 is enabled for this target (the cfg above); each load
    // reads one of the root's 16-byte arrays.
    unsafe {
        let load = |bytes: &[u8; 16]| _mm_loadu_si128(bytes.as_ptr().cast::<__m128i>());
        let past = load(&root.past);
        let head = _mm_or_si128(_mm_cmpeq_epi8(head, load(&root.head)), past);
        let tail = _mm_or_si128(_mm_cmpeq_epi8(tail, load(&root.tail)), past);
        _mm_movemask_epi8(_mm_and_si128(head, tail)) == 0xffff
    }
}

/// For a root of more than 32 bytes, whether `path` holds its bytes
/// between its first and last 16.
#[cold]
#[inline(never)]
fn middle_matches(path: &[u8], root: &[u8]) -> bool {
    same_bytes(&path[..root.len()], root)
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
    /// ancestor of it: only the prefixes whose lengths some root has, and
    /// that end where a component does, are looked up.
    #[inline(always)]
    fn find(&self, path: &[u8]) -> Option<usize> {
        let n = path.len();
        let mut best: Option<usize> = None;
        for &len in self.lengths.iter() {
            if len > n {
                break;
            }
            if len == n || path[len] == b'/' {
                best = earliest(best, self.lookup(&path[..len]));
            }
        }
        best
    }

    /// The caller's first index of the root that is `prefix`, if any.
    #[inline(never)]
    fn lookup(&self, prefix: &[u8]) -> Option<usize> {
        let at = probe(&self.slots, prefix, path_hash(prefix)).ok()?;
        Some(self.slots[at].index)
    }
}

/// In `slots`, the slot of `path` (whose [`path_hash`] is `hash`), or
/// else the free slot where it would go.
#[inline(always)]
fn probe(slots: &[Slot], path: &[u8], hash: u64) -> Result<usize, usize> {
    let mask = slots.len() - 1;
    let mut at = hash as usize & mask;
    loop {
        let slot = &slots[at];
        if slot.hash == hash && slot.path.len() == path.len() && same_bytes(&slot.path, path) {
            return Ok(at);
        }
        if slot.path.is_empty() {
            return Err(at);
        }
        at = (at + 1) & mask;
    }
}

/// The hash of a root's path, for [`ManyRoots`]: its bytes as 8-byte words
/// (the last ones overlapping those before them), two words at a time
/// folded by one 64×64→128-bit multiply, as the `foldhash` crate does. A
/// root of 9 to 32 bytes costs one or two multiplications that do not
/// wait on each other. The length is mixed in, so a path and its prefix
/// differ even where their words coincide. Not resistant to chosen
/// collisions, which cost only time: roots come from the client's
/// configuration.
#[inline(always)]
fn path_hash(bytes: &[u8]) -> u64 {
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let n = bytes.len();
    let len = n as u64;
    if n < 8 {
        let mut padded = [0u8; 8];
        padded[..n].copy_from_slice(bytes);
        return fold(u64::from_le_bytes(padded) ^ K[0], len ^ K[1]);
    }
    if n <= 16 {
        return fold(word(0) ^ K[0], word(n - 8) ^ len ^ K[1]);
    }
    let mut acc = len;
    let mut at = 0;
    while n - at > 32 {
        acc = fold(word(at) ^ K[2], word(at + 8) ^ acc);
        acc ^= fold(word(at + 16) ^ K[3], word(at + 24) ^ K[0]);
        at += 32;
    }
    // The last 32 bytes, or all of a shorter root (its words then overlap).
    let (a, b) = if n >= 32 { (n - 32, n - 24) } else { (0, 8) };
    let low = fold(word(a) ^ K[0], word(b) ^ acc ^ K[1]);
    let high = fold(word(n - 16) ^ K[2], word(n - 8) ^ K[3]);
    low ^ high.rotate_left(23)
}

/// The high and low halves of a 128-bit product, xored.
#[inline(always)]
fn fold(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    (product as u64) ^ ((product >> 64) as u64)
}

/// Arbitrary constants: the first hex digits of pi's fraction.
const K: [u64; 4] = [
    0x243f_6a88_85a3_08d3,
    0x1319_8a2e_0370_7344,
    0xa409_3822_299f_31d0,
    0x082e_fa98_ec4e_6c89,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexical::is_within;

    /// A xorshift sequence from `seed`: each call gives a number below its
    /// argument.
    fn below(mut state: u64) -> impl FnMut(usize) -> usize {
        move |below: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % below as u64) as usize
        }
    }

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
        let hashed = many.many.as_ref().expect("hashed");
        assert_eq!(hashed.find(b"/r/p1 /a"), Some(22));
    }

    /// Paths that differ anywhere, in length alone or in one byte at any
    /// place, hash apart; the hash reads every byte.
    #[test]
    fn path_hash_reads_every_byte() {
        let hash = path_hash;
        let mut seen = std::collections::HashSet::new();
        for n in 0..=100 {
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

    /// Thousands of roots of many lengths, some repeated: each is found
    /// under its first index, and no prefix or extension of one is found
    /// as itself (the table's probes run long and wrap around its end).
    #[test]
    fn every_root_of_thousands_is_found_at_its_first_index() {
        let mut paths: Vec<String> = (0..3000)
            .map(|i| format!("/r{}/{i}", "d".repeat(i % 70)))
            .collect();
        paths.push("/".into());
        let again: Vec<String> = (0..500).map(|i| paths[i * 5].clone()).collect();
        paths.extend(again);
        let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
        let many = index(&refs);
        let hashed = many.many.as_ref().expect("hashed");
        assert_eq!(
            hashed.slots.iter().filter(|s| !s.path.is_empty()).count(),
            3000
        );
        assert!(hashed.slots.len() >= 6000);
        for (i, path) in refs.iter().enumerate().take(3000) {
            assert_eq!(hashed.find(path.as_bytes()), Some(i), "{path}");
            let longer = format!("{path}x");
            let inner = format!("{path}/x");
            assert_eq!(hashed.find(longer.as_bytes()), None, "{longer}");
            assert_eq!(hashed.find(inner.as_bytes()), Some(i), "{inner}");
            assert_eq!(many.find(inner.as_bytes()), Some(i), "{inner}");
        }
    }

    /// A slot is taken for `path` only when its bytes are `path`'s: a
    /// slot whose hash or length matches but whose bytes do not is probed
    /// past, as a real collision would be.
    #[test]
    fn probe_looks_past_forged_collisions() {
        let slot = |hash: u64, path: &[u8], index: usize| Slot {
            hash,
            path: path.into(),
            index,
        };
        let wanted = b"/srv/a";
        let hash = path_hash(wanted);
        let mut slots = vec![Slot::default(); 8];
        let home = hash as usize & 7;
        slots[home] = slot(hash, b"/srv/b", 0);
        slots[(home + 1) & 7] = slot(hash ^ 1, wanted, 1);
        slots[(home + 2) & 7] = slot(hash, b"/srv/ab", 2);
        assert_eq!(probe(&slots, wanted, hash), Err((home + 3) & 7));
        slots[(home + 3) & 7] = slot(hash, wanted, 3);
        assert_eq!(probe(&slots, wanted, hash), Ok((home + 3) & 7));
        // Probes wrap around the end of the table.
        let mut slots = vec![Slot::default(); 4];
        slots[3] = slot(7, b"/x", 0);
        slots[0] = slot(7, b"/y", 1);
        assert_eq!(probe(&slots, b"/y", 7), Ok(0));
        assert_eq!(probe(&slots, b"/z", 7), Err(1));
    }

    /// Roots that differ in a few bytes (numbered, in the middle, at the
    /// end, of every length) spread over the table as random hashes
    /// would: 4096 of them take at least 70% of the 8192 slots' low bits
    /// (random: 79%). A weak hash is never wrong, only slow; this is what
    /// keeps it from being slow.
    #[test]
    fn similar_roots_spread_over_the_table() {
        let families: [&dyn Fn(usize) -> String; 5] = [
            &|i| format!("/srv/ws/r{i:04}/proj"),
            &|i| format!("/home/{i}"),
            &|i| format!("/a/{:0>60}/b", i),
            &|i| format!("/{}", "x".repeat(1 + i % 100)) + &format!("/{}", i / 100),
            &|i| format!("/data/projects/shared/client-{i:05}"),
        ];
        for (f, family) in families.iter().enumerate() {
            let low: std::collections::HashSet<u64> = (0..4096)
                .map(|i| path_hash(family(i).as_bytes()) & 8191)
                .collect();
            assert!(low.len() >= 2867, "family {f}: {} of 4096", low.len());
        }
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

    /// The 16-byte compares of a root among few, against their definition
    /// ([`is_at_or_beneath`], [`has_dot_slash_or_nul_long`]) and against
    /// the portable compare: roots of every length from 1 to 70 (shorter
    /// than 16, up to 32 and longer), and paths that hold the root and
    /// then `/`, another byte or nothing, with one byte changed at every
    /// place in turn.
    #[test]
    fn few_root_compares_match_their_definitions() {
        let mut next = below(0x5DEE_CE66_D1CE_4E5B_u64);
        let mut checked = [0usize; 2];
        for len in 1..=70 {
            let root: Vec<u8> = (0..len)
                .map(|k| if k == 0 || next(5) == 0 { b'/' } else { b'r' })
                .collect();
            let few = FewRoot::new(root.clone().into_boxed_slice(), 7);
            for after in [&b""[..], b"/", b"2", b"/x/y.z", b"//.", b"\0"] {
                let mut path = root.clone();
                path.extend_from_slice(after);
                // Long enough for the compares, and sometimes far longer.
                while path.len() < 17 || next(3) == 0 {
                    path.push([b'/', b'p', b'.', b'q'][next(4)]);
                }
                for change in std::iter::once(None).chain((0..path.len()).map(Some)) {
                    let mut path = path.clone();
                    if let Some(at) = change {
                        path[at] ^= [0x01, 0x20, 0x80][next(3)];
                    }
                    let inside = is_at_or_beneath(&path, &root);
                    checked[usize::from(inside)] += 1;
                    let text = path.escape_ascii().to_string();
                    assert_eq!(few.begins_long(&path), inside, "{text} in root {len}");
                    assert_eq!(
                        few.ends_match(&path),
                        few.ends_match_portable(&path),
                        "{text} in root {len}"
                    );
                    assert_eq!(
                        few.scan_and_begins(&path),
                        (has_dot_slash_or_nul_long(&path), inside),
                        "{text} in root {len}"
                    );
                }
            }
        }
        assert!(checked[0] > 10_000 && checked[1] > 1_000, "{checked:?}");
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
        let mut next = below(0x0123_4567_89AB_CDEF_u64);
        let mut out = Vec::new();
        for round in 0..1000 {
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
