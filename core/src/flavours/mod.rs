//! Other platforms' lexical rules (feature `flavours`): Win32 paths on
//! NTFS and macOS paths on APFS, as pure functions over strings, and
//! [`FlavouredRoots`], roots checked by them. They are the rules of
//! docs/semantics.md section 5, which the judge's Windows and macOS
//! models are made of (docs/design/flavours.md); no Windows or macOS
//! kernel is asked.

pub mod macos;
mod roots;
pub mod windows;

pub use roots::{Flavour, FlavouredAnswer, FlavouredRoots, Unsure};
