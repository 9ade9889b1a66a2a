//! Windows path roots: separators, prefixes (drive, UNC, device, verbatim)
//! and whether a path depends on a current directory.
//!
//! The split follows what GetFullPathNameW does with the first characters
//! of a path (and what Python's `ntpath.splitroot` copies from it), with
//! one refinement of ours: only `\\?\` and `\??\` written with backslashes
//! are verbatim, and in a verbatim path only `\` separates; `//?/` is an
//! ordinary device path, normalized like `\\.\`.

/// Whether `c` separates components in a non-verbatim Windows path.
pub fn is_separator(c: char) -> bool {
    c == '\\' || c == '/'
}

/// Which namespace a device or verbatim prefix opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Namespace {
    /// `\\.\` (or `//./`, `//?/`, any mix of separators): a Win32 device
    /// path, still normalized.
    Device,
    /// `\\?\` with backslashes: handed to the file system as it is.
    Verbatim,
    /// `\??\`: the NT object namespace, handed over as it is.
    NtObject,
}

impl Namespace {
    /// Whether Win32 leaves paths in this namespace as they are.
    pub fn is_verbatim(self) -> bool {
        !matches!(self, Namespace::Device)
    }
}

/// The prefix of a Windows path, borrowed from it as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prefix<'a> {
    /// `C:`, drive-absolute with a root after it, drive-relative without.
    /// Win32 takes any one character before the colon.
    Drive(char),
    /// `\\server\share`; either may be empty (`\\`, `\\server`,
    /// `\\server\`), and `share` is `None` when no separator follows the
    /// server.
    Unc {
        /// The server, as written.
        server: &'a str,
        /// The share, as written.
        share: Option<&'a str>,
    },
    /// `\\.\name`, `\\?\name`, `\??\name`: a device (`COM1`, `C:`,
    /// `Volume{…}`, `PhysicalDrive0`) in a namespace.
    Device {
        /// The namespace.
        namespace: Namespace,
        /// The device's name, as written (may be empty: `\\.\`).
        name: &'a str,
    },
    /// `\\.\UNC\server\share`, `\\?\UNC\server\share`: a share through the
    /// UNC device.
    DeviceUnc {
        /// The namespace.
        namespace: Namespace,
        /// The server, as written.
        server: &'a str,
        /// The share, as written.
        share: Option<&'a str>,
    },
}

impl Prefix<'_> {
    /// Whether paths with this prefix are left as they are by Win32.
    pub fn is_verbatim(&self) -> bool {
        match self {
            Prefix::Device { namespace, .. } | Prefix::DeviceUnc { namespace, .. } => {
                namespace.is_verbatim()
            }
            Prefix::Drive(_) | Prefix::Unc { .. } => false,
        }
    }

    /// Whether a root directory follows the prefix even when no separator
    /// is written (`\\server\share` is the share's root, `\\.\COM1` a
    /// device); a drive or a verbatim prefix needs the separator.
    pub fn implies_root(&self) -> bool {
        match self {
            Prefix::Unc { .. } => true,
            Prefix::Device { namespace, .. } | Prefix::DeviceUnc { namespace, .. } => {
                !namespace.is_verbatim()
            }
            Prefix::Drive(_) => false,
        }
    }
}

/// A path cut into its prefix, its root and the rest, all borrowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split<'a> {
    /// The prefix, parsed.
    pub prefix: Option<Prefix<'a>>,
    /// The prefix as written (`""` without one).
    pub prefix_text: &'a str,
    /// The root separator after the prefix as written (`""`, `\` or `/`).
    pub root: &'a str,
    /// Everything after the root.
    pub rest: &'a str,
}

impl Split<'_> {
    /// Whether this path is verbatim (`\\?\`, `\??\`): only `\` separates
    /// and nothing is normalized.
    pub fn is_verbatim(&self) -> bool {
        self.prefix.is_some_and(|p| p.is_verbatim())
    }

    /// The separators of the rest of this path.
    pub fn separates(&self, c: char) -> bool {
        if self.is_verbatim() {
            c == '\\'
        } else {
            is_separator(c)
        }
    }
}

/// The byte index of the first character of `s` at or after `from` that
/// `sep` accepts, or `s.len()`.
fn find_sep(s: &str, from: usize, sep: fn(char) -> bool) -> usize {
    s[from..].find(sep).map_or(s.len(), |i| from + i)
}

fn backslash(c: char) -> bool {
    c == '\\'
}

/// `server\share` parsed from the start of `body` (after `\\` or
/// `\\?\UNC\`): the server, the share, and the length used.
fn server_share(body: &str, sep: fn(char) -> bool) -> (&str, Option<&str>, usize) {
    let end = find_sep(body, 0, sep);
    let server = &body[..end];
    if end == body.len() {
        return (server, None, end);
    }
    let share_start = end + 1;
    let share_end = find_sep(body, share_start, sep);
    (server, Some(&body[share_start..share_end]), share_end)
}

/// `UNC` and a separator at the start of `body`, ASCII case ignored.
fn starts_with_unc(body: &str, sep: fn(char) -> bool) -> bool {
    body.get(..3).is_some_and(|u| u.eq_ignore_ascii_case("UNC"))
        && body[3..].chars().next().is_some_and(sep)
}

/// Cuts `path` into prefix, root and rest.
///
/// # Examples
///
/// ```
/// use rootguard::lexical::windows::{split, Prefix};
/// let s = split(r"C:\Users\u");
/// assert_eq!((s.prefix_text, s.root, s.rest), ("C:", "\\", "Users\\u"));
/// let s = split("//server/share/x");
/// assert_eq!(s.prefix, Some(Prefix::Unc { server: "server", share: Some("share") }));
/// assert_eq!(split(r"\\?\C:/a/b").rest, ""); // verbatim: `/` is part of the name
/// assert_eq!(split("C:foo").root, "");
/// ```
pub fn split(path: &str) -> Split<'_> {
    split_as(path, true)
}

/// [`split`], reading `\\?\` and `\??\` as device prefixes (normalized)
/// unless `verbatim` allows them: for a path whose `//?/` was rewritten.
pub(crate) fn split_as(path: &str, verbatim: bool) -> Split<'_> {
    let (prefix, len) = parse_prefix(path, verbatim);
    let after = &path[len..];
    let verbatim = prefix.is_some_and(|p| p.is_verbatim());
    let root_len = match after.chars().next() {
        Some('\\') => 1,
        Some('/') if !verbatim => 1,
        _ => 0,
    };
    Split {
        prefix,
        prefix_text: &path[..len],
        root: &after[..root_len],
        rest: &after[root_len..],
    }
}

fn parse_prefix(path: &str, verbatim: bool) -> (Option<Prefix<'_>>, usize) {
    let mut chars = path.chars();
    let first = chars.next();
    let second = chars.next();
    if verbatim && (path.starts_with(r"\\?\") || path.starts_with(r"\??\")) {
        let namespace = if path.starts_with(r"\\?\") {
            Namespace::Verbatim
        } else {
            Namespace::NtObject
        };
        return device_prefix(path, namespace, backslash);
    }
    match (first, second) {
        (Some(a), Some(b)) if is_separator(a) && is_separator(b) => {
            let third = path[2..].chars().next();
            let fourth = path.get(3..).and_then(|s| s.chars().next());
            if matches!(third, Some('.' | '?')) && fourth.is_some_and(is_separator) {
                return device_prefix(path, Namespace::Device, is_separator);
            }
            let (server, share, used) = server_share(&path[2..], is_separator);
            (Some(Prefix::Unc { server, share }), 2 + used)
        }
        (Some(a), Some(':')) if !is_separator(a) => (Some(Prefix::Drive(a)), a.len_utf8() + 1),
        _ => (None, 0),
    }
}

/// A prefix of four characters (`\\.\`, `\\?\`, `\??\`) and what follows.
fn device_prefix(
    path: &str,
    namespace: Namespace,
    sep: fn(char) -> bool,
) -> (Option<Prefix<'_>>, usize) {
    let body = &path[4..];
    if starts_with_unc(body, sep) {
        let (server, share, used) = server_share(&body[4..], sep);
        let prefix = Prefix::DeviceUnc {
            namespace,
            server,
            share,
        };
        return (Some(prefix), 8 + used);
    }
    let end = find_sep(body, 0, sep);
    (
        Some(Prefix::Device {
            namespace,
            name: &body[..end],
        }),
        4 + end,
    )
}

/// Whether `path` names the same thing whatever the current directory and
/// the current drive: a drive with a root (`C:\x`), or any UNC, device or
/// verbatim prefix. `\x` (the current drive's root), `C:x` (drive C's
/// current directory) and `x` are not.
///
/// # Examples
///
/// ```
/// use rootguard::lexical::windows::is_absolute;
/// assert!(is_absolute(r"C:\x") && is_absolute("//server/share") && is_absolute(r"\\.\COM1"));
/// assert!(!is_absolute(r"\x") && !is_absolute("C:x") && !is_absolute("C:"));
/// ```
pub fn is_absolute(path: &str) -> bool {
    let s = split(path);
    match s.prefix {
        Some(Prefix::Drive(_)) => !s.root.is_empty(),
        Some(_) => true,
        None => false,
    }
}

/// The path's prefix and the rest, as Python's `ntpath.splitroot` names
/// them: `(drive, root, tail)`, all as written.
pub fn split_root(path: &str) -> (&str, &str, &str) {
    let s = split(path);
    (s.prefix_text, s.root, s.rest)
}

/// The components of `path` as Rust's `Path::components` yields them on
/// Windows, each as written: the prefix, `\` for a root (written, or
/// implied by a UNC or `\\.\` prefix), then the names; empty names and
/// `.` are dropped (but a leading `.` of a relative path is kept), `..`
/// is kept.
///
/// # Examples
///
/// ```
/// use rootguard::lexical::windows::components;
/// assert_eq!(components(r"\\server\share"), [r"\\server\share", "\\"]);
/// assert_eq!(components("c:/a/./b/../c"), ["c:", "\\", "a", "b", "..", "c"]);
/// assert_eq!(components(r"\\?\C:/a"), [r"\\?\C:/a"]);
/// ```
pub fn components(path: &str) -> Vec<String> {
    let s = split(path);
    let mut out = Vec::new();
    if !s.prefix_text.is_empty() {
        out.push(s.prefix_text.to_owned());
    }
    let rooted = !s.root.is_empty() || s.prefix.is_some_and(|p| p.implies_root());
    if rooted {
        out.push("\\".to_owned());
    }
    let anchored = rooted || !s.prefix_text.is_empty();
    for (i, name) in s.rest.split(|c| s.separates(c)).enumerate() {
        match name {
            "" => {}
            "." if i != 0 || anchored => {}
            name => out.push(name.to_owned()),
        }
    }
    out
}
