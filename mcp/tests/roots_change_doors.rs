//! Roots that change under the server without the roots list changing,
//! and roots spelled every way (the `roots-change-link-swapped-*`,
//! `roots-change-dir-replaced-*` and `roots-change-spelling-*` checks):
//! each flawed test server is caught with its kind and ID at seeds 1..3
//! (the checks draw nothing, so every seed finds the same), and its sound
//! counterpart comes out clean. Counts, not seconds: each run has a hang
//! guard only.

mod common;

use std::collections::BTreeSet;
use std::time::Duration;

use common::{python, test_servers};
use rootguard_mcp::{report, Kind, Mode, Options, Report, Shape};

/// Far past what any run here takes: only a hang guard.
const HANG_GUARD: Duration = Duration::from_secs(600);

const LINK: [&str; 3] = [
    "roots-change-link-swapped-escape",
    "roots-change-link-swapped-old-target",
    "roots-change-link-swapped-new-target",
];

const DIR: [&str; 2] = [
    "roots-change-dir-replaced-new",
    "roots-change-dir-replaced-old",
];

const SPELLINGS: [&str; 9] = [
    "roots-change-spelling-upper-scheme",
    "roots-change-spelling-localhost",
    "roots-change-spelling-localhost-upper",
    "roots-change-spelling-trailing-slash",
    "roots-change-spelling-percent-letters",
    "roots-change-spelling-no-authority",
    "roots-change-spelling-host",
    "roots-change-spelling-encoded-slash",
    "roots-change-spelling-query",
];

/// The checks whose names contain `filter`, on `server` at `seed`, in
/// roots mode with no attacks, on a thread of its own (failing if it hangs).
fn checks(server: &str, python: &str, filter: &str, seed: u64) -> Report {
    checks_launched(server, python, &["{roots}"], Shape::default(), filter, seed)
}

/// As [`checks`], the server given `args` and started in `launch`.
fn checks_launched(
    server: &str,
    python: &str,
    args: &[&str],
    launch: Shape,
    filter: &str,
    seed: u64,
) -> Report {
    let mut command = vec![
        python.to_owned(),
        test_servers().join(server).display().to_string(),
    ];
    command.extend(args.iter().map(|a| (*a).to_owned()));
    let mut options = Options::new(command);
    options.launch = launch;
    options.timeout = Duration::from_secs(10);
    options.modes = vec![Mode::Roots];
    options.attacks = false;
    options.seed = seed;
    options.filter = Some(filter.to_owned());
    common::guarded(options, HANG_GUARD)
}

/// What each of `names` found, in order (`None` passed).
fn found(report: &Report, names: &[&str]) -> Vec<Option<Kind>> {
    names
        .iter()
        .map(|n| {
            let o = common::outcome(report, n, Mode::Roots);
            assert!(o.skipped.is_none(), "{n} skipped: {o:?}");
            o.finding
        })
        .collect()
}

/// The IDs of the defects that fail the run, and of the warnings.
fn ids(report: &Report) -> (BTreeSet<String>, BTreeSet<String>) {
    let model = report::model(report, false);
    let (fails, warns): (Vec<_>, Vec<_>) = model.defects.iter().partition(|d| model.fails(d));
    let set = |ds: Vec<&rootguard_report::Defect>| ds.iter().map(|d| d.id().to_owned()).collect();
    (set(fails), set(warns))
}

fn set(ids: &[&str]) -> BTreeSet<String> {
    ids.iter().map(|s| (*s).to_owned()).collect()
}

/// Asserts `server` finds `expected` in `names` at every seed of `seeds`,
/// and names exactly `fails` and `warns`.
fn holds(
    server: &str,
    filter: &str,
    names: &[&str],
    expected: &[Option<Kind>],
    (fails, warns): (&[&str], &[&str]),
    seeds: std::ops::RangeInclusive<u64>,
) {
    let Some(python) = python() else { return };
    for seed in seeds {
        let report = checks(server, &python, filter, seed);
        let text = report::text(&report, false);
        assert_eq!(found(&report, names), expected, "seed {seed}:\n{text}");
        assert_eq!(
            ids(&report),
            (set(fails), set(warns)),
            "seed {seed}:\n{text}"
        );
    }
}

#[test]
fn stale_resolved_root_is_caught_through_the_swapped_link() {
    holds(
        "stale_resolved_root_server.py",
        "roots-change-link",
        &LINK,
        &[Some(Kind::ReadEscape), Some(Kind::StaleRoot), None],
        (&["RG-TOCTOU", "RG-ROOT-RESOLVED-ONCE"], &[]),
        1..=3,
    );
}

#[test]
fn stale_resolved_root_serves_a_replaced_directory_by_name() {
    // It caches the real path as text, so the new `proj` is what it
    // serves. The prefix server resolves each path when used but compares
    // it with `startswith`: the renamed root's old name must not pass for
    // the new one by prefix.
    for server in ["stale_resolved_root_server.py", "prefix_server.py"] {
        holds(
            server,
            "roots-change-dir",
            &DIR,
            &[None, None],
            (&[], &[]),
            1..=1,
        );
    }
}

#[test]
fn pinned_root_is_caught_serving_the_renamed_directory() {
    holds(
        "pinned_root_server.py",
        "roots-change-dir",
        &DIR,
        &[Some(Kind::StaleRoot), None],
        (&["RG-ROOT-RESOLVED-ONCE"], &[]),
        1..=3,
    );
}

#[test]
fn a_server_that_follows_links_is_not_taken_for_a_race_through_the_swapped_root() {
    // It compares paths and roots as text and opens through any link, as
    // mcp-cli does: rootlink/sub/file.txt escapes after the swap because
    // sub is a link, with or without a swap.
    let Some(python) = python() else { return };
    let report = checks("lexical_roots_server.py", &python, "roots-change-link", 1);
    let text = report::text(&report, false);
    let escape = common::outcome(&report, LINK[0], Mode::Roots);
    assert!(
        escape
            .skipped
            .as_deref()
            .is_some_and(|w| w.contains("follows links")),
        "{escape:?}\n{text}"
    );
    assert_eq!(ids(&report), (set(&[]), set(&[])), "{text}");
}

#[test]
fn a_server_that_needs_a_directory_flag_is_not_a_crash_in_the_spelling_checks() {
    // Its only root is spelled for roots/list, so the launch has no
    // `--allow DIR` and the server exits with a usage line before it says
    // anything: the spelling never reached it, which is no crash.
    let Some(python) = python() else { return };
    let launch = Shape {
        each_root: Some(Shape::each_root("--allow {root}")),
        ..Shape::default()
    };
    let report = checks_launched(
        "flag_server.py",
        &python,
        &[],
        launch,
        "roots-change-spelling",
        1,
    );
    let text = report::text(&report, false);
    assert!(report.findings.is_empty(), "{text}");
    for name in SPELLINGS {
        let why = &common::outcome(&report, name, Mode::Roots).skipped;
        // `file://{base}/proj/` is a plain directory, so it goes on the command line.
        let plain = name == "roots-change-spelling-trailing-slash";
        assert_eq!(
            why.as_deref()
                .is_some_and(|w| w.contains("usage: flag_server.py")),
            !plain,
            "{name}: {why:?}\n{text}"
        );
    }
}

#[test]
fn scheme_case_refuses_valid_spellings_and_grants_invalid_ones() {
    holds(
        "scheme_case_server.py",
        "roots-change-spelling",
        &SPELLINGS,
        &scheme_case_findings(),
        (&["RG-ROOT-URI-AS-TEXT"], &["RG-ROOT-URI-MISREAD"]),
        1..=1,
    );
}

#[test]
#[ignore = "full tier: nine fresh servers per seed"]
fn scheme_case_is_caught_at_every_seed() {
    holds(
        "scheme_case_server.py",
        "roots-change-spelling",
        &SPELLINGS,
        &scheme_case_findings(),
        (&["RG-ROOT-URI-AS-TEXT"], &["RG-ROOT-URI-MISREAD"]),
        2..=3,
    );
}

/// `FILE://` and `file:/` refused; host, `%2F` and a query granted.
fn scheme_case_findings() -> Vec<Option<Kind>> {
    let (n, o, e) = (None, Some(Kind::RootNotHonoured), Some(Kind::RootEscape));
    vec![o, n, n, n, n, o, e, e, e]
}

#[test]
fn fresh_resolved_root_passes_every_roots_change_check() {
    let all: Vec<&str> = LINK.iter().chain(&DIR).chain(&SPELLINGS).copied().collect();
    holds(
        "fresh_resolved_root_server.py",
        "roots-change-",
        &all,
        &vec![None; all.len()],
        (&[], &[]),
        1..=1,
    );
}

#[test]
#[ignore = "full tier: every roots-change check on the sound servers at seeds 1..3"]
fn sound_servers_pass_every_roots_change_check_at_every_seed() {
    let all: Vec<&str> = LINK.iter().chain(&DIR).chain(&SPELLINGS).copied().collect();
    for server in ["fresh_resolved_root_server.py", "refreshing_server.py"] {
        holds(
            server,
            "roots-change-",
            &all,
            &vec![None; all.len()],
            (&[], &[]),
            1..=3,
        );
    }
}
