//! FLAWED on purpose. Class: clean-before-resolve.
//!
//! The bug: `..` and `.` are removed from the path as text first, and only
//! then is the cleaned path resolved, links and all, and checked. So
//! `project/linkdeep/../secret.txt` is judged as `project/secret.txt`,
//! while the kernel goes to the parent of the link's target:
//! `outside/dir/..` = `outside`, and reads `outside/secret.txt`. The checker
//! answers yes or no; the caller then opens the path it was given.
//!
//! Imitates: Go's `filepath.Clean` before `filepath.EvalSymlinks` (the
//! trap Go's documentation warns of), and in Rust a `normalize_path` helper
//! (cargo-util's, the path-clean crate) before `fs::canonicalize`; Node's
//! `path.resolve` before `fs.realpath` does the same.
//!
//! Escapes with: roots ["file:///b/project"], path
//! "/b/project/linkdeep/../secret.txt", op read (linkdeep -> ../outside/dir,
//! both project/secret.txt and outside/secret.txt exist).

use rootguard_example_checkers::{resolve, resolve_roots, serve, strict_root_path, verdict, Answer, Request};

/// Lexical normalization, as path-clean does it.
fn clean(path: &[u8]) -> Vec<u8> {
    let mut kept: Vec<&[u8]> = Vec::new();
    for part in path.split(|&b| b == b'/') {
        match part {
            b"" | b"." => {}
            b".." => {
                kept.pop(); // BUG: pops the text, whatever the previous component is
            }
            _ => kept.push(part),
        }
    }
    let mut out = Vec::new();
    for part in kept {
        out.push(b'/');
        out.extend_from_slice(part);
    }
    if out.is_empty() {
        out.push(b'/');
    }
    out
}

fn check(request: &Request) -> Answer {
    let (roots, _) = resolve_roots(&request.roots, strict_root_path);
    if roots.is_empty() {
        return Answer::deny("no usable root");
    }
    if !request.path.starts_with(b"/") {
        return Answer::deny("path is not absolute");
    }
    match resolve(&clean(&request.path), request.op) {
        Ok(target) => verdict(&roots, &target),
        Err(e) => Answer::deny(format!("cannot {}: {e}", request.op)),
    }
}

fn main() {
    serve(check);
}
