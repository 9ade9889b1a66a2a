//! A one-case scenario looked at closely: which [`Feature`]s it has, and
//! for each one a variant of the scenario without it.
//!
//! Everything is computed on the model oracle with a made-up base (so no
//! tree is made); the probe that asks a variant judges its truth again on a
//! real tree, so a variant built wrongly here is only ever inconclusive.
//! A variant changes as little as it can: a name keeps what it shares with
//! the root name it mimics (`project2` keeps `project`), and a root's own
//! components are never renamed.

use std::collections::BTreeSet;
use std::path::Path;

use rootguard_judge::oracle::{
    self, parse_root_uri, realpath, resolve_read, resolve_write, write_target, ModelFs, NodeKind,
    Outside,
};
use rootguard_judge::strategies::file_uri;
use rootguard_judge::{
    substitute_base, validate_tree, Entry, Op, PathBytes, Scenario, Truth, BASE_PLACEHOLDER,
};
use unicode_normalization::UnicodeNormalization;

use crate::feature::{Feature, RootRule, LONG_PATH, MANY_LINKS};

/// The made-up parent of the temp dir, the temp dir, and the base the model
/// lays trees out in, as a real run has them (`$TMPDIR/rootguard-XXXX/base`).
/// Every character is one a `file:` URI may hold unescaped.
const FAKE_TOP: &str = "/rootguard-probe";
const FAKE_TEMP: &str = "/rootguard-probe/tmp";
const FAKE_BASE: &str = "/rootguard-probe/tmp/base";

/// What is known of one root.
#[derive(Debug, Clone)]
struct RootFacts {
    parsed: Result<Vec<u8>, RootRule>,
    resolved: Option<Vec<u8>>,
}

/// A path walked on the model ([`Subject::walk_links`]).
struct LinkWalk {
    /// The path's `/`-separated parts, the base substituted.
    parts: Vec<String>,
    /// Each link it names: its index among `parts`, and the physical
    /// directory holding it.
    links: Vec<(usize, Vec<u8>)>,
    /// Where the walk ends: the physical path the links lead to, the rest
    /// of the path after them appended as it is.
    end: String,
    /// Whether the last component is a link that dangles (`end` is then
    /// where a write would create its target).
    dangling: bool,
}

/// A one-case scenario, judged on the model.
#[derive(Debug, Clone)]
pub struct Subject {
    scenario: Scenario,
    fs: Option<ModelFs>,
    path: Vec<u8>,
    op: Op,
    truth: Option<Truth>,
    target: Option<Vec<u8>>,
    lexical: Vec<u8>,
    /// Links the case's resolution follows.
    links: u32,
    roots: Vec<RootFacts>,
}

impl Subject {
    /// Looks at `scenario`'s first case (`{base}` form).
    pub fn new(scenario: &Scenario) -> Subject {
        let mut scenario = scenario.clone();
        scenario.cases.truncate(1);
        let fs = ModelFs::new(&scenario.tree, Path::new(FAKE_BASE), Outside::Host).ok();
        let (path, op) = match scenario.cases.first() {
            Some(case) => (
                case.path.replace(BASE_PLACEHOLDER, FAKE_BASE).into_bytes(),
                case.op,
            ),
            None => (Vec::new(), Op::Read),
        };
        let roots_text: Vec<String> = scenario
            .roots
            .iter()
            .map(|r| substitute_base(r, FAKE_BASE))
            .collect();
        let judgement = fs
            .as_ref()
            .filter(|_| !scenario.cases.is_empty())
            .map(|fs| oracle::judge(&roots_text, &path, op, fs));
        let roots = roots_text
            .iter()
            .map(|uri| {
                let parsed = parse_root_uri(uri).map_err(|e| RootRule::of(&e));
                let resolved = match (&parsed, &fs) {
                    (Ok(p), Some(fs)) => realpath(fs, p).outcome.ok(),
                    _ => None,
                };
                RootFacts { parsed, resolved }
            })
            .collect();
        let links = match (&fs, op) {
            (Some(fs), Op::Read) if !scenario.cases.is_empty() => resolve_read(fs, &path).links,
            (Some(fs), Op::Write) if !scenario.cases.is_empty() => resolve_write(fs, &path).links,
            _ => 0,
        };
        Subject {
            lexical: lexical(&path),
            links,
            truth: judgement.as_ref().map(|j| j.truth),
            target: judgement
                .and_then(|j| j.target.map(|t| t.into_os_string().into_encoded_bytes())),
            fs,
            path,
            op,
            roots,
            scenario,
        }
    }

    /// The scenario looked at.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The truth on the model, when the tree could be laid out.
    pub fn truth(&self) -> Option<Truth> {
        self.truth
    }

    /// The target in `{base}` form (`{base}/../x` beside the base), when
    /// it has one that can be written so.
    pub fn target(&self) -> Option<String> {
        self.target.as_deref().and_then(unsubstitute)
    }

    /// Whether the roots and the target lie beneath the base (not at it,
    /// not above or beside it; a case without a target does not).
    pub fn lies_in_base(&self) -> bool {
        self.roots
            .iter()
            .all(|r| r.parsed.as_ref().is_ok_and(|p| within_base(p).is_some()))
            && self
                .target
                .as_deref()
                .is_some_and(|t| within_base(t).is_some())
    }

    /// The features the scenario has, sorted.
    pub fn present(&self) -> Vec<Feature> {
        let mut out = BTreeSet::new();
        let mut usable = false;
        for (i, root) in self.roots.iter().enumerate() {
            match (&root.parsed, &root.resolved) {
                (Err(rule), _) => {
                    out.insert(Feature::RootUri(*rule));
                }
                (Ok(_), None) => {
                    out.insert(Feature::RootUnresolvable);
                }
                (Ok(parsed), Some(resolved)) => {
                    usable = true;
                    if parsed != resolved {
                        out.insert(Feature::RootThroughLink);
                    }
                }
            }
            if root.parsed.is_ok() && double_encoded(&self.scenario.roots[i]).is_some() {
                out.insert(Feature::RootDoubleEncoded);
            }
        }
        if self.trimmed_root_name().is_some() {
            out.insert(Feature::RootTrimmableEdge);
        }
        if self.respelled_root().is_some() {
            out.insert(Feature::RootRespelled);
        }
        if !usable {
            out.insert(Feature::NoUsableRoot);
        }
        if self.scenario.cases.is_empty() {
            return out.into_iter().collect();
        }
        out.extend(Feature::all().into_iter().filter(|f| self.has(*f)));
        out.into_iter().collect()
    }

    /// A variant of the scenario without `feature`, when one can be made.
    pub fn without(&self, feature: Feature) -> Option<Scenario> {
        let s = &self.scenario;
        if !s.is_utf8() {
            return None;
        }
        let variant = match feature {
            Feature::RootUri(rule) => {
                let i = self.roots.iter().position(|r| r.parsed == Err(rule))?;
                drop_root(s, i)
            }
            Feature::RootUnresolvable => {
                let i = self
                    .roots
                    .iter()
                    .position(|r| r.parsed.is_ok() && r.resolved.is_none())?;
                drop_root(s, i)
            }
            Feature::RootRespelled => {
                let (i, plain) = self.respelled_root()?;
                let mut t = s.clone();
                t.roots[i] = plain;
                t
            }
            Feature::RootDoubleEncoded => self.without_double_encoding()?,
            Feature::RootThroughLink => {
                let i = self
                    .roots
                    .iter()
                    .position(|r| match (&r.parsed, &r.resolved) {
                        (Ok(p), Some(q)) => p != q,
                        _ => false,
                    })?;
                let mut t = s.clone();
                t.roots[i] = uri_in_base_form(self.roots[i].resolved.as_deref()?)?;
                t
            }
            Feature::NoUsableRoot => {
                let name = fresh_name(s, "rg-root");
                let mut t = s.clone();
                t.tree.push(Entry::Dir {
                    path: name.clone().into(),
                });
                t.roots.push(format!("file://{BASE_PLACEHOLDER}/{name}"));
                t
            }
            Feature::Backslash => self.rename_each(NameEdit::Backslash)?,
            Feature::PatternChar => self.rename_each(NameEdit::Pattern)?,
            Feature::PercentEscape => self.rename_each(NameEdit::Percent)?,
            Feature::TrimmableEdge => self.rename_each(NameEdit::Edge)?,
            Feature::TrailingDot => self.rename_each(NameEdit::TrailingDot)?,
            Feature::UnicodeFold => self.rename_each(NameEdit::Unicode)?,
            Feature::CaseVariant => {
                let (name, twin) = self.case_twin()?;
                rename_component(s, &name, &unfold_case(&name, &twin), false)?
            }
            Feature::SiblingPrefix => {
                let (sibling, root_name) = self.sibling()?;
                let other = if root_name.starts_with('o') {
                    "xther"
                } else {
                    "other"
                };
                let renamed = format!("{other}{}", &sibling[root_name.len()..]);
                rename_component(s, &sibling, &renamed, false)?
            }
            Feature::DotName => self.without_dot_name()?,
            Feature::LongPath => self.without_padding()?,
            Feature::DotDot => self.without_every_dotdot()?,
            Feature::RootTrimmableEdge => self.without_trimmed_root()?,
            Feature::Link => self.without_links()?,
            Feature::LinkChain => self.without_chains()?,
            Feature::ManyLinks => self.without_many_links()?,
            Feature::FinalLink => self.without_final_link()?,
            Feature::NewTarget => {
                let rel = within_base(self.target.as_deref()?)?;
                let mut t = s.clone();
                t.tree.push(Entry::File {
                    path: rel.into(),
                    content: None,
                });
                t
            }
            _ => return None,
        };
        let moves_links = matches!(
            feature,
            Feature::DotName
                | Feature::DotDot
                | Feature::LinkChain
                | Feature::ManyLinks
                | Feature::FinalLink
                | Feature::NewTarget
        );
        let valid = validate_tree(&variant.tree).is_ok()
            && variant != *s
            && (!moves_links || self.roots_kept(&variant));
        valid.then_some(variant)
    }

    /// A root whose last name begins or ends with whitespace or a quote,
    /// renamed (in the tree, path and root) so that it does not.
    /// A double-encoded root's names without their `%` (made `_`, in the
    /// tree, path and root alike), so that no decoding, once or twice,
    /// finds an escape in them.
    fn without_double_encoding(&self) -> Option<Scenario> {
        let i = (0..self.roots.len()).find(|&i| {
            self.roots[i].parsed.is_ok() && double_encoded(&self.scenario.roots[i]).is_some()
        })?;
        let parsed = self.roots[i].parsed.as_ref().ok()?;
        let mut t = self.scenario.clone();
        for part in std::str::from_utf8(parsed).ok()?.split('/') {
            if !part.contains('%') {
                continue;
            }
            let plain = part.replace('%', "_");
            t = self.rename_everywhere(&t, part, &plain)?;
            for c in self.components() {
                // A sibling that begins with the root's name keeps beginning with it.
                if let Some(rest) = c.strip_prefix(part).filter(|r| !r.is_empty()) {
                    t = rename_component(&t, &c, &format!("{plain}{rest}"), false).unwrap_or(t);
                } else if c != part && folded(&c) == folded(part) {
                    // A look-alike of the root's name (`x％2e` for `x%2e`)
                    // stays one of the new name, so that a checker folding
                    // names still sees what it saw: the `%` only had to be
                    // there because the root's name holds it.
                    let twin: String = c
                        .chars()
                        .map(|ch| match fold_char(ch).as_str() {
                            "%" if ch == '%' => '_',
                            "%" => '\u{ff3f}',
                            _ => ch,
                        })
                        .collect();
                    t = rename_component(&t, &c, &twin, false).unwrap_or(t);
                }
            }
        }
        (t != self.scenario).then_some(t)
    }

    /// The last name of a valid root whose URI text begins or ends with
    /// whitespace or a quote (what a checker trimming URIs takes away).
    fn trimmed_root_name(&self) -> Option<String> {
        self.roots.iter().enumerate().find_map(|(i, r)| {
            let uri = &self.scenario.roots[i];
            let edge = uri.starts_with(is_trimmable) || uri.ends_with(is_trimmable);
            let parsed = r.parsed.as_ref().ok().filter(|_| edge)?;
            let name = std::str::from_utf8(parsed).ok()?.rsplit('/').next()?;
            (name.starts_with(is_trimmable) || name.ends_with(is_trimmable))
                .then(|| name.to_owned())
        })
    }

    /// The root's name without its trimmable edge, in the tree, path and
    /// root, and likewise each case twin of it the path names (`X'` for
    /// `x'`), so that other flaws still see what they saw.
    fn without_trimmed_root(&self) -> Option<Scenario> {
        let name = self.trimmed_root_name()?;
        let plain = |n: &str| {
            NameEdit::Edge
                .apply(n, &[])
                .and_then(|v| v.into_iter().next())
        };
        let mut t = self.rename_everywhere(&self.scenario, &name, &plain(&name)?)?;
        for c in self.components() {
            if c != name && c.to_lowercase() == name.to_lowercase() {
                t = rename_component(&t, &c, &plain(&c)?, false).unwrap_or(t);
            }
        }
        Some(t)
    }

    fn has(&self, feature: Feature) -> bool {
        match feature {
            Feature::Backslash => self.edits(NameEdit::Backslash),
            Feature::PatternChar => self.edits(NameEdit::Pattern),
            Feature::PercentEscape => self.edits(NameEdit::Percent),
            Feature::TrimmableEdge => self.edits(NameEdit::Edge),
            Feature::TrailingDot => self.edits(NameEdit::TrailingDot),
            Feature::UnicodeFold => self.edits(NameEdit::Unicode),
            Feature::CaseVariant => self.case_twin().is_some(),
            Feature::SiblingPrefix => self.sibling().is_some(),
            Feature::LongPath => self
                .scenario
                .cases
                .first()
                .is_some_and(|c| c.path.segments().count() > LONG_PATH),
            Feature::DotName => {
                let p = &self.path;
                p.ends_with(b"/") || p.ends_with(b"/.") || p.ends_with(b"/..")
            }
            Feature::DotDot => self
                .scenario
                .cases
                .first()
                .is_some_and(|c| c.path.segments().any(|p| p == b"..")),
            // Links on the host count too (`/proc/self/root`).
            Feature::Link => self.target.as_ref().is_some_and(|t| *t != self.lexical),
            Feature::LinkChain => !self.chained_links().is_empty(),
            Feature::ManyLinks => self.links > MANY_LINKS,
            Feature::FinalLink => self.final_link().is_some(),
            Feature::NewTarget => {
                self.op == Op::Write
                    && matches!(
                        (&self.fs, &self.target),
                        (Some(fs), Some(t)) if fs.lookup(t) == Ok(None)
                    )
            }
            _ => false,
        }
    }

    /// The case path's components, `{base}` alone and dot segments left out
    /// (a name beside the base, `{base}x`, is one).
    fn components(&self) -> Vec<String> {
        let Some(case) = self.scenario.cases.first() else {
            return Vec::new();
        };
        case.path
            .to_string_lossy()
            .split('/')
            .filter(|c| !matches!(*c, "" | "." | ".." | BASE_PLACEHOLDER))
            .map(str::to_owned)
            .collect()
    }

    /// The roots' last names, and `{base}`: the names a hostile name mimics.
    fn root_names(&self) -> Vec<String> {
        let mut out = vec![BASE_PLACEHOLDER.to_owned()];
        for root in &self.roots {
            for path in [root.parsed.as_ref().ok(), root.resolved.as_ref()]
                .into_iter()
                .flatten()
            {
                let name = std::str::from_utf8(path)
                    .ok()
                    .and_then(|p| p.rsplit('/').next());
                if let Some(name) = name.filter(|n| !n.is_empty()) {
                    if !out.iter().any(|o| o == name) {
                        out.push(name.to_owned());
                    }
                }
            }
        }
        out
    }

    /// Which characters of `name` a variant must keep: those it shares,
    /// place for place, with the root name it mimics (one beginning with
    /// the same letter, case and width aside): `project2` keeps `project`,
    /// `A..` keeps `..` of `a..`.
    fn protected(&self, name: &str) -> Vec<bool> {
        let chars: Vec<char> = name.chars().collect();
        let first = |s: &str| s.chars().next().map(fold_char);
        let mut best = vec![false; chars.len()];
        let mut best_count = 0;
        for root in self.root_names() {
            if first(&root) != first(name) {
                continue;
            }
            let shared: Vec<bool> = chars
                .iter()
                .zip(root.chars().map(Some).chain(std::iter::repeat(None)))
                .map(|(c, r)| Some(*c) == r)
                .collect();
            let count = shared.iter().filter(|s| **s).count();
            if count > best_count {
                best_count = count;
                best = shared;
            }
        }
        best
    }

    /// Whether `name` is a component of a root's path (a variant leaves it be).
    fn is_root_component(&self, name: &str) -> bool {
        self.roots.iter().any(|r| {
            [r.parsed.as_ref().ok(), r.resolved.as_ref()]
                .into_iter()
                .flatten()
                .any(|p| p.split(|&b| b == b'/').any(|c| c == name.as_bytes()))
        })
    }

    /// `name` edited by `edit` where it does not mimic a root name (a
    /// root's own name is edited whole); `None` when nothing changes.
    fn edited(&self, name: &str, edit: NameEdit) -> Option<Vec<String>> {
        let protected = if self.is_root_component(name) {
            Vec::new()
        } else {
            self.protected(name)
        };
        edit.apply(name, &protected)
    }

    fn edits(&self, edit: NameEdit) -> bool {
        self.editable(edit)
            .iter()
            .any(|c| self.edited(c, edit).is_some())
    }

    /// The components `edit` may rename: all of them, but for the edge of
    /// a root's last name whose URI text carries that edge too
    /// (`file://{base}/x'` and the path `{base}/x'/n`). Renaming it is
    /// exactly the variant without the root's trimmable edge, so the
    /// feature is the root's alone; counting it for the path as well would
    /// let a checker that trims its root URIs be named for trimming paths.
    fn editable(&self, edit: NameEdit) -> Vec<String> {
        let root = match edit {
            NameEdit::Edge => self.trimmed_root_name(),
            _ => None,
        };
        let mut out = self.components();
        out.retain(|c| Some(c) != root.as_ref());
        out
    }

    /// Every component `edit` changes, renamed in the tree, the path and
    /// the roots (re-spelled from their renamed paths).
    fn rename_each(&self, edit: NameEdit) -> Option<Scenario> {
        let mut out = self.scenario.clone();
        let mut changed = false;
        let mut seen = BTreeSet::new();
        for c in self.editable(edit) {
            if !seen.insert(c.clone()) {
                continue;
            }
            // The edit's spellings in turn, until one is free.
            for to in self.edited(&c, edit).unwrap_or_default() {
                let renamed = self
                    .rename_everywhere(&out, &c, &to)
                    .filter(|t| validate_tree(&t.tree).is_ok());
                if let Some(t) = renamed {
                    out = t;
                    changed = true;
                    break;
                }
            }
        }
        changed.then_some(out)
    }

    /// [`rename_component`] in the tree and path, and in every root of `s`
    /// whose path holds the component, that root spelled plainly from the
    /// new path. The roots are read from `s` (not from this subject), so
    /// that renames made one after another all stay.
    fn rename_everywhere(&self, s: &Scenario, from: &str, to: &str) -> Option<Scenario> {
        let taken = s
            .tree
            .iter()
            .any(|e| e.path().segments().any(|c| c == to.as_bytes()));
        if taken || from == to || matches!(to, "" | "." | "..") || to.contains('/') {
            return None;
        }
        let mut t = rename_component(s, from, to, false).unwrap_or_else(|| s.clone());
        for (i, uri) in s.roots.iter().enumerate() {
            let Ok(parsed) = parse_root_uri(&substitute_base(uri, FAKE_BASE)) else {
                continue;
            };
            let parts: Vec<&[u8]> = parsed.split(|&b| b == b'/').collect();
            if !parts.contains(&from.as_bytes()) {
                continue;
            }
            let renamed: Vec<&[u8]> = parts
                .iter()
                .map(|p| {
                    if *p == from.as_bytes() {
                        to.as_bytes()
                    } else {
                        p
                    }
                })
                .collect();
            t.roots[i] = uri_in_base_form(&renamed.join(&b'/'))?;
        }
        (t != *s).then_some(t)
    }

    /// Whether `variant`'s roots resolve where this scenario's do.
    fn roots_kept(&self, variant: &Scenario) -> bool {
        let other = Subject::new(variant);
        self.roots.len() == other.roots.len()
            && self
                .roots
                .iter()
                .zip(&other.roots)
                .all(|(a, b)| a.resolved == b.resolved)
    }

    /// A new link beside the link at `rel` (so the tree's own links, and
    /// the roots through them, stay as they are), pointing at `to`.
    fn new_link_beside(&self, t: &mut Scenario, rel: &str, to: &[u8]) -> Option<String> {
        let dir = rel.rsplit_once('/').map(|(d, _)| d);
        let name = fresh_name(t, "rg-link");
        let path = match dir {
            Some(d) => format!("{d}/{name}"),
            None => name,
        };
        t.tree.push(Entry::Symlink {
            path: path.clone().into(),
            target: unsubstitute(to)?.into(),
        });
        Some(path)
    }

    /// A valid root spelled otherwise than plainly, with the plain spelling.
    fn respelled_root(&self) -> Option<(usize, String)> {
        self.scenario
            .roots
            .iter()
            .enumerate()
            .find_map(|(i, r)| plain_root(r).map(|plain| (i, plain)))
    }

    /// A name of the path or target that has a case twin (a root's
    /// component at the same depth, or a neighbour in the tree), with it.
    fn case_twin(&self) -> Option<(String, String)> {
        let root_parts: Vec<Vec<String>> = self
            .roots
            .iter()
            .filter_map(|r| r.parsed.as_ref().ok())
            .filter_map(|p| within_base(p))
            .map(|p| split(&p))
            .collect();
        let mut names: Vec<Vec<String>> = vec![self.components()];
        if let Some(t) = self.target.as_deref().and_then(within_base) {
            names.push(split(&t));
        }
        let is_root_part = |n: &str| root_parts.iter().any(|r| r.iter().any(|p| p == n));
        for parts in &names {
            for (depth, name) in parts.iter().enumerate() {
                if is_root_part(name) {
                    continue;
                }
                let twin_of =
                    |other: &str| other != name && other.to_lowercase() == name.to_lowercase();
                let from_roots = root_parts
                    .iter()
                    .filter_map(|r| r.get(depth))
                    .find(|r| twin_of(r));
                let parent = parts[..depth].join("/");
                let from_tree = self.scenario.tree.iter().find_map(|e| {
                    let path = e.path().to_str()?;
                    let (dir, last) = match path.rsplit_once('/') {
                        Some((d, l)) => (d, l),
                        None => ("", path),
                    };
                    (dir == parent && twin_of(last)).then(|| last.to_owned())
                });
                if let Some(twin) = from_roots.cloned().or(from_tree) {
                    return Some((name.clone(), twin));
                }
            }
        }
        None
    }

    /// The component of the target that begins with a root's last name
    /// without being it, and that name.
    fn sibling(&self) -> Option<(String, String)> {
        let target = self.target.as_deref()?;
        self.roots.iter().find_map(|r| {
            let root = r
                .resolved
                .as_deref()
                .or(r.parsed.as_ref().ok().map(Vec::as_slice))?;
            if root == b"/" || target.len() <= root.len() || !target.starts_with(root) {
                return None;
            }
            if target[root.len()] == b'/' {
                return None;
            }
            let start = root.iter().rposition(|&b| b == b'/')? + 1;
            let end = target[start..]
                .iter()
                .position(|&b| b == b'/')
                .map_or(target.len(), |e| start + e);
            let sibling = String::from_utf8(target[start..end].to_vec()).ok()?;
            let name = String::from_utf8(root[start..].to_vec()).ok()?;
            sibling
                .is_char_boundary(name.len())
                .then_some((sibling, name))
        })
    }

    /// The path without a trailing `/`, `/.` or `/..`.
    fn without_dot_name(&self) -> Option<Scenario> {
        let case = self.scenario.cases.first()?;
        let case_path = case.path.to_str()?;
        let mut t = self.scenario.clone();
        if case_path.ends_with("/..") {
            return self.without_dotdot(true);
        }
        let trimmed = case_path
            .strip_suffix("/.")
            .unwrap_or(case_path)
            .trim_end_matches('/');
        if trimmed.is_empty() {
            return None;
        }
        t.cases[0].path = trimmed.into();
        Some(t)
    }

    /// The path with its padding dropped: every `.` component but a last
    /// one, and every `d/..` whose `d` is a directory (not a link, so that
    /// `..` comes straight back): the same target by a shorter path, when
    /// that leaves it no longer long.
    fn without_padding(&self) -> Option<Scenario> {
        let fs = self.fs.as_ref()?;
        let case = self.scenario.cases.first()?;
        let text = case.path.to_str()?;
        let all: Vec<&str> = text.split('/').collect();
        let last = all.len() - 1;
        let mut parts: Vec<&str> = all
            .iter()
            .enumerate()
            .filter(|&(i, p)| *p != "." || i == last)
            .map(|(_, p)| *p)
            .collect();
        let is_dir = |before: &[&str], name: &str| {
            let joined = substitute_base(&before.join("/"), FAKE_BASE);
            let parent = if joined.is_empty() { "/" } else { &joined };
            realpath(fs, parent.as_bytes()).outcome.is_ok_and(|p| {
                let at = [p.as_slice(), b"/", name.as_bytes()].concat();
                matches!(fs.lookup(&at), Ok(Some(NodeKind::Dir)))
            })
        };
        while let Some(k) = (1..parts.len().saturating_sub(1)).find(|&k| {
            !matches!(parts[k], "" | "." | "..")
                && parts[k + 1] == ".."
                && is_dir(&parts[..k], parts[k])
        }) {
            parts.drain(k..=k + 1);
        }
        let shorter = PathBytes::from(parts.join("/"));
        if shorter.segments().count() > LONG_PATH || shorter == case.path {
            return None;
        }
        let mut t = self.scenario.clone();
        t.cases[0].path = shorter;
        Some(t)
    }

    /// The path without any `..`, taken away one at a time.
    fn without_every_dotdot(&self) -> Option<Scenario> {
        let mut t = self.without_dotdot(false)?;
        for _ in 0..8 {
            match Subject::new(&t).without_dotdot(false) {
                Some(next) => t = next,
                None => break,
            }
        }
        let left = t
            .cases
            .first()
            .is_some_and(|c| c.path.segments().any(|p| p == b".."));
        (!left).then_some(t)
    }

    /// The path without its first (or, with `last`, its last) `..`: `c/..`
    /// dropped, or, when `c` is a link, `c/..` replaced by a new link beside
    /// it to its target's parent.
    fn without_dotdot(&self, last: bool) -> Option<Scenario> {
        let case = self.scenario.cases.first()?;
        let parts: Vec<&str> = case.path.to_str()?.split('/').collect();
        let i = if last {
            parts.iter().rposition(|p| *p == "..")?
        } else {
            parts.iter().position(|p| *p == "..")?
        };
        let before = *parts.get(i.checked_sub(1)?)?;
        if i < 2 || matches!(before, "" | "." | ".." | BASE_PLACEHOLDER) {
            return None;
        }
        let prefix = parts[..i].join("/");
        let mut t = self.scenario.clone();
        let link = prefix
            .strip_prefix(&format!("{BASE_PLACEHOLDER}/"))
            .and_then(|rel| {
                t.tree
                    .iter()
                    .position(|e| matches!(e, Entry::Symlink { path, .. } if path == rel))
            });
        let new_path;
        let kept: Vec<&str> = match link {
            Some(index) => {
                let fs = self.fs.as_ref()?;
                let up = format!("{}/..", substitute_base(&prefix, FAKE_BASE));
                let parent = realpath(fs, up.as_bytes()).outcome.ok()?;
                let rel = t.tree[index].path().to_str()?.to_owned();
                new_path = self.new_link_beside(&mut t, &rel, &parent)?;
                let name = new_path.rsplit('/').next().unwrap_or(&new_path);
                parts[..i - 1]
                    .iter()
                    .copied()
                    .chain(std::iter::once(name))
                    .chain(parts[i + 1..].iter().copied())
                    .collect()
            }
            None => parts[..i - 1]
                .iter()
                .chain(&parts[i + 1..])
                .copied()
                .collect(),
        };
        t.cases[0].path = kept.join("/").into();
        Some(t)
    }

    /// The path walked one component at a time on the model, each link it
    /// names followed: `None` when a link on the way does not resolve.
    fn walk_links(&self) -> Option<LinkWalk> {
        let fs = self.fs.as_ref()?;
        let case = self.scenario.cases.first()?;
        let path = substitute_base(case.path.to_str()?, FAKE_BASE);
        let parts: Vec<String> = path.split('/').map(str::to_owned).collect();
        let mut current = String::new();
        let mut links = Vec::new();
        let mut dangling = false;
        for (i, part) in parts.iter().enumerate().skip(1) {
            if matches!(part.as_str(), "" | "." | "..") {
                current.push('/');
                current.push_str(part);
                continue;
            }
            let here = if current.is_empty() {
                "/"
            } else {
                current.as_str()
            };
            let parent = realpath(fs, here.as_bytes()).outcome.ok()?;
            let at = [parent.as_slice(), b"/", part.as_bytes()].concat();
            if !matches!(fs.lookup(&at), Ok(Some(NodeKind::Symlink(_)))) {
                current.push('/');
                current.push_str(part);
                continue;
            }
            links.push((i, parent));
            // A dangling final link leads where a write would create its target.
            let led = match realpath(fs, &at).outcome {
                Ok(led) => led,
                Err(_) if i + 1 == parts.len() => {
                    dangling = true;
                    write_target(fs, &at).ok()?
                }
                Err(_) => return None,
            };
            current = String::from_utf8(led).ok()?;
            if current == "/" {
                current.clear();
            }
        }
        Some(LinkWalk {
            parts,
            links,
            end: if current.is_empty() {
                "/".to_owned()
            } else {
                current
            },
            dangling,
        })
    }

    /// The path with every link on its way replaced by where it leads,
    /// the rest kept as it is: `{base}/p/l/../x`, `l -> ../out/d`, becomes
    /// `{base}/out/d/../x`.
    fn without_links(&self) -> Option<Scenario> {
        let walk = self.walk_links()?;
        if walk.links.is_empty() || (walk.dangling && self.op != Op::Write) {
            return None;
        }
        let mut t = self.scenario.clone();
        t.cases[0].path = unsubstitute(walk.end.as_bytes())?.into();
        Some(t)
    }

    /// The same target by a path that follows one link, where this one
    /// follows many: each chain cut short (every link pointed straight at
    /// where its chain ends), then the path up to the last link it names
    /// replaced by where that leads. The last link, and whatever follows it
    /// (`..`, the final name), stay.
    fn without_many_links(&self) -> Option<Scenario> {
        let mut t = if self.chained_links().is_empty() {
            self.scenario.clone()
        } else {
            self.without_chains()?
        };
        if Subject::new(&t).links > MANY_LINKS {
            t = Subject::new(&t).through_last_link_only()?;
        }
        let links = Subject::new(&t).links;
        ((1..=MANY_LINKS).contains(&links)).then_some(t)
    }

    /// The path with everything before the last link it names replaced by
    /// the physical directory that holds that link: `{base}/p/l/l/l/..`
    /// (`l -> .`) becomes `{base}/p/l/..`.
    fn through_last_link_only(&self) -> Option<Scenario> {
        let walk = self.walk_links()?;
        let (i, parent) = walk.links.last()?;
        let parent: &[u8] = if parent == b"/" { b"" } else { parent };
        let rest = walk.parts[*i..].join("/");
        let mut t = self.scenario.clone();
        t.cases[0].path = format!("{}/{rest}", unsubstitute(parent)?).into();
        (t != self.scenario).then_some(t)
    }

    /// Links whose target (read lexically, one component at a time) goes
    /// through another link of the tree.
    fn chained_links(&self) -> Vec<usize> {
        let links: Vec<(usize, Vec<u8>, String)> = self
            .scenario
            .tree
            .iter()
            .enumerate()
            .filter_map(|(i, e)| match e {
                Entry::Symlink { path, target } => Some((
                    i,
                    PathBytes::from(FAKE_BASE)
                        .join(b"/")
                        .join(path)
                        .into_bytes(),
                    target
                        .replace(BASE_PLACEHOLDER, FAKE_BASE)
                        .to_string_lossy(),
                )),
                _ => None,
            })
            .collect();
        let is_link = |p: &[u8]| links.iter().any(|(_, at, _)| at == p);
        links
            .iter()
            .filter(|(_, at, target)| {
                let mut walk: Vec<Vec<u8>> = if target.starts_with('/') {
                    Vec::new()
                } else {
                    let dir = &at[..at.iter().rposition(|&b| b == b'/').unwrap_or(0)];
                    dir.split(|&b| b == b'/')
                        .filter(|c| !c.is_empty())
                        .map(<[u8]>::to_vec)
                        .collect()
                };
                for part in target.split('/') {
                    match part {
                        "" | "." => {}
                        ".." => {
                            walk.pop();
                        }
                        name => {
                            walk.push(name.as_bytes().to_vec());
                            if is_link(&[b"/".as_slice(), &walk.join(&b'/')].concat()) {
                                return true;
                            }
                        }
                    }
                }
                false
            })
            .map(|(i, _, _)| *i)
            .collect()
    }

    /// Each chaining link pointed straight at where its chain ends.
    fn without_chains(&self) -> Option<Scenario> {
        let fs = self.fs.as_ref()?;
        let mut t = self.scenario.clone();
        for index in self.chained_links() {
            let path = t.tree[index].path().clone();
            let at = PathBytes::from(FAKE_BASE).join(b"/").join(&path);
            let end = realpath(fs, at.as_bytes())
                .outcome
                .or_else(|_| write_target(fs, at.as_bytes()))
                .ok()?;
            t.tree[index] = Entry::Symlink {
                path,
                target: unsubstitute(&end)?.into(),
            };
        }
        Some(t)
    }

    /// The link the path names as its last component.
    fn final_link(&self) -> Option<usize> {
        if self.path.ends_with(b"/") {
            return None;
        }
        self.scenario.tree.iter().position(|e| {
            matches!(e, Entry::Symlink { path, .. } if PathBytes::from(FAKE_BASE).join(b"/").join(path) == self.lexical.as_slice())
        })
    }

    fn without_final_link(&self) -> Option<Scenario> {
        let index = self.final_link()?;
        let target = self.target.as_deref()?;
        let cut = target.iter().rposition(|&b| b == b'/')?;
        let (dir, name) = (&target[..cut.max(1)], &target[cut + 1..]);
        // The target's name must be the one a real run has: not the made-up
        // temp dir's or its parent's.
        let made_up = [FAKE_TOP.as_bytes(), FAKE_TEMP.as_bytes()].contains(&target);
        if name.is_empty() || made_up {
            return None;
        }
        let name = std::str::from_utf8(name).ok()?;
        let mut t = self.scenario.clone();
        let rel = t.tree[index].path().to_str()?.to_owned();
        let link = self.new_link_beside(&mut t, &rel, dir)?;
        t.cases[0].path = format!("{BASE_PLACEHOLDER}/{link}/{name}").into();
        Some(t)
    }
}

/// `scenario` one level deeper: everything beneath a new directory of
/// the base, so that what was the base is `{base}/w`, the temp dir beside
/// it is the base, and so on up (host paths stay). A scenario whose roots
/// or target are at or beside the base becomes one that reads like a real
/// tree; `None` for one that already lies in the base.
///
/// # Examples
///
/// ```
/// use rootguard_judge::{Case, Entry, Op, Scenario};
/// use rootguard_triage::nested;
///
/// let s = Scenario {
///     name: String::new(), note: None,
///     tree: vec![Entry::Symlink { path: "d".into(), target: "../x".into() }],
///     roots: vec!["file://{base}".into()],
///     cases: vec![Case { path: "{base}/d".into(), op: Op::Write, expect: None }],
/// };
/// let t = nested(&s).unwrap();
/// assert_eq!(t.roots, ["file://{base}/w"]);
/// assert_eq!(t.tree, [Entry::Symlink { path: "w/d".into(), target: "../x".into() }]);
/// assert_eq!(t.cases[0].path, "{base}/w/d");
/// ```
pub fn nested(scenario: &Scenario) -> Option<Scenario> {
    if !scenario.is_utf8() || Subject::new(scenario).lies_in_base() {
        return None;
    }
    // A link that climbs out needs as many levels as it climbs.
    let mut t = scenario.clone();
    let mut dirs: Vec<String> = Vec::new();
    for _ in 0..6 {
        let dir = fresh_name(&t, if dirs.is_empty() { "w" } else { "v" });
        t = nest_once(&t, &dir)?;
        dirs.push(dir);
        if Subject::new(&t).lies_in_base() {
            return Some(t);
        }
    }
    None
}

/// `scenario` with every link to a directory on the host (`/`, `/etc/`)
/// pointed at a new directory in the base instead (nested first when a
/// root is the base itself, so that the new directory lies outside it):
/// the same escape, on a tree every variant can be made of. `None` when
/// there is no such link, or the result does not lie in the base.
///
/// # Examples
///
/// ```
/// use rootguard_judge::{Case, Entry, Op, Scenario};
/// use rootguard_triage::rehomed;
///
/// let s = Scenario {
///     name: String::new(), note: None,
///     tree: vec![Entry::Symlink { path: "k".into(), target: "/".into() }],
///     roots: vec!["file://{base}".into()],
///     cases: vec![Case { path: "{base}/k/n".into(), op: Op::Write, expect: None }],
/// };
/// let t = rehomed(&s).unwrap();
/// assert_eq!(t.roots, ["file://{base}/w"]);
/// assert!(t.tree.contains(&Entry::Symlink { path: "w/k".into(), target: "{base}/h/".into() }));
/// assert_eq!(t.cases[0].path, "{base}/w/k/n");
/// ```
pub fn rehomed(scenario: &Scenario) -> Option<Scenario> {
    if !scenario.is_utf8() {
        return None;
    }
    let subject = Subject::new(scenario);
    let fs = subject.fs.as_ref()?;
    // A host directory, or a host link to one (`/proc/self/root`).
    let host_dir = |target: &str| {
        let at = lexical(target.as_bytes());
        target.starts_with('/')
            && match fs.lookup(&at) {
                Ok(Some(NodeKind::Dir)) => true,
                Ok(Some(NodeKind::Symlink(_))) => {
                    std::fs::metadata(target).is_ok_and(|m| m.is_dir())
                }
                _ => false,
            }
            && !at.starts_with(FAKE_TOP.as_bytes())
    };
    if !scenario
        .tree
        .iter()
        .any(|e| matches!(e, Entry::Symlink { target, .. } if host_dir(&target.to_string_lossy())))
    {
        return None;
    }
    let beneath = |r: &RootFacts| r.parsed.as_ref().is_ok_and(|p| within_base(p).is_some());
    let mut t = if subject.roots.iter().all(beneath) {
        scenario.clone()
    } else {
        nest_once(scenario, &fresh_name(scenario, "w"))?
    };
    let home = fresh_name(&t, "h");
    t.tree = t
        .tree
        .iter()
        .map(|e| match e {
            Entry::Symlink { path, target } if host_dir(&target.to_string_lossy()) => {
                Entry::Symlink {
                    path: path.clone(),
                    target: format!(
                        "{BASE_PLACEHOLDER}/{home}{}",
                        if target.ends_with("/") { "/" } else { "" }
                    )
                    .into(),
                }
            }
            other => other.clone(),
        })
        .collect();
    t.tree.push(Entry::Dir { path: home.into() });
    (validate_tree(&t.tree).is_ok() && Subject::new(&t).lies_in_base()).then_some(t)
}

fn nest_once(scenario: &Scenario, dir: &str) -> Option<Scenario> {
    let deeper = |text: &str| text.replace(BASE_PLACEHOLDER, &format!("{BASE_PLACEHOLDER}/{dir}"));
    let mut t = scenario.clone();
    t.tree = scenario
        .tree
        .iter()
        .map(|e| {
            map_entry(e, &|p: &str| format!("{dir}/{p}"), &|target: &str| {
                deeper(target)
            })
        })
        .collect();
    if t.tree.is_empty() {
        t.tree.push(Entry::Dir { path: dir.into() });
    }
    t.roots = scenario.roots.iter().map(|r| deeper(r)).collect();
    for case in &mut t.cases {
        case.path = deeper(&case.path.to_string_lossy()).into();
    }
    (validate_tree(&t.tree).is_ok()).then_some(t)
}

/// `path` with `.`, `..` and empty components taken as text (the lexical
/// oracle's components, joined again).
fn lexical(path: &[u8]) -> Vec<u8> {
    let mut parts = Vec::new();
    rootguard_judge::oracle::lexical_components(path, &mut parts);
    if parts.is_empty() {
        return b"/".to_vec();
    }
    let mut out = Vec::with_capacity(path.len());
    for part in parts {
        out.push(b'/');
        out.extend_from_slice(part);
    }
    out
}

/// A model path in `{base}` form: beneath the base `{base}/x`, beside it
/// `{base}/../x`, above `{base}/../../x`; elsewhere absolute. `None` when
/// it is not UTF-8.
fn unsubstitute(path: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(path).ok()?;
    for (place, written) in [
        (FAKE_BASE, BASE_PLACEHOLDER.to_owned()),
        (FAKE_TEMP, format!("{BASE_PLACEHOLDER}/..")),
        (FAKE_TOP, format!("{BASE_PLACEHOLDER}/../..")),
    ] {
        if let Some(rest) = text.strip_prefix(place) {
            if rest.is_empty() || rest.starts_with('/') {
                return Some(format!("{written}{rest}"));
            }
        }
    }
    Some(text.to_owned())
}

/// A model path relative to the base, when it is beneath it.
fn within_base(path: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(path).ok()?;
    let rest = text.strip_prefix(FAKE_BASE)?.strip_prefix('/')?;
    (!rest.is_empty()).then(|| rest.to_owned())
}

/// `file://` and a model path, the base written `{base}` (and a place
/// beside or above it with plain `..` segments).
fn uri_in_base_form(path: &[u8]) -> Option<String> {
    let uri = file_uri(path);
    for (place, written) in [
        (FAKE_BASE, BASE_PLACEHOLDER.to_owned()),
        (FAKE_TEMP, format!("{BASE_PLACEHOLDER}/..")),
        (FAKE_TOP, format!("{BASE_PLACEHOLDER}/../..")),
    ] {
        if let Some(rest) = uri.strip_prefix(&format!("file://{place}")) {
            if rest.is_empty() || rest.starts_with('/') {
                return Some(format!("file://{written}{rest}"));
            }
        }
    }
    (!uri.starts_with(&format!("file://{FAKE_TOP}"))).then_some(uri)
}

/// The plain spelling of a valid root URI (`file://` and its normalized
/// path, `{base}` kept), when it is spelled otherwise.
///
/// # Examples
///
/// ```
/// use rootguard_triage::plain_root;
/// assert_eq!(plain_root("FILE://localhost{base}/a/./b/").as_deref(), Some("file://{base}/a/b"));
/// assert_eq!(plain_root("file://{base}/%2e%2E").as_deref(), Some("file://{base}/.."));
/// assert_eq!(plain_root("file://{base}/a"), None);
/// assert_eq!(plain_root("file://srv{base}/a"), None);
/// ```
pub fn plain_root(uri: &str) -> Option<String> {
    let parsed = parse_root_uri(&substitute_base(uri, FAKE_BASE)).ok()?;
    let plain = uri_in_base_form(&parsed)?;
    (plain != uri).then_some(plain)
}

/// A root with each `%25HH` (an escaped `%` before two hex digits, which a
/// second decoding reads as an escape) made `%25xx`; `None` when it has none.
fn double_encoded(uri: &str) -> Option<String> {
    let bytes = uri.as_bytes();
    let mut out = String::with_capacity(uri.len());
    let mut changed = false;
    let mut i = 0;
    while i < bytes.len() {
        let escape = bytes[i] == b'%'
            && bytes.get(i + 1) == Some(&b'2')
            && bytes.get(i + 2) == Some(&b'5')
            && bytes.get(i + 3).is_some_and(u8::is_ascii_hexdigit)
            && bytes.get(i + 4).is_some_and(u8::is_ascii_hexdigit);
        if escape {
            out.push_str("%25xx");
            changed = true;
            i += 5;
        } else {
            let c = uri[i..].chars().next()?;
            out.push(c);
            i += c.len_utf8();
        }
    }
    changed.then_some(out)
}

fn split(rel: &str) -> Vec<String> {
    rel.split('/').map(str::to_owned).collect()
}

fn drop_root(s: &Scenario, i: usize) -> Scenario {
    let mut t = s.clone();
    t.roots.remove(i);
    t
}

/// `stem`, or `stem2`, `stem3`, ... whichever no tree entry uses.
fn fresh_name(s: &Scenario, stem: &str) -> String {
    let taken = |n: &str| {
        s.tree
            .iter()
            .any(|e| e.path().segments().any(|c| c == n.as_bytes()))
    };
    std::iter::once(stem.to_owned())
        .chain((2..).map(|k| format!("{stem}{k}")))
        .find(|n| !taken(n))
        .unwrap_or_else(|| stem.to_owned())
}

/// A character as a hostile look-alike would have it: NFKC, lower case.
fn fold_char(c: char) -> String {
    c.to_string().nfkc().collect::<String>().to_lowercase()
}

/// A name as a hostile look-alike would have it: each character folded.
fn folded(name: &str) -> String {
    name.chars().map(fold_char).collect()
}

/// Whitespace (a no-break space and U+FEFF too) and quotes: what `trim()`,
/// `strip()` and quote-stripping take away.
fn is_trimmable(c: char) -> bool {
    c.is_whitespace() || matches!(c, '\u{feff}' | '\'' | '"')
}

/// The edits that take one kind of hostile character out of a name, each
/// leaving the characters a name shares with the root name it mimics.
#[derive(Debug, Clone, Copy)]
enum NameEdit {
    /// Each `\` becomes `_`.
    Backslash,
    /// Each glob or regex metacharacter becomes `_` ([`PATTERN_CHARS`]).
    Pattern,
    /// Each `%HH` loses its second hex digit to `x`, so it decodes to nothing.
    Percent,
    /// Whitespace and quotes at the name's two ends become `_`.
    Edge,
    /// Dots at the name's end become `_`.
    TrailingDot,
    /// Non-ASCII characters become `u`, when NFKC changes the name.
    Unicode,
}

impl NameEdit {
    /// The edited name, in each spelling the edit has (most faithful
    /// first); `None` when it changes nothing.
    fn apply(self, name: &str, protected: &[bool]) -> Option<Vec<String>> {
        let chars: Vec<char> = name.chars().collect();
        let n = chars.len();
        let lead = chars.iter().take_while(|c| is_trimmable(**c)).count();
        let trail = chars.iter().rev().take_while(|c| is_trimmable(**c)).count();
        let dots = chars.iter().rev().take_while(|c| **c == '.').count();
        let hex = |k: usize| chars.get(k).is_some_and(char::is_ascii_hexdigit);
        match self {
            NameEdit::Unicode if !folds(name) => return None,
            NameEdit::TrailingDot if dots == n => return None,
            _ => {}
        }
        let editable = |k: usize, c: char| {
            !protected.get(k).copied().unwrap_or(false)
                && match self {
                    NameEdit::Backslash => c == '\\',
                    NameEdit::Pattern => PATTERN_CHARS.contains(c),
                    NameEdit::Percent => k >= 2 && chars[k - 2] == '%' && hex(k - 1) && hex(k),
                    NameEdit::Edge => k < lead || k + trail >= n,
                    NameEdit::TrailingDot => k + dots >= n,
                    NameEdit::Unicode => !c.is_ascii(),
                }
        };
        // NFKC's own ASCII for a character (a no-break space is a space),
        // so that what other flaws see stays; then a plain letter.
        let fold = |c: char| {
            let folded: String = c.to_string().nfkc().collect();
            let mut it = folded.chars();
            match (it.next(), it.next()) {
                (Some(f), None) if f.is_ascii() && f != '/' => f,
                _ => 'u',
            }
        };
        let spell = |replace: &dyn Fn(char) -> char| -> String {
            chars
                .iter()
                .enumerate()
                .map(|(k, &c)| if editable(k, c) { replace(c) } else { c })
                .collect()
        };
        let spellings: Vec<String> = match self {
            NameEdit::Percent => vec![spell(&|_| 'x')],
            NameEdit::Unicode => vec![spell(&fold), spell(&|_| 'u')],
            _ => vec![spell(&|_| '_')],
        };
        let mut out: Vec<String> = Vec::new();
        for s in spellings {
            if s != name && !out.contains(&s) {
                out.push(s);
            }
        }
        (!out.is_empty()).then_some(out)
    }
}

/// Glob and regex metacharacters a name can hold (`\` is
/// [`NameEdit::Backslash`]'s, and `.` too common a byte of names to say
/// anything alone).
const PATTERN_CHARS: &str = "*?[]{}()+^$|";

/// Whether NFKC changes the name.
fn folds(c: &str) -> bool {
    c.nfkc().ne(c.chars())
}

/// `name` with each letter where it differs from its case twin replaced
/// by a letter that is no case of either.
fn unfold_case(name: &str, twin: &str) -> String {
    name.chars()
        .zip(twin.chars().chain(std::iter::repeat(' ')))
        .map(|(a, b)| {
            if a == b {
                a
            } else if a.to_lowercase().eq("q".chars()) || b.to_lowercase().eq("q".chars()) {
                'z'
            } else {
                'q'
            }
        })
        .collect()
}

/// `e` with its path and target mapped as text. Variants are built as
/// text, so callers build them of UTF-8 scenarios only
/// ([`Scenario::is_utf8`]): a scenario holding other bytes gets none, and
/// its probes stay inconclusive, never wrong.
fn map_entry(e: &Entry, path: &impl Fn(&str) -> String, target: &impl Fn(&str) -> String) -> Entry {
    let path = |p: &PathBytes| PathBytes::from(path(&p.to_string_lossy()));
    match e {
        Entry::Dir { path: p } => Entry::Dir { path: path(p) },
        Entry::File { path: p, content } => Entry::File {
            path: path(p),
            content: content.clone(),
        },
        Entry::Symlink { path: p, target: t } => Entry::Symlink {
            path: path(p),
            target: target(&t.to_string_lossy()).into(),
        },
    }
}

/// Every whole component `from` renamed `to`, in the case paths, the
/// tree's paths and link targets, and, with `in_roots`, the roots' text
/// (without, a root keeps naming what it named). `None` when nothing
/// changed or `to` is taken.
///
/// # Examples
///
/// ```
/// use rootguard_judge::{Case, Entry, Op, Scenario};
/// use rootguard_triage::rename_component;
///
/// let s = Scenario {
///     name: String::new(), note: None,
///     tree: vec![Entry::Symlink { path: "project/l".into(), target: "../project2".into() }],
///     roots: vec!["file://{base}/project".into()],
///     cases: vec![Case { path: "{base}/project/l".into(), op: Op::Read, expect: None }],
/// };
/// let t = rename_component(&s, "project", "p", true).unwrap();
/// assert_eq!(t.roots, ["file://{base}/p"]);
/// assert_eq!(t.tree[0], Entry::Symlink { path: "p/l".into(), target: "../project2".into() });
/// ```
pub fn rename_component(s: &Scenario, from: &str, to: &str, in_roots: bool) -> Option<Scenario> {
    if from == to
        || !s.is_utf8()
        || matches!(to, "" | "." | "..")
        || to.contains('/')
        || s.tree
            .iter()
            .any(|e| e.path().segments().any(|c| c == to.as_bytes()))
    {
        return None;
    }
    let swap = |text: &str| {
        text.split('/')
            .map(|c| if c == from { to } else { c })
            .collect::<Vec<_>>()
            .join("/")
    };
    let mut t = s.clone();
    for case in &mut t.cases {
        case.path = swap(&case.path.to_string_lossy()).into();
    }
    t.tree = t.tree.iter().map(|e| map_entry(e, &swap, &swap)).collect();
    if in_roots {
        t.roots = t.roots.iter().map(|r| swap(r)).collect();
    }
    (t != *s).then_some(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rootguard_judge::Case;

    fn scenario(tree: Vec<Entry>, roots: &[&str], path: &str, op: Op) -> Scenario {
        Scenario {
            name: "t".into(),
            note: None,
            tree,
            roots: roots.iter().map(|r| (*r).to_owned()).collect(),
            cases: vec![Case {
                path: path.into(),
                op,
                expect: None,
            }],
        }
    }

    fn dir(p: &str) -> Entry {
        Entry::Dir { path: p.into() }
    }

    fn link(p: &str, t: &str) -> Entry {
        Entry::Symlink {
            path: p.into(),
            target: t.into(),
        }
    }

    #[test]
    fn a_link_to_a_host_link_to_a_directory_is_rehomed() {
        let s = scenario(
            vec![Entry::Symlink {
                path: "a".into(),
                target: "/proc/self/root".into(),
            }],
            &["file://{base}"],
            "{base}/a/n",
            Op::Write,
        );
        let t = rehomed(&s).expect("rehomed");
        assert!(
            t.tree.iter().any(|e| matches!(e, Entry::Symlink { target, .. } if target.to_string_lossy().starts_with("{base}/"))),
            "{:?}",
            t.tree
        );
    }

    /// A long path padded with `sub/..` drops its padding, and the link
    /// at its end stays.
    #[test]
    fn a_long_path_padded_with_dotdot_drops_it() {
        let s = scenario(
            vec![dir("project/s"), dir("o"), link("project/ot", "../o")],
            &["file://{base}/project"],
            &format!("{{base}}/project/{}ot/ne", "s/../".repeat(20)),
            Op::Write,
        );
        let subject = Subject::new(&s);
        assert!(subject.present().contains(&Feature::LongPath));
        let v = subject.without(Feature::LongPath).expect("a variant");
        assert_eq!(v.cases[0].path, "{base}/project/ot/ne");
        assert_eq!(Subject::new(&v).target(), subject.target());
    }

    /// A link named thirteen times, and a chain of thirteen links: both
    /// follow many, and the variant reaches the same target through one.
    #[test]
    fn many_links_give_way_to_one() {
        let repeated = scenario(
            vec![link("w/p/l", ".")],
            &["file://{base}/w/p"],
            &format!("{{base}}/w/p{}/..", "/l".repeat(13)),
            Op::Read,
        );
        let mut tree: Vec<Entry> = (1..13)
            .map(|k| link(&format!("v/w/c{k}"), &format!("c{}", k + 1)))
            .collect();
        tree.push(link("v/w/c13", "../x"));
        tree.push(dir("v/x"));
        let chain = scenario(tree, &["file://{base}/v/w"], "{base}/v/w/c1/..", Op::Read);
        for (s, path) in [(repeated, "{base}/w/p/l/.."), (chain, "{base}/v/w/c1/..")] {
            let subject = Subject::new(&s);
            assert!(subject.present().contains(&Feature::ManyLinks), "{s:?}");
            let v = subject.without(Feature::ManyLinks).expect("a variant");
            assert_eq!(v.cases[0].path, path);
            let varied = Subject::new(&v);
            assert_eq!(varied.links, 1, "{v:?}");
            assert_eq!(varied.truth(), Some(Truth::Outside));
            assert_eq!(varied.target(), subject.target());
        }
        let short = scenario(
            vec![link("p/a", "b"), link("p/b", "../x"), dir("x")],
            &["file://{base}/p"],
            "{base}/p/a",
            Op::Read,
        );
        assert!(!Subject::new(&short).present().contains(&Feature::ManyLinks));
    }

    /// Two names of a root spelled with escapes, both folded: the root
    /// follows both renames, so it still names the directory it named.
    #[test]
    fn every_renamed_name_of_a_root_stays_renamed_in_it() {
        let s = scenario(
            vec![link("v/w/cafe\u{301}/data\u{301}", "{base}/v/w/")],
            &["file://{base}/v/w/cafe%CC%81/data%CC%81"],
            "{base}/v/w/cafe\u{301}/data\u{301}/..",
            Op::Read,
        );
        let subject = Subject::new(&s);
        assert!(subject.present().contains(&Feature::UnicodeFold));
        let v = subject.without(Feature::UnicodeFold).expect("a variant");
        assert_eq!(v.roots, ["file://{base}/v/w/cafeu/datau"]);
        let varied = Subject::new(&v);
        assert!(
            !varied.present().contains(&Feature::RootUnresolvable),
            "{v:?}"
        );
        assert_eq!(varied.truth(), Some(Truth::Outside));
    }

    #[test]
    fn a_sibling_prefix_is_renamed_away() {
        let s = scenario(
            vec![dir("project")],
            &["file://{base}/project"],
            "{base}/project2",
            Op::Write,
        );
        let subject = Subject::new(&s);
        assert_eq!(
            subject.present(),
            [Feature::SiblingPrefix, Feature::NewTarget]
        );
        let v = subject.without(Feature::SiblingPrefix).unwrap();
        assert_eq!(v.cases[0].path, "{base}/other2");
        assert_eq!(Subject::new(&v).truth(), Some(Truth::Outside));
    }

    #[test]
    fn a_dangling_write_has_its_link_moved_up_and_its_target_made() {
        let s = scenario(
            vec![dir("out"), link("project/d", "../out/new.txt")],
            &["file://{base}/project"],
            "{base}/project/d",
            Op::Write,
        );
        let subject = Subject::new(&s);
        assert_eq!(
            subject.present(),
            [Feature::Link, Feature::FinalLink, Feature::NewTarget]
        );
        let up = subject.without(Feature::FinalLink).unwrap();
        assert_eq!(up.cases[0].path, "{base}/project/rg-link/new.txt");
        assert!(up.tree.contains(&link("project/rg-link", "{base}/out")));
        assert!(up.tree.contains(&link("project/d", "../out/new.txt")));
        let made = subject.without(Feature::NewTarget).unwrap();
        assert!(made.tree.contains(&Entry::File {
            path: "out/new.txt".into(),
            content: None
        }));
        let direct = subject.without(Feature::Link).unwrap();
        assert_eq!(direct.cases[0].path, "{base}/out/new.txt");
        for v in [up, made, direct] {
            assert_eq!(Subject::new(&v).truth(), Some(Truth::Outside), "{v:?}");
        }
    }

    #[test]
    fn dotdot_after_a_link_goes_through_a_new_link_to_the_parent() {
        let s = scenario(
            vec![
                dir("out/deep"),
                Entry::File {
                    path: "out/secret.txt".into(),
                    content: None,
                },
                link("project/l", "../out/deep"),
            ],
            &["file://{base}/project"],
            "{base}/project/l/../secret.txt",
            Op::Read,
        );
        let subject = Subject::new(&s);
        assert_eq!(subject.present(), [Feature::DotDot, Feature::Link]);
        let v = subject.without(Feature::DotDot).unwrap();
        assert_eq!(v.cases[0].path, "{base}/project/rg-link/secret.txt");
        assert!(v.tree.contains(&link("project/rg-link", "{base}/out")));
        assert_eq!(Subject::new(&v).truth(), Some(Truth::Outside));
    }

    #[test]
    fn chains_are_shortcut() {
        let s = scenario(
            vec![
                Entry::File {
                    path: "out/secret.txt".into(),
                    content: None,
                },
                link("project/c1", "c2"),
                link("project/c2", "../out/secret.txt"),
            ],
            &["file://{base}/project"],
            "{base}/project/c1",
            Op::Read,
        );
        let subject = Subject::new(&s);
        assert!(subject.present().contains(&Feature::LinkChain));
        let v = subject.without(Feature::LinkChain).unwrap();
        assert!(v
            .tree
            .contains(&link("project/c1", "{base}/out/secret.txt")));
        assert!(!Subject::new(&v).present().contains(&Feature::LinkChain));
    }

    #[test]
    fn names_lose_their_hostile_characters() {
        let s = scenario(
            vec![dir("project"), dir("Project")],
            &["file://{base}/project"],
            "{base}/Project",
            Op::Read,
        );
        let v = Subject::new(&s).without(Feature::CaseVariant).unwrap();
        assert_eq!(v.cases[0].path, "{base}/qroject");
        let s = scenario(
            vec![dir("project")],
            &["file://{base}/project"],
            "{base}/ｐroject",
            Op::Write,
        );
        let subject = Subject::new(&s);
        assert!(subject.present().contains(&Feature::UnicodeFold));
        assert_eq!(
            subject.without(Feature::UnicodeFold).unwrap().cases[0].path,
            "{base}/uroject"
        );
        let s = scenario(
            vec![link("project/n ", "../x")],
            &["file://{base}/project"],
            "{base}/project/n ",
            Op::Write,
        );
        let v = Subject::new(&s).without(Feature::TrimmableEdge).unwrap();
        assert_eq!(v.cases[0].path, "{base}/project/n_");
        assert!(v.tree.contains(&link("project/n_", "../x")));
    }

    #[test]
    fn a_roots_trimmed_name_in_the_path_is_the_roots_feature_alone() {
        // The path passes through the root `outside'`: renaming that name is
        // the variant without the root's edge, not a second feature.
        let s = scenario(
            vec![dir("outside'")],
            &["file://{base}/outside'"],
            "{base}/outside'/n",
            Op::Write,
        );
        let subject = Subject::new(&s);
        let present = subject.present();
        assert!(present.contains(&Feature::RootTrimmableEdge));
        assert!(!present.contains(&Feature::TrimmableEdge), "{present:?}");
        assert!(subject.without(Feature::TrimmableEdge).is_none());
        // A name of its own below the root is the path's.
        let s = scenario(
            vec![dir("outside'"), dir("outside'/n ")],
            &["file://{base}/outside'"],
            "{base}/outside'/n ",
            Op::Read,
        );
        let v = Subject::new(&s).without(Feature::TrimmableEdge).unwrap();
        assert_eq!(v.cases[0].path, "{base}/outside'/n_");
        assert_eq!(v.roots[0], "file://{base}/outside'");
        // Where the URI ends in `/`, nothing trims the root's name.
        let s = scenario(
            vec![dir("outside'")],
            &["file://{base}/outside'/"],
            "{base}/outside'/n",
            Op::Write,
        );
        let present = Subject::new(&s).present();
        assert!(present.contains(&Feature::TrimmableEdge), "{present:?}");
        assert!(!present.contains(&Feature::RootTrimmableEdge));
    }

    #[test]
    fn hostile_roots_are_dropped_and_plain_roots_added() {
        let s = scenario(
            vec![dir("out")],
            &["file://srv{base}/out"],
            "{base}/out/x",
            Op::Write,
        );
        let subject = Subject::new(&s);
        assert_eq!(
            subject.present(),
            [
                Feature::RootUri(RootRule::Host),
                Feature::NoUsableRoot,
                Feature::NewTarget
            ]
        );
        assert!(subject
            .without(Feature::RootUri(RootRule::Host))
            .unwrap()
            .roots
            .is_empty());
        let v = subject.without(Feature::NoUsableRoot).unwrap();
        assert_eq!(v.roots[1], "file://{base}/rg-root");
        let s = scenario(
            vec![dir("out")],
            &["file://localhost{base}/out/"],
            "{base}/x",
            Op::Write,
        );
        let v = Subject::new(&s).without(Feature::RootRespelled).unwrap();
        assert_eq!(v.roots, ["file://{base}/out"]);
    }

    #[test]
    fn name_edits_keep_what_a_name_shares_with_the_root_it_mimics() {
        let wide = scenario(
            vec![Entry::Dir {
                path: "project".into(),
            }],
            &["file://{base}/project"],
            "{base}/project／sub",
            Op::Write,
        );
        let v = Subject::new(&wide).without(Feature::UnicodeFold).unwrap();
        assert_eq!(v.cases[0].path, "{base}/projectusub");
        let percent = scenario(
            vec![
                Entry::Dir {
                    path: "100%".into(),
                },
                Entry::Dir {
                    path: "100%25".into(),
                },
            ],
            &["file://{base}/100%25"],
            "{base}/100%25",
            Op::Read,
        );
        let v = Subject::new(&percent)
            .without(Feature::PercentEscape)
            .unwrap();
        assert_eq!(v.cases[0].path, "{base}/100%2x");
        let case = scenario(
            vec![Entry::Dir { path: "a..".into() }],
            &["file://{base}/a.."],
            "{base}/A..",
            Op::Write,
        );
        let present = Subject::new(&case).present();
        assert!(present.contains(&Feature::CaseVariant), "{present:?}");
        assert!(!present.contains(&Feature::TrailingDot), "{present:?}");
        let beside = scenario(vec![], &["file://{base}"], "{base}\\.\\..", Op::Write);
        let v = Subject::new(&beside).without(Feature::TrailingDot).unwrap();
        assert_eq!(v.cases[0].path, "{base}\\.\\__");
    }

    #[test]
    fn places_beside_the_base_are_written_from_it() {
        let s = scenario(
            vec![link("x/x", "{base}/..")],
            &["file://{base}/x"],
            "{base}/x/x/n",
            Op::Write,
        );
        let subject = Subject::new(&s);
        assert_eq!(subject.target().as_deref(), Some("{base}/../n"));
        assert_eq!(
            subject.without(Feature::Link).unwrap().cases[0].path,
            "{base}/../n"
        );
        assert!(!subject.lies_in_base());
        assert!(subject.without(Feature::NewTarget).is_none());
    }

    #[test]
    fn a_link_through_a_linked_directory_is_a_chain() {
        let s = scenario(
            vec![link("n2/n", "{base}/"), link("0", "n2/n/../")],
            &["file://{base}/n2"],
            "{base}/0",
            Op::Read,
        );
        let subject = Subject::new(&s);
        assert!(subject.present().contains(&Feature::LinkChain));
        let v = subject.without(Feature::LinkChain).unwrap();
        assert!(v.tree.contains(&link("0", "{base}/..")), "{:?}", v.tree);
    }

    #[test]
    fn double_encoded_and_dotted_roots() {
        let s = scenario(
            vec![dir("out")],
            &["file://{base}/p/%252e%252e/out"],
            "{base}/out/x",
            Op::Write,
        );
        let subject = Subject::new(&s);
        assert!(subject.present().contains(&Feature::RootDoubleEncoded));
        assert_eq!(
            subject.without(Feature::RootDoubleEncoded).unwrap().roots,
            ["file://{base}/p/_2e_2e/out"]
        );
        // A fold twin of the root's name in the path is renamed with it:
        // without the `%25`, a checker that folds names still escapes.
        let s = scenario(
            vec![Entry::File {
                path: "x%2e%2e".into(),
                content: None,
            }],
            &["file://{base}/x%252e%252e"],
            "{base}/x\u{ff05}2e\u{ff05}2e",
            Op::Write,
        );
        let without = Subject::new(&s)
            .without(Feature::RootDoubleEncoded)
            .unwrap();
        assert_eq!(without.roots, ["file://{base}/x_2e_2e"]);
        assert_eq!(
            without.cases[0].path.to_string_lossy(),
            "{base}/x\u{ff3f}2e\u{ff3f}2e"
        );
        let s = scenario(
            vec![dir("p/s")],
            &["file://{base}/p"],
            "{base}/p/s/..",
            Op::Read,
        );
        let subject = Subject::new(&s);
        assert!(subject.present().contains(&Feature::DotName));
        assert_eq!(
            subject.without(Feature::DotName).unwrap().cases[0].path,
            "{base}/p"
        );
    }
}
