//! Checker protocol v1 adapter for the crate `normpath`:
//!
//!     adapters/rust/target/release/normpath
//!
//! The call and why: `normpath::PathExt::normalize` is the crate's
//! canonicalizer ("on Unix, equivalent to `fs::canonicalize`": links
//! resolved, the path must exist), so its containment test is
//! `path.normalize()?.starts_with(root.normalize()?)` (`BasePath`
//! `starts_with`, whole components). So:
//!   - each root URI becomes a path (`root_paths`: the `url` crate);
//!   - allowed when both normalize and the path's starts with the root's,
//!     and the caller operates on the normalized path (`use`).
//! A path that does not exist cannot be normalized, so a write that
//! creates a file is denied: an overblock, not an escape.
use normpath::PathExt;
use rootguard_crate_adapters::protocol::{serve, Answer};
use rootguard_crate_adapters::{request_path, root_paths, use_text};

fn main() {
    eprintln!("normpath adapter");
    serve(|req| {
        let path = match request_path(&req.path).normalize() {
            Ok(p) => p,
            Err(e) => return Answer::deny(format!("normalize: {e}")),
        };
        for root in root_paths(&req.roots) {
            let Ok(root) = root.normalize() else { continue };
            if path.starts_with(&root) {
                let Some(use_path) = use_text(path.as_path()) else {
                    return Answer::deny("the normalized path is not UTF-8");
                };
                let mut a = Answer::allow(format!("{use_path} under {}", root.as_path().display()));
                a.use_path = Some(use_path);
                return a;
            }
        }
        Answer::deny(format!("{} is under no root", path.as_path().display()))
    });
}
