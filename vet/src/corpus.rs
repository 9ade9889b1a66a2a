//! The bundled conformance corpus and `--corpus` files.

use std::fs;
use std::path::{Path, PathBuf};

use rootguard_proptests::Document;

use crate::HarnessError;

/// Scenario documents built into the binary: the project's hand-written
/// hostile scenarios, run first on every checker.
pub const BUNDLED: &[(&str, &str)] = &[(
    "hostile.json",
    include_str!("../../proptests/tests/scenarios/hostile.json"),
)];

/// A scenario document and where it came from.
#[derive(Debug, Clone)]
pub struct Source {
    /// A file path or `bundled:<name>`.
    pub origin: String,
    /// The parsed document.
    pub document: Document,
}

/// The bundled documents.
///
/// # Errors
///
/// [`HarnessError::Scenario`] if a bundled document does not parse (a build defect).
pub fn bundled() -> Result<Vec<Source>, HarnessError> {
    BUNDLED
        .iter()
        .map(|(name, text)| {
            Document::from_json(text)
                .map(|document| Source {
                    origin: format!("bundled:{name}"),
                    document,
                })
                .map_err(|e| HarnessError::Scenario(format!("bundled corpus {name}: {e}")))
        })
        .collect()
}

/// Loads scenario files: each path is a `.json` file or a directory whose
/// `*.json` files are loaded in name order.
///
/// # Errors
///
/// [`HarnessError::Scenario`] naming the file that cannot be read or parsed.
pub fn load(paths: &[PathBuf]) -> Result<Vec<Source>, HarnessError> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = fs::read_dir(path)
                .map_err(|e| {
                    HarnessError::Scenario(format!("cannot list {}: {e}", path.display()))
                })?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    files.iter().map(|file| load_file(file)).collect()
}

/// Loads one scenario file.
///
/// # Errors
///
/// [`HarnessError::Scenario`] naming the file and what is wrong with it.
pub fn load_file(file: &Path) -> Result<Source, HarnessError> {
    let text = fs::read_to_string(file).map_err(|e| {
        HarnessError::Scenario(format!(
            "cannot read the scenario file {}: {e}",
            file.display()
        ))
    })?;
    let document = Document::from_json(&text).map_err(|e| {
        HarnessError::Scenario(format!(
            "{} is not a valid scenario document (scenario-format v1): {e}",
            file.display()
        ))
    })?;
    Ok(Source {
        origin: file.display().to_string(),
        document,
    })
}
