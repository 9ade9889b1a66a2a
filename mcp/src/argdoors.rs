//! The tool arguments that carry a path or a URI, beyond the file tools'
//! own: found in each tool's input schema by the property's name, its
//! `format` or its description, at the top or nested in objects and
//! arrays, so that a tool whose name does not say "file" (`fetch_document`
//! taking `{"doc": {"location": "file:///…"}}`) and both ends of a
//! multi-path tool (`copy(from, to)`) are attacked too.

use serde_json::{json, Map, Value};

use crate::tools::{deref, Fill, Nesting, Tool};

/// How deep objects and arrays are searched for path-like properties.
const MAX_DEPTH: usize = 4;

/// Property names (lowercase, without `_` and `-`) that name a path.
const PATH_NAMES: [&str; 24] = [
    "path",
    "paths",
    "file",
    "files",
    "filename",
    "filepath",
    "dir",
    "dirpath",
    "directory",
    "folder",
    "root",
    "cwd",
    "workdir",
    "source",
    "src",
    "destination",
    "dest",
    "dst",
    "target",
    "from",
    "to",
    "location",
    "repo",
    "repository",
];

/// Property names (lowercase, without `_` and `-`) that name a URI.
const URI_NAMES: [&str; 5] = ["uri", "url", "resource", "resourceuri", "href"];

/// One step into a tool's arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// An object's property.
    Key(String),
    /// An array's first item.
    First,
}

/// One string argument: one that carries a path or a URI, or (in
/// [`ArgDoor::texts`]) any other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot {
    /// Where it sits in the arguments.
    pub at: Vec<Step>,
    /// Whether it takes a URI (by its name or `format`) rather than a path.
    pub uri: bool,
    /// Its property's name (`repo_path`; for an array's item, the array's).
    pub name: String,
    /// Its property's description, lowercase (empty when it has none).
    pub description: String,
    /// Whether the schema requires its property (an array's item: the array).
    pub required: bool,
}

impl Slot {
    /// Its place, as a file name part: `doc.location`, `files.0`.
    pub fn label(&self) -> String {
        self.at
            .iter()
            .map(|s| match s {
                Step::Key(k) => k.clone(),
                Step::First => "0".to_owned(),
            })
            .collect::<Vec<_>>()
            .join(".")
    }
}

/// A tool that is not attacked as a file tool but takes paths or URIs:
/// its name, the arguments its schema needs (every path-like one a file
/// inside the root, the rest a plain value of its type) and its slots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgDoor {
    /// The tool's name.
    pub tool: String,
    /// The arguments with every slot [`INSIDE`] (or its URI).
    pub skeleton: Value,
    /// The path-like arguments.
    pub slots: Vec<Slot>,
    /// The other string arguments that take any text (no `enum`, no
    /// `const`): a revision, a branch name, a message.
    pub texts: Vec<Slot>,
}

/// What a slot holds when it is not the one under attack (`{base}` form).
pub const INSIDE: &str = "{base}/proj/inside.txt";

/// The tools of a `tools/list` result, other than `taken` (the file
/// tools, and the git and archive tools their own phases attack), that
/// have at least one path-like argument.
pub fn arg_doors(tools: &[Value], taken: &[String]) -> Vec<ArgDoor> {
    tools
        .iter()
        .filter_map(shape)
        .filter(|door| !door.slots.is_empty() && !taken.contains(&door.tool))
        .collect()
}

/// A tool of a `tools/list` result as its input schema shapes it: its
/// arguments (a skeleton), the ones that carry a path or a URI and the
/// other free strings; `None` without a name or an input schema.
pub fn shape(tool: &Value) -> Option<ArgDoor> {
    let name = tool.get("name")?.as_str()?;
    let schema = tool.get("inputSchema")?;
    let mut found = Found::default();
    let skeleton = build(schema, schema, &mut Vec::new(), &mut found, 0);
    Some(ArgDoor {
        tool: name.to_owned(),
        skeleton,
        slots: found.slots,
        texts: found.texts,
    })
}

/// The strings a schema's walk found.
#[derive(Default)]
struct Found {
    slots: Vec<Slot>,
    texts: Vec<Slot>,
}

/// `skeleton` with the value at `slot` replaced by `value` (a property
/// the skeleton leaves out put in).
pub fn with(skeleton: &Value, slot: &Slot, value: Value) -> Value {
    let mut out = skeleton.clone();
    let mut here = &mut out;
    for step in &slot.at {
        here = match step {
            Step::Key(k) => match here.as_object_mut() {
                Some(o) => o.entry(k.clone()).or_insert(Value::Null),
                None => return out,
            },
            Step::First => match here.as_array_mut().and_then(|a| a.first_mut()) {
                Some(v) => v,
                None => return out,
            },
        };
    }
    *here = value;
    out
}

/// The inside value of a slot: [`INSIDE`], or its file URI.
pub fn inside_value(uri: bool) -> Value {
    if uri {
        Value::String(format!("file://{INSIDE}"))
    } else {
        Value::String(INSIDE.to_owned())
    }
}

/// `found`, the file tools of `tools` (a `tools/list` result), each given
/// what its other required arguments take: a path-like one the directory
/// of the attack's path (mcp-cli's `workingDirectory`), any other a plain
/// value of its type (excel-mcp-server's `sheet`). Without them every
/// call would be refused for the missing argument, before the path is
/// looked at.
pub fn with_fills(mut found: Vec<Tool>, tools: &[Value]) -> Vec<Tool> {
    for tool in &mut found {
        let Some(input) = tools
            .iter()
            .find(|t| t.get("name").and_then(Value::as_str) == Some(tool.name.as_str()))
            .and_then(|t| t.get("inputSchema"))
        else {
            continue;
        };
        let top = deref(input, input);
        let object = match &tool.nesting {
            Nesting::Top => Some(top),
            Nesting::Object(name) => top.pointer(&format!("/properties/{name}")),
            Nesting::Array(name) => top.pointer(&format!("/properties/{name}/items")),
        }
        .map(|s| deref(input, s));
        let Some(object) = object else { continue };
        let required = object.get("required").and_then(Value::as_array);
        for name in required.into_iter().flatten().filter_map(Value::as_str) {
            if tool.action.needs().contains(&name) {
                continue;
            }
            let Some(prop) = object.pointer(&format!("/properties/{name}")) else {
                continue;
            };
            let prop = deref(input, prop);
            let fill = match (path_like(name, prop), kind(prop)) {
                (Some(uri), "string" | "") => Fill::Dir { uri },
                _ => Fill::Value(build(
                    input,
                    prop,
                    &mut Vec::new(),
                    &mut Found::default(),
                    0,
                )),
            };
            tool.fills.push((name.to_owned(), fill));
        }
    }
    found
}

/// Whether a property named `name` with `schema` carries a path or a URI:
/// `Some(true)` a URI, `Some(false)` a path.
fn path_like(name: &str, schema: &Value) -> Option<bool> {
    // A value from a fixed list (`confirm: "Y" | "yes"`) names no path,
    // whatever its description says.
    if schema.get("enum").is_some() || schema.get("const").is_some() {
        return None;
    }
    let key: String = name
        .chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect();
    let format = schema.get("format").and_then(Value::as_str).unwrap_or("");
    // A plural names a list of them (`file_paths`, `source_uris`).
    let stem = key.strip_suffix("ies").map_or_else(
        || key.strip_suffix('s').unwrap_or(&key).to_owned(),
        |k| format!("{k}y"),
    );
    if URI_NAMES.contains(&key.as_str())
        || ["uri", "url"].iter().any(|end| stem.ends_with(end))
        || matches!(format, "uri" | "uri-reference" | "iri")
    {
        return Some(true);
    }
    if PATH_NAMES.contains(&key.as_str())
        || ["path", "file", "dir", "directory", "folder"]
            .iter()
            .any(|end| stem.ends_with(end))
    {
        return Some(false);
    }
    let description = schema
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_lowercase();
    let says = |w: &str| {
        description
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|word| word == w)
    };
    if ["uri", "uris", "url", "urls"].iter().any(|w| says(w)) {
        return Some(true);
    }
    [
        "path",
        "paths",
        "file",
        "files",
        "directory",
        "directories",
        "folder",
        "folders",
    ]
    .iter()
    .any(|w| says(w))
    .then_some(false)
}

/// The type a schema names (the first of a list; `string` for `anyOf`
/// holding one).
fn kind(schema: &Value) -> &str {
    match schema.get("type") {
        Some(Value::String(t)) => t,
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or(""),
        _ => {
            let any = schema
                .get("anyOf")
                .or_else(|| schema.get("oneOf"))
                .and_then(Value::as_array);
            match any {
                Some(options) if options.iter().any(|o| kind(o) == "string") => "string",
                _ if schema.get("properties").is_some() => "object",
                _ if schema.get("items").is_some() => "array",
                _ => "",
            }
        }
    }
}

/// A value for `schema` (under `root` for `$ref`s) at `at`, its path-like
/// strings and its other free strings recorded in `found`.
fn build(
    root: &Value,
    schema: &Value,
    at: &mut Vec<Step>,
    found: &mut Found,
    depth: usize,
) -> Value {
    let schema = deref(root, schema);
    if let Some(first) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    if let Some(value) = schema.get("const") {
        return value.clone();
    }
    match kind(schema) {
        "object" if depth < MAX_DEPTH => {
            let mut out = Map::new();
            let Some(props) = schema.get("properties").and_then(Value::as_object) else {
                return Value::Object(out);
            };
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            for (name, prop) in props {
                let prop = deref(root, prop);
                at.push(Step::Key(name.clone()));
                let slot = |at: &[Step], uri| Slot {
                    at: at.to_vec(),
                    uri,
                    name: name.clone(),
                    description: prop
                        .get("description")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_lowercase(),
                    required: required.contains(&name.as_str()),
                };
                let value = match (path_like(name, prop), kind(prop)) {
                    (Some(uri), "string" | "") => {
                        found.slots.push(slot(at, uri));
                        inside_value(uri)
                    }
                    (Some(uri), "array")
                        if prop
                            .get("items")
                            .is_some_and(|i| matches!(kind(deref(root, i)), "string" | "")) =>
                    {
                        at.push(Step::First);
                        found.slots.push(slot(at, uri));
                        at.pop();
                        json!([inside_value(uri)])
                    }
                    (None, "string") if free(prop) => {
                        found.texts.push(slot(at, false));
                        Value::String(TEXT.into())
                    }
                    _ => build(root, prop, at, found, depth + 1),
                };
                at.pop();
                out.insert(name.clone(), value);
            }
            Value::Object(out)
        }
        "array" if depth < MAX_DEPTH => {
            let Some(items) = schema.get("items") else {
                return json!([]);
            };
            at.push(Step::First);
            let item = build(root, items, at, found, depth + 1);
            at.pop();
            json!([item])
        }
        "string" => Value::String(TEXT.into()),
        "integer" | "number" => json!(1),
        "boolean" => json!(false),
        "object" => json!({}),
        "array" => json!([]),
        _ => Value::String(TEXT.into()),
    }
}

/// What a free string argument holds in a skeleton.
pub const TEXT: &str = "rootguard";

/// Whether a string schema takes any text: no `enum`, no `const` (after
/// `$ref`s, as [`build`] reads them).
fn free(schema: &Value) -> bool {
    schema.get("enum").is_none() && schema.get("const").is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doors(tools: &[Value]) -> Vec<ArgDoor> {
        arg_doors(tools, &["read_file".to_owned()])
    }

    #[test]
    fn nested_uri_and_two_ended_tools_are_found_and_file_tools_are_not() {
        let tools = [
            json!({"name": "read_file", "inputSchema": {"properties": {"path": {"type": "string"}}}}),
            json!({"name": "fetch_document", "inputSchema": {"type": "object", "properties": {
                "doc": {"type": "object", "properties": {
                    "location": {"type": "string", "format": "uri"},
                    "pages": {"type": "integer"}}}}}}),
            json!({"name": "copy", "inputSchema": {"type": "object", "properties": {
                "from": {"type": "string"}, "to": {"type": "string"},
                "mode": {"type": "string", "enum": ["fast", "safe"]}}}}),
            json!({"name": "summarize", "inputSchema": {"type": "object", "properties": {
                "inputs": {"type": "array", "items": {"type": "string"},
                           "description": "Paths of the notes to read"},
                "style": {"type": "string"}}}}),
            json!({"name": "echo", "inputSchema": {"type": "object", "properties": {
                "text": {"type": "string"}}}}),
        ];
        let found = doors(&tools);
        let names: Vec<&str> = found.iter().map(|d| d.tool.as_str()).collect();
        assert_eq!(names, ["fetch_document", "copy", "summarize"]);
        let fetch = &found[0];
        assert_eq!(fetch.slots.len(), 1);
        assert!(fetch.slots[0].uri);
        assert_eq!(fetch.slots[0].label(), "doc.location");
        assert_eq!(
            fetch.skeleton,
            json!({"doc": {"location": "file://{base}/proj/inside.txt", "pages": 1}})
        );
        let copy = &found[1];
        assert_eq!(
            copy.slots.iter().map(Slot::label).collect::<Vec<_>>(),
            ["from", "to"]
        );
        assert_eq!(copy.skeleton["mode"], "fast");
        let hostile = with(&copy.skeleton, &copy.slots[1], json!("/x"));
        assert_eq!(hostile["to"], "/x");
        assert_eq!(hostile["from"], INSIDE);
        let summarize = &found[2];
        assert_eq!(summarize.slots[0].label(), "inputs.0");
        assert_eq!(
            with(&summarize.skeleton, &summarize.slots[0], json!("/y"))["inputs"],
            json!(["/y"])
        );
    }

    #[test]
    fn required_arguments_the_attack_does_not_pass_are_filled() {
        let tools = [
            json!({"name": "readFile", "inputSchema": {"type": "object", "properties": {
                "workingDirectory": {"type": "string"}, "path": {"type": "string"}},
                "required": ["workingDirectory", "path"]}}),
            json!({"name": "read_range", "inputSchema": {"type": "object", "properties": {
                "path": {"type": "string"}, "sheet": {"type": "string"},
                "mode": {"type": "string", "enum": ["values", "formulas"]},
                "range": {"type": "string"}},
                "required": ["path", "sheet", "mode"]}}),
        ];
        let found: Vec<Tool> = ["readFile", "read_range"]
            .iter()
            .map(|name| Tool {
                action: crate::tools::Action::Read,
                name: (*name).to_owned(),
                nesting: Nesting::Top,
                fills: Vec::new(),
            })
            .collect();
        let found = with_fills(found, &tools);
        let path = "/b/proj2/secret.txt".to_owned();
        assert_eq!(
            found[0].arguments(std::slice::from_ref(&path), "x"),
            json!({"path": path, "workingDirectory": "/b/proj2"})
        );
        assert_eq!(
            found[1].arguments(std::slice::from_ref(&path), "x"),
            json!({"path": path, "sheet": "rootguard", "mode": "values"})
        );
    }

    #[test]
    fn an_enumerated_value_is_no_path_whatever_its_description() {
        let tools = [
            json!({"name": "git_clear_working_dir", "inputSchema": {"type": "object",
            "properties": {"confirm": {"type": "string", "enum": ["Y", "yes"],
                "description": "Explicit confirmation required to clear working directory."}},
            "required": ["confirm"]}}),
        ];
        assert!(doors(&tools).is_empty());
    }

    #[test]
    fn plural_names_are_lists_of_paths_or_uris() {
        let tools = [
            json!({"name": "convert_file_encoding", "inputSchema": {"type": "object",
            "properties": {
                "file_paths": {"type": "array", "items": {"type": "string"}},
                "sub_directories": {"type": "array", "items": {"type": "string"}},
                "source_uris": {"type": "array", "items": {"type": "string"}},
                "target_encoding": {"type": "string"},
                "aliases": {"type": "array", "items": {"type": "string"}}}}}),
        ];
        let found = doors(&tools);
        let slots: Vec<(String, bool)> =
            found[0].slots.iter().map(|s| (s.label(), s.uri)).collect();
        assert_eq!(
            slots,
            [
                ("file_paths.0".to_owned(), false),
                ("source_uris.0".to_owned(), true),
                ("sub_directories.0".to_owned(), false)
            ]
        );
    }

    #[test]
    fn refs_are_followed_and_depth_is_bounded() {
        let tools = [json!({"name": "batch", "inputSchema": {"type": "object",
            "properties": {"jobs": {"type": "array", "items": {"$ref": "#/$defs/Job"}}},
            "$defs": {"Job": {"type": "object", "properties": {"file_path": {"type": "string"}}}}}})];
        let found = doors(&tools);
        assert_eq!(found[0].slots[0].label(), "jobs.0.file_path");
        assert!(!found[0].slots[0].uri);
        // A self-referencing schema ends.
        let looped = [json!({"name": "tree", "inputSchema": {"$ref": "#/$defs/N",
            "$defs": {"N": {"type": "object", "properties": {"child": {"$ref": "#/$defs/N"},
                                                              "dir": {"type": "string"}}}}}})];
        let found = doors(&looped);
        assert_eq!(found[0].slots.len(), MAX_DEPTH);
    }
}
