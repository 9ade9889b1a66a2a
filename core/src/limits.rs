//! The kernel's limits on a path, as resolution meets them.

/// Linux follows at most this many symlinks in one resolution (`MAXSYMLINKS`).
pub const MAX_LINKS: u32 = 40;
/// A path of this many bytes or more is refused (`PATH_MAX`, NUL included).
pub const PATH_MAX: usize = 4096;
/// A component longer than this is refused (`NAME_MAX`).
pub const NAME_MAX: usize = 255;
