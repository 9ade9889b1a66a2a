//! `mcp_throughput/<server>`: tool calls per second of `rootguard mcp`'s
//! generative phase against a live server, one long-lived server whose tree
//! is relaid between scenarios (`long_lived`) beside a fresh server per
//! scenario (`restart_each`, the baseline), in the same run, rounds
//! interleaved. The bar: 200 calls/s against the project's own Python test
//! server. Servers: `python_test_server` (mcp/test-servers/refreshing_server.py)
//! and `reference_node` (@modelcontextprotocol/server-filesystem 2.0.1, which shows no escape,
//! installed from npm into target/npm-cache as the tests do; left out, with
//! a message, when node or npm is missing).
//!
//! ```sh
//! cargo bench -p rootguard-benches --bench mcp            # 5 rounds of 3 s per figure
//! cargo bench -p rootguard-benches --bench mcp -- 3 2     # rounds, seconds
//! ```

use std::path::Path;
use std::time::Duration;

use rootguard_mcp::{run, Mode, Options};
use rootguard_testsupport::{npm, Tool};

/// Calls per second of one generative phase of `seconds` on `command`.
fn calls_per_second(command: &[String], seconds: u64, restart_each_scenario: bool) -> f64 {
    let mut options = Options::new(command.to_vec());
    options.modes = vec![Mode::Roots];
    options.table = false;
    options.stale_roots = false;
    options.shrink = false;
    options.budget = Duration::from_secs(seconds);
    options.seed = 1;
    options.restart_each_scenario = restart_each_scenario;
    let report = run(&options).expect("the generative phase runs");
    assert!(
        report.findings.is_empty(),
        "a sound server showed findings: {:?}",
        report.findings
    );
    report.generated_calls as f64 / seconds as f64
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

fn bench(server: &str, command: &[String], rounds: usize, seconds: u64) {
    let (mut long, mut restart, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        let l = calls_per_second(command, seconds, false);
        let r = calls_per_second(command, seconds, true);
        long.push(l);
        restart.push(r);
        ratios.push(l / r);
    }
    let (min, max) = ratios
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    println!(
        "mcp_throughput/{server}/long_lived    median {:.0} calls/s over {rounds} rounds of {seconds} s",
        median(&mut long)
    );
    println!(
        "mcp_throughput/{server}/restart_each  median {:.0} calls/s",
        median(&mut restart)
    );
    println!(
        "mcp_throughput/{server}               long_lived / restart_each: median {:.1}x ({min:.1}-{max:.1})",
        median(&mut ratios)
    );
}

fn main() {
    // `cargo bench` passes `--bench`; the numbers after it are ours.
    let numbers: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let rounds = numbers.first().copied().unwrap_or(5) as usize;
    let seconds = numbers.get(1).copied().unwrap_or(3);
    let servers = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mcp/test-servers");
    if let Some(python) = Tool::Python3.need("the project's MCP test server") {
        let command = vec![
            python,
            servers.join("refreshing_server.py").display().to_string(),
            "{roots}".to_owned(),
        ];
        bench("python_test_server", &command, rounds, seconds);
    }
    let node = Tool::Node.need("the MCP reference server");
    let package = npm::package("@modelcontextprotocol/server-filesystem", "2.0.1");
    if let (Some(node), Some(package)) = (node, package) {
        let entry = package.join("dist/index.js").display().to_string();
        let command = vec![node, entry, "{roots}".to_owned()];
        bench("reference_node", &command, rounds, seconds);
    }
}
