//! What a tool call did, seen on disk: a snapshot of everything in the base
//! outside the roots, taken before and after each call, never following a
//! link; and seen in its result: the text of base64 blobs decoded, so a
//! canary read as a resource or image blob shows too.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// The text of every base64 blob in `response`: a `blob` field anywhere
/// (resource contents), and the `data` of content items (images, audio),
/// each decoded and read as UTF-8, lossily, one a line.
///
/// # Examples
///
/// ```
/// use rootguard_mcp::observe::blob_text;
/// use serde_json::json;
///
/// let response = json!({"result": {"contents": [{"uri": "file:///x", "blob": "Q0FOQVJZLTEy"}]}});
/// assert_eq!(blob_text(&response), "CANARY-12\n");
/// ```
pub fn blob_text(response: &serde_json::Value) -> String {
    use base64::Engine;
    use serde_json::Value;
    let mut out = String::new();
    let mut stack = vec![response];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) => {
                for (key, v) in map {
                    let is_blob = key == "blob" || (key == "data" && map.contains_key("mimeType"));
                    if let (true, Some(text)) = (is_blob, v.as_str()) {
                        if let Ok(bytes) = base64::engine::general_purpose::STANDARD.decode(text) {
                            out.push_str(&String::from_utf8_lossy(&bytes));
                            out.push('\n');
                        }
                    } else {
                        stack.push(v);
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter().rev()),
            _ => {}
        }
    }
    out
}

/// One entry as `lstat` and a read see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seen {
    /// A directory.
    Dir,
    /// A file and its bytes (the first 64 KiB).
    File(Vec<u8>),
    /// A link and its target.
    Link(PathBuf),
    /// Anything else.
    Other,
}

/// Everything beneath the base but outside `skip` (the roots and the server's home), by relative path.
pub type Snapshot = BTreeMap<PathBuf, Seen>;

/// Walks `base` without following links, skipping the directories in `skip`.
pub fn snapshot(base: &Path, skip: &[PathBuf]) -> Snapshot {
    let mut out = Snapshot::new();
    walk(base, base, skip, &mut out);
    out
}

fn walk(base: &Path, dir: &Path, skip: &[PathBuf], out: &mut Snapshot) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if skip.iter().any(|s| s == &path) {
            continue;
        }
        let rel = path.strip_prefix(base).unwrap_or(&path).to_path_buf();
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        let kind = meta.file_type();
        if kind.is_symlink() {
            out.insert(rel, Seen::Link(fs::read_link(&path).unwrap_or_default()));
        } else if kind.is_dir() {
            out.insert(rel, Seen::Dir);
            walk(base, &path, skip, out);
        } else if kind.is_file() {
            let mut bytes = fs::read(&path).unwrap_or_default();
            bytes.truncate(64 * 1024);
            out.insert(rel, Seen::File(bytes));
        } else {
            out.insert(rel, Seen::Other);
        }
    }
}

/// The changes from `before` to `after`, one line each (`created`, `removed`, `changed`).
pub fn changes(before: &Snapshot, after: &Snapshot) -> Vec<String> {
    let mut out = Vec::new();
    for (path, seen) in after {
        match before.get(path) {
            None => out.push(format!("created {}", show(path))),
            Some(old) if old != seen => out.push(format!("changed {}", show(path))),
            _ => {}
        }
    }
    for path in before.keys() {
        if !after.contains_key(path) {
            out.push(format!("removed {}", show(path)));
        }
    }
    out
}

fn show(path: &Path) -> String {
    format!(
        "{{base}}/{}",
        String::from_utf8_lossy(path.as_os_str().as_bytes())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_outside_the_skipped_dirs_are_seen_without_following_links() {
        let dir = tempfile::tempdir().expect("temp dir");
        let base = dir.path();
        fs::create_dir_all(base.join("proj")).unwrap();
        fs::create_dir_all(base.join("out")).unwrap();
        fs::write(base.join("out/secret.txt"), "CANARY").unwrap();
        std::os::unix::fs::symlink(base.join("out"), base.join("proj/ldir")).unwrap();
        let skip = [base.join("proj")];
        let before = snapshot(base, &skip);
        fs::write(base.join("proj/inside.txt"), "fine").unwrap();
        assert!(changes(&before, &snapshot(base, &skip)).is_empty());
        fs::write(base.join("proj/ldir/new.txt"), "escaped").unwrap();
        fs::write(base.join("out/secret.txt"), "changed").unwrap();
        assert_eq!(
            changes(&before, &snapshot(base, &skip)),
            [
                "created {base}/out/new.txt",
                "changed {base}/out/secret.txt"
            ]
        );
    }
}
