//! Flavours: whose path semantics a verdict follows. [`Flavour::Linux`] is
//! semantics.md as it stands, judged by the kernel. [`Flavour::Windows`]
//! and [`Flavour::MacOs`] are models (there is no such kernel here to
//! ask): their rules are core's lexical rules for those platforms
//! (`rootguard::lexical::{windows, macos}`, feature `flavours`,
//! re-exported here as [`windows`] and [`macos`]), the one place they are
//! written, and every verdict built on them says its truth is the
//! model's ([`TruthSource::Model`]). semantics.md, "Other flavours",
//! states the rules; `tests/vectors/` anchors them to other projects' own
//! test vectors (docs/design/flavours.md says why the rules live in core).
//!
//! # Examples
//!
//! ```
//! use rootguard_judge::flavour::{inside, windows, Flavour, TruthSource};
//! use rootguard_judge::Truth;
//!
//! assert_eq!(windows::full_path(r"C:\proj\x. . .").as_deref(), Ok(r"C:\proj\x"));
//! let v = inside(&["file:///C:/proj"], r"C:\proj\notes.txt::$DATA", Flavour::Windows);
//! assert_eq!((v.truth, v.source), (Truth::Inside, TruthSource::Model));
//! ```

mod inside;
mod kind;

pub use rootguard::lexical::{macos, windows};

pub use inside::{inside, FlavourVerdict};
pub use kind::{Flavour, TruthSource, UnknownFlavour};
