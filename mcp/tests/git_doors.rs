//! Git and archive tools (docs/mcp-doors.md, "Git and archives"): the
//! project's git servers, started as mcp-server-git is (`--repository
//! DIR`), are caught when flawed with the catalogue's IDs (a repository
//! option not enforced, a link followed, a `.git` file followed, a hook
//! planted through the file tool, an argument taken as an option), and
//! the sound one comes out clean with every git door attacked; the same
//! for the archive servers and zip-slip. The fast tier runs each check on
//! one or a few tools (`--only`); the full tier runs the default run at
//! seeds 1, 2 and 3.

mod common;

use std::collections::BTreeSet;
use std::time::Duration;

use common::{failing, finding, guarded, python, test_servers, writes_ran};
use rootguard_mcp::doors::DoorKind;
use rootguard_mcp::{report, Mode, Options, Report, Shape};
use rootguard_testsupport::Tool;

/// Far past what a run here takes: only a hang guard.
const HANG_GUARD: Duration = Duration::from_secs(600);

/// How a server is started: the git servers as mcp-server-git is, the archive servers with their roots.
#[derive(Clone, Copy)]
enum Launch {
    /// `--repository {root}` for each root.
    Repository,
    /// As `Repository`, the server refusing to start unless each is a git
    /// repository (`--require-repository`), which `--git-roots` makes it.
    GitRoots,
    /// The roots as arguments.
    Roots,
}

/// The options of a run of `server` at `seed`: the default run, or with
/// `only` the session in roots mode, no table or roots-change checks, and
/// only the attacks whose name holds `only`; `None` without Python or git.
fn options(server: &str, launch: Launch, seed: u64, only: Option<&str>) -> Option<Options> {
    let python = python()?;
    Tool::Git.need("the git test servers and the repositories the git attacks lay")?;
    let mut command = vec![python, test_servers().join(server).display().to_string()];
    let mut options = match launch {
        Launch::Roots => {
            command.push("{roots}".into());
            Options::new(command)
        }
        Launch::Repository | Launch::GitRoots => {
            if matches!(launch, Launch::GitRoots) {
                command.push("--require-repository".into());
            }
            let mut options = Options::new(command);
            options.launch = Shape {
                each_root: Some(Shape::each_root("--repository {root}")),
                ..Shape::default()
            };
            options.git_roots = matches!(launch, Launch::GitRoots);
            options
        }
    };
    options.seed = seed;
    if let Some(only) = only {
        options.modes = vec![Mode::Roots];
        options.table = false;
        options.stale_roots = false;
        options.filter = Some(only.to_owned());
    }
    Some(options)
}

/// The run of `server`, or `None` when it cannot run here (a skip message;
/// a failure under `CI=true`), or when its writes did not run.
fn vetted(server: &str, launch: Launch, seed: u64, only: Option<&str>) -> Option<Report> {
    let found = guarded(options(server, launch, seed, only)?, HANG_GUARD);
    writes_ran(&found).then_some(found)
}

/// `found` fails with exactly `ids`, each finding names a tool, and (with
/// `every_door`) every git or archive door was attacked and the run is
/// conclusive.
fn caught(found: &Report, server: &str, ids: &[&str], every_door: bool) {
    let text = report::text(found, false);
    let want: BTreeSet<String> = ids.iter().map(|s| (*s).to_owned()).collect();
    assert_eq!(failing(found), want, "{server}\n{text}");
    assert!(
        found.findings.iter().all(|f| f.tool.is_some()),
        "{server}\n{text}"
    );
    if every_door {
        assert!(found.inconclusive().is_empty(), "{server}\n{text}");
    }
}

/// `found` shows nothing, and the git and archive doors it called (at
/// least `doors`) were each attacked, with at least `min_calls` calls in all.
fn clean(found: &Report, server: &str, doors: usize, min_calls: u64) {
    let text = report::text(found, false);
    assert!(found.findings.is_empty(), "{server}\n{text}");
    let attacked: Vec<_> = found
        .doors()
        .into_iter()
        .filter(|d| matches!(d.kind, DoorKind::Git | DoorKind::Archive) && d.calls.calls > 0)
        .collect();
    assert!(attacked.len() >= doors, "{server}\n{text}");
    assert!(
        attacked.iter().all(|d| d.calls.attacked()),
        "{server}\n{text}"
    );
    let calls: u64 = attacked.iter().map(|d| d.calls.calls).sum();
    assert!(calls >= min_calls, "{server}: {calls} calls\n{text}");
}

/// The attacks that found something.
fn attacks(found: &Report) -> BTreeSet<String> {
    found.findings.iter().map(|f| f.attack.clone()).collect()
}

#[test]
fn a_repository_option_not_enforced_is_caught_through_a_plain_path_and_a_git_file() {
    let Some(found) = vetted(
        "git_unenforced_server.py",
        Launch::Repository,
        1,
        Some("git-git_log-"),
    ) else {
        return;
    };
    caught(
        &found,
        "git_unenforced_server.py",
        &["RG-GIT-REPO-BOUNDARY", "RG-GIT-GITDIR-FOLLOWED"],
        false,
    );
    // The sibling, `..` and the link escape too, but the plain outside
    // repository did: they are the boundary, not their own defects.
    let seen = attacks(&found);
    for name in ["outside", "sibling", "dotdot", "relative", "link"] {
        assert!(
            seen.contains(&format!("git-git_log-repo-{name}")),
            "{seen:?}"
        );
    }
    let log = finding(&found, "git-git_log-repo-outside");
    assert!(log.evidence.contains("CANARY-"), "{}", log.evidence);
    // Its repositories are not in the scenario: replay says so, and does not pass it.
    let dir = tempfile::tempdir().expect("temp dir");
    report::write_findings(&found, dir.path()).expect("written");
    let file = dir.path().join("roots-git-git_log-repo-outside.json");
    let options =
        options("git_unenforced_server.py", Launch::Repository, 1, None).expect("options");
    let refused = rootguard_mcp::replay(&options, &file).expect_err("not replayed");
    assert!(
        refused
            .to_string()
            .contains("--only git-git_log-repo-outside"),
        "{refused}"
    );
}

#[test]
fn a_lexical_check_lets_a_repository_and_a_file_through_a_link() {
    let Some(found) = vetted(
        "git_lexical_server.py",
        Launch::Repository,
        1,
        Some("git-git_add-"),
    ) else {
        return;
    };
    // git_add stages nothing through a `.git` file (the file is not there): the full tier sees those.
    caught(
        &found,
        "git_lexical_server.py",
        &["RG-LINK-FOLLOWED"],
        false,
    );
    let seen = attacks(&found);
    assert!(seen.contains("git-git_add-repo-link"), "{seen:?}");
    assert!(!seen.contains("git-git_add-repo-outside"), "{seen:?}");
    // A file staged through a link: its content copied into the root's objects.
    let staged = finding(&found, "git-git_add-files_0-link");
    assert!(
        staged
            .evidence
            .contains("copied into the root: {base}/proj/.git/objects/"),
        "{}",
        staged.evidence
    );
}

#[test]
fn a_git_file_and_a_config_planted_through_the_file_tool_are_caught() {
    let Some(found) = vetted(
        "git_plant_server.py",
        Launch::Repository,
        1,
        Some("git-git_status-"),
    ) else {
        return;
    };
    caught(
        &found,
        "git_plant_server.py",
        &["RG-GIT-GITDIR-FOLLOWED", "RG-GIT-HOOK-PLANTED"],
        false,
    );
    let seen = attacks(&found);
    assert!(seen.contains("git-git_status-plant-gitdir"), "{seen:?}");
    let hook = finding(&found, "git-git_status-hook-fsmonitor");
    assert_eq!(hook.evidence, "created {base}/out/rootguard-ran-fsmonitor");
    // The write through the file tool is part of the exchange.
    assert!(hook
        .exchange
        .iter()
        .any(|m| m.text.contains("\"write_file\"") && m.text.contains(".git/config")));
    // The boundary held: no plain outside repository was opened.
    assert!(!seen.contains("git-git_status-repo-outside"), "{seen:?}");
}

#[test]
fn an_argument_passed_to_git_as_an_option_is_caught() {
    let Some(found) = vetted(
        "git_option_server.py",
        Launch::Repository,
        1,
        Some("git-git_diff-"),
    ) else {
        return;
    };
    caught(
        &found,
        "git_option_server.py",
        &["RG-GIT-OPTION-INJECTION"],
        false,
    );
    assert_eq!(
        attacks(&found),
        BTreeSet::from(["git-git_diff-target-option".to_owned()])
    );
}

#[test]
fn the_sound_git_server_holds_its_diff_tools() {
    let Some(found) = vetted(
        "git_sound_server.py",
        Launch::Repository,
        1,
        Some("git-git_diff"),
    ) else {
        return;
    };
    // git_diff_unstaged, git_diff_staged, git_diff: each door's knocks, and the plants.
    clean(&found, "git_sound_server.py", 3, 3 * 9 + 4 + 1);
}

#[test]
fn a_server_that_needs_a_repository_starts_with_git_roots_and_says_so_without() {
    let Some(mut without) = options(
        "git_sound_server.py",
        Launch::GitRoots,
        1,
        Some("git-git_status-repo-outside"),
    ) else {
        return;
    };
    let with = without.clone();
    without.git_roots = false;
    let refused = rootguard_mcp::run(&without).expect_err("the server refuses a plain directory");
    assert!(
        refused.to_string().contains("--git-roots"),
        "the error names the flag: {refused}"
    );
    let found = guarded(with, HANG_GUARD);
    if !writes_ran(&found) {
        return;
    }
    assert!(found.findings.is_empty(), "{}", report::text(&found, false));
    let door = found
        .doors()
        .into_iter()
        .find(|d| d.name == "tools/call:git_status")
        .expect("listed");
    assert_eq!(door.calls.calls, 1);
}

#[test]
fn zip_slip_entries_are_caught_and_a_sound_extractor_holds() {
    let Some(found) = vetted("zipslip_server.py", Launch::Roots, 1, Some("archive-")) else {
        return;
    };
    caught(&found, "zipslip_server.py", &["RG-ZIP-SLIP"], true);
    for archive in ["dotdot", "absolute", "link"] {
        for format in ["zip", "tar"] {
            let name = format!("archive-extract_archive-slip-{archive}-{format}");
            let f = finding(&found, &name);
            assert_eq!(
                f.evidence,
                format!("created {{base}}/out/zipslip-{archive}-{format}.txt")
            );
        }
    }
    let Some(sound) = vetted(
        "archive_sound_server.py",
        Launch::Roots,
        1,
        Some("archive-"),
    ) else {
        return;
    };
    clean(&sound, "archive_sound_server.py", 1, 6 + 4);
}

/// The flawed servers of the default run: the server, how it starts, the
/// IDs that fail it.
const FLAWED: [(&str, Launch, &[&str]); 5] = [
    (
        "git_unenforced_server.py",
        Launch::Repository,
        &["RG-GIT-REPO-BOUNDARY", "RG-GIT-GITDIR-FOLLOWED"],
    ),
    (
        "git_lexical_server.py",
        Launch::Repository,
        &["RG-LINK-FOLLOWED", "RG-GIT-GITDIR-FOLLOWED"],
    ),
    (
        "git_plant_server.py",
        Launch::Repository,
        &["RG-GIT-GITDIR-FOLLOWED", "RG-GIT-HOOK-PLANTED"],
    ),
    (
        "git_option_server.py",
        Launch::Repository,
        &["RG-GIT-OPTION-INJECTION"],
    ),
    ("zipslip_server.py", Launch::Roots, &["RG-ZIP-SLIP"]),
];

#[test]
#[ignore = "full tier: the default run at three seeds per server"]
fn the_default_run_catches_each_flawed_git_and_archive_server_at_seeds_1_to_3() {
    for seed in 1..=3 {
        for (server, launch, ids) in FLAWED {
            let Some(found) = vetted(server, launch, seed, None) else {
                return;
            };
            caught(&found, server, ids, true);
            // What the lead's table cites: the calls to the first escape.
            let note = found
                .notes
                .iter()
                .find(|n| n.contains("the first escape at call"))
                .unwrap_or_else(|| panic!("{server}: {:?}", found.notes));
            println!("{server} seed {seed}: {note}");
        }
    }
}

#[test]
#[ignore = "full tier: the default run at three seeds per server"]
fn the_default_run_finds_the_sound_git_and_archive_servers_clean_at_seeds_1_to_3() {
    for seed in 1..=3 {
        let Some(git) = vetted("git_sound_server.py", Launch::GitRoots, seed, None) else {
            return;
        };
        clean(&git, "git_sound_server.py", 10, 100);
        assert!(
            git.inconclusive().is_empty(),
            "{}",
            report::text(&git, false)
        );
        let Some(archive) = vetted("archive_sound_server.py", Launch::Roots, seed, None) else {
            return;
        };
        clean(&archive, "archive_sound_server.py", 1, 10);
        assert!(archive.inconclusive().is_empty());
    }
}
