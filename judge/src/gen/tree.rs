//! Trees: dirs, files and links whose targets are relative, absolute,
//! `{base}`-absolute, dangling, self-loops, links to other entries (so
//! chains and loops form), to places on the host and to siblings of
//! entries, and climbing out of the base with `..`; optionally one chain
//! of 1–5 or 38–42 links, around Linux's limit of 40.

use std::collections::BTreeSet;

use arbitrary::Arbitrary;
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;

use super::names::NameSpec;
use super::pieces::{Piece, TreeNames};
use super::{pick, pool_index};
use crate::Entry;

/// At most this many tree entries are rendered from a spec, however long
/// the input: small scenarios keep exec/s high.
pub const MAX_ENTRIES: usize = 8;

/// Absolute link targets on the host, plainest first; read-only look-ups
/// reach them.
pub const HOST_TARGETS: &[&str] = &[
    "/",
    "/etc",
    "/etc/passwd",
    "/etc/",
    "/tmp",
    "/..",
    "//",
    "/nonexistent-rootguard/x",
    "/proc/self/root",
];

/// Where a link points.
#[derive(Arbitrary, Debug, Clone, PartialEq, Eq)]
pub enum TargetSpec {
    /// Relative pieces, with a trailing `/` when the flag is set.
    Relative(Vec<Piece>, bool),
    /// `{base}/` and pieces.
    BaseAbsolute(Vec<Piece>),
    /// One of [`HOST_TARGETS`].
    Host(u8),
    /// The link's own name: a loop.
    SelfLoop,
    /// Another entry, `{base}`-absolute when the flag is set, else
    /// relative (`../..` up to the base, then its path): forms chains and
    /// loops.
    Entry(u8, bool),
    /// `..` `1 + n % 4` times from the link's directory, then a piece: out
    /// of the base into its siblings and beyond.
    Climb(u8, Piece),
}

impl TargetSpec {
    /// Weighted toward relative pieces and other entries.
    pub fn strategy() -> impl Strategy<Value = TargetSpec> {
        prop_oneof![
            4 => (vec(Piece::strategy(), 1..=3), any::<bool>())
                .prop_map(|(p, slash)| TargetSpec::Relative(p, slash)),
            2 => vec(Piece::strategy(), 0..=3).prop_map(TargetSpec::BaseAbsolute),
            2 => pool_index(HOST_TARGETS).prop_map(TargetSpec::Host),
            1 => Just(TargetSpec::SelfLoop),
            4 => (any::<u8>(), any::<bool>()).prop_map(|(i, abs)| TargetSpec::Entry(i, abs)),
            2 => (0u8..=3, Piece::strategy()).prop_map(|(n, p)| TargetSpec::Climb(n, p)),
        ]
    }

    /// The target of the link at `link` (a path relative to the base).
    fn render(&self, link: &[u8], names: &TreeNames) -> Vec<u8> {
        let mut text = match self {
            TargetSpec::Relative(pieces, slash) => {
                let mut joined = names.join(pieces);
                if *slash {
                    joined.push(b'/');
                }
                joined
            }
            TargetSpec::BaseAbsolute(pieces) => [b"{base}/", &names.join(pieces)[..]].concat(),
            TargetSpec::Host(i) => pick(HOST_TARGETS, *i).as_bytes().to_vec(),
            TargetSpec::SelfLoop => link.rsplit(|&b| b == b'/').next().unwrap_or(link).to_vec(),
            TargetSpec::Entry(i, true) => [b"{base}/", names.path(*i)].concat(),
            TargetSpec::Entry(i, false) => {
                let depth = link.iter().filter(|&&b| b == b'/').count();
                ["../".repeat(depth).as_bytes(), names.path(*i)].concat()
            }
            TargetSpec::Climb(n, piece) => [
                "../".repeat(1 + usize::from(*n) % 4).as_bytes(),
                &names.render(piece),
            ]
            .concat(),
        };
        // The format refuses an empty target or a NUL; `.` is the closest kin.
        for b in &mut text {
            if *b == 0 {
                *b = b'_';
            }
        }
        if text.is_empty() {
            b".".to_vec()
        } else {
            text
        }
    }
}

/// What a tree entry is.
#[derive(Arbitrary, Debug, Clone, PartialEq, Eq)]
pub enum KindSpec {
    /// A directory.
    Dir,
    /// An empty file.
    File,
    /// A symlink.
    Link(TargetSpec),
}

/// One tree entry: a name in some directory made before it.
#[derive(Arbitrary, Debug, Clone, PartialEq, Eq)]
pub struct EntrySpec {
    /// Which directory made so far (the base first) holds it, modulo their
    /// number.
    pub parent: u8,
    /// Its name.
    pub name: NameSpec,
    /// What it is.
    pub kind: KindSpec,
}

impl EntrySpec {
    /// Directories, files and links about equally.
    pub fn strategy() -> impl Strategy<Value = EntrySpec> {
        let kind = prop_oneof![
            4 => Just(KindSpec::Dir),
            3 => Just(KindSpec::File),
            4 => TargetSpec::strategy().prop_map(KindSpec::Link),
        ];
        (any::<u8>(), NameSpec::strategy(), kind).prop_map(|(parent, name, kind)| EntrySpec {
            parent,
            name,
            kind,
        })
    }
}

/// A chain `k1 -> k2 -> ... -> kN -> end` at the top of the base.
#[derive(Arbitrary, Debug, Clone, PartialEq, Eq)]
pub struct ChainSpec {
    /// Below 128: `1 + len % 5` links; else `38 + len % 5`, around Linux's
    /// limit of 40.
    pub len: u8,
    /// Where the last link points.
    pub end: TargetSpec,
}

impl ChainSpec {
    /// Short chains and chains of 38 to 42 links, 39 to 41 most; the end
    /// mostly exists, so that only the link count decides.
    pub fn strategy() -> impl Strategy<Value = ChainSpec> {
        let end = prop_oneof![
            3 => (any::<u8>(), any::<bool>()).prop_map(|(i, abs)| TargetSpec::Entry(i, abs)),
            1 => Just(TargetSpec::Host(0)),
            1 => TargetSpec::strategy(),
        ];
        let len = prop_oneof![2 => 0u8..=4, 1 => 128u8..=132, 2 => 129u8..=131];
        (len, end).prop_map(|(len, end)| ChainSpec { len, end })
    }

    /// How many links the chain has.
    pub fn links(&self) -> usize {
        if self.len < 128 {
            1 + usize::from(self.len) % 5
        } else {
            38 + usize::from(self.len) % 5
        }
    }
}

/// A small hostile tree: entries and an optional chain of links.
#[derive(Arbitrary, Debug, Clone, PartialEq, Eq)]
pub struct TreeSpec {
    /// The entries (the first [`MAX_ENTRIES`] count).
    pub entries: Vec<EntrySpec>,
    /// An optional chain of links.
    pub chain: Option<ChainSpec>,
}

impl TreeSpec {
    /// One to eight entries, and a chain in one tree of five.
    pub fn strategy() -> impl Strategy<Value = TreeSpec> {
        (
            vec(EntrySpec::strategy(), 1..=MAX_ENTRIES),
            option::weighted(0.2, ChainSpec::strategy()),
        )
            .prop_map(|(entries, chain)| TreeSpec { entries, chain })
    }

    /// A valid tree by the format's rules: each entry goes in a directory
    /// made before it, a path taken twice is skipped, and links are
    /// rendered once every path is known, so that they can point at later
    /// entries.
    ///
    /// # Examples
    ///
    /// ```
    /// use rootguard_judge::gen::TreeSpec;
    /// use rootguard_judge::validate_tree;
    ///
    /// let tree = TreeSpec { entries: vec![], chain: None }.render();
    /// assert!(tree.is_empty() && validate_tree(&tree).is_ok());
    /// ```
    pub fn render(&self) -> Vec<Entry> {
        let mut dirs: Vec<Vec<u8>> = vec![Vec::new()];
        let mut used = BTreeSet::new();
        let mut placed: Vec<(Vec<u8>, &KindSpec)> = Vec::new();
        for spec in self.entries.iter().take(MAX_ENTRIES) {
            let parent = pick(&dirs, spec.parent);
            let name = spec.name.render_entry_name();
            let path = if parent.is_empty() {
                name
            } else {
                [&parent[..], b"/", &name].concat()
            };
            if !used.insert(path.clone()) {
                continue;
            }
            if matches!(spec.kind, KindSpec::Dir) {
                dirs.push(path.clone());
            }
            placed.push((path, &spec.kind));
        }
        let chain_names: Vec<Vec<u8>> = match &self.chain {
            Some(chain) => (1..=chain.links())
                .map(|i| format!("k{i}").into_bytes())
                .filter(|n| !used.contains(n))
                .collect(),
            None => Vec::new(),
        };
        let placed_paths: Vec<Vec<u8>> = placed.iter().map(|(p, _)| p.clone()).collect();
        let mut paths = placed_paths.clone();
        paths.extend(chain_names.iter().cloned());
        let names = TreeNames::placed(paths, dirs[1..].to_vec());
        let mut tree: Vec<Entry> = placed
            .iter()
            .map(|(path, kind)| match kind {
                KindSpec::Dir => Entry::Dir {
                    path: path.clone().into(),
                },
                KindSpec::File => Entry::File {
                    path: path.clone().into(),
                    content: None,
                },
                KindSpec::Link(target) => Entry::Symlink {
                    path: path.clone().into(),
                    target: target.render(path, &names).into(),
                },
            })
            .collect();
        if let Some(chain) = &self.chain {
            // The end points off the chain, else it would mostly loop.
            let off_chain = TreeNames::placed(placed_paths, dirs[1..].to_vec());
            for (i, link) in chain_names.iter().enumerate() {
                let target = match chain_names.get(i + 1) {
                    Some(next) => next.clone(),
                    None => chain.end.render(link, &off_chain),
                };
                tree.push(Entry::Symlink {
                    path: link.clone().into(),
                    target: target.into(),
                });
            }
        }
        tree
    }
}
