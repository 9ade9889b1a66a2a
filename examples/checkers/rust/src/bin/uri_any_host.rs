//! FLAWED on purpose. Class: URI decoding (any host; a root escape).
//!
//! The bug: the root URI's host is cut off and ignored, so
//! `file://evil.example/b/outside`, `file://user@host:8080/b/outside` and
//! the like, which name no local directory and must grant nothing, grant
//! `/b/outside`. Everything after that (decoding, resolution, containment)
//! is sound.
//!
//! Imitates: the hand-rolled `uri.strip_prefix("file://")` followed by
//! "skip to the first '/'", and `Url::path()` used without looking at
//! `Url::host()`.
//!
//! Escapes with: roots ["file://evil.example/b/outside"], path
//! "/b/outside/secret.txt", op read.

use rootguard_example_checkers::{resolve, resolve_roots, serve, strict_root_path, verdict, Answer, Request};

fn root_path(uri: &str) -> Result<Vec<u8>, String> {
    let rest = uri.strip_prefix("file://").ok_or("not a file:// URI")?;
    let slash = rest.find('/').ok_or("no path")?;
    strict_root_path(&format!("file://{}", &rest[slash..])) // BUG: the host is never looked at
}

fn check(request: &Request) -> Answer {
    let (roots, _) = resolve_roots(&request.roots, root_path);
    if roots.is_empty() {
        return Answer::deny("no usable root");
    }
    match resolve(&request.path, request.op) {
        Ok(target) => verdict(&roots, &target),
        Err(e) => Answer::deny(format!("cannot {}: {e}", request.op)),
    }
}

fn main() {
    serve(check);
}
