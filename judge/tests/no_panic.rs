//! The oracle never panics, whatever the bytes: URIs, paths, documents.

use std::path::Path;

use proptest::prelude::*;
use rootguard_judge::oracle::{
    judge, parse_root_uri, resolve_read, resolve_write, ModelFs, Outside, MODEL_BASE,
};
use rootguard_judge::strategies::{root_uri, tree};
use rootguard_judge::{Document, Op};

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![Just(Op::Read), Just(Op::Write)]
}

proptest! {
    #[test]
    fn uri_parser_takes_any_string(uri in any::<String>()) {
        if let Ok(path) = parse_root_uri(&uri) {
            prop_assert!(path.starts_with(b"/"));
        }
    }

    #[test]
    fn uri_parser_takes_hostile_uris(uri in root_uri()) {
        if let Ok(path) = parse_root_uri(&uri) {
            // Rule 6: a lexically normal absolute path.
            prop_assert!(path == b"/" || (path.starts_with(b"/") && !path.ends_with(b"/")), "{uri:?}");
            prop_assert!(path[1..].split(|&b| b == b'/').all(|s| s != b"." && s != b".." && (path == b"/" || !s.is_empty())));
            prop_assert!(!path.contains(&0));
        }
    }

    #[test]
    fn judge_takes_any_bytes(
        tree in tree(),
        roots in prop::collection::vec(prop_oneof![root_uri(), any::<String>()], 0..3),
        path in prop_oneof![
            prop::collection::vec(any::<u8>(), 0..64),
            prop::collection::vec(prop::sample::select(&b"/./.a\0"[..]), 0..64),
            proptest::string::string_regex(&format!("{MODEL_BASE}(/[a-z.]{{0,3}}){{0,8}}"))
                .expect("a valid regex")
                .prop_map(String::into_bytes),
        ],
        op in op(),
    ) {
        let fs = ModelFs::new(&tree, Path::new(MODEL_BASE), Outside::Absent)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let j = judge(&roots, &path, op, &fs);
        prop_assert_eq!(j.target.is_some(), j.truth != rootguard_judge::Truth::Either);
        prop_assert_eq!(j.root.is_some(), j.truth == rootguard_judge::Truth::Inside);
        let _ = resolve_read(&fs, &path);
        let _ = resolve_write(&fs, &path);
    }

    #[test]
    fn documents_take_any_text(text in any::<String>()) {
        let _ = Document::from_json(&text);
    }

    #[test]
    fn documents_take_json_shaped_text(text in r#"\{"version": ?[0-9], ?"scenarios": ?\[\{"name": ?"[a-z]{0,3}", ?"tree": ?\[(\{"(dir|file|symlink|target|content|x)": ?"[a-z/.{}]{0,6}"(, ?"(target|content)": ?"[a-z./]{0,4}")?\},? ?){0,3}\], ?"roots": ?\[\], ?"cases": ?\[\]\}\]\}"#) {
        let _ = Document::from_json(&text);
    }
}

#[test]
fn model_base_may_be_any_bytes() {
    for base in ["", "/", "rel", "/a/../b", "/a//b", "/a/", "/\u{0}"] {
        let _ = ModelFs::new(&[], Path::new(base), Outside::Absent);
    }
}
