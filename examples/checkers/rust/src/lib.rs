//! The shared half of the Rust example checkers.
//!
//! [`serve`] speaks rootguard's checker protocol v1 (JSON Lines on stdin and
//! stdout, one long-lived process). The sound pieces, [`parse_root_uri`]
//! (semantics.md section 1), [`resolve`] (section 2) and [`within`]
//! (section 3), are used whole by the `sound` binary, and by each flawed
//! binary everywhere except in the one place where it carries its bug.

mod protocol;
mod resolve;
mod root_uri;

pub use protocol::{serve, Answer, Op, Request};
pub use resolve::{join, resolve, show, within, Components, Unresolvable, MAX_LINKS};
pub use root_uri::{parse_root_uri, InvalidRoot};

use serde_json::Value;

/// The resolved components of every usable root, and a note per unusable one.
///
/// `path_of` turns a root URI into a path; it is [`parse_root_uri`] unless a
/// checker decodes roots its own way.
pub fn resolve_roots<F>(roots: &[Value], path_of: F) -> (Vec<Components>, Vec<String>)
where
    F: Fn(&str) -> Result<Vec<u8>, String>,
{
    let mut usable = Vec::new();
    let mut notes = Vec::new();
    for root in roots {
        let Some(uri) = root.as_str() else {
            notes.push(format!("root {root} is not a string"));
            continue;
        };
        match path_of(uri).map(|path| resolve(&path, Op::Read)) {
            Ok(Ok(resolved)) => usable.push(resolved),
            Ok(Err(e)) => notes.push(format!("root {uri:?} does not resolve: {e}")),
            Err(e) => notes.push(format!("root {uri:?} is invalid: {e}")),
        }
    }
    (usable, notes)
}

/// [`parse_root_uri`] with its error as text, for [`resolve_roots`].
pub fn strict_root_path(uri: &str) -> Result<Vec<u8>, String> {
    parse_root_uri(uri).map_err(|e| e.to_string())
}

/// Allowed when `target` is beneath one of `roots`, by whole components.
pub fn verdict(roots: &[Components], target: &Components) -> Answer {
    match roots.iter().find(|root| within(target, root)) {
        Some(root) => Answer::allow(format!("{} is beneath {}", show(&join(target)), show(&join(root)))),
        None => Answer::deny(format!("{} is beneath no root", show(&join(target)))),
    }
}

/// The sound checker: what semantics.md says, nothing less.
pub fn sound_check(request: &Request) -> Answer {
    let (roots, notes) = resolve_roots(&request.roots, strict_root_path);
    if roots.is_empty() {
        return Answer::deny(format!("no usable root{}", notes.iter().map(|n| format!("; {n}")).collect::<String>()));
    }
    match resolve(&request.path, request.op) {
        Ok(target) => verdict(&roots, &target),
        Err(e) => Answer::deny(format!("cannot {}: {e}", request.op)),
    }
}
