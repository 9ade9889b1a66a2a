//! The systematic phase: one bounded list of scenarios, the same at every
//! seed, that drivers ask before anything random, so that what a run
//! finds does not hang on the seed for the classes a list can cover:
//!
//! - the catalogue's witnesses ([`witnesses`], corpus/witnesses.json): for
//!   each defect ID a scenario can show, one or more scenarios that show
//!   it to a checker with that flaw, named by the ID (`RG-LINK-CHAIN`,
//!   `RG-LINK-FOLLOWED/link-in`); among them every root-URI rule of
//!   docs/semantics.md broken alone, in a root that is otherwise valid;
//! - names derived from the root's name: each byte but `/` and NUL as a
//!   suffix and as a prefix, each character made a glob or regex
//!   metacharacter (`?`, `*`, `[c]`, `.`, ...), case and Unicode variants
//!   (NFC and NFD, fullwidth, dotless and dotted i, `ß` and `SS`), trailing
//!   dots and spaces; each as an existing sibling, a missing one and a new
//!   file beneath it ([`NameForm`]);
//! - link targets with the hostile features a request path can have: a
//!   link component followed by `..`, `//`, `.`, a trailing `/`, an
//!   absolute target into a sibling, a target through another dangling
//!   link, a missing component followed by `..`; for reads and writes, as
//!   the final component and as an intermediate one ([`LINK_TARGETS`]);
//! - paths past the caps resolvers put on them: more components than 32,
//!   40, 48, 64, 128, 255, 256, 1024 (and nearly `PATH_MAX` bytes of them),
//!   made of `.`, of `sub/..` and of real directories (up to 257 deep),
//!   each with a link out at the end ([`PATH_CAPS`]); and paths through more links than the
//!   budgets resolvers set, 8 to 40 ([`LINK_BUDGETS`]), as a chain and as
//!   one link named again and again. These come right after the
//!   witnesses: they are few queries, and a cap shows on nothing shorter.
//!
//! The boundary ladders are the covering array's ([`super::LADDER`]). Each
//! [`Item`] is one scenario with a name; [`systematic`] lists them all, and
//! a driver records the names it asked, so a test can hold every run to
//! the whole list.

use super::Variant;
use crate::{Case, Document, Entry, Op, PathBytes, Scenario, BASE_PLACEHOLDER};

/// The most cases one item's scenario carries; a longer family is split
/// into numbered parts.
pub const CASES_PER_ITEM: usize = 64;

/// One scenario of the systematic phase, with the family it stands for.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// `family/form` (and `/part N` when a family is split), unique in
    /// the list: `name-suffix-byte/sibling/part 2`.
    pub name: String,
    /// What is asked: a tree, roots and cases, `{base}` form.
    pub scenario: Scenario,
}

/// How a derived name is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameForm {
    /// It exists, a directory beside the root; read it and a file in it.
    Sibling,
    /// Nothing of that name exists; read it and write it.
    Missing,
    /// It exists; write a new file beneath it.
    NewFile,
}

impl NameForm {
    /// Every form, in the order they are asked.
    pub const ALL: [NameForm; 3] = [NameForm::Sibling, NameForm::Missing, NameForm::NewFile];

    fn as_str(self) -> &'static str {
        match self {
            NameForm::Sibling => "sibling",
            NameForm::Missing => "missing",
            NameForm::NewFile => "new-file",
        }
    }
}

/// The plain root every name family derives from.
const ROOT: &str = "project";

/// A second root for the case and Unicode families: an accent (NFC), `ß`
/// and an `i`, each of which folds or decomposes differently.
const UNICODE_ROOT: &str = "Café-Straße-is";

/// Glob and regular-expression metacharacters, each of which can stand
/// for some character of the root's name in a pattern, or be taken
/// literally by the kernel. `{c}` is the character it replaces.
const METACHARACTERS: [&str; 12] = [
    "?", "*", "[{c}]", ".", ".*", "\\{c}", "({c})", "{c}+", "[^/]", "{c}?", "[!/]", "{{c}}",
];

/// The catalogue's witnesses, scenario format v1: corpus/witnesses.json.
const WITNESSES: &str = include_str!("../../data/witnesses.json");

/// The prefix of a witness's item name: `witness/RG-LINK-CHAIN`.
pub const WITNESS_ITEM: &str = "witness/";

/// The catalogue's witnesses (corpus/witnesses.json), in the file's order:
/// each scenario is named by the defect ID it shows (`RG-PREFIX-SIBLING`),
/// or the ID and a `/` and what sets it apart (`RG-LINK-FOLLOWED/link-in`),
/// and every case carries the truth. The catalogue names its witnesses by
/// this prefix; rootguard-triage's tests hold every entry a scenario can
/// show to at least one.
pub fn witnesses() -> Vec<Scenario> {
    Document::from_json(WITNESSES)
        .map(|d| d.scenarios)
        // Data built into the binary: a unit test holds it valid.
        .expect("corpus/witnesses.json is a valid scenario document")
}

/// Links inside the root whose targets carry one hostile feature each,
/// `(name, target)`; the tree [`link_tree`] makes holds what they point
/// at: `project2/` beside the root with `deep/er/` and a file `x`, and
/// `project/la -> ../project2/deep/er`.
pub const LINK_TARGETS: [(&str, &str); 10] = [
    // A link component followed by `..`: `la/..` is `project2/deep`, not `project`.
    ("link-then-dotdot", "la/../x"),
    ("link-then-dotdot-missing", "la/../new"),
    ("double-slash", "..//project2/x"),
    ("dot", "./.././project2/./x"),
    ("trailing-slash", "../project2/"),
    ("absolute-into-sibling", "{base}/project2/x"),
    ("absolute-sibling-missing", "{base}/project2/new"),
    // Through `dangling`, itself a link to a missing name in the sibling.
    ("through-dangling-link", "dangling"),
    ("missing-then-dotdot", "nope/../../project2/x"),
    ("dotdot-back-in", "../project/../project2/x"),
];

/// Component caps resolvers are written with (a table of 32 or 48 slots,
/// a `u8` count, a recursion guard, 1024): each is asked one past. A
/// resolver past its cap that falls back to the path's text lets out the
/// link at the end.
pub const PATH_CAPS: [usize; 8] = [32, 40, 48, 64, 128, 255, 256, 1024];

/// `.` components that bring a path near `PATH_MAX` (4,096 bytes, with a
/// base of up to about 250), past every cap of [`PATH_CAPS`].
const NEAR_PATH_MAX: usize = 1900;

/// The deepest real directories asked: resolving a path costs a checker
/// time quadratic in its depth (`realpath` looks up every prefix), and a
/// tree 1,025 deep took a real server's check over 10 s. Past this the
/// `.` and `sub/..` paddings ask the caps alone.
const DEEPEST: usize = 257;

/// Link budgets resolvers set (Linux follows 40): each is asked one past,
/// 40 itself at the limit.
pub const LINK_BUDGETS: [usize; 6] = [8, 12, 16, 20, 32, 39];

/// Every item of the systematic phase, in the order they are asked; the
/// same list at every seed.
pub fn systematic() -> Vec<Item> {
    let mut items: Vec<Item> = witnesses()
        .into_iter()
        .map(|scenario| Item {
            name: format!("{WITNESS_ITEM}{}", scenario.name),
            scenario: Scenario {
                name: format!("systematic: {WITNESS_ITEM}{}", scenario.name),
                ..scenario
            },
        })
        .collect();
    long_path_items(&mut items);
    items.push(link_count_item());
    for (family, root, names) in name_families() {
        for form in NameForm::ALL {
            let cases: Vec<Case> = names.iter().flat_map(|n| name_cases(n, form)).collect();
            let tree = |part: &[PathBytes]| -> Vec<Entry> {
                let mut tree = vec![Entry::Dir { path: root.into() }];
                if form != NameForm::Missing {
                    tree.extend(part.iter().map(|n| Entry::Dir { path: n.clone() }));
                }
                tree
            };
            let per_name = cases.len() / names.len().max(1);
            let names_per_part = (CASES_PER_ITEM / per_name.max(1)).max(1);
            let parts: Vec<&[PathBytes]> = names.chunks(names_per_part).collect();
            let split = parts.len() > 1;
            for (number, part) in parts.into_iter().enumerate() {
                let name = if split {
                    format!("{family}/{}/part {}", form.as_str(), number + 1)
                } else {
                    format!("{family}/{}", form.as_str())
                };
                items.push(Item {
                    scenario: Scenario {
                        name: format!("systematic: {name}"),
                        note: None,
                        tree: tree(part),
                        roots: vec![format!("file://{BASE_PLACEHOLDER}/{root}")],
                        cases: part.iter().flat_map(|n| name_cases(n, form)).collect(),
                    },
                    name,
                });
            }
        }
    }
    items.push(link_item());
    items
}

/// How a long path is made long.
#[derive(Clone, Copy)]
enum Padding {
    /// `./` again and again.
    Dot,
    /// `sub/..` again and again.
    DotDot,
    /// Real directories, `d/d/d/...`, with the link at the bottom.
    Deep,
}

/// One item per [`Padding`]: each of [`PATH_CAPS`] passed by one
/// component, a read through a link out at the end, a write beneath it
/// and a write of a dangling final link out.
fn long_path_items(items: &mut Vec<Item>) {
    let base = BASE_PLACEHOLDER;
    for (style, padding) in [
        ("dot", Padding::Dot),
        ("dotdot", Padding::DotDot),
        ("deep", Padding::Deep),
    ] {
        let mut tree = vec![
            Entry::Dir {
                path: "project/sub".into(),
            },
            Entry::File {
                path: "outside/secret.txt".into(),
                content: None,
            },
        ];
        let mut sizes: Vec<usize> = PATH_CAPS.iter().map(|c| c + 1).collect();
        match padding {
            Padding::Dot => sizes.push(NEAR_PATH_MAX),
            Padding::DotDot => {}
            Padding::Deep => sizes.retain(|&n| n <= DEEPEST),
        }
        let mut cases = Vec::new();
        for count in sizes {
            let pad = match padding {
                Padding::Dot => "./".repeat(count),
                Padding::DotDot => "sub/../".repeat(count.div_ceil(2)),
                Padding::Deep => "d/".repeat(count),
            };
            // Real directories hold their own links, at each depth.
            let (out, dangling) = match padding {
                Padding::Deep => {
                    let (out, dangling) = (
                        format!("project/{pad}out"),
                        format!("project/{pad}dangling"),
                    );
                    tree.push(link_entry(&out, &format!("{base}/outside")));
                    tree.push(link_entry(
                        &dangling,
                        &format!("{base}/outside/new-{count}.txt"),
                    ));
                    (out, dangling)
                }
                _ => (
                    format!("project/{pad}out"),
                    format!("project/{pad}dangling"),
                ),
            };
            cases.push(case(format!("{base}/{out}/secret.txt").into(), Op::Read));
            cases.push(case(format!("{base}/{out}/new.txt").into(), Op::Write));
            cases.push(case(format!("{base}/{dangling}").into(), Op::Write));
        }
        if !matches!(padding, Padding::Deep) {
            tree.push(link_entry("project/out", "../outside"));
            tree.push(link_entry("project/dangling", "../outside/new.txt"));
        }
        let name = format!("long-path/{style}");
        items.push(Item {
            scenario: Scenario {
                name: format!("systematic: {name}"),
                note: Some("a resolver that gives up past a number of components and judges the text lets the link at the end out".to_owned()),
                tree,
                roots: vec![format!("file://{base}/project")],
                cases,
            },
            name,
        });
    }
}

/// Paths through one link more than each of [`LINK_BUDGETS`]: a chain of
/// 40 links out entered part way, and a link to `.` named again and again
/// before a `..` that climbs out.
fn link_count_item() -> Item {
    let base = BASE_PLACEHOLDER;
    let chain = 40;
    let mut tree = vec![
        Entry::File {
            path: "outside/secret.txt".into(),
            content: None,
        },
        link_entry("project/l", "."),
    ];
    for k in 1..=chain {
        let target = if k == chain {
            "../outside".to_owned()
        } else {
            format!("c{}", k + 1)
        };
        tree.push(link_entry(&format!("project/c{k}"), &target));
    }
    let mut cases = Vec::new();
    for budget in LINK_BUDGETS {
        let links = budget + 1;
        // Entering at `c{k}` follows `chain - k + 1` links.
        let via = format!("{base}/project/c{}", chain + 1 - links);
        cases.push(case(format!("{via}/secret.txt").into(), Op::Read));
        cases.push(case(format!("{via}/new.txt").into(), Op::Write));
        let again = format!("{base}/project/{}../outside", "l/".repeat(links));
        cases.push(case(format!("{again}/secret.txt").into(), Op::Read));
        cases.push(case(format!("{again}/new.txt").into(), Op::Write));
    }
    let name = "link-count/chain-and-repeated".to_owned();
    Item {
        scenario: Scenario {
            name: format!("systematic: {name}"),
            note: Some("a resolver that stops following links past a budget and judges the rest as text lets these out".to_owned()),
            tree,
            roots: vec![format!("file://{base}/project")],
            cases,
        },
        name,
    }
}

fn link_entry(path: &str, target: &str) -> Entry {
    Entry::Symlink {
        path: path.into(),
        target: target.into(),
    }
}

fn case(path: PathBytes, op: Op) -> Case {
    Case {
        path,
        op,
        expect: None,
    }
}

/// The cases that ask `name` (a directory name beside the root) in `form`.
fn name_cases(name: &PathBytes, form: NameForm) -> Vec<Case> {
    let under = |parent: &[u8], leaf: &[u8]| -> PathBytes {
        let mut bytes = parent.to_vec();
        bytes.push(b'/');
        bytes.extend_from_slice(leaf);
        bytes.into()
    };
    let path = under(BASE_PLACEHOLDER.as_bytes(), name.as_bytes());
    let beneath = |leaf: &str| under(path.as_bytes(), leaf.as_bytes());
    match form {
        NameForm::Sibling => vec![case(path.clone(), Op::Read), case(beneath("a"), Op::Read)],
        NameForm::Missing => vec![case(path.clone(), Op::Read), case(path.clone(), Op::Write)],
        NameForm::NewFile => vec![case(beneath("new.txt"), Op::Write)],
    }
}

/// The name families: `(family, root, names)`, each name a sibling of
/// `root` beneath the base, none equal to it.
fn name_families() -> Vec<(&'static str, &'static str, Vec<PathBytes>)> {
    let bytes: Vec<u8> = (1..=255u8).filter(|&b| b != b'/').collect();
    let with = |f: &dyn Fn(u8) -> Vec<u8>| -> Vec<PathBytes> {
        bytes.iter().map(|&b| PathBytes::from(f(b))).collect()
    };
    let suffixes = with(&|b| {
        let mut name = ROOT.as_bytes().to_vec();
        name.push(b);
        name
    });
    // `.project` and `..project` are names too; a prefix of `.` alone is one.
    let prefixes = with(&|b| {
        let mut name = vec![b];
        name.extend_from_slice(ROOT.as_bytes());
        name
    });
    let mut patterns: Vec<PathBytes> = Vec::new();
    let chars: Vec<char> = ROOT.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        for meta in METACHARACTERS {
            let meta = meta.replace("{c}", &c.to_string());
            let name: String = chars[..i].iter().collect::<String>()
                + &meta
                + &chars[i + 1..].iter().collect::<String>();
            push_unique(&mut patterns, name, ROOT);
        }
    }
    // A pattern for the whole name, and for its tail.
    for name in [
        "*",
        "?roject",
        "pro*",
        "proj*t",
        "[a-z]*",
        ".*",
        "^project$",
        "project|x",
    ] {
        push_unique(&mut patterns, name.to_owned(), ROOT);
    }
    let mut trailing: Vec<PathBytes> = Vec::new();
    for tail in [".", "..", " ", "  ", ". ", " .", "...", "\t", ".\u{3000}"] {
        push_unique(&mut trailing, format!("{ROOT}{tail}"), ROOT);
    }
    let mut unicode: Vec<PathBytes> = Vec::new();
    let nfd = UNICODE_ROOT.replace('é', "e\u{301}");
    for name in [
        nfd,
        variant(Variant::Upper, UNICODE_ROOT),
        UNICODE_ROOT.to_lowercase(),
        UNICODE_ROOT.replace('ß', "ss"),
        UNICODE_ROOT.replace('ß', "SS"),
        UNICODE_ROOT.replace('i', "ı"),
        UNICODE_ROOT.replace('i', "İ"),
        UNICODE_ROOT.replace('C', "Ｃ"),
        variant(Variant::Fullwidth, UNICODE_ROOT),
        UNICODE_ROOT.replace('é', "e"),
        UNICODE_ROOT.replace('-', "\u{2010}"),
        format!("{UNICODE_ROOT}\u{200B}"),
        format!("{UNICODE_ROOT}\u{FEFF}"),
    ] {
        push_unique(&mut unicode, name, UNICODE_ROOT);
    }
    let mut case_variants: Vec<PathBytes> = Vec::new();
    for name in [
        variant(Variant::Upper, ROOT),
        variant(Variant::Capitalized, ROOT),
        "projecT".to_owned(),
        "pRoJeCt".to_owned(),
    ] {
        push_unique(&mut case_variants, name, ROOT);
    }
    vec![
        ("name-suffix-byte", ROOT, suffixes),
        ("name-prefix-byte", ROOT, prefixes),
        ("name-pattern", ROOT, patterns),
        ("name-trailing", ROOT, trailing),
        ("name-case", ROOT, case_variants),
        ("name-unicode", UNICODE_ROOT, unicode),
    ]
}

/// The generators' own `variant` of a name that is text.
fn variant(variant: Variant, name: &str) -> String {
    String::from_utf8_lossy(&variant.apply(name.as_bytes())).into_owned()
}

/// Adds `name` unless it is the root's own, a `.` or `..`, holds a `/`,
/// or is there already.
fn push_unique(names: &mut Vec<PathBytes>, name: String, root: &str) {
    let bad = name == root || name == "." || name == ".." || name.contains('/');
    let name = PathBytes::from(name);
    if !bad && !names.contains(&name) {
        names.push(name);
    }
}

/// The tree of the link item: the root with a subdirectory, the sibling
/// `project2` with `deep/er/` and files, `la` into the sibling,
/// `dangling` to a missing name there, and one link per [`LINK_TARGETS`].
pub fn link_tree() -> Vec<Entry> {
    let dir = |p: &str| Entry::Dir { path: p.into() };
    let file = |p: &str| Entry::File {
        path: p.into(),
        content: None,
    };
    let link = |p: &str, t: &str| Entry::Symlink {
        path: p.into(),
        target: t.into(),
    };
    let mut tree = vec![
        dir("project"),
        dir("project/sub"),
        dir("project2"),
        dir("project2/deep"),
        dir("project2/deep/er"),
        file("project2/x"),
        file("project2/deep/x"),
        link("project/la", "../project2/deep/er"),
        link("project/dangling", "../project2/made-by-write"),
    ];
    for (name, target) in LINK_TARGETS {
        tree.push(link(&format!("project/{name}"), target));
    }
    tree
}

/// Every link of [`LINK_TARGETS`], read and written, as the final
/// component and with a name beneath it.
fn link_item() -> Item {
    let mut cases = Vec::new();
    for (name, _) in LINK_TARGETS {
        let path = PathBytes::from(format!("{BASE_PLACEHOLDER}/project/{name}"));
        for op in [Op::Read, Op::Write] {
            cases.push(case(path.clone(), op));
            cases.push(case(
                format!("{BASE_PLACEHOLDER}/project/{name}/f").into(),
                op,
            ));
        }
    }
    let name = "link-target/final-and-intermediate".to_owned();
    Item {
        scenario: Scenario {
            name: format!("systematic: {name}"),
            note: None,
            tree: link_tree(),
            roots: vec![format!("file://{BASE_PLACEHOLDER}/project")],
            cases,
        },
        name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::parse_root_uri;

    #[test]
    fn every_item_is_a_valid_scenario_with_a_unique_name() {
        let items = systematic();
        let mut names: Vec<&str> = items.iter().map(|i| i.name.as_str()).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(names.len(), before, "item names repeat");
        let mut queries = 0;
        for item in &items {
            item.scenario
                .validate()
                .unwrap_or_else(|e| panic!("{}: {e}", item.name));
            assert!(item.scenario.cases.len() <= CASES_PER_ITEM, "{}", item.name);
            queries += item.scenario.cases.len();
        }
        // Bounded: a few thousand queries, under a second on a fast checker.
        assert_eq!((items.len(), queries), (107, 3266));
        assert_eq!(systematic(), items, "the list is the same every time");
    }

    #[test]
    fn every_root_uri_witness_breaks_a_rule() {
        let witnesses = witnesses();
        let rules: Vec<&Scenario> = witnesses
            .iter()
            .filter(|w| w.name.starts_with("RG-ROOT-URI-") && w.roots.len() == 1)
            .filter(|w| parse_root_uri(&w.roots[0].replace(BASE_PLACEHOLDER, "/b")).is_err())
            .collect();
        assert_eq!(
            rules.len(),
            13,
            "one witness per rule of semantics.md section 1"
        );
        for w in witnesses {
            for case in &w.cases {
                assert!(
                    case.expect.is_some(),
                    "{}: a case without its truth",
                    w.name
                );
            }
        }
    }

    #[test]
    fn the_name_families_hold_what_the_docs_say() {
        let families = name_families();
        let get = |f: &str| &families.iter().find(|(n, _, _)| *n == f).expect(f).2;
        assert_eq!(get("name-suffix-byte").len(), 254);
        assert_eq!(get("name-prefix-byte").len(), 254);
        let patterns = get("name-pattern");
        for wanted in ["[p]roject", "pro*", "?roject", "projec?", "p.oject"] {
            assert!(patterns.contains(&wanted.into()), "{wanted}");
        }
        let unicode = get("name-unicode");
        assert!(unicode.contains(&"Cafe\u{301}-Straße-is".into()));
        assert!(unicode.contains(&"Café-Strasse-is".into()));
        assert!(unicode.contains(&"Café-Straße-ıs".into()));
        assert!(get("name-trailing").contains(&"project.".into()));
        // Every case path is a name beneath the base, or beneath such a name.
        for item in systematic() {
            for case in &item.scenario.cases {
                assert!(
                    case.path.starts_with(b"{base}/"),
                    "{}: {:?}",
                    item.name,
                    case.path
                );
            }
        }
    }
}
