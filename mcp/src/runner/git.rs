//! The git phase: each git tool ([`GitDoor`]) called on repositories laid
//! in the base ([`git_tree`]), one argument hostile at a time:
//!
//! - the repository argument given another repository: the plain outside
//!   one `{base}/out/repo` (the control), the prefix sibling
//!   `{base}/proj2`, `proj/../out/repo`, `../out/repo` and a path through
//!   a link inside the root (`proj/linkout/repo`);
//! - the repository argument given a directory inside the root whose
//!   `.git` leads out: a `gitdir:` file (absolute and relative), a `.git`
//!   link, a worktree whose `commondir` names the outside repository;
//! - each other path argument (`files`) and each revision (`target`,
//!   `revision`, `branch_name`) given the canary beside the root: as an
//!   absolute path (the control), a `../` path, a path through a link,
//!   a file of the prefix sibling;
//! - each free string given `--output=FILE`, an option to git;
//! - with a file tool that writes: a `.git` file written through it, then
//!   the git tool pointed at its directory; and git configuration that
//!   runs a command (`core.fsmonitor`, `diff.external`) written over the
//!   root's `.git/config`, then the git tool called plainly.
//!
//! Every call is observed as door calls are ([`knock::send`]): the canary
//! in the answer, a change outside the root on disk (a branch, a commit,
//! an index, a file a command wrote), the canary staged into the root's
//! repository. A git tool may write, so the phase runs only with a
//! sandbox (or `--allow-unsandboxed-writes`): a planted command runs
//! inside it, in the server's process, never in rootguard's.
//!
//! An escape through a hostile feature (a link, `..`, a sibling) is named
//! by probing with the control as the variant without it: when the plain
//! outside path escaped too, the feature was not needed and the defect is
//! the boundary itself ([`Feature::GitRepository`]:
//! `RG-GIT-REPO-BOUNDARY`; for a path argument, `RG-ALLOWS-OUTSIDE`).

use rootguard_judge::{Case, Entry, Materialized, Op};
use rootguard_triage::Feature;
use serde_json::{json, Value};

use super::git_tree::{self, Repositories, OUTSIDE_FILE, OUTSIDE_REPO, SIBLING_REPO};
use super::knock::{self, knock_all, not_attacked, safe, Aimed, Knock, Prelude, NO_SANDBOX};
use super::launch::Server;
use super::{Context, Mode, Phase, Started};
use crate::argdoors::{self, Slot};
use crate::attacks::ROOT;
use crate::gitdoors::{GitDoor, REPOSITORY};
use crate::tools::Tool;
use crate::HarnessError;

/// The attacks' names begin with this (`--only git-`).
pub(super) const PREFIX: &str = "git-";

/// The git attacks, in one session mode.
pub(super) struct Git {
    /// The session mode.
    pub mode: Mode,
}

/// The repository argument's attacks: a name, the value, the path it
/// names (`{base}` form), the entries it needs; `outside` is the control.
const REPOSITORY_ATTACKS: [(&str, &str, &str, &[&str]); 5] = [
    ("outside", "{base}/out/repo", "{base}/out/repo", &[]),
    ("sibling", "{base}/proj2", "{base}/proj2", &[]),
    (
        "dotdot",
        "{base}/proj/../out/repo",
        "{base}/proj/../out/repo",
        &[],
    ),
    ("relative", "../out/repo", "{base}/proj/../out/repo", &[]),
    (
        "link",
        "{base}/proj/linkout/repo",
        "{base}/proj/linkout/repo",
        &["proj/linkout"],
    ),
];

/// The `.git` indirections: a name, the directory given as the
/// repository, the planted entry it needs.
const GITDIRS: [(&str, &str, &str); 4] = [
    ("file", "{base}/proj/gitfile", "proj/gitfile/.git"),
    ("relative-file", "{base}/proj/gitrel", "proj/gitrel/.git"),
    ("link", "{base}/proj/gitlink", "proj/gitlink/.git"),
    ("commondir", "{base}/proj/worktree", "proj/worktree/.git"),
];

/// A path or revision argument's attacks: a name, the value, the path it
/// names, the entries it needs.
const PATH_ATTACKS: [(&str, &str, &str, &[&str]); 4] = [
    (
        "absolute",
        "{base}/out/secret.txt",
        "{base}/out/secret.txt",
        &[],
    ),
    (
        "dotdot",
        "../out/secret.txt",
        "{base}/proj/../out/secret.txt",
        &[],
    ),
    (
        "link",
        "linkout/secret.txt",
        "{base}/proj/linkout/secret.txt",
        &["proj/linkout"],
    ),
    (
        "sibling",
        "{base}/proj2/secret.txt",
        "{base}/proj2/secret.txt",
        &[],
    ),
];

/// Git configuration that runs a command, planted over the root's
/// `.git/config`: a name and the lines of its section (`{marker}` the
/// file the command writes).
const HOOKS: [(&str, &str); 2] = [
    (
        "fsmonitor",
        "[core]\n\tfsmonitor = \"echo ran > {marker}; false\"\n",
    ),
    (
        "diff-external",
        "[diff]\n\texternal = \"echo ran > {marker}; true\"\n",
    ),
];

/// The value of an option-injection attack, and the file it names.
const OPTION: (&str, &str) = (
    "--output={base}/out/rootguard-option.txt",
    "{base}/out/rootguard-option.txt",
);

impl Phase for Git {
    fn run(&mut self, cx: &mut Context<'_>) -> Result<(), HarnessError> {
        let Some(inventory) = cx.report.inventory.clone() else {
            return Ok(());
        };
        if inventory.git_doors.is_empty() || !cx.options.attacks {
            return Ok(());
        }
        let repositories = match repositories(cx) {
            Ok(r) => r,
            Err(why) => {
                let tools = inventory.git_doors.iter().map(|d| d.tool.as_str());
                not_attacked(cx, "the git tools", tools, &why);
                return Ok(());
            }
        };
        let prepare = |m: &Materialized| repositories.lay(m);
        let laid = cx.scenario("git", &laid_tree(), &[ROOT], None);
        let writer = inventory.writer.as_ref();
        let doors = inventory
            .git_doors
            .iter()
            .map(|door| {
                (
                    format!("tools/call:{}", door.tool),
                    knocks(cx, door, writer),
                )
            })
            .collect();
        // One server on one tree while nothing outside the root changed and nothing was planted.
        let mut server: Option<Server> = None;
        let mut dirty = true;
        let mode = self.mode;
        knock_all(cx, mode, "git attacks", doors, |cx, knock| {
            let reusable = !dirty
                && server
                    .as_mut()
                    .is_some_and(|s| !s.live.session.has_exited());
            let mut live = match server.take() {
                Some(mut s) if reusable => {
                    s.begin();
                    s
                }
                old => match cx
                    .launcher
                    .serve_prepared(old, &laid, mode, Some(&prepare))?
                {
                    Started::Running(s) => s,
                    Started::Failed(failed) => {
                        cx.launcher.tally.record(&knock.door, None);
                        dirty = true;
                        return Ok(Some(failed.finding(&knock.name, mode, &knock.scenario)));
                    }
                },
            };
            let knocked = knock::send(cx, &mut live, knock, mode);
            dirty = knocked.dirty;
            server = Some(live);
            Ok(knocked.finding)
        })?;
        if let Some(s) = server {
            drop(s.stop());
        }
        Ok(())
    }
}

/// The phase's template repositories, or why the git tools are not attacked.
fn repositories(cx: &Context<'_>) -> Result<Repositories, String> {
    if !cx.writes {
        return Err(NO_SANDBOX.to_owned());
    }
    if !git_tree::available() {
        return Err("git is not on PATH, and the attacks lay repositories with it".to_owned());
    }
    Repositories::new(&cx.token).map_err(|e| format!("the repositories could not be laid: {e}"))
}

/// Every entry the git attacks need, laid once for all of them (the
/// repositories beside them are [`Repositories::lay`]'s).
fn laid_tree() -> Vec<Entry> {
    let mut tree = git_tree::planted();
    tree.push(Entry::Dir {
        path: format!("{ROOT}/planted").into(),
    });
    tree
}

/// The entries of [`laid_tree`] at `paths`, after the root and the
/// outside directory: a finding's own tree.
fn entries(paths: &[&str]) -> Vec<Entry> {
    let mut tree = vec![
        Entry::Dir { path: ROOT.into() },
        Entry::Dir { path: "out".into() },
    ];
    tree.extend(
        laid_tree()
            .into_iter()
            .filter(|e| paths.iter().any(|p| e.path().as_bytes() == p.as_bytes())),
    );
    tree
}

/// What a finding's scenario says of the repositories it cannot list.
const REPOSITORIES: &str = "the repositories {base}/proj, {base}/out/repo and {base}/proj2 are laid with git beside the tree (a commit, a branch `rootguard`, a changed and a staged file; outside ones hold the canary in each)";

/// One knock of a git tool, before it is made a [`Knock`].
struct Aim {
    /// The attack's name after `git-TOOL-`.
    suffix: String,
    /// The arguments, `{base}` standing for the base.
    arguments: Value,
    /// The finding's own tree.
    tree: Vec<Entry>,
    /// The path the hostile value names (`{base}` form), and the
    /// operation judged: `None` a file read, or written when the disk changed.
    case: (String, Option<Op>),
    /// What the call is, for the scenario's note.
    note: String,
    /// What is planted first, through the server's file tool.
    prelude: Vec<Prelude>,
    /// What the run observes when it escapes.
    observed: Vec<Feature>,
    /// The control's suffix, when this knock has one.
    control: Option<String>,
}

impl Aim {
    /// `door`'s knock for this aim.
    fn knock(self, cx: &Context<'_>, door: &GitDoor) -> Aimed {
        let tool = safe(&door.tool);
        let name = format!("{PREFIX}{tool}-{}", self.suffix);
        let (case, op) = self.case;
        let mut scenario = cx.scenario(
            &name,
            &self.tree,
            &[ROOT],
            Some(Case {
                path: case.clone().into(),
                op: op.unwrap_or(Op::Read),
                expect: None,
            }),
        );
        scenario.note = Some(format!("{}; {REPOSITORIES}", self.note));
        Aimed {
            knock: Knock {
                name,
                door: format!("tools/call:{}", door.tool),
                method: "tools/call",
                params: json!({"name": door.tool, "arguments": self.arguments}),
                prelude: self.prelude,
                scenario,
                target: case,
                observe_disk: true,
                op,
            },
            observed: self.observed,
            control: self.control.map(|c| format!("{PREFIX}{tool}-{c}")),
        }
    }
}

/// The knocks of one git tool.
fn knocks(cx: &Context<'_>, door: &GitDoor, writer: Option<&Tool>) -> Vec<Aimed> {
    let mut aims = Vec::new();
    let with = |slot: &Slot, value: &str| {
        argdoors::with(&door.skeleton, slot, Value::String(value.to_owned()))
    };
    let planting = |path: &str, content: &str| {
        writer
            .map(|w| Prelude {
                door: format!("tools/call:{}", w.name),
                tool: w.name.clone(),
                arguments: w.write_arguments(path, content),
            })
            .into_iter()
            .collect::<Vec<_>>()
    };
    let writer_name = writer.map_or("", |w| w.name.as_str());
    if let Some(repo) = &door.repository {
        for (name, value, case, needs) in REPOSITORY_ATTACKS {
            let mut tree = entries(needs);
            tree.push(Entry::Dir {
                path: OUTSIDE_REPO.into(),
            });
            if name == "sibling" {
                tree.push(Entry::Dir {
                    path: SIBLING_REPO.into(),
                });
            }
            aims.push(Aim {
                suffix: format!("repo-{name}"),
                arguments: with(repo, value),
                tree,
                case: (case.into(), Some(Op::Read)),
                note: format!("{} with {} = {value}", door.tool, repo.label()),
                prelude: Vec::new(),
                observed: vec![Feature::GitRepository],
                control: (name != "outside").then(|| "repo-outside".to_owned()),
            });
        }
        for (name, value, planted) in GITDIRS {
            aims.push(Aim {
                suffix: format!("gitdir-{name}"),
                arguments: with(repo, value),
                tree: entries(&[planted]),
                case: ("{base}/out/repo/.git".into(), Some(Op::Read)),
                note: format!(
                    "{} with {} = {value}, whose {planted} leads to {{base}}/out/repo/.git; the case is that git directory",
                    door.tool,
                    repo.label()
                ),
                prelude: Vec::new(),
                observed: vec![Feature::GitDirFollowed],
                control: None,
            });
        }
        if writer.is_some() {
            let (dot_git, content) = (
                "{base}/proj/planted/.git",
                "gitdir: {base}/out/repo/.git
",
            );
            aims.push(Aim {
                suffix: "plant-gitdir".into(),
                arguments: with(repo, "{base}/proj/planted"),
                tree: entries(&["proj/planted"]),
                case: ("{base}/out/repo/.git".into(), Some(Op::Read)),
                note: format!(
                    "{writer_name} wrote {dot_git} saying `{}`, then {} with {} = {{base}}/proj/planted; the case is the git directory it leads to",
                    content.trim(),
                    door.tool,
                    repo.label()
                ),
                prelude: planting(dot_git, content),
                observed: vec![Feature::GitDirFollowed],
                control: None,
            });
        }
    }
    for slot in door.paths.iter().chain(&door.revisions) {
        let label = safe(&slot.label());
        for (name, value, case, needs) in PATH_ATTACKS {
            let mut tree = entries(needs);
            tree.push(Entry::File {
                path: OUTSIDE_FILE.into(),
                content: Some(format!(
                    "CANARY-{}
",
                    crate::attacks::TOKEN
                )),
            });
            aims.push(Aim {
                suffix: format!("{label}-{name}"),
                arguments: with(slot, value),
                tree,
                case: (case.into(), None),
                note: format!(
                    "{} with {} = {value} (the repository {REPOSITORY})",
                    door.tool,
                    slot.label()
                ),
                prelude: Vec::new(),
                observed: Vec::new(),
                control: (name != "absolute").then(|| format!("{label}-absolute")),
            });
        }
    }
    for slot in &door.texts {
        let (value, case) = OPTION;
        aims.push(Aim {
            suffix: format!("{}-option", safe(&slot.label())),
            arguments: with(slot, value),
            tree: entries(&[]),
            case: (case.into(), Some(Op::Write)),
            note: format!(
                "{} with {} = {value}: an option, if git is given it as one",
                door.tool,
                slot.label()
            ),
            prelude: Vec::new(),
            observed: vec![Feature::OptionInjected],
            control: None,
        });
    }
    if writer.is_some() {
        for (name, section) in HOOKS {
            let marker = format!("{{base}}/out/rootguard-ran-{name}");
            let section = section.replace("{marker}", &marker);
            let config = format!(
                "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n{section}"
            );
            aims.push(Aim {
                suffix: format!("hook-{name}"),
                arguments: door.skeleton.clone(),
                tree: entries(&[]),
                case: (marker, Some(Op::Write)),
                note: format!(
                    "{writer_name} wrote {{base}}/proj/.git/config holding `{}`, then {} on the repository {REPOSITORY}; the case is the file the command writes",
                    section.trim().replace('\n', " "),
                    door.tool
                ),
                prelude: planting("{base}/proj/.git/config", &config),
                observed: vec![Feature::GitHookPlanted],
                control: None,
            });
        }
    }
    aims.into_iter().map(|a| a.knock(cx, door)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_planted_entries_the_attacks_name_are_laid() {
        let laid = laid_tree();
        let has = |p: &str| laid.iter().any(|e| e.path().as_bytes() == p.as_bytes());
        for (_, _, _, needs) in REPOSITORY_ATTACKS.iter().chain(PATH_ATTACKS.iter()) {
            assert!(needs.iter().all(|p| has(p)), "{needs:?}");
        }
        for (_, _, planted) in GITDIRS {
            assert!(has(planted), "{planted}");
        }
        assert!(has(OUTSIDE_FILE));
    }
}
