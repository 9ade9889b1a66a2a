//! `rootguard mcp`: vet a live MCP server over stdio, roots and all.

use std::ffi::OsString;
use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, ValueEnum};
use rootguard_mcp::{report, run, HarnessError, Mode, Options, Sandbox};

/// Options of `rootguard mcp`.
#[derive(Args)]
pub struct McpArgs {
    /// Milliseconds to wait for each response before calling it a hang.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    timeout_ms: u64,
    /// Which session modes to run: with the roots capability, without it, or both.
    #[arg(long, value_enum, default_value_t = SessionArg::Both)]
    session: SessionArg,
    /// The sandbox: the first of bubblewrap and `unshare --mount` that works here (auto), one of them, or none.
    #[arg(long, value_enum, default_value_t = SandboxArg::Auto)]
    sandbox: SandboxArg,
    /// Run write attacks even without a sandbox (they stay inside the temp base).
    #[arg(long)]
    allow_unsandboxed_writes: bool,
    /// Only attacks whose name contains TEXT.
    #[arg(long, value_name = "TEXT")]
    only: Option<String>,
    /// Skip the attacks (baseline and roots-that-change only).
    #[arg(long)]
    no_attacks: bool,
    /// Skip the roots-that-change check.
    #[arg(long)]
    no_roots_change: bool,
    /// Keep escapes as found, unshrunk.
    #[arg(long)]
    no_shrink: bool,
    /// Write the report as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write the report as SARIF 2.1.0 to FILE.
    #[arg(long, value_name = "FILE")]
    sarif: Option<PathBuf>,
    /// Write the report as JUnit XML to FILE.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Write each finding as a scenario file and its JSON-RPC exchange into DIR.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// A root not honoured fails the run too.
    #[arg(long)]
    strict: bool,
    /// The server command; an argument `{roots}` becomes the root directories.
    #[arg(last = true, required = true, value_name = "CMD")]
    command: Vec<OsString>,
}

#[derive(Clone, Copy, ValueEnum)]
enum SessionArg {
    Both,
    Roots,
    NoRoots,
}

#[derive(Clone, Copy, ValueEnum)]
enum SandboxArg {
    Auto,
    Bwrap,
    Unshare,
    None,
}

/// Runs `rootguard mcp`; exit 0 nothing found, 1 a finding that fails, 2
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
        Ok(failed) => ExitCode::from(u8::from(failed)),
        Err(e) => {
            eprintln!("rootguard mcp: {e}");
            ExitCode::from(2)
        }
    }
}

fn vet_server(args: &McpArgs, interrupted: &Arc<AtomicBool>) -> Result<bool, HarnessError> {
    let command = args
        .command
        .iter()
        .map(|a| {
            a.to_str()
                .map(str::to_owned)
                .ok_or_else(|| HarnessError::Usage(format!("{a:?} is not UTF-8")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut options = Options::new(command);
    options.timeout = Duration::from_millis(args.timeout_ms);
    options.modes = match args.session {
        SessionArg::Both => vec![Mode::Roots, Mode::NoRoots],
        SessionArg::Roots => vec![Mode::Roots],
        SessionArg::NoRoots => vec![Mode::NoRoots],
    };
    options.sandbox = match args.sandbox {
        SandboxArg::Auto => None,
        SandboxArg::Bwrap => Some(Sandbox::Bwrap),
        SandboxArg::Unshare => Some(Sandbox::Unshare),
        SandboxArg::None => Some(Sandbox::None),
    };
    options.allow_unsandboxed_writes = args.allow_unsandboxed_writes;
    options.filter = args.only.clone();
    options.attacks = !args.no_attacks;
    options.stale_roots = !args.no_roots_change;
    options.shrink = !args.no_shrink;
    options.interrupted = Arc::clone(interrupted);
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
    print!("{}", report::text(&report, args.strict));
    let write = |path: &PathBuf, text: String| {
        fs::write(path, text)
            .map_err(|e| HarnessError::Io(format!("cannot write {}: {e}", path.display())))
    };
    if let Some(path) = &args.json {
        write(path, report::json(&report, args.strict))?;
    }
    if let Some(path) = &args.sarif {
        write(path, report::sarif(&report, args.strict))?;
    }
    if let Some(path) = &args.junit {
        write(path, report::junit(&report, args.strict))?;
    }
    if let Some(dir) = &args.out {
        let written = report::write_findings(&report, dir)?;
        if !written.is_empty() {
            println!("{} files written to {}", written.len(), dir.display());
        }
    }
    Ok(report.failed(args.strict))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

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
        let out = std::process::Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
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
        let Some(python) = python() else {
            eprintln!("skipped: python3 is not available");
            return;
        };
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
        assert!(
            vet_server(&args(&line), &flag()).expect("runs"),
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
    fn a_refreshing_server_passes() {
        let Some(python) = python() else {
            eprintln!("skipped: python3 is not available");
            return;
        };
        let server = server("refreshing_server.py");
        let line = [
            "--only",
            "sibling-prefix-read",
            "--",
            &python,
            &server,
            "{roots}",
        ];
        assert!(!vet_server(&args(&line), &flag()).expect("runs"));
    }
}
