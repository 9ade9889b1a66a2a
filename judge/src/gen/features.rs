//! The hostile features as a vocabulary, and a 3-way covering array over
//! it: rare escapes need two or three features at once (a link deep in a
//! long path, a dangling final link beneath a chain, a sibling after `..`),
//! so every triple of features gets a scenario of its own
//! ([`covering_array`], [`combination`]), each walking a boundary ladder
//! ([`LADDER`]) where a feature has a size a checker might cap.

use std::fmt;

use crate::{Case, Entry, Op, Scenario, BASE_PLACEHOLDER};

/// One hostile feature of a query, its tree or its roots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Feature {
    /// A component that does not exist (a new file for a write).
    MissingComponent,
    /// `..`: `sub/..` that climbs back in, or `link/..` after a link.
    DotDot,
    /// `.`
    Dot,
    /// An empty segment: `//`.
    DoubleSlash,
    /// A trailing `/`.
    TrailingSlash,
    /// A link out of the root.
    LinkOut,
    /// A link into the root (from inside it).
    LinkIn,
    /// A final link that dangles out of the root.
    DanglingFinalLink,
    /// A chain of links, its length on the ladder (up to 41).
    Chain,
    /// A link to itself.
    Loop,
    /// A sibling of the root's name: `project2`.
    SiblingSuffix,
    /// A case or Unicode variant of the root's name.
    Variant,
    /// A long component, its length on the ladder (up to NAME_MAX).
    LongComponent,
    /// Many components, their count on the ladder (up past PATH_MAX).
    ManyComponents,
    /// A root URI in an odd spelling, valid or not.
    RootUriOddity,
    /// The path's lexically cleaned spelling asked too: what a checker
    /// that answers `use` with a cleaned path would name.
    UseRewrite,
}

/// Every feature, in the order of the vocabulary.
pub const FEATURES: [Feature; 16] = [
    Feature::MissingComponent,
    Feature::DotDot,
    Feature::Dot,
    Feature::DoubleSlash,
    Feature::TrailingSlash,
    Feature::LinkOut,
    Feature::LinkIn,
    Feature::DanglingFinalLink,
    Feature::Chain,
    Feature::Loop,
    Feature::SiblingSuffix,
    Feature::Variant,
    Feature::LongComponent,
    Feature::ManyComponents,
    Feature::RootUriOddity,
    Feature::UseRewrite,
];

impl Feature {
    /// Its name in kebab case, as `vet --stats` prints it.
    pub fn name(self) -> &'static str {
        match self {
            Feature::MissingComponent => "missing-component",
            Feature::DotDot => "dot-dot",
            Feature::Dot => "dot",
            Feature::DoubleSlash => "double-slash",
            Feature::TrailingSlash => "trailing-slash",
            Feature::LinkOut => "link-out",
            Feature::LinkIn => "link-in",
            Feature::DanglingFinalLink => "dangling-final-link",
            Feature::Chain => "chain",
            Feature::Loop => "loop",
            Feature::SiblingSuffix => "sibling-suffix",
            Feature::Variant => "variant",
            Feature::LongComponent => "long-component",
            Feature::ManyComponents => "many-components",
            Feature::RootUriOddity => "root-uri-oddity",
            Feature::UseRewrite => "use-rewrite",
        }
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A triple of distinct features, in vocabulary order.
pub type Triple = [Feature; 3];

/// The 3-way covering array: every triple of [`FEATURES`], each one row
/// (560 rows), so that no two features of a triple share a scenario with a
/// fourth that could mask them.
pub fn covering_array() -> Vec<Triple> {
    let mut rows = Vec::new();
    for (i, &a) in FEATURES.iter().enumerate() {
        for (j, &b) in FEATURES.iter().enumerate().skip(i + 1) {
            for &c in FEATURES.iter().skip(j + 1) {
                rows.push([a, b, c]);
            }
        }
    }
    rows
}

/// The boundary ladder: every power of two, with one either side, up past
/// PATH_MAX (4,096 bytes, about 2,048 `./` components), in groups of three.
pub const LADDER: [[usize; 3]; 12] = [
    [1, 2, 3],
    [3, 4, 5],
    [7, 8, 9],
    [15, 16, 17],
    [31, 32, 33],
    [63, 64, 65],
    [127, 128, 129],
    [255, 256, 257],
    [511, 512, 513],
    [1023, 1024, 1025],
    [2047, 2048, 2049],
    [4095, 4096, 4097],
];

/// The ladder's top for link counts: one either side of Linux's limit of 40.
const LINK_LIMIT: [usize; 3] = [39, 40, 41];

/// The ladder's top for name lengths: NAME_MAX (255; 256 cannot be made).
const NAME_LIMIT: [usize; 3] = [253, 254, 255];

/// Group `rung` (modulo their number) of the ladder's groups below
/// `limit`, then `limit` itself.
fn rungs(rung: usize, limit: [usize; 3]) -> [usize; 3] {
    let groups: Vec<[usize; 3]> = LADDER
        .iter()
        .copied()
        .take_while(|g| g[2] < limit[0])
        .chain(std::iter::once(limit))
        .collect();
    groups[rung % groups.len()]
}

/// Root URIs of the root `{base}/project` in odd spellings: valid ones
/// first, then ones semantics.md refuses.
const ODD_ROOTS: &[&str] = &[
    "file://localhost{base}/project",
    "file:{base}/project",
    "file://{base}/project/",
    "file://LocalHost{base}/project/.",
    "file://{base}/pr%6Fject",
    "file://{base}/sub/../project",
    "file://srv{base}/outside",
    "file://{base}/project%2F..%2Foutside",
    "file://{base}/project/%2e%2e/outside",
    "file:{base}/outside?x=1",
];

/// The root's variants: case, fullwidth.
const VARIANTS: &[&str] = &["Project", "PROJECT", "ｐｒｏｊｅｃｔ"];

/// The scenario of one row of the covering array: a tree holding what
/// each feature needs, the root `{base}/project` (or an odd spelling of
/// it), and a read and a write of a path combining the features, at each
/// rung of one ladder group (`rung` picks it, modulo the groups).
///
/// # Examples
///
/// ```
/// use rootguard_judge::gen::{combination, covering_array};
///
/// for (i, row) in covering_array().iter().enumerate() {
///     assert!(combination(row, i).validate().is_ok());
/// }
/// ```
pub fn combination(features: &[Feature], rung: usize) -> Scenario {
    let has = |f| features.contains(&f);
    let b = BASE_PLACEHOLDER;
    let head = match (has(Feature::Variant), has(Feature::SiblingSuffix)) {
        (false, false) => "project".to_owned(),
        (false, true) => "project2".to_owned(),
        (true, sibling) => {
            let variant = VARIANTS[rung % VARIANTS.len()];
            if sibling {
                format!("{variant}2")
            } else {
                variant.to_owned()
            }
        }
    };
    let name_len = rungs(rung, NAME_LIMIT);
    let long = |i: usize| "n".repeat(name_len[i]);
    let links = rungs(rung, LINK_LIMIT);
    let mut tree = Tree::default();
    let mut places = vec![
        "project".to_owned(),
        "project/sub".to_owned(),
        "outside".to_owned(),
    ];
    if head != "project" {
        places.push(head.clone());
    }
    for dir in &places {
        tree.dir(dir);
        tree.file(&format!("{dir}/secret.txt"));
    }
    tree.file("secret.txt");
    if has(Feature::LinkOut) {
        tree.link(&format!("{head}/out"), "../outside");
    }
    if has(Feature::LinkIn) {
        tree.link(&format!("{head}/in"), &format!("{b}/project/sub"));
    }
    let chain_end = if has(Feature::LinkOut) {
        "out"
    } else if has(Feature::LinkIn) {
        "in"
    } else {
        "../outside"
    };
    let chain_len = links[2];
    if has(Feature::Chain) {
        for k in 1..=chain_len {
            let target = if k == chain_len {
                chain_end.to_owned()
            } else {
                format!("c{}", k + 1)
            };
            tree.link(&format!("{head}/c{k}"), &target);
        }
    }
    if has(Feature::LongComponent) {
        for i in 0..3 {
            tree.dir(&format!("{head}/{}", long(i)));
        }
    }
    for dir in &places {
        if has(Feature::DanglingFinalLink) {
            tree.link(&format!("{dir}/dangling"), &format!("{b}/outside/new.txt"));
        }
        if has(Feature::Loop) {
            tree.link(&format!("{dir}/loop"), "loop");
        }
    }
    let roots = if has(Feature::RootUriOddity) {
        vec![ODD_ROOTS[rung % ODD_ROOTS.len()].to_owned()]
    } else {
        vec![format!("file://{b}/project")]
    };
    let mut cases = Vec::new();
    for i in 0..3 {
        let mut segments: Vec<String> = vec![head.clone()];
        if has(Feature::Dot) {
            segments.push(".".to_owned());
        }
        if has(Feature::DoubleSlash) {
            segments.push(String::new());
        }
        if has(Feature::ManyComponents) {
            let count = LADDER[rung % LADDER.len()][i];
            segments.extend(std::iter::repeat_n(".".to_owned(), count));
        }
        if has(Feature::LongComponent) {
            segments.push(long(i));
            segments.push("..".to_owned());
        }
        let via = if has(Feature::Chain) {
            // Entering the chain at `c{k}` walks `chain_len - k + 1` links.
            Some(format!("c{}", chain_len + 1 - links[i]))
        } else if has(Feature::LinkOut) {
            Some("out".to_owned())
        } else if has(Feature::LinkIn) {
            Some("in".to_owned())
        } else {
            None
        };
        match (&via, has(Feature::DotDot)) {
            (Some(via), true) => {
                segments.push(via.clone());
                segments.push("..".to_owned());
            }
            (Some(via), false) => segments.push(via.clone()),
            (None, true) => {
                segments.push("sub".to_owned());
                segments.push("..".to_owned());
            }
            (None, false) => {}
        }
        if has(Feature::MissingComponent) {
            segments.push("missing".to_owned());
        }
        if has(Feature::DanglingFinalLink) {
            segments.push("dangling".to_owned());
        } else if has(Feature::Loop) {
            segments.push("loop".to_owned());
        } else if has(Feature::MissingComponent) {
            segments.pop();
            segments.push("new.txt".to_owned());
        } else {
            segments.push("secret.txt".to_owned());
        }
        let mut path = format!("{b}/{}", segments.join("/"));
        if has(Feature::TrailingSlash) {
            path.push('/');
        }
        let mut paths = vec![path];
        if has(Feature::UseRewrite) {
            paths.push(lexically_clean(&paths[0]));
        }
        for path in paths {
            for op in [Op::Read, Op::Write] {
                cases.push(Case {
                    path: path.clone().into(),
                    op,
                    expect: None,
                });
            }
        }
    }
    let names: Vec<&str> = features.iter().map(|f| f.name()).collect();
    Scenario {
        name: format!("covering:{}", names.join("+")),
        note: None,
        tree: tree.entries,
        roots,
        cases,
    }
}

/// `path` with `.`, empty segments and `..` taken as text.
fn lexically_clean(path: &str) -> String {
    let mut kept: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                kept.pop();
            }
            s => kept.push(s),
        }
    }
    let joined = kept.join("/");
    if joined.starts_with(BASE_PLACEHOLDER) {
        joined
    } else {
        format!("/{joined}")
    }
}

/// A tree under construction: each path once, parents made first.
#[derive(Default)]
struct Tree {
    entries: Vec<Entry>,
}

impl Tree {
    fn taken(&self, path: &str) -> bool {
        self.entries.iter().any(|e| e.path() == path)
    }

    fn dir(&mut self, path: &str) {
        if !self.taken(path) {
            self.entries.push(Entry::Dir { path: path.into() });
        }
    }

    fn file(&mut self, path: &str) {
        if !self.taken(path) {
            self.entries.push(Entry::File {
                path: path.into(),
                content: None,
            });
        }
    }

    fn link(&mut self, path: &str, target: &str) {
        if !self.taken(path) {
            self.entries.push(Entry::Symlink {
                path: path.into(),
                target: target.into(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_array_covers_every_triple_once() {
        let rows = covering_array();
        assert_eq!(rows.len(), 16 * 15 * 14 / 6);
        let distinct: std::collections::BTreeSet<_> = rows.iter().collect();
        assert_eq!(distinct.len(), rows.len());
    }

    #[test]
    fn a_chain_is_entered_at_each_rung() {
        // Rung 5 of the link ladder is its top: 39, 40 and 41 links.
        let scenario = combination(&[Feature::Chain, Feature::LinkOut, Feature::Dot], 5);
        assert_eq!(rungs(5, LINK_LIMIT), LINK_LIMIT);
        let links = scenario
            .tree
            .iter()
            .filter(|e| e.path().starts_with("project/c"))
            .count();
        assert_eq!(links, 41);
        assert_eq!(scenario.cases[0].path, "{base}/project/./c3/secret.txt");
        assert_eq!(scenario.cases[4].path, "{base}/project/./c1/secret.txt");
    }

    #[test]
    fn many_components_walk_the_ladder_past_path_max() {
        let scenario = combination(
            &[Feature::ManyComponents, Feature::LinkOut, Feature::Dot],
            LADDER.len() - 1,
        );
        assert!(scenario.cases.last().unwrap().path.len() > 4096 * 2);
    }

    #[test]
    fn the_rewrite_is_the_lexical_spelling() {
        assert_eq!(
            lexically_clean("{base}/project/./out/../secret.txt"),
            "{base}/project/secret.txt"
        );
    }
}
