//! vet's speed against a trivial always-deny checker: a persistent child
//! process, scenarios materialized once and asked many queries. The issue's
//! bar is 5,000 queries/s of the search; criterion reports it as elements/s.
//! Triage is off there (`max_shrunk: 0`): it is a bounded cost on top of the
//! search, and against an always-deny checker (every plain path an
//! overblock) it would ask as many queries again as the search did.
//!
//! And `vet_throughput/jobs/<n>/<checker>`: the search of `--jobs n`, triage
//! off as above, against the always-deny checker and the sound Python
//! checker (bar: 1.8× the one-job rate at 2). Triage runs on every job's
//! checker too, but one example's shrinking is serial: its time is reported
//! by the CLI (`triage: ... in 0.7s`) and in benches/README.md, not here.

use std::ffi::OsString;
use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rootguard_vet::{vet, vet_fn, vet_jobs, Answer, Options, ProcessChecker};

const QUERIES: u64 = 2_000;

/// The search alone: no triage.
fn options() -> Options {
    Options {
        max_shrunk: 0,
        budget: Duration::from_secs(3600),
        seed: 1,
        max_queries: Some(QUERIES),
        bundled_corpus: false,
        ..Options::default()
    }
}

fn vet_throughput(c: &mut Criterion) {
    // As the CLI does: temp trees on tmpfs unless the user chose a TMPDIR.
    if std::env::var_os("TMPDIR").is_none() && std::path::Path::new("/dev/shm").is_dir() {
        std::env::set_var("TMPDIR", "/dev/shm");
    }
    let mut group = c.benchmark_group("vet_throughput");
    group.throughput(Throughput::Elements(QUERIES));
    group.sample_size(10);
    let command = vec![OsString::from(env!("CARGO_BIN_EXE_always_deny"))];
    let mut checker = ProcessChecker::start(command, Duration::from_secs(2))
        .expect("the always-deny checker starts");
    group.bench_function("always_deny_process", |b| {
        b.iter(|| black_box(vet(&mut checker, &options()).expect("vet runs").queries))
    });
    group.bench_function("always_deny_in_process", |b| {
        b.iter(|| {
            black_box(
                vet_fn(|_, _, _| Answer::deny(), &options())
                    .expect("vet runs")
                    .queries,
            )
        })
    });
    group.finish();
}

/// Queries of one `--jobs` iteration: enough that each job's start-up is noise.
const JOB_QUERIES: u64 = 8_000;

fn vet_jobs_throughput(c: &mut Criterion) {
    let mut group = c.benchmark_group("vet_throughput");
    group.throughput(Throughput::Elements(JOB_QUERIES));
    group.sample_size(10);
    let sound = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/checkers/python/sound.py"
    );
    let checkers: [(&str, Vec<OsString>); 2] = [
        (
            "always_deny",
            vec![env!("CARGO_BIN_EXE_always_deny").into()],
        ),
        ("sound_python", vec!["python3".into(), sound.into()]),
    ];
    for (name, command) in checkers {
        for jobs in [1, 2] {
            let mut running: Vec<ProcessChecker> = (0..jobs)
                .map(|_| {
                    ProcessChecker::start(command.clone(), Duration::from_secs(2))
                        .expect("the checker starts")
                })
                .collect();
            let options = Options {
                max_queries: Some(JOB_QUERIES),
                ..options()
            };
            group.bench_function(format!("jobs/{jobs}/{name}"), |b| {
                b.iter(|| black_box(vet_jobs(&mut running, &options).expect("vet runs").queries))
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(8));
    targets = vet_throughput, vet_jobs_throughput
}
criterion_main!(benches);
