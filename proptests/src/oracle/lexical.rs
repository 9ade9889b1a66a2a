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
/// use rootguard_proptests::oracle::lexical_components;
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
    /// use rootguard_proptests::oracle::{LexicalModel, NoTarget};
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
    use super::*;

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
