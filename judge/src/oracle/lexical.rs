//! The lexical oracle: which root contains a path when nothing on the way
//! is a link, by text alone, one whole component at a time.
//!
//! This is what the model's walk ([`resolve_read`](super::resolve_read))
//! does on a tree of nothing but directories, where every name exists and
//! `..` is the parent of the directory reached: the path's components are
//! taken in turn, `.` and empty ones skipped, `..` dropping the one before
//! it (and nothing at `/`). Containment is a prefix of whole components.

use super::resolve::NoTarget;
use super::uri::parse_root_uri;

/// The components of an absolute `path` after `.`, `..` and empty ones are
/// applied, in `out` (cleared first): `/a/./b//../c/` is `[a, c]`, `/..`
/// is `[]`.
///
/// # Examples
///
/// ```
/// use rootguard_judge::oracle::lexical_components;
/// let mut out = Vec::new();
/// lexical_components(b"/a/./b//../c/", &mut out);
/// assert_eq!(out, [&b"a"[..], b"c"]);
/// lexical_components(b"/../..", &mut out);
/// assert!(out.is_empty());
/// ```
pub fn lexical_components<'a>(path: &'a [u8], out: &mut Vec<&'a [u8]>) {
    out.clear();
    for name in path.split(|&b| b == b'/') {
        match name {
            b"" | b"." => {}
            b".." => {
                out.pop();
            }
            name => out.push(name),
        }
    }
}

/// Roots as the lexical oracle reads them: each root URI parsed by the
/// oracle's own parser ([`parse_root_uri`]) and split into components;
/// an invalid root (`None`) contains nothing.
#[derive(Debug, Clone, Default)]
pub struct LexicalModel {
    roots: Vec<Option<Vec<Vec<u8>>>>,
}

impl LexicalModel {
    /// Parses `roots`.
    pub fn new<S: AsRef<str>>(roots: &[S]) -> LexicalModel {
        let roots = roots
            .iter()
            .map(|uri| {
                let path = parse_root_uri(uri.as_ref()).ok()?;
                let mut names = Vec::new();
                lexical_components(&path, &mut names);
                Some(names.into_iter().map(<[u8]>::to_vec).collect())
            })
            .collect();
        LexicalModel { roots }
    }

    /// The index of the first root whose components begin the components
    /// of `path`; `Ok(None)` when no root does.
    ///
    /// # Errors
    ///
    /// [`NoTarget::NulByte`] for a path holding a NUL and
    /// [`NoTarget::NotAbsolute`] for one that does not start with `/` (the
    /// empty path included): no system call takes either.
    ///
    /// # Examples
    ///
    /// ```
    /// use rootguard_judge::oracle::{LexicalModel, NoTarget};
    /// let model = LexicalModel::new(&["file:///a/b", "file:///"]);
    /// assert_eq!(model.find(b"/a/b/c"), Ok(Some(0)));
    /// assert_eq!(model.find(b"/a/bc"), Ok(Some(1)));
    /// assert_eq!(model.find(b"/a/b/../../a/b"), Ok(Some(0)));
    /// assert_eq!(model.find(b"a/b"), Err(NoTarget::NotAbsolute));
    /// ```
    pub fn find(&self, path: &[u8]) -> Result<Option<usize>, NoTarget> {
        if path.contains(&0) {
            return Err(NoTarget::NulByte);
        }
        if path.first() != Some(&b'/') {
            return Err(NoTarget::NotAbsolute);
        }
        let mut names = Vec::new();
        lexical_components(path, &mut names);
        let contains = |root: &Vec<Vec<u8>>| {
            root.len() <= names.len() && root.iter().zip(&names).all(|(r, n)| r[..] == **n)
        };
        Ok(self
            .roots
            .iter()
            .position(|r| r.as_ref().is_some_and(contains)))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::Path;

    use super::super::{is_within, resolve_read, ModelFs, Outside};
    use super::*;
    use crate::Entry;

    /// The model's answer on a tree of directories only: every directory
    /// the path's walk visits and every root exist, so the walk is lexical.
    fn on_a_tree_of_dirs(roots: &[&str], path: &[u8]) -> Option<usize> {
        let root_paths: Vec<Option<Vec<u8>>> =
            roots.iter().map(|r| parse_root_uri(r).ok()).collect();
        let mut dirs = BTreeSet::new();
        let mut stack: Vec<&[u8]> = Vec::new();
        for name in path.split(|&b| b == b'/') {
            match name {
                b"" | b"." => {}
                b".." => {
                    stack.pop();
                }
                name => {
                    stack.push(name);
                    dirs.insert(stack.join(&b'/'));
                }
            }
        }
        for root in root_paths.iter().flatten() {
            if root.len() > 1 {
                dirs.insert(root[1..].to_vec());
            }
        }
        let tree: Vec<Entry> = dirs
            .into_iter()
            .map(|d| Entry::Dir {
                path: String::from_utf8(d).expect("ASCII names").into(),
            })
            .collect();
        let fs = ModelFs::new(&tree, Path::new("/"), Outside::Absent).expect("a valid tree");
        let target = resolve_read(&fs, path)
            .outcome
            .expect("every directory exists");
        root_paths
            .iter()
            .position(|r| r.as_deref().is_some_and(|r| is_within(&target, r)))
    }

    /// Every path of up to four pieces agrees with the model's walk.
    #[test]
    fn agrees_with_the_model_on_a_tree_of_directories() {
        let roots = [
            "file:///a",
            "file:///a/b/",
            "file:///ab",
            "file:///a/../b",
            "file:///%2e%2e/a/a",
            "file://host/a",
        ];
        let model = LexicalModel::new(&roots);
        let pieces: [&[u8]; 7] = [b"a", b"b", b"ab", b"..", b".", b"", b"a."];
        let mut checked = 0;
        for n in 0..=4u32 {
            for mut i in 0..pieces.len().pow(n) {
                let mut path = Vec::new();
                for _ in 0..n {
                    path.push(b'/');
                    path.extend_from_slice(pieces[i % pieces.len()]);
                    i /= pieces.len();
                }
                if path.is_empty() {
                    path.push(b'/');
                }
                assert_eq!(
                    model.find(&path),
                    Ok(on_a_tree_of_dirs(&roots, &path)),
                    "{}",
                    path.escape_ascii()
                );
                checked += 1;
            }
        }
        assert!(checked > 2000);
    }

    #[test]
    fn components_and_containment() {
        let model = LexicalModel::new(&[
            "file:///p/project",
            "http:///p",
            "file:///p/project2",
            "file://localhost/",
        ]);
        assert_eq!(model.find(b"/p/project"), Ok(Some(0)));
        assert_eq!(model.find(b"/p/project/"), Ok(Some(0)));
        assert_eq!(model.find(b"/p/project/."), Ok(Some(0)));
        assert_eq!(model.find(b"/p/project/.."), Ok(Some(3)));
        assert_eq!(model.find(b"/p/project2/x"), Ok(Some(2)));
        assert_eq!(model.find(b"/p/project2/../project/x"), Ok(Some(0)));
        assert_eq!(model.find(b"//p//project//x//"), Ok(Some(0)));
        assert_eq!(model.find(b"/../../p/project"), Ok(Some(0)));
        assert_eq!(model.find(b"/p/projectx"), Ok(Some(3)));
        assert_eq!(model.find(b"/"), Ok(Some(3)));
        assert_eq!(model.find(b""), Err(NoTarget::NotAbsolute));
        assert_eq!(model.find(b"/p\0"), Err(NoTarget::NulByte));
        let none = LexicalModel::new(&["file:///p/project", "bad"]);
        assert_eq!(none.find(b"/p"), Ok(None));
        assert_eq!(none.find(b"/p/project/a/../../project2"), Ok(None));
        assert_eq!(none.find(b"/p/./project/a/.."), Ok(Some(0)));
    }
}
