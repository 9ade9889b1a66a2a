//! Each launch shape starts the matching test server with exactly its
//! roots: the baseline read inside the root works (the server got the
//! root), and the sibling attacks find nothing (it got no more).

mod common;

use std::time::Duration;

use common::{outcome, python, test_servers};
use rootguard_mcp::{run, Mode, Options, Report, Shape};

/// `server` started as `python server args…` in `launch`, no-roots mode
/// only (the roots come from the launch alone), the sibling attacks only.
fn vet(python: &str, server: &str, args: &[&str], launch: Shape) -> Report {
    let mut command = vec![
        python.to_owned(),
        test_servers().join(server).display().to_string(),
    ];
    command.extend(args.iter().map(|a| (*a).to_owned()));
    let mut options = Options::new(command);
    options.launch = launch;
    options.timeout = Duration::from_secs(10);
    options.modes = vec![Mode::NoRoots];
    options.stale_roots = false;
    options.filter = Some("sibling-prefix".into());
    run(&options).expect("runs")
}

fn assert_exactly_its_roots(report: &Report) {
    let text = rootguard_mcp::report::text(report, true);
    assert_eq!(
        outcome(report, "baseline", Mode::NoRoots).finding,
        None,
        "the root did not reach the server:\n{text}"
    );
    assert!(report.findings.is_empty(), "{text}");
    let ran = report
        .outcomes
        .iter()
        .filter(|o| o.name.starts_with("sibling-prefix") && o.skipped.is_none())
        .count();
    assert!(ran >= 3, "the sibling attacks ran: {:#?}", report.outcomes);
}

#[test]
fn each_root_repeats_a_flag_per_root() {
    let Some(python) = python() else { return };
    let shape = Shape {
        each_root: Some(Shape::each_root("--allow {root}")),
        ..Shape::default()
    };
    assert_exactly_its_roots(&vet(&python, "flag_server.py", &["{each-root}"], shape));
}

#[test]
fn each_root_is_appended_without_a_place() {
    let Some(python) = python() else { return };
    let shape = Shape {
        each_root: Some(Shape::each_root("--allow {root}")),
        ..Shape::default()
    };
    assert_exactly_its_roots(&vet(&python, "flag_server.py", &[], shape));
}

#[test]
fn root1_is_the_first_root_inside_an_argument() {
    let Some(python) = python() else { return };
    let report = vet(
        &python,
        "flag_server.py",
        &["--allow", "{root1}"],
        Shape::default(),
    );
    assert_exactly_its_roots(&report);
}

#[test]
fn env_with_joined_roots() {
    let Some(python) = python() else { return };
    let shape = Shape {
        env: vec![Shape::parse_env("RG_ALLOWED_DIRS={roots:,}").expect("parses")],
        ..Shape::default()
    };
    assert_exactly_its_roots(&vet(&python, "env_server.py", &[], shape));
}

#[test]
fn config_file_under_a_fresh_home() {
    let Some(python) = python() else { return };
    let shape = Shape {
        config: vec![Shape::parse_config(
            ".rootguard-test/config.json={\"allowedDirectories\": {roots_json}}",
        )
        .expect("parses")],
        ..Shape::default()
    };
    assert_exactly_its_roots(&vet(&python, "config_server.py", &[], shape));
}

#[test]
fn config_file_in_scratch_named_by_env_from_a_template_file() {
    let Some(python) = python() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    let template = dir.path().join("config.tmpl");
    std::fs::write(&template, "{\"allowedDirectories\": [\"{root1}\"]}\n").expect("writes");
    let shape = Shape {
        env: vec![Shape::parse_env("RG_CONFIG={scratch}/c.json").expect("parses")],
        config: vec![
            Shape::parse_config(&format!("{{scratch}}/c.json=@{}", template.display()))
                .expect("parses"),
        ],
        ..Shape::default()
    };
    assert_exactly_its_roots(&vet(&python, "config_server.py", &[], shape));
}

#[test]
fn a_server_given_the_wrong_shape_does_not_start() {
    let Some(python) = python() else { return };
    // The flag server refuses bare arguments: `{roots}` is not its shape.
    let mut options = Options::new(vec![
        python,
        test_servers().join("flag_server.py").display().to_string(),
        "{roots}".into(),
    ]);
    options.modes = vec![Mode::NoRoots];
    let e = run(&options).expect_err("cannot start");
    assert!(e.to_string().contains("usage: flag_server.py"), "{e}");
}

#[test]
fn a_bad_template_is_a_usage_error_before_any_start() {
    let mut options = Options::new(vec!["/nonexistent/server".into(), "--dirs={rots:,}".into()]);
    options.modes = vec![Mode::NoRoots];
    let e = run(&options).expect_err("a usage error");
    let text = e.to_string();
    assert!(
        matches!(e, rootguard_mcp::HarnessError::Usage(_)) && text.contains("{rots:,}"),
        "{text}"
    );
}
