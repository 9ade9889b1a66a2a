//! Scenario format v1 (`docs/scenario-format.md`): a small file tree,
//! a list of roots, and queries with their expected verdicts.

mod base;
mod bytes;
mod entry;
mod error;
mod validate;

pub(crate) use base::substitute_base_bytes;
pub use base::{substitute_base, BASE_PLACEHOLDER};
pub use bytes::{from_wtf8, write_json_string, PathBytes};
pub use entry::Entry;
pub use error::{CaseError, EntryError, ScenarioError};
pub use validate::validate_tree;

use serde::{Deserialize, Serialize};

/// The only version of the scenario format this crate reads and writes.
pub const FORMAT_VERSION: u64 = 1;

/// One JSON document: a format version and many scenarios.
///
/// # Examples
///
/// ```
/// use rootguard_judge::Document;
///
/// let doc = Document::from_json(r#"{"version": 1, "scenarios": [
///     {"name": "s", "tree": [{"dir": "project"}],
///      "roots": ["file://{base}/project"],
///      "cases": [{"path": "{base}/project/x", "op": "write", "expect": "inside"}]}
/// ]}"#)?;
/// assert_eq!(doc.scenarios[0].name, "s");
/// # Ok::<(), rootguard_judge::ScenarioError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Document {
    /// The format version; must be [`FORMAT_VERSION`].
    pub version: u64,
    /// Whose path semantics the scenarios are spelled in (`"flavor"`):
    /// absent (Linux, materialized and judged by the kernel) or
    /// `"windows"`, `"macos"` (no tree; judged by the flavour's model).
    #[serde(
        default,
        rename = "flavor",
        skip_serializing_if = "crate::flavour::Flavour::is_linux"
    )]
    pub flavour: crate::flavour::Flavour,
    /// The scenarios, with names unique within the document.
    pub scenarios: Vec<Scenario>,
}

/// A tree, roots, and queries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Unique within the document.
    pub name: String,
    /// Optional prose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Entries created in a fresh, empty base directory.
    pub tree: Vec<Entry>,
    /// Root URI strings, given to the checker as they are.
    pub roots: Vec<String>,
    /// The queries.
    pub cases: Vec<Case>,
}

/// One query: a path, an operation and, when labelled, the expected truth.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// An absolute path once `{base}` is substituted; never a URI. Any
    /// bytes (`\udcXX` in JSON for a byte that is not UTF-8).
    #[serde(deserialize_with = "case_path")]
    pub path: PathBytes,
    /// The operation.
    pub op: Op,
    /// The expected truth; absent in an unlabelled query.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<Expect>,
}

fn case_path<'de, D: serde::Deserializer<'de>>(d: D) -> Result<PathBytes, D::Error> {
    bytes::field(d, "path")
}

/// The operation a query asks about (semantics.md section 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Op {
    /// `open(path, O_PATH)`: read, or list a directory.
    Read,
    /// `open(path, O_WRONLY | O_CREAT)` without `O_EXCL`.
    Write,
}

/// An expected verdict, as written in a scenario (semantics.md section 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Expect {
    /// The target is at or beneath a valid root.
    Inside,
    /// The target resolves and is beneath no valid root.
    Outside,
    /// The operation cannot happen, so no answer harms.
    Either,
}

impl std::fmt::Display for Op {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Op::Read => "read",
            Op::Write => "write",
        })
    }
}

impl std::fmt::Display for Expect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Expect::Inside => "inside",
            Expect::Outside => "outside",
            Expect::Either => "either",
        })
    }
}

impl Document {
    /// A Linux document of the current version holding `scenarios`.
    pub fn new(scenarios: Vec<Scenario>) -> Document {
        Document {
            version: FORMAT_VERSION,
            flavour: crate::flavour::Flavour::Linux,
            scenarios,
        }
    }

    /// Parses a JSON document and validates it.
    ///
    /// # Errors
    ///
    /// [`ScenarioError::Json`] when the text is not JSON of this format
    /// (unknown fields included), and the validation errors of
    /// [`Document::validate`].
    pub fn from_json(text: &str) -> Result<Document, ScenarioError> {
        let doc: Document = serde_json::from_str(text).map_err(ScenarioError::Json)?;
        doc.validate()?;
        Ok(doc)
    }

    /// Writes the document as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        // Serializing these plain types cannot fail: all keys are strings.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Checks every rule of the format that serde does not check.
    ///
    /// # Errors
    ///
    /// The first broken rule: an unsupported version, a duplicate scenario
    /// name, or any error of [`Scenario::validate`].
    pub fn validate(&self) -> Result<(), ScenarioError> {
        validate::validate_document(self)
    }
}

impl Scenario {
    /// Checks the rules of one scenario: its tree paths and targets, and
    /// that every case path is absolute once `{base}` is substituted.
    ///
    /// # Errors
    ///
    /// [`ScenarioError::Entry`] or [`ScenarioError::Case`], naming the
    /// scenario and the index of the broken entry or case.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        validate::validate_scenario(self)
    }

    /// Whether every tree path, link target and case path is UTF-8.
    pub fn is_utf8(&self) -> bool {
        self.tree.iter().all(Entry::is_utf8) && self.cases.iter().all(|c| c.path.is_utf8())
    }

    /// The scenario with every path shown as text, each byte that is not
    /// UTF-8 written `\xHH` ([`PathBytes`]'s `Display`): for writers that
    /// hold only text (a `serde_json::Value`); the scenario-format JSON of
    /// [`Document::to_json`] is the lossless form.
    pub fn shown(&self) -> Scenario {
        let shown = |p: &PathBytes| PathBytes::from(p.to_string());
        Scenario {
            tree: self.tree.iter().map(|e| e.map_paths(shown)).collect(),
            cases: self
                .cases
                .iter()
                .map(|c| Case {
                    path: shown(&c.path),
                    ..c.clone()
                })
                .collect(),
            ..self.clone()
        }
    }

    /// The scenario with `{base}` replaced by `base` in roots, case paths and
    /// symlink targets, and nowhere else.
    ///
    /// # Examples
    ///
    /// ```
    /// use rootguard_judge::{Entry, Scenario};
    ///
    /// let s = Scenario {
    ///     name: "{base}".into(),
    ///     note: None,
    ///     tree: vec![Entry::Symlink { path: "l".into(), target: "{base}/x".into() }],
    ///     roots: vec!["file://{base}".into()],
    ///     cases: vec![],
    /// };
    /// let t = s.substituted("/b");
    /// assert_eq!(t.name, "{base}");
    /// assert_eq!(t.roots, ["file:///b"]);
    /// assert_eq!(t.tree[0], Entry::Symlink { path: "l".into(), target: "/b/x".into() });
    /// ```
    pub fn substituted(&self, base: &str) -> Scenario {
        Scenario {
            name: self.name.clone(),
            note: self.note.clone(),
            tree: self
                .tree
                .iter()
                .map(|entry| match entry {
                    Entry::Symlink { path, target } => Entry::Symlink {
                        path: path.clone(),
                        target: target.replace(BASE_PLACEHOLDER, base),
                    },
                    other => other.clone(),
                })
                .collect(),
            roots: self
                .roots
                .iter()
                .map(|r| substitute_base(r, base))
                .collect(),
            cases: self
                .cases
                .iter()
                .map(|case| Case {
                    path: case.path.replace(BASE_PLACEHOLDER, base),
                    op: case.op,
                    expect: case.expect,
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(scenarios: &str) -> String {
        format!(r#"{{"version": 1, "scenarios": [{scenarios}]}}"#)
    }

    fn scenario(name: &str, tree: &str, cases: &str) -> String {
        format!(r#"{{"name": "{name}", "tree": [{tree}], "roots": [], "cases": [{cases}]}}"#)
    }

    fn error(text: &str) -> ScenarioError {
        match Document::from_json(text) {
            Ok(_) => panic!("accepted: {text}"),
            Err(e) => e,
        }
    }

    #[test]
    fn a_labelled_and_an_unlabelled_case_round_trip() {
        let text = doc(&scenario(
            "s",
            r#"{"dir": "d"}"#,
            r#"{"path": "{base}/d", "op": "read", "expect": "either"}, {"path": "/etc", "op": "write"}"#,
        ));
        let parsed = Document::from_json(&text).expect("valid");
        assert_eq!(parsed.scenarios[0].cases[0].expect, Some(Expect::Either));
        assert_eq!(parsed.scenarios[0].cases[1].expect, None);
        let json = parsed.to_json();
        assert!(!json.contains("null"), "absent fields are left out: {json}");
        assert_eq!(Document::from_json(&json).expect("round trips"), parsed);
    }

    #[test]
    fn bytes_that_are_not_utf8_round_trip_as_surrogate_escapes() {
        let text = doc(&scenario(
            "s",
            r#"{"dir": "caf\udce9"}, {"symlink": "caf\udce9/l\udcff\n", "target": "../\udc80x"}"#,
            r#"{"path": "{base}/caf\udce9/l\udcff\n", "op": "write", "expect": "outside"}, {"path": "/x\u0000\udcc3", "op": "read"}"#,
        ));
        let parsed = Document::from_json(&text).expect("valid");
        let s = &parsed.scenarios[0];
        assert_eq!(s.tree[0].path(), &b"caf\xe9"[..]);
        assert_eq!(
            s.tree[1],
            Entry::Symlink {
                path: b"caf\xe9/l\xff\n".to_vec().into(),
                target: b"../\x80x".to_vec().into()
            }
        );
        assert_eq!(s.cases[1].path, &b"/x\0\xc3"[..]);
        assert!(!s.is_utf8());
        let json = parsed.to_json();
        assert!(
            json.contains(r#""caf\udce9/l\udcff\n""#) && json.contains(r#""/x\u0000\udcc3""#),
            "{json}"
        );
        assert_eq!(Document::from_json(&json).expect("round trips"), parsed);
        let shown = s.shown();
        assert_eq!(
            shown.cases[0].path,
            r"{base}/caf\xe9/l\xff".to_owned() + "\n"
        );
        assert!(shown.is_utf8());
    }

    #[test]
    fn escapes_that_stand_for_no_byte_name_their_field() {
        for (field, text) in [
            ("dir", doc(&scenario("s", r#"{"dir": "a\udc41"}"#, ""))),
            ("file", doc(&scenario("s", r#"{"file": "\ud800"}"#, ""))),
            (
                "target",
                doc(&scenario(
                    "s",
                    r#"{"symlink": "l", "target": "\udfff"}"#,
                    "",
                )),
            ),
            (
                "path",
                doc(&scenario("s", "", r#"{"path": "/\udc00", "op": "read"}"#)),
            ),
        ] {
            let e = error(&text).to_string();
            assert!(
                e.contains(&format!("field \"{field}\"")) && e.contains("stands for no byte"),
                "{field}: {e}"
            );
        }
    }

    #[test]
    fn every_corpus_file_reads_and_writes_as_before() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../corpus/scenarios");
        let mut read = 0;
        for entry in std::fs::read_dir(dir).expect("the corpus") {
            let path = entry.expect("an entry").path();
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("readable");
            let Ok(doc) = Document::from_json(&text) else {
                continue; // root-uris.json is not a scenario file
            };
            let again = Document::from_json(&doc.to_json()).expect("re-reads");
            assert_eq!(again, doc, "{}", path.display());
            read += 1;
        }
        assert!(read >= 3, "only {read} scenario files in {dir}");
    }

    #[test]
    fn version_and_names() {
        let e = error(r#"{"version": 2, "scenarios": []}"#);
        assert!(
            matches!(e, ScenarioError::UnsupportedVersion { found: 2 }),
            "{e}"
        );
        assert!(e.to_string().contains("only version 1"), "{e}");
        let e = error(&doc(&[
            scenario("s", "", ""),
            scenario("t", "", ""),
            scenario("s", "", ""),
        ]
        .join(",")));
        assert!(
            matches!(
                e,
                ScenarioError::DuplicateName {
                    first: 0,
                    second: 2,
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn unknown_fields_at_every_level() {
        for text in [
            r#"{"version": 1, "scenarios": [], "extra": 1}"#.to_owned(),
            doc(r#"{"name": "s", "tree": [], "roots": [], "cases": [], "expect": "inside"}"#),
            doc(&scenario("s", r#"{"dir": "d", "mode": 7}"#, "")),
            doc(&scenario(
                "s",
                "",
                r#"{"path": "/x", "op": "read", "expected": "inside"}"#,
            )),
            doc(&scenario("s", "", r#"{"path": "/x", "op": "open"}"#)),
            doc(&scenario(
                "s",
                "",
                r#"{"path": "/x", "op": "read", "expect": "maybe"}"#,
            )),
            doc(r#"{"name": "s", "tree": [], "cases": []}"#),
        ] {
            let e = error(&text);
            assert!(matches!(e, ScenarioError::Json(_)), "{text}: {e}");
            assert!(e.to_string().contains("scenario-format.md"), "{e}");
        }
    }

    #[test]
    fn entry_errors_name_scenario_and_index() {
        let e = error(&doc(&scenario(
            "sc",
            r#"{"dir": "a"}, {"file": "a/../b"}"#,
            "",
        )));
        assert_eq!(e.to_string(), "scenario \"sc\", tree entry 1 (\"a/../b\"): the path has a `..` segment; write the plain path from the base (use a symlink target for `..`)");
        let e = error(&doc(&scenario("sc", r#"{"file": "f"}, {"dir": "f"}"#, "")));
        assert!(
            matches!(
                e,
                ScenarioError::Entry {
                    index: 1,
                    error: EntryError::Duplicate { first: 0 },
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn case_paths_must_be_absolute_after_substitution() {
        for path in ["", "x", "base}/x", "./{base}", "file:///x"] {
            let e = error(&doc(&scenario(
                "s",
                "",
                &format!(r#"{{"path": "{path}", "op": "read"}}"#),
            )));
            assert!(
                matches!(
                    e,
                    ScenarioError::Case {
                        index: 0,
                        error: CaseError::NotAbsolute { .. },
                        ..
                    }
                ),
                "{path}: {e}"
            );
        }
        for path in ["/", "{base}", "{base}/x", "/{base}", "/x\\u0000"] {
            let text = doc(&scenario(
                "s",
                "",
                &format!(r#"{{"path": "{path}", "op": "read"}}"#),
            ));
            assert!(Document::from_json(&text).is_ok(), "{path}");
        }
    }
}
