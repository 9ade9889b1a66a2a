//! Reading one response line: a JSON object with the request's `id` and a
//! boolean `allowed`, or the reason it is a protocol error.

use rootguard_judge::PathBytes;
use serde::Deserialize;
use serde_json::value::RawValue;

use super::Answer;

/// The fields a response is read for; any other is skipped unread, so a
/// `reason` that echoes a path with `\udcXX` in it is no error.
#[derive(Deserialize)]
struct Fields<'a> {
    id: Option<serde_json::Value>,
    allowed: Option<serde_json::Value>,
    #[serde(rename = "use", borrow)]
    use_path: Option<&'a RawValue>,
}

/// Parses one response line for request `id`.
pub(super) fn parse_response(bytes: &[u8], id: u64) -> Result<Answer, String> {
    let shown = || {
        let text = String::from_utf8_lossy(bytes);
        let mut short: String = text.chars().take(120).collect();
        if short.len() < text.len() {
            short.push('…');
        }
        short
    };
    // One parse for a good line. A bad one is parsed again as any JSON
    // (strings skipped unvalidated, so lone surrogates pass) to tell "not
    // JSON", with a plain reader's message, from "not a JSON object".
    let object: Fields =
        serde_json::from_slice(bytes).map_err(|_| {
            match serde_json::from_slice::<serde::de::IgnoredAny>(bytes) {
                Err(e) => format!("not JSON ({e}): {:?}", shown()),
                Ok(_) => format!("not a JSON object: {:?}", shown()),
            }
        })?;
    match &object.id {
        Some(got) if got.as_u64() == Some(id) => {}
        Some(got) => return Err(format!("answered id {got}, expected {id}")),
        None => return Err(format!("no \"id\" in the response: {:?}", shown())),
    }
    let allowed = match &object.allowed {
        Some(serde_json::Value::Bool(b)) => *b,
        Some(other) => return Err(format!("\"allowed\" is {other}, not a boolean")),
        None => return Err(format!("no \"allowed\" in the response: {:?}", shown())),
    };
    // `use` is read as bytes, `\udcXX` included; a value that is not a
    // string is ignored, as before, and a string no path can be is an error.
    let use_path = match object.use_path.filter(|_| allowed) {
        Some(raw) if raw.get().starts_with('"') => Some(
            PathBytes::from_json(raw.get()).map_err(|e| format!("\"use\" names no path: {e}"))?,
        ),
        _ => None,
    };
    Ok(Answer { allowed, use_path })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses() {
        assert_eq!(
            parse_response(br#"{"id":3,"allowed":true}"#, 3),
            Ok(Answer::allow())
        );
        assert_eq!(
            parse_response(br#"{"id":3,"allowed":true,"use":"/x"}"#, 3),
            Ok(Answer::allow_as("/x"))
        );
        assert!(parse_response(br#"{"id":4,"allowed":true}"#, 3).is_err());
        assert!(parse_response(br#"{"id":3,"allowed":"yes"}"#, 3).is_err());
        assert!(parse_response(br#"[1]"#, 3).is_err());
        assert!(parse_response(b"hello", 3).is_err());
    }

    #[test]
    fn lone_surrogates_in_use_and_elsewhere() {
        assert_eq!(
            parse_response(
                br#"{"id":3,"allowed":true,"use":"/x\udcff","reason":"\udc80"}"#,
                3
            ),
            Ok(Answer::allow_as(b"/x\xff".to_vec()))
        );
        assert_eq!(
            parse_response(br#"{"id":3,"allowed":false,"reason":"/\udcff is out"}"#, 3),
            Ok(Answer::deny())
        );
        let e = parse_response(br#"{"id":3,"allowed":true,"use":"/x\ud800"}"#, 3).unwrap_err();
        assert!(
            e.contains("\"use\" names no path") && e.contains("\\ud800"),
            "{e}"
        );
        assert_eq!(
            parse_response(br#"{"id":3,"allowed":true,"use":7}"#, 3),
            Ok(Answer::allow())
        );
        assert!(parse_response(br#"{"id":3,"allowed":true"#, 3)
            .unwrap_err()
            .starts_with("not JSON"));
    }
}
