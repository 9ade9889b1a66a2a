//! How far a path may climb beneath the directory it is resolved in.

/// How the rest of a path is resolved beneath a root's directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    /// `RESOLVE_BENEATH`: a step that would leave the root is refused.
    Beneath,
    /// `RESOLVE_IN_ROOT`: the root is `/`, and `..` and absolute links work
    /// as they always do there. Used only for the root `/`.
    InRoot,
}
