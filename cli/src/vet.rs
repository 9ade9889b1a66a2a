//! `rootguard vet` and `rootguard replay`: run a checker speaking checker
//! protocol v1 against scenarios and report its defects.

use std::ffi::OsString;
use std::fs;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rootguard_vet::{
    corpus, report, HarnessError, Options, ProcessChecker, Progress, Report, Shard,
};

use crate::args::{FlavorArg, SearchArgs, JUDGING, OUTPUTS, SEARCH};
use crate::outputs::{self, ReportArgs};

/// `println!` that ignores a closed stdout (`rootguard vet | head`).
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// `print!` that ignores a closed stdout.
macro_rules! say_raw {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout().lock(), $($arg)*);
    }};
}

/// Options of `rootguard vet`.
#[derive(Args)]
pub struct VetArgs {
    /// Stop the search after this many queries, corpus included (triage comes on top).
    #[arg(long, value_name = "N", help_heading = SEARCH)]
    cases: Option<u64>,
    #[command(flatten)]
    pub(crate) search: SearchArgs,
    /// Ask only part I of N of the seed's scenarios, on machine I of N (0/2 and 1/2); `rootguard merge` joins their --json reports.
    #[arg(long, value_name = "I/N", help_heading = SEARCH)]
    shard: Option<Shard>,
    /// Extra scenario files or directories of them (repeatable).
    #[arg(long, value_name = "PATH", help_heading = SEARCH)]
    corpus: Vec<PathBuf>,
    /// Skip the bundled conformance corpus (random scenarios and --corpus only).
    #[arg(long, help_heading = SEARCH)]
    no_bundled_corpus: bool,
    /// Milliseconds to wait for each response before calling it a hang.
    #[arg(long, value_name = "N", default_value_t = 2000, help_heading = JUDGING)]
    timeout_ms: u64,
    /// Overblocks fail the run too.
    #[arg(long, help_heading = JUDGING)]
    strict: bool,
    /// Whose paths the checker is asked: windows and macos are spelled in that flavour (requests carry "flavor") and judged by its model, with no tree materialized.
    #[arg(long = "flavor", value_enum, value_name = "FLAVOR", default_value_t = FlavorArg::Linux, help_heading = JUDGING)]
    flavor: FlavorArg,
    /// Write each defect's minimal scenario as a scenario file into DIR (vet-ID.json).
    #[arg(long, value_name = "DIR", help_heading = OUTPUTS)]
    out: Option<PathBuf>,
    /// Print how many queries and findings each strategy and each feature of the covering array got.
    #[arg(long, help_heading = OUTPUTS)]
    stats: bool,
    #[command(flatten)]
    outputs: ReportArgs,
    /// The checker command and its arguments.
    #[arg(last = true, required = true, value_name = "CMD")]
    command: Vec<OsString>,
}

/// Options of `rootguard replay`.
#[derive(Args)]
pub struct ReplayArgs {
    /// A scenario file (scenario-format v1) whose cases carry `expect`.
    file: PathBuf,
    /// Milliseconds to wait for each response before calling it a hang.
    #[arg(long, value_name = "N", default_value_t = 2000, help_heading = JUDGING)]
    timeout_ms: u64,
    /// Overblocks fail the run too.
    #[arg(long, help_heading = JUDGING)]
    strict: bool,
    /// Whose paths the file's cases are (windows, macos: asked with "flavor", judged by that flavour's model); by default the file's own "flavor", else linux.
    #[arg(long = "flavor", value_enum, value_name = "FLAVOR", help_heading = JUDGING)]
    flavor: Option<FlavorArg>,
    /// The checker command and its arguments.
    #[arg(last = true, required = true, value_name = "CMD")]
    command: Vec<OsString>,
}

fn interrupt_flag() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        // Without the handler a signal still ends the run, only less tidily.
        let _ = signal_hook::flag::register(signal, Arc::clone(&flag));
    }
    flag
}

fn harness_error(e: &HarnessError) -> ExitCode {
    eprintln!("rootguard: {e}");
    ExitCode::from(2)
}

/// Runs `rootguard vet`.
pub fn run(args: VetArgs) -> ExitCode {
    let interrupted = interrupt_flag();
    let seed = args.search.seed();
    say!("rootguard vet: seed {seed} (rerun with --seed {seed})");
    let flavour = rootguard_judge::flavour::Flavour::from(args.flavor);
    if flavour != rootguard_judge::flavour::Flavour::Linux {
        say!(
            "rootguard vet: {}",
            rootguard_vet::flavoured::model_note(flavour)
        );
    }
    let baseline = match args.outputs.load_baseline() {
        Ok(b) => b,
        Err(e) => {
            eprintln!("rootguard: {e}");
            return ExitCode::from(2);
        }
    };
    let extra = match corpus::load(&args.corpus) {
        Ok(extra) => extra,
        Err(e) => return harness_error(&e),
    };
    let jobs = args.search.jobs();
    let mut checkers = Vec::with_capacity(jobs);
    for _ in 0..jobs {
        match ProcessChecker::start(args.command.clone(), Duration::from_millis(args.timeout_ms)) {
            Ok(c) => checkers.push(c),
            Err(e) => return harness_error(&e),
        }
    }
    let shard = args.shard.unwrap_or_default();
    if shard != Shard::WHOLE || jobs > 1 {
        say!("rootguard vet: shard {shard}, {jobs} jobs");
    }
    let budget = args.search.budget();
    let bar = std::io::stdout().is_terminal().then(|| {
        let bar = ProgressBar::new(budget.as_millis() as u64);
        bar.set_style(
            ProgressStyle::with_template("{spinner} [{elapsed_precise}] {wide_bar} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    });
    let progress: rootguard_vet::run::ProgressFn = match bar.clone() {
        Some(bar) => Arc::new(move |p: &Progress| {
            bar.set_position(p.elapsed.as_millis().min(p.budget.as_millis()) as u64);
            bar.set_message(format!("{} queries, {} findings", p.queries, p.findings));
        }),
        None => {
            let last = std::sync::Mutex::new(0u64);
            Arc::new(move |p: &Progress| {
                let second = p.elapsed.as_secs();
                if let Ok(mut last) = last.lock() {
                    if second >= *last + 5 {
                        *last = second;
                        say!(
                            "  {second}s: {} queries, {} findings",
                            p.queries,
                            p.findings
                        );
                    }
                }
            })
        }
    };
    let options = Options {
        budget,
        seed,
        max_queries: args.cases,
        triage_time: args.search.triage_time(),
        fail_fast: args.search.fail_fast,
        strict: args.strict,
        corpus: extra,
        bundled_corpus: !args.no_bundled_corpus,
        shard,
        interrupted: Arc::clone(&interrupted),
        progress: Some(progress),
        flavour,
        ..Options::default()
    };
    let result = rootguard_vet::vet_jobs(&mut checkers, &options);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    drop(checkers);
    let mut report = match result {
        Ok(r) => r,
        Err(e) => return harness_error(&e),
    };
    report.command = args
        .command
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    finish(&report, &args, baseline.as_ref())
}

/// Runs `rootguard replay`.
pub fn replay(args: ReplayArgs) -> ExitCode {
    let interrupted = interrupt_flag();
    let source = match corpus::load_file(&args.file) {
        Ok(s) => s,
        Err(e) => return harness_error(&e),
    };
    let mut checker =
        match ProcessChecker::start(args.command.clone(), Duration::from_millis(args.timeout_ms)) {
            Ok(c) => c,
            Err(e) => return harness_error(&e),
        };
    let flavour = args.flavor.map(rootguard_judge::flavour::Flavour::from);
    let result = rootguard_vet::replay(&mut checker, &[source], flavour, &interrupted);
    drop(checker);
    match result {
        Ok(report) => {
            say_raw!("{}", report::text(&report, args.strict));
            for f in report.findings.iter().skip(1) {
                say!("{} at {}: {} -> {}", f.class, f.origin, f.request, f.answer);
            }
            exit_code(&report, args.strict)
        }
        Err(e) => harness_error(&e),
    }
}

fn exit_code(report: &Report, strict: bool) -> ExitCode {
    if report.interrupted {
        ExitCode::from(130)
    } else if report.failed(strict) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn write_file(path: &Path, text: &str) -> Result<(), HarnessError> {
    fs::write(path, text)
        .map_err(|e| HarnessError::Io(format!("cannot write {}: {e}", path.display())))
}

fn finish(
    report: &Report,
    args: &VetArgs,
    baseline: Option<&rootguard_report::Baseline>,
) -> ExitCode {
    let shared = report::model(report, args.strict);
    say_raw!("{}", rootguard_report::text(&shared));
    if args.stats {
        say_raw!("\n{}", report.stats.table());
    }
    let mut written = vec![args.outputs.write(&shared).map_err(HarnessError::Io)];
    // Named by defect: vet-RG-PREFIX-SIBLING.json, ... A modelled
    // flavour's examples are one root and one path already, each written
    // with its flavor so that replay reads it.
    let flavoured = !report.flavour.is_linux();
    let minimal: Vec<_> = shared
        .defects
        .iter()
        .filter(|d| d.example.minimal || flavoured)
        .map(|d| (format!("vet-{}", d.id()), d))
        .collect();
    match &args.out {
        Some(dir) => {
            if let Err(e) = fs::create_dir_all(dir) {
                written.push(Err(HarnessError::Io(format!(
                    "cannot create {}: {e}",
                    dir.display()
                ))));
            }
            for (name, d) in &minimal {
                let doc = report::defect_document(d, name, report.flavour);
                let path = dir.join(format!("{name}.json"));
                written.push(write_file(&path, &doc.to_json()));
                say!("minimal scenario: {}", path.display());
            }
        }
        None => {
            for (name, d) in &minimal {
                say!("\nminimal scenario {name} (save it and run `rootguard replay FILE -- CMD`):");
                say!(
                    "{}",
                    report::defect_document(d, name, report.flavour).to_json()
                );
            }
        }
    }
    if let Some(Err(e)) = written.into_iter().find(Result::is_err) {
        return harness_error(&e);
    }
    let (failed, comparison) = outputs::verdict(&shared, baseline);
    if let Some(text) = comparison {
        say!("\n{text}");
    }
    if report.interrupted {
        ExitCode::from(130)
    } else if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
