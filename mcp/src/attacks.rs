//! The hostile scenarios: each a small tree in the base, the root `proj`,
//! canaries outside it, and one tool call with a hostile path.
//!
//! The table is data, corpus/mcp-attacks.json, compiled in and read when
//! a run first needs it ([`all`], [`root_attacks`]); a file that breaks
//! a rule below is refused with the attack and the rule named.
//!
//! Every link stays inside the base, so nothing real is ever at risk:
//! "outside" is a sibling in the base (`proj2`, `out`, `PROJ`, `proj `),
//! holding canary files whose content carries the run's token.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use rootguard_judge::oracle::target_stays_in_base;
use rootguard_judge::{Entry, Op};
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::tools::Action;

/// The root directory of every attack, relative to the base.
pub const ROOT: &str = "proj";

/// The placeholder in canary contents and names for the run's token.
pub const TOKEN: &str = "{token}";

/// The table as shipped: corpus/mcp-attacks.json.
pub const TABLE: &str = include_str!("../corpus/mcp-attacks.json");

/// One hostile tool call on a small tree.
#[derive(Debug, Clone)]
pub struct Attack {
    /// A short name, e.g. `sibling-prefix-read`.
    pub name: String,
    /// What it tries, in words.
    pub note: String,
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
    pub hostile_root: Option<String>,
}

/// The attack table: the attacks, and the hostile roots.
#[derive(Debug, Clone)]
pub struct Table {
    /// Every attack, reads first.
    pub attacks: Vec<Attack>,
    /// Root URIs that count for nothing (docs/semantics.md §1) but that a
    /// lenient parser reads as `{base}/out`, each with its attack's name.
    pub hostile_roots: Vec<(String, String)>,
}

/// The file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTable {
    // What the file is, for its readers: allowed, not used.
    #[allow(dead_code)]
    about: String,
    attacks: Vec<Value>,
    hostile_roots: Vec<RawRoot>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAttack {
    name: String,
    note: String,
    action: String,
    tree: Vec<Map<String, Value>>,
    paths: Vec<String>,
    case: RawCase,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    path: usize,
    op: RawOp,
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum RawOp {
    Read,
    Write,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRoot {
    name: String,
    uri: String,
}

/// Parses and checks a table: every field known and of its type, every
/// action one rootguard has, one path per call (two for a move), the case
/// naming one of them, every path relative to the base and every link
/// target `{base}/…` without `..` (nothing leaves the temp base), every
/// name unique.
///
/// # Errors
///
/// The first broken rule, naming the attack (its index and name).
pub fn parse(text: &str) -> Result<Table, String> {
    let raw: RawTable = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let mut names = BTreeSet::new();
    let mut attacks = Vec::new();
    for (i, value) in raw.attacks.into_iter().enumerate() {
        let label = match value.get("name").and_then(Value::as_str) {
            Some(name) => format!("attack {i} ({name})"),
            None => format!("attack {i}"),
        };
        let attack = serde_json::from_value::<RawAttack>(value)
            .map_err(|e| e.to_string())
            .and_then(attack)
            .map_err(|e| format!("{label}: {e}"))?;
        if !names.insert(attack.name.clone()) {
            return Err(format!("{label}: the name is taken"));
        }
        attacks.push(attack);
    }
    let mut hostile_roots = Vec::new();
    for (i, root) in raw.hostile_roots.into_iter().enumerate() {
        if !names.insert(root.name.clone()) {
            return Err(format!(
                "hostile root {i} ({}): the name is taken",
                root.name
            ));
        }
        hostile_roots.push((root.name, root.uri));
    }
    Ok(Table {
        attacks,
        hostile_roots,
    })
}

/// One attack from its raw form, checked.
fn attack(raw: RawAttack) -> Result<Attack, String> {
    let action = Action::ALL
        .into_iter()
        .find(|a| a.as_str() == raw.action)
        .ok_or_else(|| {
            let known: Vec<&str> = Action::ALL.iter().map(|a| a.as_str()).collect();
            format!(
                "no action {:?}; the actions are {}",
                raw.action,
                known.join(", ")
            )
        })?;
    let wanted = if action == Action::Move { 2 } else { 1 };
    if raw.paths.len() != wanted {
        return Err(format!(
            "a {} takes {wanted} path(s), not {}",
            action.as_str(),
            raw.paths.len()
        ));
    }
    if raw.case.path >= raw.paths.len() {
        return Err(format!(
            "the case names path {} of {}",
            raw.case.path,
            raw.paths.len()
        ));
    }
    for path in &raw.paths {
        relative(path).map_err(|e| format!("path {path:?}: {e}"))?;
    }
    let tree = raw
        .tree
        .iter()
        .enumerate()
        .map(|(i, e)| entry(e).map_err(|why| format!("tree entry {i}: {why}")))
        .collect::<Result<Vec<_>, _>>()?;
    let op = match raw.case.op {
        RawOp::Read => Op::Read,
        RawOp::Write => Op::Write,
    };
    Ok(Attack {
        name: raw.name,
        note: raw.note,
        action,
        tree,
        paths: raw.paths.iter().map(|p| format!("{{base}}/{p}")).collect(),
        case: (raw.case.path, op),
        hostile_root: None,
    })
}

/// A tree entry: `{"dir": p}`, `{"file": p}` (content `inside`),
/// `{"canary": p}` (content `CANARY-{token}`) or `{"link": p, "to": t}`.
fn entry(e: &Map<String, Value>) -> Result<Entry, String> {
    let text = |key: &str| e.get(key).and_then(Value::as_str);
    let keys: Vec<&str> = e.keys().map(String::as_str).collect();
    let entry = match (keys.as_slice(), text("link"), text("to")) {
        (["dir"], ..) => text("dir").map(|p| Entry::Dir { path: p.into() }),
        (["file"], ..) => text("file").map(|p| Entry::File {
            path: p.into(),
            content: Some("inside\n".into()),
        }),
        (["canary"], ..) => text("canary").map(|p| Entry::File {
            path: p.into(),
            content: Some(format!("CANARY-{TOKEN}\n")),
        }),
        (["link", "to"] | ["to", "link"], Some(path), Some(target)) => {
            if !target_stays_in_base(path, target) {
                return Err(format!(
                    "the link's target {target:?} must stay inside the temp base ({{base}}/…, or relative without climbing out)"
                ));
            }
            Some(Entry::Symlink {
                path: path.into(),
                target: target.into(),
            })
        }
        _ => None,
    };
    let entry = entry.ok_or_else(|| {
        format!(
            "{} is none of {{\"dir\": p}}, {{\"file\": p}}, {{\"canary\": p}}, {{\"link\": p, \"to\": t}} (strings)",
            Value::Object(e.clone())
        )
    })?;
    relative(&entry.path().to_string_lossy())?;
    Ok(entry)
}

/// Checks that `path` is relative to the base (`..` in it is the attack).
fn relative(path: &str) -> Result<(), String> {
    if path.is_empty() || path.starts_with('/') {
        return Err(format!("{path:?} is not a path relative to the base"));
    }
    Ok(())
}

/// The shipped table, parsed once.
fn shipped() -> Result<&'static Table, String> {
    static TABLE_READ: OnceLock<Result<Table, String>> = OnceLock::new();
    TABLE_READ
        .get_or_init(|| parse(TABLE))
        .as_ref()
        .map_err(|e| format!("the attack table corpus/mcp-attacks.json: {e}"))
}

/// Every attack, reads first.
///
/// # Errors
///
/// When the shipped table breaks a rule of [`parse`].
pub fn all() -> Result<Vec<Attack>, String> {
    Ok(shipped()?.attacks.clone())
}

/// The hostile roots, each with its attack's name.
///
/// # Errors
///
/// When the shipped table breaks a rule of [`parse`].
pub fn hostile_roots() -> Result<Vec<(String, String)>, String> {
    Ok(shipped()?.hostile_roots.clone())
}

/// One attack per hostile root: the client lists `proj` and the hostile
/// root, then reads a canary in `out`.
///
/// # Errors
///
/// When the shipped table breaks a rule of [`parse`].
pub fn root_attacks() -> Result<Vec<Attack>, String> {
    Ok(hostile_roots()?
        .into_iter()
        .map(|(name, uri)| Attack {
            name,
            note: "a root URI that grants nothing, read leniently".into(),
            action: Action::Read,
            tree: vec![
                Entry::Dir { path: ROOT.into() },
                Entry::File {
                    path: "out/secret.txt".into(),
                    content: Some(format!("CANARY-{TOKEN}\n")),
                },
            ],
            paths: vec!["{base}/out/secret.txt".into()],
            case: (0, Op::Read),
            hostile_root: Some(uri),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_table_parses() {
        let table = parse(TABLE).expect("corpus/mcp-attacks.json parses");
        assert_eq!(table.attacks.len(), 29);
        assert_eq!(table.hostile_roots.len(), 12);
        assert_eq!(all().expect("all").len(), 29);
        assert_eq!(root_attacks().expect("root attacks").len(), 12);
    }

    #[test]
    fn every_attack_is_what_the_runner_expects() {
        let table = parse(TABLE).expect("parses");
        let mut reads_done = false;
        for attack in table.attacks.iter().chain(&root_attacks().expect("roots")) {
            let name = &attack.name;
            // Reads first: the table runs them before any write can change the tree.
            if attack.action.writes() {
                reads_done = true;
            } else {
                assert!(
                    !reads_done || attack.hostile_root.is_some(),
                    "{name}: a read after the writes"
                );
            }
            // The tree and the case are a valid scenario under the root.
            let scenario = rootguard_judge::Scenario {
                name: name.clone(),
                note: Some(attack.note.clone()),
                tree: attack.tree.clone(),
                roots: vec![format!("file://{{base}}/{ROOT}")],
                cases: vec![rootguard_judge::Case {
                    path: attack.paths[attack.case.0].clone().into(),
                    op: attack.case.1,
                    expect: None,
                }],
            };
            scenario
                .validate()
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            // Every canary carries the token the run puts in.
            for e in &attack.tree {
                if let Entry::File {
                    content: Some(c), ..
                } = e
                {
                    assert!(c == "inside\n" || c.contains(TOKEN), "{name}: {c:?}");
                }
            }
        }
    }

    #[test]
    fn a_broken_table_is_refused_naming_the_attack() {
        let good = r#"{"name": "x", "note": "n", "action": "read", "tree": [{"dir": "proj"}], "paths": ["proj2/a"], "case": {"path": 0, "op": "read"}}"#;
        let doc = |attack: &str| {
            format!(r#"{{"about": "", "attacks": [{good}, {attack}], "hostile_roots": []}}"#)
        };
        assert!(parse(&doc(&good.replace("\"x\"", "\"y\""))).is_ok());
        for (attack, says) in [
            (good.to_owned(), "attack 1 (x): the name is taken"),
            (
                good.replace("\"x\"", "\"y\"")
                    .replace("\"read\", \"tree", "\"reed\", \"tree"),
                "attack 1 (y): no action \"reed\"",
            ),
            (
                good.replace("\"x\"", "\"y\"")
                    .replace("\"path\": 0", "\"path\": 1"),
                "the case names path 1 of 1",
            ),
            (
                good.replace("\"x\"", "\"y\"").replace(
                    "{\"dir\": \"proj\"}",
                    "{\"link\": \"proj/l\", \"to\": \"/etc\"}",
                ),
                "inside the temp base",
            ),
            (
                good.replace("\"x\"", "\"y\"").replace(
                    "{\"dir\": \"proj\"}",
                    "{\"link\": \"proj/l\", \"to\": \"{base}/../x\"}",
                ),
                "inside the temp base",
            ),
            (
                good.replace("\"x\"", "\"y\"").replace(
                    "{\"dir\": \"proj\"}",
                    "{\"link\": \"proj/l\", \"to\": \"../../x\"}",
                ),
                "inside the temp base",
            ),
            (
                good.replace("\"x\"", "\"y\"")
                    .replace("{\"dir\": \"proj\"}", "{\"pipe\": \"proj\"}"),
                "tree entry 0",
            ),
            (
                good.replace("\"x\"", "\"y\"")
                    .replace("\"note\"", "\"notes\""),
                "attack 1 (y): unknown field `notes`",
            ),
            (
                good.replace("\"x\"", "\"y\"")
                    .replace("[\"proj2/a\"]", "[\"/etc/passwd\"]"),
                "not a path relative to the base",
            ),
        ] {
            let error = parse(&doc(&attack))
                .err()
                .unwrap_or_else(|| panic!("{attack} parsed"));
            assert!(error.contains(says), "{error} lacks {says}");
        }
    }

    #[test]
    fn every_hostile_root_grants_nothing_by_the_contract() {
        for (name, uri) in hostile_roots().expect("the table") {
            let uri = uri.replace("{base}", "/tmp/rootguard-b");
            assert!(
                rootguard::RootUri::parse(&uri).is_err(),
                "{name}: core accepts {uri:?}"
            );
            assert!(
                rootguard_judge::oracle::parse_root_uri(&uri).is_err(),
                "{name}: the oracle accepts {uri:?}"
            );
        }
    }
}
