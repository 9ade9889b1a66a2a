//! File names: a small pool, and hostile siblings of its names.

use arbitrary::Arbitrary;
use proptest::collection::vec;
use proptest::prelude::*;

use super::{pick, pool_index};

/// The names trees are made of, plainest first (a pool index shrinks
/// toward the first): `project` is the classic prefix victim and
/// `project2` its sibling, `k1` and `k2` are the chain's own names, and
/// `café` is spelt precomposed (NFC) and with a combining accent (NFD).
pub const NAMES: &[&str] = &[
    "a",
    "b",
    "project",
    "data",
    "x",
    "project2",
    "k1",
    "k2",
    "café",
    "cafe\u{301}",
];

/// What makes a sibling name look like, or sort next to, another (digits,
/// punctuation, whitespace, quotes, dots), and what means something to a
/// URI parser (`%2e`, `%2F`, `%00`, `%25`); invisible and look-alike
/// characters last.
pub const HOSTILE_ALPHABET: &[&str] = &[
    "2", "0", "1", "9", "-", "_", ".", "~", "..", " ", "!", "$", "'", "\"", "`", "#", "%", "@",
    ":", ",", ";", "=", "+", "(", ")", "*", "?", "\\", "\t", "\n", "%2e", "%2E", "%2e%2e", "%2F",
    "%2f", "%00", "%25", "\u{a0}", "\u{200b}", "\u{2024}", "\u{ff0e}", "\u{2215}", "\u{301}",
];

/// At most this many affixes of [`HOSTILE_ALPHABET`] make a suffix or prefix.
const MAX_AFFIXES: usize = 3;

/// At most this many characters of [`Variant::Text`] count.
const MAX_TEXT: usize = 24;

/// How a name is formed from a pool name.
#[derive(Arbitrary, Debug, Clone, PartialEq, Eq)]
pub enum Variant {
    /// The name itself.
    Plain,
    /// The name, then affixes of [`HOSTILE_ALPHABET`] (the first three count).
    Suffix(Vec<u8>),
    /// Affixes of [`HOSTILE_ALPHABET`], then the name.
    Prefix(Vec<u8>),
    /// In upper case.
    Upper,
    /// With its first letter in upper case.
    Capitalized,
    /// Its ASCII in fullwidth forms (`ａ`).
    Fullwidth,
    /// Latin letters swapped for Cyrillic look-alikes.
    Homoglyph,
    /// A precomposed accent on the last letter (NFC).
    Nfc,
    /// The same accent as a combining mark (NFD).
    Nfd,
    /// Padded with `l` to `250 + n % 11` bytes (over 255 is ENAMETOOLONG).
    Long(u8),
    /// Any text instead of the name (its first 24 characters).
    Text(String),
}

impl Variant {
    /// The siblings proptest draws, weighted toward the name itself and
    /// its suffixes; names of 250 to 255 bytes, so that they stay valid.
    pub fn strategy() -> impl Strategy<Value = Variant> {
        prop_oneof![
            10 => Just(Variant::Plain),
            4 => affixes().prop_map(Variant::Suffix),
            1 => affixes().prop_map(Variant::Prefix),
            1 => Just(Variant::Upper),
            1 => Just(Variant::Capitalized),
            1 => Just(Variant::Fullwidth),
            1 => Just(Variant::Homoglyph),
            1 => Just(Variant::Nfc),
            1 => Just(Variant::Nfd),
            1 => (0u8..=5).prop_map(Variant::Long),
        ]
    }

    /// The variant of `name`, as it is: it may be empty, `.` or `..`, or
    /// hold `/` or NUL (see [`entry_name`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use rootguard_proptests::gen::Variant;
    ///
    /// assert_eq!(Variant::Suffix(vec![0]).apply("project"), "project2");
    /// assert_eq!(Variant::Nfd.apply("café"), "cafe\u{301}");
    /// ```
    pub fn apply(&self, name: &str) -> String {
        match self {
            Variant::Plain => name.to_owned(),
            Variant::Suffix(affixes) => format!("{name}{}", affix(affixes)),
            Variant::Prefix(affixes) => format!("{}{name}", affix(affixes)),
            Variant::Upper => name.to_uppercase(),
            Variant::Capitalized => {
                let mut chars = name.chars();
                chars
                    .next()
                    .map(|c| c.to_uppercase().chain(chars).collect())
                    .unwrap_or_default()
            }
            Variant::Fullwidth => name
                .chars()
                .map(|c| {
                    if c.is_ascii_graphic() {
                        char::from_u32(c as u32 + 0xfee0).unwrap_or(c)
                    } else {
                        c
                    }
                })
                .collect(),
            Variant::Homoglyph => name
                .chars()
                .map(|c| match c {
                    'a' => 'а',
                    'c' => 'с',
                    'e' => 'е',
                    'o' => 'о',
                    'p' => 'р',
                    'x' => 'х',
                    other => other,
                })
                .collect(),
            Variant::Nfc => accent(name, false),
            Variant::Nfd => accent(name, true),
            Variant::Long(n) => {
                let len = 250 + usize::from(*n) % 11;
                let mut out = name.to_owned();
                while out.len() < len {
                    out.push('l');
                }
                out
            }
            Variant::Text(text) => text.chars().take(MAX_TEXT).collect(),
        }
    }
}

fn affixes() -> impl Strategy<Value = Vec<u8>> {
    vec(pool_index(HOSTILE_ALPHABET), 1..=MAX_AFFIXES)
}

fn affix(affixes: &[u8]) -> String {
    affixes
        .iter()
        .take(MAX_AFFIXES)
        .map(|&i| *pick(HOSTILE_ALPHABET, i))
        .collect()
}

/// `name` with an acute accent on its last letter, precomposed or combining.
fn accent(name: &str, decomposed: bool) -> String {
    let base: String = name.replace('é', "e");
    let (stem, last) = match base.char_indices().last() {
        Some((i, c)) => (&base[..i], c),
        None => return name.to_owned(),
    };
    let precomposed = match last {
        'a' => 'á',
        'e' => 'é',
        'o' => 'ó',
        't' => 'ť',
        'x' => 'ẋ',
        _ => 'é',
    };
    if decomposed {
        let plain = if precomposed == 'é' && last != 'e' {
            format!("{last}e")
        } else {
            last.to_string()
        };
        let combining = if precomposed == 'ẋ' {
            '\u{307}'
        } else if precomposed == 'ť' {
            '\u{30c}'
        } else {
            '\u{301}'
        };
        format!("{stem}{plain}{combining}")
    } else if precomposed == 'é' && last != 'e' {
        format!("{stem}{last}é")
    } else {
        format!("{stem}{precomposed}")
    }
}

/// `name` made a name the format accepts in a tree: `/` and NUL become
/// `_`, and a name that is empty, `.`, `..` or over 255 bytes gets cut to
/// 200 characters and a `_`.
///
/// # Examples
///
/// ```
/// use rootguard_proptests::gen::entry_name;
///
/// assert_eq!(entry_name("a/b".to_owned()), "a_b");
/// assert_eq!(entry_name("..".to_owned()), ".._");
/// ```
pub fn entry_name(name: String) -> String {
    let name = if name.contains(['/', '\0']) {
        name.replace(['/', '\0'], "_")
    } else {
        name
    };
    if name.is_empty() || name == "." || name == ".." || name.len() > 255 {
        format!("{}_", name.chars().take(200).collect::<String>())
    } else {
        name
    }
}

/// A name from [`NAMES`], or a hostile sibling of one.
#[derive(Arbitrary, Debug, Clone, PartialEq, Eq)]
pub struct NameSpec {
    /// Which name of [`NAMES`] (modulo their number).
    pub pool: u8,
    /// How the name is changed.
    pub variant: Variant,
}

impl NameSpec {
    /// A pool name and a [`Variant::strategy`], now and then any text.
    pub fn strategy() -> impl Strategy<Value = NameSpec> {
        let variant = prop_oneof![
            22 => Variant::strategy(),
            1 => any::<String>().prop_map(Variant::Text),
        ];
        (pool_index(NAMES), variant).prop_map(|(pool, variant)| NameSpec { pool, variant })
    }

    /// The name, as it is (a path piece may be any text).
    pub fn render(&self) -> String {
        self.variant.apply(pick::<&str>(NAMES, self.pool))
    }

    /// The name made valid in a tree ([`entry_name`]).
    pub fn render_entry_name(&self) -> String {
        entry_name(self.render())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_of_a_name() {
        assert_eq!(Variant::Suffix(vec![0]).apply("project"), "project2");
        assert_eq!(Variant::Suffix(vec![]).apply("project"), "project");
        assert_eq!(Variant::Prefix(vec![4, 4]).apply("a"), "--a");
        assert_eq!(Variant::Upper.apply("café"), "CAFÉ");
        assert_eq!(Variant::Capitalized.apply("project"), "Project");
        assert_eq!(Variant::Fullwidth.apply("ab"), "ａｂ");
        assert_eq!(
            Variant::Homoglyph.apply("project"),
            "\u{440}r\u{43e}j\u{435}\u{441}t"
        );
        assert_eq!(Variant::Nfc.apply("café"), "café");
        assert_eq!(Variant::Nfd.apply("café"), "cafe\u{301}");
        assert_ne!(Variant::Nfc.apply("a"), Variant::Nfd.apply("a"));
        assert_eq!(Variant::Long(5).apply("a").len(), 255);
        assert_eq!(Variant::Long(10).apply("a").len(), 260);
        assert_eq!(Variant::Text("x".repeat(30)).apply("a").len(), 24);
    }

    #[test]
    fn entry_names_are_valid() {
        for name in ["", ".", "..", "a/b", "a\0", &"l".repeat(260)] {
            let valid = entry_name(name.to_owned());
            assert!(
                !valid.is_empty()
                    && valid != "."
                    && valid != ".."
                    && !valid.contains(['/', '\0'])
                    && valid.len() <= 255,
                "{valid:?}"
            );
        }
        assert_eq!(entry_name("café".to_owned()), "café");
    }

    #[test]
    fn the_plainest_names_come_first() {
        assert_eq!(&NAMES[..3], ["a", "b", "project"]);
        assert_eq!(HOSTILE_ALPHABET[0], "2");
        let first_non_ascii = NAMES.iter().position(|n| !n.is_ascii()).unwrap();
        assert!(NAMES[first_non_ascii..].iter().all(|n| !n.is_ascii()));
        let first = HOSTILE_ALPHABET.iter().position(|n| !n.is_ascii()).unwrap();
        assert!(HOSTILE_ALPHABET[first..].iter().all(|n| !n.is_ascii()));
    }
}
