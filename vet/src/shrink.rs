//! Shrinking an escape to a minimal scenario by asking the checker again.

use std::sync::atomic::{AtomicBool, Ordering};

use rootguard_proptests::{validate_tree, Entry, Materialized, Scenario, BASE_PLACEHOLDER};

use crate::checker::Checker;
use crate::judge::{evaluate, Class, Ids, Judge, Outcome};
use crate::HarnessError;

/// The most attempts (each one a fresh tree and a query) one shrink makes.
pub const MAX_ATTEMPTS: usize = 1000;

/// A scenario with its single case, and the outcome that shows its class.
#[derive(Debug, Clone)]
pub struct Shrunk {
    /// The minimal scenario in `{base}` form, one case, `expect` set to the truth.
    pub scenario: Scenario,
    /// The last outcome showing the class on that scenario.
    pub outcome: Outcome,
    /// How many attempts were made.
    pub attempts: usize,
}

/// Shrinks `scenario` (in `{base}` form) reduced to its case `case`, keeping
/// each simplification only when the checker still shows `class`.
///
/// Returns `None` when the escape does not show again on the single case
/// (a checker that depends on earlier requests).
///
/// # Errors
///
/// [`HarnessError`] when the checker cannot be restarted.
pub fn shrink(
    checker: &mut dyn Checker,
    ids: &mut Ids,
    scenario: &Scenario,
    case: usize,
    class: Class,
    interrupted: &AtomicBool,
) -> Result<Option<Shrunk>, HarnessError> {
    let Some(the_case) = scenario.cases.get(case) else {
        return Ok(None);
    };
    let mut best = Scenario {
        cases: vec![the_case.clone()],
        ..scenario.clone()
    };
    let Some(mut outcome) = shows(checker, ids, &best, class)? else {
        return Ok(None);
    };
    let mut attempts = 1;
    'improve: loop {
        for candidate in candidates(&best) {
            if attempts >= MAX_ATTEMPTS || interrupted.load(Ordering::Relaxed) {
                break 'improve;
            }
            attempts += 1;
            if let Some(o) = shows(checker, ids, &candidate, class)? {
                best = candidate;
                outcome = o;
                continue 'improve;
            }
        }
        break;
    }
    // Label the case with the truth of its own path.
    if let Ok(materialized) = Materialized::new(&best) {
        if let (Ok(judge), Some(case)) = (Judge::new(&materialized), materialized.cases().first()) {
            let truth = judge.truth(materialized.roots(), &case.path, case.op);
            best.cases[0].expect = Some(truth.judgement.truth.to_expect());
        }
    }
    best.note = outcome
        .truth
        .as_ref()
        .map(|t| t.judgement.explanation.clone());
    Ok(Some(Shrunk {
        scenario: best,
        outcome,
        attempts,
    }))
}

/// Whether the single case of `scenario` still shows `class`.
fn shows(
    checker: &mut dyn Checker,
    ids: &mut Ids,
    scenario: &Scenario,
    class: Class,
) -> Result<Option<Outcome>, HarnessError> {
    let materialized = match Materialized::new(scenario) {
        Ok(m) => m,
        Err(_) => return Ok(None),
    };
    let Ok(judge) = Judge::new(&materialized) else {
        return Ok(None);
    };
    let Some(case) = materialized.cases().first() else {
        return Ok(None);
    };
    let outcome = evaluate(
        checker,
        &judge,
        ids,
        materialized.roots(),
        &case.path,
        case.op,
    )?;
    Ok((outcome.class == Some(class)).then_some(outcome))
}

/// Simpler scenarios, most promising first.
fn candidates(s: &Scenario) -> Vec<Scenario> {
    let mut out = shortcuts(s);
    // Halves, quarters, ... of the tree first, so big trees shrink in few attempts.
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
        if let Some((parent, _)) = entry.path().rsplit_once('/') {
            let mut tree = s.tree.clone();
            tree[i] = Entry::Dir {
                path: parent.to_owned(),
            };
            if validate_tree(&tree).is_ok() {
                out.push(Scenario { tree, ..s.clone() });
            }
        }
    }
    for i in 0..s.roots.len() {
        let mut roots = s.roots.clone();
        roots.remove(i);
        out.push(Scenario { roots, ..s.clone() });
    }
    out.extend(renamed(s));
    if let Some(case) = s.cases.first() {
        for path in simpler_paths(&case.path) {
            let mut t = s.clone();
            t.cases[0].path = path;
            out.push(t);
        }
    }
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
            let b_name = b_path.rsplit('/').next().unwrap_or(b_path);
            if i == j || a_target.rsplit('/').next() != Some(b_name) {
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

/// Long or odd names replaced everywhere by a short plain one.
fn renamed(s: &Scenario) -> Vec<Scenario> {
    let mut names: Vec<&str> = s
        .tree
        .iter()
        .flat_map(|e| e.path().split('/'))
        .filter(|n| n.len() > 8 || !n.bytes().all(|b| b.is_ascii_alphanumeric()))
        .collect();
    names.sort_unstable();
    names.dedup();
    let mut out = Vec::new();
    let taken = |short: &str| {
        s.tree
            .iter()
            .any(|e| e.path().split('/').any(|n| n == short))
    };
    let mut free = (0..).map(|k| format!("n{k}")).filter(|n| !taken(n));
    for name in &names {
        let Some(short) = free.next() else { break };
        let swap = |text: &str| text.replace(name, &short);
        let tree: Vec<Entry> = s
            .tree
            .iter()
            .map(|e| match e {
                Entry::Dir { path } => Entry::Dir { path: swap(path) },
                Entry::File { path, content } => Entry::File {
                    path: swap(path),
                    content: content.clone(),
                },
                Entry::Symlink { path, target } => Entry::Symlink {
                    path: swap(path),
                    target: swap(target),
                },
            })
            .collect();
        if validate_tree(&tree).is_err() {
            continue;
        }
        let mut t = Scenario {
            tree,
            roots: s.roots.iter().map(|r| swap(r)).collect(),
            ..s.clone()
        };
        for case in &mut t.cases {
            case.path = swap(&case.path);
        }
        out.push(t);
    }
    out
}

/// The path with one component fewer, or with empty and `.` components gone.
fn simpler_paths(path: &str) -> Vec<String> {
    let (prefix, rest) = match path.strip_prefix(BASE_PLACEHOLDER) {
        Some(rest) => (BASE_PLACEHOLDER, rest),
        None => ("", path),
    };
    let parts: Vec<&str> = rest.split('/').collect();
    let mut out = Vec::new();
    let tidy: Vec<&str> = parts
        .iter()
        .enumerate()
        .filter(|(i, p)| *i == 0 || (!p.is_empty() && **p != "."))
        .map(|(_, p)| *p)
        .collect();
    if tidy.len() < parts.len() {
        out.push(format!("{prefix}{}", tidy.join("/")));
    }
    for i in 1..parts.len() {
        if parts.len() <= 2 {
            break;
        }
        let mut fewer = parts.clone();
        fewer.remove(i);
        out.push(format!("{prefix}{}", fewer.join("/")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_get_simpler() {
        assert_eq!(
            simpler_paths("{base}/a/./b//c"),
            [
                "{base}/a/b/c",
                "{base}/./b//c",
                "{base}/a/b//c",
                "{base}/a/.//c",
                "{base}/a/./b/c",
                "{base}/a/./b/"
            ]
        );
        assert!(simpler_paths("{base}/a").is_empty());
    }
}
