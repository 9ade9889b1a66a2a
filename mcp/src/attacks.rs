//! The hostile scenarios: each a small tree in the base, the root `proj`,
//! canaries outside it, and one tool call with a hostile path.
//!
//! Every link stays inside the base, so nothing real is ever at risk:
//! "outside" is a sibling in the base (`proj2`, `out`, `PROJ`, `proj `),
//! holding canary files whose content carries the run's token.

use rootguard_proptests::{Entry, Op};

use crate::tools::Action;

/// The root directory of every attack, relative to the base.
pub const ROOT: &str = "proj";

/// One hostile tool call on a small tree.
#[derive(Debug, Clone)]
pub struct Attack {
    /// A short name, e.g. `sibling-prefix-read`.
    pub name: &'static str,
    /// What it tries, in words.
    pub note: &'static str,
    /// The tool it needs.
    pub action: Action,
    /// The tree, relative to the base; file contents hold `{token}`.
    pub tree: Vec<Entry>,
    /// The paths passed to the tool (`{base}` form); a move's second is its destination.
    pub paths: Vec<String>,
    /// The scenario case that names the hostile target: index into `paths`, and its op.
    pub case: (usize, Op),
    /// A hostile root the client lists after `proj` (roots mode only): a URI
    /// that grants nothing under docs/semantics.md §1, so a server that
    /// lets it grant `out` has a root escape.
    pub hostile_root: Option<&'static str>,
}

/// The placeholder in canary contents and names for the run's token.
pub const TOKEN: &str = "{token}";

fn dir(path: &str) -> Entry {
    Entry::Dir { path: path.into() }
}

fn canary(path: &str) -> Entry {
    Entry::File {
        path: path.into(),
        content: Some(format!("CANARY-{TOKEN}\n")),
    }
}

fn file(path: &str) -> Entry {
    Entry::File {
        path: path.into(),
        content: Some("inside\n".into()),
    }
}

fn link(path: &str, target: &str) -> Entry {
    Entry::Symlink {
        path: path.into(),
        target: target.into(),
    }
}

fn at(path: &str) -> String {
    format!("{{base}}/{path}")
}

fn attack(
    name: &'static str,
    note: &'static str,
    action: Action,
    tree: Vec<Entry>,
    paths: &[&str],
    case: (usize, Op),
) -> Attack {
    Attack {
        name,
        note,
        action,
        tree,
        paths: paths.iter().map(|p| at(p)).collect(),
        case,
        hostile_root: None,
    }
}

/// Root URIs that count for nothing (docs/semantics.md §1) but that a
/// lenient parser reads as `{base}/out`, with the rule each breaks.
pub const HOSTILE_ROOTS: [(&str, &str); 12] = [
    ("root-query", "file://{base}/out?x=1"),
    ("root-fragment", "file://{base}/out#x"),
    ("root-bare-path", "{base}/out"),
    ("root-relative-path", "../out"),
    ("root-trailing-space", "file://{base}/out "),
    ("root-backslash", "file://{base}\\out"),
    ("root-tab", "file://{base}/o\tut"),
    ("root-host", "file://rootguard.invalid{base}/out"),
    ("root-userinfo", "file://u@localhost{base}/out"),
    ("root-port", "file://localhost:22{base}/out"),
    ("root-encoded-slash", "file://{base}/proj%2F..%2Fout"),
    ("root-nul", "file://{base}/out%00"),
];

/// One attack per hostile root: the client lists `proj` and the hostile
/// root, then reads a canary in `out`.
pub fn root_attacks() -> Vec<Attack> {
    HOSTILE_ROOTS
        .iter()
        .map(|(name, uri)| Attack {
            hostile_root: Some(uri),
            ..attack(
                name,
                "a root URI that grants nothing, read leniently",
                Action::Read,
                vec![dir("proj"), canary("out/secret.txt")],
                &["out/secret.txt"],
                (0, Op::Read),
            )
        })
        .collect()
}

/// Every attack, reads first.
pub fn all() -> Vec<Attack> {
    use Action::*;
    let r = (0, Op::Read);
    let w = (0, Op::Write);
    let listed = || canary(&format!("proj2/listed-{TOKEN}"));
    vec![
        attack(
            "sibling-prefix-read",
            "proj2 shares the text prefix of the root proj",
            Read,
            vec![dir("proj"), canary("proj2/secret.txt")],
            &["proj2/secret.txt"],
            r,
        ),
        attack(
            "dotdot-read",
            ".. climbs out of the root",
            Read,
            vec![dir("proj"), canary("out/secret.txt")],
            &["proj/../out/secret.txt"],
            r,
        ),
        attack(
            "symlink-file-read",
            "a link in the root to a file outside",
            Read,
            vec![
                canary("out/secret.txt"),
                link("proj/link", "{base}/out/secret.txt"),
            ],
            &["proj/link"],
            r,
        ),
        attack(
            "symlink-parent-read",
            "a linked directory in the root leads outside",
            Read,
            vec![canary("out/secret.txt"), link("proj/ldir", "{base}/out")],
            &["proj/ldir/secret.txt"],
            r,
        ),
        attack(
            "symlink-to-sibling-prefix-read",
            "a link whose real path only shares the root's text prefix",
            Read,
            vec![
                canary("proj2/secret.txt"),
                link("proj/link", "{base}/proj2/secret.txt"),
            ],
            &["proj/link"],
            r,
        ),
        attack(
            "dotdot-after-link-read",
            "link/.. is the parent of the link's target, physically",
            Read,
            vec![
                canary("out/secret.txt"),
                dir("out/deep"),
                link("proj/sub", "{base}/out/deep"),
            ],
            &["proj/sub/../secret.txt"],
            r,
        ),
        attack(
            "case-variant-read",
            "PROJ is another directory on Linux",
            Read,
            vec![dir("proj"), canary("PROJ/secret.txt")],
            &["PROJ/secret.txt"],
            r,
        ),
        attack(
            "trailing-space-read",
            "a sibling named \"proj \"",
            Read,
            vec![dir("proj"), canary("proj /secret.txt")],
            &["proj /secret.txt"],
            r,
        ),
        attack(
            "trailing-quote-read",
            "a sibling named proj\"",
            Read,
            vec![dir("proj"), canary("proj\"/secret.txt")],
            &["proj\"/secret.txt"],
            r,
        ),
        attack(
            "sibling-prefix-read-many",
            "read_multiple_files with a sibling-prefix path",
            ReadMany,
            vec![dir("proj"), canary("proj2/secret.txt")],
            &["proj2/secret.txt"],
            r,
        ),
        attack(
            "sibling-prefix-list",
            "list a sibling-prefix directory",
            List,
            vec![dir("proj"), listed()],
            &["proj2"],
            r,
        ),
        attack(
            "symlink-dir-list",
            "list a linked directory that leads outside",
            List,
            vec![
                canary(&format!("out/listed-{TOKEN}")),
                link("proj/ldir", "{base}/out"),
            ],
            &["proj/ldir"],
            r,
        ),
        attack(
            "sibling-prefix-tree",
            "directory_tree of a sibling-prefix directory",
            Tree,
            vec![dir("proj"), listed()],
            &["proj2"],
            r,
        ),
        attack(
            "sibling-prefix-search",
            "search_files in a sibling-prefix directory",
            Search,
            vec![dir("proj"), listed()],
            &["proj2"],
            r,
        ),
        attack(
            "symlink-dir-search",
            "search_files in the root, which holds a link leading outside",
            Search,
            vec![
                canary(&format!("out/listed-{TOKEN}")),
                link("proj/ldir", "{base}/out"),
            ],
            &["proj"],
            r,
        ),
        attack(
            "sibling-prefix-info",
            "get_file_info on a sibling-prefix file",
            Info,
            vec![dir("proj"), canary("proj2/secret.txt")],
            &["proj2/secret.txt"],
            r,
        ),
        attack(
            "symlink-file-info",
            "get_file_info through a link leading outside",
            Info,
            vec![
                canary("out/secret.txt"),
                link("proj/link", "{base}/out/secret.txt"),
            ],
            &["proj/link"],
            r,
        ),
        attack(
            "sibling-prefix-write",
            "create a file in a sibling-prefix directory",
            Write,
            vec![dir("proj"), dir("proj2")],
            &["proj2/new.txt"],
            w,
        ),
        attack(
            "dangling-link-write",
            "a dangling link in the root: the write creates its target outside",
            Write,
            vec![dir("out"), link("proj/dangle", "{base}/out/new.txt")],
            &["proj/dangle"],
            w,
        ),
        attack(
            "symlink-parent-write",
            "create a file beneath a linked directory leading outside",
            Write,
            vec![dir("out"), link("proj/ldir", "{base}/out")],
            &["proj/ldir/new.txt"],
            w,
        ),
        attack(
            "symlink-file-write",
            "overwrite an outside file through a link in the root",
            Write,
            vec![
                canary("out/secret.txt"),
                link("proj/link", "{base}/out/secret.txt"),
            ],
            &["proj/link"],
            w,
        ),
        attack(
            "dotdot-write",
            ".. climbs out of the root for a write",
            Write,
            vec![dir("proj"), dir("out")],
            &["proj/../out/new.txt"],
            w,
        ),
        attack(
            "symlink-file-edit",
            "edit an outside file through a link in the root",
            Edit,
            vec![
                canary("out/secret.txt"),
                link("proj/link", "{base}/out/secret.txt"),
            ],
            &["proj/link"],
            w,
        ),
        attack(
            "sibling-prefix-edit",
            "edit a sibling-prefix file",
            Edit,
            vec![dir("proj"), canary("proj2/secret.txt")],
            &["proj2/secret.txt"],
            w,
        ),
        attack(
            "sibling-prefix-mkdir",
            "create a directory in a sibling-prefix directory",
            Mkdir,
            vec![dir("proj"), dir("proj2")],
            &["proj2/newdir"],
            w,
        ),
        attack(
            "symlink-parent-mkdir",
            "create a directory beneath a linked directory leading outside",
            Mkdir,
            vec![dir("out"), link("proj/ldir", "{base}/out")],
            &["proj/ldir/newdir"],
            w,
        ),
        attack(
            "sibling-prefix-move-in",
            "move a file of the root into a sibling-prefix directory",
            Move,
            vec![file("proj/a.txt"), dir("proj2")],
            &["proj/a.txt", "proj2/a.txt"],
            (1, Op::Write),
        ),
        attack(
            "sibling-prefix-move-out",
            "move a sibling-prefix file into the root",
            Move,
            vec![dir("proj"), canary("proj2/secret.txt")],
            &["proj2/secret.txt", "proj/stolen.txt"],
            r,
        ),
        attack(
            "symlink-parent-move",
            "move a file of the root beneath a linked directory leading outside",
            Move,
            vec![
                file("proj/a.txt"),
                dir("out"),
                link("proj/ldir", "{base}/out"),
            ],
            &["proj/a.txt", "proj/ldir/a.txt"],
            (1, Op::Write),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_hostile_root_grants_nothing_by_the_contract() {
        for (name, uri) in HOSTILE_ROOTS {
            let uri = uri.replace("{base}", "/tmp/rootguard-b");
            assert!(
                rootguard::RootUri::parse(&uri).is_err(),
                "{name}: core accepts {uri:?}"
            );
            assert!(
                rootguard_proptests::oracle::parse_root_uri(&uri).is_err(),
                "{name}: the oracle accepts {uri:?}"
            );
        }
    }
}
