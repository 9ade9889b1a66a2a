//! The flags of `rootguard vet` and `rootguard mcp` as a user meets them:
//! `--help` grouped under headings, the search flags alike in both,
//! `rootguard mcp replay` and the spellings kept for old scripts, and
//! `--base-dir` placing the temp trees without `TMPDIR`.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use rootguard_testsupport::Tool;

const ROOTGUARD: &str = env!("CARGO_BIN_EXE_rootguard");

fn test_server(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../mcp/test-servers")
        .join(name)
        .display()
        .to_string()
}

fn rootguard(args: &[&str]) -> Output {
    Command::new(ROOTGUARD).args(args).output().expect("runs")
}

fn help(args: &[&str]) -> String {
    let out = rootguard(args);
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).expect("utf-8")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The headings `--help` shows, in order.
fn headings(help: &str) -> Vec<&str> {
    help.lines()
        .filter(|l| !l.starts_with(' ') && l.ends_with(':') && !l.contains(' '))
        .map(|l| l.trim_end_matches(':'))
        .collect()
}

/// The one-line `-h` entry of `flag`, its padding squeezed (each command
/// aligns its own column).
fn entry(short_help: &str, flag: &str) -> String {
    let line = short_help
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{flag} ")) || l.trim() == flag)
        .unwrap_or_else(|| panic!("{flag} is not in\n{short_help}"));
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn help_groups_the_flags_under_headings() {
    let common = ["Search", "Judging", "Outputs", "Baselines"];
    let vet = help(&["vet", "--help"]);
    assert_eq!(
        headings(&vet),
        [&["Arguments", "Options"][..], &common].concat(),
        "{vet}"
    );
    let mcp = help(&["mcp", "--help"]);
    assert_eq!(
        headings(&mcp),
        [
            "Commands",
            "Arguments",
            "Options",
            "Search",
            "Checks",
            "Judging",
            "Launch",
            "Outputs",
            "Baselines"
        ],
        "{mcp}"
    );
    let replay = help(&["mcp", "replay", "--help"]);
    assert_eq!(
        headings(&replay),
        ["Arguments", "Options", "Judging", "Launch"],
        "{replay}"
    );
    let vet_replay = help(&["replay", "--help"]);
    assert_eq!(
        headings(&vet_replay),
        ["Arguments", "Options", "Judging"],
        "{vet_replay}"
    );
    // Nothing is left under the bare "Options" but help itself.
    for command in [&["vet"][..], &["mcp"], &["mcp", "replay"], &["replay"]] {
        let text = help(&[command, &["-h"]].concat());
        let options: Vec<&str> = text
            .split("\nOptions:\n")
            .nth(1)
            .and_then(|rest| rest.split("\n\n").next())
            .expect("an Options section")
            .lines()
            .collect();
        assert_eq!(options.len(), 1, "{text}");
        assert!(options[0].starts_with("  -h, --help "), "{text}");
    }
}

#[test]
fn vet_and_mcp_show_the_same_search_flags_with_the_same_defaults() {
    let vet = help(&["vet", "-h"]);
    let mcp = help(&["mcp", "-h"]);
    for flag in ["--seed", "--fail-fast"] {
        assert_eq!(entry(&vet, flag), entry(&mcp, flag));
    }
    assert!(
        entry(&vet, "--seed").contains("[default: a new one each run, printed"),
        "{vet}"
    );
    // The flags the GitHub Action passes (action/rootguard_action.py) are listed, as it checks.
    for text in [&vet, &mcp] {
        for flag in ["--budget", "--seed", "--baseline", "--sarif"] {
            entry(text, flag);
        }
    }
}

#[test]
fn the_old_spellings_still_parse_hidden_from_help() {
    let mcp = help(&["mcp", "--help"]);
    for hidden in ["--no-attacks", "--replay"] {
        assert!(
            !mcp.lines().any(|l| l.trim_start().starts_with(hidden)),
            "{hidden} is listed:\n{mcp}"
        );
    }
    // A bad --base-dir is reported after parsing: the flags before it parsed.
    let out = rootguard(&[
        "mcp",
        "--no-attacks",
        "--base-dir",
        "/nonexistent/rootguard",
        "--",
        "true",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--base-dir /nonexistent/rootguard is not a directory"));
    assert!(!stderr(&out).contains("unexpected argument"));
    let out = rootguard(&["mcp", "--no-such-flag", "--", "true"]);
    assert!(stderr(&out).contains("unexpected argument"), "{out:?}");

    let missing = "/nonexistent/rootguard-finding.json";
    let old = rootguard(&["mcp", "--replay", missing, "--", "true"]);
    let new = rootguard(&["mcp", "replay", missing, "--", "true"]);
    for out in [&old, &new] {
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        assert!(
            stderr(out).contains(&format!("cannot read {missing}")),
            "{out:?}"
        );
    }
    let notice = "rootguard mcp: --replay FILE is deprecated; use `rootguard mcp replay FILE";
    assert!(stderr(&old)
        .lines()
        .next()
        .is_some_and(|l| l.starts_with(notice)));
    assert!(!stderr(&new).contains("deprecated"));
}

#[test]
fn mcp_replay_runs_a_finding_again_as_the_replay_flag_did() {
    let Some(python) = Tool::Python3.need("the project's MCP test servers") else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("findings");
    let flawed = test_server("trimming_server.py");
    let found = Command::new(ROOTGUARD)
        .args([
            "mcp",
            "--no-table",
            "--no-roots-change",
            "--session",
            "roots",
        ])
        // Caught at the second scenario; the budget is a hang guard.
        .args(["--budget", "600", "--scenarios", "200", "--seed", "1"])
        .args(["--fail-fast", "--allow-unsandboxed-writes", "--out"])
        .arg(&out)
        .args(["--", &python, &flawed, "{roots}"])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&found.stdout);
    assert_eq!(found.status.code(), Some(1), "{stdout}{}", stderr(&found));
    assert!(
        stdout.contains("rootguard mcp: seed 1 (rerun with --seed 1)"),
        "{stdout}"
    );
    let file = fs::read_dir(&out)
        .expect("findings")
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "json"))
        .expect("a scenario file");
    let file = file.to_str().expect("utf-8");
    for form in [&["mcp", "replay", file][..], &["mcp", "--replay", file]] {
        let replay = |server: &str| {
            let out = Command::new(ROOTGUARD)
                .args(form)
                .args(["--", &python, server, "{roots}"])
                .output()
                .expect("runs");
            let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
            (out.status.code(), stdout)
        };
        let (code, stdout) = replay(&flawed);
        assert_eq!(code, Some(1), "{form:?}: {stdout}");
        assert!(stdout.starts_with("still fails: "), "{form:?}: {stdout}");
        let (code, stdout) = replay(&test_server("refreshing_server.py"));
        assert_eq!(code, Some(0), "{form:?}: {stdout}");
        assert!(
            stdout.starts_with("no longer fails: "),
            "{form:?}: {stdout}"
        );
    }
}

#[test]
fn base_dir_places_the_trees_without_tmpdir() {
    let Some(python) = Tool::Python3.need("the project's MCP test servers") else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let base_dir = dir.path().join("bases");
    fs::create_dir(&base_dir).expect("mkdir");
    let real = fs::canonicalize(&base_dir).expect("resolves");
    let log = dir.path().join("roots.log");
    let json = dir.path().join("r.json");
    // The server's arguments are its roots, logged at each start.
    let script = format!(
        "printf '%s\\n' \"$@\" >> '{}'; exec '{python}' '{}' \"$@\"",
        log.display(),
        test_server("refreshing_server.py")
    );
    let out = Command::new(ROOTGUARD)
        .env_remove("TMPDIR")
        .args(["mcp", "--sandbox", "none", "--session", "no-roots"])
        .args(["--no-roots-change", "--only", "sibling-prefix-read"])
        // One generated scenario, and no seed given: a new one, printed and recorded.
        .args(["--budget", "60", "--scenarios", "1", "--base-dir"])
        .arg(&base_dir)
        .arg("--json")
        .arg(&json)
        .args(["--", "sh", "-c", &script, "sh", "{roots}"])
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", stderr(&out));
    let roots = fs::read_to_string(&log).expect("the server started");
    let prefix = format!("{}/rootguard-", real.display());
    assert!(roots.lines().count() > 1, "{roots}");
    for root in roots.lines() {
        assert!(root.starts_with(&prefix), "{root} is not under {prefix}");
    }
    assert_eq!(
        fs::read_dir(&real).expect("lists").count(),
        0,
        "every tree removed"
    );
    let seed: u64 = stdout
        .split("rootguard mcp: seed ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no seed printed: {stdout}"));
    let report: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&json).expect("json")).expect("parses");
    assert_eq!(report["seed"], seed, "{report}");
}
