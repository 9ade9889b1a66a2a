//! The target of an operation, semantics.md section 2: a component-by-component
//! walk with lstat and readlink, `..` taken physically.

use std::ffi::OsStr;
use std::fmt;
use std::fs;
use std::io::ErrorKind;
use std::os::unix::ffi::{OsStrExt, OsStringExt};

use crate::Op;

/// Linux's MAXSYMLINKS: the 41st expansion in one resolution is ELOOP.
pub const MAX_LINKS: usize = 40;
/// The kernel refuses a path argument this long (ENAMETOOLONG).
const PATH_MAX: usize = 4096;

/// A resolved absolute path as its components (empty for `/`).
pub type Components = Vec<Vec<u8>>;

/// The operation cannot happen (the spec's `either`); the text says why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unresolvable(pub String);

impl fmt::Display for Unresolvable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unresolvable {}

/// The absolute path of a list of components.
pub fn join(components: &[Vec<u8>]) -> Vec<u8> {
    let mut path = Vec::new();
    for c in components {
        path.push(b'/');
        path.extend_from_slice(c);
    }
    if path.is_empty() {
        path.push(b'/');
    }
    path
}

/// Bytes as readable text for a reason string.
pub fn show(path: &[u8]) -> String {
    String::from_utf8_lossy(path).into_owned()
}

fn components(path: &[u8]) -> Vec<Vec<u8>> {
    let mut parts: Vec<Vec<u8>> =
        path.split(|&b| b == b'/').filter(|c| !c.is_empty()).map(<[u8]>::to_vec).collect();
    if path.ends_with(b"/") && !parts.is_empty() {
        parts.push(b".".to_vec()); // a trailing slash demands a directory, as "/." does
    }
    parts
}

fn gone<T>(why: impl Into<String>) -> Result<T, Unresolvable> {
    Err(Unresolvable(why.into()))
}

/// What `op` on `path` would touch, every link followed, as components.
///
/// For [`Op::Write`] the result may name a file that does not exist yet (it
/// would be created); a final symlink is followed even when it dangles.
///
/// # Errors
///
/// [`Unresolvable`] when the operation cannot happen: a missing or
/// non-directory middle component, ELOOP, a read of a missing path, a write
/// to a directory or to a path ending in `/`.
pub fn resolve(path: &[u8], op: Op) -> Result<Components, Unresolvable> {
    if path.contains(&0) {
        return gone("NUL byte in path");
    }
    if !path.starts_with(b"/") {
        return gone("path is not absolute");
    }
    if path.len() >= PATH_MAX {
        return gone("path too long (ENAMETOOLONG)");
    }
    if op == Op::Write && path.ends_with(b"/") {
        return gone("a write path may not end in '/'");
    }
    let mut todo = components(path);
    todo.reverse(); // a stack: the next component is at the end
    let mut current: Components = Vec::new(); // always a real directory: no link in it
    let mut current_is_dir = true;
    let mut links = 0;
    while let Some(name) = todo.pop() {
        match name.as_slice() {
            b"." => continue,
            b".." => {
                current.pop(); // physical: `current` holds no link
                current_is_dir = true;
                continue;
            }
            _ => {}
        }
        current.push(name);
        let candidate = join(&current);
        let meta = match fs::symlink_metadata(OsStr::from_bytes(&candidate)) {
            Ok(meta) => meta,
            Err(e) if e.kind() == ErrorKind::NotFound => {
                if todo.is_empty() && op == Op::Write {
                    return Ok(current); // created in the resolved parent
                }
                return gone(format!("{} does not exist", show(&candidate)));
            }
            Err(e) => return gone(format!("{}: {e}", show(&candidate))),
        };
        if meta.file_type().is_symlink() {
            links += 1;
            if links > MAX_LINKS {
                return gone("too many levels of symbolic links (ELOOP)");
            }
            let target = match fs::read_link(OsStr::from_bytes(&candidate)) {
                Ok(target) => target.into_os_string().into_vec(),
                Err(e) => return gone(format!("{}: {e}", show(&candidate))),
            };
            current.pop();
            if target.starts_with(b"/") {
                current.clear();
            }
            todo.extend(components(&target).into_iter().rev());
            continue; // a final link is followed for write too, even dangling
        }
        if !todo.is_empty() && !meta.is_dir() {
            return gone(format!("{} is not a directory (ENOTDIR)", show(&candidate)));
        }
        current_is_dir = meta.is_dir();
    }
    if op == Op::Write && current_is_dir {
        return gone(format!("{} is a directory", show(&join(&current))));
    }
    Ok(current)
}

/// True when `target` is `root` or beneath it, by whole components.
pub fn within(target: &[Vec<u8>], root: &[Vec<u8>]) -> bool {
    target.starts_with(root)
}
