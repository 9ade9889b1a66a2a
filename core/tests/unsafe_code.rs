//! Core's unsafe code stays where lib.rs says it is: the SSE2 scan in
//! src/normal.rs and the SSE2 compare in src/index/few.rs. Every other
//! file is held to lib.rs's `#![deny(unsafe_code)]`, and only lib.rs may
//! lift it, on those two modules.

use std::path::{Path, PathBuf};

/// The files that may hold `unsafe` blocks, relative to src/.
const UNSAFE_FILES: [&str; 2] = ["normal.rs", "index/few.rs"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("core/src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Lines of `text` that are code, not comments.
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim_start()))
        .filter(|(_, line)| !line.starts_with("//"))
}

#[test]
fn unsafe_code_is_only_where_lib_rs_names_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    assert!(files.len() > 20, "core/src was not read: {files:?}");
    let mut wrong = Vec::new();
    let mut seen_unsafe = Vec::new();
    for path in &files {
        let rel = path.strip_prefix(&src).expect("beneath src");
        let rel = rel.to_string_lossy();
        let text = std::fs::read_to_string(path).expect("a source file");
        for (n, line) in code_lines(&text) {
            let has_unsafe = line
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .any(|w| w == "unsafe");
            if has_unsafe && !line.contains("unsafe_code") {
                if UNSAFE_FILES.contains(&rel.as_ref()) {
                    seen_unsafe.push(rel.to_string());
                } else {
                    wrong.push(format!("src/{rel}:{n} has unsafe code: {line}"));
                }
            }
            if line.contains("allow(unsafe_code)") && rel != "lib.rs" {
                wrong.push(format!(
                    "src/{rel}:{n} lifts deny(unsafe_code): only lib.rs may"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The list is not stale: each file named still has its unsafe code.
    for file in UNSAFE_FILES {
        assert!(
            seen_unsafe.iter().any(|f| f == file),
            "src/{file} has no unsafe code any more: take it off the list and lib.rs's allow"
        );
    }
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    assert!(
        lib.contains("#![deny(unsafe_code)]"),
        "lib.rs must deny unsafe_code"
    );
    let lifted: Vec<&str> = lib
        .lines()
        .zip(lib.lines().skip(1))
        .filter(|(attr, _)| attr.trim() == "#[allow(unsafe_code)]")
        .map(|(_, item)| item.trim())
        .collect();
    assert_eq!(
        lifted,
        ["mod index;", "mod normal;"],
        "lib.rs lifts deny(unsafe_code) on these modules only"
    );
}
