//! The verdict (semantics.md section 3): resolve the roots, resolve the
//! target, compare by whole components.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::model_fs::{is_within, ModelFs, ModelFsError, Outside};
use super::resolve::{realpath, resolve_read, resolve_write};
use super::{parse_root_uri, show_in};
use crate::{Judgement, Op, Scenario, Truth};

/// Judges one query on the model.
///
/// Each root is parsed by [`parse_root_uri`] and resolved like realpath(3)
/// on the model (semantics.md section 1); an invalid or unresolvable root
/// grants nothing, and no roots grant nothing. The target is resolved by
/// [`resolve_read`] or [`resolve_write`]; it is `inside` when it is at or
/// beneath a resolved root by whole components.
///
/// # Examples
///
/// ```
/// use std::path::Path;
/// use rootguard_judge::{Entry, Op, Truth};
/// use rootguard_judge::oracle::{judge, ModelFs, Outside};
///
/// let tree = [
///     Entry::Dir { path: "project".into() },
///     Entry::File { path: "project2/secret.txt".into(), content: None },
///     Entry::Symlink { path: "project/back".into(), target: "../project2".into() },
/// ];
/// let fs = ModelFs::new(&tree, Path::new("/b"), Outside::Absent)?;
/// let roots = ["file:///b/project".to_string()];
/// let j = judge(&roots, b"/b/project/back/secret.txt", Op::Read, &fs);
/// assert_eq!(j.truth, Truth::Outside);
/// assert_eq!(j.target.as_deref(), Some(Path::new("/b/project2/secret.txt")));
/// assert_eq!(judge(&roots, b"/b/project/new", Op::Write, &fs).truth, Truth::Inside);
/// # Ok::<(), rootguard_judge::oracle::ModelFsError>(())
/// ```
pub fn judge(roots: &[String], path: &[u8], op: Op, fs: &ModelFs) -> Judgement {
    let mut notes = Vec::new();
    let resolved_roots = resolve_roots(roots, fs, &mut notes);
    let resolution = match op {
        Op::Read => resolve_read(fs, path),
        Op::Write => resolve_write(fs, path),
    };
    let mut explanation = shorten(resolution.steps);
    let judgement = match resolution.outcome {
        Err(reason) => {
            explanation.push(format!(
                "{op} of {} cannot happen: {}",
                show_in(fs.base(), path),
                reason.describe(fs.base())
            ));
            verdict(None, &resolved_roots)
        }
        Ok(target) => {
            let shown = show_in(fs.base(), &target);
            let judgement = verdict(Some(&target), &resolved_roots);
            match judgement.root {
                Some(i) => explanation.push(format!("target {shown} is under root {i}")),
                None => explanation.push(format!("target {shown} is under no root")),
            }
            judgement
        }
    };
    explanation.extend(notes);
    Judgement {
        explanation: explanation.join("; "),
        ..judgement
    }
}

/// The verdict, without its explanation, on `target` (`None`: the
/// operation cannot happen) under roots already resolved on the model
/// (`None`: a root that grants nothing): inside the first that contains it
/// by whole components. [`judge`] gives the same verdict with its
/// explanation; a fuzz target that judges millions of paths takes this one.
pub fn verdict(target: Option<&[u8]>, roots: &[Option<Vec<u8>>]) -> Judgement {
    let Some(target) = target else {
        return Judgement {
            truth: Truth::Either,
            target: None,
            root: None,
            explanation: String::new(),
        };
    };
    let root = roots
        .iter()
        .position(|r| r.as_deref().is_some_and(|r| is_within(target, r)));
    Judgement {
        truth: if root.is_some() {
            Truth::Inside
        } else {
            Truth::Outside
        },
        target: Some(PathBuf::from(OsStr::from_bytes(target))),
        root,
        explanation: String::new(),
    }
}

/// At most [`STEPS_SHOWN`] steps: the first and the last, with a count of
/// those left out (a 40-link chain is one story, not 40).
fn shorten(steps: Vec<String>) -> Vec<String> {
    if steps.len() <= STEPS_SHOWN {
        return steps;
    }
    let head = STEPS_SHOWN / 2;
    let tail = STEPS_SHOWN - head - 1;
    let left_out = steps.len() - head - tail;
    let mut out: Vec<String> = steps[..head].to_vec();
    out.push(format!("... {left_out} more steps ..."));
    out.extend_from_slice(&steps[steps.len() - tail..]);
    out
}

/// Steps shown in an explanation before the middle ones are left out.
const STEPS_SHOWN: usize = 8;

/// Parses and resolves every root; `None` for one that grants nothing.
fn resolve_roots(roots: &[String], fs: &ModelFs, notes: &mut Vec<String>) -> Vec<Option<Vec<u8>>> {
    if roots.is_empty() {
        notes.push("no roots, so nothing is granted".to_owned());
    }
    roots
        .iter()
        .enumerate()
        .map(|(i, uri)| match parse_root_uri(uri) {
            Err(e) => {
                notes.push(format!("root {i} {uri:?} is invalid ({e})"));
                None
            }
            Ok(path) => match realpath(fs, &path).outcome {
                Ok(real) => {
                    notes.push(format!("root {i} -> {}", show_in(fs.base(), &real)));
                    Some(real)
                }
                Err(e) => {
                    notes.push(format!(
                        "root {i} {} does not resolve ({})",
                        show_in(fs.base(), &path),
                        e.describe(fs.base())
                    ));
                    None
                }
            },
        })
        .collect()
}

/// Judges every case of a scenario with its tree laid out beneath `base`,
/// substituting `{base}` in roots, case paths and link targets.
///
/// # Errors
///
/// A [`ModelFsError`] when the base is not an absolute, normal, UTF-8 path
/// or the tree breaks a rule of the format.
///
/// # Examples
///
/// ```
/// use std::path::Path;
/// use rootguard_judge::{Document, Truth};
/// use rootguard_judge::oracle::{judge_scenario, Outside, MODEL_BASE};
///
/// let doc = Document::from_json(r#"{"version": 1, "scenarios": [{"name": "s",
///     "tree": [{"symlink": "p/up", "target": ".."}], "roots": ["file://{base}/p"],
///     "cases": [{"path": "{base}/p/up/x", "op": "write"}]}]}"#)?;
/// let judged = judge_scenario(&doc.scenarios[0], Path::new(MODEL_BASE), Outside::Absent)?;
/// assert_eq!(judged[0].truth, Truth::Outside);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn judge_scenario(
    scenario: &Scenario,
    base: &Path,
    outside: Outside,
) -> Result<Vec<Judgement>, ModelFsError> {
    let fs = ModelFs::from_scenario(scenario, base, outside)?;
    let base_text = base.to_str().ok_or_else(|| ModelFsError::BaseNotUtf8 {
        base: base.as_os_str().as_bytes().to_vec(),
    })?;
    let substituted = scenario.substituted(base_text);
    Ok(substituted
        .cases
        .iter()
        .map(|case| judge(&substituted.roots, case.path.as_bytes(), case.op, &fs))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Entry;

    fn dir(p: &str) -> Entry {
        Entry::Dir { path: p.into() }
    }
    fn file(p: &str) -> Entry {
        Entry::File {
            path: p.into(),
            content: None,
        }
    }
    fn link(p: &str, t: &str) -> Entry {
        Entry::Symlink {
            path: p.into(),
            target: t.into(),
        }
    }
    fn roots(r: &[&str]) -> Vec<String> {
        r.iter().map(|s| s.replace("{base}", "/b")).collect()
    }
    fn truth(tree: &[Entry], r: &[&str], path: &str, op: Op) -> Judgement {
        let fs = ModelFs::new(tree, Path::new("/b"), Outside::Absent).expect("valid tree");
        judge(&roots(r), path.replace("{base}", "/b").as_bytes(), op, &fs)
    }

    #[test]
    fn whole_components() {
        let tree = [
            dir("project"),
            file("project2/s"),
            file("project/s"),
            file("project.bak/s"),
            file("project /s"),
        ];
        let r = ["file://{base}/project"];
        assert_eq!(
            truth(&tree, &r, "{base}/project/s", Op::Read).truth,
            Truth::Inside
        );
        assert_eq!(
            truth(&tree, &r, "{base}/project", Op::Read).truth,
            Truth::Inside
        );
        for sib in ["project2", "project.bak", "project "] {
            assert_eq!(
                truth(&tree, &r, &format!("{{base}}/{sib}/s"), Op::Read).truth,
                Truth::Outside,
                "{sib}"
            );
        }
        assert_eq!(
            truth(&tree, &r, "{base}/project/../project2/s", Op::Read).truth,
            Truth::Outside
        );
    }

    #[test]
    fn roots_rules() {
        let tree = [dir("p"), file("f"), link("lp", "p"), file("p/x")];
        // No roots: nothing granted.
        let j = truth(&tree, &[], "{base}/p/x", Op::Read);
        assert_eq!((j.truth, j.root), (Truth::Outside, None));
        assert!(j.explanation.contains("no roots"), "{}", j.explanation);
        // `/` contains everything.
        assert_eq!(
            truth(&tree, &["file:///"], "{base}/p/x", Op::Read).root,
            Some(0)
        );
        // A root that is a file grants that file only.
        assert_eq!(
            truth(&tree, &["file://{base}/f"], "{base}/f", Op::Write).truth,
            Truth::Inside
        );
        assert_eq!(
            truth(&tree, &["file://{base}/f"], "{base}/p/x", Op::Read).truth,
            Truth::Outside
        );
        // A root through a link grants its target.
        assert_eq!(
            truth(&tree, &["file://{base}/lp"], "{base}/p/x", Op::Read).truth,
            Truth::Inside
        );
        assert_eq!(
            truth(&tree, &["file://{base}/lp"], "{base}/lp/x", Op::Read).truth,
            Truth::Inside
        );
        // An unresolvable root grants nothing; the others still count.
        let j = truth(
            &tree,
            &["file://{base}/missing", "http://x", "file://{base}/p"],
            "{base}/p/x",
            Op::Read,
        );
        assert_eq!((j.truth, j.root), (Truth::Inside, Some(2)));
        assert!(
            j.explanation.contains(
                "root 0 {base}/missing does not resolve (ENOENT: {base}/missing does not exist)"
            ),
            "{}",
            j.explanation
        );
        assert!(
            j.explanation
                .contains("root 1 \"http://x\" is invalid (rule 1"),
            "{}",
            j.explanation
        );
        // The first containing root is named.
        assert_eq!(
            truth(
                &tree,
                &["file:///", "file://{base}/p"],
                "{base}/p/x",
                Op::Read
            )
            .root,
            Some(0)
        );
        // A decoded-dot root climbs lexically before it resolves.
        assert_eq!(
            truth(&tree, &["file://{base}/p/%2e%2e"], "{base}/f", Op::Read).truth,
            Truth::Inside
        );
    }

    #[test]
    fn either_has_no_target() {
        let j = truth(&[dir("d")], &["file:///"], "{base}/missing", Op::Read);
        assert_eq!((j.truth, j.target, j.root), (Truth::Either, None, None));
        assert!(j.explanation.contains("ENOENT"), "{}", j.explanation);
        assert_eq!(
            truth(&[dir("d")], &["file:///"], "{base}/d", Op::Write).truth,
            Truth::Either
        );
        assert_eq!(
            truth(&[dir("d")], &["file:///"], "{base}/d/", Op::Read).truth,
            Truth::Inside
        );
    }

    #[test]
    fn explanation_tells_the_story() {
        let tree = [
            dir("project"),
            file("project2/secret.txt"),
            link("project/back", "../project2"),
        ];
        let j = truth(
            &tree,
            &["file://{base}/project"],
            "{base}/project/back/secret.txt",
            Op::Read,
        );
        assert_eq!(
            j.explanation,
            "{base}/project/back -> ../project2 (link); target {base}/project2/secret.txt is under no root; root 0 -> {base}/project"
        );
    }

    #[test]
    fn scenario_substitution() {
        let scenario = Scenario {
            name: "s".into(),
            note: None,
            tree: vec![link("l", "{base}/d"), dir("d")],
            roots: vec!["file:{base}/d".into()],
            cases: vec![crate::Case {
                path: "{base}/l/x".into(),
                op: Op::Write,
                expect: None,
            }],
        };
        let judged = judge_scenario(&scenario, Path::new("/m/b"), Outside::Absent).expect("valid");
        assert_eq!(judged[0].truth, Truth::Inside);
        assert_eq!(judged[0].target.as_deref(), Some(Path::new("/m/b/d/x")));
    }
}
