//! Conformance as data: corpus/root-uris.json, the root-URI vectors every
//! checker in any language is held to (semantics §1).

use std::os::unix::ffi::OsStrExt;

use rootguard::RootUri;

#[test]
fn every_vector_of_the_corpus() {
    let text = include_str!("../../corpus/root-uris.json");
    let doc: serde_json::Value = serde_json::from_str(text).expect("corpus/root-uris.json is JSON");
    let vectors = doc["vectors"].as_array().expect("a vectors array");
    assert!(
        vectors.len() >= 50,
        "the corpus shrank to {}",
        vectors.len()
    );
    let mut failures = Vec::new();
    for vector in vectors {
        let uri = vector["uri"].as_str().expect("uri");
        let parsed = RootUri::parse(uri);
        let hex_bytes = |hex: &str| -> Vec<u8> {
            (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
                .collect()
        };
        let expected: Option<Vec<u8>> = match (vector["path"].as_str(), vector["path_hex"].as_str())
        {
            (Some(path), _) => Some(path.as_bytes().to_vec()),
            (None, Some(hex)) => Some(hex_bytes(hex)),
            (None, None) => None,
        };
        match (&parsed, &expected) {
            (Ok(got), Some(want)) if got.path().as_os_str().as_bytes() == want.as_slice() => {}
            (Err(_), None) => {}
            _ => failures.push(format!("{uri:?}: got {parsed:?}, vector says {vector}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// `LexicalRoots` keeps the valid roots, in order, with their positions in
/// the list given, and the invalid ones apart.
#[test]
fn lexical_roots_keep_what_they_accepted() {
    let roots =
        rootguard::lexical::LexicalRoots::new(["file:///a/b", "http://x/y", "file:///c/./d/"]);
    assert_eq!(
        roots.accepted(),
        &[
            (0, std::path::PathBuf::from("/a/b")),
            (2, std::path::PathBuf::from("/c/d"))
        ]
    );
    assert_eq!(roots.rejected().len(), 1);
    assert_eq!(roots.rejected()[0].index, 1);
    // A check's root counts the list given, and `get` finds its path.
    let id = roots.inside("/c/d/e").expect("absolute").expect("inside");
    assert_eq!(id.index(), 2);
    assert_eq!(roots.get(id), Some(std::path::Path::new("/c/d")));
    let first = roots.inside("/a/b").expect("absolute").expect("inside");
    assert_eq!(roots.get(first), Some(std::path::Path::new("/a/b")));
    // Root #1 was rejected; a one-root list has no root #2.
    let rejected_id = rootguard::lexical::LexicalRoots::new(["http://x/y", "file:///r"])
        .inside("/r")
        .expect("absolute")
        .expect("inside");
    assert_eq!(rejected_id.index(), 1);
    assert_eq!(roots.get(rejected_id), None);
    assert_eq!(
        rootguard::lexical::LexicalRoots::new(["file:///c/d"]).get(id),
        None
    );
}
