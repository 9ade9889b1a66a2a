//! A run of a modelled flavour (`vet --flavor windows|macos`): the tree is
//! modelled, not materialized. The checker is asked the flavour's
//! systematic list ([`flavoured_cases`]), then, while the budget lasts,
//! respellings of it drawn from the seed ([`respelled`]); every request
//! carries `"flavor"`, and every answer is judged by the flavour's model
//! ([`flavour::inside`]), whose truth each finding says it is.
//!
//! There is no tree to shrink or probe: each case is already one root and
//! one path, and its defect is named by the hostile features the list
//! labelled it with (`ntfs-stream`, `dos-device`, ...).

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use rootguard_judge::flavour::{self, Flavour};
use rootguard_judge::gen::{flavoured_cases, marks_of, respelled, FlavourCase};
use rootguard_judge::{Case, Judgement, Op, PathBytes, Scenario, Truth};
use rootguard_report::{Ledger, Sighting, Variants};
use rootguard_triage::catalogue;
use rootguard_triage::{shrink, Budget, Feature, Identity, Seen, Signature, Steps, MAX_ATTEMPTS};

use crate::checker::{Checker, Reply, Request};
use crate::judge::{Class, Finding, Ids, Outcome, Truthful};
use crate::run::{in_jobs, Options, Progress, Report};
use crate::shard::Shard;
use crate::triage::{example, finding, unprobed_identity};
use crate::HarnessError;

/// The note every flavoured report carries: whose truth it is.
pub fn model_note(flavour: Flavour) -> String {
    format!(
        "flavour {flavour}: the tree is modelled, not materialized; every truth is the {flavour} model's (docs/semantics.md section 5), not a kernel's"
    )
}

/// Vets `checker` in `options.flavour` (not [`Flavour::Linux`]).
///
/// # Errors
///
/// [`HarnessError`] when the checker cannot be (re)started.
pub(crate) fn vet_flavoured(
    checker: &mut dyn Checker,
    options: &Options,
) -> Result<Report, HarnessError> {
    let start = Instant::now();
    let mut searched = search(checker, options, options.shard, options.max_queries, start)?;
    let mut ids = std::mem::take(&mut searched.ids);
    let mut report = finish(vec![searched], options, start);
    shrink_examples(checker, &mut ids, options, &mut report)?;
    report.elapsed = start.elapsed();
    Ok(report)
}

/// [`vet_flavoured`] with one checker process per job, each asking its
/// own share of the list and of the respellings (every job draws the
/// whole stream), merged in job order, so that a seed and a number of
/// jobs give the same defects.
///
/// # Errors
///
/// [`HarnessError`] when there is no checker, or one cannot be (re)started.
pub(crate) fn vet_flavoured_jobs<C: Checker + Send>(
    checkers: &mut [C],
    options: &Options,
) -> Result<Report, HarnessError> {
    let start = Instant::now();
    let mut searched = in_jobs(checkers, options, |checker, options, shard, max_queries| {
        search(checker, options, shard, max_queries, start)
    })?;
    let mut ids = std::mem::take(&mut searched[0].ids);
    let mut report = finish(searched, options, start);
    shrink_examples(&mut checkers[0], &mut ids, options, &mut report)?;
    report.elapsed = start.elapsed();
    Ok(report)
}

/// Shrinks each escape's and overblock's example with triage's shrinker
/// ([`shrink`], every step): a simpler scenario is kept when the checker,
/// asked it, still shows the same class of the same defect (its features
/// read off the query, [`marks_of`]). Bounded by the triage time and
/// attempts. A modelled flavour's queries are small already (one root,
/// one path); this drops what the defect does not need (a component of
/// the path, a root's odd spelling, a name's length or its non-ASCII).
fn shrink_examples(
    checker: &mut dyn Checker,
    ids: &mut Ids,
    options: &Options,
    report: &mut Report,
) -> Result<(), HarnessError> {
    let flavour = options.flavour;
    let started = Instant::now();
    let deadline = started + options.triage_time;
    let mut attempts_left = options.shrink_attempts;
    for defect in &mut report.defects {
        let class = defect.class();
        if !(class.is_escape() || class == Class::Overblock) || attempts_left == 0 {
            continue;
        }
        let id = defect.id().to_owned();
        let budget = Budget {
            attempts: attempts_left.min(MAX_ATTEMPTS),
            deadline: Some(deadline),
        };
        let keep = |s: &Scenario| {
            s.tree.is_empty()
                && !s.roots.is_empty()
                && s.cases.len() == 1
                && s.cases[0].path.to_str().is_some()
        };
        let mut asked = 0u64;
        let ask = |s: &Scenario| -> Result<Seen<Asked>, HarnessError> {
            let path = s.cases[0].path.to_str().unwrap_or_default().to_owned();
            let case = FlavourCase {
                name: s.name.clone(),
                roots: s.roots.clone(),
                path,
                op: s.cases[0].op,
                marks: Vec::new(),
            };
            let answer = ask_and_judge(checker, ids, flavour, &case, None)?;
            asked += 1;
            let marks = marks_of(flavour, &case.roots, &case.path);
            let same = answer.class == Some(class)
                && catalogue::identify(&Signature::new(
                    class,
                    marks.iter().filter_map(|m| Feature::from_name(m)),
                ))
                .id == id;
            Ok(if same {
                Seen::Shows(answer, None)
            } else {
                Seen::Gone
            })
        };
        let shrunk = shrink(
            &defect.example.scenario,
            Steps::All,
            budget,
            &options.interrupted,
            keep,
            ask,
        )?;
        report.queries += asked;
        let Some(shrunk) = shrunk else {
            continue;
        };
        attempts_left = attempts_left.saturating_sub(shrunk.attempts);
        report.triage.attempts += shrunk.attempts;
        let example = &mut defect.example;
        let mut scenario = shrunk.scenario;
        if let (Some(case), Some(j)) = (scenario.cases.first_mut(), &shrunk.shown.judgement) {
            case.expect = Some(j.truth.to_expect());
            example.truth = Some(j.truth.to_string());
            example.explanation = Some(j.explanation.clone());
        }
        if scenario != example.scenario {
            report.triage.shrunk += 1;
        }
        example.request = shrunk.shown.request.to_json();
        example.scenario = scenario;
        // No step of the shrinker makes it simpler and still shows it.
        example.minimal = true;
    }
    report.triage.elapsed = started.elapsed();
    Ok(())
}

/// What one job's search found.
struct Searched {
    report: Report,
    /// The request ids the job used (its checker's next one follows).
    ids: Ids,
    /// The (class, ID) of each of `report.findings`, in order.
    keys: Vec<(Class, String)>,
    sightings: Vec<Sighting>,
}

/// The jobs' searches as one report: counts and queries added, findings
/// kept once per (class, ID), sightings named in job order.
fn finish(searched: Vec<Searched>, options: &Options, start: Instant) -> Report {
    let mut report = Report {
        seed: options.seed,
        flavour: options.flavour,
        ..Report::default()
    };
    report.notes.push(model_note(options.flavour));
    let mut ledger = Ledger::default();
    let mut seen = BTreeSet::new();
    for job in searched {
        let b = job.report;
        report.absorb_firsts(&b);
        report.queries += b.queries;
        report.scenarios += b.scenarios;
        for (class, n) in b.counts {
            *report.counts.entry(class).or_insert(0) += n;
        }
        for (finding, key) in b.findings.into_iter().zip(job.keys) {
            if seen.insert(key) {
                report.findings.push(finding);
            }
        }
        for sighting in job.sightings {
            ledger.add(sighting);
        }
    }
    report.defects = ledger.defects();
    report.elapsed = start.elapsed();
    report.interrupted = options.interrupted.load(Ordering::Relaxed);
    report
}

/// One job's search: the flavour's systematic list, then respellings
/// while the budget lasts; the seed picks a family of the list, a case
/// in it and how it is respelled. Every job draws the whole stream and
/// asks its part (`shard`).
fn search(
    checker: &mut dyn Checker,
    options: &Options,
    shard: Shard,
    max_queries: Option<u64>,
    start: Instant,
) -> Result<Searched, HarnessError> {
    let flavour = options.flavour;
    let mut run = FlavouredRun {
        checker,
        options,
        max_queries,
        ids: Ids::default(),
        report: Report::default(),
        sightings: Vec::new(),
        seen: BTreeSet::new(),
        keys: Vec::new(),
        start,
        stop: false,
    };
    let list = flavoured_cases(flavour);
    for (number, case) in list.iter().enumerate() {
        if run.stopped() {
            break;
        }
        if shard.holds(number as u64) {
            run.ask(case, "systematic")?;
        }
    }
    // A family's cases, by the family's name (the part of a case's name
    // before its first `/`), in the order the list first names them, so
    // that the thousands of characters of one family do not crowd out
    // the others.
    let mut families: Vec<(&str, Vec<usize>)> = Vec::new();
    for (i, case) in list.iter().enumerate() {
        let family = case.name.split('/').next().unwrap_or_default();
        match families.iter_mut().find(|(f, _)| *f == family) {
            Some((_, cases)) => cases.push(i),
            None => families.push((family, vec![i])),
        }
    }
    let mut draw = options.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut round = 0u64;
    while !families.is_empty() && !run.stopped() && start.elapsed() < options.budget {
        draw ^= draw << 13;
        draw ^= draw >> 7;
        draw ^= draw << 17;
        let (_, cases) = &families[(draw % families.len() as u64) as usize];
        let base = &list[cases[((draw >> 8) % cases.len() as u64) as usize]];
        let case = respelled(base, draw >> 16);
        round += 1;
        if shard.holds(round) {
            run.ask_respelled(&case, base)?;
        }
    }
    Ok(Searched {
        report: run.report,
        ids: run.ids,
        keys: run.keys,
        sightings: run.sightings,
    })
}

/// One case asked and judged.
pub(crate) struct Asked {
    pub(crate) class: Option<Class>,
    pub(crate) request: Request,
    pub(crate) reply: Reply,
    pub(crate) judgement: Option<Judgement>,
}

/// Asks `case` in `flavour` and judges the answer against `expected`, or
/// the flavour's model where none is given (or the checker answered with
/// another path to use).
pub(crate) fn ask_and_judge(
    checker: &mut dyn Checker,
    ids: &mut Ids,
    flavour: Flavour,
    case: &FlavourCase,
    expected: Option<Truth>,
) -> Result<Asked, HarnessError> {
    let request = Request {
        id: ids.next_id(),
        roots: case.roots.clone(),
        path: PathBytes::from(case.path.as_str()),
        op: case.op,
        flavour,
    };
    let reply = checker.ask(&request)?;
    let (class, judgement) = match &reply {
        Reply::Hang => (Some(Class::Hang), None),
        Reply::Crash(_) => (Some(Class::Crash), None),
        Reply::ProtocolError(_) => (Some(Class::ProtocolError), None),
        Reply::Answer(answer) => {
            let rewritten = answer.use_path.as_ref().filter(|_| answer.allowed);
            let used =
                rewritten.map_or_else(|| case.path.as_bytes().to_vec(), |u| u.as_bytes().to_vec());
            let verdict = flavour::inside(&case.roots, &used, flavour);
            let truth = match expected {
                Some(truth) if rewritten.is_none() => truth,
                _ => verdict.truth,
            };
            let judgement = Judgement {
                truth,
                target: (truth != Truth::Either)
                    .then(|| PathBuf::from(String::from_utf8_lossy(&used).into_owned())),
                root: verdict.root,
                explanation: format!(
                    "the {flavour} model's truth, not a kernel's: {}",
                    verdict.explanation
                ),
            };
            let class = match (truth, answer.allowed) {
                (Truth::Outside, true) if case.marks.contains(&"root-respelled") => {
                    Some(Class::RootEscape)
                }
                (Truth::Outside, true) => Some(Class::PathEscape),
                (Truth::Inside, false) => Some(Class::Overblock),
                _ => None,
            };
            (class, Some(judgement))
        }
    };
    Ok(Asked {
        class,
        request,
        reply,
        judgement,
    })
}

struct FlavouredRun<'a> {
    checker: &'a mut dyn Checker,
    options: &'a Options,
    max_queries: Option<u64>,
    ids: Ids,
    report: Report,
    sightings: Vec<Sighting>,
    /// The (class, ID) pairs whose first finding is kept.
    seen: BTreeSet<(Class, String)>,
    /// The (class, ID) of each finding kept, in order.
    keys: Vec<(Class, String)>,
    start: Instant,
    /// Set at the first escape under `fail_fast`.
    stop: bool,
}

impl FlavouredRun<'_> {
    fn stopped(&self) -> bool {
        self.stop
            || self.options.interrupted.load(Ordering::Relaxed)
            || self.max_queries.is_some_and(|n| self.report.queries >= n)
    }

    /// Asks one case, judges the answer by the model and records what it shows.
    fn ask(&mut self, case: &FlavourCase, origin: &str) -> Result<(), HarnessError> {
        let asked = self.judged(case)?;
        if let Some(class) = asked.class {
            self.record(case, origin, class, asked, &case.marks);
        }
        self.progress();
        Ok(())
    }

    /// Asks a respelling of `base`; what it shows is named by `base`'s
    /// marks when `base` itself shows it too (the respelling was not
    /// needed: the one probe a lexical case has), else by the marks of both.
    fn ask_respelled(
        &mut self,
        case: &FlavourCase,
        base: &FlavourCase,
    ) -> Result<(), HarnessError> {
        let asked = self.judged(case)?;
        if let Some(class) = asked.class {
            let plain = self.judged(base)?;
            let marks = if plain.class == Some(class) {
                &base.marks
            } else {
                &case.marks
            };
            self.record(case, "random", class, asked, marks);
        }
        self.progress();
        Ok(())
    }

    fn progress(&self) {
        if let Some(progress) = &self.options.progress {
            progress(&Progress {
                queries: self.report.queries,
                findings: self.report.counts.values().sum(),
                elapsed: self.start.elapsed(),
                budget: self.options.budget,
            });
        }
    }

    /// Asks one case and judges the answer by the model.
    fn judged(&mut self, case: &FlavourCase) -> Result<Asked, HarnessError> {
        let asked = ask_and_judge(
            self.checker,
            &mut self.ids,
            self.options.flavour,
            case,
            None,
        )?;
        self.report.queries += 1;
        self.report.scenarios += 1;
        Ok(asked)
    }

    fn record(
        &mut self,
        case: &FlavourCase,
        origin: &str,
        class: Class,
        asked: Asked,
        marks: &[&'static str],
    ) {
        let Asked {
            request,
            reply,
            judgement,
            ..
        } = asked;
        if class.is_escape() && self.options.fail_fast {
            self.stop = true;
        }
        let (queries, elapsed) = (self.report.queries, self.start.elapsed());
        self.report
            .saw(class, self.options.strict, queries, elapsed);
        *self.report.counts.entry(class).or_insert(0) += 1;
        let scenario = Scenario {
            name: case.name.clone(),
            note: Some(model_note(self.options.flavour)),
            tree: Vec::new(),
            roots: case.roots.clone(),
            cases: vec![Case {
                path: PathBytes::from(case.path.as_str()),
                op: case.op,
                expect: judgement.as_ref().map(|j| j.truth.to_expect()),
            }],
        };
        let stderr = if class.is_escape() {
            String::new()
        } else {
            self.checker.stderr_tail()
        };
        let outcome = Outcome {
            request,
            reply: reply.clone(),
            truth: judgement.map(|judgement| Truthful {
                judgement,
                disagreement: None,
            }),
            class: Some(class),
        };
        let finding = finding(class, origin, &outcome, scenario, false, stderr);
        let family = case.name.split('/').next().unwrap_or_default();
        let seen_in = format!("{family} ({})", self.options.flavour);
        let sighting = sighting(&finding, &reply, case.op, marks, seen_in);
        let id = catalogue::identify(&sighting.identity.signature).id;
        self.sightings.push(sighting);
        if self.seen.insert((class, id.clone())) {
            self.report.findings.push(finding);
            self.keys.push((class, id));
        }
    }
}

/// A flavoured finding as a sighting of its defect: an escape or an
/// overblock named by the hostile features its query holds (`marks`, in
/// triage's words), anything else as the Linux run names it.
pub(crate) fn sighting(
    finding: &Finding,
    reply: &Reply,
    op: Op,
    marks: &[&'static str],
    seen_in: String,
) -> Sighting {
    let class = finding.class;
    let identity = if class.is_escape() || class == Class::Overblock {
        let features = marks.iter().filter_map(|m| Feature::from_name(m));
        Identity {
            signature: Signature::new(class, features),
            probes: Vec::new(),
            probed: false,
            queries: 0,
            elapsed: Duration::ZERO,
        }
    } else {
        unprobed_identity(finding, Some(reply))
    };
    let mut variants = Variants::default();
    variants.ops.insert(op.to_string());
    variants.channels.insert("verdict".to_owned());
    variants.seen_in.insert(seen_in);
    Sighting {
        identity,
        example: example(finding),
        hits: 1,
        variants,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The finding whose scenario is `name`.
    fn named<'a>(report: &'a Report, name: &str) -> Option<&'a Finding> {
        report.findings.iter().find(|f| f.scenario.name == name)
    }
    use std::path::Path;

    use crate::testkit::{vet_fn, FnChecker};
    use crate::Answer;

    fn options(flavour: Flavour) -> Options {
        Options {
            budget: Duration::ZERO,
            flavour,
            ..Options::default()
        }
    }

    #[test]
    fn a_checker_that_allows_everything_escapes_on_a_plain_path() {
        for flavour in [Flavour::Windows, Flavour::MacOs] {
            let report = vet_fn(|_, _, _| Answer::allow(), &options(flavour)).expect("run");
            assert!(report.escapes() > 0, "{flavour}");
            assert!(report.defects.iter().any(|d| d.id() == "RG-ALLOWS-OUTSIDE"));
            assert_eq!(report.notes[0], model_note(flavour));
            let f = report.first(Class::PathEscape).expect("an escape");
            let truth = f.truth.as_ref().expect("judged");
            assert!(
                truth.explanation.contains("model's truth"),
                "{}",
                truth.explanation
            );
            assert!(
                f.request.contains(&format!("\"flavor\":\"{flavour}\"")),
                "{}",
                f.request
            );
            assert!(named(&report, &f.scenario.name).is_some());
        }
    }

    #[test]
    fn a_checker_that_denies_everything_only_overblocks() {
        let report = vet_fn(|_, _, _| Answer::deny(), &options(Flavour::Windows)).expect("run");
        assert_eq!(report.escapes(), 0);
        assert!(report.count(Class::Overblock) > 0);
        assert!(report.defects.iter().any(|d| d.id() == "RG-OVERBLOCK"));
    }

    #[test]
    fn fail_fast_stops_at_the_first_escape() {
        let o = Options {
            fail_fast: true,
            ..options(Flavour::Windows)
        };
        let report = vet_fn(|_, _, _| Answer::allow(), &o).expect("run");
        assert_eq!(report.escapes(), 1);
        // The search stopped at its first escape; shrinking asked on top.
        assert_eq!(Some(report.scenarios), report.first_escape_query);
        assert!(report.queries > report.scenarios);
    }

    #[test]
    fn the_list_is_bounded_by_max_queries() {
        let o = Options {
            max_queries: Some(5),
            ..options(Flavour::Windows)
        };
        let report = vet_fn(|_, _, _| Answer::deny(), &o).expect("run");
        assert_eq!(report.scenarios, 5);
    }

    /// A macOS checker that NFKC-normalizes the path, then judges it as
    /// the model does.
    fn nfkc_checker(roots: &[&str], path: &Path, _: rootguard::Op) -> Answer {
        let text = rootguard_judge::gen::Fold::Nfkc.apply(&path.to_string_lossy());
        match flavour::inside(roots, text, Flavour::MacOs).truth {
            Truth::Inside => Answer::allow(),
            _ => Answer::deny(),
        }
    }

    #[test]
    fn a_flavoured_defect_s_example_is_shrunk_by_triage_s_shrinker() {
        let o = Options {
            max_queries: Some(200),
            ..options(Flavour::MacOs)
        };
        let report = vet_fn(nfkc_checker, &o).expect("run");
        let fold = report
            .defects
            .iter()
            .find(|d| d.id() == "RG-MAC-FOLD")
            .expect("the fold is found");
        assert!(fold.example.minimal, "{:?}", fold.example);
        let path = &fold.example.scenario.cases[0].path;
        // `/Users/me/pro²j/secret.txt` loses the name it does not need.
        assert!(!path.to_string().ends_with("secret.txt"), "{path}");
        assert!(report.triage.shrunk >= 1 && report.triage.attempts > 1);
        assert!(report.queries > report.scenarios, "the shrinker asked");
    }

    #[test]
    fn jobs_share_the_list_and_find_what_one_job_finds() {
        let o = Options {
            max_queries: Some(600),
            ..options(Flavour::Windows)
        };
        let allow = |_: &[&str], _: &Path, _: rootguard::Op| Answer::allow();
        let one = vet_fn(allow, &o).expect("one job");
        let mut two = [FnChecker(allow), FnChecker(allow)];
        let two = crate::vet_jobs(&mut two, &o).expect("two jobs");
        let ids = |r: &Report| {
            r.defects
                .iter()
                .map(|d| d.id().to_owned())
                .collect::<BTreeSet<_>>()
        };
        assert_eq!(ids(&one), ids(&two));
        assert_eq!((one.scenarios, two.scenarios), (600, 600));
        assert!(two.first_escape_query.is_some());
    }
}
