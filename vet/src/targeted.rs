//! Targeted queries around a random tree: the places where flawed
//! checkers are known to go wrong (links and `link/..`, writes through
//! links, sibling and case-variant names, separators in disguise, hostile
//! spellings of roots).

use rootguard_judge::{Case, Entry, Op, PathBytes, Scenario, BASE_PLACEHOLDER};

/// A small deterministic chooser (splitmix64), seeded from the run's seed.
#[derive(Debug, Clone)]
pub struct Pick(pub u64);

impl Pick {
    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        if n == 0 {
            0
        } else {
            (z % n as u64) as usize
        }
    }
}

/// The most cases one generated scenario carries.
const MAX_CASES: usize = 48;

/// `scenario` with targeted cases added, then scenarios on the same tree
/// with one root each: a plain root per directory, and hostile spellings.
pub fn expand(scenario: &Scenario, rng: &mut Pick) -> Vec<Scenario> {
    let mut out = Vec::new();
    let probes = probes(&scenario.tree);
    let mut first = scenario.clone();
    for case in &probes {
        if first.cases.len() >= MAX_CASES {
            break;
        }
        first.cases.push(case.clone());
    }
    out.push(first);
    let dirs = top_dirs(&scenario.tree);
    if dirs.is_empty() {
        return out;
    }
    let cases: Vec<Case> = probes.into_iter().take(MAX_CASES).collect();
    let root_dir = &dirs[rng.below(dirs.len())];
    let other = &dirs[rng.below(dirs.len())];
    let b = BASE_PLACEHOLDER;
    let mut roots_list = vec![vec![format!("file://{b}/{root_dir}")]];
    let hostile = [
        format!("file://srv{b}/{other}"),
        format!("\"file://{b}/{other}\""),
        format!(" file://{b}/{other} "),
        format!("file://{b}/{other}?x=1"),
        format!("file://{b}/{other}#f"),
        format!("file://{b}/{root_dir}%2F..%2F{other}"),
        format!("file://{b}/{root_dir}/%252e%252e/{other}"),
        format!("file://{b}/{root_dir}//../{other}"),
        format!("file://u@localhost{b}/{other}"),
        format!("file://localhost:22{b}/{other}"),
        format!("http://{b}/{other}"),
        format!("file:{b}/{other}%00"),
    ];
    roots_list.push(vec![hostile[rng.below(hostile.len())].clone()]);
    if rng.below(4) == 0 {
        roots_list.push(Vec::new());
    }
    for (number, roots) in roots_list.into_iter().enumerate() {
        let mut cases = cases.clone();
        if number == 0 {
            cases.extend(siblings_of_root(root_dir));
            cases.extend(disguised_separators(root_dir, other));
            if other != root_dir {
                cases.extend(long_ways_out(root_dir, other));
            }
        }
        out.push(Scenario {
            name: "generated-targeted".to_owned(),
            note: None,
            tree: scenario.tree.clone(),
            roots,
            cases,
        });
    }
    out
}

/// New files beside the root whose names start like it or differ only in
/// case: a text-prefix or case-folding comparison lets them through.
fn siblings_of_root(root_dir: &str) -> Vec<Case> {
    let b = BASE_PLACEHOLDER;
    let mut upper = root_dir.to_uppercase();
    if upper == root_dir {
        upper = root_dir.to_lowercase();
    }
    let mut names: Vec<String> = ["2", "-x", ".bak", "_", " "]
        .iter()
        .map(|s| format!("{root_dir}{s}"))
        .collect();
    if upper != root_dir {
        names.push(upper);
    }
    names
        .into_iter()
        .map(|name| Case {
            path: format!("{b}/{name}").into(),
            op: Op::Write,
            expect: None,
        })
        .collect()
}

/// Reads of `other` (beside the root) by paths that start in the root and
/// leave it only after 1,200 or 3,600 bytes of `/.`: a checker that cuts
/// the path short (a 255-, 1,024- or PATH_MAX-byte buffer) judges a
/// prefix that names the root itself.
fn long_ways_out(root_dir: &str, other: &str) -> Vec<Case> {
    let b = BASE_PLACEHOLDER;
    [600, 1800]
        .into_iter()
        .map(|units| Case {
            path: format!("{b}/{root_dir}{}/../{other}", "/.".repeat(units)).into(),
            op: Op::Read,
            expect: None,
        })
        .collect()
}

/// Names that differ from `notes.txt` only in a way some checker
/// "normalizes" away: surrounding whitespace (a no-break space too), a
/// trailing dot, case, a fullwidth letter, a combining accent, a
/// percent-escape, a zero-width space, a control character stripped, a
/// byte that is not UTF-8 dropped or replaced.
const DECOY_NAMES: &[&[u8]] = &[
    b"notes.txt ",
    "\u{a0}notes.txt".as_bytes(),
    b"notes.txt\t",
    b"notes.txt.",
    b"Notes.txt",
    "\u{ff4e}otes.txt".as_bytes(),
    "note\u{301}s.txt".as_bytes(),
    b"notes%2Etxt",
    "notes.txt\u{200b}".as_bytes(),
    b"notes.txt\r",
    b"notes\x7f.txt",
    b"notes.txt\xff",
    b"notes\xe9.txt",
];

/// `scenario`'s tree plus, in one of its top directories (the root),
/// links whose names are [`DECOY_NAMES`] and which lead out of it (to a
/// new file beside the root), each written through. The kernel follows
/// the link; a checker that normalizes the name first judges a new file
/// `notes.txt` in the root instead. A tree of its own, so a group of its
/// own; `None` when the tree has no directory or the root already holds
/// one of these names.
pub fn decoys(scenario: &Scenario, rng: &mut Pick) -> Option<Scenario> {
    let b = BASE_PLACEHOLDER;
    let dirs = top_dirs(&scenario.tree);
    if dirs.is_empty() {
        return None;
    }
    let root_dir = &dirs[rng.below(dirs.len())];
    let mut tree = scenario.tree.clone();
    let mut cases = Vec::new();
    for name in DECOY_NAMES {
        let path = PathBytes::from(format!("{root_dir}/")).join(name);
        if tree.iter().any(|e| *e.path() == path) {
            return None;
        }
        cases.push(Case {
            path: PathBytes::from(format!("{b}/")).join(&path),
            op: Op::Write,
            expect: None,
        });
        tree.push(Entry::Symlink {
            path,
            target: "../decoy-target.txt".into(),
        });
    }
    Some(Scenario {
        name: "generated-decoys".to_owned(),
        note: None,
        tree,
        roots: vec![format!("file://{b}/{root_dir}")],
        cases,
    })
}

/// New files outside the root whose names hold `\`, `%2F` or the text
/// `\u002f` (a JSON escape, for a checker that unescapes twice) where a
/// separator would lead into it: to the kernel one name in the base or
/// beside it, to a checker that reads them as `/`, a path into the root
/// (`other` is a directory, so its `..` resolves).
fn disguised_separators(root_dir: &str, other: &str) -> Vec<Case> {
    let b = BASE_PLACEHOLDER;
    [
        format!("{b}\\{root_dir}\\new.txt"),
        format!("{b}/{other}\\..\\{root_dir}\\new.txt"),
        format!("{b}%2F{root_dir}%2Fnew.txt"),
        format!("{b}/{other}%2F..%2F{root_dir}%2Fnew.txt"),
        // JSON escapes as text, for a checker that unescapes twice.
        format!("{b}\\u002f{root_dir}\\u002fnew.txt"),
        format!("{b}/{other}\\u002f\\u002e\\u002e\\u002f{root_dir}\\u002fnew.txt"),
    ]
    .into_iter()
    .map(|path| Case {
        path: path.into(),
        op: Op::Write,
        expect: None,
    })
    .collect()
}

/// The tree's top directories whose names a root URI may hold as they are
/// (UTF-8, no control character): the targeted roots are written raw.
fn top_dirs(tree: &[Entry]) -> Vec<String> {
    let mut dirs: Vec<String> = Vec::new();
    for entry in tree {
        let Some(path) = entry.path().to_str() else {
            continue;
        };
        let top = match path.split_once('/') {
            Some((top, _)) => top,
            None if matches!(entry, Entry::Dir { .. }) => path,
            None => continue,
        };
        if !top.chars().any(char::is_control) && !dirs.iter().any(|d| d == top) {
            dirs.push(top.to_owned());
        }
    }
    dirs
}

fn probes(tree: &[Entry]) -> Vec<Case> {
    // Bytes, not text: a name may be anything but `/` and NUL.
    let case = |parts: &[&[u8]], op: Op| Case {
        path: [&[BASE_PLACEHOLDER.as_bytes(), b"/"][..], parts]
            .concat()
            .concat()
            .into(),
        op,
        expect: None,
    };
    let mut cases = Vec::new();
    let names: Vec<&[u8]> = tree
        .iter()
        .filter_map(|e| e.path().segments().last())
        .take(4)
        .collect();
    for entry in tree {
        let p = entry.path().as_bytes();
        if let Entry::Symlink { .. } = entry {
            cases.push(case(&[p], Op::Read));
            cases.push(case(&[p], Op::Write));
            cases.push(case(&[p, b"/.."], Op::Read));
            cases.push(case(&[p, b"/new.txt"], Op::Write));
            for name in &names {
                cases.push(case(&[p, b"/", name], Op::Read));
                cases.push(case(&[p, b"/../", name], Op::Read));
            }
        }
    }
    for entry in tree {
        let p = entry.path().as_bytes();
        cases.push(case(&[p], Op::Read));
        if matches!(entry, Entry::File { .. }) {
            cases.push(case(&[p], Op::Write));
        }
        if matches!(entry, Entry::Dir { .. }) {
            cases.push(case(&[p, b"/new.txt"], Op::Write));
        }
    }
    cases
}
