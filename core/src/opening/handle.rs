//! The root's own descriptor, opened once and kept.

use std::os::unix::ffi::OsStrExt;
use std::sync::OnceLock;

use rustix::fd::OwnedFd;
use rustix::fs::{fstat, FileType, Mode, OFlags};
use rustix::io::Errno;

use super::error::OpenError;
use crate::beneath::Engine;
use crate::root::Root;

/// An accepted root as the kernel holds it.
#[derive(Debug)]
pub(crate) enum RootHandle {
    /// A directory, open `O_PATH | O_DIRECTORY`: paths are resolved
    /// beneath it.
    Dir(OwnedFd),
    /// A single file, known by its (device, inode): the root's path is
    /// opened again and must lead to this very file.
    File((u64, u64)),
}

impl RootHandle {
    /// Opens `root` by its resolved location, refusing a link anywhere in
    /// it: that location was link-free when the root was resolved.
    fn open(root: &Root, engine: Engine) -> Result<RootHandle, OpenError> {
        let at = root.resolved.as_os_str().as_bytes();
        let changed = || OpenError::RootChanged {
            root: root.id(),
            path: root.resolved.clone(),
        };
        let io = |errno: Errno| OpenError::Io {
            path: root.resolved.clone(),
            source: errno.into(),
        };
        let fd = match engine.open_physical(at, OFlags::PATH, Mode::empty()) {
            Ok(fd) => fd,
            Err(Errno::NOENT | Errno::NOTDIR | Errno::LOOP) => return Err(changed()),
            Err(e) => return Err(io(e)),
        };
        let stat = fstat(&fd).map_err(io)?;
        Ok(match FileType::from_raw_mode(stat.st_mode) {
            FileType::Directory => RootHandle::Dir(fd),
            _ => RootHandle::File((stat.st_dev, stat.st_ino)),
        })
    }
}

/// One lazily opened handle per accepted root, in the same order.
#[derive(Debug, Default)]
pub(crate) struct Handles(Vec<OnceLock<RootHandle>>);

impl Handles {
    pub(crate) fn new(count: usize) -> Handles {
        Handles((0..count).map(|_| OnceLock::new()).collect())
    }

    /// The handle of `root` (at `position` among the accepted roots),
    /// opened on first use. A failure is not kept: the next call tries
    /// again.
    pub(crate) fn get(
        &self,
        position: usize,
        root: &Root,
        engine: Engine,
    ) -> Result<&RootHandle, OpenError> {
        let cell = &self.0[position];
        if let Some(handle) = cell.get() {
            return Ok(handle);
        }
        let handle = RootHandle::open(root, engine)?;
        // Two threads may race to open it; the first one kept wins.
        Ok(cell.get_or_init(|| handle))
    }
}
