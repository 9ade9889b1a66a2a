//! The doors behind indirection: git tools ([`GitDoor`]) and archive
//! tools ([`ArchiveDoor`]), found in a `tools/list` result by their names,
//! descriptions and input schemas as [`argdoors::shape`] walks them.
//!
//! A git tool is one whose name says `git` (`git_log`, `gitStatus`), or
//! whose description speaks of git, commits, branches or repositories
//! and whose schema has a repository argument (`repo_path`,
//! `repository`, `repo`, `cwd`, or a `path` described as a repository).
//! Its other path arguments (`files`) and its free strings (a revision, a
//! target, a branch name) are attacked too. An archive tool is one whose
//! name or description says it extracts, unzips or unpacks, and that
//! takes the archive's path.

use serde_json::Value;

use crate::argdoors::{self, Slot, Step};

/// The repository every git knock's benign arguments name (`{base}` form).
pub const REPOSITORY: &str = "{base}/proj";

/// The file inside the repository the benign path arguments name.
pub const INSIDE_FILE: &str = "inside.txt";

/// A branch every repository the git attacks lay has.
pub const BRANCH: &str = "rootguard";

/// A branch no laid repository has: what a tool that creates one is given.
pub const NEW_BRANCH: &str = "rootguard-new";

/// Names (lowercase, without `_` and `-`) of a repository argument.
const REPO_NAMES: [&str; 15] = [
    "repopath",
    "repository",
    "repositorypath",
    "repo",
    "repodir",
    "repositorydir",
    "reporoot",
    "repositoryroot",
    "gitdir",
    "cwd",
    "workdir",
    "workingdir",
    "workingdirectory",
    "worktree",
    "worktreepath",
];

/// Words of a description that speak of git (with a repository argument,
/// the tool is a git tool).
const GIT_WORDS: [&str; 11] = [
    "git",
    "commit",
    "commits",
    "branch",
    "branches",
    "staged",
    "staging",
    "repository",
    "repositories",
    "revision",
    "worktree",
];

/// Parts of a free string's name that make it a revision (a ref, a
/// branch, a target): it is given a branch, and attacked with paths too.
const REVISION_PARTS: [&str; 9] = [
    "branch", "ref", "rev", "target", "commit", "sha", "tree", "tag", "contains",
];

/// A git tool: its benign arguments and the ones the git phase attacks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitDoor {
    /// The tool's name.
    pub tool: String,
    /// Benign arguments: the repository [`REPOSITORY`], the path
    /// arguments [`INSIDE_FILE`], a revision [`BRANCH`] (a new branch's
    /// name [`NEW_BRANCH`]), other strings `rootguard`.
    pub skeleton: Value,
    /// The repository argument; `None` for a tool bound to the repository
    /// it was started with.
    pub repository: Option<Slot>,
    /// The other path arguments (`files`, `path`).
    pub paths: Vec<Slot>,
    /// The free strings that name a revision, a target or a branch.
    pub revisions: Vec<Slot>,
    /// Every free string (revisions, messages, names) and every
    /// revision, whatever its name says.
    pub texts: Vec<Slot>,
}

/// An archive tool: the archive's argument and where it extracts to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchiveDoor {
    /// The tool's name.
    pub tool: String,
    /// Benign arguments (every path-like one a file inside the root).
    pub skeleton: Value,
    /// The argument naming the archive.
    pub archive: Slot,
    /// The argument naming where it extracts to, if any.
    pub destination: Option<Slot>,
}

/// The git tools of a `tools/list` result, other than `file_tools`.
pub fn git_doors(tools: &[Value], file_tools: &[String]) -> Vec<GitDoor> {
    tools
        .iter()
        .filter_map(|tool| {
            let door = argdoors::shape(tool)?;
            if file_tools.contains(&door.tool) {
                return None;
            }
            let description = text(tool, "description");
            let repository = door
                .slots
                .iter()
                .find(|s| REPO_NAMES.contains(&key(&s.name).as_str()))
                .or_else(|| {
                    door.slots.iter().find(|s| {
                        s.at.len() == 1
                            && matches!(
                                key(&s.name).as_str(),
                                "path" | "dir" | "directory" | "root"
                            )
                            && (s.description.contains("repo")
                                || words(&description).any(|w| w == "repository"))
                    })
                })
                .cloned();
            let named = words(&door.tool).any(|w| w == "git");
            let described = words(&description).any(|w| GIT_WORDS.contains(&w.as_str()));
            if !(named || (described && repository.is_some())) {
                return None;
            }
            Some(git_door(door, repository, &description))
        })
        .collect()
}

/// `door` as a git tool, its repository argument `repository`.
fn git_door(door: argdoors::ArgDoor, repository: Option<Slot>, description: &str) -> GitDoor {
    // A description that quotes values lists choices (`'local'`), not a revision.
    let revision = |s: &Slot| {
        let k = key(&s.name);
        REVISION_PARTS.iter().any(|p| k.contains(p)) && first_quoted(&s.description).is_none()
    };
    // A `target` is a path to a file tool, a revision to git.
    let (revisions, paths): (Vec<Slot>, Vec<Slot>) = door
        .slots
        .iter()
        .filter(|s| Some(*s) != repository.as_ref())
        .chain(door.texts.iter())
        .cloned()
        .partition(|s| revision(s));
    let paths: Vec<Slot> = paths
        .into_iter()
        .filter(|s| !door.texts.contains(s))
        .collect();
    let creates = words(&door.tool)
        .chain(words(description))
        .any(|w| matches!(w.as_str(), "create" | "creates" | "new"));
    // A tool that creates a branch names it in its one revision that is not where it starts from.
    let fresh = revisions.iter().position(|s| {
        let k = key(&s.name);
        !["base", "from", "start", "source", "contains"]
            .iter()
            .any(|p| k.contains(p))
    });
    let mut skeleton = door.skeleton.clone();
    if let Some(repo) = &repository {
        skeleton = argdoors::with(&skeleton, repo, Value::String(REPOSITORY.into()));
    }
    for slot in &paths {
        skeleton = argdoors::with(&skeleton, slot, Value::String(INSIDE_FILE.into()));
    }
    for (i, slot) in revisions.iter().enumerate() {
        let branch = if creates && fresh == Some(i) {
            NEW_BRANCH
        } else {
            BRANCH
        };
        skeleton = argdoors::with(&skeleton, slot, Value::String(branch.into()));
    }
    // A free string is left out when optional (`since=rootguard` would
    // filter every commit away, `--no-contains` every branch), attacked
    // alone; a required one takes the first value its description quotes
    // (`'local'`), else `rootguard`.
    for slot in &door.texts {
        if !slot.required {
            skeleton = without(&skeleton, slot);
        } else if let Some(quoted) = first_quoted(&slot.description) {
            skeleton = argdoors::with(&skeleton, slot, Value::String(quoted));
        }
    }
    for slot in revisions
        .iter()
        .filter(|s| !s.required && !door.texts.contains(s))
    {
        skeleton = without(&skeleton, slot);
    }
    GitDoor {
        tool: door.tool,
        skeleton,
        repository,
        paths,
        texts: door
            .texts
            .iter()
            .chain(revisions.iter().filter(|r| !door.texts.contains(r)))
            .cloned()
            .collect(),
        revisions,
    }
}

/// The archive tools of a `tools/list` result, other than `file_tools`
/// and `git`: a name or description that says extract, unzip, untar or
/// unpack, and an argument naming the archive.
pub fn archive_doors(tools: &[Value], taken: &[String]) -> Vec<ArchiveDoor> {
    tools
        .iter()
        .filter_map(|tool| {
            let door = argdoors::shape(tool)?;
            if taken.contains(&door.tool) {
                return None;
            }
            let description = text(tool, "description");
            let says = |w: &String| {
                matches!(
                    w.as_str(),
                    "extract"
                        | "extracts"
                        | "unzip"
                        | "unzips"
                        | "untar"
                        | "unpack"
                        | "unpacks"
                        | "decompress"
                        | "unarchive"
                )
            };
            if !(words(&door.tool).any(|w| says(&w)) || words(&description).any(|w| says(&w))) {
                return None;
            }
            let destination = door
                .slots
                .iter()
                .find(|s| {
                    let k = key(&s.name);
                    k == "to"
                        || [
                            "dest",
                            "dst",
                            "target",
                            "output",
                            "out",
                            "extractto",
                            "into",
                        ]
                        .iter()
                        .any(|p| k.starts_with(p))
                        || ["dir", "directory", "folder"]
                            .iter()
                            .any(|p| k.ends_with(p))
                })
                .cloned();
            let archive = door
                .slots
                .iter()
                .chain(&door.texts)
                .filter(|s| Some(*s) != destination.as_ref())
                .find(|s| {
                    let k = key(&s.name);
                    [
                        "archive", "zip", "tar", "file", "source", "src", "input", "from", "path",
                    ]
                    .iter()
                    .any(|p| k.contains(p))
                })?
                .clone();
            Some(ArchiveDoor {
                tool: door.tool,
                skeleton: door.skeleton,
                archive,
                destination,
            })
        })
        .collect()
}

/// `skeleton` without the property at `slot` (a top-level or nested key).
fn without(skeleton: &Value, slot: &Slot) -> Value {
    let mut out = skeleton.clone();
    let Some((Step::Key(last), parents)) = slot.at.split_last() else {
        return out;
    };
    let mut here = &mut out;
    for step in parents {
        here = match (step, here) {
            (Step::Key(k), Value::Object(o)) => match o.get_mut(k) {
                Some(v) => v,
                None => return out,
            },
            (Step::First, Value::Array(a)) => match a.first_mut() {
                Some(v) => v,
                None => return out,
            },
            _ => return out,
        };
    }
    if let Value::Object(o) = here {
        o.remove(last);
    }
    out
}

/// The first word a description quotes (`'local'`, `"all"`), if any.
fn first_quoted(description: &str) -> Option<String> {
    ['\'', '"'].iter().find_map(|q| {
        let mut parts = description.split(*q);
        parts.next()?;
        let word = parts.next()?;
        (!word.is_empty()
            && word
                .chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '_'))
        .then(|| word.to_owned())
    })
}

/// `name` lowercase without `_` and `-`.
fn key(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

/// The words of `text`, lowercase: split at every character that is not a
/// letter or a digit, and before each capital that follows a lowercase
/// letter (`gitLog` is `git`, `log`).
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    let mut spaced = String::new();
    let mut last_lower = false;
    for c in text.chars() {
        if c.is_uppercase() && last_lower {
            spaced.push(' ');
        }
        last_lower = c.is_lowercase();
        spaced.push(if c.is_alphanumeric() { c } else { ' ' });
    }
    spaced
        .split_whitespace()
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .into_iter()
}

fn text(tool: &Value, key: &str) -> String {
    tool.get(key)
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// mcp-server-git 2026.10.19's schemas, as its SDK derives them (abridged).
    fn reference() -> Vec<Value> {
        let opt = json!({"anyOf": [{"type": "string"}, {"type": "null"}], "default": null});
        let tool = |name: &str, description: &str, props: Value, required: &[&str]| {
            let mut properties = json!({"repo_path": {"type": "string"}});
            for (k, v) in props.as_object().expect("properties") {
                properties[k] = v.clone();
            }
            let mut required: Vec<&str> = required.to_vec();
            required.insert(0, "repo_path");
            json!({"name": name, "description": description, "inputSchema": {
                "type": "object", "properties": properties, "required": required}})
        };
        vec![
            tool(
                "git_status",
                "Shows the working tree status",
                json!({}),
                &[],
            ),
            tool(
                "git_add",
                "Adds file contents to the staging area",
                json!({"files": {"type": "array", "items": {"type": "string"}, "minItems": 1}}),
                &["files"],
            ),
            tool(
                "git_create_branch",
                "Creates a new branch from an optional base branch",
                json!({"branch_name": {"type": "string"}, "base_branch": opt}),
                &["branch_name"],
            ),
            tool(
                "git_diff",
                "Shows differences between branches or commits",
                json!({"target": {"type": "string"}, "context_lines": {"type": "integer", "default": 3}}),
                &["target"],
            ),
            tool(
                "git_commit",
                "Records changes to the repository",
                json!({"message": {"type": "string"}}),
                &["message"],
            ),
            tool(
                "git_log",
                "Shows the commit logs",
                json!({"max_count": {"type": "integer", "default": 10},
                       "start_timestamp": {"anyOf": [{"type": "string"}, {"type": "null"}],
                                           "description": "Start timestamp for filtering commits"}}),
                &[],
            ),
            tool(
                "git_branch",
                "List Git branches",
                json!({"branch_type": {"type": "string", "description":
                    "Whether to list local branches ('local'), remote branches ('remote') or all branches('all')."},
                       "contains": opt}),
                &["branch_type"],
            ),
        ]
    }

    #[test]
    fn the_reference_git_server_s_tools_are_git_doors_with_their_arguments() {
        let found = git_doors(&reference(), &[]);
        let names: Vec<&str> = found.iter().map(|d| d.tool.as_str()).collect();
        assert_eq!(
            names,
            [
                "git_status",
                "git_add",
                "git_create_branch",
                "git_diff",
                "git_commit",
                "git_log",
                "git_branch"
            ]
        );
        assert!(found
            .iter()
            .all(|d| d.repository.as_ref().is_some_and(|r| r.name == "repo_path")));
        let add = &found[1];
        assert_eq!(
            add.paths.iter().map(Slot::label).collect::<Vec<_>>(),
            ["files.0"]
        );
        assert_eq!(
            add.skeleton,
            json!({"repo_path": "{base}/proj", "files": ["inside.txt"]})
        );
        let create = &found[2];
        assert_eq!(
            create.revisions.iter().map(Slot::label).collect::<Vec<_>>(),
            ["base_branch", "branch_name"]
        );
        assert_eq!(create.skeleton["branch_name"], NEW_BRANCH);
        assert_eq!(create.skeleton.get("base_branch"), None);
        let attacked = argdoors::with(&create.skeleton, &create.revisions[0], json!("x"));
        assert_eq!(attacked["base_branch"], "x");
        // A `target` is a revision to git, though argdoors takes it for a path.
        let diff = &found[3];
        assert_eq!(
            diff.skeleton,
            json!({"repo_path": "{base}/proj", "target": "rootguard", "context_lines": 1})
        );
        // A message is a free string, not a revision.
        let commit = &found[4];
        assert!(commit.revisions.is_empty());
        assert_eq!(
            commit.texts.iter().map(Slot::label).collect::<Vec<_>>(),
            ["message"]
        );
        assert_eq!(commit.skeleton["message"], "rootguard");
        // An optional free string is left out, and put in when attacked.
        let log = &found[5];
        assert_eq!(
            log.skeleton,
            json!({"repo_path": "{base}/proj", "max_count": 1})
        );
        let attacked = argdoors::with(&log.skeleton, &log.texts[0], json!("--x"));
        assert_eq!(attacked["start_timestamp"], "--x");
        // A required one takes the first value its description quotes.
        let branch = &found[6];
        assert_eq!(
            branch.skeleton,
            json!({"repo_path": "{base}/proj", "branch_type": "local"})
        );
    }

    #[test]
    fn git_is_told_by_name_or_by_description_with_a_repository_argument() {
        let tools = [
            // camelCase name, no repository argument: bound to its repository.
            json!({"name": "gitLog", "inputSchema": {"type": "object", "properties": {"maxCount": {"type": "integer"}}}}),
            // A `path` described as the repository, a description that speaks of commits.
            json!({"name": "history", "description": "List the commits", "inputSchema": {"type": "object",
                "properties": {"path": {"type": "string", "description": "Path to the repository"}}}}),
            // `cwd` alone is no git tool without git in its name or description.
            json!({"name": "run", "description": "Run a command", "inputSchema": {"type": "object",
                "properties": {"cwd": {"type": "string"}, "command": {"type": "string"}}}}),
            // GitHub is not git.
            json!({"name": "github_search", "description": "Search GitHub issues", "inputSchema": {"type": "object",
                "properties": {"query": {"type": "string"}}}}),
        ];
        let found = git_doors(&tools, &[]);
        assert_eq!(found.len(), 2, "{found:#?}");
        assert_eq!(found[0].tool, "gitLog");
        assert!(found[0].repository.is_none());
        assert_eq!(found[1].tool, "history");
        assert_eq!(
            found[1].repository.as_ref().map(|r| r.name.as_str()),
            Some("path")
        );
        assert_eq!(found[1].skeleton, json!({"path": "{base}/proj"}));
    }

    #[test]
    fn archive_tools_are_found_with_their_archive_and_destination() {
        let tools = [
            json!({"name": "extract_archive", "inputSchema": {"type": "object", "properties": {
                "archive_path": {"type": "string"}, "destination": {"type": "string"}}}}),
            json!({"name": "unzip", "inputSchema": {"type": "object", "properties": {"file": {"type": "string"}}}}),
            json!({"name": "read_file", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}}}),
        ];
        let found = archive_doors(&tools, &["read_file".to_owned()]);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].archive.name, "archive_path");
        assert_eq!(
            found[0].destination.as_ref().map(|d| d.name.as_str()),
            Some("destination")
        );
        assert_eq!(found[1].archive.name, "file");
        assert!(found[1].destination.is_none());
    }
}
