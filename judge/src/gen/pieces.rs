//! Pieces of paths, link targets and roots' paths, and the tree names
//! they are rendered against.

use std::collections::BTreeSet;

use arbitrary::Arbitrary;
use proptest::collection::vec;
use proptest::prelude::*;

use super::names::{NameSpec, Variant, NAMES};
use super::pick;
use crate::Entry;

/// At most this many pieces of a path, a link target or a root's path are
/// rendered, however long the input (small scenarios keep exec/s high).
pub const MAX_PIECES: usize = 6;

/// At most this many bytes of [`Piece::Bytes`] count.
const MAX_BYTES: usize = 24;

/// One `/`-separated piece of a path, a link target or a root's path. A
/// piece says "the name of some entry", not which one: it is rendered
/// against the tree at the end ([`TreeNames`]).
#[derive(Arbitrary, Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// The whole relative path of some tree entry (`project/back`).
    EntryPath(u8),
    /// The relative path of some directory of the tree (`.` when none).
    DirPath(u8),
    /// One of the first three links of the tree's chain (an entry path when
    /// there is no chain), so that counts of 40 and 41 links are met.
    ChainHead(u8),
    /// The last name of some tree entry.
    EntryName(u8),
    /// A hostile sibling of the last name of some tree entry.
    EntrySibling(u8, Variant),
    /// A name from the pool or a sibling of one.
    Name(NameSpec),
    /// `.`
    Dot,
    /// `..`
    DotDot,
    /// An empty segment, which makes `//`.
    Empty,
    /// `n` repeated `250 + len % 11` times (over 255 is ENAMETOOLONG).
    Long(u8),
    /// Raw bytes, non-UTF-8, `/` and NUL included (the first 24 count;
    /// lossy where the result is text).
    Bytes(Vec<u8>),
}

impl Piece {
    /// Weighted toward entries' paths and names, their siblings and `..`.
    pub fn strategy() -> impl Strategy<Value = Piece> {
        prop_oneof![
            4 => any::<u8>().prop_map(Piece::EntryPath),
            2 => any::<u8>().prop_map(Piece::DirPath),
            1 => any::<u8>().prop_map(Piece::ChainHead),
            3 => any::<u8>().prop_map(Piece::EntryName),
            3 => (any::<u8>(), Variant::strategy()).prop_map(|(i, v)| Piece::EntrySibling(i, v)),
            2 => NameSpec::strategy().prop_map(Piece::Name),
            1 => Just(Piece::Dot),
            3 => Just(Piece::DotDot),
            1 => Just(Piece::Empty),
            1 => prop_oneof![Just(5u8), Just(6u8), 0u8..=10].prop_map(Piece::Long),
            1 => vec(any::<u8>(), 0..=MAX_BYTES).prop_map(Piece::Bytes),
        ]
    }
}

/// Pieces of a query path or a root's path: mostly an entry's path, alone
/// or after a directory, so that paths mostly name things that exist;
/// sometimes up to six pieces of any kind.
pub fn pieces() -> impl Strategy<Value = Vec<Piece>> {
    let entry = any::<u8>().prop_map(Piece::EntryPath);
    let dir = any::<u8>().prop_map(Piece::DirPath);
    prop_oneof![
        3 => entry.prop_map(|e| vec![e]),
        3 => (dir, Piece::strategy()).prop_map(|(d, p)| vec![d, p]),
        2 => vec(Piece::strategy(), 0..=MAX_PIECES),
    ]
}

/// What pieces are rendered against: a tree's entry paths, its
/// directories, and the first links of its chain.
///
/// # Examples
///
/// More paths for a tree one already has (a live server's, say):
///
/// ```
/// use rootguard_judge::gen::{Piece, TreeNames};
/// use rootguard_judge::Entry;
///
/// let tree = [
///     Entry::Dir { path: "project".into() },
///     Entry::File { path: "project/a.txt".into(), content: None },
/// ];
/// let names = TreeNames::of(&tree);
/// assert_eq!(names.join(&[Piece::EntryPath(1), Piece::DotDot]), b"project/a.txt/..");
/// assert_eq!(names.render(&Piece::DirPath(0)), b"project");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TreeNames {
    paths: Vec<Vec<u8>>,
    dirs: Vec<Vec<u8>>,
    chain_heads: Vec<Vec<u8>>,
}

impl TreeNames {
    /// The names of `tree`: every entry's path, every directory (explicit or
    /// implied by a deeper entry), and the chain's first links `k1` to `k3`
    /// where they exist.
    pub fn of(tree: &[Entry]) -> TreeNames {
        let paths: Vec<Vec<u8>> = tree.iter().map(|e| e.path().as_bytes().to_vec()).collect();
        let chain_heads = [b"k1", b"k2", b"k3"]
            .iter()
            .filter(|k| paths.iter().any(|p| p == *k))
            .map(|k| k.to_vec())
            .collect();
        TreeNames {
            dirs: directories(tree),
            paths,
            chain_heads,
        }
    }

    /// Names of a tree being rendered: the paths placed so far and the
    /// directories made so far.
    pub(crate) fn placed(paths: Vec<Vec<u8>>, dirs: Vec<Vec<u8>>) -> TreeNames {
        TreeNames {
            paths,
            dirs,
            chain_heads: Vec::new(),
        }
    }

    /// Entry path `i` (modulo their number); a pool name when there is none.
    pub(crate) fn path(&self, i: u8) -> &[u8] {
        if self.paths.is_empty() {
            return pick::<&str>(NAMES, i).as_bytes();
        }
        pick(&self.paths, i).as_slice()
    }

    /// The last name of entry path `i`.
    pub(crate) fn name(&self, i: u8) -> &[u8] {
        let path = self.path(i);
        path.rsplit(|&b| b == b'/').next().unwrap_or(path)
    }

    fn dir(&self, i: u8) -> &[u8] {
        if self.dirs.is_empty() {
            return b".";
        }
        pick(&self.dirs, i).as_slice()
    }

    /// One piece, as bytes.
    pub fn render(&self, piece: &Piece) -> Vec<u8> {
        match piece {
            Piece::EntryPath(i) => self.path(*i).into(),
            Piece::DirPath(i) => self.dir(*i).into(),
            Piece::ChainHead(i) if !self.chain_heads.is_empty() => {
                pick(&self.chain_heads, *i).clone()
            }
            Piece::ChainHead(i) => self.path(*i).into(),
            Piece::EntryName(i) => self.name(*i).into(),
            Piece::EntrySibling(i, v) => v.apply(self.name(*i)),
            Piece::Name(spec) => spec.render(),
            Piece::Dot => b".".to_vec(),
            Piece::DotDot => b"..".to_vec(),
            Piece::Empty => Vec::new(),
            Piece::Long(len) => vec![b'n'; 250 + usize::from(*len) % 11],
            Piece::Bytes(bytes) => bytes.iter().copied().take(MAX_BYTES).collect(),
        }
    }

    /// The first [`MAX_PIECES`] pieces joined by `/`.
    pub fn join(&self, pieces: &[Piece]) -> Vec<u8> {
        let mut out = Vec::new();
        for (i, piece) in pieces.iter().take(MAX_PIECES).enumerate() {
            if i > 0 {
                out.push(b'/');
            }
            out.extend(self.render(piece));
        }
        out
    }
}

/// Every directory of a tree, explicit or implied by a deeper entry.
fn directories(tree: &[Entry]) -> Vec<Vec<u8>> {
    let mut dirs = BTreeSet::new();
    for entry in tree {
        if let Entry::Dir { path } = entry {
            dirs.insert(path.as_bytes().to_vec());
        }
        let path = entry.path().as_bytes();
        for (i, _) in path.iter().enumerate().filter(|(_, &b)| b == b'/') {
            dirs.insert(path[..i].to_vec());
        }
    }
    dirs.into_iter().collect()
}
