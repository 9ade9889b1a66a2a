//! An in-memory tree, for fast deterministic tests and fuzzing.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use rustix::io::Errno;

use crate::normal::is_within;
use crate::op::Op;
use crate::resolve::resolve;
use crate::seam::sealed::Sealed;
use crate::seam::{resolver_by_reference, FileKind, Resolver};

/// A file tree held in memory: directories, files and symlinks by absolute
/// path. `/` always exists. Nothing outside the tree exists.
///
/// # Examples
///
/// ```
/// use rootguard::fs::MemFs;
/// use rootguard::{Op, Roots, Verdict};
/// let mut fs = MemFs::new();
/// fs.add_dir("/b/project");
/// fs.add_file("/b/project2/secret.txt");
/// fs.add_symlink("/b/project/back", "../project2");
/// let roots = Roots::with_fs(["file:///b/project"], fs);
/// assert!(matches!(roots.check("/b/project/back/secret.txt", Op::Read), Verdict::Outside { .. }));
/// assert!(roots.check("/b/project/new.txt", Op::Write).is_inside());
/// ```
#[derive(Clone, Debug, Default)]
pub struct MemFs {
    nodes: BTreeMap<Vec<u8>, Node>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Node {
    Dir,
    File,
    Symlink(OsString),
}

impl MemFs {
    /// An empty tree: only `/`.
    pub fn new() -> MemFs {
        MemFs::default()
    }

    /// Adds a directory, and any missing parents as directories.
    pub fn add_dir(&mut self, path: impl AsRef<OsStr>) -> &mut Self {
        self.add(path.as_ref(), Node::Dir)
    }

    /// Adds an empty file, and any missing parents as directories.
    pub fn add_file(&mut self, path: impl AsRef<OsStr>) -> &mut Self {
        self.add(path.as_ref(), Node::File)
    }

    /// Adds a symlink whose target is written verbatim, and any missing
    /// parents as directories.
    pub fn add_symlink(&mut self, path: impl AsRef<OsStr>, target: impl AsRef<OsStr>) -> &mut Self {
        self.add(path.as_ref(), Node::Symlink(target.as_ref().to_owned()))
    }

    fn add(&mut self, path: &OsStr, node: Node) -> &mut Self {
        let key = canonical_key(path.as_bytes());
        let mut cut = 0;
        while let Some(next) = key[cut + 1..].iter().position(|&b| b == b'/') {
            cut += next + 1;
            // Most parents exist already: look before copying the key.
            if !self.nodes.contains_key(&key[..cut]) {
                self.nodes.insert(key[..cut].to_vec(), Node::Dir);
            }
        }
        if *key != *b"/" {
            self.nodes.insert(key.into_owned(), node);
        }
        self
    }

    fn node(&self, path: &[u8]) -> io::Result<&Node> {
        if path == b"/" {
            return Ok(&Node::Dir);
        }
        // The parent must be a directory that exists; MemFs follows no link.
        let parent_end = path.iter().rposition(|&b| b == b'/').unwrap_or(0);
        if parent_end > 0 {
            match self.node(&path[..parent_end])? {
                Node::Dir => {}
                Node::File => return Err(errno(Errno::NOTDIR)),
                Node::Symlink(_) => return Err(errno(Errno::INVAL)),
            }
        }
        self.nodes.get(path).ok_or_else(|| errno(Errno::NOENT))
    }
}

fn errno(e: Errno) -> io::Error {
    io::Error::from_raw_os_error(e.raw_os_error())
}

/// Collapses repeated and trailing slashes so lookups match insertions;
/// borrows a path that has none (and starts with `/`), as most do.
fn canonical_key(path: &[u8]) -> Cow<'_, [u8]> {
    let canonical = path == b"/"
        || (path.first() == Some(&b'/')
            && path.last() != Some(&b'/')
            && !path.windows(2).any(|w| w == b"//"));
    if canonical {
        return Cow::Borrowed(path);
    }
    let mut key = Vec::with_capacity(path.len() + 1);
    for segment in path.split(|&b| b == b'/').filter(|s| !s.is_empty()) {
        key.push(b'/');
        key.extend_from_slice(segment);
    }
    if key.is_empty() {
        key.push(b'/');
    }
    Cow::Owned(key)
}

impl Resolver for MemFs {}
resolver_by_reference!(MemFs);

impl Sealed for MemFs {
    fn lstat(&self, path: &Path) -> io::Result<FileKind> {
        let key = canonical_key(path.as_os_str().as_bytes());
        Ok(match self.node(&key)? {
            Node::Dir => FileKind::Dir,
            Node::File => FileKind::File,
            Node::Symlink(_) => FileKind::Symlink,
        })
    }

    fn readlink(&self, path: &Path) -> io::Result<OsString> {
        let key = canonical_key(path.as_os_str().as_bytes());
        match self.node(&key)? {
            Node::Symlink(target) => Ok(target.clone()),
            _ => Err(errno(Errno::INVAL)),
        }
    }

    /// By the walk itself: the whole path's target is at or beneath the
    /// root's path. That is also the promise that the root's path is a
    /// link-free directory: a target is named physically, so a path that
    /// names one's ancestor holds no link, and the walk went on through it.
    /// This keeps [`Roots::inside`](crate::Roots::inside)'s own logic under the in-memory
    /// tests, where the kernel is not there to vouch.
    fn lands_beneath(&self, path: &[u8], root_len: usize, op: Op) -> bool {
        resolve(self, path, op, None)
            .is_ok_and(|t| is_within(t.path.as_os_str().as_bytes(), &path[..root_len]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups() {
        let mut fs = MemFs::new();
        fs.add_file("/a/f").add_symlink("/a/l", "f");
        assert_eq!(fs.lstat(Path::new("/")).unwrap(), FileKind::Dir);
        assert_eq!(fs.lstat(Path::new("/a")).unwrap(), FileKind::Dir);
        assert_eq!(fs.lstat(Path::new("/a/f")).unwrap(), FileKind::File);
        assert_eq!(fs.lstat(Path::new("/a/l")).unwrap(), FileKind::Symlink);
        assert_eq!(fs.readlink(Path::new("/a/l")).unwrap(), "f");
        let code = |r: io::Result<FileKind>| r.unwrap_err().raw_os_error();
        assert_eq!(
            code(fs.lstat(Path::new("/a/x"))),
            Some(Errno::NOENT.raw_os_error())
        );
        assert_eq!(
            code(fs.lstat(Path::new("/a/f/x"))),
            Some(Errno::NOTDIR.raw_os_error())
        );
        assert_eq!(
            code(fs.lstat(Path::new("/b/x"))),
            Some(Errno::NOENT.raw_os_error())
        );
        assert!(fs.readlink(Path::new("/a/f")).is_err());
        // Repeated and trailing slashes name the same node, on insertion too.
        assert_eq!(fs.lstat(Path::new("//a//f")).unwrap(), FileKind::File);
        assert_eq!(fs.lstat(Path::new("/a/")).unwrap(), FileKind::Dir);
        assert_eq!(fs.lstat(Path::new("a/l")).unwrap(), FileKind::Symlink);
        fs.add_dir("//c///d/").add_file("e/f");
        assert_eq!(fs.lstat(Path::new("/c/d")).unwrap(), FileKind::Dir);
        assert_eq!(fs.lstat(Path::new("/e/f")).unwrap(), FileKind::File);
        assert_eq!(canonical_key(b""), &b"/"[..]);
        assert_eq!(canonical_key(b"//"), &b"/"[..]);
        assert!(matches!(canonical_key(b"/a/b"), Cow::Borrowed(_)));
    }

    /// A reference to a tree answers as the tree itself, shortcut included.
    #[test]
    fn a_reference_answers_as_the_tree_itself() {
        let mut fs = MemFs::new();
        fs.add_file("/r/f")
            .add_symlink("/r/l", "f")
            .add_symlink("/r/out", "/x");
        let by_ref = &fs;
        assert_eq!(
            by_ref.lstat(Path::new("/r/l")).ok(),
            Some(FileKind::Symlink)
        );
        assert_eq!(by_ref.readlink(Path::new("/r/l")).ok(), Some("f".into()));
        assert!(by_ref.readlink(Path::new("/r/f")).is_err());
        assert!(by_ref.lands_beneath(b"/r/l", 2, Op::Read));
        assert!(!by_ref.lands_beneath(b"/r/out/new", 2, Op::Write));
        assert_eq!(by_ref.resolve_whole(b"/r/l", Op::Read), None);
    }
}
