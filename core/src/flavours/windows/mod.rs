//! The Windows flavour, a model: Win32's path rules and NTFS's names as
//! pure functions over strings. No Windows kernel is asked; every verdict
//! built on these functions is the model's.
//!
//! - [`prefix`](split): separators, prefixes (drive `C:`, UNC
//!   `\\server\share`, device `\\.\`, verbatim `\\?\`), [`is_absolute`].
//! - [`normalize`], [`full_path`]: what Win32 does to a path before a file
//!   system sees it (trailing dots and spaces, DOS device names).
//! - [`same_name`], [`compare_names`]: NTFS's case-insensitive names and
//!   8.3 short names.
//! - [`path_from_file_uri`]: Windows file URIs.
//! - [`target`], [`contains`]: where a path lands and whether a root
//!   contains it.

mod name;
mod normalize;
mod prefix;
mod target;
mod uri;

pub use name::{compare_names, same_name, short_name_stem, upcase, upcase_table, NameMatch};
pub use normalize::{
    dos_device, full_path, is_local, is_reserved, join, normalize, resolve, spelling, NeedsContext,
};
pub use prefix::{
    components, is_absolute, is_separator, split, split_root, Namespace, Prefix, Split,
};
pub use target::{contains, lexically_contains, target, Component, Location, Target, Volume};
pub use uri::{path_from_file_uri, WindowsUriError};
