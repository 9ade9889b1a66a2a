//! The doors beyond file tools: the server's lists read once
//! ([`Inventory::discover`]), then each door attacked with canaries
//! outside the root `proj`, on one server while the root stays:
//!
//! - `resources/read` with file URIs of each read attack of the fixed
//!   table (a sibling prefix, `..`, links out, a case variant, a trailing
//!   space or quote), in the judge's URI forms ([`RootSpec`]: `file://`,
//!   `localhost`, `file:`, every byte percent-encoded, `/` as `%2f` too,
//!   double-encoded);
//! - each URI template, every variable in turn filled with `..` climbs to
//!   the canary, raw, percent-encoded in either case, double-encoded,
//!   with `\` or `%5c` for the separator, and mixed, at depth 1 and 2,
//!   relative and after the root's own path;
//! - `prompts/get`, every argument in turn given the canary (and a
//!   prefix sibling's) as an absolute path, a file URI and a `../` path;
//! - each tool that is not a file tool but takes a path or a URI
//!   ([`ArgDoor`]: by the argument's name, `format` or description, nested
//!   in objects and arrays), every such argument in turn given the
//!   canaries, the others a file inside the root; with a sandbox only, as
//!   such a tool may write: the tree is compared before and after, and
//!   the root searched for the canary copied in.
//!
//! A response holding a canary's content is an escape. Findings name the
//! door in their tool slot (`resources/read`, `resources/read:TEMPLATE`,
//! `prompts/get:NAME`); each call is counted in the run's tally.

use rootguard_judge::gen::{file_uri, Escape, Form, Piece, RootSpec, TreeNames};
use rootguard_judge::{Case, Entry, Op, Scenario};
use serde_json::{json, Map, Value};

use super::finding::BASE_REL;
use super::knock::{knock_all, knock_on, not_attacked, safe, Aimed, Knock, NO_SANDBOX};
use super::{Context, Finding, Mode, Phase, Started};
use crate::argdoors::{self, ArgDoor};
use crate::attacks::{self, ROOT, TOKEN};
use crate::doors::{Inventory, Prompt, UriTemplate, RESOURCES_READ};
use crate::tools::Action;
use crate::HarnessError;

/// The URI forms of a direct `resources/read`: a name, the judge's form
/// and escapes of the path after the base.
const URI_FORMS: [(&str, Form, Option<Escape>); 6] = [
    ("plain", Form::Empty, None),
    ("localhost", Form::Localhost(0), None),
    ("short", Form::Short(0), None),
    ("encoded", Form::Empty, Some(Escape::Upper)),
    ("encoded-slash", Form::Empty, Some(Escape::Lower)),
    ("double-encoded", Form::Empty, Some(Escape::Double)),
];

/// How a template value spells `..` and the separator: a name, the dot
/// segment, the separator.
const SPELLINGS: [(&str, &str, &str); 9] = [
    ("raw", "..", "/"),
    ("encoded", "%2e%2e", "%2f"),
    ("encoded-upper", "%2E%2E", "%2F"),
    ("double-encoded", "%252e%252e", "%252f"),
    ("backslash", "..", "\\"),
    ("encoded-backslash", "..", "%5c"),
    ("encoded-slash", "..", "%2f"),
    ("encoded-dots", "%2e%2e", "/"),
    ("half-encoded-dots", ".%2e", "/"),
];

/// The value the variables not under attack get.
const BENIGN: &str = "inside.txt";

/// The door attacks, in one session mode; the inventory is read whatever
/// the options, the attacks run only when [`super::Options::attacks`].
pub(super) struct Doors {
    /// The session mode.
    pub mode: Mode,
}

impl Phase for Doors {
    fn run(&mut self, cx: &mut Context<'_>) -> Result<(), HarnessError> {
        let mode = self.mode;
        let scenario = cx.scenario("doors", &door_tree(), &[ROOT], None);
        let mut server = match cx.launcher.serve(None, &scenario, mode)? {
            Started::Running(server) => server,
            Started::Failed(failed) => {
                cx.report.notes.push(format!(
                    "the server's lists could not be read: {}",
                    failed.evidence
                ));
                return Ok(());
            }
        };
        let inventory = match Inventory::discover(&mut server.live.session) {
            Ok(inventory) => inventory,
            Err(e) => {
                drop(server.stop());
                cx.report
                    .notes
                    .push(format!("the server's lists could not be read: {e}"));
                return Ok(());
            }
        };
        for failed in &inventory.failed_lists {
            cx.report.notes.push(format!("a list failed: {failed}"));
        }
        cx.report.inventory = Some(inventory.clone());
        if !cx.options.attacks {
            drop(server.stop());
            return Ok(());
        }
        let base = server.live.materialized.base_text().to_owned();
        let mut slot = Some(server);
        let mut doors: Vec<(String, Vec<Knock>)> = Vec::new();
        if inventory.serves_resources {
            doors.push((RESOURCES_READ.to_owned(), direct_reads(cx)?));
        }
        for (i, template) in inventory.templates.iter().enumerate() {
            if !template.variables().is_empty() {
                doors.push((template.door(), template_reads(cx, i, template)));
            }
        }
        for prompt in &inventory.prompts {
            if !prompt.arguments.is_empty() {
                doors.push((prompt.door(), prompt_gets(cx, prompt, &base)));
            }
        }
        // A tool of unknown effect may write wherever its arguments say.
        if cx.writes {
            for door in &inventory.arg_doors {
                doors.push((
                    format!("tools/call:{}", door.tool),
                    tool_calls(cx, door, &base),
                ));
            }
        } else if !inventory.arg_doors.is_empty() {
            not_attacked(
                cx,
                "the tools that take paths or URIs",
                inventory.arg_doors.iter().map(|d| d.tool.as_str()),
                NO_SANDBOX,
            );
        }
        let doors = doors
            .into_iter()
            .map(|(door, knocks)| (door, knocks.into_iter().map(Aimed::from).collect()))
            .collect();
        knock_all(cx, mode, "door attacks", doors, |cx, knock| {
            knock_on(cx, &mut slot, knock, mode, None)
        })?;
        if let Some(server) = slot {
            drop(server.stop());
        }
        Ok(())
    }
}

/// The tree of the template and prompt attacks: the root with a file and
/// a subdirectory, a canary beside it and one in a prefix sibling.
fn door_tree() -> Vec<Entry> {
    vec![
        Entry::File {
            path: format!("{ROOT}/{BENIGN}").into(),
            content: Some("inside\n".into()),
        },
        Entry::Dir {
            path: format!("{ROOT}/sub").into(),
        },
        Entry::File {
            path: "out/secret.txt".into(),
            content: Some(format!("CANARY-{TOKEN}\n")),
        },
        Entry::File {
            path: format!("{ROOT}2/secret.txt").into(),
            content: Some(format!("CANARY-{TOKEN}\n")),
        },
    ]
}

/// A scenario on `tree` whose case is a read of `path` (`{base}` form).
fn scenario_of(cx: &Context<'_>, name: &str, tree: &[Entry], path: String, note: &str) -> Scenario {
    let case = Case {
        path: path.into(),
        op: Op::Read,
        expect: None,
    };
    let mut s = cx.scenario(name, tree, &[ROOT], Some(case));
    s.note = Some(note.to_owned());
    s
}

/// `resources/read` of each table read attack's path in every URI form.
fn direct_reads(cx: &Context<'_>) -> Result<Vec<Knock>, HarnessError> {
    let table = attacks::all().map_err(HarnessError::Scenario)?;
    let mut out = Vec::new();
    for attack in table.iter().filter(|a| a.action == Action::Read) {
        let hostile = &attack.paths[attack.case.0];
        let rel = hostile.strip_prefix("{base}/").unwrap_or(hostile);
        let pieces: Vec<Piece> = rel
            .split('/')
            .map(|c| Piece::Bytes(c.as_bytes().to_vec()))
            .collect();
        for (form_name, form, escape) in URI_FORMS {
            let spec = RootSpec::Tree {
                form,
                path: pieces.clone(),
                escapes: escape.into_iter().collect(),
                suffix: None,
            };
            let uri = spec.render("{base}", &TreeNames::default());
            // The path a single decoding gives: double encoding leaves escapes in it.
            let path = if escape == Some(Escape::Double) {
                format!("{{base}}/{}", percent_encoded(rel))
            } else {
                hostile.clone()
            };
            let name = format!("door-read-{}-{form_name}", attack.name);
            let note = format!(
                "resources/read of {uri} ({}); the case is the path the URI names",
                attack.note
            );
            out.push(Knock {
                scenario: scenario_of(cx, &name, &attack.tree, path, &note),
                name,
                door: RESOURCES_READ.to_owned(),
                method: "resources/read",
                params: json!({ "uri": uri }),
                target: hostile.clone(),
                prelude: Vec::new(),
                observe_disk: false,
                op: None,
            });
        }
    }
    Ok(out)
}

/// Every byte of `rel` but `/` as `%XX`.
fn percent_encoded(rel: &str) -> String {
    rel.bytes()
        .map(|b| {
            if b == b'/' {
                "/".to_owned()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// A template's variables, each in turn, filled with climbs to the
/// canary in every spelling: relative at depth 1 and 2, and after the
/// root's own path at depth 1 and 2 (without its leading `/`, unless the
/// variable comes right after `scheme://`, as in `file://{+path}`).
fn template_reads(cx: &Context<'_>, index: usize, t: &UriTemplate) -> Vec<Knock> {
    let tree = door_tree();
    let mut out = Vec::new();
    for var in t.variables() {
        let root = if t.after_authority(&var) {
            format!("/{BASE_REL}/{ROOT}")
        } else {
            format!("{BASE_REL}/{ROOT}")
        };
        for (spelling, dots, sep) in SPELLINGS {
            let climb = |n: usize| format!("{dots}{sep}").repeat(n);
            let tail = format!("out{sep}secret.txt");
            let shapes = [
                ("depth1", climb(1) + &tail, climb(1) + &tail),
                ("depth2", climb(2) + &tail, climb(2) + &tail),
                (
                    "root-depth1",
                    format!("{root}/{}{tail}", climb(1)),
                    climb(1) + &tail,
                ),
                (
                    "root-depth2",
                    format!("{root}/sub/{}{tail}", climb(2)),
                    format!("sub/{}{tail}", climb(2)),
                ),
            ];
            for (shape, value, under_root) in shapes {
                let uri = t.fill(|v| {
                    if v == var {
                        value.clone()
                    } else {
                        BENIGN.to_owned()
                    }
                });
                let name = format!("door-template{index}-{}-{spelling}-{shape}", safe(&var));
                let note = format!(
                    "resources/read of {uri} (the template {}); the case is the variable's value taken as a path beneath the root",
                    t.text
                );
                let path = format!("{{base}}/{ROOT}/{under_root}");
                out.push(Knock {
                    scenario: scenario_of(cx, &name, &tree, path, &note),
                    name,
                    door: t.door(),
                    method: "resources/read",
                    params: json!({ "uri": uri }),
                    target: "{base}/out/secret.txt".to_owned(),
                    prelude: Vec::new(),
                    observe_disk: false,
                    op: None,
                });
            }
        }
    }
    out
}

/// A prompt's arguments, each in turn, given the canary beside the root
/// and the one in its prefix sibling: an absolute path, a file URI, a
/// `../` path.
fn prompt_gets(cx: &Context<'_>, prompt: &Prompt, base: &str) -> Vec<Knock> {
    let tree = door_tree();
    let mut out = Vec::new();
    for arg in &prompt.arguments {
        for dir in ["out", "proj2"] {
            let target = format!("{{base}}/{dir}/secret.txt");
            let absolute = format!("{base}/{dir}/secret.txt");
            let forms = [
                ("absolute", target.clone()),
                ("uri", file_uri(absolute.as_bytes()).replace(base, "{base}")),
                ("relative", format!("../{dir}/secret.txt")),
            ];
            for (form, value) in forms {
                let mut arguments = Map::new();
                for other in &prompt.arguments {
                    let v = if other.name == arg.name {
                        value.clone()
                    } else {
                        BENIGN.to_owned()
                    };
                    arguments.insert(other.name.clone(), Value::String(v));
                }
                let name = format!(
                    "door-prompt-{}-{}-{dir}-{form}",
                    safe(&prompt.name),
                    safe(&arg.name)
                );
                let note = format!(
                    "prompts/get {} with the argument {} = {value}; the case is the file it names",
                    prompt.name, arg.name
                );
                out.push(Knock {
                    scenario: scenario_of(cx, &name, &tree, target.clone(), &note),
                    name,
                    door: prompt.door(),
                    method: "prompts/get",
                    params: json!({"name": prompt.name, "arguments": arguments}),
                    target: target.clone(),
                    prelude: Vec::new(),
                    observe_disk: false,
                    op: None,
                });
            }
        }
    }
    out
}

/// A tool's path-like arguments ([`ArgDoor`]), each in turn, given the
/// canary beside the root and the one in its prefix sibling (a path
/// argument as an absolute path, a file URI and a `../` path; a URI
/// argument as a file URI and an absolute path), every other one a file
/// inside the root: a read or a copy of the canary, or a write over it.
fn tool_calls(cx: &Context<'_>, door: &ArgDoor, base: &str) -> Vec<Knock> {
    let tree = door_tree();
    let mut out = Vec::new();
    for slot in &door.slots {
        for dir in ["out", "proj2"] {
            let target = format!("{{base}}/{dir}/secret.txt");
            let uri =
                file_uri(format!("{base}/{dir}/secret.txt").as_bytes()).replace(base, "{base}");
            let forms: Vec<(&str, String)> = if slot.uri {
                vec![("uri", uri), ("absolute", target.clone())]
            } else {
                vec![
                    ("absolute", target.clone()),
                    ("uri", uri),
                    ("relative", format!("../{dir}/secret.txt")),
                ]
            };
            for (form, value) in forms {
                let arguments = argdoors::with(&door.skeleton, slot, Value::String(value.clone()));
                let name = format!(
                    "door-tool-{}-{}-{dir}-{form}",
                    safe(&door.tool),
                    safe(&slot.label())
                );
                let note = format!(
                    "tools/call {} with {} = {value}; the case is the file it names",
                    door.tool,
                    slot.label()
                );
                out.push(Knock {
                    scenario: scenario_of(cx, &name, &tree, target.clone(), &note),
                    name,
                    door: format!("tools/call:{}", door.tool),
                    method: "tools/call",
                    params: json!({"name": door.tool, "arguments": arguments}),
                    target: target.clone(),
                    prelude: Vec::new(),
                    observe_disk: true,
                    op: None,
                });
            }
        }
    }
    out
}
/// Sends a door request that `--out` recorded (`method`, `params` in
/// `{base}` form) again, on a fresh server laid with `scenario`, and
/// observes it as the attack did: the canary in the answer, and for a
/// tool, the disk too (`rootguard mcp replay`). The case's path stands
/// for the file aimed at.
///
/// # Errors
///
/// [`HarnessError::Usage`] for a method that is no door, or a tool door
/// without a sandbox (it may write); the launcher's errors.
pub(super) fn knock_again(
    cx: &mut Context<'_>,
    scenario: &Scenario,
    method: &str,
    params: Value,
    mode: Mode,
) -> Result<Option<Finding>, HarnessError> {
    let name = params["name"].as_str().unwrap_or_default().to_owned();
    let (method, door) = match method {
        "resources/read" => ("resources/read", RESOURCES_READ.to_owned()),
        "prompts/get" => ("prompts/get", format!("prompts/get:{name}")),
        "tools/call" if cx.writes => ("tools/call", format!("tools/call:{name}")),
        "tools/call" => {
            return Err(HarnessError::Usage(format!(
                "the tool {name} may write wherever its arguments say, and there is no sandbox here: pass --allow-unsandboxed-writes to replay it anyway"
            )))
        }
        other => {
            return Err(HarnessError::Usage(format!(
                "a door finding replays a resources/read, prompts/get or tools/call, not {other}"
            )))
        }
    };
    let knock = Knock {
        name: scenario.name.clone(),
        door,
        method,
        params,
        scenario: scenario.clone(),
        target: scenario
            .cases
            .first()
            .map(|c| c.path.to_string_lossy())
            .unwrap_or_default(),
        prelude: Vec::new(),
        observe_disk: method == "tools/call",
        op: None,
    };
    let mut slot = None;
    let found = knock_on(cx, &mut slot, &knock, mode, None)?;
    if let Some(server) = slot {
        drop(server.stop());
    }
    Ok(found)
}
