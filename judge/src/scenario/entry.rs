//! A tree entry: `{"dir": P}`, `{"file": P, "content"?}` or
//! `{"symlink": P, "target": T}`.

use serde::{Deserialize, Serialize};

use serde::Deserializer;

use super::bytes::field;
use super::PathBytes;

/// One entry of a scenario's tree. `path` is relative to the base.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawEntry", into = "RawEntry")]
pub enum Entry {
    /// A directory.
    Dir {
        /// Relative to the base, `/`-separated.
        path: PathBytes,
    },
    /// A regular file, empty unless `content` is given.
    File {
        /// Relative to the base, `/`-separated.
        path: PathBytes,
        /// The file's contents.
        content: Option<String>,
    },
    /// A symbolic link holding `target` verbatim.
    Symlink {
        /// Relative to the base, `/`-separated.
        path: PathBytes,
        /// Written into the link as is (after `{base}` substitution).
        target: PathBytes,
    },
}

impl Entry {
    /// The entry's path, relative to the base.
    pub fn path(&self) -> &PathBytes {
        match self {
            Entry::Dir { path } | Entry::File { path, .. } | Entry::Symlink { path, .. } => path,
        }
    }

    /// Whether its path, and a link's target, are UTF-8.
    pub fn is_utf8(&self) -> bool {
        self.path().is_utf8()
            && match self {
                Entry::Symlink { target, .. } => target.is_utf8(),
                _ => true,
            }
    }

    /// The entry with `f` applied to its path and a link's target; a file's
    /// content is kept.
    pub fn map_paths(&self, f: impl Fn(&PathBytes) -> PathBytes) -> Entry {
        match self {
            Entry::Dir { path } => Entry::Dir { path: f(path) },
            Entry::File { path, content } => Entry::File {
                path: f(path),
                content: content.clone(),
            },
            Entry::Symlink { path, target } => Entry::Symlink {
                path: f(path),
                target: f(target),
            },
        }
    }

    /// `"dir"`, `"file"` or `"symlink"`, as the JSON key says.
    pub fn kind(&self) -> &'static str {
        match self {
            Entry::Dir { .. } => "dir",
            Entry::File { .. } => "file",
            Entry::Symlink { .. } => "symlink",
        }
    }
}

/// The JSON shape of an entry, with every key optional so that a wrong
/// combination gets a message naming the keys rather than serde's
/// "did not match any variant".
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "dir_field"
    )]
    dir: Option<PathBytes>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "file_field"
    )]
    file: Option<PathBytes>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    content: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "symlink_field"
    )]
    symlink: Option<PathBytes>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "target_field"
    )]
    target: Option<PathBytes>,
}

macro_rules! named_field {
    ($($fn:ident: $name:literal),*) => {$(
        fn $fn<'de, D: Deserializer<'de>>(d: D) -> Result<Option<PathBytes>, D::Error> {
            field(d, $name).map(Some)
        }
    )*};
}

named_field!(dir_field: "dir", file_field: "file", symlink_field: "symlink", target_field: "target");

impl TryFrom<RawEntry> for Entry {
    type Error = String;

    fn try_from(raw: RawEntry) -> Result<Entry, String> {
        const SHAPES: &str = r#"write {"dir": P}, {"file": P} (optionally with "content"), or {"symlink": P, "target": T}"#;
        match raw {
            RawEntry { dir: Some(path), file: None, content: None, symlink: None, target: None } => {
                Ok(Entry::Dir { path })
            }
            RawEntry { dir: None, file: Some(path), content, symlink: None, target: None } => {
                Ok(Entry::File { path, content })
            }
            RawEntry { dir: None, file: None, content: None, symlink: Some(path), target: Some(target) } => {
                Ok(Entry::Symlink { path, target })
            }
            RawEntry { symlink: Some(_), target: None, .. } => {
                Err(format!("a symlink entry needs a \"target\"; {SHAPES}"))
            }
            RawEntry { dir: None, file: None, symlink: None, .. } => {
                Err(format!("a tree entry needs one of \"dir\", \"file\" or \"symlink\"; {SHAPES}"))
            }
            _ => Err(format!(
                "a tree entry has exactly one of \"dir\", \"file\" or \"symlink\", and \"content\" only with \"file\", \"target\" only with \"symlink\"; {SHAPES}"
            )),
        }
    }
}

impl From<Entry> for RawEntry {
    fn from(entry: Entry) -> RawEntry {
        let empty = RawEntry {
            dir: None,
            file: None,
            content: None,
            symlink: None,
            target: None,
        };
        match entry {
            Entry::Dir { path } => RawEntry {
                dir: Some(path),
                ..empty
            },
            Entry::File { path, content } => RawEntry {
                file: Some(path),
                content,
                ..empty
            },
            Entry::Symlink { path, target } => RawEntry {
                symlink: Some(path),
                target: Some(target),
                ..empty
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Entry, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    #[test]
    fn each_shape_round_trips() {
        for text in [
            r#"{"dir":"a"}"#,
            r#"{"file":"a/b"}"#,
            r#"{"file":"a/b","content":"hi"}"#,
            r#"{"symlink":"l","target":"../x"}"#,
        ] {
            let entry = parse(text).expect(text);
            assert_eq!(serde_json::to_string(&entry).expect("serializes"), text);
        }
    }

    #[test]
    fn wrong_shapes_say_what_to_write() {
        for text in [
            r#"{"symlink":"l"}"#,
            r#"{"dir":"a","file":"b"}"#,
            r#"{"dir":"a","target":"b"}"#,
            r#"{"dir":"a","content":"b"}"#,
            r#"{}"#,
            r#"{"content":"x"}"#,
        ] {
            let err = parse(text).expect_err(text);
            assert!(err.contains("write {\"dir\": P}"), "{text}: {err}");
        }
        let err = parse(r#"{"dir":"a","mode":"0755"}"#).expect_err("unknown field");
        assert!(err.contains("unknown field `mode`"), "{err}");
    }
}
