//! core/src flows one way. Every file's `crate::`, `super::` and `self::`
//! paths are read as uses of the file that defines the module they name;
//! no files may use each other in a circle, and a top-level module may use
//! only the modules listed above it in lib.rs's layer comment.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A file of core/src by its module path (`["open", "backend"]`; lib.rs is
/// `[]`), with its text.
type Files = BTreeMap<Vec<String>, String>;

/// Which files each file uses, by module path.
type Uses = BTreeMap<Vec<String>, BTreeSet<Vec<String>>>;

fn read_files(dir: &Path, module: &[String], files: &mut Files) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("core/src is readable")
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_stem().and_then(|n| n.to_str()).expect("UTF-8");
        let mut inner = module.to_vec();
        if path.is_dir() {
            inner.push(name.to_owned());
            read_files(&path, &inner, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            if name != "lib" {
                inner.push(name.to_owned());
            }
            let text = std::fs::read_to_string(&path).expect("a source file");
            files.insert(inner, text);
        }
    }
}

fn core_files() -> Files {
    let mut files = Files::new();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    read_files(&src, &[], &mut files);
    files
}

/// The files `text` (the file of `module`) uses: each path that starts
/// with `crate`, `$crate`, `self` or `super`, followed as far as it names a
/// file of `modules`. Comment lines are skipped; an inline module (`mod
/// tests {`, closed by a `}` at its own indentation, as rustfmt writes it)
/// is part of its file, so `super` in it first climbs out of it.
fn uses_of(
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
fn paths_in(line: &str) -> Vec<Vec<String>> {
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

fn uses(files: &Files) -> Uses {
    let modules: BTreeSet<Vec<String>> = files.keys().cloned().collect();
    files
        .iter()
        .map(|(module, text)| (module.clone(), uses_of(module, text, &modules)))
        .collect()
}

/// A circle of uses, if there is one, as the files in it.
fn circle(uses: &Uses) -> Option<Vec<Vec<String>>> {
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

fn file_name(module: &[String]) -> String {
    if module.is_empty() {
        "lib.rs".to_owned()
    } else {
        format!("{}.rs", module.join("/"))
    }
}

fn names(modules: &[&str]) -> Vec<String> {
    modules.iter().map(|m| (*m).to_owned()).collect()
}

/// The top-level modules as lib.rs's layer comment lists them, bottom first.
fn layers(lib: &str) -> Vec<String> {
    lib.lines()
        .skip_while(|line| !line.starts_with("// Layers, bottom to top"))
        .take_while(|line| line.starts_with("//"))
        .filter_map(|line| line.strip_prefix("//   "))
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn no_files_use_each_other_in_a_circle() {
    let uses = uses(&core_files());
    if let Some(found) = circle(&uses) {
        let files: Vec<String> = found.iter().map(|m| file_name(m)).collect();
        panic!("a circle of uses: {}", files.join(" -> "));
    }
}

#[test]
fn each_module_uses_only_the_layers_below_it() {
    let files = core_files();
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

/// The reader finds the uses that are there (a reader that found none
/// would pass both tests above), and the circle finder finds a circle.
#[test]
fn the_reader_sees_uses_and_the_finder_sees_circles() {
    let uses = uses(&core_files());
    for (from, to) in [
        (names(&["realfs"]), names(&["beneath"])),
        (names(&["roots"]), names(&["index"])),
        (names(&["opening", "beneath_roots"]), names(&["beneath"])),
        (
            names(&["opening", "pinned"]),
            names(&["opening", "beneath_roots"]),
        ),
        (names(&["index", "few"]), names(&["index", "testing"])),
        (names(&["beneath", "tests"]), names(&["beneath"])),
        (names(&["seam"]), names(&["op"])),
        (names(&[]), names(&["opening"])),
    ] {
        assert!(
            uses.get(&from).is_some_and(|used| used.contains(&to)),
            "{} should be seen to use {}",
            file_name(&from),
            file_name(&to)
        );
    }
    let modules: BTreeSet<Vec<String>> = [names(&["a"]), names(&["a", "b"]), names(&["c"])].into();
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
