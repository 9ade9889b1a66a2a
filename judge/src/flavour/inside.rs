//! The lexical model of every flavour: after the flavour's normalization
//! and name equality, is a path at or beneath a root, comparing whole
//! components (never a text prefix)? No file system is consulted: links
//! are not followed (but macOS's `/private` links, which every Mac has).

use std::fmt;

use super::kind::{Flavour, TruthSource};
use super::macos;
use super::windows::{self, NameMatch, Target};
use crate::oracle::LexicalModel;
use crate::Truth;

/// A verdict of the lexical model for one flavour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlavourVerdict {
    /// The flavour the verdict follows.
    pub flavour: Flavour,
    /// Inside, outside, or either when the model cannot tell or the path
    /// names nothing an operation could reach.
    pub truth: Truth,
    /// The first root containing the path: `Some` exactly when inside.
    pub root: Option<usize>,
    /// Always [`TruthSource::Model`]: these are the model's verdicts.
    pub source: TruthSource,
    /// Why, for a person.
    pub explanation: String,
}

impl fmt::Display for FlavourVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({} {}): {}", self.truth, self.flavour, self.source, self.explanation)
    }
}

fn verdict(flavour: Flavour, truth: Truth, root: Option<usize>, why: String) -> FlavourVerdict {
    FlavourVerdict { flavour, truth, root, source: TruthSource::Model, explanation: why }
}

/// Whether `path` is at or beneath one of `roots` (root URIs, as a client
/// sends them) by `flavour`'s lexical rules: [`windows::target`] and
/// [`windows::contains`] on Windows, [`macos::components`] and
/// [`macos::contains`] on macOS, the oracle's [`LexicalModel`] on Linux.
/// A root that is invalid in the flavour contains nothing.
///
/// # Examples
///
/// ```
/// use rootguard_judge::flavour::{inside, Flavour};
/// use rootguard_judge::Truth;
/// let roots = ["file:///C:/Proj"];
/// assert_eq!(inside(&roots, r"c:\proj\src", Flavour::Windows).truth, Truth::Inside);
/// assert_eq!(inside(&roots, r"C:\Proj2", Flavour::Windows).truth, Truth::Outside);
/// assert_eq!(inside(&roots, r"C:\Proj\NUL", Flavour::Windows).truth, Truth::Outside);
/// assert_eq!(inside(&roots, r"C:\PROJ~1\x", Flavour::Windows).truth, Truth::Either);
/// let mac = ["file:///private/tmp/p"];
/// assert_eq!(inside(&mac, "/TMP/P/x", Flavour::MacOs).truth, Truth::Inside);
/// ```
pub fn inside<S: AsRef<str>>(roots: &[S], path: impl AsRef<[u8]>, flavour: Flavour) -> FlavourVerdict {
    let path = path.as_ref();
    match flavour {
        Flavour::Linux => linux(roots, path),
        Flavour::Windows => on_windows(roots, path),
        Flavour::MacOs => on_macos(roots, path),
    }
}

fn linux<S: AsRef<str>>(roots: &[S], path: &[u8]) -> FlavourVerdict {
    let f = Flavour::Linux;
    match LexicalModel::new(roots).find(path) {
        Ok(Some(i)) => verdict(f, Truth::Inside, Some(i), format!("beneath root {i}, by text")),
        Ok(None) => verdict(f, Truth::Outside, None, "beneath no root, by text".to_owned()),
        Err(why) => verdict(f, Truth::Either, None, format!("no target: {why}")),
    }
}

fn on_windows<S: AsRef<str>>(roots: &[S], path: &[u8]) -> FlavourVerdict {
    let f = Flavour::Windows;
    let either = |why: String| verdict(f, Truth::Either, None, why);
    let Ok(text) = std::str::from_utf8(path) else {
        return either("not UTF-8: no Windows name (UTF-16) spells it".to_owned());
    };
    if text.contains('\0') {
        return either("a NUL: no system call takes it".to_owned());
    }
    let location = match windows::target(text) {
        Target::Location(l) => l,
        Target::Device(d) => {
            let why = format!("Win32 opens the device {d}, beneath no root");
            return verdict(f, Truth::Outside, None, why);
        }
        Target::NeedsCwd => {
            return either("relative, rooted or drive-relative: it depends on a current directory".to_owned())
        }
        Target::Invalid(why) => return either(format!("no file system takes it: {why}")),
    };
    let mut maybe = None;
    for (i, root) in roots.iter().enumerate() {
        let Ok(root_path) = windows::path_from_file_uri(root.as_ref()) else {
            continue;
        };
        let Target::Location(root_location) = windows::target(&root_path) else {
            continue;
        };
        match windows::contains(&root_location, &location) {
            NameMatch::Same => {
                let why = format!("beneath root {i} ({root_path}), names compared as NTFS does");
                return verdict(f, Truth::Inside, Some(i), why);
            }
            NameMatch::Maybe => {
                maybe.get_or_insert((i, root_path));
            }
            NameMatch::Different => {}
        }
    }
    match maybe {
        Some((i, root)) => either(format!(
            "may be beneath root {i} ({root}): a short name, a trailing dot or space, or another \
             spelling of the volume may alias it, and the model has no tree to tell"
        )),
        None => verdict(f, Truth::Outside, None, "beneath no root, names compared as NTFS does".to_owned()),
    }
}

fn on_macos<S: AsRef<str>>(roots: &[S], path: &[u8]) -> FlavourVerdict {
    let f = Flavour::MacOs;
    let names = match macos::components(path) {
        Ok(names) => names,
        Err(why) => return verdict(f, Truth::Either, None, format!("no target: {why:?}")),
    };
    for (i, root) in roots.iter().enumerate() {
        if let Ok(root_names) = macos::root_components(root.as_ref()) {
            if macos::contains(&root_names, &names) {
                let why = format!("beneath root {i}, names compared as APFS does (case and Unicode normalization ignored)");
                return verdict(f, Truth::Inside, Some(i), why);
            }
        }
    }
    verdict(f, Truth::Outside, None, "beneath no root, names compared as APFS does".to_owned())
}
