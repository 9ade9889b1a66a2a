//! The hostile vocabulary of the modelled flavours ([`Flavour::Windows`],
//! [`Flavour::MacOs`]): one systematic list of queries a flavour's checker
//! is asked, the same at every seed, so that every seed finds the same
//! defects. There is no tree (the flavours are lexical models): each
//! [`FlavourCase`] is roots, a path spelled in the flavour and an
//! operation, and its truth is [`crate::flavour::inside`]'s.
//!
//! Each case carries the names of the hostile features it holds
//! ([`FlavourCase::marks`]), in the words of the triage crate's features
//! (`ntfs-stream`, `dos-device`, `sibling-prefix`, ...), so that a defect
//! it shows is named by the feature that makes it hostile.

use super::file_uri;
use super::folds::{fold_pairs, FoldPair, Image};
use crate::flavour::Flavour;
use crate::Op;

/// One query of a modelled flavour: roots, a path and an operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlavourCase {
    /// `family/form`, unique in the flavour's list.
    pub name: String,
    /// Root URIs, spelled as the flavour's clients spell them.
    pub roots: Vec<String>,
    /// The path, spelled in the flavour.
    pub path: String,
    /// The operation.
    pub op: Op,
    /// The hostile features the path holds (triage feature names); empty
    /// for a plain path.
    pub marks: Vec<&'static str>,
}

/// The Windows root every Windows case but the UNC ones is asked under.
pub const WINDOWS_ROOT: &str = "file:///C:/proj";
/// The UNC root of the UNC cases.
pub const WINDOWS_UNC_ROOT: &str = "file://server/share/proj";
/// The macOS root of the macOS cases: beneath `/tmp`, a link to `/private/tmp`.
pub const MACOS_ROOT: &str = "file:///tmp/proj";

/// Every case of `flavour`'s systematic list, in the order they are asked;
/// empty for [`Flavour::Linux`], whose systematic phase is
/// [`super::systematic`].
///
/// # Examples
///
/// ```
/// use rootguard_judge::flavour::{inside, Flavour};
/// use rootguard_judge::gen::flavoured_cases;
/// use rootguard_judge::Truth;
///
/// let cases = flavoured_cases(Flavour::Windows);
/// let ads = cases.iter().find(|c| c.marks.contains(&"ntfs-stream")).unwrap();
/// assert!(ads.path.contains(':'));
/// let device = cases.iter().find(|c| c.path == r"C:\proj\CON").unwrap();
/// assert_eq!(inside(&device.roots, &device.path, Flavour::Windows).truth, Truth::Outside);
/// ```
pub fn flavoured_cases(flavour: Flavour) -> Vec<FlavourCase> {
    match flavour {
        Flavour::Linux => Vec::new(),
        Flavour::Windows => windows(),
        Flavour::MacOs => macos(),
    }
}

fn case(family: &str, roots: &[&str], path: &str, op: Op, marks: &[&'static str]) -> FlavourCase {
    FlavourCase {
        name: format!("{family}/{path}/{op}"),
        roots: roots.iter().map(|r| (*r).to_owned()).collect(),
        path: path.to_owned(),
        op,
        marks: marks.to_vec(),
    }
}

/// Paths under [`WINDOWS_ROOT`] (or [`WINDOWS_UNC_ROOT`]), by family: each
/// `(family, root, paths, marks)`.
type Family = (
    &'static str,
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
);

const WINDOWS_FAMILIES: &[Family] = &[
    (
        "plain",
        WINDOWS_ROOT,
        &[r"C:\proj", r"C:\proj\notes.txt", r"C:\proj\src\main.rs"],
        &[],
    ),
    (
        "plain-outside",
        WINDOWS_ROOT,
        &[r"C:\secret.txt", r"D:\proj\notes.txt", r"C:\"],
        &[],
    ),
    (
        "sibling",
        WINDOWS_ROOT,
        &[
            r"C:\proj2\secret.txt",
            r"C:\proj-old",
            r"C:\project\x",
            r"C:\PROJ2\secret.txt",
            r"C:\proj2.",
            r"C:\proj2:hidden",
        ],
        &["sibling-prefix"],
    ),
    (
        "dotdot-sibling",
        WINDOWS_ROOT,
        &[r"C:\proj\..\proj2\x", r"C:/proj\..//proj2/x"],
        &["dotdot", "sibling-prefix"],
    ),
    (
        "dotdot",
        WINDOWS_ROOT,
        &[
            r"C:\proj\..\secret.txt",
            r"C:\proj\src\..\..\secret.txt",
            r"C:\proj\src\..\notes.txt",
        ],
        &["dotdot"],
    ),
    (
        "separators",
        WINDOWS_ROOT,
        &[
            "C:/proj/../secret.txt",
            r"C:\proj/..\secret.txt",
            "C:/proj/notes.txt",
            r"C:\\proj\\notes.txt",
        ],
        &["dotdot"],
    ),
    (
        "ntfs-stream",
        WINDOWS_ROOT,
        &[
            r"C:\proj\notes.txt:hidden",
            r"C:\proj\notes.txt::$DATA",
            r"C:\proj::$INDEX_ALLOCATION",
            r"C:\proj:$I30:$INDEX_ALLOCATION\notes.txt",
            r"C:\proj::$INDEX_ALLOCATION\..\secret.txt",
            r"C:\proj:x\..\..\secret.txt",
            r"C:\proj\src:s\..\..\secret.txt",
            r"C:\secret.txt::$DATA",
        ],
        &["ntfs-stream"],
    ),
    (
        "dos-device",
        WINDOWS_ROOT,
        &[
            r"C:\proj\CON",
            r"C:\proj\NUL",
            r"C:\proj\nul.txt",
            r"C:\proj\aux ",
            r"C:\proj\src\COM1",
            r"C:\proj\lpt9.log",
            r"C:\proj\CONIN$",
            r"C:\proj\con  .log",
            r"C:\proj\COM¹",
            r"C:\proj\prn:x",
        ],
        &["dos-device"],
    ),
    (
        "win32-strip",
        WINDOWS_ROOT,
        &[
            r"C:\proj\..",
            r"C:\proj\src\..\..",
            r"C:\proj\. .\..",
            r"C:\proj.",
            r"C:\proj. . .",
            r"C:\proj \notes.txt",
            r"C:\proj\notes.txt. ",
        ],
        &["win32-strip"],
    ),
    (
        "drive-relative",
        WINDOWS_ROOT,
        &[
            r"C:proj\notes.txt",
            r"C:..\secret.txt",
            r"\proj\notes.txt",
            r"proj\notes.txt",
        ],
        &["drive-relative"],
    ),
    (
        "ntfs-case",
        WINDOWS_ROOT,
        &[r"C:\PROJ\notes.txt", r"c:\proj\notes.txt", r"c:\Proj"],
        &["ntfs-case"],
    ),
    (
        "short-name",
        WINDOWS_ROOT,
        &[r"C:\PROJ~1\notes.txt", r"C:\proj\NOTES~1.TXT"],
        // `proj` fits 8.3, so `PROJ~1` is another name, beside it.
        &["short-name", "sibling-prefix"],
    ),
    (
        "win-prefix",
        WINDOWS_ROOT,
        &[
            r"\\?\C:\proj\notes.txt",
            r"\\.\C:\proj\notes.txt",
            r"\\.\C:\proj\..\secret.txt",
            r"//./C:/proj/../secret.txt",
            r"//?/C:/proj/../secret.txt",
            r"\\?\C:\proj\..\secret.txt",
            r"\??\C:\proj\notes.txt",
            r"\\.\COM1",
            r"\\?\UNC\server\share\proj",
            r"\\localhost\C$\proj\notes.txt",
            r"\\server\share\proj\notes.txt",
        ],
        &["win-prefix"],
    ),
    (
        "unc-case",
        WINDOWS_UNC_ROOT,
        &[r"\\SERVER\Share\proj\x", r"\\server\share\PROJ"],
        &["ntfs-case"],
    ),
    (
        "unc-sibling",
        WINDOWS_UNC_ROOT,
        &[r"\\server\share\proj2\x", r"\\server\share\proj.old"],
        &["sibling-prefix"],
    ),
    (
        "unc",
        WINDOWS_UNC_ROOT,
        &[
            r"\\server\share\proj\notes.txt",
            "//server/share/proj/notes.txt",
            r"\\server\share\..\secret.txt",
            r"\\server\share\proj\..\..\other\x",
            r"\\.\UNC\server\share\proj\x",
            r"\\?\UNC\server\share\proj\..\x",
            r"\\other\share\proj\x",
        ],
        &["win-prefix"],
    ),
];

/// Roots spelled every way a Windows client may spell `C:\proj`.
const WINDOWS_ROOT_SPELLINGS: &[&str] = &[
    "file:///c%3A/proj",
    "file:C:/proj",
    "file://localhost/C:/proj",
    "file:///C:/PROJ/",
];

fn windows() -> Vec<FlavourCase> {
    let mut out = Vec::new();
    for (family, root, paths, marks) in WINDOWS_FAMILIES {
        for path in *paths {
            for op in [Op::Read, Op::Write] {
                out.push(case(family, &[root], path, op, marks));
            }
        }
    }
    for root in WINDOWS_ROOT_SPELLINGS {
        for path in [r"C:\proj\notes.txt", r"C:\secret.txt"] {
            let family = format!("root-spelling {root}");
            out.push(case(&family, &[root], path, Op::Read, &["root-respelled"]));
        }
    }
    out.extend(folded(Flavour::Windows));
    out
}

/// The drive and directory the fold cases' roots and paths are beneath,
/// in the flavour's spelling and as a URI path.
fn fold_base(flavour: Flavour) -> (&'static str, &'static str, char) {
    match flavour {
        Flavour::Windows => (r"C:\", "/C:/", '\\'),
        _ => ("/Users/me/", "/Users/me/", '/'),
    }
}

/// The cases of [`fold_pairs`]: for a character whose image is a piece of
/// a name, the root `pro{image}j` and the path `pro{char}j\secret.txt`,
/// and the reverse (a checker may fold only the path, or only the roots);
/// for one whose image is a step of a path, a path that leaves the root
/// as the file system reads it and enters it as the fold does
/// (`C:\other\‥\proj\secret.txt`, `C:\other／..／proj／secret.txt`,
/// `C:\proj：x`). Asked one fold after another in turn (the first
/// character of each fold, then the second of each), so that every fold
/// is asked within its first few queries whatever the list's length.
fn folded(flavour: Flavour) -> Vec<FlavourCase> {
    let mark: &'static str = if flavour == Flavour::Windows {
        "ntfs-fold"
    } else {
        "apfs-fold"
    };
    let mut streams: Vec<Vec<&FoldPair>> = Vec::new();
    for fold in super::Fold::ALL {
        streams.push(
            fold_pairs(flavour)
                .iter()
                .filter(|p| p.fold == fold && p.kind == Image::Name)
                .collect(),
        );
    }
    streams.push(
        fold_pairs(flavour)
            .iter()
            .filter(|p| p.kind == Image::Step)
            .collect(),
    );
    let longest = streams.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = Vec::new();
    for at in 0..longest {
        for pair in streams.iter().filter_map(|s| s.get(at)) {
            out.extend(fold_cases(flavour, pair, mark));
        }
    }
    out
}

fn fold_cases(flavour: Flavour, pair: &FoldPair, mark: &'static str) -> Vec<FlavourCase> {
    let (base, uri_base, sep) = fold_base(flavour);
    let family = format!("fold-{}", pair.fold.name());
    let c = pair.from;
    let image = pair.image.as_str();
    let root_of = |name: &str| file_uri(format!("{uri_base}{name}").as_bytes());
    match pair.kind {
        Image::Name => [
            (image.to_owned(), c.to_string()),
            (c.to_string(), image.to_owned()),
        ]
        .into_iter()
        .map(|(in_root, in_path)| {
            let root = root_of(&format!("pro{in_root}j"));
            let path = format!("{base}pro{in_path}j{sep}secret.txt");
            let mut case = case(&family, &[root.as_str()], &path, Op::Read, &[mark]);
            // Many characters share an image: the character names the case.
            case.name = format!("{family}/U+{:04X}/{path}/{}", u32::from(c), case.op);
            case
        })
        .collect(),
        Image::Step => {
            let root = root_of("proj");
            let path = match image {
                ".." => format!("{base}other{sep}{c}{sep}proj{sep}secret.txt"),
                "." => format!("{base}other{sep}{c}{c}{sep}proj{sep}secret.txt"),
                ":" => format!("{base}proj{c}x"),
                _ => format!("{base}other{c}..{c}proj{c}secret.txt"),
            };
            vec![case(
                "fold-step",
                &[root.as_str()],
                &path,
                Op::Read,
                &[mark],
            )]
        }
    }
}

/// The root's name `proj` is asked as `Café`: its case and normalization
/// variants are what APFS takes as the same name.
const MACOS_FAMILIES: &[Family] = &[
    (
        "plain",
        MACOS_ROOT,
        &["/tmp/proj/notes.txt", "/tmp/proj"],
        &[],
    ),
    (
        "plain-outside",
        MACOS_ROOT,
        &["/tmp/secret.txt", "/etc/passwd", "/Users/x/secret.txt"],
        &[],
    ),
    (
        "sibling",
        MACOS_ROOT,
        &["/tmp/proj2/secret.txt", "/private/tmp/proj2"],
        &["sibling-prefix"],
    ),
    (
        "dotdot",
        MACOS_ROOT,
        &[
            "/tmp/proj/../secret.txt",
            "/tmp/proj/src/../../secret.txt",
            "/tmp/proj/src/../notes.txt",
        ],
        &["dotdot"],
    ),
    (
        "private-link",
        MACOS_ROOT,
        &[
            "/private/tmp/proj/notes.txt",
            "/private/tmp/proj",
            "/TMP/proj/notes.txt",
            "/tmp/../private/tmp/proj/x",
            "/var/../tmp/proj/x",
            "/tmp/../secret.txt",
            "/private/etc/passwd",
        ],
        &["private-link"],
    ),
    (
        // `..` after `/tmp` leaves `/private/tmp` for `/private`, not `/`.
        "private-link-dotdot",
        "file:///Users/me/proj",
        &[
            "/tmp/../Users/me/proj/secret.txt",
            "/var/../Users/me/proj",
            "/etc/../Users/me/proj/x",
            "/Users/me/proj/notes.txt",
            "/Users/me/proj/../proj/notes.txt",
        ],
        &["private-link"],
    ),
    (
        "apfs-case",
        MACOS_ROOT,
        &["/tmp/PROJ/notes.txt", "/tmp/Proj", "/tmp/PROJ2/x"],
        &["apfs-name"],
    ),
];

/// The NFC and NFD spellings of `Café`, the root's name in the
/// normalization cases.
const CAFE_NFC: &str = "Caf\u{e9}";
const CAFE_NFD: &str = "Cafe\u{301}";

fn macos() -> Vec<FlavourCase> {
    let mut out = Vec::new();
    for (family, root, paths, marks) in MACOS_FAMILIES {
        for path in *paths {
            for op in [Op::Read, Op::Write] {
                out.push(case(family, &[root], path, op, marks));
            }
        }
    }
    // The root in NFC (as a client percent-encodes it) and in NFD, and
    // each path in the other form, in another case, and beside it.
    let nfc_root = "file:///private/tmp/Caf%C3%A9";
    let nfd_root = "file:///private/tmp/Cafe%CC%81";
    let upper = "CAF\u{c9}";
    for (root, other) in [(nfc_root, CAFE_NFD), (nfd_root, CAFE_NFC)] {
        let family = format!("apfs-normalization {root}");
        for path in [
            format!("/private/tmp/{other}/notes.txt"),
            format!("/tmp/{other}/notes.txt"),
            format!("/private/tmp/{upper}/x"),
            format!("/private/tmp/{other}2/x"),
            format!("/private/tmp/{other}/../secret.txt"),
        ] {
            for op in [Op::Read, Op::Write] {
                out.push(case(&family, &[root], &path, op, &["apfs-name"]));
            }
        }
    }
    out.extend(folded(Flavour::MacOs));
    out
}

/// The hostile features a flavoured query holds, read off its text: what
/// the systematic list labels its cases with ([`FlavourCase::marks`]), for
/// a query the list did not make (one read from a scenario file by
/// `replay`). Each is named in the words of the triage crate's features.
///
/// # Examples
///
/// ```
/// use rootguard_judge::flavour::Flavour;
/// use rootguard_judge::gen::marks_of;
///
/// let roots = ["file:///C:/proj".to_owned()];
/// assert_eq!(marks_of(Flavour::Windows, &roots, r"C:\proj\CON"), ["dos-device"]);
/// assert_eq!(marks_of(Flavour::Windows, &roots, r"C:\proj2\x"), ["sibling-prefix"]);
/// assert!(marks_of(Flavour::Windows, &roots, "C:\\pro\u{212a}j").contains(&"ntfs-fold"));
/// ```
pub fn marks_of(flavour: Flavour, roots: &[String], path: &str) -> Vec<&'static str> {
    use crate::flavour::{macos, windows};
    let mut marks = Vec::new();
    let mut mark = |m: &'static str, on: bool| {
        if on && !marks.contains(&m) {
            marks.push(m);
        }
    };
    let folds = |c: char| fold_pairs(flavour).iter().any(|p| p.from == c);
    match flavour {
        Flavour::Linux => {}
        Flavour::Windows => {
            let split = windows::split(path);
            let names: Vec<&str> = split
                .rest
                .split(['\\', '/'])
                .filter(|n| !n.is_empty())
                .collect();
            mark(
                "win-prefix",
                split
                    .prefix
                    .as_ref()
                    .is_some_and(|p| !matches!(p, windows::Prefix::Drive(_))),
            );
            mark("drive-relative", !windows::is_absolute(path));
            mark("dotdot", names.contains(&".."));
            mark("ntfs-stream", names.iter().any(|n| n.contains(':')));
            mark(
                "dos-device",
                names.iter().any(|n| windows::dos_device(n).is_some()),
            );
            mark(
                "win32-strip",
                names
                    .iter()
                    .any(|n| *n != "." && *n != ".." && n.ends_with(['.', ' '])),
            );
            mark(
                "short-name",
                names.iter().any(|n| windows::short_name_stem(n).is_some()),
            );
            mark("ntfs-fold", path.chars().any(folds));
            for root in roots {
                let Ok(root) = windows::path_from_file_uri(root) else {
                    continue;
                };
                let (r, p) = (windows::upcase(&root), windows::upcase(path));
                let sibling = p.len() > r.len()
                    && p.starts_with(&r)
                    && !p[r.len()..].starts_with(['\\', '/', ':']);
                mark("sibling-prefix", sibling);
                mark("ntfs-case", p.starts_with(&r) && !path.starts_with(&root));
            }
        }
        Flavour::MacOs => {
            let names: Vec<&str> = path.split('/').filter(|n| !n.is_empty()).collect();
            mark(
                "private-link",
                names.first().is_some_and(|n| {
                    ["tmp", "var", "etc", "private"]
                        .iter()
                        .any(|l| macos::same_name(l, n))
                }),
            );
            mark("dotdot", names.contains(&".."));
            mark("apfs-fold", path.chars().any(folds));
            for root in roots {
                let Ok(root) = macos::root_components(root) else {
                    continue;
                };
                let joined = format!("/{}", root.join("/"));
                let text_beneath = path.starts_with(&joined);
                let sibling = path.len() > joined.len()
                    && text_beneath
                    && !path[joined.len()..].starts_with('/');
                mark("sibling-prefix", sibling);
                let names_beneath =
                    macos::components(path.as_bytes()).is_ok_and(|p| macos::contains(&root, &p));
                mark("apfs-name", names_beneath && !text_beneath);
            }
        }
    }
    marks
}

/// `case` spelled another way, as `draw` picks: its separators mixed, a
/// letter's case flipped, a `\\.\` prefix or a `.\` added on Windows; a
/// letter's case flipped, `/private` added before `/tmp`, or a `/./` or
/// `//` added on macOS. The truth may change (a flipped letter of a Linux
/// name is another name); a driver judges the respelled case afresh, and
/// the marks say what was added.
///
/// # Examples
///
/// ```
/// use rootguard_judge::gen::{flavoured_cases, respelled};
/// use rootguard_judge::flavour::Flavour;
///
/// let case = &flavoured_cases(Flavour::Windows)[0];
/// let other = respelled(case, 3);
/// assert_eq!(other.roots, case.roots);
/// assert_ne!(other.path, case.path);
/// ```
pub fn respelled(case: &FlavourCase, draw: u64) -> FlavourCase {
    let windows = case.path.contains('\\') || case.path.get(1..2) == Some(":");
    let how = draw % 4;
    let at = (draw >> 2) as usize;
    let mut marks = case.marks.clone();
    let mut mark = |m: &'static str| {
        if !marks.contains(&m) {
            marks.push(m);
        }
    };
    let path = match (windows, how) {
        (true, 0) => {
            let mut n = 0;
            case.path
                .chars()
                .map(|c| match c {
                    '\\' | '/' => {
                        n += 1;
                        if (at >> (n % 16)) & 1 == 0 {
                            '/'
                        } else {
                            '\\'
                        }
                    }
                    c => c,
                })
                .collect()
        }
        (_, 1) => {
            mark(if windows { "ntfs-case" } else { "apfs-name" });
            flip_case(&case.path, at)
        }
        (true, 2) if case.path.get(1..3) == Some(":\\") => {
            mark("win-prefix");
            format!(r"\\.\{}", case.path)
        }
        (true, _) => match case.path.get(..3) {
            Some(head) if head.ends_with(":\\") => format!(r"{head}.\{}", &case.path[3..]),
            _ => format!("{}\\.", case.path),
        },
        (false, 2) if case.path.starts_with("/tmp") => {
            mark("private-link");
            format!("/private{}", case.path)
        }
        (false, 2) => format!("/.{}", case.path),
        (false, _) => format!("/{}", case.path),
    };
    FlavourCase {
        name: format!("{} respelled {draw:x}", case.name),
        roots: case.roots.clone(),
        path,
        op: case.op,
        marks,
    }
}

/// `text` with the case of its ASCII letter number `at` (modulo their count) flipped.
fn flip_case(text: &str, at: usize) -> String {
    let letters = text.chars().filter(char::is_ascii_alphabetic).count();
    if letters == 0 {
        return text.to_owned();
    }
    let target = at % letters;
    let mut n = 0;
    text.chars()
        .map(|c| {
            if !c.is_ascii_alphabetic() {
                return c;
            }
            n += 1;
            if n - 1 != target {
                c
            } else if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flavour::inside;
    use crate::Truth;

    fn truths(flavour: Flavour) -> Vec<(FlavourCase, Truth)> {
        flavoured_cases(flavour)
            .into_iter()
            .map(|c| {
                let t = inside(&c.roots, &c.path, flavour).truth;
                (c, t)
            })
            .collect()
    }

    #[test]
    fn names_are_unique_and_linux_has_none() {
        assert!(flavoured_cases(Flavour::Linux).is_empty());
        for flavour in [Flavour::Windows, Flavour::MacOs] {
            let cases = flavoured_cases(flavour);
            let mut names: Vec<_> = cases.iter().map(|c| &c.name).collect();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), cases.len(), "{flavour}");
        }
    }

    #[test]
    fn every_hostile_family_has_an_outside_and_an_inside_case() {
        for flavour in [Flavour::Windows, Flavour::MacOs] {
            let all = truths(flavour);
            for family in ["plain", "dotdot"] {
                for want in [Truth::Inside, Truth::Outside] {
                    assert!(
                        all.iter()
                            .any(|(c, t)| c.name.starts_with(family) && *t == want),
                        "{flavour} {family} {want}"
                    );
                }
            }
        }
        let win = truths(Flavour::Windows);
        for mark in ["ntfs-stream", "dos-device", "win32-strip", "win-prefix"] {
            assert!(
                win.iter()
                    .any(|(c, t)| c.marks.contains(&mark) && *t == Truth::Outside),
                "{mark}"
            );
        }
        for mark in ["ntfs-stream", "ntfs-case", "win-prefix", "win32-strip"] {
            assert!(
                win.iter()
                    .any(|(c, t)| c.marks.contains(&mark) && *t == Truth::Inside),
                "{mark}"
            );
        }
        let mac = truths(Flavour::MacOs);
        for mark in ["private-link", "apfs-name"] {
            for want in [Truth::Inside, Truth::Outside] {
                assert!(
                    mac.iter()
                        .any(|(c, t)| c.marks.contains(&mark) && *t == want),
                    "{mark} {want}"
                );
            }
        }
    }
}
