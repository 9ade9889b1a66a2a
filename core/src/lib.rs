//! Path boundary logic: does this path, or this `file://` root URI, lie
//! inside a set of allowed roots?
//!
//! An MCP server that touches files gets its allowed roots as URIs (the
//! client's answer to `roots/list`, or folders in its configuration) and
//! must keep every tool call's path inside them. This crate answers that
//! question the way the kernel would, and opens files so that the answer
//! still holds when the file is used.
//!
//! # Quick start: a server's roots, pinned
//!
//! ```
//! use std::io::Write;
//! use rootguard::{Op, Roots};
//! use rootguard::open::OpenError;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let dir = tempfile::tempdir()?;
//! # let home = dir.path().canonicalize()?;
//! # std::fs::create_dir(home.join("proj"))?;
//! # std::fs::write(home.join("secret"), "")?;
//! # std::os::unix::fs::symlink("../secret", home.join("proj/leak"))?;
//! // The client's answer to `roots/list` (the JSON-RPC `result`).
//! let json = format!(r#"{{"roots": [{{"uri": "file://{}/proj"}}]}}"#, home.display());
//! let roots = Roots::from_roots_list(&json)?;
//! for rejected in roots.rejected() {
//!     eprintln!("root {} grants nothing: {}", rejected.uri, rejected.reason);
//! }
//! // Open each root's directory once, for the life of the server.
//! let roots = roots.pin();
//!
//! // A tool call writes proj/notes.txt: open it beneath its root, then use
//! // that file, never the path again.
//! let (mut file, verdict) = roots.open(home.join("proj/notes.txt"), Op::Write)?;
//! file.write_all(b"hello")?;
//! assert_eq!(verdict.root().map(|root| root.index()), Some(0));
//!
//! // A path that leaves the roots is refused, and nothing is opened.
//! let refused = roots.open(home.join("proj/leak"), Op::Write).unwrap_err();
//! assert!(matches!(refused, OpenError::Outside { .. }));
//! eprintln!("refused: {refused}");
//! # Ok(())
//! # }
//! ```
//!
//! [`Roots::from_roots_list`] takes the `roots/list` result as JSON
//! ([`Roots::new`] takes the URIs themselves); a URI that breaks a rule or
//! does not resolve is set aside in [`Roots::rejected`] and grants nothing,
//! while the others still count. [`Roots::pin`] opens each root's directory
//! once, on first use, and keeps it ([`PinnedRoots`]). [`PinnedRoots::open`]
//! checks the path and opens it beneath its root: [`Op::Read`] opens
//! `O_RDONLY`, [`Op::Write`] opens `O_WRONLY | O_CREAT | O_NOFOLLOW`,
//! creating the file if need be but never writing through a final symlink.
//!
//! # Where races bite
//!
//! A check answers for the tree as it was while it looked.
//! [`Roots::check`] and [`Roots::inside`] resolve the path, compare the
//! target with the roots, and return; nothing stops another process (the
//! agent's shell, a build script, a malicious dependency) from renaming a
//! directory inside the root a moment later and putting a symlink to
//! `~/.ssh` in its place. A plain `std::fs::File::open(path)` after an
//! *inside* verdict resolves the path again, against the tree as it is
//! then, and follows the new link out: a time-of-check-to-time-of-use
//! escape that no check, however exact, can prevent.
//!
//! So act on files only through [`Roots::open`] or [`PinnedRoots::open`]
//! and use the [`File`](std::fs::File) they return. They resolve the rest
//! of the path beneath a descriptor of the root's directory with
//! `openat2(2)` and `RESOLVE_BENEATH` (or a component walk that refuses the
//! same steps, where the kernel lacks `openat2`; see [`open::Backend`]), so the
//! kernel refuses every step out in the same system call that opens the
//! file. They are stricter than the check in a few cases (an absolute
//! symlink beneath the root, a `..` that leaves the root and comes back, a
//! write whose last component is a symlink), each listed on
//! [`Roots::open`]. Pin the roots in a server: [`Roots::open`] opens the
//! root's directory by its path on every call, so a root directory renamed
//! and replaced between two calls would be followed; [`PinnedRoots`] keeps
//! the directory it opened first.
//!
//! Operations other than open (rename, unlink, mkdir, listing by path)
//! have the same gap and nothing here closes it: perform them relative to
//! a descriptor `open` gave (`openat`-style), not by path. Use the checks
//! alone to decide, explain or report (a policy dry-run, a UI that greys a
//! path out). The repository's `docs/race.md` measures the gap.
//!
//! # Checking without opening
//!
//! ```
//! use rootguard::{Op, Roots, Verdict};
//! let dir = tempfile::tempdir()?;
//! let base = dir.path().canonicalize()?;
//! std::fs::create_dir_all(base.join("proj"))?;
//! std::fs::create_dir_all(base.join("proj2"))?;
//! std::os::unix::fs::symlink("../proj2/x", base.join("proj/link"))?;
//!
//! let roots = Roots::new([format!("file://{}/proj", base.display())]);
//! assert!(roots.check(base.join("proj/a.txt"), Op::Write).is_inside());
//! // A dangling link: the write would create proj2/x, outside the root.
//! assert!(matches!(roots.check(base.join("proj/link"), Op::Write), Verdict::Outside { .. }));
//! // Nothing to read there: the read cannot happen, so it is refused too.
//! assert!(matches!(roots.check(base.join("proj/link"), Op::Read), Verdict::Unresolvable(_)));
//! // Only which root, without naming the target: the same answer, cheaper.
//! assert_eq!(roots.inside(base.join("proj/link"), Op::Write), None);
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! - [`Roots`] holds resolved roots. [`Roots::check`] gives a [`Verdict`]
//!   (inside which root, outside, or unresolvable and why), comparing whole
//!   components, never text prefixes; [`Roots::inside`] gives the same
//!   verdict's [`RootId`] alone. A `RootId` counts the roots as the caller
//!   listed them, rejected ones included: look it up with [`Roots::get`].
//! - [`PinnedRoots::check`] and [`PinnedRoots::inside`] give the same
//!   answers from the pinned directories, most paths in one system call:
//!   the check for a server, whose boundary is the directories it pinned
//!   (they differ from [`Roots`] only once a root's directory moves; see
//!   [`PinnedRoots`]).
//! - [`RootUri`] parses a root URI strictly (`file` scheme, empty or
//!   `localhost` authority, no query or fragment, only RFC 3986 path
//!   characters, `%2F` and `%00` refused, dot segments removed after
//!   decoding).
//! - [`resolve::resolve_target`] finds where an [`Op`] on a path really
//!   lands, following links, taking `..` physically and following a
//!   dangling final link on a write, on a [`fs::Resolver`]: the real file
//!   system ([`fs::RealFs`]), the in-memory [`fs::MemFs`], or a tree of your
//!   own behind the two-method [`fs::Fs`].
//! - [`lexical`] holds the no-I/O variant, [`lexical::LexicalRoots`],
//!   sound only for trees without links (a symlink makes its answer
//!   wrong), and [`lexical::NormalPath`], which normalizes an absolute path
//!   by text alone. They are kept apart so that no one reaches for them
//!   beside [`Roots`] by mistake.
//! - [`open`] holds what opening needs besides [`PinnedRoots`]: the
//!   [`open::Backend`] that opens beneath a root and [`open::OpenError`].
//!
//! # Features
//!
//! - `roots-list` (on by default): [`Roots::from_roots_list`] and the
//!   [`roots_list`] module, which read a `roots/list` result with
//!   `serde_json`. Without it the crate has no JSON dependency; build the
//!   roots with [`Roots::new`] from URIs read by other means.
//! - `flavours` (off by default): in [`lexical`], Windows' and macOS's
//!   lexical rules (`lexical::windows`, `lexical::macos`) and
//!   `lexical::FlavouredRoots`, roots checked by them: Win32's prefixes
//!   and normalization, DOS devices, NTFS streams and NTFS's upcase table;
//!   APFS's canonical caseless names and macOS's `/private` links. It
//!   brings `unicode-normalization` and `icu_casemap`, and leaves the
//!   Linux checks as they are.
#![deny(missing_docs)]
// No unsafe code but in the two modules named below, each of which says
// why its unsafe blocks are sound; core/tests/layers.rs checks that no
// other file has an `unsafe` block or lifts this.
#![deny(unsafe_code)]
// Without the feature the crate docs still name what it would add.
#![cfg_attr(not(feature = "roots-list"), allow(rustdoc::broken_intra_doc_links))]

// Layers, bottom to top: a module uses only modules listed above it, and a
// file never uses its parent (a parent module is the facade of its
// children). core/tests/layers.rs checks both against every file.
//
//   limits        the kernel's PATH_MAX, NAME_MAX, MAX_LINKS
//   op            Op
//   root_id       RootId, and which of two roots comes first
//   normal        normal paths by text alone, the SSE2 scan
//   uri           RootUri
//   flavours      Windows' and macOS's lexical rules (feature `flavours`)
//   index         RootIndex: which roots contain a normal path
//   procfs        /proc/<pid>/fd: the path a descriptor refers to
//   beneath       openat2(RESOLVE_BENEATH) and the walk, one probe, landings
//   seam          Fs, the sealed Resolver, FileKind
//   resolve       the component walk
//   realfs        RealFs and its kernel shortcuts
//   memfs         MemFs
//   root          Root, RejectedRoot, RootError
//   verdict       Verdict
//   roots         Roots: check and inside
//   lexical_roots LexicalRoots
//   roots_list    the roots/list result
//   opening       Roots::open, PinnedRoots: open, check, inside; Backend, OpenError

mod beneath;
#[cfg(feature = "flavours")]
mod flavours;
// The SSE2 compare of a root's first and last 16 bytes.
#[allow(unsafe_code)]
mod index;
mod lexical_roots;
pub mod limits;
mod memfs;
// The SSE2 scan for dot segments.
#[allow(unsafe_code)]
mod normal;
mod op;
mod opening;
mod procfs;
mod realfs;
pub mod resolve;
mod root;
mod root_id;
mod roots;
#[cfg(feature = "roots-list")]
pub mod roots_list;
mod seam;
mod uri;
mod verdict;

pub mod fs {
    //! The file systems paths are resolved on: the real one, an in-memory
    //! tree, or one of your own behind [`Fs`].
    //!
    //! [`Fs`] is the two primitives resolution needs (`lstat`, `readlink`)
    //! and is what you implement. [`Resolver`] is what
    //! [`Roots`](crate::Roots) and
    //! [`resolve_target`](crate::resolve::resolve_target) take: every `Fs`,
    //! plus [`RealFs`] and [`MemFs`], which alone bring shortcuts (sealed,
    //! so that no implementation elsewhere can promise what it cannot keep).

    pub use crate::memfs::MemFs;
    pub use crate::realfs::RealFs;
    pub use crate::seam::{FileKind, Fs, Resolver};
}

pub mod lexical {
    //! Checks by text alone, with no I/O: sound only for trees without
    //! symlinks, where a path's text says where it lands. Reach for
    //! [`Roots`](crate::Roots) or [`PinnedRoots`](crate::PinnedRoots)
    //! unless you know the tree has no links (a fuzz target, a path that
    //! is never opened).

    pub use crate::lexical_roots::LexicalRoots;
    pub use crate::normal::{LexicalError, NormalPath};

    #[cfg(feature = "flavours")]
    pub use crate::flavours::{macos, windows, Flavour, FlavouredAnswer, FlavouredRoots, Unsure};
}

pub mod open {
    //! Opening beneath a root: the backend that does it and what goes
    //! wrong. [`PinnedRoots`](crate::PinnedRoots) and
    //! [`Roots::open`](crate::Roots::open) are the ways in.

    pub use crate::opening::{Backend, OpenError, BACKEND_ENV};
}

pub use crate::op::{Op, ParseOpError};
pub use crate::opening::PinnedRoots;
pub use crate::resolve::{ResolveError, ResolveErrorKind};
pub use crate::root::{RejectedRoot, Root, RootError};
pub use crate::root_id::RootId;
pub use crate::roots::Roots;
#[cfg(feature = "roots-list")]
pub use crate::roots_list::RootsListError;
pub use crate::uri::{RootUri, UriError};
pub use crate::verdict::Verdict;
