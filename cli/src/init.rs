//! `rootguard init`: a ready checker skeleton in Python, Node or Rust that
//! calls a placeholder check, and the commands that vet it. It never
//! overwrites a file.

use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};

/// Options of `rootguard init`.
#[derive(Args)]
pub struct InitArgs {
    /// The language of the skeleton: a Python or Node program that speaks
    /// the checker protocol through rootguard's adapter, or a Rust test that
    /// vets a function in-process.
    #[arg(value_enum)]
    language: Language,
    /// The directory to write into (made if missing).
    #[arg(default_value = ".")]
    dir: PathBuf,
}

/// What a skeleton is written in.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Language {
    /// `rootguard_checker.py`, on the adapter `rootguard_protocol`.
    Python,
    /// `rootguard-checker.mjs`, on the adapter `rootguard-protocol`.
    Node,
    /// A crate whose `tests/rootguard.rs` calls `rootguard_vet::vet_fn`.
    Rust,
}

/// Why nothing, or not everything, was written.
#[derive(Debug)]
pub enum InitError {
    /// A file of the skeleton is there already: init never overwrites one.
    Exists(PathBuf),
    /// A directory or file could not be made.
    CannotWrite(PathBuf, io::Error),
}

impl fmt::Display for InitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InitError::Exists(path) => write!(
                f,
                "{} exists, and init never overwrites a file: move it away, or name another directory \
                 (rootguard init LANGUAGE DIR); nothing was written",
                path.display()
            ),
            InitError::CannotWrite(path, e) => write!(f, "cannot write {}: {e}", path.display()),
        }
    }
}

impl std::error::Error for InitError {}

/// One file of a skeleton: where it goes below the directory, and its text.
struct SkeletonFile {
    name: &'static str,
    text: String,
}

/// The rootguard checkout this binary was built from, while it is still
/// there: the skeleton then names its adapters and crates by path, since
/// they are not published yet.
fn checkout() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).parent()?;
    let is_rootguard = fs::read_to_string(dir.join("vet/Cargo.toml"))
        .is_ok_and(|text| text.contains("name = \"rootguard-vet\""))
        && dir.join("adapters/python/pyproject.toml").is_file()
        && dir.join("adapters/node/package.json").is_file();
    is_rootguard.then(|| dir.to_owned())
}

/// The `[dev-dependencies]` of the Rust skeleton: the checkout's crates by
/// path when there is one, else their published version.
fn rust_dev_dependencies(checkout: Option<&Path>) -> String {
    let version = env!("CARGO_PKG_VERSION");
    let crates = [("rootguard", "core"), ("rootguard-vet", "vet")];
    crates
        .iter()
        .map(|(name, dir)| match checkout.map(|c| c.join(dir)) {
            // A TOML literal string holds any path without ' or a control character.
            Some(path)
                if path
                    .to_str()
                    .is_some_and(|p| !p.contains('\'') && !p.contains(char::is_control)) =>
            {
                format!("{name} = {{ path = '{}' }}\n", path.display())
            }
            _ => format!("{name} = \"{version}\"\n"),
        })
        .collect()
}

fn skeleton(language: Language, checkout: Option<&Path>) -> Vec<SkeletonFile> {
    let file = |name, text: &str| SkeletonFile {
        name,
        text: text.to_owned(),
    };
    match language {
        Language::Python => vec![file(
            "rootguard_checker.py",
            include_str!("../skeletons/python/rootguard_checker.py"),
        )],
        Language::Node => vec![file(
            "rootguard-checker.mjs",
            include_str!("../skeletons/node/rootguard-checker.mjs"),
        )],
        Language::Rust => vec![
            SkeletonFile {
                name: "Cargo.toml",
                text: include_str!("../skeletons/rust/Cargo.toml.in")
                    .replace("@DEV_DEPENDENCIES@\n", &rust_dev_dependencies(checkout)),
            },
            file("src/lib.rs", include_str!("../skeletons/rust/src/lib.rs")),
            file(
                "tests/rootguard.rs",
                include_str!("../skeletons/rust/tests/rootguard.rs"),
            ),
        ],
    }
}

/// Writes every file of `files` below `dir`, or none when one is there
/// already; the paths written.
///
/// # Errors
///
/// [`InitError::Exists`] before anything is written, or [`InitError::CannotWrite`]
/// naming the path that failed.
fn write_all(dir: &Path, files: &[SkeletonFile]) -> Result<Vec<PathBuf>, InitError> {
    let paths: Vec<PathBuf> = files.iter().map(|f| dir.join(f.name)).collect();
    // symlink_metadata: a dangling link is "there" too, and is not followed.
    if let Some(taken) = paths.iter().find(|p| fs::symlink_metadata(p).is_ok()) {
        return Err(InitError::Exists(taken.clone()));
    }
    for (file, path) in files.iter().zip(&paths) {
        let parent = path.parent().unwrap_or(dir);
        fs::create_dir_all(parent).map_err(|e| InitError::CannotWrite(parent.to_owned(), e))?;
        // create_new: a file that appeared since the check above is still not overwritten.
        let mut out = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| match e.kind() {
                io::ErrorKind::AlreadyExists => InitError::Exists(path.clone()),
                _ => InitError::CannotWrite(path.clone(), e),
            })?;
        out.write_all(file.text.as_bytes())
            .map_err(|e| InitError::CannotWrite(path.clone(), e))?;
    }
    Ok(paths)
}

/// `word` as the shell reads it back.
fn shell(word: &Path) -> String {
    let text = word.to_string_lossy();
    shlex::try_quote(&text).map_or_else(|_| text.to_string(), |q| q.into_owned())
}

/// What to do next, as the lines to print.
fn next_steps(language: Language, dir: &Path, checkout: Option<&Path>) -> Vec<String> {
    let adapter = |name: &str| match checkout {
        Some(c) => shell(&c.join("adapters").join(name)),
        None => format!(
            "ROOTGUARD/adapters/{name}   (ROOTGUARD: a clone of {})",
            env!("CARGO_PKG_REPOSITORY")
        ),
    };
    let (install, function, file, interpreter) = match language {
        Language::Python => (
            format!("pip install {}", adapter("python")),
            "is_allowed()",
            "rootguard_checker.py",
            "python3",
        ),
        Language::Node => (
            format!(
                "npm install --prefix {} --install-links {}",
                shell(dir),
                adapter("node")
            ),
            "isAllowed()",
            "rootguard-checker.mjs",
            "node",
        ),
        Language::Rust => return rust_next_steps(dir),
    };
    let script = shell(&dir.join(file));
    vec![
        "1. Install the protocol adapter:".into(),
        format!("     {install}"),
        format!("2. Make {function} in {script} call your server's check."),
        "   Until then it allows every path, and vet finds escapes.".into(),
        "3. Vet it:".into(),
        format!("     rootguard vet --budget 20 -- {interpreter} {script}"),
    ]
}

/// What to do next with the Rust skeleton: no adapter, a test to run.
fn rust_next_steps(dir: &Path) -> Vec<String> {
    vec![
        format!(
            "1. Make is_allowed() in {} call your crate's check (add your crate to [dependencies]).",
            shell(&dir.join("tests/rootguard.rs"))
        ),
        "   Until then it allows every path, and the test finds escapes.".into(),
        "2. Vet it:".into(),
        format!(
            "     cargo test --manifest-path {} --test rootguard",
            shell(&dir.join("Cargo.toml"))
        ),
        "   Or copy tests/rootguard.rs and the [dev-dependencies] into your own crate.".into(),
    ]
}

/// Runs `rootguard init`: exit 0 written, 2 refused or failed.
pub fn run(args: &InitArgs) -> ExitCode {
    let checkout = checkout();
    let files = skeleton(args.language, checkout.as_deref());
    match write_all(&args.dir, &files) {
        Ok(paths) => {
            for path in paths {
                println!("wrote {}", path.display());
            }
            for line in next_steps(args.language, &args.dir, checkout.as_deref()) {
                println!("{line}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("rootguard: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dev_dependencies_by_path_or_by_version() {
        let by_path = rust_dev_dependencies(Some(Path::new("/src/rootguard")));
        assert_eq!(
            by_path,
            "rootguard = { path = '/src/rootguard/core' }\nrootguard-vet = { path = '/src/rootguard/vet' }\n"
        );
        let quoted = rust_dev_dependencies(Some(Path::new("/it's")));
        assert!(quoted.starts_with("rootguard = \"0."), "{quoted}");
        assert!(rust_dev_dependencies(None).contains("rootguard-vet = \""));
    }

    #[test]
    fn a_skeleton_refuses_to_overwrite_and_writes_nothing_then() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("tests")).unwrap();
        fs::write(dir.path().join("tests/rootguard.rs"), "mine").unwrap();
        let err = write_all(dir.path(), &skeleton(Language::Rust, None)).unwrap_err();
        assert!(matches!(&err, InitError::Exists(p) if p.ends_with("tests/rootguard.rs")));
        assert!(err.to_string().contains("nothing was written"));
        assert!(!dir.path().join("Cargo.toml").exists());
        assert_eq!(
            fs::read_to_string(dir.path().join("tests/rootguard.rs")).unwrap(),
            "mine"
        );
    }

    #[test]
    fn a_dangling_link_counts_as_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside.py");
        std::os::unix::fs::symlink(&outside, dir.path().join("rootguard_checker.py")).unwrap();
        let err = write_all(dir.path(), &skeleton(Language::Python, None)).unwrap_err();
        assert!(matches!(err, InitError::Exists(_)));
        assert!(!outside.exists());
    }
}
