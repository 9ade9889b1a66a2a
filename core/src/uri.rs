//! Root URIs: the strict `file:` URI grammar of semantics §1.
//!
//! The `url` crate is deliberately not used here: it accepts `\` as a
//! separator in file URLs, its `to_file_path` decodes `%2F` into a separator
//! and never checks the scheme, and it silently repairs characters that the
//! rules below must refuse. The grammar is small enough to state directly.

use std::ffi::OsString;
use std::fmt;
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// A valid root URI, reduced to the absolute, lexically normal path it names.
///
/// The path has no `.` or `..` segment, no empty segment and no trailing
/// slash (except the root `/` itself). It has not been resolved: links in it
/// are still links. [`crate::Roots`] resolves it.
///
/// # Examples
///
/// ```
/// use rootguard::RootUri;
/// let uri = RootUri::parse("file://localhost/home/u/a%20b/./x/..").unwrap();
/// assert_eq!(uri.path(), std::path::Path::new("/home/u/a b"));
/// assert!(RootUri::parse("file://server/share").is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RootUri {
    path: PathBuf,
}

/// Why a root URI is invalid. Each variant names the rule of semantics §1
/// that the URI breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UriError {
    /// The string is empty.
    Empty,
    /// There is no `scheme:` at the start.
    MissingScheme,
    /// Rule 1: the scheme is not `file`.
    NotFileScheme {
        /// The scheme that was given.
        scheme: String,
    },
    /// Rule 2: the authority names a host other than `localhost`.
    HostNotAllowed {
        /// The authority as written.
        host: String,
    },
    /// Rule 2: the authority carries userinfo (`user@`).
    UserinfoNotAllowed,
    /// Rule 2: the authority carries a port.
    PortNotAllowed,
    /// Rule 2: the path after the scheme and authority does not start with `/`.
    PathNotAbsolute,
    /// Rule 3: the URI has a query (`?`).
    QueryNotAllowed,
    /// Rule 3: the URI has a fragment (`#`).
    FragmentNotAllowed,
    /// Rule 4: a character that RFC 3986 does not allow in a path.
    ForbiddenCharacter {
        /// The character.
        ch: char,
        /// Its byte offset in the URI.
        offset: usize,
    },
    /// Rule 4: a `%` not followed by two hex digits.
    BadPercentEscape {
        /// Byte offset of the `%` in the URI.
        offset: usize,
    },
    /// Rule 5: `%2F` would smuggle a separator into a segment.
    EncodedSlash {
        /// Byte offset of the escape in the URI.
        offset: usize,
    },
    /// Rule 5: `%00` would smuggle a terminator into a segment.
    EncodedNul {
        /// Byte offset of the escape in the URI.
        offset: usize,
    },
}

impl fmt::Display for UriError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UriError::Empty => f.write_str("empty root URI: give a file:///absolute/path URI"),
            UriError::MissingScheme => {
                f.write_str("no scheme: a root must be a URI such as file:///home/u/project, not a bare path")
            }
            UriError::NotFileScheme { scheme } => write!(
                f,
                "scheme {scheme:?} is not \"file\": only file: URIs name local directories"
            ),
            UriError::HostNotAllowed { host } => write!(
                f,
                "host {host:?} is not allowed: use file:///path or file://localhost/path (no remote files)"
            ),
            UriError::UserinfoNotAllowed => {
                f.write_str("userinfo (user@) is not allowed in a file: URI: remove it")
            }
            UriError::PortNotAllowed => {
                f.write_str("a port is not allowed in a file: URI: remove it")
            }
            UriError::PathNotAbsolute => f.write_str(
                "the path does not start with '/': write file:///abs/path or file:/abs/path",
            ),
            UriError::QueryNotAllowed => {
                f.write_str("a query ('?') is not allowed in a root URI: percent-encode it as %3F if it is part of a name")
            }
            UriError::FragmentNotAllowed => {
                f.write_str("a fragment ('#') is not allowed in a root URI: percent-encode it as %23 if it is part of a name")
            }
            UriError::ForbiddenCharacter { ch, offset } => write!(
                f,
                "character {ch:?} at byte {offset} is not allowed in a URI path: percent-encode it"
            ),
            UriError::BadPercentEscape { offset } => write!(
                f,
                "'%' at byte {offset} is not followed by two hex digits: write a literal % as %25"
            ),
            UriError::EncodedSlash { offset } => write!(
                f,
                "%2F at byte {offset} would put a '/' inside one segment: a root may not smuggle a separator"
            ),
            UriError::EncodedNul { offset } => write!(
                f,
                "%00 at byte {offset} would put a NUL byte in the path: a root may not smuggle a terminator"
            ),
        }
    }
}

impl std::error::Error for UriError {}

impl RootUri {
    /// Parses a root URI as semantics §1 rules 1–6 say.
    ///
    /// # Errors
    ///
    /// A [`UriError`] whose variant names the first rule the URI breaks.
    pub fn parse(uri: &str) -> Result<RootUri, UriError> {
        if uri.is_empty() {
            return Err(UriError::Empty);
        }
        let bytes = uri.as_bytes();
        let colon = memchr::memchr(b':', bytes).ok_or(UriError::MissingScheme)?;
        let scheme = &uri[..colon];
        if scheme.is_empty() || scheme.contains('/') {
            return Err(UriError::MissingScheme);
        }
        if !scheme.eq_ignore_ascii_case("file") {
            return Err(UriError::NotFileScheme {
                scheme: scheme.to_string(),
            });
        }
        let offset = colon + 1;
        let rest = &bytes[offset..];
        // Rule 3 before rule 4, so that '?' and '#' get their own message.
        if let Some(i) = rest.iter().position(|&b| !PATH_BYTE[usize::from(b)]) {
            return Err(match rest[i] {
                b'?' => UriError::QueryNotAllowed,
                b'#' => UriError::FragmentNotAllowed,
                _ => UriError::ForbiddenCharacter {
                    ch: uri[offset + i..].chars().next().unwrap_or('\u{fffd}'),
                    offset: offset + i,
                },
            });
        }
        let (path, path_offset) = match rest.strip_prefix(b"//") {
            Some(after) => {
                let end = memchr::memchr(b'/', after).unwrap_or(after.len());
                check_authority(&uri[offset + 2..offset + 2 + end])?;
                (&after[end..], offset + 2 + end)
            }
            None => (rest, offset),
        };
        if path.first() != Some(&b'/') {
            return Err(UriError::PathNotAbsolute);
        }
        // RFC 3986 5.2.4 on the decoded segments: an empty segment is a
        // segment, so `a//..` is `a`; only then do empty segments collapse.
        let mut normal: Vec<u8> = Vec::with_capacity(path.len());
        let mut segment_start = path_offset + 1;
        for raw in path[1..].split(|&b| b == b'/') {
            check_escapes(raw, segment_start)?;
            segment_start += raw.len() + 1;
            // Decode in place after a '/', then judge the decoded segment.
            let slash = normal.len();
            normal.push(b'/');
            normal.extend(percent_encoding::percent_decode(raw));
            match &normal[slash + 1..] {
                b"." => normal.truncate(slash),
                b".." => {
                    let cut = normal[..slash]
                        .iter()
                        .rposition(|&b| b == b'/')
                        .unwrap_or(0);
                    normal.truncate(cut);
                }
                _ => {}
            }
        }
        if normal.is_empty()
            || normal.ends_with(b"/")
            || memchr::memmem::find(&normal, b"//").is_some()
        {
            let mut collapsed = Vec::with_capacity(normal.len());
            for segment in normal.split(|&b| b == b'/').filter(|s| !s.is_empty()) {
                collapsed.push(b'/');
                collapsed.extend_from_slice(segment);
            }
            if collapsed.is_empty() {
                collapsed.push(b'/');
            }
            normal = collapsed;
        }
        Ok(RootUri {
            path: PathBuf::from(OsString::from_vec(normal)),
        })
    }

    /// The absolute, lexically normal path the URI names.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Consumes the URI, giving its path.
    pub fn into_path(self) -> PathBuf {
        self.path
    }
}

impl FromStr for RootUri {
    type Err = UriError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RootUri::parse(s)
    }
}

/// RFC 3986 `pchar` plus `/`: unreserved, sub-delims, `:`, `@`, `%`.
const PATH_BYTE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric();
        b += 1;
    }
    let others = b"-._~!$&'()*+,;=:@/%";
    let mut i = 0;
    while i < others.len() {
        table[others[i] as usize] = true;
        i += 1;
    }
    table
};

fn check_authority(authority: &str) -> Result<(), UriError> {
    if authority.contains('@') {
        Err(UriError::UserinfoNotAllowed)
    } else if authority.contains(':') {
        Err(UriError::PortNotAllowed)
    } else if authority.is_empty() || authority.eq_ignore_ascii_case("localhost") {
        Ok(())
    } else {
        Err(UriError::HostNotAllowed {
            host: authority.to_string(),
        })
    }
}

/// Checks every `%` escape of one segment: two hex digits, and neither
/// `%2F` nor `%00`.
fn check_escapes(raw: &[u8], offset: usize) -> Result<(), UriError> {
    for i in memchr::memchr_iter(b'%', raw) {
        let hex = raw.get(i + 1..i + 3).unwrap_or(&[]);
        if hex.len() != 2 || !hex.iter().all(u8::is_ascii_hexdigit) {
            return Err(UriError::BadPercentEscape { offset: offset + i });
        }
        if hex == b"00" {
            return Err(UriError::EncodedNul { offset: offset + i });
        }
        if hex[0] == b'2' && hex[1].eq_ignore_ascii_case(&b'f') {
            return Err(UriError::EncodedSlash { offset: offset + i });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;

    fn ok(uri: &str) -> String {
        RootUri::parse(uri)
            .unwrap_or_else(|e| panic!("{uri}: {e}"))
            .path()
            .to_string_lossy()
            .into_owned()
    }

    fn err(uri: &str) -> UriError {
        RootUri::parse(uri).expect_err(uri)
    }

    #[test]
    fn valid_forms() {
        assert_eq!(ok("file:///home/u/proj"), "/home/u/proj");
        assert_eq!(ok("FILE:///home/u/proj"), "/home/u/proj");
        assert_eq!(ok("File://LocalHost/home/u/proj"), "/home/u/proj");
        assert_eq!(ok("file:/home/u/proj"), "/home/u/proj");
        assert_eq!(ok("file:///home/u/proj/"), "/home/u/proj");
        assert_eq!(ok("file:///"), "/");
        assert_eq!(ok("file:/"), "/");
        assert_eq!(ok("file:////x//y"), "/x/y");
        // An empty segment is a segment to `..` (RFC 3986 5.2.4), as in `url`.
        assert_eq!(ok("file:///a//../b"), "/a/b");
        assert_eq!(ok("file:///a/b//../../c"), "/a/c");
        assert_eq!(ok("file:///a/%2e//../b"), "/a/b");
        assert_eq!(ok("file:///a/b/..//c"), "/a/c");
        assert_eq!(ok("file:///a/b/../../../.."), "/");
        assert_eq!(ok("file:///a/%2e%2E/b"), "/b");
        assert_eq!(ok("file:///a/.%2e/b"), "/b");
        assert_eq!(ok("file:///a/%2e/b"), "/a/b");
        assert_eq!(ok("file:///a%20b/c"), "/a b/c");
        assert_eq!(ok("file:///a%25/b"), "/a%/b");
        assert_eq!(ok("file:///a%252e%252e/b"), "/a%2e%2e/b");
        assert_eq!(ok("file:///x/..."), "/x/...");
        assert_eq!(
            ok("file:///it's/(x)/a+b,c;d=e!f$g&h*i:j@k~l"),
            "/it's/(x)/a+b,c;d=e!f$g&h*i:j@k~l"
        );
    }

    #[test]
    fn decoded_bytes_are_kept_even_when_not_utf8() {
        let uri = RootUri::parse("file:///caf%C3%A9/%FF").unwrap();
        assert_eq!(uri.path().as_os_str().as_bytes(), b"/caf\xc3\xa9/\xff");
    }

    #[test]
    fn scheme_rules() {
        assert_eq!(err(""), UriError::Empty);
        assert_eq!(err("/home/u"), UriError::MissingScheme);
        assert_eq!(err(":/x"), UriError::MissingScheme);
        assert!(matches!(
            err("http://localhost/x"),
            UriError::NotFileScheme { .. }
        ));
        assert!(matches!(err("files:///x"), UriError::NotFileScheme { .. }));
        assert!(matches!(err("fil:///x"), UriError::NotFileScheme { .. }));
    }

    #[test]
    fn authority_rules() {
        assert!(matches!(
            err("file://srv/x"),
            UriError::HostNotAllowed { .. }
        ));
        assert!(matches!(
            err("file://127.0.0.1/x"),
            UriError::HostNotAllowed { .. }
        ));
        assert!(matches!(
            err("file://%6cocalhost/x"),
            UriError::HostNotAllowed { .. }
        ));
        assert!(matches!(
            err("file://localhost.//x"),
            UriError::HostNotAllowed { .. }
        ));
        assert_eq!(err("file://u@localhost/x"), UriError::UserinfoNotAllowed);
        assert_eq!(err("file://localhost:80/x"), UriError::PortNotAllowed);
        assert_eq!(err("file://localhost:/x"), UriError::PortNotAllowed);
        assert_eq!(err("file://localhost"), UriError::PathNotAbsolute);
        assert_eq!(err("file://"), UriError::PathNotAbsolute);
        assert_eq!(err("file:"), UriError::PathNotAbsolute);
        assert_eq!(err("file:home/u"), UriError::PathNotAbsolute);
        assert_eq!(err("file:./x"), UriError::PathNotAbsolute);
    }

    #[test]
    fn query_fragment_and_characters() {
        assert_eq!(err("file:///x?y"), UriError::QueryNotAllowed);
        assert_eq!(err("file:///x#y"), UriError::FragmentNotAllowed);
        assert_eq!(err("file:///x?"), UriError::QueryNotAllowed);
        for bad in [
            " ", "\\", "\"", "<", ">", "^", "`", "{", "|", "}", "\t", "\n", "\u{7f}", "é",
            "\u{ff0f}",
        ] {
            let uri = format!("file:///a{bad}b");
            assert!(
                matches!(err(&uri), UriError::ForbiddenCharacter { offset: 9, .. }),
                "{uri:?}"
            );
        }
        assert!(matches!(
            err("file:///x/proj' "),
            UriError::ForbiddenCharacter { .. }
        ));
        assert!(matches!(
            err("file:///C:\\x"),
            UriError::ForbiddenCharacter { .. }
        ));
    }

    #[test]
    fn percent_rules() {
        assert_eq!(err("file:///a%2Fb"), UriError::EncodedSlash { offset: 9 });
        assert_eq!(err("file:///a%2fb"), UriError::EncodedSlash { offset: 9 });
        assert_eq!(err("file:///a%00b"), UriError::EncodedNul { offset: 9 });
        assert_eq!(err("file:///a%"), UriError::BadPercentEscape { offset: 9 });
        assert_eq!(err("file:///a%2"), UriError::BadPercentEscape { offset: 9 });
        assert_eq!(
            err("file:///a%zz"),
            UriError::BadPercentEscape { offset: 9 }
        );
        assert_eq!(
            err("file:///a%%41"),
            UriError::BadPercentEscape { offset: 9 }
        );
        assert_eq!(
            err("file://localhost/ok/%2F"),
            UriError::EncodedSlash { offset: 20 }
        );
        // %252F is an escaped '%' followed by "2F": a name, not a separator.
        assert_eq!(ok("file:///a%252Fb"), "/a%2Fb");
    }

    #[test]
    fn errors_say_what_to_do() {
        let message = err("file://srv/share").to_string();
        assert!(
            message.contains("srv") && message.contains("file:///"),
            "{message}"
        );
    }
}
