//! The rules of scenario-format.md that serde cannot check.

use std::collections::HashMap;

use super::{
    CaseError, Document, Entry, EntryError, PathBytes, Scenario, ScenarioError, BASE_PLACEHOLDER,
    FORMAT_VERSION,
};

/// Longest file name Linux accepts (NAME_MAX).
const NAME_MAX: usize = 255;

pub(crate) fn validate_document(doc: &Document) -> Result<(), ScenarioError> {
    if doc.version != FORMAT_VERSION {
        return Err(ScenarioError::UnsupportedVersion { found: doc.version });
    }
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (index, scenario) in doc.scenarios.iter().enumerate() {
        if let Some(&first) = seen.get(scenario.name.as_str()) {
            return Err(ScenarioError::DuplicateName {
                name: scenario.name.clone(),
                first,
                second: index,
            });
        }
        seen.insert(&scenario.name, index);
        if doc.flavour.is_linux() {
            scenario.validate()?;
        } else if !scenario.tree.is_empty() {
            // A modelled flavour's paths are its own (`C:\x`); only the tree
            // would be Linux's, and there is none.
            return Err(ScenarioError::FlavouredTree {
                scenario: scenario.name.clone(),
                flavour: doc.flavour,
            });
        }
    }
    Ok(())
}

pub(crate) fn validate_scenario(scenario: &Scenario) -> Result<(), ScenarioError> {
    validate_tree(&scenario.tree).map_err(|(index, error)| ScenarioError::Entry {
        scenario: scenario.name.clone(),
        index,
        path: scenario
            .tree
            .get(index)
            .map(|e| e.path().clone())
            .unwrap_or_default(),
        error,
    })?;
    for (index, case) in scenario.cases.iter().enumerate() {
        // Any base is absolute, so a stand-in shows whether the path is.
        if !case
            .path
            .replace(BASE_PLACEHOLDER, "/base")
            .as_bytes()
            .starts_with(b"/")
        {
            return Err(ScenarioError::Case {
                scenario: scenario.name.clone(),
                index,
                error: CaseError::NotAbsolute {
                    path: case.path.clone(),
                },
            });
        }
    }
    Ok(())
}

/// Checks the tree rules; the error carries the index of the broken entry.
pub fn validate_tree(tree: &[Entry]) -> Result<(), (usize, EntryError)> {
    for (index, entry) in tree.iter().enumerate() {
        check_path(entry.path()).map_err(|e| (index, e))?;
        if let Entry::Symlink { target, .. } = entry {
            if target.is_empty() {
                return Err((index, EntryError::EmptyTarget));
            }
            if target.contains(b"\0") {
                return Err((index, EntryError::NulInTarget));
            }
        }
    }
    let mut by_path: HashMap<&[u8], usize> = HashMap::new();
    for (index, entry) in tree.iter().enumerate() {
        if let Some(&first) = by_path.get(entry.path().as_bytes()) {
            return Err((index, EntryError::Duplicate { first }));
        }
        by_path.insert(entry.path().as_bytes(), index);
    }
    for (index, entry) in tree.iter().enumerate() {
        for ancestor in proper_ancestors(entry.path().as_bytes()) {
            match by_path.get(ancestor).map(|&i| (i, &tree[i])) {
                Some((symlink, Entry::Symlink { .. })) => {
                    return Err((index, EntryError::BeneathSymlink { symlink }))
                }
                Some((file, Entry::File { .. })) => {
                    return Err((index, EntryError::FileAsParent { file }))
                }
                _ => {}
            }
        }
    }
    Ok(())
}

fn check_path(path: &PathBytes) -> Result<(), EntryError> {
    if path.is_empty() {
        return Err(EntryError::EmptyPath);
    }
    if path.as_bytes().starts_with(b"/") {
        return Err(EntryError::AbsolutePath);
    }
    if path.contains(b"\0") {
        return Err(EntryError::NulInPath);
    }
    for segment in path.segments() {
        match segment {
            b"" => return Err(EntryError::EmptySegment),
            b"." | b".." => {
                return Err(EntryError::DotSegment {
                    segment: String::from_utf8_lossy(segment).into_owned(),
                })
            }
            s if s.len() > NAME_MAX => return Err(EntryError::NameTooLong { len: s.len() }),
            _ => {}
        }
    }
    Ok(())
}

/// `a`, `a/b` for `a/b/c`.
fn proper_ancestors(path: &[u8]) -> impl Iterator<Item = &[u8]> {
    path.iter()
        .enumerate()
        .filter(|(_, &b)| b == b'/')
        .map(move |(i, _)| &path[..i])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(p: &str) -> Entry {
        Entry::Dir { path: p.into() }
    }
    fn file(p: &str) -> Entry {
        Entry::File {
            path: p.into(),
            content: None,
        }
    }
    fn link(p: &str, t: &str) -> Entry {
        Entry::Symlink {
            path: p.into(),
            target: t.into(),
        }
    }

    #[test]
    fn good_trees_pass() {
        assert_eq!(validate_tree(&[]), Ok(()));
        assert_eq!(
            validate_tree(&[
                file("a/b/c"),
                dir("a"),
                dir("a/b"),
                link("a/l", "/etc"),
                link("l", "..")
            ]),
            Ok(())
        );
    }

    #[test]
    fn each_path_rule() {
        let cases: Vec<(Entry, EntryError)> = vec![
            (dir(""), EntryError::EmptyPath),
            (dir("/a"), EntryError::AbsolutePath),
            (dir("a//b"), EntryError::EmptySegment),
            (dir("a/"), EntryError::EmptySegment),
            (
                dir("a/./b"),
                EntryError::DotSegment {
                    segment: ".".into(),
                },
            ),
            (
                file(".."),
                EntryError::DotSegment {
                    segment: "..".into(),
                },
            ),
            (file("a\0b"), EntryError::NulInPath),
            (file(&"x".repeat(256)), EntryError::NameTooLong { len: 256 }),
            (link("l", ""), EntryError::EmptyTarget),
            (link("l", "a\0"), EntryError::NulInTarget),
        ];
        for (entry, want) in cases {
            assert_eq!(
                validate_tree(&[dir("ok"), entry.clone()]),
                Err((1, want)),
                "{entry:?}"
            );
        }
        assert_eq!(validate_tree(&[file(&"x".repeat(255))]), Ok(()));
    }

    #[test]
    fn each_structure_rule() {
        assert_eq!(
            validate_tree(&[link("l", "/etc"), file("l/passwd")]),
            Err((1, EntryError::BeneathSymlink { symlink: 0 }))
        );
        assert_eq!(
            validate_tree(&[dir("l/x/y"), link("l", "/etc")]),
            Err((0, EntryError::BeneathSymlink { symlink: 1 }))
        );
        assert_eq!(
            validate_tree(&[dir("a"), dir("a")]),
            Err((1, EntryError::Duplicate { first: 0 }))
        );
        assert_eq!(
            validate_tree(&[file("a"), dir("a")]),
            Err((1, EntryError::Duplicate { first: 0 }))
        );
        assert_eq!(
            validate_tree(&[file("a"), file("a/b")]),
            Err((1, EntryError::FileAsParent { file: 0 }))
        );
        // `a` is a prefix of `ab` as text but not as a path.
        assert_eq!(validate_tree(&[link("a", "x"), file("ab/c")]), Ok(()));
    }
}
