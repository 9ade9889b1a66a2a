//! Names a checker folds more widely than the flavour's file system does.
//!
//! NTFS takes two names as one when their simple uppercase mappings are
//! equal, one UTF-16 code unit at a time; APFS when their canonical
//! caseless forms are (NFD and full case folding). A checker that folds
//! names another way before it compares them (`str.lower()`,
//! `casefold()`, `toLowerCase()`, `ntpath.normcase` off Windows, NFKC,
//! `localeCompare`) takes some names for the root's that the file system
//! keeps apart: the Kelvin sign `K` lowercases to `k` but NTFS keeps it
//! apart from `K`, `ß` case folds to `ss`, fullwidth `ｐ` is `p` under NFKC
//! on neither. [`fold_pairs`] lists every such character of a flavour with
//! the text a fold turns it into; [`super::flavoured_cases`] asks each.

use std::sync::OnceLock;

use icu_casemap::CaseMapper;
use unicode_normalization::UnicodeNormalization;

use crate::flavour::{macos, windows, Flavour};

/// A way a checker folds a name before it compares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fold {
    /// Unicode's full lowercase mapping: Python's `str.lower()` (and
    /// `ntpath.normcase` off Windows), JavaScript's `toLowerCase()`.
    Lower,
    /// Unicode's full case folding: Python's `str.casefold()`.
    Casefold,
    /// Compatibility normalization, NFKC: `unicodedata.normalize('NFKC')`,
    /// `normalize('NFKC')`.
    Nfkc,
    /// NFKC, then case folding: what a checker that does both sees (and
    /// what `localeCompare` with `sensitivity: 'accent'` takes as equal).
    NfkcCasefold,
}

impl Fold {
    /// Every fold, in the order their characters are asked.
    pub const ALL: [Fold; 4] = [Fold::Lower, Fold::Casefold, Fold::Nfkc, Fold::NfkcCasefold];

    /// Its name: `lower`, `casefold`, `nfkc`, `nfkc-casefold`.
    pub fn name(self) -> &'static str {
        match self {
            Fold::Lower => "lower",
            Fold::Casefold => "casefold",
            Fold::Nfkc => "nfkc",
            Fold::NfkcCasefold => "nfkc-casefold",
        }
    }

    /// `text` folded.
    ///
    /// # Examples
    ///
    /// ```
    /// use rootguard_judge::gen::Fold;
    /// assert_eq!(Fold::Lower.apply("wor\u{212a}"), "work");
    /// assert_eq!(Fold::Casefold.apply("Stra\u{df}e"), "strasse");
    /// assert_eq!(Fold::Nfkc.apply("\u{ff50}roj"), "proj");
    /// assert_eq!(Fold::NfkcCasefold.apply("\u{210c}"), "h");
    /// ```
    pub fn apply(self, text: &str) -> String {
        let mapper = CaseMapper::new();
        match self {
            Fold::Lower => text.to_lowercase(),
            Fold::Casefold => mapper.fold_string(text).into_owned(),
            Fold::Nfkc => text.nfkc().collect(),
            Fold::NfkcCasefold => {
                let nfkc: String = text.nfkc().collect();
                mapper.fold_string(&nfkc).nfkc().collect()
            }
        }
    }
}

/// What a fold turns a character into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Image {
    /// Text that is a piece of a name (`k`, `ss`, `p`, `i` + U+0307): the
    /// folded name is a sibling of the real one.
    Name,
    /// A step of a path: `.` or `..` (`‥` is `..` under NFKC), a
    /// separator (`／` is `/`), or, on Windows, `:`, which starts a stream.
    Step,
}

/// One character that a fold turns into text the flavour's file system
/// takes as another name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoldPair {
    /// The first fold (in [`Fold::ALL`]'s order) that makes it.
    pub fold: Fold,
    /// The character, as the file system sees it.
    pub from: char,
    /// What the fold makes of it.
    pub image: String,
    /// Whether that is a piece of a name or a step of a path.
    pub kind: Image,
}

/// The highest code point looked at: the planes beyond 2 hold no
/// character whose case or compatibility form differs from itself.
const LAST: u32 = 0x2_ffff;

/// Every character of `flavour` (Windows or macOS) that some [`Fold`]
/// turns into text the file system takes as another name, with that
/// text: each character once per distinct image (two images that the
/// file system takes as one name count once), in code point order within
/// each fold. A character the file system refuses in a name is left out,
/// and so is an image that mixes a path step with other text (`a/c`).
/// Empty for Linux, whose names are bytes.
///
/// # Examples
///
/// ```
/// use rootguard_judge::flavour::Flavour;
/// use rootguard_judge::gen::{fold_pairs, Fold};
///
/// let windows = fold_pairs(Flavour::Windows);
/// let kelvin = windows.iter().find(|p| p.from == '\u{212a}').unwrap();
/// assert_eq!((kelvin.fold, kelvin.image.as_str()), (Fold::Lower, "k"));
/// // On APFS the Kelvin sign is `k` already; NFKC's fullwidth is not.
/// let macos = fold_pairs(Flavour::MacOs);
/// assert!(!macos.iter().any(|p| p.from == '\u{212a}'));
/// assert!(macos.iter().any(|p| p.from == '\u{ff50}' && p.image == "p"));
/// ```
pub fn fold_pairs(flavour: Flavour) -> &'static [FoldPair] {
    static WINDOWS: OnceLock<Vec<FoldPair>> = OnceLock::new();
    static MACOS: OnceLock<Vec<FoldPair>> = OnceLock::new();
    match flavour {
        Flavour::Linux => &[],
        Flavour::Windows => WINDOWS.get_or_init(|| pairs(Flavour::Windows)),
        Flavour::MacOs => MACOS.get_or_init(|| pairs(Flavour::MacOs)),
    }
}

/// The flavour's comparison key of a name.
fn key(flavour: Flavour, name: &str) -> String {
    match flavour {
        Flavour::Windows => windows::upcase(name),
        _ => macos::name_key(name),
    }
}

/// Whether the file system refuses `c` in a name.
fn refused(flavour: Flavour, c: char) -> bool {
    match flavour {
        Flavour::Windows => c < ' ' || "<>:\"/\\|?*".contains(c),
        _ => c == '\0' || c == '/',
    }
}

/// What `image` is on `flavour`, or `None` when it is neither a piece of
/// a name nor one step of a path.
fn image_kind(flavour: Flavour, image: &str) -> Option<Image> {
    let steps: &[&str] = match flavour {
        Flavour::Windows => &[".", "..", "/", "\\", ":"],
        _ => &[".", "..", "/"],
    };
    if steps.contains(&image) {
        Some(Image::Step)
    } else if image.chars().any(|c| refused(flavour, c)) {
        None
    } else {
        Some(Image::Name)
    }
}

fn pairs(flavour: Flavour) -> Vec<FoldPair> {
    let mut out: Vec<FoldPair> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for fold in Fold::ALL {
        for c in (0..=LAST).filter_map(char::from_u32) {
            if c.is_ascii() || refused(flavour, c) {
                continue;
            }
            let from = c.to_string();
            let image = fold.apply(&from);
            if image == from {
                continue;
            }
            let image_key = key(flavour, &image);
            if image_key == key(flavour, &from) || !seen.insert((c, image_key)) {
                continue;
            }
            if let Some(kind) = image_kind(flavour, &image) {
                out.push(FoldPair {
                    fold,
                    from: c,
                    image,
                    kind,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_fold_has_its_class_and_the_file_systems_own_folds_are_not_in_it() {
        let windows = fold_pairs(Flavour::Windows);
        let of = |fold| windows.iter().filter(move |p| p.fold == fold);
        // `lower` is wider than NTFS for the characters whose case NTFS's
        // table leaves as it is: letters cased since Unicode 5.0 (Cherokee,
        // Latin Extended-D), titlecase digraphs, and the compatibility
        // letters whose lower case is a plain letter (Kelvin, Ohm, Ångström).
        let lower: String = of(Fold::Lower).map(|p| p.from).collect();
        for c in "\u{130}\u{1c5}\u{3f4}\u{13a0}\u{1e9e}\u{2126}\u{212a}\u{212b}\u{a722}".chars() {
            assert!(lower.contains(c), "{c:?}");
        }
        // `ſ`, `ı`, `µ` stay as they are on NTFS, where case folding makes
        // them `s`, `i` (lower case keeps `ı`) and `μ`.
        let casefold: String = of(Fold::Casefold).map(|p| p.from).collect();
        for c in "\u{df}\u{17f}\u{b5}".chars() {
            assert!(casefold.contains(c), "{c:?}");
        }
        // Beyond U+FFFF NTFS folds nothing: Deseret's cases are two names.
        assert!(of(Fold::Lower).any(|p| p.from == '\u{10400}'));
        assert!(of(Fold::Nfkc).count() > 3000);
        // `ς` upcases to `Σ` on NTFS as it case folds to `σ`: not wider.
        assert!(!windows.iter().any(|p| p.from == '\u{3c2}'));
        let steps: String = windows
            .iter()
            .filter(|p| p.kind == Image::Step)
            .map(|p| p.from)
            .collect();
        for c in ['\u{2025}', '\u{ff0f}', '\u{ff3c}', '\u{ff0e}', '\u{ff1a}'] {
            assert!(steps.contains(c), "{c:?} in {steps:?}");
        }
        let macos = fold_pairs(Flavour::MacOs);
        // APFS case folds itself: no case fold is wider than it.
        assert!(macos
            .iter()
            .all(|p| matches!(p.fold, Fold::Nfkc | Fold::NfkcCasefold)));
        // Full case folding takes `ﬁ` for `fi` already; NFKC's fullwidth is wider.
        assert!(!macos.iter().any(|p| p.from == '\u{fb01}'));
        assert!(macos.iter().any(|p| p.from == '\u{ff50}' && p.image == "p"));
        assert!(!macos
            .iter()
            .any(|p| p.image == "\\" && p.kind == Image::Step));
        assert!(fold_pairs(Flavour::Linux).is_empty());
    }

    #[test]
    fn every_pair_is_two_names_to_the_file_system() {
        for flavour in [Flavour::Windows, Flavour::MacOs] {
            for p in fold_pairs(flavour) {
                assert_eq!(p.fold.apply(&p.from.to_string()), p.image);
                assert_ne!(
                    key(flavour, &p.from.to_string()),
                    key(flavour, &p.image),
                    "{flavour} {p:?}"
                );
            }
        }
    }
}
