//! `rootguard mcp` and `rootguard mcp replay`: vet a live MCP server over
//! stdio, roots and all, and run a finding it wrote again.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, Subcommand, ValueEnum};
use rootguard_mcp::era::EraChoice;
use rootguard_mcp::{replay, report, run, HarnessError, Mode, Options, Replayed, Sandbox, Shape};

use crate::args::{SearchArgs, CHECKS, JUDGING, LAUNCH, OUTPUTS, SEARCH};
use crate::outputs::{self, ReportArgs};

/// Options of `rootguard mcp`.
#[derive(Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    disable_help_subcommand = true
)]
pub struct McpArgs {
    #[command(subcommand)]
    action: Option<McpCommand>,
    /// End the generative phase after N scenarios in each session mode, even with budget left (a seed then makes the same calls on any machine).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), help_heading = SEARCH)]
    scenarios: Option<u64>,
    #[command(flatten)]
    pub(crate) search: SearchArgs,
    /// Which session modes to run: with the roots capability, without it, or both.
    #[arg(long, value_enum, default_value_t = SessionArg::Both, help_heading = CHECKS)]
    session: SessionArg,
    /// Only attacks and probes whose name contains TEXT.
    #[arg(long, value_name = "TEXT", help_heading = CHECKS)]
    only: Option<String>,
    /// Skip the fixed attack table: the generative phase alone (after the default-grant and client-failure probes); with --budget 0 no attacks at all (the baseline, roots-that-change and --race only).
    #[arg(long, alias = "no-attacks", help_heading = CHECKS)]
    no_table: bool,
    /// Skip the roots-that-change check.
    #[arg(long, help_heading = CHECKS)]
    no_roots_change: bool,
    /// Race each read and write tool: swap a directory and a file of its path for links to outside while calling it (time-of-check-to-time-of-use).
    #[arg(long, help_heading = CHECKS)]
    race: bool,
    /// Calls per race (one race per tool and swap).
    #[arg(long, value_name = "N", requires = "race", default_value_t = rootguard_mcp::race::DEFAULT_TRIES, value_parser = clap::value_parser!(u64).range(1..), help_heading = CHECKS)]
    race_tries: u64,
    /// Seconds one race may run, whatever its tries: a slow server ends its race here.
    #[arg(long, value_name = "SECONDS", requires = "race", default_value_t = rootguard_mcp::race::DEFAULT_RACE_TIME.as_secs(), value_parser = clap::value_parser!(u64).range(1..), help_heading = CHECKS)]
    race_time: u64,
    /// The warnings fail the run too (a root not honoured, an unsealed requestState), and an inconclusive run (a door left unattacked, nothing attackable) exits 1 instead of 2.
    #[arg(long, help_heading = JUDGING)]
    strict: bool,
    /// Keep escapes as found, unshrunk and unprobed.
    #[arg(long, help_heading = JUDGING)]
    no_shrink: bool,
    #[command(flatten)]
    server: ServerArgs,
    /// Write each finding as a scenario file and its JSON-RPC exchange into DIR (`rootguard mcp replay FILE` runs one again).
    #[arg(long, value_name = "DIR", help_heading = OUTPUTS)]
    out: Option<PathBuf>,
    #[command(flatten)]
    outputs: ReportArgs,
    /// Deprecated spelling of `rootguard mcp replay FILE`.
    #[arg(long, value_name = "FILE", hide = true)]
    replay: Option<PathBuf>,
    /// The server command; an argument `{roots}` becomes the root
    /// directories (docs/mcp-launch.md lists every placeholder).
    #[arg(last = true, required = true, value_name = "CMD")]
    command: Vec<OsString>,
}

#[derive(Subcommand)]
enum McpCommand {
    /// Run a finding written by `rootguard mcp --out DIR` again on a fresh
    /// server: its tree laid, the server started in the recorded session
    /// mode, the recorded hostile call sent again.
    ///
    /// Exit status: 1 while it still escapes, 0 once it no longer does, 2
    /// usage or harness error.
    Replay(McpReplayArgs),
}

/// Options of `rootguard mcp replay`.
#[derive(Args)]
pub struct McpReplayArgs {
    /// A scenario file written by --out (its .exchange.jsonl beside it).
    file: PathBuf,
    #[command(flatten)]
    server: ServerArgs,
    /// The server command; an argument `{roots}` becomes the root
    /// directories (docs/mcp-launch.md lists every placeholder).
    #[arg(last = true, required = true, value_name = "CMD")]
    command: Vec<OsString>,
}

/// How the server is started and spoken to: `rootguard mcp` and `rootguard
/// mcp replay` alike.
#[derive(Args)]
struct ServerArgs {
    /// Milliseconds to wait for each response before calling it a hang.
    #[arg(long, value_name = "N", default_value_t = 10_000, help_heading = JUDGING)]
    timeout_ms: u64,
    /// A per-root template, its words repeated once per root with `{root}`
    /// that root (`--each-root '--allow {root}'`), where an argument
    /// `{each-root}` stands in the command, else appended.
    #[arg(long, value_name = "TEMPLATE", allow_hyphen_values = true, help_heading = LAUNCH)]
    each_root: Option<String>,
    /// An environment variable of the server, its value a template
    /// (`--env 'DIRS={roots:,}'`); repeatable.
    #[arg(long = "env", value_name = "NAME=TEMPLATE", help_heading = LAUNCH)]
    envs: Vec<String>,
    /// Make each root a git repository (`git init`) before its server
    /// starts: for git servers that refuse a directory that is not one
    /// (`mcp-server-git --repository DIR`).
    #[arg(long, help_heading = LAUNCH)]
    git_roots: bool,
    /// A file written before each start, relative to the server's fresh
    /// HOME or under `{home}/` or `{scratch}/`; TEMPLATE (or `@path`, a
    /// file holding it) may use `{roots_json}`, `{roots:SEP}`, `{root1}`,
    /// `{scratch}`, `{home}`; repeatable.
    #[arg(long, value_name = "FILE=TEMPLATE", help_heading = LAUNCH)]
    config: Vec<String>,
    /// Speak Streamable HTTP to URL (loopback only, e.g. `http://127.0.0.1:{port}/mcp`) instead of stdio; `{port}` in URL and CMD becomes a free port.
    #[arg(long, value_name = "URL", help_heading = LAUNCH)]
    http: Option<String>,
    /// The protocol era: probe with `server/discover` and fall back to `initialize` (auto), or one era only.
    #[arg(long, value_enum, default_value_t = EraArg::Auto, help_heading = LAUNCH)]
    era: EraArg,
    /// The sandbox: the first of bubblewrap and `unshare --mount` that works here (auto), one of them, or none.
    #[arg(long, value_enum, default_value_t = SandboxArg::Auto, help_heading = LAUNCH)]
    sandbox: SandboxArg,
    /// Run write attacks even without a sandbox (they stay inside the temp base).
    #[arg(long, help_heading = LAUNCH)]
    allow_unsandboxed_writes: bool,
    /// Where the temp bases are made: outside /tmp by default, which
    /// servers grant by default more often than any other directory.
    #[arg(long, value_name = "DIR", default_value = "/var/tmp", help_heading = LAUNCH)]
    base_dir: PathBuf,
}

#[derive(Clone, Copy, ValueEnum)]
enum SessionArg {
    Both,
    Roots,
    NoRoots,
}

#[derive(Clone, Copy, ValueEnum)]
enum EraArg {
    /// `server/discover` first; `initialize` when the server is not a 2026-07-28 one.
    Auto,
    /// 2025-11-25: `initialize`, a session, `roots/list` from the server.
    Legacy,
    /// 2026-07-28: `_meta` on every request, roots through `input_required`.
    Modern,
}

#[derive(Clone, Copy, ValueEnum)]
enum SandboxArg {
    Auto,
    Bwrap,
    Unshare,
    None,
}

/// How a run or a replay came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// Nothing found, and every door attacked (exit 0).
    Pass,
    /// A finding that fails the run (exit 1).
    Fail,
    /// Nothing found, but the run proves nothing (exit 2; 1 with `--strict`).
    Inconclusive,
}

impl Verdict {
    /// The exit status: `strict` makes an inconclusive run fail.
    fn code(self, strict: bool) -> u8 {
        match self {
            Verdict::Pass => 0,
            Verdict::Fail => 1,
            Verdict::Inconclusive if strict => 1,
            Verdict::Inconclusive => 2,
        }
    }
}

/// Runs `rootguard mcp` (or `rootguard mcp replay`); exit 0 nothing
/// found, 1 a finding that fails, 2 inconclusive (1 with `--strict`) or a
/// usage or harness error, 130 stopped by SIGINT or SIGTERM (temp trees
/// removed, servers killed).
pub fn run_mcp(args: McpArgs) -> ExitCode {
    let interrupted = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        // Without the handler a signal still ends the run, only less tidily.
        let _ = signal_hook::flag::register(signal, Arc::clone(&interrupted));
    }
    match vet_server(&args, &interrupted) {
        Ok(_) if interrupted.load(Ordering::Relaxed) => ExitCode::from(130),
        Ok(verdict) => ExitCode::from(verdict.code(args.strict)),
        Err(e) => {
            eprintln!("rootguard mcp: {e}");
            ExitCode::from(2)
        }
    }
}

/// What the command line asks: a run, or a replay (`rootguard mcp replay
/// FILE`, or the deprecated `--replay FILE`), and how it came out.
fn vet_server(args: &McpArgs, interrupted: &Arc<AtomicBool>) -> Result<Verdict, HarnessError> {
    if let Some(McpCommand::Replay(replay)) = &args.action {
        let options = server_options(&replay.server, &replay.command, interrupted)?;
        return replay_finding(&options, &replay.file);
    }
    if let Some(file) = &args.replay {
        eprintln!(
            "rootguard mcp: --replay FILE is deprecated; use `rootguard mcp replay FILE [OPTIONS] -- CMD`"
        );
        let options = server_options(&args.server, &args.command, interrupted)?;
        return replay_finding(&options, file);
    }
    run_checks(args, interrupted)
}

/// The options of a run or a replay: the command, how it is launched and
/// spoken to, where its bases go.
fn server_options(
    server: &ServerArgs,
    command: &[OsString],
    interrupted: &Arc<AtomicBool>,
) -> Result<Options, HarnessError> {
    let command = command
        .iter()
        .map(|a| {
            a.to_str()
                .map(str::to_owned)
                .ok_or_else(|| HarnessError::Usage(format!("{a:?} is not UTF-8")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut options = Options::new(command);
    options.launch = shape(server, &options.command)?;
    options.git_roots = server.git_roots;
    options.timeout = Duration::from_millis(server.timeout_ms);
    options.sandbox = match server.sandbox {
        SandboxArg::Auto => None,
        SandboxArg::Bwrap => Some(Sandbox::Bwrap),
        SandboxArg::Unshare => Some(Sandbox::Unshare),
        SandboxArg::None => Some(Sandbox::None),
    };
    options.era = match server.era {
        EraArg::Auto => EraChoice::Auto,
        EraArg::Legacy => EraChoice::Legacy,
        EraArg::Modern => EraChoice::Modern,
    };
    options.http = server.http.clone();
    options.allow_unsandboxed_writes = server.allow_unsandboxed_writes;
    options.base_dir = Some(base_dir(&server.base_dir)?);
    options.interrupted = Arc::clone(interrupted);
    Ok(options)
}

/// The run: the fixed table, the generative phase, the checks after; the
/// report printed and written.
fn run_checks(args: &McpArgs, interrupted: &Arc<AtomicBool>) -> Result<Verdict, HarnessError> {
    let baseline = args
        .outputs
        .load_baseline()
        .map_err(|e| HarnessError::Usage(e.to_string()))?;
    let mut options = server_options(&args.server, &args.command, interrupted)?;
    options.modes = match args.session {
        SessionArg::Both => vec![Mode::Roots, Mode::NoRoots],
        SessionArg::Roots => vec![Mode::Roots],
        SessionArg::NoRoots => vec![Mode::NoRoots],
    };
    options.filter = args.only.clone();
    options.budget = args.search.budget();
    options.jobs = args.search.jobs();
    options.triage_time = args.search.triage_time();
    // Without a table and a generative phase, no attack is left to run:
    // the probes go too.
    options.table = !args.no_table;
    options.attacks = !args.no_table || !options.budget.is_zero();
    options.max_scenarios = args.scenarios;
    let generative = options.attacks && !options.budget.is_zero();
    let seed = args.search.seed();
    if generative {
        println!("rootguard mcp: seed {seed} (rerun with --seed {seed})");
    }
    options.seed = seed;
    options.fail_fast = args.search.fail_fast;
    options.stale_roots = !args.no_roots_change;
    options.shrink = !args.no_shrink;
    options.race = args.race;
    options.race_tries = args.race_tries;
    options.race_time = Duration::from_secs(args.race_time);
    // Each check as it ends, on stderr, so a minute-long run is not silent.
    options.progress = Some(Arc::new(|o: &rootguard_mcp::Outcome| {
        let status = match (&o.finding, &o.skipped) {
            (Some(kind), _) => kind.as_str().to_uppercase(),
            (None, Some(why)) => format!("skipped ({why})"),
            (None, None) => "ok".into(),
        };
        eprintln!("rootguard mcp: [{}] {} {status}", o.mode.as_str(), o.name);
    }));
    let report = run(&options)?;
    let mut shared = report::model(&report, args.strict);
    if generative {
        shared.seed = Some(seed);
    }
    print!("{}", rootguard_report::text(&shared));
    args.outputs.write(&shared).map_err(HarnessError::Io)?;
    if let Some(dir) = &args.out {
        let written = report::write_findings(&report, dir)?;
        if !written.is_empty() {
            println!("{} files written to {}", written.len(), dir.display());
        }
    }
    let (failed, comparison) = outputs::verdict(&shared, baseline.as_ref());
    if let Some(text) = comparison {
        println!("\n{text}");
    }
    Ok(if failed {
        Verdict::Fail
    } else if shared.inconclusive.is_empty() {
        Verdict::Pass
    } else {
        Verdict::Inconclusive
    })
}

/// The launch shape the flags give, every template checked against the command.
fn shape(args: &ServerArgs, command: &[String]) -> Result<Shape, HarnessError> {
    let usage = |e: rootguard_mcp::shape::ShapeError| HarnessError::Usage(e.to_string());
    let shape = Shape {
        each_root: args.each_root.as_deref().map(Shape::each_root),
        env: args
            .envs
            .iter()
            .map(|s| Shape::parse_env(s))
            .collect::<Result<_, _>>()
            .map_err(usage)?,
        config: args
            .config
            .iter()
            .map(|s| Shape::parse_config(s))
            .collect::<Result<_, _>>()
            .map_err(usage)?,
    };
    shape.check(command).map_err(usage)?;
    Ok(shape)
}

/// `--base-dir DIR` as the judge takes it: an existing directory whose
/// real path can stand for `{base}`, resolved. Given to the materializer
/// through [`Options::base_dir`]; nothing else in the process is changed.
fn base_dir(dir: &Path) -> Result<PathBuf, HarnessError> {
    let usage = |why: &str| {
        HarnessError::Usage(format!(
            "--base-dir {} {why}; give an existing one outside the roots a server grants by default",
            dir.display()
        ))
    };
    if !dir.is_dir() {
        return Err(usage("is not a directory"));
    }
    let real =
        std::fs::canonicalize(dir).map_err(|e| usage(&format!("cannot be resolved ({e})")))?;
    if !rootguard_judge::is_clean_path(&real) {
        return Err(usage(&format!(
            "resolves to {}, which holds characters other than A-Z a-z 0-9 / . _ -",
            real.display()
        )));
    }
    Ok(real)
}

/// Replays one finding: it fails while it still shows.
fn replay_finding(options: &Options, file: &std::path::Path) -> Result<Verdict, HarnessError> {
    match replay(options, file)? {
        Replayed::Still(f) => {
            println!(
                "still fails: {} ({} mode{}): {}",
                f.kind,
                f.mode.as_str(),
                f.tool
                    .as_ref()
                    .map(|t| format!(", {t}"))
                    .unwrap_or_default(),
                f.evidence
            );
            if let Some((request, response)) = &f.key {
                println!(
                    "  sent:   {request}\n  answer: {}",
                    rootguard_mcp::client::tail(response, 400)
                );
            }
            Ok(Verdict::Fail)
        }
        Replayed::Gone => {
            println!(
                "no longer fails: {} shows nothing on this server",
                file.display()
            );
            Ok(Verdict::Pass)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use std::fs;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: McpArgs,
    }

    fn args(line: &[&str]) -> McpArgs {
        Cli::parse_from(std::iter::once("mcp").chain(line.iter().copied())).args
    }

    fn flag() -> Arc<AtomicBool> {
        Arc::new(AtomicBool::new(false))
    }

    fn python() -> Option<String> {
        rootguard_testsupport::Tool::Python3.need("the project's MCP test servers")
    }

    fn server(name: &str) -> String {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../mcp/test-servers")
            .join(name)
            .display()
            .to_string()
    }

    #[test]
    fn a_command_that_cannot_start_is_a_harness_error() {
        let e = vet_server(
            &args(&["--", "/nonexistent/rootguard-no-such-server"]),
            &flag(),
        )
        .expect_err("cannot start");
        assert!(matches!(e, HarnessError::Start { .. }), "{e}");
    }

    #[test]
    fn a_caching_server_fails_and_every_report_is_written() {
        let Some(python) = python() else { return };
        let dir = tempfile::tempdir().expect("temp dir");
        let file = |name: &str| dir.path().join(name).display().to_string();
        let (json, sarif, junit, out) = (
            file("r.json"),
            file("r.sarif"),
            file("r.xml"),
            file("findings"),
        );
        let server = server("caching_server.py");
        let line = [
            "--no-attacks",
            "--budget",
            "0",
            "--session",
            "roots",
            "--json",
            &json,
            "--sarif",
            &sarif,
            "--junit",
            &junit,
            "--out",
            &out,
            "--",
            &python,
            &server,
            "{roots}",
        ];
        assert_eq!(
            vet_server(&args(&line), &flag()).expect("runs"),
            Verdict::Fail,
            "a stale root fails the run"
        );
        let report: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(&json).expect("json")).expect("parses");
        assert_eq!(report["counts"]["stale-root"], 1);
        assert!(fs::read_to_string(&sarif)
            .expect("sarif")
            .contains("\"stale-root\""));
        assert!(fs::read_to_string(&junit)
            .expect("junit")
            .contains("<failure"));
        assert!(std::path::Path::new(&out)
            .join("roots-roots-change-old-root-revoked.exchange.jsonl")
            .exists());
    }

    #[test]
    #[ignore = "full tier: a live race"]
    fn a_check_then_open_server_is_caught_racing_with_its_defect_id() {
        let Some(python) = python() else { return };
        let dir = tempfile::tempdir().expect("temp dir");
        let sarif = dir.path().join("r.sarif").display().to_string();
        let server = server("check_then_open_server.py");
        let line = [
            "--race",
            "--race-tries",
            "1000",
            "--no-attacks",
            "--budget",
            "0",
            "--no-roots-change",
            "--session",
            "roots",
            "--sarif",
            &sarif,
            "--",
            &python,
            &server,
            "{roots}",
        ];
        assert_eq!(
            vet_server(&args(&line), &flag()).expect("runs"),
            Verdict::Fail
        );
        let sarif = fs::read_to_string(&sarif).expect("sarif");
        assert!(sarif.contains("RG-TOCTOU"), "{sarif}");
    }

    #[test]
    fn a_generated_escape_is_written_and_replays_until_fixed() {
        let Some(python) = python() else { return };
        let dir = tempfile::tempdir().expect("temp dir");
        let out = dir.path().join("findings").display().to_string();
        let flawed = server("trimming_server.py");
        let line = [
            "--no-table",
            "--no-roots-change",
            "--session",
            "roots",
            // Caught at the second scenario; the budget is a hang guard.
            "--budget",
            "600",
            "--scenarios",
            "200",
            "--seed",
            "1",
            "--fail-fast",
            "--allow-unsandboxed-writes",
            "--out",
            &out,
            "--",
            &python,
            &flawed,
            "{roots}",
        ];
        assert_eq!(
            vet_server(&args(&line), &flag()).expect("runs"),
            Verdict::Fail
        );
        let file = fs::read_dir(&out)
            .expect("findings")
            .flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|e| e == "json"))
            .expect("a scenario file")
            .display()
            .to_string();
        // `rootguard mcp replay FILE`, and the deprecated `--replay FILE`.
        for form in ["replay", "--replay"] {
            let replay = |server_file: &str| {
                let line = [form, &file, "--", &python, server_file, "{roots}"];
                vet_server(&args(&line), &flag())
            };
            assert_eq!(
                replay(&flawed).expect("replays"),
                Verdict::Fail,
                "{form}: still escapes"
            );
            assert_eq!(
                replay(&server("refreshing_server.py")).expect("replays"),
                Verdict::Pass,
                "{form}: a sound server shows nothing"
            );
            let missing = [form, "/nonexistent/x.json", "--", &python, &flawed];
            assert!(
                matches!(
                    vet_server(&args(&missing), &flag()),
                    Err(HarnessError::Usage(_))
                ),
                "{form}"
            );
        }
    }

    #[test]
    fn a_refreshing_server_passes() {
        let Some(python) = python() else { return };
        let server = server("refreshing_server.py");
        let line = [
            "--only",
            "sibling-prefix-read",
            "--budget",
            "0",
            "--",
            &python,
            &server,
            "{roots}",
        ];
        assert_eq!(
            vet_server(&args(&line), &flag()).expect("runs"),
            Verdict::Pass
        );
    }

    #[test]
    fn launch_flags_start_a_config_file_server_and_a_repeated_flag_server() {
        let Some(python) = python() else { return };
        // One sibling attack in no-roots mode: the roots come from the launch alone.
        let passes = |launch: &[&str], server: &str| {
            let mut line = vec![
                "--session",
                "no-roots",
                "--no-roots-change",
                "--budget",
                "0",
            ];
            line.extend(["--only", "sibling-prefix-read"]);
            line.extend(launch);
            line.extend(["--", &python, server]);
            vet_server(&args(&line), &flag()).expect("runs") == Verdict::Pass
        };
        let config = ".rootguard-test/config.json={\"allowedDirectories\": {roots_json}}";
        assert!(passes(&["--config", config], &server("config_server.py")));
        assert!(passes(
            &["--each-root", "--allow {root}"],
            &server("flag_server.py")
        ));
    }

    #[test]
    fn no_attacks_is_no_table_and_replay_flags_go_after_replay() {
        let old = args(&["--no-attacks", "--", "srv"]);
        let new = args(&["--no-table", "--", "srv"]);
        assert!(old.no_table && new.no_table);
        let line = [
            "replay",
            "f.json",
            "--timeout-ms",
            "5",
            "--base-dir",
            "/x",
            "--",
            "srv",
        ];
        let Some(McpCommand::Replay(replay)) = args(&line).action else {
            panic!("a replay");
        };
        assert_eq!(replay.file, PathBuf::from("f.json"));
        assert_eq!(replay.server.timeout_ms, 5);
        assert_eq!(replay.server.base_dir, PathBuf::from("/x"));
        // A run's flags belong to the run, not to its replay.
        let mixed = ["--budget", "3", "replay", "f.json", "--", "srv"];
        assert!(Cli::try_parse_from(std::iter::once("mcp").chain(mixed)).is_err());
    }

    #[test]
    fn a_base_dir_that_is_missing_or_unclean_is_a_usage_error() {
        let outer = tempfile::tempdir().expect("temp dir");
        let unclean = outer.path().join("a b");
        fs::create_dir(&unclean).expect("mkdir");
        for dir in [unclean, outer.path().join("missing")] {
            let line = ["--base-dir", dir.to_str().expect("utf-8"), "--", "srv"];
            match vet_server(&args(&line), &flag()) {
                Err(HarnessError::Usage(e)) => assert!(e.contains("--base-dir"), "{e}"),
                other => panic!("{}: {other:?}", dir.display()),
            }
        }
    }

    #[test]
    fn a_bad_launch_template_is_a_usage_error_naming_it() {
        for line in [
            &["--env", "DIRS={roots;x}{nope}", "--", "srv"][..],
            &["--config", "/etc/x={roots_json}", "--", "srv"][..],
            &["--", "srv", "{each-root}"][..],
        ] {
            let e = vet_server(&args(line), &flag()).expect_err("usage");
            assert!(matches!(e, HarnessError::Usage(_)), "{line:?}: {e}");
        }
        let e = vet_server(&args(&["--env", "D={nope}", "--", "srv"]), &flag()).expect_err("usage");
        assert!(e.to_string().contains("{nope}"), "{e}");
    }
}
