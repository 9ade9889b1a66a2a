//! Probing: which features of a minimal scenario a defect needs, found by
//! asking one variant per feature. The engine knows nothing of how a
//! variant is asked: `rootguard vet` asks a checker, `rootguard mcp` a live
//! server; each tells it whether the variant still shows the defect.

use std::collections::BTreeSet;
use std::fmt;
use std::time::{Duration, Instant};

use rootguard_judge::Scenario;

use crate::class::Class;
use crate::feature::Feature;
use crate::vary::Subject;

/// What one variant showed, as the caller judged it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Probe {
    /// The defect still shows (its truth is still the one the class needs).
    Shows,
    /// The defect is gone.
    Gone,
    /// The variant proves nothing: its truth changed, or it could not be
    /// asked; the reason says which.
    Inconclusive(String),
}

/// Whether the defect needs one feature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Need {
    /// Without it the defect is gone.
    Needed,
    /// Without it the defect still shows.
    NotNeeded,
    /// The variant proved nothing (the reason says why); the feature is
    /// kept in the signature.
    Inconclusive(String),
    /// No variant without it could be made; the feature is kept.
    NoVariant,
    /// Seen, not probed (a mid-session event, a kind of protocol error).
    Observed,
}

impl Need {
    /// `needed`, `not-needed`, `inconclusive`, `no-variant` or `observed`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Need::Needed => "needed",
            Need::NotNeeded => "not-needed",
            Need::Inconclusive(_) => "inconclusive",
            Need::NoVariant => "no-variant",
            Need::Observed => "observed",
        }
    }

    /// Whether the feature stays in the signature.
    pub fn kept(&self) -> bool {
        *self != Need::NotNeeded
    }

    /// Whether it was shown needed (or observed).
    pub fn confirmed(&self) -> bool {
        matches!(self, Need::Needed | Need::Observed)
    }
}

/// One feature and what probing said of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeatureProbe {
    /// The feature.
    pub feature: Feature,
    /// Whether the defect needs it.
    pub need: Need,
}

/// A defect's signature: the class it was seen as, and the features it
/// needs. `features` are all those kept (every one probing did not rule
/// out); `confirmed` are the ones shown needed (or observed), which the
/// catalogue looks at first.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Signature {
    /// The class the finding showed.
    pub class: Class,
    /// The features kept.
    pub features: BTreeSet<Feature>,
    /// The kept features shown to be needed (or observed).
    pub confirmed: BTreeSet<Feature>,
}

impl Signature {
    /// A signature of `class` needing `features`, all confirmed.
    pub fn new(class: Class, features: impl IntoIterator<Item = Feature>) -> Signature {
        let features: BTreeSet<Feature> = features.into_iter().collect();
        Signature {
            class,
            confirmed: features.clone(),
            features,
        }
    }

    /// Whether it keeps `feature`.
    pub fn needs(&self, feature: Feature) -> bool {
        self.features.contains(&feature)
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.class.as_str())?;
        for (i, feature) in self.features.iter().enumerate() {
            f.write_str(if i == 0 { ": " } else { ", " })?;
            f.write_str(&feature.name())?;
            if !self.confirmed.contains(feature) {
                f.write_str("?")?;
            }
        }
        Ok(())
    }
}

/// What probing found for one defect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// The signature.
    pub signature: Signature,
    /// Each present feature (and observed one) and what was found of it.
    pub probes: Vec<FeatureProbe>,
    /// Whether variants were asked (false: the signature is the present
    /// features, unprobed, as for a finding that was not shrunk).
    pub probed: bool,
    /// How many variants were asked.
    pub queries: u64,
    /// How long asking them took.
    pub elapsed: Duration,
}

/// The identity of a finding without probing: every present feature kept.
/// It is the cheap pre-signature findings are grouped by before shrinking,
/// and the identity of a defect that could not be shrunk.
///
/// # Examples
///
/// ```
/// use rootguard_judge::{Case, Entry, Op, Scenario};
/// use rootguard_triage::{unprobed, Class, Feature};
///
/// let s = Scenario {
///     name: "x".into(),
///     note: None,
///     tree: vec![Entry::Dir { path: "project".into() }, Entry::Dir { path: "project2".into() }],
///     roots: vec!["file://{base}/project".into()],
///     cases: vec![Case { path: "{base}/project2".into(), op: Op::Read, expect: None }],
/// };
/// let id = unprobed(&s, Class::PathEscape, &[]);
/// assert!(id.signature.needs(Feature::SiblingPrefix));
/// ```
pub fn unprobed(scenario: &Scenario, class: Class, observed: &[Feature]) -> Identity {
    let present = if class_is_probed(class) {
        Subject::new(scenario).present()
    } else {
        Vec::new()
    };
    let mut probes: Vec<FeatureProbe> = present
        .into_iter()
        .map(|feature| FeatureProbe {
            feature,
            need: Need::NoVariant,
        })
        .collect();
    add_observed(&mut probes, observed);
    identity(class, probes, false, 0, Duration::ZERO)
}

/// Probes a minimal scenario (`{base}` form, one case) that shows `class`:
/// for each present feature, the variant without it is given to `ask`,
/// which says whether the defect still shows. `observed` features (what a
/// run saw, not a property of the scenario) are kept as they are.
///
/// # Errors
///
/// The first error `ask` returns (a harness failure, not a probe result).
///
/// # Examples
///
/// A checker that compares text prefixes needs the sibling's shared
/// prefix, and nothing else:
///
/// ```
/// use rootguard_judge::{Case, Entry, Op, Scenario};
/// use rootguard_triage::{catalogue, probe, Class, Feature, Probe};
///
/// let s = Scenario {
///     name: "x".into(),
///     note: None,
///     tree: vec![Entry::Dir { path: "project".into() }],
///     roots: vec!["file://{base}/project".into()],
///     cases: vec![Case { path: "{base}/project2".into(), op: Op::Write, expect: None }],
/// };
/// let id = probe(&s, Class::PathEscape, &[], |v: &Scenario| {
///     let escapes = v.cases[0].path.starts_with("{base}/project");
///     Ok::<_, ()>(if escapes { Probe::Shows } else { Probe::Gone })
/// })?;
/// assert_eq!(id.signature.features.iter().collect::<Vec<_>>(), [&Feature::SiblingPrefix]);
/// assert_eq!(catalogue::identify(&id.signature).id, "RG-PREFIX-SIBLING");
/// # Ok::<(), ()>(())
/// ```
pub fn probe<E>(
    minimal: &Scenario,
    class: Class,
    observed: &[Feature],
    mut ask: impl FnMut(&Scenario) -> Result<Probe, E>,
) -> Result<Identity, E> {
    let started = Instant::now();
    let mut queries = 0;
    let mut probes = Vec::new();
    if class_is_probed(class) {
        let subject = Subject::new(minimal);
        for feature in subject.present() {
            let (need, _) = without(&subject, feature, &mut ask, &mut queries)?;
            probes.push(FeatureProbe { feature, need });
        }
        if has_independent_causes(&probes) {
            probes = one_cause(minimal, &mut ask, &mut queries)?;
        }
    }
    add_observed(&mut probes, observed);
    Ok(identity(class, probes, true, queries, started.elapsed()))
}

/// Whether each hostile feature could be taken away alone and the defect
/// still showed: nothing seems needed, which may mean nothing is (the
/// checker allows a plain path), or that two features each suffice (a
/// checker with two bugs, a text prefix and a followed link, shows an
/// escape through `proj/link -> ../proj2/x` without either one).
fn has_independent_causes(probes: &[FeatureProbe]) -> bool {
    probes.iter().filter(|p| p.need == Need::NotNeeded).count() >= 2
        && probes
            .iter()
            .all(|p| p.need == Need::NotNeeded || p.need == Need::NoVariant)
}

/// The features of one sufficient cause: each present feature taken away
/// in turn from what is left, kept away while the defect still shows
/// without it. When two features each suffice, the first is taken away and
/// the second is then needed, so the defect is named by the one cause that
/// remains; when nothing is needed, nothing remains.
fn one_cause<E>(
    minimal: &Scenario,
    ask: &mut impl FnMut(&Scenario) -> Result<Probe, E>,
    queries: &mut u64,
) -> Result<Vec<FeatureProbe>, E> {
    let mut left = minimal.clone();
    let mut probes = Vec::new();
    for feature in Subject::new(minimal).present() {
        let subject = Subject::new(&left);
        let need = if !subject.present().contains(&feature) {
            // Taking another away took this one too.
            Need::NotNeeded
        } else {
            let (need, variant) = without(&subject, feature, ask, queries)?;
            if let Some(variant) = variant {
                left = variant;
            }
            need
        };
        probes.push(FeatureProbe { feature, need });
    }
    Ok(probes)
}

/// Whether the defect needs `feature` of `subject`: its variant without
/// it asked, and that variant when the defect still shows there.
fn without<E>(
    subject: &Subject,
    feature: Feature,
    ask: &mut impl FnMut(&Scenario) -> Result<Probe, E>,
    queries: &mut u64,
) -> Result<(Need, Option<Scenario>), E> {
    let Some(variant) = subject.without(feature) else {
        return Ok((Need::NoVariant, None));
    };
    *queries += 1;
    Ok(match ask(&variant)? {
        Probe::Shows => (Need::NotNeeded, Some(variant)),
        Probe::Gone => (Need::Needed, None),
        Probe::Inconclusive(why) => (Need::Inconclusive(why), None),
    })
}

/// Escapes and overblocks are properties of a scenario; a hang, a crash or
/// a protocol error is a property of the checker, whatever it was asked.
fn class_is_probed(class: Class) -> bool {
    matches!(
        class,
        Class::PathEscape | Class::RootEscape | Class::Overblock
    )
}

fn add_observed(probes: &mut Vec<FeatureProbe>, observed: &[Feature]) {
    for feature in observed {
        if !probes.iter().any(|p| p.feature == *feature) {
            probes.push(FeatureProbe {
                feature: *feature,
                need: Need::Observed,
            });
        }
    }
}

fn identity(
    class: Class,
    probes: Vec<FeatureProbe>,
    probed: bool,
    queries: u64,
    elapsed: Duration,
) -> Identity {
    let signature = Signature {
        class,
        features: probes
            .iter()
            .filter(|p| p.need.kept())
            .map(|p| p.feature)
            .collect(),
        confirmed: probes
            .iter()
            .filter(|p| p.need.confirmed())
            .map(|p| p.feature)
            .collect(),
    };
    Identity {
        signature,
        probes,
        probed,
        queries,
        elapsed,
    }
}

#[cfg(test)]
mod tests {
    use rootguard_judge::{Case, Entry, Op, Scenario};

    use super::*;
    use crate::catalogue;

    /// A checker with two bugs, each enough alone: it judges a final link
    /// by the link's own path, and compares text prefixes. Whether it lets
    /// `scenario`'s case out of the root `{base}/proj`.
    fn two_bugs(scenario: &Scenario) -> Probe {
        let path = scenario.cases[0].path.to_string_lossy();
        let path = path.as_str();
        // Where the path leads: a link anywhere on it replaced by its target.
        let through = scenario.tree.iter().find_map(|e| match e {
            Entry::Symlink { path: at, target } => {
                let at = format!("{{base}}/{at}");
                let rest = path.strip_prefix(&at)?;
                (rest.is_empty() || rest.starts_with('/')).then(|| {
                    let dir = at.rsplit_once('/').map_or("", |(d, _)| d);
                    let target = target.to_string_lossy();
                    let target = if target.starts_with("{base}") || target.starts_with('/') {
                        target
                    } else {
                        format!("{dir}/{target}")
                    };
                    format!("{target}{rest}")
                })
            }
            _ => None,
        });
        let target = through.clone().unwrap_or_else(|| path.to_owned());
        let inside = target.starts_with("{base}/proj/");
        // Bug one: a path through a link is judged as written; bug two: by text prefix.
        let allowed = through.is_some() && path.starts_with("{base}/proj/")
            || target.starts_with("{base}/proj");
        if allowed && !inside {
            Probe::Shows
        } else {
            Probe::Gone
        }
    }

    #[test]
    fn two_sufficient_causes_name_one_of_them_not_a_plain_path() {
        let s = Scenario {
            name: "x".into(),
            note: None,
            tree: vec![
                Entry::Dir {
                    path: "proj".into(),
                },
                Entry::File {
                    path: "proj2/secret.txt".into(),
                    content: None,
                },
                Entry::Symlink {
                    path: "proj/link".into(),
                    target: "{base}/proj2/secret.txt".into(),
                },
            ],
            roots: vec!["file://{base}/proj".into()],
            cases: vec![Case {
                path: "{base}/proj/link".into(),
                op: Op::Read,
                expect: None,
            }],
        };
        assert_eq!(two_bugs(&s), Probe::Shows);
        let id = probe(&s, Class::PathEscape, &[], |v: &Scenario| {
            Ok::<_, ()>(two_bugs(v))
        })
        .expect("probes");
        let named = catalogue::identify(&id.signature).id;
        assert!(!id.signature.features.is_empty(), "{:?}", id.probes);
        assert_ne!(named, "RG-ALLOWS-OUTSIDE", "{:?}", id.probes);
    }

    #[test]
    fn a_checker_that_allows_everything_needs_nothing() {
        let s = Scenario {
            name: "x".into(),
            note: None,
            tree: vec![
                Entry::Dir {
                    path: "proj".into(),
                },
                Entry::Symlink {
                    path: "proj/link".into(),
                    target: "{base}/proj2/secret.txt".into(),
                },
            ],
            roots: vec!["file://{base}/proj".into()],
            cases: vec![Case {
                path: "{base}/proj/link".into(),
                op: Op::Read,
                expect: None,
            }],
        };
        let id = probe(&s, Class::PathEscape, &[], |_: &Scenario| {
            Ok::<_, ()>(Probe::Shows)
        })
        .expect("probes");
        assert_eq!(catalogue::identify(&id.signature).id, "RG-ALLOWS-OUTSIDE");
    }
}
