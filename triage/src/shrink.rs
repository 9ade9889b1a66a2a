//! The one shrinker of rootguard: a scenario made simpler step by step,
//! each step kept only when it is strictly simpler by [`simplicity`] and
//! the harness, asked its own way, still sees the escape. vet asks a
//! checker; mcp asks a live server. Fewer entries and roots come first,
//! then shorter names, then plainer ones (ASCII for non-ASCII).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rootguard_judge::{validate_tree, Entry, PathBytes, Scenario, BASE_PLACEHOLDER};
use unicode_normalization::UnicodeNormalization;

use crate::simplicity::simplicity;
use crate::vary::{nested, plain_root, rehomed, rename_component};

/// The most attempts one shrink makes, the first ask included.
pub const MAX_ATTEMPTS: usize = 1000;

/// How much one shrink may spend.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Attempts, the first ask included (at most [`MAX_ATTEMPTS`] are made).
    pub attempts: usize,
    /// No attempt starts after this.
    pub deadline: Option<Instant>,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            attempts: MAX_ATTEMPTS,
            deadline: None,
        }
    }
}

/// Which simplifications a shrink tries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Steps {
    /// Every one of [`candidates`]: the tree, the roots, the names, the
    /// case's path. For a harness whose request is the scenario's case alone.
    All,
    /// Only the tree loses entries (an entry may become the directory it
    /// implies), in [`candidates`]' order. For a harness whose requests
    /// name paths beside the case (mcp's tool calls take several), which a
    /// rename would leave pointing at names that are gone.
    Tree,
}

/// What the harness saw when asked one scenario.
#[derive(Debug)]
pub enum Seen<T> {
    /// The escape shows: what the harness keeps of it, and the path the
    /// answer said it will really use (`{base}` form) when that differs
    /// from the request's, which is then tried as the request first.
    Shows(T, Option<PathBytes>),
    /// It does not show (or the scenario could not be asked).
    Gone,
}

/// The simplest scenario found, with what the harness kept when it last
/// showed the escape.
#[derive(Debug, Clone)]
pub struct Shrunk<T> {
    /// The simplest scenario that still shows the escape.
    pub scenario: Scenario,
    /// The harness's record of the last showing.
    pub shown: T,
    /// How many attempts were made, the first included.
    pub attempts: usize,
}

/// Shrinks `scenario` (one case, `{base}` form): each candidate of `steps`
/// that is strictly simpler and that `keep` accepts is asked with `ask`,
/// and kept when the escape still shows; until no candidate is kept, the
/// budget is spent or `interrupted` is set.
///
/// Returns `None` when the escape does not show on `scenario` itself (a
/// harness that depends on earlier requests).
///
/// # Errors
///
/// The first error of `ask` (a harness that cannot go on).
///
/// # Examples
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use rootguard_judge::{Case, Entry, Op, Scenario};
/// use rootguard_triage::{shrink, Budget, Seen, Steps};
///
/// let found = Scenario {
///     name: "found".into(),
///     note: None,
///     tree: vec![
///         Entry::Dir { path: "project".into() },
///         Entry::Dir { path: "project/a/b/c".into() },
///         Entry::Symlink { path: "project/l".into(), target: "a".into() },
///     ],
///     roots: vec!["file://{base}/project".into()],
///     cases: vec![Case { path: "{base}/project-too/x".into(), op: Op::Write, expect: None }],
/// };
/// // A text-prefix checker lets out every path that starts with the root's.
/// let ask = |s: &Scenario| {
///     let path = &s.cases[0].path;
///     let inside = path == "{base}/project" || path.starts_with(b"{base}/project/");
///     let shows = path.starts_with(b"{base}/project") && !inside && !s.roots.is_empty();
///     Ok::<_, ()>(if shows { Seen::Shows((), None) } else { Seen::Gone })
/// };
/// let never = AtomicBool::new(false);
/// let shrunk = shrink(&found, Steps::All, Budget::default(), &never, |_| true, ask)?
///     .expect("it shows");
/// // The tree is gone; the sibling's name is one character longer than the root's.
/// assert!(shrunk.scenario.tree.is_empty());
/// assert_eq!(shrunk.scenario.cases[0].path.len(), "{base}/project".len() + 1);
/// # Ok::<(), ()>(())
/// ```
pub fn shrink<T, E>(
    scenario: &Scenario,
    steps: Steps,
    budget: Budget,
    interrupted: &AtomicBool,
    keep: impl Fn(&Scenario) -> bool,
    mut ask: impl FnMut(&Scenario) -> Result<Seen<T>, E>,
) -> Result<Option<Shrunk<T>>, E> {
    let Seen::Shows(shown, used) = ask(scenario)? else {
        return Ok(None);
    };
    let found = Found {
        scenario,
        shown,
        used,
    };
    shrink_found(found, steps, budget, interrupted, keep, ask).map(Some)
}

/// An escape already seen on `scenario`, so [`shrink_found`] need not ask
/// it again.
#[derive(Debug)]
pub struct Found<'a, T> {
    /// The scenario it was seen on (one case, `{base}` form).
    pub scenario: &'a Scenario,
    /// The harness's record of it.
    pub shown: T,
    /// The path the answer said it will really use, as in [`Seen::Shows`].
    pub used: Option<PathBytes>,
}

/// [`shrink`], starting from an escape the harness has already seen (a
/// harness whose every ask is costly, such as a live server, does not ask
/// the first one twice). The first attempt counted is that one.
///
/// # Errors
///
/// The first error of `ask`.
pub fn shrink_found<T, E>(
    found: Found<'_, T>,
    steps: Steps,
    budget: Budget,
    interrupted: &AtomicBool,
    keep: impl Fn(&Scenario) -> bool,
    mut ask: impl FnMut(&Scenario) -> Result<Seen<T>, E>,
) -> Result<Shrunk<T>, E> {
    let (mut best, mut shown, mut used) = (found.scenario.clone(), found.shown, found.used);
    let mut attempts = 1;
    let limit = budget.attempts.min(MAX_ATTEMPTS);
    // The `use` path replaces the request whatever its simplicity, twice at most.
    let mut use_turns = 2;
    'improve: loop {
        let measure = simplicity(&best);
        // A harness whose answer names the path it will really open: that
        // path, asked as the request, comes first.
        let use_instead = used
            .take()
            .filter(|_| use_turns > 0 && !best.cases.is_empty())
            .map(|path| {
                use_turns -= 1;
                let mut t = best.clone();
                t.cases[0].path = path;
                t
            });
        let first_is_use = use_instead.is_some();
        let more = match steps {
            Steps::All => candidates(&best),
            Steps::Tree => tree_candidates(&best),
        };
        for (k, candidate) in use_instead.into_iter().chain(more).enumerate() {
            if attempts >= limit
                || interrupted.load(Ordering::Relaxed)
                || budget.deadline.is_some_and(|d| Instant::now() >= d)
            {
                break 'improve;
            }
            // Only a strictly simpler scenario is tried, so shrinking ends.
            if (simplicity(&candidate) >= measure && !(k == 0 && first_is_use)) || !keep(&candidate)
            {
                continue;
            }
            attempts += 1;
            if let Seen::Shows(s, u) = ask(&candidate)? {
                best = candidate;
                shown = s;
                used = u;
                continue 'improve;
            }
        }
        break;
    }
    Ok(Shrunk {
        scenario: best,
        shown,
        attempts,
    })
}

/// Simpler scenarios, most promising first.
pub fn candidates(s: &Scenario) -> Vec<Scenario> {
    // A scenario at or beside the base, one level down, reads like a real
    // tree; links to the host's directories are given one of their own.
    let mut out: Vec<Scenario> = nested(s).into_iter().chain(rehomed(s)).collect();
    out.extend(shortcuts(s));
    out.extend(tree_candidates(s));
    for i in 0..s.roots.len() {
        let mut roots = s.roots.clone();
        roots.remove(i);
        out.push(Scenario { roots, ..s.clone() });
    }
    out.extend(renamed(s));
    out.extend(as_text(s));
    if let Some(case) = s.cases.first() {
        for path in simpler_paths(&case.path) {
            let mut t = s.clone();
            t.cases[0].path = path;
            out.push(t);
        }
    }
    for (i, root) in s.roots.iter().enumerate() {
        if let Some(plain) = plain_root(root) {
            let mut t = s.clone();
            t.roots[i] = plain;
            out.push(t);
        }
    }
    out.extend(shorter_names(s));
    out.extend(plainer_names(s));
    for (i, entry) in s.tree.iter().enumerate() {
        if let Entry::File {
            path,
            content: Some(_),
        } = entry
        {
            let mut t = s.clone();
            t.tree[i] = Entry::File {
                path: path.clone(),
                content: None,
            };
            out.push(t);
        }
    }
    out
}

/// A link `a -> b` where `b` is itself a link: `a` pointed straight at
/// `b`'s target and `b` dropped, so chains shrink one link at a time.
fn shortcuts(s: &Scenario) -> Vec<Scenario> {
    let mut out = Vec::new();
    for (i, a) in s.tree.iter().enumerate() {
        let Entry::Symlink {
            path: a_path,
            target: a_target,
        } = a
        else {
            continue;
        };
        for (j, b) in s.tree.iter().enumerate() {
            let Entry::Symlink {
                path: b_path,
                target: b_target,
            } = b
            else {
                continue;
            };
            let b_name = b_path.segments().last().unwrap_or_default();
            if i == j || a_target.segments().last() != Some(b_name) {
                continue;
            }
            let mut tree = s.tree.clone();
            tree[i] = Entry::Symlink {
                path: a_path.clone(),
                target: b_target.clone(),
            };
            tree.remove(j);
            if validate_tree(&tree).is_ok() {
                out.push(Scenario { tree, ..s.clone() });
            }
        }
    }
    out
}

/// Long or odd names (control characters and bytes that are not UTF-8
/// included) replaced everywhere by a short plain one. Roots hold text, so
/// only a UTF-8 name is replaced in them.
fn renamed(s: &Scenario) -> Vec<Scenario> {
    let mut names: Vec<&[u8]> = s
        .tree
        .iter()
        .flat_map(|e| e.path().segments())
        .filter(|n| n.len() > 8 || !n.iter().all(u8::is_ascii_alphanumeric))
        .collect();
    names.sort_unstable();
    names.dedup();
    let mut out = Vec::new();
    let taken = |short: &str| {
        s.tree
            .iter()
            .any(|e| e.path().segments().any(|n| n == short.as_bytes()))
    };
    let mut free = (0..).map(|k| format!("n{k}")).filter(|n| !taken(n));
    for name in &names {
        let Some(short) = free.next() else { break };
        let swap = |text: &PathBytes| text.replace(name, &short);
        let tree: Vec<Entry> = s.tree.iter().map(|e| e.map_paths(swap)).collect();
        if validate_tree(&tree).is_err() {
            continue;
        }
        let roots = match std::str::from_utf8(name) {
            Ok(text) => s.roots.iter().map(|r| r.replace(text, &short)).collect(),
            Err(_) => s.roots.clone(),
        };
        let mut t = Scenario {
            tree,
            roots,
            ..s.clone()
        };
        for case in &mut t.cases {
            case.path = swap(&case.path);
        }
        out.push(t);
    }
    out
}

/// A scenario that is not UTF-8 with every non-ASCII character (a UTF-8
/// sequence, or a run of bytes that is not UTF-8) made one `x` in every
/// tree path, link target, root and case path at once. One map keeps
/// which names are equal and which begin with which (`data\xc0\xae` stays
/// a sibling of `data`), the scenario becomes text, which the text
/// shrinkers and probing can take on, and it is never longer than before
/// by [`simplicity`]'s count (which counts such a run as one character).
fn as_text(s: &Scenario) -> Option<Scenario> {
    if s.is_utf8() {
        return None;
    }
    let plain = |p: &PathBytes| PathBytes::from(plain_bytes(p.as_bytes()));
    let tree: Vec<Entry> = s.tree.iter().map(|e| e.map_paths(plain)).collect();
    validate_tree(&tree).ok()?;
    let roots = s.roots.iter().map(|r| plain_escapes(r)).collect();
    let mut t = Scenario {
        tree,
        roots,
        ..s.clone()
    };
    for case in &mut t.cases {
        case.path = plain(&case.path);
    }
    Some(t)
}

/// `bytes` with each non-ASCII character, and each run of bytes that is
/// not UTF-8, made one `x`.
fn plain_bytes(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            out.push(if c.is_ascii() { c as u8 } else { b'x' });
        }
        if !chunk.invalid().is_empty() {
            out.push(b'x');
        }
    }
    out
}

/// A root URI whose escapes are made plain as [`plain_bytes`] makes the
/// tree's bytes (each run of `%XX` decoded, its non-ASCII characters made
/// `x`, its ASCII bytes escaped again): the root keeps naming the entry
/// it named. Raw characters are left as they are (a raw non-ASCII
/// character breaks a root-URI rule, which a shrink must keep).
fn plain_escapes(uri: &str) -> String {
    let bytes = uri.as_bytes();
    let escape_at = |i: usize| {
        (bytes.get(i) == Some(&b'%'))
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok())
    };
    let mut out = String::with_capacity(uri.len());
    let mut i = 0;
    while i < bytes.len() {
        let mut run = Vec::new();
        while let Some(b) = escape_at(i) {
            run.push(b);
            i += 3;
        }
        if !run.is_empty() {
            // An `x` is written as itself (`%78` and `x` name the same
            // byte); every other byte is escaped again as it was.
            for b in plain_bytes(&run) {
                if b == b'x' {
                    out.push('x');
                } else {
                    out.push_str(&format!("%{b:02X}"));
                }
            }
            continue;
        }
        let c = uri[i..].chars().next().expect("in bounds");
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// Every name of the scenario: components of tree paths, link targets and
/// the case path (after `{base}`), each once, longest first.
fn names(s: &Scenario) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut add = |text: &str| {
        for c in text.split('/') {
            if !matches!(c, "" | "." | ".." | BASE_PLACEHOLDER) && !names.iter().any(|n| n == c) {
                names.push(c.to_owned());
            }
        }
    };
    // Names are renamed as text ([`rename_component`] leaves a scenario
    // of other bytes alone); [`renamed`] handles those.
    for e in &s.tree {
        add(&e.path().to_string_lossy());
        if let Entry::Symlink { target, .. } = e {
            add(&target.to_string_lossy());
        }
    }
    for case in &s.cases {
        let path = case.path.to_string_lossy();
        add(path.strip_prefix(BASE_PLACEHOLDER).unwrap_or(&path));
    }
    names.sort_by_key(|n| std::cmp::Reverse(n.chars().count()));
    names
}

/// Each name but the roots' one character shorter (the last first),
/// renamed everywhere: `project／sub` becomes `project／su`, ... A root's
/// name stays, so the example keeps reading `project` and `project2`.
fn shorter_names(s: &Scenario) -> Vec<Scenario> {
    let mut out = Vec::new();
    let in_roots = |name: &str| s.roots.iter().any(|r| r.split('/').any(|c| c == name));
    for name in names(s) {
        let chars: Vec<char> = name.chars().collect();
        if chars.len() < 2 || in_roots(&name) {
            continue;
        }
        for drop in (0..chars.len()).rev() {
            let shorter: String = chars
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != drop)
                .map(|(_, c)| c)
                .collect();
            if matches!(shorter.as_str(), "." | "..") {
                continue;
            }
            out.extend(rename_component(s, &name, &shorter, true));
        }
    }
    out
}

/// Each name with its non-ASCII characters made plain (a fullwidth `ｐ`
/// becomes `p`, `é` becomes `e`, anything else `x`): all at once, then
/// one at a time; then each odd ASCII character (`,`, `!`, a space) a `2`.
fn plainer_names(s: &Scenario) -> Vec<Scenario> {
    let plain = |c: char| {
        c.to_string()
            .nfkd()
            .next()
            .filter(char::is_ascii_alphanumeric)
            .unwrap_or('x')
    };
    let mut out = Vec::new();
    for name in names(s) {
        let chars: Vec<char> = name.chars().collect();
        if !chars.iter().all(char::is_ascii) {
            let all: String = chars
                .iter()
                .map(|&c| if c.is_ascii() { c } else { plain(c) })
                .collect();
            out.extend(rename_component(s, &name, &all, true));
        }
        for (i, &c) in chars.iter().enumerate() {
            let plainer = if !c.is_ascii() {
                plain(c)
            } else if !c.is_ascii_alphanumeric() && !"._-".contains(c) {
                '2'
            } else {
                continue;
            };
            let mut one = chars.clone();
            one[i] = plainer;
            out.extend(rename_component(
                s,
                &name,
                &one.iter().collect::<String>(),
                true,
            ));
        }
    }
    out
}

/// Paths of more components than this lose runs of them, halves first.
const HALVED_FROM: usize = 16;

/// The path with one component fewer, or with empty and `.` components
/// gone, or (a long one) a run of components fewer.
fn simpler_paths(path: &PathBytes) -> Vec<PathBytes> {
    let (prefix, rest) = match path.strip_prefix(BASE_PLACEHOLDER) {
        Some(rest) => (BASE_PLACEHOLDER.as_bytes(), rest),
        None => (&b""[..], path.as_bytes()),
    };
    let parts: Vec<&[u8]> = rest.split(|&b| b == b'/').collect();
    let joined = |parts: &[&[u8]]| PathBytes::from(prefix).join(parts.join(&b'/'));
    let mut out = Vec::new();
    let tidy: Vec<&[u8]> = parts
        .iter()
        .enumerate()
        .filter(|(i, p)| *i == 0 || (!p.is_empty() && **p != b"."))
        .map(|(_, p)| *p)
        .collect();
    if tidy.len() < parts.len() {
        out.push(joined(&tidy));
    }
    // Halves, quarters, ... of the components first, so that a path of
    // thousands (a ladder's rung) shrinks in few attempts.
    let mut chunk = if parts.len() > HALVED_FROM {
        parts.len() / 2
    } else {
        0
    };
    while chunk >= 2 {
        for start in (1..parts.len()).step_by(chunk) {
            let mut fewer = parts.clone();
            fewer.drain(start..(start + chunk).min(parts.len()));
            if fewer.len() >= 2 {
                out.push(joined(&fewer));
            }
        }
        chunk /= 2;
    }
    for i in 1..parts.len() {
        if parts.len() <= 2 {
            break;
        }
        let mut fewer = parts.clone();
        fewer.remove(i);
        out.push(joined(&fewer));
    }
    out
}

/// The tree with entries fewer: halves, quarters, ... of it, then each
/// entry alone, then each entry made just the directory it implies.
fn tree_candidates(s: &Scenario) -> Vec<Scenario> {
    let mut out = Vec::new();
    // Halves, quarters, ... first, so big trees shrink in few attempts.
    let mut chunk = s.tree.len() / 2;
    while chunk >= 2 {
        for start in (0..s.tree.len()).step_by(chunk) {
            let mut tree = s.tree.clone();
            tree.drain(start..(start + chunk).min(tree.len()));
            if validate_tree(&tree).is_ok() {
                out.push(Scenario { tree, ..s.clone() });
            }
        }
        chunk /= 2;
    }
    for i in 0..s.tree.len() {
        let mut tree = s.tree.clone();
        tree.remove(i);
        if validate_tree(&tree).is_ok() {
            out.push(Scenario { tree, ..s.clone() });
        }
    }
    // An entry may matter only for the directory it implies: keep just that.
    for (i, entry) in s.tree.iter().enumerate() {
        if let Some(slash) = entry.path().as_bytes().iter().rposition(|&b| b == b'/') {
            let mut tree = s.tree.clone();
            tree[i] = Entry::Dir {
                path: entry.path().as_bytes()[..slash].into(),
            };
            if validate_tree(&tree).is_ok() {
                out.push(Scenario { tree, ..s.clone() });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn as_text_keeps_a_root_naming_what_it_named() {
        let s = Scenario {
            name: "t".into(),
            note: None,
            tree: vec![Entry::File {
                path: PathBytes::from(b"\"\xffproject2".to_vec()),
                content: None,
            }],
            roots: vec!["file://{base}/%22%FFproject2".into()],
            cases: vec![rootguard_judge::Case {
                path: PathBytes::from(b"{base}/\"\xffPROJECT2".to_vec()),
                op: rootguard_judge::Op::Write,
                expect: None,
            }],
        };
        let t = as_text(&s).expect("a text twin");
        assert_eq!(t.roots, ["file://{base}/%22xproject2"]);
        assert_eq!(t.tree[0].path().to_str(), Some("\"xproject2"));
        assert_eq!(t.cases[0].path.to_str(), Some("{base}/\"xPROJECT2"));
        assert_eq!(plain_escapes("file:///a%e9%2Fb%41é"), "file:///ax%2Fb%41é");
        // One character, one x, as the tree's bytes are made.
        assert_eq!(
            plain_escapes("file://{base}/p%E2%80%8B%FF%14"),
            "file://{base}/pxx%14"
        );
        assert_eq!(plain_bytes("p\u{200b}".as_bytes()), b"px");
        assert_eq!(plain_bytes(b"caf\xc3\xa9\xcc\x81%00\xe9"), b"cafxx%00x");
    }
    use rootguard_judge::{Case, Op};

    fn sibling(path: &str) -> Scenario {
        Scenario {
            name: "s".into(),
            note: None,
            tree: vec![Entry::Dir {
                path: "project".into(),
            }],
            roots: vec!["file://{base}/project".into()],
            cases: vec![Case {
                path: path.into(),
                op: Op::Write,
                expect: None,
            }],
        }
    }

    #[test]
    fn names_get_shorter_and_plainer() {
        let s = sibling("{base}/project／sub");
        let shorter: Vec<PathBytes> = shorter_names(&s)
            .iter()
            .map(|t| t.cases[0].path.clone())
            .collect();
        assert!(
            shorter.contains(&"{base}/project／su".into()),
            "{shorter:?}"
        );
        let plainer: Vec<PathBytes> = plainer_names(&s)
            .iter()
            .map(|t| t.cases[0].path.clone())
            .collect();
        assert_eq!(plainer, ["{base}/projectxsub", "{base}/projectxsub"]);
        let comma = sibling("{base}/project,");
        assert_eq!(plainer_names(&comma)[0].cases[0].path, "{base}/project2");
        let wide = sibling("{base}/ｐroj");
        assert_eq!(plainer_names(&wide)[0].cases[0].path, "{base}/proj");
        // The root's own name stays.
        assert!(shorter_names(&s).iter().all(|t| t.roots == s.roots));
        for t in shorter_names(&s).iter().chain(&plainer_names(&s)) {
            assert!(simplicity(t) < simplicity(&s));
        }
    }

    #[test]
    fn paths_get_simpler() {
        assert_eq!(
            simpler_paths(&"{base}/a/./b//c".into()),
            [
                "{base}/a/b/c",
                "{base}/./b//c",
                "{base}/a/b//c",
                "{base}/a/.//c",
                "{base}/a/./b/c",
                "{base}/a/./b/"
            ]
        );
        assert!(simpler_paths(&"{base}/a".into()).is_empty());
        assert_eq!(
            simpler_paths(&b"{base}/\xff/./\x01".to_vec().into()),
            [
                PathBytes::from(b"{base}/\xff/\x01".to_vec()),
                b"{base}/./\x01".to_vec().into(),
                b"{base}/\xff/\x01".to_vec().into(),
                b"{base}/\xff/.".to_vec().into()
            ]
        );
    }

    #[test]
    fn names_that_are_not_utf8_are_renamed_plain() {
        let s = Scenario {
            tree: vec![Entry::Dir {
                path: b"project\xff\n".to_vec().into(),
            }],
            ..sibling("")
        };
        let s = Scenario {
            cases: vec![Case {
                path: b"{base}/project\xff\n/x".to_vec().into(),
                op: Op::Read,
                expect: None,
            }],
            ..s
        };
        let t = renamed(&s);
        assert!(
            t.iter()
                .any(|t| t.cases[0].path == "{base}/n0/x" && t.roots == s.roots),
            "{t:?}"
        );
    }
}
