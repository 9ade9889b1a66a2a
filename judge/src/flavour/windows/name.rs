//! When two Windows names are the same name: NTFS compares names through
//! its upcase table, which simple Unicode uppercase mapping approximates
//! (one character to one character; `ß` stays `ß`, and no normalization:
//! `é` and `e` + U+0301 differ). 8.3 short names (`PROGRA~1`) are aliases
//! the model cannot see.

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

/// The name NTFS compares: each character's simple uppercase mapping
/// where it has one of a single character, the character itself
/// otherwise.
///
/// # Examples
///
/// ```
/// use rootguard_judge::flavour::windows::upcase;
/// assert_eq!(upcase("Proj"), "PROJ");
/// assert_eq!(upcase("straße"), "STRAßE");
/// assert_eq!(upcase("\u{131}"), "I"); // dotless i
/// ```
pub fn upcase(name: &str) -> String {
    name.chars()
        .map(|c| {
            let mut up = c.to_uppercase();
            match (up.next(), up.next()) {
                (Some(u), None) => u,
                _ => c,
            }
        })
        .collect()
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
/// use rootguard_judge::flavour::windows::short_name_stem;
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
/// use rootguard_judge::flavour::windows::{compare_names, NameMatch};
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
