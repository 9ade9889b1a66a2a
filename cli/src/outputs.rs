//! The report files and CI baselines `rootguard vet` and `rootguard mcp`
//! share: `--json`, `--sarif`, `--junit`, `--html`, `--baseline`,
//! `--write-baseline`.

use std::fs;
use std::path::{Path, PathBuf};

use clap::Args;
use rootguard_report::{Baseline, BaselineError, Comparison, Report};

use crate::args::{BASELINES, OUTPUTS};

/// Where the report goes, and the baseline it is compared with.
#[derive(Args, Debug, Clone)]
pub struct ReportArgs {
    /// Write the report as JSON to FILE (schema `rootguard-report` version 1, docs/reports.md).
    #[arg(long, value_name = "FILE", help_heading = OUTPUTS)]
    json: Option<PathBuf>,
    /// Write the report as SARIF 2.1.0 to FILE (one rule per defect ID, for GitHub code scanning).
    #[arg(long, value_name = "FILE", help_heading = OUTPUTS)]
    sarif: Option<PathBuf>,
    /// Write the report as JUnit XML to FILE (one test case per defect).
    #[arg(long, value_name = "FILE", help_heading = OUTPUTS)]
    junit: Option<PathBuf>,
    /// Write the report as one self-contained HTML page to FILE (each defect's tree drawn).
    #[arg(long, value_name = "FILE", help_heading = OUTPUTS)]
    html: Option<PathBuf>,
    /// Compare with a previous JSON report: exit 1 only for defects it does not have.
    #[arg(long, value_name = "FILE", help_heading = BASELINES)]
    baseline: Option<PathBuf>,
    /// Write the JSON report to FILE, to be the next run's --baseline.
    #[arg(long, value_name = "FILE", help_heading = BASELINES)]
    write_baseline: Option<PathBuf>,
}

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

impl ReportArgs {
    /// The baseline, read before the run so that a bad one stops it at once.
    ///
    /// # Errors
    ///
    /// [`BaselineError`] naming the file and what is wrong with it.
    pub fn load_baseline(&self) -> Result<Option<Baseline>, BaselineError> {
        self.baseline.as_deref().map(Baseline::load).transpose()
    }

    /// Writes every report file asked for.
    ///
    /// # Errors
    ///
    /// The first file that cannot be written, named.
    pub fn write(&self, report: &Report) -> Result<(), String> {
        let json = rootguard_report::json(report);
        for path in [&self.json, &self.write_baseline].into_iter().flatten() {
            write_file(path, &json)?;
        }
        if let Some(path) = &self.sarif {
            write_file(path, &rootguard_report::sarif(report))?;
        }
        if let Some(path) = &self.junit {
            write_file(path, &rootguard_report::junit(report))?;
        }
        if let Some(path) = &self.html {
            write_file(path, &rootguard_report::html(report))?;
        }
        Ok(())
    }
}

/// Whether the run fails, and with a baseline what changed: without one,
/// any defect that fails; with one, only a new one.
pub fn verdict(report: &Report, baseline: Option<&Baseline>) -> (bool, Option<String>) {
    match baseline {
        None => (report.failed(), None),
        Some(baseline) => {
            let comparison = Comparison::new(report, baseline);
            (comparison.failed(), Some(comparison.text(baseline)))
        }
    }
}
