//! A scenario's tree made real in a fresh temp dir, safely
//! (scenario-format.md, "Materializing safely").

use std::ffi::OsStr;
use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::{Case, Entry, PathBytes, Scenario, ScenarioError};

/// A scenario's tree created beneath a fresh base directory, removed again
/// (without following any link) when this value is dropped.
///
/// The temp dir's absolute path holds only `A-Z a-z 0-9 / . _ -` and no
/// symlink. The base is `<temp dir>/base`, so a test may put "outside"
/// siblings next to it in [`Materialized::temp_dir`].
///
/// # Examples
///
/// ```
/// use rootguard_judge::{Document, Materialized};
///
/// let doc = Document::from_json(r#"{"version": 1, "scenarios": [{"name": "s",
///     "tree": [{"file": "d/f", "content": "hi"}, {"symlink": "d/l", "target": "{base}/d/f"}],
///     "roots": ["file://{base}/d"], "cases": [{"path": "{base}/d/l", "op": "read"}]}]}"#)?;
/// let m = Materialized::new(&doc.scenarios[0])?;
/// assert_eq!(std::fs::read_to_string(m.base().join("d/l"))?, "hi");
/// assert_eq!(m.roots()[0], format!("file://{}/d", m.base().display()));
/// let temp = m.temp_dir().to_path_buf();
/// drop(m);
/// assert!(!temp.exists());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Materialized {
    temp_dir: PathBuf,
    base: PathBuf,
    /// The scenario with `{base}` substituted.
    scenario: Scenario,
    /// Whether the tree is still on disk (false after [`Materialized::close`]).
    armed: bool,
}

/// Why a scenario could not be materialized.
#[derive(Debug)]
pub enum MaterializeError {
    /// The scenario breaks a rule of the format.
    Invalid(ScenarioError),
    /// No temp directory was found whose real path is clean
    /// (`A-Z a-z 0-9 / . _ -` only) and writable.
    NoCleanTempDir {
        /// Each candidate and why it was refused.
        tried: Vec<(PathBuf, String)>,
    },
    /// A path inside the base that should be a plain directory is a
    /// symlink; nothing is created through it.
    SymlinkInTheWay {
        /// The symlink.
        path: PathBuf,
    },
    /// A path inside the base that should be a directory is something else.
    NotADirectory {
        /// The path.
        path: PathBuf,
    },
    /// [`Materialized::relay`] was given a scenario with other roots.
    RootsDiffer,
    /// The directory given to [`Materialized::new_in`] cannot hold the
    /// temp dir: it does not resolve to a clean, writable directory.
    UnusableDir {
        /// The directory as given.
        dir: PathBuf,
        /// Why it was refused.
        why: String,
    },
    /// A file system call failed.
    Io {
        /// What was being done.
        action: &'static str,
        /// On which path.
        path: PathBuf,
        /// The error.
        source: io::Error,
    },
}

impl fmt::Display for MaterializeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MaterializeError::Invalid(e) => write!(f, "cannot materialize an invalid scenario: {e}"),
            MaterializeError::NoCleanTempDir { tried } => {
                write!(
                    f,
                    "no temp directory with a clean real path (only A-Z a-z 0-9 / . _ -, no symlink) could be used; set TMPDIR to one. Tried:"
                )?;
                for (path, why) in tried {
                    write!(f, " {} ({why});", path.display())?;
                }
                Ok(())
            }
            MaterializeError::SymlinkInTheWay { path } => write!(
                f,
                "{} is a symlink where a plain directory belongs; refusing to create anything through it",
                path.display()
            ),
            MaterializeError::NotADirectory { path } => write!(
                f,
                "{} is not a directory but the tree needs one there; check the tree for a file used as a parent",
                path.display()
            ),
            MaterializeError::RootsDiffer => write!(
                f,
                "the next scenario lists other roots than the tree laid; materialize it afresh"
            ),
            MaterializeError::UnusableDir { dir, why } => write!(
                f,
                "{} cannot hold the temp trees ({why}); give an existing directory whose real path has only A-Z a-z 0-9 / . _ - and no symlink",
                dir.display()
            ),
            MaterializeError::Io { action, path, source } => {
                write!(f, "could not {action} {}: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for MaterializeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MaterializeError::Invalid(e) => Some(e),
            MaterializeError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

fn io_error<'a>(
    action: &'static str,
    path: &'a Path,
) -> impl FnOnce(io::Error) -> MaterializeError + 'a {
    move |source| MaterializeError::Io {
        action,
        path: path.to_path_buf(),
        source,
    }
}

/// Whether every byte of `path` is one of `A-Z a-z 0-9 / . _ -`, so that it
/// can stand for `{base}` in any URI or path without escaping.
pub fn is_clean_path(path: &Path) -> bool {
    let bytes = path.as_os_str().as_bytes();
    bytes.first() == Some(&b'/')
        && bytes
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b"/._-".contains(&b))
}

/// A directory to make temp dirs in whose real path is clean: `$TMPDIR`
/// when it is set and clean; when it is unset, `/dev/shm` if it has
/// [`TMPFS_ROOM`] free; else `/tmp`, `/var/tmp`, `/dev/shm`. The path
/// returned is canonical, so no component of it is a symlink.
///
/// Trees go to tmpfs unless the user chose: making and removing thousands
/// of small trees is the harness's main cost, and on a disk file system the
/// inode allocator's (measured: a vet run's triage 50.6 s with its trees in
/// an ext4 `/tmp`, 8.6 s in `/dev/shm`, same attempts and same defects).
///
/// # Errors
///
/// [`MaterializeError::NoCleanTempDir`] listing each candidate and why it
/// was refused.
pub fn clean_temp_parent() -> Result<PathBuf, MaterializeError> {
    let mut tried = Vec::new();
    for candidate in temp_candidates() {
        match check_temp_candidate(&candidate) {
            Ok(real) => return Ok(real),
            Err(why) => tried.push((candidate, why)),
        }
    }
    Err(MaterializeError::NoCleanTempDir { tried })
}

/// Free bytes `/dev/shm` must have to be chosen by default: a tree is a
/// few kilobytes, but a container's `/dev/shm` may be 64 MiB in all and
/// shared with the programs under test.
pub const TMPFS_ROOM: u64 = 32 << 20;

fn temp_candidates() -> Vec<PathBuf> {
    let chosen = std::env::var_os("TMPDIR").is_some_and(|t| !t.is_empty());
    let mut candidates = Vec::new();
    if !chosen && has_room(Path::new("/dev/shm"), TMPFS_ROOM) {
        candidates.push(PathBuf::from("/dev/shm"));
    }
    candidates.push(std::env::temp_dir());
    for fallback in ["/tmp", "/var/tmp", "/dev/shm"] {
        if !candidates.iter().any(|c| c == Path::new(fallback)) {
            candidates.push(PathBuf::from(fallback));
        }
    }
    candidates
}

fn check_temp_candidate(candidate: &Path) -> Result<PathBuf, String> {
    let real = fs::canonicalize(candidate).map_err(|e| format!("cannot resolve it: {e}"))?;
    if !is_clean_path(&real) {
        return Err(format!(
            "its real path {} holds other characters",
            real.display()
        ));
    }
    let meta = fs::metadata(&real).map_err(|e| format!("cannot stat it: {e}"))?;
    if !meta.is_dir() {
        return Err("not a directory".to_owned());
    }
    Ok(real)
}

impl Materialized {
    /// Validates `scenario` and creates its tree beneath a fresh base:
    /// every directory and file first, parents as plain directories, then
    /// every symlink with `{base}` substituted into its target. Nothing is
    /// created through a link.
    ///
    /// # Errors
    ///
    /// [`MaterializeError::Invalid`] for a scenario that breaks the format;
    /// [`MaterializeError::NoCleanTempDir`] when no clean temp dir can be
    /// made; the other variants when creating the tree fails. Whatever was
    /// created is removed again.
    pub fn new(scenario: &Scenario) -> Result<Materialized, MaterializeError> {
        scenario.validate().map_err(MaterializeError::Invalid)?;
        Materialized::lay_in(scenario, make_temp_dir()?)
    }

    /// As [`Materialized::new`], but the fresh temp dir is made in `dir`
    /// itself, whatever `$TMPDIR` says: for a caller that chooses where the
    /// trees go (`rootguard mcp --base-dir`) without changing the
    /// environment of the whole process.
    ///
    /// # Errors
    ///
    /// [`MaterializeError::UnusableDir`] when `dir` does not resolve to a
    /// directory whose real path is clean (`A-Z a-z 0-9 / . _ -`), or no
    /// temp dir can be made in it; else as [`Materialized::new`].
    ///
    /// # Examples
    ///
    /// ```
    /// use rootguard_judge::{Document, Materialized};
    ///
    /// let doc = Document::from_json(r#"{"version": 1, "scenarios": [{"name": "s",
    ///     "tree": [{"file": "d/f"}], "roots": ["file://{base}/d"], "cases": []}]}"#)?;
    /// let parent = rootguard_judge::clean_temp_parent()?;
    /// let m = Materialized::new_in(&doc.scenarios[0], &parent)?;
    /// assert_eq!(m.temp_dir().parent(), Some(parent.as_path()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new_in(scenario: &Scenario, dir: &Path) -> Result<Materialized, MaterializeError> {
        scenario.validate().map_err(MaterializeError::Invalid)?;
        let unusable = |why: String| MaterializeError::UnusableDir {
            dir: dir.to_path_buf(),
            why,
        };
        let parent = check_temp_candidate(dir).map_err(unusable)?;
        let temp_dir = make_temp_dir_in(&parent).map_err(unusable)?;
        Materialized::lay_in(scenario, temp_dir)
    }

    /// Lays `scenario` (validated) beneath `<temp_dir>/base`; the temp dir
    /// is removed again on any failure.
    fn lay_in(scenario: &Scenario, temp_dir: PathBuf) -> Result<Materialized, MaterializeError> {
        let base = temp_dir.join("base");
        // From here on, dropping `made` removes the temp dir.
        let mut made = Materialized {
            temp_dir,
            base,
            scenario: scenario.clone(),
            armed: true,
        };
        fs::create_dir(&made.base).map_err(io_error("create the base", &made.base))?;
        let base_text = made.base_text().to_owned();
        made.scenario = scenario.substituted(&base_text);
        made.lay()?;
        Ok(made)
    }

    /// Replaces the tree in the same base with `scenario`'s, which must
    /// list the same roots: every entry is removed (without following a
    /// link) but the roots' own directories, their parents, and the
    /// entries named in `untouched` (paths relative to the base, such as a
    /// server's home), then the new tree is laid as [`Materialized::new`]
    /// lays one. A live server keeps its roots and working directory
    /// across scenarios.
    ///
    /// # Errors
    ///
    /// [`MaterializeError::RootsDiffer`] when `scenario` lists other roots
    /// (nothing is changed then); the errors of [`Materialized::new`] when
    /// the new tree cannot be laid.
    ///
    /// # Examples
    ///
    /// ```
    /// use rootguard_judge::{Document, Materialized};
    ///
    /// let doc = Document::from_json(r#"{"version": 1, "scenarios": [
    ///     {"name": "one", "tree": [{"file": "d/f"}, {"file": "out/x"}], "roots": ["file://{base}/d"], "cases": []},
    ///     {"name": "two", "tree": [{"symlink": "d/l", "target": "{base}/out"}], "roots": ["file://{base}/d"], "cases": []}]}"#)?;
    /// let mut m = Materialized::new(&doc.scenarios[0])?;
    /// std::fs::create_dir(m.base().join("home"))?;
    /// m.relay(&doc.scenarios[1], &["home"])?;
    /// assert!(m.base().join("d/l").symlink_metadata()?.file_type().is_symlink());
    /// assert!(!m.base().join("d/f").exists() && !m.base().join("out").exists());
    /// assert!(m.base().join("home").is_dir());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn relay(
        &mut self,
        scenario: &Scenario,
        untouched: &[&str],
    ) -> Result<(), MaterializeError> {
        scenario.validate().map_err(MaterializeError::Invalid)?;
        let base_text = self.base_text().to_owned();
        let next = scenario.substituted(&base_text);
        if next.roots != self.scenario.roots {
            return Err(MaterializeError::RootsDiffer);
        }
        let prefix = format!("file://{base_text}/");
        let kept: Vec<&str> = next
            .roots
            .iter()
            .filter_map(|r| r.strip_prefix(prefix.as_str()))
            .collect();
        self.clear(&self.base.clone(), "", &kept, untouched)?;
        self.scenario = next;
        self.lay()
    }

    /// Removes what is beneath `dir` (`rel` from the base) but the root
    /// directories `kept` (emptied, with their parents) and `untouched`.
    fn clear(
        &self,
        dir: &Path,
        rel: &str,
        kept: &[&str],
        untouched: &[&str],
    ) -> Result<(), MaterializeError> {
        for entry in fs::read_dir(dir).map_err(io_error("list", dir))? {
            let entry = entry.map_err(io_error("list", dir))?;
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let path = if rel.is_empty() {
                name.into_owned()
            } else {
                format!("{rel}/{name}")
            };
            if untouched.contains(&path.as_str()) {
                continue;
            }
            let full = entry.path();
            let is_dir = fs::symlink_metadata(&full)
                .map_err(io_error("inspect", &full))?
                .is_dir();
            let holds_root = kept.iter().any(|k| {
                *k == path
                    || k.strip_prefix(path.as_str())
                        .is_some_and(|s| s.starts_with('/'))
            });
            if is_dir && holds_root {
                self.clear(&full, &path, kept, untouched)?;
            } else {
                remove_tree(&full)?;
            }
        }
        Ok(())
    }

    /// Lays the scenario's tree beneath the base: directories and files
    /// first, parents as plain directories, then every link.
    fn lay(&self) -> Result<(), MaterializeError> {
        let tree = &self.scenario.tree;
        let made = self;
        // Directories and files first ...
        for entry in tree {
            match entry {
                Entry::Dir { path } => {
                    made.ensure_dirs(path)?;
                }
                Entry::File { path, content } => {
                    let full = made.ensure_parent(path)?;
                    create_file(&full, content.as_deref().unwrap_or(""))?;
                }
                Entry::Symlink { .. } => {}
            }
        }
        // ... then every symlink, so that nothing is created through one.
        for entry in tree {
            if let Entry::Symlink { path, target } = entry {
                let full = made.ensure_parent(path)?;
                std::os::unix::fs::symlink(target.to_path(), &full)
                    .map_err(io_error("create the symlink", &full))?;
            }
        }
        Ok(())
    }

    /// The base directory: the value of `{base}`.
    pub fn base(&self) -> &Path {
        &self.base
    }

    /// The base as text (it holds only `A-Z a-z 0-9 / . _ -`).
    pub fn base_text(&self) -> &str {
        // The base's path was checked clean, hence ASCII.
        self.base.to_str().unwrap_or_default()
    }

    /// The fresh temp dir holding the base; a test may create outside
    /// siblings of the base here.
    pub fn temp_dir(&self) -> &Path {
        &self.temp_dir
    }

    /// The scenario with `{base}` substituted in roots, case paths and
    /// symlink targets.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The roots with `{base}` substituted.
    pub fn roots(&self) -> &[String] {
        &self.scenario.roots
    }

    /// The cases with `{base}` substituted in their paths.
    pub fn cases(&self) -> &[Case] {
        &self.scenario.cases
    }

    /// Removes the tree now, reporting any failure (dropping removes it too,
    /// ignoring failures).
    ///
    /// # Errors
    ///
    /// [`MaterializeError::Io`] naming the path that could not be removed.
    pub fn close(mut self) -> Result<(), MaterializeError> {
        self.armed = false;
        remove_tree(&self.temp_dir)
    }

    /// Creates every directory of `rel` (relative to the base), checking
    /// each existing one is a plain directory; returns the full path.
    fn ensure_dirs(&self, rel: &PathBytes) -> Result<PathBuf, MaterializeError> {
        let mut current = self.base.clone();
        check_plain_dir(&current)?;
        for name in rel.segments() {
            current.push(OsStr::from_bytes(name));
            match fs::symlink_metadata(&current) {
                Ok(meta) if meta.file_type().is_symlink() => {
                    return Err(MaterializeError::SymlinkInTheWay { path: current })
                }
                Ok(meta) if meta.is_dir() => {}
                Ok(_) => return Err(MaterializeError::NotADirectory { path: current }),
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    // mkdir never follows a link at its last component.
                    fs::create_dir(&current).map_err(io_error("create the directory", &current))?;
                }
                Err(e) => return Err(io_error("inspect", &current)(e)),
            }
        }
        Ok(current)
    }

    /// Creates the parent directories of `rel`; returns its full path.
    fn ensure_parent(&self, rel: &PathBytes) -> Result<PathBuf, MaterializeError> {
        match rel.as_bytes().iter().rposition(|&b| b == b'/') {
            Some(slash) => self.ensure_dirs(&rel.as_bytes()[..slash].into())?,
            None => {
                check_plain_dir(&self.base)?;
                self.base.clone()
            }
        };
        Ok(self.base.join(rel.to_path()))
    }
}

fn check_plain_dir(path: &Path) -> Result<(), MaterializeError> {
    let meta = fs::symlink_metadata(path).map_err(io_error("inspect", path))?;
    if meta.file_type().is_symlink() {
        return Err(MaterializeError::SymlinkInTheWay {
            path: path.to_path_buf(),
        });
    }
    if !meta.is_dir() {
        return Err(MaterializeError::NotADirectory {
            path: path.to_path_buf(),
        });
    }
    Ok(())
}

/// `O_CREAT | O_EXCL`: fails on anything already there, a link included.
fn create_file(path: &Path, content: &str) -> Result<(), MaterializeError> {
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(io_error("create the file", path))?;
    file.write_all(content.as_bytes())
        .map_err(io_error("write the file", path))
}

/// Whether `dir` is a directory on a file system with `bytes` free to
/// unprivileged users.
pub fn has_room(dir: &Path, bytes: u64) -> bool {
    rustix::fs::statvfs(dir).is_ok_and(|v| v.f_bavail.saturating_mul(v.f_frsize) >= bytes)
        && dir.is_dir()
}

/// A fresh temp dir in a clean parent, checked clean and link-free itself.
fn make_temp_dir() -> Result<PathBuf, MaterializeError> {
    let mut tried = Vec::new();
    for candidate in temp_candidates() {
        match check_temp_candidate(&candidate) {
            Err(why) => tried.push((candidate, why)),
            Ok(parent) => match make_temp_dir_in(&parent) {
                Ok(dir) => return Ok(dir),
                Err(why) => tried.push((parent, why)),
            },
        }
    }
    Err(MaterializeError::NoCleanTempDir { tried })
}

/// A fresh temp dir in `parent` (canonical and clean), checked clean and
/// link-free itself; else why not.
fn make_temp_dir_in(parent: &Path) -> Result<PathBuf, String> {
    let dir = tempfile::Builder::new()
        .prefix("rootguard-")
        .tempdir_in(parent)
        .map_err(|e| format!("cannot create a temp dir in it: {e}"))?
        .keep();
    match fs::canonicalize(&dir) {
        Ok(real) if real == dir && is_clean_path(&real) => Ok(dir),
        _ => {
            let _ = remove_tree(&dir);
            Err(format!(
                "the temp dir {} made in it was not clean",
                dir.display()
            ))
        }
    }
}

/// Removes `path` and everything beneath it without following any link:
/// `symlink_metadata` tells a link from a directory, and a link is removed
/// as a file.
///
/// # Errors
///
/// [`MaterializeError::Io`] naming `path` when it or something beneath it
/// could not be read or removed.
pub fn remove_tree(path: &Path) -> Result<(), MaterializeError> {
    let meta = fs::symlink_metadata(path).map_err(io_error("inspect", path))?;
    if meta.is_dir() {
        // std's removal follows no link: it opens each directory beneath its
        // parent's descriptor with `O_NOFOLLOW` and unlinks by name there
        // (the fix of CVE-2022-21658), and it reads each entry's type from
        // the directory instead of a stat per entry.
        fs::remove_dir_all(path).map_err(io_error("remove the tree", path))
    } else {
        fs::remove_file(path).map_err(io_error("remove", path))
    }
}

impl Drop for Materialized {
    fn drop(&mut self) {
        if self.armed {
            let _ = remove_tree(&self.temp_dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_paths() {
        assert!(is_clean_path(Path::new("/tmp/rootguard-Ab9_x.y")));
        for bad in ["tmp", "/tmp/a b", "/tmp/é", "/tmp/a'b", "/tmp/{base}", ""] {
            assert!(!is_clean_path(Path::new(bad)), "{bad}");
        }
    }

    #[test]
    fn temp_candidates_must_resolve_clean() {
        let outer = tempfile::tempdir().expect("temp dir");
        let dirty = outer.path().join("a b");
        fs::create_dir(&dirty).expect("mkdir");
        let why = check_temp_candidate(&dirty).expect_err("dirty");
        assert!(why.contains("holds other characters"), "{why}");
        assert!(check_temp_candidate(&outer.path().join("missing")).is_err());
        // A link to a clean directory is taken as its real path.
        let real = clean_temp_parent().expect("clean parent");
        let link = outer.path().join("link");
        std::os::unix::fs::symlink(&real, &link).expect("symlink");
        if is_clean_path(&fs::canonicalize(outer.path()).expect("resolves")) {
            assert_eq!(check_temp_candidate(&link), Ok(real));
        }
    }

    #[test]
    fn remove_tree_removes_links_not_their_targets() {
        let outer = tempfile::tempdir().expect("temp dir");
        let keep = outer.path().join("keep");
        fs::create_dir(&keep).expect("mkdir");
        fs::write(keep.join("f"), "x").expect("write");
        let doomed = outer.path().join("doomed");
        fs::create_dir_all(doomed.join("d")).expect("mkdir");
        std::os::unix::fs::symlink(&keep, doomed.join("d/to_dir")).expect("symlink");
        std::os::unix::fs::symlink(keep.join("f"), doomed.join("to_file")).expect("symlink");
        std::os::unix::fs::symlink("missing", doomed.join("dangling")).expect("symlink");
        remove_tree(&doomed).expect("removes");
        assert!(!doomed.exists());
        assert_eq!(fs::read_to_string(keep.join("f")).expect("kept"), "x");
        // A link given as the top is removed itself, not followed.
        let top = outer.path().join("top");
        std::os::unix::fs::symlink(&keep, &top).expect("symlink");
        remove_tree(&top).expect("removes");
        assert!(keep.join("f").exists() && fs::symlink_metadata(&top).is_err());
    }

    #[test]
    fn relay_removes_links_not_their_targets_and_keeps_the_roots() {
        let outside = tempfile::tempdir().expect("temp dir");
        fs::write(outside.path().join("keep"), "x").expect("write");
        let target = outside.path().display().to_string();
        let scenario = |tree: Vec<Entry>, root: &str| Scenario {
            name: "s".into(),
            note: None,
            tree,
            roots: vec![format!("file://{{base}}/{root}")],
            cases: vec![],
        };
        let first = scenario(
            vec![
                Entry::Dir { path: "p/d".into() },
                Entry::Symlink {
                    path: "p/out".into(),
                    target: target.clone().into(),
                },
                Entry::Symlink {
                    path: "l".into(),
                    target: target.into(),
                },
            ],
            "p",
        );
        let mut m = Materialized::new(&first).expect("lays");
        fs::write(m.base().join("p/d/written"), "by a server").expect("write");
        let other_roots = scenario(vec![], "q");
        assert!(matches!(
            m.relay(&other_roots, &[]),
            Err(MaterializeError::RootsDiffer)
        ));
        assert!(m.base().join("p/d/written").exists(), "nothing changed");
        let next = scenario(
            vec![Entry::File {
                path: "p/f".into(),
                content: None,
            }],
            "p",
        );
        m.relay(&next, &[]).expect("relays");
        assert!(m.base().join("p").is_dir() && m.base().join("p/f").is_file());
        assert!(
            !m.base().join("p/d").exists() && fs::symlink_metadata(m.base().join("l")).is_err()
        );
        assert_eq!(
            fs::read_to_string(outside.path().join("keep")).expect("kept"),
            "x"
        );
    }

    #[test]
    fn a_temp_parent_is_found() {
        let parent = clean_temp_parent().expect("a clean temp parent");
        assert!(is_clean_path(&parent));
        assert_eq!(fs::canonicalize(&parent).ok(), Some(parent));
    }
}
