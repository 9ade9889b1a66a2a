//! FLAWED on purpose. Class: dangling-link write.
//!
//! The bug: an existing path is canonicalized and checked correctly, but when
//! a write target does not resolve ("a new file") the checker canonicalizes
//! only the parent and appends the last name. A dangling final symlink
//! (project/dangling -> ../outside/new.txt) also fails to canonicalize, so
//! the check sees `project/dangling`, inside, while `open(O_CREAT)` follows
//! the link and creates `outside/new.txt`.
//!
//! Imitates: the `canonicalize(p).or_else(|_| canonicalize(parent).join(name))`
//! of many Rust MCP servers and sandboxes, and the ENOENT branch of the MCP
//! reference server's validatePath ("for new files that don't exist yet,
//! verify parent directory"), which returns the unresolved path.
//!
//! Escapes with: roots ["file:///b/project"], path "/b/project/dangling",
//! op write (dangling -> ../outside/new.txt).

use std::ffi::OsStr;
use std::fs;
use std::io::ErrorKind;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use rootguard_example_checkers::{resolve_roots, serve, strict_root_path, verdict, Answer, Op, Request};

fn check(request: &Request) -> Answer {
    let (roots, _) = resolve_roots(&request.roots, strict_root_path);
    if roots.is_empty() {
        return Answer::deny("no usable root");
    }
    let path = Path::new(OsStr::from_bytes(&request.path));
    if !path.is_absolute() {
        return Answer::deny("path is not absolute");
    }
    let real = match fs::canonicalize(path) {
        Ok(real) => real,
        Err(e) if e.kind() == ErrorKind::NotFound && request.op == Op::Write => {
            // BUG: "a new file": a dangling final link lands here too, unfollowed
            let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
                return Answer::deny("no file name");
            };
            match fs::canonicalize(parent) {
                Ok(parent) => parent.join(name),
                Err(e) => return Answer::deny(format!("parent directory: {e}")),
            }
        }
        Err(e) => return Answer::deny(format!("cannot resolve: {e}")),
    };
    let target = real.as_os_str().as_bytes().split(|&b| b == b'/').filter(|c| !c.is_empty()).map(<[u8]>::to_vec).collect();
    verdict(&roots, &target)
}

fn main() {
    serve(check);
}
