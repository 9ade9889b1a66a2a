//! Finding the roots that contain a path without scanning every root.

use rustc_hash::FxHashMap;

use crate::lexical::is_within;

/// Up to this many roots, a linear scan beats hashing.
const LINEAR_MAX: usize = 8;

/// The roots' normal paths, arranged so that `find` costs about the same
/// for 4096 roots as for 16.
#[derive(Clone, Debug, Default)]
pub(crate) struct RootIndex {
    /// Every root as (normal path, its index in the caller's list), in the
    /// caller's order.
    roots: Vec<(Vec<u8>, usize)>,
    /// For many roots: a hash lookup instead of a scan.
    many: Option<ManyRoots>,
    /// The first `/` root, which contains everything.
    slash: Option<usize>,
}

#[derive(Clone, Debug, Default)]
struct ManyRoots {
    /// A root's path -> the first caller's index with that path.
    by_path: FxHashMap<Vec<u8>, usize>,
    /// A bitset of the byte lengths roots have, so that only the prefixes
    /// of those lengths are looked up.
    lengths: Box<[u64]>,
}

impl RootIndex {
    pub(crate) fn new(roots: Vec<(Vec<u8>, usize)>) -> RootIndex {
        let slash = roots.iter().find(|(p, _)| p == b"/").map(|&(_, i)| i);
        let many = (roots.len() > LINEAR_MAX).then(|| {
            let longest = roots.iter().map(|(p, _)| p.len()).max().unwrap_or(0);
            let mut lengths = vec![0u64; longest / 64 + 1].into_boxed_slice();
            let mut map = FxHashMap::default();
            for (path, index) in &roots {
                lengths[path.len() / 64] |= 1 << (path.len() % 64);
                map.entry(path.clone()).or_insert(*index);
            }
            ManyRoots {
                by_path: map,
                lengths,
            }
        });
        RootIndex { roots, many, slash }
    }

    /// The caller's index of the first root (in the caller's order) that is
    /// `path` or an ancestor of it. `path` must be normal.
    pub(crate) fn find(&self, path: &[u8]) -> Option<usize> {
        let Some(ManyRoots { by_path, lengths }) = &self.many else {
            return self
                .roots
                .iter()
                .find(|(root, _)| is_within(path, root))
                .map(|&(_, index)| index);
        };
        let has_length = |len: usize| {
            lengths
                .get(len / 64)
                .is_some_and(|w| w & (1 << (len % 64)) != 0)
        };
        let mut best = self.slash;
        // Every ancestor of a normal path ends just before one of its '/'.
        let ends = memchr::memchr_iter(b'/', path)
            .skip(1)
            .chain(std::iter::once(path.len()));
        for end in ends.filter(|&end| has_length(end)) {
            if let Some(&index) = by_path.get(&path[..end]) {
                if best.is_none_or(|b| index < b) {
                    best = Some(index);
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
