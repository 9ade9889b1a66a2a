//! Path boundary logic: does this path, or this `file://` root URI, lie
//! inside a set of allowed roots?
//!
//! An MCP server that touches files gets its allowed roots as URIs
//! (`roots/list` → `[{"uri": "file:///home/u/proj"}]`, or folders in its
//! configuration) and must keep every tool call's path inside them. This
//! crate answers that question the way the kernel would:
//!
//! - [`RootUri`] parses a root URI strictly (`file` scheme, empty or
//!   `localhost` authority, no query or fragment, only RFC 3986 path
//!   characters, `%2F` and `%00` refused, dot segments removed after
//!   decoding).
//! - [`NormalPath`] normalizes an absolute path by text alone.
//! - [`resolve_target`] finds where an [`Op`] on a path really lands,
//!   following links, taking `..` physically and following a dangling final
//!   link on a write, over an [`Fs`] ([`RealFs`] or the in-memory [`MemFs`]).
//! - [`Roots`] holds resolved roots and answers [`Roots::check`] with a
//!   [`Verdict`], comparing whole components, never text prefixes;
//!   [`Roots::inside`] gives the same verdict's root alone, without the
//!   cost of naming the target;
//!   [`LexicalRoots`] is the no-I/O variant for trees without links.
//!
//! ```
//! use rootguard::{Op, Roots, Verdict};
//! let dir = tempfile::tempdir().unwrap();
//! let base = dir.path().canonicalize().unwrap();
//! std::fs::create_dir_all(base.join("proj")).unwrap();
//! std::fs::create_dir_all(base.join("proj2")).unwrap();
//! std::os::unix::fs::symlink("../proj2/x", base.join("proj/link")).unwrap();
//!
//! let roots = Roots::new([format!("file://{}/proj", base.display())]);
//! assert!(roots.check(base.join("proj/a.txt"), Op::Write).is_inside());
//! // A dangling link: the write would create proj2/x, outside the root.
//! assert!(matches!(roots.check(base.join("proj/link"), Op::Write), Verdict::Outside { .. }));
//! // Nothing to read there: the read cannot happen, so it is refused too.
//! assert!(matches!(roots.check(base.join("proj/link"), Op::Read), Verdict::Unresolvable(_)));
//! ```
#![deny(missing_docs)]

mod fs;
mod index;
mod lexical;
mod memfs;
mod op;
mod open;
mod resolve;
mod roots;
mod roots_list;
mod uri;

pub use crate::fs::{FileKind, Fs, RealFs};
pub use crate::lexical::{LexicalError, NormalPath};
pub use crate::memfs::MemFs;
pub use crate::op::{Op, ParseOpError};
pub use crate::open::{Backend, OpenError, PinnedRoots, BACKEND_ENV};
pub use crate::resolve::{
    resolve_target, resolve_target_traced, ResolveError, ResolveErrorKind, Step, Target, MAX_LINKS,
    NAME_MAX, PATH_MAX,
};
pub use crate::roots::{LexicalRoots, RejectedRoot, Root, RootError, Roots, Verdict};
pub use crate::roots_list::{parse_roots_list, ListedRoot, RootsListError};
pub use crate::uri::{RootUri, UriError};
