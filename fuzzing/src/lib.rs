//! core held to its judge: structured fuzz inputs and the checks that the
//! targets in `fuzz/` run, beside the differential property tests
//! (`tests/differential.rs`, `tests/beneath_open.rs`). The judge
//! (`rootguard-judge`) knows nothing of core; this crate is where the two
//! meet, as wasmtime's `crates/fuzzing` is for wasmtime.
//!
//! Each fuzz target is one line of glue over this module, so that the
//! same check runs under libFuzzer, under `cargo test` (which replays
//! `fuzz/corpus/` and `fuzz/regressions/` through [`replay`]) and in any
//! other harness:
//!
//! | target          | input              | check                         |
//! |-----------------|--------------------|-------------------------------|
//! | `root_uri`      | `&str`             | [`check_root_uri`]            |
//! | `lexical`       | `&[u8]`            | [`check_lexical`]             |
//! | `lexical_roots` | [`LexicalInput`]   | [`check_lexical_roots`]       |
//! | `resolve_model` | [`ScenarioInput`]  | [`check_resolve_model`]       |
//! | `resolve_kernel`| [`ScenarioInput`]  | [`check_resolve_kernel`]      |
//! | `scenario_json` | `&[u8]`            | [`check_scenario_json`]       |
//!
//! A [`ScenarioInput`] is either a small *spec* of the generators
//! ([`ScenarioSpec`]: tree entries drawn from a small name pool plus
//! hostile pieces, link targets, roots in valid and invalid forms,
//! queries) rendered by [`ScenarioSpec::to_scenario`], or,
//! when the bytes are a scenario document (`{"version": 1, ...}`), that
//! document: so the bundled scenario files are seeds as they are. Its
//! `Debug` is the scenario as JSON, a ready reproducer for
//! `rootguard oracle FILE.json` and for the target itself.
//!
//! A check panics, with the reproducer and both answers, when core and
//! its judge disagree; that panic is what libFuzzer reports as a crash.
//!
//! # Examples
//!
//! ```
//! use arbitrary::{Arbitrary, Unstructured};
//! use rootguard_fuzzing::{check_resolve_model, ScenarioInput};
//!
//! let bytes = [7u8; 64];
//! let input = ScenarioInput::arbitrary_take_rest(Unstructured::new(&bytes))?;
//! check_resolve_model(&input);
//! // Its Debug is a scenario document.
//! assert!(format!("{input:?}").starts_with('{'));
//! # Ok::<(), arbitrary::Error>(())
//! ```

#![deny(missing_docs)]
#![forbid(unsafe_code)]

// Feature `no-coverage` asks fuzz/rustc-wrapper.sh to compile this crate
// without coverage counters; the wrapper says it did by this cfg.
#[cfg(all(feature = "no-coverage", not(rootguard_no_coverage)))]
compile_error!(
    "feature `no-coverage` needs fuzz/rustc-wrapper.sh as RUSTC_WRAPPER, which removes \
     this crate's coverage counters: build through fuzz/campaign.sh or fuzz/smoke.sh, \
     or run `source fuzz/targets.sh` first (see fuzz/README.md, \"Speed\")"
);

mod pool;

pub use pool::{lexical_path, root_sets, RootSet, SET_COUNT};

use std::ffi::OsStr;
use std::fmt;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// The `arbitrary` crate, for code that decodes inputs as the targets do.
pub use arbitrary;
use arbitrary::{Arbitrary, Unstructured};

use rootguard_judge::bridge::{core_op, core_says, mem_fs, Said};
use rootguard_judge::gen::{PathSpec, RootSpec, ScenarioSpec, TreeNames, MAX_ROOTS};
use rootguard_judge::oracle::{
    judge, judge_scenario, parse_root_uri, read_target, verdict, write_target,
};
use rootguard_judge::oracle::{LexicalModel, ModelFs, NoTarget, Outside, MODEL_BASE};
use rootguard_judge::{kernel, Case, Document, Materialized, Op, Scenario};

/// The input of `resolve_model` and `resolve_kernel`: a spec, or a
/// scenario document when the bytes are one (seeds such as
/// `judge/tests/scenarios/hostile.json` are used as they are).
///
/// `Debug` prints the scenario document, a ready reproducer.
#[derive(Clone)]
pub enum ScenarioInput {
    /// A spec, rendered by [`ScenarioSpec::to_scenario`].
    Spec(ScenarioSpec),
    /// A valid scenario document.
    Json(Document),
}

/// Whether a structured target reads `bytes` as a scenario document
/// rather than as a spec.
pub fn is_document_input(bytes: &[u8]) -> bool {
    as_document(bytes).is_some()
}

/// `Some(document)` when `bytes` are a valid scenario document.
fn as_document(bytes: &[u8]) -> Option<Document> {
    // A document is a JSON object: `{` first and `}` last, but for
    // whitespace. Most mutations of a document break that, and are decoded
    // as specs without a JSON parse that would fail at their end.
    let end = bytes
        .iter()
        .rposition(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
    if bytes.first() != Some(&b'{') || end.map(|i| bytes[i]) != Some(b'}') {
        return None;
    }
    Document::from_json(std::str::from_utf8(bytes).ok()?).ok()
}

impl<'a> Arbitrary<'a> for ScenarioInput {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(ScenarioInput::Spec(ScenarioSpec::arbitrary(u)?))
    }

    fn arbitrary_take_rest(u: Unstructured<'a>) -> arbitrary::Result<Self> {
        match as_document(u.peek_bytes(u.len()).unwrap_or_default()) {
            Some(doc) => Ok(ScenarioInput::Json(doc)),
            None => Ok(ScenarioInput::Spec(ScenarioSpec::arbitrary_take_rest(u)?)),
        }
    }
}

impl ScenarioInput {
    /// The scenarios to check: one for a spec, all of a document's.
    pub fn scenarios(&self) -> Vec<Scenario> {
        match self {
            ScenarioInput::Spec(spec) => vec![spec.to_scenario()],
            ScenarioInput::Json(doc) => doc.scenarios.clone(),
        }
    }

    /// The input as a scenario document.
    pub fn to_document(&self) -> Document {
        match self {
            ScenarioInput::Spec(spec) => Document {
                version: rootguard_judge::FORMAT_VERSION,
                scenarios: vec![spec.to_scenario()],
            },
            ScenarioInput::Json(doc) => doc.clone(),
        }
    }
}

impl fmt::Debug for ScenarioInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_document().to_json())
    }
}

fn reproducer(scenario: &Scenario) -> String {
    Document {
        version: rootguard_judge::FORMAT_VERSION,
        scenarios: vec![scenario.clone()],
    }
    .to_json()
}

// ---------------------------------------------------------------- lexical

/// A root and a path for the lexical check, made of absolute paths from
/// the same name pool so that roots often contain the path.
#[derive(Arbitrary, Debug, Clone)]
pub struct LexicalSpec {
    /// Roots, rendered around absolute paths (the first 4 count).
    pub roots: Vec<RootSpec>,
    /// The query path.
    pub path: PathSpec,
}

/// The input of `lexical_roots`: a spec, or a scenario document whose cases
/// (with `{base}` as [`MODEL_BASE`]) are checked against its roots.
///
/// `Debug` prints the roots and the path as a scenario document when the
/// path is UTF-8, else as JSON with the path's bytes escaped.
#[derive(Clone)]
pub enum LexicalInput {
    /// A spec.
    Spec(LexicalSpec),
    /// A valid scenario document.
    Json(Document),
}

impl<'a> Arbitrary<'a> for LexicalInput {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(LexicalInput::Spec(LexicalSpec::arbitrary(u)?))
    }

    fn arbitrary_take_rest(u: Unstructured<'a>) -> arbitrary::Result<Self> {
        match as_document(u.peek_bytes(u.len()).unwrap_or_default()) {
            Some(doc) => Ok(LexicalInput::Json(doc)),
            None => Ok(LexicalInput::Spec(LexicalSpec::arbitrary_take_rest(u)?)),
        }
    }
}

impl LexicalInput {
    /// Every (roots, path) pair the input stands for.
    pub fn queries(&self) -> Vec<(Vec<String>, Vec<u8>)> {
        match self {
            LexicalInput::Spec(spec) => {
                let names = TreeNames::default();
                let roots = spec
                    .roots
                    .iter()
                    .take(MAX_ROOTS)
                    .map(|r| r.render("", &names))
                    .collect();
                vec![(roots, spec.path.render("", &names))]
            }
            LexicalInput::Json(doc) => doc
                .scenarios
                .iter()
                .flat_map(|s| {
                    let s = s.substituted(MODEL_BASE);
                    s.cases
                        .into_iter()
                        .map(move |c| (s.roots.clone(), c.path.into_bytes()))
                })
                .collect(),
        }
    }
}

fn lexical_reproducer(roots: &[String], path: &[u8]) -> String {
    reproducer(&Scenario {
        name: "lexical".to_owned(),
        note: None,
        tree: Vec::new(),
        roots: roots.to_vec(),
        cases: vec![Case {
            path: path.into(),
            op: Op::Read,
            expect: None,
        }],
    })
}

impl fmt::Debug for LexicalInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (roots, path) in self.queries() {
            writeln!(f, "{}", lexical_reproducer(&roots, &path))?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------- checks

/// `root_uri`: core's parser and the oracle's accept the same URIs and
/// give the same path; where both accept, `url` reads the same path too
/// (semantics.md section 1, rule 6), except where the spec says `url`
/// differs by design.
///
/// # Panics
///
/// On a disagreement, with the URI and both answers.
pub fn check_root_uri(uri: &str) {
    let ours = rootguard::RootUri::parse(uri);
    let theirs = parse_root_uri(uri);
    let ours_path = ours.as_ref().ok().map(|u| u.path().as_os_str().as_bytes());
    assert_eq!(
        ours_path,
        theirs.as_deref().ok(),
        "core and the oracle disagree on root URI {uri:?}:\n  core:   {ours:?}\n  oracle: {:?}",
        theirs.as_ref().map(|p| p.escape_ascii().to_string())
    );
    if let Ok(path) = &theirs {
        check_with_url(uri, path);
    }
}

/// A URI the oracle accepted, read by the `url` crate. Not compared: a
/// segment that WHATWG takes for a Windows drive letter (`C:`), which `..`
/// never removes in a file URL. The crate's traps (`\` as a separator,
/// `%2F` decoded, no scheme check) cannot occur here: the oracle has
/// refused all of them already.
fn check_with_url(uri: &str, path: &[u8]) {
    let raw_path = match uri.find("//") {
        Some(i) if i == uri.find(':').map_or(usize::MAX, |c| c + 1) => {
            let rest = &uri[i + 2..];
            rest.find('/').map_or("", |j| &rest[j..])
        }
        _ => uri.find(':').map_or("", |c| &uri[c + 1..]),
    };
    let drive_letter = raw_path.split('/').any(|s| {
        let s = s.as_bytes();
        s.len() == 2 && s[0].is_ascii_alphabetic() && (s[1] == b':' || s[1] == b'|')
    });
    if drive_letter {
        return;
    }
    let url = match url::Url::parse(uri) {
        Ok(url) => url,
        Err(e) => panic!(
            "url refuses {uri:?} ({e}), which the spec accepts as {:?}",
            path.escape_ascii().to_string()
        ),
    };
    let file = url.to_file_path().unwrap_or_else(|()| {
        panic!("url gives no file path for {uri:?} (parsed as {url}), which the spec accepts")
    });
    // url keeps empty segments and a trailing `/`; rule 6 collapses them.
    let bytes = file.as_os_str().as_bytes();
    let mut collapsed: Vec<u8> = Vec::with_capacity(bytes.len());
    for segment in bytes.split(|&b| b == b'/').filter(|s| !s.is_empty()) {
        collapsed.push(b'/');
        collapsed.extend_from_slice(segment);
    }
    if collapsed.is_empty() {
        collapsed.push(b'/');
    }
    assert_eq!(
        collapsed.escape_ascii().to_string(),
        path.escape_ascii().to_string(),
        "url reads {uri:?} as {url} -> {file:?}; the spec (core and the oracle) as the path on the right"
    );
}

/// `lexical_roots`: [`rootguard::lexical::LexicalRoots::inside`] against the lexical
/// oracle ([`LexicalModel`]: the path and each root split into whole
/// components, `.`, `..` and empty ones applied, containment a prefix of
/// components). Core must refuse exactly the relative and NUL-holding
/// paths, and otherwise name the same root.
///
/// # Panics
///
/// On a disagreement, with the roots and the path.
pub fn check_lexical_roots(input: &LexicalInput) {
    for (roots, path) in input.queries() {
        check_lexical_query(&roots, &path);
    }
}

/// `lexical`: a path of any bytes against one of the pool's root sets
/// ([`root_sets`]), built once: the input is `[set, mode, rest...]` (see
/// [`lexical_path`]); an input of fewer than two bytes is skipped.
/// (Scenario documents, whose roots are parsed per input, are
/// `lexical_roots`' seeds: read here, their JSON parser's coverage would
/// cost every input's bookkeeping.)
///
/// # Panics
///
/// When core and the lexical oracle disagree, with the roots and the path
/// as a scenario document.
pub fn check_lexical(data: &[u8]) {
    if let Some((set, path)) = lexical_input(data) {
        compare_lexical(&set.core, &set.model, &set.uris, &path);
    }
}

/// The (roots, path) queries a `lexical` input stands for.
pub fn lexical_queries(data: &[u8]) -> Vec<(Vec<String>, Vec<u8>)> {
    lexical_input(data)
        .map(|(set, path)| (set.uris.clone(), path))
        .into_iter()
        .collect()
}

/// A `lexical` input's root set and path; `None` for fewer than two bytes.
fn lexical_input(data: &[u8]) -> Option<(&'static RootSet, Vec<u8>)> {
    let [set, mode, rest @ ..] = data else {
        return None;
    };
    let set = &root_sets()[usize::from(*set) % SET_COUNT];
    let mut path = Vec::with_capacity(rest.len() + 64);
    lexical_path(set, *mode, rest, &mut path);
    Some((set, path))
}

fn check_lexical_query(roots: &[String], path: &[u8]) {
    let core = rootguard::lexical::LexicalRoots::new(roots);
    compare_lexical(&core, &LexicalModel::new(roots), roots, path);
}

fn compare_lexical(
    core: &rootguard::lexical::LexicalRoots,
    model: &LexicalModel,
    roots: &[String],
    path: &[u8],
) {
    let ours = core
        .inside(OsStr::from_bytes(path))
        .map(|found| found.map(rootguard::RootId::index));
    let theirs = model.find(path);
    match (&ours, &theirs) {
        (Ok(ours), Ok(theirs)) if ours == theirs => {}
        (Err(rootguard::lexical::LexicalError::NotAbsolute), Err(NoTarget::NotAbsolute)) => {}
        (Err(rootguard::lexical::LexicalError::NulByte), Err(NoTarget::NulByte)) => {}
        _ => panic!(
            "lexical check: core says {ours:?}, the lexical oracle says {theirs:?} (Ok: the index of the containing root; Err: refused) for {:?}:\n{}",
            path.escape_ascii().to_string(),
            lexical_reproducer(roots, path)
        ),
    }
}

/// Each root parsed and resolved on the model once (what
/// [`judge`] does for every query; `None` grants nothing).
fn resolve_model_roots(roots: &[String], model: &ModelFs) -> Vec<Option<Vec<u8>>> {
    roots
        .iter()
        .map(|uri| {
            let path = parse_root_uri(uri).ok()?;
            // realpath(3), rule 7: resolved as a `read` target is.
            read_target(model, &path).ok()
        })
        .collect()
}

/// [`judge`]'s verdict without its explanation, on roots resolved once.
fn model_says(roots: &[Option<Vec<u8>>], path: &[u8], op: Op, model: &ModelFs) -> Said {
    let target = match op {
        Op::Read => read_target(model, path),
        Op::Write => write_target(model, path),
    };
    Said::from(&verdict(target.ok().as_deref(), roots))
}

/// `resolve_model`: core on its in-memory file system against the model
/// oracle (base [`MODEL_BASE`], nothing outside it), on truth, target and
/// containing root.
///
/// # Panics
///
/// On a disagreement, with the scenario document and both answers.
pub fn check_resolve_model(input: &ScenarioInput) {
    for scenario in input.scenarios() {
        let s = scenario.substituted(MODEL_BASE);
        let roots = rootguard::Roots::with_fs(&s.roots, mem_fs(&scenario, MODEL_BASE));
        let model = ModelFs::new(&scenario.tree, Path::new(MODEL_BASE), Outside::Absent)
            .expect("the model lays out a valid tree");
        let model_roots = resolve_model_roots(&s.roots, &model);
        for (i, case) in s.cases.iter().enumerate() {
            let ours = core_says(&roots.check(&case.path, core_op(case.op)));
            assert_eq!(
                roots
                    .inside(&case.path, core_op(case.op))
                    .map(rootguard::RootId::index),
                ours.root,
                "inside() (left) and check() (right) name different roots on case {i} ({} {:?}):\n{}",
                case.op,
                scenario.cases[i].path,
                reproducer(&scenario)
            );
            if ours == model_says(&model_roots, case.path.as_bytes(), case.op, &model) {
                continue;
            }
            // The full judge, with its explanation, only for a report.
            let theirs = judge(&s.roots, case.path.as_bytes(), case.op, &model);
            assert_eq!(
                ours,
                Said::from(&theirs),
                "core (left) and the model (right) disagree on case {i} ({} {:?}):\n  model: {}\n{}",
                case.op,
                scenario.cases[i].path,
                theirs.explanation,
                reproducer(&scenario)
            );
            panic!(
                "harness bug: judge() agrees with core but model_says() does not, case {i}:\n{}",
                reproducer(&scenario)
            );
        }
    }
}

/// `resolve_kernel`: the scenario materialized in a fresh temp dir; core
/// on the real file system ([`rootguard::Roots::new`]) against kernel
/// truth, and the model (`Outside::Host`) against the kernel too.
///
/// # Panics
///
/// On a disagreement, with the scenario document and the answers; and when
/// a valid scenario cannot be materialized.
pub fn check_resolve_kernel(input: &ScenarioInput) {
    for scenario in input.scenarios() {
        let tree = Materialized::new(&scenario)
            .unwrap_or_else(|e| panic!("cannot materialize: {e}\n{}", reproducer(&scenario)));
        let model = judge_scenario(&scenario, tree.base(), Outside::Host)
            .expect("the model lays out the tree");
        let kernel = kernel::judge_materialized(&tree);
        let roots = rootguard::Roots::new(tree.roots());
        for (i, ((case, model), kernel)) in tree.cases().iter().zip(&model).zip(&kernel).enumerate()
        {
            let ours = core_says(&roots.check(OsStr::new(&case.path), core_op(case.op)));
            assert_eq!(
                roots
                    .inside(OsStr::new(&case.path), core_op(case.op))
                    .map(rootguard::RootId::index),
                kernel.root,
                "inside() (left) and the kernel (right) name different roots on case {i} ({} {:?}):\n  kernel: {}\n{}",
                case.op,
                scenario.cases[i].path,
                kernel.explanation,
                reproducer(&scenario)
            );
            assert_eq!(
                ours,
                Said::from(kernel),
                "core (left) and the kernel (right) disagree on case {i} ({} {:?}):\n  kernel: {}\n  model:  {}\n{}",
                case.op,
                scenario.cases[i].path,
                kernel.explanation,
                model.explanation,
                reproducer(&scenario)
            );
            assert_eq!(
                Said::from(model),
                Said::from(kernel),
                "the model (left) and the kernel (right) disagree on case {i} ({} {:?}):\n  kernel: {}\n  model:  {}\n{}",
                case.op,
                scenario.cases[i].path,
                kernel.explanation,
                model.explanation,
                reproducer(&scenario)
            );
        }
        tree.close().expect("the temp tree is removed");
    }
}

/// `scenario_json`: any text is either a document that round-trips
/// through [`Document::to_json`] and that the model can lay out, or an
/// error whose message says what to write.
///
/// # Panics
///
/// When a valid document does not round-trip, or an error message is empty.
pub fn check_scenario_json(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    match Document::from_json(&text) {
        Ok(doc) => {
            let json = doc.to_json();
            let again = Document::from_json(&json)
                .unwrap_or_else(|e| panic!("a valid document's JSON is refused ({e}):\n{json}"));
            assert_eq!(again, doc, "a document changed through to_json:\n{json}");
            for scenario in &doc.scenarios {
                if let Err(e) =
                    ModelFs::from_scenario(scenario, Path::new(MODEL_BASE), Outside::Absent)
                {
                    panic!("the validator accepts what the model cannot lay out ({e}):\n{json}");
                }
            }
        }
        Err(e) => {
            let message = e.to_string();
            assert!(!message.trim().is_empty(), "an empty error for {text:?}");
            if let rootguard_judge::ScenarioError::Json(_) = e {
                assert!(
                    message.contains("scenario-format.md"),
                    "a JSON error that does not say what to write: {message}"
                );
            }
        }
    }
}

/// The fuzz targets, by name, as `fuzz/targets` lists them (the one list;
/// `tests/fuzz_target_list.rs` holds this to it).
pub const TARGETS: &[&str] = &[
    "root_uri",
    "lexical",
    "lexical_roots",
    "resolve_model",
    "resolve_kernel",
    "scenario_json",
];

/// Runs `target`'s check on `data` exactly as libFuzzer's glue does: the
/// bytes decoded by `Arbitrary::arbitrary_take_rest`, an input that does
/// not decode skipped. For `cargo test` replays of `fuzz/regressions/`.
///
/// # Panics
///
/// When the check fails, and for a target that is not in [`TARGETS`].
pub fn replay(target: &str, data: &[u8]) {
    let u = Unstructured::new(data);
    match target {
        "root_uri" => {
            if let Ok(uri) = <&str>::arbitrary_take_rest(u) {
                check_root_uri(uri);
            }
        }
        "lexical" => check_lexical(data),
        "lexical_roots" => {
            if let Ok(input) = LexicalInput::arbitrary_take_rest(u) {
                check_lexical_roots(&input);
            }
        }
        "resolve_model" => {
            if let Ok(input) = ScenarioInput::arbitrary_take_rest(u) {
                check_resolve_model(&input);
            }
        }
        "resolve_kernel" => {
            if let Ok(input) = ScenarioInput::arbitrary_take_rest(u) {
                check_resolve_kernel(&input);
            }
        }
        "scenario_json" => check_scenario_json(data),
        other => panic!("no fuzz target {other:?}; the targets are {TARGETS:?}"),
    }
}
