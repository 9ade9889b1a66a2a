//! The set of allowed roots and the inside-roots check.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::fmt;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::fs::{Fs, RealFs};
use crate::index::RootIndex;
use crate::lexical::{normalize_into, LexicalError};
use crate::op::Op;
use crate::resolve::{resolve, ResolveError, Step, PATH_MAX};
use crate::uri::{RootUri, UriError};

/// A root that was accepted: valid, and resolved by the file system.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Root {
    /// Its position in the list the roots were built from.
    pub index: usize,
    /// The URI as given.
    pub uri: String,
    /// The path the URI names, normalized but not resolved.
    pub path: PathBuf,
    /// Where that path resolves to (every link followed, as realpath does).
    pub resolved: PathBuf,
}

/// A root that grants nothing, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RejectedRoot {
    /// Its position in the list the roots were built from.
    pub index: usize,
    /// The URI as given.
    pub uri: String,
    /// Why it grants nothing.
    pub reason: RootError,
}

/// Why a root grants nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootError {
    /// The URI breaks a rule of semantics §1.
    Invalid(UriError),
    /// The URI is valid but its path does not resolve (semantics §1 rule 7).
    Unresolvable(ResolveError),
}

impl fmt::Display for RootError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RootError::Invalid(e) => write!(f, "invalid root URI: {e}"),
            RootError::Unresolvable(e) => write!(f, "root does not resolve: {e}"),
        }
    }
}

impl std::error::Error for RootError {}

/// The answer to "may this operation on this path proceed?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The target is at or beneath a root.
    Inside {
        /// The caller's index of the first root that contains the target.
        root: usize,
        /// The physical target.
        target: PathBuf,
    },
    /// The target resolves, but beneath no root.
    Outside {
        /// The physical target.
        target: PathBuf,
    },
    /// The operation cannot happen at all; deny it.
    Unresolvable(ResolveError),
}

impl Verdict {
    /// Whether the operation may proceed: only when the target is inside.
    pub fn is_inside(&self) -> bool {
        matches!(self, Verdict::Inside { .. })
    }

    /// The caller's index of the root that contains the target, when it
    /// is inside.
    pub fn root(&self) -> Option<usize> {
        match self {
            Verdict::Inside { root, .. } => Some(*root),
            Verdict::Outside { .. } | Verdict::Unresolvable(_) => None,
        }
    }

    /// The physical target, when the path resolved.
    pub fn target(&self) -> Option<&Path> {
        match self {
            Verdict::Inside { target, .. } | Verdict::Outside { target } => Some(target),
            Verdict::Unresolvable(_) => None,
        }
    }
}

/// A set of allowed roots, each resolved once, checked against paths on a
/// file system (the real one by default).
///
/// Built from root URIs as a client sends them: invalid or unresolvable
/// ones are kept aside with their reason ([`Roots::rejected`]) and grant
/// nothing; the others still count. No roots grant nothing.
///
/// # Examples
///
/// ```
/// use rootguard::{Op, Roots};
/// let dir = tempfile::tempdir().unwrap();
/// let base = dir.path().canonicalize().unwrap();
/// std::fs::create_dir(base.join("project")).unwrap();
/// std::fs::create_dir(base.join("project2")).unwrap();
/// let uri = format!("file://{}/project", base.display());
/// let roots = Roots::new([uri.as_str(), "file://server/share"]);
/// assert_eq!(roots.accepted().len(), 1);
/// assert_eq!(roots.rejected().len(), 1);
/// assert!(roots.check(base.join("project/new.txt"), Op::Write).is_inside());
/// assert!(!roots.check(base.join("project2/a.txt"), Op::Write).is_inside());
/// assert!(!roots.check(base.join("project/../project2/a"), Op::Write).is_inside());
/// ```
#[derive(Clone, Debug)]
pub struct Roots<F: Fs = RealFs> {
    pub(crate) fs: F,
    pub(crate) accepted: Vec<Root>,
    pub(crate) rejected: Vec<RejectedRoot>,
    pub(crate) index: RootIndex,
    /// By the caller's index: the position in `accepted` of each root that
    /// has no other root beneath it, for [`Roots::inside`].
    leaves: Vec<Option<usize>>,
}

impl Roots<RealFs> {
    /// Parses and resolves `uris` on the real file system.
    pub fn new<I, S>(uris: I) -> Roots<RealFs>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        Roots::with_fs(uris, RealFs)
    }
}

impl<F: Fs> Roots<F> {
    /// Parses `uris` and resolves each valid one on `fs`.
    pub fn with_fs<I, S>(uris: I, fs: F) -> Roots<F>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut accepted = Vec::new();
        let mut rejected = Vec::new();
        for (index, uri) in uris.into_iter().enumerate() {
            let uri = uri.as_ref();
            let reject = |reason| RejectedRoot {
                index,
                uri: uri.to_string(),
                reason,
            };
            let parsed = match RootUri::parse(uri) {
                Ok(parsed) => parsed,
                Err(e) => {
                    rejected.push(reject(RootError::Invalid(e)));
                    continue;
                }
            };
            match resolve(&fs, parsed.path().as_os_str().as_bytes(), Op::Read, None) {
                Ok(target) => accepted.push(Root {
                    index,
                    uri: uri.to_string(),
                    path: parsed.into_path(),
                    resolved: target.path,
                }),
                Err(e) => rejected.push(reject(RootError::Unresolvable(e))),
            }
        }
        let index = RootIndex::new(
            accepted
                .iter()
                .map(|r| (r.resolved.as_os_str().as_bytes().to_vec(), r.index))
                .collect(),
        );
        let leaves = leaves(&accepted);
        Roots {
            fs,
            accepted,
            rejected,
            index,
            leaves,
        }
    }

    /// The roots that grant access, in the order given.
    pub fn accepted(&self) -> &[Root] {
        &self.accepted
    }

    /// The roots that grant nothing, with the reason for each.
    pub fn rejected(&self) -> &[RejectedRoot] {
        &self.rejected
    }

    /// The file system the roots were resolved on.
    pub fn fs(&self) -> &F {
        &self.fs
    }

    /// Decides whether `op` on `path` stays inside the roots.
    ///
    /// The path is resolved as the kernel would (semantics §2) and its
    /// target compared with each root's resolved location by whole
    /// components.
    pub fn check(&self, path: impl AsRef<OsStr>, op: Op) -> Verdict {
        let bytes = path.as_ref().as_bytes();
        match self.fs.resolve_whole(bytes, op) {
            Some(target) => self.verdict(Ok(target)),
            None => self.verdict(resolve(&self.fs, bytes, op, None).map(|t| t.path)),
        }
    }

    /// [`Roots::check`], recording each resolution step in `trace`.
    pub fn check_traced(&self, path: impl AsRef<OsStr>, op: Op, trace: &mut Vec<Step>) -> Verdict {
        self.verdict(resolve(&self.fs, path.as_ref().as_bytes(), op, Some(trace)).map(|t| t.path))
    }

    /// The caller's index of the root that `op` on `path` lands inside:
    /// exactly `self.check(path, op).root()`, without naming the target.
    ///
    /// This is the question a server asks before it lets a tool call
    /// proceed, and it costs less than [`Roots::check`] where the file
    /// system can answer it without naming the target. On the real file
    /// system a normal path spelled beneath a root's resolved location,
    /// with no other root beneath that one, is opened beneath the root by
    /// the kernel (`openat2(2)`: the root with `RESOLVE_NO_SYMLINKS`, the
    /// rest with `RESOLVE_BENEATH`), which spares the `/proc` lookup that
    /// names the target; see [`Fs::lands_beneath`]. Every other path, and
    /// every path the kernel will not vouch for (a link that leaves the
    /// root, even to come back; an older kernel), gets the full check.
    ///
    /// # Examples
    ///
    /// ```
    /// use rootguard::{Op, Roots};
    /// let dir = tempfile::tempdir().unwrap();
    /// let base = dir.path().canonicalize().unwrap();
    /// std::fs::create_dir_all(base.join("proj/src")).unwrap();
    /// std::fs::create_dir_all(base.join("other")).unwrap();
    /// std::os::unix::fs::symlink("src", base.join("proj/code")).unwrap();
    /// std::os::unix::fs::symlink("../other", base.join("proj/out")).unwrap();
    /// let roots = Roots::new([format!("file://{}/proj", base.display())]);
    /// assert_eq!(roots.inside(base.join("proj/code/new.rs"), Op::Write), Some(0));
    /// assert_eq!(roots.inside(base.join("proj/out/new.rs"), Op::Write), None);
    /// assert_eq!(roots.inside(base.join("proj/missing"), Op::Read), None);
    /// ```
    pub fn inside(&self, path: impl AsRef<OsStr>, op: Op) -> Option<usize> {
        let path = path.as_ref();
        self.inside_by_text(path.as_bytes(), op)
            .or_else(|| self.check(path, op).root())
    }

    /// [`Roots::inside`]'s shortcut: `Some` only when `path` is normal and
    /// spelled beneath a root with no other root beneath it, and the file
    /// system vouches that `op` lands beneath that root.
    ///
    /// Why the answer is then the check's: the path's walk passes through
    /// the root's directory (its text is link-free, the file system made
    /// sure) and stays beneath it, so the target is named beneath it. The
    /// roots that contain the target are then the root itself and the
    /// roots above it; no other root lies beneath it. Those are the roots
    /// that contain the path's text, of which the index gave the first.
    fn inside_by_text(&self, path: &[u8], op: Op) -> Option<usize> {
        // Split in two, a path too long for the kernel could pass.
        if path.len() >= PATH_MAX {
            return None;
        }
        let root = self.index.find_if_normal(path)??;
        let dir = &self.accepted[(*self.leaves.get(root)?)?].resolved;
        let root_len = dir.as_os_str().len();
        // The path must go on past the root: the root itself is the check's.
        (path.len() > root_len + usize::from(root_len > 1)
            && self.fs.lands_beneath(path, root_len, op))
        .then_some(root)
    }

    fn verdict(&self, resolved: Result<PathBuf, ResolveError>) -> Verdict {
        match resolved {
            Ok(target) => match self.index.find(target.as_os_str().as_bytes()) {
                Some(root) => Verdict::Inside { root, target },
                None => Verdict::Outside { target },
            },
            Err(e) => Verdict::Unresolvable(e),
        }
    }
}

/// For each caller's index, the position in `accepted` of that root when no
/// other root's resolved location lies strictly beneath its own.
fn leaves(accepted: &[Root]) -> Vec<Option<usize>> {
    let mut above: HashSet<&[u8]> = HashSet::new();
    for root in accepted {
        let path = root.resolved.as_os_str().as_bytes();
        if path != b"/" {
            above.insert(b"/");
        }
        for (at, _) in path.iter().enumerate().skip(1).filter(|&(_, &b)| b == b'/') {
            above.insert(&path[..at]);
        }
    }
    let mut leaves = vec![None; accepted.last().map_or(0, |r| r.index + 1)];
    for (at, root) in accepted.iter().enumerate() {
        if !above.contains(root.resolved.as_os_str().as_bytes()) {
            leaves[root.index] = Some(at);
        }
    }
    leaves
}

/// Roots checked by text alone: no file-system access at all.
///
/// **Only sound for trees that hold no symlinks.** The path and the roots
/// are normalized lexically (`..` clamped at `/`) and compared by whole
/// components; a link anywhere in the tree can lead the real operation
/// somewhere else. Use [`Roots`] unless you know the tree.
///
/// # Examples
///
/// ```
/// use rootguard::LexicalRoots;
/// let roots = LexicalRoots::new(["file:///x/proj"]);
/// assert_eq!(roots.check("/x/proj/a/../b"), Ok(Some(0)));
/// assert_eq!(roots.check("/x/proj2/a"), Ok(None));
/// assert_eq!(roots.check("/x/proj/../proj2"), Ok(None));
/// ```
#[derive(Clone, Debug)]
pub struct LexicalRoots {
    accepted: Vec<(usize, PathBuf)>,
    rejected: Vec<RejectedRoot>,
    index: RootIndex,
}

impl LexicalRoots {
    /// Parses `uris`; invalid ones are kept aside with their reason.
    pub fn new<I, S>(uris: I) -> LexicalRoots
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut accepted = Vec::new();
        let mut rejected = Vec::new();
        for (index, uri) in uris.into_iter().enumerate() {
            match RootUri::parse(uri.as_ref()) {
                Ok(parsed) => accepted.push((index, parsed.into_path())),
                Err(e) => rejected.push(RejectedRoot {
                    index,
                    uri: uri.as_ref().to_string(),
                    reason: RootError::Invalid(e),
                }),
            }
        }
        let index = RootIndex::new(
            accepted
                .iter()
                .map(|(i, p)| (p.as_os_str().as_bytes().to_vec(), *i))
                .collect(),
        );
        LexicalRoots {
            accepted,
            rejected,
            index,
        }
    }

    /// The valid roots as (index in the list given, normal path).
    pub fn accepted(&self) -> &[(usize, PathBuf)] {
        &self.accepted
    }

    /// The invalid roots, with the reason for each.
    pub fn rejected(&self) -> &[RejectedRoot] {
        &self.rejected
    }

    /// The index of the first root that lexically contains `path`, or
    /// `None`. Allocates only when `path` is not already normal.
    ///
    /// # Errors
    ///
    /// A [`LexicalError`] for a relative path or one with a NUL byte.
    #[inline(always)]
    pub fn check(&self, path: impl AsRef<OsStr>) -> Result<Option<usize>, LexicalError> {
        let bytes = path.as_ref().as_bytes();
        match self.index.find_if_normal(bytes) {
            Some(found) => Ok(found),
            None => self.check_abnormal(bytes),
        }
    }

    /// [`LexicalRoots::check`] for a path that must be normalized first.
    #[cold]
    #[inline(never)]
    fn check_abnormal(&self, bytes: &[u8]) -> Result<Option<usize>, LexicalError> {
        let mut out = Vec::with_capacity(bytes.len());
        normalize_into(bytes, &mut out)?;
        Ok(self.index.find(&out))
    }
}

#[cfg(test)]
mod tests {
    //! `inside` must give the check's answer (the integration tests hold
    //! it to that on disk and in memory) and must take its shortcut where
    //! it may: a shortcut never taken would hide behind right answers.

    use super::*;
    use crate::fs::FileKind;
    use crate::memfs::MemFs;
    use std::cell::RefCell;
    use std::ffi::OsString;
    use std::io;

    /// A [`MemFs`] that records each `lands_beneath` question: the root's
    /// length and the answer.
    #[derive(Default)]
    struct Probe {
        fs: MemFs,
        asked: RefCell<Vec<(usize, bool)>>,
    }

    impl Fs for Probe {
        fn lstat(&self, path: &Path) -> io::Result<FileKind> {
            self.fs.lstat(path)
        }
        fn readlink(&self, path: &Path) -> io::Result<OsString> {
            self.fs.readlink(path)
        }
        fn lands_beneath(&self, path: &[u8], root_len: usize, op: Op) -> bool {
            let answer = self.fs.lands_beneath(path, root_len, op);
            self.asked.borrow_mut().push((root_len, answer));
            answer
        }
    }

    /// The same tree, with no shortcut: `lands_beneath` as `Fs` gives it.
    struct Plain(MemFs);

    impl Fs for Plain {
        fn lstat(&self, path: &Path) -> io::Result<FileKind> {
            self.0.lstat(path)
        }
        fn readlink(&self, path: &Path) -> io::Result<OsString> {
            self.0.readlink(path)
        }
    }

    fn tree() -> MemFs {
        let mut fs = MemFs::new();
        fs.add_dir("/b/outer/inner/deep")
            .add_file("/b/outer/plain")
            .add_symlink("/b/outer/to_inner", "inner")
            .add_dir("/b/other")
            .add_dir("/b/leaf/sub")
            .add_file("/b/leaf/file")
            .add_symlink("/b/leaf/esc", "../other")
            .add_symlink("/b/leaf/abs", "/b/leaf/sub");
        fs
    }

    const URIS: [&str; 4] = [
        "file:///b/outer",
        "file:///b/outer/inner",
        "file:///b/leaf",
        "file:///b/leaf",
    ];

    /// `inside(path, op)`, what it asked the file system, and the check's
    /// root.
    fn ask<F: Fs>(
        roots: &Roots<F>,
        asked: &RefCell<Vec<(usize, bool)>>,
        path: &str,
        op: Op,
    ) -> (Option<usize>, Vec<(usize, bool)>) {
        asked.borrow_mut().clear();
        let inside = roots.inside(path, op);
        let questions = asked.borrow_mut().drain(..).collect();
        assert_eq!(inside, roots.check(path, op).root(), "{path} {op:?}");
        (inside, questions)
    }

    #[test]
    fn inside_asks_beneath_a_leaf_root_and_nowhere_else() {
        let probe = Probe {
            fs: tree(),
            ..Probe::default()
        };
        let roots = Roots::with_fs(URIS, &probe);
        let leaf = "/b/leaf".len();
        let long = format!("/b/leaf/{}x", "n/".repeat(PATH_MAX / 2));
        for (path, op, inside, asked) in [
            // Beneath the leaf root: asked once, with the root's length.
            ("/b/leaf/file", Op::Read, Some(2), vec![(leaf, true)]),
            ("/b/leaf/sub/new", Op::Write, Some(2), vec![(leaf, true)]),
            ("/b/leaf/abs/new", Op::Write, Some(2), vec![(leaf, true)]),
            ("/b/leaf/esc/x", Op::Write, None, vec![(leaf, false)]),
            // The root itself, a path that is not normal, one too long:
            // the check's alone.
            ("/b/leaf", Op::Read, Some(2), vec![]),
            ("/b/leaf/./file", Op::Read, Some(2), vec![]),
            ("/b/leaf//file", Op::Read, Some(2), vec![]),
            (long.as_str(), Op::Write, None, vec![]),
            // The first root of the text has another root beneath it.
            ("/b/outer/plain", Op::Read, Some(0), vec![]),
            ("/b/outer/to_inner/new", Op::Write, Some(0), vec![]),
            ("/b/outer/inner/deep", Op::Read, Some(0), vec![]),
            // Beneath no root.
            ("/b/other/new", Op::Write, None, vec![]),
        ] {
            assert_eq!(
                ask(&roots, &probe.asked, path, op),
                (inside, asked),
                "{path} {op:?}"
            );
        }
    }

    #[test]
    fn the_root_slash_is_a_leaf_only_alone() {
        let probe = Probe {
            fs: tree(),
            ..Probe::default()
        };
        let alone = Roots::with_fs(["file:///"], &probe);
        assert_eq!(
            ask(&alone, &probe.asked, "/b", Op::Read),
            (Some(0), vec![(1, true)])
        );
        assert_eq!(
            ask(&alone, &probe.asked, "/n", Op::Write),
            (Some(0), vec![(1, true)])
        );
        assert_eq!(ask(&alone, &probe.asked, "/", Op::Read), (Some(0), vec![]));
        let with_leaf = Roots::with_fs(["file:///", "file:///b/leaf"], &probe);
        assert_eq!(
            ask(&with_leaf, &probe.asked, "/b/leaf/file", Op::Read),
            (Some(0), vec![])
        );
        let leaf_first = Roots::with_fs(["file:///b/leaf", "file:///"], &probe);
        assert_eq!(
            ask(&leaf_first, &probe.asked, "/b/leaf/file", Op::Read),
            (Some(0), vec![(7, true)])
        );
        assert_eq!(
            ask(&leaf_first, &probe.asked, "/b/other", Op::Read),
            (Some(1), vec![])
        );
    }

    /// A file system with no shortcut of its own vouches for nothing, so
    /// a link out of a leaf root is still found out.
    #[test]
    fn a_file_system_without_the_shortcut_gets_the_check() {
        let plain = Roots::with_fs(URIS, Plain(tree()));
        let nobody = RefCell::new(Vec::new());
        assert_eq!(
            ask(&plain, &nobody, "/b/leaf/esc/x", Op::Write),
            (None, vec![])
        );
        assert_eq!(
            ask(&plain, &nobody, "/b/leaf/file", Op::Read),
            (Some(2), vec![])
        );
        assert!(!Plain(tree()).lands_beneath(b"/b/leaf/file", 7, Op::Read));
    }
}
