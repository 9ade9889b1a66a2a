//! The lexical model of every flavour: after the flavour's normalization
//! and name equality, is a path at or beneath a root, comparing whole
//! components (never a text prefix)? No file system is consulted: links
//! are not followed (but macOS's `/private` links, which every Mac has).

use std::fmt;

use super::kind::{Flavour, TruthSource};
use crate::oracle::LexicalModel;
use crate::Truth;
use rootguard::lexical::{Flavour as CoreFlavour, FlavouredAnswer, FlavouredRoots};

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
        write!(
            f,
            "{} ({} {}): {}",
            self.truth, self.flavour, self.source, self.explanation
        )
    }
}

fn verdict(flavour: Flavour, truth: Truth, root: Option<usize>, why: String) -> FlavourVerdict {
    FlavourVerdict {
        flavour,
        truth,
        root,
        source: TruthSource::Model,
        explanation: why,
    }
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
/// // A short name may alias a long one; the model has no tree to tell.
/// let long = ["file:///C:/Projects%20Old"];
/// assert_eq!(inside(&long, r"C:\PROJEC~1\x", Flavour::Windows).truth, Truth::Either);
/// let mac = ["file:///private/tmp/p"];
/// assert_eq!(inside(&mac, "/TMP/P/x", Flavour::MacOs).truth, Truth::Inside);
/// ```
pub fn inside<S: AsRef<str>>(
    roots: &[S],
    path: impl AsRef<[u8]>,
    flavour: Flavour,
) -> FlavourVerdict {
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
        Ok(Some(i)) => verdict(
            f,
            Truth::Inside,
            Some(i),
            format!("beneath root {i}, by text"),
        ),
        Ok(None) => verdict(
            f,
            Truth::Outside,
            None,
            "beneath no root, by text".to_owned(),
        ),
        Err(why) => verdict(f, Truth::Either, None, format!("no target: {why}")),
    }
}

fn on_windows<S: AsRef<str>>(roots: &[S], path: &[u8]) -> FlavourVerdict {
    by_core(CoreFlavour::Windows, roots, path, "NTFS")
}

fn on_macos<S: AsRef<str>>(roots: &[S], path: &[u8]) -> FlavourVerdict {
    by_core(CoreFlavour::MacOs, roots, path, "APFS")
}

/// The verdict of core's lexical rules for `flavour`, explained.
fn by_core<S: AsRef<str>>(
    core: CoreFlavour,
    roots: &[S],
    path: &[u8],
    names: &str,
) -> FlavourVerdict {
    let f = match core {
        CoreFlavour::Windows => Flavour::Windows,
        CoreFlavour::MacOs => Flavour::MacOs,
    };
    let roots = FlavouredRoots::new(core, roots.iter().map(AsRef::as_ref));
    match roots.inside(path) {
        FlavouredAnswer::Inside(id) => verdict(
            f,
            Truth::Inside,
            Some(id.index()),
            format!(
                "beneath root {}, names compared as {names} does",
                id.index()
            ),
        ),
        FlavouredAnswer::Outside => verdict(
            f,
            Truth::Outside,
            None,
            format!("beneath no root, names compared as {names} does"),
        ),
        FlavouredAnswer::Device(d) => verdict(
            f,
            Truth::Outside,
            None,
            format!("Win32 opens the device {d}, beneath no root"),
        ),
        FlavouredAnswer::Unsure(why) => verdict(f, Truth::Either, None, why.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn truth(roots: &[&str], path: &str, flavour: Flavour) -> Truth {
        let v = inside(roots, path, flavour);
        assert_eq!(v.source, TruthSource::Model, "{v}");
        assert_eq!(v.root.is_some(), v.truth == Truth::Inside, "{v}");
        v.truth
    }

    fn windows(roots: &[&str], cases: &[(&str, Truth)]) {
        for (path, want) in cases {
            assert_eq!(
                truth(roots, path, Flavour::Windows),
                *want,
                "{path:?} under {roots:?}"
            );
        }
    }

    use Truth::{Either, Inside, Outside};

    #[test]
    fn windows_compares_whole_components_case_insensitively() {
        windows(
            &["file:///C:/proj"],
            &[
                (r"C:\proj", Inside),
                (r"C:\proj\a", Inside),
                ("c:/PROJ/a", Inside),
                (r"C:\Proj\\a\\", Inside),
                (r"C:\proj2\a", Outside),
                (r"C:\pro", Outside),
                (r"C:\proj\..\proj2", Outside),
                (r"C:\proj\..\..\..\x", Outside),
                (r"C:\proj\a\..\..\proj\b", Inside),
                (r"D:\proj\a", Outside),
                (r"\\server\share\proj", Outside),
            ],
        );
    }

    #[test]
    fn windows_prefixes_name_the_same_volume() {
        windows(
            &["file:///C:/proj"],
            &[
                (r"\\?\C:\proj\a", Inside),
                (r"\\.\C:\proj\a", Inside),
                (r"//?/c:/proj/a", Inside),
                // Verbatim: the dot stays, so this is another directory.
                (r"\\?\C:\proj.\a", Outside),
                (r"\\?\C:\proj\..\x", Either),
                (r"\\?\C:\proj\a/b", Either),
                (r"C:\proj\a?b", Either),
                (r"C:\proj\*", Either),
                ("C:\\proj\\a\u{1}", Either),
                // The administrative share may be drive C.
                (r"\\localhost\C$\proj\a", Either),
                (r"\\localhost\D$\proj\a", Outside),
                (
                    r"\\?\Volume{00000000-0000-0000-0000-000000000000}\proj",
                    Either,
                ),
            ],
        );
        windows(
            &["file://server/share/proj"],
            &[
                (r"\\server\share\proj\a", Inside),
                (r"\\SERVER\Share\PROJ", Inside),
                (r"\\?\UNC\server\share\proj\a", Inside),
                (r"\\.\UNC\server\share\proj\a", Inside),
                (r"\\server\share2\proj", Outside),
                (r"\\server\share\..\proj\a", Inside),
                (r"\\server\share\..\other\proj", Outside),
            ],
        );
    }

    #[test]
    fn windows_needs_an_absolute_path() {
        windows(
            &["file:///C:/proj"],
            &[
                (r"C:proj\a", Either),
                (r"\proj\a", Either),
                (r"proj\a", Either),
                ("", Either),
            ],
        );
    }

    #[test]
    fn windows_strips_trailing_dots_and_spaces_and_streams() {
        windows(
            &["file:///C:/proj"],
            &[
                (r"C:\proj.", Inside),
                (r"C:\proj . .", Inside),
                (r"C:\proj2. ", Outside),
                (r"C:\proj\a.txt:secret", Inside),
                (r"C:\proj\a.txt::$DATA", Inside),
                (r"C:\proj::$INDEX_ALLOCATION\a", Inside),
                (r"C:\proj:$I30:$INDEX_ALLOCATION\a", Inside),
                (r"C:\proj2::$INDEX_ALLOCATION\a", Outside),
                // Before the last component the model does not claim
                // which Win32 keeps.
                (r"C:\proj.\a", Either),
                (r"C:\proj \a", Either),
                (r"C:\other.\a", Outside),
            ],
        );
    }

    #[test]
    fn windows_devices_are_beneath_no_root() {
        windows(
            &["file:///C:/proj"],
            &[
                (r"C:\proj\NUL", Outside),
                (r"C:\proj\con.txt", Outside),
                (r"C:\proj\com1 .log", Outside),
                ("C:\\proj\\LPT\u{b9}", Outside),
                (r"C:\proj\aux\x", Inside),
                (r"C:\proj\com10", Inside),
                (r"\\.\COM1", Outside),
                (r"\\.\CONIN$", Outside),
                ("NUL", Outside),
            ],
        );
    }

    #[test]
    fn windows_short_names_may_alias() {
        windows(
            &["file:///C:/Program%20Files/app"],
            &[
                (r"C:\PROGRA~1\app\x", Either),
                (r"C:\progra~2\app\x", Either),
                (r"C:\PR3F2A~1\app\x", Either),
                (r"C:\OTHERF~1\app\x", Outside),
                (r"C:\Program Files\app\LONGNA~1", Inside),
            ],
        );
        windows(
            &["file:///C:/PROGRA~1"],
            &[(r"C:\Program Files\x", Either), (r"C:\PROGRA~2\x", Outside)],
        );
    }

    #[test]
    fn windows_names_are_not_unicode_normalized() {
        windows(
            &["file:///C:/caf%C3%A9"],
            &[
                ("C:\\CAF\u{c9}\\x", Inside),
                ("C:\\cafe\u{301}\\x", Outside),
            ],
        );
    }

    #[test]
    fn windows_roots_must_be_windows_file_uris() {
        let path = r"C:\proj\a";
        for root in [
            "file:///C:/proj",
            "file:///c%3A/proj",
            "file:C:/proj",
            "file://localhost/C:/proj",
            "FILE:///C:/proj/",
        ] {
            assert_eq!(truth(&[root], path, Flavour::Windows), Inside, "{root}");
        }
        for root in [
            "file:///proj",
            "file:///C:/proj?x",
            "file:///C:%2Fproj",
            "file:///C:/proj%5Ca",
            "http:///C:/proj",
            "file://u@server/share",
            r"file:///C:\proj",
            "file://./C:/proj",
            "file:////./C:/proj",
        ] {
            assert_eq!(truth(&[root], path, Flavour::Windows), Outside, "{root}");
        }
        assert_eq!(
            truth(
                &["file:////server/share"],
                r"\\server\share\x",
                Flavour::Windows
            ),
            Inside
        );
    }

    proptest::proptest! {
        /// A sibling whose name begins with the root's is never inside it
        /// by its text: only trailing dots and spaces (stripped) or a
        /// stream (`:x`) leave the root's own name.
        #[test]
        fn a_sibling_suffix_is_never_inside(
            name in "[a-zA-Z]{1,10}",
            suffix in proptest::collection::vec(
                proptest::sample::select(vec!["x", "2", ".", " ", "~", "~1", ":s", "\u{e9}", "_", "\u{3000}", "\u{200b}"]),
                1..4,
            ),
        ) {
            let suffix = suffix.concat();
            let root = format!("file:///C:/{name}");
            let path = format!("C:\\{name}{suffix}");
            let stays = suffix.trim_end_matches(['.', ' ']).is_empty() || suffix.starts_with(':');
            let got = truth(&[root.as_str()], &path, Flavour::Windows);
            if stays {
                proptest::prop_assert_eq!(got, Inside, "{:?}", path);
            } else {
                proptest::prop_assert_ne!(got, Inside, "{:?}", path);
            }
        }
    }

    #[test]
    fn macos_ignores_case_and_normalization_and_follows_private() {
        let mac = |roots: &[&str], path: &str| truth(roots, path, Flavour::MacOs);
        let roots = ["file:///private/tmp/p"];
        assert_eq!(mac(&roots, "/tmp/p/x"), Inside);
        assert_eq!(mac(&roots, "/TMP/P/x"), Inside);
        assert_eq!(mac(&roots, "/tmp/../tmp/p"), Inside);
        assert_eq!(mac(&roots, "/var/../tmp/p/x"), Inside);
        assert_eq!(mac(&roots, "/private/tmp/p2"), Outside);
        assert_eq!(mac(&roots, "/tmp/p/../p2"), Outside);
        assert_eq!(mac(&["file:///tmp/p"], "/private/tmp/p/x"), Inside);
        assert_eq!(
            mac(&["file:///Users/caf%C3%A9"], "/users/CAFE\u{301}/x"),
            Inside
        );
        assert_eq!(mac(&["file:///Users/cafe"], "/Users/caf\u{e9}"), Outside);
        assert_eq!(mac(&roots, "tmp/p"), Either);
        assert_eq!(inside(&roots, b"/tmp/p/\xff", Flavour::MacOs).truth, Either);
    }

    #[test]
    fn linux_is_the_lexical_oracle() {
        let linux = |path: &str| truth(&["file:///a"], path, Flavour::Linux);
        assert_eq!(linux("/a/b"), Inside);
        assert_eq!(linux("/A/b"), Outside);
        assert_eq!(linux("/tmp/../a"), Inside);
        assert_eq!(linux("a"), Either);
    }
}
