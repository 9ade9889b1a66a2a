//! The model oracle: semantics.md and path_resolution(7), followed as
//! literally as possible on an in-memory file system. Obvious beats fast.
//!
//! It knows nothing of the `rootguard` crate; it is the judge that crate is
//! checked against.

mod base_bound;
mod judge;
mod lexical;
mod model_fs;
mod resolve;
mod uri;

pub use base_bound::{lexically_in_base, target_stays_in_base};
pub use judge::{judge, judge_scenario, verdict};
pub use lexical::{lexical_components, LexicalModel};
pub use model_fs::{HostError, ModelFs, ModelFsError, NodeKind, Outside};
pub use resolve::{
    read_target, realpath, resolve_read, resolve_write, write_target, NoTarget, Resolution,
    MAX_LINKS, NAME_MAX, PATH_MAX,
};
pub use uri::{parse_root_uri, RootUriError};

pub(crate) use model_fs::is_within;

/// The made-up base of in-memory runs: the model (with nothing outside
/// it, [`Outside::Absent`]) and core's in-memory file system lay a
/// scenario out beneath it.
pub const MODEL_BASE: &str = "/rg-model/base";

/// Bytes as text for messages: as they are when UTF-8, escaped otherwise.
pub(crate) fn show(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        // A control character is escaped (`\r`, `\u{1b}`): raw, it would not
        // show, or would reach the reader's terminal.
        Ok(text) if text.chars().any(char::is_control) => text
            .chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_debug().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect(),
        Ok(text) => text.to_owned(),
        Err(_) => bytes.escape_ascii().to_string(),
    }
}

/// [`show`], with the base written as `{base}` when the path is within it.
pub(crate) fn show_in(base: &[u8], path: &[u8]) -> String {
    if base != b"/" && is_within(path, base) {
        format!("{{base}}{}", show(&path[base.len()..]))
    } else {
        show(path)
    }
}

#[cfg(test)]
mod tests {
    use super::{show, show_in};

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(show(b"/b/project"), "/b/project");
        assert_eq!(show("/b/café ".as_bytes()), "/b/café ");
        assert_eq!(show(b"/b/project\r"), "/b/project\\r");
        assert_eq!(show(b"/b/a\x1bb\n"), "/b/a\\u{1b}b\\n");
        assert_eq!(show(b"/b/\xff"), "/b/\\xff");
        assert_eq!(show_in(b"/b", b"/b/p\t"), "{base}/p\\t");
    }
}
