//! Materializing, judging and cleaning up never touch anything outside the
//! temp dir: a canary directory that the tree's links point into is
//! byte-for-byte the same afterwards.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::{symlink, MetadataExt};
use std::path::{Path, PathBuf};

use rootguard_judge::oracle::{judge_scenario, Outside};
use rootguard_judge::{
    clean_temp_parent, compare_model_with_kernel, is_clean_path, kernel, Case, Entry,
    MaterializeError, Materialized, Op, Scenario,
};

/// Everything about a tree that a stray write or removal would change:
/// each name, its kind and mode, and a file's bytes or a link's target.
fn snapshot(root: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(path) = stack.pop() {
        let meta = fs::symlink_metadata(&path).expect("canary readable");
        let what = if meta.file_type().is_symlink() {
            format!("link -> {:?}", fs::read_link(&path).expect("readlink"))
        } else if meta.is_dir() {
            for entry in fs::read_dir(&path).expect("list") {
                stack.push(entry.expect("entry").path());
            }
            format!("dir {:o}", meta.mode())
        } else {
            format!(
                "file {:o} {:?}",
                meta.mode(),
                fs::read(&path).expect("read")
            )
        };
        out.insert(path, what);
    }
    out
}

struct Canary {
    _temp: tempfile::TempDir,
    dir: PathBuf,
    /// The canary's path relative to a base `<parent>/<temp>/base`.
    from_base: String,
}

fn canary() -> Canary {
    let parent = clean_temp_parent().expect("a clean temp parent");
    let temp = tempfile::Builder::new()
        .prefix("rootguard-canary-")
        .tempdir_in(&parent)
        .expect("canary temp dir");
    let dir = temp.path().join("canary");
    fs::create_dir_all(dir.join("sub")).expect("mkdir");
    fs::write(dir.join("a.txt"), "alpha").expect("write");
    fs::write(dir.join("sub/b.txt"), "beta").expect("write");
    symlink("a.txt", dir.join("inner")).expect("symlink");
    let name = temp
        .path()
        .file_name()
        .and_then(|n| n.to_str())
        .expect("clean name")
        .to_owned();
    Canary {
        _temp: temp,
        dir,
        from_base: format!("../../{name}/canary"),
    }
}

fn link(path: &str, target: &str) -> Entry {
    Entry::Symlink {
        path: path.into(),
        target: target.into(),
    }
}

fn hostile_scenario(canary: &Canary) -> Scenario {
    let abs = canary.dir.to_str().expect("clean").to_owned();
    let rel = &canary.from_base;
    let tree = vec![
        Entry::File {
            path: "d/e/f".into(),
            content: Some("f".into()),
        },
        link("abs", &abs),
        link("d/abs_file", &format!("{abs}/a.txt")),
        link("rel", rel),
        link("d/rel", &format!("../{rel}")),
        link("dangling", &format!("{abs}/new-file")),
        link("d/dangling_rel", &format!("../{rel}/sub/new")),
        link("dangling_dir", &format!("{abs}/newdir/")),
        link("etc", "/etc"),
        link("d/root", "/"),
        link("loop", "loop"),
    ];
    let mut cases = Vec::new();
    for l in [
        "abs",
        "d/abs_file",
        "rel",
        "d/rel",
        "dangling",
        "d/dangling_rel",
        "dangling_dir",
        "etc",
        "d/root",
        "loop",
    ] {
        for suffix in [
            "",
            "/",
            "/a.txt",
            "/inner",
            "/new",
            "/sub",
            "/sub/b.txt",
            "/sub/new",
            "/..",
            "/../x",
            "/.",
        ] {
            for op in [Op::Read, Op::Write] {
                cases.push(Case {
                    path: format!("{{base}}/{l}{suffix}").into(),
                    op,
                    expect: None,
                });
            }
        }
    }
    Scenario {
        name: "canary".into(),
        note: None,
        tree,
        roots: vec![
            format!("file://{abs}"),
            "file://{base}/d".into(),
            "file://{base}/rel".into(),
        ],
        cases,
    }
}

#[test]
fn the_canary_is_unchanged_by_materialize_queries_and_cleanup() {
    let canary = canary();
    let before = snapshot(&canary.dir);
    let scenario = hostile_scenario(&canary);

    let materialized = Materialized::new(&scenario).expect("materializes");
    assert_eq!(snapshot(&canary.dir), before, "after materialize");
    let base = materialized.base().to_path_buf();
    let temp = materialized.temp_dir().to_path_buf();
    // The links were made as links, with {base} substituted.
    assert_eq!(
        fs::read_link(base.join("rel")).expect("a link"),
        Path::new(&canary.from_base)
    );
    assert_eq!(
        fs::read_to_string(base.join("rel/a.txt")).expect("reads through"),
        "alpha"
    );
    assert_eq!(
        fs::read_to_string(base.join("d/rel/sub/b.txt")).expect("reads through"),
        "beta"
    );

    let model = judge_scenario(&scenario, &base, Outside::Host).expect("model");
    let kernel = kernel::judge_materialized(&materialized);
    assert_eq!(
        snapshot(&canary.dir),
        before,
        "after every oracle and kernel query"
    );
    let mut disagreements = Vec::new();
    for ((case, m), k) in materialized.cases().iter().zip(&model).zip(&kernel) {
        if (m.truth, &m.target, m.root) != (k.truth, &k.target, k.root) {
            disagreements.push(format!(
                "{} {}:\n  model:  {m}\n  kernel: {k}",
                case.op, case.path
            ));
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    // Some writes really would land in the canary: the test is not vacuous.
    assert!(model
        .iter()
        .any(|j| j.target.as_deref() == Some(&canary.dir.join("new-file"))));
    assert!(model
        .iter()
        .any(|j| j.target.as_deref() == Some(&canary.dir.join("sub/new"))));

    drop(materialized);
    assert!(!temp.exists(), "the temp dir is gone after drop");
    assert_eq!(snapshot(&canary.dir), before, "after cleanup");

    // The same through the comparison helper, which closes explicitly.
    for c in compare_model_with_kernel(&scenario).expect("compares") {
        assert!(c.judges_agree(), "{c}");
    }
    assert_eq!(
        snapshot(&canary.dir),
        before,
        "after compare_model_with_kernel"
    );
}

#[test]
fn the_base_is_clean_fresh_and_link_free() {
    let scenario = Scenario {
        name: "s".into(),
        note: None,
        tree: vec![],
        roots: vec![],
        cases: vec![],
    };
    let a = Materialized::new(&scenario).expect("materializes");
    let b = Materialized::new(&scenario).expect("materializes");
    assert_ne!(a.base(), b.base());
    for m in [&a, &b] {
        assert!(is_clean_path(m.base()), "{}", m.base().display());
        assert_eq!(fs::canonicalize(m.base()).expect("exists"), m.base());
        assert_eq!(m.base().parent(), Some(m.temp_dir()));
        assert_eq!(fs::read_dir(m.base()).expect("lists").count(), 0);
    }
    let temp = a.temp_dir().to_path_buf();
    a.close().expect("closes");
    assert!(!temp.exists());
}

#[test]
fn an_invalid_scenario_is_refused_before_anything_is_made() {
    let scenario = Scenario {
        name: "bad".into(),
        note: None,
        tree: vec![
            link("l", "/etc"),
            Entry::File {
                path: "l/passwd".into(),
                content: Some("pwned".into()),
            },
        ],
        roots: vec![],
        cases: vec![],
    };
    match Materialized::new(&scenario) {
        Err(MaterializeError::Invalid(e)) => {
            let message = e.to_string();
            assert!(
                message.contains("tree entry 1") && message.contains("beneath tree entry 0"),
                "{message}"
            );
        }
        other => panic!("expected Invalid, got {other:?}"),
    }
}

#[test]
fn substitution_reaches_roots_cases_and_targets_only() {
    let scenario = Scenario {
        name: "{base}".into(),
        note: Some("{base}".into()),
        tree: vec![
            Entry::Dir {
                path: "{base}".into(),
            },
            link("l", "{base}/x"),
        ],
        roots: vec!["file://{base}".into()],
        cases: vec![Case {
            path: "{base}/l".into(),
            op: Op::Write,
            expect: None,
        }],
    };
    let m = Materialized::new(&scenario).expect("materializes");
    let base = m.base_text().to_owned();
    assert!(
        m.base().join("{base}").is_dir(),
        "tree paths are not substituted"
    );
    assert_eq!(
        fs::read_link(m.base().join("l")).expect("link"),
        Path::new(&format!("{base}/x"))
    );
    assert_eq!(m.roots(), [format!("file://{base}")]);
    assert_eq!(m.cases()[0].path, format!("{base}/l"));
    assert_eq!(m.scenario().name, "{base}");
}
