//! The model file system: a scenario's tree laid out beneath a base path.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fmt;
use std::io;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::Path;

use crate::scenario::{substitute_base_bytes, validate_tree};
use crate::{Entry, EntryError, Scenario};

/// What the model knows to be at a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeKind {
    /// A directory.
    Dir,
    /// Anything that is neither a directory nor a symlink (regular files,
    /// and on the host devices, FIFOs and sockets too).
    File,
    /// A symbolic link holding these bytes.
    Symlink(Vec<u8>),
}

/// What exists outside the base and its ancestors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outside {
    /// Nothing: for pure in-memory runs on a made-up base such as
    /// [`MODEL_BASE`](super::MODEL_BASE).
    Absent,
    /// The real system, looked up read-only (`symlink_metadata`,
    /// `read_link`): for a materialized tree whose links reach `/etc`.
    Host,
}

/// A failed read-only look-up on the host, other than "not found".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostError {
    /// The path looked up.
    pub path: Vec<u8>,
    /// The error, as `std::io` reports it.
    pub kind: io::ErrorKind,
    /// The error's message.
    pub message: String,
}

/// A base or tree that the model cannot lay out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelFsError {
    /// The base is not an absolute, lexically normal path (`/` alone or
    /// `/a/b`: no empty, `.` or `..` segment, no trailing `/`).
    BaseNotNormal {
        /// The base given.
        base: Vec<u8>,
    },
    /// The base is not valid UTF-8, so it cannot be substituted for
    /// `{base}` in a scenario's strings.
    BaseNotUtf8 {
        /// The base given.
        base: Vec<u8>,
    },
    /// A tree entry breaks a rule of the format.
    InvalidTree {
        /// The entry's index.
        index: usize,
        /// The rule it breaks.
        error: EntryError,
    },
}

impl fmt::Display for ModelFsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelFsError::BaseNotNormal { base } => write!(
                f,
                "base {} is not an absolute, normal path; give one like {} (no `.`, `..`, `//` or trailing `/`)",
                super::show(base),
                super::MODEL_BASE
            ),
            ModelFsError::BaseNotUtf8 { base } => write!(
                f,
                "base {} is not UTF-8, so it cannot stand for {{base}} in roots and case paths; use a base of plain characters",
                super::show(base)
            ),
            ModelFsError::InvalidTree { index, error } => write!(f, "tree entry {index}: {error}"),
        }
    }
}

impl std::error::Error for ModelFsError {}

/// A scenario's tree laid out beneath `base`, with every ancestor of the
/// base a directory, and the rest of the world as [`Outside`] says.
///
/// Paths are absolute byte strings with no empty, `.` or `..` segment.
///
/// # Examples
///
/// ```
/// use std::path::Path;
/// use rootguard_judge::Entry;
/// use rootguard_judge::oracle::{ModelFs, NodeKind, Outside};
///
/// let tree = [Entry::Symlink { path: "a/l".into(), target: "{base}/x".into() }];
/// let fs = ModelFs::new(&tree, Path::new("/rg/base"), Outside::Absent)?;
/// assert_eq!(fs.lookup(b"/rg/base/a/l"), Ok(Some(NodeKind::Symlink(b"/rg/base/x".to_vec()))));
/// assert_eq!(fs.lookup(b"/rg/base/a"), Ok(Some(NodeKind::Dir)));
/// assert_eq!(fs.lookup(b"/rg"), Ok(Some(NodeKind::Dir)));
/// assert_eq!(fs.lookup(b"/etc"), Ok(None));
/// # Ok::<(), rootguard_judge::oracle::ModelFsError>(())
/// ```
#[derive(Debug, Clone)]
pub struct ModelFs {
    base: Vec<u8>,
    /// Everything at or beneath the base, the base itself included.
    nodes: BTreeMap<Vec<u8>, NodeKind>,
    outside: Outside,
}

impl ModelFs {
    /// Lays out `tree` beneath `base`, substituting `{base}` in link targets.
    ///
    /// # Errors
    ///
    /// [`ModelFsError::BaseNotNormal`] for a base that is not absolute and
    /// normal; [`ModelFsError::InvalidTree`] for a tree that breaks a rule
    /// of the format.
    pub fn new(tree: &[Entry], base: &Path, outside: Outside) -> Result<ModelFs, ModelFsError> {
        let base = base.as_os_str().as_bytes().to_vec();
        if !is_normal_absolute(&base) {
            return Err(ModelFsError::BaseNotNormal { base });
        }
        validate_tree(tree).map_err(|(index, error)| ModelFsError::InvalidTree { index, error })?;
        let mut nodes = BTreeMap::new();
        nodes.insert(base.clone(), NodeKind::Dir);
        for entry in tree {
            let path = join(&base, entry.path().as_bytes());
            // Missing parents are plain directories (scenario-format.md).
            let mut parent = path.clone();
            while let Some(up) = parent_of(&parent) {
                if up.len() <= base.len() {
                    break;
                }
                nodes.entry(up.clone()).or_insert(NodeKind::Dir);
                parent = up;
            }
            let kind = match entry {
                Entry::Dir { .. } => NodeKind::Dir,
                Entry::File { .. } => NodeKind::File,
                Entry::Symlink { target, .. } => {
                    NodeKind::Symlink(substitute_base_bytes(target.as_bytes(), &base))
                }
            };
            nodes.insert(path, kind);
        }
        Ok(ModelFs {
            base,
            nodes,
            outside,
        })
    }

    /// [`ModelFs::new`] on a scenario's tree.
    ///
    /// # Errors
    ///
    /// As [`ModelFs::new`].
    pub fn from_scenario(
        scenario: &Scenario,
        base: &Path,
        outside: Outside,
    ) -> Result<ModelFs, ModelFsError> {
        ModelFs::new(&scenario.tree, base, outside)
    }

    /// The base, as bytes.
    pub fn base(&self) -> &[u8] {
        &self.base
    }

    /// The base, as a path.
    pub fn base_path(&self) -> &Path {
        Path::new(OsStr::from_bytes(&self.base))
    }

    /// What exists outside the base.
    pub fn outside(&self) -> Outside {
        self.outside
    }

    /// What is at `path`, an absolute path with no empty, `.` or `..`
    /// segment; `Ok(None)` when nothing is.
    ///
    /// # Errors
    ///
    /// Only with [`Outside::Host`]: a host look-up that failed other than
    /// with "not found" (a permission error, say).
    pub fn lookup(&self, path: &[u8]) -> Result<Option<NodeKind>, HostError> {
        if is_within(path, &self.base) {
            return Ok(self.nodes.get(path).cloned());
        }
        if is_within(&self.base, path) {
            // An ancestor of the base.
            return Ok(Some(NodeKind::Dir));
        }
        match self.outside {
            Outside::Absent => Ok(None),
            Outside::Host => host_lookup(path),
        }
    }
}

/// `Outside::Host`: one read-only look-up that does not follow a final link.
fn host_lookup(path: &[u8]) -> Result<Option<NodeKind>, HostError> {
    let os_path = Path::new(OsStr::from_bytes(path));
    let error = |e: io::Error| HostError {
        path: path.to_vec(),
        kind: e.kind(),
        message: e.to_string(),
    };
    match std::fs::symlink_metadata(os_path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            let target = std::fs::read_link(os_path).map_err(error)?;
            Ok(Some(NodeKind::Symlink(target.into_os_string().into_vec())))
        }
        Ok(meta) if meta.is_dir() => Ok(Some(NodeKind::Dir)),
        Ok(_) => Ok(Some(NodeKind::File)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(error(e)),
    }
}

/// `/` alone, or `/a/b` with no empty, `.` or `..` segment.
pub(crate) fn is_normal_absolute(path: &[u8]) -> bool {
    path == b"/"
        || (path.first() == Some(&b'/')
            && path[1..]
                .split(|&b| b == b'/')
                .all(|s| !s.is_empty() && s != b"." && s != b".."))
}

/// Whether `path` is `ancestor` or beneath it, comparing whole components;
/// both are normal absolute paths. `/` contains everything.
pub(crate) fn is_within(path: &[u8], ancestor: &[u8]) -> bool {
    if ancestor == b"/" {
        return true;
    }
    path.strip_prefix(ancestor)
        .is_some_and(|rest| rest.is_empty() || rest[0] == b'/')
}

/// `dir/name`, without doubling the slash of `/`.
pub(crate) fn join(dir: &[u8], name: &[u8]) -> Vec<u8> {
    let mut out = dir.to_vec();
    if out.last() != Some(&b'/') {
        out.push(b'/');
    }
    out.extend_from_slice(name);
    out
}

/// The parent of a normal absolute path; `None` for `/`.
pub(crate) fn parent_of(path: &[u8]) -> Option<Vec<u8>> {
    if path == b"/" {
        return None;
    }
    let slash = path.iter().rposition(|&b| b == b'/')?;
    Some(if slash == 0 {
        b"/".to_vec()
    } else {
        path[..slash].to_vec()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers() {
        assert!(is_within(b"/a/b", b"/a"));
        assert!(is_within(b"/a", b"/a"));
        assert!(!is_within(b"/ab", b"/a"));
        assert!(!is_within(b"/a", b"/a/b"));
        assert!(is_within(b"/x", b"/"));
        assert!(is_within(b"/", b"/"));
        assert_eq!(parent_of(b"/a/b"), Some(b"/a".to_vec()));
        assert_eq!(parent_of(b"/a"), Some(b"/".to_vec()));
        assert_eq!(parent_of(b"/"), None);
        assert_eq!(join(b"/", b"a"), b"/a");
        assert_eq!(join(b"/a", b"b"), b"/a/b");
        for good in ["/", "/a", "/a/b", "/a/...", "/.a"] {
            assert!(is_normal_absolute(good.as_bytes()), "{good}");
        }
        for bad in ["", "a", "//", "/a/", "/a//b", "/./a", "/a/..", "/a/."] {
            assert!(!is_normal_absolute(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn layout() {
        let tree = [
            Entry::File {
                path: "d/e/f".into(),
                content: None,
            },
            Entry::Dir { path: "d".into() },
            Entry::Symlink {
                path: "l".into(),
                target: "{base}{base}".into(),
            },
        ];
        let fs = ModelFs::new(&tree, Path::new("/r/b"), Outside::Absent).expect("valid");
        assert_eq!(fs.lookup(b"/"), Ok(Some(NodeKind::Dir)));
        assert_eq!(fs.lookup(b"/r"), Ok(Some(NodeKind::Dir)));
        assert_eq!(fs.lookup(b"/r/b"), Ok(Some(NodeKind::Dir)));
        assert_eq!(fs.lookup(b"/r/b/d/e"), Ok(Some(NodeKind::Dir)));
        assert_eq!(fs.lookup(b"/r/b/d/e/f"), Ok(Some(NodeKind::File)));
        assert_eq!(
            fs.lookup(b"/r/b/l"),
            Ok(Some(NodeKind::Symlink(b"/r/b/r/b".to_vec())))
        );
        assert_eq!(fs.lookup(b"/r/bb"), Ok(None));
        assert_eq!(fs.lookup(b"/r/b/x"), Ok(None));
        assert_eq!(fs.lookup(b"/s"), Ok(None));
    }

    #[test]
    fn bad_inputs() {
        assert!(matches!(
            ModelFs::new(&[], Path::new("rel"), Outside::Absent),
            Err(ModelFsError::BaseNotNormal { .. })
        ));
        assert!(matches!(
            ModelFs::new(&[], Path::new("/a/../b"), Outside::Absent),
            Err(ModelFsError::BaseNotNormal { .. })
        ));
        let tree = [Entry::Dir { path: "/x".into() }];
        assert_eq!(
            ModelFs::new(&tree, Path::new("/b"), Outside::Absent).err(),
            Some(ModelFsError::InvalidTree {
                index: 0,
                error: EntryError::AbsolutePath
            })
        );
    }

    #[test]
    fn host_lookup_reads_the_real_system() {
        let fs =
            ModelFs::new(&[], Path::new(crate::oracle::MODEL_BASE), Outside::Host).expect("valid");
        assert_eq!(fs.lookup(b"/"), Ok(Some(NodeKind::Dir)));
        assert_eq!(fs.lookup(b"/proc"), Ok(Some(NodeKind::Dir)));
        assert_eq!(fs.lookup(b"/rg-model-surely-missing"), Ok(None));
        // Within the (fake) base, the model alone answers.
        let inside = format!("{}/x", crate::oracle::MODEL_BASE);
        assert_eq!(fs.lookup(inside.as_bytes()), Ok(None));
    }
}
