//! Finding the roots that contain a path without scanning every root.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::lexical::is_within;

/// Up to this many roots, a linear scan beats hashing.
const LINEAR_MAX: usize = 8;

/// The roots' normal paths, arranged so that `find` costs about the same
/// for 1 root as for 4096.
#[derive(Clone, Debug, Default)]
pub(crate) struct RootIndex {
    /// Every root as (normal path, its index in the caller's list), in the
    /// caller's order.
    roots: Vec<(Vec<u8>, usize)>,
    /// For many roots: FNV-1a hash of a root's path -> positions in `roots`.
    by_hash: Option<HashMap<u64, Vec<usize>, BuildHasherDefault<PrehashedHasher>>>,
    /// The first `/` root, which contains everything.
    slash: Option<usize>,
}

impl RootIndex {
    pub(crate) fn new(roots: Vec<(Vec<u8>, usize)>) -> RootIndex {
        let slash = roots.iter().find(|(p, _)| p == b"/").map(|&(_, i)| i);
        let by_hash = (roots.len() > LINEAR_MAX).then(|| {
            let mut map: HashMap<u64, Vec<usize>, _> = HashMap::default();
            for (position, (path, _)) in roots.iter().enumerate() {
                map.entry(fnv1a(FNV_OFFSET, path))
                    .or_default()
                    .push(position);
            }
            map
        });
        RootIndex {
            roots,
            by_hash,
            slash,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.roots.len()
    }

    /// The caller's index of the first root (in the caller's order) that is
    /// `path` or an ancestor of it. `path` must be normal.
    pub(crate) fn find(&self, path: &[u8]) -> Option<usize> {
        let Some(map) = &self.by_hash else {
            return self
                .roots
                .iter()
                .find(|(root, _)| is_within(path, root))
                .map(|&(_, index)| index);
        };
        let mut best = self.slash;
        let mut consider = |prefix: &[u8], hash: u64| {
            for &position in map.get(&hash).into_iter().flatten() {
                let (root, index) = &self.roots[position];
                if root == prefix && best.is_none_or(|b| *index < b) {
                    best = Some(*index);
                }
            }
        };
        // One pass: the hash of each '/'-bounded prefix is the running hash
        // just before that '/'.
        let mut hash = FNV_OFFSET;
        for (i, &byte) in path.iter().enumerate() {
            if byte == b'/' && i > 0 {
                consider(&path[..i], hash);
            }
            hash = fnv1a(hash, &[byte]);
        }
        if path.len() > 1 {
            consider(path, hash);
        }
        best
    }
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// The keys are already hashes: pass them through.
#[derive(Default)]
pub(crate) struct PrehashedHasher(u64);

impl Hasher for PrehashedHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0 = fnv1a(self.0, bytes);
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
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
        assert!(many.by_hash.is_some());
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
