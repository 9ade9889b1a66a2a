//! CI baselines: a previous JSON report, and which defects are new since.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::json::{FORMAT, VERSION};
use crate::model::Report;

/// A baseline that cannot be used: exit status 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BaselineError {
    /// The file cannot be read.
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// The file is not JSON.
    NotJson {
        /// The file.
        path: PathBuf,
        /// The parser's message.
        reason: String,
    },
    /// The JSON is not a rootguard report of a version this build reads.
    NotAReport {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
}

impl fmt::Display for BaselineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BaselineError::Unreadable { path, reason } => write!(
                f,
                "cannot read the baseline {}: {reason}; give a report written by --json or --write-baseline",
                path.display()
            ),
            BaselineError::NotJson { path, reason } => write!(
                f,
                "the baseline {} is not JSON ({reason}); give a report written by --json or --write-baseline",
                path.display()
            ),
            BaselineError::NotAReport { path, reason } => write!(
                f,
                "the baseline {} is not a rootguard report: {reason}; write one with --write-baseline",
                path.display()
            ),
        }
    }
}

impl std::error::Error for BaselineError {}

/// The defect IDs of a previous report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Baseline {
    /// The file it was read from.
    pub path: PathBuf,
    /// Its defect IDs.
    pub ids: BTreeSet<String>,
    /// The IDs its defects stood for or went by besides their own (a
    /// defect's `covers` and `aliases`, docs/reports.md): a defect of a
    /// report is known when its ID, or one it covers or goes by, is among
    /// `ids` or these.
    pub covered: BTreeSet<String>,
    /// For each of its defect IDs, the IDs that defect covered or went by.
    pub others: BTreeMap<String, BTreeSet<String>>,
}

impl Baseline {
    /// Reads a JSON report (format `rootguard-report`, version 1).
    ///
    /// # Errors
    ///
    /// [`BaselineError`] naming the file and what is wrong with it.
    pub fn load(path: &Path) -> Result<Baseline, BaselineError> {
        let text = std::fs::read_to_string(path).map_err(|e| BaselineError::Unreadable {
            path: path.to_owned(),
            reason: e.to_string(),
        })?;
        Baseline::from_json(path, &text)
    }

    /// Parses a JSON report read from `path`.
    ///
    /// # Errors
    ///
    /// As [`Baseline::load`].
    ///
    /// # Examples
    ///
    /// ```
    /// use std::path::Path;
    /// use rootguard_report::Baseline;
    ///
    /// let text = r#"{"format": "rootguard-report", "version": 1, "defects": [{"id": "RG-HANG"}]}"#;
    /// let b = Baseline::from_json(Path::new("old.json"), text)?;
    /// assert!(b.ids.contains("RG-HANG"));
    /// assert!(Baseline::from_json(Path::new("x"), "{}").is_err());
    /// # Ok::<(), rootguard_report::BaselineError>(())
    /// ```
    pub fn from_json(path: &Path, text: &str) -> Result<Baseline, BaselineError> {
        let not_a_report = |reason: String| BaselineError::NotAReport {
            path: path.to_owned(),
            reason,
        };
        let value: Value = serde_json::from_str(text).map_err(|e| BaselineError::NotJson {
            path: path.to_owned(),
            reason: e.to_string(),
        })?;
        if value.get("format").and_then(Value::as_str) != Some(FORMAT) {
            return Err(not_a_report(format!("no \"format\": \"{FORMAT}\"")));
        }
        match value.get("version").and_then(Value::as_u64) {
            Some(VERSION) => {}
            Some(v) => {
                return Err(not_a_report(format!(
                    "version {v}, and this build reads version {VERSION}"
                )))
            }
            None => return Err(not_a_report("no \"version\"".into())),
        }
        let defects = value
            .get("defects")
            .and_then(Value::as_array)
            .ok_or_else(|| not_a_report("no \"defects\" array".into()))?;
        let mut others: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for d in defects {
            let id = d
                .get("id")
                .and_then(Value::as_str)
                .ok_or_else(|| not_a_report("a defect without an \"id\"".into()))?;
            // Reports written before `covers` and `aliases` existed have
            // none: only IDs match.
            let names = ["covers", "aliases"]
                .into_iter()
                .filter_map(|member| d.get(member).and_then(Value::as_array))
                .flatten()
                .filter_map(Value::as_str)
                .map(str::to_owned);
            others.entry(id.to_owned()).or_default().extend(names);
        }
        Ok(Baseline {
            path: path.to_owned(),
            ids: others.keys().cloned().collect(),
            covered: others.values().flatten().cloned().collect(),
            others,
        })
    }
}

/// A report compared with a baseline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparison {
    /// Defects of the report the baseline does not have.
    pub new: Vec<String>,
    /// Of those, the ones that fail the run.
    pub new_failing: Vec<String>,
    /// Defects of the baseline the report does not have.
    pub gone: Vec<String>,
    /// Defects in both.
    pub known: Vec<String>,
}

impl Comparison {
    /// `report` against `baseline`. A defect is known when its ID, or an
    /// ID it covers or goes by, is one the baseline's defects had, covered
    /// or went by; a baseline defect is gone when no defect of the report
    /// has, covers or goes by its ID, or an ID it covered.
    pub fn new(report: &Report, baseline: &Baseline) -> Comparison {
        let names = |d: &'_ crate::model::Defect| -> Vec<String> {
            std::iter::once(d.id().to_owned())
                .chain(d.covers.iter().cloned())
                .chain(d.aliases.iter().cloned())
                .collect()
        };
        let known_before = |d: &crate::model::Defect| {
            names(d)
                .iter()
                .any(|n| baseline.ids.contains(n) || baseline.covered.contains(n))
        };
        let ids: BTreeSet<String> = report.defects.iter().flat_map(names).collect();
        let new: Vec<String> = report
            .defects
            .iter()
            .filter(|d| !known_before(d))
            .map(|d| d.id().to_owned())
            .collect();
        let new_failing = report
            .defects
            .iter()
            .filter(|d| !known_before(d) && report.fails(d))
            .map(|d| d.id().to_owned())
            .collect();
        Comparison {
            new,
            new_failing,
            gone: baseline
                .ids
                .iter()
                .filter(|id| !ids.contains(id.as_str()))
                .filter(|id| !covered_by(baseline, &ids, id))
                .cloned()
                .collect(),
            known: baseline
                .ids
                .iter()
                .filter(|id| ids.contains(id.as_str()) || covered_by(baseline, &ids, id))
                .cloned()
                .collect(),
        }
    }

    /// Whether the run fails against the baseline: a new defect that fails.
    pub fn failed(&self) -> bool {
        !self.new_failing.is_empty()
    }

    /// What changed, in a few lines.
    pub fn text(&self, baseline: &Baseline) -> String {
        let list = |ids: &[String]| {
            if ids.is_empty() {
                "none".to_owned()
            } else {
                ids.join(", ")
            }
        };
        format!(
            "baseline {}: {} new ({}), {} gone ({}), {} known\n{}",
            baseline.path.display(),
            self.new.len(),
            list(&self.new),
            self.gone.len(),
            list(&self.gone),
            self.known.len(),
            if self.failed() {
                format!(
                    "FAIL: new since the baseline: {}",
                    self.new_failing.join(", ")
                )
            } else {
                "ok: no new defect that fails the run".to_owned()
            }
        )
    }
}

/// Whether baseline defect `id` lives on in a report whose defects have,
/// cover or go by `now`, under an ID it covered or went by
/// (`RG-ROOT-URI-AS-TEXT` then and one rule's own ID now; `RG-LINK-BUDGET`
/// then, going by `RG-LINK-CHAIN`, and `RG-LINK-CHAIN` now).
fn covered_by(baseline: &Baseline, now: &BTreeSet<String>, id: &str) -> bool {
    baseline
        .others
        .get(id)
        .is_some_and(|names| names.iter().any(|n| now.contains(n)))
}
