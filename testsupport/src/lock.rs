//! One install at a time into a cache, across threads and processes.

use std::fs::File;
use std::io;
use std::path::Path;

use rustix::fs::{flock, FlockOperation};

/// An exclusive `flock` on `DIR/.lock`, held until dropped. Two opens of
/// the file are two open file descriptions, so threads of one test binary
/// wait for each other as separate processes (cargo-nextest's) do.
pub(crate) struct CacheLock(#[allow(dead_code)] File);

impl CacheLock {
    /// Creates `dir` if need be and waits for its lock.
    pub(crate) fn take(dir: &Path) -> io::Result<CacheLock> {
        std::fs::create_dir_all(dir)?;
        let file = File::create(dir.join(".lock"))?;
        flock(&file, FlockOperation::LockExclusive)?;
        Ok(CacheLock(file))
    }
}
