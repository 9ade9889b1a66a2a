//! Proptest strategies for hostile scenarios, strong for *classes* of
//! hostility rather than for particular cases.
//!
//! Every strategy generates a small *spec* that is rendered against the
//! tree at the end (a path piece says "the name of some entry", not which
//! one), so there is no `prop_flat_map` and shrinking removes entries,
//! pieces, roots and cases independently, ending in small trees.
//!
//! The classes:
//!
//! - names: a small pool, and *siblings* of it: a suffix or prefix from a
//!   hostile alphabet (digits, punctuation, whitespace, quotes, dots,
//!   invisible and look-alike characters), case variants, fullwidth forms,
//!   Cyrillic homoglyphs, NFC and NFD accents, names of 250–255 bytes;
//! - trees: dirs, files and links whose targets are relative, absolute,
//!   `{base}`-absolute, dangling, self-loops, links to other entries (so
//!   chains and loops form), to `/` and `/etc`, to siblings of entries, and
//!   climbing out of the base with `..`; optionally one chain of 1–5 or
//!   38–42 links, around Linux's limit of 40;
//! - paths: from the base, its parent, `/` or `/etc`, then entry paths,
//!   entry names, siblings of entry names, `.`, `..`, empty segments (`//`),
//!   names of 250–260 bytes; sometimes a NUL byte; a trailing `/`, `/.` or `/..`; padding
//!   with `./`, `/` or `name/..` near PATH_MAX; sometimes pieces joined by
//!   `\` or `%2F` instead of `/` (one name to the kernel);
//! - roots: `file:` URIs of entries in every valid form (empty authority,
//!   `localhost` in any case, `file:/path`, trailing slash, any byte
//!   percent-encoded in either hex case) and invalid ones (hosts, userinfo,
//!   ports, wrong scheme, backslashes, raw bytes that need escaping,
//!   double-encoding, `%2e%2e`, `%2F`, `%00`, bad escapes, query,
//!   fragment), plus `file:///` and arbitrary [`root_uri`]s.

use std::collections::BTreeSet;

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use proptest::sample::{select, Index};

use crate::{Case, Entry, Op, Scenario};

/// The names trees are made of. `café` has a precomposed `é`, so its NFD
/// sibling differs; `project` is the classic prefix victim.
pub const NAMES: &[&str] = &["a", "b", "project", "café", "data", "x"];

/// Characters that make a sibling name look like, or sort next to, another.
pub const HOSTILE_ALPHABET: &[&str] = &[
    "0", "1", "2", "9", "-", "_", ".", "..", "~", "!", "$", "'", "\"", "`", " ", "\t", "\u{a0}",
    "\u{200b}", "#", "%", "%2e", "@", ":", ",", ";", "=", "+", "(", ")", "\\", "*", "?",
    "\u{2024}", "\u{ff0e}", "\u{2215}", "\u{301}", "\n",
];

// ---------------------------------------------------------------- names

/// How a sibling name is formed from another name.
#[derive(Debug, Clone)]
enum Variant {
    Plain,
    Suffix(String),
    Prefix(String),
    Upper,
    Capitalized,
    Fullwidth,
    Homoglyph,
    /// Precomposed accent on the last letter (NFC).
    Nfc,
    /// The same accent as a combining mark (NFD).
    Nfd,
    /// Padded with the last letter to this many bytes.
    Long(usize),
}

fn hostile_affix() -> impl Strategy<Value = String> {
    vec(select(HOSTILE_ALPHABET), 1..=3).prop_map(|parts| parts.concat())
}

fn variant() -> impl Strategy<Value = Variant> {
    prop_oneof![
        10 => Just(Variant::Plain),
        4 => hostile_affix().prop_map(Variant::Suffix),
        1 => hostile_affix().prop_map(Variant::Prefix),
        1 => Just(Variant::Upper),
        1 => Just(Variant::Capitalized),
        1 => Just(Variant::Fullwidth),
        1 => Just(Variant::Homoglyph),
        1 => Just(Variant::Nfc),
        1 => Just(Variant::Nfd),
        1 => (250usize..=255).prop_map(Variant::Long),
    ]
}

impl Variant {
    /// The variant of `name`; never empty, `.`, `..`, and never holds `/`
    /// or NUL.
    fn apply(&self, name: &str) -> String {
        let out = match self {
            Variant::Plain => name.to_owned(),
            Variant::Suffix(s) => format!("{name}{s}"),
            Variant::Prefix(s) => format!("{s}{name}"),
            Variant::Upper => name.to_uppercase(),
            Variant::Capitalized => {
                let mut chars = name.chars();
                chars
                    .next()
                    .map(|c| c.to_uppercase().chain(chars).collect())
                    .unwrap_or_default()
            }
            Variant::Fullwidth => name
                .chars()
                .map(|c| {
                    if c.is_ascii_graphic() {
                        char::from_u32(c as u32 + 0xfee0).unwrap_or(c)
                    } else {
                        c
                    }
                })
                .collect(),
            Variant::Homoglyph => name
                .chars()
                .map(|c| match c {
                    'a' => 'а',
                    'c' => 'с',
                    'e' => 'е',
                    'o' => 'о',
                    'p' => 'р',
                    'x' => 'х',
                    other => other,
                })
                .collect(),
            Variant::Nfc => accent(name, false),
            Variant::Nfd => accent(name, true),
            Variant::Long(len) => {
                let mut out = name.to_owned();
                while out.len() < *len {
                    out.push('l');
                }
                out
            }
        };
        if out.is_empty()
            || out == "."
            || out == ".."
            || out.contains(['/', '\0'])
            || out.len() > 255
        {
            format!(
                "{}_",
                out.replace(['/', '\0'], "_")
                    .chars()
                    .take(200)
                    .collect::<String>()
            )
        } else {
            out
        }
    }
}

/// `name` with an acute accent on its last letter, precomposed or combining.
fn accent(name: &str, decomposed: bool) -> String {
    let base: String = name.replace('é', "e");
    let (stem, last) = match base.char_indices().last() {
        Some((i, c)) => (&base[..i], c),
        None => return name.to_owned(),
    };
    let precomposed = match last {
        'a' => 'á',
        'e' => 'é',
        'o' => 'ó',
        't' => 'ť',
        'x' => 'ẋ',
        _ => 'é',
    };
    if decomposed {
        let plain = if precomposed == 'é' && last != 'e' {
            format!("{last}e")
        } else {
            last.to_string()
        };
        let combining = if precomposed == 'ẋ' {
            '\u{307}'
        } else if precomposed == 'ť' {
            '\u{30c}'
        } else {
            '\u{301}'
        };
        format!("{stem}{plain}{combining}")
    } else if precomposed == 'é' && last != 'e' {
        format!("{stem}{last}é")
    } else {
        format!("{stem}{precomposed}")
    }
}

/// A name from the pool, or a hostile sibling of one.
#[derive(Debug, Clone)]
struct NameSpec {
    pool: Index,
    variant: Variant,
}

fn name_spec() -> impl Strategy<Value = NameSpec> {
    (any::<Index>(), variant()).prop_map(|(pool, variant)| NameSpec { pool, variant })
}

impl NameSpec {
    fn render(&self) -> String {
        self.variant.apply(NAMES[self.pool.index(NAMES.len())])
    }
}

/// A file name: one of [`NAMES`] or a hostile sibling of one.
///
/// # Examples
///
/// ```
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// use rootguard_proptests::strategies::name;
///
/// let mut runner = TestRunner::deterministic();
/// let n = name().new_tree(&mut runner).unwrap().current();
/// assert!(!n.is_empty() && !n.contains('/') && n.len() <= 255);
/// ```
pub fn name() -> impl Strategy<Value = String> {
    name_spec().prop_map(|spec| spec.render())
}

/// Hostile siblings of `name`: the same text with a suffix or prefix from
/// [`HOSTILE_ALPHABET`], in another case, fullwidth, with homoglyphs, with
/// an NFC or NFD accent, or padded long.
pub fn sibling_of(name: String) -> impl Strategy<Value = String> {
    variant().prop_map(move |v| v.apply(&name))
}

// ---------------------------------------------------------------- pieces

/// One `/`-separated piece of a path or link target.
#[derive(Debug, Clone)]
enum Piece {
    /// The whole relative path of some tree entry (`project/back`).
    EntryPath(Index),
    /// The relative path of some directory of the tree (`.` when none).
    DirPath(Index),
    /// One of the first three links of the tree's chain (an entry path when
    /// there is no chain), so that counts of 40 and 41 links are met.
    ChainHead(Index),
    /// The last name of some tree entry.
    EntryName(Index),
    /// A hostile sibling of the last name of some tree entry.
    EntrySibling(Index, Variant),
    /// A name from the pool or a sibling of one.
    Name(NameSpec),
    Dot,
    DotDot,
    /// An empty segment, which makes `//`.
    Empty,
    /// A name of this many bytes (over 255 fails with ENAMETOOLONG).
    Long(usize),
}

fn piece() -> impl Strategy<Value = Piece> {
    prop_oneof![
        4 => any::<Index>().prop_map(Piece::EntryPath),
        2 => any::<Index>().prop_map(Piece::DirPath),
        1 => any::<Index>().prop_map(Piece::ChainHead),
        3 => any::<Index>().prop_map(Piece::EntryName),
        3 => (any::<Index>(), variant()).prop_map(|(i, v)| Piece::EntrySibling(i, v)),
        2 => name_spec().prop_map(Piece::Name),
        1 => Just(Piece::Dot),
        3 => Just(Piece::DotDot),
        1 => Just(Piece::Empty),
        1 => prop_oneof![Just(255usize), Just(256usize), 250usize..=260].prop_map(Piece::Long),
    ]
}

/// Mostly an entry's path, alone or with one more piece, so that paths
/// mostly name things that exist; sometimes up to six pieces of any kind.
fn pieces() -> impl Strategy<Value = Vec<Piece>> {
    let entry = any::<Index>().prop_map(Piece::EntryPath);
    let dir = any::<Index>().prop_map(Piece::DirPath);
    prop_oneof![
        3 => entry.prop_map(|e| vec![e]),
        3 => (dir, piece()).prop_map(|(d, p)| vec![d, p]),
        2 => vec(piece(), 0..=6),
    ]
}

/// What the rendering of pieces may draw on: the tree's entry paths and
/// its directories (explicit or implied).
struct TreeNames<'a> {
    paths: &'a [String],
    dirs: &'a [String],
    chain_heads: &'a [String],
}

impl TreeNames<'_> {
    fn dir(&self, index: &Index) -> String {
        if self.dirs.is_empty() {
            return ".".to_owned();
        }
        self.dirs[index.index(self.dirs.len())].clone()
    }

    fn path(&self, index: &Index) -> String {
        if self.paths.is_empty() {
            return NAMES[index.index(NAMES.len())].to_owned();
        }
        self.paths[index.index(self.paths.len())].clone()
    }

    fn name(&self, index: &Index) -> String {
        let path = self.path(index);
        path.rsplit('/').next().unwrap_or(&path).to_owned()
    }

    fn render(&self, piece: &Piece) -> String {
        match piece {
            Piece::EntryPath(i) => self.path(i),
            Piece::DirPath(i) => self.dir(i),
            Piece::ChainHead(i) if !self.chain_heads.is_empty() => {
                self.chain_heads[i.index(self.chain_heads.len())].clone()
            }
            Piece::ChainHead(i) => self.path(i),
            Piece::EntryName(i) => self.name(i),
            Piece::EntrySibling(i, v) => v.apply(&self.name(i)),
            Piece::Name(spec) => spec.render(),
            Piece::Dot => ".".to_owned(),
            Piece::DotDot => "..".to_owned(),
            Piece::Empty => String::new(),
            Piece::Long(len) => "n".repeat(*len),
        }
    }

    /// The pieces joined by `/`.
    fn join(&self, pieces: &[Piece]) -> String {
        pieces
            .iter()
            .map(|p| self.render(p))
            .collect::<Vec<_>>()
            .join("/")
    }
}

// ---------------------------------------------------------------- trees

/// Where a link points.
#[derive(Debug, Clone)]
enum Target {
    /// Relative pieces, with or without a trailing `/`.
    Relative(Vec<Piece>, bool),
    /// `{base}/` and pieces.
    BaseAbsolute(Vec<Piece>),
    /// An absolute path on the host.
    Host(&'static str),
    /// The link's own name: a loop.
    SelfLoop,
    /// Another entry, relative (`../..` up to the base, then its path) or
    /// `{base}`-absolute; forms chains and loops.
    Entry(Index, bool),
    /// `..` this many times from the link's directory, then a piece:
    /// out of the base into its siblings and beyond.
    Climb(usize, Piece),
}

fn target() -> impl Strategy<Value = Target> {
    prop_oneof![
        4 => (vec(piece(), 1..=3), any::<bool>()).prop_map(|(p, slash)| Target::Relative(p, slash)),
        2 => vec(piece(), 0..=3).prop_map(Target::BaseAbsolute),
        2 => select(&["/", "/etc", "/etc/passwd", "/etc/", "/nonexistent-rootguard/x", "/.."][..]).prop_map(Target::Host),
        1 => Just(Target::SelfLoop),
        4 => (any::<Index>(), any::<bool>()).prop_map(|(i, abs)| Target::Entry(i, abs)),
        2 => (1usize..=4, piece()).prop_map(|(n, p)| Target::Climb(n, p)),
    ]
}

#[derive(Debug, Clone)]
enum Kind {
    Dir,
    File,
    Link(Target),
}

#[derive(Debug, Clone)]
struct EntrySpec {
    /// Which directory made so far (the base first) holds the entry.
    parent: Index,
    name: NameSpec,
    kind: Kind,
}

fn entry_spec() -> impl Strategy<Value = EntrySpec> {
    let kind = prop_oneof![
        4 => Just(Kind::Dir),
        3 => Just(Kind::File),
        4 => target().prop_map(Kind::Link),
    ];
    (any::<Index>(), name_spec(), kind).prop_map(|(parent, name, kind)| EntrySpec {
        parent,
        name,
        kind,
    })
}

/// A chain `k1 -> k2 -> ... -> kN -> target` at the top of the base.
#[derive(Debug, Clone)]
struct ChainSpec {
    len: usize,
    end: Target,
}

fn chain_spec() -> impl Strategy<Value = ChainSpec> {
    // The end mostly exists, so that only the link count decides.
    let end = prop_oneof![
        3 => (any::<Index>(), any::<bool>()).prop_map(|(i, abs)| Target::Entry(i, abs)),
        1 => Just(Target::Host("/")),
        1 => target(),
    ];
    let len = prop_oneof![2 => 1usize..=5, 1 => 38usize..=42, 2 => 39usize..=41];
    (len, end).prop_map(|(len, end)| ChainSpec { len, end })
}

#[derive(Debug, Clone)]
struct TreeSpec {
    entries: Vec<EntrySpec>,
    chain: Option<ChainSpec>,
}

fn tree_spec() -> impl Strategy<Value = TreeSpec> {
    (
        vec(entry_spec(), 1..=8),
        option::weighted(0.2, chain_spec()),
    )
        .prop_map(|(entries, chain)| TreeSpec { entries, chain })
}

impl TreeSpec {
    /// A valid tree: each entry goes in a directory made before it, a path
    /// taken twice is skipped, and links are rendered once every path is
    /// known so that they can point at later entries.
    fn render(&self) -> Vec<Entry> {
        let mut dirs = vec![String::new()];
        let mut used = BTreeSet::new();
        let mut placed: Vec<(String, &Kind)> = Vec::new();
        for spec in &self.entries {
            let parent = &dirs[spec.parent.index(dirs.len())];
            let path = if parent.is_empty() {
                spec.name.render()
            } else {
                format!("{parent}/{}", spec.name.render())
            };
            if !used.insert(path.clone()) {
                continue;
            }
            if matches!(spec.kind, Kind::Dir) {
                dirs.push(path.clone());
            }
            placed.push((path, &spec.kind));
        }
        let chain_names: Vec<String> = match &self.chain {
            Some(chain) => (1..=chain.len)
                .map(|i| format!("k{i}"))
                .filter(|n| !used.contains(n))
                .collect(),
            None => Vec::new(),
        };
        let placed_paths: Vec<String> = placed.iter().map(|(p, _)| p.clone()).collect();
        let mut paths = placed_paths.clone();
        paths.extend(chain_names.iter().cloned());
        let names = TreeNames {
            paths: &paths,
            dirs: &dirs[1..],
            chain_heads: &[],
        };
        let mut tree: Vec<Entry> = placed
            .iter()
            .map(|(path, kind)| match kind {
                Kind::Dir => Entry::Dir { path: path.clone() },
                Kind::File => Entry::File {
                    path: path.clone(),
                    content: None,
                },
                Kind::Link(target) => Entry::Symlink {
                    path: path.clone(),
                    target: render_target(target, path, &names),
                },
            })
            .collect();
        if let Some(chain) = &self.chain {
            for (i, link) in chain_names.iter().enumerate() {
                let target = match chain_names.get(i + 1) {
                    Some(next) => next.clone(),
                    // The end points off the chain, else it would mostly loop.
                    None => render_target(
                        &chain.end,
                        link,
                        &TreeNames {
                            paths: &placed_paths,
                            ..names
                        },
                    ),
                };
                tree.push(Entry::Symlink {
                    path: link.clone(),
                    target,
                });
            }
        }
        tree
    }
}

fn render_target(target: &Target, link: &str, names: &TreeNames<'_>) -> String {
    let depth = link.matches('/').count();
    let up = "../".repeat(depth);
    let text = match target {
        Target::Relative(pieces, slash) => {
            let joined = names.join(pieces);
            if *slash {
                format!("{joined}/")
            } else {
                joined
            }
        }
        Target::BaseAbsolute(pieces) => format!("{{base}}/{}", names.join(pieces)),
        Target::Host(path) => (*path).to_owned(),
        Target::SelfLoop => link.rsplit('/').next().unwrap_or(link).to_owned(),
        Target::Entry(i, true) => format!("{{base}}/{}", names.path(i)),
        Target::Entry(i, false) => format!("{up}{}", names.path(i)),
        Target::Climb(n, piece) => format!("{}{}", "../".repeat(*n), names.render(piece)),
    };
    // An empty target cannot be stored; `.` is its closest kin.
    if text.is_empty() {
        ".".to_owned()
    } else {
        text
    }
}

/// Every directory of a tree, explicit or implied by a deeper entry.
fn directories(tree: &[Entry]) -> Vec<String> {
    let mut dirs = BTreeSet::new();
    for entry in tree {
        if let Entry::Dir { path } = entry {
            dirs.insert(path.clone());
        }
        let path = entry.path();
        for (i, _) in path.match_indices('/') {
            dirs.insert(path[..i].to_owned());
        }
    }
    dirs.into_iter().collect()
}

/// A small hostile tree (1 to 8 entries and one optional chain of links);
/// always valid by the format's rules.
pub fn tree() -> impl Strategy<Value = Vec<Entry>> {
    tree_spec().prop_map(|spec| spec.render())
}

// ---------------------------------------------------------------- paths

#[derive(Debug, Clone)]
enum Start {
    Base,
    BaseParent,
    Root,
    Etc,
    /// `/` then the base, so the path starts with `//`.
    DoubleSlashBase,
}

#[derive(Debug, Clone)]
enum Trailing {
    None,
    Slash,
    SlashDot,
    SlashDotDot,
}

#[derive(Debug, Clone)]
enum PadUnit {
    DotSlash,
    Slash,
    NameDotDot(Index),
}

/// What joins a path's pieces. On Linux `\` and `%2F` are bytes of a
/// name like any other; a checker that reads them as separators (Windows
/// habits, a URL decoder run on a path) walks a different path from the
/// kernel's: `{base}\project\new.txt` names a file beside the base,
/// and `{base}/x%2F..%2Fproject` one in the base.
#[derive(Debug, Clone, Copy)]
enum Separator {
    Slash,
    /// `\` between pieces, the first still after `/`.
    Backslash,
    /// `\` before the first piece too, so the start's last name and the
    /// pieces are one name.
    BackslashFromStart,
    /// `%2F` between pieces, the first still after `/`.
    EncodedSlash,
}

impl Separator {
    /// The separator before piece number `i`.
    fn before(self, i: usize) -> &'static str {
        match (self, i) {
            (Separator::Slash, _) | (Separator::Backslash | Separator::EncodedSlash, 0) => "/",
            (Separator::Backslash | Separator::BackslashFromStart, _) => "\\",
            (Separator::EncodedSlash, _) => "%2F",
        }
    }
}

#[derive(Debug, Clone)]
struct PathSpec {
    start: Start,
    pad: Option<(PadUnit, usize)>,
    pieces: Vec<Piece>,
    separator: Separator,
    trailing: Trailing,
    /// Where to put a NUL byte, if anywhere.
    nul: Option<Index>,
}

fn path_spec() -> impl Strategy<Value = PathSpec> {
    let start = prop_oneof![
        12 => Just(Start::Base),
        1 => Just(Start::BaseParent),
        1 => Just(Start::Root),
        1 => Just(Start::Etc),
        1 => Just(Start::DoubleSlashBase),
    ];
    let pad_unit = prop_oneof![
        Just(PadUnit::DotSlash),
        Just(PadUnit::Slash),
        any::<Index>().prop_map(PadUnit::NameDotDot),
    ];
    // Counts near where a typical base crosses PATH_MAX, and some smaller.
    let pad_count = prop_oneof![
        1usize..=64,
        1000usize..=1400,
        2010usize..=2070,
        4030usize..=4090
    ];
    let trailing = prop_oneof![
        12 => Just(Trailing::None),
        2 => Just(Trailing::Slash),
        1 => Just(Trailing::SlashDot),
        1 => Just(Trailing::SlashDotDot),
    ];
    let nul = option::weighted(0.03, any::<Index>());
    let separator = prop_oneof![
        24 => Just(Separator::Slash),
        1 => Just(Separator::Backslash),
        1 => Just(Separator::BackslashFromStart),
        1 => Just(Separator::EncodedSlash),
    ];
    (
        start,
        option::weighted(0.05, (pad_unit, pad_count)),
        pieces(),
        separator,
        trailing,
        nul,
    )
        .prop_map(|(start, pad, pieces, separator, trailing, nul)| PathSpec {
            start,
            pad,
            pieces,
            separator,
            trailing,
            nul,
        })
}

impl PathSpec {
    fn render(&self, names: &TreeNames<'_>) -> String {
        let mut out = match self.start {
            Start::Base => "{base}".to_owned(),
            Start::BaseParent => "{base}/..".to_owned(),
            Start::Root => String::new(),
            Start::Etc => "/etc".to_owned(),
            Start::DoubleSlashBase => "/{base}".to_owned(),
        };
        let start_len = out.len().max(1);
        if let Some((unit, count)) = &self.pad {
            let unit = match unit {
                PadUnit::DotSlash => "/.".to_owned(),
                PadUnit::Slash => "/".to_owned(),
                PadUnit::NameDotDot(i) => format!("/{}/..", names.name(i)),
            };
            let reps = (*count).min(4096 / unit.len().max(1) + 1);
            out.push_str(&unit.repeat(reps));
        }
        for (i, piece) in self.pieces.iter().enumerate() {
            // A path must start with `/` (the scenario format's rule).
            out.push_str(if out.is_empty() {
                "/"
            } else {
                self.separator.before(i)
            });
            out.push_str(&names.render(piece));
        }
        match self.trailing {
            Trailing::None => {}
            Trailing::Slash => out.push('/'),
            Trailing::SlashDot => out.push_str("/."),
            Trailing::SlashDotDot => out.push_str("/.."),
        }
        if out.is_empty() {
            out.push('/');
        }
        if let Some(at) = &self.nul {
            // After the start, so that `{base}` and the leading `/` stay whole.
            let mut at = start_len + at.index(out.len() - start_len + 1);
            while !out.is_char_boundary(at) {
                at -= 1;
            }
            out.insert(at, '\0');
        }
        out
    }
}

// ---------------------------------------------------------------- roots

/// The scheme and authority of a root built around a tree path.
#[derive(Debug, Clone)]
enum Form {
    Empty,
    Localhost(&'static str),
    Short(&'static str),
    /// `file:///` then the path, whose own `/` makes an empty first segment.
    FourSlashes,
    Host(&'static str),
    Userinfo,
    Port(&'static str),
    WrongScheme(&'static str),
    /// Every `/` written as `\`.
    Backslashes,
}

/// How each byte of the path (after `{base}`) is written, in turn.
#[derive(Debug, Clone, Copy)]
enum Escape {
    /// As is when RFC 3986 allows it, else percent-encoded.
    Needed,
    /// As is even when RFC 3986 forbids it (makes the URI invalid).
    Raw,
    Lower,
    Upper,
    /// `%25` and the hex: a literal `%HH` in the decoded name.
    Double,
}

#[derive(Debug, Clone)]
enum RootPath {
    Base,
    Pieces(Vec<Piece>),
}

#[derive(Debug, Clone)]
enum RootSpec {
    Tree {
        form: Form,
        path: RootPath,
        escapes: Vec<Escape>,
        suffix: &'static str,
    },
    Fixed(&'static str),
    Arbitrary(String),
}

/// Suffixes appended to a root URI: trailing slashes and dots, encoded
/// dot segments in every case, bad escapes, `%2F`, `%00`, query, fragment,
/// backslashes. Shared with the fuzz inputs.
pub const ROOT_SUFFIXES: &[&str] = &[
    "/",
    "/.",
    "/..",
    "//",
    "?",
    "?x=1",
    "#",
    "#f",
    "%",
    "%2",
    "%zz",
    "%2F..",
    "/%2e%2e",
    "/%2E%2e",
    "/%2e",
    "/.%2e",
    "/%252e%252e",
    "%00",
    "/%2e%2e/%2e%2e",
    "\\..",
    "//..",
    "/%2e%2e%2F",
];

fn root_spec() -> impl Strategy<Value = RootSpec> {
    let form = prop_oneof![
        16 => Just(Form::Empty),
        3 => select(&["localhost", "LOCALHOST", "LocalHost"][..]).prop_map(Form::Localhost),
        3 => select(&["file:", "FILE:", "File:"][..]).prop_map(Form::Short),
        1 => Just(Form::FourSlashes),
        1 => select(&["evil", "127.0.0.1", "localhost.", "[::1]", "%6cocalhost", "xn--lcalhost", "localhost%00"][..])
            .prop_map(Form::Host),
        1 => Just(Form::Userinfo),
        1 => select(&["localhost:80", "localhost:", ":0"][..]).prop_map(Form::Port),
        1 => select(&["http", "fil", "files", "file ", "urn"][..]).prop_map(Form::WrongScheme),
        1 => Just(Form::Backslashes),
    ];
    let escape = prop_oneof![
        6 => Just(Escape::Needed),
        1 => Just(Escape::Raw),
        2 => Just(Escape::Lower),
        2 => Just(Escape::Upper),
        1 => Just(Escape::Double),
    ];
    let path = prop_oneof![
        3 => Just(RootPath::Base),
        5 => any::<Index>().prop_map(|i| RootPath::Pieces(vec![Piece::DirPath(i)])),
        3 => any::<Index>().prop_map(|i| RootPath::Pieces(vec![Piece::EntryPath(i)])),
        2 => pieces().prop_map(RootPath::Pieces),
    ];
    let escapes = prop_oneof![3 => Just(Vec::new()), 1 => vec(escape, 1..=4)];
    let suffix = prop_oneof![8 => Just(""), 2 => Just("/"), 3 => select(ROOT_SUFFIXES)];
    prop_oneof![
        10 => (form, path, escapes, suffix)
            .prop_map(|(form, path, escapes, suffix)| RootSpec::Tree { form, path, escapes, suffix }),
        1 => select(&["file:///", "file://localhost/", "file:/", "file:///etc", "file:///tmp/.."][..]).prop_map(RootSpec::Fixed),
        1 => root_uri().prop_map(RootSpec::Arbitrary),
    ]
}

/// RFC 3986 `pchar` other than `%` (which always starts an escape here).
fn allowed_raw(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@".contains(&b)
}

/// `file://` and an absolute path, escaping only what must be escaped:
/// every byte but a `pchar` (less `%`) and `/`, so that the URI is valid
/// and names the path whatever its bytes.
///
/// ```
/// use rootguard_proptests::strategies::file_uri;
/// assert_eq!(file_uri(b"/x/a b/caf\xc3\xa9'"), "file:///x/a%20b/caf%C3%A9'");
/// ```
pub fn file_uri(path: &[u8]) -> String {
    let mut uri = String::with_capacity(path.len() + 7);
    uri.push_str("file://");
    for &b in path {
        if b == b'/' || allowed_raw(b) {
            uri.push(char::from(b));
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri
}

fn escape_path(path: &str, escapes: &[Escape]) -> String {
    let mut out: Vec<u8> = Vec::new();
    let mut turn = 0;
    for &b in path.as_bytes() {
        if b == b'/' {
            out.push(b'/');
            continue;
        }
        let escape = if escapes.is_empty() {
            Escape::Needed
        } else {
            escapes[turn % escapes.len()]
        };
        turn += 1;
        match escape {
            Escape::Needed if allowed_raw(b) => out.push(b),
            Escape::Raw => out.push(b),
            Escape::Needed | Escape::Upper => out.extend(format!("%{b:02X}").bytes()),
            Escape::Lower => out.extend(format!("%{b:02x}").bytes()),
            Escape::Double => out.extend(format!("%25{b:02X}").bytes()),
        }
    }
    // A character split between raw and escaped bytes becomes U+FFFD, which
    // is just as invalid raw.
    String::from_utf8_lossy(&out).into_owned()
}

impl RootSpec {
    fn render(&self, names: &TreeNames<'_>) -> String {
        let (form, path, escapes, suffix) = match self {
            RootSpec::Tree {
                form,
                path,
                escapes,
                suffix,
            } => (form, path, escapes, suffix),
            RootSpec::Fixed(uri) => return (*uri).to_owned(),
            RootSpec::Arbitrary(uri) => return uri.clone(),
        };
        let rel = match path {
            RootPath::Base => String::new(),
            RootPath::Pieces(pieces) => format!("/{}", names.join(pieces)),
        };
        let tail = format!("{{base}}{}{suffix}", escape_path(&rel, escapes));
        match form {
            Form::Empty => format!("file://{tail}"),
            Form::Localhost(host) => format!("file://{host}{tail}"),
            Form::Short(scheme) => format!("{scheme}{tail}"),
            Form::FourSlashes => format!("file:///{tail}"),
            Form::Host(host) => format!("file://{host}{tail}"),
            Form::Userinfo => format!("file://user@localhost{tail}"),
            Form::Port(port) => format!("file://{port}{tail}"),
            Form::WrongScheme(scheme) => format!("{scheme}://{tail}"),
            Form::Backslashes => format!("file:{}", tail.replace('/', "\\")),
        }
    }
}

/// Arbitrary hostile root URI strings, with no `{base}`: schemes in any
/// case and misspelt, authorities (empty, `localhost`, hosts, userinfo,
/// ports, IPv6), `:`, `:/`, `://`, `:\\` separators, segments that are dot
/// segments plain or percent-encoded (`%2e%2e`, `%2E%2e`, double-encoded
/// `%252e`), encoded separators and terminators (`%2F`, `%5C`, `%00`), bad
/// escapes, raw bytes that need escaping, non-UTF-8 escapes; then a query
/// or fragment; and sometimes any string at all.
///
/// # Examples
///
/// ```
/// use proptest::prelude::*;
/// use rootguard_proptests::oracle::parse_root_uri;
/// use rootguard_proptests::strategies::root_uri;
///
/// proptest!(ProptestConfig::with_cases(64), |(uri in root_uri())| {
///     let _ = parse_root_uri(&uri); // never panics
/// });
/// ```
pub fn root_uri() -> BoxedStrategy<String> {
    let scheme = prop_oneof![
        8 => Just("file"),
        2 => select(&["FILE", "File", "fIlE"][..]),
        2 => select(&["http", "fil", "files", "", " file", "file ", "file+x"][..]),
    ];
    let authority = prop_oneof![
        6 => Just(""),
        2 => select(&["localhost", "LOCALHOST", "LocalHost"][..]),
        2 => select(
            &["localhost.", "127.0.0.1", "evil", "u@localhost", "@", "localhost:80", "localhost:", ":", "[::1]",
              "%6cocalhost", "local host"][..]
        ),
    ];
    let separator = prop_oneof![
        8 => authority.prop_map(|authority| format!("://{authority}")),
        3 => Just(":".to_owned()),
        1 => select(&[":\\\\", "//", ":/\\"][..]).prop_map(str::to_owned),
    ];
    let segment = prop_oneof![
        8 => select(
            &["a", "b", "project", "tmp", "etc", ".", "..", "...", "%2e", "%2E", "%2e%2e", "%2E%2e", ".%2e",
              "%252e%252e", "%5C", "%C3%A9", "%ff", "%FF%FE", "%20", "~", "@", ":", "", "a;b=c", "!$&'()*+,",
              "%61", "%7E", "%3F", "%23"][..]
        ),
        2 => select(
            &["%2F", "%2f", "a%2Fb", "..%2F", "%00", "a%00", "\\", "%", "%4", "%zz", "%%", "é", " ", "a?b",
              "a#b", "{x}", "\"", "\u{0}", "%2e%2e%2f", "|", "^", "`", "<>"][..]
        ),
    ];
    let suffix = prop_oneof![6 => Just(""), 2 => Just("/"), 1 => select(&["?", "?q", "#", "#f", "?#", "%", "/.."][..])];
    let structured = (scheme, separator, vec(segment, 0..=5), suffix).prop_map(
        |(scheme, sep, segments, suffix)| {
            // Without a leading `/` the short form `file:` is not absolute.
            let path: String = segments.iter().map(|s| format!("/{s}")).collect();
            format!("{scheme}{sep}{path}{suffix}")
        },
    );
    prop_oneof![
        12 => structured,
        1 => any::<String>(),
        1 => "[ -~]{0,30}",
        1 => "[fF][iI][lL][eE]:[-a-zA-Z0-9/%.:@?#\\\\ ~!$&'()*+,;=]{0,30}",
    ]
    .boxed()
}

// ---------------------------------------------------------------- scenarios

#[derive(Debug, Clone)]
struct CaseSpec {
    path: PathSpec,
    op: Op,
}

fn case_spec() -> impl Strategy<Value = CaseSpec> {
    (path_spec(), prop_oneof![Just(Op::Read), Just(Op::Write)])
        .prop_map(|(path, op)| CaseSpec { path, op })
}

/// A whole hostile scenario: a [`tree`], 0–3 roots (mostly `file:` URIs of
/// the tree's own paths in valid and invalid forms), and 1–6 cases without
/// `expect`, whose paths are made of the tree's names and hostile pieces.
/// It always passes [`Scenario::validate`].
///
/// # Examples
///
/// ```
/// use proptest::prelude::*;
/// use rootguard_proptests::strategies::scenario;
///
/// proptest!(ProptestConfig::with_cases(16), |(s in scenario())| {
///     prop_assert!(s.validate().is_ok());
/// });
/// ```
pub fn scenario() -> impl Strategy<Value = Scenario> {
    (
        tree_spec(),
        vec(root_spec(), 0..=3),
        vec(case_spec(), 1..=6),
    )
        .prop_map(|(tree, roots, cases)| {
            let tree = tree.render();
            let paths: Vec<String> = tree.iter().map(|e| e.path().to_owned()).collect();
            let dirs = directories(&tree);
            let chain_heads: Vec<String> = ["k1", "k2", "k3"]
                .iter()
                .filter(|k| paths.iter().any(|p| p == *k))
                .map(|k| (*k).to_owned())
                .collect();
            let names = TreeNames {
                paths: &paths,
                dirs: &dirs,
                chain_heads: &chain_heads,
            };
            Scenario {
                name: "generated".to_owned(),
                note: None,
                roots: roots.iter().map(|r| r.render(&names)).collect(),
                cases: cases
                    .iter()
                    .map(|c| Case {
                        path: c.path.render(&names),
                        op: c.op,
                        expect: None,
                    })
                    .collect(),
                tree,
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::parse_root_uri;

    #[test]
    fn variants_of_a_name() {
        assert_eq!(Variant::Suffix("2".into()).apply("project"), "project2");
        assert_eq!(Variant::Upper.apply("café"), "CAFÉ");
        assert_eq!(Variant::Capitalized.apply("project"), "Project");
        assert_eq!(Variant::Fullwidth.apply("ab"), "ａｂ");
        assert_eq!(
            Variant::Homoglyph.apply("project"),
            "\u{440}r\u{43e}j\u{435}\u{441}t"
        );
        assert_eq!(Variant::Nfc.apply("café"), "café");
        assert_eq!(Variant::Nfd.apply("café"), "cafe\u{301}");
        assert_ne!(Variant::Nfc.apply("a"), Variant::Nfd.apply("a"));
        assert_eq!(Variant::Long(255).apply("a").len(), 255);
    }

    #[test]
    fn separators_in_disguise() {
        let names = TreeNames {
            paths: &[],
            dirs: &[],
            chain_heads: &[],
        };
        let render = |start, separator| {
            PathSpec {
                start,
                pad: None,
                pieces: vec![Piece::Long(1), Piece::DotDot, Piece::Long(2)],
                separator,
                trailing: Trailing::None,
                nul: None,
            }
            .render(&names)
        };
        assert_eq!(render(Start::Base, Separator::Slash), "{base}/n/../nn");
        assert_eq!(render(Start::Base, Separator::Backslash), r"{base}/n\..\nn");
        assert_eq!(
            render(Start::Base, Separator::BackslashFromStart),
            r"{base}\n\..\nn"
        );
        assert_eq!(
            render(Start::Base, Separator::EncodedSlash),
            "{base}/n%2F..%2Fnn"
        );
        // Still absolute when the start is `/` itself.
        assert_eq!(
            render(Start::Root, Separator::BackslashFromStart),
            r"/n\..\nn"
        );
    }

    #[test]
    fn escaping() {
        assert_eq!(escape_path("/a b/é", &[]), "/a%20b/%C3%A9");
        assert_eq!(
            escape_path("/ab", &[Escape::Lower, Escape::Upper]),
            "/%61%62"
        );
        assert_eq!(escape_path("/a", &[Escape::Double]), "/%2561");
        assert_eq!(escape_path("/a é", &[Escape::Raw]), "/a é");
        let uri = format!("file:///tmp{}", escape_path("/a b/%2e/\\/\"x\"", &[]));
        assert!(parse_root_uri(&uri).is_ok(), "{uri}");
    }
}
