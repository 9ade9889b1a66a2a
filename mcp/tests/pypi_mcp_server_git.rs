//! `rootguard mcp` against the reference git server, PyPI mcp-server-git
//! 2026.10.19 (on the official Python SDK `mcp` 2.3.0 and GitPython),
//! installed at test time into a venv under `target/pypi-cache` (skipped
//! with a message when pip or its index is unavailable, or
//! ROOTGUARD_SKIP_PYPI=1; under `CI=true` those fail instead).
//!
//! Started as its users start it (`--repository DIR`, which must be a git
//! repository: `--git-roots`), it enforces the repository it was given for
//! the path it is handed, but `git.Repo(path)` follows a `.git` file, a
//! `.git` link or a worktree's `commondir` inside that repository to one
//! outside it (docs/findings-mcp.md): its git attacks must report
//! RG-GIT-GITDIR-FOLLOWED, and nothing else.

mod common;

use std::time::Duration;

use common::{failing, guarded, writes_ran};
use rootguard_mcp::doors::DoorKind;
use rootguard_mcp::{report, Mode, Options, Shape};
use rootguard_testsupport::{pypi, Tool};

/// Far past what the run takes: only a hang guard.
const HANG_GUARD: Duration = Duration::from_secs(900);

#[test]
#[ignore = "full tier: installs PyPI packages"]
fn a_git_file_inside_its_repository_leads_mcp_server_git_out() {
    let Some(venv) = pypi::venv("mcp-server-git") else {
        return;
    };
    if Tool::Git
        .need("mcp-server-git and the repositories the git attacks lay")
        .is_none()
    {
        return;
    }
    let program = venv.join("bin/mcp-server-git").display().to_string();
    let mut options = Options::new(vec![program]);
    options.launch = Shape {
        each_root: Some(Shape::each_root("--repository {root}")),
        ..Shape::default()
    };
    options.git_roots = true;
    options.timeout = Duration::from_secs(30);
    options.seed = 1;
    // The git attacks alone: the server has no file tool for the rest.
    options.modes = vec![Mode::Roots];
    options.table = false;
    options.stale_roots = false;
    options.filter = Some("git-".into());
    let found = guarded(options, HANG_GUARD);
    let text = report::text(&found, false);
    println!("{text}");
    if !writes_ran(&found) {
        return;
    }
    assert_eq!(
        found
            .server
            .as_ref()
            .map(|s| s["serverInfo"]["name"].clone()),
        Some("mcp-git".into())
    );
    assert_eq!(
        failing(&found).into_iter().collect::<Vec<_>>(),
        ["RG-GIT-GITDIR-FOLLOWED"],
        "{text}"
    );
    // Every git tool attacked, none refused at the schema level.
    let git: Vec<_> = found
        .doors()
        .into_iter()
        .filter(|d| d.kind == DoorKind::Git)
        .collect();
    assert_eq!(git.len(), 12, "{text}");
    assert!(
        git.iter()
            .all(|d| d.calls.refused == 0 && d.calls.calls >= 9),
        "{text}"
    );
    // The hand check of docs/findings-mcp.md: the outside log read, a branch made there.
    let finding = |attack: &str| common::finding(&found, attack);
    assert!(finding("git-git_log-gitdir-file")
        .evidence
        .contains("CANARY-"));
    assert!(
        finding("git-git_create_branch-gitdir-file")
            .evidence
            .contains("created {base}/out/repo/.git/refs/heads/rootguard-new"),
        "{text}"
    );
    // The repository it was given holds against a plain path, `..`, a sibling and a link.
    assert!(
        found.findings.iter().all(|f| !f.attack.contains("-repo-")),
        "{text}"
    );
}
