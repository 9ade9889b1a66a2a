//! `rootguard init python|node|rust DIR` as a user runs it: the skeleton
//! fails to vet while its placeholder allows everything, vets clean once the
//! placeholder calls a sound check, and init never overwrites a file.

mod common;

use std::ffi::OsStr;
use std::fs;
use std::path::Path;
use std::process::Command;

use common::{
    cargo_test, node_with_adapter, python_with_adapter, repo, sound_example, vet, Search, ROOTGUARD,
};

/// Runs `rootguard init LANGUAGE DIR`: exit status, stdout, stderr.
fn init(language: &str, dir: &Path) -> (Option<i32>, String, String) {
    let out = Command::new(ROOTGUARD)
        .args(["init", language])
        .arg(dir)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `file` with its one PLACEHOLDER line replaced by `with`.
fn fill(file: &Path, with: &str) {
    let text = fs::read_to_string(file).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| l.contains("PLACEHOLDER")).collect();
    assert_eq!(lines.len(), 1, "one placeholder line in {}", file.display());
    fs::write(file, text.replace(lines[0], with)).unwrap();
}

/// Writes the skeleton, checks the files and the advice printed, and that a
/// second init refuses and changes nothing.
fn written(language: &str, dir: &Path, files: &[&str], advice: &[&str]) {
    let (code, stdout, stderr) = init(language, dir);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    for file in files {
        assert!(dir.join(file).is_file(), "{file} not written:\n{stdout}");
        assert!(
            stdout.contains(&format!("wrote {}", dir.join(file).display())),
            "{stdout}"
        );
    }
    for line in advice {
        assert!(stdout.contains(line), "{line:?} not in:\n{stdout}");
    }
    let before: Vec<String> = files
        .iter()
        .map(|f| fs::read_to_string(dir.join(f)).unwrap())
        .collect();
    let (code, stdout, stderr) = init(language, dir);
    assert_eq!(code, Some(2), "{stdout}{stderr}");
    assert!(
        stderr.contains("exists, and init never overwrites a file"),
        "{stderr}"
    );
    assert!(stdout.is_empty(), "{stdout}");
    let after: Vec<String> = files
        .iter()
        .map(|f| fs::read_to_string(dir.join(f)).unwrap())
        .collect();
    assert_eq!(before, after);
}

/// Vets `command`: it must fail while the placeholder allows everything,
/// and pass once `fill` has put a sound check in its place.
fn fails_then_vets_clean(tmp: &Path, command: &[&OsStr], fill: impl FnOnce()) {
    let (code, out) = vet(tmp, Search::Corpus, command);
    assert_eq!(code, Some(1), "the placeholder allows everything:\n{out}");
    fill();
    let (code, out) = vet(tmp, Search::Cases(6_000), command);
    assert_eq!(code, Some(0), "filled with a sound check:\n{out}");
}

#[test]
fn python_skeleton() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("my checker");
    let pip = format!("pip install {}", repo().join("adapters/python").display());
    written(
        "python",
        &dir,
        &["rootguard_checker.py"],
        &[&pip, "rootguard vet --budget 20 -- python3 "],
    );
    let Some(python) = python_with_adapter(tmp.path()) else {
        return;
    };
    let script = dir.join("rootguard_checker.py");
    fails_then_vets_clean(
        tmp.path(),
        &[python.as_os_str(), script.as_os_str()],
        || {
            fill(
            &script,
            &format!(
                "    import sys; sys.path.insert(0, {:?}); import sound\n    return sound.check(roots, path, op)",
                sound_example("sound.py").parent().unwrap()
            ),
        );
        },
    );
}

#[test]
fn node_skeleton() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("checker");
    let npm = format!("--install-links {}", repo().join("adapters/node").display());
    written(
        "node",
        &dir,
        &["rootguard-checker.mjs"],
        &[&npm, "rootguard vet --budget 20 -- node "],
    );
    let Some(node) = node_with_adapter(&dir) else {
        return;
    };
    let script = dir.join("rootguard-checker.mjs");
    fails_then_vets_clean(tmp.path(), &[OsStr::new(&node), script.as_os_str()], || {
        // An ESM module may not require(): the sound example comes in by import.
        let text = fs::read_to_string(&script).unwrap();
        let import = format!("import sound from {:?};\n", sound_example("sound.js"));
        let text = text.replacen(
            "import { serve }",
            &format!("{import}import {{ serve }}"),
            1,
        );
        fs::write(&script, text).unwrap();
        fill(&script, "  return sound.check(roots, path, op);");
    });
}

#[test]
#[ignore = "full tier: builds the crates again, in a target dir of its own"]
fn rust_skeleton() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("checker");
    written(
        "rust",
        &dir,
        &["Cargo.toml", "src/lib.rs", "tests/rootguard.rs"],
        &["cargo test --manifest-path ", " --test rootguard"],
    );
    let manifest = fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    assert!(
        manifest.contains(&format!(
            "rootguard-vet = {{ path = '{}' }}",
            repo().join("vet").display()
        )),
        "{manifest}"
    );
    let test = dir.join("tests/rootguard.rs");
    let Some((passed, out)) = cargo_test(&dir, &[("ROOTGUARD_BUDGET", "0")]) else {
        return;
    };
    assert!(!passed, "the placeholder allows everything:\n{out}");
    assert!(out.contains("escape"), "{out}");
    fill(
        &test,
        "    rootguard::Roots::new(roots.iter().copied()).check(path, op).is_inside()",
    );
    let text = fs::read_to_string(&test)
        .unwrap()
        .replace("    let _ = (roots, path, op);\n", "");
    fs::write(&test, text).unwrap();
    let Some((passed, out)) = cargo_test(
        &dir,
        &[("ROOTGUARD_BUDGET", "600"), ("ROOTGUARD_CASES", "6000")],
    ) else {
        return;
    };
    assert!(passed, "filled with a sound check:\n{out}");
}
