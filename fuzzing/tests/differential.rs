//! The three-way differential: core on the in-memory Fs against the model
//! oracle, and core on a materialized tree against the model and the kernel
//! (`Roots`, and `PinnedRoots`, whose answers on a tree that does not change
//! must be the same).
//! Plus core's URI parser against the oracle's, metamorphic properties, and
//! no panic on arbitrary input.
//!
//! `PROPTEST_CASES=100000 cargo test -p rootguard-judge --release --test
//! differential` is the deep mode for nightly runs.

use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use rootguard::fs::MemFs;
use rootguard::{RootId, RootUri, Roots};
use rootguard_judge::bridge::{core_op, core_says, mem_fs, Said};
use rootguard_judge::oracle::{
    judge, judge_scenario, parse_root_uri, ModelFs, Outside, MODEL_BASE,
};
use rootguard_judge::strategies::{root_uri, scenario};
use rootguard_judge::{kernel, Judgement, Materialized, Scenario, Truth};

/// Core on the in-memory Fs and the model (nothing outside the base) for
/// every case of `scenario` beneath `base`.
fn in_memory(scenario: &Scenario, base: &str) -> Vec<(Said, Judgement)> {
    let s = scenario.substituted(base);
    let roots = Roots::with_fs(&s.roots, mem_fs(scenario, base));
    let model = ModelFs::new(&scenario.tree, Path::new(base), Outside::Absent)
        .expect("model lays out a valid tree");
    s.cases
        .iter()
        .map(|c| {
            let ours = core_says(&roots.check(&c.path, core_op(c.op)));
            assert_eq!(
                roots.inside(&c.path, core_op(c.op)).map(RootId::index),
                ours.root,
                "inside() in memory, {} {:?}",
                c.op,
                c.path
            );
            (ours, judge(&s.roots, c.path.as_bytes(), c.op, &model))
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(512)
    ))]

    #[test]
    fn core_in_memory_equals_the_model(s in scenario()) {
        for (i, (ours, model)) in in_memory(&s, MODEL_BASE).into_iter().enumerate() {
            prop_assert_eq!(&ours, &Said::from(&model), "case {} {:?} ({}):\n{}", i, s.cases[i].path, s.cases[i].op, model.explanation);
        }
    }

    #[test]
    fn moving_the_base_never_changes_a_verdict(s in scenario()) {
        // Same depth and name: roots and paths may climb above the base with
        // `..`, and what they find up there is not part of the scenario.
        const THERE: &str = "/moved-elsewhere/base";
        let here = in_memory(&s, MODEL_BASE);
        let there = in_memory(&s, THERE);
        for (i, case) in s.cases.iter().enumerate() {
            // The one thing a base does change: how near PATH_MAX a path is.
            let longest = case.path.replace("{base}", THERE).len().max(case.path.replace("{base}", MODEL_BASE).len());
            if longest < rootguard::limits::PATH_MAX {
                prop_assert_eq!(here[i].0.truth, there[i].0.truth, "case {} {:?}", i, case.path);
            }
        }
    }

    #[test]
    fn an_unrelated_root_never_turns_inside_into_outside(s in scenario()) {
        let before = in_memory(&s, MODEL_BASE);
        let mut wider = s.clone();
        wider.roots.push("file:///rg-unrelated/elsewhere".to_string());
        for ((b, _), (a, _)) in before.iter().zip(in_memory(&wider, MODEL_BASE)) {
            if b.truth == Truth::Inside {
                prop_assert_eq!(a.truth, Truth::Inside);
            }
        }
    }

    #[test]
    fn dot_and_empty_segments_never_change_a_verdict(s in scenario(), at in any::<prop::sample::Index>(), dot in any::<bool>()) {
        let base = MODEL_BASE;
        let sub = s.substituted(base);
        let roots = Roots::with_fs(&sub.roots, mem_fs(&s, base));
        for case in &sub.cases {
            // Insert before a component that is not the last, so that a
            // trailing "/." never turns a file into a directory lookup.
            let bytes = case.path.as_bytes();
            let inner: Vec<usize> = (1..bytes.len()).filter(|&i| bytes[i] == b'/' && bytes[i + 1..].iter().any(|&b| b != b'/')).collect();
            if inner.is_empty() || bytes.contains(&0) || bytes.len() > 4000 {
                continue;
            }
            let i = inner[at.index(inner.len())];
            let mut changed = bytes[..i].to_vec();
            changed.extend_from_slice(if dot { b"/." } else { b"/" });
            changed.extend_from_slice(&bytes[i..]);
            let op = core_op(case.op);
            let before = core_says(&roots.check(&case.path, op)).truth;
            let after = core_says(&roots.check(std::ffi::OsStr::from_bytes(&changed), op)).truth;
            prop_assert_eq!(before, after, "{:?} vs {:?}", case.path, String::from_utf8_lossy(&changed));
        }
    }

    #[test]
    fn core_uri_parser_equals_the_oracle(uri in root_uri()) {
        let ours = RootUri::parse(&uri).map(|u| u.path().as_os_str().as_bytes().to_vec());
        let theirs = parse_root_uri(&uri);
        prop_assert_eq!(ours.ok(), theirs.ok(), "{:?}", uri);
    }

    #[test]
    fn no_panic_on_arbitrary_input(text in ".*", bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let _ = RootUri::parse(&text);
        let path = std::ffi::OsStr::from_bytes(&bytes);
        let mut fs = MemFs::new();
        fs.add_symlink("/l", std::ffi::OsStr::from_bytes(&bytes)).add_dir("/d");
        let roots = Roots::with_fs([text.as_str(), "file:///d"], fs);
        for op in [rootguard::Op::Read, rootguard::Op::Write] {
            let _ = roots.check(path, op);
            let _ = roots.check("/l", op);
            let _ = roots.check(format!("/d/{text}"), op);
        }
        let _ = rootguard::lexical::LexicalRoots::new([text.as_str()]).inside(path);
        let _ = rootguard::lexical::NormalPath::new(path);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(128)
    ))]

    #[test]
    fn core_on_a_real_tree_equals_the_model_and_the_kernel(s in scenario()) {
        let tree = Materialized::new(&s).expect("materializes");
        let model = judge_scenario(&s, tree.base(), Outside::Host).expect("model lays out the tree");
        let kernel = kernel::judge_materialized(&tree);
        let roots = Roots::new(tree.roots());
        let pinned = roots.clone().pin();
        for ((case, model), kernel) in tree.cases().iter().zip(&model).zip(&kernel) {
            let ours = core_says(&roots.check(&case.path, core_op(case.op)));
            prop_assert_eq!(&Said::from(model), &Said::from(kernel), "model vs kernel, {} {:?}:\n{}\n{}", case.op, case.path, model.explanation, kernel.explanation);
            prop_assert_eq!(&ours, &Said::from(kernel), "core vs kernel, {} {:?}:\n{}", case.op, case.path, model.explanation);
            prop_assert_eq!(roots.inside(&case.path, core_op(case.op)).map(RootId::index), kernel.root, "inside() vs kernel, {} {:?}:\n{}", case.op, case.path, model.explanation);
            prop_assert_eq!(&core_says(&pinned.check(&case.path, core_op(case.op))), &Said::from(kernel), "pinned check() vs kernel, {} {:?}:\n{}", case.op, case.path, model.explanation);
            prop_assert_eq!(pinned.inside(&case.path, core_op(case.op)).map(RootId::index), kernel.root, "pinned inside() vs kernel, {} {:?}:\n{}", case.op, case.path, model.explanation);
        }
        tree.close().expect("cleans up");
    }
}

/// Core on a real tree, on every case of the bundled conformance corpus
/// (`corpus/scenarios/`): the same verdict, target and root as the kernel,
/// and the truth the scenario expects, from `Roots` and `PinnedRoots`. Deterministic, where the property
/// above draws its cases at random.
#[test]
fn core_on_the_corpus_equals_the_kernel_and_expect() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("corpus/scenarios")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    let mut cases = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable");
        let doc = rootguard_judge::Document::from_json(&text)
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for scenario in &doc.scenarios {
            let tree = Materialized::new(scenario).expect("materializes");
            let kernel = kernel::judge_materialized(&tree);
            let roots = Roots::new(tree.roots());
            let pinned = roots.clone().pin();
            for (case, kernel) in tree.cases().iter().zip(&kernel) {
                cases += 1;
                let ours = core_says(&roots.check(&case.path, core_op(case.op)));
                let expect = case.expect.is_none_or(|e| kernel.truth == e);
                let inside = roots
                    .inside(&case.path, core_op(case.op))
                    .map(RootId::index);
                let pinned_says = core_says(&pinned.check(&case.path, core_op(case.op)));
                let pinned_inside = pinned
                    .inside(&case.path, core_op(case.op))
                    .map(RootId::index);
                if ours != Said::from(kernel)
                    || !expect
                    || inside != kernel.root
                    || pinned_says != ours
                    || pinned_inside != kernel.root
                {
                    failures.push(format!(
                        "{} {:?}: {} {:?}: core {ours:?}, inside() {inside:?}, pinned {pinned_says:?}, pinned inside() {pinned_inside:?}, kernel {:?}, expect {:?}",
                        file.file_name().unwrap_or_default().to_string_lossy(),
                        scenario.name,
                        case.op,
                        case.path.to_string().chars().take(120).collect::<String>(),
                        Said::from(kernel),
                        case.expect
                    ));
                }
            }
            tree.close().expect("cleans up");
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} corpus cases disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(cases >= 300, "only {cases} corpus cases ran");
}
