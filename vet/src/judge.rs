//! Judging a checker's answer: the truth from the model oracle and the
//! kernel on the materialized tree (semantics.md section 3), and the class
//! of the answer.

use rootguard_judge::flavour::Flavour;
use rootguard_judge::oracle::{self, parse_root_uri, ModelFs, Outside};
use rootguard_judge::strategies::file_uri;
use rootguard_judge::{kernel, Judgement, Materialized, Op, PathBytes, Scenario, Truth};

use crate::checker::{Checker, Reply, Request};
use crate::HarnessError;

/// The classes of defect, shared with `rootguard mcp` and the reports.
pub use rootguard_triage::Class;

/// The truth of queries on one materialized tree.
#[derive(Debug)]
pub struct Judge {
    model: ModelFs,
}

/// The truth of one query, with a note when the model and kernel disagreed.
#[derive(Debug, Clone)]
pub struct Truthful {
    /// The kernel's judgement (the final word).
    pub judgement: Judgement,
    /// Set when the model oracle said otherwise (a harness defect).
    pub disagreement: Option<String>,
}

impl Judge {
    /// A judge for `materialized`'s tree.
    ///
    /// # Errors
    ///
    /// [`HarnessError::Scenario`] when the model cannot lay the tree out.
    pub fn new(materialized: &Materialized) -> Result<Judge, HarnessError> {
        let model = ModelFs::new(
            &materialized.scenario().tree,
            materialized.base(),
            Outside::Host,
        )
        .map_err(|e| HarnessError::Scenario(format!("the model cannot lay out the tree: {e}")))?;
        Ok(Judge { model })
    }

    /// The truth of `op` on `path` under `roots`: the kernel's, checked
    /// against the model oracle's.
    pub fn truth(&self, roots: &[String], path: &PathBytes, op: Op) -> Truthful {
        let from_kernel = kernel::judge(roots, path.as_bytes(), op);
        let from_model = oracle::judge(roots, path.as_bytes(), op, &self.model);
        let disagreement = (from_kernel.truth != from_model.truth).then(|| {
            format!(
                "model and kernel disagree on {op} {path:?} under {roots:?}: model {from_model}; kernel {from_kernel} (the kernel's word is taken)"
            )
        });
        // The model explains which component went where; keep it where it agrees.
        let judgement = if disagreement.is_none() {
            from_model
        } else {
            from_kernel
        };
        Truthful {
            judgement,
            disagreement,
        }
    }
}

/// The roots a well-behaved client would send for the same locations: each
/// valid root re-spelled `file://` plus its normalized path, escaping only
/// what must be escaped; invalid roots dropped, and roots that do not
/// resolve on the file system now (they grant nothing either).
pub fn clean_roots(roots: &[String]) -> Vec<String> {
    roots
        .iter()
        .filter(|uri| kernel::resolve_root(uri).is_ok())
        .filter_map(|uri| parse_root_uri(uri).ok())
        .map(|path| file_uri(&path))
        .collect()
}

/// One query asked and judged.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The request as sent.
    pub request: Request,
    /// What came back.
    pub reply: Reply,
    /// The truth for the path the operation would use (`use` honoured).
    pub truth: Option<Truthful>,
    /// The defect shown, if any.
    pub class: Option<Class>,
}

/// Issues request ids.
#[derive(Debug, Default)]
pub struct Ids(u64);

impl Ids {
    /// The next id.
    pub fn next_id(&mut self) -> u64 {
        self.0 += 1;
        self.0
    }

    /// How many ids were issued.
    pub fn issued(&self) -> u64 {
        self.0
    }

    /// Ids that begin after `n`: [`Ids::issued`] then counts from `n`.
    pub(crate) fn starting_after(n: u64) -> Ids {
        Ids(n)
    }

    /// Counts `n` ids issued elsewhere (by another job's [`Ids`]), so that
    /// [`Ids::issued`] counts every request and the next id is new.
    pub(crate) fn skip(&mut self, n: u64) {
        self.0 += n;
    }
}

/// Asks one query, judges the answer and classes it; an escape is asked
/// again with [`clean_roots`] to tell a path escape from a root escape.
///
/// # Errors
///
/// [`HarnessError`] when the checker cannot be (re)started.
pub fn evaluate(
    checker: &mut dyn Checker,
    judge: &Judge,
    ids: &mut Ids,
    roots: &[String],
    path: &PathBytes,
    op: Op,
) -> Result<Outcome, HarnessError> {
    evaluate_against(checker, judge, ids, roots, path, op, None)
}

/// [`evaluate`], with the truth of `path` itself taken from `expected`
/// where given (a replayed scenario's `expect`); a rewritten `use` path is
/// still judged afresh.
///
/// # Errors
///
/// [`HarnessError`] when the checker cannot be (re)started.
pub fn evaluate_against(
    checker: &mut dyn Checker,
    judge: &Judge,
    ids: &mut Ids,
    roots: &[String],
    path: &PathBytes,
    op: Op,
    expected: Option<Truth>,
) -> Result<Outcome, HarnessError> {
    let request = Request {
        id: ids.next_id(),
        roots: roots.to_vec(),
        path: path.clone(),
        op,
        flavour: Flavour::Linux,
    };
    let reply = checker.ask(&request)?;
    let (truth, class) = match &reply {
        Reply::Hang => (None, Some(Class::Hang)),
        Reply::Crash(_) => (None, Some(Class::Crash)),
        Reply::ProtocolError(_) => (None, Some(Class::ProtocolError)),
        Reply::Answer(answer) => {
            let used = answer
                .use_path
                .as_ref()
                .filter(|_| answer.allowed)
                .unwrap_or(path);
            let mut truth = judge.truth(roots, used, op);
            if let Some(expected) = expected.filter(|_| used == path) {
                truth.judgement.truth = expected;
            }
            let class = match (truth.judgement.truth, answer.allowed) {
                (Truth::Outside, true) => Some(escape_class(checker, judge, ids, roots, path, op)?),
                (Truth::Inside, false) => Some(Class::Overblock),
                _ => None,
            };
            (Some(truth), class)
        }
    };
    Ok(Outcome {
        request,
        reply,
        truth,
        class,
    })
}

fn escape_class(
    checker: &mut dyn Checker,
    judge: &Judge,
    ids: &mut Ids,
    roots: &[String],
    path: &PathBytes,
    op: Op,
) -> Result<Class, HarnessError> {
    let clean = clean_roots(roots);
    if clean.is_empty() {
        // Nothing usable was sent: the escape is the checker granting on no root.
        return Ok(Class::RootEscape);
    }
    if clean == roots {
        return Ok(Class::PathEscape);
    }
    let request = Request {
        id: ids.next_id(),
        roots: clean.clone(),
        path: path.clone(),
        op,
        flavour: Flavour::Linux,
    };
    Ok(match checker.ask(&request)? {
        Reply::Answer(answer) if answer.allowed => {
            let used = answer.use_path.as_ref().unwrap_or(path);
            if judge.truth(&clean, used, op).judgement.truth == Truth::Outside {
                Class::PathEscape
            } else {
                Class::RootEscape
            }
        }
        _ => Class::RootEscape,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_roots_respell_and_drop() {
        let roots = [
            "FILE://LocalHost/tmp/%2e%2e/tmp/".to_owned(),
            "file://srv/tmp".to_owned(),
            "file:/".to_owned(),
            "file:///rootguard-surely-missing".to_owned(),
        ];
        assert_eq!(clean_roots(&roots), ["file:///tmp", "file:///"]);
    }
}

/// One finding: a query that showed a class of defect.
#[derive(Debug, Clone)]
pub struct Finding {
    /// Its class.
    pub class: Class,
    /// Where the scenario came from (`bundled:…`, a file, or `random`).
    pub origin: String,
    /// The exact request that showed it (after any shrinking).
    pub request: String,
    /// What the checker answered, in words.
    pub answer: String,
    /// The truth, where an answer was judged.
    pub truth: Option<Judgement>,
    /// The scenario showing it, `{base}` form, one case (minimal when shrunk).
    pub scenario: Scenario,
    /// Whether `scenario` was shrunk.
    pub shrunk: bool,
    /// The checker's recent stderr.
    pub stderr: String,
}
