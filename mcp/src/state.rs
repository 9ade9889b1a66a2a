//! A `requestState` read as a client must never read it (revision
//! 2026-07-28, basic/patterns/mrtr.mdx): decoded from base64, base64url or
//! a JWT to its JSON, its structure tampered with, and encoded back the way
//! the server wrote it. A state that affects access MUST be
//! integrity-protected, so a server must refuse every tampered copy.

use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine;
use serde_json::{json, Map, Value};

/// How a `requestState` was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Encoding {
    /// JSON text as it is.
    Json,
    /// Base64 of JSON text: the URL-safe alphabet or not, padded or not.
    Base64 { url: bool, padded: bool },
    /// A JWT (RFC 7519): its header part as written, the header, the signature part.
    Jwt {
        header_part: String,
        header: Value,
        signature: String,
    },
}

/// A `requestState` that decoded to readable structure.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Decoded {
    /// How it was written.
    pub(crate) encoding: Encoding,
    /// The JSON object or array it holds (a JWT's payload).
    pub(crate) payload: Value,
}

/// Far in the future: 2100-01-01T00:00:00Z, in seconds.
const FAR_FUTURE: i64 = 4_102_444_800;
/// Ten years, in seconds: a time to live that outlasts any run.
const LONG_TTL: i64 = 315_360_000;

/// Keys whose value says when a state lapses.
const EXPIRY_KEYS: [&str; 10] = [
    "exp",
    "expires",
    "expiresAt",
    "expires_at",
    "expiry",
    "notAfter",
    "validUntil",
    "ttl",
    "ttlMs",
    "ttl_ms",
];
/// Keys whose timestamp must not move into the future (a state "issued
/// later than now" is refused for that alone).
const ISSUED_KEYS: [&str; 6] = [
    "iat",
    "nbf",
    "issuedAt",
    "issued_at",
    "createdAt",
    "created_at",
];
/// Keys that may grant directories.
pub(crate) const ROOTS_KEYS: [&str; 4] = ["roots", "allowed", "allowedDirectories", "root"];
/// Keys that may carry a tool's arguments.
const ARGUMENT_KEYS: [&str; 4] = ["arguments", "args", "input", "params"];
/// Keys that may name the tool.
const TOOL_KEYS: [&str; 4] = ["tool", "toolName", "tool_name", "name"];

impl Decoded {
    /// `state` decoded, when it is JSON, base64 or base64url of JSON, or a
    /// JWT whose payload is JSON, and holds an object or an array; `None`
    /// for an opaque state.
    pub(crate) fn decode(state: &str) -> Option<Decoded> {
        let structured = |v: Value| (v.is_object() || v.is_array()).then_some(v);
        if let Some(jwt) = decode_jwt(state) {
            return Some(jwt);
        }
        if let Some(payload) = serde_json::from_str(state.trim()).ok().and_then(structured) {
            return Some(Decoded {
                encoding: Encoding::Json,
                payload,
            });
        }
        let url = state.contains(['-', '_']);
        let padded = state.ends_with('=') || state.len().is_multiple_of(4);
        let engines = [
            (url, padded),
            (url, !padded),
            (!url, padded),
            (!url, !padded),
        ];
        engines.into_iter().find_map(|(url, padded)| {
            let bytes = engine(url, padded).decode(state).ok()?;
            let payload = serde_json::from_slice(&bytes).ok().and_then(structured)?;
            Some(Decoded {
                encoding: Encoding::Base64 { url, padded },
                payload,
            })
        })
    }

    /// `payload` written the way this state was (a JWT keeps its header and
    /// its old signature).
    pub(crate) fn encode(&self, payload: &Value) -> String {
        let text = payload.to_string();
        match &self.encoding {
            Encoding::Json => text,
            Encoding::Base64 { url, padded } => engine(*url, *padded).encode(text),
            Encoding::Jwt {
                header_part,
                signature,
                ..
            } => format!("{header_part}.{}.{signature}", URL_SAFE_NO_PAD.encode(text)),
        }
    }

    /// For a JWT, `payload` in a token whose header says `alg: none` and
    /// whose signature is empty (RFC 7519 section 6, an unsecured JWT).
    pub(crate) fn encode_unsigned(&self, payload: &Value) -> Option<String> {
        let Encoding::Jwt { header, .. } = &self.encoding else {
            return None;
        };
        let mut header = header.clone();
        header["alg"] = json!("none");
        Some(format!(
            "{}.{}.",
            URL_SAFE_NO_PAD.encode(header.to_string()),
            URL_SAFE_NO_PAD.encode(payload.to_string())
        ))
    }

    /// How it was written, for a report: `base64url (unpadded) JSON`.
    pub(crate) fn describe(&self) -> String {
        match &self.encoding {
            Encoding::Json => "plain JSON".into(),
            Encoding::Base64 { url, padded } => format!(
                "{} ({}) JSON",
                if *url { "base64url" } else { "base64" },
                if *padded { "padded" } else { "unpadded" }
            ),
            Encoding::Jwt { header, .. } => {
                format!("a JWT (header {header}) with a JSON payload")
            }
        }
    }
}

fn engine(url: bool, padded: bool) -> &'static base64::engine::GeneralPurpose {
    match (url, padded) {
        (false, true) => &STANDARD,
        (false, false) => &STANDARD_NO_PAD,
        (true, true) => &URL_SAFE,
        (true, false) => &URL_SAFE_NO_PAD,
    }
}

fn decode_jwt(state: &str) -> Option<Decoded> {
    let mut parts = state.split('.');
    let (header_part, payload_part, signature) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let part = |p: &str| -> Option<Value> {
        let bytes = URL_SAFE_NO_PAD.decode(p.trim_end_matches('=')).ok()?;
        serde_json::from_slice(&bytes).ok()
    };
    let header = part(header_part).filter(|h| h.get("alg").is_some_and(Value::is_string))?;
    let payload = part(payload_part).filter(|p| p.is_object() || p.is_array())?;
    Some(Decoded {
        encoding: Encoding::Jwt {
            header_part: header_part.to_owned(),
            header,
            signature: signature.to_owned(),
        },
        payload,
    })
}

/// Where the tampered state points: outside every root.
#[derive(Debug, Clone)]
pub(crate) struct Outside {
    /// The base every root and the outside directory lie in (the server's
    /// working dir is one below it).
    pub(crate) base: String,
    /// The outside directory, absolute.
    pub(crate) dir: String,
    /// The canary file in it, absolute.
    pub(crate) file: String,
}

/// How a rewritten path is spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Spelling {
    /// The outside path itself (a URI stays a URI).
    Absolute,
    /// The original's directory, then `..` up to `/` and down to the
    /// outside path (a relative original: `../` from the working dir).
    DotDot,
}

/// One way of tampering with a state's structure.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tamper {
    /// Every string that looks like a path or a file URI made to point outside.
    Paths(Spelling),
    /// Roots-like keys added (or extended) with `/` and the outside directory.
    Roots,
    /// Every expiry moved far into the future.
    Expiry,
    /// The tool and its arguments swapped for these.
    Tool { name: String, arguments: Value },
}

impl Tamper {
    /// Its name in attack names: `paths`, `paths-dotdot`, `roots`, `expiry`, `tool`.
    pub(crate) fn as_str(&self) -> &'static str {
        match self {
            Tamper::Paths(Spelling::Absolute) => "paths",
            Tamper::Paths(Spelling::DotDot) => "paths-dotdot",
            Tamper::Roots => "roots",
            Tamper::Expiry => "expiry",
            Tamper::Tool { .. } => "tool",
        }
    }

    /// What it did, in a phrase for evidence.
    pub(crate) fn describe(&self) -> &'static str {
        match self {
            Tamper::Paths(Spelling::Absolute) => "its paths and file URIs pointed outside",
            Tamper::Paths(Spelling::DotDot) => {
                "its paths and file URIs pointed outside through `..`"
            }
            Tamper::Roots => "roots-like keys granting / and the outside directory",
            Tamper::Expiry => "its expiry moved to 2100",
            Tamper::Tool { .. } => "its tool and arguments swapped for a read of the outside file",
        }
    }

    /// `payload` tampered with this way; `outside` says where paths and
    /// roots point.
    pub(crate) fn apply(&self, payload: &Value, outside: &Outside) -> Value {
        let mut out = payload.clone();
        match self {
            Tamper::Paths(spelling) => rewrite_paths(&mut out, outside, *spelling),
            Tamper::Roots => add_roots(&mut out, outside, true),
            Tamper::Expiry => extend_expiry(&mut out, None),
            Tamper::Tool { name, arguments } => {
                let (named, argued) = swap_tool(&mut out, name, arguments);
                if let Value::Object(map) = &mut out {
                    if !named {
                        map.insert("name".into(), json!(name));
                    }
                    if !argued {
                        map.insert("arguments".into(), arguments.clone());
                    }
                }
            }
        }
        out
    }
}

/// Whether `s` looks like a path or a file URI.
fn looks_like_path(s: &str) -> bool {
    (s.starts_with('/') && s.len() > 1)
        || s.get(..5).is_some_and(|p| p.eq_ignore_ascii_case("file:"))
        || s.starts_with("./")
        || s.starts_with("../")
        || s.starts_with("~/")
}

/// The outside path standing for `original`: the canary file for a path
/// whose last name has an extension, else the outside directory.
fn rewritten(original: &str, outside: &Outside, spelling: Spelling) -> String {
    let (scheme, path) = match original.get(..5) {
        Some(p) if p.eq_ignore_ascii_case("file:") => {
            let rest = &original[5..];
            let path = rest
                .strip_prefix("//")
                .map_or(rest, |r| r.find('/').map_or("", |at| &r[at..]));
            ("file://", path)
        }
        _ => ("", original),
    };
    let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    let target = if last.contains('.') && last != "." && last != ".." {
        &outside.file
    } else {
        &outside.dir
    };
    let spelled = match spelling {
        Spelling::Absolute => target.clone(),
        Spelling::DotDot if path.starts_with('/') => {
            let parent = path
                .trim_end_matches('/')
                .rsplit_once('/')
                .map_or("", |(p, _)| p);
            let depth = parent.split('/').filter(|c| !c.is_empty()).count();
            format!(
                "{parent}/{}{}",
                "../".repeat(depth),
                target.trim_start_matches('/')
            )
        }
        // A relative path is taken from the working dir, one below the base.
        Spelling::DotDot => {
            let below = target.strip_prefix(&outside.base).unwrap_or(target);
            format!("..{below}")
        }
    };
    format!("{scheme}{spelled}")
}

fn rewrite_paths(value: &mut Value, outside: &Outside, spelling: Spelling) {
    match value {
        Value::String(s) if looks_like_path(s) => *s = rewritten(s, outside, spelling),
        Value::Array(items) => items
            .iter_mut()
            .for_each(|v| rewrite_paths(v, outside, spelling)),
        Value::Object(map) => map
            .values_mut()
            .for_each(|v| rewrite_paths(v, outside, spelling)),
        _ => {}
    }
}

/// A grant of `path` shaped like `like` (a root object, a URI, a path).
fn grant_like(like: Option<&Value>, path: &str) -> Value {
    let uri = format!("file://{path}");
    match like {
        Some(Value::Object(o)) if o.contains_key("uri") => json!({"uri": uri, "name": path}),
        Some(Value::String(s)) if s.get(..5).is_some_and(|p| p.eq_ignore_ascii_case("file:")) => {
            json!(uri)
        }
        _ => json!(path),
    }
}

/// Extends every roots-like key with `/` and the outside directory; at the
/// top (`add`), adds the missing ones too.
fn add_roots(value: &mut Value, outside: &Outside, add: bool) {
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                if !ROOTS_KEYS.contains(&key.as_str()) {
                    add_roots(v, outside, false);
                    continue;
                }
                match v {
                    Value::Array(items) => {
                        let like = items.first().cloned();
                        items.push(grant_like(like.as_ref(), "/"));
                        items.push(grant_like(like.as_ref(), &outside.dir));
                    }
                    other => *other = grant_like(Some(other), "/"),
                }
            }
            if add {
                add_missing_roots(map, outside);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| add_roots(v, outside, false)),
        _ => {}
    }
}

fn add_missing_roots(map: &mut Map<String, Value>, outside: &Outside) {
    let dir = &outside.dir;
    let fresh = [
        (
            "roots",
            json!([{"uri": "file:///", "name": "/"}, {"uri": format!("file://{dir}"), "name": dir}]),
        ),
        ("allowed", json!(["/", dir])),
        ("allowedDirectories", json!(["/", dir])),
        ("root", json!("/")),
    ];
    for (key, grant) in fresh {
        map.entry(key).or_insert(grant);
    }
}

/// Whether `n` reads as a Unix time: seconds (2001..2286) or milliseconds.
fn timestamp_unit(n: i64) -> Option<i64> {
    match n {
        1_000_000_000..=9_999_999_999 => Some(1),
        1_000_000_000_000..=9_999_999_999_999 => Some(1000),
        _ => None,
    }
}

/// Moves every expiry (and every other timestamp but issue times) far
/// into the future; `key` is the key `value` sits under.
fn extend_expiry(value: &mut Value, key: Option<&str>) {
    let expiry = key.is_some_and(|k| EXPIRY_KEYS.contains(&k));
    let issued = key.is_some_and(|k| ISSUED_KEYS.contains(&k));
    let ttl = key.is_some_and(|k| k.starts_with("ttl"));
    match value {
        Value::Number(n) if !issued => {
            let Some(n) = n.as_i64() else { return };
            let millis = key.is_some_and(|k| k.ends_with("Ms") || k.ends_with("_ms"));
            if ttl {
                *value = json!(if millis { LONG_TTL * 1000 } else { LONG_TTL });
            } else if let Some(unit) = timestamp_unit(n) {
                *value = json!(FAR_FUTURE * unit);
            } else if expiry {
                *value = json!(FAR_FUTURE);
            }
        }
        Value::String(_) if expiry => *value = json!("2100-01-01T00:00:00Z"),
        Value::Array(items) => items.iter_mut().for_each(|v| extend_expiry(v, None)),
        Value::Object(map) => map.iter_mut().for_each(|(k, v)| extend_expiry(v, Some(k))),
        _ => {}
    }
}

/// Swaps every tool name and arguments object for `name` and `arguments`:
/// whether there was a name, and whether there were arguments.
fn swap_tool(value: &mut Value, name: &str, arguments: &Value) -> (bool, bool) {
    let (mut named, mut argued) = (false, false);
    let mut children: Vec<&mut Value> = Vec::new();
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                if TOOL_KEYS.contains(&key.as_str()) && v.is_string() {
                    *v = json!(name);
                    named = true;
                } else if ARGUMENT_KEYS.contains(&key.as_str()) && v.is_object() {
                    *v = arguments.clone();
                    argued = true;
                } else {
                    children.push(v);
                }
            }
        }
        Value::Array(items) => children.extend(items.iter_mut()),
        _ => {}
    }
    for v in children {
        let (n, a) = swap_tool(v, name, arguments);
        named |= n;
        argued |= a;
    }
    (named, argued)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outside() -> Outside {
        Outside {
            base: "/b".into(),
            dir: "/b/out".into(),
            file: "/b/out/file.txt".into(),
        }
    }

    fn payload() -> Value {
        json!({
            "tool": "read_text_file",
            "arguments": {"path": "/b/a/file.txt"},
            "roots": ["file:///b/a"],
            "exp": 1_900_000_000,
            "iat": 1_800_000_000,
            "ttlMs": 60_000,
            "nested": {"allowed": [{"uri": "file:///b/a"}], "cwd": "./a"}
        })
    }

    #[test]
    fn every_encoding_round_trips() {
        let p = payload();
        let text = p.to_string();
        let jwt = format!(
            "{}.{}.c2ln",
            URL_SAFE_NO_PAD.encode(r#"{"alg":"HS256","typ":"JWT"}"#),
            URL_SAFE_NO_PAD.encode(&text)
        );
        let states = [
            text.clone(),
            STANDARD.encode(&text),
            STANDARD_NO_PAD.encode(&text),
            URL_SAFE.encode(&text),
            URL_SAFE_NO_PAD.encode(&text),
            jwt.clone(),
        ];
        for state in states {
            let d = Decoded::decode(&state).unwrap_or_else(|| panic!("{state}"));
            assert_eq!(d.payload, p, "{state}");
            // The same payload written back decodes to the same, the same way.
            let again = d.encode(&d.payload);
            assert_eq!(Decoded::decode(&again), Some(d.clone()), "{state}");
            if !matches!(d.encoding, Encoding::Json) {
                assert_eq!(serde_json::from_str::<Value>(&again).ok(), None);
            }
        }
        let d = Decoded::decode(&jwt).expect("a JWT");
        assert!(d.encode(&json!({"x": 1})).ends_with(".c2ln"));
        let unsigned = d.encode_unsigned(&d.payload).expect("a JWT");
        assert!(unsigned.ends_with('.'));
        let u = Decoded::decode(&unsigned).expect("an unsecured JWT");
        assert_eq!(u.payload, p);
        assert!(matches!(u.encoding, Encoding::Jwt { header, .. } if header["alg"] == "none"));
    }

    #[test]
    fn opaque_states_do_not_decode() {
        for state in [
            "need-roots",
            "3f2a9c0d1e",
            "",
            "\"just a string\"",
            "MTIz", // base64 of 123: no structure
            "a.b.c",
            "eyJ4IjoxfQ.sig", // two parts, not a JWT
        ] {
            assert_eq!(Decoded::decode(state), None, "{state}");
        }
        // A JWT's header must name its alg.
        let no_alg = format!(
            "{}.{}.",
            URL_SAFE_NO_PAD.encode("{}"),
            URL_SAFE_NO_PAD.encode("{\"a\":1}")
        );
        assert_eq!(Decoded::decode(&no_alg), None);
    }

    #[test]
    fn paths_are_pointed_outside_in_every_spelling() {
        let t = Tamper::Paths(Spelling::Absolute).apply(&payload(), &outside());
        assert_eq!(t["arguments"]["path"], "/b/out/file.txt");
        assert_eq!(t["roots"][0], "file:///b/out");
        assert_eq!(t["nested"]["allowed"][0]["uri"], "file:///b/out");
        assert_eq!(t["nested"]["cwd"], "/b/out");
        assert_eq!(t["tool"], "read_text_file");
        let t = Tamper::Paths(Spelling::DotDot).apply(&payload(), &outside());
        assert_eq!(t["arguments"]["path"], "/b/a/../../b/out/file.txt");
        assert_eq!(t["roots"][0], "file:///b/../b/out");
        assert_eq!(t["nested"]["cwd"], "../out");
    }

    #[test]
    fn roots_like_keys_are_extended_and_added() {
        let t = Tamper::Roots.apply(&payload(), &outside());
        assert_eq!(
            t["roots"],
            json!(["file:///b/a", "file:///", "file:///b/out"])
        );
        assert_eq!(t["nested"]["allowed"][2]["uri"], "file:///b/out");
        assert_eq!(t["allowedDirectories"], json!(["/", "/b/out"]));
        assert_eq!(t["root"], "/");
        assert!(t["allowed"]
            .as_array()
            .is_some_and(|a| a.contains(&json!("/"))));
        let t = Tamper::Roots.apply(&json!({"root": "/b/a"}), &outside());
        assert_eq!(t["root"], "/");
    }

    #[test]
    fn expiries_are_moved_far_ahead_and_issue_times_kept() {
        let t = Tamper::Expiry.apply(&payload(), &outside());
        assert_eq!(t["exp"], FAR_FUTURE);
        assert_eq!(t["iat"], 1_800_000_000);
        assert_eq!(t["ttlMs"], LONG_TTL * 1000);
        let t = Tamper::Expiry.apply(
            &json!({"expiresAt": "2026-01-01T00:00:00Z", "at": 1_700_000_000_000_i64, "ttl": 5}),
            &outside(),
        );
        assert_eq!(t["expiresAt"], "2100-01-01T00:00:00Z");
        assert_eq!(t["at"], FAR_FUTURE * 1000);
        assert_eq!(t["ttl"], LONG_TTL);
    }

    #[test]
    fn the_tool_and_arguments_are_swapped_or_added() {
        let swap = Tamper::Tool {
            name: "read".into(),
            arguments: json!({"path": "/b/out/file.txt"}),
        };
        let t = swap.apply(&payload(), &outside());
        assert_eq!(
            (&t["tool"], &t["arguments"]["path"]),
            (&json!("read"), &json!("/b/out/file.txt"))
        );
        let t = swap.apply(&json!({"step": 1}), &outside());
        assert_eq!(
            (&t["name"], &t["arguments"]["path"]),
            (&json!("read"), &json!("/b/out/file.txt"))
        );
        assert_eq!(t["step"], 1);
        // A name without arguments gets them.
        let t = swap.apply(&json!({"tool": "list"}), &outside());
        assert_eq!(
            (&t["tool"], &t["arguments"]["path"]),
            (&json!("read"), &json!("/b/out/file.txt"))
        );
        assert!(t.get("name").is_none());
    }
}
