//! `rootguard mcp` names the defects of the project's own test servers as
//! the table in docs/reports.md ("The test servers of `rootguard mcp`")
//! says: exactly the defects that fail the run, and exactly the overblocks.

mod common;

use std::collections::BTreeSet;
use std::time::Duration;

use common::{python, row, test_servers};
use rootguard_mcp::{report, run, Mode, Options};

fn holds(server: &str, args: &[&str], tune: impl FnOnce(&mut Options)) {
    let Some(python) = python() else { return };
    let mut command = vec![python, test_servers().join(server).display().to_string()];
    command.extend(args.iter().map(|a| (*a).to_owned()));
    command.push("{roots}".to_owned());
    let mut options = Options::new(command);
    options.timeout = Duration::from_secs(10);
    tune(&mut options);
    let found = run(&options).expect("runs");
    let model = report::model(&found, false);
    let fails: BTreeSet<String> = model
        .defects
        .iter()
        .filter(|d| model.fails(d))
        .map(|d| d.id().to_owned())
        .collect();
    let warns: BTreeSet<String> = model
        .defects
        .iter()
        .filter(|d| !model.fails(d))
        .map(|d| d.id().to_owned())
        .collect();
    let name = if args.is_empty() {
        server.to_owned()
    } else {
        format!("{server} {}", args.join(" "))
    };
    let (want_fails, want_warns) = row(&name);
    assert_eq!(
        (&fails, &warns),
        (&want_fails, &want_warns),
        "{name}\n{}",
        rootguard_report::text(&model)
    );
}

#[test]
#[ignore = "full tier: a long mcp run"]
fn sound_servers_have_no_defect() {
    for server in ["refreshing_server.py", "pushy_server.py", "mrtr_server.py"] {
        holds(server, &[], |_| {});
    }
}

#[test]
#[ignore = "full tier: a long mcp run"]
fn modern_servers_are_named_by_their_round_trip_flaws() {
    for server in [
        "modern_server.py",
        "dual_server.py",
        "modern_stale_state_server.py",
        "modern_caching_server.py",
        "modern_fail_open_server.py",
    ] {
        holds(server, &[], |_| {});
    }
}

#[test]
fn a_caching_server_keeps_a_stale_root() {
    holds("caching_server.py", &[], |_| {});
}

#[test]
fn a_lenient_root_parser_honours_one_rule_broken_at_a_time() {
    holds("lenient_roots_server.py", &[], |o| {
        o.modes = vec![Mode::Roots]
    });
}

#[test]
fn misbehaving_servers_hang_crash_and_make_noise() {
    for mode in ["hang", "exit", "noise"] {
        holds("misbehaving_server.py", &[mode], |o| {
            o.timeout = Duration::from_millis(1500);
            o.modes = vec![Mode::NoRoots];
            o.stale_roots = false;
            o.filter = Some("sibling-prefix-read".into());
        });
    }
}
