//! Root URIs, semantics.md section 1: strict, to bytes, lexically normal.

use std::fmt;

/// A root URI that breaks a rule of semantics.md section 1; the text names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidRoot(pub String);

impl fmt::Display for InvalidRoot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InvalidRoot {}

fn invalid<T>(why: impl Into<String>) -> Result<T, InvalidRoot> {
    Err(InvalidRoot(why.into()))
}

/// RFC 3986 pchar plus "/": unreserved, sub-delims, ":" and "@" ("%" apart).
fn is_path_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/".contains(&b)
}

/// The absolute, lexically normal path (bytes) that a valid root URI names.
///
/// # Errors
///
/// [`InvalidRoot`] naming the rule the URI breaks.
pub fn parse_root_uri(uri: &str) -> Result<Vec<u8>, InvalidRoot> {
    if !uri.get(..5).is_some_and(|head| head.eq_ignore_ascii_case("file:")) {
        return invalid("scheme is not file");
    }
    let rest = &uri.as_bytes()[5..];
    for (i, &b) in rest.iter().enumerate() {
        match b {
            b'%' => {
                let hex = |k: usize| rest.get(i + k).is_some_and(u8::is_ascii_hexdigit);
                if !(hex(1) && hex(2)) {
                    return invalid("'%' not followed by two hex digits");
                }
            }
            b'?' | b'#' => return invalid("query or fragment"),
            _ if !is_path_char(b) => {
                return invalid(format!("byte {:?} is not allowed in a URI path", char::from(b)))
            }
            _ => {}
        }
    }
    let path = if let Some(after) = rest.strip_prefix(b"//") {
        let slash = after.iter().position(|&b| b == b'/');
        let authority = &after[..slash.unwrap_or(after.len())];
        if !authority.is_empty() && !authority.eq_ignore_ascii_case(b"localhost") {
            return invalid(format!(
                "authority {:?} is neither empty nor localhost",
                String::from_utf8_lossy(authority)
            ));
        }
        match slash {
            Some(slash) => &after[slash..],
            None => return invalid("no path after the authority"),
        }
    } else if rest.starts_with(b"/") {
        rest // the RFC 8089 file:/path form
    } else {
        return invalid("path is not absolute");
    };
    // Split before decoding: a decoded "/" is refused anyway, so this is the same.
    // RFC 3986 5.2.4 counts empty segments, so "/a//../b" is "/a/b"; only
    // then do empty segments collapse.
    let mut kept: Vec<Vec<u8>> = Vec::new();
    for encoded in path[1..].split(|&b| b == b'/') {
        let segment = percent_decode(encoded)?;
        match segment.as_slice() {
            b"." => {}
            b".." => {
                kept.pop();
            }
            _ => kept.push(segment),
        }
    }
    kept.retain(|segment| !segment.is_empty());
    Ok(crate::join(&kept))
}

fn percent_decode(segment: &[u8]) -> Result<Vec<u8>, InvalidRoot> {
    let mut out = Vec::with_capacity(segment.len());
    let mut i = 0;
    while i < segment.len() {
        if segment[i] == b'%' {
            let hex = std::str::from_utf8(&segment[i + 1..i + 3]).expect("checked ASCII hex");
            let byte = u8::from_str_radix(hex, 16).expect("checked ASCII hex");
            match byte {
                b'/' => return invalid("%2F would smuggle a '/' into a segment"),
                0 => return invalid("%00 would smuggle a NUL into a segment"),
                _ => out.push(byte),
            }
            i += 3;
        } else {
            out.push(segment[i]);
            i += 1;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::parse_root_uri;
    use serde_json::Value;

    fn hex(text: &str) -> Vec<u8> {
        (0..text.len()).step_by(2).map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap()).collect()
    }

    #[test]
    fn agrees_with_the_shared_vectors() {
        let doc: Value = serde_json::from_str(include_str!("../../../../corpus/root-uris.json")).unwrap();
        let vectors = doc["vectors"].as_array().unwrap();
        assert!(vectors.len() > 50);
        for v in vectors {
            let uri = v["uri"].as_str().unwrap();
            let want = if v.get("invalid").is_some() {
                None
            } else if let Some(h) = v.get("path_hex") {
                Some(hex(h.as_str().unwrap()))
            } else {
                Some(v["path"].as_str().unwrap().as_bytes().to_vec())
            };
            assert_eq!(parse_root_uri(uri).ok(), want, "{uri:?}");
        }
    }
}
