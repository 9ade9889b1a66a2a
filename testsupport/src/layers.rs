//! Which files of a crate use which, read from the source: every
//! `crate::`, `super::` and `self::` path is a use of the file that
//! defines the module it names. [`assert_no_circle`] is the check every
//! crate's tests/layers.rs makes; a crate whose lib.rs has a layer comment
//! (`// Layers, bottom to top:`) is also held to it by [`assert_layered`].

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A file of a crate's src/ by its module path (`["open", "backend"]`;
/// lib.rs or main.rs is `[]`, `runner/mod.rs` is `["runner"]`), with its text.
pub type Files = BTreeMap<Vec<String>, String>;

/// Which files each file uses, by module path.
pub type Uses = BTreeMap<Vec<String>, BTreeSet<Vec<String>>>;

fn read_files(dir: &Path, module: &[String], files: &mut Files) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{} cannot be read: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_stem().and_then(|n| n.to_str()).expect("UTF-8");
        let mut inner = module.to_vec();
        if path.is_dir() {
            // src/bin/ holds crates of their own.
            if module.is_empty() && name == "bin" {
                continue;
            }
            inner.push(name.to_owned());
            read_files(&path, &inner, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            if !(module.is_empty() && matches!(name, "lib" | "main")) && name != "mod" {
                inner.push(name.to_owned());
            }
            let text = std::fs::read_to_string(&path).expect("a source file");
            files.insert(inner, text);
        }
    }
}

/// Every file of `src` (a crate's src/ directory, src/bin/ left out).
///
/// # Panics
///
/// When a directory or file cannot be read.
pub fn read_src(src: &Path) -> Files {
    let mut files = Files::new();
    read_files(src, &[], &mut files);
    files
}

/// The files `text` (the file of `module`) uses: each path that starts
/// with `crate`, `$crate`, `self` or `super`, followed as far as it names a
/// file of `modules`. Comment lines are skipped; an inline module (`mod
/// tests {`, closed by a `}` at its own indentation, as rustfmt writes it)
/// is part of its file, so `super` in it first climbs out of it.
pub fn uses_of(
    module: &[String],
    text: &str,
    modules: &BTreeSet<Vec<String>>,
) -> BTreeSet<Vec<String>> {
    let mut uses = BTreeSet::new();
    // Indentation of each open inline module.
    let mut inline: Vec<usize> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if trimmed.starts_with("//") {
            continue;
        }
        if inline.last() == Some(&indent) && trimmed == "}" {
            inline.pop();
            continue;
        }
        let words: Vec<&str> = trimmed.split_whitespace().collect();
        if words.last() == Some(&"{") && words.iter().rev().nth(2) == Some(&"mod") {
            inline.push(indent);
            continue;
        }
        for path in paths_in(line) {
            let mut at: Vec<String> = module.to_vec();
            let mut depth = inline.len();
            let mut segments = path.iter().peekable();
            match segments.next().map(String::as_str) {
                Some("crate" | "$crate") => at.clear(),
                Some("self") if depth > 0 => continue,
                Some("self") => {}
                Some("super") => {
                    if depth > 0 {
                        depth -= 1;
                    } else {
                        at.pop();
                    }
                }
                _ => unreachable!("paths_in gives only these"),
            }
            while segments.peek().map(|s| s.as_str()) == Some("super") {
                segments.next();
                if depth > 0 {
                    depth -= 1;
                } else {
                    at.pop();
                }
            }
            if depth > 0 {
                // Still inside this file's inline modules.
                continue;
            }
            for segment in segments {
                let mut deeper = at.clone();
                deeper.push(segment.clone());
                if !modules.contains(&deeper) {
                    break;
                }
                at = deeper;
            }
            if at != module {
                uses.insert(at);
            }
        }
    }
    uses
}

/// The paths in `line` that start with `crate`, `$crate`, `self` or
/// `super` and go on with `::`, as their segments.
pub fn paths_in(line: &str) -> Vec<Vec<String>> {
    let bytes = line.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let text = |range: &[u8]| String::from_utf8_lossy(range).into_owned();
    let mut paths = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let starts = at == 0 || !(word(bytes[at - 1]) || bytes[at - 1] == b':');
        let head = ["$crate", "crate", "self", "super"]
            .into_iter()
            .find(|head| bytes[at..].starts_with(head.as_bytes()));
        let (true, Some(head)) = (starts, head) else {
            at += 1;
            continue;
        };
        let mut end = at + head.len();
        let mut segments = vec![head.to_owned()];
        while bytes[end..].starts_with(b"::") {
            let start = end + 2;
            let len = bytes[start..].iter().take_while(|&&b| word(b)).count();
            if len == 0 {
                break;
            }
            segments.push(text(&bytes[start..start + len]));
            end = start + len;
        }
        if bytes[at + head.len()..].starts_with(b"::") {
            paths.push(segments);
        }
        at = end;
    }
    paths
}

/// Which files each file of `files` uses.
pub fn uses(files: &Files) -> Uses {
    let modules: BTreeSet<Vec<String>> = files.keys().cloned().collect();
    files
        .iter()
        .map(|(module, text)| (module.clone(), uses_of(module, text, &modules)))
        .collect()
}

/// A circle of uses, if there is one, as the files in it.
pub fn circle(uses: &Uses) -> Option<Vec<Vec<String>>> {
    fn visit(
        at: &Vec<String>,
        uses: &Uses,
        path: &mut Vec<Vec<String>>,
        done: &mut BTreeSet<Vec<String>>,
    ) -> Option<Vec<Vec<String>>> {
        if let Some(start) = path.iter().position(|p| p == at) {
            let mut found = path[start..].to_vec();
            found.push(at.clone());
            return Some(found);
        }
        if done.contains(at) {
            return None;
        }
        path.push(at.clone());
        for next in uses.get(at).into_iter().flatten() {
            if let Some(found) = visit(next, uses, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(at.clone());
        None
    }
    let mut done = BTreeSet::new();
    uses.keys()
        .find_map(|start| visit(start, uses, &mut Vec::new(), &mut done))
}

/// The file a module path names, relative to src/ (`runner/call.rs`).
pub fn file_name(module: &[String]) -> String {
    if module.is_empty() {
        "lib.rs".to_owned()
    } else {
        format!("{}.rs", module.join("/"))
    }
}

/// A module path from its segments.
pub fn names(modules: &[&str]) -> Vec<String> {
    modules.iter().map(|m| (*m).to_owned()).collect()
}

/// The top-level modules as lib.rs's layer comment lists them, bottom first.
pub fn layers(lib: &str) -> Vec<String> {
    lib.lines()
        .skip_while(|line| !line.starts_with("// Layers, bottom to top"))
        .take_while(|line| line.starts_with("//"))
        .filter_map(|line| line.strip_prefix("//   "))
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

/// The crate's src/ directory, from its `CARGO_MANIFEST_DIR`.
fn src_of(manifest_dir: &str) -> std::path::PathBuf {
    Path::new(manifest_dir).join("src")
}

/// Fails when files of the crate at `manifest_dir` use each other in a
/// circle, naming the files.
///
/// # Panics
///
/// On a circle, or when src/ holds too few files to have been read.
pub fn assert_no_circle(manifest_dir: &str) {
    let files = read_src(&src_of(manifest_dir));
    assert!(
        !files.is_empty(),
        "no source files under {manifest_dir}/src"
    );
    if let Some(found) = circle(&uses(&files)) {
        let names: Vec<String> = found.iter().map(|m| file_name(m)).collect();
        panic!(
            "a circle of uses in {manifest_dir}/src: {} (move what both need below both, \
             or merge the files)",
            names.join(" -> ")
        );
    }
}

/// Fails unless lib.rs's layer comment lists every top-level module once
/// and each module uses only the modules listed above it.
///
/// # Panics
///
/// On a module listed wrongly or a use upward, naming them all.
pub fn assert_layered(manifest_dir: &str) {
    let files = read_src(&src_of(manifest_dir));
    let layers = layers(&files[&Vec::new()]);
    let tops: BTreeSet<String> = files.keys().filter_map(|m| m.first().cloned()).collect();
    let listed: BTreeSet<String> = layers.iter().cloned().collect();
    assert_eq!(
        tops, listed,
        "lib.rs's layer comment must list every top-level module once"
    );
    assert_eq!(
        layers.len(),
        listed.len(),
        "a module listed twice: {layers:?}"
    );
    let level = |module: &[String]| layers.iter().position(|l| Some(l) == module.first());
    let mut wrong = Vec::new();
    for (module, used) in uses(&files) {
        let Some(from) = level(&module) else { continue };
        for target in used {
            match level(&target) {
                None => wrong.push(format!(
                    "{} uses lib.rs: name the module that defines the item",
                    file_name(&module)
                )),
                Some(to) if to > from => wrong.push(format!(
                    "{} uses {}, which lib.rs lists above it",
                    file_name(&module),
                    file_name(&target)
                )),
                Some(_) => {}
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reader finds uses in a file and the finder sees circles (a
    /// reader that found none would pass every crate).
    #[test]
    fn the_reader_sees_uses_and_the_finder_sees_circles() {
        let modules: BTreeSet<Vec<String>> =
            [names(&["a"]), names(&["a", "b"]), names(&["c"])].into();
        let text = "use super::x;\nuse crate::c::Thing;\n// use crate::a;\nmod tests {\n    use super::*;\n    use super::super::c;\n}\n";
        assert_eq!(
            uses_of(&names(&["a", "b"]), text, &modules),
            [names(&["a"]), names(&["c"])].into()
        );
        let parent = "mod b;\npub use self::b::B;\n";
        assert_eq!(
            uses_of(&names(&["a"]), parent, &modules),
            [names(&["a", "b"])].into()
        );
        let mut circular = Uses::new();
        circular.insert(names(&["a"]), [names(&["a", "b"])].into());
        circular.insert(names(&["a", "b"]), [names(&["a"])].into());
        circular.insert(names(&["c"]), [names(&["a"])].into());
        assert!(circle(&circular).is_some());
        circular.insert(names(&["a", "b"]), [names(&["c"])].into());
        circular.insert(names(&["c"]), BTreeSet::new());
        assert_eq!(circle(&circular), None);
    }

    /// mod.rs is its directory's module, and src/bin/ is not read.
    #[test]
    fn mod_rs_is_its_directory() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let src = dir.path();
        std::fs::create_dir_all(src.join("runner")).expect("mkdir");
        std::fs::create_dir_all(src.join("bin")).expect("mkdir");
        std::fs::write(src.join("lib.rs"), "mod runner;\n").expect("write");
        std::fs::write(src.join("runner/mod.rs"), "mod call;\n").expect("write");
        std::fs::write(src.join("runner/call.rs"), "use super::x;\n").expect("write");
        std::fs::write(src.join("bin/tool.rs"), "fn main() {}\n").expect("write");
        let files = read_src(src);
        let keys: Vec<Vec<String>> = files.keys().cloned().collect();
        assert_eq!(
            keys,
            [names(&[]), names(&["runner"]), names(&["runner", "call"])]
        );
        assert_eq!(
            uses(&files)[&names(&["runner", "call"])],
            [names(&["runner"])].into()
        );
    }
}
