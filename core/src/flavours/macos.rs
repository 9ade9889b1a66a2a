//! The macOS flavour, a model: paths as on Linux (`/` the only separator,
//! `..` physical), with APFS's default names, insensitive to case and to
//! Unicode normalization, and `/tmp`, `/var` and `/etc` being links into
//! `/private`. No macOS kernel is asked; every verdict built on these
//! functions is the model's.

use icu_casemap::CaseMapper;
use unicode_normalization::UnicodeNormalization;

use std::os::unix::ffi::OsStrExt;

use crate::uri::{RootUri, UriError};

/// The top-level names that are links into `/private` on macOS.
pub const PRIVATE_LINKS: [&str; 3] = ["tmp", "var", "etc"];

/// The name APFS compares by default: the name canonically decomposed
/// (NFD), case folded (Unicode's full case folding) and decomposed again,
/// Unicode's canonical caseless match, so that `Café` (NFC), `CAFÉ` and
/// `cafe` + U+0301 are one name, and so are `straße` and `STRASSE`. APFS
/// hashes names with a table of NFD and case folding combined; the model
/// takes Unicode's current tables for it.
///
/// # Examples
///
/// ```
/// use rootguard::lexical::macos::name_key;
/// assert_eq!(name_key("Caf\u{e9}"), name_key("CAFE\u{301}"));
/// assert_ne!(name_key("cafe"), name_key("caf\u{e9}"));
/// assert_eq!(name_key("stra\u{df}e"), name_key("STRASSE"));
/// assert_eq!(name_key("wor\u{212a}"), name_key("work")); // the Kelvin sign
/// assert_ne!(name_key("\u{ff50}roj"), name_key("proj")); // fullwidth: compatibility, not canonical
/// ```
pub fn name_key(name: &str) -> String {
    let decomposed: String = name.nfd().collect();
    CaseMapper::new().fold_string(&decomposed).nfd().collect()
}

/// Whether two names are one name on APFS's default volumes.
pub fn same_name(a: &str, b: &str) -> bool {
    a == b || name_key(a) == name_key(b)
}

/// Why a macOS path names no location for the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MacPathError {
    /// Not absolute: it depends on a current directory.
    NotAbsolute,
    /// A NUL byte: no system call takes it.
    NulByte,
    /// Not UTF-8: APFS refuses such names.
    NotUtf8,
}

/// The components of an absolute macOS `path`, lexically resolved, with a
/// first component `tmp`, `var` or `etc` (in any case) taken through its
/// link to `/private/…` before any `..` after it, as the kernel would:
/// `/tmp/../x` is `/private/x`.
///
/// # Errors
///
/// [`MacPathError`] for a relative path, a NUL byte, or bytes that are
/// not UTF-8.
///
/// # Examples
///
/// ```
/// use rootguard::lexical::macos::components;
/// assert_eq!(components(b"/TMP/a").unwrap(), ["private", "TMP", "a"]);
/// assert_eq!(components(b"/tmp/../x").unwrap(), ["private", "x"]);
/// assert_eq!(components(b"/private/./var//y/").unwrap(), ["private", "var", "y"]);
/// ```
pub fn components(path: &[u8]) -> Result<Vec<String>, MacPathError> {
    if path.contains(&0) {
        return Err(MacPathError::NulByte);
    }
    let text = std::str::from_utf8(path).map_err(|_| MacPathError::NotUtf8)?;
    if !text.starts_with('/') {
        return Err(MacPathError::NotAbsolute);
    }
    let mut out: Vec<String> = Vec::new();
    for name in text.split('/') {
        match name {
            "" | "." => {}
            ".." => {
                out.pop();
            }
            name => {
                out.push(name.to_owned());
                if out.len() == 1 && PRIVATE_LINKS.iter().any(|l| same_name(l, name)) {
                    out.insert(0, "private".to_owned());
                }
            }
        }
    }
    Ok(out)
}

/// Why a root URI counts for nothing on macOS.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MacRootError {
    /// The URI breaks a rule of semantics.md section 1.
    Uri(UriError),
    /// Its path is not UTF-8.
    NotUtf8,
}

/// The components of the path a root URI names on macOS: semantics.md
/// section 1, then [`components`].
///
/// # Errors
///
/// [`MacRootError`] for an invalid URI or a path that is not UTF-8.
pub fn root_components(uri: &str) -> Result<Vec<String>, MacRootError> {
    let path = RootUri::parse(uri).map_err(MacRootError::Uri)?.into_path();
    components(path.as_os_str().as_bytes()).map_err(|_| MacRootError::NotUtf8)
}

/// Whether the components `path` are at or beneath `root`, names compared
/// as APFS does.
pub fn contains(root: &[String], path: &[String]) -> bool {
    root.len() <= path.len() && root.iter().zip(path).all(|(r, p)| same_name(r, p))
}
