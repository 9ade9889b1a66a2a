//! Paths and names of any bytes, and how they travel in JSON: a byte that
//! is not part of valid UTF-8 is written as the lone surrogate escape
//! `\udcXX` (`XX` its value, `80`–`ff`), the convention of Python's
//! `os.fsdecode` (scenario-format.md and checker-protocol.md, "Paths that
//! are not UTF-8"). serde_json neither writes lone surrogates nor reads
//! them into a `String`, so both directions are done here.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

/// A path, a name or a link target: any bytes. Linux forbids only `/` in
/// a name and NUL anywhere; the scenario format checks those rules, this
/// type holds whatever it is given.
///
/// # Examples
///
/// ```
/// use rootguard_judge::PathBytes;
///
/// let p = PathBytes::from(b"/x/caf\xe9".to_vec());
/// assert_eq!(p.to_json(), r#""/x/caf\udce9""#);
/// assert_eq!(PathBytes::from_json(&p.to_json()).unwrap(), p);
/// assert_eq!(p.to_string(), r"/x/caf\xe9");
/// assert_eq!(PathBytes::from("/x/é").to_json(), r#""/x/é""#);
/// ```
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PathBytes(Vec<u8>);

impl PathBytes {
    /// The bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The bytes as a path, for the system calls that take them.
    pub fn to_path(&self) -> &std::path::Path {
        use std::os::unix::ffi::OsStrExt;
        std::path::Path::new(std::ffi::OsStr::from_bytes(&self.0))
    }

    /// The bytes, owned.
    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }

    /// The text, when the bytes are UTF-8.
    pub fn to_str(&self) -> Option<&str> {
        std::str::from_utf8(&self.0).ok()
    }

    /// The text, with U+FFFD for bytes that are not UTF-8 (only where a
    /// consumer takes nothing but text, and says so).
    pub fn to_string_lossy(&self) -> String {
        String::from_utf8_lossy(&self.0).into_owned()
    }

    /// Whether every byte is part of valid UTF-8.
    pub fn is_utf8(&self) -> bool {
        self.to_str().is_some()
    }

    /// The number of bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// No bytes at all.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `needle` occurs in the bytes.
    pub fn contains(&self, needle: impl AsRef<[u8]>) -> bool {
        let needle = needle.as_ref();
        needle.is_empty() || self.0.windows(needle.len()).any(|w| w == needle)
    }

    /// Every `from` replaced by `to`, left to right.
    pub fn replace(&self, from: impl AsRef<[u8]>, to: impl AsRef<[u8]>) -> PathBytes {
        PathBytes(replace_bytes(&self.0, from.as_ref(), to.as_ref()))
    }

    /// Whether the bytes start with `prefix`.
    pub fn starts_with(&self, prefix: impl AsRef<[u8]>) -> bool {
        self.0.starts_with(prefix.as_ref())
    }

    /// Whether the bytes end with `suffix`.
    pub fn ends_with(&self, suffix: impl AsRef<[u8]>) -> bool {
        self.0.ends_with(suffix.as_ref())
    }

    /// The bytes after `prefix`, if they start with it.
    pub fn strip_prefix(&self, prefix: impl AsRef<[u8]>) -> Option<&[u8]> {
        self.0.strip_prefix(prefix.as_ref())
    }

    /// The bytes, then `more`.
    pub fn join(&self, more: impl AsRef<[u8]>) -> PathBytes {
        let mut out = self.0.clone();
        out.extend_from_slice(more.as_ref());
        PathBytes(out)
    }

    /// The `/`-separated segments.
    pub fn segments(&self) -> impl Iterator<Item = &[u8]> {
        self.0.split(|&b| b == b'/')
    }

    /// The bytes as one JSON string, `\udcXX` for each byte not part of
    /// valid UTF-8.
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(self.0.len() + 2);
        write_json_string(&self.0, &mut out);
        out
    }

    /// Reads one JSON string, `\udc80`–`\udcff` standing for bytes.
    ///
    /// # Errors
    ///
    /// When the text is not one JSON string, or holds a lone surrogate
    /// other than `\udc80`–`\udcff` (see [`from_wtf8`]).
    pub fn from_json(text: &str) -> Result<PathBytes, String> {
        let mut de = serde_json::Deserializer::from_str(text);
        let value = PathBytes::deserialize(&mut de).map_err(|e| e.to_string())?;
        de.end().map_err(|e| e.to_string())?;
        Ok(value)
    }
}

/// Appends `bytes` to `out` as a JSON string: `"` and `\` escaped, control
/// characters as `\n`, `\r`, `\t`, `\b`, `\f` or `\u00XX`, valid UTF-8
/// (DEL included) as it is, as serde_json writes a string, and every
/// other byte as `\udcXX`.
///
/// # Examples
///
/// ```
/// let mut out = String::new();
/// rootguard_judge::write_json_string(b"a\"\x01\n\xff\xc3\xa9", &mut out);
/// assert_eq!(out, r#""a\"\u0001\n\udcffé""#);
/// ```
pub fn write_json_string(bytes: &[u8], out: &mut String) {
    out.push('"');
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '\u{8}' => out.push_str("\\b"),
                '\u{c}' => out.push_str("\\f"),
                c if c < ' ' => out.push_str(&format!("\\u{:04x}", u32::from(c))),
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\udc{b:02x}"));
        }
    }
    out.push('"');
}

/// The bytes of a string serde_json has unescaped as WTF-8 (lone
/// surrogates as three bytes `ED A0..BF xx`), each surrogate U+DC80 to
/// U+DCFF turned back into the byte it stands for.
///
/// # Errors
///
/// Any other lone surrogate: it stands for no byte.
///
/// # Examples
///
/// ```
/// use rootguard_judge::from_wtf8;
///
/// assert_eq!(from_wtf8(b"a\xed\xb3\xbf").unwrap(), b"a\xff");
/// assert!(from_wtf8(b"\xed\xb1\x81").unwrap_err().contains("\\udc41"));
/// ```
pub fn from_wtf8(wtf8: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(wtf8.len());
    let mut i = 0;
    while i < wtf8.len() {
        let b = wtf8[i];
        if b == 0xED && i + 2 < wtf8.len() && (0xA0..=0xBF).contains(&wtf8[i + 1]) {
            let unit =
                0xD000 | (u32::from(wtf8[i + 1] & 0x3F) << 6) | u32::from(wtf8[i + 2] & 0x3F);
            if (0xDC80..=0xDCFF).contains(&unit) {
                // Lossless: the unit's low byte is the byte.
                out.push((unit & 0xFF) as u8);
                i += 3;
                continue;
            }
            return Err(format!(
                "the lone surrogate \\u{unit:04x} stands for no byte: only \\udc80 to \\udcff do, one byte 0x80 to 0xff each (see scenario-format.md, \"Bytes that are not UTF-8\")"
            ));
        }
        out.push(b);
        i += 1;
    }
    Ok(out)
}

impl fmt::Display for PathBytes {
    /// Valid UTF-8 as it is, every other byte as `\xHH`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for chunk in self.0.utf8_chunks() {
            f.write_str(chunk.valid())?;
            for b in chunk.invalid() {
                write!(f, "\\x{b:02x}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for PathBytes {
    /// Quoted like a `str`'s `Debug`, every byte not UTF-8 as `\xHH`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"")?;
        for chunk in self.0.utf8_chunks() {
            for c in chunk.valid().chars() {
                if c == '\'' {
                    f.write_str("'")?;
                } else {
                    write!(f, "{}", c.escape_debug())?;
                }
            }
            for b in chunk.invalid() {
                write!(f, "\\x{b:02x}")?;
            }
        }
        f.write_str("\"")
    }
}

impl From<&str> for PathBytes {
    fn from(text: &str) -> PathBytes {
        PathBytes(text.as_bytes().to_vec())
    }
}

impl From<String> for PathBytes {
    fn from(text: String) -> PathBytes {
        PathBytes(text.into_bytes())
    }
}

impl From<&String> for PathBytes {
    fn from(text: &String) -> PathBytes {
        PathBytes(text.as_bytes().to_vec())
    }
}

impl From<Vec<u8>> for PathBytes {
    fn from(bytes: Vec<u8>) -> PathBytes {
        PathBytes(bytes)
    }
}

impl From<&[u8]> for PathBytes {
    fn from(bytes: &[u8]) -> PathBytes {
        PathBytes(bytes.to_vec())
    }
}

impl AsRef<[u8]> for PathBytes {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for PathBytes {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.to_path().as_os_str()
    }
}

impl AsRef<std::path::Path> for PathBytes {
    fn as_ref(&self) -> &std::path::Path {
        self.to_path()
    }
}

impl PartialEq<str> for PathBytes {
    fn eq(&self, other: &str) -> bool {
        self.0 == other.as_bytes()
    }
}

impl PartialEq<&str> for PathBytes {
    fn eq(&self, other: &&str) -> bool {
        self.0 == other.as_bytes()
    }
}

impl PartialEq<String> for PathBytes {
    fn eq(&self, other: &String) -> bool {
        self.0 == other.as_bytes()
    }
}

impl PartialEq<[u8]> for PathBytes {
    fn eq(&self, other: &[u8]) -> bool {
        self.0 == other
    }
}

impl PartialEq<&[u8]> for PathBytes {
    fn eq(&self, other: &&[u8]) -> bool {
        self.0 == *other
    }
}

impl Serialize for PathBytes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if let Some(text) = self.to_str() {
            return serializer.serialize_str(text);
        }
        // Only serde_json writes a raw value verbatim; it is the one
        // serializer scenarios go through.
        let raw = serde_json::value::RawValue::from_string(self.to_json())
            .map_err(serde::ser::Error::custom)?;
        raw.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for PathBytes {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<PathBytes, D::Error> {
        // serde_json gives a string's bytes as WTF-8 through
        // `deserialize_bytes`, lone surrogates included.
        deserializer.deserialize_bytes(BytesVisitor)
    }
}

/// [`PathBytes`] read as the value of `field`, whose name the error says.
pub(crate) fn field<'de, D: Deserializer<'de>>(
    deserializer: D,
    field: &str,
) -> Result<PathBytes, D::Error> {
    PathBytes::deserialize(deserializer)
        .map_err(|e| de::Error::custom(format!("field \"{field}\": {e}")))
}

struct BytesVisitor;

impl Visitor<'_> for BytesVisitor {
    type Value = PathBytes;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string (a byte that is not UTF-8 as \\udcXX)")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<PathBytes, E> {
        Ok(PathBytes::from(text))
    }

    fn visit_bytes<E: de::Error>(self, wtf8: &[u8]) -> Result<PathBytes, E> {
        from_wtf8(wtf8).map(PathBytes).map_err(E::custom)
    }
}

/// `text` with every `from` replaced by `to`, left to right; an empty
/// `from` replaces nothing.
pub(crate) fn replace_bytes(text: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    if from.is_empty() {
        return text.to_vec();
    }
    let mut out = Vec::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if rest.starts_with(from) {
            out.extend_from_slice(to);
            rest = &rest[from.len()..];
        } else {
            out.push(rest[0]);
            rest = &rest[1..];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_round_trips_alone_and_between_text() {
        for b in 0u8..=255 {
            for bytes in [vec![b], vec![b'a', b, b'z'], vec![b, b, 0xC3, 0xA9, b]] {
                let p = PathBytes::from(bytes.clone());
                let json = p.to_json();
                assert!(
                    json.is_ascii() || p.is_utf8() || json.contains("é"),
                    "{json}"
                );
                assert_eq!(PathBytes::from_json(&json), Ok(p.clone()), "{json}");
                if b >= 0x80 && !p.is_utf8() {
                    assert!(json.contains(&format!("\\udc{b:02x}")), "{json}");
                    assert!(serde_json::from_str::<String>(&json).is_err());
                } else {
                    assert_eq!(
                        serde_json::from_str::<String>(&json).ok(),
                        p.to_str().map(str::to_owned),
                        "{json}"
                    );
                }
            }
        }
    }

    #[test]
    fn valid_utf8_is_written_as_serde_json_writes_it() {
        for text in [
            "",
            "a",
            "é",
            "\u{7f}\u{1}\n\r\t\"\\",
            "\u{1f600}",
            "\u{200b}",
        ] {
            let p = PathBytes::from(text);
            assert_eq!(serde_json::from_str::<String>(&p.to_json()).unwrap(), text);
            assert_eq!(serde_json::to_string(&p).unwrap(), p.to_json());
        }
    }

    #[test]
    fn surrogate_pairs_and_byte_escapes_read() {
        assert_eq!(
            PathBytes::from_json(r#""\ud83d\ude00""#).unwrap(),
            "\u{1f600}"
        );
        assert_eq!(
            PathBytes::from_json(r#""\udcc3\udca9""#).unwrap(),
            "é",
            "bytes are bytes, however they are spelt"
        );
        assert_eq!(
            PathBytes::from_json(r#""\udcFF\u0000""#).unwrap(),
            &b"\xff\0"[..]
        );
    }

    #[test]
    fn other_lone_surrogates_are_refused() {
        for text in [
            r#""\udc41""#,
            r#""\udc7f""#,
            r#""\ud800""#,
            r#""\udbff x""#,
            r#""\udd00""#,
            r#""\udfff""#,
        ] {
            let e = PathBytes::from_json(text).unwrap_err();
            assert!(e.contains("stands for no byte"), "{text}: {e}");
        }
        assert!(PathBytes::from_json("1").is_err());
        assert!(PathBytes::from_json(r#""a" "b""#).is_err());
    }

    #[test]
    fn shown_with_visible_escapes() {
        let p = PathBytes::from(b"/a\xff\xc3/\xc3\xa9\n".to_vec());
        assert_eq!(p.to_string(), "/a\\xff\\xc3/é\n");
        assert_eq!(format!("{p:?}"), r#""/a\xff\xc3/é\n""#);
        assert_eq!(
            format!("{:?}", PathBytes::from("it's")),
            format!("{:?}", "it's")
        );
    }

    #[test]
    fn text_operations_on_bytes() {
        let p = PathBytes::from("{base}/a{base}");
        assert_eq!(p.replace("{base}", "/b"), "/b/a/b");
        assert!(p.contains("/a"));
        assert_eq!(p.strip_prefix("{base}"), Some(&b"/a{base}"[..]));
        assert_eq!(p.segments().count(), 2);
    }
}
