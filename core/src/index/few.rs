//! A root among few, and the 16-byte compares that tell whether it begins
//! a path: SSE2 on x86_64 (the unsafe kernels, each with why its loads stay
//! in bounds), a portable compare elsewhere.

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
use crate::normal::has_dot_slash_or_nul_long;
use crate::normal::same_bytes;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use crate::normal::windows_sse2;
use crate::root_id::RootId;

/// A root (never `/`) among few, kept ready for the compare of a path of
/// 16 bytes or more: its first and last 16 bytes are in the struct, so
/// that for a root of up to 32 bytes the compare is two 16-byte compares,
/// with no branch on the root's length and no pointer to follow.
#[derive(Clone, Debug)]
pub(super) struct FewRoot {
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
    pub(super) path: Box<[u8]>,
    /// Which root it is.
    pub(super) id: RootId,
}

impl FewRoot {
    pub(super) fn new(path: Box<[u8]>, id: RootId) -> FewRoot {
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
            id,
        }
    }

    /// For a path of 17 bytes or more, at once: whether it has a `/`
    /// followed by `.` or `/`, or a NUL but at its end
    /// ([`has_dot_slash_or_nul_long`]), and whether this root is the path or an
    /// ancestor of it ([`is_at_or_beneath`]).
    #[inline(always)]
    pub(super) fn scan_and_begins(&self, path: &[u8]) -> (bool, bool) {
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
    pub(super) fn begins_long(&self, path: &[u8]) -> bool {
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
        let flagged = _mm_movemask_epi8(windows_sse2(path)) != 0;
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

#[cfg(test)]
mod tests {
    use super::super::testing::below;
    use super::*;
    use crate::normal::{has_dot_slash_or_nul_long, is_at_or_beneath};

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
            let few = FewRoot::new(root.clone().into_boxed_slice(), RootId::new(7));
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
}
