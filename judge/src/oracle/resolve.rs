//! Path resolution on the model, as semantics.md section 2 and
//! path_resolution(7) describe it, one component at a time.

use std::fmt;

use super::model_fs::{join, parent_of, HostError, ModelFs, NodeKind};
use super::{show, show_in};

/// Linux's limit on symlink expansions in one resolution (MAXSYMLINKS);
/// the 41st link fails with ELOOP (semantics.md section 2).
pub const MAX_LINKS: u32 = 40;
/// Longest file name (NAME_MAX); a longer one fails with ENAMETOOLONG.
pub const NAME_MAX: usize = 255;
/// PATH_MAX, counting the terminating NUL: a path of this many bytes or more
/// fails with ENAMETOOLONG.
pub const PATH_MAX: usize = 4096;

/// Why an operation has no target, so its truth is `either`
/// (semantics.md section 3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoTarget {
    /// The path does not start with `/` (the empty path included).
    NotAbsolute,
    /// The path holds a NUL byte; no system call can take it.
    NulByte,
    /// ENAMETOOLONG: the path is [`PATH_MAX`] bytes or longer.
    PathTooLong {
        /// Its length in bytes.
        len: usize,
    },
    /// ENAMETOOLONG: a component is longer than [`NAME_MAX`] bytes.
    NameTooLong {
        /// The directory it was looked up in.
        dir: Vec<u8>,
        /// Its length in bytes.
        len: usize,
    },
    /// ENOENT: a component does not exist (or a link is empty).
    NotFound {
        /// The missing path.
        path: Vec<u8>,
    },
    /// ENOTDIR: a non-directory was traversed, or followed by `/`, `.` or `..`.
    NotADirectory {
        /// The non-directory.
        path: Vec<u8>,
    },
    /// ELOOP: more than [`MAX_LINKS`] links in one resolution.
    TooManyLinks {
        /// The link that was one too many.
        link: Vec<u8>,
    },
    /// A look-up on the host failed (only with `Outside::Host`).
    Host(HostError),
    /// `write`: the path ends in `/`.
    TrailingSlash,
    /// `write`: the target is an existing directory (EISDIR).
    ExistingDirectory {
        /// The directory.
        path: Vec<u8>,
    },
    /// `write`: the last component is a link whose target ends in `/`, `.`
    /// or `..`, so the created target would have to be a directory.
    LinkNamesDirectory {
        /// The link.
        link: Vec<u8>,
        /// Its target.
        target: Vec<u8>,
    },
}

impl NoTarget {
    /// The reason as [`Display`](fmt::Display) says it, with paths within
    /// `base` written as `{base}`.
    pub fn describe(&self, base: &[u8]) -> String {
        Described { reason: self, base }.to_string()
    }
}

impl fmt::Display for NoTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Described {
            reason: self,
            base: b"/",
        }
        .fmt(f)
    }
}

struct Described<'a> {
    reason: &'a NoTarget,
    base: &'a [u8],
}

impl fmt::Display for Described<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |path: &[u8]| show_in(self.base, path);
        match self.reason {
            NoTarget::NotAbsolute => f.write_str("the path is not absolute"),
            NoTarget::NulByte => f.write_str("the path holds a NUL byte"),
            NoTarget::PathTooLong { len } => write!(
                f,
                "ENAMETOOLONG: the path is {len} bytes (limit {})",
                PATH_MAX - 1
            ),
            NoTarget::NameTooLong { dir, len } => {
                write!(f, "ENAMETOOLONG: a name of {len} bytes in {}", show(dir))
            }
            NoTarget::NotFound { path } => write!(f, "ENOENT: {} does not exist", show(path)),
            NoTarget::NotADirectory { path } => {
                write!(f, "ENOTDIR: {} is not a directory", show(path))
            }
            NoTarget::TooManyLinks { link } => {
                write!(
                    f,
                    "ELOOP: {} is link number {} in one resolution",
                    show(link),
                    MAX_LINKS + 1
                )
            }
            NoTarget::Host(e) => write!(
                f,
                "look-up of {} on the host failed: {}",
                show(&e.path),
                e.message
            ),
            NoTarget::TrailingSlash => {
                f.write_str("a write path that ends in `/` names a directory")
            }
            NoTarget::ExistingDirectory { path } => {
                write!(f, "EISDIR: {} is an existing directory", show(path))
            }
            NoTarget::LinkNamesDirectory { link, target } => write!(
                f,
                "EISDIR: {} -> {} names a directory, which open(O_CREAT) cannot create",
                show(link),
                show(target)
            ),
        }
    }
}

impl std::error::Error for NoTarget {}

impl From<HostError> for NoTarget {
    fn from(e: HostError) -> NoTarget {
        NoTarget::Host(e)
    }
}

/// The outcome of one resolution and the steps that led to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    /// The target (a physical path with no link in it), or why there is none.
    pub outcome: Result<Vec<u8>, NoTarget>,
    /// What happened on the way, one line per notable step (links followed,
    /// physical `..`, what the last component was).
    pub steps: Vec<String>,
    /// How many links were expanded on the way (at most [`MAX_LINKS`] + 1).
    pub links: u32,
}

/// The `read` target of `path`: what `open(path, O_PATH)` reaches
/// (semantics.md section 2, `read`).
///
/// # Examples
///
/// ```
/// use std::path::Path;
/// use rootguard_judge::Entry;
/// use rootguard_judge::oracle::{resolve_read, ModelFs, Outside};
///
/// let tree = [
///     Entry::Dir { path: "t/u".into() },
///     Entry::Symlink { path: "l".into(), target: "t/u".into() },
/// ];
/// let fs = ModelFs::new(&tree, Path::new("/b"), Outside::Absent)?;
/// // `..` after a link is the parent of the link's target.
/// assert_eq!(resolve_read(&fs, b"/b/l/..").outcome, Ok(b"/b/t".to_vec()));
/// # Ok::<(), rootguard_judge::oracle::ModelFsError>(())
/// ```
pub fn resolve_read(fs: &ModelFs, path: &[u8]) -> Resolution {
    let mut walker = Walker::new(fs);
    let outcome = check_path(path)
        .and_then(|()| walker.walk(b"/", path))
        .map(|(target, _)| target);
    walker.finish(outcome)
}

/// The `write` target of `path`: where `open(path, O_WRONLY | O_CREAT)`
/// would write, computed without writing (semantics.md section 2, `write`).
///
/// # Examples
///
/// ```
/// use std::path::Path;
/// use rootguard_judge::Entry;
/// use rootguard_judge::oracle::{resolve_write, ModelFs, Outside};
///
/// let tree = [Entry::Symlink { path: "d".into(), target: "/elsewhere/new".into() }];
/// let fs = ModelFs::new(&tree, Path::new("/b"), Outside::Absent)?;
/// // A dangling link is followed: the file would be created where it points.
/// // (Here /elsewhere does not exist, so there is nowhere to create it.)
/// assert!(resolve_write(&fs, b"/b/d").outcome.is_err());
/// assert_eq!(resolve_write(&fs, b"/b/new").outcome, Ok(b"/b/new".to_vec()));
/// # Ok::<(), rootguard_judge::oracle::ModelFsError>(())
/// ```
pub fn resolve_write(fs: &ModelFs, path: &[u8]) -> Resolution {
    let mut walker = Walker::new(fs);
    let outcome = check_path(path).and_then(|()| walker.write_target(path));
    walker.finish(outcome)
}

/// [`resolve_read`]'s outcome alone: the same walk, without writing down
/// its steps (for differential checks that compare only outcomes).
pub fn read_target(fs: &ModelFs, path: &[u8]) -> Result<Vec<u8>, NoTarget> {
    let mut walker = Walker::quiet(fs);
    check_path(path)
        .and_then(|()| walker.walk(b"/", path))
        .map(|(target, _)| target)
}

/// [`resolve_write`]'s outcome alone, as [`read_target`] is
/// [`resolve_read`]'s.
pub fn write_target(fs: &ModelFs, path: &[u8]) -> Result<Vec<u8>, NoTarget> {
    let mut walker = Walker::quiet(fs);
    check_path(path).and_then(|()| walker.write_target(path))
}

/// Rule 7 of semantics.md section 1: a root resolved as realpath(3) does,
/// following every link. The root may be a directory or a file.
pub fn realpath(fs: &ModelFs, path: &[u8]) -> Resolution {
    // A root is resolved exactly as a `read` target is.
    resolve_read(fs, path)
}

/// Checks made before any look-up: the system call could not even take
/// the path.
fn check_path(path: &[u8]) -> Result<(), NoTarget> {
    if path.contains(&0) {
        return Err(NoTarget::NulByte);
    }
    if path.len() >= PATH_MAX {
        return Err(NoTarget::PathTooLong { len: path.len() });
    }
    if path.first() != Some(&b'/') {
        return Err(NoTarget::NotAbsolute);
    }
    Ok(())
}

/// `(everything up to and including the last '/', the rest)`; the first
/// part is empty when there is no `/`.
fn split_last(path: &[u8]) -> (&[u8], &[u8]) {
    match path.iter().rposition(|&b| b == b'/') {
        Some(i) => (&path[..=i], &path[i + 1..]),
        None => (&path[..0], path),
    }
}

fn is_dot_or_dotdot(name: &[u8]) -> bool {
    name == b"." || name == b".."
}

struct Walker<'a> {
    fs: &'a ModelFs,
    /// Links expanded so far in this resolution.
    links: u32,
    steps: Vec<String>,
    /// Whether to write the steps down at all.
    explain: bool,
}

impl<'a> Walker<'a> {
    fn new(fs: &'a ModelFs) -> Walker<'a> {
        Walker {
            fs,
            links: 0,
            steps: Vec::new(),
            explain: true,
        }
    }

    fn quiet(fs: &'a ModelFs) -> Walker<'a> {
        Walker {
            explain: false,
            ..Walker::new(fs)
        }
    }

    /// Writes a step down, when explaining.
    fn note(&mut self, step: impl FnOnce(&Self) -> String) {
        if self.explain {
            let step = step(self);
            self.steps.push(step);
        }
    }

    fn finish(self, outcome: Result<Vec<u8>, NoTarget>) -> Resolution {
        Resolution {
            outcome,
            steps: self.steps,
            links: self.links,
        }
    }

    fn show(&self, path: &[u8]) -> String {
        super::show_in(self.fs.base(), path)
    }

    /// Counts one link expansion; the 41st fails (path_resolution(7),
    /// "Symlink expansion"; semantics.md section 2, last paragraph).
    fn count_link(&mut self, link: &[u8], target: &[u8]) -> Result<(), NoTarget> {
        self.links += 1;
        if self.links > MAX_LINKS {
            return Err(NoTarget::TooManyLinks {
                link: link.to_vec(),
            });
        }
        self.note(|w| format!("{} -> {} (link)", w.show(link), show(target)));
        Ok(())
    }

    /// path_resolution(7) steps 1–3: resolves `path` from the directory
    /// `start` (or from `/` when `path` is absolute), following every link,
    /// the last one included. Returns the physical path reached and whether
    /// it is a directory. An empty `path` is `start` itself.
    fn walk(&mut self, start: &[u8], path: &[u8]) -> Result<(Vec<u8>, NodeKind), NoTarget> {
        // Step 1: an absolute path starts at the root directory.
        let mut current = if path.first() == Some(&b'/') {
            b"/".to_vec()
        } else {
            start.to_vec()
        };
        // A trailing `/` forces the last component to be a directory.
        let trailing_slash = path.last() == Some(&b'/');
        let names: Vec<&[u8]> = path
            .split(|&b| b == b'/')
            .filter(|n| !n.is_empty())
            .collect();
        for (i, &name) in names.iter().enumerate() {
            let is_last = i + 1 == names.len();
            // `current` is always a directory here, so `.` and `..` are
            // plain look-ups; `..` is physical because `current` has no
            // link in it, and `..` of `/` is `/`.
            if name == b"." {
                continue;
            }
            if name == b".." {
                current = parent_of(&current).unwrap_or_else(|| b"/".to_vec());
                continue;
            }
            if name.len() > NAME_MAX {
                return Err(NoTarget::NameTooLong {
                    dir: current,
                    len: name.len(),
                });
            }
            let child = join(&current, name);
            match self.fs.lookup(&child)? {
                None => return Err(NoTarget::NotFound { path: child }),
                Some(NodeKind::Dir) => current = child,
                Some(NodeKind::File) => {
                    // Step 2: only the last component may be a non-directory,
                    // and not when a `/` follows it.
                    if is_last && !trailing_slash {
                        return Ok((child, NodeKind::File));
                    }
                    return Err(NoTarget::NotADirectory { path: child });
                }
                Some(NodeKind::Symlink(target)) => {
                    // Step 3: a link is followed, relative to the directory
                    // holding it; an empty link does not resolve.
                    self.count_link(&child, &target)?;
                    if target.is_empty() {
                        return Err(NoTarget::NotFound { path: child });
                    }
                    let (reached, kind) = self.walk(&current, &target)?;
                    if is_last && !trailing_slash {
                        return Ok((reached, kind));
                    }
                    if kind != NodeKind::Dir {
                        return Err(NoTarget::NotADirectory { path: reached });
                    }
                    current = reached;
                }
            }
        }
        Ok((current, NodeKind::Dir))
    }

    /// semantics.md section 2, `write`.
    fn write_target(&mut self, path: &[u8]) -> Result<Vec<u8>, NoTarget> {
        // semantics.md section 3: a write path that ends in `/` is `either`.
        if path.last() == Some(&b'/') {
            return Err(NoTarget::TrailingSlash);
        }
        let (parent, name) = split_last(path);
        if is_dot_or_dotdot(name) {
            // `d/.` and `d/..` name directories: EISDIR if they resolve.
            let (reached, _) = self.walk(b"/", path)?;
            return Err(NoTarget::ExistingDirectory { path: reached });
        }
        // The parent is resolved as for `read`; its trailing `/` makes it
        // a directory or an error.
        let (dir, _) = self.walk(b"/", parent)?;
        self.create_at(dir, name.to_vec())
    }

    /// The last component of a write: `name` in the physical directory `dir`.
    fn create_at(&mut self, mut dir: Vec<u8>, mut name: Vec<u8>) -> Result<Vec<u8>, NoTarget> {
        loop {
            if name.len() > NAME_MAX {
                return Err(NoTarget::NameTooLong {
                    dir,
                    len: name.len(),
                });
            }
            let child = join(&dir, &name);
            match self.fs.lookup(&child)? {
                None => {
                    self.note(|w| {
                        format!("{} does not exist; it would be created", w.show(&child))
                    });
                    return Ok(child);
                }
                Some(NodeKind::Dir) => return Err(NoTarget::ExistingDirectory { path: child }),
                Some(NodeKind::File) => {
                    self.note(|w| format!("{} exists", w.show(&child)));
                    return Ok(child);
                }
                Some(NodeKind::Symlink(target)) => {
                    // Followed even when it dangles; each expansion counts.
                    self.count_link(&child, &target)?;
                    if target.is_empty() {
                        return Err(NoTarget::NotFound { path: child });
                    }
                    let (target_parent, target_name) = split_last(&target);
                    if target_name.is_empty() || is_dot_or_dotdot(target_name) {
                        return Err(NoTarget::LinkNamesDirectory {
                            link: child,
                            target,
                        });
                    }
                    let (reached, _) = self.walk(&dir, target_parent)?;
                    dir = reached;
                    name = target_name.to_vec();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::oracle::Outside;
    use crate::Entry;

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
    fn fs(tree: &[Entry]) -> ModelFs {
        ModelFs::new(tree, Path::new("/b"), Outside::Absent).expect("valid tree")
    }
    fn read(fs: &ModelFs, path: &str) -> Result<String, NoTarget> {
        resolve_read(fs, path.as_bytes())
            .outcome
            .map(|p| String::from_utf8_lossy(&p).into_owned())
    }
    fn write(fs: &ModelFs, path: &str) -> Result<String, NoTarget> {
        resolve_write(fs, path.as_bytes())
            .outcome
            .map(|p| String::from_utf8_lossy(&p).into_owned())
    }
    fn v(s: &str) -> Vec<u8> {
        s.as_bytes().to_vec()
    }
    /// A chain of `n` links c1 -> c2 -> ... -> cn -> `end`.
    fn chain(n: usize, end: &str) -> Vec<Entry> {
        (1..=n)
            .map(|i| {
                if i == n {
                    link(&format!("c{i}"), end)
                } else {
                    link(&format!("c{i}"), &format!("c{}", i + 1))
                }
            })
            .collect()
    }

    #[test]
    fn precheck_rules() {
        let f = fs(&[]);
        assert_eq!(read(&f, ""), Err(NoTarget::NotAbsolute));
        assert_eq!(read(&f, "b"), Err(NoTarget::NotAbsolute));
        assert_eq!(write(&f, "b/x"), Err(NoTarget::NotAbsolute));
        assert_eq!(read(&f, "/b\0"), Err(NoTarget::NulByte));
        let long = format!("/b/{}", "./".repeat(2047));
        assert_eq!(long.len(), 4097);
        assert_eq!(read(&f, &long), Err(NoTarget::PathTooLong { len: 4097 }));
        assert_eq!(read(&f, &long[..4095]), Ok("/b".into()));
        assert!(read(&f, &format!("/b/{}", "./".repeat(2047))[..4096]).is_err());
    }

    #[test]
    fn name_max() {
        let f = fs(&[dir(&"n".repeat(255))]);
        assert_eq!(
            read(&f, &format!("/b/{}", "n".repeat(255))),
            Ok(format!("/b/{}", "n".repeat(255)))
        );
        assert_eq!(
            read(&f, &format!("/b/{}", "n".repeat(256))),
            Err(NoTarget::NameTooLong {
                dir: v("/b"),
                len: 256
            })
        );
        assert_eq!(
            write(&f, &format!("/b/{}", "n".repeat(256))),
            Err(NoTarget::NameTooLong {
                dir: v("/b"),
                len: 256
            })
        );
        // A long name is looked up, so even `long/..` fails.
        assert!(read(&f, &format!("/b/{}/..", "n".repeat(256))).is_err());
        // An earlier missing component fails first.
        assert_eq!(
            read(&f, &format!("/b/x/{}", "n".repeat(256))),
            Err(NoTarget::NotFound { path: v("/b/x") })
        );
    }

    #[test]
    fn read_plain_and_dots() {
        let f = fs(&[dir("d/e"), file("d/f")]);
        assert_eq!(read(&f, "/b/d/e"), Ok("/b/d/e".into()));
        assert_eq!(read(&f, "/b//d///e/"), Ok("/b/d/e".into()));
        assert_eq!(read(&f, "/b/d/./e/."), Ok("/b/d/e".into()));
        assert_eq!(read(&f, "/b/d/e/../f"), Ok("/b/d/f".into()));
        assert_eq!(read(&f, "/../../b/d"), Ok("/b/d".into()));
        assert_eq!(read(&f, "/"), Ok("/".into()));
        assert_eq!(read(&f, "/b/.."), Ok("/".into()));
        assert_eq!(
            read(&f, "/b/d/x"),
            Err(NoTarget::NotFound { path: v("/b/d/x") })
        );
        assert_eq!(
            read(&f, "/b/x/.."),
            Err(NoTarget::NotFound { path: v("/b/x") })
        );
    }

    #[test]
    fn enotdir() {
        let f = fs(&[file("f"), link("lf", "f")]);
        assert_eq!(read(&f, "/b/f"), Ok("/b/f".into()));
        for p in [
            "/b/f/", "/b/f/.", "/b/f/..", "/b/f/x", "/b/lf/", "/b/lf/..", "/b/lf/x",
        ] {
            assert!(
                matches!(read(&f, p), Err(NoTarget::NotADirectory { .. })),
                "{p}"
            );
        }
        assert!(matches!(
            write(&f, "/b/f/x"),
            Err(NoTarget::NotADirectory { .. })
        ));
        assert!(matches!(
            write(&f, "/b/lf/x"),
            Err(NoTarget::NotADirectory { .. })
        ));
    }

    #[test]
    fn links_relative_absolute_chained() {
        let f = fs(&[
            dir("p/q"),
            file("p/q/s"),
            link("rel", "p/q"),
            link("abs", "/b/p"),
            link("p/up", ".."),
            link("p/q/dd", "../../p/./q/s"),
            link("ch", "rel"),
            link("base", "{base}/p"),
            link("root", "/"),
        ]);
        assert_eq!(read(&f, "/b/rel/s"), Ok("/b/p/q/s".into()));
        assert_eq!(read(&f, "/b/abs/q"), Ok("/b/p/q".into()));
        assert_eq!(read(&f, "/b/p/up/p/up/rel"), Ok("/b/p/q".into()));
        assert_eq!(read(&f, "/b/p/q/dd"), Ok("/b/p/q/s".into()));
        assert_eq!(read(&f, "/b/ch/s"), Ok("/b/p/q/s".into()));
        assert_eq!(read(&f, "/b/base/q"), Ok("/b/p/q".into()));
        assert_eq!(read(&f, "/b/root/b/p"), Ok("/b/p".into()));
        assert_eq!(read(&f, "/b/root/.."), Ok("/".into()));
        // Physical `..`: rel/.. is p, not the base.
        assert_eq!(read(&f, "/b/rel/.."), Ok("/b/p".into()));
        assert_eq!(read(&f, "/b/ch/../.."), Ok("/b".into()));
    }

    #[test]
    fn forty_links_pass_the_forty_first_fails() {
        let mut tree = chain(40, "t");
        tree.push(dir("t"));
        let f = fs(&tree);
        assert_eq!(read(&f, "/b/c1"), Ok("/b/t".into()));
        assert_eq!(write(&f, "/b/c1/x"), Ok("/b/t/x".into()));
        let mut tree = chain(41, "t");
        tree.push(dir("t"));
        let f = fs(&tree);
        assert_eq!(
            read(&f, "/b/c1"),
            Err(NoTarget::TooManyLinks { link: v("/b/c41") })
        );
        assert_eq!(read(&f, "/b/c2"), Ok("/b/t".into()));
        // Links in the parent and in the last component share one count.
        let mut tree = chain(20, "t");
        tree.extend([dir("t"), link("t/x", "y")]);
        tree.extend((1..=20).map(|i| {
            link(
                &format!("t/y{}", if i == 1 { String::new() } else { i.to_string() }),
                &format!("y{}", i + 1),
            )
        }));
        let f = fs(&tree);
        // c1..c20 (20) + t/x (1) + y, y2..y20 (20) = 41 links.
        assert!(matches!(
            write(&f, "/b/c1/x"),
            Err(NoTarget::TooManyLinks { .. })
        ));
        // Without the chain in the parent, 21 links: fine; y21 dangles.
        assert_eq!(write(&f, "/b/t/x"), Ok("/b/t/y21".into()));
        assert!(matches!(read(&f, "/b/t/x"), Err(NoTarget::NotFound { .. })));
    }

    #[test]
    fn loops() {
        let f = fs(&[
            link("self", "self"),
            link("a", "b"),
            link("b", "a"),
            link("up", "."),
            link("sub/in", "../sub"),
        ]);
        for p in ["/b/self", "/b/a/x", "/b/b"] {
            assert!(
                matches!(read(&f, p), Err(NoTarget::TooManyLinks { .. })),
                "{p}"
            );
            assert!(
                matches!(write(&f, p), Err(NoTarget::TooManyLinks { .. })),
                "{p}"
            );
        }
        // Not loops: each link is expanded once per appearance.
        assert_eq!(read(&f, "/b/up/up/up"), Ok("/b".into()));
        assert_eq!(read(&f, "/b/sub/in/in/in"), Ok("/b/sub".into()));
        let deep = format!("/b{}", "/up".repeat(41));
        assert!(matches!(
            read(&f, &deep),
            Err(NoTarget::TooManyLinks { .. })
        ));
    }

    #[test]
    fn write_rules() {
        let f = fs(&[
            dir("d"),
            file("d/f"),
            link("dang", "d/new"),
            link("dang_abs", "/b/d/new2"),
            link("dang_deep", "missing/new"),
            link("to_dir", "d"),
            link("to_file", "d/f"),
            link("slash", "d/new/"),
            link("dot", "d/."),
            link("dotdot", "d/.."),
            link("again", "dang"),
            link("ld", "d"),
            link("outside", "/elsewhere/x"),
        ]);
        assert_eq!(write(&f, "/b/d/new"), Ok("/b/d/new".into()));
        assert_eq!(write(&f, "/b/d/f"), Ok("/b/d/f".into()));
        assert_eq!(write(&f, "/b/dang"), Ok("/b/d/new".into()));
        assert_eq!(write(&f, "/b/dang_abs"), Ok("/b/d/new2".into()));
        assert_eq!(write(&f, "/b/again"), Ok("/b/d/new".into()));
        assert_eq!(write(&f, "/b/to_file"), Ok("/b/d/f".into()));
        assert_eq!(write(&f, "/b/ld/new"), Ok("/b/d/new".into()));
        assert_eq!(write(&f, "/b/ld/../z"), Ok("/b/z".into()));
        assert_eq!(write(&f, "/b/d/new/"), Err(NoTarget::TrailingSlash));
        assert_eq!(write(&f, "/"), Err(NoTarget::TrailingSlash));
        assert_eq!(
            write(&f, "/b/d"),
            Err(NoTarget::ExistingDirectory { path: v("/b/d") })
        );
        assert_eq!(
            write(&f, "/b/to_dir"),
            Err(NoTarget::ExistingDirectory { path: v("/b/d") })
        );
        assert_eq!(
            write(&f, "/b/d/."),
            Err(NoTarget::ExistingDirectory { path: v("/b/d") })
        );
        assert_eq!(
            write(&f, "/b/d/.."),
            Err(NoTarget::ExistingDirectory { path: v("/b") })
        );
        assert_eq!(
            write(&f, "/b/x/.."),
            Err(NoTarget::NotFound { path: v("/b/x") })
        );
        for l in ["slash", "dot", "dotdot"] {
            assert!(
                matches!(
                    write(&f, &format!("/b/{l}")),
                    Err(NoTarget::LinkNamesDirectory { .. })
                ),
                "{l}"
            );
        }
        assert_eq!(
            write(&f, "/b/dang_deep"),
            Err(NoTarget::NotFound {
                path: v("/b/missing")
            })
        );
        assert_eq!(
            write(&f, "/b/outside"),
            Err(NoTarget::NotFound {
                path: v("/elsewhere")
            })
        );
        assert_eq!(
            write(&f, "/b/missing/x"),
            Err(NoTarget::NotFound {
                path: v("/b/missing")
            })
        );
        assert_eq!(
            read(&f, "/b/dang"),
            Err(NoTarget::NotFound {
                path: v("/b/d/new")
            })
        );
    }

    #[test]
    fn write_through_links_outside_the_base() {
        let f = fs(&[link("up", ".."), link("esc", "../x"), link("root", "/")]);
        assert_eq!(write(&f, "/b/up/new"), Ok("/new".into()));
        assert_eq!(write(&f, "/b/esc"), Ok("/x".into()));
        assert_eq!(write(&f, "/b/root/new"), Ok("/new".into()));
        assert_eq!(
            write(&f, "/b/root"),
            Err(NoTarget::LinkNamesDirectory {
                link: v("/b/root"),
                target: v("/")
            })
        );
    }

    #[test]
    fn steps_name_each_link() {
        let f = fs(&[
            dir("project"),
            file("project2/secret.txt"),
            link("project/back", "../project2"),
        ]);
        let r = resolve_read(&f, b"/b/project/back/secret.txt");
        assert_eq!(r.outcome, Ok(v("/b/project2/secret.txt")));
        assert_eq!(r.steps, ["{base}/project/back -> ../project2 (link)"]);
    }
}
