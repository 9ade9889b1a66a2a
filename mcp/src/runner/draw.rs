//! Drawing a scenario for a live server: the judge's generator, mapped
//! onto a fixed root layout (`{base}/project`, sometimes `{base}/data` too).
//!
//! Mapping keeps everything inside the temp base: a link target on the
//! host (`/etc`) is rooted in the base (`{base}/etc`), and a link whose
//! target could climb out of the base is dropped; a case is called only
//! when its path starts in the base and the kernel's target (or, for a
//! read of nothing, the lexical path) stays beneath it. About half the
//! generated tree moves into the root. Files outside the roots hold the
//! canary, and each outside directory a `listed-` canary whose name shows
//! in a listing. Beside the root, hostile siblings of its name (the
//! generator's [`Variant`]s of `project`) are laid as files or
//! directories and read as the *final* component of a path.

use std::collections::BTreeSet;

use proptest::prelude::*;
use rootguard_judge::gen::{entry_name, Generator, TreeSpec, Variant};
use rootguard_judge::oracle::{lexically_in_base, target_stays_in_base};
use rootguard_judge::{kernel, Case, Entry, Op, PathBytes, Scenario};

/// The root every generated scenario lists first, relative to the base.
pub const GENERATED_ROOT: &str = "project";

/// The second root some generated scenarios list.
const SECOND_ROOT: &str = "data";

/// A file inside the root, the source of a move into a hostile path.
pub(super) const INSIDE_FILE: &str = "project/inside.txt";

/// How many hostile siblings of the root's name each scenario lays.
const SIBLINGS: usize = 4;

/// Whether `rel` (relative to the base) lies inside one of `roots`.
fn inside_roots(rel: &str, roots: &[&str]) -> bool {
    roots
        .iter()
        .any(|r| rel == *r || rel.strip_prefix(r).is_some_and(|s| s.starts_with('/')))
}

/// The next generated scenario, `{base}` form, with the run's `token` in
/// its canaries; its cases are not yet checked against the kernel.
pub(super) fn draw(generator: &mut Generator, token: &str, number: usize) -> Scenario {
    // A quarter of the scenarios list two roots, in runs of 16, so that one server serves each run.
    let two_roots = (number / 16) % 4 == 3;
    let mut roots = vec![GENERATED_ROOT];
    if two_roots {
        roots.push(SECOND_ROOT);
    }
    // MCP servers take paths as UTF-8 JSON strings: names that are not
    // UTF-8 stay out of this phase (vet sends them, as `\udcXX`).
    let generated: Vec<Entry> = generator
        .draw(&TreeSpec::strategy())
        .render()
        .into_iter()
        .filter(Entry::is_utf8)
        .collect();
    // About half the generated tree moves into the root, so that links,
    // chains and hostile names lie inside it as well as beside it.
    let mut tops: Vec<String> = generated
        .iter()
        .map(|e| {
            let path = e.path().to_string_lossy();
            path.split('/').next().unwrap_or_default().to_owned()
        })
        .collect();
    tops.dedup();
    let moved: BTreeSet<String> = tops
        .into_iter()
        .filter(|_| generator.draw(&proptest::bool::weighted(0.5)))
        .collect();
    let into_root = |path: &str| -> String {
        let top = path.split('/').next().unwrap_or_default();
        if moved.contains(top) {
            format!("{GENERATED_ROOT}/{path}")
        } else {
            path.to_owned()
        }
    };
    let generated: Vec<Entry> = generated
        .into_iter()
        .map(|entry| match entry {
            Entry::Dir { path } => Entry::Dir {
                path: into_root(&path.to_string_lossy()).into(),
            },
            Entry::File { path, content } => Entry::File {
                path: into_root(&path.to_string_lossy()).into(),
                content,
            },
            Entry::Symlink { path, target } => Entry::Symlink {
                path: into_root(&path.to_string_lossy()).into(),
                target: match target.to_string_lossy().strip_prefix("{base}/") {
                    Some(rest) => format!("{{base}}/{}", into_root(rest)).into(),
                    None => target,
                },
            },
        })
        .collect();
    let mut tree: Vec<Entry> = roots
        .iter()
        .map(|r| Entry::Dir { path: (*r).into() })
        .collect();
    if generator.draw(&proptest::bool::weighted(0.5)) {
        tree.push(Entry::File {
            path: INSIDE_FILE.into(),
            content: None,
        });
    }
    for entry in generated {
        if roots.iter().any(|r| entry.path() == r) || tree.iter().any(|e| e.path() == entry.path())
        {
            continue;
        }
        match entry {
            Entry::Symlink { path, target } => {
                // A host target is rooted in the base: outside is a sibling there.
                let target = target.to_string_lossy();
                let target = if target.starts_with('/') {
                    format!("{{base}}{target}")
                } else {
                    target
                };
                if target_stays_in_base(&path.to_string_lossy(), &target) {
                    tree.push(Entry::Symlink {
                        path,
                        target: target.into(),
                    });
                }
            }
            other => tree.push(other),
        }
    }
    // Siblings of the root's name, as files and as directories.
    for _ in 0..SIBLINGS {
        let variant = generator.draw(&Variant::strategy().prop_filter("a sibling", |v| {
            *v != Variant::Plain && std::str::from_utf8(&v.apply(GENERATED_ROOT.as_bytes())).is_ok()
        }));
        let name = PathBytes::from(entry_name(variant.apply(GENERATED_ROOT.as_bytes())));
        if tree.iter().any(|e| *e.path() == name) {
            continue;
        }
        if generator.draw(&proptest::bool::weighted(0.7)) {
            tree.push(Entry::File {
                path: name,
                content: None,
            });
        } else {
            tree.push(Entry::Dir { path: name });
        }
    }
    // Canaries: in every outside file, and one named in each outside directory.
    let outside_dirs: BTreeSet<String> = tree
        .iter()
        .filter_map(|e| match e {
            Entry::Dir { path } if !inside_roots(&path.to_string_lossy(), &roots) => {
                Some(path.to_string_lossy())
            }
            _ => None,
        })
        .collect();
    for entry in &mut tree {
        if let Entry::File { path, content } = entry {
            *content = Some(if inside_roots(&path.to_string_lossy(), &roots) {
                "inside\n".to_owned()
            } else {
                format!("CANARY-{token}\n")
            });
        }
    }
    for dir in outside_dirs {
        let path = format!("{dir}/listed-{token}");
        if !tree.iter().any(|e| *e.path() == path) {
            tree.push(Entry::File {
                path: path.into(),
                content: Some(format!("CANARY-{token}\n")),
            });
        }
    }
    let names = rootguard_judge::gen::TreeNames::of(&tree);
    let count = generator.draw(&(1usize..=6));
    let mut cases: Vec<Case> = (0..count)
        .map(|_| generator.case().render(&names))
        .filter(|c| c.path.is_utf8())
        .collect();
    // Each sibling of the root as the final component, read.
    for entry in &tree {
        let path = entry.path().to_string_lossy();
        if !path.contains('/') && path != GENERATED_ROOT && path.starts_with("project") {
            cases.push(Case {
                path: format!("{{base}}/{path}").into(),
                op: Op::Read,
                expect: None,
            });
        }
    }
    Scenario {
        name: format!("generated-{number}"),
        note: Some("drawn by the generative phase".to_owned()),
        tree,
        roots: roots
            .iter()
            .map(|r| format!("file://{{base}}/{r}"))
            .collect(),
        cases,
    }
}

/// Whether the case may be called: it starts in the base and the kernel's
/// target stays beneath it (a read of nothing: its lexical path does).
pub(super) fn callable(roots: &[String], base: &str, case: &Case, op: Op) -> bool {
    if !case.path.starts_with("{base}/") {
        return false;
    }
    let real = case.path.replace("{base}", base);
    let judgement = kernel::judge(roots, real.as_bytes(), op);
    let Some(path) = case.path.to_str() else {
        return false;
    };
    match judgement.target {
        Some(target) => target.starts_with(base) && target.as_os_str().len() > base.len(),
        None => op == Op::Read && lexically_in_base(path),
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    pub(super) fn drawn_scenarios_are_valid_and_stay_in_the_base() {
        let mut generator = Generator::new(1);
        for n in 0..300 {
            let s = draw(&mut generator, "tok", n);
            s.validate().expect("valid");
            assert_eq!(s.roots[0], "file://{base}/project");
            for e in &s.tree {
                if let Entry::Symlink { path, target } = e {
                    assert!(
                        target_stays_in_base(&path.to_string_lossy(), &target.to_string_lossy()),
                        "{path} -> {target}"
                    );
                }
            }
        }
    }

    #[test]
    pub(super) fn siblings_of_the_root_are_read_as_the_final_component() {
        let mut generator = Generator::new(1);
        let quoted = (0..400).map(|n| draw(&mut generator, "tok", n)).any(|s| {
            s.tree.iter().any(|e| {
                matches!(e, Entry::File { path, .. } if path == "project\"" || path == "project ")
            }) && s
                .cases
                .iter()
                .any(|c| c.path == "{base}/project\"" || c.path == "{base}/project ")
        });
        assert!(
            quoted,
            "400 draws lay no project\" or project  as a file and read it"
        );
    }
}
