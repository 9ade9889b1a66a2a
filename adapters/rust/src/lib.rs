//! What the adapters share: the protocol (the example checkers' own
//! `protocol.rs`) and root URIs as paths.

#[path = "../../../examples/checkers/rust/src/protocol.rs"]
pub mod protocol;

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// Each root URI as a path, the way a Rust server converts one: the `url`
/// crate's `Url::parse`, then `Url::to_file_path` (which refuses a host
/// other than `localhost`, and a path with an encoded `/` or NUL). A root
/// either step refuses, or that is not a string, is ignored. What else
/// the parser accepts (a query, a fragment, `\` read as `/`) is the
/// conversion's, not the crate's: rootguard counts it as a root escape.
pub fn root_paths(roots: &[Value]) -> Vec<PathBuf> {
    roots
        .iter()
        .filter_map(|r| r.as_str())
        .filter_map(|uri| url::Url::parse(uri).ok())
        .filter(|u| u.scheme() == "file")
        .filter_map(|u| u.to_file_path().ok())
        .collect()
}

/// The request's path as a `Path` (its bytes, not UTF-8 necessarily).
pub fn request_path(bytes: &[u8]) -> &Path {
    Path::new(OsStr::from_bytes(bytes))
}

/// The untrusted part of `path` below `root`, as bytes: what follows the
/// root's text and one `/`, unchanged; empty for the root itself; None
/// when the path does not begin so. Joining the two gives the path back,
/// so this split decides nothing the crate could get wrong.
pub fn relative_part<'a>(path: &'a [u8], root: &Path) -> Option<&'a [u8]> {
    let root = root.as_os_str().as_bytes();
    let mut base = root;
    while base.len() > 1 && base.ends_with(b"/") {
        base = &base[..base.len() - 1];
    }
    if path == root || path == base {
        return Some(b"");
    }
    let base: &[u8] = if base == b"/" { b"" } else { base };
    path.strip_prefix(base)?.strip_prefix(b"/")
}

/// A path for the `use` field; None when it is not UTF-8 (the protocol
/// carries text, so such a rewrite is refused rather than misnamed).
pub fn use_text(path: &Path) -> Option<String> {
    path.to_str().map(str::to_owned)
}
