//! The Windows and macOS lexical rules (feature `flavours`) keep the
//! invariances their file systems have: a Win32 path answers the same
//! with its separators swapped and its ASCII letters in another case, an
//! APFS path the same in another case and in NFC or NFD. Each is asked
//! over every path of a hostile vocabulary, up to three names deep.
//! judge/tests/flavour_vectors.rs holds the same rules to other
//! projects' test vectors (docs/design/flavours.md).
#![cfg(feature = "flavours")]

use rootguard::lexical::{Flavour, FlavouredAnswer, FlavouredRoots};
use unicode_normalization::UnicodeNormalization;

const WINDOWS_NAMES: &[&str] = &[
    "proj",
    "PROJ",
    "proj2",
    "..",
    ".",
    "CON",
    "nul.txt",
    "a.txt:s",
    "proj.",
    "PROJ~1",
    "wor\u{212a}",
    "stra\u{df}e",
];

const WINDOWS_PREFIXES: &[&str] = &[
    "C:\\",
    "c:/",
    "\\\\?\\C:\\",
    "\\\\.\\C:\\",
    "\\\\server\\share\\",
    "C:",
    "\\",
];

fn paths(prefixes: &[&str], names: &[&str], sep: &str) -> Vec<String> {
    let mut out: Vec<String> = prefixes.iter().map(|p| (*p).to_owned()).collect();
    let mut last = out.clone();
    for _ in 0..3 {
        let mut next = Vec::new();
        for p in &last {
            for n in names {
                let joined = if p.ends_with(['\\', '/', ':']) {
                    format!("{p}{n}")
                } else {
                    format!("{p}{sep}{n}")
                };
                next.push(joined);
            }
        }
        out.extend(next.iter().cloned());
        last = next;
    }
    out
}

fn same_kind(a: &FlavouredAnswer, b: &FlavouredAnswer) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b) && a.root() == b.root()
}

#[test]
fn a_win32_path_answers_the_same_whatever_its_separators_and_ascii_case() {
    let roots = FlavouredRoots::new(
        Flavour::Windows,
        ["file:///C:/proj", "file://server/share/proj"],
    );
    assert!(roots.rejected().is_empty());
    let all = paths(WINDOWS_PREFIXES, WINDOWS_NAMES, "\\");
    let mut inside = 0;
    for path in &all {
        let answer = roots.inside(path);
        inside += usize::from(answer.root().is_some());
        let upper = path.to_ascii_uppercase();
        assert!(
            same_kind(&answer, &roots.inside(&upper)),
            "{path:?}: {answer:?}, {upper:?}: {:?}",
            roots.inside(&upper)
        );
        // A verbatim path takes `/` as a name's character, not a separator.
        if !path.starts_with("\\\\?\\") {
            let slashed = path.replace('\\', "/");
            assert!(
                same_kind(&answer, &roots.inside(&slashed)),
                "{path:?}: {answer:?}, {slashed:?}: {:?}",
                roots.inside(&slashed)
            );
        }
    }
    // The vocabulary reaches every kind of answer.
    assert!(inside > 100, "{inside} of {} inside", all.len());
    for (path, want) in [
        ("C:\\proj\\CON", "Device"),
        ("C:\\proj2", "Outside"),
        ("C:proj", "Unsure"),
        ("C:\\proj. \\x", "Unsure"),
        ("C:\\wor\u{212a}", "Outside"),
    ] {
        let got = format!("{:?}", roots.inside(path));
        assert!(got.starts_with(want), "{path:?}: {got}");
    }
}

#[test]
fn an_apfs_path_answers_the_same_in_any_case_and_normalization() {
    let roots = FlavouredRoots::new(
        Flavour::MacOs,
        ["file:///tmp/Caf%C3%A9", "file:///Users/me/stra%C3%9Fe"],
    );
    assert!(roots.rejected().is_empty());
    let names = [
        "Caf\u{e9}",
        "Cafe\u{301}",
        "cafe",
        "..",
        ".",
        "STRASSE",
        "\u{ff43}afe",
        "tmp",
        "private",
    ];
    let all = paths(&["/", "/tmp/", "/Users/me/"], &names, "/");
    let mut inside = 0;
    for path in &all {
        let answer = roots.inside(path);
        inside += usize::from(answer.root().is_some());
        for other in [
            path.to_uppercase(),
            path.nfd().collect::<String>(),
            path.nfc().collect::<String>(),
        ] {
            assert_eq!(answer, roots.inside(&other), "{path:?} and {other:?}");
        }
    }
    assert!(inside > 50, "{inside} of {} inside", all.len());
    // Compatibility forms are other names.
    assert_eq!(
        roots.inside("/tmp/\u{ff43}af\u{e9}"),
        FlavouredAnswer::Outside
    );
}
