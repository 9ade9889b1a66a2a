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

/// What makes a sibling name look like, or sort next to, another: digits,
/// then every ASCII punctuation mark but `/` (the dots, quotes and the
/// metacharacters of shells, globs and regular expressions among them),
/// what means something to a URI parser (`%2e`, `%2F`, `%00`, `%25`) or to
/// a checker that unescapes twice (`\u002e`), every ASCII control
/// character (newline, carriage return and DEL included); then invisible
/// and look-alike characters, and last bytes that are not UTF-8 (a lone
/// `0xFF`, a lone continuation byte, an overlong `.`, a truncated
/// sequence, Latin-1 `é`, an encoded surrogate).
pub const HOSTILE_ALPHABET: &[&[u8]] = &[
    b"2",
    b"0",
    b"1",
    b"9",
    b"-",
    b"_",
    b".",
    b"~",
    b"..",
    b" ",
    b"!",
    b"$",
    b"'",
    b"\"",
    b"`",
    b"#",
    b"%",
    b"@",
    b":",
    b",",
    b";",
    b"=",
    b"+",
    b"(",
    b")",
    b"*",
    b"?",
    b"\\",
    b"&",
    b"|",
    b"<",
    b">",
    b"[",
    b"]",
    b"{",
    b"}",
    b"^",
    b"%2e",
    b"%2E",
    b"%2e%2e",
    b"%2F",
    b"%2f",
    b"%00",
    b"%25",
    b"\\u002e",
    b"\\u002e\\u002e",
    b"\t",
    b"\n",
    b"\r",
    b"\x01",
    b"\x02",
    b"\x03",
    b"\x04",
    b"\x05",
    b"\x06",
    b"\x07",
    b"\x08",
    b"\x0b",
    b"\x0c",
    b"\x0e",
    b"\x0f",
    b"\x10",
    b"\x11",
    b"\x12",
    b"\x13",
    b"\x14",
    b"\x15",
    b"\x16",
    b"\x17",
    b"\x18",
    b"\x19",
    b"\x1a",
    b"\x1b",
    b"\x1c",
    b"\x1d",
    b"\x1e",
    b"\x1f",
    b"\x7f",
    "\u{a0}".as_bytes(),
    "\u{200b}".as_bytes(),
    "\u{2024}".as_bytes(),
    "\u{ff0e}".as_bytes(),
    "\u{2215}".as_bytes(),
    "\u{301}".as_bytes(),
    b"\xff",
    b"\x80",
    b"\xc0\xae",
    b"\xc3",
    b"\xe9",
    b"\xed\xa0\x80",
];

/// Where the bytes that are not UTF-8 begin in [`HOSTILE_ALPHABET`].
pub const FIRST_NOT_UTF8: usize = HOSTILE_ALPHABET.len() - 6;

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
    /// hold `/` or NUL (see [`entry_name`]). Variants of letters change the
    /// UTF-8 parts of a name and keep its other bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use rootguard_judge::gen::Variant;
    ///
    /// assert_eq!(Variant::Suffix(vec![0]).apply(b"project"), b"project2");
    /// assert_eq!(Variant::Nfd.apply("café".as_bytes()), "cafe\u{301}".as_bytes());
    /// assert_eq!(Variant::Upper.apply(b"a\xffb"), b"A\xffB");
    /// ```
    pub fn apply(&self, name: &[u8]) -> Vec<u8> {
        match self {
            Variant::Plain => name.to_owned(),
            Variant::Suffix(affixes) => [name, &affix(affixes)].concat(),
            Variant::Prefix(affixes) => [&affix(affixes), name].concat(),
            Variant::Upper => map_text(name, str::to_uppercase),
            Variant::Capitalized => {
                let mut first = true;
                map_text(name, |text| {
                    let mut chars = text.chars();
                    match chars.next() {
                        Some(c) if std::mem::take(&mut first) => {
                            c.to_uppercase().chain(chars).collect()
                        }
                        _ => text.to_owned(),
                    }
                })
            }
            Variant::Fullwidth => map_text(name, |text| {
                text.chars()
                    .map(|c| {
                        if c.is_ascii_graphic() {
                            char::from_u32(c as u32 + 0xfee0).unwrap_or(c)
                        } else {
                            c
                        }
                    })
                    .collect()
            }),
            Variant::Homoglyph => map_text(name, |text| {
                text.chars()
                    .map(|c| match c {
                        'a' => 'а',
                        'c' => 'с',
                        'e' => 'е',
                        'o' => 'о',
                        'p' => 'р',
                        'x' => 'х',
                        other => other,
                    })
                    .collect()
            }),
            Variant::Nfc => accent(&String::from_utf8_lossy(name), false).into_bytes(),
            Variant::Nfd => accent(&String::from_utf8_lossy(name), true).into_bytes(),
            Variant::Long(n) => {
                let len = 250 + usize::from(*n) % 11;
                let mut out = name.to_owned();
                out.resize(len.max(name.len()), b'l');
                out
            }
            Variant::Text(text) => text.chars().take(MAX_TEXT).collect::<String>().into_bytes(),
        }
    }
}

/// `name` with `f` applied to each run of valid UTF-8, other bytes kept.
fn map_text(name: &[u8], mut f: impl FnMut(&str) -> String) -> Vec<u8> {
    let mut out = Vec::with_capacity(name.len());
    for chunk in name.utf8_chunks() {
        out.extend(f(chunk.valid()).into_bytes());
        out.extend(chunk.invalid());
    }
    out
}

fn affixes() -> impl Strategy<Value = Vec<u8>> {
    vec(pool_index(HOSTILE_ALPHABET), 1..=MAX_AFFIXES)
}

fn affix(affixes: &[u8]) -> Vec<u8> {
    affixes
        .iter()
        .take(MAX_AFFIXES)
        .flat_map(|&i| pick(HOSTILE_ALPHABET, i).iter().copied())
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
/// 200 bytes and a `_`.
///
/// # Examples
///
/// ```
/// use rootguard_judge::gen::entry_name;
///
/// assert_eq!(entry_name(b"a/b".to_vec()), b"a_b");
/// assert_eq!(entry_name(b"..".to_vec()), b".._");
/// ```
pub fn entry_name(mut name: Vec<u8>) -> Vec<u8> {
    for b in &mut name {
        if matches!(*b, b'/' | b'\0') {
            *b = b'_';
        }
    }
    if name.is_empty() || name == b"." || name == b".." || name.len() > 255 {
        name.truncate(200);
        name.push(b'_');
    }
    name
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

    /// The name, as it is (a path piece may be any bytes).
    pub fn render(&self) -> Vec<u8> {
        self.variant
            .apply(pick::<&str>(NAMES, self.pool).as_bytes())
    }

    /// The name made valid in a tree ([`entry_name`]).
    pub fn render_entry_name(&self) -> Vec<u8> {
        entry_name(self.render())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(v: Variant, name: &str) -> String {
        String::from_utf8(v.apply(name.as_bytes())).expect("UTF-8 in, UTF-8 out")
    }

    #[test]
    fn variants_of_a_name() {
        assert_eq!(apply(Variant::Suffix(vec![0]), "project"), "project2");
        assert_eq!(apply(Variant::Suffix(vec![]), "project"), "project");
        assert_eq!(apply(Variant::Prefix(vec![4, 4]), "a"), "--a");
        assert_eq!(apply(Variant::Upper, "café"), "CAFÉ");
        assert_eq!(apply(Variant::Capitalized, "project"), "Project");
        assert_eq!(apply(Variant::Fullwidth, "ab"), "ａｂ");
        assert_eq!(
            apply(Variant::Homoglyph, "project"),
            "\u{440}r\u{43e}j\u{435}\u{441}t"
        );
        assert_eq!(apply(Variant::Nfc, "café"), "café");
        assert_eq!(apply(Variant::Nfd, "café"), "cafe\u{301}");
        assert_ne!(apply(Variant::Nfc, "a"), apply(Variant::Nfd, "a"));
        assert_eq!(Variant::Long(5).apply(b"a").len(), 255);
        assert_eq!(Variant::Long(10).apply(b"a").len(), 260);
        assert_eq!(Variant::Text("x".repeat(30)).apply(b"a").len(), 24);
    }

    #[test]
    fn variants_keep_bytes_that_are_not_utf8() {
        assert_eq!(Variant::Capitalized.apply(b"\xffab\xfecd"), b"\xffAb\xfecd");
        assert_eq!(Variant::Fullwidth.apply(b"\xe9"), b"\xe9");
        let last = u8::try_from(HOSTILE_ALPHABET.len() - 1).unwrap();
        assert_eq!(Variant::Suffix(vec![last]).apply(b"a"), b"a\xed\xa0\x80");
    }

    #[test]
    fn entry_names_are_valid() {
        for name in [
            &b""[..],
            b".",
            b"..",
            b"a/b",
            b"a\0",
            &[b'l'; 260],
            b"\xff/",
        ] {
            let valid = entry_name(name.to_vec());
            assert!(
                !valid.is_empty()
                    && valid != b"."
                    && valid != b".."
                    && !valid.contains(&b'/')
                    && !valid.contains(&0)
                    && valid.len() <= 255,
                "{valid:?}"
            );
        }
        assert_eq!(entry_name("café".into()), "café".as_bytes());
    }

    #[test]
    fn the_whole_alphabet_of_names() {
        let bytes: Vec<u8> = HOSTILE_ALPHABET
            .iter()
            .flat_map(|a| a.iter().copied())
            .collect();
        for b in (1u8..=0x1f).chain([0x7f]) {
            assert!(
                HOSTILE_ALPHABET.contains(&&[b][..]),
                "control {b:#04x} alone"
            );
        }
        for b in (0x21u8..=0x7e).filter(|b| b.is_ascii_punctuation() && *b != b'/') {
            assert!(
                HOSTILE_ALPHABET.contains(&&[b][..]),
                "{:?} alone",
                b as char
            );
        }
        assert!(!bytes.contains(&b'/') && !bytes.contains(&0));
        for b in [0xff, 0x80, 0xe9] {
            assert!(HOSTILE_ALPHABET.contains(&&[b][..]), "{b:#04x} alone");
        }
    }

    #[test]
    fn the_plainest_names_come_first() {
        assert_eq!(&NAMES[..3], ["a", "b", "project"]);
        assert_eq!(HOSTILE_ALPHABET[0], b"2");
        let first_non_ascii = NAMES.iter().position(|n| !n.is_ascii()).unwrap();
        assert!(NAMES[first_non_ascii..].iter().all(|n| !n.is_ascii()));
        let first = HOSTILE_ALPHABET.iter().position(|n| !n.is_ascii()).unwrap();
        assert!(HOSTILE_ALPHABET[first..].iter().all(|n| !n.is_ascii()));
        let first_control = HOSTILE_ALPHABET
            .iter()
            .position(|n| n[0].is_ascii_control())
            .unwrap();
        assert!(HOSTILE_ALPHABET[..first_control]
            .iter()
            .all(|n| n.iter().all(|b| b.is_ascii_graphic() || *b == b' ')));
        assert!(HOSTILE_ALPHABET[first_control..first]
            .iter()
            .all(|n| n.iter().all(u8::is_ascii_control)));
        assert!(HOSTILE_ALPHABET[..FIRST_NOT_UTF8]
            .iter()
            .all(|n| std::str::from_utf8(n).is_ok()));
        assert!(HOSTILE_ALPHABET[FIRST_NOT_UTF8..]
            .iter()
            .all(|n| std::str::from_utf8(n).is_err()));
    }
}
