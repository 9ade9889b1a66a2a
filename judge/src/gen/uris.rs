//! Hostile root URI strings with no `{base}`: schemes in any case and
//! misspelt, authorities (empty, `localhost`, hosts, userinfo, ports,
//! IPv6), `:`, `:/`, `://`, `:\\` separators, segments that are dot
//! segments plain or percent-encoded (`%2e%2e`, `%2E%2e`, double-encoded
//! `%252e`), encoded separators and terminators (`%2F`, `%5C`, `%00`), bad
//! escapes, raw bytes that need escaping, non-UTF-8 escapes; then a query
//! or fragment.

use arbitrary::Arbitrary;
use proptest::collection::vec;
use proptest::prelude::*;

use super::{pick, pool_index};

/// `localhost` in every case.
pub(crate) const LOCALHOSTS: &[&str] = &["localhost", "LOCALHOST", "LocalHost"];

/// Hosts that are not `localhost`, though some look like it.
pub(crate) const HOSTS: &[&str] = &[
    "evil",
    "server",
    "127.0.0.1",
    "localhost.",
    "[::1]",
    "%6cocalhost",
    "local%68ost",
    "xn--lcalhost",
    "localhost%00",
    "local host",
];

/// Authorities with userinfo, empty or not.
pub(crate) const USERINFOS: &[&str] = &["user@localhost", "u@localhost", "@"];

/// Authorities with a port, or just its colon.
pub(crate) const PORTS: &[&str] = &[
    "localhost:80",
    "localhost:",
    ":0",
    "localhost:22",
    "localhost:0",
    ":",
];

/// At most this many segments of a [`UriSpec`] are rendered.
const MAX_SEGMENTS: usize = 5;

/// Schemes: `file`, then its other cases, then misspellings.
const SCHEMES: &[&str] = &[
    "file", "FILE", "File", "fIlE", "http", "fil", "files", "", " file", "file ", "file+x",
];

/// What else may end a scheme than `://` or `:`.
const ODD_SCHEME_ENDS: &[&str] = &[":\\\\", "//", ":/\\"];

/// Segments: the common ones (the first [`COMMON_SEGMENTS`]), then the
/// rarer: encoded separators and NUL, bad escapes, raw bytes.
const SEGMENTS: &[&str] = &[
    "a",
    "b",
    "project",
    "tmp",
    "etc",
    ".",
    "..",
    "...",
    "%2e",
    "%2E",
    "%2e%2e",
    "%2E%2e",
    ".%2e",
    "%252e%252e",
    "%5C",
    "%C3%A9",
    "%ff",
    "%FF%FE",
    "%20",
    "~",
    "@",
    ":",
    "",
    "a;b=c",
    "!$&'()*+,",
    "%61",
    "%7E",
    "%3F",
    "%23",
    "%2F",
    "%2f",
    "a%2Fb",
    "..%2F",
    "%00",
    "a%00",
    "\\",
    "%",
    "%4",
    "%zz",
    "%%",
    "é",
    " ",
    "a?b",
    "a#b",
    "{x}",
    "\"",
    "\u{0}",
    "%2e%2e%2f",
    "|",
    "^",
    "`",
    "<>",
];

/// How many of [`SEGMENTS`] are the common ones.
const COMMON_SEGMENTS: u8 = 29;

/// What ends a URI: nothing, `/`, then queries, fragments and the like.
const URI_SUFFIXES: &[&str] = &["", "/", "?", "?q", "#", "#f", "?#", "%", "/.."];

/// The authority of a URI, from the same pools as a root's [`Form`](super::Form).
#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Authority {
    /// None.
    Empty,
    /// `localhost`, in some case.
    Localhost(u8),
    /// A host other than `localhost`.
    Host(u8),
    /// Userinfo.
    Userinfo(u8),
    /// A port.
    Port(u8),
}

impl Authority {
    /// Mostly none or `localhost`.
    pub fn strategy() -> impl Strategy<Value = Authority> {
        prop_oneof![
            6 => Just(Authority::Empty),
            2 => pool_index(LOCALHOSTS).prop_map(Authority::Localhost),
            1 => pool_index(HOSTS).prop_map(Authority::Host),
            1 => prop_oneof![
                pool_index(USERINFOS).prop_map(Authority::Userinfo),
                pool_index(PORTS).prop_map(Authority::Port),
            ],
        ]
    }

    fn render(self) -> &'static str {
        match self {
            Authority::Empty => "",
            Authority::Localhost(i) => pick::<&str>(LOCALHOSTS, i),
            Authority::Host(i) => pick::<&str>(HOSTS, i),
            Authority::Userinfo(i) => pick::<&str>(USERINFOS, i),
            Authority::Port(i) => pick::<&str>(PORTS, i),
        }
    }
}

/// What follows a URI's scheme.
#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemeEnd {
    /// `://` and an authority.
    Authority(Authority),
    /// `:` alone (the short form).
    Colon,
    /// `:\\`, `//` or `:/\`.
    Odd(u8),
}

/// A hostile root URI string: a scheme, what follows it, `/`-led segments
/// and a suffix.
#[derive(Arbitrary, Debug, Clone, PartialEq, Eq)]
pub struct UriSpec {
    /// Which scheme.
    pub scheme: u8,
    /// What follows it.
    pub end: SchemeEnd,
    /// Which segments, each after a `/` (the first five count).
    pub segments: Vec<u8>,
    /// Which suffix.
    pub suffix: u8,
}

impl UriSpec {
    /// Mostly `file://` with a plain or `localhost` authority and common
    /// segments.
    pub fn strategy() -> impl Strategy<Value = UriSpec> {
        let scheme = prop_oneof![8 => Just(0u8), 2 => 1u8..=3, 2 => 4u8..SCHEMES.len() as u8];
        let end = prop_oneof![
            8 => Authority::strategy().prop_map(SchemeEnd::Authority),
            3 => Just(SchemeEnd::Colon),
            1 => pool_index(ODD_SCHEME_ENDS).prop_map(SchemeEnd::Odd),
        ];
        let segment = prop_oneof![
            8 => 0..COMMON_SEGMENTS,
            2 => COMMON_SEGMENTS..SEGMENTS.len() as u8,
        ];
        let suffix =
            prop_oneof![6 => Just(0u8), 2 => Just(1u8), 1 => 2u8..URI_SUFFIXES.len() as u8];
        (scheme, end, vec(segment, 0..=MAX_SEGMENTS), suffix).prop_map(
            |(scheme, end, segments, suffix)| UriSpec {
                scheme,
                end,
                segments,
                suffix,
            },
        )
    }

    /// The URI.
    ///
    /// # Examples
    ///
    /// ```
    /// use rootguard_judge::gen::{Authority, SchemeEnd, UriSpec};
    ///
    /// let end = SchemeEnd::Authority(Authority::Localhost(0));
    /// let uri = UriSpec { scheme: 0, end, segments: vec![2, 10], suffix: 1 };
    /// assert_eq!(uri.render(), "file://localhost/project/%2e%2e/");
    /// ```
    pub fn render(&self) -> String {
        let end = match self.end {
            SchemeEnd::Authority(authority) => format!("://{}", authority.render()),
            SchemeEnd::Colon => ":".to_owned(),
            SchemeEnd::Odd(i) => (*pick(ODD_SCHEME_ENDS, i)).to_owned(),
        };
        // Without a leading `/` the short form `file:` is not absolute.
        let path: String = self
            .segments
            .iter()
            .take(MAX_SEGMENTS)
            .map(|&s| format!("/{}", pick(SEGMENTS, s)))
            .collect();
        format!(
            "{}{end}{path}{}",
            pick(SCHEMES, self.scheme),
            pick(URI_SUFFIXES, self.suffix)
        )
    }
}

/// Root URI strings that follow no structure: any string, printable ASCII,
/// and `file:` with URI characters.
pub(crate) fn text_uri() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[ -~]{0,30}",
        "[fF][iI][lL][eE]:[-a-zA-Z0-9/%.:@?#\\\\ ~!$&'()*+,;=]{0,30}",
    ]
}

/// Arbitrary hostile root URI strings, with no `{base}`: mostly a
/// [`UriSpec`], and sometimes any string at all.
///
/// # Examples
///
/// ```
/// use proptest::prelude::*;
/// use rootguard_judge::oracle::parse_root_uri;
/// use rootguard_judge::gen::root_uri;
///
/// proptest!(ProptestConfig::with_cases(64), |(uri in root_uri())| {
///     let _ = parse_root_uri(&uri); // never panics
/// });
/// ```
pub fn root_uri() -> BoxedStrategy<String> {
    prop_oneof![
        12 => UriSpec::strategy().prop_map(|u| u.render()),
        3 => text_uri(),
    ]
    .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_common_segments_come_first() {
        assert_eq!(SEGMENTS[usize::from(COMMON_SEGMENTS) - 1], "%23");
        assert_eq!(SEGMENTS[usize::from(COMMON_SEGMENTS)], "%2F");
    }
}
