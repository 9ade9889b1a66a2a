//! The git phase's trees: the repositories a git tool is attacked on and
//! the indirections planted beside them.
//!
//! A repository cannot be written as a scenario's entries (its objects
//! are compressed), so the phase makes two template repositories once
//! with the `git` command in a directory of its own ([`Repositories`]):
//! `inside` (what the root holds) and `outside` (what every outside
//! repository holds: the canary in a commit message, in a branch name,
//! in a committed file, in a change and in a staged file). Each tree the
//! phase lays copies them into the base ([`Repositories::lay`]): the root
//! `{base}/proj`, the outside repository `{base}/out/repo` and the prefix
//! sibling `{base}/proj2`, as plain files.
//!
//! rootguard runs `git` only on directories it has just made, before any
//! server could write there (the templates, and with `--git-roots` a root
//! laid fresh for a server not yet started), with the configuration that
//! runs commands turned off: never in a repository a server may have
//! planted a hook or a config in.

use std::fs;
use std::path::Path;
use std::process::Command;

use rootguard_judge::{Entry, Materialized};

use crate::gitdoors::BRANCH;
use crate::HarnessError;

/// The outside repository every repository attack aims at.
pub(super) const OUTSIDE_REPO: &str = "out/repo";

/// The prefix sibling of the root, a repository too.
pub(super) const SIBLING_REPO: &str = "proj2";

/// The canary file beside the root that path arguments aim at.
pub(super) const OUTSIDE_FILE: &str = "out/secret.txt";

/// The worktree whose `commondir` leads out: its admin directory in the root's `.git`.
const WORKTREE: &str = "worktree";

/// `git`, with only what it needs of the environment: no system or
/// global configuration, no hooks, no fsmonitor, a fixed identity and
/// date (the same objects every run), and nothing inherited that points
/// it at another repository (`GIT_DIR` …).
fn git(dir: &Path, args: &[&str]) -> Result<String, HarnessError> {
    let mut command = Command::new("git");
    command
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", dir)
        .env("LC_ALL", "C")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_AUTHOR_NAME", "rootguard")
        .env("GIT_AUTHOR_EMAIL", "rootguard@example.invalid")
        .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_COMMITTER_NAME", "rootguard")
        .env("GIT_COMMITTER_EMAIL", "rootguard@example.invalid")
        .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
        .args([
            "-c",
            "core.hooksPath=/dev/null",
            "-c",
            "core.fsmonitor=false",
        ])
        .arg("-C")
        .arg(dir)
        .args(args);
    let out = command.output().map_err(|e| {
        HarnessError::Usage(format!(
            "cannot run git ({e}): the git attacks and --git-roots need git on PATH"
        ))
    })?;
    if !out.status.success() {
        return Err(HarnessError::Scenario(format!(
            "git {} in {} failed: {}",
            args.join(" "),
            dir.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// Whether `git` runs here.
pub(super) fn available() -> bool {
    Command::new("git")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Makes `dir` (a root laid fresh, its server not started) an empty
/// repository on branch `main`: `--git-roots`, for servers that refuse a
/// directory that is not one.
///
/// # Errors
///
/// [`HarnessError`] when git is missing or fails.
pub(super) fn init(dir: &Path) -> Result<(), HarnessError> {
    git(dir, &["init", "-q", "--template="])?;
    git(dir, &["symbolic-ref", "HEAD", "refs/heads/main"])?;
    Ok(())
}

/// The two template repositories of a git phase, in a directory of its
/// own (removed with it).
pub(super) struct Repositories {
    dir: tempfile::TempDir,
}

impl Repositories {
    /// Makes the templates: `inside` on branch `main` (a commit, the
    /// branch [`BRANCH`], `inside.txt` changed, `staged.txt` staged),
    /// `outside` the same with the canary `CANARY-{token}` in each: the
    /// commit message, the branch it is on, `secret.txt`, the change and
    /// the staged file.
    ///
    /// # Errors
    ///
    /// [`HarnessError`] when git is missing or fails, or the directory
    /// cannot be made.
    pub(super) fn new(token: &str) -> Result<Repositories, HarnessError> {
        let dir = tempfile::Builder::new()
            .prefix("rootguard-git-")
            .tempdir()
            .map_err(|e| HarnessError::Io(format!("cannot make a temp dir: {e}")))?;
        let canary = format!("CANARY-{token}");
        let inside = dir.path().join("inside");
        let outside = dir.path().join("outside");
        make(&inside, "main", "rootguard: inside", &[], "inside")?;
        make(
            &outside,
            &canary,
            &format!("{canary}: outside"),
            &[("secret.txt", &format!("{canary}\n"))],
            &canary,
        )?;
        Ok(Repositories { dir })
    }

    /// Lays the repositories in `m`'s base: the root [`ROOT`](crate::attacks::ROOT)
    /// a copy of `inside`, [`OUTSIDE_REPO`] and [`SIBLING_REPO`] copies
    /// of `outside`, and the admin directory of the worktree whose
    /// `commondir` names the outside repository; and the files of the
    /// tree that name the base (`gitdir: {base}/…`) written with it.
    ///
    /// # Errors
    ///
    /// [`HarnessError::Io`] when a copy fails.
    pub(super) fn lay(&self, m: &Materialized) -> Result<(), HarnessError> {
        let base = m.base();
        for entry in &m.scenario().tree {
            if let Entry::File {
                path,
                content: Some(text),
            } = entry
            {
                if text.contains("{base}") {
                    let file = base.join(path.to_string_lossy());
                    fs::write(&file, text.replace("{base}", m.base_text())).map_err(|e| {
                        HarnessError::Io(format!("cannot write {}: {e}", file.display()))
                    })?;
                }
            }
        }
        copy(
            &self.dir.path().join("inside"),
            &base.join(crate::attacks::ROOT),
        )?;
        copy(&self.dir.path().join("outside"), &base.join(OUTSIDE_REPO))?;
        copy(&self.dir.path().join("outside"), &base.join(SIBLING_REPO))?;
        let admin = base
            .join(crate::attacks::ROOT)
            .join(".git/worktrees")
            .join(WORKTREE);
        let write = |name: &str, text: String| {
            fs::create_dir_all(&admin)
                .and_then(|()| fs::write(admin.join(name), text))
                .map_err(|e| HarnessError::Io(format!("cannot lay {}: {e}", admin.display())))
        };
        let text = m.base_text();
        // Not the canary's branch: the root holds no canary of its own.
        write("HEAD", format!("ref: refs/heads/{BRANCH}\n"))?;
        write("commondir", format!("{text}/{OUTSIDE_REPO}/.git\n"))?;
        write(
            "gitdir",
            format!("{text}/{}/{WORKTREE}/.git\n", crate::attacks::ROOT),
        )
    }
}

/// Makes a repository in `dir` on branch `branch`: `inside.txt` and
/// `extra` committed with `message`, the branch [`BRANCH`] there too,
/// then `inside.txt` changed and `staged.txt` staged, each holding `mark`.
fn make(
    dir: &Path,
    branch: &str,
    message: &str,
    extra: &[(&str, &str)],
    mark: &str,
) -> Result<(), HarnessError> {
    let io = |e: std::io::Error| HarnessError::Io(format!("cannot lay {}: {e}", dir.display()));
    fs::create_dir_all(dir).map_err(io)?;
    git(dir, &["init", "-q", "--template="])?;
    git(
        dir,
        &["symbolic-ref", "HEAD", &format!("refs/heads/{branch}")],
    )?;
    fs::write(dir.join("inside.txt"), "inside\n").map_err(io)?;
    let mut files = vec!["inside.txt"];
    for (name, text) in extra {
        fs::write(dir.join(name), text).map_err(io)?;
        files.push(name);
    }
    let mut add = vec!["add", "--"];
    add.extend(files);
    git(dir, &add)?;
    git(dir, &["commit", "-q", "--no-verify", "-m", message])?;
    git(dir, &["branch", BRANCH])?;
    fs::write(dir.join("inside.txt"), format!("{mark} changed\n")).map_err(io)?;
    fs::write(dir.join("staged.txt"), format!("{mark} staged\n")).map_err(io)?;
    git(dir, &["add", "--", "staged.txt"])?;
    Ok(())
}

/// Copies the tree `from` into `to` (made if missing; what is there
/// stays unless overwritten): directories and regular files only.
fn copy(from: &Path, to: &Path) -> Result<(), HarnessError> {
    let io = |p: &Path, e: std::io::Error| {
        HarnessError::Io(format!("cannot copy into {}: {e}", p.display()))
    };
    fs::create_dir_all(to).map_err(|e| io(to, e))?;
    for entry in fs::read_dir(from).map_err(|e| io(from, e))? {
        let entry = entry.map_err(|e| io(from, e))?;
        let kind = entry.file_type().map_err(|e| io(from, e))?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy(&entry.path(), &target)?;
        } else if kind.is_file() {
            fs::copy(entry.path(), &target).map_err(|e| io(&target, e))?;
        }
    }
    Ok(())
}

/// The entries planted inside the root: links to the outside repository
/// and directory, and the three `.git` indirections (`gitdir:` absolute
/// and relative, a `.git` link, a worktree whose admin directory
/// [`Repositories::lay`] writes), each in its own directory.
pub(super) fn planted() -> Vec<Entry> {
    let root = crate::attacks::ROOT;
    vec![
        Entry::File {
            path: OUTSIDE_FILE.into(),
            content: Some(format!("CANARY-{}\n", crate::attacks::TOKEN)),
        },
        Entry::Symlink {
            path: format!("{root}/linkrepo").into(),
            target: format!("{{base}}/{OUTSIDE_REPO}").into(),
        },
        Entry::Symlink {
            path: format!("{root}/linkout").into(),
            target: "{base}/out".into(),
        },
        Entry::File {
            path: format!("{root}/gitfile/.git").into(),
            content: Some(format!("gitdir: {{base}}/{OUTSIDE_REPO}/.git\n")),
        },
        Entry::File {
            path: format!("{root}/gitrel/.git").into(),
            content: Some(format!("gitdir: ../../{OUTSIDE_REPO}/.git\n")),
        },
        Entry::Symlink {
            path: format!("{root}/gitlink/.git").into(),
            target: format!("{{base}}/{OUTSIDE_REPO}/.git").into(),
        },
        Entry::File {
            path: format!("{root}/{WORKTREE}/.git").into(),
            content: Some(format!(
                "gitdir: {{base}}/{root}/.git/worktrees/{WORKTREE}\n"
            )),
        },
    ]
}

/// A path of the templates, for tests.
#[cfg(test)]
fn template(r: &Repositories, name: &str) -> std::path::PathBuf {
    r.dir.path().join(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_templates_hold_the_canary_outside_and_nothing_inside() {
        if !available() {
            return;
        }
        let r = Repositories::new("0123456789ab").expect("templates");
        let inside = template(&r, "inside");
        let outside = template(&r, "outside");
        let log = git(&outside, &["log", "--format=%s %D"]).expect("log");
        assert!(log.contains("CANARY-0123456789ab: outside"), "{log}");
        assert!(log.contains(BRANCH), "{log}");
        let status = git(&outside, &["status", "--porcelain", "--branch"]).expect("status");
        assert!(status.contains("## CANARY-0123456789ab"), "{status}");
        assert!(
            status.contains("A  staged.txt") && status.contains(" M inside.txt"),
            "{status}"
        );
        let inside_log = git(&inside, &["log", "--format=%s"]).expect("log");
        assert_eq!(inside_log, "rootguard: inside");
        assert!(!fs::read_to_string(inside.join("inside.txt"))
            .unwrap()
            .contains("CANARY"));
    }
}
