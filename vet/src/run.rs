//! The vetting run: the corpus first, then random scenarios with targeted
//! queries, until the budget is spent; escapes shrunk as they are found.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use rootguard_proptests::{strategies, Judgement, Materialized, Scenario};

use crate::checker::{Checker, Reply};
use crate::corpus::Source;
use crate::judge::{evaluate, Class, Ids, Judge, Outcome};
use crate::shrink::shrink;
use crate::targeted::{decoys, expand, Pick};
use crate::HarnessError;

/// A callback told where a run stands after each scenario.
pub type ProgressFn = Arc<dyn Fn(&Progress) + Send + Sync>;

/// How a run is bounded and what it reports.
#[derive(Clone)]
pub struct Options {
    /// Stop generating random scenarios after this long.
    pub budget: Duration,
    /// The seed of the random scenarios.
    pub seed: u64,
    /// Stop after this many queries (corpus included).
    pub max_queries: Option<u64>,
    /// Stop after the first escape, once shrunk.
    pub fail_fast: bool,
    /// Overblocks fail the run too.
    pub strict: bool,
    /// Run the bundled corpus first.
    pub bundled_corpus: bool,
    /// Extra scenario documents, run after the bundled corpus.
    pub corpus: Vec<Source>,
    /// How many escapes are shrunk (the rest are counted).
    pub max_shrunk: usize,
    /// Set from outside (a signal handler) to stop between queries.
    pub interrupted: Arc<AtomicBool>,
    /// Called after each scenario with the queries so far.
    pub progress: Option<ProgressFn>,
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("budget", &self.budget)
            .field("seed", &self.seed)
            .field("max_queries", &self.max_queries)
            .field("fail_fast", &self.fail_fast)
            .field("strict", &self.strict)
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
            max_shrunk: 8,
            interrupted: Arc::new(AtomicBool::new(false)),
            progress: None,
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

/// One defect found.
#[derive(Debug, Clone)]
pub struct Finding {
    /// Its class.
    pub class: Class,
    /// Where the scenario came from (`bundled:…`, a file, or `random`).
    pub origin: String,
    /// The exact request that showed it (after any shrinking).
    pub request: String,
    /// What the checker answered, in words.
    pub answer: String,
    /// The truth, where an answer was judged.
    pub truth: Option<Judgement>,
    /// The scenario showing it, `{base}` form, one case (minimal when shrunk).
    pub scenario: Scenario,
    /// Whether `scenario` was shrunk.
    pub shrunk: bool,
    /// The checker's recent stderr.
    pub stderr: String,
}

/// What a run found.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// The seed of the random scenarios.
    pub seed: u64,
    /// Queries asked (shrinking and re-asks included).
    pub queries: u64,
    /// Scenarios materialized and asked (shrinking excluded).
    pub scenarios: u64,
    /// Findings per class.
    pub counts: BTreeMap<Class, u64>,
    /// The first finding of each class, and every shrunk escape.
    pub findings: Vec<Finding>,
    /// Harness notes (model and kernel disagreeing, unusable scenarios).
    pub notes: Vec<String>,
    /// Whether the run was stopped by a signal.
    pub interrupted: bool,
    /// How long it took.
    pub elapsed: Duration,
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
}

/// Consecutive defects without an answer after which the checker is given up on.
const GIVE_UP_AFTER: u32 = 25;

struct Run<'a> {
    checker: &'a mut dyn Checker,
    options: &'a Options,
    ids: Ids,
    report: Report,
    start: Instant,
    failing_in_a_row: u32,
    shrunk: usize,
    stop: bool,
}

/// Vets `checker`: the corpus, then random scenarios until the budget or
/// `max_queries` is spent, or an interruption.
///
/// # Errors
///
/// [`HarnessError`] when the checker cannot be (re)started or a scenario
/// cannot be materialized at all.
pub fn vet(checker: &mut dyn Checker, options: &Options) -> Result<Report, HarnessError> {
    let mut run = Run {
        checker,
        options,
        ids: Ids::default(),
        report: Report {
            seed: options.seed,
            ..Report::default()
        },
        start: Instant::now(),
        failing_in_a_row: 0,
        shrunk: 0,
        stop: false,
    };
    let mut sources = if options.bundled_corpus {
        crate::corpus::bundled()?
    } else {
        Vec::new()
    };
    sources.extend(options.corpus.iter().cloned());
    'corpus: for source in &sources {
        for scenario in &source.document.scenarios {
            run.scenarios(std::slice::from_ref(scenario), &source.origin)?;
            if run.stop {
                break 'corpus;
            }
        }
    }
    let mut rng_seed = [0u8; 32];
    rng_seed[..8].copy_from_slice(&options.seed.to_le_bytes());
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &rng_seed),
    );
    let mut pick = Pick(options.seed);
    let strategy = strategies::scenario();
    while !run.stop && run.start.elapsed() < options.budget {
        let scenario = match strategy.new_tree(&mut runner) {
            Ok(tree) => tree.current(),
            Err(why) => {
                return Err(HarnessError::Scenario(format!(
                    "the scenario generator failed: {why}"
                )))
            }
        };
        run.scenarios(&expand(&scenario, &mut pick), "random")?;
        if let Some(decoys) = decoys(&scenario, &mut pick) {
            run.scenarios(&[decoys], "random")?;
        }
    }
    run.report.elapsed = run.start.elapsed();
    run.report.interrupted = options.interrupted.load(Ordering::Relaxed);
    Ok(run.report)
}

impl Run<'_> {
    fn check_stop(&mut self) {
        let o = self.options;
        if o.interrupted.load(Ordering::Relaxed)
            || o.max_queries.is_some_and(|n| self.report.queries >= n)
        {
            self.stop = true;
        }
    }

    /// Asks every case of `group`, scenarios sharing one tree, on one
    /// materialization of that tree.
    fn scenarios(&mut self, group: &[Scenario], origin: &str) -> Result<(), HarnessError> {
        self.check_stop();
        let Some(scenario) = group.first() else {
            return Ok(());
        };
        if self.stop {
            return Ok(());
        }
        let materialized = match Materialized::new(scenario) {
            Ok(m) => m,
            Err(e) => {
                self.note(format!(
                    "scenario {:?} from {origin} skipped: {e}",
                    scenario.name
                ));
                return Ok(());
            }
        };
        let judge = match Judge::new(&materialized) {
            Ok(j) => j,
            Err(e) => {
                self.note(format!(
                    "scenario {:?} from {origin} skipped: {e}",
                    scenario.name
                ));
                return Ok(());
            }
        };
        let mut found = Vec::new();
        for (number, scenario) in group.iter().enumerate() {
            if self.stop {
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
                    *self.report.counts.entry(class).or_insert(0) += 1;
                    found.push((number, index, class, outcome));
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
        for (number, index, class, outcome) in found {
            self.record(&group[number], origin, index, class, outcome)?;
        }
        if let Some(progress) = &self.options.progress {
            progress(&Progress {
                queries: self.report.queries,
                findings: self.report.counts.values().sum(),
                elapsed: self.start.elapsed(),
                budget: self.options.budget,
            });
        }
        Ok(())
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
    ) -> Result<(), HarnessError> {
        let first_of_class = self.report.first(class).is_none();
        // Every escape up to the bound, and the first overblock, so the report shows each minimal.
        let shrink_it = !self.stop
            && ((class.is_escape() && self.shrunk < self.options.max_shrunk)
                || (class == Class::Overblock && first_of_class));
        if !first_of_class && !shrink_it {
            return Ok(());
        }
        let single = Scenario {
            cases: vec![scenario.cases[index].clone()],
            ..scenario.clone()
        };
        let mut finding = finding(
            class,
            origin,
            &outcome,
            single,
            false,
            self.checker.stderr_tail(),
        );
        if shrink_it {
            let before = self.ids_used();
            let shrunk = shrink(
                self.checker,
                &mut self.ids,
                scenario,
                index,
                class,
                &self.options.interrupted,
            )?;
            self.report.queries += self.ids_used() - before;
            if let Some(s) = shrunk {
                self.shrunk += 1;
                finding = finding_shrunk(
                    class,
                    origin,
                    &s.outcome,
                    s.scenario,
                    self.checker.stderr_tail(),
                );
            }
            if self.options.fail_fast && class.is_escape() {
                self.stop = true;
            }
        }
        if !first_of_class && !finding.shrunk {
            return Ok(());
        }
        self.report.findings.push(finding);
        Ok(())
    }
}

fn finding_shrunk(
    class: Class,
    origin: &str,
    outcome: &Outcome,
    scenario: Scenario,
    stderr: String,
) -> Finding {
    finding(class, origin, outcome, scenario, true, stderr)
}

fn finding(
    class: Class,
    origin: &str,
    outcome: &Outcome,
    scenario: Scenario,
    shrunk: bool,
    stderr: String,
) -> Finding {
    let answer = match &outcome.reply {
        Reply::Answer(a) if a.allowed => match &a.use_path {
            Some(u) => format!("allowed, using {u:?}"),
            None => "allowed".to_owned(),
        },
        Reply::Answer(_) => "denied".to_owned(),
        Reply::Hang => "no response within the timeout".to_owned(),
        Reply::Crash(why) | Reply::ProtocolError(why) => why.clone(),
    };
    Finding {
        class,
        origin: origin.to_owned(),
        request: outcome.request.to_json(),
        answer,
        truth: outcome.truth.as_ref().map(|t| t.judgement.clone()),
        scenario,
        shrunk,
        stderr,
    }
}
