//! The set of allowed roots and the inside-roots check.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use crate::index::RootIndex;
use crate::limits::PATH_MAX;
use crate::op::Op;
use crate::realfs::RealFs;
use crate::resolve::{resolve, ResolveError, Step};
use crate::root::{RejectedRoot, Root, RootError};
use crate::root_id::RootId;
use crate::seam::Resolver;
use crate::uri::RootUri;
use crate::verdict::Verdict;

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
pub struct Roots<R: Resolver = RealFs> {
    pub(crate) fs: R,
    pub(crate) accepted: Vec<Root>,
    pub(crate) rejected: Vec<RejectedRoot>,
    pub(crate) index: RootIndex,
    /// By the root's index in the caller's list: the position in
    /// `accepted` of each root that has no other root beneath it, for
    /// [`Roots::inside`].
    leaves: Vec<Option<usize>>,
}

impl Roots<RealFs> {
    /// Parses and resolves `uris` on the real file system, as
    /// [`Roots::with_fs`] does.
    pub fn new<I, S>(uris: I) -> Roots<RealFs>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        Roots::with_fs(uris, RealFs)
    }
}

impl<R: Resolver> Roots<R> {
    /// Parses `uris` and resolves each valid one on `fs`: a URI that
    /// breaks a rule of semantics §1, or whose path does not resolve, goes
    /// to [`Roots::rejected`] with the reason and grants nothing; the
    /// others go to [`Roots::accepted`], in the order given. A tree of your
    /// own goes in through [`Fs`](crate::fs::Fs) (see its example).
    ///
    /// # Examples
    ///
    /// ```
    /// use rootguard::fs::MemFs;
    /// use rootguard::{Op, Roots};
    /// let mut fs = MemFs::new();
    /// fs.add_dir("/srv/a").add_symlink("/srv/b", "a");
    /// let roots = Roots::with_fs(["file:///srv/b", "file:///srv/missing"], fs);
    /// assert_eq!(roots.accepted()[0].resolved, std::path::Path::new("/srv/a"));
    /// assert_eq!(roots.rejected()[0].index, 1);
    /// assert!(roots.check("/srv/a/new.txt", Op::Write).is_inside());
    /// ```
    pub fn with_fs<I, S>(uris: I, fs: R) -> Roots<R>
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
                .map(|r| (r.resolved.as_os_str().as_bytes().to_vec(), r.id()))
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

    /// The accepted root `id` names, as a verdict or [`Roots::inside`]
    /// gives it; `None` for a root that was rejected (or an id from other
    /// roots, beyond this list).
    ///
    /// # Examples
    ///
    /// ```
    /// use rootguard::{Op, Roots};
    /// let dir = tempfile::tempdir().unwrap();
    /// let base = dir.path().canonicalize().unwrap();
    /// let roots = Roots::new(["file://server/share".to_string(), format!("file://{}", base.display())]);
    /// let id = roots.check(base.join("a.txt"), Op::Write).root().unwrap();
    /// assert_eq!(roots.get(id).unwrap().resolved, base);
    /// ```
    pub fn get(&self, id: RootId) -> Option<&Root> {
        let at = self
            .accepted
            .binary_search_by_key(&id.index(), |root| root.index)
            .ok()?;
        Some(&self.accepted[at])
    }

    /// The file system the roots were resolved on.
    pub fn fs(&self) -> &R {
        &self.fs
    }

    /// Decides whether `op` on `path` stays inside the roots.
    ///
    /// The path is resolved as the kernel would (semantics §2) and its
    /// target compared with each root's resolved location by whole
    /// components. The verdict holds for the tree as it was while the
    /// check looked: to act on the file, use [`Roots::open`] instead (see
    /// the crate docs, "Where races bite").
    ///
    /// # Examples
    ///
    /// ```
    /// use rootguard::fs::MemFs;
    /// use rootguard::{Op, Roots, Verdict};
    /// let mut fs = MemFs::new();
    /// fs.add_dir("/b/proj").add_file("/b/proj2/secret");
    /// let roots = Roots::with_fs(["file:///b/proj"], fs);
    /// match roots.check("/b/proj/../proj2/secret", Op::Read) {
    ///     Verdict::Outside { target } => assert_eq!(target, std::path::Path::new("/b/proj2/secret")),
    ///     other => panic!("{other:?}"),
    /// }
    /// // A sibling that merely shares the root's text as a prefix is outside too.
    /// assert!(!roots.check("/b/proj2/secret", Op::Read).is_inside());
    /// ```
    pub fn check(&self, path: impl AsRef<OsStr>, op: Op) -> Verdict {
        let bytes = path.as_ref().as_bytes();
        match self.fs.resolve_whole(bytes, op) {
            Some(target) => self.verdict(Ok(target)),
            None => self.verdict(resolve(&self.fs, bytes, op, None).map(|t| t.path)),
        }
    }

    /// [`Roots::check`], recording each resolution step in `trace`: every
    /// directory entered, link followed and `..` taken, for an
    /// explanation. It always takes the component walk (no shortcut).
    ///
    /// # Examples
    ///
    /// ```
    /// use rootguard::fs::MemFs;
    /// use rootguard::{Op, Roots};
    /// let mut fs = MemFs::new();
    /// fs.add_dir("/b/out").add_symlink("/b/proj/up", "../out");
    /// let roots = Roots::with_fs(["file:///b/proj"], fs);
    /// let mut trace = Vec::new();
    /// assert!(!roots.check_traced("/b/proj/up/x", Op::Write, &mut trace).is_inside());
    /// let steps: Vec<String> = trace.iter().map(ToString::to_string).collect();
    /// assert!(steps.contains(&"/b/proj/up -> ../out (symlink)".to_string()), "{steps:?}");
    /// ```
    pub fn check_traced(&self, path: impl AsRef<OsStr>, op: Op, trace: &mut Vec<Step>) -> Verdict {
        self.verdict(resolve(&self.fs, path.as_ref().as_bytes(), op, Some(trace)).map(|t| t.path))
    }

    /// The root that `op` on `path` lands inside: exactly
    /// `self.check(path, op).root()`, without naming the target.
    ///
    /// This is the question a server asks before it lets a tool call
    /// proceed, and it costs less than [`Roots::check`] where the file
    /// system can answer it without naming the target. On the real file
    /// system a normal path spelled beneath a root's resolved location,
    /// with no other root beneath that one, is opened beneath the root by
    /// the kernel (`openat2(2)`: the root with `RESOLVE_NO_SYMLINKS`, the
    /// rest with `RESOLVE_BENEATH`), which spares the `/proc` lookup that
    /// names the target (only [`RealFs`] and [`MemFs`](crate::fs::MemFs) have
    /// such a shortcut: see [`Resolver`]). Every other path, and
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
    /// let id = roots.inside(base.join("proj/code/new.rs"), Op::Write);
    /// assert_eq!(id.map(|id| id.index()), Some(0));
    /// assert_eq!(roots.inside(base.join("proj/out/new.rs"), Op::Write), None);
    /// assert_eq!(roots.inside(base.join("proj/missing"), Op::Read), None);
    /// ```
    pub fn inside(&self, path: impl AsRef<OsStr>, op: Op) -> Option<RootId> {
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
    fn inside_by_text(&self, path: &[u8], op: Op) -> Option<RootId> {
        // Split in two, a path too long for the kernel could pass.
        if path.len() >= PATH_MAX {
            return None;
        }
        let root = self.index.find_if_normal(path)??;
        let dir = &self.accepted[(*self.leaves.get(root.index())?)?].resolved;
        let root_len = dir.as_os_str().len();
        // The path must go on past the root: the root itself is the check's.
        (path.len() > root_len + usize::from(root_len > 1)
            && self.fs.lands_beneath(path, root_len, op))
        .then_some(root)
    }

    /// The root a verdict names for every target at or beneath the
    /// accepted root at `position`, when no other root lies beneath that
    /// one; `None` when another does.
    ///
    /// Why: the roots that contain such a target are then that root and
    /// the roots above it, whose first is the first root that contains the
    /// root's own location (the argument of [`Roots::inside`]'s shortcut).
    /// [`PinnedRoots::inside`](crate::PinnedRoots::inside) rests on it.
    pub(crate) fn root_of_targets_beneath(&self, position: usize) -> Option<RootId> {
        let root = self.accepted.get(position)?;
        self.leaves.get(root.index).copied().flatten()?;
        self.index.find(root.resolved.as_os_str().as_bytes())
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

/// For each index in the caller's list, the position in `accepted` of that
/// root when no other root's resolved location lies strictly beneath its
/// own.
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

#[cfg(test)]
mod tests {
    //! `inside` must give the check's answer (the integration tests hold
    //! it to that on disk and in memory) and must take its shortcut where
    //! it may: a shortcut never taken would hide behind right answers.

    use super::*;
    use crate::memfs::MemFs;
    use crate::seam::sealed::Sealed;
    use crate::seam::{resolver_by_reference, FileKind};
    use std::cell::RefCell;
    use std::ffi::OsString;
    use std::io;
    use std::path::Path;

    /// A [`MemFs`] that records each `lands_beneath` question: the root's
    /// length and the answer.
    #[derive(Default)]
    struct Probe {
        fs: MemFs,
        asked: RefCell<Vec<(usize, bool)>>,
    }

    impl Resolver for Probe {}
    resolver_by_reference!(Probe);

    impl Sealed for Probe {
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

    /// The same tree, with no shortcut: `lands_beneath` as every `Fs` has it.
    struct Plain(MemFs);

    impl crate::seam::Fs for Plain {
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
    fn ask<R: Resolver>(
        roots: &Roots<R>,
        asked: &RefCell<Vec<(usize, bool)>>,
        path: &str,
        op: Op,
    ) -> (Option<usize>, Vec<(usize, bool)>) {
        asked.borrow_mut().clear();
        let inside = roots.inside(path, op);
        let questions = asked.borrow_mut().drain(..).collect();
        assert_eq!(inside, roots.check(path, op).root(), "{path} {op:?}");
        (inside.map(RootId::index), questions)
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

    /// A reference to a file system of one's own is resolved as the file
    /// system itself: its links are read and followed, in and out.
    #[test]
    fn a_file_system_of_ones_own_works_by_reference() {
        let plain = Plain(tree());
        let by_ref = Roots::with_fs(URIS, &plain);
        let nobody = RefCell::new(Vec::new());
        for (path, op, inside) in [
            ("/b/outer/to_inner/deep", Op::Read, Some(0)),
            ("/b/leaf/abs/new", Op::Write, Some(2)),
            ("/b/leaf/esc/x", Op::Write, None),
        ] {
            assert_eq!(ask(&by_ref, &nobody, path, op), (inside, vec![]), "{path}");
        }
        assert_eq!(
            by_ref.check("/b/leaf/esc/x", Op::Write).target(),
            Some(Path::new("/b/other/x"))
        );
    }
}
