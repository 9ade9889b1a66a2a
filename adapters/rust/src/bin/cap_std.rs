//! Checker protocol v1 adapter for the crate `cap-std` (Bytecode Alliance),
//! a capability-based file system API:
//!
//!     adapters/rust/target/release/cap_std
//!
//! The call and why: a `cap_std::fs::Dir` opened on a root
//! (`Dir::open_ambient_dir(root, ambient_authority())`) is the crate's
//! documented sandbox: "all paths are interpreted relative to the
//! directory, and may not escape it" (links included). The checker asks
//! the sandbox itself, by opening, without changing the tree:
//!   - each root URI becomes a path (`root_paths`: the `url` crate); the
//!     request's path is split at the root's text (`relative_part`), the
//!     rest is the path given to the `Dir`;
//!   - read: allowed when `dir.open(rest)` succeeds (a file or a
//!     directory);
//!   - write: the parent through `dir.open_dir(parent)`, then, in it: an
//!     existing name (a link resolved by `Dir::canonicalize`, sandboxed) is
//!     allowed when `open_with(write)` succeeds (no create, no truncate:
//!     nothing changes); a missing name is allowed (a create in that
//!     parent, which is inside); a dangling link is denied.
//! No `use`: the caller would go on through the same `Dir`.
use std::ffi::OsStr;
use std::io::ErrorKind;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use cap_std::ambient_authority;
use cap_std::fs::{Dir, OpenOptions};
use rootguard_crate_adapters::protocol::{serve, Answer, Op};
use rootguard_crate_adapters::{relative_part, root_paths};

fn check(dir: &Dir, rest: &Path, op: Op) -> Result<String, String> {
    let rest = if rest.as_os_str().is_empty() { Path::new(".") } else { rest };
    match op {
        Op::Read => dir.open(rest).map(|_| "open ok".into()).map_err(|e| format!("open: {e}")),
        Op::Write => {
            let (parent, name) = match (rest.parent(), rest.file_name()) {
                (Some(p), Some(n)) => (if p.as_os_str().is_empty() { Path::new(".") } else { p }, n),
                _ => {
                    return dir
                        .open_with(rest, OpenOptions::new().write(true))
                        .map(|_| "open_with(write) ok".into())
                        .map_err(|e| format!("open_with(write): {e}"))
                }
            };
            let parent = dir.open_dir(parent).map_err(|e| format!("open_dir(parent): {e}"))?;
            match parent.symlink_metadata(name) {
                Err(e) if e.kind() == ErrorKind::NotFound => Ok("a new name in a sandboxed parent".into()),
                Err(e) => Err(format!("symlink_metadata: {e}")),
                Ok(m) => {
                    if m.file_type().is_symlink() {
                        parent.canonicalize(name).map_err(|e| format!("canonicalize(link): {e}"))?;
                    }
                    parent
                        .open_with(name, OpenOptions::new().write(true))
                        .map(|_| "open_with(write) ok".into())
                        .map_err(|e| format!("open_with(write): {e}"))
                }
            }
        }
    }
}

fn main() {
    eprintln!("cap-std adapter");
    serve(|req| {
        let mut why = String::from("no root begins the path");
        for root in root_paths(&req.roots) {
            let Some(rest) = relative_part(&req.path, &root) else { continue };
            let dir = match Dir::open_ambient_dir(&root, ambient_authority()) {
                Ok(d) => d,
                Err(e) => {
                    why = format!("open_ambient_dir({}): {e}", root.display());
                    continue;
                }
            };
            match check(&dir, Path::new(OsStr::from_bytes(rest)), req.op) {
                Ok(how) => return Answer::allow(format!("{how} under {}", root.display())),
                Err(e) => why = e,
            }
        }
        Answer::deny(why)
    });
}
