//! The features of a minimal scenario that a defect may need: the words of
//! a signature (docs/reports.md, "Features").

use std::fmt;

use rootguard_judge::oracle::RootUriError;

/// A rule of semantics.md section 1 that a root URI breaks, as the model
/// oracle's [`RootUriError`] names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RootRule {
    /// Rule 1: no scheme.
    NoScheme,
    /// Rule 1: a scheme other than `file`.
    WrongScheme,
    /// Rule 2: userinfo in the authority.
    Userinfo,
    /// Rule 2: a port in the authority.
    Port,
    /// Rule 2: a host other than `localhost`.
    Host,
    /// Rule 2: an authority and no path.
    MissingPath,
    /// Rule 2: `file:` followed by neither `//` nor `/`.
    NotAbsolute,
    /// Rule 3: a query.
    Query,
    /// Rule 3: a fragment.
    Fragment,
    /// Rule 4: a character a URI path may not hold.
    InvalidChar,
    /// Rule 4: `%` without two hex digits.
    BadPercentEscape,
    /// Rule 5: `%2F`.
    EncodedSlash,
    /// Rule 5: `%00`.
    EncodedNul,
}

impl RootRule {
    /// Every rule, in the order of semantics.md section 1.
    pub const ALL: [RootRule; 13] = [
        RootRule::NoScheme,
        RootRule::WrongScheme,
        RootRule::Userinfo,
        RootRule::Port,
        RootRule::Host,
        RootRule::MissingPath,
        RootRule::NotAbsolute,
        RootRule::Query,
        RootRule::Fragment,
        RootRule::InvalidChar,
        RootRule::BadPercentEscape,
        RootRule::EncodedSlash,
        RootRule::EncodedNul,
    ];

    /// The rule the oracle's error names.
    pub fn of(error: &RootUriError) -> RootRule {
        match error {
            RootUriError::NoScheme => RootRule::NoScheme,
            RootUriError::WrongScheme { .. } => RootRule::WrongScheme,
            RootUriError::Userinfo { .. } => RootRule::Userinfo,
            RootUriError::Port { .. } => RootRule::Port,
            RootUriError::Host { .. } => RootRule::Host,
            RootUriError::MissingPath => RootRule::MissingPath,
            RootUriError::NotAbsolute => RootRule::NotAbsolute,
            RootUriError::Query => RootRule::Query,
            RootUriError::Fragment => RootRule::Fragment,
            RootUriError::InvalidChar { .. } => RootRule::InvalidChar,
            RootUriError::BadPercentEscape { .. } => RootRule::BadPercentEscape,
            RootUriError::EncodedSlash => RootRule::EncodedSlash,
            RootUriError::EncodedNul => RootRule::EncodedNul,
        }
    }

    /// The rule's name, e.g. `host` (so the feature is `root-uri-host`).
    pub fn as_str(self) -> &'static str {
        match self {
            RootRule::NoScheme => "no-scheme",
            RootRule::WrongScheme => "wrong-scheme",
            RootRule::Userinfo => "userinfo",
            RootRule::Port => "port",
            RootRule::Host => "host",
            RootRule::MissingPath => "missing-path",
            RootRule::NotAbsolute => "not-absolute",
            RootRule::Query => "query",
            RootRule::Fragment => "fragment",
            RootRule::InvalidChar => "invalid-char",
            RootRule::BadPercentEscape => "bad-percent-escape",
            RootRule::EncodedSlash => "encoded-slash",
            RootRule::EncodedNul => "encoded-nul",
        }
    }

    /// What breaks the rule, as English: "a root URI {phrase}".
    pub fn phrase(self) -> &'static str {
        match self {
            RootRule::NoScheme => "without a scheme",
            RootRule::WrongScheme => "with a scheme other than `file`",
            RootRule::Userinfo => "with userinfo in its authority",
            RootRule::Port => "with a port",
            RootRule::Host => "with a host other than `localhost`",
            RootRule::MissingPath => "with an authority and no path",
            RootRule::NotAbsolute => "whose path is not absolute",
            RootRule::Query => "with a query",
            RootRule::Fragment => "with a fragment",
            RootRule::InvalidChar => "with a character a URI path may not hold",
            RootRule::BadPercentEscape => "with a `%` not followed by two hex digits",
            RootRule::EncodedSlash => "with an encoded slash (`%2F`)",
            RootRule::EncodedNul => "with an encoded NUL (`%00`)",
        }
    }

    /// What sound code does with such a root, in one line.
    pub fn rule_text(self) -> &'static str {
        match self {
            RootRule::NoScheme | RootRule::WrongScheme => {
                "semantics.md section 1, rule 1: only a `file:` URI names a local root"
            }
            RootRule::Userinfo | RootRule::Port | RootRule::Host => {
                "rule 2: the authority must be empty or `localhost`; any host, userinfo or port makes the root invalid"
            }
            RootRule::MissingPath | RootRule::NotAbsolute => {
                "rule 2: `file:` is followed by `//` and an authority and an absolute path, or by `/`"
            }
            RootRule::Query | RootRule::Fragment => {
                "rule 3: a root with a query or fragment is invalid, not trimmed"
            }
            RootRule::InvalidChar | RootRule::BadPercentEscape => {
                "rule 4: every byte is an RFC 3986 path character or a `%HH` escape; nothing is trimmed or repaired"
            }
            RootRule::EncodedSlash | RootRule::EncodedNul => {
                "rule 5: `%2F` and `%00` make the root invalid: a decoded separator or NUL is never honoured"
            }
        }
    }
}

/// One feature of a scenario that a defect may need. Present features are
/// found by looking at the minimal scenario; whether the defect *needs* one
/// is found by probing a variant without it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Feature {
    /// A root URI breaks a rule of semantics.md section 1.
    RootUri(RootRule),
    /// A valid root URI names no existing directory.
    RootUnresolvable,
    /// A valid root URI is spelled other than `file://` plus its path.
    RootRespelled,
    /// A root URI holds `%25HH`, which a second decoding reads as an escape.
    RootDoubleEncoded,
    /// A root's last name begins or ends with whitespace or a quote.
    RootTrimmableEdge,
    /// A root's path goes through a link.
    RootThroughLink,
    /// No root is usable: none given, or every one invalid or unresolvable.
    NoUsableRoot,
    /// The path holds `\`.
    Backslash,
    /// A component of the path holds a glob or regular-expression
    /// metacharacter (`*`, `?`, `[`, `]`, `{`, `}`, `(`, `)`, `+`, `^`,
    /// `$`, `|`), which a checker that matches names as patterns reads as
    /// one, where the kernel takes it literally.
    PatternChar,
    /// The path holds a `%HH` escape.
    PercentEscape,
    /// A component of the path starts or ends with whitespace or a quote.
    TrimmableEdge,
    /// A component of the path ends with `.`.
    TrailingDot,
    /// A component of the path changes under Unicode NFKC normalization.
    UnicodeFold,
    /// A name differs from the root's (or a neighbour's) only by case.
    CaseVariant,
    /// The target's text begins with a root's text, but not at a `/`.
    SiblingPrefix,
    /// The path ends in `/`, `/.` or `/..`.
    DotName,
    /// The path holds a `..` component.
    DotDot,
    /// The path has more than [`LONG_PATH`] components.
    LongPath,
    /// Resolving the path follows a link.
    Link,
    /// A link followed points at another link.
    LinkChain,
    /// Resolving the path follows more than [`MANY_LINKS`] links in all (a
    /// chain, or one link named again and again).
    ManyLinks,
    /// The path's last component is a link.
    FinalLink,
    /// A write creates its target (it did not exist).
    NewTarget,
    /// The roots changed mid-session (`notifications/roots/list_changed`).
    RootsChanged,
    /// A listed root vanished from disk mid-session.
    RootVanished,
    /// A listed root appeared on disk mid-session.
    RootAppeared,
    /// A root moved on disk mid-session, its list unchanged: its link
    /// swapped, or its directory renamed and replaced.
    RootMoved,
    /// A multi-round-trip retry answered `roots/list` with other roots than an earlier call got.
    RetryRootsChanged,
    /// A retry carried a `requestState` the server issued for another call, with other roots.
    StateReplayed,
    /// A `requestState` decoded (base64, JSON, a JWT) to readable structure
    /// and a tampered copy of it was taken.
    StateUnsealed,
    /// A retry carried a `requestState` whose decoded structure was tampered
    /// with (paths, roots, expiry, tool), and the server acted on it.
    StateTampered,
    /// The response is not a JSON object.
    NotJson,
    /// The response answers another request id, or none.
    WrongId,
    /// The response has no boolean `allowed`.
    NoVerdict,
    /// The response line is over the length limit.
    LineTooLong,
    /// Lines that are not JSON-RPC on the server's stdout.
    StdoutNoise,
    /// An entry of the path was swapped for a link to outside, again and
    /// again, while the tool was called (`rootguard mcp --race`).
    Swapped,
    /// With no hostile input, a server served a directory no root names
    /// (beside the roots, its HOME, its working directory).
    DefaultGrant,
    /// After the client's `roots/list` failed, a server served its working directory.
    CwdFallback,
    /// The path was a git tool's repository argument (`repo_path`,
    /// `repository`, `cwd`), and git opened the repository it names.
    GitRepository,
    /// A `.git` file (`gitdir:`), a `.git` link or a worktree's
    /// `commondir` inside the root led git to a repository outside it.
    GitDirFollowed,
    /// A hook or git configuration that runs a command (`core.fsmonitor`,
    /// `diff.external`), written through a file tool, ran when a git tool
    /// was called.
    GitHookPlanted,
    /// A value starting with `-` was passed on to git as an option
    /// (`--output=FILE`).
    OptionInjected,
    /// An entry of an archive a tool extracted (`../`, absolute, or
    /// through a link entry) was written where its name leads.
    ArchiveEntry,
    /// Windows: a component holds `:`, an NTFS stream of the file or
    /// directory before it (`notes.txt:hidden`, `proj::$INDEX_ALLOCATION`).
    NtfsStream,
    /// Windows: a component is a DOS device name (`CON`, `nul.txt`, `COM1`).
    DosDevice,
    /// Windows: a name ends in dots or spaces, which Win32 strips from the
    /// last component (or a final `..` a careless strip reads as dots).
    Win32Strip,
    /// Windows: drive-relative or rooted on the current drive (`C:x`, `\x`).
    DriveRelative,
    /// Windows: a name differs from the root's only by case, which NTFS ignores.
    NtfsCase,
    /// Windows: an 8.3 short name (`PROJEC~1`).
    ShortName,
    /// Windows: a `\\?\`, `\\.\` or UNC prefix.
    WinPrefix,
    /// macOS: `/tmp`, `/var` or `/etc`, links into `/private`.
    PrivateLink,
    /// macOS: a name differs from the root's only by case or Unicode
    /// normalization (NFC and NFD), which APFS ignores.
    ApfsName,
    /// Windows: a name that a fold wider than NTFS's (lowercase, case
    /// folding, NFKC) takes for the root's, or for `..` or a separator,
    /// while NTFS keeps it apart (the Kelvin sign `K`, `ß`, `ｐ`, `‥`).
    NtfsFold,
    /// macOS: the same against APFS, whose own folding is NFD and case
    /// folding: an NFKC image (`ｐ`, `²`, `‥`).
    ApfsFold,
}

/// How many components make a path long ([`Feature::LongPath`]): more
/// than anyone tries by hand, fewer than the kernel's limits.
pub const LONG_PATH: usize = 32;

/// How many links make a resolution follow many ([`Feature::ManyLinks`]):
/// as few as the smallest budgets path libraries set, a fifth of the 40
/// Linux follows. A minimal scenario that follows more needs them.
pub const MANY_LINKS: u32 = 8;

impl Feature {
    /// Every feature, in the order reports list them.
    pub fn all() -> Vec<Feature> {
        let mut all: Vec<Feature> = RootRule::ALL.into_iter().map(Feature::RootUri).collect();
        all.extend([
            Feature::RootUnresolvable,
            Feature::RootRespelled,
            Feature::RootDoubleEncoded,
            Feature::RootTrimmableEdge,
            Feature::RootThroughLink,
            Feature::NoUsableRoot,
            Feature::Backslash,
            Feature::PatternChar,
            Feature::PercentEscape,
            Feature::TrimmableEdge,
            Feature::TrailingDot,
            Feature::UnicodeFold,
            Feature::CaseVariant,
            Feature::SiblingPrefix,
            Feature::DotName,
            Feature::DotDot,
            Feature::LongPath,
            Feature::Link,
            Feature::LinkChain,
            Feature::ManyLinks,
            Feature::FinalLink,
            Feature::NewTarget,
            Feature::RootsChanged,
            Feature::RootVanished,
            Feature::RootAppeared,
            Feature::RootMoved,
            Feature::RetryRootsChanged,
            Feature::StateReplayed,
            Feature::StateUnsealed,
            Feature::StateTampered,
            Feature::NotJson,
            Feature::WrongId,
            Feature::NoVerdict,
            Feature::LineTooLong,
            Feature::StdoutNoise,
            Feature::Swapped,
            Feature::DefaultGrant,
            Feature::CwdFallback,
            Feature::GitRepository,
            Feature::GitDirFollowed,
            Feature::GitHookPlanted,
            Feature::OptionInjected,
            Feature::ArchiveEntry,
            Feature::NtfsStream,
            Feature::DosDevice,
            Feature::Win32Strip,
            Feature::DriveRelative,
            Feature::NtfsCase,
            Feature::ShortName,
            Feature::WinPrefix,
            Feature::PrivateLink,
            Feature::ApfsName,
            Feature::NtfsFold,
            Feature::ApfsFold,
        ]);
        all
    }

    /// The feature's name in reports, e.g. `sibling-prefix`, `root-uri-host`.
    ///
    /// # Examples
    ///
    /// ```
    /// use rootguard_triage::{Feature, RootRule};
    /// assert_eq!(Feature::RootUri(RootRule::Host).name(), "root-uri-host");
    /// assert_eq!(Feature::from_name("final-link"), Some(Feature::FinalLink));
    /// ```
    pub fn name(self) -> String {
        match self {
            Feature::RootUri(rule) => format!("root-uri-{}", rule.as_str()),
            other => other.fixed_name().to_owned(),
        }
    }

    fn fixed_name(self) -> &'static str {
        match self {
            Feature::RootUri(_) => "root-uri",
            Feature::RootUnresolvable => "root-unresolvable",
            Feature::RootRespelled => "root-respelled",
            Feature::RootDoubleEncoded => "root-double-encoded",
            Feature::RootTrimmableEdge => "root-trimmable-edge",
            Feature::RootThroughLink => "root-through-link",
            Feature::NoUsableRoot => "no-usable-root",
            Feature::Backslash => "backslash",
            Feature::PatternChar => "pattern-char",
            Feature::PercentEscape => "percent-escape",
            Feature::TrimmableEdge => "trimmable-edge",
            Feature::TrailingDot => "trailing-dot",
            Feature::UnicodeFold => "unicode-fold",
            Feature::CaseVariant => "case-variant",
            Feature::SiblingPrefix => "sibling-prefix",
            Feature::DotName => "dot-name",
            Feature::DotDot => "dotdot",
            Feature::LongPath => "long-path",
            Feature::Link => "link",
            Feature::LinkChain => "link-chain",
            Feature::ManyLinks => "many-links",
            Feature::FinalLink => "final-link",
            Feature::NewTarget => "new-target",
            Feature::RootsChanged => "roots-changed",
            Feature::RootVanished => "root-vanished",
            Feature::RootAppeared => "root-appeared",
            Feature::RootMoved => "root-moved",
            Feature::RetryRootsChanged => "retry-roots-changed",
            Feature::StateReplayed => "state-replayed",
            Feature::StateUnsealed => "state-unsealed",
            Feature::StateTampered => "state-tampered",
            Feature::NotJson => "not-json",
            Feature::WrongId => "wrong-id",
            Feature::NoVerdict => "no-verdict",
            Feature::LineTooLong => "line-too-long",
            Feature::StdoutNoise => "stdout-noise",
            Feature::Swapped => "swapped",
            Feature::DefaultGrant => "default-grant",
            Feature::CwdFallback => "cwd-fallback",
            Feature::GitRepository => "git-repository",
            Feature::GitDirFollowed => "gitdir-followed",
            Feature::GitHookPlanted => "git-hook-planted",
            Feature::OptionInjected => "option-injected",
            Feature::ArchiveEntry => "archive-entry",
            Feature::NtfsStream => "ntfs-stream",
            Feature::DosDevice => "dos-device",
            Feature::Win32Strip => "win32-strip",
            Feature::DriveRelative => "drive-relative",
            Feature::NtfsCase => "ntfs-case",
            Feature::ShortName => "short-name",
            Feature::WinPrefix => "win-prefix",
            Feature::PrivateLink => "private-link",
            Feature::ApfsName => "apfs-name",
            Feature::NtfsFold => "ntfs-fold",
            Feature::ApfsFold => "apfs-fold",
        }
    }

    /// The feature named `name`.
    pub fn from_name(name: &str) -> Option<Feature> {
        Feature::all().into_iter().find(|f| f.name() == name)
    }

    /// Whether probing can vary it (the others are what was observed, not
    /// something a variant of the scenario takes away).
    pub fn is_probed(self) -> bool {
        !matches!(
            self,
            Feature::RootsChanged
                | Feature::RootVanished
                | Feature::RootAppeared
                | Feature::RootMoved
                | Feature::RetryRootsChanged
                | Feature::StateReplayed
                | Feature::StateUnsealed
                | Feature::StateTampered
                | Feature::NotJson
                | Feature::WrongId
                | Feature::NoVerdict
                | Feature::LineTooLong
                | Feature::StdoutNoise
                | Feature::Swapped
                | Feature::DefaultGrant
                | Feature::CwdFallback
                | Feature::GitRepository
                | Feature::GitDirFollowed
                | Feature::GitHookPlanted
                | Feature::OptionInjected
                | Feature::ArchiveEntry
                | Feature::NtfsStream
                | Feature::DosDevice
                | Feature::Win32Strip
                | Feature::DriveRelative
                | Feature::NtfsCase
                | Feature::ShortName
                | Feature::WinPrefix
                | Feature::PrivateLink
                | Feature::ApfsName
                | Feature::NtfsFold
                | Feature::ApfsFold
        )
    }

    /// What it is, and the variant that takes it away, in one line.
    pub fn describe(self) -> String {
        match self {
            Feature::RootUri(rule) => format!(
                "a root URI breaks {} ({}); variant: that root dropped",
                rule.as_str(),
                rule.rule_text()
            ),
            Feature::RootUnresolvable => {
                "a valid root URI names no existing directory; variant: that root dropped".into()
            }
            Feature::RootRespelled => "a valid root spelled otherwise than `file://` and its path (`localhost`, `file:/`, escapes, dot segments, empty segments, a trailing `/`); variant: the plain spelling".into(),
            Feature::RootDoubleEncoded => "a root holds `%25HH`, an escape a second decoding reads as another escape (`%252e` as `.`); variant: `%25xx`, which decodes to nothing".into(),
            Feature::RootTrimmableEdge => "a root's last name begins or ends with whitespace or a quote (`file:///b/x'`); variant: those characters made `_` in the tree and the root".into(),
            Feature::RootThroughLink => "a root's path goes through a link; variant: the root's resolved path".into(),
            Feature::NoUsableRoot => "no usable root; variant: a valid root added on a new empty directory".into(),
            Feature::Backslash => "the path holds `\\`; variant: each `\\` replaced by `_`, in the tree too".into(),
            Feature::PatternChar => "a component holds a glob or regex metacharacter (`*`, `?`, `[`, ...); variant: each replaced by `_`, in the tree too".into(),
            Feature::PercentEscape => "the path holds `%HH`; variant: each such `%` replaced by `_`, in the tree too".into(),
            Feature::TrimmableEdge => "a component starts or ends with whitespace or a quote (not a root's own name whose URI ends so: that is root-trimmable-edge); variant: those characters replaced by `_`, in the tree too".into(),
            Feature::TrailingDot => "a component ends with `.`; variant: the dots replaced by `_`, in the tree too".into(),
            Feature::UnicodeFold => "a component changes under NFKC (fullwidth letters, ligatures, combining accents, a no-break space, `／`); variant: its non-ASCII characters replaced by their NFKC ASCII (a no-break space by a space), else by `u`".into(),
            Feature::CaseVariant => "a name differs from a root's or a neighbour's only by case; variant: the differing letters replaced by other letters".into(),
            Feature::SiblingPrefix => "the target's text begins with a root's text but not at a `/` (`/b/project2` for `/b/project`); variant: the sibling renamed so that it does not".into(),
            Feature::DotName => "the path ends in `/`, `/.` or `/..`; variant: that ending resolved away (`a/` is `a`, `a/b/..` is `a`)".into(),
            Feature::DotDot => "the path holds `..`; variant: `c/..` removed (when `c` is a link, replaced by a new link to its target's parent)".into(),
            Feature::LongPath => format!("the path has more than {LONG_PATH} components (`.` padding, deep nesting); variant: the same path with its `.` components and its `d/..` (`d` a directory) dropped, when that leaves at most {LONG_PATH}"),
            Feature::Link => "resolving the path follows a link; variant: the target asked for directly".into(),
            Feature::LinkChain => "a link points at another link; variant: each link pointed straight at the end of its chain".into(),
            Feature::ManyLinks => format!("resolving the path follows more than {MANY_LINKS} links (a chain, or a link named again and again); variant: each chain cut short and the path up to its last link replaced by where it leads, so that it follows one"),
            Feature::FinalLink => "the path's last component is a link; variant: a new link beside it to its target's directory, and the path goes through it on to the name".into(),
            Feature::NewTarget => "a write creates its target; variant: the target made to exist first".into(),
            Feature::RootsChanged => "the roots changed mid-session (observed, not probed)".into(),
            Feature::RootVanished => "a listed root vanished from disk mid-session (observed, not probed)".into(),
            Feature::RootAppeared => "a listed root appeared on disk mid-session (observed, not probed)".into(),
            Feature::RootMoved => "a root moved on disk mid-session, the roots list unchanged: its link swapped, or its directory renamed and replaced (observed, not probed)".into(),
            Feature::RetryRootsChanged => "an input_required retry answered roots/list with other roots than an earlier call got (observed, not probed)".into(),
            Feature::StateReplayed => "a retry echoed the requestState of another call, made with other roots (observed, not probed)".into(),
            Feature::StateUnsealed => "a requestState decoded to readable structure (base64, JSON, a JWT) and a tampered copy was taken (observed, not probed)".into(),
            Feature::StateTampered => "a retry carried a requestState whose decoded structure was tampered with, and the server acted on it (observed, not probed)".into(),
            Feature::NotJson => "the response was not a JSON object (observed, not probed)".into(),
            Feature::WrongId => "the response answered another id, or none (observed, not probed)".into(),
            Feature::NoVerdict => "the response had no boolean `allowed` (observed, not probed)".into(),
            Feature::LineTooLong => "the response line was over the limit (observed, not probed)".into(),
            Feature::StdoutNoise => "non-JSON-RPC lines on the server's stdout (observed, not probed)".into(),
            Feature::Swapped => "an entry of the path was swapped for a link to outside while the tool ran (observed, not probed)".into(),
            Feature::DefaultGrant => "with no hostile input, a file in a directory no root names was served (observed, not probed)".into(),
            Feature::CwdFallback => "after roots/list failed, a file in the server's working directory was served (observed, not probed)".into(),
            Feature::GitRepository => "the path was a git tool's repository argument, and git opened the repository it names (observed, not probed)".into(),
            Feature::GitDirFollowed => "a `.git` file (`gitdir:`), a `.git` link or a worktree's `commondir` inside the root led git to a repository outside it (observed, not probed)".into(),
            Feature::GitHookPlanted => "a hook or git configuration that runs a command (`core.fsmonitor`, `diff.external`), written through a file tool, ran when a git tool was called (observed, not probed)".into(),
            Feature::OptionInjected => "a value starting with `-` was passed on to git as an option (`--output=FILE`) (observed, not probed)".into(),
            Feature::ArchiveEntry => "an archive entry (`../`, absolute, or through a link entry) was extracted where its name leads (observed, not probed)".into(),
            Feature::NtfsStream => "windows: a component holds `:`, an NTFS stream (`notes.txt:hidden`, `proj::$INDEX_ALLOCATION`) (labelled by the flavour's systematic list, not probed)".into(),
            Feature::DosDevice => "windows: a component is a DOS device name (`CON`, `nul.txt`, `aux `, `COM1`) (labelled, not probed)".into(),
            Feature::Win32Strip => "windows: trailing dots or spaces Win32 strips from the last name (`proj.`, `notes.txt. `), or a final `..` (labelled, not probed)".into(),
            Feature::DriveRelative => "windows: drive-relative (`C:x`) or rooted on the current drive (`\\x`) (labelled, not probed)".into(),
            Feature::NtfsCase => "windows: a name differs from the root's only by case (`C:\\PROJ` for `C:\\proj`) (labelled, not probed)".into(),
            Feature::ShortName => "windows: an 8.3 short name (`PROJEC~1`) (labelled, not probed)".into(),
            Feature::WinPrefix => "windows: a `\\\\?\\`, `\\\\.\\` or UNC prefix (labelled, not probed)".into(),
            Feature::PrivateLink => "macos: `/tmp`, `/var` or `/etc`, links into `/private` (labelled, not probed)".into(),
            Feature::ApfsName => "macos: a name differs from the root's only by case or by Unicode normalization (NFC against NFD) (labelled, not probed)".into(),
            Feature::NtfsFold => "windows: a name holds a character that lower case, case folding or NFKC turns into the root's name, or into `..` or a separator, where NTFS's upcase keeps it apart (the Kelvin sign `K`, `ß`, fullwidth `ｐ`, `‥`) (labelled, not probed)".into(),
            Feature::ApfsFold => "macos: a name holds a character that NFKC turns into the root's name, or into `..` or `/`, where APFS (NFD and case folding) keeps it apart (fullwidth `ｐ`, `²`, `‥`) (labelled, not probed)".into(),
        }
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}
