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
/// use rootguard::NormalPath;
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
pub(crate) fn is_normal(bytes: &[u8]) -> bool {
    static DOUBLE_SLASH: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"//"));
    match bytes {
        [] => false,
        [only] => *only == b'/',
        [first, .., last] => {
            // Every dot segment starts with a '.' right after a '/': one
            // pass finds the dots and any NUL, a second any empty segment.
            *first == b'/'
                && *last != b'/'
                && memchr::memchr2_iter(b'.', 0, bytes).all(|at| {
                    bytes[at] == b'.'
                        && !(bytes[at - 1] == b'/'
                            && matches!(
                                &bytes[at + 1..],
                                [] | [b'/', ..] | [b'.'] | [b'.', b'/', ..]
                            ))
                })
                && DOUBLE_SLASH.find(bytes).is_none()
        }
    }
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
/// Both must be normal paths as [`NormalPath`] makes them.
pub(crate) fn is_within(path: &[u8], root: &[u8]) -> bool {
    if root == b"/" {
        return true;
    }
    path.starts_with(root) && (path.len() == root.len() || path[root.len()] == b'/')
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
