//! Checker protocol v1 adapter for the crate `path-absolutize`:
//!
//!     adapters/rust/target/release/path_absolutize
//!
//! The call and why: `Absolutize::absolutize_virtually(virtual_root)` is
//! the crate's containment API: "Get an absolute path **only under a
//! specific directory**", an `Err` (InvalidInput) when the path is not
//! under it; an absolute path is checked as it is. So:
//!   - each root URI becomes a path (`root_paths`: the `url` crate);
//!   - allowed when `path.absolutize_virtually(root)` is `Ok` for some
//!     root, and the caller operates on the path it returned (`use`).
//! Lexical by design (its README: it does not touch the file system but
//! for the current directory): no link is looked at.
use path_absolutize::Absolutize;
use rootguard_crate_adapters::protocol::{serve, Answer};
use rootguard_crate_adapters::{request_path, root_paths, use_text};

fn main() {
    eprintln!("path-absolutize adapter");
    serve(|req| {
        let path = request_path(&req.path);
        let mut why = String::from("no root");
        for root in root_paths(&req.roots) {
            match path.absolutize_virtually(&root) {
                Ok(abs) => {
                    let Some(use_path) = use_text(&abs) else {
                        return Answer::deny("the absolutized path is not UTF-8");
                    };
                    let mut a = Answer::allow(format!("absolutize_virtually({}) = {use_path}", root.display()));
                    a.use_path = Some(use_path);
                    return a;
                }
                Err(e) => why = format!("absolutize_virtually({}): {e}", root.display()),
            }
        }
        Answer::deny(why)
    });
}
