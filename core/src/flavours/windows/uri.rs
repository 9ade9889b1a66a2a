//! Windows file URIs: `file:///C:/x`, `file:///c%3A/x`, `file:C:/x`,
//! `file://localhost/C:/x` name `C:\x`; `file://server/share/x` (and the
//! older `file:////server/share/x`) name `\\server\share\x`.
//!
//! The rules of semantics.md section 1 hold where they make sense here
//! (scheme, no query or fragment, RFC 3986 characters, `%2F` and `%00`
//! refused), with these of ours: `%5C` (a decoded `\`) is refused like
//! `%2F`; the decoded path must be UTF-8 (Windows names are UTF-16); a
//! host names a UNC server (a port or userinfo is invalid, and so is a
//! server `.`, which would make the device path `\\.\`); without a
//! host, the path must start with a drive (`/C:/x`): `file:///x` would be
//! rooted on the current drive, which a root cannot be. The result is
//! [`full_path`](super::full_path)'s.

use std::fmt;

use super::normalize::full_path;

/// Why a file URI names no Windows path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WindowsUriError {
    /// The scheme is not `file` (or there is none).
    NotFile,
    /// A `?` or `#`: a query or a fragment.
    QueryOrFragment,
    /// A character RFC 3986 does not allow in a path, or a `%` not
    /// followed by two hex digits.
    BadCharacter(char),
    /// A `%2F`, `%5C` or `%00`: a separator or a terminator inside a name.
    EscapedSeparator,
    /// The decoded path is not UTF-8.
    NotUtf8,
    /// The authority holds userinfo or a port, or names no server (`.`).
    BadAuthority(String),
    /// No drive and no server: the path would depend on the current drive.
    NoDrive,
    /// A server with no share.
    NoShare,
}

impl fmt::Display for WindowsUriError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WindowsUriError::NotFile => write!(f, "the scheme is not file:"),
            WindowsUriError::QueryOrFragment => write!(f, "a query or fragment"),
            WindowsUriError::BadCharacter(c) => write!(f, "{c:?} is not allowed in a URI path"),
            WindowsUriError::EscapedSeparator => {
                write!(
                    f,
                    "%2F, %5C or %00 would put a separator or NUL inside a name"
                )
            }
            WindowsUriError::NotUtf8 => write!(f, "the decoded path is not UTF-8"),
            WindowsUriError::BadAuthority(a) => write!(f, "userinfo or a port in {a:?}"),
            WindowsUriError::NoDrive => {
                write!(
                    f,
                    "no drive and no server: the path would be on the current drive"
                )
            }
            WindowsUriError::NoShare => write!(f, "a server without a share"),
        }
    }
}

impl std::error::Error for WindowsUriError {}

fn allowed(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=:@/".contains(c)
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// The percent-decoded `text`, refusing escaped separators and NUL.
fn decode(text: &str) -> Result<String, WindowsUriError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'%' {
            let value = bytes
                .get(i + 1)
                .and_then(|&h| hex(h))
                .zip(bytes.get(i + 2).and_then(|&l| hex(l)))
                .map(|(h, l)| h * 16 + l)
                .ok_or(WindowsUriError::BadCharacter('%'))?;
            if matches!(value, b'/' | b'\\' | 0) {
                return Err(WindowsUriError::EscapedSeparator);
            }
            out.push(value);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| WindowsUriError::NotUtf8)
}

/// Whether `path` (decoded, `/`-separated) starts with a drive: an ASCII
/// letter and `:`, then `/` or the end.
fn starts_with_drive(path: &str) -> bool {
    let b = path.as_bytes();
    b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':' && (b.len() == 2 || b[2] == b'/')
}

/// The Windows path a file URI names, Win32-normalized.
///
/// # Errors
///
/// A [`WindowsUriError`] naming the rule the URI breaks.
///
/// # Examples
///
/// ```
/// use rootguard::lexical::windows::path_from_file_uri;
/// assert_eq!(path_from_file_uri("file:///C:/x").as_deref(), Ok(r"C:\x"));
/// assert_eq!(path_from_file_uri("file:///c%3A/x/../y").as_deref(), Ok(r"c:\y"));
/// assert_eq!(path_from_file_uri("file://server/share/x").as_deref(), Ok(r"\\server\share\x"));
/// assert!(path_from_file_uri("file:///x").is_err());
/// ```
pub fn path_from_file_uri(uri: &str) -> Result<String, WindowsUriError> {
    let (scheme, rest) = uri.split_once(':').ok_or(WindowsUriError::NotFile)?;
    if !scheme.eq_ignore_ascii_case("file") {
        return Err(WindowsUriError::NotFile);
    }
    if rest.contains(['?', '#']) {
        return Err(WindowsUriError::QueryOrFragment);
    }
    let (host, path) = match rest.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            (&after[..end], &after[end..])
        }
        None => ("", rest),
    };
    if host.contains(['@', ':']) {
        return Err(WindowsUriError::BadAuthority(host.to_owned()));
    }
    if let Some(c) = host
        .chars()
        .chain(path.chars())
        .find(|&c| !allowed(c) && c != '%')
    {
        return Err(WindowsUriError::BadCharacter(c));
    }
    let host = decode(host)?;
    let path = decode(path)?;
    let windows = if !host.is_empty() && !host.eq_ignore_ascii_case("localhost") {
        unc(&host, &path)?
    } else if let Some(server_path) = path.strip_prefix("//").filter(|_| host.is_empty()) {
        let (server, share_path) = server_path
            .split_once('/')
            .ok_or(WindowsUriError::NoShare)?;
        unc(server, &format!("/{share_path}"))?
    } else {
        let local = path.strip_prefix('/').unwrap_or(&path);
        if !starts_with_drive(local) {
            return Err(WindowsUriError::NoDrive);
        }
        let mut drive = local.replace('/', "\\");
        if drive.len() == 2 {
            drive.push('\\');
        }
        drive
    };
    full_path(&windows).map_err(|_| WindowsUriError::NoDrive)
}

fn unc(server: &str, path: &str) -> Result<String, WindowsUriError> {
    // `\\.\` and `\\?\` would open devices, not a server's share.
    if matches!(server, "." | "?" | "..") || server.contains(['\\', '/']) {
        return Err(WindowsUriError::BadAuthority(server.to_owned()));
    }
    let share = path.trim_start_matches('/');
    if server.is_empty() || share.is_empty() || share.starts_with('/') {
        return Err(WindowsUriError::NoShare);
    }
    Ok(format!(r"\\{server}\{}", share.replace('/', "\\")))
}
