//! The `rootguard` command.
#![forbid(unsafe_code)]

mod args;
mod check;
mod demo;
mod init;
mod mcp;
mod merge;
mod oracle;
mod outputs;
mod vet;

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// Find the bugs in path boundary logic: does a path stay inside the roots?
#[derive(Parser)]
#[command(name = "rootguard", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check one path against roots, explaining each root and each step.
    ///
    /// Exit status: 0 inside, 1 outside, 3 unresolvable (the operation
    /// cannot happen), 2 usage error.
    Check {
        /// A root URI, e.g. file:///home/u/project (repeat for more roots).
        #[arg(long = "root", value_name = "URI")]
        roots: Vec<String>,
        /// What the tool is about to do with the path.
        #[arg(long, value_enum, default_value_t = OpArg::Read)]
        op: OpArg,
        /// Whose path semantics: linux (core, on this machine's file system), or the windows or macos model (lexical: no file system consulted; exit 3 means the model cannot tell).
        #[arg(long = "flavor", value_enum, value_name = "FLAVOR", default_value_t = args::FlavorArg::Linux)]
        flavor: args::FlavorArg,
        /// The absolute path a tool call carries.
        path: OsString,
    },
    /// Build a small hostile tree in a temp dir and check a few paths in it.
    Demo,
    /// Print the truth of every case of a scenario file (format v1), one
    /// line each: `name#index op truth path`.
    ///
    /// Exit status: 0 all agree, 1 a disagreement, 2 a malformed file.
    Oracle {
        /// Compare each truth with the case's `expect`; print `N/M cases agree` last.
        #[arg(long)]
        verify: bool,
        /// The scenario file.
        file: PathBuf,
    },
    /// Find the defects of a checker speaking checker protocol v1, each
    /// named by a stable ID with its minimal scenario.
    ///
    /// Exit status: 0 no defect that fails (escapes, hangs, crashes,
    /// protocol errors; overblocks with --strict), or with --baseline none
    /// that is new; 1 such a defect; 2 usage or harness error; 130
    /// interrupted.
    Vet(Box<vet::VetArgs>),
    /// Run a scenario file through a checker, judging answers against `expect`.
    ///
    /// Exit status as for vet.
    Replay(vet::ReplayArgs),
    /// Vet a live MCP server over stdio or HTTP: speak roots, attack every
    /// door it lists (file tools, git and archive tools, tools taking a
    /// path or a URI, resources/read, URI templates, prompts), observe
    /// escapes on disk and in its answers.
    ///
    /// Exit status: 0 no defect that fails (escapes, hangs, crashes,
    /// protocol errors; the warnings with --strict), or with
    /// --baseline none that is new, and every door attacked; 1 such a
    /// defect; 2 inconclusive (nothing listed or attackable, or a door
    /// left unattacked: docs/mcp-doors.md; 1 with --strict), or a usage or
    /// harness error; 130 interrupted.
    Mcp(Box<mcp::McpArgs>),
    /// Write a checker skeleton (Python, Node or Rust) that calls a
    /// placeholder check, and print the commands that vet it.
    ///
    /// Exit status: 0 written, 2 a file is there already (nothing is
    /// overwritten) or cannot be written.
    Init(init::InitArgs),
    /// Join the JSON reports of `rootguard vet --shard I/N` runs into one,
    /// each defect once.
    ///
    /// Exit status: 0 no input failed, 1 one did, 2 a file is not a report.
    Merge(merge::MergeArgs),
}

#[derive(Clone, Copy, ValueEnum)]
enum OpArg {
    Read,
    Write,
}

impl From<OpArg> for rootguard::Op {
    fn from(op: OpArg) -> Self {
        match op {
            OpArg::Read => rootguard::Op::Read,
            OpArg::Write => rootguard::Op::Write,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check {
            roots,
            op,
            flavor: args::FlavorArg::Linux,
            path,
        } => check::run(&roots, op.into(), &path),
        Command::Check {
            roots,
            op,
            flavor,
            path,
        } => check::run_model(&roots, op.into(), flavor.into(), &path),
        Command::Demo => demo::run(),
        Command::Vet(args) => vet::run(*args),
        Command::Replay(args) => vet::replay(args),
        Command::Mcp(args) => mcp::run_mcp(*args),
        Command::Oracle { verify, file } => oracle::run(&file, verify),
        Command::Init(args) => init::run(&args),
        Command::Merge(args) => merge::run(&args),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &[&str]) -> Command {
        Cli::try_parse_from(std::iter::once("rootguard").chain(line.iter().copied()))
            .unwrap_or_else(|e| panic!("{line:?}: {e}"))
            .command
    }

    #[test]
    fn vet_and_mcp_share_the_search_flags_and_their_defaults() {
        let (Command::Vet(vet), Command::Mcp(mcp)) =
            (parse(&["vet", "--", "c"]), parse(&["mcp", "--", "c"]))
        else {
            panic!("vet and mcp");
        };
        assert_eq!(vet.search, mcp.search);
        assert_eq!(vet.search.seed, None, "a new seed each run, printed");
        assert_eq!((vet.search.budget, vet.search.triage_time), (60, 60));
        assert_eq!(vet.search.jobs, None, "one job per core");
        let given = [
            "--seed",
            "7",
            "--fail-fast",
            "--budget",
            "5",
            "--jobs",
            "3",
            "--triage-time",
            "9",
            "--",
            "c",
        ];
        let (Command::Vet(vet), Command::Mcp(mcp)) = (
            parse(&[&["vet"][..], &given].concat()),
            parse(&[&["mcp"][..], &given].concat()),
        ) else {
            panic!("vet and mcp");
        };
        assert_eq!(vet.search, mcp.search);
        assert_eq!((vet.search.seed(), vet.search.fail_fast), (7, true));
        assert_eq!(
            (vet.search.budget, vet.search.jobs(), vet.search.triage_time),
            (5, 3, 9)
        );
    }

    #[test]
    fn the_command_line_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
