//! Where a Windows path lands, as far as a model without a file system can
//! tell: a volume and the names beneath it, a device, or nothing without a
//! current directory; and whether one location contains another.

use super::name::{compare_names, upcase, NameMatch};
use super::normalize::{full_path, normalize};
use super::prefix::{split, Prefix};

/// The volume a location is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Volume {
    /// A drive letter, uppercased (`C:\`, `\\?\C:\`, `\\.\C:\`).
    Drive(char),
    /// A share (`\\server\share`, `\\?\UNC\server\share`), as written.
    Share {
        /// The server.
        server: String,
        /// The share.
        share: String,
    },
    /// Another device (`\\?\Volume{…}`, `\\.\HarddiskVolume1`), as
    /// written; it may be the same volume as a drive.
    Device(String),
}

/// One component of a location: the names it may be on disk (one, or
/// more when Win32 may or may not strip a trailing dot or space of a
/// component before the last).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Component {
    /// Each reading of the component, the written one first.
    pub readings: Vec<String>,
}

/// A volume and the components beneath it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The volume.
    pub volume: Volume,
    /// The components, after normalization, streams taken off.
    pub components: Vec<Component>,
}

/// What a path names, for the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A location on a volume.
    Location(Location),
    /// A DOS device (`\\.\NUL`, `C:\x\COM1.txt`): not a file beneath any
    /// directory.
    Device(String),
    /// A relative, rooted or drive-relative path: it depends on a current
    /// directory.
    NeedsCwd,
    /// A path no file system takes (`..` or an empty name in a verbatim
    /// path, a server with no share, a name holding `<>"|?*` or a control
    /// character).
    Invalid(&'static str),
}

/// Whether the server names this machine (an administrative share
/// `\\localhost\C$` is drive C).
fn is_this_machine(server: &str) -> bool {
    matches!(
        upcase(server).as_str(),
        "LOCALHOST" | "127.0.0.1" | "." | "[::1]" | "::1"
    )
}

fn volume_of(prefix: Prefix<'_>) -> Result<Volume, &'static str> {
    let share = |server: &str, share: Option<&str>| match share {
        Some(share) if !server.is_empty() && !share.is_empty() => Ok(Volume::Share {
            server: server.to_owned(),
            share: share.to_owned(),
        }),
        _ => Err("a UNC path needs a server and a share"),
    };
    match prefix {
        Prefix::Drive(letter) => Ok(Volume::Drive(letter.to_ascii_uppercase())),
        Prefix::Unc { server, share: s }
        | Prefix::DeviceUnc {
            server, share: s, ..
        } => share(server, s),
        Prefix::Device { name, .. } => {
            let mut chars = name.chars();
            match (chars.next(), chars.next(), chars.next()) {
                (Some(letter), Some(':'), None) => Ok(Volume::Drive(letter.to_ascii_uppercase())),
                (None, _, _) => Err("a device path needs a device"),
                _ => Ok(Volume::Device(name.to_owned())),
            }
        }
    }
}

/// The readings of a component before the last: as written, and, when it
/// ends in dots or spaces, with one trailing dot removed and with all of
/// them stripped (the model does not claim which Win32 applies there).
fn readings(name: &str, last: bool, verbatim: bool) -> Vec<String> {
    let base = |n: &str| n.split(':').next().unwrap_or("").to_owned();
    if verbatim || last || !name.ends_with(['.', ' ']) {
        return vec![base(name)];
    }
    let mut out = vec![base(name)];
    for reading in [
        name.strip_suffix('.').unwrap_or(name),
        name.trim_end_matches(['.', ' ']),
    ] {
        let reading = base(reading);
        if !out.contains(&reading) {
            out.push(reading);
        }
    }
    out
}

/// What `path` names: [`full_path`] (or the verbatim path as it is), its
/// volume, and its components with any stream (`:stream`, `::$DATA`,
/// `:$I30:$INDEX_ALLOCATION`) taken off, since a stream belongs to the
/// file or directory before its colon.
///
/// # Examples
///
/// ```
/// use rootguard::lexical::windows::{target, Target, Volume};
/// let Target::Location(l) = target(r"c:\Proj\notes.txt:secret") else { panic!() };
/// assert_eq!(l.volume, Volume::Drive('C'));
/// assert_eq!(l.components[1].readings, ["notes.txt"]);
/// assert_eq!(target(r"C:\proj\con.txt"), Target::Device(r"\\.\con".into()));
/// assert_eq!(target("proj"), Target::NeedsCwd);
/// ```
pub fn target(path: &str) -> Target {
    let Ok(full) = full_path(path) else {
        return Target::NeedsCwd;
    };
    let s = split(&full);
    let Some(prefix) = s.prefix else {
        return Target::NeedsCwd;
    };
    if let Prefix::Device { name, .. } = prefix {
        // `\\.\COM1`, `\\?\NUL\x`: a device, in either namespace.
        if super::normalize::dos_device(name).is_some() {
            return Target::Device(full.clone());
        }
    }
    let volume = match volume_of(prefix) {
        Ok(v) => v,
        Err(why) => return Target::Invalid(why),
    };
    let verbatim = s.is_verbatim();
    let names: Vec<&str> = if s.rest.is_empty() {
        Vec::new()
    } else {
        s.rest.split('\\').collect()
    };
    if verbatim
        && names
            .iter()
            .any(|n| matches!(*n, "" | "." | "..") || n.contains('/'))
    {
        return Target::Invalid("a verbatim path with an empty, `.`, `..` or `/` name");
    }
    let refused = |c: char| c < ' ' || "<>\"|?*".contains(c);
    if names.iter().any(|n| n.chars().any(refused)) {
        return Target::Invalid(
            "a name holding a character NTFS refuses (< > \" | ? * or a control)",
        );
    }
    let count = names.len();
    let mut components = Vec::new();
    for (i, name) in names.into_iter().enumerate() {
        let component = Component {
            readings: readings(name, i + 1 == count, verbatim),
        };
        if component.readings.iter().all(String::is_empty) {
            continue; // `dir\:stream` is a stream of dir
        }
        components.push(component);
    }
    Target::Location(Location { volume, components })
}

fn compare_volumes(a: &Volume, b: &Volume) -> NameMatch {
    use super::name::same_name;
    match (a, b) {
        (Volume::Drive(x), Volume::Drive(y)) => {
            if x == y {
                NameMatch::Same
            } else {
                NameMatch::Different
            }
        }
        (
            Volume::Share {
                server: s1,
                share: h1,
            },
            Volume::Share {
                server: s2,
                share: h2,
            },
        ) => {
            if same_name(s1, s2) && same_name(h1, h2) {
                NameMatch::Same
            } else if is_this_machine(s1) && is_this_machine(s2) && same_name(h1, h2) {
                NameMatch::Maybe
            } else {
                NameMatch::Different
            }
        }
        (Volume::Drive(d), Volume::Share { server, share })
        | (Volume::Share { server, share }, Volume::Drive(d)) => {
            // `\\localhost\C$` is drive C's root.
            let admin = format!("{d}$");
            if is_this_machine(server) && same_name(share, &admin) {
                NameMatch::Maybe
            } else {
                NameMatch::Different
            }
        }
        (Volume::Device(x), Volume::Device(y)) => {
            if same_name(x, y) {
                NameMatch::Same
            } else {
                NameMatch::Different
            }
        }
        // A volume device may be a drive or a share.
        (Volume::Device(_), _) | (_, Volume::Device(_)) => NameMatch::Maybe,
    }
}

fn compare_components(a: &Component, b: &Component) -> NameMatch {
    let mut all = a
        .readings
        .iter()
        .flat_map(|x| b.readings.iter().map(move |y| compare_names(x, y)));
    let first = all.next().unwrap_or(NameMatch::Different);
    if all.all(|m| m == first) {
        first
    } else {
        NameMatch::Maybe
    }
}

/// Whether `location` is at or beneath `root`: [`NameMatch::Same`] when
/// it is on every reading, [`NameMatch::Different`] when it is on none,
/// [`NameMatch::Maybe`] otherwise (a short name, an uncertain trailing dot
/// or space, a volume device, an administrative share).
pub fn contains(root: &Location, location: &Location) -> NameMatch {
    if root.components.len() > location.components.len() {
        return NameMatch::Different;
    }
    let mut verdict = compare_volumes(&root.volume, &location.volume);
    for (r, l) in root.components.iter().zip(&location.components) {
        verdict = verdict.max(compare_components(r, l));
        if verdict == NameMatch::Different {
            break;
        }
    }
    verdict
}

/// Whether `path` lies at or beneath `base` by their text alone, any two
/// Windows paths (relative ones taken from the same current directory):
/// `Some(true)` or `Some(false)` when the text decides it, `None` when it
/// depends on the current directory (a relative path against an absolute
/// one, `..` climbing further in one than in the other, unless the path
/// climbs too far to come back beneath the base). Names compare as
/// [`same_name`](super::same_name); nothing is stripped.
///
/// # Examples
///
/// ```
/// use rootguard::lexical::windows::lexically_contains;
/// assert_eq!(lexically_contains(r"C:\Proj", "c:/proj/src"), Some(true));
/// assert_eq!(lexically_contains(r"C:\proj", r"C:\proj2"), Some(false));
/// assert_eq!(lexically_contains(r"C:\proj", r"D:\proj"), Some(false));
/// assert_eq!(lexically_contains("..", "a"), None);
/// ```
pub fn lexically_contains(base: &str, path: &str) -> Option<bool> {
    let (base, path) = (normalize(base), normalize(path));
    let (b, p) = (split(&base), split(&path));
    let anchor = |s: &super::prefix::Split<'_>| {
        let volume = s
            .prefix
            .map(|p| volume_of(p).map_err(|_| upcase(s.prefix_text)));
        (
            volume,
            !s.root.is_empty() || s.prefix.is_some_and(|p| p.implies_root()),
        )
    };
    let (bv, br) = anchor(&b);
    let (pv, pr) = anchor(&p);
    let absolute = |v: &Option<Result<Volume, String>>, rooted: bool| {
        v.is_some() && (rooted || !matches!(v, Some(Ok(Volume::Drive(_)))))
    };
    let same_volume = match (&bv, &pv) {
        (Some(Ok(x)), Some(Ok(y))) => compare_volumes(x, y) == NameMatch::Same,
        (Some(Err(x)), Some(Err(y))) => x == y,
        (None, None) => true,
        _ => false,
    };
    if !same_volume {
        // Two volumes both named: different places whatever the cwd.
        let named = bv.is_some() && pv.is_some();
        return (named || absolute(&bv, br) || absolute(&pv, pr)).then_some(false);
    }
    if br != pr {
        return None;
    }
    let names = |s: &str| -> Vec<String> {
        if s.is_empty() || s == "." {
            Vec::new()
        } else {
            s.split('\\').map(str::to_owned).collect()
        }
    };
    let (bn, pn) = (names(b.rest), names(p.rest));
    let ups = |n: &[String]| n.iter().take_while(|x| *x == "..").count();
    let (bu, pu) = (ups(&bn), ups(&pn));
    if bu > pu {
        return None;
    }
    if pu > bu {
        // The path climbs above the base, to where only the current
        // directory's own names lead back: too few names, and it is not
        // beneath; enough, and it depends on those names.
        let (climb, down, base_down) = (pu - bu, pn.len() - pu, bn.len() - bu);
        return (down < climb + base_down).then_some(false);
    }
    Some(
        bn.len() <= pn.len()
            && bn
                .iter()
                .zip(&pn)
                .all(|(x, y)| super::name::same_name(x, y)),
    )
}
