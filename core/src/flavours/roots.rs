//! Roots checked by another platform's lexical rules: [`FlavouredRoots`].

use std::fmt;

use super::macos::{self, MacPathError};
use super::windows::{self, Location, NameMatch, Target};
use crate::root_id::RootId;

/// A platform whose path rules the lexical layer knows besides Linux's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Flavour {
    /// Win32 paths on NTFS ([`windows`]).
    Windows,
    /// macOS paths on APFS's default volumes ([`macos`]).
    MacOs,
}

/// What a flavour's lexical rules say of a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FlavouredAnswer {
    /// At or beneath this root (the first in the caller's order), on every
    /// reading of the path.
    Inside(RootId),
    /// Beneath no root on any reading.
    Outside,
    /// Win32 opens this DOS device (`\\.\CON`), which is beneath no root.
    Device(String),
    /// The text alone cannot tell.
    Unsure(Unsure),
}

impl FlavouredAnswer {
    /// The root, when the path is inside one on every reading.
    pub fn root(&self) -> Option<RootId> {
        match self {
            FlavouredAnswer::Inside(id) => Some(*id),
            _ => None,
        }
    }
}

/// Why a flavour's lexical rules cannot tell where a path lands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unsure {
    /// Not UTF-8: no Windows (UTF-16) or APFS name spells it.
    NotUtf8,
    /// A NUL: no system call takes it.
    Nul,
    /// Relative, rooted on the current drive (`\x`) or drive-relative
    /// (`C:x`): it depends on a current directory.
    NeedsCwd,
    /// No file system takes it (why).
    Invalid(&'static str),
    /// It may be beneath this root, or not: a short name (`PROJEC~1`), a
    /// trailing dot or space before the last name, or another spelling of
    /// the volume (`\\localhost\C$`, `\\?\Volume{…}`) may alias it.
    MaybeBeneath(RootId),
}

impl fmt::Display for Unsure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unsure::NotUtf8 => f.write_str("not UTF-8: no Windows or APFS name spells it"),
            Unsure::Nul => f.write_str("a NUL: no system call takes it"),
            Unsure::NeedsCwd => f.write_str(
                "relative, rooted or drive-relative: it depends on a current directory",
            ),
            Unsure::Invalid(why) => write!(f, "no file system takes it: {why}"),
            Unsure::MaybeBeneath(id) => write!(
                f,
                "may be beneath root {}: a short name, a trailing dot or space, or another spelling of the volume may alias it, and text alone cannot tell",
                id.index()
            ),
        }
    }
}

/// A root as a flavour reads it.
#[derive(Debug, Clone)]
enum Parsed {
    Windows(Location),
    MacOs(Vec<String>),
}

/// Roots checked by another platform's lexical rules, with no I/O: Win32
/// normalization and NTFS's names ([`windows`]), or macOS's `/private`
/// links and APFS's names ([`macos`]). Only sound where the tree holds no
/// links but those the rules know (macOS's `/tmp`, `/var`, `/etc`), like
/// [`LexicalRoots`](crate::lexical::LexicalRoots) on Linux.
///
/// # Examples
///
/// ```
/// use rootguard::lexical::{Flavour, FlavouredAnswer, FlavouredRoots};
///
/// let roots = FlavouredRoots::new(Flavour::Windows, ["file:///C:/proj"]);
/// assert!(roots.inside(r"c:\PROJ\notes.txt::$DATA").root().is_some());
/// assert_eq!(roots.inside(r"C:\proj2\x"), FlavouredAnswer::Outside);
/// assert!(matches!(roots.inside(r"C:\proj\CON"), FlavouredAnswer::Device(_)));
/// // The Kelvin sign is not `K` to NTFS.
/// let kelvin = FlavouredRoots::new(Flavour::Windows, ["file:///C:/work"]);
/// assert_eq!(kelvin.inside("C:\\wor\u{212a}\\x"), FlavouredAnswer::Outside);
///
/// let mac = FlavouredRoots::new(Flavour::MacOs, ["file:///tmp/Caf%C3%A9"]);
/// assert!(mac.inside("/private/tmp/CAFE\u{301}/x").root().is_some());
/// ```
#[derive(Debug, Clone)]
pub struct FlavouredRoots {
    flavour: Flavour,
    accepted: Vec<(usize, Parsed)>,
    rejected: Vec<(usize, String)>,
}

impl FlavouredRoots {
    /// Parses `uris` as `flavour`'s clients spell roots; a URI that names
    /// no directory there is kept aside with its reason.
    pub fn new<I, S>(flavour: Flavour, uris: I) -> FlavouredRoots
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut accepted = Vec::new();
        let mut rejected = Vec::new();
        for (index, uri) in uris.into_iter().enumerate() {
            match parse(flavour, uri.as_ref()) {
                Ok(parsed) => accepted.push((index, parsed)),
                Err(why) => rejected.push((index, why)),
            }
        }
        FlavouredRoots {
            flavour,
            accepted,
            rejected,
        }
    }

    /// The flavour.
    pub fn flavour(&self) -> Flavour {
        self.flavour
    }

    /// The roots that count for nothing, as (index in the list given,
    /// why).
    pub fn rejected(&self) -> &[(usize, String)] {
        &self.rejected
    }

    /// Where `path` (a request's bytes) lands, by the flavour's rules.
    pub fn inside(&self, path: impl AsRef<[u8]>) -> FlavouredAnswer {
        match self.flavour {
            Flavour::Windows => self.on_windows(path.as_ref()),
            Flavour::MacOs => self.on_macos(path.as_ref()),
        }
    }

    fn on_windows(&self, path: &[u8]) -> FlavouredAnswer {
        let Ok(text) = std::str::from_utf8(path) else {
            return FlavouredAnswer::Unsure(Unsure::NotUtf8);
        };
        if text.contains('\0') {
            return FlavouredAnswer::Unsure(Unsure::Nul);
        }
        let location = match windows::target(text) {
            Target::Location(l) => l,
            Target::Device(d) => return FlavouredAnswer::Device(d),
            Target::NeedsCwd => return FlavouredAnswer::Unsure(Unsure::NeedsCwd),
            Target::Invalid(why) => return FlavouredAnswer::Unsure(Unsure::Invalid(why)),
        };
        let mut maybe = None;
        for (index, root) in &self.accepted {
            let Parsed::Windows(root) = root else {
                continue;
            };
            match windows::contains(root, &location) {
                NameMatch::Same => return FlavouredAnswer::Inside(RootId::new(*index)),
                NameMatch::Maybe => {
                    maybe.get_or_insert(RootId::new(*index));
                }
                NameMatch::Different => {}
            }
        }
        match maybe {
            Some(id) => FlavouredAnswer::Unsure(Unsure::MaybeBeneath(id)),
            None => FlavouredAnswer::Outside,
        }
    }

    fn on_macos(&self, path: &[u8]) -> FlavouredAnswer {
        let names = match macos::components(path) {
            Ok(names) => names,
            Err(MacPathError::NotAbsolute) => return FlavouredAnswer::Unsure(Unsure::NeedsCwd),
            Err(MacPathError::NulByte) => return FlavouredAnswer::Unsure(Unsure::Nul),
            Err(MacPathError::NotUtf8) => return FlavouredAnswer::Unsure(Unsure::NotUtf8),
        };
        for (index, root) in &self.accepted {
            if let Parsed::MacOs(root) = root {
                if macos::contains(root, &names) {
                    return FlavouredAnswer::Inside(RootId::new(*index));
                }
            }
        }
        FlavouredAnswer::Outside
    }
}

/// A root URI as `flavour` reads it, or why it names nothing.
fn parse(flavour: Flavour, uri: &str) -> Result<Parsed, String> {
    match flavour {
        Flavour::Windows => {
            let path = windows::path_from_file_uri(uri).map_err(|e| e.to_string())?;
            match windows::target(&path) {
                Target::Location(l) => Ok(Parsed::Windows(l)),
                Target::Device(d) => Err(format!("it names the device {d}")),
                Target::NeedsCwd => Err("it depends on a current directory".to_owned()),
                Target::Invalid(why) => Err(format!("no file system takes it: {why}")),
            }
        }
        Flavour::MacOs => macos::root_components(uri)
            .map(Parsed::MacOs)
            .map_err(|e| format!("{e:?}")),
    }
}
