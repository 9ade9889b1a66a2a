//! Roots: `file:` URIs of the tree's paths in every valid form (empty
//! authority, `localhost` in any case, `file:/path`, trailing slash, any
//! byte percent-encoded in either hex case) and invalid ones (hosts,
//! userinfo, ports, wrong schemes, backslashes, raw bytes that need
//! escaping, double encoding, `%2e%2e`, `%2F`, `%00`, bad escapes, query,
//! fragment), whole roots from a fixed list, and hostile URI strings
//! ([`UriSpec`]) or any text.

use arbitrary::Arbitrary;
use proptest::collection::vec;
use proptest::prelude::*;

use super::pieces::{pieces, Piece, TreeNames};
use super::uris::{text_uri, UriSpec, HOSTS, LOCALHOSTS, PORTS, USERINFOS};
use super::{pick, pool_index};

/// At most this many characters of [`RootSpec::Text`] count.
const MAX_TEXT: usize = 64;

/// At most this many escapes of a root take turns.
const MAX_ESCAPES: usize = 16;

/// Suffixes appended to a root URI, `/` first: trailing slashes and dots,
/// encoded dot segments in every case, bad escapes, `%2F`, `%00`, query,
/// fragment, backslashes.
pub const ROOT_SUFFIXES: &[&str] = &[
    "/",
    "/.",
    "/..",
    "//",
    "?",
    "?x=1",
    "#",
    "#f",
    "%",
    "%2",
    "%zz",
    "%2F..",
    "/%2e%2e",
    "/%2E%2e",
    "/%2e",
    "/.%2e",
    "/%252e%252e",
    "%00",
    "/%2e%2e/%2e%2e",
    "\\..",
    "//..",
    "/%2e%2e%2F",
];

/// Whole roots that are not built around a tree path, valid ones first.
pub const FIXED_ROOTS: &[&str] = &[
    "file:///",
    "file://localhost/",
    "file:/",
    "file:///etc",
    "file:///tmp/..",
    "file://{base}",
    "file:{base}/..",
    "file:///{base}/../base",
    "file:///rg-unrelated/elsewhere",
    "FILE:/",
    "file:////",
    "file:///%2e%2e",
    "file://localhost",
    "file://",
    "file:",
    "",
    "/",
    "file://{base}%2F..",
    "http://{base}",
];

/// The short form's scheme, in every case.
const SHORT_SCHEMES: &[&str] = &["file:", "FILE:", "File:"];

/// Schemes that are not `file`, though some nearly are.
const WRONG_SCHEMES: &[&str] = &["http", "fil", "files", "file ", "urn", "file+x", "fi le"];

/// The scheme and authority around a root's path.
#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// `file://` and the path.
    Empty,
    /// `file://localhost`, in some case.
    Localhost(u8),
    /// `file:` and the path, in some case.
    Short(u8),
    /// `file:///` and the path, whose own `/` makes an empty first segment.
    FourSlashes,
    /// A host other than `localhost` (invalid).
    Host(u8),
    /// Userinfo (invalid).
    Userinfo(u8),
    /// A port (invalid).
    Port(u8),
    /// Not the `file` scheme (invalid).
    WrongScheme(u8),
    /// Every `/` of the path after the base written as `\` (invalid),
    /// after `file:` when `short`, else after `file://`.
    Backslashes {
        /// `file:` rather than `file://`.
        short: bool,
    },
}

impl Form {
    /// Mostly `file://`; `localhost` and `file:` often; each invalid form
    /// now and then.
    pub fn strategy() -> impl Strategy<Value = Form> {
        prop_oneof![
            16 => Just(Form::Empty),
            3 => pool_index(LOCALHOSTS).prop_map(Form::Localhost),
            3 => pool_index(SHORT_SCHEMES).prop_map(Form::Short),
            1 => Just(Form::FourSlashes),
            1 => pool_index(HOSTS).prop_map(Form::Host),
            1 => pool_index(USERINFOS).prop_map(Form::Userinfo),
            1 => pool_index(PORTS).prop_map(Form::Port),
            1 => pool_index(WRONG_SCHEMES).prop_map(Form::WrongScheme),
            1 => any::<bool>().prop_map(|short| Form::Backslashes { short }),
        ]
    }

    /// The URI of `path` (already escaped) in this form.
    fn wrap(self, path: &str) -> String {
        match self {
            Form::Empty | Form::Backslashes { short: false } => format!("file://{path}"),
            Form::Backslashes { short: true } => format!("file:{path}"),
            Form::Localhost(i) => format!("file://{}{path}", pick(LOCALHOSTS, i)),
            Form::Short(i) => format!("{}{path}", pick(SHORT_SCHEMES, i)),
            Form::FourSlashes => format!("file:///{path}"),
            Form::Host(i) => format!("file://{}{path}", pick(HOSTS, i)),
            Form::Userinfo(i) => format!("file://{}{path}", pick(USERINFOS, i)),
            Form::Port(i) => format!("file://{}{path}", pick(PORTS, i)),
            Form::WrongScheme(i) => format!("{}://{path}", pick(WRONG_SCHEMES, i)),
        }
    }
}

/// How a byte of a root's path is written; the escapes of a root take
/// turns, byte by byte.
#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Escape {
    /// As is when RFC 3986 allows it, else percent-encoded.
    Needed,
    /// As is even when RFC 3986 forbids it (makes the URI invalid).
    Raw,
    /// Percent-encoded in lower-case hex, `/` included (`%2f`: invalid).
    Lower,
    /// Percent-encoded in upper-case hex, `/` kept.
    Upper,
    /// `%25` and the hex: a literal `%HH` in the decoded name; `/` kept.
    Double,
}

impl Escape {
    /// Mostly only what must be escaped.
    pub fn strategy() -> impl Strategy<Value = Escape> {
        prop_oneof![
            6 => Just(Escape::Needed),
            1 => Just(Escape::Raw),
            2 => Just(Escape::Lower),
            2 => Just(Escape::Upper),
            1 => Just(Escape::Double),
        ]
    }
}

/// One root URI.
#[derive(Arbitrary, Debug, Clone, PartialEq, Eq)]
pub enum RootSpec {
    /// A URI around the base and pieces of the tree.
    Tree {
        /// Scheme and authority.
        form: Form,
        /// Pieces after the base (none: the base itself).
        path: Vec<Piece>,
        /// How each byte after the base is written, in turn (none: as
        /// [`Escape::Needed`]).
        escapes: Vec<Escape>,
        /// One of [`ROOT_SUFFIXES`], if any.
        suffix: Option<u8>,
    },
    /// One of [`FIXED_ROOTS`].
    Fixed(u8),
    /// A hostile URI string, with no base.
    Uri(UriSpec),
    /// Any text (its first 64 characters).
    Text(String),
}

impl RootSpec {
    /// Mostly a tree path in some [`Form`], the base or a directory most
    /// often; now and then a fixed root or a hostile URI string.
    pub fn strategy() -> impl Strategy<Value = RootSpec> {
        let path = prop_oneof![
            3 => Just(Vec::new()),
            5 => any::<u8>().prop_map(|i| vec![Piece::DirPath(i)]),
            3 => any::<u8>().prop_map(|i| vec![Piece::EntryPath(i)]),
            2 => pieces(),
        ];
        let escapes = prop_oneof![3 => Just(Vec::new()), 1 => vec(Escape::strategy(), 1..=4)];
        let suffix = prop_oneof![
            8 => Just(None),
            2 => Just(Some(0)),
            3 => pool_index(ROOT_SUFFIXES).prop_map(Some),
        ];
        prop_oneof![
            10 => (Form::strategy(), path, escapes, suffix).prop_map(
                |(form, path, escapes, suffix)| RootSpec::Tree { form, path, escapes, suffix }
            ),
            1 => pool_index(FIXED_ROOTS).prop_map(RootSpec::Fixed),
            1 => prop_oneof![
                12 => UriSpec::strategy().prop_map(RootSpec::Uri),
                3 => text_uri().prop_map(RootSpec::Text),
            ],
        ]
    }

    /// The URI, with `base` (`{base}` in a scenario, empty for roots of
    /// absolute paths) before the encoded path.
    pub fn render(&self, base: &str, names: &TreeNames) -> String {
        match self {
            RootSpec::Tree {
                form,
                path,
                escapes,
                suffix,
            } => {
                let mut rel = Vec::new();
                if !path.is_empty() || base.is_empty() {
                    rel.push(b'/');
                    rel.extend(names.join(path));
                }
                let mut encoded = escape(&rel, escapes);
                if matches!(form, Form::Backslashes { .. }) {
                    for b in &mut encoded {
                        if *b == b'/' {
                            *b = b'\\';
                        }
                    }
                }
                let mut uri = form.wrap(&format!("{base}{}", String::from_utf8_lossy(&encoded)));
                if let Some(s) = suffix {
                    uri.push_str(pick::<&str>(ROOT_SUFFIXES, *s));
                }
                uri
            }
            RootSpec::Fixed(i) => pick(FIXED_ROOTS, *i).replace(crate::BASE_PLACEHOLDER, base),
            RootSpec::Uri(uri) => uri.render(),
            RootSpec::Text(text) => text.chars().take(MAX_TEXT).collect(),
        }
    }
}

/// RFC 3986 `pchar` other than `%` (which always starts an escape here).
fn is_pchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@".contains(&b)
}

fn push_hex(out: &mut Vec<u8>, b: u8, digits: &[u8; 16]) {
    out.extend([
        b'%',
        digits[usize::from(b >> 4)],
        digits[usize::from(b & 15)],
    ]);
}

const UPPER_HEX: &[u8; 16] = b"0123456789ABCDEF";
const LOWER_HEX: &[u8; 16] = b"0123456789abcdef";

/// `path` with each byte written as the escapes say, in turn.
fn escape(path: &[u8], escapes: &[Escape]) -> Vec<u8> {
    let mut out = Vec::with_capacity(path.len() * 3);
    let turns = escapes.len().min(MAX_ESCAPES);
    for (i, &b) in path.iter().enumerate() {
        let escape = if turns == 0 {
            Escape::Needed
        } else {
            escapes[i % turns]
        };
        match escape {
            Escape::Lower => push_hex(&mut out, b, LOWER_HEX),
            _ if b == b'/' => out.push(b),
            Escape::Needed if is_pchar(b) => out.push(b),
            Escape::Raw => out.push(b),
            Escape::Needed | Escape::Upper => push_hex(&mut out, b, UPPER_HEX),
            Escape::Double => {
                out.extend(b"%25");
                out.extend(&[
                    UPPER_HEX[usize::from(b >> 4)],
                    UPPER_HEX[usize::from(b & 15)],
                ]);
            }
        }
    }
    out
}

/// `file://` and an absolute path, escaping only what must be escaped:
/// every byte but a `pchar` (less `%`) and `/`, so that the URI is valid
/// and names the path whatever its bytes.
///
/// ```
/// use rootguard_judge::gen::file_uri;
/// assert_eq!(file_uri(b"/x/a b/caf\xc3\xa9'"), "file:///x/a%20b/caf%C3%A9'");
/// ```
pub fn file_uri(path: &[u8]) -> String {
    let mut uri = b"file://".to_vec();
    uri.extend(escape(path, &[]));
    // Only ASCII: every other byte was escaped.
    String::from_utf8_lossy(&uri).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::parse_root_uri;

    fn text(path: &str, escapes: &[Escape]) -> String {
        String::from_utf8(escape(path.as_bytes(), escapes)).unwrap()
    }

    #[test]
    fn escaping() {
        assert_eq!(text("/a b/é", &[]), "/a%20b/%C3%A9");
        assert_eq!(text("/ab", &[Escape::Upper, Escape::Lower]), "/%61%62");
        assert_eq!(text("/a/b", &[Escape::Lower]), "%2f%61%2f%62");
        assert_eq!(text("/a", &[Escape::Double]), "/%2561");
        assert_eq!(
            String::from_utf8_lossy(&escape("/a é".as_bytes(), &[Escape::Raw])),
            "/a é"
        );
        let uri = format!("file:///tmp{}", text("/a b/%2e/\\/\"x\"", &[]));
        assert!(parse_root_uri(&uri).is_ok(), "{uri}");
    }

    #[test]
    fn forms() {
        let names = TreeNames::default();
        let root = |form| {
            RootSpec::Tree {
                form,
                path: vec![Piece::Name(crate::gen::NameSpec {
                    pool: 2,
                    variant: crate::gen::Variant::Plain,
                })],
                escapes: vec![],
                suffix: None,
            }
            .render("{base}", &names)
        };
        assert_eq!(root(Form::Empty), "file://{base}/project");
        assert_eq!(root(Form::Localhost(1)), "file://LOCALHOST{base}/project");
        assert_eq!(root(Form::Short(0)), "file:{base}/project");
        assert_eq!(root(Form::FourSlashes), "file:///{base}/project");
        assert_eq!(
            root(Form::Backslashes { short: true }),
            "file:{base}\\project"
        );
        assert_eq!(root(Form::WrongScheme(0)), "http://{base}/project");
        assert_eq!(
            RootSpec::Fixed(5).render("", &names),
            "file://",
            "{{base}} goes for absolute roots"
        );
    }
}
