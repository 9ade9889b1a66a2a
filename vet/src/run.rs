//! The vetting run: the corpus first, then the systematic phase and the
//! covering array (the same at every seed), then random scenarios with targeted
//! queries, until the budget is spent; then triage: each candidate defect's
//! examples shrunk and probed, and the findings named as defects.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rootguard_judge::flavour::Flavour;
use rootguard_judge::gen::{combination, covering_array, systematic, Feature, Generator};
use rootguard_judge::{Materialized, Scenario};

use rootguard_report::Defect;

use crate::checker::Checker;
use crate::corpus::Source;
use crate::judge::{evaluate, Class, Finding, Ids, Judge, Outcome};
use crate::shard::Shard;
use crate::stats::{Stats, Strategy, Tally};
use crate::targeted::{decoys, expand, Pick};
use crate::triage::{Limits, Triage, TriageStats, Triaged};
use crate::HarnessError;

/// A callback told where a run stands after each scenario.
pub type ProgressFn = Arc<dyn Fn(&Progress) + Send + Sync>;

/// How a run is bounded and what it reports.
#[derive(Clone)]
pub struct Options {
    /// Stop generating random scenarios after this long. Any nonzero
    /// budget first asks the whole covering array (about 4,000 queries,
    /// `Stats::triples`) and at least one random scenario with its decoys;
    /// zero asks the corpus only.
    pub budget: Duration,
    /// The seed of the random scenarios.
    pub seed: u64,
    /// Stop the search after this many queries (corpus included); triage's
    /// shrinking and probing come on top, bounded by `shrink_attempts`.
    pub max_queries: Option<u64>,
    /// Stop the search at the first escape (it is still shrunk and probed;
    /// triage shrinks one example of each candidate only).
    pub fail_fast: bool,
    /// Overblocks fail the run too.
    pub strict: bool,
    /// Run the bundled corpus first.
    pub bundled_corpus: bool,
    /// Extra scenario documents, run after the bundled corpus.
    pub corpus: Vec<Source>,
    /// How many examples triage shrinks in all: one per candidate defect
    /// first, in the order they were found, then more of each in turn.
    pub max_shrunk: usize,
    /// Shrinking attempts triage may make in all, shared fairly between
    /// candidate defects (each attempt a fresh tree and a query).
    pub shrink_attempts: usize,
    /// Time triage may take, shrinking and probing.
    pub triage_time: Duration,
    /// Which part of the seed's scenarios this run asks (`--shard I/N`).
    pub shard: Shard,
    /// Set from outside (a signal handler) to stop between queries.
    pub interrupted: Arc<AtomicBool>,
    /// Called after each scenario with the queries so far.
    pub progress: Option<ProgressFn>,
    /// Whose path semantics the checker is asked in (`--flavor`): Linux,
    /// judged by the kernel on materialized trees, or a modelled flavour,
    /// judged by its model (`crate::flavoured`; the corpus, the covering
    /// array and triage's shrinking are Linux's and not asked).
    pub flavour: Flavour,
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("budget", &self.budget)
            .field("seed", &self.seed)
            .field("max_queries", &self.max_queries)
            .field("fail_fast", &self.fail_fast)
            .field("strict", &self.strict)
            .field("shard", &self.shard)
            .field("flavour", &self.flavour)
            .field("corpus", &self.corpus.len())
            .finish_non_exhaustive()
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            budget: Duration::from_secs(60),
            seed: 0,
            max_queries: None,
            fail_fast: false,
            strict: false,
            bundled_corpus: true,
            corpus: Vec::new(),
            max_shrunk: 64,
            shrink_attempts: 20_000,
            triage_time: Duration::from_secs(60),
            shard: Shard::WHOLE,
            interrupted: Arc::new(AtomicBool::new(false)),
            progress: None,
            flavour: Flavour::Linux,
        }
    }
}

/// Where a run stands, for a progress display.
#[derive(Debug, Clone)]
pub struct Progress {
    /// Queries asked so far.
    pub queries: u64,
    /// Findings so far.
    pub findings: u64,
    /// Time since the start.
    pub elapsed: Duration,
    /// The budget.
    pub budget: Duration,
}

/// What a run found.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// The checker's command, when known (the SARIF location names its script).
    pub command: Vec<String>,
    /// The seed of the random scenarios.
    pub seed: u64,
    /// Queries asked (shrinking and re-asks included).
    pub queries: u64,
    /// Scenarios materialized and asked (shrinking excluded).
    pub scenarios: u64,
    /// Findings per class.
    pub counts: BTreeMap<Class, u64>,
    /// Every shrunk example, and the first finding of each candidate defect.
    pub findings: Vec<Finding>,
    /// The defects, most severe first, each with its simplest example.
    pub defects: Vec<Defect>,
    /// What triage spent.
    pub triage: TriageStats,
    /// Queries and findings per strategy and per feature (`vet --stats`).
    pub stats: Stats,
    /// Harness notes (model and kernel disagreeing, unusable scenarios).
    pub notes: Vec<String>,
    /// Whether the run was stopped by a signal.
    pub interrupted: bool,
    /// When the search first saw an escape, since the start (triage excluded).
    pub first_escape: Option<Duration>,
    /// How many queries the search had asked when it first saw an escape,
    /// that one included (with several jobs, the fewest of any job): the
    /// same for a seed on any machine, where `first_escape` is not.
    pub first_escape_query: Option<u64>,
    /// When the search first saw a finding that fails the run (an escape,
    /// a hang, a crash, a protocol error; with `strict`, an overblock
    /// too), since the start.
    pub first_failure: Option<Duration>,
    /// How many queries the search had asked at that finding, that one
    /// included (with several jobs, the fewest of any job).
    pub first_failure_query: Option<u64>,
    /// How long it took.
    pub elapsed: Duration,
    /// The flavour the checker was asked in; its truth is the model's
    /// unless it is Linux.
    pub flavour: Flavour,
}

impl Report {
    /// Whether the run fails: any escape, hang, crash or protocol error
    /// (and, when `strict`, any overblock).
    pub fn failed(&self, strict: bool) -> bool {
        self.counts
            .iter()
            .any(|(class, n)| *n > 0 && class.fails(strict))
    }

    /// How many findings of `class`.
    pub fn count(&self, class: Class) -> u64 {
        self.counts.get(&class).copied().unwrap_or(0)
    }

    /// How many escapes of either kind.
    pub fn escapes(&self) -> u64 {
        self.count(Class::PathEscape) + self.count(Class::RootEscape)
    }

    /// The first finding of `class`.
    pub fn first(&self, class: Class) -> Option<&Finding> {
        self.findings.iter().find(|f| f.class == class)
    }

    /// Notes a finding of `class` seen after `queries` queries, `elapsed`
    /// into the search: the first escape, and the first finding that
    /// fails the run (`strict` as the run's).
    pub(crate) fn saw(&mut self, class: Class, strict: bool, queries: u64, elapsed: Duration) {
        if class.is_escape() && self.first_escape.is_none() {
            self.first_escape = Some(elapsed);
            self.first_escape_query = Some(queries);
        }
        if class.fails(strict) && self.first_failure.is_none() {
            self.first_failure = Some(elapsed);
            self.first_failure_query = Some(queries);
        }
    }

    /// Takes `other`'s first escape and first failure where they came
    /// sooner (another job's search).
    pub(crate) fn absorb_firsts(&mut self, other: &Report) {
        fn least<T: Ord>(x: Option<T>, y: Option<T>) -> Option<T> {
            match (x, y) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, y) => x.or(y),
            }
        }
        self.first_escape = least(self.first_escape, other.first_escape);
        self.first_escape_query = least(self.first_escape_query, other.first_escape_query);
        self.first_failure = least(self.first_failure, other.first_failure);
        self.first_failure_query = least(self.first_failure_query, other.first_failure_query);
    }
}

/// Random scenarios asked past the budget, at most, to draw a decoy group.
const FIRST_ROUNDS: u64 = 64;

/// Consecutive defects without an answer after which the checker is given up on.
const GIVE_UP_AFTER: u32 = 25;

struct Run<'a> {
    checker: &'a mut dyn Checker,
    options: &'a Options,
    max_queries: Option<u64>,
    ids: Ids,
    report: Report,
    start: Instant,
    failing_in_a_row: u32,
    triage: Triage,
    stop: bool,
}

/// Vets `checker` in the Linux flavour: the corpus, then the covering
/// array, then random scenarios until the budget or `max_queries` is
/// spent, or an interruption; each of them only where it falls in
/// `options.shard`. [`crate::vet`] chooses between this and a modelled
/// flavour's run.
///
/// # Errors
///
/// [`HarnessError`] when the checker cannot be (re)started or a scenario
/// cannot be materialized at all.
pub(crate) fn vet(checker: &mut dyn Checker, options: &Options) -> Result<Report, HarnessError> {
    let start = Instant::now();
    let searched = search(checker, options, options.shard, options.max_queries, start)?;
    finish(searched, options, start, |triage, ids, limits| {
        triage.finish(checker, ids, limits, &options.interrupted)
    })
}

/// Vets in the Linux flavour with one checker process per job (all the same checker, started
/// by the caller), each asking its own share of `options.shard`'s
/// scenarios at once; the findings are merged in job order and triaged
/// on every checker, each round's examples dealt out in turn, so the same
/// seed and number of jobs give the same defects. `max_queries` is shared out; only the first job reports
/// progress.
///
/// # Errors
///
/// [`HarnessError`] when there is no checker, or as [`vet`].
pub(crate) fn vet_jobs<C: Checker + Send>(
    checkers: &mut [C],
    options: &Options,
) -> Result<Report, HarnessError> {
    let start = Instant::now();
    let results = in_jobs(checkers, options, |checker, options, shard, max_queries| {
        search(checker, options, shard, max_queries, start)
    })?;
    let mut merged: Option<Searched> = None;
    for searched in results {
        match &mut merged {
            None => merged = Some(searched),
            Some(m) => m.absorb(searched),
        }
    }
    let Some(merged) = merged else {
        unreachable!("at least one job ran");
    };
    finish(merged, options, start, |triage, ids, limits| {
        triage.finish_on_all(checkers, ids, limits, &options.interrupted)
    })
}

/// Runs `search` once per checker, each in its own thread, on its part
/// of `options.shard` and of `options.max_queries` (only the first job
/// reports progress); the results in job order.
///
/// # Errors
///
/// [`HarnessError`] when there is no checker, a job panicked, or the
/// first error of a job.
pub(crate) fn in_jobs<C, T, F>(
    checkers: &mut [C],
    options: &Options,
    search: F,
) -> Result<Vec<T>, HarnessError>
where
    C: Checker + Send,
    T: Send,
    F: Fn(&mut C, &Options, Shard, Option<u64>) -> Result<T, HarnessError> + Sync,
{
    let jobs = checkers.len() as u64;
    if jobs == 0 {
        return Err(HarnessError::Io(
            "no checker to run: --jobs must be at least 1".to_owned(),
        ));
    }
    let search = &search;
    let results: Vec<Result<T, HarnessError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = checkers
            .iter_mut()
            .enumerate()
            .map(|(j, checker)| {
                let j = j as u64;
                let shard = options.shard.split(j, jobs);
                let max_queries = options
                    .max_queries
                    .map(|n| n / jobs + u64::from(j < n % jobs));
                let mut options = options.clone();
                if j > 0 {
                    options.progress = None;
                }
                scope.spawn(move || search(checker, &options, shard, max_queries))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(HarnessError::Io("a vetting job panicked".to_owned())))
            })
            .collect()
    });
    results.into_iter().collect()
}

/// What a search found, before triage.
struct Searched {
    ids: Ids,
    report: Report,
    triage: Triage,
}

impl Searched {
    /// Adds another job's search to this one.
    fn absorb(&mut self, other: Searched) {
        let (a, b) = (&mut self.report, other.report);
        a.absorb_firsts(&b);
        a.queries += b.queries;
        a.scenarios += b.scenarios;
        for (class, n) in b.counts {
            *a.counts.entry(class).or_insert(0) += n;
        }
        for note in b.notes {
            if a.notes.len() < 100 && !a.notes.contains(&note) {
                a.notes.push(note);
            }
        }
        a.stats.absorb(b.stats);
        self.triage.absorb(other.triage);
    }
}

/// The search phase on one checker: the scenarios of `shard`, at most
/// `max_queries` queries.
fn search(
    checker: &mut dyn Checker,
    options: &Options,
    shard: Shard,
    max_queries: Option<u64>,
    start: Instant,
) -> Result<Searched, HarnessError> {
    let mut run = Run {
        checker,
        options,
        max_queries,
        ids: Ids::default(),
        report: Report {
            seed: options.seed,
            ..Report::default()
        },
        start,
        failing_in_a_row: 0,
        triage: Triage::default(),
        stop: false,
    };
    let mut sources = if options.bundled_corpus {
        crate::corpus::bundled()?
    } else {
        Vec::new()
    };
    sources.extend(options.corpus.iter().cloned());
    let corpus = sources
        .iter()
        .flat_map(|source| source.document.scenarios.iter().map(move |s| (source, s)));
    for (number, (source, scenario)) in corpus.enumerate() {
        if run.stop {
            break;
        }
        if shard.holds(number as u64) {
            run.scenarios(
                std::slice::from_ref(scenario),
                &source.origin,
                Strategy::Corpus,
                &[],
            )?;
        }
    }
    // The systematic phase, the same at every seed, however small a
    // nonzero budget: what a list can cover never hangs on the seed.
    for (number, item) in systematic().into_iter().enumerate() {
        if run.stop || options.budget.is_zero() {
            break;
        }
        if !shard.holds(number as u64) {
            continue;
        }
        let asked = run.scenarios(
            std::slice::from_ref(&item.scenario),
            "systematic",
            Strategy::Systematic,
            &[],
        )?;
        if asked {
            run.report.stats.systematic.insert(item.name);
        }
    }
    // Every triple of features next, however small a nonzero budget: the
    // rare escapes need two or three at once. The seed turns the ladders.
    for (row, triple) in covering_array().into_iter().enumerate() {
        if run.stop || options.budget.is_zero() {
            break;
        }
        if !shard.holds(row as u64) {
            continue;
        }
        let rung = row.wrapping_add(options.seed as usize);
        let asked = run.scenarios(
            &[combination(&triple, rung)],
            "covering",
            Strategy::Covering,
            &triple,
        )?;
        if asked {
            run.report.stats.triples.insert(triple);
        }
    }
    let mut generator = Generator::new(options.seed);
    let mut pick = Pick(options.seed);
    // Past the budget too, until the random phase has shown each of its
    // classes once (a few scenarios), so that every class is drawn.
    let mut drawn_decoys = false;
    let mut rounds = 0u64;
    while !run.stop
        && !options.budget.is_zero()
        && (run.start.elapsed() < options.budget
            || (!drawn_decoys && rounds < FIRST_ROUNDS * shard.count))
    {
        // Every shard draws the whole stream, and asks its own part of it.
        let ours = shard.holds(rounds);
        rounds += 1;
        let scenario = generator.scenario();
        let expanded = expand(&scenario, &mut pick);
        let decoys = decoys(&scenario, &mut pick);
        if !ours {
            continue;
        }
        run.scenarios(&expanded, "random", Strategy::Random, &[])?;
        if let Some(decoys) = decoys {
            run.scenarios(&[decoys], "random", Strategy::Decoys, &[])?;
            drawn_decoys = true;
        }
    }
    Ok(Searched {
        ids: run.ids,
        report: run.report,
        triage: run.triage,
    })
}

/// Triage of what the search found, by `triage` (on one checker, or on
/// every job's).
fn finish(
    searched: Searched,
    options: &Options,
    start: Instant,
    triage_on: impl FnOnce(Triage, &mut Ids, &Limits) -> Result<Triaged, HarnessError>,
) -> Result<Report, HarnessError> {
    let Searched {
        mut ids,
        mut report,
        triage,
    } = searched;
    if !triage.is_empty() {
        let before = ids.issued();
        let limits = Limits {
            one_round: options.fail_fast,
            max_shrunk: options.max_shrunk,
            attempts: options.shrink_attempts,
            time: options.triage_time,
        };
        let (findings, defects, stats) = triage_on(triage, &mut ids, &limits)?;
        report.queries += ids.issued() - before;
        report.findings = findings;
        report.defects = defects;
        report.triage = stats;
    }
    report.elapsed = start.elapsed();
    report.interrupted = options.interrupted.load(Ordering::Relaxed);
    Ok(report)
}

impl Run<'_> {
    fn check_stop(&mut self) {
        let o = self.options;
        if o.interrupted.load(Ordering::Relaxed)
            || self.max_queries.is_some_and(|n| self.report.queries >= n)
        {
            self.stop = true;
        }
    }

    /// Asks every case of `group`, scenarios sharing one tree, on one
    /// materialization of that tree, and counts them for `strategy` and
    /// `features`; whether every case was asked.
    fn scenarios(
        &mut self,
        group: &[Scenario],
        origin: &str,
        strategy: Strategy,
        features: &[Feature],
    ) -> Result<bool, HarnessError> {
        self.check_stop();
        let Some(scenario) = group.first() else {
            return Ok(true);
        };
        if self.stop {
            return Ok(false);
        }
        let queries_before = self.report.queries;
        let findings_before: u64 = self.report.counts.values().sum();
        let materialized = match Materialized::new(scenario) {
            Ok(m) => m,
            Err(e) => {
                self.note(format!(
                    "scenario {:?} from {origin} skipped: {e}",
                    scenario.name
                ));
                return Ok(false);
            }
        };
        let judge = match Judge::new(&materialized) {
            Ok(j) => j,
            Err(e) => {
                self.note(format!(
                    "scenario {:?} from {origin} skipped: {e}",
                    scenario.name
                ));
                return Ok(false);
            }
        };
        let mut found = Vec::new();
        let mut complete = true;
        for (number, scenario) in group.iter().enumerate() {
            if self.stop {
                complete = false;
                break;
            }
            if number > 0 && scenario.tree != group[0].tree {
                self.note("a scenario group with different trees (a harness defect)".to_owned());
                continue;
            }
            self.report.scenarios += 1;
            let substituted = scenario.substituted(materialized.base_text());
            for (index, case) in substituted.cases.iter().enumerate() {
                self.check_stop();
                if self.stop {
                    complete = false;
                    break;
                }
                let before = self.ids_used();
                let outcome = evaluate(
                    self.checker,
                    &judge,
                    &mut self.ids,
                    &substituted.roots,
                    &case.path,
                    case.op,
                )?;
                self.report.queries += self.ids_used() - before;
                if let Some(note) = outcome.truth.as_ref().and_then(|t| t.disagreement.clone()) {
                    self.note(note);
                }
                match outcome.class {
                    Some(Class::Hang | Class::Crash | Class::ProtocolError) => {
                        self.failing_in_a_row += 1
                    }
                    _ => self.failing_in_a_row = 0,
                }
                if let Some(class) = outcome.class {
                    let (queries, elapsed) = (self.report.queries, self.start.elapsed());
                    self.report
                        .saw(class, self.options.strict, queries, elapsed);
                    *self.report.counts.entry(class).or_insert(0) += 1;
                    // The stderr of the process that answered, now: a
                    // later case may restart the checker.
                    let stderr = if class.is_escape() {
                        String::new()
                    } else {
                        self.checker.stderr_tail()
                    };
                    found.push((number, index, class, outcome, stderr));
                }
                if self.failing_in_a_row >= GIVE_UP_AFTER {
                    self.note(format!(
                    "the checker failed {GIVE_UP_AFTER} queries in a row (hang, crash or protocol error); giving up on it"
                ));
                    self.stop = true;
                }
            }
        }
        drop(materialized);
        let tally = Tally {
            queries: self.report.queries - queries_before,
            findings: self.report.counts.values().sum::<u64>() - findings_before,
        };
        self.report.stats.count(strategy, features, tally);
        for (number, index, class, outcome, stderr) in found {
            self.record(&group[number], origin, index, class, outcome, stderr);
        }
        if let Some(progress) = &self.options.progress {
            progress(&Progress {
                queries: self.report.queries,
                findings: self.report.counts.values().sum(),
                elapsed: self.start.elapsed(),
                budget: self.options.budget,
            });
        }
        Ok(complete)
    }

    /// Ids are issued one per request, so they count the requests.
    fn ids_used(&self) -> u64 {
        self.ids.issued()
    }

    fn note(&mut self, note: String) {
        if self.report.notes.len() < 100 && !self.report.notes.contains(&note) {
            self.report.notes.push(note);
        }
    }

    fn record(
        &mut self,
        scenario: &Scenario,
        origin: &str,
        index: usize,
        class: Class,
        outcome: Outcome,
        stderr: String,
    ) {
        if self.options.fail_fast && class.is_escape() {
            self.stop = true;
        }
        self.triage
            .record(scenario, index, class, outcome, origin, stderr);
    }
}
