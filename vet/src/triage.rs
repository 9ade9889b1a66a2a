//! Triage: from findings to defects. As they are found, findings are
//! grouped into candidate defects by a cheap pre-signature (their features,
//! unprobed); after the search, each candidate's examples are shrunk, the
//! shrinking budget shared fairly between candidates, and each minimal
//! scenario is probed (one variant per feature, asked of the checker) for
//! the signature that names its defect.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rootguard_judge::gen::WITNESS_ITEM;
use rootguard_judge::{Expect, Scenario, Truth};
use rootguard_report::{
    hostile_marks, is_seeded, Defect, Example, Ledger, Refusal, Sighting, Variants,
};
use rootguard_triage::{
    catalogue, probe, simplicity, unprobed, witness, Feature, Identity, Need, Probe, Simplicity,
    Subject,
};

use crate::checker::{Checker, Reply};
use crate::judge::{Class, Finding, Ids, Outcome};
use crate::shrink::{ask, shrink, Asked, Budget, MAX_ATTEMPTS};
use crate::HarnessError;

/// The most examples a candidate keeps for shrinking.
const EXAMPLES_KEPT: usize = 8;

/// One finding as found: its scenario reduced to its case, and what happened.
#[derive(Debug, Clone)]
struct Found {
    scenario: Scenario,
    origin: String,
    outcome: Outcome,
    stderr: String,
}

/// Findings that look like one defect before probing.
#[derive(Debug)]
struct Candidate {
    class: Class,
    guess: String,
    hits: u64,
    variants: Variants,
    examples: Vec<Found>,
}

/// What triage spent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TriageStats {
    /// Candidate defects (pre-signatures) seen.
    pub candidates: usize,
    /// Examples shrunk to a minimal scenario.
    pub shrunk: usize,
    /// Shrinking attempts made.
    pub attempts: usize,
    /// Variants asked while probing.
    pub probe_queries: u64,
    /// Time spent probing.
    pub probe_time: Duration,
    /// Time spent shrinking and probing.
    pub elapsed: Duration,
    /// Findings of candidates none of whose examples showed again when
    /// asked alone (a checker that depends on earlier requests, or a host
    /// that changed), left out of the defects where their class has others.
    pub unreproduced: u64,
    /// Shrinking rounds finished (in round `r`, each candidate's example `r`).
    pub rounds_done: usize,
}

/// How triage is bounded.
#[derive(Debug, Clone)]
pub(crate) struct Limits {
    /// Only each candidate's first example (a fail-fast run).
    pub one_round: bool,
    pub max_shrunk: usize,
    pub attempts: usize,
    pub time: Duration,
}

/// Findings grouped by pre-signature, as the search goes.
#[derive(Debug, Default)]
pub(crate) struct Triage {
    candidates: Vec<Candidate>,
}

/// A protocol error's kind, from the harness's words for it.
fn protocol_features(reply: &Reply) -> Vec<Feature> {
    let Reply::ProtocolError(why) = reply else {
        return Vec::new();
    };
    let feature = if why.starts_with("not JSON") || why.starts_with("not a JSON object") {
        Feature::NotJson
    } else if why.starts_with("answered id") || why.starts_with("no \"id\"") {
        Feature::WrongId
    } else if why.starts_with("\"allowed\"") || why.starts_with("no \"allowed\"") {
        Feature::NoVerdict
    } else if why.starts_with("a response line of") {
        Feature::LineTooLong
    } else {
        return Vec::new();
    };
    vec![feature]
}

fn answer_text(reply: &Reply) -> String {
    match reply {
        Reply::Answer(a) if a.allowed => match &a.use_path {
            Some(u) => format!("allowed, using {u:?}"),
            None => "allowed".to_owned(),
        },
        Reply::Answer(_) => "denied".to_owned(),
        Reply::Hang => "no response within the timeout".to_owned(),
        Reply::Crash(why) | Reply::ProtocolError(why) => why.clone(),
    }
}

/// The finding of `outcome` on `scenario`.
pub(crate) fn finding(
    class: Class,
    origin: &str,
    outcome: &Outcome,
    scenario: Scenario,
    shrunk: bool,
    stderr: String,
) -> Finding {
    Finding {
        class,
        origin: origin.to_owned(),
        request: outcome.request.to_json(),
        answer: answer_text(&outcome.reply),
        truth: outcome.truth.as_ref().map(|t| t.judgement.clone()),
        scenario,
        shrunk,
        stderr,
    }
}

/// A finding as a report's example.
pub(crate) fn example(f: &Finding) -> Example {
    Example {
        scenario: f.scenario.clone(),
        minimal: f.shrunk,
        origin: f.origin.clone(),
        request: f.request.clone(),
        answer: f.answer.clone(),
        truth: f.truth.as_ref().map(|t| t.truth.to_string()),
        explanation: f.truth.as_ref().map(|t| t.explanation.clone()),
        evidence: None,
        exchange: Vec::new(),
        stderr: f.stderr.clone(),
        refusal: None,
    }
}

/// The forms one finding shows.
fn variants_of(scenario: &Scenario) -> Variants {
    let mut v = Variants::default();
    if let Some(case) = scenario.cases.first() {
        v.ops.insert(case.op.to_string());
    }
    v.suffixes.extend(hostile_marks(scenario));
    v.channels.insert("verdict".to_owned());
    v
}

/// A finding's identity without probing (its pre-signature).
pub(crate) fn unprobed_identity(f: &Finding, reply: Option<&Reply>) -> Identity {
    let observed = reply.map(protocol_features).unwrap_or_default();
    unprobed(&f.scenario, f.class, &observed)
}

impl Triage {
    /// Adds the finding of case `index` of `scenario` to its candidate.
    pub(crate) fn record(
        &mut self,
        scenario: &Scenario,
        index: usize,
        class: Class,
        outcome: Outcome,
        origin: &str,
        stderr: String,
    ) {
        let single = Scenario {
            cases: vec![scenario.cases[index].clone()],
            ..scenario.clone()
        };
        let identity = unprobed(&single, class, &protocol_features(&outcome.reply));
        let guess = catalogue::identify(&identity.signature).id;
        let variants = variants_of(&single);
        let at = match self
            .candidates
            .iter()
            .position(|c| c.class == class && c.guess == guess)
        {
            Some(at) => at,
            None => {
                self.candidates.push(Candidate {
                    class,
                    guess,
                    hits: 0,
                    variants: Variants::default(),
                    examples: Vec::new(),
                });
                self.candidates.len() - 1
            }
        };
        let candidate = &mut self.candidates[at];
        candidate.hits += 1;
        candidate.variants.merge(&variants);
        candidate.keep(Found {
            scenario: single,
            origin: origin.to_owned(),
            outcome,
            stderr,
        });
    }

    /// Adds another job's candidates, after this one's.
    pub(crate) fn absorb(&mut self, other: Triage) {
        for theirs in other.candidates {
            match self
                .candidates
                .iter_mut()
                .find(|c| c.class == theirs.class && c.guess == theirs.guess)
            {
                Some(ours) => {
                    ours.hits += theirs.hits;
                    ours.variants.merge(&theirs.variants);
                    for found in theirs.examples {
                        ours.keep(found);
                    }
                }
                None => self.candidates.push(theirs),
            }
        }
    }
}

impl Candidate {
    /// The order in which the candidate's examples are kept and shrunk: a
    /// witness of the ID it was guessed to be first (the catalogue's
    /// scenario for that flaw, asked at every seed), then one found the
    /// same way at every seed (the corpus, the systematic phase), so that
    /// what is shrunk, and so the ID, does not hang on the seed; then the
    /// simplest. A simpler example may show another flaw of the same
    /// checker (`project\` is a text prefix too), and the first example
    /// shrunk names the candidate.
    fn rank(&self, found: &Found) -> (bool, bool, Simplicity) {
        let witness = found
            .scenario
            .name
            .strip_prefix("systematic: ")
            .and_then(|n| n.strip_prefix(WITNESS_ITEM))
            .is_some_and(|w| witness::id_of(w) == self.guess);
        (
            !witness,
            is_seeded(&found.origin),
            simplicity(&found.scenario),
        )
    }

    /// Keeps `found` among the examples: the first always, then the best
    /// by [`Candidate::rank`].
    fn keep(&mut self, found: Found) {
        if self.examples.len() < EXAMPLES_KEPT {
            self.examples.push(found);
        } else if let Some(worst) = (1..self.examples.len())
            .max_by_key(|&i| self.rank(&self.examples[i]))
            .filter(|&i| self.rank(&found) < self.rank(&self.examples[i]))
        {
            // The first example stays (it is the candidate's first sight); simpler ones replace others.
            self.examples[worst] = found;
        }
    }
}

impl Triage {
    /// Whether anything was recorded.
    pub(crate) fn is_empty(&self) -> bool {
        self.candidates.is_empty()
    }

    /// Shrinks and probes the candidates' examples within `limits` on one
    /// checker, and returns the findings (every shrunk one, and the first
    /// of each candidate) and the defects.
    pub(crate) fn finish(
        self,
        checker: &mut dyn Checker,
        ids: &mut Ids,
        limits: &Limits,
        interrupted: &AtomicBool,
    ) -> Result<Triaged, HarnessError> {
        self.triage(ids, limits, interrupted, &mut |tasks, ids, deadline| {
            tasks
                .iter()
                .map(|task| settle(checker, ids, task, deadline, interrupted))
                .collect()
        })
    }

    /// [`Triage::finish`] on every checker at once: each checker takes the
    /// round's next example as soon as it is free (a shrink may take a
    /// hundred times another's attempts, so a fixed deal would leave one
    /// checker idle), asks it with the ids of that example (`base + k<<32`
    /// for the `k`th, whoever asks it), and the results are taken in the
    /// round's order, so the same findings and number of checkers give the
    /// same defects, examples and ids.
    pub(crate) fn finish_on_all<C: Checker + Send>(
        self,
        checkers: &mut [C],
        ids: &mut Ids,
        limits: &Limits,
        interrupted: &AtomicBool,
    ) -> Result<Triaged, HarnessError> {
        if let [checker] = checkers {
            return self.finish(checker, ids, limits, interrupted);
        }
        self.triage(ids, limits, interrupted, &mut |tasks, ids, deadline| {
            let base = ids.issued();
            let next = AtomicUsize::new(0);
            let dealt: Vec<Option<Dealt>> = std::thread::scope(|scope| {
                let handles: Vec<_> = checkers
                    .iter_mut()
                    .map(|checker| {
                        let next = &next;
                        scope.spawn(move || {
                            let mut settled = Vec::new();
                            let mut issued = 0;
                            loop {
                                let k = next.fetch_add(1, Ordering::Relaxed);
                                let Some(task) = tasks.get(k) else { break };
                                // Ids apart from every other example's, and
                                // from every id of an earlier round.
                                let first = base + ((k as u64) << 32);
                                let mut own = Ids::starting_after(first);
                                settled.push((
                                    k,
                                    settle(checker, &mut own, task, deadline, interrupted),
                                ));
                                issued += own.issued() - first;
                            }
                            (settled, issued)
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().ok()).collect()
            });
            let mut in_order: Vec<Option<Result<Settle, HarnessError>>> =
                (0..tasks.len()).map(|_| None).collect();
            for (settled, issued) in dealt.into_iter().flatten() {
                ids.skip(issued);
                for (k, result) in settled {
                    in_order[k] = Some(result);
                }
            }
            in_order
                .into_iter()
                .map(|settled| {
                    settled.unwrap_or_else(|| {
                        Err(HarnessError::Io("a triage job panicked".to_owned()))
                    })
                })
                .collect()
        })
    }

    /// The rounds of triage, each round's examples settled by `settle_all`
    /// (in the order given, one result each): in round `r`, each candidate's
    /// example `r`, the attempts left shared equally between them.
    fn triage(
        self,
        ids: &mut Ids,
        limits: &Limits,
        interrupted: &AtomicBool,
        settle_all: SettleAll<'_>,
    ) -> Result<Triaged, HarnessError> {
        let started = Instant::now();
        let deadline = started + limits.time;
        let mut candidates = self.candidates;
        let mut stats = TriageStats {
            candidates: candidates.len(),
            ..TriageStats::default()
        };
        let mut ledger = Ledger::default();
        let mut findings = Vec::new();
        // The simplest example first: it is the one every variant can be made of.
        for c in &mut candidates {
            let mut examples = std::mem::take(&mut c.examples);
            examples.sort_by_cached_key(|f| c.rank(f));
            c.examples = examples;
        }
        let mut attempts_left = limits.attempts;
        let mut settled = vec![false; candidates.len()];
        let mut first_id: Vec<Option<String>> = vec![None; candidates.len()];
        let shrinkable = |c: &Candidate| {
            matches!(
                c.class,
                Class::PathEscape | Class::RootEscape | Class::Overblock
            )
        };
        let rounds = candidates
            .iter()
            .map(|c| c.examples.len())
            .max()
            .unwrap_or(0)
            .min(if limits.one_round { 1 } else { usize::MAX });
        for round in 0..rounds {
            stats.rounds_done = round;
            let room = limits.max_shrunk.saturating_sub(stats.shrunk);
            if room == 0
                || attempts_left == 0
                || interrupted.load(Ordering::Relaxed)
                || Instant::now() >= deadline
            {
                break;
            }
            let pending: Vec<usize> = (0..candidates.len())
                .filter(|&i| shrinkable(&candidates[i]) && round < candidates[i].examples.len())
                .take(room)
                .collect();
            if pending.is_empty() {
                stats.rounds_done = round + 1;
                continue;
            }
            // A fair share: what is left, split between this round's examples.
            let share = (attempts_left / pending.len()).clamp(1, MAX_ATTEMPTS);
            let tasks: Vec<Task<'_>> = pending
                .iter()
                .map(|&i| Task {
                    candidate: &candidates[i],
                    found: &candidates[i].examples[round],
                    share,
                })
                .collect();
            let results = settle_all(&tasks, ids, deadline);
            let mut cut_short = false;
            for (&i, result) in pending.iter().zip(results) {
                let s = match result? {
                    Settle::Skipped => {
                        cut_short = true;
                        continue;
                    }
                    Settle::Gone => continue,
                    Settle::Settled(s) => s,
                };
                let Settled {
                    finding: f,
                    identity,
                    refusal,
                    attempts,
                } = *s;
                let candidate = &candidates[i];
                attempts_left = attempts_left.saturating_sub(attempts);
                stats.attempts += attempts;
                stats.shrunk += 1;
                stats.probe_queries += identity.queries;
                stats.probe_time += identity.elapsed;
                // The candidate's hits go to its first defect; a later example
                // naming another defect brings only itself.
                let id = catalogue::identify(&identity.signature).id;
                let (hits, variants) = match &first_id[i] {
                    None => (candidate.hits, candidate.variants.clone()),
                    Some(first) if *first == id => (0, Variants::default()),
                    Some(_) => (1, variants_of(&f.scenario)),
                };
                first_id[i].get_or_insert(id);
                settled[i] = true;
                ledger.add(Sighting {
                    identity,
                    example: Example {
                        refusal,
                        ..example(&f)
                    },
                    hits,
                    variants,
                });
                findings.push(f);
            }
            if cut_short {
                break;
            }
            stats.rounds_done = round + 1;
        }
        // What could not be (or need not be) shrunk: as found, unprobed. A
        // candidate that never showed again counts only where nothing else
        // of its class did.
        for (i, candidate) in candidates.iter().enumerate() {
            if settled[i] {
                continue;
            }
            let tried = shrinkable(candidate) && candidate.examples.len() <= stats.rounds_done;
            let class_shown =
                (0..candidates.len()).any(|j| settled[j] && candidates[j].class == candidate.class);
            if tried && class_shown {
                stats.unreproduced += candidate.hits;
                continue;
            }
            let Some(found) = candidate.examples.iter().min_by_key(|f| candidate.rank(f)) else {
                continue;
            };
            let f = finding(
                candidate.class,
                &found.origin,
                &found.outcome,
                found.scenario.clone(),
                false,
                found.stderr.clone(),
            );
            ledger.add(Sighting {
                identity: unprobed_identity(&f, Some(&found.outcome.reply)),
                example: example(&f),
                hits: candidate.hits,
                variants: candidate.variants.clone(),
            });
            findings.push(f);
        }
        stats.elapsed = started.elapsed();
        Ok((findings, ledger.defects(), stats))
    }
}

/// What triage gives: the findings, the defects and what it spent.
pub(crate) type Triaged = (Vec<Finding>, Vec<Defect>, TriageStats);

/// Settles a round's examples, one result each in the order given, with
/// the ids given and before the deadline.
type SettleAll<'s> =
    &'s mut dyn FnMut(&[Task<'_>], &mut Ids, Instant) -> Vec<Result<Settle, HarnessError>>;

/// What one checker settled of a round: each example by its place in the
/// round, and how many ids it issued.
type Dealt = (Vec<(usize, Result<Settle, HarnessError>)>, u64);

/// One example to shrink and probe, and the attempts it may spend.
struct Task<'a> {
    candidate: &'a Candidate,
    found: &'a Found,
    share: usize,
}

/// A shrunk example, probed.
struct Settled {
    finding: Finding,
    identity: Identity,
    refusal: Option<Refusal>,
    attempts: usize,
}

/// What became of one example.
enum Settle {
    /// Not tried: the deadline passed or the run was interrupted.
    Skipped,
    /// It did not show again, alone.
    Gone,
    /// Shrunk and probed.
    Settled(Box<Settled>),
}

/// Shrinks one example within its share and the deadline, and probes it.
fn settle(
    checker: &mut dyn Checker,
    ids: &mut Ids,
    task: &Task<'_>,
    deadline: Instant,
    interrupted: &AtomicBool,
) -> Result<Settle, HarnessError> {
    if interrupted.load(Ordering::Relaxed) || Instant::now() >= deadline {
        return Ok(Settle::Skipped);
    }
    let Task {
        candidate,
        found,
        share,
    } = task;
    let shrunk = shrink(
        checker,
        ids,
        &found.scenario,
        0,
        candidate.class,
        interrupted,
        Budget {
            attempts: *share,
            deadline: Some(deadline),
        },
    )?;
    let Some(s) = shrunk else {
        return Ok(Settle::Gone);
    };
    let f = finding(
        candidate.class,
        &found.origin,
        &s.outcome,
        s.scenario,
        true,
        checker.stderr_tail(),
    );
    let (identity, refusal) = probe_finding(checker, ids, &f)?;
    Ok(Settle::Settled(Box::new(Settled {
        finding: f,
        identity,
        refusal,
        attempts: s.attempts,
    })))
}

/// Probes a shrunk finding: each variant materialized, its truth judged
/// (it must still be the truth the class needs), then asked. For an
/// escape, also the refusal beside it, when the checker refused a variant
/// that names the defect ([`refusal_beside`]).
fn probe_finding(
    checker: &mut dyn Checker,
    ids: &mut Ids,
    f: &Finding,
) -> Result<(Identity, Option<Refusal>), HarnessError> {
    let class = f.class;
    let want = if class == Class::Overblock {
        Truth::Inside
    } else {
        Truth::Outside
    };
    let mut refused: Vec<(Scenario, Outcome)> = Vec::new();
    let identity = probe(&f.scenario, class, &[], |variant: &Scenario| {
        Ok(match ask(checker, ids, variant, Some(want))? {
            Asked::Not(why) => Probe::Inconclusive(why),
            Asked::Answered(outcome, _) => match outcome.class {
                Some(c) if c == class || (c.is_escape() && class.is_escape()) => Probe::Shows,
                None if class.is_escape() => {
                    refused.push((variant.clone(), outcome));
                    Probe::Gone
                }
                _ => Probe::Gone,
            },
        })
    })?;
    let refusal = refusal_beside(f, &identity, &refused);
    Ok((identity, refusal))
}

/// The refusal to show beside an escape: among the variants the checker
/// refused, the one without the needed feature that names the defect
/// (the first of its catalogue entry's features probing found needed,
/// else the first needed).
fn refusal_beside(
    f: &Finding,
    identity: &Identity,
    refused: &[(Scenario, Outcome)],
) -> Option<Refusal> {
    let id = catalogue::identify(&identity.signature).id;
    let names: Vec<String> = catalogue::rules()
        .into_iter()
        .find(|(rule, _, _)| *rule == id)
        .map(|(_, _, features)| features)
        .unwrap_or_default();
    let mut needed: Vec<Feature> = identity
        .probes
        .iter()
        .filter(|p| p.need == Need::Needed)
        .map(|p| p.feature)
        .collect();
    needed.sort_by_key(|feature| {
        names
            .iter()
            .position(|n| *n == feature.name())
            .unwrap_or(usize::MAX)
    });
    let subject = Subject::new(&f.scenario);
    needed.into_iter().find_map(|feature| {
        let variant = subject.without(feature)?;
        let (scenario, outcome) = refused.iter().find(|(s, _)| *s == variant)?;
        let mut scenario = scenario.clone();
        for case in &mut scenario.cases {
            case.expect = Some(Expect::Outside);
        }
        Some(Refusal {
            without: feature.name(),
            scenario,
            request: outcome.request.to_json(),
            answer: answer_text(&outcome.reply),
        })
    })
}
