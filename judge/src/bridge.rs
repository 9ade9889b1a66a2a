//! The bridge from core (`rootguard`) to the judge (feature `core`, on
//! under `cargo test`): a scenario's operation and tree in core's types,
//! and core's verdict in the judge's terms, so that the two can be
//! compared. The oracle itself never sees core.
//!
//! # Examples
//!
//! ```
//! use std::path::Path;
//! use rootguard_judge::bridge::{core_op, core_says, mem_fs, Said};
//! use rootguard_judge::oracle::{judge_scenario, Outside, MODEL_BASE};
//! use rootguard_judge::Document;
//!
//! let doc = Document::from_json(r#"{"version": 1, "scenarios": [{
//!   "name": "s", "tree": [{"dir": "project"}, {"symlink": "project/up", "target": ".."}],
//!   "roots": ["file://{base}/project"],
//!   "cases": [{"path": "{base}/project/up/x", "op": "write"}]
//! }]}"#)?;
//! let scenario = &doc.scenarios[0];
//! let on_model = scenario.substituted(MODEL_BASE);
//! let roots = rootguard::Roots::with_fs(&on_model.roots, mem_fs(scenario, MODEL_BASE));
//! let judged = judge_scenario(scenario, Path::new(MODEL_BASE), Outside::Absent)?;
//! let case = &on_model.cases[0];
//! assert_eq!(core_says(&roots.check(&case.path, core_op(case.op))), Said::from(&judged[0]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::PathBuf;

use crate::{Entry, Judgement, Op, PathBytes, Scenario, Truth};

/// Core's operation for a scenario's.
pub fn core_op(op: Op) -> rootguard::Op {
    match op {
        Op::Read => rootguard::Op::Read,
        Op::Write => rootguard::Op::Write,
    }
}

/// A verdict reduced to what core and the judges can both say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    /// Inside, outside, or either (the operation cannot happen).
    pub truth: Truth,
    /// The physical target, when there is one.
    pub target: Option<PathBuf>,
    /// The index of the first root containing it in the roots as listed
    /// (core's `RootId::index`), when inside.
    pub root: Option<usize>,
}

/// What core's `verdict` says.
pub fn core_says(verdict: &rootguard::Verdict) -> Said {
    let (truth, target, root) = match verdict {
        rootguard::Verdict::Inside { root, target } => {
            (Truth::Inside, Some(target.clone()), Some(root.index()))
        }
        rootguard::Verdict::Outside { target } => (Truth::Outside, Some(target.clone()), None),
        rootguard::Verdict::Unresolvable(_) => (Truth::Either, None, None),
    };
    Said {
        truth,
        target,
        root,
    }
}

impl From<&Judgement> for Said {
    /// What a judge's judgement says, without its explanation.
    fn from(j: &Judgement) -> Said {
        Said {
            truth: j.truth,
            target: j.target.clone(),
            root: j.root,
        }
    }
}

/// The scenario's tree as core's in-memory file system, beneath `base`
/// (which is made too).
pub fn mem_fs(scenario: &Scenario, base: &str) -> rootguard::fs::MemFs {
    let mut fs = rootguard::fs::MemFs::new();
    fs.add_dir(base);
    for entry in &scenario.tree {
        let path = PathBytes::from(base).join(b"/").join(entry.path());
        match entry {
            Entry::Dir { .. } => fs.add_dir(&path),
            Entry::File { .. } => fs.add_file(&path),
            Entry::Symlink { target, .. } => {
                fs.add_symlink(&path, target.replace(crate::BASE_PLACEHOLDER, base))
            }
        };
    }
    fs
}
