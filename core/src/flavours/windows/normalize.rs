//! What Win32 does to a path before a file system sees it: `/` made `\`,
//! runs of separators collapsed, `.` and `..` taken lexically, trailing
//! dots and spaces stripped from the last component, DOS device names
//! mapped to `\\.\NAME`. Verbatim paths (`\\?\`, `\??\`) are left alone.

use super::prefix::{is_absolute, is_separator, split, split_as, Prefix, Split};

/// The DOS device names Win32 maps to `\\.\NAME` wherever they appear as a
/// path's last component, ASCII case ignored (`COM¹` and friends too).
const DEVICE_NAMES: [&str; 6] = ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"];

/// The device a component names, when it is one: the part before the
/// first `.` or `:`, without trailing spaces, is `CON`, `PRN`, `AUX`,
/// `NUL`, `CONIN$`, `CONOUT$`, `COM1`–`COM9`, `LPT1`–`LPT9` or `COM`/`LPT`
/// with a superscript `¹`, `²`, `³` (ASCII case ignored). `NUL.txt`,
/// `nul  `, `COM1:x` are devices; `bar.com9` is not.
///
/// # Examples
///
/// ```
/// use rootguard::lexical::windows::dos_device;
/// assert_eq!(dos_device("nul.txt"), Some("nul"));
/// assert_eq!(dos_device("COM\u{b9} .log"), Some("COM\u{b9}"));
/// assert_eq!(dos_device("COM10"), None);
/// ```
pub fn dos_device(component: &str) -> Option<&str> {
    let end = component.find(['.', ':']).unwrap_or(component.len());
    let name = component[..end].trim_end_matches(' ');
    let upper = name.to_ascii_uppercase();
    let numbered = |stem: &str| {
        upper.strip_prefix(stem).is_some_and(|n| {
            matches!(
                n,
                "1" | "2"
                    | "3"
                    | "4"
                    | "5"
                    | "6"
                    | "7"
                    | "8"
                    | "9"
                    | "\u{b9}"
                    | "\u{b2}"
                    | "\u{b3}"
            )
        })
    };
    (DEVICE_NAMES.contains(&upper.as_str()) || numbered("COM") || numbered("LPT")).then_some(name)
}

/// `path` with `/` made `\` and every run of separators after the first
/// two characters collapsed to one, as GetFullPathNameW does
/// (`\\spam\\eggs` is `\\spam\eggs`).
fn collapse(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        let c = if is_separator(c) { '\\' } else { c };
        // The leading `\\` (and a third, `\\\`) of a UNC path stay.
        if c == '\\' && out.ends_with('\\') && out != "\\" && out != "\\\\" {
            continue;
        }
        out.push(c);
    }
    out
}

/// The lexical normal form of a Windows path: separators made `\`, runs
/// collapsed, `.` dropped, `..` taking away the name before it (and
/// nothing at a root; kept at the start of a path with no root), no
/// trailing separator, `.` for an empty result. A relative path whose
/// first name would read as a drive keeps a `.\` before it (`.\c:x`),
/// so that normalizing never makes a drive. Verbatim paths are returned as
/// they are. Trailing dots and spaces and device names are left alone:
/// [`full_path`] does those.
///
/// # Examples
///
/// ```
/// use rootguard::lexical::windows::normalize;
/// assert_eq!(normalize("C:/a/./b/../c/"), r"C:\a\c");
/// assert_eq!(normalize(r"C:..\..\x"), r"C:..\..\x");
/// assert_eq!(normalize("//server/share/../x"), r"\\server\share\x");
/// assert_eq!(normalize(r"\\?\C:\a\..\b"), r"\\?\C:\a\..\b");
/// assert_eq!(normalize(""), ".");
/// ```
pub fn normalize(path: &str) -> String {
    if split(path).is_verbatim() {
        return path.to_owned();
    }
    let collapsed = collapse(path);
    // `//?/` became `\\?\`: still a device path, normalized.
    let s = split_as(&collapsed, false);
    let names = lexical_names(&s);
    let prefix = s.prefix_text.replace('/', "\\");
    let rooted = !s.root.is_empty();
    let mut out = prefix;
    if rooted {
        out.push('\\');
    }
    if out.is_empty() && names.first().is_some_and(|n| reads_as_drive(n)) {
        out.push_str(".\\");
    }
    out.push_str(&names.join("\\"));
    if out.is_empty() {
        out.push('.');
    }
    out
}

/// Whether a first name would make a drive (`c:`, `c:x`) if nothing stood
/// before it.
fn reads_as_drive(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some() && chars.next() == Some(':')
}

/// The names of a split path with `.` and `..` applied lexically.
fn lexical_names<'a>(s: &Split<'a>) -> Vec<&'a str> {
    let rooted = !s.root.is_empty() || s.prefix.is_some_and(|p| p.implies_root());
    let mut names: Vec<&str> = Vec::new();
    for name in s.rest.split(|c| s.separates(c)) {
        match name {
            "" | "." => {}
            ".." => match names.last() {
                Some(&last) if last != ".." => {
                    names.pop();
                }
                _ if rooted => {}
                _ => names.push(".."),
            },
            name => names.push(name),
        }
    }
    names
}

/// Why a path has no full path without more context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NeedsContext {
    /// Relative (`x`), rooted on the current drive (`\x`) or
    /// drive-relative (`C:x`): it depends on a current directory the model
    /// does not have.
    CurrentDirectory,
}

/// The path Win32 hands the file system for an absolute `path`, as
/// GetFullPathNameW makes it, without a current directory: [`normalize`],
/// then the last component loses its trailing dots and spaces (unless the
/// path ended in a separator). A last component naming a DOS device on a
/// drive, rooted or relative path makes the whole path `\\.\NAME` first.
/// Verbatim paths are returned as they are.
///
/// # Errors
///
/// [`NeedsContext::CurrentDirectory`] for a path that is not
/// [absolute](super::is_absolute) and names no device.
///
/// # Examples
///
/// ```
/// use rootguard::lexical::windows::full_path;
/// assert_eq!(full_path("C:/spam. . .").as_deref(), Ok(r"C:\spam"));
/// assert_eq!(full_path(r"C:\proj\NUL.txt").as_deref(), Ok(r"\\.\NUL"));
/// assert_eq!(full_path("//spam//eggs. . .").as_deref(), Ok(r"\\spam\eggs"));
/// assert!(full_path(r"\x").is_err());
/// ```
pub fn full_path(path: &str) -> Result<String, NeedsContext> {
    if let Some(device) = device_anywhere(path) {
        return Ok(device);
    }
    if !is_absolute(path) {
        return Err(NeedsContext::CurrentDirectory);
    }
    if split(path).is_verbatim() {
        return Ok(path.to_owned());
    }
    let ends_in_separator = path.ends_with(is_separator);
    let mut out = normalize(path);
    if !ends_in_separator && !out.ends_with('\\') {
        let last_start = out.rfind('\\').map_or(0, |i| i + 1);
        let kept = out[last_start..].trim_end_matches(['.', ' ']).len();
        out.truncate(last_start + kept);
    }
    Ok(out)
}

/// `\\.\NAME` when the last component of a drive, rooted or relative
/// path names a DOS device (`C:\x\nul.txt`, `CON`): Win32 opens the device
/// whatever the directory. UNC, device and verbatim paths never do.
fn device_anywhere(path: &str) -> Option<String> {
    let s = split(path);
    if !matches!(s.prefix, None | Some(Prefix::Drive(_))) {
        return None;
    }
    let last = s.rest.rsplit(is_separator).next().unwrap_or("");
    let last = last.trim_end_matches(['.', ' ']);
    dos_device(last).map(|device| format!(r"\\.\{device}"))
}

/// Whether some component of `path` (its drive aside) is one Win32 would
/// change or refuse: a name ending in `.` or space, a control character
/// or one of `< > : " | ? *`, or a DOS device name ([`dos_device`]).
///
/// # Examples
///
/// ```
/// use rootguard::lexical::windows::is_reserved;
/// assert!(is_reserved("c:/NUL/bar") && is_reserved("foo.") && is_reserved("foo:bar"));
/// assert!(!is_reserved("c:/bar.com9") && !is_reserved("//./NUL"));
/// ```
pub fn is_reserved(path: &str) -> bool {
    let s = split(path);
    s.rest
        .split(|c| s.separates(c))
        .filter(|name| !matches!(*name, "" | "." | ".."))
        .any(|name| {
            name.ends_with(['.', ' '])
                || name.chars().any(|c| c < ' ' || "<>:\"|?*".contains(c))
                || dos_device(name).is_some()
        })
}

/// Whether `path` is local: relative, with no drive and no root, not
/// climbing above its start with `..`, naming no DOS device in any
/// component, and holding no `:` (a drive or a stream). Joined to any
/// directory, a local path stays beneath it.
///
/// # Examples
///
/// ```
/// use rootguard::lexical::windows::is_local;
/// assert!(is_local("a/../b") && is_local("dollar$"));
/// assert!(!is_local("") && !is_local("../a") && !is_local("C:a") && !is_local("x/nul.txt"));
/// ```
pub fn is_local(path: &str) -> bool {
    let s = split(path);
    if path.is_empty() || s.prefix.is_some() || !s.root.is_empty() || path.contains(':') {
        return false;
    }
    let mut depth = 0usize;
    for name in path.split(is_separator) {
        match name {
            "" | "." => {}
            ".." => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            name if dos_device(name).is_some() => return false,
            _ => depth += 1,
        }
    }
    true
}

/// `parts` joined as Win32 reads them one after another, with no current
/// directory: a part with a drive other than the one so far (ASCII case
/// ignored) starts afresh; a part with a root keeps only the drive so far;
/// any other part is appended.
///
/// # Examples
///
/// ```
/// use rootguard::lexical::windows::join;
/// assert_eq!(join(&["c:/a", "b", r"\c"]), r"c:\c");
/// assert_eq!(join(&["a", "Z:b", "c"]), r"Z:b\c");
/// ```
pub fn join(parts: &[&str]) -> String {
    let mut drive = String::new();
    let mut root = false;
    let mut tail = String::new();
    for part in parts {
        let s = split(part);
        let part_drive = s.prefix_text;
        if !s.root.is_empty() {
            if !part_drive.is_empty() || drive.is_empty() {
                drive = part_drive.to_owned();
            }
            root = true;
            tail = s.rest.to_owned();
            continue;
        }
        if !part_drive.is_empty() && part_drive != drive {
            if !part_drive.eq_ignore_ascii_case(&drive) {
                drive = part_drive.to_owned();
                root = false;
                tail = s.rest.to_owned();
                continue;
            }
            drive = part_drive.to_owned();
        }
        if !tail.is_empty() && !tail.ends_with(is_separator) {
            tail.push('\\');
        }
        tail.push_str(s.rest);
    }
    let needs_separator =
        !tail.is_empty() && !root && !drive.is_empty() && !drive.ends_with([':', '\\', '/']);
    let mut out = drive;
    if root || needs_separator {
        out.push('\\');
    }
    out.push_str(&tail);
    out
}

/// `parts` resolved against the current directory `cwd` (which should be
/// absolute): [`join`], then [`normalize`]. One current directory serves
/// every drive: a drive-relative part on another drive starts at that
/// drive's root.
///
/// # Examples
///
/// ```
/// use rootguard::lexical::windows::resolve;
/// assert_eq!(resolve(r"C:\cwd", &["..", "x"]), r"C:\x");
/// assert_eq!(resolve(r"C:\cwd", &["d:x"]), r"d:\x");
/// ```
pub fn resolve(cwd: &str, parts: &[&str]) -> String {
    let mut all = vec![cwd];
    all.extend_from_slice(parts);
    let joined = join(&all);
    let s = split(&joined);
    if matches!(s.prefix, Some(Prefix::Drive(_))) && s.root.is_empty() {
        // Another drive's current directory: the model takes its root.
        return normalize(&format!("{}\\{}", s.prefix_text, s.rest));
    }
    normalize(&joined)
}

/// One spelling for a path, so that results written differently compare
/// equal: a trailing separator after a name dropped, `C:.` read as `C:`,
/// the root a UNC or `\\.\` prefix implies written out, a leading `.\`
/// of a relative path dropped unless the name after it would read as a
/// drive. Peers' normal forms differ in just these (Node keeps a trailing
/// separator, writes `C:.` and `.\a\C:`; Python writes `C:`).
///
/// # Examples
///
/// ```
/// use rootguard::lexical::windows::spelling;
/// assert_eq!(spelling(r"bar\"), "bar");
/// assert_eq!(spelling("C:."), "C:");
/// assert_eq!(spelling(r"\\server\share"), r"\\server\share\");
/// assert_eq!(spelling(r"C:\"), r"C:\");
/// assert_eq!(spelling(r".\a\C:"), r"a\C:");
/// assert_eq!(spelling(r".\C:x"), r".\C:x");
/// assert_eq!(spelling(r".\"), ".");
/// ```
pub fn spelling(path: &str) -> String {
    let s = split(path);
    let mut rest = s.rest;
    if s.prefix.is_none() && s.root.is_empty() {
        while let Some(after) = rest.strip_prefix(".\\") {
            if reads_as_drive(after.split('\\').next().unwrap_or("")) {
                break;
            }
            rest = after;
        }
    }
    let trimmed = rest.trim_end_matches('\\');
    if !trimmed.is_empty() {
        rest = trimmed;
    }
    if rest == "." && s.root.is_empty() && matches!(s.prefix, Some(Prefix::Drive(_))) {
        rest = "";
    }
    if s.prefix.is_none() && s.root.is_empty() && rest.is_empty() {
        rest = ".";
    }
    let implied = s.prefix.is_some_and(|p| p.implies_root());
    let root = if s.root.is_empty() && implied {
        "\\"
    } else {
        s.root
    };
    format!("{}{root}{rest}", s.prefix_text)
}
