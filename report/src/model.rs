//! What a report holds: the run, its defects with their simplest examples,
//! and the ledger that groups sightings into defects.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use rootguard_judge::Scenario;
use rootguard_triage::catalogue::{self, Entry as CatalogueEntry};
use rootguard_triage::{simplicity, Class, Feature, FeatureProbe, Identity, Signature};

/// One message of a recorded exchange (`rootguard mcp`'s JSON-RPC).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// `to-server` or `from-server`.
    pub direction: String,
    /// The message as sent, `{base}` in place of the base.
    pub text: String,
}

/// The example a defect is shown by: a scenario of one case, and what
/// happened when it was asked.
#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    /// `{base}` form, one case, its `expect` the truth where judged.
    pub scenario: Scenario,
    /// Whether it was shrunk to a minimal scenario.
    pub minimal: bool,
    /// Where it came from (`bundled:…`, a file, `random`, an attack's name).
    pub origin: String,
    /// The exact request (a checker-protocol line, or the key `tools/call`).
    pub request: String,
    /// What came back, in words (or the server's response).
    pub answer: String,
    /// The truth: `inside`, `outside` or `either`.
    pub truth: Option<String>,
    /// How the judge got there.
    pub explanation: Option<String>,
    /// What was observed (the canary that came back, the change on disk).
    pub evidence: Option<String>,
    /// The whole exchange, where one was recorded.
    pub exchange: Vec<Message>,
    /// The checker's recent stderr.
    pub stderr: String,
    /// For an escape, the refusal seen beside it, when one was: the same
    /// query without one hostile feature it needs, which the checker
    /// refused as it should.
    pub refusal: Option<Refusal>,
}

/// A refusal beside an escape: a variant of the escape's example that
/// lacks one hostile feature the escape needs (asked while probing), whose
/// truth is still outside, and which the checker refused. Side by side,
/// the two show what the checker gets wrong: `project/linkout/secret.txt`
/// allowed, `outside/secret.txt` refused.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    /// The feature taken away, e.g. `link`.
    pub without: String,
    /// The variant: `{base}` form, one case, its `expect` the truth.
    pub scenario: Scenario,
    /// The exact request.
    pub request: String,
    /// What came back, in words (`denied`).
    pub answer: String,
}

impl Default for Example {
    fn default() -> Example {
        Example {
            scenario: Scenario {
                name: String::new(),
                note: None,
                tree: Vec::new(),
                roots: Vec::new(),
                cases: Vec::new(),
            },
            minimal: false,
            origin: String::new(),
            request: String::new(),
            answer: String::new(),
            truth: None,
            explanation: None,
            evidence: None,
            exchange: Vec::new(),
            stderr: String::new(),
            refusal: None,
        }
    }
}

/// The forms a defect was seen in.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Variants {
    /// Operations (`read`, `write`).
    pub ops: BTreeSet<String>,
    /// What made the hostile name hostile (`digit`, `space`, `fullwidth`, …).
    pub suffixes: BTreeSet<String>,
    /// How it was observed (`verdict`, `read`, `write`, `info`).
    pub channels: BTreeSet<String>,
    /// Tools called (`rootguard mcp`).
    pub tools: BTreeSet<String>,
    /// Session modes (`roots`, `no-roots`).
    pub modes: BTreeSet<String>,
    /// Where it was seen, in words (`stale-root in roots-change-old-root-revoked (roots mode)`).
    pub seen_in: BTreeSet<String>,
}

impl Variants {
    /// Each non-empty set with its label in reports (`ops`, `names`,
    /// `observed`, `tools`, `modes`).
    pub fn labelled(&self) -> Vec<(&'static str, &BTreeSet<String>)> {
        [
            ("ops", &self.ops),
            ("names", &self.suffixes),
            ("observed", &self.channels),
            ("tools", &self.tools),
            ("modes", &self.modes),
        ]
        .into_iter()
        .filter(|(_, set)| !set.is_empty())
        .collect()
    }

    /// Adds `other`'s forms.
    pub fn merge(&mut self, other: &Variants) {
        self.ops.extend(other.ops.iter().cloned());
        self.suffixes.extend(other.suffixes.iter().cloned());
        self.channels.extend(other.channels.iter().cloned());
        self.tools.extend(other.tools.iter().cloned());
        self.modes.extend(other.modes.iter().cloned());
        self.seen_in.extend(other.seen_in.iter().cloned());
    }
}

/// One defect: its catalogue entry, the evidence, and the simplest example.
#[derive(Debug, Clone, PartialEq)]
pub struct Defect {
    /// The stable ID, title, diagnosis and fix.
    pub entry: CatalogueEntry,
    /// The most severe class it was seen as (a flaw that lets paths out
    /// and refuses others is an escape; one only seen refusing, an overblock).
    pub class: Class,
    /// The signature of the example.
    pub signature: Signature,
    /// What probing said of each feature of the example.
    pub probes: Vec<FeatureProbe>,
    /// Whether the example was probed.
    pub probed: bool,
    /// How many queries (or tool calls) showed it.
    pub hits: u64,
    /// The simplest example.
    pub example: Example,
    /// The forms it was seen in.
    pub variants: Variants,
    /// Each distinct signature it was seen with (`class: features`) and
    /// its hits, at most 16: why the defect has its class.
    pub sightings: Vec<(String, u64)>,
    /// Variants asked while probing, over every sighting.
    pub probe_queries: u64,
    /// Time spent probing, over every sighting.
    pub probe_time: Duration,
    /// The IDs of the defects this one stands for (sorted), when one
    /// mechanism was seen behind several: `RG-ROOT-URI-AS-TEXT` covers the
    /// `RG-ROOT-URI-<RULE>` of each rule it ignores. Empty otherwise. A
    /// baseline naming any of them matches this defect.
    pub covers: Vec<String>,
    /// Other IDs the same defect goes by (sorted): the IDs earlier
    /// catalogues gave its signatures ([`catalogue::former_ids`]), and the
    /// IDs of the defects folded into it. A baseline naming any of them
    /// matches this defect.
    pub aliases: Vec<String>,
    /// The features each probed sighting confirmed, each set once: the
    /// mechanisms it was seen as, which a defect whose probing left
    /// features open may be folded into ([`Ledger::defects`]).
    pub confirmed: Vec<BTreeSet<Feature>>,
}

impl Defect {
    /// Counts `hits` more sightings as `seen_as` (`class: features`),
    /// keeping at most 16 distinct ones.
    /// Takes in `other`, one mechanism with this one: its hits, variants,
    /// probing counts and sightings (its own signature among them); the
    /// more severe class of the two.
    fn absorb(&mut self, other: Defect) {
        let own = self.id().to_owned();
        for alias in std::iter::once(other.id().to_owned()).chain(other.aliases) {
            self.alias(&own, alias);
        }
        for set in other.confirmed {
            if !self.confirmed.contains(&set) {
                self.confirmed.push(set);
            }
        }
        self.hits += other.hits;
        self.variants.merge(&other.variants);
        self.probe_queries += other.probe_queries;
        self.probe_time += other.probe_time;
        if other.class.severity_rank() < self.class.severity_rank() {
            self.class = other.class;
        }
        for (seen_as, hits) in other.sightings {
            self.seen_as(seen_as, hits);
        }
    }

    /// Adds `alias` to the other IDs this defect goes by, unless it is `own`.
    fn alias(&mut self, own: &str, alias: String) {
        if alias != own && !self.aliases.contains(&alias) {
            self.aliases.push(alias);
            self.aliases.sort();
        }
    }

    fn seen_as(&mut self, seen_as: String, hits: u64) {
        if let Some(at) = self.sightings.iter().position(|(s, _)| *s == seen_as) {
            self.sightings[at].1 += hits;
        } else if self.sightings.len() < 16 {
            self.sightings.push((seen_as, hits));
        }
    }

    /// The ID, e.g. `RG-PREFIX-SIBLING`.
    pub fn id(&self) -> &str {
        &self.entry.id
    }

    /// The class it is reported as.
    pub fn class(&self) -> Class {
        self.class
    }
}

/// One defect seen once: a finding's identity, example and how often.
#[derive(Debug, Clone)]
pub struct Sighting {
    /// From probing (or unprobed, for a finding not shrunk).
    pub identity: Identity,
    /// The example.
    pub example: Example,
    /// Queries that showed it (one finding, or a whole group).
    pub hits: u64,
    /// The forms it was seen in.
    pub variants: Variants,
}

/// Sightings grouped into defects by catalogue ID, each keeping its
/// simplest example. The one door through which `rootguard vet` and
/// `rootguard mcp` (and any runner) hand findings to a report.
///
/// # Examples
///
/// ```
/// use rootguard_judge::{Case, Entry, Op, Scenario};
/// use rootguard_report::{Example, Ledger, Sighting, Variants};
/// use rootguard_triage::{unprobed, Class};
///
/// let scenario = |path: &str| Scenario {
///     name: String::new(), note: None,
///     tree: vec![Entry::Dir { path: "project".into() }],
///     roots: vec!["file://{base}/project".into()],
///     cases: vec![Case { path: path.into(), op: Op::Write, expect: None }],
/// };
/// let mut ledger = Ledger::default();
/// for path in ["{base}/project-x", "{base}/project2"] {
///     let s = scenario(path);
///     ledger.add(Sighting {
///         identity: unprobed(&s, Class::PathEscape, &[]),
///         example: Example { scenario: s, ..Example::default() },
///         hits: 5,
///         variants: Variants::default(),
///     });
/// }
/// let defects = ledger.defects();
/// assert_eq!(defects.len(), 1);
/// assert_eq!(defects[0].id(), "RG-PREFIX-SIBLING");
/// assert_eq!(defects[0].hits, 10);
/// assert_eq!(defects[0].example.scenario.cases[0].path, "{base}/project2");
/// ```
#[derive(Debug, Clone, Default)]
pub struct Ledger {
    defects: BTreeMap<String, Defect>,
}

impl Ledger {
    /// Adds a sighting to its defect (a new one for a new ID).
    pub fn add(&mut self, sighting: Sighting) -> &Defect {
        let entry = catalogue::identify(&sighting.identity.signature);
        let id = entry.id.clone();
        let Sighting {
            identity,
            example,
            hits,
            variants,
        } = sighting;
        let seen = identity.signature.class;
        let defect = self.defects.entry(id).or_insert_with(|| Defect {
            entry,
            class: seen,
            signature: identity.signature.clone(),
            probes: identity.probes.clone(),
            probed: identity.probed,
            hits: 0,
            example: example.clone(),
            variants: Variants::default(),
            sightings: Vec::new(),
            probe_queries: 0,
            probe_time: Duration::ZERO,
            covers: Vec::new(),
            aliases: Vec::new(),
            confirmed: Vec::new(),
        });
        let confirmed = &identity.signature.confirmed;
        if identity.probed && !defect.confirmed.contains(confirmed) {
            defect.confirmed.push(confirmed.clone());
        }
        for former in catalogue::former_ids(&identity.signature) {
            let own = defect.entry.id.clone();
            defect.alias(&own, former);
        }
        defect.seen_as(identity.signature.to_string(), hits);
        defect.hits += hits;
        if seen.severity_rank() < defect.class.severity_rank() {
            defect.class = seen;
        }
        defect.variants.merge(&variants);
        defect.probe_queries += identity.queries;
        defect.probe_time += identity.elapsed;
        // The example shows the defect at its worst: an escape's example
        // is an escape, never a refusal seen on the way; then minimal, then
        // one found the same way at every seed, then simplest.
        let rank = |class: Class, e: &Example| {
            (
                class.severity_rank(),
                !e.minimal,
                is_seeded(&e.origin),
                simplicity(&e.scenario),
            )
        };
        if rank(seen, &example) < rank(defect.signature.class, &defect.example) {
            defect.example = example;
            defect.signature = identity.signature;
            defect.probes = identity.probes;
            defect.probed = identity.probed;
        }
        defect
    }

    /// Whether a defect has this ID.
    pub fn contains(&self, id: &str) -> bool {
        self.defects.contains_key(id)
    }

    /// The defects, most severe first (then most often hit, then by ID).
    ///
    /// Two or more defects that are each one root-URI rule ignored are one
    /// mechanism, a root read leniently: they become one
    /// [`ROOT_URI_AS_TEXT`](catalogue::ROOT_URI_AS_TEXT) defect listing the
    /// rules, with their hits summed, the simplest example of any, and
    /// `covers` naming the rules' own IDs. A checker that ignores one rule
    /// keeps that rule's ID.
    ///
    /// First, a defect whose probing left features open (a variant could
    /// not be made: bytes that are not UTF-8, a target the variants cannot
    /// make in the temp base) is folded into a defect of the same class
    /// that confirmed more, all of it among what this one has (the most
    /// specific such one): it is most likely the same mechanism seen on a
    /// messier scenario, where its own ID is the catalogue's guess from
    /// what it could confirm. Its signature is kept among the sightings. A
    /// defect with nothing to fold into keeps its ID.
    pub fn defects(self) -> Vec<Defect> {
        let folded = fold_unconfirmed(self.defects.into_values().collect());
        let (rules, mut out): (Vec<Defect>, Vec<Defect>) = folded
            .into_iter()
            .partition(|d| catalogue::root_rule_of(d.id()).is_some());
        if rules.len() >= 2 {
            out.push(merge_root_rules(rules));
        } else {
            out.extend(rules);
        }
        sort_defects(&mut out);
        out
    }
}

/// Where the harnesses draw from the seed (vet's random phase and
/// covering array, whose rungs turn with the seed; mcp's generative
/// phase): an example from elsewhere (the corpus, the systematic phase,
/// an attack of the table) is found the same way at every seed.
const SEEDED_ORIGINS: [&str; 3] = ["random", "covering", "generative"];

/// Whether an example's origin depends on the seed (`random`,
/// `covering`, `generative …`); one that does not (the corpus, the
/// systematic phase, an attack of the table) is found the same way at
/// every seed, so triage and reports prefer it.
///
/// # Examples
///
/// ```
/// use rootguard_report::is_seeded;
/// assert!(is_seeded("random") && is_seeded("generative (roots mode)"));
/// assert!(!is_seeded("systematic") && !is_seeded("bundled:corpus/scenarios/links.json"));
/// ```
pub fn is_seeded(origin: &str) -> bool {
    SEEDED_ORIGINS.iter().any(|o| {
        origin
            .strip_prefix(o)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
    })
}

/// `defects` with each one that probing left features open in folded
/// into a more specific defect of its class that those open features
/// account for (see [`Ledger::defects`]).
fn fold_unconfirmed(defects: Vec<Defect>) -> Vec<Defect> {
    let mut all: Vec<Option<Defect>> = defects.into_iter().map(Some).collect();
    let mut order: Vec<usize> = (0..all.len()).collect();
    order.sort_by_key(|&i| all[i].as_ref().map_or(0, |d| d.signature.confirmed.len()));
    for i in order {
        let Some(loose) = all[i].as_ref() else {
            continue;
        };
        let s = &loose.signature;
        if !loose.probed || s.features == s.confirmed {
            continue;
        }
        // A host: same class, and a sighting of it that confirmed more than
        // these, all within what this one kept (confirmed, or left open).
        let fits = |j: usize| -> Option<usize> {
            let f = all[j].as_ref()?;
            if j == i || f.signature.class != s.class {
                return None;
            }
            std::iter::once(&f.signature.confirmed)
                .chain(&f.confirmed)
                .filter(|h| {
                    h.len() > s.confirmed.len()
                        && s.confirmed.is_subset(h)
                        && h.is_subset(&s.features)
                })
                .map(BTreeSet::len)
                .max()
        };
        // Probing that could vary nothing (a name of bytes that are not
        // UTF-8) confirmed nothing: the host is then the defect of its class
        // whose confirmed features it shares most, if it shares any.
        let shares = |j: usize| -> Option<usize> {
            let f = all[j].as_ref()?;
            if j == i || f.signature.class != s.class || !s.confirmed.is_empty() {
                return None;
            }
            std::iter::once(&f.signature.confirmed)
                .chain(&f.confirmed)
                .map(|h| h.intersection(&s.features).count())
                .max()
                .filter(|&n| n > 0)
        };
        let best = |score: &dyn Fn(usize) -> Option<usize>| {
            (0..all.len())
                .filter_map(|j| score(j).map(|n| (j, n)))
                .max_by(|&(a, n), &(b, m)| {
                    let id = |j: usize| {
                        all[j]
                            .as_ref()
                            .map(|d| std::cmp::Reverse(d.id().to_owned()))
                    };
                    (n, id(a)).cmp(&(m, id(b)))
                })
                .map(|(j, _)| j)
        };
        let host = best(&fits).or_else(|| best(&shares));
        if let Some(j) = host {
            let loose = all[i].take().expect("present");
            all[j].as_mut().expect("present").absorb(loose);
        }
    }
    all.into_iter().flatten().collect()
}

/// One defect for several root-URI rules ignored (see [`Ledger::defects`]).
fn merge_root_rules(rules: Vec<Defect>) -> Defect {
    let ignored: Vec<_> = rules
        .iter()
        .filter_map(|d| catalogue::root_rule_of(d.id()))
        .collect();
    let mut covers: Vec<String> = rules.iter().map(|d| d.id().to_owned()).collect();
    covers.sort();
    let rank = |d: &Defect| (!d.example.minimal, simplicity(&d.example.scenario));
    let mut rules = rules;
    rules.sort_by_key(rank);
    let mut merged = rules.remove(0);
    for other in rules {
        merged.absorb(other);
    }
    merged.entry = catalogue::root_uri_as_text(&ignored);
    // The rules' own IDs are what it covers, not other names it goes by.
    merged.aliases.retain(|a| !covers.contains(a));
    merged.covers = covers;
    merged
}

/// Most severe first, then most often hit, then by ID.
pub fn sort_defects(defects: &mut [Defect]) {
    defects.sort_by(|a, b| {
        (a.class().severity_rank(), std::cmp::Reverse(a.hits), a.id()).cmp(&(
            b.class().severity_rank(),
            std::cmp::Reverse(b.hits),
            b.id(),
        ))
    });
}

/// One attack or check of a run and how it ended (`rootguard mcp`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// Its name.
    pub name: String,
    /// The session mode.
    pub mode: String,
    /// `ok`, a class name (`stale-root`), or `skipped`.
    pub status: String,
    /// Why it was skipped, or which defect it showed.
    pub detail: Option<String>,
}

/// Which harness wrote a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// `rootguard vet`: a checker speaking checker protocol v1.
    Vet,
    /// `rootguard mcp`: a live MCP server.
    Mcp,
}

impl Tool {
    /// `vet` or `mcp`.
    pub fn as_str(self) -> &'static str {
        match self {
            Tool::Vet => "vet",
            Tool::Mcp => "mcp",
        }
    }

    /// `rootguard vet` or `rootguard mcp`.
    pub fn title(self) -> &'static str {
        match self {
            Tool::Vet => "rootguard vet",
            Tool::Mcp => "rootguard mcp",
        }
    }
}

/// A whole report: what was run, the defects, the counts per class.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// Which harness.
    pub tool: Tool,
    /// The checker's or server's command, as given.
    pub command: String,
    /// The file results are located at in SARIF (the checker's or server's
    /// script or program, relative to the working dir where it is beneath it).
    pub artifact: String,
    /// Header lines for a person (the first is the run in one line).
    pub summary: Vec<String>,
    /// The seed of the random scenarios.
    pub seed: Option<u64>,
    /// Overblocks (and roots not honoured) fail the run.
    pub strict: bool,
    /// Whether the run was stopped by a signal.
    pub interrupted: bool,
    /// How long the run took.
    pub elapsed: Duration,
    /// Queries asked (or tool calls made).
    pub queries: u64,
    /// Findings per class, every class the harness can find listed.
    pub counts: Vec<(Class, u64)>,
    /// The defects, most severe first.
    pub defects: Vec<Defect>,
    /// Every attack or check and how it ended (`rootguard mcp`).
    pub checks: Vec<Check>,
    /// Harness notes.
    pub notes: Vec<String>,
    /// The MCP protocol era spoken, e.g. `modern (2026-07-28)` (`rootguard mcp`; `None` elsewhere).
    pub era: Option<String>,
    /// Harness-specific facts for JSON (`seed`, `scenarios`, `server`, ...).
    pub facts: serde_json::Map<String, serde_json::Value>,
    /// Why the run proves nothing, if it does not (`rootguard mcp`: nothing
    /// attacked, or a door left unattacked); empty for a conclusive run.
    pub inconclusive: Vec<String>,
}

impl Report {
    /// Whether the run fails: a defect whose class fails (escapes, hangs,
    /// crashes, protocol errors; overblocks only when `strict`).
    pub fn failed(&self) -> bool {
        self.defects.iter().any(|d| self.fails(d))
    }

    /// Whether the run is inconclusive: no defect fails it, and it gave
    /// reasons why it proves nothing.
    pub fn is_inconclusive(&self) -> bool {
        !self.failed() && !self.inconclusive.is_empty()
    }

    /// Whether `defect` fails the run.
    pub fn fails(&self, defect: &Defect) -> bool {
        defect.class().fails(self.strict)
    }
}

/// The SARIF artifact for a command: its first argument that names an
/// existing file (the script, else the program), relative to the working
/// dir when beneath it; the program's name when none exists.
///
/// # Examples
///
/// ```
/// let args = ["python3".to_owned(), "Cargo.toml".to_owned()];
/// assert_eq!(rootguard_report::artifact_of(&args), "Cargo.toml");
/// assert_eq!(rootguard_report::artifact_of(&["no-such-checker".to_owned()]), "no-such-checker");
/// ```
pub fn artifact_of(command: &[String]) -> String {
    let cwd = std::env::current_dir().ok();
    let relative = |p: &std::path::Path| -> Option<String> {
        let full = if p.is_absolute() {
            p.to_path_buf()
        } else {
            cwd.as_ref()?.join(p)
        };
        let rel = cwd
            .as_ref()
            .and_then(|c| full.strip_prefix(c).ok())
            .map(std::path::Path::to_path_buf)
            .unwrap_or(full);
        rel.to_str().map(str::to_owned)
    };
    // The script a program runs, when there is one, is what its author edits.
    command
        .iter()
        .skip(1)
        .chain(command.first())
        .map(std::path::Path::new)
        .find(|p| p.is_file())
        .and_then(relative)
        .or_else(|| command.first().cloned())
        .unwrap_or_else(|| "checker".to_owned())
}
