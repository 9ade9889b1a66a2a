//! A checker's verdict, as a well-formed response carries it.

use rootguard_judge::PathBytes;

/// A checker's verdict on one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// `true`: the operation may proceed.
    pub allowed: bool,
    /// With `allowed`: the path the caller will actually operate on, where
    /// the checker rewrites it.
    pub use_path: Option<PathBytes>,
}

impl Answer {
    /// An answer that allows the path as it is.
    pub fn allow() -> Answer {
        Answer {
            allowed: true,
            use_path: None,
        }
    }
    /// An answer that denies.
    pub fn deny() -> Answer {
        Answer {
            allowed: false,
            use_path: None,
        }
    }
    /// An answer that allows, operating on `path` instead.
    pub fn allow_as(path: impl Into<PathBytes>) -> Answer {
        Answer {
            allowed: true,
            use_path: Some(path.into()),
        }
    }
}
