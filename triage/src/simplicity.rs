//! How simple a scenario reads: what the shrinker lowers and what picks a
//! defect's example.

use rootguard_judge::{Entry, Scenario, BASE_PLACEHOLDER};

use crate::vary::Subject;

/// How a scenario ranks for "simplest": roots and target beneath the base
/// first (it reads like a real tree, `/b/project` and `/b/project2`, and
/// every variant of it can be made), then fewer entries, fewer roots, roots
/// spelled plainly, shorter names, then fewer non-ASCII characters (`proj2`
/// before `project／sub`), then fewer odd ASCII ones (`a2` before `a,`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Simplicity {
    /// Whether a root or the target is at, beside or above the base.
    pub outside_base: bool,
    /// Tree entries.
    pub entries: usize,
    /// Roots.
    pub roots: usize,
    /// Valid roots spelled otherwise than `file://` and their path.
    pub respelled_roots: usize,
    /// Characters of names, link targets, file contents, roots and the
    /// case path (`{base}` not counted).
    pub chars: usize,
    /// The non-ASCII ones among them.
    pub non_ascii: usize,
    /// ASCII characters of names other than letters, digits, `.`, `-`, `_`
    /// (in the tree and the case path).
    pub odd_ascii: usize,
}

/// The simplicity of `scenario`.
///
/// # Examples
///
/// ```
/// use rootguard_judge::{Case, Op, Scenario};
/// use rootguard_triage::simplicity;
///
/// let with = |path: &str| Scenario {
///     name: String::new(), note: None, tree: vec![], roots: vec![],
///     cases: vec![Case { path: path.into(), op: Op::Read, expect: None }],
/// };
/// assert!(simplicity(&with("{base}/proj2")) < simplicity(&with("{base}/project／sub")));
/// assert!(simplicity(&with("{base}/projectx")) < simplicity(&with("{base}/project／")));
/// ```
pub fn simplicity(scenario: &Scenario) -> Simplicity {
    // A byte that is not UTF-8 counts as one non-ASCII character (U+FFFD).
    let mut texts: Vec<String> = Vec::new();
    for e in &scenario.tree {
        texts.push(e.path().to_string_lossy());
        match e {
            Entry::Symlink { target, .. } => texts.push(target.to_string_lossy()),
            Entry::File {
                content: Some(content),
                ..
            } => texts.push(content.clone()),
            _ => {}
        }
    }
    texts.extend(scenario.roots.iter().cloned());
    texts.extend(scenario.cases.iter().map(|c| c.path.to_string_lossy()));
    let (mut chars, mut non_ascii) = (0, 0);
    for text in texts {
        for c in text.replace(BASE_PLACEHOLDER, "").chars() {
            chars += 1;
            non_ascii += usize::from(!c.is_ascii());
        }
    }
    let odd = |c: char| c.is_ascii() && !c.is_ascii_alphanumeric() && !"._-/".contains(c);
    let odd_ascii = scenario
        .tree
        .iter()
        .map(Entry::path)
        .chain(scenario.cases.iter().map(|c| &c.path))
        .map(|t| {
            t.replace(BASE_PLACEHOLDER, "")
                .to_string_lossy()
                .chars()
                .filter(|&c| odd(c))
                .count()
        })
        .sum();
    Simplicity {
        outside_base: !Subject::new(scenario).lies_in_base(),
        entries: scenario.tree.len(),
        roots: scenario.roots.len(),
        respelled_roots: scenario
            .roots
            .iter()
            .filter(|r| crate::vary::plain_root(r).is_some())
            .count(),
        chars,
        non_ascii,
        odd_ascii,
    }
}
