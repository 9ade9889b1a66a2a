//! Lexical normalization of absolute paths, as bytes, without the file system.

use std::ffi::OsStr;
use std::fmt;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// An absolute path with `.`, `..` and empty segments removed by text alone.
///
/// `..` is clamped at `/`. Whether the original ended in `/` is kept as a
/// fact ([`NormalPath::trailing_slash`]), since to the kernel `dir/` demands
/// a directory. This is *not* where the path leads when links are involved:
/// `link/..` is the parent of the link's target, not the link's directory.
///
/// # Examples
///
/// ```
/// use rootguard::lexical::NormalPath;
/// let p = NormalPath::new("/a/./b//c/../../d/").unwrap();
/// assert_eq!(p.as_path(), std::path::Path::new("/a/d"));
/// assert!(p.trailing_slash());
/// assert_eq!(NormalPath::new("/../..").unwrap().as_path(), std::path::Path::new("/"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NormalPath {
    path: PathBuf,
    trailing_slash: bool,
}

/// Why a path cannot be normalized.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LexicalError {
    /// The path does not start with `/`; tool arguments must be absolute.
    NotAbsolute,
    /// The path holds a NUL byte, which no system call accepts.
    NulByte,
}

impl fmt::Display for LexicalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LexicalError::NotAbsolute => {
                f.write_str("the path is not absolute: give a path that starts with '/'")
            }
            LexicalError::NulByte => {
                f.write_str("the path holds a NUL byte: no file has such a name")
            }
        }
    }
}

impl std::error::Error for LexicalError {}

impl NormalPath {
    /// Normalizes an absolute path.
    ///
    /// # Errors
    ///
    /// [`LexicalError::NotAbsolute`] for a relative or empty path,
    /// [`LexicalError::NulByte`] for a path with a NUL byte.
    pub fn new(path: impl AsRef<OsStr>) -> Result<NormalPath, LexicalError> {
        let bytes = path.as_ref().as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let trailing_slash = normalize_into(bytes, &mut out)?;
        Ok(NormalPath {
            path: PathBuf::from(OsStr::from_bytes(&out)),
            trailing_slash,
        })
    }

    /// The normal path.
    pub fn as_path(&self) -> &Path {
        &self.path
    }

    /// Whether the original path ended in `/` (or in `/.`, `/..`), so that
    /// its last component must be a directory.
    pub fn trailing_slash(&self) -> bool {
        self.trailing_slash
    }

    /// Consumes it, giving the path.
    pub fn into_path_buf(self) -> PathBuf {
        self.path
    }
}

/// Whether `bytes` is already an absolute normal path: no `.`, `..` or
/// empty segment and no trailing `/` (except `/` itself). Never allocates.
///
/// The common case, a path with no `/.`, no `//` and no NUL anywhere, is
/// decided by one pass over 16-byte windows that the compiler turns into
/// SIMD compares; anything that pass flags (a `.hidden` name as much as a
/// real `..`) is decided exactly by [`is_normal_exact`].
///
/// The pass reads the whole path, root's bytes included, and nothing but
/// the path: a caller that also compares the path with a root does not make
/// the pass wait for that compare, and the CPU runs both side by side.
/// (Starting the pass where a matching root ends reads fewer bytes but
/// waits for the match; on paths of a few dozen bytes that was slower.)
#[inline(always)]
pub(crate) fn is_normal(bytes: &[u8]) -> bool {
    match bytes {
        [] => false,
        [only] => *only == b'/',
        [first, .., last] => {
            *first == b'/'
                && *last != b'/'
                && *last != 0
                && (!has_dot_slash_or_nul(bytes) || is_normal_exact(bytes))
        }
    }
}

/// Whether some `/` in `bytes` is followed by `.` or `/`, or some byte but
/// the last is NUL. Every dot segment and empty segment makes this true,
/// and every NUL but a last one.
#[inline(always)]
pub(crate) fn has_dot_slash_or_nul(bytes: &[u8]) -> bool {
    let n = bytes.len();
    if n < 17 {
        // Pad with a byte that is none of '/', '.' and NUL.
        let mut padded = [b'a'; 17];
        padded[..n].copy_from_slice(bytes);
        return has_dot_slash_or_nul_long(&padded);
    }
    has_dot_slash_or_nul_long(bytes)
}

/// [`has_dot_slash_or_nul`] for `bytes` of 17 or more.
#[inline(always)]
pub(crate) fn has_dot_slash_or_nul_long(bytes: &[u8]) -> bool {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    // SAFETY: SSE2 is enabled for this target (the cfg above).
    return unsafe { std::arch::x86_64::_mm_movemask_epi8(windows_sse2(bytes)) } != 0;
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    return windows_portable(bytes);
}

/// Where the windows of 17 bytes go, for `n` bytes (17 or more): the first
/// and the one that ends with the bytes, then every 16 bytes between them.
/// Each window's place depends on the length alone, so none waits for
/// another, nor for anything else the caller does with the bytes.
/// Together they look at every byte but the last as the first of a pair.
#[inline(always)]
fn window_starts(n: usize) -> impl Iterator<Item = usize> {
    let last = n - 17;
    [0, last].into_iter().chain((16..last).step_by(16))
}

/// For `bytes` of 17 or more, with SSE2 (which every x86_64 has): a byte
/// set at each place of a window (see [`window_starts`]) that holds a `/`
/// followed by `.` or `/` (`.` and `/` differ only in the low bit), or a
/// NUL; the windows OR-ed together. A dozen instructions a window.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
pub(crate) fn windows_sse2(bytes: &[u8]) -> std::arch::x86_64::__m128i {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_or_si128, _mm_set1_epi8,
        _mm_setzero_si128,
    };
    let n = bytes.len();
    assert!(n >= 17);
    let p = bytes.as_ptr();
    // SAFETY: SSE2 is enabled for this target (the cfg above). Each load
    // reads 16 bytes at `at` or `at + 1`, for `at` at most `n - 17`: within
    // `bytes`.
    unsafe {
        let load = |at: usize| _mm_loadu_si128(p.add(at).cast::<__m128i>());
        let slash = _mm_set1_epi8(b'/' as i8);
        let one = _mm_set1_epi8(1);
        let window = |at: usize| {
            let (now, next) = (load(at), load(at + 1));
            let pair = _mm_and_si128(
                _mm_cmpeq_epi8(now, slash),
                _mm_cmpeq_epi8(_mm_or_si128(next, one), slash),
            );
            _mm_or_si128(pair, _mm_cmpeq_epi8(now, _mm_setzero_si128()))
        };
        // The windows of `window_starts`, written out: an iterator here
        // costs five times the whole check.
        let last = n - 17;
        let mut hits = _mm_or_si128(window(0), window(last));
        let mut at = 16;
        while at < last {
            hits = _mm_or_si128(hits, window(at));
            at += 16;
        }
        hits
    }
}

/// [`has_dot_slash_or_nul_long`] for every other target (and the tests'
/// reference): the same windows, one byte at a time.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
fn windows_portable(bytes: &[u8]) -> bool {
    window_starts(bytes.len())
        .any(|at| window_portable(bytes[at..at + 17].try_into().expect("17 bytes")))
}

/// One window of 17 bytes: whether one of its first 16 is a `/` followed
/// by `.` or `/`, or is NUL.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
fn window_portable(window: &[u8; 17]) -> bool {
    let mut hits = [0u8; 16];
    for k in 0..16 {
        let (now, next) = (window[k], window[k + 1]);
        hits[k] = u8::from(now == 0 || (now == b'/' && (next | 1) == b'/'));
    }
    u128::from_ne_bytes(hits) != 0
}

/// [`is_normal`] for a path that has a `/.`, `//` or NUL somewhere; it
/// starts with `/` and does not end with one (the callers check both).
pub(crate) fn is_normal_exact(bytes: &[u8]) -> bool {
    // Byte by byte: a SIMD search per '/' (or a `memmem` for "//") cost
    // more to set up than this on a path of a few dozen bytes, such as one
    // through a `.hidden` directory.
    !bytes.contains(&0)
        && bytes
            .split(|&b| b == b'/')
            .skip(1)
            .all(|segment| !matches!(segment, b"" | b"." | b".."))
}

/// Writes the normal form of `bytes` into `out` (cleared first) and returns
/// whether the path ended as a directory (`/`, `/.` or `/..`).
pub(crate) fn normalize_into(bytes: &[u8], out: &mut Vec<u8>) -> Result<bool, LexicalError> {
    if bytes.contains(&0) {
        return Err(LexicalError::NulByte);
    }
    if bytes.first() != Some(&b'/') {
        return Err(LexicalError::NotAbsolute);
    }
    out.clear();
    let mut trailing_slash = false;
    for segment in bytes.split(|&b| b == b'/') {
        trailing_slash = matches!(segment, b"" | b"." | b"..");
        match segment {
            b"" | b"." => {}
            b".." => {
                let cut = out.iter().rposition(|&b| b == b'/').unwrap_or(0);
                out.truncate(cut);
            }
            name => {
                out.push(b'/');
                out.extend_from_slice(name);
            }
        }
    }
    if out.is_empty() {
        out.push(b'/');
    }
    Ok(trailing_slash && bytes.len() > 1)
}

/// Whether `path` is `root` or lies beneath it, comparing whole components.
/// (The index keeps `/` apart and uses [`is_at_or_beneath`]; this is the
/// definition the tests hold it to.)
/// Both must be normal paths as [`NormalPath`] makes them.
pub(crate) fn is_within(path: &[u8], root: &[u8]) -> bool {
    root == b"/" || is_at_or_beneath(path, root)
}

/// [`is_within`] for a root other than `/`.
#[inline(always)]
pub(crate) fn is_at_or_beneath(path: &[u8], root: &[u8]) -> bool {
    // `&` rather than `&&` past the length test: both halves are cheap, and
    // one branch on their result predicts better than two.
    path.len() >= root.len()
        && same_bytes(&path[..root.len()], root)
            & path.get(root.len()).is_none_or(|&next| next == b'/')
}

/// `a == b` for slices of the same length, compared in fixed-size chunks
/// the compiler keeps inline (a root is a few dozen bytes; a call to
/// `memcmp` costs as much as the compare).
#[inline(always)]
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    fn chunk<const N: usize>(s: &[u8], from: usize) -> [u8; N] {
        s[from..from + N].try_into().expect("N bytes")
    }
    let n = a.len();
    debug_assert_eq!(n, b.len());
    match n {
        0..=7 => a == b,
        8..=16 => {
            (chunk::<8>(a, 0) == chunk::<8>(b, 0)) & (chunk::<8>(a, n - 8) == chunk::<8>(b, n - 8))
        }
        17..=32 => {
            (chunk::<16>(a, 0) == chunk::<16>(b, 0))
                & (chunk::<16>(a, n - 16) == chunk::<16>(b, n - 16))
        }
        _ => {
            let mut from = 0;
            while n - from > 16 {
                if chunk::<16>(a, from) != chunk::<16>(b, from) {
                    return false;
                }
                from += 16;
            }
            chunk::<16>(a, n - 16) == chunk::<16>(b, n - 16)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(p: &str) -> (String, bool) {
        let n = NormalPath::new(p).unwrap();
        (
            n.as_path().to_string_lossy().into_owned(),
            n.trailing_slash(),
        )
    }

    #[test]
    fn removes_dots_and_empty_segments() {
        assert_eq!(norm("/"), ("/".into(), false));
        assert_eq!(norm("//"), ("/".into(), true));
        assert_eq!(norm("/a/b"), ("/a/b".into(), false));
        assert_eq!(norm("/a//b/"), ("/a/b".into(), true));
        assert_eq!(norm("/a/./b/."), ("/a/b".into(), true));
        assert_eq!(norm("/a/b/.."), ("/a".into(), true));
        assert_eq!(norm("/.."), ("/".into(), true));
        assert_eq!(norm("/../../a"), ("/a".into(), false));
        assert_eq!(norm("/a/.../b"), ("/a/.../b".into(), false));
        assert_eq!(norm("/a/..b/c.."), ("/a/..b/c..".into(), false));
    }

    #[test]
    fn accessors() {
        let p = NormalPath::new("/a/./b/").unwrap();
        assert_eq!(p.as_path(), Path::new("/a/b"));
        assert!(p.trailing_slash());
        assert_eq!(p.into_path_buf(), PathBuf::from("/a/b"));
    }

    #[test]
    fn errors() {
        assert_eq!(NormalPath::new(""), Err(LexicalError::NotAbsolute));
        assert_eq!(NormalPath::new("a/b"), Err(LexicalError::NotAbsolute));
        assert_eq!(NormalPath::new("./a"), Err(LexicalError::NotAbsolute));
        assert_eq!(NormalPath::new("/a\0b"), Err(LexicalError::NulByte));
    }

    #[test]
    fn non_utf8_bytes_survive() {
        let p = NormalPath::new(OsStr::from_bytes(b"/a/\xff\xfe/../\x80")).unwrap();
        assert_eq!(p.as_path().as_os_str().as_bytes(), b"/a/\x80");
    }

    #[test]
    fn normal_detection_matches_normalization() {
        for p in [
            "/", "/a", "/a/b", "/a/", "/a//b", "/a/./b", "/a/../b", "/..", "/.", "a", "", "/a/.b",
            "/a/b..", "/a\0",
        ] {
            let mut out = Vec::new();
            let expected = normalize_into(p.as_bytes(), &mut out)
                .map(|_| out == p.as_bytes())
                .unwrap_or(false);
            assert_eq!(is_normal(p.as_bytes()), expected, "{p:?}");
        }
    }

    /// The windowed scan against normalization, on every length around
    /// the 16-byte windows and every placement of the bytes that matter.
    #[test]
    fn normal_detection_matches_normalization_at_every_window_edge() {
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut out = Vec::new();
        for len in 1..=70 {
            let mut normal = 0;
            for _ in 0..3000 {
                let mut path: Vec<u8> = (0..len)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        // Mostly plain names, so that normal paths are common.
                        match state % 100 {
                            0 => 0,
                            1..=15 => b'/',
                            16..=23 => b'.',
                            _ => b'n',
                        }
                    })
                    .collect();
                path[0] = b'/';
                let expected = normalize_into(&path, &mut out)
                    .map(|_| out == path)
                    .unwrap_or(false);
                assert_eq!(
                    is_normal(&path),
                    expected,
                    "{:?}",
                    path.escape_ascii().to_string()
                );
                normal += usize::from(expected);
                // The scan itself, not only the verdict (the exact check
                // behind it would hide a scan that flags too much): it
                // flags exactly a '/' followed by '.' or '/', or a NUL,
                // anywhere but the last byte (a last NUL is the caller's to
                // see, which a window may or may not flag).
                if len >= 17 {
                    assert_eq!(
                        windows_portable(&path),
                        has_dot_slash_or_nul_long(&path),
                        "{:?}",
                        path.escape_ascii().to_string()
                    );
                }
                if len >= 2 && path[len - 1] != 0 {
                    let bad = |i: usize| {
                        path[i] == 0 || (path[i] == b'/' && matches!(path[i + 1], b'.' | b'/'))
                    };
                    assert_eq!(
                        has_dot_slash_or_nul(&path),
                        (0..len - 1).any(bad),
                        "{:?}",
                        path.escape_ascii().to_string()
                    );
                }
            }
            assert!(normal > 100, "only {normal} normal paths of length {len}");
        }
    }

    /// Both window kernels agree on every placement of `/`, `.`, NUL and a
    /// plain byte (four symbols over 17 positions, sampled).
    #[test]
    fn window_kernels_agree() {
        let symbols = [b'/', b'.', 0, b'a'];
        let mut state = 0x2545_F491_4F6C_DD1D_u64;
        let mut seen = [0usize; 2];
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mut window = [0u8; 17];
            for (k, byte) in window.iter_mut().enumerate() {
                // Mostly plain bytes, so that both answers are common.
                let pick = (state >> (k * 3)) & 7;
                *byte = if pick < 4 {
                    b'a'
                } else {
                    symbols[(pick - 4) as usize]
                };
            }
            state = state.rotate_left(17) ^ 0x9E37_79B9;
            let portable = window_portable(&window);
            seen[usize::from(portable)] += 1;
            assert_eq!(
                has_dot_slash_or_nul_long(&window),
                portable,
                "{:?}",
                window.escape_ascii().to_string()
            );
        }
        assert!(seen[0] > 1000 && seen[1] > 1000, "{seen:?}");
        // Each thing the kernels look for, alone in a window.
        assert!(window_portable(b"aaaaaaaaaaaaaa//a"));
        assert!(window_portable(b"aaaaaaaaaaaaaa/.a"));
        assert!(window_portable(b"aaaaaaa\0aaaaaaaaa"));
        assert!(window_portable(b"aaaaaaaaaaaaaaa/."));
        assert!(!window_portable(b"aaaaaaaaaaaaaaaa/"));
        assert!(!window_portable(b"/aaaaaaaaaaaaaaaa"));
        assert!(window_portable(b"\0aaaaaaaaaaaaaaaa"));
        // The 17th byte is only ever a follower; a NUL there is the next
        // window's (or the caller's) to see.
        assert!(!window_portable(b"aaaaaaaaaaaaaaaa\0"));
    }

    /// Every length from 0 to 70, equal and with one byte changed at each
    /// position in turn.
    #[test]
    fn same_bytes_compares_every_byte() {
        for n in 0..=70 {
            let a: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
            assert!(same_bytes(&a, &a.clone()), "{n}");
            for at in 0..n {
                let mut b = a.clone();
                b[at] ^= 0x20;
                assert!(!same_bytes(&a, &b), "{n} {at}");
            }
        }
    }

    #[test]
    fn containment_is_by_whole_components() {
        assert!(is_within(b"/x/proj", b"/x/proj"));
        assert!(is_within(b"/x/proj/a", b"/x/proj"));
        assert!(!is_within(b"/x/proj2", b"/x/proj"));
        assert!(!is_within(b"/x/proj.bak/a", b"/x/proj"));
        assert!(!is_within(b"/x/proj ", b"/x/proj"));
        assert!(!is_within(b"/x/proj'", b"/x/proj"));
        assert!(!is_within(b"/x", b"/x/proj"));
        assert!(is_within(b"/anything", b"/"));
        assert!(is_within(b"/", b"/"));
    }
}
