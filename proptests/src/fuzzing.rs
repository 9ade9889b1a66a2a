//! Structured fuzz inputs and the checks that the targets in `fuzz/` run
//! (feature `arbitrary`).
//!
//! Each fuzz target is one line of glue over this module, so that the
//! same check runs under libFuzzer, under `cargo test` (which replays
//! `fuzz/corpus/` and `fuzz/regressions/` through [`replay`]) and in any
//! other harness:
//!
//! | target          | input              | check                         |
//! |-----------------|--------------------|-------------------------------|
//! | `root_uri`      | `&str`             | [`check_root_uri`]            |
//! | `lexical`       | `&[u8]`            | [`check_lexical`]             |
//! | `lexical_roots` | [`LexicalInput`]   | [`check_lexical_roots`]       |
//! | `resolve_model` | [`ScenarioInput`]  | [`check_resolve_model`]       |
//! | `resolve_kernel`| [`ScenarioInput`]  | [`check_resolve_kernel`]      |
//! | `scenario_json` | `&[u8]`            | [`check_scenario_json`]       |
//!
//! A [`ScenarioInput`] is either a small *spec* (tree entries drawn from a
//! small name pool plus hostile pieces, link targets, roots in valid and
//! invalid forms, queries) rendered by [`ScenarioSpec::to_scenario`], or,
//! when the bytes are a scenario document (`{"version": 1, ...}`), that
//! document: so the bundled scenario files are seeds as they are. Its
//! `Debug` is the scenario as JSON, a ready reproducer for
//! `rootguard oracle FILE.json` and for the target itself.
//!
//! A check panics, with the reproducer and both answers, when core and
//! its judge disagree; that panic is what libFuzzer reports as a crash.
//!
//! # Examples
//!
//! ```
//! use arbitrary::{Arbitrary, Unstructured};
//! use rootguard_proptests::fuzzing::{check_resolve_model, ScenarioInput};
//!
//! let bytes = [7u8; 64];
//! let input = ScenarioInput::arbitrary_take_rest(Unstructured::new(&bytes))?;
//! check_resolve_model(&input);
//! // Its Debug is a scenario document.
//! assert!(format!("{input:?}").starts_with('{'));
//! # Ok::<(), arbitrary::Error>(())
//! ```

mod pool;

pub use pool::{lexical_path, root_sets, RootSet, SET_COUNT};

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::fmt;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// The `arbitrary` crate, for code that decodes inputs as the targets do.
pub use arbitrary;
use arbitrary::{Arbitrary, Unstructured};

use crate::oracle::{is_within, judge, judge_scenario, parse_root_uri, read_target, write_target};
use crate::oracle::{LexicalModel, ModelFs, NoTarget, Outside};
use crate::strategies::ROOT_SUFFIXES;
use crate::{kernel, Case, Document, Entry, Judgement, Materialized, Op, Scenario, Truth};

/// The made-up base of in-memory runs (as in `tests/differential.rs`).
pub const MODEL_BASE: &str = "/rg-model/base";

/// At most this many tree entries, roots and cases are rendered from a
/// spec, however long the input: small scenarios keep exec/s high.
const MAX_ENTRIES: usize = 8;
const MAX_ROOTS: usize = 4;
const MAX_CASES: usize = 6;
const MAX_PIECES: usize = 6;

/// The names trees are made of: the classic prefix victim, an NFC and an
/// NFD spelling, and the chain's own names.
const NAMES: &[&str] = &[
    "a",
    "b",
    "project",
    "project2",
    "café",
    "cafe\u{301}",
    "data",
    "x",
    "k1",
    "k2",
];

/// Affixes that make a sibling name look like, or sort next to, another,
/// and pieces that mean something to a URI parser.
const HOSTILE: &[&str] = &[
    "0", "2", "-", "_", ".", "..", "~", "!", "$", "'", "\"", "`", " ", "\t", "\u{a0}", "\u{200b}",
    "#", "?", "%", "%2e", "%2E", "%2e%2e", "%2F", "%2f", "%00", "%25", "@", ":", ";", "=", "+",
    "\\", "*", "\u{2024}", "\u{ff0e}", "\u{2215}", "\n", "\u{301}",
];

/// Absolute link targets on the host; read-only look-ups reach them.
const HOST_TARGETS: &[&str] = &[
    "/",
    "/etc",
    "/etc/passwd",
    "/etc/",
    "/nonexistent-rootguard/x",
    "/..",
    "/tmp",
    "//",
    "/proc/self/root",
];

/// Whole roots that are not built around a tree path.
const FIXED_ROOTS: &[&str] = &[
    "file:///",
    "file://",
    "file:",
    "",
    "/",
    "file:///%2e%2e",
    "file:///etc",
    "file://{base}",
    "file:{base}/..",
    "file://localhost",
    "file:////",
    "FILE:/",
    "file:///{base}/../base",
    "file://{base}%2F..",
    "file:///rg-unrelated/elsewhere",
    "http://{base}",
];

fn pick<'a>(pool: &[&'a str], i: u8) -> &'a str {
    pool[usize::from(i) % pool.len()]
}

// ---------------------------------------------------------------- names

/// A file name: from the pool, a hostile sibling of one, or long.
#[derive(Arbitrary, Debug, Clone)]
pub enum NameSpec {
    /// A name from the pool.
    Pool(u8),
    /// A pool name with a hostile suffix.
    Suffix(u8, u8),
    /// A pool name with a hostile prefix.
    Prefix(u8, u8),
    /// A pool name in upper case.
    Upper(u8),
    /// A name of 250 to 260 bytes (over 255 is ENAMETOOLONG).
    Long(u8),
    /// Any text (sanitized where a tree needs a valid name).
    Text(String),
}

impl NameSpec {
    fn render(&self) -> String {
        match self {
            NameSpec::Pool(i) => pick(NAMES, *i).to_owned(),
            NameSpec::Suffix(i, a) => format!("{}{}", pick(NAMES, *i), pick(HOSTILE, *a)),
            NameSpec::Prefix(i, a) => format!("{}{}", pick(HOSTILE, *a), pick(NAMES, *i)),
            NameSpec::Upper(i) => pick(NAMES, *i).to_uppercase(),
            NameSpec::Long(n) => "l".repeat(250 + usize::from(*n) % 11),
            NameSpec::Text(t) => t.chars().take(24).collect(),
        }
    }

    /// A name the format accepts in a tree: not empty, `.` or `..`, no `/`
    /// or NUL, at most 255 bytes.
    fn render_entry_name(&self) -> String {
        let name = self.render().replace(['/', '\0'], "_");
        if name.is_empty() || name == "." || name == ".." || name.len() > 255 {
            format!("{}_", name.chars().take(200).collect::<String>())
        } else {
            name
        }
    }
}

// ---------------------------------------------------------------- pieces

/// One `/`-separated piece of a path, a link target or a root's path.
#[derive(Arbitrary, Debug, Clone)]
pub enum Piece {
    /// The whole relative path of some tree entry.
    EntryPath(u8),
    /// The relative path of some directory of the tree (`.` when none).
    DirPath(u8),
    /// The last name of some tree entry.
    EntryName(u8),
    /// A hostile sibling of the last name of some tree entry.
    EntrySibling(u8, u8),
    /// A name from the pool or a sibling of one.
    Name(NameSpec),
    /// `.`
    Dot,
    /// `..`
    DotDot,
    /// An empty segment, which makes `//`.
    Empty,
    /// Raw bytes, non-UTF-8 and `/` and NUL included (lossy in text).
    Bytes(Vec<u8>),
}

/// What the rendering of pieces may draw on: a tree's entry paths and
/// directories.
#[derive(Default)]
struct TreeNames {
    paths: Vec<String>,
    dirs: Vec<String>,
}

impl TreeNames {
    fn path(&self, i: u8) -> String {
        if self.paths.is_empty() {
            return pick(NAMES, i).to_owned();
        }
        self.paths[usize::from(i) % self.paths.len()].clone()
    }

    fn dir(&self, i: u8) -> String {
        if self.dirs.is_empty() {
            return ".".to_owned();
        }
        self.dirs[usize::from(i) % self.dirs.len()].clone()
    }

    fn name(&self, i: u8) -> String {
        let path = self.path(i);
        path.rsplit('/').next().unwrap_or(&path).to_owned()
    }

    fn render(&self, piece: &Piece) -> Vec<u8> {
        match piece {
            Piece::EntryPath(i) => self.path(*i).into_bytes(),
            Piece::DirPath(i) => self.dir(*i).into_bytes(),
            Piece::EntryName(i) => self.name(*i).into_bytes(),
            Piece::EntrySibling(i, a) => {
                format!("{}{}", self.name(*i), pick(HOSTILE, *a)).into_bytes()
            }
            Piece::Name(n) => n.render().into_bytes(),
            Piece::Dot => b".".to_vec(),
            Piece::DotDot => b"..".to_vec(),
            Piece::Empty => Vec::new(),
            Piece::Bytes(b) => b.iter().copied().take(24).collect(),
        }
    }

    fn join(&self, pieces: &[Piece]) -> Vec<u8> {
        let mut out = Vec::new();
        for (i, piece) in pieces.iter().take(MAX_PIECES).enumerate() {
            if i > 0 {
                out.push(b'/');
            }
            out.extend(self.render(piece));
        }
        out
    }

    fn join_text(&self, pieces: &[Piece]) -> String {
        String::from_utf8_lossy(&self.join(pieces)).into_owned()
    }
}

// ---------------------------------------------------------------- trees

/// Where a link points.
#[derive(Arbitrary, Debug, Clone)]
pub enum TargetSpec {
    /// Relative pieces, with a trailing `/` when the flag is set.
    Relative(Vec<Piece>, bool),
    /// `{base}/` and pieces.
    BaseAbsolute(Vec<Piece>),
    /// An absolute path on the host.
    Host(u8),
    /// The link's own name: a loop.
    SelfLoop,
    /// Another entry, `{base}`-absolute when the flag is set, else relative.
    Entry(u8, bool),
    /// `..` (1 to 4 times) from the link's directory, then a piece.
    Climb(u8, Piece),
}

/// What a tree entry is.
#[derive(Arbitrary, Debug, Clone)]
pub enum KindSpec {
    /// A directory.
    Dir,
    /// An empty file.
    File,
    /// A symlink.
    Link(TargetSpec),
}

/// One tree entry: a name in some directory made before it.
#[derive(Arbitrary, Debug, Clone)]
pub struct EntrySpec {
    /// Which directory made so far (the base first) holds it.
    pub parent: u8,
    /// Its name.
    pub name: NameSpec,
    /// What it is.
    pub kind: KindSpec,
}

/// A chain `k1 -> k2 -> ... -> kN -> end` at the top of the base.
#[derive(Arbitrary, Debug, Clone)]
pub struct ChainSpec {
    /// Below 128: 1 to 5 links; else 38 to 42, around Linux's limit of 40.
    pub len: u8,
    /// Where the last link points.
    pub end: TargetSpec,
}

impl ChainSpec {
    fn links(&self) -> usize {
        if self.len < 128 {
            1 + usize::from(self.len) % 5
        } else {
            38 + usize::from(self.len) % 5
        }
    }
}

fn render_target(target: &TargetSpec, link: &str, names: &TreeNames) -> String {
    let up = "../".repeat(link.matches('/').count());
    let text = match target {
        TargetSpec::Relative(pieces, slash) => {
            let joined = names.join_text(pieces);
            if *slash {
                format!("{joined}/")
            } else {
                joined
            }
        }
        TargetSpec::BaseAbsolute(pieces) => format!("{{base}}/{}", names.join_text(pieces)),
        TargetSpec::Host(i) => pick(HOST_TARGETS, *i).to_owned(),
        TargetSpec::SelfLoop => link.rsplit('/').next().unwrap_or(link).to_owned(),
        TargetSpec::Entry(i, true) => format!("{{base}}/{}", names.path(*i)),
        TargetSpec::Entry(i, false) => format!("{up}{}", names.path(*i)),
        TargetSpec::Climb(n, piece) => format!(
            "{}{}",
            "../".repeat(1 + usize::from(*n) % 4),
            String::from_utf8_lossy(&names.render(piece))
        ),
    };
    // The format refuses an empty target or a NUL; `.` is the closest kin.
    let text = text.replace('\0', "_");
    if text.is_empty() {
        ".".to_owned()
    } else {
        text
    }
}

/// Renders entries (each in a directory made before it, a path taken twice
/// skipped) and the optional chain; links are rendered last, so that they
/// may point at later entries. Returns the tree and the names drawn on.
fn render_tree(entries: &[EntrySpec], chain: Option<&ChainSpec>) -> (Vec<Entry>, TreeNames) {
    let mut dirs = vec![String::new()];
    let mut used = BTreeSet::new();
    let mut placed: Vec<(String, &KindSpec)> = Vec::new();
    for spec in entries.iter().take(MAX_ENTRIES) {
        let parent = &dirs[usize::from(spec.parent) % dirs.len()];
        let name = spec.name.render_entry_name();
        let path = if parent.is_empty() {
            name
        } else {
            format!("{parent}/{name}")
        };
        if !used.insert(path.clone()) {
            continue;
        }
        if matches!(spec.kind, KindSpec::Dir) {
            dirs.push(path.clone());
        }
        placed.push((path, &spec.kind));
    }
    let chain_names: Vec<String> = chain
        .map(|c| {
            (1..=c.links())
                .map(|i| format!("k{i}"))
                .filter(|n| !used.contains(n))
                .collect()
        })
        .unwrap_or_default();
    let mut names = TreeNames {
        paths: placed.iter().map(|(p, _)| p.clone()).collect(),
        dirs: dirs[1..].to_vec(),
    };
    let mut tree: Vec<Entry> = placed
        .iter()
        .map(|(path, kind)| match kind {
            KindSpec::Dir => Entry::Dir { path: path.clone() },
            KindSpec::File => Entry::File {
                path: path.clone(),
                content: None,
            },
            KindSpec::Link(target) => Entry::Symlink {
                path: path.clone(),
                target: render_target(target, path, &names),
            },
        })
        .collect();
    if let Some(chain) = chain {
        for (i, link) in chain_names.iter().enumerate() {
            let target = match chain_names.get(i + 1) {
                Some(next) => next.clone(),
                // The end points off the chain, else it would mostly loop.
                None => render_target(&chain.end, link, &names),
            };
            tree.push(Entry::Symlink {
                path: link.clone(),
                target,
            });
        }
    }
    names.paths.extend(chain_names.into_iter().take(3));
    (tree, names)
}

// ---------------------------------------------------------------- roots

/// The scheme and authority around a root's path.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Form {
    /// `file://` and the path.
    Empty,
    /// `file://localhost`, in some case.
    Localhost(u8),
    /// `file:` and the path.
    Short(u8),
    /// `file:///` and the path, whose own `/` makes an empty segment.
    FourSlashes,
    /// A host other than `localhost` (invalid).
    Host(u8),
    /// Userinfo (invalid).
    Userinfo,
    /// A port (invalid).
    Port(u8),
    /// Not the `file` scheme (invalid).
    WrongScheme(u8),
    /// Every `/` of the path after the base written as `\` (invalid).
    Backslashes,
}

/// How a byte of a root's path is written.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Escape {
    /// As is when RFC 3986 allows it, else percent-encoded.
    Needed,
    /// As is even when RFC 3986 forbids it (makes the URI invalid).
    Raw,
    /// Percent-encoded in lower-case hex, `/` included.
    Lower,
    /// Percent-encoded in upper-case hex, `/` kept.
    Upper,
    /// `%25` and the hex: a literal `%HH` in the decoded name.
    Double,
}

/// One root URI.
#[derive(Arbitrary, Debug, Clone)]
pub enum RootSpec {
    /// A URI around `{base}` and pieces of the tree.
    Tree {
        /// Scheme and authority.
        form: Form,
        /// Pieces after `{base}` (none: the base itself).
        path: Vec<Piece>,
        /// How each byte after `{base}` is written, in turn.
        escapes: Vec<Escape>,
        /// A suffix from a hostile list, if any.
        suffix: Option<u8>,
    },
    /// A whole root from a fixed list.
    Fixed(u8),
    /// Any text.
    Text(String),
}

fn is_path_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/".contains(&b)
}

fn push_hex(out: &mut Vec<u8>, b: u8, digits: &[u8; 16]) {
    out.extend([
        b'%',
        digits[usize::from(b >> 4)],
        digits[usize::from(b & 15)],
    ]);
}

fn encode(bytes: &[u8], escapes: &[Escape]) -> Vec<u8> {
    const UPPER: &[u8; 16] = b"0123456789ABCDEF";
    const LOWER: &[u8; 16] = b"0123456789abcdef";
    let mut out = Vec::with_capacity(bytes.len() * 3);
    for (i, &b) in bytes.iter().enumerate() {
        let escape = if escapes.is_empty() {
            Escape::Needed
        } else {
            escapes[i % escapes.len().min(16)]
        };
        match escape {
            Escape::Needed if is_path_char(b) => out.push(b),
            Escape::Upper if b == b'/' => out.push(b),
            Escape::Needed | Escape::Upper => push_hex(&mut out, b, UPPER),
            Escape::Raw => out.push(b),
            Escape::Lower => push_hex(&mut out, b, LOWER),
            Escape::Double if b == b'/' => out.push(b),
            Escape::Double => {
                out.extend(b"%25");
                push_hex(&mut out, b, UPPER);
                out.remove(out.len() - 3);
            }
        }
    }
    out
}

impl RootSpec {
    /// The URI, with `prefix` (`{base}` in a scenario, empty for absolute
    /// paths) before the encoded path.
    fn render(&self, prefix: &str, names: &TreeNames) -> String {
        match self {
            RootSpec::Tree {
                form,
                path,
                escapes,
                suffix,
            } => {
                let mut rel = Vec::new();
                if !path.is_empty() || prefix.is_empty() {
                    rel.push(b'/');
                    rel.extend(names.join(path));
                }
                let mut encoded = encode(&rel, escapes);
                if matches!(form, Form::Backslashes) {
                    for b in &mut encoded {
                        if *b == b'/' {
                            *b = b'\\';
                        }
                    }
                }
                let full = format!("{prefix}{}", String::from_utf8_lossy(&encoded));
                let mut uri = match form {
                    Form::Empty | Form::Backslashes => format!("file://{full}"),
                    Form::Localhost(i) => {
                        format!(
                            "file://{}{full}",
                            pick(&["localhost", "LOCALHOST", "LocalHost"], *i)
                        )
                    }
                    Form::Short(i) => format!("{}{full}", pick(&["file:", "FILE:", "File:"], *i)),
                    Form::FourSlashes => format!("file:///{full}"),
                    Form::Host(i) => format!(
                        "file://{}{full}",
                        pick(
                            &[
                                "server",
                                "127.0.0.1",
                                "localhost.",
                                "[::1]",
                                "local%68ost",
                                "xn--lcalhost"
                            ],
                            *i
                        )
                    ),
                    Form::Userinfo => format!("file://u@localhost{full}"),
                    Form::Port(i) => {
                        format!("file://localhost:{}{full}", pick(&["22", "", "0"], *i))
                    }
                    Form::WrongScheme(i) => {
                        format!(
                            "{}://{full}",
                            pick(&["http", "files", "file+x", "fil", "fi le"], *i)
                        )
                    }
                };
                if let Some(s) = suffix {
                    uri.push_str(pick(ROOT_SUFFIXES, *s));
                }
                uri
            }
            RootSpec::Fixed(i) => {
                let fixed = pick(FIXED_ROOTS, *i);
                if prefix.is_empty() {
                    fixed.replace("{base}", "")
                } else {
                    fixed.to_owned()
                }
            }
            RootSpec::Text(t) => t.chars().take(64).collect(),
        }
    }
}

// ---------------------------------------------------------------- paths

/// Where a query path starts.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Start {
    /// `{base}`
    Base,
    /// `{base}/..`
    BaseParent,
    /// `/`
    Root,
    /// `/etc`
    Etc,
    /// `/{base}`, so the path starts with `//`.
    DoubleSlashBase,
    /// No leading `/`: a relative path (core refuses it).
    Relative,
}

/// What ends a query path.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum Trailing {
    /// Nothing.
    None,
    /// `/`
    Slash,
    /// `/.`
    SlashDot,
    /// `/..`
    SlashDotDot,
}

/// Padding of a query path; see [`PathSpec::pad`].
#[derive(Arbitrary, Debug, Clone, Copy)]
pub struct Pad {
    /// 15 and over: padded; else not.
    pub kind: u8,
    /// `/.`, `/` or `name/..`.
    pub unit: u8,
    /// How many bytes of padding, modulo 4200.
    pub count: u16,
}

/// One query path.
#[derive(Arbitrary, Debug, Clone)]
pub struct PathSpec {
    /// Where it starts.
    pub start: Start,
    /// Padding (`/.`, `/` or `name/..`, repeated) that brings it near
    /// PATH_MAX, in one input of 16 (`kind` 0 to 14 means none): long
    /// paths are slow to walk, and most hostility is short.
    pub pad: Pad,
    /// The pieces.
    pub pieces: Vec<Piece>,
    /// What ends it.
    pub trailing: Trailing,
    /// Where to put a NUL byte, if anywhere.
    pub nul: Option<u8>,
}

impl PathSpec {
    fn render(&self, base: &str, names: &TreeNames) -> Vec<u8> {
        let mut out: Vec<u8> = match self.start {
            Start::Base => base.into(),
            Start::BaseParent => format!("{base}/..").into(),
            Start::Root | Start::Relative => Vec::new(),
            Start::Etc => b"/etc".to_vec(),
            Start::DoubleSlashBase => format!("/{base}").into(),
        };
        let start_len = out.len().max(1);
        let Pad { kind, unit, count } = self.pad;
        if kind % 16 == 15 {
            let unit: Vec<u8> = match unit % 3 {
                0 => b"/.".to_vec(),
                1 => b"/".to_vec(),
                _ => format!("/{}/..", names.name(unit)).into(),
            };
            // Counts near where a base crosses PATH_MAX, and some smaller.
            let budget = usize::from(count) % 4200;
            out.extend(unit.repeat(budget / unit.len()));
        }
        for piece in self.pieces.iter().take(MAX_PIECES) {
            if !(out.is_empty() && matches!(self.start, Start::Relative)) {
                out.push(b'/');
            }
            out.extend(names.render(piece));
        }
        match self.trailing {
            Trailing::None => {}
            Trailing::Slash => out.push(b'/'),
            Trailing::SlashDot => out.extend(b"/."),
            Trailing::SlashDotDot => out.extend(b"/.."),
        }
        if out.is_empty() && !matches!(self.start, Start::Relative) {
            out.push(b'/');
        }
        if let Some(at) = self.nul {
            // After the start, so that `{base}` and the leading `/` stay whole.
            let at = start_len.min(out.len())
                + usize::from(at) % (out.len().saturating_sub(start_len) + 1);
            out.insert(at.min(out.len()), 0);
        }
        out
    }
}

/// The operation of a query.
#[derive(Arbitrary, Debug, Clone, Copy)]
pub enum OpSpec {
    /// read
    Read,
    /// write
    Write,
}

impl From<OpSpec> for Op {
    fn from(op: OpSpec) -> Op {
        match op {
            OpSpec::Read => Op::Read,
            OpSpec::Write => Op::Write,
        }
    }
}

/// One query.
#[derive(Arbitrary, Debug, Clone)]
pub struct CaseSpec {
    /// The path.
    pub path: PathSpec,
    /// The operation.
    pub op: OpSpec,
}

// ---------------------------------------------------------------- scenarios

/// A small scenario, as a spec: rendered against the tree at the end, so
/// that a piece says "the name of some entry", not which one.
#[derive(Arbitrary, Debug, Clone)]
pub struct ScenarioSpec {
    /// Tree entries (the first 8 count).
    pub entries: Vec<EntrySpec>,
    /// An optional chain of links.
    pub chain: Option<ChainSpec>,
    /// Roots (the first 4 count).
    pub roots: Vec<RootSpec>,
    /// Queries (the first 6 count).
    pub cases: Vec<CaseSpec>,
}

impl ScenarioSpec {
    /// The scenario this spec stands for; always valid by the format's rules.
    pub fn to_scenario(&self) -> Scenario {
        let (tree, names) = render_tree(&self.entries, self.chain.as_ref());
        Scenario {
            name: "fuzz".to_owned(),
            note: None,
            tree,
            roots: self
                .roots
                .iter()
                .take(MAX_ROOTS)
                .map(|r| r.render("{base}", &names))
                .collect(),
            cases: self
                .cases
                .iter()
                .take(MAX_CASES)
                .map(|c| {
                    let path =
                        String::from_utf8_lossy(&c.path.render("{base}", &names)).into_owned();
                    Case {
                        // The format wants absolute case paths; a relative
                        // one is the lexical target's business.
                        path: if path.starts_with('/') || path.starts_with("{base}") {
                            path
                        } else {
                            format!("/{path}")
                        },
                        op: c.op.into(),
                        expect: None,
                    }
                })
                .collect(),
        }
    }
}

/// The input of `resolve_model` and `resolve_kernel`: a spec, or a
/// scenario document when the bytes are one (seeds such as
/// `proptests/tests/scenarios/hostile.json` are used as they are).
///
/// `Debug` prints the scenario document, a ready reproducer.
#[derive(Clone)]
pub enum ScenarioInput {
    /// A spec, rendered by [`ScenarioSpec::to_scenario`].
    Spec(ScenarioSpec),
    /// A valid scenario document.
    Json(Document),
}

/// Whether a structured target reads `bytes` as a scenario document
/// rather than as a spec.
pub fn is_document_input(bytes: &[u8]) -> bool {
    as_document(bytes).is_some()
}

/// `Some(document)` when `bytes` are a valid scenario document.
fn as_document(bytes: &[u8]) -> Option<Document> {
    // A document is a JSON object: `{` first and `}` last, but for
    // whitespace. Most mutations of a document break that, and are decoded
    // as specs without a JSON parse that would fail at their end.
    let end = bytes
        .iter()
        .rposition(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
    if bytes.first() != Some(&b'{') || end.map(|i| bytes[i]) != Some(b'}') {
        return None;
    }
    Document::from_json(std::str::from_utf8(bytes).ok()?).ok()
}

impl<'a> Arbitrary<'a> for ScenarioInput {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(ScenarioInput::Spec(ScenarioSpec::arbitrary(u)?))
    }

    fn arbitrary_take_rest(u: Unstructured<'a>) -> arbitrary::Result<Self> {
        match as_document(u.peek_bytes(u.len()).unwrap_or_default()) {
            Some(doc) => Ok(ScenarioInput::Json(doc)),
            None => Ok(ScenarioInput::Spec(ScenarioSpec::arbitrary_take_rest(u)?)),
        }
    }
}

impl ScenarioInput {
    /// The scenarios to check: one for a spec, all of a document's.
    pub fn scenarios(&self) -> Vec<Scenario> {
        match self {
            ScenarioInput::Spec(spec) => vec![spec.to_scenario()],
            ScenarioInput::Json(doc) => doc.scenarios.clone(),
        }
    }

    /// The input as a scenario document.
    pub fn to_document(&self) -> Document {
        match self {
            ScenarioInput::Spec(spec) => Document {
                version: crate::FORMAT_VERSION,
                scenarios: vec![spec.to_scenario()],
            },
            ScenarioInput::Json(doc) => doc.clone(),
        }
    }
}

impl fmt::Debug for ScenarioInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_document().to_json())
    }
}

fn reproducer(scenario: &Scenario) -> String {
    Document {
        version: crate::FORMAT_VERSION,
        scenarios: vec![scenario.clone()],
    }
    .to_json()
}

// ---------------------------------------------------------------- lexical

/// A root and a path for the lexical check, made of absolute paths from
/// the same name pool so that roots often contain the path.
#[derive(Arbitrary, Debug, Clone)]
pub struct LexicalSpec {
    /// Roots, rendered around absolute paths (the first 4 count).
    pub roots: Vec<RootSpec>,
    /// The query path.
    pub path: PathSpec,
}

/// The input of `lexical_roots`: a spec, or a scenario document whose cases
/// (with `{base}` as [`MODEL_BASE`]) are checked against its roots.
///
/// `Debug` prints the roots and the path as a scenario document when the
/// path is UTF-8, else as JSON with the path's bytes escaped.
#[derive(Clone)]
pub enum LexicalInput {
    /// A spec.
    Spec(LexicalSpec),
    /// A valid scenario document.
    Json(Document),
}

impl<'a> Arbitrary<'a> for LexicalInput {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(LexicalInput::Spec(LexicalSpec::arbitrary(u)?))
    }

    fn arbitrary_take_rest(u: Unstructured<'a>) -> arbitrary::Result<Self> {
        match as_document(u.peek_bytes(u.len()).unwrap_or_default()) {
            Some(doc) => Ok(LexicalInput::Json(doc)),
            None => Ok(LexicalInput::Spec(LexicalSpec::arbitrary_take_rest(u)?)),
        }
    }
}

impl LexicalInput {
    /// Every (roots, path) pair the input stands for.
    pub fn queries(&self) -> Vec<(Vec<String>, Vec<u8>)> {
        match self {
            LexicalInput::Spec(spec) => {
                let names = TreeNames::default();
                let roots = spec
                    .roots
                    .iter()
                    .take(MAX_ROOTS)
                    .map(|r| r.render("", &names))
                    .collect();
                vec![(roots, spec.path.render("", &names))]
            }
            LexicalInput::Json(doc) => doc
                .scenarios
                .iter()
                .flat_map(|s| {
                    let s = s.substituted(MODEL_BASE);
                    s.cases
                        .into_iter()
                        .map(move |c| (s.roots.clone(), c.path.into_bytes()))
                })
                .collect(),
        }
    }
}

fn lexical_reproducer(roots: &[String], path: &[u8]) -> String {
    match std::str::from_utf8(path) {
        Ok(text) => reproducer(&Scenario {
            name: "lexical".to_owned(),
            note: None,
            tree: Vec::new(),
            roots: roots.to_vec(),
            cases: vec![Case {
                path: text.to_owned(),
                op: Op::Read,
                expect: None,
            }],
        }),
        Err(_) => format!(
            "{{\"roots\": {}, \"path_escaped\": {:?}}}",
            serde_json::to_string(roots).unwrap_or_default(),
            path.escape_ascii().to_string()
        ),
    }
}

impl fmt::Debug for LexicalInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (roots, path) in self.queries() {
            writeln!(f, "{}", lexical_reproducer(&roots, &path))?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------- checks

/// `root_uri`: core's parser and the oracle's accept the same URIs and
/// give the same path; where both accept, `url` reads the same path too
/// (semantics.md section 1, rule 6), except where the spec says `url`
/// differs by design.
///
/// # Panics
///
/// On a disagreement, with the URI and both answers.
pub fn check_root_uri(uri: &str) {
    let ours = rootguard::RootUri::parse(uri);
    let theirs = parse_root_uri(uri);
    let ours_path = ours.as_ref().ok().map(|u| u.path().as_os_str().as_bytes());
    assert_eq!(
        ours_path,
        theirs.as_deref().ok(),
        "core and the oracle disagree on root URI {uri:?}:\n  core:   {ours:?}\n  oracle: {:?}",
        theirs.as_ref().map(|p| p.escape_ascii().to_string())
    );
    if let Ok(path) = &theirs {
        check_with_url(uri, path);
    }
}

/// A URI the oracle accepted, read by the `url` crate. Not compared: a
/// segment that WHATWG takes for a Windows drive letter (`C:`), which `..`
/// never removes in a file URL. The crate's traps (`\` as a separator,
/// `%2F` decoded, no scheme check) cannot occur here: the oracle has
/// refused all of them already.
fn check_with_url(uri: &str, path: &[u8]) {
    let raw_path = match uri.find("//") {
        Some(i) if i == uri.find(':').map_or(usize::MAX, |c| c + 1) => {
            let rest = &uri[i + 2..];
            rest.find('/').map_or("", |j| &rest[j..])
        }
        _ => uri.find(':').map_or("", |c| &uri[c + 1..]),
    };
    let drive_letter = raw_path.split('/').any(|s| {
        let s = s.as_bytes();
        s.len() == 2 && s[0].is_ascii_alphabetic() && (s[1] == b':' || s[1] == b'|')
    });
    if drive_letter {
        return;
    }
    let url = match url::Url::parse(uri) {
        Ok(url) => url,
        Err(e) => panic!(
            "url refuses {uri:?} ({e}), which the spec accepts as {:?}",
            path.escape_ascii().to_string()
        ),
    };
    let file = url.to_file_path().unwrap_or_else(|()| {
        panic!("url gives no file path for {uri:?} (parsed as {url}), which the spec accepts")
    });
    // url keeps empty segments and a trailing `/`; rule 6 collapses them.
    let bytes = file.as_os_str().as_bytes();
    let mut collapsed: Vec<u8> = Vec::with_capacity(bytes.len());
    for segment in bytes.split(|&b| b == b'/').filter(|s| !s.is_empty()) {
        collapsed.push(b'/');
        collapsed.extend_from_slice(segment);
    }
    if collapsed.is_empty() {
        collapsed.push(b'/');
    }
    assert_eq!(
        collapsed.escape_ascii().to_string(),
        path.escape_ascii().to_string(),
        "url reads {uri:?} as {url} -> {file:?}; the spec (core and the oracle) as the path on the right"
    );
}

/// `lexical_roots`: [`rootguard::LexicalRoots::check`] against the lexical
/// oracle ([`LexicalModel`]: the path and each root split into whole
/// components, `.`, `..` and empty ones applied, containment a prefix of
/// components). Core must refuse exactly the relative and NUL-holding
/// paths, and otherwise name the same root.
///
/// # Panics
///
/// On a disagreement, with the roots and the path.
pub fn check_lexical_roots(input: &LexicalInput) {
    for (roots, path) in input.queries() {
        check_lexical_query(&roots, &path);
    }
}

/// `lexical`: a path of any bytes against one of the pool's root sets
/// ([`root_sets`]), built once: the input is `[set, mode, rest...]` (see
/// [`lexical_path`]); an input of fewer than two bytes is skipped.
/// (Scenario documents, whose roots are parsed per input, are
/// `lexical_roots`' seeds: read here, their JSON parser's coverage would
/// cost every input's bookkeeping.)
///
/// # Panics
///
/// When core and the lexical oracle disagree, with the roots and the path
/// as a scenario document.
pub fn check_lexical(data: &[u8]) {
    if let Some((set, path)) = lexical_input(data) {
        compare_lexical(&set.core, &set.model, &set.uris, &path);
    }
}

/// The (roots, path) queries a `lexical` input stands for.
pub fn lexical_queries(data: &[u8]) -> Vec<(Vec<String>, Vec<u8>)> {
    lexical_input(data)
        .map(|(set, path)| (set.uris.clone(), path))
        .into_iter()
        .collect()
}

/// A `lexical` input's root set and path; `None` for fewer than two bytes.
fn lexical_input(data: &[u8]) -> Option<(&'static RootSet, Vec<u8>)> {
    let [set, mode, rest @ ..] = data else {
        return None;
    };
    let set = &root_sets()[usize::from(*set) % SET_COUNT];
    let mut path = Vec::with_capacity(rest.len() + 64);
    lexical_path(set, *mode, rest, &mut path);
    Some((set, path))
}

fn check_lexical_query(roots: &[String], path: &[u8]) {
    let core = rootguard::LexicalRoots::new(roots);
    compare_lexical(&core, &LexicalModel::new(roots), roots, path);
}

fn compare_lexical(
    core: &rootguard::LexicalRoots,
    model: &LexicalModel,
    roots: &[String],
    path: &[u8],
) {
    let ours = core.check(OsStr::from_bytes(path));
    let theirs = model.find(path);
    match (&ours, &theirs) {
        (Ok(ours), Ok(theirs)) if ours == theirs => {}
        (Err(rootguard::LexicalError::NotAbsolute), Err(NoTarget::NotAbsolute)) => {}
        (Err(rootguard::LexicalError::NulByte), Err(NoTarget::NulByte)) => {}
        _ => panic!(
            "lexical check: core says {ours:?}, the lexical oracle says {theirs:?} (Ok: the index of the containing root; Err: refused) for {:?}:\n{}",
            path.escape_ascii().to_string(),
            lexical_reproducer(roots, path)
        ),
    }
}

fn core_op(op: Op) -> rootguard::Op {
    match op {
        Op::Read => rootguard::Op::Read,
        Op::Write => rootguard::Op::Write,
    }
}

/// (truth, target, root) as core says it.
fn core_says(verdict: &rootguard::Verdict) -> (Truth, Option<PathBuf>, Option<usize>) {
    match verdict {
        rootguard::Verdict::Inside { root, target } => {
            (Truth::Inside, Some(target.clone()), Some(*root))
        }
        rootguard::Verdict::Outside { target } => (Truth::Outside, Some(target.clone()), None),
        rootguard::Verdict::Unresolvable(_) => (Truth::Either, None, None),
    }
}

fn judged(j: &Judgement) -> (Truth, Option<PathBuf>, Option<usize>) {
    (j.truth, j.target.clone(), j.root)
}

/// The tree as core's in-memory file system, beneath `base`.
fn mem_fs(scenario: &Scenario, base: &str) -> rootguard::MemFs {
    let mut fs = rootguard::MemFs::new();
    fs.add_dir(base);
    for entry in &scenario.tree {
        let path = format!("{base}/{}", entry.path());
        match entry {
            Entry::Dir { .. } => fs.add_dir(&path),
            Entry::File { .. } => fs.add_file(&path),
            Entry::Symlink { target, .. } => {
                fs.add_symlink(&path, crate::substitute_base(target, base))
            }
        };
    }
    fs
}

/// Each root parsed and resolved on the model once (what
/// [`judge`] does for every query; `None` grants nothing).
fn resolve_model_roots(roots: &[String], model: &ModelFs) -> Vec<Option<Vec<u8>>> {
    roots
        .iter()
        .map(|uri| {
            let path = parse_root_uri(uri).ok()?;
            // realpath(3), rule 7: resolved as a `read` target is.
            read_target(model, &path).ok()
        })
        .collect()
}

/// [`judge`]'s verdict without its explanation: the target, and the first
/// resolved root containing it by whole components.
fn model_says(
    roots: &[Option<Vec<u8>>],
    path: &[u8],
    op: Op,
    model: &ModelFs,
) -> (Truth, Option<PathBuf>, Option<usize>) {
    let outcome = match op {
        Op::Read => read_target(model, path),
        Op::Write => write_target(model, path),
    };
    match outcome {
        Err(_) => (Truth::Either, None, None),
        Ok(target) => {
            let root = roots
                .iter()
                .position(|r| r.as_deref().is_some_and(|r| is_within(&target, r)));
            let truth = if root.is_some() {
                Truth::Inside
            } else {
                Truth::Outside
            };
            (truth, Some(PathBuf::from(OsStr::from_bytes(&target))), root)
        }
    }
}

/// `resolve_model`: core on its in-memory file system against the model
/// oracle (base [`MODEL_BASE`], nothing outside it), on truth, target and
/// containing root.
///
/// # Panics
///
/// On a disagreement, with the scenario document and both answers.
pub fn check_resolve_model(input: &ScenarioInput) {
    for scenario in input.scenarios() {
        let s = scenario.substituted(MODEL_BASE);
        let roots = rootguard::Roots::with_fs(&s.roots, mem_fs(&scenario, MODEL_BASE));
        let model = ModelFs::new(&scenario.tree, Path::new(MODEL_BASE), Outside::Absent)
            .expect("the model lays out a valid tree");
        let model_roots = resolve_model_roots(&s.roots, &model);
        for (i, case) in s.cases.iter().enumerate() {
            let ours = core_says(&roots.check(&case.path, core_op(case.op)));
            assert_eq!(
                roots.inside(&case.path, core_op(case.op)),
                ours.2,
                "inside() (left) and check() (right) name different roots on case {i} ({} {:?}):\n{}",
                case.op,
                scenario.cases[i].path,
                reproducer(&scenario)
            );
            if ours == model_says(&model_roots, case.path.as_bytes(), case.op, &model) {
                continue;
            }
            // The full judge, with its explanation, only for a report.
            let theirs = judge(&s.roots, case.path.as_bytes(), case.op, &model);
            assert_eq!(
                ours,
                judged(&theirs),
                "core (left) and the model (right) disagree on case {i} ({} {:?}):\n  model: {}\n{}",
                case.op,
                scenario.cases[i].path,
                theirs.explanation,
                reproducer(&scenario)
            );
            panic!(
                "harness bug: judge() agrees with core but model_says() does not, case {i}:\n{}",
                reproducer(&scenario)
            );
        }
    }
}

/// Puts materialized trees on tmpfs (`/dev/shm`) when `TMPDIR` is unset:
/// on a disk file system, creating and removing a tree per input costs
/// ext4's inode allocator about 90% of the time (measured: 370 against
/// several thousand inputs per second). Call it once, before any thread
/// starts: it sets an environment variable.
pub fn prefer_tmpfs() {
    let shm = Path::new("/dev/shm");
    if std::env::var_os("TMPDIR").is_none() && shm.is_dir() && tempfile::tempdir_in(shm).is_ok() {
        std::env::set_var("TMPDIR", shm);
    }
}

/// `resolve_kernel`: the scenario materialized in a fresh temp dir; core
/// on the real file system ([`rootguard::Roots::new`]) against kernel
/// truth, and the model (`Outside::Host`) against the kernel too.
///
/// # Panics
///
/// On a disagreement, with the scenario document and the answers; and when
/// a valid scenario cannot be materialized.
pub fn check_resolve_kernel(input: &ScenarioInput) {
    for scenario in input.scenarios() {
        let tree = Materialized::new(&scenario)
            .unwrap_or_else(|e| panic!("cannot materialize: {e}\n{}", reproducer(&scenario)));
        let model = judge_scenario(&scenario, tree.base(), Outside::Host)
            .expect("the model lays out the tree");
        let kernel = kernel::judge_materialized(&tree);
        let roots = rootguard::Roots::new(tree.roots());
        for (i, ((case, model), kernel)) in tree.cases().iter().zip(&model).zip(&kernel).enumerate()
        {
            let ours = core_says(&roots.check(OsStr::new(&case.path), core_op(case.op)));
            assert_eq!(
                roots.inside(OsStr::new(&case.path), core_op(case.op)),
                kernel.root,
                "inside() (left) and the kernel (right) name different roots on case {i} ({} {:?}):\n  kernel: {}\n{}",
                case.op,
                scenario.cases[i].path,
                kernel.explanation,
                reproducer(&scenario)
            );
            assert_eq!(
                ours,
                judged(kernel),
                "core (left) and the kernel (right) disagree on case {i} ({} {:?}):\n  kernel: {}\n  model:  {}\n{}",
                case.op,
                scenario.cases[i].path,
                kernel.explanation,
                model.explanation,
                reproducer(&scenario)
            );
            assert_eq!(
                judged(model),
                judged(kernel),
                "the model (left) and the kernel (right) disagree on case {i} ({} {:?}):\n  kernel: {}\n  model:  {}\n{}",
                case.op,
                scenario.cases[i].path,
                kernel.explanation,
                model.explanation,
                reproducer(&scenario)
            );
        }
        tree.close().expect("the temp tree is removed");
    }
}

/// `scenario_json`: any text is either a document that round-trips
/// through [`Document::to_json`] and that the model can lay out, or an
/// error whose message says what to write.
///
/// # Panics
///
/// When a valid document does not round-trip, or an error message is empty.
pub fn check_scenario_json(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    match Document::from_json(&text) {
        Ok(doc) => {
            let json = doc.to_json();
            let again = Document::from_json(&json)
                .unwrap_or_else(|e| panic!("a valid document's JSON is refused ({e}):\n{json}"));
            assert_eq!(again, doc, "a document changed through to_json:\n{json}");
            for scenario in &doc.scenarios {
                if let Err(e) =
                    ModelFs::from_scenario(scenario, Path::new(MODEL_BASE), Outside::Absent)
                {
                    panic!("the validator accepts what the model cannot lay out ({e}):\n{json}");
                }
            }
        }
        Err(e) => {
            let message = e.to_string();
            assert!(!message.trim().is_empty(), "an empty error for {text:?}");
            if let crate::ScenarioError::Json(_) = e {
                assert!(
                    message.contains("scenario-format.md"),
                    "a JSON error that does not say what to write: {message}"
                );
            }
        }
    }
}

/// The fuzz targets, by name.
pub const TARGETS: &[&str] = &[
    "root_uri",
    "lexical",
    "lexical_roots",
    "resolve_model",
    "resolve_kernel",
    "scenario_json",
];

/// Runs `target`'s check on `data` exactly as libFuzzer's glue does: the
/// bytes decoded by `Arbitrary::arbitrary_take_rest`, an input that does
/// not decode skipped. For `cargo test` replays of `fuzz/regressions/`.
///
/// # Panics
///
/// When the check fails, and for a target that is not in [`TARGETS`].
pub fn replay(target: &str, data: &[u8]) {
    let u = Unstructured::new(data);
    match target {
        "root_uri" => {
            if let Ok(uri) = <&str>::arbitrary_take_rest(u) {
                check_root_uri(uri);
            }
        }
        "lexical" => check_lexical(data),
        "lexical_roots" => {
            if let Ok(input) = LexicalInput::arbitrary_take_rest(u) {
                check_lexical_roots(&input);
            }
        }
        "resolve_model" => {
            if let Ok(input) = ScenarioInput::arbitrary_take_rest(u) {
                check_resolve_model(&input);
            }
        }
        "resolve_kernel" => {
            if let Ok(input) = ScenarioInput::arbitrary_take_rest(u) {
                check_resolve_kernel(&input);
            }
        }
        "scenario_json" => check_scenario_json(data),
        other => panic!("no fuzz target {other:?}; the targets are {TARGETS:?}"),
    }
}
