//! When two Windows names are the same name: NTFS compares names through
//! its upcase table ([`upcase`]), one UTF-16 code unit to one. It is not
//! Unicode's uppercase mapping: `ß`, the Kelvin sign `K`, the dotless `ı`,
//! the long `ſ` and the micro sign `µ` are each their own upper case, a
//! character beyond U+FFFF (two code units) is never upcased, and nothing
//! is normalized (`é` and `e` + U+0301 differ). 8.3 short names
//! (`PROGRA~1`) are aliases the model cannot see.

use std::sync::OnceLock;

/// How two names compare when the model cannot always be sure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NameMatch {
    /// The same name, on every reading.
    Same,
    /// Maybe the same (a short name that may alias the other, a name
    /// whose trailing dot or space Win32 may or may not keep).
    Maybe,
    /// Different names, on every reading.
    Different,
}

/// The name NTFS compares: each UTF-16 code unit through the upcase
/// table Windows Vista and later write on a volume they format (the one
/// Apple's NTFS driver, `ntfs_unistr.c`, and ntfs-3g's `mkntfs` generate):
/// a simple uppercase mapping of Unicode 5.0's letters, less a few
/// (`ı`, `ſ`, `µ`, `ϐ`, `ǅ` and the other titlecase digraphs stay as
/// they are). A volume formatted by another Windows may hold another
/// table; the model knows this one.
///
/// # Examples
///
/// ```
/// use rootguard::lexical::windows::upcase;
/// assert_eq!(upcase("Proj"), "PROJ");
/// assert_eq!(upcase("straße"), "STRAßE");
/// assert_eq!(upcase("\u{131}"), "\u{131}"); // dotless i: not I
/// assert_eq!(upcase("wor\u{212a}"), "WOR\u{212a}"); // the Kelvin sign is not K
/// assert_eq!(upcase("\u{1f80}"), "\u{1f88}"); // one unit, not "ἈΙ"
/// assert_eq!(upcase("\u{10428}"), "\u{10428}"); // beyond U+FFFF: as it is
/// ```
pub fn upcase(name: &str) -> String {
    let table = upcase_table();
    name.chars()
        .map(|c| match u16::try_from(u32::from(c)) {
            Ok(unit) => char::from_u32(u32::from(table[usize::from(unit)])).unwrap_or(c),
            Err(_) => c,
        })
        .collect()
}

/// Runs of code units that upcase by adding the same amount: `(first,
/// past the last, amount)`.
const UPCASE_RUNS: &[(u16, u16, i32)] = &[
    (0x0061, 0x007b, -32),
    (0x00e0, 0x00f7, -32),
    (0x00f8, 0x00ff, -32),
    (0x0256, 0x0258, -205),
    (0x028a, 0x028c, -217),
    (0x037b, 0x037e, 130),
    (0x03ac, 0x03ad, -38),
    (0x03ad, 0x03b0, -37),
    (0x03b1, 0x03c2, -32),
    (0x03c2, 0x03c3, -31),
    (0x03c3, 0x03cc, -32),
    (0x03cc, 0x03cd, -64),
    (0x03cd, 0x03cf, -63),
    (0x0430, 0x0450, -32),
    (0x0450, 0x0460, -80),
    (0x0561, 0x0587, -48),
    (0x1f00, 0x1f08, 8),
    (0x1f10, 0x1f16, 8),
    (0x1f20, 0x1f28, 8),
    (0x1f30, 0x1f38, 8),
    (0x1f40, 0x1f46, 8),
    (0x1f51, 0x1f52, 8),
    (0x1f53, 0x1f54, 8),
    (0x1f55, 0x1f56, 8),
    (0x1f57, 0x1f58, 8),
    (0x1f60, 0x1f68, 8),
    (0x1f70, 0x1f72, 74),
    (0x1f72, 0x1f76, 86),
    (0x1f76, 0x1f78, 100),
    (0x1f78, 0x1f7a, 128),
    (0x1f7a, 0x1f7c, 112),
    (0x1f7c, 0x1f7e, 126),
    (0x1f80, 0x1f88, 8),
    (0x1f90, 0x1f98, 8),
    (0x1fa0, 0x1fa8, 8),
    (0x1fb0, 0x1fb2, 8),
    (0x1fb3, 0x1fb4, 9),
    (0x1fcc, 0x1fcd, -9),
    (0x1fd0, 0x1fd2, 8),
    (0x1fe0, 0x1fe2, 8),
    (0x1fe5, 0x1fe6, 7),
    (0x1ffc, 0x1ffd, -9),
    (0x2170, 0x2180, -16),
    (0x24d0, 0x24ea, -26),
    (0x2c30, 0x2c5f, -48),
    (0x2d00, 0x2d26, -7264),
    (0xff41, 0xff5b, -32),
];

/// Runs of upper and lower case pairs, `(upper, last)`: the code unit
/// after each even offset from `upper` upcases to one less.
const UPCASE_PAIRS: &[(u16, u16)] = &[
    (0x0100, 0x012f),
    (0x0132, 0x0137),
    (0x0139, 0x0149),
    (0x014a, 0x0178),
    (0x0179, 0x017e),
    (0x01a0, 0x01a6),
    (0x01b3, 0x01b7),
    (0x01cd, 0x01dd),
    (0x01de, 0x01ef),
    (0x01f4, 0x01f5),
    (0x01f8, 0x01f9),
    (0x01fa, 0x0220),
    (0x0222, 0x0234),
    (0x023b, 0x023c),
    (0x0241, 0x0242),
    (0x0246, 0x024f),
    (0x03d8, 0x03ef),
    (0x03f7, 0x03f8),
    (0x03fa, 0x03fb),
    (0x0460, 0x0481),
    (0x048a, 0x04bf),
    (0x04c1, 0x04c4),
    (0x04c5, 0x04c8),
    (0x04c9, 0x04ce),
    (0x04ec, 0x04ed),
    (0x04d0, 0x04eb),
    (0x04ee, 0x04f5),
    (0x04f6, 0x0513),
    (0x1e00, 0x1e95),
    (0x1ea0, 0x1ef9),
    (0x2183, 0x2184),
    (0x2c60, 0x2c61),
    (0x2c67, 0x2c6c),
    (0x2c75, 0x2c76),
    (0x2c80, 0x2ce3),
];

/// Single code units and what they upcase to.
const UPCASE_SINGLES: &[(u16, u16)] = &[
    (0x00ff, 0x0178),
    (0x0180, 0x0243),
    (0x0183, 0x0182),
    (0x0185, 0x0184),
    (0x0188, 0x0187),
    (0x018c, 0x018b),
    (0x0192, 0x0191),
    (0x0195, 0x01f6),
    (0x0199, 0x0198),
    (0x019a, 0x023d),
    (0x019e, 0x0220),
    (0x01a8, 0x01a7),
    (0x01ad, 0x01ac),
    (0x01b0, 0x01af),
    (0x01b9, 0x01b8),
    (0x01bd, 0x01bc),
    (0x01bf, 0x01f7),
    (0x01c6, 0x01c4),
    (0x01c9, 0x01c7),
    (0x01cc, 0x01ca),
    (0x01dd, 0x018e),
    (0x01f3, 0x01f1),
    (0x023a, 0x2c65),
    (0x023e, 0x2c66),
    (0x0253, 0x0181),
    (0x0254, 0x0186),
    (0x0259, 0x018f),
    (0x025b, 0x0190),
    (0x0260, 0x0193),
    (0x0263, 0x0194),
    (0x0268, 0x0197),
    (0x0269, 0x0196),
    (0x026b, 0x2c62),
    (0x026f, 0x019c),
    (0x0272, 0x019d),
    (0x0275, 0x019f),
    (0x027d, 0x2c64),
    (0x0280, 0x01a6),
    (0x0283, 0x01a9),
    (0x0288, 0x01ae),
    (0x0289, 0x0244),
    (0x028c, 0x0245),
    (0x0292, 0x01b7),
    (0x03f2, 0x03f9),
    (0x04cf, 0x04c0),
    (0x1d7d, 0x2c63),
    (0x214e, 0x2132),
];

/// The whole table: what each of the 65,536 code units upcases to.
///
/// # Examples
///
/// ```
/// use rootguard::lexical::windows::upcase_table;
/// assert_eq!(upcase_table()[usize::from(b'a')], u16::from(b'A'));
/// assert_eq!(upcase_table()[0x212a], 0x212a);
/// ```
pub fn upcase_table() -> &'static [u16; 0x10000] {
    static TABLE: OnceLock<Box<[u16; 0x10000]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Box::new([0u16; 0x10000]);
        for (unit, up) in table.iter_mut().enumerate() {
            *up = unit as u16;
        }
        for &(first, past, amount) in UPCASE_RUNS {
            for unit in first..past {
                table[usize::from(unit)] = (i32::from(unit) + amount) as u16;
            }
        }
        for &(upper, last) in UPCASE_PAIRS {
            for unit in (upper..last).step_by(2) {
                let lower = usize::from(unit) + 1;
                table[lower] = table[lower].wrapping_sub(1);
            }
        }
        for &(unit, up) in UPCASE_SINGLES {
            table[usize::from(unit)] = up;
        }
        table
    })
}

/// Whether two names are the same name to NTFS: [`upcase`] equal.
pub fn same_name(a: &str, b: &str) -> bool {
    a == b || upcase(a) == upcase(b)
}

/// The stem of an 8.3 short name (`PROGRA` of `PROGRA~1`, `PR3F2A` of
/// `PR3F2A~1.TXT`): one to six characters, `~`, one to six digits, at most
/// eight before an extension of at most three; `None` for any other name.
///
/// # Examples
///
/// ```
/// use rootguard::lexical::windows::short_name_stem;
/// assert_eq!(short_name_stem("progra~1"), Some("progra"));
/// assert_eq!(short_name_stem("LONGFI~1.TXT"), Some("LONGFI"));
/// assert_eq!(short_name_stem("a~b"), None);
/// assert_eq!(short_name_stem("LONGFI~12.TXT"), None); // nine before the dot
/// ```
pub fn short_name_stem(name: &str) -> Option<&str> {
    let (base, ext) = match name.rsplit_once('.') {
        Some((base, ext)) => (base, Some(ext)),
        None => (name, None),
    };
    if ext.is_some_and(|e| e.chars().count() > 3 || e.contains('~')) {
        return None;
    }
    let (stem, digits) = base.rsplit_once('~')?;
    let stem_len = stem.chars().count();
    let ok = (1..=6).contains(&stem_len)
        && !stem.contains(['~', '.', ' '])
        && !digits.is_empty()
        && digits.len() <= 6
        && digits.bytes().all(|b| b.is_ascii_digit())
        && !digits.starts_with('0')
        && stem_len + 1 + digits.len() <= 8;
    ok.then_some(stem)
}

/// Whether `name` is itself a valid 8.3 name (one to eight characters,
/// at most one dot, an extension of at most three, only characters 8.3
/// allows), so that NTFS gives it no other, short, name.
fn fits_8_3(name: &str) -> bool {
    let allowed = |c: char| c.is_ascii_alphanumeric() || "!#$%&'()-@^_`{}~".contains(c);
    let (base, ext) = name.split_once('.').unwrap_or((name, ""));
    (1..=8).contains(&base.len()) && ext.len() <= 3 && base.chars().chain(ext.chars()).all(allowed)
}

/// Whether a long name could have the short name whose stem is `stem`:
/// Windows makes a short stem from the long name's first six characters
/// that 8.3 allows (spaces and dots dropped), or, once many names share
/// them, from its first two and four hex digits of a hash.
fn may_have_short_stem(long: &str, stem: &str) -> bool {
    if fits_8_3(long) {
        return false;
    }
    let letters: String = upcase(long)
        .chars()
        .filter(|c| !matches!(c, ' ' | '.'))
        .collect();
    let stem = upcase(stem);
    let mut stem_chars = stem.chars();
    let plain = letters.starts_with(&stem) || {
        // Characters 8.3 does not allow become `_`.
        let l: Vec<char> = letters.chars().collect();
        stem.chars()
            .enumerate()
            .all(|(i, s)| l.get(i).is_some_and(|&c| c == s || s == '_'))
    };
    let hashed = stem.chars().count() == 6
        && stem.chars().skip(2).all(|c| c.is_ascii_hexdigit())
        && stem_chars.next().is_some_and(|c| letters.starts_with(c))
        && letters.chars().nth(1) == stem.chars().nth(1);
    plain || hashed
}

/// How the names `a` and `b` compare, short names considered: equal
/// names are [`NameMatch::Same`]; a short name and a long name it may
/// alias are [`NameMatch::Maybe`]. A name that is itself a valid 8.3
/// name has no other: two different short names are different, and
/// `PROJ~1` is not `proj`.
///
/// # Examples
///
/// ```
/// use rootguard::lexical::windows::{compare_names, NameMatch};
/// assert_eq!(compare_names("proj", "PROJ"), NameMatch::Same);
/// assert_eq!(compare_names("PROGRA~1", "Program Files"), NameMatch::Maybe);
/// assert_eq!(compare_names("PROGRA~1", "Projects"), NameMatch::Different);
/// assert_eq!(compare_names("PROGRA~1", "PROGRA~2"), NameMatch::Different);
/// assert_eq!(compare_names("PROJ~1", "proj"), NameMatch::Different);
/// assert_eq!(compare_names("PROJEC~1", "projects"), NameMatch::Different);
/// assert_eq!(compare_names("PROJEC~1", "projects2"), NameMatch::Maybe);
/// ```
pub fn compare_names(a: &str, b: &str) -> NameMatch {
    if same_name(a, b) {
        return NameMatch::Same;
    }
    match (short_name_stem(a), short_name_stem(b)) {
        (Some(_), Some(_)) | (None, None) => NameMatch::Different,
        (Some(stem), None) if may_have_short_stem(b, stem) => NameMatch::Maybe,
        (None, Some(stem)) if may_have_short_stem(a, stem) => NameMatch::Maybe,
        _ => NameMatch::Different,
    }
}
