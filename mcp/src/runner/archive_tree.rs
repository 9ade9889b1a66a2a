//! The archive phase's archives: zip and tar files whose entries lead out
//! of the directory they are extracted into, made in Rust (the `zip` and
//! `tar` crates) for each base, since their names hold the base.
//!
//! Each archive is extracted into [`INTO`] (`{base}/proj/in`, where it
//! lies) and holds one way out, to a file of its own beneath `{base}/out`:
//! an entry named `../../out/…`, an entry named by its absolute path, or
//! a symbolic-link entry to `{base}/out` followed by a file entry beneath
//! the link. `plain` archives hold one harmless file, for the attacks on
//! where a tool extracts to.

use std::io::{Cursor, Write};

use rootguard_judge::Materialized;

use crate::HarnessError;

/// Where every archive lies and is extracted into, beneath the base.
pub(super) const INTO: &str = "proj/in";

/// An archive's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Format {
    Zip,
    Tar,
}

impl Format {
    pub(super) const ALL: [Format; 2] = [Format::Zip, Format::Tar];

    fn extension(self) -> &'static str {
        match self {
            Format::Zip => "zip",
            Format::Tar => "tar",
        }
    }
}

/// How an archive's entry leads out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Way {
    /// `../../out/NAME`.
    DotDot,
    /// `{base}/out/NAME`.
    Absolute,
    /// A link entry `escape-FORMAT -> {base}/out`, then `escape-FORMAT/NAME`.
    Link,
    /// One file, `NAME`, nothing hostile.
    Plain,
}

impl Way {
    pub(super) const HOSTILE: [Way; 3] = [Way::DotDot, Way::Absolute, Way::Link];

    pub(super) fn as_str(self) -> &'static str {
        match self {
            Way::DotDot => "dotdot",
            Way::Absolute => "absolute",
            Way::Link => "link",
            Way::Plain => "plain",
        }
    }
}

/// One archive of the phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Archive {
    pub format: Format,
    pub way: Way,
}

impl Archive {
    /// Every archive laid: each hostile way and the plain one, in both formats.
    pub(super) fn all() -> Vec<Archive> {
        let mut out = Vec::new();
        for format in Format::ALL {
            for way in Way::HOSTILE.into_iter().chain([Way::Plain]) {
                out.push(Archive { format, way });
            }
        }
        out
    }

    /// Its file name (`slip-dotdot.zip`).
    pub(super) fn file(self) -> String {
        format!("slip-{}.{}", self.way.as_str(), self.format.extension())
    }

    /// Where it lies (`{base}` form).
    pub(super) fn path(self) -> String {
        format!("{{base}}/{INTO}/{}", self.file())
    }

    /// The name of the file its hostile entry writes (beneath `{base}/out`
    /// when it escapes; the plain one's beneath wherever it is extracted).
    pub(super) fn written(self) -> String {
        format!(
            "zipslip-{}-{}.txt",
            self.way.as_str(),
            self.format.extension()
        )
    }

    /// Its entries, `base` the real base: (name, link target or `None`
    /// for a file).
    fn entries(self, base: &str) -> Vec<(String, Option<String>)> {
        let name = self.written();
        match self.way {
            Way::DotDot => vec![(format!("../../out/{name}"), None)],
            Way::Absolute => vec![(format!("{base}/out/{name}"), None)],
            Way::Link => {
                let link = format!("escape-{}", self.format.extension());
                vec![
                    (link.clone(), Some(format!("{base}/out"))),
                    (format!("{link}/{name}"), None),
                ]
            }
            Way::Plain => vec![(name, None)],
        }
    }

    /// Its bytes for the base `base`.
    fn bytes(self, base: &str) -> Result<Vec<u8>, String> {
        let entries = self.entries(base);
        match self.format {
            Format::Zip => zip_bytes(&entries),
            Format::Tar => tar_bytes(&entries),
        }
    }
}

/// What every file entry holds.
pub(super) const CONTENT: &[u8] = b"ROOTGUARD-EXTRACTED\n";

/// A zip of `entries`, stored (no compression), names as given.
fn zip_bytes(entries: &[(String, Option<String>)]) -> Result<Vec<u8>, String> {
    use zip::write::SimpleFileOptions;
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, link) in entries {
        match link {
            Some(target) => zip
                .add_symlink(name, target, options)
                .map_err(|e| e.to_string())?,
            None => {
                zip.start_file(name, options).map_err(|e| e.to_string())?;
                zip.write_all(CONTENT).map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(zip.finish().map_err(|e| e.to_string())?.into_inner())
}

/// A tar of `entries` (GNU headers), names written as given: the `tar`
/// crate's path setters refuse `..` and absolute names, so they go into
/// the header's name field directly.
fn tar_bytes(entries: &[(String, Option<String>)]) -> Result<Vec<u8>, String> {
    let mut builder = tar::Builder::new(Vec::new());
    for (name, link) in entries {
        let mut header = tar::Header::new_gnu();
        let field = &mut header.as_old_mut().name;
        if name.len() >= field.len() {
            return Err(format!(
                "the entry name {name} is too long for a tar header"
            ));
        }
        field[..name.len()].copy_from_slice(name.as_bytes());
        header.set_mtime(0);
        match link {
            Some(target) => {
                header.set_entry_type(tar::EntryType::Symlink);
                header.set_mode(0o777);
                header.set_size(0);
                header
                    .set_link_name_literal(target)
                    .map_err(|e| e.to_string())?;
                header.set_cksum();
                builder
                    .append(&header, std::io::empty())
                    .map_err(|e| e.to_string())?;
            }
            None => {
                header.set_entry_type(tar::EntryType::Regular);
                header.set_mode(0o644);
                header.set_size(CONTENT.len() as u64);
                header.set_cksum();
                builder
                    .append(&header, CONTENT)
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    builder.into_inner().map_err(|e| e.to_string())
}

/// Writes every archive of [`Archive::all`] into `m`'s [`INTO`].
///
/// # Errors
///
/// [`HarnessError::Io`] when one cannot be made or written.
pub(super) fn lay(m: &Materialized) -> Result<(), HarnessError> {
    let dir = m.base().join(INTO);
    std::fs::create_dir_all(&dir)
        .map_err(|e| HarnessError::Io(format!("cannot make {}: {e}", dir.display())))?;
    for archive in Archive::all() {
        let bytes = archive
            .bytes(m.base_text())
            .map_err(|e| HarnessError::Io(format!("cannot make {}: {e}", archive.file())))?;
        let path = dir.join(archive.file());
        std::fs::write(&path, bytes)
            .map_err(|e| HarnessError::Io(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn the_archives_hold_their_hostile_names_as_written() {
        let base = "/b";
        let dotdot = Archive {
            format: Format::Zip,
            way: Way::DotDot,
        };
        let bytes = dotdot.bytes(base).expect("zip");
        let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).expect("reads back");
        let mut entry = zip.by_index(0).expect("entry");
        assert_eq!(entry.name(), "../../out/zipslip-dotdot-zip.txt");
        let mut text = Vec::new();
        entry.read_to_end(&mut text).expect("content");
        assert_eq!(text, CONTENT);
        drop(entry);
        let link = Archive {
            format: Format::Zip,
            way: Way::Link,
        };
        let mut zip =
            zip::ZipArchive::new(Cursor::new(link.bytes(base).expect("zip"))).expect("zip");
        assert!(zip.by_index(0).expect("link").is_symlink());
        for way in Way::HOSTILE {
            let tar_bytes = Archive {
                format: Format::Tar,
                way,
            }
            .bytes(base)
            .expect("tar");
            let mut tar = tar::Archive::new(Cursor::new(tar_bytes));
            let names: Vec<(String, Option<String>)> = tar
                .entries()
                .expect("entries")
                .map(|e| {
                    let e = e.expect("entry");
                    (
                        String::from_utf8_lossy(&e.path_bytes()).into_owned(),
                        e.link_name_bytes()
                            .map(|l| String::from_utf8_lossy(&l).into_owned()),
                    )
                })
                .collect();
            let want: Vec<(String, Option<String>)> = match way {
                Way::DotDot => vec![("../../out/zipslip-dotdot-tar.txt".into(), None)],
                Way::Absolute => vec![("/b/out/zipslip-absolute-tar.txt".into(), None)],
                _ => vec![
                    ("escape-tar".into(), Some("/b/out".into())),
                    ("escape-tar/zipslip-link-tar.txt".into(), None),
                ],
            };
            assert_eq!(names, want);
        }
    }
}
