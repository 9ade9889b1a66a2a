//! The bundled conformance corpus and `--corpus` files.

use std::fs;
use std::path::{Path, PathBuf};

use rootguard_judge::Document;

use crate::HarnessError;

/// Scenario documents built into the binary and run first on every
/// checker: the conformance corpus (`corpus/scenarios/*.json`, listed here
/// by hand; a test fails when the list is stale), then the judge's
/// hand-written hostile scenarios.
pub const BUNDLED: &[(&str, &str)] = &[
    (
        "corpus/scenarios/case-unicode.json",
        include_str!("../corpus/scenarios/case-unicode.json"),
    ),
    (
        "corpus/scenarios/dangling-write.json",
        include_str!("../corpus/scenarios/dangling-write.json"),
    ),
    (
        "corpus/scenarios/dotdot.json",
        include_str!("../corpus/scenarios/dotdot.json"),
    ),
    (
        "corpus/scenarios/limits.json",
        include_str!("../corpus/scenarios/limits.json"),
    ),
    (
        "corpus/scenarios/linked-parents.json",
        include_str!("../corpus/scenarios/linked-parents.json"),
    ),
    (
        "corpus/scenarios/links.json",
        include_str!("../corpus/scenarios/links.json"),
    ),
    (
        "corpus/scenarios/root-uris.json",
        include_str!("../corpus/scenarios/root-uris.json"),
    ),
    (
        "corpus/scenarios/sibling-prefix.json",
        include_str!("../corpus/scenarios/sibling-prefix.json"),
    ),
    (
        "corpus/scenarios/special-roots.json",
        include_str!("../corpus/scenarios/special-roots.json"),
    ),
    (
        "corpus/scenarios/write-edge.json",
        include_str!("../corpus/scenarios/write-edge.json"),
    ),
    (
        "judge/tests/scenarios/hostile.json",
        include_str!("../data/hostile.json"),
    ),
];

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_document_parses() {
        let sources = bundled().unwrap();
        assert_eq!(sources.len(), BUNDLED.len());
    }

    #[test]
    fn the_bundled_list_names_every_corpus_file() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/scenarios");
        let mut on_disk: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".json"))
            .map(|n| format!("corpus/scenarios/{n}"))
            .collect();
        on_disk.sort();
        let mut listed: Vec<String> = BUNDLED
            .iter()
            .map(|(name, _)| (*name).to_owned())
            .filter(|n| n.starts_with("corpus/"))
            .collect();
        listed.sort();
        assert_eq!(
            listed, on_disk,
            "update BUNDLED in vet/src/corpus.rs to list every corpus file"
        );
    }
}
