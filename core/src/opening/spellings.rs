//! Which pinned root a path is spelled beneath: each root's resolved
//! location and its URI's path, for the roots beneath which a landing
//! decides the verdict's root.

use std::os::unix::ffi::OsStrExt;

use crate::index::RootIndex;
use crate::root::Root;
use crate::root_id::RootId;
use crate::roots::Roots;
use crate::seam::Resolver;

/// The spellings of the roots that no other root lies beneath, looked up
/// as [`Roots`] looks up its roots.
#[derive(Clone, Debug, Default)]
pub(crate) struct Spellings {
    /// Each spelling's text; the ids it gives number `spelled`.
    index: RootIndex,
    spelled: Vec<Spelling>,
}

/// A root as a path may spell it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Spelling {
    /// The root's position among the accepted roots.
    pub(crate) position: usize,
    /// The spelling's length in bytes.
    len: usize,
    /// The root a verdict names for every target beneath this root.
    pub(crate) verdict_root: RootId,
}

impl Spellings {
    /// The spellings of `roots`: for each root that no other root lies
    /// beneath, its resolved location and, where it differs, its URI's
    /// path (a root reached through a link), the roots in order.
    pub(crate) fn new<R: Resolver>(roots: &Roots<R>) -> Spellings {
        let mut texts = Vec::new();
        let mut spelled = Vec::new();
        for (position, root) in roots.accepted.iter().enumerate() {
            let Some(verdict_root) = roots.root_of_targets_beneath(position) else {
                continue;
            };
            for text in spellings_of(root) {
                texts.push((text.to_vec(), RootId::new(spelled.len())));
                spelled.push(Spelling {
                    position,
                    len: text.len(),
                    verdict_root,
                });
            }
        }
        Spellings {
            index: RootIndex::new(texts),
            spelled,
        }
    }

    /// The root that the normal `path` is spelled beneath, and the rest of
    /// the path beneath it; `None` for a path that is not normal, spelled
    /// beneath none of these roots, or the spelling itself.
    pub(crate) fn find<'p>(&self, path: &'p [u8]) -> Option<(Spelling, &'p [u8])> {
        let spelling = self.spelled[self.index.find_if_normal(path)??.index()];
        // Past the `/` that follows the spelling; the root `/` has it.
        let rest = path.get(spelling.len + usize::from(spelling.len > 1)..)?;
        (!rest.is_empty()).then_some((spelling, rest))
    }
}

/// The texts a path may spell `root` by: its resolved location and, where
/// it differs, its URI's path.
fn spellings_of(root: &Root) -> impl Iterator<Item = &[u8]> {
    let resolved = root.resolved.as_os_str().as_bytes();
    let uri_path = root.path.as_os_str().as_bytes();
    std::iter::once(resolved).chain((uri_path != resolved).then_some(uri_path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memfs::MemFs;

    /// `(position, verdict root, rest)` of each path, or `None`.
    fn found(spellings: &Spellings, path: &str) -> Option<(usize, usize, String)> {
        let (spelling, rest) = spellings.find(path.as_bytes())?;
        let rest = String::from_utf8(rest.to_vec()).expect("UTF-8");
        Some((spelling.position, spelling.verdict_root.index(), rest))
    }

    fn tree() -> MemFs {
        let mut fs = MemFs::new();
        fs.add_dir("/b/real/sub")
            .add_symlink("/b/alias", "real")
            .add_dir("/b/outer/inner")
            .add_file("/b/file");
        fs
    }

    #[test]
    fn each_root_with_none_beneath_is_spelled_both_ways() {
        let uris = [
            "file://server/share",
            "file:///b/outer",
            "file:///b/alias",
            "file:///b/outer/inner",
            "file:///b/file",
            "file:///b/real",
        ];
        let spellings = Spellings::new(&Roots::with_fs(uris, tree()));
        let at = |path| found(&spellings, path);
        // The alias root (#2, at position 1) by its URI's path and by its
        // resolved location; root #5 shares that location and comes later.
        assert_eq!(at("/b/alias/sub/x"), Some((1, 2, "sub/x".into())));
        assert_eq!(at("/b/real/sub"), Some((1, 2, "sub".into())));
        assert_eq!(at("/b/real/x"), Some((1, 2, "x".into())));
        // The inner root, whose targets are inside the outer one first.
        assert_eq!(at("/b/outer/inner/x"), Some((2, 1, "x".into())));
        // The outer root has a root beneath it: not spelled.
        assert_eq!(at("/b/outer/x"), None);
        assert_eq!(at("/b/file/x"), Some((3, 4, "x".into())));
        // The spelling itself, a sibling, a path that is not normal.
        for path in [
            "/b/real",
            "/b/alias",
            "/b/realx/y",
            "/b/real/./x",
            "/b/real/x/",
            "b/real/x",
        ] {
            assert_eq!(at(path), None, "{path}");
        }
        assert_eq!(
            Spellings::new(&Roots::with_fs(["file://server/x"], tree())).spelled,
            []
        );
        // A root whose URI's path is its resolved location is spelled once.
        let once = Spellings::new(&Roots::with_fs(
            ["file:///b/real", "file:///b/alias"],
            tree(),
        ));
        assert_eq!(once.spelled.len(), 3);
    }

    #[test]
    fn the_root_slash_is_spelled_only_alone() {
        let alone = Spellings::new(&Roots::with_fs(["file:///", "file:///"], tree()));
        assert_eq!(found(&alone, "/b/x"), Some((0, 0, "b/x".into())));
        assert_eq!(found(&alone, "/x"), Some((0, 0, "x".into())));
        assert_eq!(found(&alone, "/"), None);
        let with_other = Spellings::new(&Roots::with_fs(["file:///", "file:///b/real"], tree()));
        assert_eq!(found(&with_other, "/b/real/x"), Some((1, 0, "x".into())));
        assert_eq!(found(&with_other, "/b/x"), None);
    }
}
