//! The oracle's own root-URI parser (semantics.md section 1, rules 1–6).
//!
//! Decisions where the rules leave room, so that every input has one answer:
//!
//! - Rule 1: the scheme is the text before the first `:`; it must equal
//!   `file` ignoring ASCII case. No `:` at all is [`RootUriError::NoScheme`].
//! - Rule 2: after `file:`, a `//` always starts an authority, which runs to
//!   the next `/` (or the end). The authority must be empty or `localhost`
//!   (ASCII case-insensitive). Anything holding `@` is userinfo, anything
//!   holding `:` is a port (even an empty one, `localhost:`), anything else
//!   is a host: all invalid. The path must then start with `/`, so `file://`
//!   and `file://localhost` (no path) are invalid. Without `//`, `file:`
//!   must be followed directly by `/` (the `file:/path` form); `file:` and
//!   `file:rel` are invalid. `file:////x` is an empty authority and the
//!   path `//x`, which collapses to `/x`.
//! - Rule 3: a `?` or `#` anywhere after the scheme is invalid.
//! - Rule 4: every byte of the path must be an RFC 3986 path character
//!   (unreserved, sub-delims, `:`, `@`, `/`) or start a `%HH` escape (either
//!   hex case). A `%` without two hex digits is invalid.
//! - Rule 5: each `/`-separated segment is decoded to bytes; a decoded `/` or
//!   NUL is invalid; other bytes, non-UTF-8 included, are kept.
//! - Rule 6: dot segments are removed by RFC 3986 section 5.2.4 on the
//!   decoded segments (so `%2e%2e` is `..`, and `..` never climbs above `/`),
//!   and only then are empty segments dropped. The RFC algorithm treats an
//!   empty segment as a segment, so `/a//../b` is `/a/b`, not `/b`. The
//!   result is `/` alone or `/a/b` with no trailing slash.

use std::fmt;

/// A root URI that is invalid, naming the rule of semantics.md section 1 it
/// breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RootUriError {
    /// Rule 1: there is no `:`, so no scheme.
    NoScheme,
    /// Rule 1: the scheme is not `file`.
    WrongScheme {
        /// The scheme found.
        scheme: String,
    },
    /// Rule 2: the authority holds userinfo (`@`).
    Userinfo {
        /// The authority.
        authority: String,
    },
    /// Rule 2: the authority holds a port (`:`).
    Port {
        /// The authority.
        authority: String,
    },
    /// Rule 2: the authority names a host other than `localhost`.
    Host {
        /// The authority.
        host: String,
    },
    /// Rule 2: an authority with no path after it (`file://`,
    /// `file://localhost`).
    MissingPath,
    /// Rule 2: `file:` is followed by neither `//` nor `/`.
    NotAbsolute,
    /// Rule 3: the URI has a query.
    Query,
    /// Rule 3: the URI has a fragment.
    Fragment,
    /// Rule 4: a character that RFC 3986 does not allow in a path.
    InvalidChar {
        /// The offending byte.
        byte: u8,
        /// Its byte offset in the URI.
        offset: usize,
    },
    /// Rule 4: a `%` not followed by two hex digits.
    BadPercentEscape {
        /// The byte offset of the `%` in the URI.
        offset: usize,
    },
    /// Rule 5: `%2F` decodes to a separator inside a segment.
    EncodedSlash,
    /// Rule 5: `%00` decodes to a NUL.
    EncodedNul,
}

impl fmt::Display for RootUriError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RootUriError::NoScheme => f.write_str("rule 1: no scheme; a root is a URI such as file:///home/me/project"),
            RootUriError::WrongScheme { scheme } => write!(
                f,
                "rule 1: scheme {scheme:?} is not `file`; only file: URIs name local roots"
            ),
            RootUriError::Userinfo { authority } => write!(
                f,
                "rule 2: authority {authority:?} holds userinfo (`@`); write file:///path or file://localhost/path"
            ),
            RootUriError::Port { authority } => write!(
                f,
                "rule 2: authority {authority:?} holds a port (`:`); write file:///path or file://localhost/path"
            ),
            RootUriError::Host { host } => write!(
                f,
                "rule 2: host {host:?} is not local; only an empty authority or `localhost` names this machine"
            ),
            RootUriError::MissingPath => f.write_str(
                "rule 2: no path after the authority; write file:///path (three slashes)",
            ),
            RootUriError::NotAbsolute => f.write_str(
                "rule 2: `file:` must be followed by `//` and an authority, or by an absolute path `/...`",
            ),
            RootUriError::Query => f.write_str("rule 3: a root has no query (`?`); percent-encode it as %3F if it is part of a name"),
            RootUriError::Fragment => f.write_str("rule 3: a root has no fragment (`#`); percent-encode it as %23 if it is part of a name"),
            RootUriError::InvalidChar { byte, offset } => write!(
                f,
                "rule 4: byte 0x{byte:02x} at offset {offset} is not allowed in a URI path; percent-encode it"
            ),
            RootUriError::BadPercentEscape { offset } => write!(
                f,
                "rule 4: `%` at offset {offset} is not followed by two hex digits; write a literal % as %25"
            ),
            RootUriError::EncodedSlash => f.write_str(
                "rule 5: %2F decodes to `/` inside a segment; a root may not smuggle a separator",
            ),
            RootUriError::EncodedNul => f.write_str(
                "rule 5: %00 decodes to NUL; a root may not smuggle a terminator",
            ),
        }
    }
}

impl std::error::Error for RootUriError {}

/// Parses a root URI into its normalized absolute path, as bytes.
///
/// The result is `/` alone or `/a/b` with no empty, `.` or `..` segment and
/// no trailing slash. It is not resolved on any file system: that is
/// rule 7, done by the judge.
///
/// # Errors
///
/// A [`RootUriError`] naming the first broken rule.
///
/// # Examples
///
/// ```
/// use rootguard_judge::oracle::{parse_root_uri, RootUriError};
///
/// assert_eq!(parse_root_uri("FILE://LocalHost/a/%2e%2e/b%20c/").unwrap(), b"/b c");
/// assert_eq!(parse_root_uri("file:/x").unwrap(), b"/x");
/// assert_eq!(parse_root_uri("file://srv/x"), Err(RootUriError::Host { host: "srv".into() }));
/// assert_eq!(parse_root_uri("file:///a%2Fb"), Err(RootUriError::EncodedSlash));
/// ```
pub fn parse_root_uri(uri: &str) -> Result<Vec<u8>, RootUriError> {
    let bytes = uri.as_bytes();
    // Rule 1: the scheme runs to the first `:`.
    let colon = bytes
        .iter()
        .position(|&b| b == b':')
        .ok_or(RootUriError::NoScheme)?;
    let scheme = &uri[..colon];
    if !scheme.eq_ignore_ascii_case("file") {
        return Err(RootUriError::WrongScheme {
            scheme: scheme.to_owned(),
        });
    }
    let after_scheme = colon + 1;
    let rest = &bytes[after_scheme..];
    // Rule 3: no query, no fragment.
    if rest.contains(&b'?') {
        return Err(RootUriError::Query);
    }
    if rest.contains(&b'#') {
        return Err(RootUriError::Fragment);
    }
    // Rule 2: `//authority/path` or `/path`.
    let path_start = if rest.starts_with(b"//") {
        let authority_start = after_scheme + 2;
        let authority_len = bytes[authority_start..].iter().position(|&b| b == b'/');
        let authority_end = authority_len.map_or(bytes.len(), |n| authority_start + n);
        let authority = &uri[authority_start..authority_end];
        check_authority(authority)?;
        if authority_end == bytes.len() {
            return Err(RootUriError::MissingPath);
        }
        authority_end
    } else if rest.starts_with(b"/") {
        after_scheme
    } else {
        return Err(RootUriError::NotAbsolute);
    };
    // Rule 4: path characters only.
    check_path_chars(bytes, path_start)?;
    // Rule 5: decode each segment; the path starts with `/`, so the first
    // split piece is the empty text before it.
    let mut segments = Vec::new();
    for segment in bytes[path_start + 1..].split(|&b| b == b'/') {
        segments.push(decode_segment(segment)?);
    }
    // Rule 6: RFC 3986 section 5.2.4, then collapse empty segments.
    let kept = remove_dot_segments(segments);
    let mut path = Vec::new();
    for segment in kept.into_iter().filter(|s| !s.is_empty()) {
        path.push(b'/');
        path.extend_from_slice(&segment);
    }
    if path.is_empty() {
        path.push(b'/');
    }
    Ok(path)
}

/// Rule 2: the authority is empty or `localhost`.
fn check_authority(authority: &str) -> Result<(), RootUriError> {
    if authority.contains('@') {
        Err(RootUriError::Userinfo {
            authority: authority.to_owned(),
        })
    } else if authority.contains(':') {
        Err(RootUriError::Port {
            authority: authority.to_owned(),
        })
    } else if authority.is_empty() || authority.eq_ignore_ascii_case("localhost") {
        Ok(())
    } else {
        Err(RootUriError::Host {
            host: authority.to_owned(),
        })
    }
}

/// Rule 4: RFC 3986 `pchar` and `/`, with `%HH` escapes.
fn check_path_chars(uri: &[u8], start: usize) -> Result<(), RootUriError> {
    let mut i = start;
    while i < uri.len() {
        let b = uri[i];
        if b == b'%' {
            let hex = |j: usize| uri.get(j).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(i + 1) && hex(i + 2)) {
                return Err(RootUriError::BadPercentEscape { offset: i });
            }
            i += 3;
            continue;
        }
        let unreserved = b.is_ascii_alphanumeric() || b"-._~".contains(&b);
        let sub_delim = b"!$&'()*+,;=".contains(&b);
        if !(unreserved || sub_delim || b == b':' || b == b'@' || b == b'/') {
            return Err(RootUriError::InvalidChar { byte: b, offset: i });
        }
        i += 1;
    }
    Ok(())
}

/// Rule 5: percent-decode one segment (escapes already checked by rule 4).
fn decode_segment(segment: &[u8]) -> Result<Vec<u8>, RootUriError> {
    let mut out = Vec::with_capacity(segment.len());
    let mut i = 0;
    while i < segment.len() {
        if segment[i] == b'%' {
            let value = match (segment.get(i + 1), segment.get(i + 2)) {
                (Some(&h), Some(&l)) => hex_value(h).zip(hex_value(l)).map(|(h, l)| h * 16 + l),
                _ => None,
            };
            let value = value.ok_or(RootUriError::BadPercentEscape { offset: i })?;
            match value {
                b'/' => return Err(RootUriError::EncodedSlash),
                0 => return Err(RootUriError::EncodedNul),
                v => out.push(v),
            }
            i += 3;
        } else {
            out.push(segment[i]);
            i += 1;
        }
    }
    Ok(out)
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// RFC 3986 section 5.2.4 on an absolute path given as its segments: `.` is
/// dropped, `..` drops the last output segment (none at `/`), and an empty
/// segment is a segment like any other.
fn remove_dot_segments(segments: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    let mut output: Vec<Vec<u8>> = Vec::new();
    for segment in segments {
        match segment.as_slice() {
            b"." => {}
            b".." => {
                output.pop();
            }
            _ => output.push(segment),
        }
    }
    output
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(uri: &str) -> String {
        match parse_root_uri(uri) {
            Ok(p) => String::from_utf8_lossy(&p).into_owned(),
            Err(e) => panic!("{uri}: {e}"),
        }
    }

    fn err(uri: &str) -> RootUriError {
        match parse_root_uri(uri) {
            Ok(p) => panic!("{uri} parsed as {:?}", String::from_utf8_lossy(&p)),
            Err(e) => e,
        }
    }

    #[test]
    fn rule1_scheme() {
        assert_eq!(ok("FiLe:///a"), "/a");
        assert_eq!(err("/a"), RootUriError::NoScheme);
        assert_eq!(err(""), RootUriError::NoScheme);
        assert_eq!(
            err("http://localhost/a"),
            RootUriError::WrongScheme {
                scheme: "http".into()
            }
        );
        assert_eq!(
            err("fil:///a"),
            RootUriError::WrongScheme {
                scheme: "fil".into()
            }
        );
        assert_eq!(
            err(" file:///a"),
            RootUriError::WrongScheme {
                scheme: " file".into()
            }
        );
        assert_eq!(
            err("file+x:///a"),
            RootUriError::WrongScheme {
                scheme: "file+x".into()
            }
        );
    }

    #[test]
    fn rule2_authority_and_forms() {
        assert_eq!(ok("file:///"), "/");
        assert_eq!(ok("file://localhost/a"), "/a");
        assert_eq!(ok("file://LOCALHOST/a"), "/a");
        assert_eq!(ok("file:/a"), "/a");
        assert_eq!(ok("file:/"), "/");
        assert_eq!(ok("file:////a"), "/a");
        assert_eq!(
            err("file://srv/a"),
            RootUriError::Host { host: "srv".into() }
        );
        assert_eq!(
            err("file://127.0.0.1/a"),
            RootUriError::Host {
                host: "127.0.0.1".into()
            }
        );
        assert_eq!(
            err("file://local%68ost/a"),
            RootUriError::Host {
                host: "local%68ost".into()
            }
        );
        assert_eq!(
            err("file://u@localhost/a"),
            RootUriError::Userinfo {
                authority: "u@localhost".into()
            }
        );
        assert_eq!(
            err("file://@/a"),
            RootUriError::Userinfo {
                authority: "@".into()
            }
        );
        assert_eq!(
            err("file://localhost:80/a"),
            RootUriError::Port {
                authority: "localhost:80".into()
            }
        );
        assert_eq!(
            err("file://localhost:/a"),
            RootUriError::Port {
                authority: "localhost:".into()
            }
        );
        assert_eq!(err("file://"), RootUriError::MissingPath);
        assert_eq!(err("file://localhost"), RootUriError::MissingPath);
        assert_eq!(err("file:"), RootUriError::NotAbsolute);
        assert_eq!(err("file:a/b"), RootUriError::NotAbsolute);
        assert_eq!(err("file:\\\\a"), RootUriError::NotAbsolute);
    }

    #[test]
    fn rule3_query_fragment() {
        assert_eq!(err("file:///a?x"), RootUriError::Query);
        assert_eq!(err("file:///a?"), RootUriError::Query);
        assert_eq!(err("file:///a#x"), RootUriError::Fragment);
        assert_eq!(err("file://h?/a"), RootUriError::Query);
        assert_eq!(ok("file:///a%3Fb%23c"), "/a?b#c");
    }

    #[test]
    fn rule4_characters() {
        assert_eq!(ok("file:///A-z0._~!$&'()*+,;=:@"), "/A-z0._~!$&'()*+,;=:@");
        for bad in [
            " ", "\\", "\"", "<", ">", "^", "`", "{", "|", "}", "\t", "\u{7f}", "é", "\u{0}",
        ] {
            let uri = format!("file:///a{bad}b");
            assert_eq!(
                err(&uri),
                RootUriError::InvalidChar {
                    byte: bad.as_bytes()[0],
                    offset: 9
                },
                "{uri:?}"
            );
        }
        for bad in ["%", "%4", "%4g", "%g4", "%%41"] {
            let uri = format!("file:///a{bad}");
            assert_eq!(
                err(&uri),
                RootUriError::BadPercentEscape { offset: 9 },
                "{uri:?}"
            );
        }
    }

    #[test]
    fn rule5_decoding() {
        assert_eq!(ok("file:///%41%62%2d"), "/Ab-");
        assert_eq!(
            parse_root_uri("file:///%ff%C3%A9"),
            Ok(b"/\xff\xc3\xa9".to_vec())
        );
        assert_eq!(ok("file:///a%252e%252e"), "/a%2e%2e");
        assert_eq!(ok("file:///a%20b"), "/a b");
        assert_eq!(ok("file:///a%5Cb"), "/a\\b");
        assert_eq!(err("file:///a%2fb"), RootUriError::EncodedSlash);
        assert_eq!(err("file:///a%2F"), RootUriError::EncodedSlash);
        assert_eq!(err("file:///a%00"), RootUriError::EncodedNul);
    }

    #[test]
    fn rule6_dot_segments() {
        assert_eq!(ok("file:///a/b/../c"), "/a/c");
        assert_eq!(ok("file:///a/%2e%2e/c"), "/c");
        assert_eq!(ok("file:///a/%2E%2e/c"), "/c");
        assert_eq!(ok("file:///a/./b/."), "/a/b");
        assert_eq!(ok("file:///a/%2e/b"), "/a/b");
        assert_eq!(ok("file:///../../a"), "/a");
        assert_eq!(ok("file:///a/.."), "/");
        assert_eq!(ok("file:///a/../.."), "/");
        assert_eq!(ok("file:///a/b/"), "/a/b");
        assert_eq!(ok("file:///a//b//"), "/a/b");
        assert_eq!(ok("file:///a/.../b"), "/a/.../b");
        assert_eq!(ok("file:///a/..b/.b"), "/a/..b/.b");
        // RFC 3986 5.2.4 pops the empty segment, not `a`.
        assert_eq!(ok("file:///a//../b"), "/a/b");
        assert_eq!(ok("file:/.."), "/");
    }
}
