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
use rootguard_judge::gen::{flavoured_cases, respelled, FlavourCase};
use rootguard_judge::{Case, Judgement, PathBytes, Scenario, Truth};
use rootguard_report::{Ledger, Sighting, Variants};
use rootguard_triage::catalogue;
use rootguard_triage::{Feature, Identity, Signature};

use crate::checker::{Checker, Reply, Request};
use crate::judge::{Class, Ids, Outcome, Truthful};
use crate::run::{Options, Progress, Report};
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
    let flavour = options.flavour;
    let mut run = FlavouredRun {
        checker,
        options,
        ids: Ids::default(),
        report: Report {
            seed: options.seed,
            flavour,
            ..Report::default()
        },
        ledger: Ledger::default(),
        seen: BTreeSet::new(),
        start: Instant::now(),
        stop: false,
    };
    run.report.notes.push(model_note(flavour));
    for (number, case) in flavoured_cases(flavour).into_iter().enumerate() {
        if run.stopped() {
            break;
        }
        if options.shard.holds(number as u64) {
            run.ask(&case, "systematic")?;
        }
    }
    // Respellings while the budget lasts: the seed picks the case and how
    // it is spelled; every shard draws the whole stream and asks its part.
    let list = flavoured_cases(flavour);
    let mut draw = options.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut round = 0u64;
    while !list.is_empty() && !run.stopped() && run.start.elapsed() < options.budget {
        draw ^= draw << 13;
        draw ^= draw >> 7;
        draw ^= draw << 17;
        let base = &list[(draw % list.len() as u64) as usize];
        let case = respelled(base, draw >> 16);
        round += 1;
        if options.shard.holds(round) {
            run.ask_respelled(&case, base)?;
        }
    }
    run.report.defects = run.ledger.defects();
    run.report.elapsed = run.start.elapsed();
    run.report.interrupted = options.interrupted.load(Ordering::Relaxed);
    Ok(run.report)
}

/// One case asked and judged.
struct Asked {
    class: Option<Class>,
    request: Request,
    reply: Reply,
    judgement: Option<Judgement>,
}

struct FlavouredRun<'a> {
    checker: &'a mut dyn Checker,
    options: &'a Options,
    ids: Ids,
    report: Report,
    ledger: Ledger,
    /// The (class, ID) pairs whose first finding is kept.
    seen: BTreeSet<(Class, String)>,
    start: Instant,
    /// Set at the first escape under `fail_fast`.
    stop: bool,
}

impl FlavouredRun<'_> {
    fn stopped(&self) -> bool {
        self.stop
            || self.options.interrupted.load(Ordering::Relaxed)
            || self
                .options
                .max_queries
                .is_some_and(|n| self.report.queries >= n)
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
        let flavour = self.options.flavour;
        let request = Request {
            id: self.ids.next_id(),
            roots: case.roots.clone(),
            path: PathBytes::from(case.path.as_str()),
            op: case.op,
            flavour,
        };
        let reply = self.checker.ask(&request)?;
        self.report.queries += 1;
        self.report.scenarios += 1;
        let (class, judgement) = match &reply {
            Reply::Hang => (Some(Class::Hang), None),
            Reply::Crash(_) => (Some(Class::Crash), None),
            Reply::ProtocolError(_) => (Some(Class::ProtocolError), None),
            Reply::Answer(answer) => {
                let used = answer
                    .use_path
                    .as_ref()
                    .filter(|_| answer.allowed)
                    .map_or_else(|| case.path.as_bytes().to_vec(), |u| u.as_bytes().to_vec());
                let verdict = flavour::inside(&case.roots, &used, flavour);
                let judgement = Judgement {
                    truth: verdict.truth,
                    target: (verdict.truth != Truth::Either)
                        .then(|| PathBuf::from(String::from_utf8_lossy(&used).into_owned())),
                    root: verdict.root,
                    explanation: format!(
                        "the {flavour} model's truth, not a kernel's: {}",
                        verdict.explanation
                    ),
                };
                let class = match (verdict.truth, answer.allowed) {
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
        if class.is_escape() && self.report.first_escape.is_none() {
            self.report.first_escape = Some(self.start.elapsed());
            self.report.first_escape_query = Some(self.report.queries);
        }
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
            unprobed_identity(&finding, Some(&reply))
        };
        let id = catalogue::identify(&identity.signature).id;
        let mut variants = Variants::default();
        variants.ops.insert(case.op.to_string());
        variants.channels.insert("verdict".to_owned());
        let family = case.name.split('/').next().unwrap_or_default();
        variants
            .seen_in
            .insert(format!("{family} ({})", self.options.flavour));
        self.ledger.add(Sighting {
            identity,
            example: example(&finding),
            hits: 1,
            variants,
        });
        if self.seen.insert((class, id)) {
            self.report.findings.push(finding);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Finding;

    /// The finding whose scenario is `name`.
    fn named<'a>(report: &'a Report, name: &str) -> Option<&'a Finding> {
        report.findings.iter().find(|f| f.scenario.name == name)
    }
    use crate::testkit::vet_fn;
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
        assert_eq!(Some(report.queries), report.first_escape_query);
    }

    #[test]
    fn the_list_is_bounded_by_max_queries() {
        let o = Options {
            max_queries: Some(5),
            ..options(Flavour::Windows)
        };
        let report = vet_fn(|_, _, _| Answer::deny(), &o).expect("run");
        assert_eq!(report.queries, 5);
    }
}
