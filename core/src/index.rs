//! Finding the roots that contain a path without scanning every root:
//! a few roots are compared 16 bytes at a time ([`few`]), many are looked
//! up by hash ([`many`], hashed by [`hash`]).

mod few;
mod hash;
mod many;
#[cfg(test)]
mod testing;

use self::few::FewRoot;
use self::many::ManyRoots;
use crate::normal::{has_dot_slash_or_nul_long, is_at_or_beneath, is_normal, is_normal_exact};
use crate::root_id::{earliest, RootId};

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
    slash: Option<RootId>,
}

impl RootIndex {
    /// The index of `roots`: each one's normal path and which root it is,
    /// in the caller's order.
    pub(crate) fn new(roots: Vec<(Vec<u8>, RootId)>) -> RootIndex {
        let slash = roots.iter().find(|(p, _)| p == b"/").map(|&(_, id)| id);
        let others: Vec<(Box<[u8]>, RootId)> = roots
            .into_iter()
            .filter(|(p, _)| p != b"/")
            .map(|(p, i)| (p.into_boxed_slice(), i))
            .collect();
        if others.len() <= LINEAR_MAX {
            let mut few = others.into_iter().map(|(path, id)| FewRoot::new(path, id));
            return RootIndex {
                first: few.next(),
                few: few.collect(),
                many: None,
                slash,
            };
        }
        RootIndex {
            first: None,
            few: Box::default(),
            many: Some(ManyRoots::new(others)),
            slash,
        }
    }

    /// The first root (in the caller's order) that is `path` or an
    /// ancestor of it. `path` must be normal.
    #[inline]
    pub(crate) fn find(&self, path: &[u8]) -> Option<RootId> {
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
    pub(crate) fn find_if_normal(&self, path: &[u8]) -> Option<Option<RootId>> {
        let n = path.len();
        // `first` is there only when `many` is not.
        let (flagged, found) = match (&self.first, &self.many, n) {
            (Some(first), _, 17..) => {
                let (flagged, inside) = first.scan_and_begins(path);
                let found = if inside {
                    Some(first.id)
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
    fn find_if_normal_other(&self, path: &[u8]) -> Option<Option<RootId>> {
        is_normal(path).then(|| self.find(path))
    }

    /// Among few roots but the first, the first that begins `path` (of 16
    /// bytes or more).
    #[inline(never)]
    fn few_but_first(&self, path: &[u8]) -> Option<RootId> {
        self.few
            .iter()
            .find(|root| root.begins_long(path))
            .map(|root| root.id)
    }
}

impl RootIndex {
    /// The first root but `/` (in the caller's order) that is `path` or an
    /// ancestor of it, among few roots or many.
    #[inline(always)]
    fn find_but_slash(&self, path: &[u8]) -> Option<RootId> {
        match &self.many {
            None => self
                .first
                .iter()
                .chain(self.few.iter())
                .find(|root| is_at_or_beneath(path, &root.path))
                .map(|root| root.id),
            Some(many) => many.find(path),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testing::below;
    use super::*;
    use crate::normal::is_within;

    fn index(paths: &[&str]) -> RootIndex {
        RootIndex::new(
            paths
                .iter()
                .enumerate()
                .map(|(i, p)| (p.as_bytes().to_vec(), RootId::new(i)))
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
            assert_eq!(
                many.find(probe.as_bytes()).map(RootId::index),
                linear,
                "{probe}"
            );
        }
        assert_eq!(many.find(b"/r/p3/inner/f").map(RootId::index), Some(3));
        let hashed = many.many.as_ref().expect("hashed");
        assert_eq!(hashed.find(b"/r/p1 /a").map(RootId::index), Some(22));
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
            assert_eq!(
                hashed.find(path.as_bytes()).map(RootId::index),
                Some(i),
                "{path}"
            );
            let longer = format!("{path}x");
            let inner = format!("{path}/x");
            assert_eq!(
                hashed.find(longer.as_bytes()).map(RootId::index),
                None,
                "{longer}"
            );
            assert_eq!(
                hashed.find(inner.as_bytes()).map(RootId::index),
                Some(i),
                "{inner}"
            );
            assert_eq!(
                many.find(inner.as_bytes()).map(RootId::index),
                Some(i),
                "{inner}"
            );
        }
    }

    #[test]
    fn slash_root_contains_everything() {
        let mut paths: Vec<String> = (0..10).map(|i| format!("/r/p{i}")).collect();
        paths.push("/".into());
        let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
        let many = index(&refs);
        assert_eq!(many.find(b"/etc/passwd").map(RootId::index), Some(10));
        assert_eq!(many.find(b"/r/p2/a").map(RootId::index), Some(2));
        assert_eq!(index(&["/"]).find(b"/").map(RootId::index), Some(0));
        assert_eq!(index(&[]).find(b"/").map(RootId::index), None);
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
                let expected = crate::normal::normalize_into(bytes, &mut out)
                    .ok()
                    .map(|_| refs.iter().position(|r| is_within(&out, r.as_bytes())));
                match index.find_if_normal(bytes) {
                    Some(found) => {
                        assert!(crate::normal::is_normal(bytes), "{path:?} is not normal");
                        assert_eq!(
                            Some(found.map(RootId::index)),
                            expected,
                            "{path:?} in {refs:?}"
                        );
                    }
                    None => assert!(!crate::normal::is_normal(bytes), "{path:?} is normal"),
                }
                if let Some(expected) = expected {
                    assert_eq!(
                        index.find(&out).map(RootId::index),
                        expected,
                        "{:?} in {refs:?}",
                        out.escape_ascii().to_string()
                    );
                }
            }
        }
    }
}
