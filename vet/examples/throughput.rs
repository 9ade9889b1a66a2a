//! Queries per second of a vetting run against a trivial always-deny
//! checker: in-process (the harness alone), and a child process given on
//! the command line.
//!
//! ```sh
//! cargo run --release -p rootguard-vet --example throughput -- python3 deny.py
//! ```

use std::ffi::OsString;
use std::time::Duration;

use rootguard_vet::{vet, vet_fn, Answer, Options, ProcessChecker};

fn main() {
    let seconds = 10;
    let options = Options {
        budget: Duration::from_secs(seconds),
        seed: 1,
        ..Options::default()
    };
    match vet_fn(|_, _, _| Answer::deny(), &options) {
        Ok(r) => println!(
            "in-process always-deny: {} queries in {:.1}s = {:.0} queries/s",
            r.queries,
            r.elapsed.as_secs_f64(),
            r.queries as f64 / r.elapsed.as_secs_f64()
        ),
        Err(e) => eprintln!("in-process run failed: {e}"),
    }
    let command: Vec<OsString> = std::env::args_os().skip(1).collect();
    if command.is_empty() {
        return;
    }
    let run = ProcessChecker::start(command, Duration::from_secs(2))
        .and_then(|mut c| vet(&mut c, &options));
    match run {
        Ok(r) => println!(
            "child process: {} queries in {:.1}s = {:.0} queries/s",
            r.queries,
            r.elapsed.as_secs_f64(),
            r.queries as f64 / r.elapsed.as_secs_f64()
        ),
        Err(e) => eprintln!("child process run failed: {e}"),
    }
}
