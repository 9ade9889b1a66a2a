//! Reading one response line: a JSON object with the request's `id` and a
//! boolean `allowed`, or the reason it is a protocol error.

use super::Answer;

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
    let value: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| format!("not JSON ({e}): {:?}", shown()))?;
    let object = value
        .as_object()
        .ok_or_else(|| format!("not a JSON object: {:?}", shown()))?;
    match object.get("id") {
        Some(got) if got.as_u64() == Some(id) => {}
        Some(got) => return Err(format!("answered id {got}, expected {id}")),
        None => return Err(format!("no \"id\" in the response: {:?}", shown())),
    }
    let allowed = match object.get("allowed") {
        Some(serde_json::Value::Bool(b)) => *b,
        Some(other) => return Err(format!("\"allowed\" is {other}, not a boolean")),
        None => return Err(format!("no \"allowed\" in the response: {:?}", shown())),
    };
    let use_path = if allowed {
        object
            .get("use")
            .and_then(|u| u.as_str())
            .map(str::to_owned)
    } else {
        None
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
}
