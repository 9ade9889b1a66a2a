//! The doors of a server: what its `tools/list`, `resources/list`,
//! `resources/templates/list` and `prompts/list` expose ([`Inventory`]),
//! each list followed through `nextCursor`, and the URI templates
//! (RFC 6570 levels 1 and 2, and the `/` operator) filled with hostile
//! values as they are, never encoded again ([`UriTemplate::fill`]).

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::argdoors::{self, ArgDoor};
use crate::client::{Session, SessionError};
use crate::gitdoors::{self, ArchiveDoor, GitDoor};
use crate::tally::DoorCalls;
use crate::tools::{self, Action, Tool};

/// At most this many pages of one list are read.
const MAX_PAGES: usize = 20;

/// The door of direct `resources/read` calls (a file URI of any path).
pub const RESOURCES_READ: &str = "resources/read";

/// One resource a server lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    /// Its URI.
    pub uri: String,
    /// Its name, if given.
    pub name: Option<String>,
}

/// One argument of a prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptArgument {
    /// Its name.
    pub name: String,
    /// Whether the prompt requires it.
    pub required: bool,
}

/// One prompt a server lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    /// Its name.
    pub name: String,
    /// Its arguments.
    pub arguments: Vec<PromptArgument>,
}

impl Prompt {
    /// Its door in the tally and in findings: `prompts/get:NAME`.
    pub fn door(&self) -> String {
        format!("prompts/get:{}", self.name)
    }
}

/// What a server exposes, as its lists said after `initialize`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Inventory {
    /// Every tool's name.
    pub tools: Vec<String>,
    /// The tools rootguard attacks as file tools ([`tools::discover`]).
    pub file_tools: Vec<String>,
    /// The file tool that writes a file (`path`, `content`), which the
    /// git attacks plant through.
    pub writer: Option<Tool>,
    /// The git tools ([`gitdoors::git_doors`]).
    pub git_doors: Vec<GitDoor>,
    /// The archive tools ([`gitdoors::archive_doors`]).
    pub archive_doors: Vec<ArchiveDoor>,
    /// The other tools that take a path or a URI ([`argdoors::arg_doors`]).
    pub arg_doors: Vec<ArgDoor>,
    /// Whether `resources/list` or `resources/templates/list` answered
    /// (then `resources/read` is a door, whatever the lists hold).
    pub serves_resources: bool,
    /// The resources listed.
    pub resources: Vec<Resource>,
    /// The URI templates listed.
    pub templates: Vec<UriTemplate>,
    /// The prompts listed.
    pub prompts: Vec<Prompt>,
    /// Lists that failed other than with -32601, each with its error.
    pub failed_lists: Vec<String>,
}

/// How one list went.
enum Listed {
    /// The items of every page.
    Items(Vec<Value>),
    /// The server has no such method (-32601).
    NoMethod,
    /// Another error.
    Failed(String),
}

impl Inventory {
    /// Reads the four lists, each page of each (at most 20) followed by
    /// its `nextCursor`; a method the server does not have (-32601) is an
    /// empty list.
    ///
    /// # Errors
    ///
    /// [`SessionError`] when the session fails (a hang, an exit, a line
    /// that is not JSON).
    pub fn discover(session: &mut Session) -> Result<Inventory, SessionError> {
        let mut inventory = Inventory::default();
        let mut items = |method: &str, key: &str| -> Result<Vec<Value>, SessionError> {
            Ok(match list(session, method, key)? {
                Listed::Items(items) => {
                    if method.starts_with("resources/") {
                        inventory.serves_resources = true;
                    }
                    items
                }
                Listed::NoMethod => Vec::new(),
                Listed::Failed(why) => {
                    inventory.failed_lists.push(format!("{method}: {why}"));
                    Vec::new()
                }
            })
        };
        let tools = items("tools/list", "tools")?;
        let resources = items("resources/list", "resources")?;
        let templates = items("resources/templates/list", "resourceTemplates")?;
        let prompts = items("prompts/list", "prompts")?;
        let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
        inventory.tools = tools.iter().filter_map(|t| text(t, "name")).collect();
        let file_tools = tools::discover(&tools);
        inventory.writer = file_tools
            .iter()
            .find(|t| t.action == Action::Write)
            .cloned();
        inventory.file_tools = file_tools.into_iter().map(|t| t.name).collect();
        inventory.file_tools.dedup();
        inventory.git_doors = gitdoors::git_doors(&tools, &inventory.file_tools);
        let mut taken = inventory.file_tools.clone();
        taken.extend(inventory.git_doors.iter().map(|d| d.tool.clone()));
        inventory.archive_doors = gitdoors::archive_doors(&tools, &taken);
        taken.extend(inventory.archive_doors.iter().map(|d| d.tool.clone()));
        inventory.arg_doors = argdoors::arg_doors(&tools, &taken);
        inventory.resources = resources
            .iter()
            .filter_map(|r| {
                Some(Resource {
                    uri: text(r, "uri")?,
                    name: text(r, "name"),
                })
            })
            .collect();
        inventory.templates = templates
            .iter()
            .filter_map(|t| Some(UriTemplate::parse(&text(t, "uriTemplate")?)))
            .collect();
        inventory.prompts = prompts
            .iter()
            .filter_map(|p| {
                let arguments = p
                    .get("arguments")
                    .and_then(Value::as_array)
                    .map(|args| {
                        args.iter()
                            .filter_map(|a| {
                                Some(PromptArgument {
                                    name: text(a, "name")?,
                                    required: a
                                        .get("required")
                                        .and_then(Value::as_bool)
                                        .unwrap_or(false),
                                })
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                Some(Prompt {
                    name: text(p, "name")?,
                    arguments,
                })
            })
            .collect();
        Ok(inventory)
    }

    /// Whether every list was empty (or missing).
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
            && self.resources.is_empty()
            && self.templates.is_empty()
            && self.prompts.is_empty()
    }

    /// The doors through which a hostile path can be sent, and what each
    /// got: file tools, `resources/read` when resources are served, each
    /// template with a variable, each prompt with an argument; then the
    /// rest of what is listed, which rootguard does not attack.
    pub fn doors(&self, calls: &BTreeMap<String, DoorCalls>) -> Vec<Door> {
        let got = |name: &str| calls.get(name).copied().unwrap_or_default();
        let mut doors = Vec::new();
        let mut door = |kind: DoorKind, name: String, attackable: bool| {
            let calls = got(&name);
            doors.push(Door {
                kind,
                name,
                attackable,
                calls,
            });
        };
        for tool in &self.tools {
            let kind = if self.file_tools.contains(tool) {
                DoorKind::FileTool
            } else if self.git_doors.iter().any(|d| &d.tool == tool) {
                DoorKind::Git
            } else if self.archive_doors.iter().any(|d| &d.tool == tool) {
                DoorKind::Archive
            } else {
                DoorKind::Tool
            };
            let takes_paths = self.arg_doors.iter().any(|d| &d.tool == tool);
            door(
                kind,
                format!("tools/call:{tool}"),
                kind != DoorKind::Tool || takes_paths,
            );
        }
        if self.serves_resources {
            door(DoorKind::Resources, RESOURCES_READ.to_owned(), true);
        }
        for t in &self.templates {
            door(DoorKind::Template, t.door(), !t.variables().is_empty());
        }
        for p in &self.prompts {
            door(DoorKind::Prompt, p.door(), !p.arguments.is_empty());
        }
        doors
    }
}

/// One list, every page.
fn list(session: &mut Session, method: &str, key: &str) -> Result<Listed, SessionError> {
    let mut all = Vec::new();
    let mut cursor: Option<Value> = None;
    for _ in 0..MAX_PAGES {
        let params = match &cursor {
            Some(c) => json!({"cursor": c}),
            None => json!({}),
        };
        let response = session.request(method, params)?;
        if let Some(error) = response.get("error") {
            if error.get("code").and_then(Value::as_i64) == Some(-32601) {
                return Ok(Listed::NoMethod);
            }
            if all.is_empty() {
                return Ok(Listed::Failed(
                    crate::client::tail(&error.to_string(), 200).to_owned(),
                ));
            }
            break;
        }
        if let Some(items) = response["result"][key].as_array() {
            all.extend(items.iter().cloned());
        }
        match response["result"].get("nextCursor") {
            Some(c) if !c.is_null() && cursor.as_ref() != Some(c) => cursor = Some(c.clone()),
            _ => break,
        }
    }
    Ok(Listed::Items(all))
}

/// What a door is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DoorKind {
    /// A tool rootguard attacks as a file tool.
    FileTool,
    /// A git tool ([`GitDoor`]), attacked by the git phase.
    Git,
    /// An archive tool ([`ArchiveDoor`]), attacked with zip-slip archives.
    Archive,
    /// Another tool: attacked through its path-like arguments when it
    /// has any ([`ArgDoor`]), else listed only.
    Tool,
    /// `resources/read` with file URIs.
    Resources,
    /// A URI template of `resources/templates/list`.
    Template,
    /// A prompt of `prompts/list`.
    Prompt,
}

impl DoorKind {
    /// Its name in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            DoorKind::FileTool => "file-tool",
            DoorKind::Git => "git",
            DoorKind::Archive => "archive",
            DoorKind::Tool => "tool",
            DoorKind::Resources => "resources",
            DoorKind::Template => "template",
            DoorKind::Prompt => "prompt",
        }
    }
}

/// One door and the calls it got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Door {
    /// What it is.
    pub kind: DoorKind,
    /// `tools/call:NAME`, `resources/read`, `resources/read:TEMPLATE`, `prompts/get:NAME`.
    pub name: String,
    /// Whether a hostile path can be sent through it (a file tool, a git
    /// or archive tool, a tool taking a path, a template with a variable,
    /// a prompt with an argument, resources/read).
    pub attackable: bool,
    /// The calls it got.
    pub calls: DoorCalls,
}

impl Door {
    /// Whether it could be attacked and was not.
    pub fn unattacked(&self) -> bool {
        self.attackable && !self.calls.attacked()
    }
}

/// A URI template (RFC 6570): literal text and `{…}` expressions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UriTemplate {
    /// The template as listed.
    pub text: String,
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Literal(String),
    /// An expression: its operator (`+`, `#`, `/`, `.`, `;`, `?`, `&`, or none) and variables.
    Expression(Option<char>, Vec<String>),
}

impl UriTemplate {
    /// Parses `text`; an unclosed `{` is literal text.
    ///
    /// # Examples
    ///
    /// ```
    /// use rootguard_mcp::doors::UriTemplate;
    ///
    /// let t = UriTemplate::parse("file:///{+path}{?rev}");
    /// assert_eq!(t.variables(), ["path", "rev"]);
    /// let uri = t.fill(|var| if var == "path" { "a/%2e%2e%2fb".into() } else { "1".into() });
    /// assert_eq!(uri, "file:///a/%2e%2e%2fb?rev=1");
    /// ```
    pub fn parse(text: &str) -> UriTemplate {
        let mut parts = Vec::new();
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}').map(|c| open + c) else {
                break;
            };
            if open > 0 {
                parts.push(Part::Literal(rest[..open].to_owned()));
            }
            let inner = &rest[open + 1..close];
            let op = inner.chars().next().filter(|c| "+#/.;?&".contains(*c));
            let names = &inner[op.map_or(0, char::len_utf8)..];
            let vars = names
                .split(',')
                .map(|v| {
                    let v = v.trim_end_matches('*');
                    v.split(':').next().unwrap_or(v).to_owned()
                })
                .filter(|v| !v.is_empty())
                .collect();
            parts.push(Part::Expression(op, vars));
            rest = &rest[close + 1..];
        }
        if !rest.is_empty() {
            parts.push(Part::Literal(rest.to_owned()));
        }
        UriTemplate {
            text: text.to_owned(),
            parts,
        }
    }

    /// Its door in the tally and in findings: `resources/read:TEMPLATE`.
    pub fn door(&self) -> String {
        format!("{RESOURCES_READ}:{}", self.text)
    }

    /// Its variables, in order, each once.
    pub fn variables(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for part in &self.parts {
            if let Part::Expression(_, vars) = part {
                for v in vars {
                    if !out.contains(v) {
                        out.push(v.clone());
                    }
                }
            }
        }
        out
    }

    /// Whether `var` is the first thing after a `scheme://` with no path
    /// separator of the template's own (`file://{+path}`): a whole path
    /// put there must bring its leading `/`, or it is read as a host.
    pub fn after_authority(&self, var: &str) -> bool {
        self.parts.windows(2).any(|w| match w {
            [Part::Literal(text), Part::Expression(op, vars)] => {
                text.ends_with("://")
                    && matches!(op, None | Some('+'))
                    && vars.first().is_some_and(|v| v == var)
            }
            _ => false,
        })
    }

    /// The URI with each variable's value from `value` put in as it is
    /// (the attack chooses its own encoding), each expression's operator
    /// giving its prefix and separators.
    pub fn fill(&self, value: impl Fn(&str) -> String) -> String {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Literal(text) => out.push_str(text),
                Part::Expression(op, vars) => {
                    let (first, sep, named) = match op {
                        None | Some('+') => ("", ",", false),
                        Some('#') => ("#", ",", false),
                        Some('/') => ("/", "/", false),
                        Some('.') => (".", ".", false),
                        Some(';') => (";", ";", true),
                        Some('?') => ("?", "&", true),
                        Some(_) => ("&", "&", true),
                    };
                    out.push_str(first);
                    for (i, var) in vars.iter().enumerate() {
                        if i > 0 {
                            out.push_str(sep);
                        }
                        if named {
                            out.push_str(var);
                            out.push('=');
                        }
                        out.push_str(&value(var));
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_of_levels_one_and_two_fill_as_written() {
        let fill = |t: &str| UriTemplate::parse(t).fill(|v| format!("<{v}>"));
        assert_eq!(fill("file://documents/{name}"), "file://documents/<name>");
        assert_eq!(fill("file:///{+path}"), "file:///<path>");
        assert_eq!(fill("file:///root{/a,b}"), "file:///root/<a>/<b>");
        assert_eq!(fill("x://{a}/{b*}{#frag}"), "x://<a>/<b>#<frag>");
        assert_eq!(fill("x://y{?q,r}"), "x://y?q=<q>&r=<r>");
        assert_eq!(fill("x://{unclosed"), "x://{unclosed");
        assert_eq!(UriTemplate::parse("a{x}{x:3}").variables(), ["x"]);
        assert!(UriTemplate::parse("file:///fixed").variables().is_empty());
    }

    #[test]
    fn a_variable_right_after_the_authority_is_told_apart() {
        assert!(UriTemplate::parse("file://{+path}").after_authority("path"));
        assert!(UriTemplate::parse("x://{host}/{rest}").after_authority("host"));
        assert!(!UriTemplate::parse("x://{host}/{rest}").after_authority("rest"));
        assert!(!UriTemplate::parse("file:///{+path}").after_authority("path"));
        assert!(!UriTemplate::parse("file://documents/{name}").after_authority("name"));
        assert!(!UriTemplate::parse("x://{/a}").after_authority("a"));
    }
}
