//! The result of an MCP `roots/list` request (`{"roots": [{"uri", "name"?}]}`),
//! read into the root URIs that [`Roots`] takes. Behind the default-on
//! feature `roots-list`, the crate's only use of `serde_json`.

use std::fmt;

use serde_json::Value;

use crate::roots::Roots;

/// One entry of a `roots/list` result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedRoot {
    /// The root's URI, exactly as sent; [`Roots`] decides whether it counts.
    pub uri: String,
    /// The optional human-readable name.
    pub name: Option<String>,
}

/// Why a `roots/list` result could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RootsListError {
    /// The text is not JSON.
    NotJson(String),
    /// The result is not an object with a `roots` array.
    NoRootsArray,
    /// An entry is not an object with a string `uri` (and, if present, a string `name`).
    BadEntry {
        /// The entry's index in `roots`.
        index: usize,
    },
}

impl fmt::Display for RootsListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RootsListError::NotJson(e) => write!(f, "the roots/list result is not JSON: {e}"),
            RootsListError::NoRootsArray => f.write_str(
                "the roots/list result must be an object with a \"roots\" array, e.g. {\"roots\": [{\"uri\": \"file:///home/u/proj\"}]}",
            ),
            RootsListError::BadEntry { index } => write!(
                f,
                "roots[{index}] must be an object with a string \"uri\" (and optionally a string \"name\")"
            ),
        }
    }
}

impl std::error::Error for RootsListError {}

/// Reads a `roots/list` result (the JSON-RPC `result` member, not the whole
/// response) into its entries, in order.
///
/// Unknown members (`_meta`, extensions) are ignored, as the MCP schema
/// allows; whether each URI counts as a root is left to [`Roots`].
///
/// # Errors
///
/// [`RootsListError`] naming what is malformed.
///
/// # Examples
///
/// ```
/// let listed = rootguard::roots_list::parse_roots_list(
///     r#"{"roots": [{"uri": "file:///home/u/proj", "name": "proj"}, {"uri": "file:///tmp"}]}"#,
/// )?;
/// assert_eq!(listed[0].uri, "file:///home/u/proj");
/// assert_eq!(listed[0].name.as_deref(), Some("proj"));
/// assert_eq!(listed[1].name, None);
/// # Ok::<(), rootguard::RootsListError>(())
/// ```
pub fn parse_roots_list(json: &str) -> Result<Vec<ListedRoot>, RootsListError> {
    let value: Value =
        serde_json::from_str(json).map_err(|e| RootsListError::NotJson(e.to_string()))?;
    let roots = value
        .get("roots")
        .and_then(Value::as_array)
        .ok_or(RootsListError::NoRootsArray)?;
    roots
        .iter()
        .enumerate()
        .map(|(index, entry)| {
            let bad = RootsListError::BadEntry { index };
            let uri = entry
                .get("uri")
                .and_then(Value::as_str)
                .ok_or(bad.clone())?;
            let name = match entry.get("name") {
                None | Some(Value::Null) => None,
                Some(Value::String(name)) => Some(name.clone()),
                Some(_) => return Err(bad),
            };
            Ok(ListedRoot {
                uri: uri.to_owned(),
                name,
            })
        })
        .collect()
}

impl Roots {
    /// [`Roots`] from a `roots/list` result, each URI judged as
    /// [`Roots::new`] judges it (invalid ones end up in [`Roots::rejected`]).
    ///
    /// # Errors
    ///
    /// [`RootsListError`] when the result itself is malformed.
    ///
    /// # Examples
    ///
    /// ```
    /// let roots = rootguard::Roots::from_roots_list(
    ///     r#"{"roots": [{"uri": "file:///"}, {"uri": "file://server/share"}]}"#,
    /// )?;
    /// assert_eq!(roots.accepted().len(), 1);
    /// assert_eq!(roots.rejected().len(), 1);
    /// # Ok::<(), rootguard::RootsListError>(())
    /// ```
    pub fn from_roots_list(json: &str) -> Result<Roots, RootsListError> {
        let listed = parse_roots_list(json)?;
        Ok(Roots::new(listed.into_iter().map(|root| root.uri)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_results_say_what_is_wrong() {
        assert!(matches!(
            parse_roots_list("{"),
            Err(RootsListError::NotJson(_))
        ));
        assert_eq!(parse_roots_list("[]"), Err(RootsListError::NoRootsArray));
        assert_eq!(
            parse_roots_list(r#"{"roots": {"uri": "file:///"}}"#),
            Err(RootsListError::NoRootsArray)
        );
        assert_eq!(
            parse_roots_list(r#"{"roots": [{"uri": "file:///"}, {"name": "x"}]}"#),
            Err(RootsListError::BadEntry { index: 1 })
        );
        assert_eq!(
            parse_roots_list(r#"{"roots": [{"uri": "file:///", "name": 3}]}"#),
            Err(RootsListError::BadEntry { index: 0 })
        );
    }

    #[test]
    fn extra_members_are_ignored_and_order_kept() {
        let listed = parse_roots_list(
            r#"{"_meta": {}, "roots": [{"uri": "file:///b", "_meta": {"x": 1}}, {"uri": "file:///a", "name": null}]}"#,
        )
        .expect("valid");
        let uris: Vec<&str> = listed.iter().map(|r| r.uri.as_str()).collect();
        assert_eq!(uris, ["file:///b", "file:///a"]);
    }

    #[test]
    fn empty_list_grants_nothing() {
        let roots = Roots::from_roots_list(r#"{"roots": []}"#).expect("valid");
        assert!(roots.accepted().is_empty());
    }
}
