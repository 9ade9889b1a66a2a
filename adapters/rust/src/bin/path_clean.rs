//! Checker protocol v1 adapter for the crate `path-clean`:
//!
//!     adapters/rust/target/release/path_clean
//!
//! The call and why: `path_clean::clean(path)` is documented as "the
//! shortest path name equivalent to path by purely lexical processing"
//! (Go's `path.Clean`, Plan 9's cleanname), and the containment test built
//! on it, in its users and in this repository's benches (`check_lexical`,
//! `path_clean`), is `clean(path).starts_with(clean(root))` with
//! `std::path::Path::starts_with` (whole components). So:
//!   - each root URI becomes a path (`root_paths`: the `url` crate);
//!   - allowed when `clean(path).starts_with(clean(root))` for some root.
//! No `use`: the caller operates on the path it was given. Lexical by
//! design: no link is looked at.
use path_clean::clean;
use rootguard_crate_adapters::protocol::{serve, Answer};
use rootguard_crate_adapters::{request_path, root_paths};

fn main() {
    eprintln!("path-clean adapter");
    serve(|req| {
        let cleaned = clean(request_path(&req.path));
        for root in root_paths(&req.roots) {
            if cleaned.starts_with(clean(&root)) {
                return Answer::allow(format!("clean = {} under {}", cleaned.display(), root.display()));
            }
        }
        Answer::deny(format!("clean = {} is under no root", cleaned.display()))
    });
}
