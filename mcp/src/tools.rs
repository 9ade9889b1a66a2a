//! The server's file tools, found in its `tools/list` by name and input
//! schema, and the arguments each attack passes them.

use serde_json::{json, Value};

/// What a file tool does, as far as an attack cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Read one file's text (`path`).
    Read,
    /// Read several files (`paths`).
    ReadMany,
    /// List a directory (`path`).
    List,
    /// A recursive tree of a directory (`path`).
    Tree,
    /// Search names beneath a directory (`path`, `pattern`).
    Search,
    /// Metadata of a file (`path`).
    Info,
    /// Create or overwrite a file (`path`, `content`).
    Write,
    /// Edit a file in place (`path`, `edits`).
    Edit,
    /// Create a directory (`path`).
    Mkdir,
    /// Move or rename (`source`, `destination`).
    Move,
}

impl Action {
    /// Every action.
    pub const ALL: [Action; 10] = [
        Action::Read,
        Action::ReadMany,
        Action::List,
        Action::Tree,
        Action::Search,
        Action::Info,
        Action::Write,
        Action::Edit,
        Action::Mkdir,
        Action::Move,
    ];

    /// Tool names that do this, most preferred first.
    fn names(self) -> &'static [&'static str] {
        match self {
            Action::Read => &["read_text_file", "read_file"],
            Action::ReadMany => &["read_multiple_files"],
            Action::List => &["list_directory", "list_directory_with_sizes"],
            Action::Tree => &["directory_tree"],
            Action::Search => &["search_files"],
            Action::Info => &["get_file_info"],
            Action::Write => &["write_file"],
            Action::Edit => &["edit_file"],
            Action::Mkdir => &["create_directory"],
            Action::Move => &["move_file"],
        }
    }

    /// The input-schema properties the tool must have.
    pub(crate) fn needs(self) -> &'static [&'static str] {
        match self {
            Action::ReadMany => &["paths"],
            Action::Search => &["path", "pattern"],
            Action::Write => &["path", "content"],
            Action::Edit => &["path", "edits"],
            Action::Move => &["source", "destination"],
            _ => &["path"],
        }
    }

    /// Whether the action changes the file system.
    pub fn writes(self) -> bool {
        matches!(
            self,
            Action::Write | Action::Edit | Action::Mkdir | Action::Move
        )
    }

    /// The action's name in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Read => "read",
            Action::ReadMany => "read-many",
            Action::List => "list",
            Action::Tree => "tree",
            Action::Search => "search",
            Action::Info => "info",
            Action::Write => "write",
            Action::Edit => "edit",
            Action::Mkdir => "mkdir",
            Action::Move => "move",
        }
    }
}

/// Where a tool's arguments sit in its input: at the top, or inside one
/// property (`{"params": {"path": ...}}`, `{"requests": [{"path": ...}]}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Nesting {
    /// At the top of the input.
    Top,
    /// Inside the object property of this name.
    Object(String),
    /// Inside the one item of the array property of this name.
    Array(String),
}

/// What a required argument the attack does not pass is given, so that
/// the call is not refused for its absence (`argdoors::with_fills`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fill {
    /// This value (the schema's first `enum` value, `"rootguard"`, `1`, ...).
    Value(Value),
    /// The directory holding the attack's first path (a working directory,
    /// a base directory): as a path, or as a `file://` URI.
    Dir {
        /// Whether the argument takes a URI.
        uri: bool,
    },
}

/// A tool the server offers, matched to an action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tool {
    /// The action.
    pub action: Action,
    /// The tool's name.
    pub name: String,
    /// Where its arguments go.
    pub nesting: Nesting,
    /// The other required arguments, and what each is given.
    pub fills: Vec<(String, Fill)>,
}

impl Tool {
    /// The `tools/call` arguments for this tool on `paths`, nested as its
    /// input schema nests them (see [`arguments`]).
    pub fn arguments(&self, paths: &[String], pattern: &str) -> Value {
        self.nest(self.filled(arguments(self.action, paths, pattern), paths))
    }

    /// The `tools/call` arguments that write `content` to `path`, for a
    /// tool that writes ([`Action::Write`]), nested as its schema nests them.
    pub fn write_arguments(&self, path: &str, content: &str) -> Value {
        let paths = [path.to_owned()];
        self.nest(self.filled(json!({"path": path, "content": content}), &paths))
    }

    /// `flat` with each other required argument given its fill: a value,
    /// or the directory holding the first of `paths`.
    fn filled(&self, mut flat: Value, paths: &[String]) -> Value {
        if let Some(args) = flat.as_object_mut() {
            let dir = paths.first().map_or("", |p| match p.rfind('/') {
                Some(0) => "/",
                Some(i) => &p[..i],
                None => ".",
            });
            for (name, fill) in &self.fills {
                let value = match fill {
                    Fill::Value(v) => v.clone(),
                    Fill::Dir { uri: false } => Value::String(dir.to_owned()),
                    Fill::Dir { uri: true } => Value::String(format!("file://{dir}")),
                };
                args.entry(name.clone()).or_insert(value);
            }
        }
        flat
    }

    fn nest(&self, flat: Value) -> Value {
        match &self.nesting {
            Nesting::Top => flat,
            Nesting::Object(name) => json!({ name.as_str(): flat }),
            Nesting::Array(name) => json!({ name.as_str(): [flat] }),
        }
    }
}

/// `schema` with a local `$ref` (`#/$defs/X`, `#/definitions/X`) followed
/// within `root`.
pub(crate) fn deref<'a>(root: &'a Value, schema: &'a Value) -> &'a Value {
    let mut schema = schema;
    for _ in 0..8 {
        let Some(target) = schema.get("$ref").and_then(Value::as_str) else {
            break;
        };
        match target.strip_prefix('#').and_then(|p| root.pointer(p)) {
            Some(found) => schema = found,
            None => break,
        }
    }
    schema
}

/// The property names of an object schema, and where they sit: the top
/// level's, else those of the one object (or array of objects) property
/// that holds properties of its own.
fn shaped_properties(input: &Value) -> Option<(Vec<String>, Nesting)> {
    let names = |schema: &Value| -> Option<Vec<String>> {
        deref(input, schema)
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect())
    };
    let top = deref(input, input).get("properties")?.as_object()?;
    let mut nested = top.iter().filter_map(|(name, schema)| {
        let schema = deref(input, schema);
        if let Some(inner) = names(schema) {
            return Some((inner, Nesting::Object(name.clone())));
        }
        let items = schema.get("items")?;
        names(items).map(|inner| (inner, Nesting::Array(name.clone())))
    });
    match nested.next() {
        Some(one) if top.len() == 1 => Some(one),
        _ => Some((top.keys().cloned().collect(), Nesting::Top)),
    }
}

/// The tools of a `tools/list` result matched to actions, by exact name
/// first, then by a name containing the action's word, always requiring
/// the input-schema properties the attack passes, at the top of the input
/// or inside its one object or array-of-objects property (`$ref`s to
/// `$defs` followed); an exact name with no schema properties at all is
/// taken on trust.
pub fn discover(tools: &[Value]) -> Vec<Tool> {
    let shape = |tool: &Value| tool.get("inputSchema").and_then(shaped_properties);
    let fits = |tool: &Value, action: Action| {
        let props = shape(tool).map(|(p, _)| p).unwrap_or_default();
        action
            .needs()
            .iter()
            .all(|need| props.iter().any(|p| p == need))
    };
    // Some servers publish an empty schema (a zod/JSON-schema mismatch):
    // an exact name is then trusted to take the usual arguments.
    let fits_by_name = |tool: &Value, action: Action| shape(tool).is_none() || fits(tool, action);
    let mut found = Vec::new();
    for action in Action::ALL {
        let chosen = action
            .names()
            .iter()
            .find_map(|name| {
                tools
                    .iter()
                    .find(|t| t.get("name").and_then(Value::as_str) == Some(name))
                    .filter(|t| fits_by_name(t, action))
            })
            .or_else(|| {
                let word = action.names()[0].split('_').next().unwrap_or_default();
                tools.iter().find(|t| {
                    t.get("name")
                        .and_then(Value::as_str)
                        .is_some_and(|n| n.contains(word))
                        && fits(t, action)
                })
            });
        if let Some(tool) = chosen {
            found.push(Tool {
                action,
                name: tool["name"].as_str().unwrap_or_default().to_owned(),
                nesting: shape(tool).map_or(Nesting::Top, |(_, n)| n),
                fills: Vec::new(),
            });
        }
    }
    found
}

/// The `tools/call` arguments for `action` on `paths` (the second path is
/// the destination of a move); `pattern` is what a search looks for.
pub fn arguments(action: Action, paths: &[String], pattern: &str) -> Value {
    let first = paths.first().cloned().unwrap_or_default();
    match action {
        Action::ReadMany => json!({"paths": paths}),
        Action::Search => json!({"path": first, "pattern": pattern}),
        Action::Write => json!({"path": first, "content": "ROOTGUARD-WROTE-THIS\n"}),
        Action::Edit => json!({
            "path": first,
            "edits": [{"oldText": "CANARY", "newText": "ROOTGUARD-EDITED"}],
            "dryRun": false,
        }),
        Action::Move => {
            json!({"source": first, "destination": paths.get(1).cloned().unwrap_or_default()})
        }
        _ => json!({"path": first}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(tools: &[Tool]) -> Vec<(Action, &str)> {
        tools.iter().map(|t| (t.action, t.name.as_str())).collect()
    }

    #[test]
    fn exact_names_win_and_schemas_must_fit() {
        let tools = [
            json!({"name": "read_file", "inputSchema": {"properties": {"path": {}}}}),
            json!({"name": "read_text_file", "inputSchema": {"properties": {"path": {}}}}),
            // A write tool without `content` is not used for writes.
            json!({"name": "write_file", "inputSchema": {"properties": {"path": {}}}}),
            json!({"name": "move_file", "inputSchema": {"properties": {"source": {}, "destination": {}}}}),
        ];
        assert_eq!(
            names(&discover(&tools)),
            [
                (Action::Read, "read_text_file"),
                (Action::Move, "move_file")
            ]
        );
    }

    #[test]
    fn an_empty_schema_trusts_the_name_only() {
        let tools = [
            json!({"name": "read_file", "inputSchema": {"$schema": "x"}}),
            json!({"name": "read_everything", "inputSchema": {"$schema": "x"}}),
        ];
        assert_eq!(names(&discover(&tools)), [(Action::Read, "read_file")]);
    }

    #[test]
    fn similar_names_with_fitting_schemas_are_found() {
        let tools = [json!({"name": "fs_read_file", "inputSchema": {"properties": {"path": {}}}})];
        assert_eq!(names(&discover(&tools)), [(Action::Read, "fs_read_file")]);
    }

    #[test]
    fn nested_path_arguments_are_found_and_filled() {
        let tools = [
            json!({"name": "read_file", "inputSchema": {"type": "object",
                "properties": {"params": {"type": "object", "properties": {"path": {"type": "string"}}}}}}),
            json!({"name": "list_directory", "inputSchema": {"type": "object",
                "properties": {"requests": {"type": "array", "items": {"$ref": "#/$defs/Req"}}},
                "$defs": {"Req": {"type": "object", "properties": {"path": {"type": "string"}}}}}}),
        ];
        let found: Vec<Tool> = discover(&tools)
            .into_iter()
            .filter(|t| matches!(t.action, Action::Read | Action::List))
            .collect();
        assert_eq!(
            names(&found),
            [
                (Action::Read, "read_file"),
                (Action::List, "list_directory")
            ]
        );
        let paths = ["/a".to_string()];
        assert_eq!(
            found[0].arguments(&paths, "x"),
            json!({"params": {"path": "/a"}})
        );
        assert_eq!(
            found[1].arguments(&paths, "x"),
            json!({"requests": [{"path": "/a"}]})
        );
    }

    #[test]
    fn arguments_name_the_schema_properties() {
        let paths = ["/a".to_string(), "/b".to_string()];
        assert_eq!(
            arguments(Action::Move, &paths, "x"),
            json!({"source": "/a", "destination": "/b"})
        );
        assert_eq!(
            arguments(Action::ReadMany, &paths[..1], "x"),
            json!({"paths": ["/a"]})
        );
        assert_eq!(
            arguments(Action::Search, &paths[..1], "p"),
            json!({"path": "/a", "pattern": "p"})
        );
    }
}
