//! The fuzz target names live in one list, `fuzz/targets` (one name a
//! line, which `fuzz/targets.sh` and `.clusterfuzzlite/build.sh` read).
//! Everything else that names the targets must agree with it: the checks'
//! table (`fuzzing::TARGETS`, which `replay` dispatches on), `fuzz/Cargo.toml`'s
//! bins, `fuzz/fuzz_targets/*.rs`, the seeds, dictionaries, options and
//! kept crashes, and the per-target settings of `fuzz/targets.sh`.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use rootguard_fuzzing::TARGETS;

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// `fuzz/targets`, in order.
fn the_list() -> Vec<String> {
    read(&fuzz_dir().join("targets"))
        .lines()
        .map(str::to_owned)
        .collect()
}

/// The names in `dir` (files or directories) that end in `suffix`, the
/// suffix taken off; dot files and `README.md` left out.
fn names_in(dir: &str, suffix: &str) -> BTreeSet<String> {
    let path = fuzz_dir().join(dir);
    fs::read_dir(&path)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", path.display()))
        .map(|e| e.expect("a readable entry").file_name())
        .filter_map(|n| n.to_str().map(str::to_owned))
        .filter(|n| !n.starts_with('.') && n != "README.md")
        .filter_map(|n| n.strip_suffix(suffix).map(str::to_owned))
        .collect()
}

/// Each `[[bin]]` of `fuzz/Cargo.toml` as (name, path).
fn cargo_bins() -> Vec<(String, String)> {
    let manifest = read(&fuzz_dir().join("Cargo.toml"));
    let value = |line: &str, key: &str| -> Option<String> {
        let rest = line
            .trim()
            .strip_prefix(key)?
            .trim_start()
            .strip_prefix('=')?;
        Some(rest.trim().trim_matches('"').to_owned())
    };
    let mut bins = Vec::new();
    let mut in_bin = false;
    let (mut name, mut path) = (None, None);
    for line in manifest.lines().chain(["[end]"]) {
        if line.trim_start().starts_with('[') {
            if in_bin {
                bins.push((
                    name.take().expect("a [[bin]] has a name"),
                    path.take().expect("a [[bin]] has a path"),
                ));
            }
            in_bin = line.trim() == "[[bin]]";
        } else if in_bin {
            name = name.or_else(|| value(line, "name"));
            path = path.or_else(|| value(line, "path"));
        }
    }
    bins
}

#[test]
fn every_list_of_targets_is_fuzz_targets() {
    let list = the_list();
    let set: BTreeSet<String> = list.iter().cloned().collect();
    assert!(!list.is_empty(), "fuzz/targets is empty");
    assert_eq!(
        set.len(),
        list.len(),
        "fuzz/targets repeats a name: {list:?}"
    );
    for name in &list {
        assert!(
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
            "fuzz/targets: {name:?} is not a target name (one name a line, a-z and _)"
        );
    }

    assert_eq!(
        TARGETS, list,
        "rootguard_fuzzing::TARGETS (left) is not fuzz/targets (right), in order"
    );

    let bins = cargo_bins();
    for (name, path) in &bins {
        assert_eq!(
            path,
            &format!("fuzz_targets/{name}.rs"),
            "fuzz/Cargo.toml: bin {name} is not at fuzz_targets/{name}.rs"
        );
    }
    let bin_names: Vec<String> = bins.into_iter().map(|(name, _)| name).collect();
    assert_eq!(
        bin_names, list,
        "fuzz/Cargo.toml's [[bin]]s (left) are not fuzz/targets (right), in order"
    );

    for (what, found) in [
        ("fuzz/fuzz_targets/*.rs", names_in("fuzz_targets", ".rs")),
        ("fuzz/corpus/*/", names_in("corpus", "")),
        ("fuzz/dicts/*.dict", names_in("dicts", ".dict")),
        ("fuzz/regressions/*/", names_in("regressions", "")),
    ] {
        assert_eq!(found, set, "{what} (left) is not fuzz/targets (right)");
    }
    let options = names_in("options", ".options");
    assert!(
        options.is_subset(&set),
        "fuzz/options/ has options of no target: {:?}",
        options.difference(&set).collect::<Vec<_>>()
    );
}

/// The targets `fuzz/targets.sh` configures by name (its `build_flags`
/// cases and `ASAN_TARGETS`) are targets.
#[test]
fn targets_sh_configures_only_listed_targets() {
    let set: BTreeSet<String> = the_list().into_iter().collect();
    let script = read(&fuzz_dir().join("targets.sh"));
    let mut named = Vec::new();
    for line in script.lines().map(str::trim) {
        if let Some(list) = line
            .strip_prefix("ASAN_TARGETS=(")
            .and_then(|l| l.strip_suffix(')'))
        {
            named.extend(list.split_whitespace().map(str::to_owned));
        } else if let Some((arm, _)) = line.split_once(") printf") {
            named.push(arm.to_owned());
        }
    }
    assert!(
        named.len() >= 3,
        "found no per-target settings in fuzz/targets.sh: {named:?}"
    );
    for name in &named {
        assert!(
            set.contains(name),
            "fuzz/targets.sh configures {name:?}, which is not in fuzz/targets"
        );
    }
}
