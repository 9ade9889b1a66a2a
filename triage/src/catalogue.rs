//! The catalogue of defects: a signature's stable ID, title, diagnosis and
//! fix (docs/reports.md, "The catalogue").
//!
//! The rules are tried in order and the first whose features the signature
//! needs wins, so the most telling feature decides: a trimmed name reached
//! through a link is a trimmed name. Rules whose features were all shown
//! needed are tried before rules that lean on a feature probing could not
//! rule out. The same flaw lets a path out one way and refuses one the
//! other way (a link not followed leads out, and refuses a link that leads
//! in), so overblocks are named by the escape rules first. A signature no
//! rule matches still gets a deterministic ID, from its class and features.

use crate::class::Class;
use crate::feature::{Feature, RootRule};
use crate::probe::Signature;

/// One entry of the catalogue: what a defect is called and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The stable ID, e.g. `RG-PREFIX-SIBLING`.
    pub id: String,
    /// The class the defect is reported as.
    pub class: Class,
    /// One line.
    pub title: String,
    /// What the checker does wrong, in plain words.
    pub diagnosis: String,
    /// What sound code does instead.
    pub fix: String,
    /// Whether a rule of the catalogue matched (false: an ID derived from
    /// the signature).
    pub known: bool,
}

/// Which signatures a rule takes.
#[derive(Clone, Copy)]
enum Family {
    Escape,
    Stale,
    Overblock,
    Hang,
    Crash,
    Protocol,
}

impl Family {
    fn of(class: Class) -> Family {
        match class {
            Class::PathEscape | Class::RootEscape => Family::Escape,
            Class::StaleRoot => Family::Stale,
            Class::Overblock => Family::Overblock,
            Class::Hang => Family::Hang,
            Class::Crash => Family::Crash,
            Class::ProtocolError => Family::Protocol,
        }
    }

    fn matches(self, class: Class) -> bool {
        std::mem::discriminant(&self) == std::mem::discriminant(&Family::of(class))
    }
}

struct Rule {
    families: &'static [Family],
    needs: &'static [Feature],
    id: &'static str,
    class: Class,
    title: &'static str,
    diagnosis: &'static str,
    fix: &'static str,
}

/// The ID of an overblock that one unusable root causes beside valid ones.
const UNUSABLE_ROOT: &str = "RG-UNUSABLE-ROOT-BREAKS-OTHERS";

/// Title, diagnosis and fix of `RG-ROOT-NOT-RESOLVED`, which two rules name.
const NOT_RESOLVED: (&str, &str, &str) = (
    "roots are used as written, never resolved",
    "The checker compares with each root's path as written and never resolves it: a root that names no existing directory still grants (whatever is created there later), and a root that is, or lies beneath, a link grants its link path instead of its real location.",
    "Resolve each root as realpath(3) does; a root that does not resolve grants nothing, and targets are compared with the resolved location (semantics.md section 1, rule 7).",
);

const E: &[Family] = &[Family::Escape];
const EO: &[Family] = &[Family::Escape, Family::Overblock];
const O: &[Family] = &[Family::Overblock];

/// What the spec asks of a `requestState` that affects access, and how to meet it.
const STATE_FIX: &str = "Seal requestState with an HMAC or AEAD keyed by the server (over the payload, the method, a digest of the call's parameters and a short expiry); verify it before use and reject state that fails, as basic/patterns/mrtr.mdx of 2026-07-28 requires. Judge every retry by its own `inputResponses` and arguments, never by roots, paths or a tool carried in the state.";

const RULES: &[Rule] = &[
    // A tampered requestState is the defect whatever path it carried.
    Rule {
        families: E,
        needs: &[Feature::StateTampered],
        id: "RG-STATE-TRUSTED",
        class: Class::PathEscape,
        title: "a tampered requestState is trusted",
        diagnosis: "The server decodes the `requestState` a client echoes (base64 or JSON, or a JWT whose signature it does not check) and acts on what it holds: a copy whose paths, roots, tool or arguments were rewritten reached a file outside every root. `requestState` is attacker-controlled input (basic/patterns/mrtr.mdx: servers MUST protect its integrity and MUST reject state that fails verification).",
        fix: STATE_FIX,
    },
    // Indirection the server followed is the defect whatever path led there.
    Rule {
        families: E,
        needs: &[Feature::ArchiveEntry],
        id: "RG-ZIP-SLIP",
        class: Class::PathEscape,
        title: "an archive entry is extracted where its name leads (zip-slip)",
        diagnosis: "The server extracts an archive by joining each entry's name to the destination and writing there: an entry named `../x` or `/x`, or a file entry beneath a symbolic-link entry that points outside, is written outside every root. The archive is attacker-controlled input, like a path argument.",
        fix: "Judge every entry as a write path before extracting it: resolve destination plus entry name and refuse what is not beneath the root (Python's `tarfile` `filter='data'`, or `zipfile` names checked after `os.path.realpath`); never extract link entries, or extract them as files, and create each file with O_NOFOLLOW beneath the root.",
    },
    Rule {
        families: E,
        needs: &[Feature::GitHookPlanted],
        id: "RG-GIT-HOOK-PLANTED",
        class: Class::PathEscape,
        title: "a git hook or config written through a file tool runs",
        diagnosis: "The server's file tool writes into a repository's `.git` directory (its `config`, its `hooks/`), and its git tools then run git there with that configuration: a `core.fsmonitor` or `diff.external` command, or a hook, runs as the server with its rights, and wrote outside every root. Whoever can call the file tool can run any command.",
        fix: "Refuse `.git` (any component, in any case) in the paths of file tools, as git itself refuses to check out such paths; and run git with the configuration that runs commands turned off (`-c core.fsmonitor=false -c core.hooksPath=/dev/null`, `--no-ext-diff`, `GIT_CONFIG_NOSYSTEM=1`, `GIT_CONFIG_GLOBAL=/dev/null`).",
    },
    Rule {
        families: E,
        needs: &[Feature::OptionInjected],
        id: "RG-GIT-OPTION-INJECTION",
        class: Class::PathEscape,
        title: "a git tool's argument is taken as an option",
        diagnosis: "The server passes an argument (a revision, a target, a branch name) to git as it is, so a value starting with `-` is an option: `--output=/elsewhere/file` made git write outside every root.",
        fix: "Refuse values starting with `-`, and end git's options with `--` before paths; resolve revisions with `git rev-parse --verify --end-of-options VALUE` first.",
    },
    Rule {
        families: E,
        needs: &[Feature::GitDirFollowed],
        id: "RG-GIT-GITDIR-FOLLOWED",
        class: Class::PathEscape,
        title: "a `.git` file or link inside the root leads git out",
        diagnosis: "The server checks the repository path it is given, but git reads `DIR/.git` and follows it: a `.git` file saying `gitdir: /elsewhere/.git`, a `.git` symbolic link, or a worktree whose `commondir` names another repository makes every git command read and write a repository outside every root, although the path checked was inside.",
        fix: "Open the repository with its git directory given explicitly (`git --git-dir=ROOT/.git --work-tree=ROOT`, `git.Repo(path, search_parent_directories=False)` then compare `repo.git_dir` and `repo.common_dir`, resolved, with the root), refuse a `.git` that is not a plain directory beneath the root, and set `GIT_CEILING_DIRECTORIES` to the root's parent so git never looks above it.",
    },
    // Observed grants first: every escape they explain is folded into them.
    Rule {
        families: E,
        needs: &[Feature::DefaultGrant],
        id: "RG-DEFAULT-GRANT",
        class: Class::PathEscape,
        title: "grants a directory no root names, by default",
        diagnosis: "With no hostile input the server serves a directory it was never given: a built-in allow-list (`$HOME`, `/tmp`), its working directory, or everything. A plain path to a file there is read back, so every escape into that directory is this one defect (the run folds them into it).",
        fix: "Grant exactly the configured directories and the client's roots: no built-in defaults, no implicit home or working directory (the anti-pattern the MCP roots guides warn about).",
    },
    Rule {
        families: E,
        needs: &[Feature::CwdFallback],
        id: "RG-CWD-FALLBACK",
        class: Class::PathEscape,
        title: "falls back to its working directory when roots/list fails",
        diagnosis: "When the client's `roots/list` fails (an empty list, a JSON-RPC error, an answer past the server's timeout, or none), the server grants its working directory instead of nothing beyond its configured directories.",
        fix: "Fail closed: a failed or empty `roots/list` leaves only the configured directories (or nothing); never substitute the working directory.",
    },
    // The swap is the whole cause: the tree standing still lets nothing out.
    Rule {
        families: E,
        needs: &[Feature::Swapped],
        id: "RG-TOCTOU",
        class: Class::PathEscape,
        title: "checked, then opened by name: a swap in between escapes",
        diagnosis: "The server checks a path (resolves it and compares it with the roots) and later opens it by name; between the two, a directory or file of the path that the model may change is swapped for a link to outside, and the open follows it. A read returns an outside file, a write changes one. The rate is the share of calls that escaped while the swap ran.",
        fix: "Open beneath the root, not by name: hold the root directory open and resolve the rest beneath it in one system call (openat2 with RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS on Linux 5.6+, rootguard's `Roots::open` / `PinnedRoots::open`), or walk it one component at a time with openat(O_NOFOLLOW) where openat2 is missing; then read or write the descriptor you opened, never the path again.",
    },
    Rule {
        families: EO,
        needs: &[Feature::RootDoubleEncoded],
        id: "RG-ROOT-URI-DOUBLE-DECODED",
        class: Class::RootEscape,
        title: "a root URI decoded twice",
        diagnosis: "The checker percent-decodes a root URI twice (\"in case the client double-encoded\"), so `%252e%252e` becomes `..` and the root names another directory than the URI does: one the client never listed (or refuses the one it names).",
        fix: "Decode each segment of a root URI exactly once (semantics.md section 1, rule 5); `%25` is a literal `%`.",
    },
    Rule {
        families: EO,
        needs: &[Feature::RootRespelled],
        id: "RG-ROOT-URI-MISREAD",
        class: Class::RootEscape,
        title: "a valid root URI read as another directory",
        diagnosis: "The checker reads a valid but unusually spelled root URI (dot or empty segments such as `/a//../b`, escapes, `localhost`, `file:/`) as another directory than RFC 3986 and semantics.md section 1 say it names, and grants that one (or refuses the one it names).",
        fix: "Parse root URIs by semantics.md section 1: decode each segment once, remove dot segments as RFC 3986 section 5.2.4 does (an empty segment is a segment), then resolve.",
    },
    Rule {
        families: E,
        needs: &[Feature::NoUsableRoot],
        id: "RG-NO-ROOTS-FAIL-OPEN",
        class: Class::RootEscape,
        title: "no usable root means everything is allowed",
        diagnosis: "When the client sends no roots, or none of them is valid and resolvable, the checker allows every path (\"no restriction configured\") instead of none.",
        fix: "No usable root grants nothing: with an empty allow-list every path is outside (semantics.md section 1).",
    },
    Rule {
        families: E,
        needs: &[Feature::RootUnresolvable],
        id: "RG-ROOT-NOT-RESOLVED",
        class: Class::RootEscape,
        title: NOT_RESOLVED.0,
        diagnosis: NOT_RESOLVED.1,
        fix: NOT_RESOLVED.2,
    },
    // One unusable root spoils the rest: named for the root, whatever
    // rule an invalid one breaks (see `identify_without`).
    Rule {
        families: O,
        needs: &[Feature::RootUnresolvable],
        id: UNUSABLE_ROOT,
        class: Class::Overblock,
        title: "one unusable root makes the others refused",
        diagnosis: "When one root of the list is unusable (an invalid URI, such as one with another scheme, or one naming no directory), the checker refuses the valid roots beside it too: it rejects the whole list (the MCP TypeScript SDK's roots/list schema does when one URI does not start with `file://`) or refuses to start (older servers exit on a directory argument that does not exist), instead of leaving that one root out.",
        fix: "Judge each root on its own (semantics.md section 1): an unusable root grants nothing, and the valid roots beside it grant what they name.",
    },
    Rule {
        families: EO,
        needs: &[Feature::RootThroughLink],
        id: "RG-ROOT-NOT-RESOLVED",
        class: Class::RootEscape,
        title: NOT_RESOLVED.0,
        diagnosis: NOT_RESOLVED.1,
        fix: NOT_RESOLVED.2,
    },
    Rule {
        families: O,
        needs: &[Feature::StateUnsealed],
        id: "RG-STATE-UNSEALED",
        class: Class::Overblock,
        title: "requestState is readable and not integrity-protected",
        diagnosis: "The `requestState` the server hands out decodes (base64, base64url, JSON, a JWT) to readable structure, and a copy with its structure changed was taken as if the server had issued it. The 2026-07-28 revision (basic/patterns/mrtr.mdx) says: if requestState influences authorization, resource access or business logic, servers MUST protect its integrity (e.g. HMAC or AEAD) and MUST reject state that fails verification. A warning (it fails the run under --strict): no escape was seen through it.",
        fix: STATE_FIX,
    },
    Rule {
        families: &[Family::Stale],
        needs: &[Feature::StateReplayed],
        id: "RG-MRTR-STALE-STATE",
        class: Class::StaleRoot,
        title: "a replayed requestState brings back another call's roots",
        diagnosis: "The server takes the roots of a multi-round-trip retry from the `requestState` it echoes (or from what it keyed on it) instead of the `inputResponses` of that retry: a state issued for an earlier call, with other roots, grants what the current roots do not. `requestState` is attacker-controlled.",
        fix: "Judge every retry by the roots in its own `inputResponses`; keep no roots behind a `requestState`, or bind the state with a MAC to the request, the principal and a short expiry, and never to a grant.",
    },
    Rule {
        families: &[Family::Stale],
        needs: &[Feature::RetryRootsChanged],
        id: "RG-MRTR-RETRY-ROOTS",
        class: Class::StaleRoot,
        title: "a retry is judged by an earlier call's roots",
        diagnosis: "In the stateless 2026-07-28 revision each request carries its own roots (an `input_required` round trip); the server keeps the roots of an earlier call and grants by them, not by the ones the retry just gave.",
        fix: "Ask for the roots in every call that needs them (`inputRequests` with `roots/list`) and use only that retry's `inputResponses`; cache nothing across requests.",
    },
    Rule {
        families: &[Family::Stale],
        needs: &[Feature::RootMoved],
        id: "RG-ROOT-RESOLVED-ONCE",
        class: Class::StaleRoot,
        title: "a root's resolution is kept after the root moved on disk",
        diagnosis: "The server resolved a root once (its real path, or a descriptor or inode of its directory) and keeps that resolution: after the root's link was swapped, or its directory renamed and replaced, the old target still grants (or is served through the root's own paths), though the root now names another directory.",
        fix: "Resolve each root when a path is checked, as the kernel answers then (semantics.md, \"When a root is resolved\"); pin a root's directory for one operation at most, never across calls.",
    },
    Rule {
        families: &[Family::Stale],
        needs: &[Feature::RootsChanged],
        id: "RG-STALE-ROOT",
        class: Class::StaleRoot,
        title: "an old root still grants after the roots changed",
        diagnosis: "After `notifications/roots/list_changed` the server keeps the roots it had: a root the client withdrew still grants access.",
        fix: "On `notifications/roots/list_changed`, ask `roots/list` again and use only the new list (or ask for the roots on every call).",
    },
    Rule {
        families: O,
        needs: &[Feature::RootsChanged],
        id: "RG-ROOTS-NOT-REFRESHED",
        class: Class::Overblock,
        title: "a new root is refused after the roots changed",
        diagnosis: "After `notifications/roots/list_changed` the server does not take the new roots: a root the client added is refused.",
        fix: "On `notifications/roots/list_changed`, ask `roots/list` again and use the new list.",
    },
    Rule {
        families: O,
        needs: &[Feature::RootMoved],
        id: "RG-ROOT-MOVED-REFUSED",
        class: Class::Overblock,
        title: "a root is refused after it moved on disk",
        diagnosis: "After a root's link was swapped, or its directory renamed and replaced, the server refuses a path beneath the root as it resolves now.",
        fix: "Resolve each root when a path is checked, as the kernel answers then (semantics.md, \"When a root is resolved\").",
    },
    Rule {
        families: O,
        needs: &[Feature::RootVanished],
        id: "RG-ROOT-VANISHED-BREAKS-OTHERS",
        class: Class::Overblock,
        title: "one root vanishing from disk breaks the others",
        diagnosis: "When one listed root disappears from disk, the server refuses paths in the roots that are still there.",
        fix: "A root that does not resolve grants nothing, and takes nothing from the others (semantics.md section 1).",
    },
    Rule {
        families: O,
        needs: &[Feature::RootAppeared],
        id: "RG-ROOT-APPEARED-REFUSED",
        class: Class::Overblock,
        title: "a root listed before it existed is refused once it exists",
        diagnosis: "The server resolved a listed root once, when it did not exist yet, and refuses it after it appears.",
        fix: "Resolve roots when a path is checked (or again after every roots change), not only when they are first listed.",
    },
    // The modelled flavours: their features appear only in `--flavor
    // windows|macos` runs, and each names the flavour's own rule.
    Rule {
        families: EO,
        needs: &[Feature::NtfsStream],
        id: "RG-WIN-ADS",
        class: Class::PathEscape,
        title: "an NTFS stream name passes for another file",
        diagnosis: "The checker reads `:` in a Windows path wrongly: it cuts the path at the first colon after the drive to find \"the file the stream belongs to\" (so `C:\\proj::$INDEX_ALLOCATION\\..\\secret.txt` is judged as `C:\\proj`), or takes a stream of a file for another file. On NTFS a stream belongs to the name just before its colon (`notes.txt:hidden` is `notes.txt`, `proj::$INDEX_ALLOCATION` is the directory `proj`), and Win32 removes `..` before it opens anything.",
        fix: "Normalize first (`ntpath.normpath`, `path.win32.normalize`, GetFullPathNameW), then judge each component up to its first `:` (semantics.md section 5, Windows rule 4); or refuse any `:` past the drive.",
    },
    Rule {
        families: EO,
        needs: &[Feature::DosDevice],
        id: "RG-WIN-DEVICE-NAME",
        class: Class::PathEscape,
        title: "a DOS device name passes for a file inside the root",
        diagnosis: "The checker grants `C:\\proj\\CON`, `nul.txt` or `COM1` as a file beneath the root, but Win32 opens the device of that name in any directory (with an extension and trailing spaces too): a read of `aux` waits on a serial port, a write to `PRN` prints, `CONIN$` reads the console.",
        fix: "Refuse any component whose part before the first `.` or `:`, without trailing spaces and ignoring case, is `CON`, `PRN`, `AUX`, `NUL`, `CONIN$`, `CONOUT$`, `COM1`-`COM9`, `LPT1`-`LPT9` or `COM`/`LPT` with `¹²³` (Python 3.13's `os.path.isreserved`; semantics.md section 5, Windows rule 5).",
    },
    Rule {
        families: EO,
        needs: &[Feature::Win32Strip],
        id: "RG-WIN-TRAILING-DOT",
        class: Class::PathEscape,
        title: "trailing dots and spaces stripped at the wrong moment",
        diagnosis: "Win32 strips trailing dots and spaces from the last component after it removes `.` and `..`. The checker strips them from the whole text first, so a final `..` is taken for dots (`C:\\proj\\src\\..\\..` judged as `C:\\proj\\src`), or never strips them, so `C:\\proj.` (which is `C:\\proj`) is refused.",
        fix: "Normalize as GetFullPathNameW does, in its order (semantics.md section 5, Windows rule 3): separators, then `.` and `..`, then the last component's trailing dots and spaces.",
    },
    Rule {
        families: EO,
        needs: &[Feature::DriveRelative],
        id: "RG-WIN-DRIVE-RELATIVE",
        class: Class::PathEscape,
        title: "a drive-relative path judged as absolute",
        diagnosis: "The checker takes `C:x` or `\\x` for an absolute path, but each depends on a current directory (drive C's, or the current drive): its target is not known without it.",
        fix: "Refuse any path that `ntpath.isabs` (3.13) or Win32 does not call absolute: it needs a drive and a root, or a UNC, device or verbatim prefix.",
    },
    Rule {
        families: EO,
        needs: &[Feature::NtfsCase],
        id: "RG-WIN-CASE",
        class: Class::PathEscape,
        title: "case-sensitive compare on a case-insensitive file system",
        diagnosis: "The checker compares Windows names byte for byte, but NTFS (and Win32) takes `C:\\PROJ`, `c:\\proj` and `C:\\Proj` as one directory: a client's `C:\\PROJ\\x` is refused for the root `file:///C:/proj` (an overblock), and a deny-list of names inside a root is bypassed by another case (an escape).",
        fix: "Compare each component case-insensitively, by simple uppercase mapping (`ntpath.normcase`, `toUpperCase` per character); never fold Unicode normalization.",
    },
    Rule {
        families: EO,
        needs: &[Feature::WinPrefix],
        id: "RG-WIN-UNC-PREFIX",
        class: Class::PathEscape,
        title: "a `\\\\?\\`, `\\\\.\\` or UNC prefix misread",
        diagnosis: "The checker reads a path with a `\\\\?\\` or `\\\\.\\` prefix, or a UNC share, as another location than Win32 does: it strips the prefix and normalizes a verbatim path (where `..` is a name), or keeps the prefix and lets `\\\\.\\C:\\proj\\..\\x` through, or compares a share with the wrong server.",
        fix: "Split the prefix as Win32 does (semantics.md section 5, Windows rule 2): `\\\\.\\` paths are normalized like others, `\\\\?\\` paths are not and any `.` or `..` in one is refused, and a volume is a drive or a server and share, compared whole.",
    },
    Rule {
        families: EO,
        needs: &[Feature::PrivateLink],
        id: "RG-MAC-PRIVATE-LINK",
        class: Class::PathEscape,
        title: "`/tmp`, `/var` and `/etc` not followed into `/private`",
        diagnosis: "On macOS `/tmp`, `/var` and `/etc` are links to `/private/tmp`, `/private/var` and `/private/etc`. The checker compares the text of the path with the root's, so `/tmp/../secret.txt` (which is `/private/secret.txt`) and `/private/tmp/proj` (the root `file:///tmp/proj` itself) are judged as other locations than the ones opened.",
        fix: "Resolve both the roots and the path (`realpath`, `fs.realpathSync`) before comparing, so both are spelled beneath `/private`.",
    },
    Rule {
        families: EO,
        needs: &[Feature::ApfsName],
        id: "RG-MAC-NORMALIZATION",
        class: Class::PathEscape,
        title: "names compared as text on a case- and normalization-insensitive file system",
        diagnosis: "APFS (by default) takes `Café` in NFC, `Café` in NFD and `CAFÉ` as one name. The checker compares the text (or only NFC-normalizes it), so a path in the other form or case is judged as another location than the one opened: refused (an overblock) or, where a name is checked against a deny-list, let through.",
        fix: "Compare each component as APFS does: canonically decompose (NFD), case fold, decompose again, on both sides (semantics.md section 5, macOS rule 1).",
    },
    Rule {
        families: EO,
        needs: &[Feature::NtfsFold],
        id: "RG-WIN-FOLD",
        class: Class::PathEscape,
        title: "names folded more widely than NTFS folds them",
        diagnosis: "NTFS compares names by its upcase table, one UTF-16 code unit to one: `K` (the Kelvin sign) is not `K`, `ß` is not `SS`, `ｐ` (fullwidth) is not `P`, and a character beyond U+FFFF is never folded. The checker folds more (`lower()`, `casefold()`, `ntpath.normcase` off Windows, `toLowerCase()`, NFKC, `localeCompare`), so `C:\\pro\u{212a}j` (another directory) is judged as the root `C:\\prokj`, and `C:\\other\\‥\\proj` (a directory named `‥`) as `C:\\proj`.",
        fix: "Compare each component by simple uppercase mapping of each UTF-16 code unit, as NTFS does (semantics.md section 5, Windows rule 4); never lowercase, case fold or NFKC-normalize a Windows path.",
    },
    Rule {
        families: EO,
        needs: &[Feature::ApfsFold],
        id: "RG-MAC-FOLD",
        class: Class::PathEscape,
        title: "names folded more widely than APFS folds them",
        diagnosis: "APFS takes two names as one when they are canonically equivalent and equal under case folding (NFD and full case folding), never under compatibility: `ｐroj` (fullwidth), `proj²` (a superscript) and `‥` are other names than `proj`, `proj2` and `..`. The checker NFKC-normalizes (or compares with `localeCompare` at accent sensitivity), so another directory is judged as the root, or a name as a step out of it.",
        fix: "Compare each component as APFS does: NFD, case fold, NFD (semantics.md section 5, macOS rule 1); never NFKC-normalize a macOS path.",
    },
    Rule {
        families: EO,
        needs: &[Feature::Backslash],
        id: "RG-BACKSLASH-SEPARATOR",
        class: Class::PathEscape,
        title: "`\\` taken as a separator",
        diagnosis: "The checker turns `\\` into `/` before it judges the path, but on Linux `\\` is a byte of a name like any other: `/b\\project\\new.txt` is one new file beside `/b`, not `/b/project/new.txt`. It judges one path while the operation uses another.",
        fix: "Judge the exact bytes the operation will use; never rewrite separators on a POSIX system.",
    },
    Rule {
        families: EO,
        needs: &[Feature::PercentEscape],
        id: "RG-PERCENT-DECODED-PATH",
        class: Class::PathEscape,
        title: "a path percent-decoded as if it were a URI",
        diagnosis: "The checker percent-decodes the path (`decodeURIComponent`, `unquote`) before it judges it, but a path is not a URI: `%2F` is three bytes of a name, so `/b%2Fproject%2Fnew.txt` is one new file in `/`, judged as `/b/project/new.txt`.",
        fix: "Decode only URIs (the roots), never the path a tool call carries; judge its exact bytes.",
    },
    Rule {
        families: EO,
        needs: &[Feature::UnicodeFold],
        id: "RG-UNICODE-FOLD",
        class: Class::PathEscape,
        title: "Unicode-normalized path",
        diagnosis: "The checker normalizes the path (NFKC or NFC) before it judges it, but Linux compares names byte for byte: the fullwidth `ｐｒｏｊｅｃｔ`, a combining accent or `／` (U+FF0F) is another name than its folded form, so the checker judges one path while the operation opens another.",
        fix: "Judge the exact bytes; never normalize Unicode in a path you are about to open.",
    },
    Rule {
        families: EO,
        needs: &[Feature::TrimmableEdge],
        id: "RG-TRIMMED-NAME",
        class: Class::PathEscape,
        title: "whitespace or quotes trimmed from the path",
        diagnosis: "The checker trims whitespace or quotes from the path (`trim()`, `strip()`) before it judges it, but the operation opens the untrimmed path: `notes.txt ` (a link out of the root, or a sibling named `project `) is judged as `notes.txt` or `project`.",
        fix: "Judge the path exactly as the operation will use it; a name may begin or end with a space or a quote.",
    },
    Rule {
        families: EO,
        needs: &[Feature::TrailingDot],
        id: "RG-TRAILING-DOT",
        class: Class::PathEscape,
        title: "trailing dots stripped from a name",
        diagnosis: "The checker strips trailing dots from names (as Windows does), but on Linux `notes.txt.` is another name than `notes.txt`: it judges one file while the operation opens another.",
        fix: "Judge the exact bytes of each name; only Windows file systems strip trailing dots.",
    },
    Rule {
        families: EO,
        needs: &[Feature::CaseVariant],
        id: "RG-CASE-FOLD",
        class: Class::PathEscape,
        title: "case-insensitive comparison on a case-sensitive file system",
        diagnosis: "The checker folds case (`lower()`, `casefold()`) before it compares, but Linux file systems are case-sensitive: `/b/Project` is another directory than the root `/b/project`.",
        fix: "Compare the exact bytes of each component; fold case only where the file system itself does, and ask it.",
    },
    Rule {
        families: EO,
        needs: &[Feature::PatternChar],
        id: "RG-NAME-AS-PATTERN",
        class: Class::PathEscape,
        title: "a name read as a glob or regex pattern",
        diagnosis: "The checker matches the path against the roots as a pattern (`fnmatch`, `glob`, a regular expression built from the path, `minimatch`), so a name such as `[p]roject`, `pro*` or `projec?` matches the root `project`, while the kernel takes every byte literally and opens the sibling of that name. It judges one path while the operation uses another.",
        fix: "Compare whole path components as exact bytes; never pass a path (or a root) through a pattern matcher. If patterns are a feature, escape every metacharacter of the path first.",
    },
    // Before the chain: a budget shows as a chain too long, and a
    // minimal scenario holds many links only when it needs them.
    // After the names of the path: a root's trimmed edge is the client's,
    // and a variant cannot rename it where the path spells it otherwise
    // (`%2F'%2F` beside the root `'`).
    Rule {
        families: EO,
        needs: &[Feature::RootTrimmableEdge],
        id: "RG-ROOT-URI-TRIMMED",
        class: Class::RootEscape,
        title: "quotes or whitespace trimmed from a root URI",
        diagnosis: "The checker trims quotes or whitespace from a root URI before it reads it (as the MCP reference server once trimmed its arguments), but `'` is a valid character of a path: `file:///b/x'` names the directory `x'`, and the checker grants `x` instead (and refuses `x'`).",
        fix: "Read a root URI exactly as sent (semantics.md section 1): nothing is trimmed or repaired; an invalid one grants nothing.",
    },
    Rule {
        families: EO,
        needs: &[Feature::ManyLinks],
        id: "RG-LINK-BUDGET",
        class: Class::PathEscape,
        title: "a path through many links is judged as text",
        diagnosis: "The checker follows only so many links in one path (8, 12, 16 and 32 are all found in the wild, where Linux follows 40) and, past that budget, stops resolving and judges the rest of the path as text (or with the links it did not follow left in) instead of failing: a chain of links, or one link named again and again, that ends outside passes for a path inside, and one that ends inside may be refused. One link, the same target, is judged right.",
        fix: "Follow links as the kernel does (40 in one resolution on Linux), or let the kernel resolve the path (`realpath`, `openat2(RESOLVE_BENEATH)`); when resolution fails (ELOOP), refuse: never fall back to a lexical verdict.",
    },
    Rule {
        families: EO,
        needs: &[Feature::LinkChain],
        id: "RG-LINK-CHAIN",
        class: Class::PathEscape,
        title: "a link to a link is followed only once",
        diagnosis: "The checker follows a symbolic link once, but a link may point at (or through) another link: `chain1 -> chain2 -> ../outside/secret.txt` is judged at `chain2`, while the kernel follows the whole chain.",
        fix: "Resolve every link, as the kernel does (up to 40), or let the kernel resolve the path (`realpath`, `openat2(RESOLVE_BENEATH)`).",
    },
    Rule {
        families: EO,
        needs: &[Feature::LongPath],
        id: "RG-LONG-PATH-LEXICAL",
        class: Class::PathEscape,
        title: "a long path is judged as text",
        diagnosis: "Past some number of components the checker stops resolving the path and judges its text (`.` dropped, `..` taken lexically, links not followed), so a link or `..` deep inside a long path carries the operation out; the same target by a short path is refused. The escape shows only on paths longer than anyone tries by hand.",
        fix: "Resolve every component whatever the path's length, or refuse (fail closed) past a limit; never fall back to a lexical verdict.",
    },
    Rule {
        families: EO,
        needs: &[Feature::DotDot, Feature::Link],
        id: "RG-LEXICAL-DOTDOT",
        class: Class::PathEscape,
        title: "`..` removed as text before links are resolved",
        diagnosis: "The checker removes `..` as text (`path.clean`, `normalize`) and only then resolves links, but the kernel takes `..` physically: `link/..` is the parent of the link's target, not the directory holding the link, so the checker judges another file than the one opened.",
        fix: "Resolve the path one component at a time with `..` taken physically (or let the kernel do it: `realpath`), then compare.",
    },
    Rule {
        families: EO,
        needs: &[Feature::FinalLink, Feature::NewTarget, Feature::Link],
        id: "RG-DANGLING-WRITE",
        class: Class::PathEscape,
        title: "a write through a dangling link is judged by its parent",
        diagnosis: "For a write whose target does not exist yet, the checker resolves only the parent directory and appends the name, but the name may be a dangling link: `open(O_CREAT)` follows it and creates the file where it points.",
        fix: "For a write, follow a final link even when it dangles (semantics.md section 2), or open with `O_NOFOLLOW` / `openat2(RESOLVE_BENEATH)`.",
    },
    Rule {
        families: EO,
        needs: &[Feature::NewTarget, Feature::Link],
        id: "RG-MISSING-FILE-FALLBACK",
        class: Class::PathEscape,
        title: "a new file is judged by the text of its path",
        diagnosis: "When the target does not exist yet, the checker falls back to the lexical verdict on the path's text, but a link on the way (a linked directory, a dangling final link) takes the write elsewhere.",
        fix: "Resolve the existing part of the path physically, and follow a final dangling link for a write, before you compare.",
    },
    Rule {
        families: EO,
        needs: &[Feature::FinalLink, Feature::Link],
        id: "RG-FINAL-LINK-PARENT",
        class: Class::PathEscape,
        title: "a final link is judged by the directory holding it",
        diagnosis: "The checker judges a path whose last component is a link by its parent directory (a denial of the link's target is swallowed, as in CVE-2025-53109), but the operation follows the link.",
        fix: "Judge where the operation lands: follow the final link, and let a denial stand.",
    },
    Rule {
        families: EO,
        needs: &[Feature::Link],
        id: "RG-LINK-FOLLOWED",
        class: Class::PathEscape,
        title: "symbolic links are not followed",
        diagnosis: "The checker judges the path's text without following symbolic links, but the kernel follows them: a link in the root that points outside carries the operation out (and a link that points into a root is refused).",
        fix: "Resolve links before comparing (`realpath`, or one component at a time), or open beneath the root with `openat2(RESOLVE_BENEATH)`.",
    },
    Rule {
        families: O,
        needs: &[Feature::DotName],
        id: "RG-OVERBLOCK-DOT-NAME",
        class: Class::Overblock,
        title: "a path ending in `/`, `.` or `..` is refused",
        diagnosis: "The checker refuses a path that ends in `/`, `/.` or `/..` although it resolves inside a root (it takes the last component as a file name).",
        fix: "Resolve the path first and judge the target: `a/b/..` is `a`, and a read of `a/` is a read of `a`.",
    },
    Rule {
        families: O,
        needs: &[Feature::DotDot],
        id: "RG-OVERBLOCK-DOTDOT",
        class: Class::Overblock,
        title: "a path whose `..` climbs out and back in is refused",
        diagnosis: "The checker refuses a path that holds `..` although its target lies inside a root: `app/p/../../app/n` is `app/n`. A checker that refuses every `..` that climbs past its base on the way (werkzeug's `safe_join`), or that never lets a path leave its directory even for a moment (a capability sandbox such as cap-std), does this: safe, and stricter than where the operation lands.",
        fix: "Judge where the operation lands: resolve `..` physically (after the links before it) and compare the target with the roots. If refusing such paths is the policy, document it; an overblock fails a run only with --strict.",
    },
    Rule {
        families: E,
        needs: &[Feature::SiblingPrefix],
        id: "RG-PREFIX-SIBLING",
        class: Class::PathEscape,
        title: "text-prefix compare",
        diagnosis: "The checker compares the target and the root as text (`target.startswith(root)`), so a sibling whose name begins with the root's name passes: `/b/project2` is not inside `/b/project`, but its text begins with it.",
        fix: "Compare whole components: the target is inside when the root's components are a prefix of the target's (or when the target equals the root or starts with the root plus `/`).",
    },
    Rule {
        families: E,
        needs: &[Feature::DotDot],
        id: "RG-DOTDOT-UNRESOLVED",
        class: Class::PathEscape,
        title: "`..` left in the path",
        diagnosis: "The checker compares the path with `..` still in it, so `/b/project/../outside/x` passes for the root `/b/project`.",
        fix: "Resolve the path (`..` physically) before comparing.",
    },
    // After the path rules: a repository reached through a link, `..` or a
    // sibling is named by that, when a plain outside repository was refused.
    Rule {
        families: E,
        needs: &[Feature::GitRepository],
        id: "RG-GIT-REPO-BOUNDARY",
        class: Class::PathEscape,
        title: "the repository a git server was given is not enforced",
        diagnosis: "The server was started with one repository (`--repository DIR`) or roots, but its git tools open whatever repository their argument (`repo_path`, `repository`, `cwd`) names: a plain path to another repository outside every root is read and changed.",
        fix: "Resolve the repository argument (realpath) and refuse it unless it is the configured repository or beneath it, whole components compared; then open it with its git directory given explicitly so that no `.git` file or link leads elsewhere.",
    },
    Rule {
        families: O,
        needs: &[Feature::NewTarget],
        id: "RG-OVERBLOCK-NEW-FILE",
        class: Class::Overblock,
        title: "a new file inside a root is refused",
        diagnosis: "The checker refuses a write that creates a file inside a root, because the file does not exist yet.",
        fix: "For a write, resolve the parent and follow a final link even when it dangles; a new file's target is where it will be created.",
    },
    Rule {
        families: E,
        needs: &[],
        id: "RG-ALLOWS-OUTSIDE",
        class: Class::PathEscape,
        title: "a plain path outside every root is allowed",
        diagnosis: "The checker allows a path outside every root with nothing hostile about it: it does not compare the target with the roots at all, or compares with the wrong ones.",
        fix: "Resolve the target and allow it only when a resolved root's components are a prefix of its components.",
    },
    Rule {
        families: O,
        needs: &[],
        id: "RG-OVERBLOCK",
        class: Class::Overblock,
        title: "a plain path inside a root is refused",
        diagnosis: "The checker (or server) refuses a path inside a root it was given, with nothing unusual about it: the root was not honoured.",
        fix: "Honour every valid, resolvable root: a target at or beneath one is inside.",
    },
    Rule {
        families: &[Family::Hang],
        needs: &[],
        id: "RG-HANG",
        class: Class::Hang,
        title: "no answer within the timeout",
        diagnosis: "The checker (or server) did not answer in time.",
        fix: "Answer every request, a denial with a reason when in doubt; bound loops over links (40) and path lengths.",
    },
    Rule {
        families: &[Family::Crash],
        needs: &[],
        id: "RG-CRASH",
        class: Class::Crash,
        title: "exits instead of answering",
        diagnosis: "The checker (or server) exited before it answered.",
        fix: "Catch what a hostile path can raise (non-UTF-8 bytes, NUL, ENAMETOOLONG, ELOOP) and deny with a reason.",
    },
    Rule {
        families: &[Family::Protocol],
        needs: &[Feature::NotJson],
        id: "RG-PROTOCOL-NOT-JSON",
        class: Class::ProtocolError,
        title: "an answer that is not a JSON object",
        diagnosis: "A response line is not a JSON object.",
        fix: "Write exactly one JSON object per line on stdout, and send logs to stderr.",
    },
    Rule {
        families: &[Family::Protocol],
        needs: &[Feature::WrongId],
        id: "RG-PROTOCOL-WRONG-ID",
        class: Class::ProtocolError,
        title: "an answer to another request",
        diagnosis: "A response carries another request's id, or none.",
        fix: "Echo the request's `id` in its response, in order.",
    },
    Rule {
        families: &[Family::Protocol],
        needs: &[Feature::NoVerdict],
        id: "RG-PROTOCOL-NO-VERDICT",
        class: Class::ProtocolError,
        title: "an answer without a verdict",
        diagnosis: "A response has no boolean `allowed`.",
        fix: "Answer `{\"id\": N, \"allowed\": true|false}` for every request (checker protocol v1).",
    },
    Rule {
        families: &[Family::Protocol],
        needs: &[Feature::LineTooLong],
        id: "RG-PROTOCOL-LINE-TOO-LONG",
        class: Class::ProtocolError,
        title: "an answer over the length limit",
        diagnosis: "A response line is over 1 MiB.",
        fix: "Keep answers short: a verdict and a reason.",
    },
    Rule {
        families: &[Family::Protocol],
        needs: &[Feature::StdoutNoise],
        id: "RG-PROTOCOL-STDOUT-NOISE",
        class: Class::ProtocolError,
        title: "noise on stdout",
        diagnosis: "The server prints lines that are not JSON-RPC on stdout, which breaks every client of it.",
        fix: "Write only JSON-RPC messages to stdout; logs go to stderr.",
    },
    Rule {
        families: &[Family::Protocol],
        needs: &[],
        id: "RG-PROTOCOL-ERROR",
        class: Class::ProtocolError,
        title: "a response that breaks the protocol",
        diagnosis: "A response breaks the protocol in a way the catalogue has no name for; the example shows it.",
        fix: "Follow docs/checker-protocol.md (checker) or JSON-RPC 2.0 over stdio (MCP server).",
    },
];

/// The entry for `signature`: the first rule of the catalogue it matches,
/// or an ID derived from it.
///
/// # Examples
///
/// ```
/// use rootguard_triage::{catalogue, Class, Feature, RootRule, Signature};
///
/// let link = Signature::new(Class::PathEscape, [Feature::Link, Feature::TrimmableEdge]);
/// assert_eq!(catalogue::identify(&link).id, "RG-TRIMMED-NAME");
/// let host = Signature::new(Class::RootEscape, [Feature::RootUri(RootRule::Host)]);
/// assert_eq!(catalogue::identify(&host).id, "RG-ROOT-URI-HOST");
/// let odd = Signature::new(Class::Overblock, [Feature::SiblingPrefix]);
/// assert!(catalogue::identify(&odd).id.starts_with("RG-OVERBLOCK-X"));
/// ```
pub fn identify(signature: &Signature) -> Entry {
    identify_without(signature, &[])
}

/// Entries added since reports became baselines, oldest first, each with
/// the features that came with it: before each, the catalogue named the
/// signatures it takes otherwise ([`former_ids`]).
const ADDED: &[(&str, &[Feature])] = &[
    ("RG-NAME-AS-PATTERN", &[Feature::PatternChar]),
    ("RG-LONG-PATH-LEXICAL", &[Feature::LongPath]),
    ("RG-LINK-BUDGET", &[Feature::ManyLinks]),
];

/// The IDs earlier catalogues gave `signature`, other than its ID now,
/// newest first: for each entry added since reports became baselines
/// (`RG-LINK-BUDGET` took chains of many links from `RG-LINK-CHAIN`), the
/// ID the catalogue from before it gives the signature without the
/// features that came with it. A baseline written by an older rootguard
/// names the same defect by one of these.
///
/// # Examples
///
/// ```
/// use rootguard_triage::{catalogue, Class, Feature, Signature};
///
/// let budget = Signature::new(Class::PathEscape, [Feature::Link, Feature::LinkChain, Feature::ManyLinks]);
/// assert_eq!(catalogue::identify(&budget).id, "RG-LINK-BUDGET");
/// assert_eq!(catalogue::former_ids(&budget), ["RG-LINK-CHAIN"]);
/// let chain = Signature::new(Class::PathEscape, [Feature::Link, Feature::LinkChain]);
/// assert!(catalogue::former_ids(&chain).is_empty());
/// ```
pub fn former_ids(signature: &Signature) -> Vec<String> {
    let now = identify(signature).id;
    let mut out: Vec<String> = Vec::new();
    for newest in (0..ADDED.len()).rev() {
        let since = &ADDED[newest..];
        let new_features: Vec<Feature> =
            since.iter().flat_map(|(_, f)| f.iter().copied()).collect();
        let keep = |f: &&Feature| !new_features.contains(f);
        let before = Signature {
            class: signature.class,
            features: signature.features.iter().filter(keep).copied().collect(),
            confirmed: signature.confirmed.iter().filter(keep).copied().collect(),
        };
        let skipped: Vec<&str> = since.iter().map(|(id, _)| *id).collect();
        let id = identify_without(&before, &skipped).id;
        if id != now && !out.contains(&id) {
            out.push(id);
        }
    }
    out
}

/// [`identify`] by a catalogue without the rules of `skipped`.
fn identify_without(signature: &Signature, skipped: &[&str]) -> Entry {
    let family = |r: &&Rule| {
        r.families.iter().any(|f| f.matches(signature.class)) && !skipped.contains(&r.id)
    };
    let escape = Family::Escape.matches(signature.class);
    for set in [&signature.confirmed, &signature.features] {
        let root_rule = RootRule::ALL
            .into_iter()
            .find(|r| set.contains(&Feature::RootUri(*r)));
        if let Some(rule) = root_rule.filter(|_| escape) {
            return root_uri_entry(rule);
        }
        // An overblock that needs an invalid root: the valid ones refused.
        if root_rule.is_some() {
            if let Some(r) = RULES.iter().filter(family).find(|r| r.id == UNUSABLE_ROOT) {
                return entry(r);
            }
        }
        let within = |r: &&Rule| !r.needs.is_empty() && r.needs.iter().all(|f| set.contains(f));
        if let Some(r) = RULES.iter().filter(family).find(within) {
            return entry(r);
        }
    }
    if signature.confirmed.is_empty() {
        if let Some(r) = RULES.iter().filter(family).find(|r| r.needs.is_empty()) {
            return entry(r);
        }
    }
    derived(signature)
}

fn entry(r: &Rule) -> Entry {
    Entry {
        id: r.id.to_owned(),
        class: r.class,
        title: r.title.to_owned(),
        diagnosis: r.diagnosis.to_owned(),
        fix: r.fix.to_owned(),
        known: true,
    }
}

fn root_uri_entry(rule: RootRule) -> Entry {
    let name = rule.as_str();
    Entry {
        id: format!("RG-ROOT-URI-{}", name.to_uppercase()),
        class: Class::RootEscape,
        title: format!("a root URI {} is honoured", rule.phrase()),
        diagnosis: format!(
            "The checker honours a root URI that breaks {} ({}): it reads such a root leniently (trimming, `urlsplit(uri).path`, dropping the host) and grants the directory it then seems to name.",
            name,
            rule.rule_text()
        ),
        fix: format!(
            "Parse root URIs strictly by semantics.md section 1; {}.",
            rule.rule_text()
        ),
        known: true,
    }
}

/// The root-URI rule whose own entry has the ID `id` (`RG-ROOT-URI-HOST`
/// is [`RootRule::Host`]'s), if any.
pub fn root_rule_of(id: &str) -> Option<RootRule> {
    RootRule::ALL
        .into_iter()
        .find(|&rule| root_uri_entry(rule).id == id)
}

/// The ID of the one defect that stands for several root-URI rules
/// ignored at once.
pub const ROOT_URI_AS_TEXT: &str = "RG-ROOT-URI-AS-TEXT";

/// The entry of a checker that ignores several root-URI rules at once: one
/// mechanism (the root read as text, or by a lenient URL parser), one fix.
/// `rules` are the rules it was seen to ignore, in semantics.md's order.
///
/// # Examples
///
/// ```
/// use rootguard_triage::{catalogue, RootRule};
/// let entry = catalogue::root_uri_as_text(&[RootRule::Host, RootRule::Port]);
/// assert_eq!(entry.id, "RG-ROOT-URI-AS-TEXT");
/// assert!(entry.title.ends_with("(ignores: port, host)"), "{}", entry.title);
/// ```
pub fn root_uri_as_text(rules: &[RootRule]) -> Entry {
    let mut rules = rules.to_vec();
    rules.sort_by_key(|r| RootRule::ALL.iter().position(|a| a == r));
    rules.dedup();
    let names: Vec<&str> = rules.iter().map(|r| r.as_str()).collect();
    Entry {
        id: ROOT_URI_AS_TEXT.to_owned(),
        class: Class::RootEscape,
        title: format!(
            "root URIs read leniently, as text (ignores: {})",
            names.join(", ")
        ),
        diagnosis: format!(
            "The checker honours root URIs that break {} rules of semantics.md section 1 ({}): one lenient reading (the text after `file://` taken as the path, or a URL parser that drops what it does not need) grants the directory each such root seems to name. It is one defect with one fix; each rule it ignores is listed, and a baseline that names a rule's own ID (`RG-ROOT-URI-HOST`) matches it.",
            names.len(),
            names.join(", ")
        ),
        fix: "Parse root URIs strictly by semantics.md section 1, all rules at once (the repository's corpus/root-uris.json has a vector for each): a root that breaks any of them grants nothing.".to_owned(),
        known: true,
    }
}

/// An ID for a signature no rule knows: its class and a hash of its
/// confirmed feature names, the same in every run.
fn derived(signature: &Signature) -> Entry {
    let names: Vec<String> = signature.confirmed.iter().map(|f| f.name()).collect();
    let text = format!("{}:{}", signature.class, names.join(","));
    // FNV-1a: stable across platforms and releases, unlike std's hasher.
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    let class = match Family::of(signature.class) {
        Family::Escape => "ESCAPE",
        Family::Stale => "STALE",
        Family::Overblock => "OVERBLOCK",
        Family::Hang => "HANG",
        Family::Crash => "CRASH",
        Family::Protocol => "PROTOCOL",
    };
    Entry {
        id: format!("RG-{class}-X{:08X}", hash >> 32),
        class: signature.class,
        title: format!("{} needing {}", signature.class, names.join(", ")),
        diagnosis: format!(
            "A {} that needs {} — a combination the catalogue has no name for; the simplest example and the probes show what the checker does.",
            signature.class,
            if names.is_empty() { "nothing hostile".to_owned() } else { names.join(", ") }
        ),
        fix: "Judge the exact path the operation will use, resolved as the kernel resolves it (docs/semantics.md), against strictly parsed, resolved roots.".to_owned(),
        known: false,
    }
}

/// Every ID the catalogue can give (derived ones aside), with its entry,
/// in catalogue order.
pub fn entries() -> Vec<Entry> {
    let mut out: Vec<Entry> = RootRule::ALL.into_iter().map(root_uri_entry).collect();
    for r in RULES {
        if !out.iter().any(|e| e.id == r.id) {
            out.push(entry(r));
        }
    }
    out
}

/// The catalogue's rules in order, for docs: `(id, classes it names, [feature names])`.
pub fn rules() -> Vec<(String, Vec<Class>, Vec<String>)> {
    let mut out: Vec<(String, Vec<Class>, Vec<String>)> = RootRule::ALL
        .into_iter()
        .map(|r| {
            (
                root_uri_entry(r).id,
                vec![Class::PathEscape, Class::RootEscape],
                vec![Feature::RootUri(r).name()],
            )
        })
        .collect();
    out.extend(RULES.iter().map(|r| {
        let classes = Class::ALL
            .into_iter()
            .filter(|c| r.families.iter().any(|f| f.matches(*c)))
            .collect();
        (
            r.id.to_owned(),
            classes,
            r.needs.iter().map(|f| f.name()).collect(),
        )
    }));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_example_checker_bug_has_its_id() {
        let cases: &[(Class, &[Feature], &str)] = &[
            (
                Class::PathEscape,
                &[Feature::SiblingPrefix],
                "RG-PREFIX-SIBLING",
            ),
            (Class::PathEscape, &[Feature::Link], "RG-LINK-FOLLOWED"),
            (
                Class::PathEscape,
                &[Feature::Link, Feature::DotDot],
                "RG-LEXICAL-DOTDOT",
            ),
            (
                Class::PathEscape,
                &[Feature::Link, Feature::FinalLink, Feature::NewTarget],
                "RG-DANGLING-WRITE",
            ),
            (
                Class::PathEscape,
                &[Feature::Link, Feature::NewTarget],
                "RG-MISSING-FILE-FALLBACK",
            ),
            (
                Class::PathEscape,
                &[Feature::Link, Feature::FinalLink],
                "RG-FINAL-LINK-PARENT",
            ),
            (
                Class::PathEscape,
                &[Feature::Link, Feature::LinkChain, Feature::FinalLink],
                "RG-LINK-CHAIN",
            ),
            (
                Class::PathEscape,
                &[Feature::Link, Feature::LinkChain, Feature::ManyLinks],
                "RG-LINK-BUDGET",
            ),
            (
                Class::PathEscape,
                &[Feature::Link, Feature::DotDot, Feature::ManyLinks],
                "RG-LINK-BUDGET",
            ),
            (
                Class::PathEscape,
                &[Feature::SiblingPrefix, Feature::TrimmableEdge],
                "RG-TRIMMED-NAME",
            ),
            (
                Class::PathEscape,
                &[Feature::SiblingPrefix, Feature::UnicodeFold],
                "RG-UNICODE-FOLD",
            ),
            (Class::PathEscape, &[Feature::CaseVariant], "RG-CASE-FOLD"),
            (
                Class::RootEscape,
                &[Feature::NoUsableRoot],
                "RG-NO-ROOTS-FAIL-OPEN",
            ),
            (
                Class::RootEscape,
                &[Feature::RootUri(RootRule::Query)],
                "RG-ROOT-URI-QUERY",
            ),
            (Class::RootEscape, &[], "RG-ALLOWS-OUTSIDE"),
            (
                Class::PathEscape,
                &[Feature::DefaultGrant, Feature::SiblingPrefix, Feature::Link],
                "RG-DEFAULT-GRANT",
            ),
            (
                Class::PathEscape,
                &[Feature::CwdFallback],
                "RG-CWD-FALLBACK",
            ),
            (Class::StaleRoot, &[Feature::RootsChanged], "RG-STALE-ROOT"),
            (
                Class::StaleRoot,
                &[Feature::StateReplayed],
                "RG-MRTR-STALE-STATE",
            ),
            (
                Class::StaleRoot,
                &[Feature::RetryRootsChanged],
                "RG-MRTR-RETRY-ROOTS",
            ),
            (
                Class::PathEscape,
                &[Feature::StateTampered, Feature::DotDot],
                "RG-STATE-TRUSTED",
            ),
            (
                Class::Overblock,
                &[Feature::StateUnsealed],
                "RG-STATE-UNSEALED",
            ),
            (Class::Overblock, &[], "RG-OVERBLOCK"),
            (Class::Overblock, &[Feature::DotDot], "RG-OVERBLOCK-DOTDOT"),
            (
                Class::Overblock,
                &[Feature::RootUri(RootRule::WrongScheme)],
                "RG-UNUSABLE-ROOT-BREAKS-OTHERS",
            ),
            (
                Class::Overblock,
                &[Feature::RootUnresolvable, Feature::NewTarget],
                "RG-UNUSABLE-ROOT-BREAKS-OTHERS",
            ),
            (Class::Hang, &[], "RG-HANG"),
            (
                Class::ProtocolError,
                &[Feature::StdoutNoise],
                "RG-PROTOCOL-STDOUT-NOISE",
            ),
            (Class::PathEscape, &[Feature::Swapped], "RG-TOCTOU"),
            (
                Class::PathEscape,
                &[Feature::GitRepository],
                "RG-GIT-REPO-BOUNDARY",
            ),
            (
                Class::PathEscape,
                &[Feature::GitRepository, Feature::Link],
                "RG-LINK-FOLLOWED",
            ),
            (
                Class::PathEscape,
                &[Feature::GitRepository, Feature::SiblingPrefix],
                "RG-PREFIX-SIBLING",
            ),
            (
                Class::PathEscape,
                &[Feature::GitDirFollowed],
                "RG-GIT-GITDIR-FOLLOWED",
            ),
            (
                Class::PathEscape,
                &[Feature::GitHookPlanted],
                "RG-GIT-HOOK-PLANTED",
            ),
            (
                Class::PathEscape,
                &[Feature::OptionInjected],
                "RG-GIT-OPTION-INJECTION",
            ),
            (
                Class::PathEscape,
                &[Feature::ArchiveEntry, Feature::DotDot, Feature::Link],
                "RG-ZIP-SLIP",
            ),
            (
                Class::PathEscape,
                &[Feature::Swapped, Feature::Link, Feature::FinalLink],
                "RG-TOCTOU",
            ),
        ];
        for (class, features, id) in cases {
            let sig = Signature::new(*class, features.iter().copied());
            assert_eq!(identify(&sig).id, *id, "{sig}");
        }
    }

    #[test]
    fn unknown_signatures_get_the_same_derived_id_every_time() {
        let sig = Signature::new(
            Class::Overblock,
            [Feature::SiblingPrefix, Feature::NoUsableRoot],
        );
        let a = identify(&sig);
        assert!(!a.known && a.id.starts_with("RG-OVERBLOCK-X"), "{}", a.id);
        assert_eq!(a.id, identify(&sig.clone()).id);
        let other = Signature::new(Class::Overblock, [Feature::SiblingPrefix]);
        assert_ne!(identify(&other).id, a.id);
    }

    #[test]
    fn entries_have_unique_ids() {
        let entries = entries();
        let mut ids: Vec<&str> = entries.iter().map(|e| e.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), entries.len());
    }
}

#[cfg(test)]
mod flavour_tests {
    use super::*;
    use rootguard_judge::flavour::Flavour;
    use rootguard_judge::gen::flavoured_cases;

    #[test]
    fn every_mark_of_the_flavoured_lists_is_a_feature() {
        for flavour in [Flavour::Windows, Flavour::MacOs] {
            for case in flavoured_cases(flavour) {
                for mark in &case.marks {
                    assert!(
                        Feature::from_name(mark).is_some(),
                        "{mark} in {}",
                        case.name
                    );
                }
            }
        }
    }

    #[test]
    fn each_flavour_feature_names_its_own_defect() {
        let cases = [
            (Feature::NtfsStream, "RG-WIN-ADS"),
            (Feature::DosDevice, "RG-WIN-DEVICE-NAME"),
            (Feature::Win32Strip, "RG-WIN-TRAILING-DOT"),
            (Feature::DriveRelative, "RG-WIN-DRIVE-RELATIVE"),
            (Feature::NtfsCase, "RG-WIN-CASE"),
            (Feature::WinPrefix, "RG-WIN-UNC-PREFIX"),
            (Feature::PrivateLink, "RG-MAC-PRIVATE-LINK"),
            (Feature::ApfsName, "RG-MAC-NORMALIZATION"),
            (Feature::NtfsFold, "RG-WIN-FOLD"),
            (Feature::ApfsFold, "RG-MAC-FOLD"),
        ];
        for (feature, id) in cases {
            for class in [Class::PathEscape, Class::Overblock] {
                let signature = Signature::new(class, [feature, Feature::DotDot]);
                assert_eq!(identify(&signature).id, id, "{feature} {class}");
            }
        }
    }
}
