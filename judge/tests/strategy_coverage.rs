//! The strategies are strong for classes: in a fixed sample of generated
//! scenarios, every verdict, every reason an operation cannot happen,
//! every class of invalid root and paths whose `\` or `%2F` a checker
//! could misread as a separator turn up.

use std::collections::BTreeMap;
use std::path::Path;

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use rootguard_judge::oracle::{
    judge_scenario, parse_root_uri, resolve_read, resolve_write, ModelFs, NoTarget, Outside,
    MODEL_BASE as BASE,
};
use rootguard_judge::strategies::{root_uri, scenario};
use rootguard_judge::{Entry, Op, PathBytes, Truth};

const SAMPLE: usize = 400;

fn tally<K: Ord>(map: &mut BTreeMap<K, usize>, key: K) {
    *map.entry(key).or_default() += 1;
}

fn reason(r: &NoTarget) -> &'static str {
    match r {
        NoTarget::NotAbsolute => "not absolute",
        NoTarget::NulByte => "NUL",
        NoTarget::PathTooLong { .. } => "path too long",
        NoTarget::NameTooLong { .. } => "name too long",
        NoTarget::NotFound { .. } => "ENOENT",
        NoTarget::NotADirectory { .. } => "ENOTDIR",
        NoTarget::TooManyLinks { .. } => "ELOOP",
        NoTarget::Host(_) => "host",
        NoTarget::TrailingSlash => "trailing slash",
        NoTarget::ExistingDirectory { .. } => "EISDIR",
        NoTarget::LinkNamesDirectory { .. } => "link names a directory",
    }
}

#[test]
fn scenarios_cover_every_verdict_and_reason() {
    let mut runner = TestRunner::deterministic();
    let strategy = scenario();
    let mut verdicts = BTreeMap::new();
    let mut reasons = BTreeMap::new();
    let mut root_classes = BTreeMap::new();
    let mut separators = BTreeMap::new();
    for _ in 0..SAMPLE {
        let s = strategy.new_tree(&mut runner).expect("generates").current();
        let fs = ModelFs::from_scenario(&s, Path::new(BASE), Outside::Absent).expect("valid tree");
        let judged = judge_scenario(&s, Path::new(BASE), Outside::Absent).expect("judges");
        let t = s.substituted(BASE);
        for (case, j) in t.cases.iter().zip(&judged) {
            tally(&mut verdicts, (case.op, j.truth));
            let resolve = |path: &PathBytes| match case.op {
                Op::Read => resolve_read(&fs, path.as_bytes()),
                Op::Write => resolve_write(&fs, path.as_bytes()),
            };
            let r = resolve(&case.path);
            // `\` and `%2F` are bytes of a name; read as separators they
            // would lead elsewhere (a flawed checker's reading).
            for (class, disguise) in [("backslash", "\\"), ("%2F", "%2F")] {
                if case.path.contains(disguise)
                    && resolve(&case.path.replace(disguise, "/")).outcome != r.outcome
                {
                    tally(&mut separators, class);
                }
            }
            if let Err(e) = r.outcome {
                tally(&mut reasons, reason(&e));
            }
        }
        for root in &t.roots {
            let class = match parse_root_uri(root) {
                Ok(_) => "valid".to_owned(),
                Err(e) => format!("{e:?}")
                    .split([' ', '{'])
                    .next()
                    .unwrap_or("")
                    .to_owned(),
            };
            tally(&mut root_classes, class);
        }
    }
    let report = format!(
        "verdicts {verdicts:?}\nreasons {reasons:?}\nroots {root_classes:?}\nseparators in disguise {separators:?}"
    );
    // Shown with --nocapture, to tune the weights.
    eprintln!("{report}");
    for op in [Op::Read, Op::Write] {
        for truth in [Truth::Inside, Truth::Outside, Truth::Either] {
            assert!(
                verdicts.get(&(op, truth)).copied().unwrap_or(0) >= 20,
                "{op} {truth} is rare\n{report}"
            );
        }
    }
    for r in [
        "NUL",
        "path too long",
        "name too long",
        "ENOENT",
        "ENOTDIR",
        "ELOOP",
        "trailing slash",
        "EISDIR",
        "link names a directory",
    ] {
        assert!(
            reasons.get(r).copied().unwrap_or(0) >= 3,
            "{r} is rare\n{report}"
        );
    }
    for class in [
        "valid",
        "WrongScheme",
        "Userinfo",
        "Port",
        "Host",
        "Query",
        "Fragment",
        "InvalidChar",
        "BadPercentEscape",
        "EncodedSlash",
        "EncodedNul",
    ] {
        assert!(
            root_classes.get(class).copied().unwrap_or(0) >= 2,
            "roots: {class} is rare\n{report}"
        );
    }
    for class in ["backslash", "%2F"] {
        assert!(
            separators.get(class).copied().unwrap_or(0) >= 5,
            "paths whose {class} read as a separator would lead elsewhere are rare\n{report}"
        );
    }
    assert!(
        root_classes.get("valid").copied().unwrap_or(0) * 2 > root_classes.values().sum::<usize>(),
        "{report}"
    );
}

/// Every byte a Linux name may hold that the generators must draw: every
/// ASCII control character, every ASCII punctuation mark but `/`, and
/// bytes that are not UTF-8.
fn the_alphabet() -> Vec<u8> {
    (1u8..=0x1f)
        .chain([0x7f])
        .chain((0x21u8..=0x7e).filter(|b| b.is_ascii_punctuation() && *b != b'/'))
        .chain([0x80, 0xff, 0xe9, 0xc3])
        .collect()
}

#[test]
fn scenarios_draw_the_whole_alphabet_everywhere() {
    let mut runner = TestRunner::deterministic();
    let strategy = scenario();
    // Where each byte was seen: in a tree name, as a tree name's last
    // byte, in a root's decoded path, in a case path, as its last byte.
    let mut seen: BTreeMap<(&str, u8), usize> = BTreeMap::new();
    let mut not_utf8: BTreeMap<&str, usize> = BTreeMap::new();
    for _ in 0..2000 {
        let s = strategy.new_tree(&mut runner).expect("generates").current();
        for entry in &s.tree {
            let name = entry.path().segments().last().unwrap_or_default();
            name.iter().for_each(|&b| tally(&mut seen, ("tree", b)));
            if let Some(&b) = name.last() {
                tally(&mut seen, ("tree, last", b));
            }
            if std::str::from_utf8(name).is_err() {
                tally(&mut not_utf8, "tree");
            }
            if let Entry::Symlink { target, .. } = entry {
                if !target.is_utf8() {
                    tally(&mut not_utf8, "target");
                }
            }
        }
        let t = s.substituted(BASE);
        for root in &t.roots {
            if let Ok(path) = parse_root_uri(root) {
                if let Some(rest) = path.strip_prefix(BASE.as_bytes()) {
                    rest.iter().for_each(|&b| tally(&mut seen, ("root", b)));
                    if std::str::from_utf8(rest).is_err() {
                        tally(&mut not_utf8, "root");
                    }
                }
            }
        }
        for case in &t.cases {
            let rest = case.path.strip_prefix(BASE).unwrap_or(case.path.as_bytes());
            rest.iter().for_each(|&b| tally(&mut seen, ("path", b)));
            if let Some(&b) = rest.last() {
                tally(&mut seen, ("path, last", b));
            }
            if !case.path.is_utf8() {
                tally(&mut not_utf8, "path");
            }
        }
    }
    for place in ["tree", "tree, last", "root", "path", "path, last"] {
        let missing: Vec<String> = the_alphabet()
            .into_iter()
            .filter(|&b| !seen.contains_key(&(place, b)))
            .map(|b| format!("{:?}", b as char))
            .collect();
        assert!(missing.is_empty(), "{place}: never drawn: {missing:?}");
    }
    eprintln!("not UTF-8: {not_utf8:?}");
    for place in ["tree", "target", "root", "path"] {
        assert!(
            not_utf8.get(place).copied().unwrap_or(0) >= 20,
            "names that are not UTF-8 are rare in {place}: {not_utf8:?}"
        );
    }
}

#[test]
fn root_uris_cover_every_rule() {
    let mut runner = TestRunner::deterministic();
    let strategy = root_uri();
    let mut classes = BTreeMap::new();
    for _ in 0..2000 {
        let uri = strategy.new_tree(&mut runner).expect("generates").current();
        let class = match parse_root_uri(&uri) {
            Ok(_) => "valid".to_owned(),
            Err(e) => format!("{e:?}")
                .split([' ', '{'])
                .next()
                .unwrap_or("")
                .to_owned(),
        };
        tally(&mut classes, class);
    }
    eprintln!("{classes:?}");
    for class in [
        "valid",
        "NoScheme",
        "WrongScheme",
        "Userinfo",
        "Port",
        "Host",
        "MissingPath",
        "NotAbsolute",
        "Query",
        "Fragment",
        "InvalidChar",
        "BadPercentEscape",
        "EncodedSlash",
        "EncodedNul",
    ] {
        assert!(
            classes.get(class).copied().unwrap_or(0) >= 10,
            "{class} is rare: {classes:?}"
        );
    }
}
